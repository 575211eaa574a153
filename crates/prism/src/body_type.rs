//! Changing a body's type: static, kinematic or dynamic, mid-simulation.
//!
//! A body's type decides where everything about it lives, so a change moves all of it, in
//! Box2D's order:
//!
//! ```text
//!   1  wake       the body (its island, or for a static body the islands it touches)
//!   2  contacts   all destroyed (touching ones send end events with the next step's); the
//!                 pair update recreates those the new type allows
//!   3  joints     each, unless parked by a disabled body: its bodies woken, unlinked from
//!                 the islands, held in the static set's store (out of the colours)
//!   4  islands    a dynamic body leaves its island
//!   5  the body   new type and state flags; its sim moves to the static set or the awake set
//!                 (static bodies have no velocity; kinematic and dynamic keep theirs)
//!   6  islands    a new dynamic body gets an island of its own
//!   7  proxies    to the static tree or the moving tree, and every one buffered so the next
//!                 pair update finds the new type's pairs
//!   8  mass       recomputed (only dynamic bodies have mass)
//!   9  joints     back from the static set: into a colour if a dynamic body now holds them,
//!                 else the awake set's store; linked again when both bodies are dynamic
//! ```
//!
//! Holding the joints in a set's store rather than in a local list keeps every joint's cold
//! record pointing at its constraint throughout, so step 5's body move can rewrite the joints'
//! copies of the body (`relocate.rs`) as it always does; and taking them out of the colours
//! before the body's graph endpoint changes (a dynamic body takes a colour bit, a kinematic or
//! static one does not) means each re-enters the graph with endpoints true to the new type.
//!
//! A disabled body only changes type, flags and mass: it joins its new set when enabled.

use crate::error::PrismError;
use crate::solver_set::{AWAKE_SET, DISABLED_SET, STATIC_SET};
use crate::world::World;
use core_soa::{BodyId, BodyType};

impl World {
    /// Makes `id` a static, kinematic or dynamic body (see the module notes). Nothing changes
    /// if it already is one.
    pub fn set_body_type(&mut self, id: BodyId, body_type: BodyType) -> Result<(), PrismError> {
        let old_type = self.body(id)?.body_type;
        if old_type == body_type {
            return Ok(());
        }
        let index = id.index();
        if self.is_body_index_disabled(index) {
            self.retype_body(index, body_type);
            self.update_body_mass(index);
            return Ok(());
        }
        self.wake_body(index);
        self.destroy_body_contacts(index);
        let held = self.hold_body_joints(index, STATIC_SET);
        if old_type == BodyType::Dynamic {
            self.remove_body_from_island(index);
        }
        self.retype_body(index, body_type);
        let to = if body_type == BodyType::Static {
            STATIC_SET
        } else {
            AWAKE_SET
        };
        self.move_body_keeping_velocity(index, to);
        self.create_island_for_body(index);
        self.rebuild_body_proxies(index);
        self.update_body_mass(index);
        self.release_joints(&held);
        Ok(())
    }

    /// Whether the body at arena index `body_index` is disabled.
    pub(crate) fn is_body_index_disabled(&self, body_index: u32) -> bool {
        self.bodies
            .get_by_index(body_index)
            .is_some_and(|body| body.set_index == DISABLED_SET)
    }

    /// Sets the cold record's type, the state's flags and the kinematic list.
    fn retype_body(&mut self, body_index: u32, body_type: BodyType) {
        let Some(body) = self.bodies.get_by_index_mut(body_index) else {
            return;
        };
        body.body_type = body_type;
        let flags = body.state_flags();
        if let Some((_, state)) = self.body_sim_state_mut(body_index) {
            state.flags = flags;
        }
        if body_type == BodyType::Kinematic {
            self.kinematic_bodies.insert(body_index);
        } else {
            self.kinematic_bodies.remove(&body_index);
        }
    }

    /// Moves the body's sim and state to set `to` (if it is not there), keeping its velocity
    /// unless it becomes static; its constraints learn the new place.
    pub(crate) fn move_body_keeping_velocity(&mut self, body_index: u32, to: u32) {
        let here = self.bodies.get_by_index(body_index).map(|b| b.set_index);
        if here != Some(to) {
            let Some(removed) = self.remove_body_sim(body_index) else {
                return;
            };
            let mut state = removed.state;
            state.delta_position = core_soa::Vec2::ZERO;
            state.delta_rotation = core_soa::Rot::IDENTITY;
            self.push_body_sim(body_index, removed.sim, state, to);
        }
        if to == STATIC_SET
            && let Some((_, state)) = self.body_sim_state_mut(body_index)
        {
            *state = crate::relocate::at_rest(*state);
        }
        self.forget_fat_slack(body_index);
    }

    /// Destroys every contact of a body; touching ones send end events with the next step's
    /// events. Destroying a contact wakes the islands that held it.
    pub(crate) fn destroy_body_contacts(&mut self, body_index: u32) {
        for contact in self.contacts_of_body(body_index) {
            if let Some(event) = self.destroy_contact(contact) {
                self.events.pending_end.push(event);
            }
        }
    }

    /// Takes each joint of the body out of the colours and the islands and stores it in set
    /// `holding`'s store (a joint already parked in the disabled set stays there). Wakes the
    /// bodies at both ends first, so the islands it leaves are awake. Returns the joints moved.
    pub(crate) fn hold_body_joints(&mut self, body_index: u32, holding: u32) -> Vec<u32> {
        let mut held = Vec::new();
        for joint in self.joints_of_body(body_index) {
            let Some(record) = self.joints.arena.get_by_index(joint) else {
                continue;
            };
            if record.set_index == DISABLED_SET {
                continue;
            }
            let ends = [record.edges[0].body, record.edges[1].body];
            for body in ends {
                self.wake_body(body);
            }
            self.unlink_joint_islands(joint);
            if let Some(constraint) = self.take_joint_sim(joint) {
                self.store_joint_sim(joint, constraint, holding);
            }
            held.push(joint);
        }
        held
    }

    /// Returns held joints to the awake world — a colour if one of their bodies is dynamic,
    /// the awake set's store otherwise — with fresh copies of their bodies, and links them
    /// into the islands. Joints whose other body is disabled go to the disabled set instead.
    pub(crate) fn release_joints(&mut self, joints: &[u32]) {
        for &joint in joints {
            let Some(record) = self.joints.arena.get_by_index(joint) else {
                continue;
            };
            let ends = [record.edges[0].body, record.edges[1].body];
            let parked = ends.iter().any(|&b| self.is_body_index_disabled(b));
            let to = if parked { DISABLED_SET } else { AWAKE_SET };
            if let Some(constraint) = self.take_joint_sim(joint) {
                self.store_joint_sim(joint, constraint, to);
            }
            self.refresh_joint_bodies(joint);
            if !parked {
                self.link_joint_islands(joint);
            }
        }
    }

    /// Gives every shape of the body a proxy in the tree its type asks for (the static tree or
    /// the moving tree), each buffered for the next pair update.
    fn rebuild_body_proxies(&mut self, body_index: u32) {
        self.remove_body_proxies(body_index);
        self.create_body_proxies(body_index);
    }
}
