//! The World's constraint graph: which colour each touching contact is solved in.
//!
//! The solver runs a colour's contacts side by side — eight to a SIMD bundle, bundles in
//! parallel blocks — which is only sound if no dynamic body appears twice in a colour. The
//! colouring itself lives in the `graph-coloring` crate ([`ConstraintGraph`]); this module is
//! the World's side of it:
//!
//! ```text
//!   begins touching, bodies awake ──▶ add_contact_to_graph       graph.add → Slot
//!   stops touching / destroyed    ──▶ remove_contact_from_graph  graph.remove → Moved fix-up
//!   each step's solve             ──▶ colour 0's contacts, colour 1's, …, then the overflow
//! ```
//!
//! **Handles and endpoints.** A contact's handle in the graph is its stable arena index (its
//! hot record moves when another contact is swap-removed; its arena slot does not). A body's
//! id in the graph is its stable arena index too, and only dynamic bodies are graph vertices:
//! static and kinematic bodies are never written by the solver, so any number of contacts of a
//! colour may share them ([`Endpoint::fixed`]).
//!
//! **Membership table.** For every contact in the graph, `ContactGraph::members` (indexed by
//! the contact's arena index) remembers its [`Slot`] and the two endpoints it was added with.
//! Removal must hand the graph the same endpoints it was given at insertion, whatever happened
//! to the bodies since, so they are stored rather than recomputed. When a removal swap-moves
//! another handle into the hole, the graph reports it ([`graph_coloring::Moved`]) and that
//! contact's slot is updated here.
//!
//! **Who is in the graph.** A touching contact whose two bodies are in the awake or the static
//! solver set and at least one of them dynamic. A contact of a sleeping body is taken out when
//! its island falls asleep and put back when it wakes; a contact is never added twice (adding is
//! a no-op for a contact already in it) and removing one that is not in it is a no-op too, so
//! the begin/end-touch pass, sleeping and waking, and destruction may each call these without
//! knowing what the others did.
//!
//! **Determinism.** The graph is changed only by the serial passes of the step (contact state
//! updates, sleep) and by user calls, always in contact order, so the colour of each contact —
//! and with it the solver's contact order, its bundles and blocks — is a function of the scene
//! and the call sequence alone, never of the worker count (DESIGN §7).
//!
//! **Debugging.** `WorldDef::force_overflow` sends every contact to the overflow set, which the
//! solver handles with its scalar path one contact at a time: the reference the wide coloured
//! path is compared against.

use crate::body::{AWAKE_SET, STATIC_SET};
use crate::world::World;
#[cfg(feature = "validate")]
use core_soa::NULL_BODY;
use core_soa::{Body, BodyType};
use graph_coloring::{
    ColorIndex, ConstraintGraph, ConstraintKind, Endpoint, GRAPH_COLOR_COUNT, Slot,
};

/// Where a contact sits in the graph, and the endpoints it was added with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GraphMember {
    pub(crate) slot: Slot,
    pub(crate) ends: [Endpoint; 2],
}

/// The persistent colouring of the touching contacts between awake bodies.
#[derive(Clone, Debug, Default)]
pub(crate) struct ContactGraph {
    pub(crate) graph: ConstraintGraph,
    /// Indexed by contact arena index: the contact's place in the graph, if it has one.
    members: Vec<Option<GraphMember>>,
}

impl ContactGraph {
    /// An empty graph; with `force_overflow`, every contact goes to the overflow set.
    pub(crate) fn new(force_overflow: bool) -> ContactGraph {
        let mut graph = ConstraintGraph::new();
        graph.set_force_overflow(force_overflow);
        ContactGraph {
            graph,
            members: Vec::new(),
        }
    }

    /// The place of contact `contact_index` in the graph, if it has one.
    pub(crate) fn member(&self, contact_index: u32) -> Option<GraphMember> {
        self.members.get(contact_index as usize).copied().flatten()
    }

    /// The contact handles of colour `color` (or of the overflow set), in solve order.
    pub(crate) fn contacts(&self, color: ColorIndex) -> &[u32] {
        self.graph.contacts(color)
    }

    /// Contacts per colour (not counting the overflow set).
    pub(crate) fn occupancy(&self) -> [usize; GRAPH_COLOR_COUNT] {
        self.graph.occupancy(ConstraintKind::Contact)
    }

