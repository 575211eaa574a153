//! Validation scenes: single columns of boxes on the ground — column_10, column_20,
//! column_30 (unit boxes) and boards_30 (boards 1 m wide, 0.1 m thick) built straight, and
//! uneven_20, uneven_30: unit-box columns as a hand would build them, each box off by up to
//! ±1 mm sideways and ±0.1 mrad.
//!
//! A column is the hardest stack to keep standing: a pyramid braces itself, a column does
//! not, so any sideways push the contacts make — a normal turned by a box's tiny tilt,
//! friction reacting to the solver's position correction — accumulates into a lean. The boxes
//! start exactly touching (box `i` centred at `y = h·(2i + 1)` for half height `h`) on a
//! static ground box whose top face is `y = 0`, all at `x = 0`.
//!
//! Figures ([`crate::figures::stack`]): the top's largest sideways drift, when it first passes
//! 1 cm, how far the top sinks, and whether the column stood — every box ending within half a
//! box width (0.5 m) of where it started, sideways and down.

use super::model::{BodyDesc, BodyGroup, BodyKind, ShapeDesc, flat_ground, square_box};
use super::probes::Probes;
use crate::figures::{Check, StackCheck};
use prism::Vec2;

/// A column of `count` boxes with half extents `half`, exactly touching, on the ground.
pub(super) fn column(count: usize, half: Vec2) -> (BodyGroup, Probes) {
    uneven_column(count, half, |_| 0.0)
}

/// The sideways offset (m) of box `i` of an uneven column: a fixed, irregular pattern in
/// [−1, 1] mm (the box is also turned by a tenth of it, in radians per metre).
pub(super) fn hand_built_offset(i: usize) -> f32 {
    0.001 * ((i * 7919 % 13) as f32 / 6.0 - 1.0)
}

/// A column whose box `i` is shifted sideways by `offset(i)` and turned by `0.1·offset(i)`.
pub(super) fn uneven_column(
    count: usize,
    half: Vec2,
    offset: impl Fn(usize) -> f32,
) -> (BodyGroup, Probes) {
    let mut bodies = vec![flat_ground()];
    let mut subjects = Vec::with_capacity(count);
    for i in 0..count {
        let y = half.y * (2 * i + 1) as f32;
        let body = BodyDesc::new(BodyKind::Dynamic, Vec2::new(offset(i), y))
            .rotated(0.1 * offset(i))
            .with_shape(ShapeDesc::new(square_box(half.x, half.y)));
        subjects.push(bodies.len());
        bodies.push(body);
    }
    let check = Check::Stack(StackCheck { tolerance: half.x });
    let probes = Probes {
        subjects,
        check: Some(check),
        ..Probes::default()
    };
    let group = BodyGroup {
        bodies,
        joints: Vec::new(),
    };
    (group, probes)
}

/// Unit boxes (1 m × 1 m).
pub(super) const UNIT_BOX: Vec2 = Vec2::new(0.5, 0.5);
/// Thin boards (1 m × 0.1 m).
pub(super) const BOARD: Vec2 = Vec2::new(0.5, 0.05);

#[cfg(test)]
mod tests {
    use super::*;

    /// Each box's bottom face lies on the top face of the one below (or the ground).
    #[test]
    fn boxes_start_exactly_touching() {
        for half in [UNIT_BOX, BOARD] {
            let (group, probes) = column(30, half);
            assert_eq!(probes.subjects.len(), 30);
            let mut below = 0.0f32;
            for &i in &probes.subjects {
                let y = group.bodies[i].position.y;
                assert!((y - half.y - below).abs() < 1e-5, "{y} on {below}");
                below = y + half.y;
            }
        }
    }
}
