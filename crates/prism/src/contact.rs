//! Contacts: one persistent object per pair of shapes whose fat boxes overlap.
//!
//! A contact is created by the pair update when two fat boxes begin to overlap and destroyed by
//! the narrowphase when they stop (or when one of its shapes is destroyed). In between it carries
//! the manifold from step to step: that is the contact cache, which lets the solver start each
//! step from last step's impulses.
//!
//! A contact has a cold and a hot record:
//!
//! ```text
//!   Contact     arena, stable slot      shapes; links of the two bodies' contact lists;
//!                                       where the sim is (set, graph colour, index)
//!   ContactSim  wherever it lives       the solver's view (bodies' awake indices, inverse
//!                                       masses, material, manifold with accumulated impulses),
//!                                       the bodies' places, shapes, flags, recycling record
//! ```
//!
//! The sim is stored where its state puts it, and it is solved and collided in place:
//!
//! ```text
//!   touching, bodies awake or static   a graph colour (or the overflow set)  solved, collided
//!   not touching, a body awake         the awake set's contacts             collided
//!   touching, island asleep            the sleeping island's set            untouched
//!   not touching, no body awake        the disabled set ("parked")          untouched
//! ```
//!
//! The solver's part of the sim ([`SolverContact`]) comes first, so preparation reads one
//! contiguous 144-byte record and the impulse store writes into the same one: the manifold the
//! narrowphase updates next step. Anchors in it are relative to the bodies' centres of mass, as
//! the solver wants them (the narrowphase converts them); users see them relative to the body
//! origins ([`ContactData`]). The body indices and inverse masses in it are kept current by
//! `relocate.rs` whenever a body moves between or within solver sets or changes mass.

use crate::body::Body;
use crate::broadphase::BuildPairHasher;
use crate::constraint_list::{Edge, ListNode, attach, detach};
use crate::error::PrismError;
use crate::events::ContactEndTouchEvent;
use crate::island::unlink_contact_from;
use crate::profile::zone;
use crate::recycle::ManifoldFrame;
use crate::solver_set::{AWAKE_SET, DISABLED_SET};
use crate::world::World;
use collision::Manifold;
use core_soa::{Arena, BodyId, ContactId, NULL_BODY, ShapeId, Vec2};
use graph_coloring::{ColorIndex, Endpoint};
use island::IslandGraph;
use solver_simd::{ContactRecord, SolverContact};
use std::collections::HashSet;

/// The key of an unordered shape pair in the pair set: lower index in the high half.
#[inline]
pub(crate) fn pair_key(shape_a: u32, shape_b: u32) -> u64 {
    let (low, high) = if shape_a < shape_b {
        (shape_a, shape_b)
    } else {
        (shape_b, shape_a)
    };
    (u64::from(low) << 32) | u64::from(high)
}

/// Where a body's sim lives: its solver set and its index there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BodyRef {
    pub(crate) set: u32,
    pub(crate) local: u32,
}

/// A constraint's place in the constraint graph: its colour and the endpoints it was added
/// with (removal must hand the graph the same ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GraphPlace {
    pub(crate) color: ColorIndex,
    pub(crate) ends: [Endpoint; 2],
}

/// The cold contact record.
#[derive(Clone, Debug)]
pub(crate) struct Contact {
    pub(crate) shape_a: ShapeId,
    pub(crate) shape_b: ShapeId,
    /// Side 0 is body A's list, side 1 body B's.
    pub(crate) edges: [Edge; 2],
    /// The solver set whose store holds the sim (the awake set for graph members).
    pub(crate) set_index: u32,
    /// The graph colour holding the sim, if it is in the graph.
    pub(crate) graph: Option<GraphPlace>,
    /// The sim's index in its colour or set store.
    pub(crate) local_index: u32,
}

impl ListNode for Contact {
    fn edges(&self) -> &[Edge; 2] {
        &self.edges
    }

    fn edges_mut(&mut self) -> &mut [Edge; 2] {
        &mut self.edges
    }
}

