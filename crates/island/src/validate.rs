//! Whole-structure checks of islands and solver sets, recomputed from scratch.
//!
//! The incremental bookkeeping (merge on link, deferred split) is only right if every record
//! agrees with every list and the caller reports every constraint it links and unlinks. These
//! checks rebuild what must hold and compare:
//!
//! - every island's lists and the body/constraint records point at each other;
//! - the caller's dynamic bodies are exactly the bodies in islands, and the caller's linked
//!   constraints (with their bodies) are exactly the constraints in islands;
//! - every constraint's two bodies are in its island;
//! - the connected components of the caller's constraint graph, computed by a breadth-first
//!   search independent of the union-find used by `split`, never straddle two islands, and an
//!   island with no pending removals is exactly one component (an island with pending removals
//!   may hold several until it is split);
//! - every sleeping set names a live island and the two directions of the set map agree.
//!
//! They cost a pass over every body and constraint (plus sorting): for tests and for the
//! World's `validate` feature, not for every step of a release build. They are always compiled
//! so that tests can use them; this crate's `validate` feature additionally runs the per-island
//! check after every split.

use crate::{ConstraintKey, IslandGraph, SolverSets};
use core_soa::NULL_INDEX;
use std::collections::VecDeque;

impl IslandGraph {
    /// Checks the whole structure against the caller's view: `dynamic_bodies` are the bodies
    /// that should be in islands, `linked_constraints` the constraints that should be linked,
    /// each with the two bodies it joins. Returns a message naming the first violation.
    pub fn validate(
        &self,
        dynamic_bodies: &[u32],
        linked_constraints: &[(ConstraintKey, u32, u32)],
    ) -> Result<(), String> {
        for (id, _) in self.islands.iter() {
            self.check_island(id.index())?;
        }
        self.check_body_records()?;
        self.check_same_bodies(dynamic_bodies)?;
        self.check_same_constraints(linked_constraints)?;
        self.check_components(dynamic_bodies, linked_constraints)
    }

    /// One island's lists against the records they point to.
    pub(crate) fn check_island(&self, slot: u32) -> Result<(), String> {
        let island = self
            .islands
            .get_by_index(slot)
            .ok_or_else(|| format!("island slot {slot} is not live"))?;
        if island.bodies.is_empty() {
            return Err(format!("island slot {slot} has no bodies"));
        }
        for (position, &body) in island.bodies.iter().enumerate() {
            let link = self.body_links.get(body as usize);
            if !link.is_some_and(|l| l.island == slot && l.position == position as u32) {
                return Err(format!(
                    "body {body} at position {position} of island {slot} has record {link:?}"
                ));
            }
        }
        if island.ends.len() != island.constraints.len() {
            return Err(format!(
                "island slot {slot} lists {} constraints but {} pairs of ends",
                island.constraints.len(),
                island.ends.len()
            ));
        }
        for (position, (&key, &ends)) in island.constraints.iter().zip(&island.ends).enumerate() {
            let link = self.constraint_links.get(key);
            if !link.is_some_and(|l| l.island == slot && l.position == position as u32) {
                return Err(format!(
                    "{key:?} at position {position} of island {slot} has record {link:?}"
                ));
            }
            self.check_endpoints_in(key, ends, slot)?;
        }
        Ok(())
    }

    /// A constraint's two bodies are both in island `slot`.
    fn check_endpoints_in(
        &self,
        key: ConstraintKey,
        ends: [u32; 2],
        slot: u32,
    ) -> Result<(), String> {
        for body in ends {
            let island = self.body_links.get(body as usize).map(|l| l.island);
            if island != Some(slot) {
                return Err(format!(
                    "{key:?} is in island {slot} but its body {body} is in {island:?}"
                ));
            }
        }
        Ok(())
    }

    /// Every body record names a live island that lists the body there, and every body's
    /// linked-constraint count equals the number of linked constraint ends at it.
    fn check_body_records(&self) -> Result<(), String> {
        let mut ends = vec![0u32; self.body_links.len()];
        for (_, island) in self.islands.iter() {
            for (key, pair) in island.constraints.iter().zip(&island.ends) {
                for &body in pair {
                    let count = ends
                        .get_mut(body as usize)
                        .ok_or_else(|| format!("{key:?} links unknown body {body}"))?;
                    *count += 1;
                }
            }
        }
        for (body, link) in self.body_links.iter().enumerate() {
            if link.island == NULL_INDEX {
                if link.linked_constraints != 0 {
                    return Err(format!("body {body} has no island but linked constraints"));
                }
                continue;
            }
            let listed = self
                .islands
                .get_by_index(link.island)
                .and_then(|island| island.bodies.get(link.position as usize));
            if listed != Some(&(body as u32)) {
                return Err(format!("body {body}'s record {link:?} is not matched"));
            }
            if link.linked_constraints != ends[body] {
                return Err(format!(
                    "body {body} counts {} linked constraints, but {} end at it",
                    link.linked_constraints, ends[body]
                ));
            }
        }
        Ok(())
    }

