//! Solver sets: moving a resting island out of the step, and back in when something touches it.
//!
//! The world keeps each body's sim and state in the dense arrays of one solver set, and each
//! contact's hot record in one contact store. Only the awake set and the awake store are walked
//! per step, so a body or contact moved elsewhere costs nothing per step:
//!
//! ```text
//!   solver_sets[0]        static bodies                      never stepped
//!   solver_sets[1]        awake dynamic + kinematic bodies   integrated, finalized, timed
//!   solver_sets[2 + k]    sleeping set k: one island         untouched
//!   contacts.sims         awake contacts                     collided every step
//!   sleeping_contacts[k]  the island's touching contacts     untouched, impulses kept
//!   parked_contacts       non-touching, no awake body        untouched
//! ```
//!
//! Sleeping set ids come from `island::SolverSets` (a last-in first-out pool, so the world's
//! table of sets stays as short as the largest number of islands ever asleep at once); its id
//! `FIRST_SLEEPING + k` is the world's set `FIRST_SLEEPING_SET + k` (the world has no disabled
//! set, so its numbering starts one lower).
//!
//! ## Falling asleep ([`World::sleep_island`])
//!
//! 1. Each body of the island is swap-removed from the awake arrays (the body that fills the
//!    hole gets its `local_index` fixed) and pushed onto the new set's arrays, at rest.
//! 2. Each contact of those bodies still in the awake store is settled:
//!    - touching: it leaves its colour and moves to the set's store with its manifold and
//!      accumulated impulses. Its other body is in the island, static, or kinematic (a touching
//!      contact between two dynamic bodies is linked, so both are in the island);
//!    - not touching, other body awake: it stays in the awake store, where the narrowphase keeps
//!      watching it — when it begins touching, the island wakes;
//!    - not touching, other body static or asleep: it is parked.
//!
//! Contacts between two different sleeping islands can only be non-touching (touching would
//! have linked them into one island), so they are parked, owned by neither island; both
//! islands find them through their bodies' contact lists when they wake. A new contact created
//! between two bodies none of which is awake is parked at once, as Box2D does with its disabled
//! set.
//!
//! The broadphase proxies of sleeping bodies move from the moving tree to the broadphase's
//! sleeping tree. They are never moved and never enter the move buffer; the moved proxies of
//! awake bodies query the sleeping tree as they query the moving tree, which is how a falling
//! box meets a sleeping pile. Leaving them in the moving tree would work too, but every awake
//! proxy re-insertion walks the moving tree from leaf to root, twice: with 10,000 sleeping
//! boxes in it, that tree walk was a third of the step of 10 awake boxes (sleeping_field
//! scene). In a tree of their own they cost a query that stops at the root unless an awake
//! box is near them.
//!
//! ## Waking ([`World::wake_set`])
//!
//! The reverse, in the same deterministic order: the island's bodies go back to the awake
//! arrays with their sleep timers reset; the set's contacts go back to the awake store and the
//! touching ones back into colours, carrying their impulses (warm starting resumes as if the
//! island had never slept); and every parked contact of a woken body returns to the awake store.

use crate::body::{AWAKE_SET, SOLVER_SET_COUNT};
use crate::broadphase::{TreeKind, fat_margin, proxy_box};
use crate::contact::ContactSim;
use crate::island::Islands;
use crate::world::World;
use core_soa::{BodyArrays, BodyState, NULL_INDEX, Rot, Vec2};
use island::{IslandError, IslandId, SolverSetId};

/// The world's index of the first sleeping set: sleeping sets follow the static and awake sets.
pub(crate) const FIRST_SLEEPING_SET: u32 = SOLVER_SET_COUNT;

/// The `Contact::set_index` of a parked contact (see the module notes).
pub(crate) const PARKED_SET: u32 = NULL_INDEX - 1;

/// The world's set index of a sleeping set id.
pub(crate) fn world_set_index(set: SolverSetId) -> u32 {
    FIRST_SLEEPING_SET + (set.index() - SolverSetId::FIRST_SLEEPING.index())
}

