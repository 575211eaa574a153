//! tumbler: a motor-driven hollow drum turning slowly with 2,025 small boxes inside.

use super::joint::{Motor, RevoluteDesc};
use super::model::{BodyDesc, BodyGroup, BodyKind, ShapeDesc, offset_box, square_box};
use super::probes::Probes;
use prism::Vec2;

pub(super) fn tumbler() -> (BodyGroup, Probes) {
    let ground = BodyDesc::new(BodyKind::Static, Vec2::ZERO);
    let mut drum = BodyDesc::new(BodyKind::Dynamic, Vec2::new(0.0, 10.0));
    let walls = [
        (0.5, 10.0, Vec2::new(10.0, 0.0)),
        (0.5, 10.0, Vec2::new(-10.0, 0.0)),
        (10.0, 0.5, Vec2::new(0.0, 10.0)),
        (10.0, 0.5, Vec2::new(0.0, -10.0)),
    ];
    for (hx, hy, center) in walls {
        drum.shapes
            .push(ShapeDesc::new(offset_box(hx, hy, center)).density(50.0));
    }
    let motor = Motor {
        speed: 25.0_f32.to_radians(),
        max_torque: 1.0e8,
    };
    let joint = RevoluteDesc {
        motor: Some(motor),
        ..RevoluteDesc::hinge(0, 1, Vec2::new(0.0, 10.0), Vec2::ZERO)
    };
    let mut bodies = vec![ground, drum];
    for i in 0..45 {
        for j in 0..45 {
            let position = Vec2::new(-9.0 + 0.4 * j as f32, 1.0 + 0.4 * i as f32);
            let body = BodyDesc::new(BodyKind::Dynamic, position)
                .with_shape(ShapeDesc::new(square_box(0.125, 0.125)));
            bodies.push(body);
        }
    }
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
