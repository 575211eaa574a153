//! Events and queries: a ball falls through a sensor onto the ground; the step reports the
//! sensor's begin and end, the contact's begin touches and hits as it bounces; a ray cast
//! finds the ball.
//!
//! Run with `cargo run -p prism --example events_queries`.

use prism::{BodyDef, Circle, PrismError, QueryFilter, ShapeDef, Vec2, World, WorldDef, make_box};

fn main() -> Result<(), PrismError> {
    let mut world = World::new(WorldDef::default())?;

    let ground = world.create_body(&BodyDef::fixed_at(Vec2::new(0.0, -1.0)))?;
    let ground_shape =
        world.create_polygon_shape(ground, &ShapeDef::default(), &make_box(10.0, 1.0)?)?;

    // A sensor: a shape that detects what overlaps it and makes no contacts. This one is a
    // 2 m × 1 m box 3 m above the ground, on a static body of its own.
    let zone = world.create_body(&BodyDef::fixed_at(Vec2::new(0.0, 3.0)))?;
    let sensor = ShapeDef {
        is_sensor: true,
        ..ShapeDef::default()
    };
    let zone_shape = world.create_polygon_shape(zone, &sensor, &make_box(1.0, 0.5)?)?;

    // The ball asks for hit events: contacts that strike faster than the world's threshold
    // (1 m/s by default) are reported with their speed.
    let ball = world.create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 6.0)))?;
    let ball_def = ShapeDef {
        enable_hit_events: true,
        restitution: 0.3,
        ..ShapeDef::default()
    };
    let circle = Circle {
        center: Vec2::ZERO,
        radius: 0.25,
    };
    let ball_shape = world.create_circle_shape(ball, &ball_def, &circle)?;
    let name = |shape| match shape {
        s if s == ground_shape => "ground",
        s if s == zone_shape => "sensor",
        s if s == ball_shape => "ball",
        _ => "?",
    };

    // Events are refilled by every step: read them after it.
    for step in 1..=120 {
        world.step(1.0 / 60.0, 4)?;
        let sensors = world.sensor_events();
        for event in &sensors.begin {
            let visitor = name(event.visitor_shape);
            println!(
                "step {step:3}: {visitor} entered the {}",
                name(event.sensor_shape)
            );
        }
        for event in &sensors.end {
            let visitor = name(event.visitor_shape);
            println!(
                "step {step:3}: {visitor} left the {}",
                name(event.sensor_shape)
            );
        }
        let contacts = world.contact_events();
        for event in &contacts.begin {
            let (a, b) = (name(event.shape_a), name(event.shape_b));
            println!("step {step:3}: {a} and {b} began touching");
        }
        for event in &contacts.hit {
            let speed = event.approach_speed;
            let p = event.point;
            println!(
                "step {step:3}: hit at ({:.2}, {:.2}), {speed:.2} m/s",
                p.x, p.y
            );
        }
    }

    // A ray cast along the ground, 0.2 m above it, from the left: the closest shape it
    // meets is the ball resting there. (Rays see sensor shapes too: one cast down through the
    // sensor box would stop at its top face.)
    let origin = Vec2::new(-5.0, 0.2);
    let translation = Vec2::new(10.0, 0.0);
    match world.cast_ray_closest(origin, translation, QueryFilter::default())? {
        Some(hit) => println!(
            "the ray hit the {} at ({:.3}, {:.3}), normal ({:.2}, {:.2})",
            name(hit.shape),
            hit.point.x,
            hit.point.y,
            hit.normal.x,
            hit.normal.y
        ),
        None => println!("the ray hit nothing"),
    }
    Ok(())
}
