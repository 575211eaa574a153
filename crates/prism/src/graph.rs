//! The constraint graph, and where each contact's and joint's record is stored.
//!
//! The solver runs a colour's constraints side by side — eight contacts to a SIMD bundle,
//! bundles and joints in parallel blocks — which is only sound if no dynamic body appears twice
//! in a colour. The colouring is the `graph-coloring` crate's [`ConstraintGraph`], and it holds
//! the records themselves: each colour owns the [`ContactSim`]s of its touching contacts and the
//! [`JointConstraint`]s of its joints, so the solver reads and writes them where they live.
//!
//! A record is stored in exactly one place, named by its cold record's `set_index`, `graph` and
//! `local_index`:
//!
//! ```text
//!   graph colour (or overflow)   touching contact / joint whose bodies are awake or static,
//!                                at least one of them dynamic
//!   a solver set's store         everything else: the awake set's non-touching contacts and
//!                                joints without a dynamic body, a sleeping island's
//!                                constraints, the parked contacts and joints (disabled set)
//! ```
//!
//! Everything that moves a record goes through [`World::take_contact_sim`] and
//! [`World::store_contact_sim`] (and their joint twins): taking swap-removes the record and
//! rewrites the index of the one that filled the hole; storing puts it in the graph if it
//! qualifies there, else in the set's store. Beginning or ending touch, an island falling asleep
//! or waking, a joint created or destroyed: each is a take and a store.
//!
//! **Endpoints.** A body's vertex in the graph is its stable arena index, and only awake
//! dynamic bodies take a colour bit: static and kinematic bodies are never written by the
//! solver, so any number of a colour's constraints may share them ([`Endpoint::fixed`]). The
//! endpoints a constraint was added with are kept with its place ([`GraphPlace`]), since
//! removal must hand the graph the same ones.
//!
//! **Determinism.** The graph is changed only by the serial passes of the step (contact state
//! updates, sleep) and by user calls, in a fixed order, so every constraint's colour — and with
//! it the solver's order, bundles and blocks — is a function of the scene and the call sequence
//! alone, never of the worker count.
//!
//! **Debugging.** `WorldDef::force_overflow` sends every constraint to the overflow set, which
//! the solver handles with its scalar path one at a time: the reference the wide coloured path
//! is compared against. The sequential-impulses solver uses it too: a Gauss-Seidel sweep in the
//! order contacts began touching converges on stacks much better than one in colour order (a
//! 20-row pyramid at 8 iterations drifts 9 mm against 21 mm), and that solver is the classic
//! serial method anyway.

use crate::contact::{ContactSim, GraphPlace};
use crate::solver_set::{AWAKE_SET, STATIC_SET, SolverSet};
use crate::world::World;
use core_soa::BodyType;
use graph_coloring::{
    ColorIndex, ConstraintGraph, ConstraintKind, Endpoint, GRAPH_COLOR_COUNT, Slot,
};
use solver_simd::joint::JointConstraint;

/// The world's constraint graph: colours of contact and joint records.
pub(crate) type Graph = ConstraintGraph<ContactSim, JointConstraint>;

/// A record the graph or a solver set stores: contact sims and joint constraints.
trait StoredRecord: Sized {
    /// The cold record's arena index.
    fn key(&self) -> u32;
    fn add(graph: &mut Graph, record: Self, ends: [Endpoint; 2]) -> Slot;
    fn remove(graph: &mut Graph, slot: Slot, ends: [Endpoint; 2]) -> Self;
    fn colored(graph: &Graph, color: ColorIndex) -> &[Self];
    fn store(set: &mut SolverSet) -> &mut Vec<Self>;
}

impl StoredRecord for ContactSim {
    fn key(&self) -> u32 {
        self.contact
    }

    fn add(graph: &mut Graph, record: Self, [a, b]: [Endpoint; 2]) -> Slot {
        graph.add_contact(record, a, b)
    }

    fn remove(graph: &mut Graph, slot: Slot, [a, b]: [Endpoint; 2]) -> Self {
        graph.remove_contact(slot, a, b)
    }

    fn colored(graph: &Graph, color: ColorIndex) -> &[Self] {
        graph.contacts(color)
    }

    fn store(set: &mut SolverSet) -> &mut Vec<Self> {
        &mut set.contacts
    }
}

impl StoredRecord for JointConstraint {
    fn key(&self) -> u32 {
        self.handle
    }

