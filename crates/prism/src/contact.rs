//! Contacts: one persistent object per pair of shapes whose fat boxes overlap.
//!
//! A contact is created by the pair update when two fat boxes begin to overlap and destroyed by
//! the narrowphase when they stop (or when one of its shapes is destroyed). In between it carries
//! the manifold from step to step: that is the contact cache, which lets the solver start each
//! step from last step's impulses.
//!
//! Like bodies, a contact has a cold and a hot record:
//!
//! ```text
//!   arena: Arena<Contact>      stable slot and ContactId; shapes; the links of the two
//!                              bodies' contact lists; where its sim is
//!   sims:  Vec<ContactSim>     dense; what the narrowphase reads and writes every step
//!                              (shapes, bodies, material, manifold, touching flags)
//!   frames: Vec<Option<ManifoldFrame>>
//!                              parallel to `sims`: each awake contact's recycling record
//! ```
//!
//! The narrowphase walks `sims` as a plain slice, so it can be split across threads. Removing a
//! sim swaps the last one into its place and fixes that contact's `sim_index`.
//!
//! The recycling record (~90 bytes, see `recycle.rs`) is read and written by the narrowphase
//! only, so it is kept beside the sims rather than in them: every other pass over the sims —
//! building the solver's records, storing its impulses, applying touching changes — then
//! streams a 144-byte record instead of one over 220 bytes. `frames[i]` belongs to `sims[i]`; every
//! push and swap-remove of an awake sim does the same to its frame. A contact that leaves the
//! awake store drops its frame (its first collide after waking is a full one).
//!
//! Each body's contacts form an intrusive doubly linked list threaded through the contacts (the
//! `edges`, one per side), keyed by core-soa's edge keys (`contact index << 1 | side`), so a body
//! can find its contacts without any per-body allocation.

use crate::error::PrismError;
use crate::events::ContactEndTouchEvent;
use crate::recycle::ManifoldFrame;
use crate::world::World;
use collision::Manifold;
use core_soa::{
    Arena, BodyId, ContactId, NULL_INDEX, ShapeId, edge_constraint, edge_key, edge_side,
};

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

/// One side of a contact in its body's contact list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ContactEdge {
    /// The body's arena index.
    pub(crate) body: u32,
    /// Edge key of the previous contact in the body's list, or `NULL_INDEX`.
    pub(crate) prev: u32,
    /// Edge key of the next contact in the body's list, or `NULL_INDEX`.
    pub(crate) next: u32,
}

/// The cold contact record.
#[derive(Clone, Debug)]
pub(crate) struct Contact {
    pub(crate) shape_a: ShapeId,
    pub(crate) shape_b: ShapeId,
    /// Side 0 is body A's list, side 1 body B's.
    pub(crate) edges: [ContactEdge; 2],
    /// Index of this contact's [`ContactSim`] in the store of `set_index`.
    pub(crate) sim_index: u32,
    /// The store holding the sim: `AWAKE_SET` (`ContactStore::sims`), a sleeping set, or the
    /// parked contacts (see `solver_set.rs`).
    pub(crate) set_index: u32,
}

/// What the narrowphase decided about a contact this step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum ContactChange {
    /// Touching state unchanged.
    #[default]
    None,
    StartedTouching,
    StoppedTouching,
    /// The fat boxes no longer overlap: destroy the contact.
    Disjoint,
}

/// The hot contact record, walked by the narrowphase and the solver-contact builder.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ContactSim {
    /// Arena index of the cold [`Contact`] (back-reference).
    pub(crate) contact: u32,
    /// Arena indices of the shapes and their bodies.
    pub(crate) shape_a: u32,
    pub(crate) shape_b: u32,
    pub(crate) body_a: u32,
    pub(crate) body_b: u32,
    /// Mixed material: `sqrt(f_a·f_b)` and `max(r_a, r_b)`.
    pub(crate) friction: f32,
    pub(crate) restitution: f32,
    /// Whether either shape asked for begin/end events.
    pub(crate) enable_events: bool,
    /// Whether the manifold has points.
    pub(crate) touching: bool,
    /// Set by the narrowphase, consumed by the contact-state pass.
    pub(crate) change: ContactChange,
    /// Normal from A to B; anchors relative to the body origins; cached impulses.
    pub(crate) manifold: Manifold,
}

/// All contacts: cold records with stable ids, and their dense hot records.
#[derive(Clone, Debug, Default)]
pub(crate) struct ContactStore {
    pub(crate) arena: Arena<Contact, ContactId>,
    pub(crate) sims: Vec<ContactSim>,
    /// By awake sim index: what recycling needs of the last computed manifold (see the module
    /// notes); `None` until the contact's first collide.
    pub(crate) frames: Vec<Option<ManifoldFrame>>,
}

impl ContactStore {
    /// Appends an awake sim (with no recycling record); returns its index.
    pub(crate) fn push_sim(&mut self, sim: ContactSim) -> u32 {
        self.sims.push(sim);
        self.frames.push(None);
        (self.sims.len() - 1) as u32
    }

    /// Removes the awake sim at `index` (the last one takes its place), with its record.
    pub(crate) fn swap_remove_sim(&mut self, index: usize) -> ContactSim {
        self.frames.swap_remove(index);
        self.sims.swap_remove(index)
    }
}

/// A touching contact as users see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactData {
    pub shape_a: ShapeId,
    pub shape_b: ShapeId,
    /// Normal from A to B; anchors relative to the bodies' origins; the accumulated impulses
    /// of the last solve. The soft-step solver applies them every substep, so a point's force is
    /// `normal_impulse · substeps / dt`; the sequential-impulses solver applies them once per
    /// step (force `normal_impulse / dt`).
    pub manifold: Manifold,
}