    pub(crate) fn overflow_count(&self) -> usize {
        self.graph.overflow_contacts().len()
    }

    pub(crate) fn colors_in_use(&self) -> usize {
        self.graph.colors_in_use()
    }

    /// Records `contact_index` at a new slot with its endpoints (it must not be in the graph).
    fn insert(&mut self, contact_index: u32, ends: [Endpoint; 2]) {
        let slot = self
            .graph
            .add(ConstraintKind::Contact, contact_index, ends[0], ends[1]);
        let index = contact_index as usize;
        if self.members.len() <= index {
            self.members.resize(index + 1, None);
        }
        self.members[index] = Some(GraphMember { slot, ends });
    }

    /// Takes `contact_index` out of the graph (if it is in it) and fixes the slot of the
    /// contact that moved into its place.
    fn remove(&mut self, contact_index: u32) {
        let Some(member) = self
            .members
            .get_mut(contact_index as usize)
            .and_then(Option::take)
        else {
            return;
        };
        let [a, b] = member.ends;
        let moved = self
            .graph
            .remove(ConstraintKind::Contact, contact_index, member.slot, a, b);
        if let Some(moved) = moved
            && let Some(Some(entry)) = self.members.get_mut(moved.handle as usize)
        {
            entry.slot = moved.new_slot;
        }
    }
}

/// The graph endpoint of a body: its arena index, dynamic or not; `None` if the body is in
/// neither the awake nor the static set (asleep or disabled), which keeps its contacts out of
/// the graph.
fn graph_endpoint(body_index: u32, body: &Body) -> Option<Endpoint> {
    match body.set_index {
        AWAKE_SET if body.body_type == BodyType::Dynamic => Some(Endpoint::dynamic(body_index)),
        AWAKE_SET | STATIC_SET => Some(Endpoint::fixed(body_index)),
        _ => None,
    }
}

impl World {
    /// Puts touching contact `contact_index` (arena index) into a colour, or into the overflow
    /// set if none fits. Does nothing if it is already in the graph, is not touching, or has a
    /// body that is neither awake nor static, or no dynamic body.
    pub(crate) fn add_contact_to_graph(&mut self, contact_index: u32) {
        if self.graph.member(contact_index).is_some() {
            return;
        }
        if let Some(ends) = self.graph_endpoints(contact_index) {
            self.graph.insert(contact_index, ends);
        }
    }

    /// Takes contact `contact_index` (arena index) out of the graph; a no-op if it is not in it.
    pub(crate) fn remove_contact_from_graph(&mut self, contact_index: u32) {
        self.graph.remove(contact_index);
    }

    /// The endpoints contact `contact_index` would enter the graph with, if it qualifies (see
    /// [`World::add_contact_to_graph`]).
    fn graph_endpoints(&self, contact_index: u32) -> Option<[Endpoint; 2]> {
        let contact = self.contacts.arena.get_by_index(contact_index)?;
        if contact.set_index != AWAKE_SET {
            return None;
        }
        let sim = self.contacts.sims.get(contact.sim_index as usize)?;
        if !sim.touching {
            return None;
        }
        let end = |body_index: u32| {
            let body = self.bodies.get_by_index(body_index)?;
            graph_endpoint(body_index, body)
        };
        let ends = [end(sim.body_a)?, end(sim.body_b)?];
        (ends[0].dynamic || ends[1].dynamic).then_some(ends)
    }