    fn add(graph: &mut Graph, record: Self, [a, b]: [Endpoint; 2]) -> Slot {
        graph.add_joint(record, a, b)
    }

    fn remove(graph: &mut Graph, slot: Slot, [a, b]: [Endpoint; 2]) -> Self {
        graph.remove_joint(slot, a, b)
    }

    fn colored(graph: &Graph, color: ColorIndex) -> &[Self] {
        graph.joints(color)
    }

    fn store(set: &mut SolverSet) -> &mut Vec<Self> {
        &mut set.joints
    }
}

impl World {
    /// The graph endpoint of body `body_index`: dynamic and awake → a colour bit; static or
    /// awake kinematic → no bit; asleep → `None` (its constraints stay out of the graph).
    fn graph_endpoint(&self, body_index: u32) -> Option<Endpoint> {
        let body = self.bodies.get_by_index(body_index)?;
        match body.set_index {
            AWAKE_SET if body.body_type == BodyType::Dynamic => Some(Endpoint::dynamic(body_index)),
            AWAKE_SET | STATIC_SET => Some(Endpoint::fixed(body_index)),
            _ => None,
        }
    }

    /// The endpoints a constraint between the two bodies enters the graph with, if it may.
    fn graph_ends(&self, body_a: u32, body_b: u32) -> Option<[Endpoint; 2]> {
        let ends = [self.graph_endpoint(body_a)?, self.graph_endpoint(body_b)?];
        (ends[0].dynamic || ends[1].dynamic).then_some(ends)
    }

    /// Stores contact `index`'s sim: in the graph if `set` is the awake set, the contact
    /// touches and its bodies qualify; else in `set`'s store.
    pub(crate) fn store_contact_sim(&mut self, index: u32, sim: ContactSim, set: u32) {
        let Some(contact) = self.contacts.get_by_index(index) else {
            return;
        };
        let bodies = [contact.edges[0].body, contact.edges[1].body];
        let ends = (set == AWAKE_SET && sim.touching)
            .then(|| self.graph_ends(bodies[0], bodies[1]))
            .flatten();
        let (place, local) = self.store_record(sim, ends, set);
        if let Some(contact) = self.contacts.get_by_index_mut(index) {
            (contact.set_index, contact.graph, contact.local_index) = (set, place, local);
        }
    }

    /// Takes contact `index`'s sim out of the graph or its set's store; the record that fills
    /// its place gets its new index.
    pub(crate) fn take_contact_sim(&mut self, index: u32) -> Option<ContactSim> {
        let contact = self.contacts.get_by_index(index)?;
        let (place, set, local) = (contact.graph, contact.set_index, contact.local_index);
        let (sim, filler) = self.take_record::<ContactSim>(place, set, local)?;
        if let Some(moved) = filler.and_then(|m| self.contacts.get_by_index_mut(m)) {
            moved.local_index = local;
        }
        Some(sim)
    }

    /// Stores joint `index`'s record: in the graph if `set` is the awake set and its bodies
    /// qualify; else in `set`'s store.
    pub(crate) fn store_joint_sim(&mut self, index: u32, joint: JointConstraint, set: u32) {
        let Some(record) = self.joints.arena.get_by_index(index) else {
            return;
        };
        let bodies = [record.edges[0].body, record.edges[1].body];
        let ends = (set == AWAKE_SET)
            .then(|| self.graph_ends(bodies[0], bodies[1]))
            .flatten();
        let (place, local) = self.store_record(joint, ends, set);
        if let Some(record) = self.joints.arena.get_by_index_mut(index) {
            (record.set_index, record.graph, record.local_index) = (set, place, local);
        }
    }

    /// Takes joint `index`'s record out of the graph or its set's store (see
    /// [`World::take_contact_sim`]).
    pub(crate) fn take_joint_sim(&mut self, index: u32) -> Option<JointConstraint> {
        let record = self.joints.arena.get_by_index(index)?;
        let (place, set, local) = (record.graph, record.set_index, record.local_index);
        let (joint, filler) = self.take_record::<JointConstraint>(place, set, local)?;
        if let Some(moved) = filler.and_then(|m| self.joints.arena.get_by_index_mut(m)) {
            moved.local_index = local;
        }
        Some(joint)
    }

