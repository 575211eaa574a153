//! Validation scenes: a heavy box resting on a light one — heavy_on_light_100 and
//! heavy_on_light_1000.
//!
//! A 1 kg unit box (density 1) stands on the ground (top face `y = 0`) and a box of the same
//! size 100 (or 1,000) times denser rests on it, both exactly touching at the start. The
//! light box's contacts must carry a weight a hundred (a thousand) times its own: an
//! iterative solver that treats each contact alone lets the heavy box press the light one
//! into the ground, or squeezes it out sideways. The scene runs 5 s.
//!
//! Figures ([`crate::figures::heavy`]): how far the light box ends (and at worst was) below
//! the ground line, how deep the heavy box sits in the light one, and how far the light box
//! moved sideways.

use super::column::UNIT_BOX;
use super::model::{BodyDesc, BodyGroup, BodyKind, ShapeDesc, flat_ground, square_box};
use super::probes::Probes;
use crate::figures::{Check, HeavyOnLightCheck};
use prism::Vec2;

/// The light unit box on the ground and the box `mass_ratio` times heavier on it.
pub(super) fn heavy_on_light(mass_ratio: f32) -> (BodyGroup, Probes) {
    let half = UNIT_BOX;
    let unit_box = ShapeDesc::new(square_box(half.x, half.y));
    let light = BodyDesc::new(BodyKind::Dynamic, Vec2::new(0.0, half.y))
        .with_shape(unit_box.clone().density(1.0));
    let heavy = BodyDesc::new(BodyKind::Dynamic, Vec2::new(0.0, 3.0 * half.y))
        .with_shape(unit_box.density(mass_ratio));
    let check = HeavyOnLightCheck {
        light_half_extents: half,
        heavy_half_extents: half,
        ground_top: 0.0,
    };
    let probes = Probes {
        subjects: vec![1, 2],
        check: Some(Check::HeavyOnLight(check)),
        ..Probes::default()
    };
    let group = BodyGroup {
        bodies: vec![flat_ground(), light, heavy],
        joints: Vec::new(),
    };
    (group, probes)
}
