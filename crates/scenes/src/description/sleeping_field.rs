//! The sleeping field: what resting bodies cost (not one of Box2D's eight benchmark scenes; it
//! measures the sleep issue's promise that a sleeping island costs nothing per step).
//!
//! 10,000 boxes stand in 1,000 separate small pyramids (4 + 3 + 2 + 1 boxes each), 50 to a
//! shelf on 20 static shelves, all created asleep (each box its own sleeping island until
//! something wakes it, as Box2D does with bodies created asleep). Beside
//! them, 10 boxes bounce forever inside a closed pen (restitution 1, no friction, sleep disabled
//! for them). The baseline is the same pen with the same 10 boxes and nothing else:
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
//! A step of the field should cost what a step of the baseline costs, plus only what the
//! sleeping boxes' broadphase proxies add to the awake boxes' tree queries.

use crate::description::{BodyDesc, BodyGroup, BodyKind, Geometry, ShapeDesc, Vec2, square_box};

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
pub(crate) const BOUNCERS: usize = 10;
const PEN_HALF: f32 = 10.0;
const PEN_CENTER: Vec2 = Vec2::new(-30.0, PEN_HALF);

/// The full field: 1,000 sleeping pyramids on 20 shelves, then the pen and its bouncers.
pub(crate) fn sleeping_field() -> BodyGroup {
    let mut group = BodyGroup::default();
    for shelf in 0..SHELVES {
        let top = shelf as f32 * SHELF_SPACING;
        group.bodies.push(shelf_body(top));
        for slot in 0..PYRAMIDS_PER_SHELF {
            let center_x = (slot as f32 + 0.5) * PYRAMID_SPACING;
            push_sleeping_pyramid(&mut group.bodies, center_x, top);
        }
    }
    group.bodies.extend(bouncing_pen().bodies);
    group
}

/// A static shelf whose top face is the line y = `top` under all of one row's pyramids.
fn shelf_body(top: f32) -> BodyDesc {
    let width = PYRAMID_SPACING * PYRAMIDS_PER_SHELF as f32;
    BodyDesc::new(BodyKind::Static, Vec2::new(0.5 * width, top - 0.5))
        .with_shape(ShapeDesc::new(square_box(0.5 * width, 0.5)))
}

/// A pyramid of `PYRAMID_ROWS` rows of boxes centred on `center_x`, standing on y = `base`,
/// created asleep.
fn push_sleeping_pyramid(bodies: &mut Vec<BodyDesc>, center_x: f32, base: f32) {
    for row in 0..PYRAMID_ROWS {
        let boxes = PYRAMID_ROWS - row;
        let y = base + (2 * row + 1) as f32 * HALF;
        for column in 0..boxes {
            let x = center_x + (2.0 * column as f32 - (boxes - 1) as f32) * HALF;
            let mut body = BodyDesc::new(BodyKind::Dynamic, Vec2::new(x, y))
                .with_shape(ShapeDesc::new(square_box(HALF, HALF)));
            body.starts_asleep = true;
            bodies.push(body);
        }
    }
}

/// A closed square pen of four static segments with 10 boxes flying about inside it: perfectly
/// elastic, frictionless, never asleep.
pub(crate) fn bouncing_pen() -> BodyGroup {
    let corners = [
        Vec2::new(-PEN_HALF, -PEN_HALF),
        Vec2::new(PEN_HALF, -PEN_HALF),
        Vec2::new(PEN_HALF, PEN_HALF),
        Vec2::new(-PEN_HALF, PEN_HALF),
    ];
    let mut pen = BodyDesc::new(BodyKind::Static, PEN_CENTER);
    for (i, &point1) in corners.iter().enumerate() {
        let point2 = corners[(i + 1) % corners.len()];
        pen.shapes
            .push(bouncy(Geometry::Segment { point1, point2 }));
    }
    let mut bodies = vec![pen];
    for i in 0..BOUNCERS {
        let column = (i % 5) as f32;
        let row = (i / 5) as f32;
        let position = PEN_CENTER + Vec2::new(-6.0 + 3.0 * column, -4.0 + 6.0 * row);
        let mut body =
            BodyDesc::new(BodyKind::Dynamic, position).with_shape(bouncy(square_box(HALF, HALF)));
        body.linear_velocity = Vec2::new(5.0 - 2.3 * column, 3.0 + 1.7 * row);
        body.can_sleep = false;
        bodies.push(body);
    }
    BodyGroup {
        bodies,
        joints: Vec::new(),
    }
}

fn bouncy(geometry: Geometry) -> ShapeDesc {
    ShapeDesc::new(geometry).friction(0.0).restitution(1.0)
}
