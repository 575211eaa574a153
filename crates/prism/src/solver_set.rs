//! Solver sets: the static bodies, the awake world, each sleeping island, and the disabled
//! bodies with the parked constraints — one type, one numbering.
//!
//! A [`SolverSet`] holds bodies (sims and states, dense), contact sims and joint records. The
//! world's sets are numbered as the `island` crate's [`SolverSetId`]s:
//!
//! ```text
//!   0  STATIC     static bodies                                  never stepped
//!   1  DISABLED   disabled bodies and their parked joints;       untouched
//!                 parked contacts: not touching, no body awake
//!   2  AWAKE      awake dynamic and kinematic bodies;            integrated, finalized;
//!                 non-touching contacts with an awake body,      collided;
//!                 joints without a dynamic body                  not solved
//!   3… sleeping   one island each: its bodies, its touching      untouched
//!                 contacts and its joints, with their impulses
//! ```
//!
//! The awake world's touching contacts and its joints are not in the awake set's stores but in
//! the constraint graph's colours (`graph.rs`), where the solver finds them. Sleeping set ids
//! come from the `island` crate's [`SolverSets`] pool (last in, first out), so the table of sets
//! stays as short as the largest number of islands ever asleep at once.
//!
//! ## Falling asleep ([`World::sleep_island`])
//!
//! The island's bodies move, one by one, from the awake set to the new set, at rest (the body
//! that fills each hole in the awake set gets its new index, `relocate.rs`), and their proxies
//! move to the broadphase's sleeping tree. Then each body's constraints still awake follow:
//!
//! - a touching contact leaves its colour for the set's store, with its manifold and impulses.
//!   Its other body is in the island, static or kinematic (a touching contact between two
//!   dynamic bodies links them, so both are in the island);
//! - a contact that does not touch stays in the awake set if its other body is awake (the
//!   narrowphase keeps watching it: when it begins touching, the island wakes), else it is
//!   parked in the disabled set;
//! - a joint leaves its colour (or the awake set) for the set's store; one parked in the
//!   disabled set (its other body is disabled) stays there.
//!
//! A contact between two sleeping islands can only be a non-touching one, so it is parked,
//! owned by neither; both islands find it through their bodies' lists when they wake. A new
//! contact none of whose bodies is awake is parked at once.
//!
//! The sleeping tree keeps the awake moving tree as small as the awake world: every awake proxy
//! re-insertion walks the moving tree from leaf to root, and with 10,000 sleeping boxes in it
//! that walk was a third of the step of 10 awake boxes (sleeping_field scene). Moved awake
//! proxies query the sleeping tree as they query the moving tree, which is how a falling box
//! meets a sleeping pile.
//!
//! ## Waking ([`World::wake_set`])
//!
//! The reverse, in the same deterministic order: the set's bodies return to the awake set with
//! their timers reset, its contacts go back into colours with their impulses (warm starting
//! resumes as if the island had never slept), its joints into colours, and each woken body's
//! parked contacts return to the awake set.

use crate::broadphase::{TreeKind, proxy_box};
use crate::contact::ContactSim;
use crate::world::World;
use core_soa::{BodyArrays, release_spare};
use island::{IslandError, IslandId, SolverSetId};
use solver_simd::joint::JointConstraint;

/// The static bodies' set.
pub(crate) const STATIC_SET: u32 = SolverSetId::STATIC.index();
/// The parked contacts' set.
pub(crate) const DISABLED_SET: u32 = SolverSetId::DISABLED.index();
/// The awake set.
pub(crate) const AWAKE_SET: u32 = SolverSetId::AWAKE.index();
/// The first sleeping set.
pub(crate) const FIRST_SLEEPING_SET: u32 = SolverSetId::FIRST_SLEEPING.index();

/// Bodies, contacts and joints stored together (see the module notes).
#[derive(Clone, Debug, Default)]
pub(crate) struct SolverSet {
    pub(crate) bodies: BodyArrays,
    pub(crate) contacts: Vec<ContactSim>,
    pub(crate) joints: Vec<JointConstraint>,
}

impl SolverSet {
    /// Cuts every store's capacity to its length.
    pub(crate) fn shrink_to_fit(&mut self) {
        self.bodies.shrink_to_fit();
        self.contacts.shrink_to_fit();
        self.joints.shrink_to_fit();
    }

    /// Cuts each store's spare capacity once it is mostly unused (`core_soa::spare`).
    pub(crate) fn release_spare(&mut self) {
        self.bodies.release_spare();
        release_spare(&mut self.contacts);
        release_spare(&mut self.joints);
    }
}

