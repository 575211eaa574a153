//! The sleeping field: what resting bodies cost.
//!
//! 10,000 boxes stand in 1,000 separate small pyramids (4 + 3 + 2 + 1 boxes each), 50 to a
//! shelf on 20 static shelves; they come to rest within a second and fall asleep, one island
//! per pyramid. Beside them, 10 boxes bounce forever inside a closed pen (restitution 1, no
//! friction, sleep disabled for them). The baseline is the same pen with the same 10 boxes and
//! nothing else:
//!
//! ```text
//!   ┌──────┐   ▲    ▲▲    ▲▲    ▲▲ …  (50 per shelf)      shelf 19
//!   │ □  □ │  ▲▲▲  ▲▲▲   ▲▲▲   ▲▲▲ …
//!   │  □ □ │  ───────────────────────                    …
//!   │ □ □  │   ▲    ▲▲    ▲▲ …                           shelf 0
//!   └──────┘  ───────────────────────
//!    10 awake         1,000 sleeping islands
//! ```
//!
//! Once the pyramids sleep, a step of the field should cost what a step of the baseline costs,
//! plus only what the sleeping boxes' broadphase proxies add to the awake boxes' tree queries.

use crate::Probes;
use prism::{BodyDef, BodyId, PrismError, Segment, ShapeDef, Vec2, World, make_box};

/// Pyramids per shelf and shelves.
const PYRAMIDS_PER_SHELF: usize = 50;
const SHELVES: usize = 20;
/// Rows of each pyramid (4 + 3 + 2 + 1 = 10 boxes).
const PYRAMID_ROWS: usize = 4;
/// Box half extent (m).
const HALF: f32 = 0.5;
/// Horizontal distance between pyramid centres and vertical distance between shelves (m).
const PYRAMID_SPACING: f32 = 6.0;
const SHELF_SPACING: f32 = 6.0;
/// The bouncing boxes and the pen's inner half width and height (m), left of the shelves.
const BOUNCERS: usize = 10;
const PEN_HALF: f32 = 10.0;
const PEN_CENTER: Vec2 = Vec2::new(-30.0, PEN_HALF);

/// The full field: 1,000 resting pyramids and the pen of 10 bouncing boxes. The probes'
/// subjects are the bouncing boxes.
pub fn sleeping_field(world: &mut World) -> Result<Probes, PrismError> {
    for shelf in 0..SHELVES {
        let top = shelf as f32 * SHELF_SPACING;
        add_shelf(world, top)?;
        for slot in 0..PYRAMIDS_PER_SHELF {
            let center_x = (slot as f32 + 0.5) * PYRAMID_SPACING;
            add_pyramid(world, center_x, top)?;
        }
    }
    bouncing_pen(world)
}

/// The baseline: only the pen and its 10 bouncing boxes.
pub fn sleeping_field_baseline(world: &mut World) -> Result<Probes, PrismError> {
    bouncing_pen(world)
}

/// A static shelf whose top face is the line y = `top` under all of one row's pyramids.
fn add_shelf(world: &mut World, top: f32) -> Result<(), PrismError> {
    let width = PYRAMIDS_PER_SHELF as f32 * PYRAMID_SPACING;
    let shelf = world.create_body(&BodyDef::fixed_at(Vec2::new(0.5 * width, top - 0.5)))?;
    world.create_polygon_shape(shelf, &ShapeDef::default(), &make_box(0.5 * width, 0.5))?;
    Ok(())
}

/// A pyramid of `PYRAMID_ROWS` rows of boxes centred on `center_x`, standing on y = `base`.
fn add_pyramid(world: &mut World, center_x: f32, base: f32) -> Result<(), PrismError> {
    let square = make_box(HALF, HALF);
    for row in 0..PYRAMID_ROWS {
        let boxes = PYRAMID_ROWS - row;
        let y = base + (2 * row + 1) as f32 * HALF;
        for column in 0..boxes {
            let x = center_x + (2.0 * column as f32 - (boxes - 1) as f32) * HALF;
            let body = world.create_body(&BodyDef::dynamic_at(Vec2::new(x, y)))?;
            world.create_polygon_shape(body, &ShapeDef::default(), &square)?;
        }
    }
    Ok(())
}

/// A closed square pen of four static segments with 10 boxes flying about inside it: perfectly
/// elastic, frictionless, never asleep.
fn bouncing_pen(world: &mut World) -> Result<Probes, PrismError> {
    let bouncy = ShapeDef {
        friction: 0.0,
        restitution: 1.0,
        ..ShapeDef::default()
    };
    let pen = world.create_body(&BodyDef::fixed_at(PEN_CENTER))?;
    let corners = [
        Vec2::new(-PEN_HALF, -PEN_HALF),
        Vec2::new(PEN_HALF, -PEN_HALF),
        Vec2::new(PEN_HALF, PEN_HALF),
        Vec2::new(-PEN_HALF, PEN_HALF),
    ];
    for (i, &from) in corners.iter().enumerate() {
        let to = corners[(i + 1) % corners.len()];
        let wall = Segment {
            point1: from,
            point2: to,
        };
        world.create_segment_shape(pen, &bouncy, &wall)?;
    }
    let mut subjects: Vec<BodyId> = Vec::with_capacity(BOUNCERS);
    for i in 0..BOUNCERS {
        let column = (i % 5) as f32;
        let row = (i / 5) as f32;
        let position = PEN_CENTER + Vec2::new(-6.0 + 3.0 * column, -4.0 + 6.0 * row);
        let velocity = Vec2::new(5.0 - 2.3 * column, 3.0 + 1.7 * row);
        let body = world.create_body(&BodyDef {
            linear_velocity: velocity,
            angular_velocity: 1.0 - 0.4 * column,
            enable_sleep: false,
            ..BodyDef::dynamic_at(position)
        })?;
        world.create_polygon_shape(body, &bouncy, &make_box(HALF, HALF))?;
        subjects.push(body);
    }
    Ok(Probes {
        subjects,
        ..Probes::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DT, SUBSTEPS};
    use prism::WorldDef;

    /// The field builds 10,000 pyramid boxes and 10 bouncers; after 3 s every pyramid sleeps
    /// in its own island and only the bouncers are awake, still moving.
    #[test]
    fn field_falls_asleep_except_the_bouncers() {
        let mut world = World::new(WorldDef::default()).unwrap();
        let probes = sleeping_field(&mut world).unwrap();
        let counters = world.counters();
        assert_eq!(counters.bodies, 10_000 + BOUNCERS + SHELVES + 1);
        for _ in 0..180 {
            world.step(DT, SUBSTEPS).unwrap();
        }
        let counters = world.counters();
        assert_eq!(counters.awake_bodies, BOUNCERS);
        assert_eq!(counters.sleeping_sets, 1_000);
        for &body in &probes.subjects {
            assert!(world.is_awake(body).unwrap());
            assert!(world.linear_velocity(body).unwrap().length() > 0.5);
        }
    }
}