/// What the narrowphase decided about a contact this step, when it changed (see
/// `narrowphase.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ContactChange {
    StartedTouching,
    StoppedTouching,
    /// The fat boxes no longer overlap: destroy the contact. `touching` is whether it was
    /// touching when they parted (then it still sits in a colour and an island); if not, it is
    /// *idle*: stored in the awake set's contacts, in no colour and no island.
    Disjoint {
        touching: bool,
    },
}

/// The hot contact record (see the module notes).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct ContactSim {
    /// What the solver reads and writes: awake indices, inverse masses, material, and the
    /// manifold (centre-relative anchors, accumulated impulses).
    pub(crate) solver: SolverContact,
    /// Arena index of the cold [`Contact`].
    pub(crate) contact: u32,
    /// Arena indices of the shapes.
    pub(crate) shape_a: u32,
    pub(crate) shape_b: u32,
    /// Where the two bodies' sims are (for their transforms).
    pub(crate) bodies: [BodyRef; 2],
    /// Whether the manifold has points.
    pub(crate) touching: bool,
    /// Whether either shape asked for begin/end events.
    pub(crate) enable_events: bool,
    /// Whether either shape asked for hit events (`hit.rs`).
    pub(crate) enable_hit_events: bool,
    /// Whether either shape asked for the pre-solve hook (`hooks.rs`).
    pub(crate) enable_pre_solve: bool,
    /// Whether `frame` describes the manifold (see `recycle.rs`): set by a full collide,
    /// cleared when the manifold's anchors may no longer match it.
    pub(crate) recyclable: bool,
    pub(crate) frame: ManifoldFrame,
}

impl ContactRecord for ContactSim {
    #[inline]
    fn solver_contact(&self) -> &SolverContact {
        &self.solver
    }

    #[inline]
    fn solver_contact_mut(&mut self) -> &mut SolverContact {
        &mut self.solver
    }
}

impl ContactSim {
    /// The manifold with anchors relative to the body origins, given the world offsets from
    /// each origin to its centre of mass (`q·local_center`).
    pub(crate) fn origin_manifold(&self, offset_a: Vec2, offset_b: Vec2) -> Manifold {
        let mut manifold = self.solver.manifold;
        for point in manifold.points_mut() {
            point.anchor_a += offset_a;
            point.anchor_b += offset_b;
        }
        manifold
    }
}

/// A touching contact as users see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactData {
    /// The first shape of the contact (the manifold's normal points from A to B).
    pub shape_a: ShapeId,
    /// The second shape of the contact.
    pub shape_b: ShapeId,
    /// Normal from A to B; anchors relative to the bodies' origins; the accumulated impulses
    /// of the last solve. The soft-step solver applies them every substep, so a point's force is
    /// `normal_impulse · substeps / dt`; the sequential-impulses solver applies them once per
    /// step (force `normal_impulse / dt`).
    pub manifold: Manifold,
}