    /// Puts `record` into the graph between `ends`, or into set `set`'s store without them;
    /// returns its place and index.
    fn store_record<T: StoredRecord>(
        &mut self,
        record: T,
        ends: Option<[Endpoint; 2]>,
        set: u32,
    ) -> (Option<GraphPlace>, u32) {
        match ends {
            Some(ends) => {
                let slot = T::add(&mut self.graph, record, ends);
                let place = GraphPlace {
                    color: slot.color,
                    ends,
                };
                (Some(place), slot.index)
            }
            None => {
                let store = T::store(&mut self.solver_sets[set as usize]);
                store.push(record);
                (None, (store.len() - 1) as u32)
            }
        }
    }

    /// Swap-removes the record at `local` of its colour (`place`) or of set `set`'s store;
    /// returns it with the key of the record that filled its place.
    fn take_record<T: StoredRecord>(
        &mut self,
        place: Option<GraphPlace>,
        set: u32,
        local: u32,
    ) -> Option<(T, Option<u32>)> {
        let index = local as usize;
        let (record, list) = match place {
            Some(place) => {
                let slot = Slot {
                    color: place.color,
                    index: local,
                };
                let record = T::remove(&mut self.graph, slot, place.ends);
                let list: &[T] = T::colored(&self.graph, place.color);
                (record, list)
            }
            None => {
                let store = T::store(self.solver_sets.get_mut(set as usize)?);
                if index >= store.len() {
                    return None;
                }
                let record = store.swap_remove(index);
                let list: &[T] = store;
                (record, list)
            }
        };
        let filler = list.get(index).map(T::key);
        Some((record, filler))
    }

    /// Contacts per colour (not counting the overflow set).
    pub(crate) fn color_occupancy(&self) -> [usize; GRAPH_COLOR_COUNT] {
        self.graph.occupancy(ConstraintKind::Contact)
    }

    /// The colour invariant, and that every constraint in the graph sits where its cold record
    /// says, with the endpoints its bodies give it now (feature `validate`).
    pub(crate) fn validate_graph(&self) -> Result<(), String> {
        self.graph
            .validate(
                |contact: &ContactSim| {
                    let (a, b) = self.recorded_ends(self.contact_place(contact.contact));
                    (contact.contact, a, b)
                },
                |joint: &JointConstraint| {
                    let (a, b) = self.recorded_ends(self.joint_place(joint.handle));
                    (joint.handle, a, b)
                },
            )
            .map_err(|message| format!("constraint graph: {message}"))?;
        for (id, contact) in self.contacts.iter() {
            if let Some(place) = contact.graph {
                let held = self
                    .graph
                    .contacts(place.color)
                    .get(contact.local_index as usize);
                if held.map(|sim| sim.contact) != Some(id.index()) {
                    return Err(format!("contact {id:?}: its graph slot holds another"));
                }
            }
            let bodies = [contact.edges[0].body, contact.edges[1].body];
            let touching = self.contact_sim(id.index()).is_some_and(|sim| sim.touching);
            let expected = (contact.set_index == AWAKE_SET && touching)
                .then(|| self.graph_ends(bodies[0], bodies[1]))
                .flatten();
            if expected != contact.graph.map(|place| place.ends) {
                return Err(format!(
                    "contact {id:?}: graph ends {:?}, expected {expected:?}",
                    contact.graph
                ));
            }
        }
        for (id, joint) in self.joints.arena.iter() {
            let bodies = [joint.edges[0].body, joint.edges[1].body];
            let expected = (joint.set_index == AWAKE_SET)
                .then(|| self.graph_ends(bodies[0], bodies[1]))
                .flatten();
            if expected != joint.graph.map(|place| place.ends) {
                return Err(format!("joint {id:?}: graph ends differ from its bodies'"));
            }
        }
        Ok(())
    }

    fn contact_place(&self, index: u32) -> Option<GraphPlace> {
        self.contacts.get_by_index(index)?.graph
    }

    fn joint_place(&self, index: u32) -> Option<GraphPlace> {
        self.joints.arena.get_by_index(index)?.graph
    }

    /// The endpoints recorded for a graph member; a record the graph holds without a place
    /// fails the check as "no dynamic body".
    fn recorded_ends(&self, place: Option<GraphPlace>) -> (Endpoint, Endpoint) {
        let absent = Endpoint::fixed(core_soa::NULL_BODY);
        place.map_or((absent, absent), |place| (place.ends[0], place.ends[1]))
    }
}