/// The position of world set `set_index` among the sleeping sets, if it is one.
fn sleeping_offset(set_index: u32) -> Option<usize> {
    if set_index == PARKED_SET {
        return None;
    }
    set_index
        .checked_sub(FIRST_SLEEPING_SET)
        .map(|offset| offset as usize)
}

/// The sleeping set id of world set `set_index`, if it is a sleeping set.
pub(crate) fn sleeping_set_id(set_index: u32) -> Option<SolverSetId> {
    let offset = sleeping_offset(set_index)? as u32;
    Some(SolverSetId::from_index(
        SolverSetId::FIRST_SLEEPING.index() + offset,
    ))
}

/// The contact store of `set_index` (awake, a sleeping set, or parked). The tables are grown by
/// [`World::ensure_set_tables`] before any contact is stored in a sleeping set.
fn store_mut<'a>(
    awake: &'a mut Vec<ContactSim>,
    islands: &'a mut Islands,
    set_index: u32,
) -> &'a mut Vec<ContactSim> {
    match (set_index, sleeping_offset(set_index)) {
        (AWAKE_SET, _) => awake,
        (_, Some(offset)) => &mut islands.sleeping_contacts[offset],
        _ => &mut islands.parked_contacts,
    }
}

impl World {
    /// The contact store of `set_index`, if it exists.
    fn store(&self, set_index: u32) -> Option<&Vec<ContactSim>> {
        match (set_index, sleeping_offset(set_index)) {
            (AWAKE_SET, _) => Some(&self.contacts.sims),
            (_, Some(offset)) => self.islands.sleeping_contacts.get(offset),
            (PARKED_SET, _) => Some(&self.islands.parked_contacts),
            _ => None,
        }
    }

    /// The hot record of contact `contact_index` (arena index), wherever it is stored.
    pub(crate) fn contact_sim(&self, contact_index: u32) -> Option<&ContactSim> {
        let contact = self.contacts.arena.get_by_index(contact_index)?;
        self.store(contact.set_index)?
            .get(contact.sim_index as usize)
    }

    /// Every contact's hot record: the awake store, then the sleeping sets, then the parked.
    pub(crate) fn all_contact_sims(&self) -> impl Iterator<Item = &ContactSim> {
        self.contacts
            .sims
            .iter()
            .chain(self.islands.sleeping_contacts.iter().flatten())
            .chain(&self.islands.parked_contacts)
    }

    /// All contacts, in every store.
    pub(crate) fn contact_count(&self) -> usize {
        self.contacts.arena.len()
    }

    /// Touching contacts, awake or asleep.
    pub(crate) fn touching_contact_count(&self) -> usize {
        self.all_contact_sims().filter(|sim| sim.touching).count()
    }

    /// Moves contact `contact_index` (arena index) to the store of `to`, fixing the sim index
    /// of the contact that fills its old place.
    fn move_contact(&mut self, contact_index: u32, to: u32) {
        let Some(contact) = self.contacts.arena.get_by_index(contact_index) else {
            return;
        };
        let (from, at) = (contact.set_index, contact.sim_index as usize);
        if from == to {
            return;
        }
        let source = store_mut(&mut self.contacts.sims, &mut self.islands, from);
        if at >= source.len() {
            return;
        }
        let sim = source.swap_remove(at);
        let moved = source.get(at).map(|filler| filler.contact);
        // Only awake contacts keep a recycling record (see `contact.rs`).
        if from == AWAKE_SET {
            self.contacts.frames.swap_remove(at);
        }
        if to == AWAKE_SET {
            self.contacts.frames.push(None);
        }
        if let Some(filler) = moved.and_then(|m| self.contacts.arena.get_by_index_mut(m)) {
            filler.sim_index = at as u32;
        }
        let target = store_mut(&mut self.contacts.sims, &mut self.islands, to);
        let new_at = target.len() as u32;
        target.push(sim);
        if let Some(contact) = self.contacts.arena.get_by_index_mut(contact_index) {
            contact.set_index = to;
            contact.sim_index = new_at;
        }
    }

