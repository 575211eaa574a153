//! spinner: a motor-driven blade turning inside a circular chain loop full of 6,076 pieces of
//! debris (capsules, circles and boxes).

use super::joint::{Motor, RevoluteDesc};
use super::model::{BodyDesc, BodyGroup, BodyKind, Geometry, ShapeDesc, square_box};
use super::probes::Probes;
use prism::Vec2;
use std::f32::consts::PI;

/// The spinner's loop: 360 points on a circle of radius 40 centred at (0, 32), walked
/// clockwise by repeatedly rotating `p` by −2π/360 (in f32, as Box2D does).
fn spinner_loop_points() -> Vec<Vec2> {
    const COUNT: usize = 360;
    let (sin, cos) = (-2.0 * PI / COUNT as f32).sin_cos();
    let mut p = Vec2::new(40.0, 0.0);
    let mut points = Vec::with_capacity(COUNT);
    for _ in 0..COUNT {
        points.push(Vec2::new(p.x, p.y + 32.0));
        p = Vec2::new(cos * p.x - sin * p.y, sin * p.x + cos * p.y);
    }
    points
}

pub(super) fn spinner() -> (BodyGroup, Probes) {
    let chain = Geometry::ChainLoop {
        points: spinner_loop_points(),
    };
    let ground =
        BodyDesc::new(BodyKind::Static, Vec2::ZERO).with_shape(ShapeDesc::new(chain).friction(0.1));
    let blade = Geometry::Box {
        half_extents: Vec2::new(0.4, 20.0),
        center: Vec2::ZERO,
        radius: 0.2,
    };
    let spinner_position = Vec2::new(0.0, 12.0);
    let mut spinner = BodyDesc::new(BodyKind::Dynamic, spinner_position)
        .with_shape(ShapeDesc::new(blade).friction(0.0));
    spinner.can_sleep = false;
    let motor = Motor {
        speed: 5.0,
        max_torque: f32::MAX,
    };
    let joint = RevoluteDesc {
        motor: Some(motor),
        ..RevoluteDesc::hinge(0, 1, spinner_position, Vec2::ZERO)
    };
    let mut bodies = vec![ground, spinner];
    push_spinner_debris(&mut bodies);
    let probes = Probes {
        top_boxes: Vec::new(),
        motor_body: Some(1),
        ..Probes::default()
    };
    (
        BodyGroup {
            bodies,
            joints: vec![joint.into()],
        },
        probes,
    )
}

fn push_spinner_debris(bodies: &mut Vec<BodyDesc>) {
    let (mut x, mut y) = (-23.0f32, 2.0f32);
    for i in 0..6076 {
        let geometry = match i % 3 {
            0 => Geometry::Capsule {
                center1: Vec2::new(-0.25, 0.0),
                center2: Vec2::new(0.25, 0.0),
                radius: 0.25,
            },
            1 => Geometry::Circle {
                center: Vec2::ZERO,
                radius: 0.35,
            },
            _ => square_box(0.35, 0.35),
        };
        let shape = ShapeDesc::new(geometry)
            .density(0.25)
            .friction(0.1)
            .restitution(0.1);
        bodies.push(BodyDesc::new(BodyKind::Dynamic, Vec2::new(x, y)).with_shape(shape));
        x += 0.5;
        if x >= 23.0 {
            x = -23.0;
            y += 0.5;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spinner_loop_is_a_clockwise_circle() {
        let points = spinner_loop_points();
        let center = Vec2::new(0.0, 32.0);
        for p in &points {
            assert!(((*p - center).length() - 40.0).abs() < 1e-3);
        }
        // Shoelace area is negative for clockwise order; |area| ≈ π·40² (polygon, 360 sides).
        let area: f32 = (0..points.len())
            .map(|i| {
                let (p, q) = (points[i], points[(i + 1) % points.len()]);
                0.5 * (p.x * q.y - q.x * p.y)
            })
            .sum();
        let polygon_area = 0.5 * 360.0 * 1600.0 * (2.0 * PI / 360.0).sin();
        assert!(
            area < 0.0 && (area.abs() - polygon_area).abs() < 1.0,
            "{area}"
        );
    }
}