impl World {
    /// Every touching contact: the awake ones in contact order, then the sleeping ones.
    pub fn contact_data(&self) -> impl Iterator<Item = ContactData> + '_ {
        self.all_contact_sims()
            .filter(|sim| sim.touching)
            .filter_map(|sim| {
                let contact = self.contacts.arena.get_by_index(sim.contact)?;
                Some(ContactData {
                    shape_a: contact.shape_a,
                    shape_b: contact.shape_b,
                    manifold: sim.manifold,
                })
            })
    }

    /// The touching contacts of one body, most recent first.
    pub fn body_contact_data(&self, body: BodyId) -> Result<Vec<ContactData>, PrismError> {
        let body = self.body(body)?;
        let data = self
            .body_contact_indices(body)
            .into_iter()
            .filter_map(|index| {
                let contact = self.contacts.arena.get_by_index(index)?;
                let sim = self.contact_sim(index)?;
                sim.touching.then_some(ContactData {
                    shape_a: contact.shape_a,
                    shape_b: contact.shape_b,
                    manifold: sim.manifold,
                })
            })
            .collect();
        Ok(data)
    }

    /// Creates the contact for a new pair of shapes (by arena index) found by the broadphase.
    pub(crate) fn create_contact(&mut self, shape_a: u32, shape_b: u32) {
        let (Some(id_a), Some(id_b)) = (self.shapes.key_at(shape_a), self.shapes.key_at(shape_b))
        else {
            return;
        };
        let (Some(a), Some(b)) = (self.shapes.get(id_a), self.shapes.get(id_b)) else {
            return;
        };
        let sim = ContactSim {
            contact: 0,
            shape_a,
            shape_b,
            body_a: a.body.index(),
            body_b: b.body.index(),
            friction: (a.friction * b.friction).sqrt(),
            restitution: a.restitution.max(b.restitution),
            enable_events: a.enable_contact_events || b.enable_contact_events,
            touching: false,
            change: ContactChange::None,
            manifold: Manifold::default(),
        };
        let sim_index = self.contacts.sims.len() as u32;
        let no_edge = ContactEdge {
            body: NULL_INDEX,
            prev: NULL_INDEX,
            next: NULL_INDEX,
        };
        let id = self.contacts.arena.insert(Contact {
            shape_a: id_a,
            shape_b: id_b,
            edges: [no_edge; 2],
            sim_index,
            set_index: crate::body::AWAKE_SET,
        });
        self.contacts.push_sim(ContactSim {
            contact: id.index(),
            ..sim
        });
        self.attach_contact_edge(id.index(), 0, sim.body_a);
        self.attach_contact_edge(id.index(), 1, sim.body_b);
        self.broadphase.pair_set.insert(pair_key(shape_a, shape_b));
        self.place_new_contact(id.index());
    }

    /// Destroys a contact by arena index. Returns its end-touch event if it was touching and
    /// reports events.
    pub(crate) fn destroy_contact(&mut self, index: u32) -> Option<ContactEndTouchEvent> {
        let id = self.contacts.arena.key_at(index)?;
        self.wake_contact(index);
        self.unlink_contact(index);
        self.remove_contact_from_graph(index);
        self.detach_contact_edge(index, 0);
        self.detach_contact_edge(index, 1);
        let contact = self.contacts.arena.remove(id)?;
        let sim_index = contact.sim_index as usize;
        let sim = self.contacts.swap_remove_sim(sim_index);
        if let Some(moved) = self.contacts.sims.get(sim_index)
            && let Some(moved_contact) = self.contacts.arena.get_by_index_mut(moved.contact)
        {
            moved_contact.sim_index = sim_index as u32;
        }
        self.broadphase
            .pair_set
            .remove(&pair_key(sim.shape_a, sim.shape_b));
        (sim.touching && sim.enable_events).then_some(ContactEndTouchEvent {
            shape_a: contact.shape_a,
            shape_b: contact.shape_b,
        })
    }

    /// Pushes contact `index` (side `side`) at the head of body `body`'s contact list.
    fn attach_contact_edge(&mut self, index: u32, side: u32, body: u32) {
        let key = edge_key(index, side);
        let Some(owner) = self.bodies.get_by_index_mut(body) else {
            return;
        };
        let old_head = owner.contact_head;
        owner.contact_head = key;
        owner.contact_count += 1;
        if old_head != NULL_INDEX
            && let Some(head) = self
                .contacts
                .arena
                .get_by_index_mut(edge_constraint(old_head))
        {
            head.edges[edge_side(old_head) as usize].prev = key;
        }
        if let Some(contact) = self.contacts.arena.get_by_index_mut(index) {
            contact.edges[side as usize] = ContactEdge {
                body,
                prev: NULL_INDEX,
                next: old_head,
            };
        }
    }

    /// Removes contact `index` (side `side`) from its body's contact list.
    fn detach_contact_edge(&mut self, index: u32, side: u32) {
        let Some(contact) = self.contacts.arena.get_by_index(index) else {
            return;
        };
        let edge = contact.edges[side as usize];
        if edge.prev != NULL_INDEX
            && let Some(prev) = self
                .contacts
                .arena
                .get_by_index_mut(edge_constraint(edge.prev))
        {
            prev.edges[edge_side(edge.prev) as usize].next = edge.next;
        }
        if edge.next != NULL_INDEX
            && let Some(next) = self
                .contacts
                .arena
                .get_by_index_mut(edge_constraint(edge.next))
        {
            next.edges[edge_side(edge.next) as usize].prev = edge.prev;
        }
        if let Some(body) = self.bodies.get_by_index_mut(edge.body) {
            if body.contact_head == edge_key(index, side) {
                body.contact_head = edge.next;
            }
            body.contact_count -= 1;
        }
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
