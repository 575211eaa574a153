//! Which contacts form which graph colour, and the check that makes parallel solving safe.
//!
//! The World keeps its constraint graph coloured (crate `graph-coloring`) and hands the solver
//! its contacts *ordered by colour*, with a [`ColorLayout`] naming the range of each colour and
//! of the overflow set:
//!
//! ```text
//!   contacts:  [ colour 0 ........ | colour 1 ...... | … | colour k .. | overflow ... ]
//!   layout:      color_ranges[0]     color_ranges[1]       color_ranges[k]  overflow
//! ```
//!
//! A colour's contacts are solved together, [`crate::wide::LANES`] per bundle and blocks of
//! bundles on several threads, so no dynamic body may appear twice in one colour: two lanes or
//! two threads would both write it. The overflow contacts (those that found no colour) may
//! share bodies with anything; the scalar path solves them one at a time in a stage of their
//! own.
//!
//! The solver does not take the colour invariant on trust, because breaking it would be a data
//! race rather than a wrong answer. [`LayoutChecker::check`] verifies, before a step starts,
//! that the ranges are in bounds, disjoint and cover every contact exactly once, and that no
//! body with the `DYNAMIC` flag appears twice within a colour (static bodies, kinematic bodies
//! and out-of-range indices are never written, so they may repeat). It is one pass over the
//! contacts with a stamp per body, a few microseconds for ten thousand contacts.

use crate::SolverContact;
use crate::joint::JointConstraint;
use core::fmt;
use core::ops::Range;
use core_soa::{BodyState, body_flags};

/// The colour ranges of a contact array ordered by colour.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ColorLayout {
    /// The contacts of each colour. Empty ranges are allowed (unused colours).
    pub color_ranges: Vec<Range<usize>>,
    /// The contacts solved one at a time by the scalar path.
    pub overflow: Range<usize>,
}

impl ColorLayout {
    /// Every one of `contact_count` contacts in the overflow set (no colours).
    pub fn overflow_only(contact_count: usize) -> ColorLayout {
        ColorLayout {
            color_ranges: Vec::new(),
            overflow: 0..contact_count,
        }
    }

    /// The colours holding at least one contact.
    pub fn colors_in_use(&self) -> usize {
        self.color_ranges.iter().filter(|r| !r.is_empty()).count()
    }
}

/// Why a [`ColorLayout`] cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColorLayoutError {
    /// A range is reversed or reaches past the last contact.
    RangeOutOfBounds {
        range: Range<usize>,
        contact_count: usize,
    },
    /// Two ranges share contacts.
    RangesOverlap {
        first: Range<usize>,
        second: Range<usize>,
    },
    /// The ranges cover `covered` contacts of `contact_count`.
    ContactsNotCovered {
        covered: usize,
        contact_count: usize,
    },
    /// Dynamic body `body` appears in two constraints (contacts or joints) of colour `color`.
    BodyTwiceInColor { color: usize, body: u32 },
    /// The joints' layout is wrong in the way the inner error describes (its counts are
    /// joints, not contacts).
    JointLayout(Box<ColorLayoutError>),
}

impl fmt::Display for ColorLayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ColorLayoutError::RangeOutOfBounds {
                range,
                contact_count,
            } => write!(
                f,
                "colour layout: range {range:?} is not within the {contact_count} contacts"
            ),
            ColorLayoutError::RangesOverlap { first, second } => {
                write!(f, "colour layout: ranges {first:?} and {second:?} overlap")
            }
            ColorLayoutError::ContactsNotCovered {
                covered,
                contact_count,
            } => write!(
                f,
                "colour layout: the ranges cover {covered} of {contact_count} contacts"
            ),
            ColorLayoutError::BodyTwiceInColor { color, body } => write!(
                f,
                "colour layout: dynamic body {body} appears twice in colour {color}"
            ),
            ColorLayoutError::JointLayout(inner) => write!(f, "joints: {inner}"),
        }
    }
}

impl std::error::Error for ColorLayoutError {}

/// Checks layouts; keeps its per-body stamps between steps.
#[derive(Clone, Debug, Default)]
pub struct LayoutChecker {
    /// The last colour that held each body (`u32::MAX`: none yet this step).
    stamps: Vec<u32>,
}

impl LayoutChecker {
    /// Checks that `layout` partitions `contacts` and that no dynamic body of `states`
    /// appears twice within one colour.
    pub fn check(
        &mut self,
        layout: &ColorLayout,
        contacts: &[SolverContact],
        states: &[BodyState],
    ) -> Result<(), ColorLayoutError> {
        self.check_with_joints(layout, contacts, &ColorLayout::default(), &[], states)
    }