impl World {
    /// Moves `island` with its bodies, contacts and joints into a new sleeping set (see the
    /// module notes). Refused (nothing changes) if the island has pending removals or already
    /// sleeps.
    pub(crate) fn sleep_island(&mut self, island: IslandId) -> Result<(), IslandError> {
        let set_id = self
            .islands
            .sets
            .sleep_island(&self.islands.graph, island)?;
        let set = set_id.index();
        if self.solver_sets.len() <= set as usize {
            self.solver_sets
                .resize_with(set as usize + 1, SolverSet::default);
        }
        let bodies = self.islands.graph.bodies(island)?.to_vec();
        for &body in &bodies {
            self.move_body_to_set(body, set);
            self.transfer_proxies(body, TreeKind::Moving, TreeKind::Sleeping);
        }
        for &body in &bodies {
            for contact in self.contacts_of_body(body) {
                self.settle_contact(contact, set);
            }
            for joint in self.joints_of_body(body) {
                self.move_joint(joint, set);
            }
            if let Some(id) = self.bodies.key_at(body) {
                self.islands.events.record_sleep(id, island);
            }
        }
        // The set is complete and stays as it is until it wakes: it needs no room to grow.
        self.solver_sets[set as usize].shrink_to_fit();
        Ok(())
    }

    /// Decides where a contact of a body falling asleep in `set` goes (see the module notes).
    fn settle_contact(&mut self, index: u32, set: u32) {
        let Some(contact) = self.contacts.get_by_index(index) else {
            return;
        };
        if contact.set_index != AWAKE_SET {
            return; // already settled from its other body, or parked
        }
        let bodies = [contact.edges[0].body, contact.edges[1].body];
        if contact.graph.is_some() {
            self.move_contact(index, set);
        } else if !bodies.iter().any(|&b| self.is_body_index_awake(b)) {
            self.move_contact(index, DISABLED_SET);
        }
    }

    /// Moves contact `index`'s sim to set `to` (into the graph, if `to` is the awake set and it
    /// qualifies).
    fn move_contact(&mut self, index: u32, to: u32) {
        if let Some(sim) = self.take_contact_sim(index) {
            self.store_contact_sim(index, sim, to);
        }
    }

    /// Moves joint `index`'s record to set `to` (see [`World::move_contact`]), unless it is
    /// there already or parked in the disabled set (its other body is disabled: it stays
    /// parked while the island sleeps and wakes, `body_enable.rs`).
    fn move_joint(&mut self, index: u32, to: u32) {
        let here = self.joints.arena.get_by_index(index).map(|j| j.set_index);
        if here.is_some_and(|set| set != to && set != DISABLED_SET)
            && let Some(joint) = self.take_joint_sim(index)
        {
            self.store_joint_sim(index, joint, to);
            self.refresh_joint_bodies(index);
        }
    }

    /// Wakes sleeping set `set_id` (see the module notes). A no-op for a set that is not
    /// sleeping.
    pub(crate) fn wake_set(&mut self, set_id: SolverSetId) {
        let Ok(island) = self.islands.sets.wake_set(set_id) else {
            return;
        };
        let set = set_id.index() as usize;
        let bodies = std::mem::take(&mut self.solver_sets[set].bodies);
        let mut woken = Vec::with_capacity(bodies.len());
        for (sim, state) in bodies.sims().iter().zip(bodies.states()) {
            let mut sim = *sim;
            sim.sleep_time = 0.0;
            woken.push(sim.body);
            self.push_body_sim(sim.body, sim, *state, AWAKE_SET);
            self.transfer_proxies(sim.body, TreeKind::Sleeping, TreeKind::Moving);
        }
        for sim in std::mem::take(&mut self.solver_sets[set].contacts) {
            self.store_contact_sim(sim.contact, sim, AWAKE_SET);
        }
        for joint in std::mem::take(&mut self.solver_sets[set].joints) {
            let index = joint.handle;
            self.store_joint_sim(index, joint, AWAKE_SET);
            self.refresh_joint_bodies(index);
        }
        for &body in &woken {
            self.unpark_contacts_of(body);
            if let Some(id) = self.bodies.key_at(body) {
                self.islands.events.record_wake(id, island);
            }
        }
    }

    /// Returns the parked contacts of a woken body to the awake set.
    fn unpark_contacts_of(&mut self, body_index: u32) {
        for contact in self.contacts_of_body(body_index) {
            let parked = self
                .contacts
                .get_by_index(contact)
                .is_some_and(|record| record.set_index == DISABLED_SET);
            if parked {
                self.move_contact(contact, AWAKE_SET);
            }
        }
    }

