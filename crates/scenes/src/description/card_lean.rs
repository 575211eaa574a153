//! Validation scene: card_lean, a two-storey house of cards.
//!
//! Cards are thin boards 1 m long and 0.02 m thick (density 1, friction 0.6). Two cards
//! leaning against each other at ±20° from the vertical form an *A*: each card's foot stands
//! on the floor, and the top corners of the two cards meet at the apex. Held up only by
//! friction at the feet and the push of the other card at the top, an A stands if the feet do
//! not slide: with `φ` the lean, a card of weight `mg` needs a friction force
//! `mg·tan φ / 2 = 0.18 mg` at its foot (torques about the foot), well within `μ = 0.6`.
//!
//! ```text
//!                 /\            storey 2: one A on the flat card
//!          ______/__\______     the flat card, resting on the two apexes below
//!           /\          /\
//!          /  \        /  \     storey 1: two A's side by side on the ground
//! ```
//!
//! Storey 1 is two A's with their apexes 0.8 m apart; a flat card lies across the two A's;
//! storey 2 is one A standing on the flat card, centred. Every card starts exactly touching
//! the cards and floor it rests on. A card of half length `h` and half thickness `t` leaning
//! by `φ` toward the apex has its lowest corner on the floor and its top inner corner on the
//! apex when its centre is at
//!
//! ```text
//!   x = apex_x ∓ (t cos φ + h sin φ),   y = floor + h cos φ + t sin φ,
//! ```
//!
//! which puts the apex `2h cos φ` above the floor. A card's top edge slopes down toward the
//! apex, so the highest points of an A are the two outer top corners, `2t sin φ` higher and
//! `2t cos φ` to either side of the apex: the flat card lies on those four corners.
//!
//! Figures ([`crate::figures::stack`]): the subjects are the cards from the bottom storey up;
//! the top is storey 2's right-hand card. The house stood if every card ends within 0.1 m (a
//! tenth of a card) of where it started, sideways and down. The scene runs 10 s.

use super::model::{BodyDesc, BodyGroup, BodyKind, ShapeDesc, flat_ground, square_box};
use super::probes::Probes;
use crate::figures::{Check, StackCheck};
use prism::Vec2;
use std::f32::consts::PI;

/// Half the card's length and half its thickness (m).
const HALF_LENGTH: f32 = 0.5;
const HALF_THICKNESS: f32 = 0.01;
/// The lean of each card of an A from the vertical (rad).
const LEAN: f32 = 20.0 * PI / 180.0;
/// Half the distance between storey 1's two apexes (m).
const APEX_HALF_SPACING: f32 = 0.4;
/// How far a card may end from its start and still count as standing (m).
const STAND_TOLERANCE: f32 = 0.1;

/// One leaning card of an A with its apex at (`apex_x`, apex height) over `floor`: `side` −1
/// is the left card (leaning right, turned clockwise), +1 the right one.
fn leaning_card(apex_x: f32, floor: f32, side: f32) -> BodyDesc {
    let (sin, cos) = LEAN.sin_cos();
    let x = apex_x + side * (HALF_THICKNESS * cos + HALF_LENGTH * sin);
    let y = floor + HALF_LENGTH * cos + HALF_THICKNESS * sin;
    card(
        Vec2::new(x, y),
        side * LEAN,
        Vec2::new(HALF_THICKNESS, HALF_LENGTH),
    )
}

fn card(position: Vec2, angle: f32, half: Vec2) -> BodyDesc {
    BodyDesc::new(BodyKind::Dynamic, position)
        .rotated(angle)
        .with_shape(ShapeDesc::new(square_box(half.x, half.y)))
}

/// The height of an A's apex (where its cards meet) above its floor.
fn apex_height() -> f32 {
    2.0 * HALF_LENGTH * LEAN.cos()
}

/// The height of an A's highest points (the outer top corners) above its floor.
fn top_height() -> f32 {
    apex_height() + 2.0 * HALF_THICKNESS * LEAN.sin()
}