    /// [`LayoutChecker::check`] for contacts and joints coloured together: both layouts
    /// partition their constraints, and no dynamic body appears twice among one colour's
    /// contacts and joints taken together.
    pub fn check_with_joints(
        &mut self,
        layout: &ColorLayout,
        contacts: &[SolverContact],
        joint_layout: &ColorLayout,
        joints: &[JointConstraint],
        states: &[BodyState],
    ) -> Result<(), ColorLayoutError> {
        check_layout_ranges(layout, contacts.len(), joint_layout, joints.len())?;
        self.stamps.clear();
        self.stamps.resize(states.len(), u32::MAX);
        let colors = layout
            .color_ranges
            .len()
            .max(joint_layout.color_ranges.len());
        for color in 0..colors {
            if let Some(range) = layout.color_ranges.get(color) {
                for contact in &contacts[range.clone()] {
                    for body in [contact.body_a, contact.body_b] {
                        self.stamp(color, body, states)?;
                    }
                }
            }
            if let Some(range) = joint_layout.color_ranges.get(color) {
                for joint in &joints[range.clone()] {
                    for body in [joint.body_a.index, joint.body_b.index] {
                        self.stamp(color, body, states)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Marks `body` as held by `color`, failing if it is dynamic and already held by it.
    #[inline]
    fn stamp(
        &mut self,
        color: usize,
        body: u32,
        states: &[BodyState],
    ) -> Result<(), ColorLayoutError> {
        let Some(state) = states.get(body as usize) else {
            return Ok(());
        };
        if state.flags & body_flags::DYNAMIC == 0 {
            return Ok(());
        }
        let stamp = &mut self.stamps[body as usize];
        if *stamp == color as u32 {
            return Err(ColorLayoutError::BodyTwiceInColor { color, body });
        }
        *stamp = color as u32;
        Ok(())
    }
}

/// The part of [`LayoutChecker::check_with_joints`] that reads no constraint: `layout`
/// partitions `contact_count` contacts and `joint_layout` partitions `joint_count` joints.
pub fn check_layout_ranges(
    layout: &ColorLayout,
    contact_count: usize,
    joint_layout: &ColorLayout,
    joint_count: usize,
) -> Result<(), ColorLayoutError> {
    check_ranges(layout, contact_count)?;
    check_ranges(joint_layout, joint_count)
        .map_err(|error| ColorLayoutError::JointLayout(Box::new(error)))
}

/// The ranges of `layout` are in bounds, pairwise disjoint, and cover `contact_count`.
fn check_ranges(layout: &ColorLayout, contact_count: usize) -> Result<(), ColorLayoutError> {
    let ranges = || layout.color_ranges.iter().chain([&layout.overflow]);
    for range in ranges() {
        if range.start > range.end || range.end > contact_count {
            return Err(ColorLayoutError::RangeOutOfBounds {
                range: range.clone(),
                contact_count,
            });
        }
    }
    for (i, first) in ranges().enumerate() {
        for second in ranges().skip(i + 1) {
            let overlap = first.start.max(second.start) < first.end.min(second.end);
            if overlap {
                return Err(ColorLayoutError::RangesOverlap {
                    first: first.clone(),
                    second: second.clone(),
                });
            }
        }
    }
    let covered: usize = ranges().map(|r| r.len()).sum();
    if covered != contact_count {
        return Err(ColorLayoutError::ContactsNotCovered {
            covered,
            contact_count,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use core_soa::NULL_BODY;

    fn contact(a: u32, b: u32) -> SolverContact {
        SolverContact {
            body_a: a,
            body_b: b,
            inv_mass_a: 1.0,
            inv_inertia_a: 1.0,
            inv_mass_b: 1.0,
            inv_inertia_b: 1.0,
            friction: 0.5,
            restitution: 0.0,
            manifold: Default::default(),
        }
    }

    fn states(count: usize, kinematic: &[usize]) -> Vec<BodyState> {
        (0..count)
            .map(|i| BodyState {
                flags: if kinematic.contains(&i) {
                    body_flags::KINEMATIC
                } else {
                    body_flags::DYNAMIC
                },
                ..BodyState::IDENTITY
            })
            .collect()
    }

    #[test]
    fn valid_layout_passes_and_shared_fixed_bodies_are_allowed() {
        // Colour 0: 0-1, 2-3, 4 on ground, 5 on kinematic 6; colour 1: 1-2, 3-6, 0 on ground.
        let contacts = [
            contact(0, 1),
            contact(2, 3),
            contact(NULL_BODY, 4),
            contact(6, 5),
            contact(1, 2),
            contact(3, 6),
            contact(NULL_BODY, 0),
            contact(0, 1),
        ];
        let layout = ColorLayout {
            color_ranges: vec![0..4, 4..7],
            overflow: 7..8,
        };
        let mut checker = LayoutChecker::default();
        assert_eq!(checker.check(&layout, &contacts, &states(7, &[6])), Ok(()));
        assert_eq!(layout.colors_in_use(), 2);
        // Body 6 appears once in each colour, so it may be dynamic as well.
        assert_eq!(checker.check(&layout, &contacts, &states(7, &[])), Ok(()));
    }

    #[test]
    fn a_dynamic_body_twice_in_a_colour_is_rejected() {
        let contacts = [contact(0, 1), contact(2, 1), contact(3, 4)];
        let layout = ColorLayout {
            color_ranges: vec![0..2, 2..3],
            overflow: 3..3,
        };
        let mut checker = LayoutChecker::default();
        assert_eq!(
            checker.check(&layout, &contacts, &states(5, &[])),
            Err(ColorLayoutError::BodyTwiceInColor { color: 0, body: 1 })
        );
        // Body 1 kinematic: never written, so it may repeat.
        assert_eq!(checker.check(&layout, &contacts, &states(5, &[1])), Ok(()));
        // In the overflow set anything goes.
        let overflow = ColorLayout::overflow_only(3);
        assert_eq!(checker.check(&overflow, &contacts, &states(5, &[])), Ok(()));
    }

    fn joint(a: u32, b: u32) -> JointConstraint {
        use crate::joint::{JointBody, JointKind};
        use core_soa::Transform;
        let side = |index| JointBody::awake(index, 1.0, 1.0, Transform::IDENTITY);
        JointConstraint::new(JointKind::Weld(Default::default()), side(a), side(b))
    }

    /// A colour's contacts and joints together may not name a dynamic body twice; across
    /// colours, and with kinematic bodies, they may.
    #[test]
    fn joints_share_the_colour_invariant_with_contacts() {
        let contacts = [contact(0, 1), contact(2, 3)];
        let layout = ColorLayout {
            color_ranges: vec![0..1, 1..2],
            overflow: 2..2,
        };
        let joints = [joint(2, 4), joint(1, 5), joint(0, 6)];
        let mut checker = LayoutChecker::default();
        // Colour 0: contact 0-1 and joint 2-4; colour 1: contact 2-3 and joint 1-5.
        let fine = ColorLayout {
            color_ranges: vec![0..1, 1..2],
            overflow: 2..3,
        };
        let body_states = states(7, &[]);
        assert_eq!(
            checker.check_with_joints(&layout, &contacts, &fine, &joints, &body_states),
            Ok(())
        );
        // Joint 1-5 in colour 0 meets contact 0-1.
        let clash = ColorLayout {
            color_ranges: vec![1..2, 2..2, 2..3],
            overflow: 0..1,
        };
        assert_eq!(
            checker.check_with_joints(&layout, &contacts, &clash, &joints, &body_states),
            Err(ColorLayoutError::BodyTwiceInColor { color: 0, body: 1 })
        );
        // Body 1 kinematic: never written, so it may repeat.
        assert_eq!(
            checker.check_with_joints(&layout, &contacts, &clash, &joints, &states(7, &[1])),
            Ok(())
        );
        let short = ColorLayout::overflow_only(2);
        assert_eq!(
            checker.check_with_joints(&layout, &contacts, &short, &joints, &body_states),
            Err(ColorLayoutError::JointLayout(Box::new(
                ColorLayoutError::ContactsNotCovered {
                    covered: 2,
                    contact_count: 3
                }
            )))
        );
    }

    #[test]
    fn ranges_must_partition_the_contacts() {
        let contacts = [contact(0, 1), contact(2, 3), contact(4, 5)];
        let body_states = states(6, &[]);
        let mut checker = LayoutChecker::default();
        let mut check = |color_ranges: Vec<Range<usize>>, overflow: Range<usize>| {
            let layout = ColorLayout {
                color_ranges,
                overflow,
            };
            checker.check(&layout, &contacts, &body_states)
        };
        assert_eq!(
            check(std::iter::once(0..4).collect(), 3..3),
            Err(ColorLayoutError::RangeOutOfBounds {
                range: 0..4,
                contact_count: 3
            })
        );
        assert_eq!(
            check(vec![0..2, 1..3], 3..3),
            Err(ColorLayoutError::RangesOverlap {
                first: 0..2,
                second: 1..3
            })
        );
        assert_eq!(
            check(std::iter::once(0..1).collect(), 2..3),
            Err(ColorLayoutError::ContactsNotCovered {
                covered: 2,
                contact_count: 3
            })
        );
        assert_eq!(check(vec![1..3, 3..3], 0..1), Ok(()));
        let message = ColorLayoutError::BodyTwiceInColor { color: 2, body: 9 }.to_string();
        assert!(message.contains("body 9") && message.contains("colour 2"));
    }
}