    /// Wakes the island of body `body_index` if it is asleep.
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
        let mut sets: Vec<u32> = self
            .contacts_of_body(body_index)
            .into_iter()
            .filter_map(|contact| self.contacts.get_by_index(contact))
            .map(|contact| contact.set_index)
            .filter(|&set| set >= FIRST_SLEEPING_SET)
            .collect();
        sets.sort_unstable();
        sets.dedup();
        for set in sets {
            self.wake_set(SolverSetId::from_index(set));
        }
        for other in self.jointed_bodies(body_index) {
            self.wake_island_of(other);
        }
    }

    /// The bodies at the other end of a body's joints, in joint-list order.
    pub(crate) fn jointed_bodies(&self, body_index: u32) -> Vec<u32> {
        self.joints_of_body(body_index)
            .into_iter()
            .filter_map(|joint| self.joints.arena.get_by_index(joint))
            .map(|joint| {
                let (a, b) = (joint.edges[0].body, joint.edges[1].body);
                if a == body_index { b } else { a }
            })
            .collect()
    }

    /// Brings contact `index` back to the awake world if it sleeps with an island or is
    /// parked, by waking its bodies' islands (before it is destroyed, for instance).
    pub(crate) fn wake_contact(&mut self, index: u32) {
        let Some(contact) = self.contacts.get_by_index(index) else {
            return;
        };
        if contact.set_index == AWAKE_SET {
            return;
        }
        let bodies = [contact.edges[0].body, contact.edges[1].body];
        for body in bodies {
            self.wake_island_of(body);
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
            let margin = shape.fat_margin(to);
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

    /// The number of sleeping islands.
    pub(crate) fn sleeping_set_count(&self) -> usize {
        self.islands.sets.sleeping_set_count()
    }

    /// Every contact sim and joint record is where its cold record says, and the stores hold
    /// nothing else: awake-store contacts have an awake body and do not touch (or have no way
    /// into the graph), parked ones neither touch nor have an awake body, sleeping sets hold
    /// touching contacts of sleeping bodies (feature `validate`).
    pub(crate) fn validate_set_stores(&self) -> Result<(), String> {
        let mut stored = 0;
        for (set_index, set) in self.solver_sets.iter().enumerate() {
            for (local, sim) in set.contacts.iter().enumerate() {
                let contact = self.contacts.get_by_index(sim.contact).ok_or(format!(
                    "set {set_index} holds dead contact {}",
                    sim.contact
                ))?;
                let here = (set_index as u32, None, local as u32);
                if (contact.set_index, contact.graph, contact.local_index) != here {
                    return Err(format!("contact {} is not where it says", sim.contact));
                }
                let bodies = [contact.edges[0].body, contact.edges[1].body];
                let awake = bodies.iter().any(|&b| self.is_body_index_awake(b));
                let fits = match set_index as u32 {
                    AWAKE_SET => awake,
                    DISABLED_SET => !awake && !sim.touching,
                    STATIC_SET => false,
                    _ => sim.touching && !awake_dynamic(self, bodies),
                };
                if !fits {
                    return Err(format!(
                        "contact {} does not belong in set {set_index}",
                        sim.contact
                    ));
                }
                stored += 1;
            }
            for (local, joint) in set.joints.iter().enumerate() {
                let record = self.joints.arena.get_by_index(joint.handle);
                let here = Some((set_index as u32, None, local as u32));
                if record.map(|r| (r.set_index, r.graph, r.local_index)) != here {
                    return Err(format!("joint {} is not where it says", joint.handle));
                }
                if set_index as u32 == STATIC_SET {
                    return Err(format!("joint {} is held in the static set", joint.handle));
                }
            }
        }
        let in_graph = self
            .contacts
            .iter()
            .filter(|(_, c)| c.graph.is_some())
            .count();
        if stored + in_graph != self.contacts.len() {
            return Err(format!(
                "{stored} stored and {in_graph} coloured contacts, {} contacts",
                self.contacts.len()
            ));
        }
        Ok(())
    }
}

/// Whether either body is an awake dynamic body.
fn awake_dynamic(world: &World, bodies: [u32; 2]) -> bool {
    bodies.into_iter().any(|index| {
        world.bodies.get_by_index(index).is_some_and(|body| {
            body.set_index == AWAKE_SET && body.body_type == core_soa::BodyType::Dynamic
        })
    })
}
