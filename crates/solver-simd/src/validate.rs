//! Whole-structure checks after a step (feature `validate`).
//!
//! The layout check before each step guarantees the colour invariant on the *contacts*; these
//! checks confirm that the bundles the kernels actually ran were packed from exactly those
//! contacts: every lane names its contact's bodies (or [`NULL_BODY`] for a body index that was
//! out of range), padding lanes name no body, and no dynamic body appears twice among a
//! colour's bundles. A failure is a bug in the solver itself, so it panics with a description.

use crate::SolverContact;
use crate::contact_constraint::checked_body_index;
use crate::contact_wide::ContactBundle;
use crate::step::BundleSource;
use crate::wide::LANES;
use core_soa::{BodyState, NULL_BODY, body_flags};
use std::collections::HashSet;

/// Panics if a bundle's lanes do not match its contacts.
pub(crate) fn check_bundles(
    bundles: &[ContactBundle],
    sources: &[BundleSource],
    contacts: &[SolverContact],
    states: &[BodyState],
) {
    assert_eq!(bundles.len(), sources.len(), "one source per bundle");
    for (index, (bundle, source)) in bundles.iter().zip(sources).enumerate() {
        let lanes = source.contacts();
        assert_eq!(
            bundle.lane_count(),
            lanes.len(),
            "bundle {index}: lane count"
        );
        for lane in 0..LANES {
            let expected = match contacts[lanes.clone()].get(lane) {
                Some(c) => [c.body_a, c.body_b].map(|b| checked_body_index(b, states.len())),
                None => [NULL_BODY; 2],
            };
            let packed = [bundle.body_a[lane], bundle.body_b[lane]];
            assert_eq!(packed, expected, "bundle {index}, lane {lane}: bodies");
        }
    }
}

/// Panics if a dynamic body appears twice among `bundles` (one colour's bundles).
pub(crate) fn check_color_bundles(bundles: &[ContactBundle], states: &[BodyState]) {
    let mut seen = HashSet::new();
    for bundle in bundles {
        for body in bundle.body_a.iter().chain(&bundle.body_b).copied() {
            let dynamic =
                body != NULL_BODY && states[body as usize].flags & body_flags::DYNAMIC != 0;
            assert!(
                !dynamic || seen.insert(body),
                "dynamic body {body} twice in one colour's bundles"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact_constraint::ContactSoftness;
    use crate::contact_wide::prepare_bundle;
    use crate::synthetic::BoxGrid;

    /// The bundles of the first colour of a small wall, with their sources.
    fn first_colour() -> (BoxGrid, Vec<ContactBundle>, Vec<BundleSource>) {
        let mut grid = BoxGrid::new(12, 3, 0.0);
        grid.color(24);
        let range = grid.layout().color_ranges[0].clone();
        let softness = ContactSoftness {
            dynamic: crate::Softness::RIGID,
            fixed: crate::Softness::RIGID,
        };
        let sources: Vec<BundleSource> = range
            .clone()
            .step_by(LANES)
            .map(|first| BundleSource {
                first_contact: first as u32,
                lane_count: (range.end - first).min(LANES) as u32,
            })
            .collect();
        let bundles = sources
            .iter()
            .map(|s| prepare_bundle(&grid.contacts[s.contacts()], &grid.states, &softness, true))
            .collect();
        (grid, bundles, sources)
    }

    #[test]
    fn packed_bundles_pass() {
        let (grid, bundles, sources) = first_colour();
        check_bundles(&bundles, &sources, &grid.contacts, &grid.states);
        check_color_bundles(&bundles, &grid.states);
    }

    #[test]
    #[should_panic(expected = "bodies")]
    fn a_lane_naming_the_wrong_body_is_caught() {
        let (grid, mut bundles, sources) = first_colour();
        bundles[0].body_b[0] = bundles[0].body_b[0].wrapping_add(1);
        check_bundles(&bundles, &sources, &grid.contacts, &grid.states);
    }

    #[test]
    #[should_panic(expected = "twice in one colour")]
    fn a_body_twice_in_a_colour_is_caught() {
        let (grid, mut bundles, _) = first_colour();
        let last = bundles.len() - 1;
        bundles[last].body_b[0] = bundles[0].body_b[0];
        check_color_bundles(&bundles, &grid.states);
    }
}
