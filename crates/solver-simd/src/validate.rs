//! Whole-structure checks after a step (feature `validate`).
//!
//! The colour check before each step guarantees the colour invariant on the *records*; this check
//! confirms that the bundles the kernels actually ran keep it: no dynamic body appears twice
//! among a colour's bundles, and each colour's contact order (`contact_order.rs`) names each
//! of the colour's records exactly once — the store's writes rest on it. A failure is a bug in
//! the solver itself, so it panics with a description.

use crate::contact_wide::ContactBundle;
use core_soa::{BodyState, NULL_BODY, body_flags};
use std::collections::HashSet;

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

/// Panics unless `order` is a permutation of `0..count`.
pub(crate) fn check_contact_order(order: &[u32], count: usize) {
    let mut seen = vec![false; count];
    assert_eq!(
        order.len(),
        count,
        "a colour's order is not as long as the colour"
    );
    for &position in order {
        let position = position as usize;
        assert!(
            position < count && !std::mem::replace(&mut seen[position], true),
            "a colour's order names position {position} twice or past the end"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact_constraint::ContactSoftness;
    use crate::contact_wide::prepare_bundle;
    use crate::synthetic::BoxGrid;
    use crate::wide::LANES;

    /// The bundles of the first colour of a small wall.
    fn first_colour() -> (BoxGrid, Vec<ContactBundle>) {
        let mut grid = BoxGrid::new(12, 3, 0.0);
        grid.color(24);
        let range = grid.layout().colors[0].clone();
        let softness = ContactSoftness {
            dynamic: crate::Softness::RIGID,
            fixed: crate::Softness::RIGID,
        };
        let bundles = grid.contacts[range]
            .chunks(LANES)
            .map(|lanes| prepare_bundle(lanes, &grid.states, &softness, true))
            .collect();
        (grid, bundles)
    }

    #[test]
    fn packed_bundles_pass() {
        let (grid, bundles) = first_colour();
        check_color_bundles(&bundles, &grid.states);
    }

    #[test]
    #[should_panic(expected = "twice in one colour")]
    fn a_body_twice_in_a_colour_is_caught() {
        let (grid, mut bundles) = first_colour();
        let last = bundles.len() - 1;
        bundles[last].body_b[0] = bundles[0].body_b[0];
        check_color_bundles(&bundles, &grid.states);
    }
}
