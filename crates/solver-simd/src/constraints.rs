//! What a step solves: the caller's persistent constraint records, grouped by graph colour.
//!
//! The solver does not own contacts or joints and does not copy them in and out. The caller
//! keeps each touching contact in one record that lives in its graph colour from the moment it
//! begins touching until it stops — the record its narrowphase writes — and hands the solver,
//! for each colour, a mutable slice of those records and of the colour's joints:
//!
//! ```text
//!   colour 0   contacts [c c c c c …]   joints [j j …]
//!   colour 1   contacts [c c c …]       joints [j …]
//!   …
//!   overflow   contacts [c c …]         joints [j …]      (no colour invariant)
//! ```
//!
//! Preparation reads each contact's solver view straight from its record ([`ContactRecord`]) and
//! the impulse store writes the accumulated impulses straight back into it, so the next step's
//! narrowphase finds them in the manifold it updates (the contact cache).
//!
//! A colour's constraints are solved at the same time — in the lanes of a bundle and in blocks
//! on several threads — which is sound only if no dynamic body appears twice among one colour's
//! contacts and joints together. [`ColorChecker`] verifies that before a step; a caller whose
//! colouring guarantees it by construction may skip the walk
//! ([`crate::ContactSolver::step_unchecked`]).

use crate::SolverContact;
use crate::joint::JointConstraint;
use core::fmt;
use core_soa::{BodyState, body_flags};

/// A persistent record that carries the solver's view of a touching contact.
pub trait ContactRecord: Send + Sync {
    /// The bodies, masses, material and manifold (with the accumulated impulses).
    fn solver_contact(&self) -> &SolverContact;
    /// The same, for the impulse store.
    fn solver_contact_mut(&mut self) -> &mut SolverContact;
}

impl ContactRecord for SolverContact {
    #[inline]
    fn solver_contact(&self) -> &SolverContact {
        self
    }

    #[inline]
    fn solver_contact_mut(&mut self) -> &mut SolverContact {
        self
    }
}

/// One graph colour's constraints, or the overflow set's.
pub struct ColorConstraints<'a, C> {
    /// The colour's contact records (no dynamic body twice among these and `joints` together).
    pub contacts: &'a mut [C],
    /// The colour's joints.
    pub joints: &'a mut [JointConstraint],
}

impl<C> Default for ColorConstraints<'_, C> {
    fn default() -> Self {
        ColorConstraints {
            contacts: &mut [],
            joints: &mut [],
        }
    }
}

/// Every constraint of a step: the colours in solve order, then the overflow set, which the
/// scalar path solves one constraint at a time.
pub struct StepConstraints<'a, C> {
    /// The colours in the order they are solved.
    pub colors: Vec<ColorConstraints<'a, C>>,
    /// Constraints that found no colour, solved one at a time by the scalar path.
    pub overflow: ColorConstraints<'a, C>,
}

impl<'a, C> StepConstraints<'a, C> {
    /// Every contact and joint in the overflow set: the reference, serial path.
    pub fn overflow_only(
        contacts: &'a mut [C],
        joints: &'a mut [JointConstraint],
    ) -> StepConstraints<'a, C> {
        StepConstraints {
            colors: Vec::new(),
            overflow: ColorConstraints { contacts, joints },
        }
    }

    /// The colours holding at least one constraint.
    pub fn colors_in_use(&self) -> usize {
        let used = |c: &&ColorConstraints<C>| !c.contacts.is_empty() || !c.joints.is_empty();
        self.colors.iter().filter(used).count()
    }
}

/// Where each colour's constraints sit in an array ordered by colour (colour 0's, colour 1's,
/// …, then the overflow set's): how a caller that keeps its constraints in one array, such as a
/// test scene, hands them to the solver ([`ColorRanges::split`]).
#[cfg(any(test, feature = "test-support"))]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ColorRanges {
    /// Each colour's range, in order, end to end from 0.
    pub colors: Vec<core::ops::Range<usize>>,
    /// The overflow set's range, after the last colour's.
    pub overflow: core::ops::Range<usize>,
}

#[cfg(any(test, feature = "test-support"))]
impl ColorRanges {
    /// All of `count` constraints in the overflow set.
    pub fn overflow_only(count: usize) -> ColorRanges {
        ColorRanges {
            colors: Vec::new(),
            overflow: 0..count,
        }
    }

    /// The colours holding at least one constraint.
    pub fn colors_in_use(&self) -> usize {
        self.colors.iter().filter(|r| !r.is_empty()).count()
    }

