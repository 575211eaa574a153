//! The scale family (`scale_10k`, `scale_100k`, `scale_1m`): boxes falling into wide bins and
//! piling up, at ten thousand, a hundred thousand and a million bodies. It measures how step
//! time and memory grow with the body count, so it is not part of the benchmark scenes' `all`.
//!
//! **One bin, repeated.** A bin is a static floor 125 m wide with a wall at each end, and
//! 10,000 boxes (0.5 m) start above it in 50 rows of 200, 0.625 m apart:
//!
//! ```text
//!    ▫ ▫ ▫ ▫ ▫ ▫ ▫ ▫ ▫ ▫ ▫ ▫ …      row 49 (200 boxes, staggered by half a spacing
//!   ▫ ▫ ▫ ▫ ▫ ▫ ▫ ▫ ▫ ▫ ▫ ▫ …       on odd rows)
//!   …
//!  │▫ ▫ ▫ ▫ ▫ ▫ ▫ ▫ ▫ ▫ ▫ ▫ …  │   row 0, 0.25 m above the floor
//!  └───────────── 125 m ───────┘
//! ```
//!
//! A scene of `n` bodies is `n / 10,000` such bins, ten to a row, bins 140 m apart and bin rows
//! 60 m apart. Every size does the same work per body — the same fall, the same pile, the same
//! number of neighbours per box — so a step time that grows faster than the body count would
//! be the engine's doing, not the scene's. Repeating a bin rather than widening one keeps every
//! coordinate within ±700 m, where an `f32` position still resolves 0.06 mm; a single bin of a
//! million boxes fifty rows high would be 78 km wide, and at ±39 km an `f32` resolves only 4 mm,
//! coarser than the contact slop.
//!
//! **Piling up.** Rows fall together; the lowest lands first and each row above lands on the
//! growing pile 0.125 m later (the gap between rows), so contacts build up over the first
//! second and a half. Odd rows are offset by half a spacing, so a box lands across the gap
//! between two below it, and each box starts turned by a small angle (±0.05 rad, from a hash of
//! its place, the same in every engine), so the pile settles unevenly instead of stacking into
//! perfect columns. Sleeping is on, as a game would run it: once a bin's pile has rested for the
//! engines' time to sleep (0.5 s) it costs almost nothing. The scenes' 150 steps cover the fall,
//! the pile-up and the start of the settling, the part whose cost grows with the body count;
//! the piles fall asleep after about 3.5 s (`--steps 300` shows it).

use super::model::{BodyDesc, BodyGroup, BodyKind, ShapeDesc, offset_box, square_box};
use prism::Vec2;

/// Boxes per bin: 50 rows of 200.
pub const BIN_BOXES: usize = BIN_ROWS * BIN_COLUMNS;
const BIN_ROWS: usize = 50;
const BIN_COLUMNS: usize = 200;
/// Half extent of a box (m).
const HALF: f32 = 0.25;
/// Distance between box centres along a row and between rows (m).
const SPACING: f32 = 0.625;
/// Height of the lowest row's centre above the floor (m).
const FIRST_ROW: f32 = 0.5;
/// Inner width of a bin: 200 spacings plus the half spacing of the staggered rows (m).
const BIN_WIDTH: f32 = 125.0 + 0.5 * SPACING;
/// Wall height above the floor (m) and thickness of floor and walls (m).
const WALL_HEIGHT: f32 = 40.0;
const THICKNESS: f32 = 1.0;
/// Bins per row of bins, and the distance between neighbouring bins' centres (m).
const BINS_PER_ROW: usize = 10;
const BIN_PITCH_X: f32 = 140.0;
const BIN_PITCH_Y: f32 = 60.0;
/// Largest starting turn of a box (rad).
const MAX_TURN: f32 = 0.05;

// Neighbouring bins never touch: the pitch exceeds a bin's outer width (walls included), and
// a bin row's pitch exceeds the walls' height plus the floor's thickness.
const _: () = assert!(BIN_PITCH_X > BIN_WIDTH + 2.0 * THICKNESS);
const _: () = assert!(BIN_PITCH_Y > WALL_HEIGHT + THICKNESS);

/// `bins` bins of [`BIN_BOXES`] boxes each: per bin, its static container, then its boxes.
pub(super) fn scale(bins: usize) -> BodyGroup {
    let mut bodies = Vec::with_capacity(bins * (BIN_BOXES + 1));
    let rows = bins.div_ceil(BINS_PER_ROW);
    for bin in 0..bins {
        let (column, row) = (bin % BINS_PER_ROW, bin / BINS_PER_ROW);
        let centre_x = (column as f32 - 0.5 * (BINS_PER_ROW.min(bins) - 1) as f32) * BIN_PITCH_X;
        let floor_y = (row as f32 - 0.5 * (rows - 1) as f32) * BIN_PITCH_Y;
        push_bin(&mut bodies, Vec2::new(centre_x, floor_y), bin);
    }
    BodyGroup {
        bodies,
        joints: Vec::new(),
    }
}