    /// The colour invariant, and that the graph holds exactly the contacts it should, each at
    /// the slot it records (feature `validate`).
    #[cfg(feature = "validate")]
    pub(crate) fn validate_graph(&self) -> Result<(), String> {
        let graph = &self.graph;
        let ends = |kind, handle| match kind {
            ConstraintKind::Contact => graph.member(handle).map(|member| member.ends),
            ConstraintKind::Joint => self
                .joints
                .arena
                .get_by_index(handle)
                .and_then(|joint| joint.graph)
                .map(|member| member.ends),
        };
        // A handle with no recorded endpoints fails the check as "no dynamic body".
        let absent = [Endpoint::fixed(NULL_BODY); 2];
        graph
            .graph
            .validate(|kind, handle| {
                let [a, b] = ends(kind, handle).unwrap_or(absent);
                (a, b)
            })
            .map_err(|message| format!("constraint graph: {message}"))?;
        let mut members = 0;
        for sim in &self.contacts.sims {
            let expected = self.graph_endpoints(sim.contact);
            let stored = graph.member(sim.contact);
            if expected != stored.map(|member| member.ends) {
                return Err(format!(
                    "contact {}: graph endpoints {:?}, expected {expected:?}",
                    sim.contact,
                    stored.map(|member| member.ends)
                ));
            }
            if let Some(member) = stored {
                let listed = graph
                    .contacts(member.slot.color)
                    .get(member.slot.index as usize);
                if listed != Some(&sim.contact) {
                    return Err(format!(
                        "contact {}: slot {:?} holds {listed:?}",
                        sim.contact, member.slot
                    ));
                }
                members += 1;
            }
        }
        let stored = graph.graph.len(ConstraintKind::Contact);
        if stored != members {
            return Err(format!(
                "constraint graph holds {stored} contacts, {members} contacts are members"
            ));
        }
        Ok(())
    }
}

/// The solver's order: colour 0's contact handles, colour 1's, …, then the overflow set's.
/// Yields each colour (including empty ones, and the overflow set last) with its handles.
pub(crate) fn colors_in_solve_order(
    graph: &ContactGraph,
) -> impl Iterator<Item = (ColorIndex, &[u32])> {
    (0..GRAPH_COLOR_COUNT)
        .filter_map(ColorIndex::new)
        .chain([ColorIndex::OVERFLOW])
        .map(|color| (color, graph.contacts(color)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removal_fixes_the_slot_of_the_contact_that_moved() {
        let mut graph = ContactGraph::new(false);
        // Three contacts on the ground (body 0, static) with distinct dynamic bodies: all three
        // land in the same colour (the last one), in insertion order.
        for (contact, body) in [(10, 1), (11, 2), (12, 3)] {
            graph.insert(contact, [Endpoint::fixed(0), Endpoint::dynamic(body)]);
        }
        let last = ColorIndex::new(GRAPH_COLOR_COUNT - 1).unwrap();
        assert_eq!(graph.contacts(last), &[10, 11, 12]);
        graph.remove(10);
        // Contact 12 was swapped into position 0.
        assert_eq!(graph.contacts(last), &[12, 11]);
        assert_eq!(
            graph.member(12).unwrap().slot,
            Slot {
                color: last,
                index: 0
            }
        );
        assert_eq!(graph.member(10), None);
        // Removing again, or removing a contact never added, changes nothing.
        graph.remove(10);
        graph.remove(99);
        assert_eq!(graph.graph.len(ConstraintKind::Contact), 2);
        graph.remove(12);
        graph.remove(11);
        assert!(graph.graph.is_empty());
    }

    #[test]
    fn contacts_sharing_a_dynamic_body_take_different_colours() {
        let mut graph = ContactGraph::new(false);
        graph.insert(0, [Endpoint::dynamic(1), Endpoint::dynamic(2)]);
        graph.insert(1, [Endpoint::dynamic(2), Endpoint::dynamic(3)]);
        graph.insert(2, [Endpoint::dynamic(3), Endpoint::dynamic(4)]);
        let colors: Vec<usize> = (0..3)
            .map(|c| graph.member(c).unwrap().slot.color.index())
            .collect();
        assert_eq!(colors, [0, 1, 0]);
        assert_eq!(graph.colors_in_use(), 2);
        let order: Vec<u32> = colors_in_solve_order(&graph)
            .flat_map(|(_, handles)| handles.iter().copied())
            .collect();
        assert_eq!(order, [0, 2, 1]);
    }

    #[test]
    fn force_overflow_sends_everything_to_the_overflow_set() {
        let mut graph = ContactGraph::new(true);
        graph.insert(0, [Endpoint::dynamic(1), Endpoint::dynamic(2)]);
        graph.insert(1, [Endpoint::fixed(0), Endpoint::dynamic(3)]);
        assert_eq!(graph.overflow_count(), 2);
        assert_eq!(graph.colors_in_use(), 0);
        assert_eq!(graph.occupancy(), [0; GRAPH_COLOR_COUNT]);
    }
}