    /// Moves body `body_index` (arena index) to the arrays of set `to`, fixing the local index
    /// of the body that fills its old place. A body leaving the awake set is put at rest.
    fn move_body(&mut self, body_index: u32, to: u32) {
        let Some(body) = self.bodies.get_by_index(body_index) else {
            return;
        };
        let (from, local) = (body.set_index as usize, body.local_index);
        if from == to as usize {
            return;
        }
        let bodies = &mut self.bodies;
        let removed = self.solver_sets[from].swap_remove_with(local, |moved, new_index| {
            if let Some(moved_body) = bodies.get_by_index_mut(moved) {
                moved_body.local_index = new_index;
            }
        });
        let Some(removed) = removed else {
            return;
        };
        let state = if to == AWAKE_SET {
            removed.state
        } else {
            at_rest(removed.state)
        };
        let new_local = self.solver_sets[to as usize].push(removed.sim, state);
        if let Some(body) = self.bodies.get_by_index_mut(body_index) {
            body.set_index = to;
            body.local_index = new_local;
        }
    }

    /// Moves the proxies of a body's shapes from tree `from` to tree `to`, each re-fattened
    /// around its shape's current box (which the shape lies in, so no touching pair is lost).
    fn transfer_proxies(&mut self, body_index: u32, from: TreeKind, to: TreeKind) {
        let Some(body) = self.bodies.get_by_index(body_index) else {
            return;
        };
        for &shape_id in &body.shapes {
            let Some(shape) = self.shapes.get(shape_id) else {
                continue;
            };
            if shape.tree != from {
                continue;
            }
            let aabb = proxy_box(to, self.tight_aabb(shape));
            let margin = fat_margin(to, &shape.geometry);
            let Some(shape) = self.shapes.get_mut(shape_id) else {
                continue;
            };
            self.broadphase.tree_mut(from).destroy_proxy(shape.proxy);
            let tree = self.broadphase.tree_mut(to);
            let user_data = u64::from(shape_id.index());
            let category_bits = shape.filter.category_bits;
            shape.proxy = tree.create_proxy_with_margin(aabb, margin, category_bits, user_data);
            shape.fat_aabb = tree.fat_aabb(shape.proxy);
            shape.tree = to;
            self.broadphase.note_fat_box_change(shape_id.index());
        }
        self.forget_fat_slack(body_index);
    }

    /// Grows the world's table of sets and of sleeping contact stores to hold `set_index`.
    fn ensure_set_tables(&mut self, set_index: u32) {
        let needed = set_index as usize + 1;
        if self.solver_sets.len() < needed {
            self.solver_sets.resize_with(needed, BodyArrays::new);
        }
        if let Some(offset) = sleeping_offset(set_index)
            && self.islands.sleeping_contacts.len() <= offset
        {
            self.islands
                .sleeping_contacts
                .resize_with(offset + 1, Vec::new);
        }
    }

    /// A new contact none of whose bodies is awake is parked (see the module notes).
    pub(crate) fn place_new_contact(&mut self, contact_index: u32) {
        let Some(sim) = self.contact_sim(contact_index) else {
            return;
        };
        let (body_a, body_b) = (sim.body_a, sim.body_b);
        if !self.is_body_index_awake(body_a) && !self.is_body_index_awake(body_b) {
            self.move_contact(contact_index, PARKED_SET);
        }
    }

    /// Moves `island` with its bodies and contacts into a new sleeping set (see the module
    /// notes). Refused (nothing changes) if the island has pending removals or already sleeps.
    pub(crate) fn sleep_island(&mut self, island: IslandId) -> Result<(), IslandError> {
        let set_id = self
            .islands
            .sets
            .sleep_island(&self.islands.graph, island)?;
        let set = world_set_index(set_id);
        self.ensure_set_tables(set);
        let bodies = self.islands.graph.bodies(island)?.to_vec();
        for &body in &bodies {
            self.move_body(body, set);
            self.transfer_proxies(body, TreeKind::Moving, TreeKind::Sleeping);
        }
        for &body in &bodies {
            for contact in self.contacts_of_body(body) {
                self.settle_contact(contact, set);
            }
        }
        for &body in &bodies {
            if let Some(id) = self.bodies.key_at(body) {
                self.islands.events.record_sleep(id, island);
            }
        }
        Ok(())
    }

