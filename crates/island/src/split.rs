//! Splitting an island into its connected components.
//!
//! After constraints are unlinked, an island may have fallen apart. [`IslandGraph::split`]
//! recomputes its connected components and turns each into an island of its own.
//!
//! The island already owns every edge inside it: its constraint list, each with the two bodies
//! it was linked with. So no outside adjacency is needed — the traversal is a union-find over
//! the island's own bodies, with the island-local body position as the element:
//!
//! ```text
//!   bodies       [ 4  7  9  2 ]        positions 0..4
//!   constraints  c3: 4–7   j0: 9–2     union(0,1), union(2,3)
//!   components   {4, 7} {9, 2}         labels in order of first body: 0, 1
//! ```
//!
//! Union by size with path halving makes the pass O((n + m)·α(n)) for n bodies and m
//! constraints — the same order as a depth-first search over per-body constraint lists, without
//! having to trust that those lists agree with what was linked.
//!
//! Determinism: components are numbered in the order of their first body in the island's body
//! list; component 0 keeps the island's id, the others get new islands in that order; bodies and
//! constraints keep their relative order. Every resulting island has no pending removals.

use crate::island_graph::Island;
use crate::{IslandError, IslandGraph, IslandId};
use core_soa::NULL_INDEX;

/// Reusable buffers for the union-find, kept between splits to avoid reallocating.
#[derive(Clone, Debug, Default)]
pub(crate) struct SplitScratch {
    parent: Vec<u32>,
    size: Vec<u32>,
    label: Vec<u32>,
}

impl SplitScratch {
    /// The representative of `x`, halving the path on the way (each visited node is pointed at
    /// its grandparent, which keeps trees shallow without a second pass).
    fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let grandparent = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grandparent;
            x = grandparent;
        }
        x
    }

    /// Joins the sets of `a` and `b`, hanging the smaller tree under the larger.
    fn union(&mut self, a: u32, b: u32) {
        let (root_a, root_b) = (self.find(a), self.find(b));
        if root_a == root_b {
            return;
        }
        let (big, small) = if self.size[root_a as usize] >= self.size[root_b as usize] {
            (root_a, root_b)
        } else {
            (root_b, root_a)
        };
        self.parent[small as usize] = big;
        self.size[big as usize] += self.size[small as usize];
    }

    /// Labels `n` elements joined by `edges` with component numbers in order of first element;
    /// returns the number of components. `self.label[i]` holds element `i`'s component.
    fn label_components(&mut self, n: usize, edges: impl Iterator<Item = (u32, u32)>) -> u32 {
        self.parent.clear();
        self.parent.extend(0..n as u32);
        self.size.clear();
        self.size.resize(n, 1);
        for (a, b) in edges {
            self.union(a, b);
        }
        // The sizes are no longer needed: reuse that buffer as "component of this root".
        self.size.fill(NULL_INDEX);
        self.label.clear();
        let mut count = 0;
        for i in 0..n as u32 {
            let root = self.find(i) as usize;
            if self.size[root] == NULL_INDEX {
                self.size[root] = count;
                count += 1;
            }
            self.label.push(self.size[root]);
        }
        count
    }
}

impl IslandGraph {
    /// Splits `island` into its connected components. Returns the resulting islands: the first
    /// is `island` itself (holding the component of its first body), the rest are new. All of
    /// them have no pending removals; their rest summaries are recomputed from this pass's
    /// body records.
    pub fn split(&mut self, island: IslandId) -> Result<Vec<IslandId>, IslandError> {
        self.live_island(island)?;
        let slot = island.index();
        let parent = self.island_at_mut(slot);
        parent.constraint_remove_count = 0;
        let bodies = std::mem::take(&mut parent.bodies);
        let constraints = std::mem::take(&mut parent.constraints);
        let ends = std::mem::take(&mut parent.ends);

        let count = self.label_island(&bodies, &ends);
        let mut slots = vec![slot];
        if count == 1 {
            // Still one piece (the usual answer for a pile that lost a contact): every body
            // and constraint keeps its island and position, so the lists go back unchanged and
            // no record is rewritten.
            let parent = self.island_at_mut(slot);
            parent.bodies = bodies;
            parent.constraints = constraints;
            parent.ends = ends;
        } else {
            for _ in 1..count {
                slots.push(self.islands.insert(Island::default()).index());
            }
            self.distribute(&slots, bodies, (constraints, ends));
        }
        for &component_slot in &slots {
            self.recompute_rest(component_slot);
        }
        #[cfg(feature = "validate")]
        for &component_slot in &slots {
            if let Err(message) = self.check_island(component_slot) {
                panic!("split produced an inconsistent island: {message}");
            }
        }
        Ok(slots.into_iter().map(|s| self.key_at(s)).collect())
    }

    /// Runs the union-find over the island's bodies (by position) and its constraints' ends.
    fn label_island(&mut self, bodies: &[u32], ends: &[[u32; 2]]) -> u32 {
        let body_links = &self.body_links;
        let edges = ends.iter().map(|&[a, b]| {
            (
                body_links[a as usize].position,
                body_links[b as usize].position,
            )
        });
        self.split_scratch.label_components(bodies.len(), edges)
    }

    /// Moves each body and constraint into the island of its component (`slots[label]`),
    /// rewriting their records.
    fn distribute(
        &mut self,
        slots: &[u32],
        bodies: Vec<u32>,
        (constraints, ends): (Vec<crate::ConstraintKey>, Vec<[u32; 2]>),
    ) {
        let label = std::mem::take(&mut self.split_scratch.label);
        for (key, ends) in constraints.into_iter().zip(ends) {
            let component = label[self.body_links[ends[0] as usize].position as usize];
            let target = self.island_at_mut(slots[component as usize]);
            let position = target.constraints.len() as u32;
            target.constraints.push(key);
            target.ends.push(ends);
            let link = self.constraint_links.slot_mut(key);
            link.island = slots[component as usize];
            link.position = position;
        }
        for (position, body) in bodies.into_iter().enumerate() {
            let target_slot = slots[label[position] as usize];
            let target = self.island_at_mut(target_slot);
            let new_position = target.bodies.len() as u32;
            target.bodies.push(body);
            let link = &mut self.body_links[body as usize];
            link.island = target_slot;
            link.position = new_position;
        }
        self.split_scratch.label = label;
    }
}