    /// Cuts `items`, ordered as these ranges say, into one slice per colour and the overflow
    /// slice. Panics if the ranges do not run end to end from 0 over all of `items`.
    pub fn split<'a, T>(&self, items: &'a mut [T]) -> (Vec<&'a mut [T]>, &'a mut [T]) {
        let mut rest = items;
        let mut start = 0;
        let mut colors = Vec::with_capacity(self.colors.len());
        for range in &self.colors {
            assert_eq!(range.start, start, "colour ranges must run end to end");
            let (color, tail) = rest.split_at_mut(range.len());
            colors.push(color);
            (rest, start) = (tail, range.end);
        }
        assert_eq!(self.overflow, start..start + rest.len(), "overflow range");
        (colors, rest)
    }

    /// [`ColorRanges::split`] of contacts and joints ordered by the two layouts, as a step's
    /// constraints.
    pub fn constraints<'a, C>(
        contacts: (&ColorRanges, &'a mut [C]),
        joints: (&ColorRanges, &'a mut [JointConstraint]),
    ) -> StepConstraints<'a, C> {
        let (color_contacts, overflow_contacts) = contacts.0.split(contacts.1);
        let (color_joints, overflow_joints) = joints.0.split(joints.1);
        let count = color_contacts.len().max(color_joints.len());
        let mut contacts = color_contacts.into_iter();
        let mut joints = color_joints.into_iter();
        let colors = (0..count)
            .map(|_| ColorConstraints {
                contacts: contacts.next().unwrap_or(&mut []),
                joints: joints.next().unwrap_or(&mut []),
            })
            .collect();
        StepConstraints {
            colors,
            overflow: ColorConstraints {
                contacts: overflow_contacts,
                joints: overflow_joints,
            },
        }
    }
}

/// A dynamic body that appears twice among one colour's constraints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColorError {
    /// The colour (index into [`StepConstraints::colors`]) where the body appears twice.
    pub color: usize,
    /// The body's index in the awake arrays.
    pub body: u32,
}

impl fmt::Display for ColorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "dynamic body {} appears twice in colour {}",
            self.body, self.color
        )
    }
}

impl std::error::Error for ColorError {}

/// Checks the colour invariant; keeps its per-body stamps between steps.
#[derive(Clone, Debug, Default)]
pub struct ColorChecker {
    /// The last colour that held each body (`u32::MAX`: none yet this step).
    stamps: Vec<u32>,
}

impl ColorChecker {
    /// Fails if a body with the `DYNAMIC` flag appears twice among one colour's contacts and
    /// joints taken together (static bodies, kinematic bodies and out-of-range indices are
    /// never written, so they may repeat). One pass over the coloured constraints with a stamp
    /// per body.
    pub fn check<C: ContactRecord>(
        &mut self,
        constraints: &StepConstraints<'_, C>,
        states: &[BodyState],
    ) -> Result<(), ColorError> {
        self.stamps.clear();
        self.stamps.resize(states.len(), u32::MAX);
        for (color, group) in constraints.colors.iter().enumerate() {
            for contact in group.contacts.iter() {
                let c = contact.solver_contact();
                self.stamp(color, c.body_a, states)?;
                self.stamp(color, c.body_b, states)?;
            }
            for joint in group.joints.iter() {
                // The sides' indices, which this step's preparation will copy: the prepared
                // ones are last step's, stale for a joint that has just entered the graph.
                let (a, b) = (joint.body_a.index, joint.body_b.index);
                self.stamp(color, a, states)?;
                self.stamp(color, b, states)?;
            }
        }
        Ok(())
    }

    /// Marks `body` as held by `color`, failing if it is dynamic and already held by it.
    #[inline]
    fn stamp(&mut self, color: usize, body: u32, states: &[BodyState]) -> Result<(), ColorError> {
        let Some(state) = states.get(body as usize) else {
            return Ok(());
        };
        if state.flags & body_flags::DYNAMIC == 0 {
            return Ok(());
        }
        let stamp = &mut self.stamps[body as usize];
        if *stamp == color as u32 {
            return Err(ColorError { color, body });
        }
        *stamp = color as u32;
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use core_soa::NULL_BODY;

    /// A contact between `a` and `b` with unit masses (also used by `contact_order`'s tests).
    pub(crate) fn contact(a: u32, b: u32) -> SolverContact {
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
    fn fixed_bodies_may_repeat_within_a_colour() {
        // Colour 0: 0-1, 2-3, 4 on ground, 5 on kinematic 6; colour 1: 1-2, 3-6, 0 on ground.
        let mut first = [
            contact(0, 1),
            contact(2, 3),
            contact(NULL_BODY, 4),
            contact(6, 5),
        ];
        let mut second = [contact(1, 2), contact(3, 6), contact(NULL_BODY, 0)];
        let mut overflow = [contact(0, 1)];
        let constraints = StepConstraints {
            colors: vec![
                ColorConstraints {
                    contacts: &mut first,
                    joints: &mut [],
                },
                ColorConstraints {
                    contacts: &mut second,
                    joints: &mut [],
                },
            ],
            overflow: ColorConstraints {
                contacts: &mut overflow,
                joints: &mut [],
            },
        };
        let mut checker = ColorChecker::default();
        assert_eq!(checker.check(&constraints, &states(7, &[6])), Ok(()));
        assert_eq!(constraints.colors_in_use(), 2);
        // Body 6 appears once in each colour, so it may be dynamic as well.
        assert_eq!(checker.check(&constraints, &states(7, &[])), Ok(()));
    }

    #[test]
    fn a_dynamic_body_twice_in_a_colour_is_refused() {
        let mut first = [contact(0, 1), contact(1, 2)];
        let constraints = StepConstraints {
            colors: vec![ColorConstraints {
                contacts: &mut first,
                joints: &mut [],
            }],
            overflow: ColorConstraints::default(),
        };
        let mut checker = ColorChecker::default();
        let error = checker.check(&constraints, &states(3, &[]));
        assert_eq!(error, Err(ColorError { color: 0, body: 1 }));
        // Kinematic, it may be shared.
        assert_eq!(checker.check(&constraints, &states(3, &[1])), Ok(()));
    }
}