    /// Decides where a contact of a body falling asleep in `set` goes (see the module notes).
    fn settle_contact(&mut self, contact_index: u32, set: u32) {
        let in_awake_store = self
            .contacts
            .arena
            .get_by_index(contact_index)
            .is_some_and(|contact| contact.set_index == AWAKE_SET);
        if !in_awake_store {
            return; // already settled from its other body, or parked
        }
        let Some(sim) = self.contact_sim(contact_index) else {
            return;
        };
        let (body_a, body_b, touching) = (sim.body_a, sim.body_b, sim.touching);
        let awake_end = self.is_body_index_awake(body_a) || self.is_body_index_awake(body_b);
        if touching {
            debug_assert!(
                !self.has_awake_dynamic_end(body_a, body_b),
                "touching contact {contact_index} couples a sleeping island to an awake body"
            );
            self.remove_contact_from_graph(contact_index);
            self.move_contact(contact_index, set);
        } else if !awake_end {
            self.move_contact(contact_index, PARKED_SET);
        }
    }

    /// Whether either body is an awake dynamic body.
    fn has_awake_dynamic_end(&self, body_a: u32, body_b: u32) -> bool {
        [body_a, body_b].into_iter().any(|index| {
            self.bodies.get_by_index(index).is_some_and(|body| {
                body.set_index == AWAKE_SET && body.body_type == core_soa::BodyType::Dynamic
            })
        })
    }

    /// Wakes sleeping set `set_id`: its island's bodies, contacts and parked contacts return to
    /// the awake set (see the module notes). A no-op for a set that is not sleeping.
    pub(crate) fn wake_set(&mut self, set_id: SolverSetId) {
        let Ok(island) = self.islands.sets.wake_set(set_id) else {
            return;
        };
        let set = world_set_index(set_id);
        let bodies = self
            .islands
            .graph
            .bodies(island)
            .map(<[u32]>::to_vec)
            .unwrap_or_default();
        for &body in &bodies {
            self.move_body(body, AWAKE_SET);
            self.transfer_proxies(body, TreeKind::Sleeping, TreeKind::Moving);
            if let Some(record) = self.bodies.get_by_index_mut(body) {
                record.sleep_time = 0.0;
            }
        }
        let contacts: Vec<u32> = sleeping_offset(set)
            .and_then(|offset| self.islands.sleeping_contacts.get(offset))
            .map(|store| store.iter().map(|sim| sim.contact).collect())
            .unwrap_or_default();
        for &contact in &contacts {
            self.move_contact(contact, AWAKE_SET);
        }
        for &contact in &contacts {
            self.add_contact_to_graph(contact);
        }
        for &body in &bodies {
            self.unpark_contacts_of(body);
            if let Some(id) = self.bodies.key_at(body) {
                self.islands.events.record_wake(id, island);
            }
        }
    }

    /// Returns the parked contacts of a woken body to the awake store.
    fn unpark_contacts_of(&mut self, body_index: u32) {
        for contact in self.contacts_of_body(body_index) {
            let parked = self
                .contacts
                .arena
                .get_by_index(contact)
                .is_some_and(|record| record.set_index == PARKED_SET);
            if parked {
                self.move_contact(contact, AWAKE_SET);
            }
        }
    }

    /// Wakes the island of body `body_index` (arena index) if it is asleep.
    pub(crate) fn wake_island_of(&mut self, body_index: u32) {
        let Some(island) = self.island_of_body(body_index) else {
            return;
        };
        if let Some(set) = self.islands.sets.sleeping_set_of(island) {
            self.wake_set(set);
        }
    }

