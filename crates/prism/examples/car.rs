//! A car: a chassis on two wheels held by wheel joints (a sprung suspension axis and a free
//! spin), the rear wheel driven by the joint's motor, on a road with a bump.
//!
//! Run with `cargo run -p prism --example car`.

use prism::{
    BodyDef, BodyId, Circle, PrismError, ShapeDef, Vec2, WheelJoint, WheelJointDef, World,
    WorldDef, make_box,
};

fn main() -> Result<(), PrismError> {
    let mut world = World::new(WorldDef::default())?;

    // The road: a long flat box, and a low bump 8 m ahead.
    let road = world.create_body(&BodyDef::fixed_at(Vec2::new(0.0, -0.5)))?;
    world.create_polygon_shape(road, &ShapeDef::default(), &make_box(100.0, 0.5)?)?;
    let bump = world.create_body(&BodyDef::fixed_at(Vec2::new(8.0, 0.0)))?;
    world.create_polygon_shape(bump, &ShapeDef::default(), &make_box(0.6, 0.08)?)?;

    // The chassis: a 2.5 m × 0.5 m box.
    let chassis = world.create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 1.0)))?;
    world.create_polygon_shape(chassis, &ShapeDef::default(), &make_box(1.25, 0.25)?)?;

    // The wheels: rubber-like friction, driven by the rear one.
    let tyre = ShapeDef {
        friction: 0.9,
        ..ShapeDef::default()
    };
    let rear = wheel(&mut world, &tyre, Vec2::new(-0.9, 0.4))?;
    let front = wheel(&mut world, &tyre, Vec2::new(0.9, 0.4))?;

    // A wheel joint lets the wheel slide along an axis fixed in the chassis (here vertical:
    // the suspension, a spring at 4 Hz) and spin freely about its centre. A motor turns it:
    // negative speed is clockwise, which rolls the car to the right.
    let suspension = WheelJoint {
        enable_spring: true,
        hertz: 4.0,
        damping_ratio: 0.7,
        ..WheelJoint::default()
    };
    let drive = WheelJoint {
        enable_motor: true,
        motor_speed: -15.0,
        max_motor_torque: 40.0,
        ..suspension
    };
    for (wheel, settings) in [(rear, drive), (front, suspension)] {
        let anchor = world.position(wheel)?;
        let def = WheelJointDef {
            local_axis_a: Vec2::new(0.0, 1.0),
            settings,
            ..WheelJointDef::new(world.anchored_joint_def(chassis, wheel, anchor)?)
        };
        world.create_wheel_joint(&def)?;
    }

    // Drive for four seconds.
    for step in 1..=240 {
        world.step(1.0 / 60.0, 4)?;
        if step % 30 == 0 {
            let p = world.position(chassis)?;
            let v = world.linear_velocity(chassis)?;
            let tilt = world.rotation(chassis)?.angle().to_degrees();
            println!(
                "t = {:.1} s: chassis at ({:5.2}, {:4.2}) m, {:4.1} m/s, tilt {tilt:5.1}°",
                step as f32 / 60.0,
                p.x,
                p.y,
                v.x
            );
        }
    }
    Ok(())
}

/// A 0.4 m wheel at `position`.
fn wheel(world: &mut World, tyre: &ShapeDef, position: Vec2) -> Result<BodyId, PrismError> {
    let body = world.create_body(&BodyDef::dynamic_at(position))?;
    let circle = Circle {
        center: Vec2::ZERO,
        radius: 0.4,
    };
    world.create_circle_shape(body, tyre, &circle)?;
    Ok(body)
}
