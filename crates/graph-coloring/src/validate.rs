//! Whole-structure check of the colour invariant, recomputed from the handles.
//!
//! The incremental bookkeeping in `add`/`remove` trusts the caller to pass the same endpoints
//! at removal as at insertion and to apply every [`Moved`](crate::Moved) report. If it does not,
//! a colour's bitset drifts from its constraints and two lanes of a bundle may one day write the
//! same body. This check rebuilds what each colour's bitset must be from scratch and compares,
//! so such drift is caught at the step where it happens. It costs one pass over every
//! constraint plus a bitset per colour: for debugging and tests, not for every step of a
//! release build.

use crate::GRAPH_COLOR_COUNT;
use crate::constraint_graph::{ConstraintGraph, ConstraintKind, Endpoint};
use core_soa::BitSet;
use std::collections::HashSet;

impl<C, J> ConstraintGraph<C, J> {
    /// Checks that
    /// - no dynamic body appears in two constraints of the same colour,
    /// - each colour's bitset equals the union of its constraints' dynamic bodies,
    /// - no coloured constraint lacks a dynamic body,
    /// - every handle of each kind appears exactly once over all colours and the overflow set.
    ///
    /// `contact(record)` and `joint(record)` must return the record's handle and the bodies
    /// the constraint was added with. Expensive (see the module docs); returns a message naming
    /// the first violation.
    pub fn validate<F, G>(&self, mut contact: F, mut joint: G) -> Result<(), String>
    where
        F: FnMut(&C) -> (u32, Endpoint, Endpoint),
        G: FnMut(&J) -> (u32, Endpoint, Endpoint),
    {
        self.check_unique_handles(&mut contact, &mut joint)?;
        for c in 0..GRAPH_COLOR_COUNT {
            let color = &self.colors[c];
            let mut bodies = BitSet::new();
            let contacts = color
                .contacts
                .iter()
                .map(|r| (ConstraintKind::Contact, contact(r)));
            let joints = color
                .joints
                .iter()
                .map(|r| (ConstraintKind::Joint, joint(r)));
            for (kind, (handle, a, b)) in contacts.chain(joints) {
                take_bodies(&mut bodies, c, kind, handle, a, b)?;
            }
            check_same_bits(c, &bodies, &color.bodies)?;
        }
        Ok(())
    }

    /// Every handle of each kind once in the whole graph.
    fn check_unique_handles<F, G>(&self, contact: &mut F, joint: &mut G) -> Result<(), String>
    where
        F: FnMut(&C) -> (u32, Endpoint, Endpoint),
        G: FnMut(&J) -> (u32, Endpoint, Endpoint),
    {
        let (mut contacts, mut joints) = (HashSet::new(), HashSet::new());
        for (c, color) in self.colors.iter().enumerate() {
            let twice =
                |kind, handle| format!("{kind:?} {handle} stored twice (again in colour {c})");
            for record in &color.contacts {
                let handle = contact(record).0;
                if !contacts.insert(handle) {
                    return Err(twice(ConstraintKind::Contact, handle));
                }
            }
            for record in &color.joints {
                let handle = joint(record).0;
                if !joints.insert(handle) {
                    return Err(twice(ConstraintKind::Joint, handle));
                }
            }
        }
        Ok(())
    }
}

impl ConstraintGraph<u32, u32> {
    /// [`ConstraintGraph::validate`] for a graph of plain handles: `endpoints(kind, handle)`
    /// must return the bodies the constraint was added with.
    pub fn validate_handles<F>(&self, endpoints: F) -> Result<(), String>
    where
        F: FnMut(ConstraintKind, u32) -> (Endpoint, Endpoint),
    {
        let endpoints = std::cell::RefCell::new(endpoints);
        let ends = |kind, handle: &u32| {
            let (a, b) = (endpoints.borrow_mut())(kind, *handle);
            (*handle, a, b)
        };
        self.validate(
            |h| ends(ConstraintKind::Contact, h),
            |h| ends(ConstraintKind::Joint, h),
        )
    }
}

/// Adds the dynamic bodies of one coloured constraint to `bodies`, failing if one repeats or
/// the constraint has none.
fn take_bodies(
    bodies: &mut BitSet,
    color: usize,
    kind: ConstraintKind,
    handle: u32,
    a: Endpoint,
    b: Endpoint,
) -> Result<(), String> {
    if !a.dynamic && !b.dynamic {
        return Err(format!(
            "{kind:?} {handle} in colour {color} has no dynamic body"
        ));
    }
    for end in [a, b].into_iter().filter(|e| e.dynamic) {
        let body = end.body as usize;
        if bodies.get(body) {
            return Err(format!(
                "body {body} twice in colour {color} ({kind:?} {handle})"
            ));
        }
        bodies.set(body);
    }
    Ok(())
}

/// Compares two bitsets of possibly different capacities bit by bit.
fn check_same_bits(color: usize, expected: &BitSet, stored: &BitSet) -> Result<(), String> {
    if let Some(body) = expected.iter_ones().find(|&b| !stored.get(b)) {
        return Err(format!(
            "colour {color}: body {body} used but missing from the bitset"
        ));
    }
    if let Some(body) = stored.iter_ones().find(|&b| !expected.get(b)) {
        return Err(format!(
            "colour {color}: body {body} in the bitset but in no constraint"
        ));
    }
    Ok(())
}