    /// Wakes every sleeping island a static or kinematic body touches or is jointed to: the
    /// sleeping sets that hold its contacts, and the islands of the bodies its joints hold.
    pub(crate) fn wake_touching_islands(&mut self, body_index: u32) {
        let mut sets: Vec<SolverSetId> = self
            .contacts_of_body(body_index)
            .into_iter()
            .filter_map(|contact| self.contacts.arena.get_by_index(contact))
            .filter_map(|contact| sleeping_set_id(contact.set_index))
            .collect();
        sets.sort_unstable();
        sets.dedup();
        for set in sets {
            self.wake_set(set);
        }
        for other in self.jointed_bodies(body_index) {
            self.wake_island_of(other);
        }
    }

    /// The bodies at the other end of a body's joints, in joint-list order.
    pub(crate) fn jointed_bodies(&self, body_index: u32) -> Vec<u32> {
        self.body_joint_indices(body_index)
            .into_iter()
            .filter_map(|joint| self.joints.arena.get_by_index(joint))
            .map(|joint| {
                let (a, b) = (joint.base.body_a.index(), joint.base.body_b.index());
                if a == body_index { b } else { a }
            })
            .collect()
    }

    /// Makes sure contact `contact_index` is in the awake store, waking the islands of its
    /// bodies if it sleeps with them or is parked (before it is destroyed, for instance).
    pub(crate) fn wake_contact(&mut self, contact_index: u32) {
        let Some(contact) = self.contacts.arena.get_by_index(contact_index) else {
            return;
        };
        if contact.set_index == AWAKE_SET {
            return;
        }
        let Some(sim) = self.contact_sim(contact_index) else {
            return;
        };
        let (body_a, body_b) = (sim.body_a, sim.body_b);
        self.wake_island_of(body_a);
        self.wake_island_of(body_b);
        debug_assert!(
            self.contacts
                .arena
                .get_by_index(contact_index)
                .is_some_and(|contact| contact.set_index == AWAKE_SET),
            "contact {contact_index} is still asleep after waking its bodies"
        );
    }

    /// The arena indices of a body's contacts (arena index), in list order.
    pub(crate) fn contacts_of_body(&self, body_index: u32) -> Vec<u32> {
        self.bodies
            .get_by_index(body_index)
            .map(|body| self.body_contact_indices(body))
            .unwrap_or_default()
    }

    /// The number of sleeping islands.
    pub(crate) fn sleeping_set_count(&self) -> usize {
        self.islands.sets.sleeping_set_count()
    }
}

/// A body state at rest: no velocity, no pending motion.
fn at_rest(state: BodyState) -> BodyState {
    BodyState {
        linear_velocity: Vec2::ZERO,
        angular_velocity: 0.0,
        delta_position: Vec2::ZERO,
        delta_rotation: Rot::IDENTITY,
        ..state
    }
}

#[cfg(feature = "validate")]
impl World {
    /// Every contact record finds its hot record, which points back; the stores together hold
    /// every contact once; awake contacts have an awake body, sleeping-set contacts touch and
    /// have no awake dynamic body, parked contacts do not touch and have no awake body.
    pub(crate) fn validate_contact_stores(&self) -> Result<(), String> {
        for (id, contact) in self.contacts.arena.iter() {
            let sim = self.contact_sim(id.index()).ok_or(format!(
                "contact {id:?}: no sim in set {}",
                contact.set_index
            ))?;
            if sim.contact != id.index() {
                return Err(format!("contact {id:?}: its sim points at {}", sim.contact));
            }
            let (a, b) = (sim.body_a, sim.body_b);
            let any_awake = self.is_body_index_awake(a) || self.is_body_index_awake(b);
            let placed = match contact.set_index {
                AWAKE_SET => any_awake,
                PARKED_SET => !sim.touching && !any_awake,
                set => {
                    sleeping_set_id(set).is_some_and(|s| self.islands.sets.island_in(s).is_some())
                        && sim.touching
                        && !self.has_awake_dynamic_end(a, b)
                }
            };
            if !placed {
                return Err(format!(
                    "contact {id:?} (touching {}) is misplaced in set {}",
                    sim.touching, contact.set_index
                ));
            }
        }
        if self.all_contact_sims().count() != self.contacts.arena.len() {
            return Err("the contact stores do not hold each contact once".into());
        }
        Ok(())
    }
}
