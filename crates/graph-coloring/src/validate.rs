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
use crate::constraint_graph::{ColorIndex, ConstraintGraph, ConstraintKind, Endpoint};
use core_soa::BitSet;
use std::collections::HashSet;

impl ConstraintGraph {
    /// Checks that
    /// - no dynamic body appears in two constraints of the same colour,
    /// - each colour's bitset equals the union of its constraints' dynamic bodies,
    /// - no coloured constraint lacks a dynamic body,
    /// - every handle of each kind appears exactly once over all colours and the overflow set.
    ///
    /// `endpoints(kind, handle)` must return the bodies the constraint was added with.
    /// Expensive (see the module docs); returns a message naming the first violation.
    pub fn validate<F>(&self, mut endpoints: F) -> Result<(), String>
    where
        F: FnMut(ConstraintKind, u32) -> (Endpoint, Endpoint),
    {
        self.check_unique_handles()?;
        for c in 0..GRAPH_COLOR_COUNT {
            let color = ColorIndex::new(c).expect("c < GRAPH_COLOR_COUNT");
            let expected = self.recompute_bodies(color, &mut endpoints)?;
            check_same_bits(c, &expected, &self.colors[c].bodies)?;
        }
        Ok(())
    }

    /// Every handle of each kind once in the whole graph.
    fn check_unique_handles(&self) -> Result<(), String> {
        for kind in Self::kinds() {
            let mut seen = HashSet::new();
            for (c, color) in self.colors.iter().enumerate() {
                for &handle in &color.handles[Self::list_of(kind)] {
                    if !seen.insert(handle) {
                        return Err(format!(
                            "{kind:?} {handle} stored twice (again in colour {c})"
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// The union of the dynamic bodies of `color`'s constraints, failing if one repeats.
    fn recompute_bodies<F>(&self, color: ColorIndex, endpoints: &mut F) -> Result<BitSet, String>
    where
        F: FnMut(ConstraintKind, u32) -> (Endpoint, Endpoint),
    {
        let c = color.index();
        let mut bodies = BitSet::new();
        for kind in Self::kinds() {
            for &handle in self.handles(kind, color) {
                let (a, b) = endpoints(kind, handle);
                if !a.dynamic && !b.dynamic {
                    return Err(format!(
                        "{kind:?} {handle} in colour {c} has no dynamic body"
                    ));
                }
                for end in [a, b].into_iter().filter(|e| e.dynamic) {
                    let body = end.body as usize;
                    if bodies.get(body) {
                        return Err(format!(
                            "body {body} twice in colour {c} ({kind:?} {handle})"
                        ));
                    }
                    bodies.set(body);
                }
            }
        }
        Ok(bodies)
    }
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
