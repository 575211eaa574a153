//! A pyramid of boxes settles and falls asleep.
//!
//! Run with `cargo run -p prism --example pyramid`.

use prism::{BodyDef, BodyId, PrismError, ShapeDef, Vec2, World, WorldDef, make_box, make_square};

/// Rows in the pyramid; the bottom row has this many boxes.
const ROWS: usize = 20;
/// Half the side of each box (m).
const HALF: f32 = 0.5;

fn main() -> Result<(), PrismError> {
    // Two worker threads: the result is the same, bit for bit, for any count.
    let mut world = World::new(WorldDef {
        worker_count: 2,
        ..WorldDef::default()
    })?;
    let ground = world.create_body(&BodyDef::fixed_at(Vec2::new(0.0, -1.0)))?;
    world.create_polygon_shape(ground, &ShapeDef::default(), &make_box(40.0, 1.0)?)?;

    // Row `i` has ROWS − i boxes and starts half a box to the right of the row below.
    let square = make_square(HALF)?;
    let mut top: Option<BodyId> = None;
    for row in 0..ROWS {
        let y = (2 * row + 1) as f32 * HALF;
        for column in 0..ROWS - row {
            let x = (row as f32 - ROWS as f32 + 1.0) * HALF + 2.0 * column as f32 * HALF;
            let body = world.create_body(&BodyDef::dynamic_at(Vec2::new(x, y)))?;
            world.create_polygon_shape(body, &ShapeDef::default(), &square)?;
            top = Some(body);
        }
    }
    let top = top.expect("the pyramid has a top box");
    let start = world.position(top)?.y;

    // Five seconds. The counters show the contacts and, once the pyramid rests, the sleep.
    for step in 1..=300 {
        world.step(1.0 / 60.0, 4)?;
        if step % 60 == 0 {
            let counters = world.counters();
            println!(
                "t = {} s: {} bodies, {} awake, {} touching contacts, step {:.2} ms",
                step / 60,
                counters.bodies,
                counters.awake_bodies,
                counters.touching_contacts,
                world.profile().total
            );
        }
    }
    let drop = start - world.position(top)?.y;
    println!("the top box sank {:.1} mm", drop * 1000.0);
    Ok(())
}
