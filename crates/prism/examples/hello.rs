//! Hello, Prism: a 1 m box falls onto the ground and comes to rest.
//!
//! Run with `cargo run -p prism --example hello`.

use prism::{BodyDef, PrismError, ShapeDef, Vec2, World, WorldDef, make_box};

fn main() -> Result<(), PrismError> {
    // A world with Box2D's defaults: gravity (0, −10) m/s², sleep on.
    let mut world = World::new(WorldDef::default())?;

    // The ground: a static body with a 100 m × 20 m box, its top face at y = 0.
    let ground = world.create_body(&BodyDef::fixed_at(Vec2::new(0.0, -10.0)))?;
    world.create_polygon_shape(ground, &ShapeDef::default(), &make_box(50.0, 10.0)?)?;

    // The box: a dynamic body 4 m up, with a 1 m × 1 m shape (half extents 0.5 m). Its mass
    // comes from the shape's density (1 kg/m² by default).
    let body = world.create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 4.0)))?;
    world.create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5)?)?;

    // Step 1.5 s at 60 Hz with 4 solver substeps, as Box2D's samples do.
    let time_step = 1.0 / 60.0;
    for step in 1..=90 {
        world.step(time_step, 4)?;
        if step % 15 == 0 {
            let p = world.position(body)?;
            let angle = world.rotation(body)?.angle();
            println!(
                "step {step:2}: position ({:6.3}, {:6.3}) angle {angle:6.3}",
                p.x, p.y
            );
        }
    }

    // The box rests with its centre half a metre above the ground.
    let p = world.position(body)?;
    println!("final position ({:.3}, {:.3})", p.x, p.y);
    Ok(())
}