/// One bin whose floor's top face is centred at `floor`, and its boxes.
fn push_bin(bodies: &mut Vec<BodyDesc>, floor: Vec2, bin: usize) {
    let half_width = 0.5 * BIN_WIDTH;
    let half_wall = 0.5 * WALL_HEIGHT;
    let half_thick = 0.5 * THICKNESS;
    let shapes = [
        (
            half_width + THICKNESS,
            half_thick,
            Vec2::new(0.0, -half_thick),
        ),
        (
            half_thick,
            half_wall,
            Vec2::new(-half_width - half_thick, half_wall),
        ),
        (
            half_thick,
            half_wall,
            Vec2::new(half_width + half_thick, half_wall),
        ),
    ];
    let mut container = BodyDesc::new(BodyKind::Static, floor);
    for (hx, hy, centre) in shapes {
        container
            .shapes
            .push(ShapeDesc::new(offset_box(hx, hy, centre)));
    }
    bodies.push(container);
    let left = floor.x - half_width + 0.5 * SPACING;
    for row in 0..BIN_ROWS {
        let stagger = if row % 2 == 1 { 0.5 * SPACING } else { 0.0 };
        let y = floor.y + FIRST_ROW + SPACING * row as f32;
        for column in 0..BIN_COLUMNS {
            let x = left + stagger + SPACING * column as f32;
            let index = (bin * BIN_BOXES + row * BIN_COLUMNS + column) as u32;
            let body = BodyDesc::new(BodyKind::Dynamic, Vec2::new(x, y))
                .rotated(MAX_TURN * signed_unit(index))
                .with_shape(ShapeDesc::new(square_box(HALF, HALF)));
            bodies.push(body);
        }
    }
}

/// A number in [−1, 1) from the integer `n`: the top bits of a multiplicative hash (Knuth's
/// golden-ratio constant, then a xor-shift to spread the high bits), the same on every
/// platform.
fn signed_unit(n: u32) -> f32 {
    let mut h = n.wrapping_mul(0x9E37_79B1);
    h ^= h >> 15;
    h = h.wrapping_mul(0x85EB_CA77);
    h ^= h >> 13;
    // 24 bits are exact in an f32.
    (h >> 8) as f32 / (1u32 << 23) as f32 - 1.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::description::Geometry;

    /// Every box starts inside its bin, clear of the floor, the walls and every other box:
    /// neighbours in a row are a spacing apart and a box turned by at most 0.05 rad reaches
    /// at most `HALF·(cos θ + sin θ)` ≈ 0.262 m from its centre, less than half the spacing.
    #[test]
    fn boxes_start_inside_their_bins_and_apart() {
        let group = scale(12);
        assert_eq!(group.bodies.len(), 12 * (BIN_BOXES + 1));
        let reach = HALF * (MAX_TURN.cos() + MAX_TURN.sin());
        assert!(reach < 0.5 * SPACING);
        for bin in group.bodies.chunks(BIN_BOXES + 1) {
            let container = &bin[0];
            assert_eq!(container.kind, BodyKind::Static);
            let floor = container.position;
            for body in &bin[1..] {
                assert_eq!(body.kind, BodyKind::Dynamic);
                assert!(body.angle.abs() <= MAX_TURN);
                let local = body.position - floor;
                assert!(local.y - reach > 0.0, "{local:?}");
                assert!(local.x.abs() + reach < 0.5 * BIN_WIDTH, "{local:?}");
            }
        }
        // Two boxes of the same row and neighbouring columns are one spacing apart.
        let (a, b) = (&group.bodies[1], &group.bodies[2]);
        assert!(((b.position.x - a.position.x) - SPACING).abs() < 1e-4);
    }

    /// A hundred bins sit ten by ten, centred on the origin and within ±700 m, with floors as
    /// wide as the bin plus its walls.
    #[test]
    fn bins_are_centred_and_near_the_origin() {
        let group = scale(100);
        let floors: Vec<Vec2> = group
            .bodies
            .iter()
            .filter(|b| b.kind == BodyKind::Static)
            .map(|b| b.position)
            .collect();
        assert_eq!(floors.len(), 100);
        let sum = floors.iter().fold(Vec2::ZERO, |s, &p| s + p);
        assert!(sum.length() / 100.0 < 1e-3, "bins centred on the origin");
        let far = floors
            .iter()
            .map(|p| p.x.abs().max(p.y.abs()))
            .fold(0.0, f32::max);
        assert!(far < 700.0, "{far}");
        let Geometry::Box { half_extents, .. } = group.bodies[0].shapes[0].geometry else {
            panic!("the floor is a box");
        };
        assert_eq!(half_extents.x, 0.5 * BIN_WIDTH + THICKNESS);
    }

    /// The turn hash spreads over [−1, 1): its mean over many boxes is near 0 and both ends
    /// are reached.
    #[test]
    fn turns_spread_both_ways() {
        let values: Vec<f32> = (0..10_000).map(signed_unit).collect();
        let mean = values.iter().sum::<f32>() / values.len() as f32;
        assert!(mean.abs() < 0.03, "{mean}");
        assert!(values.iter().all(|v| (-1.0..1.0).contains(v)));
        assert!(values.iter().any(|&v| v < -0.99) && values.iter().any(|&v| v > 0.99));
    }
}