/// The two-storey house on the ground.
pub(super) fn card_lean() -> (BodyGroup, Probes) {
    let mut bodies = vec![flat_ground()];
    for apex_x in [-APEX_HALF_SPACING, APEX_HALF_SPACING] {
        bodies.push(leaning_card(apex_x, 0.0, -1.0));
        bodies.push(leaning_card(apex_x, 0.0, 1.0));
    }
    let flat_y = top_height() + HALF_THICKNESS;
    let flat_half = Vec2::new(HALF_LENGTH, HALF_THICKNESS);
    bodies.push(card(Vec2::new(0.0, flat_y), 0.0, flat_half));
    let upper_floor = flat_y + HALF_THICKNESS;
    bodies.push(leaning_card(0.0, upper_floor, -1.0));
    bodies.push(leaning_card(0.0, upper_floor, 1.0));
    let check = Check::Stack(StackCheck {
        tolerance: STAND_TOLERANCE,
    });
    let probes = Probes {
        subjects: (1..bodies.len()).collect(),
        check: Some(check),
        ..Probes::default()
    };
    let group = BodyGroup {
        bodies,
        joints: Vec::new(),
    };
    (group, probes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::description::Geometry;
    use crate::figures::Pose;

    /// The four corners of a card.
    fn corners(body: &BodyDesc) -> Vec<Vec2> {
        let pose = Pose {
            position: body.position,
            angle: body.angle,
        };
        let Geometry::Box { half_extents, .. } = body.shapes[0].geometry else {
            panic!("cards are boxes");
        };
        let (x, y) = (half_extents.x, half_extents.y);
        [(-x, -y), (x, -y), (x, y), (-x, y)]
            .iter()
            .map(|&(a, b)| pose.transform(Vec2::new(a, b)))
            .collect()
    }

    fn lowest(body: &BodyDesc) -> f32 {
        corners(body)
            .iter()
            .map(|c| c.y)
            .fold(f32::INFINITY, f32::min)
    }

    fn highest(body: &BodyDesc) -> f32 {
        corners(body)
            .iter()
            .map(|c| c.y)
            .fold(f32::NEG_INFINITY, f32::max)
    }

    /// The closest pair of corners of two cards: where they meet.
    fn meeting_point(a: &BodyDesc, b: &BodyDesc) -> (Vec2, f32) {
        let pairs = corners(a)
            .into_iter()
            .flat_map(|p| corners(b).into_iter().map(move |q| (p, q)));
        let (p, q) = pairs
            .min_by(|(p1, q1), (p2, q2)| (*p1 - *q1).length().total_cmp(&(*p2 - *q2).length()))
            .unwrap();
        (p, (p - q).length())
    }

    /// Storey 1's cards stand on the floor, each A's two cards meet corner to corner at its
    /// apex, the flat card's underside lies on the A's highest corners, and storey 2 stands on
    /// the flat card with its own apex.
    #[test]
    fn cards_start_exactly_touching() {
        let (group, probes) = card_lean();
        let cards: Vec<&BodyDesc> = probes.subjects.iter().map(|&i| &group.bodies[i]).collect();
        assert_eq!(cards.len(), 7);
        for (pair, floor) in [([0, 1], 0.0), ([2, 3], 0.0), ([5, 6], highest(cards[4]))] {
            let (left, right) = (cards[pair[0]], cards[pair[1]]);
            let (apex, gap) = meeting_point(left, right);
            assert!(gap < 1e-5, "cards {pair:?} apart by {gap}");
            assert!((apex.y - floor - apex_height()).abs() < 1e-5, "{apex:?}");
            assert!((lowest(left) - floor).abs() < 1e-5);
            assert!((lowest(right) - floor).abs() < 1e-5);
            assert!((highest(left) - floor - top_height()).abs() < 1e-5);
        }
        assert!((lowest(cards[4]) - top_height()).abs() < 1e-5);
    }
}