impl World {
    /// Every touching contact, in contact-id order.
    pub fn contact_data(&self) -> impl Iterator<Item = ContactData> + '_ {
        self.contacts
            .iter()
            .filter_map(|(id, _)| self.touching_contact_data(id.index()))
    }

    /// The touching contacts of one body, most recent first.
    pub fn body_contact_data(&self, body: BodyId) -> Result<Vec<ContactData>, PrismError> {
        self.body(body)?;
        Ok(self
            .contacts_of_body(body.index())
            .into_iter()
            .filter_map(|index| self.touching_contact_data(index))
            .collect())
    }

    /// How many contacts the body has, touching or not: one for every pair of its shapes and
    /// another body's whose fat boxes overlap and whose filters let them collide.
    pub fn body_contact_count(&self, body: BodyId) -> Result<usize, PrismError> {
        self.body(body)?;
        Ok(self.contacts_of_body(body.index()).len())
    }

    /// What users see of contact `index`, if it touches.
    fn touching_contact_data(&self, index: u32) -> Option<ContactData> {
        let contact = self.contacts.get_by_index(index)?;
        let sim = self.contact_sim(index)?;
        sim.touching.then(|| ContactData {
            shape_a: contact.shape_a,
            shape_b: contact.shape_b,
            manifold: self.user_manifold(sim),
        })
    }

    /// A sim's manifold with origin-relative anchors.
    pub(crate) fn user_manifold(&self, sim: &ContactSim) -> Manifold {
        let offset = |side: usize| {
            let place = sim.bodies[side];
            self.solver_sets
                .get(place.set as usize)
                .and_then(|set| set.bodies.sims().get(place.local as usize))
                .map_or(Vec2::ZERO, |body| {
                    body.transform.q.rotate(body.local_center)
                })
        };
        sim.origin_manifold(offset(0), offset(1))
    }

    /// The hot record of contact `index` (arena index), wherever it is stored.
    pub(crate) fn contact_sim(&self, index: u32) -> Option<&ContactSim> {
        let contact = self.contacts.get_by_index(index)?;
        let local = contact.local_index as usize;
        match contact.graph {
            Some(place) => self.graph.contacts(place.color).get(local),
            None => self
                .solver_sets
                .get(contact.set_index as usize)?
                .contacts
                .get(local),
        }
    }

    /// The hot record of contact `index`, for writing.
    pub(crate) fn contact_sim_mut(&mut self, index: u32) -> Option<&mut ContactSim> {
        let contact = self.contacts.get_by_index(index)?;
        let local = contact.local_index as usize;
        match contact.graph {
            Some(place) => self.graph.contacts_mut(place.color).get_mut(local),
            None => self
                .solver_sets
                .get_mut(contact.set_index as usize)?
                .contacts
                .get_mut(local),
        }
    }

    /// Creates the contact for a new pair of shapes (by arena index) found by the broadphase:
    /// in the awake set if a body is awake, else parked.
    pub(crate) fn create_contact(&mut self, shape_a: u32, shape_b: u32) {
        let (Some(id_a), Some(id_b)) = (self.shapes.key_at(shape_a), self.shapes.key_at(shape_b))
        else {
            return;
        };
        let (Some(a), Some(b)) = (self.shapes.get(id_a), self.shapes.get(id_b)) else {
            return;
        };
        let (body_a, body_b) = (a.body.index(), b.body.index());
        let material = (
            (a.friction * b.friction).sqrt(),
            a.restitution.max(b.restitution),
            a.enable_contact_events || b.enable_contact_events,
        );
        let hit_events = a.enable_hit_events || b.enable_hit_events;
        let pre_solve = a.enable_pre_solve_events || b.enable_pre_solve_events;
        let index = self
            .contacts
            .insert(Contact {
                shape_a: id_a,
                shape_b: id_b,
                edges: [Edge::UNLINKED; 2],
                set_index: AWAKE_SET,
                graph: None,
                local_index: 0,
            })
            .index();
        self.link_contact_edges(index, body_a, body_b);
        let mut sim = self.new_contact_sim(index, [shape_a, shape_b], [body_a, body_b], material);
        (sim.enable_hit_events, sim.enable_pre_solve) = (hit_events, pre_solve);
        let awake = self.is_body_index_awake(body_a) || self.is_body_index_awake(body_b);
        let set = if awake { AWAKE_SET } else { DISABLED_SET };
        self.store_contact_sim(index, sim, set);
        self.broadphase.pair_set.insert(pair_key(shape_a, shape_b));
    }

    /// A new contact's sim: no manifold yet; bodies and masses as they are now.
    fn new_contact_sim(
        &self,
        index: u32,
        shapes: [u32; 2],
        bodies: [u32; 2],
        (friction, restitution, enable_events): (f32, f32, bool),
    ) -> ContactSim {
        let mut sim = ContactSim {
            solver: SolverContact {
                body_a: NULL_BODY,
                body_b: NULL_BODY,
                inv_mass_a: 0.0,
                inv_inertia_a: 0.0,
                inv_mass_b: 0.0,
                inv_inertia_b: 0.0,
                friction,
                restitution,
                manifold: Manifold::default(),
            },
            contact: index,
            shape_a: shapes[0],
            shape_b: shapes[1],
            bodies: [BodyRef { set: 0, local: 0 }; 2],
            touching: false,
            enable_events,
            enable_hit_events: false,
            enable_pre_solve: false,
            recyclable: false,
            frame: ManifoldFrame::default(),
        };
        for (side, &body) in bodies.iter().enumerate() {
            if let Some(data) = self.contact_side(body) {
                sim.set_side(side, data);
            }
        }
        sim
    }

    /// The contact-state pass's tail (`ContactStateTail::run`) on this world, with the parts
    /// of it that the tail writes borrowed apart.
    pub(crate) fn run_contact_state_tail(&mut self, tail: &ContactStateTail) {
        let World {
            islands,
            contacts,
            solver_sets,
            bodies,
            broadphase,
            ..
        } = self;
        let parted = PartedContacts {
            contacts,
            store: &mut solver_sets[AWAKE_SET as usize].contacts,
            bodies,
            pair_set: &mut broadphase.pair_set,
        };
        tail.run(&mut islands.graph, parted);
    }

    /// The first half of destroying a touching contact whose fat boxes parted, the half that
    /// must precede the solver: it leaves its colour, and its end event is returned if it
    /// reports events. Leaving its island and [`PartedContacts::finish`] do the rest
    /// ([`ContactStateTail`]).
    pub(crate) fn detach_touching_contact(&mut self, index: u32) -> Option<ContactEndTouchEvent> {
        let record = self.contacts.get_by_index(index)?;
        let (shape_a, shape_b) = (record.shape_a, record.shape_b);
        self.wake_contact(index);
        let sim = self.take_contact_sim(index)?;
        (sim.touching && sim.enable_events).then_some(ContactEndTouchEvent { shape_a, shape_b })
    }

    /// Destroys a contact by arena index. Returns its end-touch event if it was touching and
    /// reports events.
    pub(crate) fn destroy_contact(&mut self, index: u32) -> Option<ContactEndTouchEvent> {
        let id = self.contacts.key_at(index)?;
        self.wake_contact(index);
        self.unlink_contact(index);
        let sim = self.take_contact_sim(index)?;
        self.unlink_contact_edges(index);
        let contact = self.contacts.remove(id)?;
        self.broadphase
            .pair_set
            .remove(&pair_key(sim.shape_a, sim.shape_b));
        (sim.touching && sim.enable_events).then_some(ContactEndTouchEvent {
            shape_a: contact.shape_a,
            shape_b: contact.shape_b,
        })
    }

    /// Threads contact `index` into its bodies' contact lists.
    fn link_contact_edges(&mut self, index: u32, body_a: u32, body_b: u32) {
        for (side, body) in [(0, body_a), (1, body_b)] {
            if let Some(owner) = self.bodies.get_by_index_mut(body) {
                attach(&mut self.contacts, &mut owner.contacts, index, side, body);
            }
        }
    }

    /// Takes contact `index` out of its bodies' contact lists.
    fn unlink_contact_edges(&mut self, index: u32) {
        unlink_edges(&mut self.contacts, &mut self.bodies, index);
    }
}