    /// The caller's dynamic bodies are exactly the bodies in islands.
    fn check_same_bodies(&self, dynamic_bodies: &[u32]) -> Result<(), String> {
        let mut expected = dynamic_bodies.to_vec();
        expected.sort_unstable();
        if let Some(pair) = expected.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("body {} is listed twice by the caller", pair[0]));
        }
        let actual: Vec<u32> = (0..self.body_links.len() as u32)
            .filter(|&body| self.body_links[body as usize].island != NULL_INDEX)
            .collect();
        if actual != expected {
            let missing = expected.iter().find(|b| actual.binary_search(b).is_err());
            let extra = actual.iter().find(|b| expected.binary_search(b).is_err());
            return Err(format!(
                "island bodies differ from the caller's: missing {missing:?}, extra {extra:?}"
            ));
        }
        Ok(())
    }

    /// The caller's linked constraints are exactly the linked ones, with the same bodies.
    fn check_same_constraints(&self, linked: &[(ConstraintKey, u32, u32)]) -> Result<(), String> {
        let mut expected = linked.to_vec();
        expected.sort_unstable();
        let mut actual = Vec::with_capacity(linked.len());
        for (key, link) in self.constraint_links.iter_linked() {
            let (a, b) = self
                .constraint_bodies(key)
                .ok_or_else(|| format!("{key:?}'s record {link:?} names no place in an island"))?;
            actual.push((key, a, b));
        }
        actual.sort_unstable();
        if actual != expected {
            let missing = expected.iter().find(|c| actual.binary_search(c).is_err());
            let extra = actual.iter().find(|c| expected.binary_search(c).is_err());
            return Err(format!(
                "linked constraints differ from the caller's: missing {missing:?}, extra {extra:?}"
            ));
        }
        Ok(())
    }

    /// Components by breadth-first search over the caller's graph against island membership.
    fn check_components(
        &self,
        dynamic_bodies: &[u32],
        linked: &[(ConstraintKey, u32, u32)],
    ) -> Result<(), String> {
        let component = components_by_search(dynamic_bodies, linked);
        // For each island, the component of its first body; every body must share the island's
        // component if the island has no pending removals, and a component must not reach into
        // two islands.
        let mut island_of_component: Vec<u32> = vec![NULL_INDEX; dynamic_bodies.len()];
        for (&body, &label) in dynamic_bodies.iter().zip(&component) {
            let slot = self.body_links[body as usize].island;
            let owner = &mut island_of_component[label as usize];
            if *owner == NULL_INDEX {
                *owner = slot;
            } else if *owner != slot {
                return Err(format!(
                    "a connected component spans islands {owner} and {slot} (at body {body})"
                ));
            }
        }
        let body_count = dynamic_bodies.iter().max().map_or(0, |&b| b as usize + 1);
        let mut label_of_body = vec![NULL_INDEX; body_count];
        for (&body, &label) in dynamic_bodies.iter().zip(&component) {
            label_of_body[body as usize] = label;
        }
        for (id, island) in self.islands.iter() {
            if island.constraint_remove_count > 0 {
                continue;
            }
            let first = label_of_body[island.bodies[0] as usize];
            if island
                .bodies
                .iter()
                .any(|&body| label_of_body[body as usize] != first)
            {
                return Err(format!(
                    "island {id:?} has no pending removals but is not connected"
                ));
            }
        }
        Ok(())
    }
}

/// Component label of each of `bodies` (by position in `bodies`), by breadth-first search over
/// an adjacency list built from `edges`.
fn components_by_search(bodies: &[u32], edges: &[(ConstraintKey, u32, u32)]) -> Vec<u32> {
    let mut sorted: Vec<(u32, usize)> = bodies.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    sorted.sort_unstable();
    let local = |body: u32| {
        sorted
            .binary_search_by_key(&body, |&(b, _)| b)
            .ok()
            .map(|at| sorted[at].1)
    };
    let mut adjacency: Vec<Vec<usize>> = vec![Vec::new(); bodies.len()];
    for &(_, a, b) in edges {
        if let (Some(a), Some(b)) = (local(a), local(b)) {
            adjacency[a].push(b);
            adjacency[b].push(a);
        }
    }
    let mut label = vec![NULL_INDEX; bodies.len()];
    let mut next = 0;
    let mut queue = VecDeque::new();
    for start in 0..bodies.len() {
        if label[start] != NULL_INDEX {
            continue;
        }
        label[start] = next;
        queue.push_back(start);
        while let Some(at) = queue.pop_front() {
            for &neighbour in &adjacency[at] {
                if label[neighbour] == NULL_INDEX {
                    label[neighbour] = next;
                    queue.push_back(neighbour);
                }
            }
        }
        next += 1;
    }
    label
}

impl SolverSets {
    /// Checks that every sleeping set names a live island of `islands` with no pending
    /// removals, and that the set-of-island map agrees with the island-in-set map.
    pub fn validate(&self, islands: &IslandGraph) -> Result<(), String> {
        let mut sleeping = 0;
        for (set, island) in self.sleeping_sets() {
            match islands.constraint_remove_count(island) {
                Err(_) => return Err(format!("{set:?} holds dead island {island:?}")),
                Ok(count) if count > 0 => {
                    return Err(format!("sleeping {island:?} has {count} pending removals"));
                }
                Ok(_) => {}
            }
            if self.sleeping_set_of(island) != Some(set) {
                return Err(format!("{island:?} sleeps in {set:?} but maps elsewhere"));
            }
            sleeping += 1;
        }
        if sleeping != self.sleeping_set_count() {
            return Err("sleeping set count disagrees with the sets".to_string());
        }
        for &(island, set) in self.set_of_island.iter().flatten() {
            if self.island_in(set) != Some(island) {
                return Err(format!(
                    "{island:?} maps to {set:?}, which does not hold it"
                ));
            }
        }
        Ok(())
    }
}
