//! Small scenes with a known answer, for behaviour tests and quick looks. The ground is always
//! a static box whose top face is the line y = 0 (or the inclined plane through the origin).

use crate::Probes;
use prism::{BodyDef, BodyId, Circle, PrismError, Rot, ShapeDef, Vec2, World, make_box};

/// A wide static ground box with its top face at y = 0.
fn flat_ground(world: &mut World) -> Result<BodyId, PrismError> {
    let ground = world.create_body(&BodyDef::fixed_at(Vec2::new(0.0, -1.0)))?;
    world.create_polygon_shape(ground, &ShapeDef::default(), &make_box(50.0, 1.0)?)?;
    Ok(ground)
}

/// A 1 m box released 0.5 m above the ground (its bottom face at y = 0.5).
pub fn resting_box(world: &mut World) -> Result<Probes, PrismError> {
    flat_ground(world)?;
    let body = world.create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 1.0)))?;
    world.create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5)?)?;
    Ok(Probes {
        subjects: vec![body],
        ..Probes::default()
    })
}

/// A pyramid of 1 m boxes, `rows` boxes wide at the base, standing on the ground.
pub fn pyramid(world: &mut World, rows: u32) -> Result<Probes, PrismError> {
    flat_ground(world)?;
    let a = 0.5f32;
    let square = make_box(a, a)?;
    let mut probes = Probes::default();
    for i in 0..rows {
        let y = (2 * i + 1) as f32 * a;
        for j in i..rows {
            let x = (i + 1) as f32 * a + 2.0 * (j - i) as f32 * a - a * rows as f32;
            let body = world.create_body(&BodyDef::dynamic_at(Vec2::new(x, y)))?;
            world.create_polygon_shape(body, &ShapeDef::default(), &square)?;
            probes.subjects.push(body);
            if i + 1 == rows {
                probes.pyramid_tops.push((body, y));
            }
        }
    }
    Ok(probes)
}

/// A 1 m box resting on a plane inclined by `angle` radians, both with friction `friction`.
/// The plane is a static box rotated about the origin; the box sits on it, rotated to match.
pub fn incline(world: &mut World, angle: f32, friction: f32) -> Result<Probes, PrismError> {
    let q = Rot::from_angle(angle);
    let plane = world.create_body(&BodyDef {
        rotation: q,
        ..BodyDef::fixed_at(q.rotate(Vec2::new(0.0, -1.0)))
    })?;
    let material = ShapeDef {
        friction,
        ..ShapeDef::default()
    };
    world.create_polygon_shape(plane, &material, &make_box(50.0, 1.0)?)?;
    let body = world.create_body(&BodyDef {
        rotation: q,
        ..BodyDef::dynamic_at(q.rotate(Vec2::new(0.0, 0.5)))
    })?;
    world.create_polygon_shape(body, &material, &make_box(0.5, 0.5)?)?;
    Ok(Probes {
        subjects: vec![body],
        ..Probes::default()
    })
}

/// A ball of radius 0.25 with restitution `restitution`, its bottom `height` above the ground.
pub fn bouncing_ball(
    world: &mut World,
    height: f32,
    restitution: f32,
) -> Result<Probes, PrismError> {
    flat_ground(world)?;
    let radius = 0.25;
    let ball = world.create_body(&BodyDef::dynamic_at(Vec2::new(0.0, height + radius)))?;
    let def = ShapeDef {
        restitution,
        ..ShapeDef::default()
    };
    world.create_circle_shape(
        ball,
        &def,
        &Circle {
            center: Vec2::ZERO,
            radius,
        },
    )?;
    Ok(Probes {
        subjects: vec![ball],
        ..Probes::default()
    })
}

/// `count` dominoes (0.1 × 1 m, 0.5 m apart) in a line; the first is given a push.
pub fn dominoes(world: &mut World, count: u32) -> Result<Probes, PrismError> {
    flat_ground(world)?;
    let mut probes = Probes::default();
    let tile = make_box(0.05, 0.5)?;
    for i in 0..count {
        let body = world.create_body(&BodyDef::dynamic_at(Vec2::new(0.5 * i as f32, 0.5)))?;
        world.create_polygon_shape(body, &ShapeDef::default(), &tile)?;
        probes.subjects.push(body);
    }
    if let Some(&first) = probes.subjects.first() {
        world.set_angular_velocity(first, -2.0)?;
    }
    Ok(probes)
}