/// Takes contact `index` out of its bodies' contact lists.
fn unlink_edges(
    contacts: &mut Arena<Contact, ContactId>,
    bodies: &mut Arena<Body, BodyId>,
    index: u32,
) {
    for side in 0..2 {
        let Some(edge) = contacts.get_by_index(index).map(|c| c.edges[side]) else {
            return;
        };
        if let Some(owner) = bodies.get_by_index_mut(edge.body) {
            detach(contacts, &mut owner.contacts, index, side as u32);
        }
    }
}

/// What the contact-state pass leaves for after it (`narrowphase.rs`), none of it read by the
/// solver: the contacts that stopped touching or parted while touching, to unlink from their
/// islands, in the pass's order; and the parted contacts, to finish destroying. With several
/// workers it runs beside the solver (`solve.rs`), with one at the end of the pass.
#[derive(Debug, Default)]
pub(crate) struct ContactStateTail {
    pub(crate) unlinks: Vec<u32>,
    pub(crate) parted: Vec<PartedContact>,
}

impl ContactStateTail {
    /// Unlinks the contacts from `islands` in order, then finishes the parted contacts'
    /// destruction. The two write disjoint data, so their order is free; each keeps its own.
    pub(crate) fn run(&self, islands: &mut IslandGraph, mut parted: PartedContacts<'_>) {
        zone!("contact state tail");
        for &contact in &self.unlinks {
            unlink_contact_from(islands, contact);
        }
        parted.finish(&self.parted);
    }
}

/// A contact whose fat boxes parted this step, on its way out (`narrowphase.rs`): its cold
/// record is still in the arena and in its bodies' contact lists, and `stored` says whether
/// its sim is still in the awake set's store (it was not touching) or has already left its
/// colour (it was: [`World::detach_touching_contact`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PartedContact {
    pub(crate) index: u32,
    pub(crate) stored: bool,
}

/// What finishing the destruction of parted contacts reads and writes: their cold records
/// (and their neighbours' in the bodies' contact lists), the awake set's contact store, the
/// bodies' list heads and the pair set. The solver reads none of these, so with several
/// workers this part runs beside it (`solve.rs`).
pub(crate) struct PartedContacts<'a> {
    pub(crate) contacts: &'a mut Arena<Contact, ContactId>,
    pub(crate) store: &'a mut Vec<ContactSim>,
    pub(crate) bodies: &'a mut Arena<Body, BodyId>,
    pub(crate) pair_set: &'a mut HashSet<u64, BuildPairHasher>,
}

impl PartedContacts<'_> {
    /// Finishes destroying `parted`, in order, as [`World::destroy_contact`] would: with the
    /// part that touches colours, islands and events already done, what is left writes only
    /// these, so the result is the same wherever and whenever it runs before the next phase
    /// that reads them.
    pub(crate) fn finish(&mut self, parted: &[PartedContact]) {
        zone!("destroy parted contacts");
        for contact in parted {
            self.finish_one(*contact);
        }
    }

    fn finish_one(&mut self, PartedContact { index, stored }: PartedContact) {
        let Some(id) = self.contacts.key_at(index) else {
            return;
        };
        if stored && !self.take_from_store(index) {
            return;
        }
        unlink_edges(self.contacts, self.bodies, index);
        if let Some(contact) = self.contacts.remove(id) {
            let key = pair_key(contact.shape_a.index(), contact.shape_b.index());
            self.pair_set.remove(&key);
        }
    }

    /// Swap-removes contact `index`'s sim from the awake set's store; the sim that fills its
    /// place gets its new index. False if the record does not point into the store.
    fn take_from_store(&mut self, index: u32) -> bool {
        let Some(record) = self.contacts.get_by_index(index) else {
            return false;
        };
        debug_assert!(
            record.set_index == AWAKE_SET && record.graph.is_none(),
            "parted contact {index} is not in the awake store"
        );
        let local = record.local_index as usize;
        if local >= self.store.len() {
            return false;
        }
        let sim = self.store.swap_remove(local);
        debug_assert!(sim.contact == index && !sim.touching);
        let filler = self.store.get(local).map(|moved| moved.contact);
        if let Some(moved) = filler.and_then(|m| self.contacts.get_by_index_mut(m)) {
            moved.local_index = local as u32;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::pair_key;

    #[test]
    fn pair_key_is_symmetric_and_distinct() {
        assert_eq!(pair_key(3, 7), pair_key(7, 3));
        assert_eq!(pair_key(3, 7), (3u64 << 32) | 7);
        assert_ne!(pair_key(3, 7), pair_key(7, 4));
    }
}
