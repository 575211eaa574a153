//! Keeping constraints' copies of their bodies current.
//!
//! Contacts and joints are solved and collided where they are stored, without looking their
//! bodies up: each contact sim holds where its two bodies' sims are (set and index, for the
//! narrowphase's transforms) and what the solver needs of them (awake index or `NULL_BODY`,
//! inverse mass and inertia); each joint holds a [`JointBody`] per side (awake index, inverse
//! masses, its frame relative to the centre of mass, and the pose of a body the solver does not
//! move). Those copies are rewritten whenever the original changes, by walking the body's
//! contact and joint lists:
//!
//! ```text
//!   the body's sim moved            swap-removed into a hole, fell asleep, woke, destroyed
//!   its mass or centre changed      shapes added or removed, mass set, inertia scale set
//!   a static body was moved         its joints hold its pose
//! ```
//!
//! Each is O(the body's contacts and joints), and none happens in a step's hot passes except
//! when islands fall asleep or wake, which move every body of the island once anyway.
//!
//! A contact's manifold anchors are relative to the centres of mass, so a changed centre makes
//! them stale: its contacts lose their recycling record and the next narrowphase collides them
//! afresh.

use crate::contact::{BodyRef, ContactSim};
use crate::solver_set::{AWAKE_SET, STATIC_SET};
use crate::world::World;
use core_soa::{BodyState, NULL_BODY, RemovedBody, Rot, Transform, Vec2};
use solver_simd::joint::JointBody;

impl World {
    /// What a contact holds of body `body_index`: where its sim is, and the solver's view.
    pub(crate) fn contact_side(&self, body_index: u32) -> Option<ContactSide> {
        let body = self.bodies.get_by_index(body_index)?;
        let sim = self.body_sim(body_index)?;
        let place = BodyRef {
            set: body.set_index,
            local: body.local_index,
        };
        let index = if place.set == AWAKE_SET {
            place.local
        } else {
            NULL_BODY
        };
        Some(ContactSide {
            place,
            index,
            inv_mass: sim.inv_mass,
            inv_inertia: sim.inv_inertia,
        })
    }

    /// The solver's view of body `body_index` as one side of a joint whose frame on it,
    /// relative to the body origin, is `origin_frame`.
    pub(crate) fn joint_body(&self, body_index: u32, origin_frame: Transform) -> JointBody {
        let (Some(body), Some(sim)) = (
            self.bodies.get_by_index(body_index),
            self.body_sim(body_index),
        ) else {
            return JointBody::fixed(Transform::IDENTITY, origin_frame);
        };
        let frame = Transform::new(origin_frame.p - sim.local_center, origin_frame.q);
        let pose = Transform::new(sim.center, sim.transform.q);
        match body.set_index {
            AWAKE_SET => JointBody::awake(body.local_index, sim.inv_mass, sim.inv_inertia, frame),
            STATIC_SET => JointBody::fixed(pose, frame),
            // Asleep: not solved until it wakes, when this is rewritten.
            _ => JointBody {
                index: NULL_BODY,
                fixed_pose: pose,
                ..JointBody::awake(NULL_BODY, sim.inv_mass, sim.inv_inertia, frame)
            },
        }
    }

    /// Rewrites what every contact and joint of body `body_index` holds of it (see the module
    /// notes); `mass_changed` also makes its contacts collide afresh.
    pub(crate) fn refresh_constraints_of(&mut self, body_index: u32, mass_changed: bool) {
        let Some(side_data) = self.contact_side(body_index) else {
            return;
        };
        for contact in self.contacts_of_body(body_index) {
            let Some(record) = self.contacts.get_by_index(contact) else {
                continue;
            };
            let sides = record.edges.map(|edge| edge.body == body_index);
            if let Some(sim) = self.contact_sim_mut(contact) {
                for side in (0..2).filter(|&side| sides[side]) {
                    sim.set_side(side, side_data);
                }
                if mass_changed {
                    sim.recyclable = false;
                }
            }
        }
        for joint in self.joints_of_body(body_index) {
            self.refresh_joint_bodies(joint);
        }
    }

    /// Rewrites both sides of joint `index` from its bodies.
    pub(crate) fn refresh_joint_bodies(&mut self, index: u32) {
        let Some(record) = self.joints.arena.get_by_index(index) else {
            return;
        };
        let body_a = self.joint_body(record.edges[0].body, record.frame_a);
        let body_b = self.joint_body(record.edges[1].body, record.frame_b);
        if let Some(joint) = self.joint_sim_mut(index) {
            (joint.body_a, joint.body_b) = (body_a, body_b);
        }
    }

    /// Swap-removes body `body_index`'s sim from its set; the body that fills the hole gets its
    /// new index, everywhere.
    pub(crate) fn remove_body_sim(&mut self, body_index: u32) -> Option<RemovedBody> {
        let body = self.bodies.get_by_index(body_index)?;
        let (set, local) = (body.set_index as usize, body.local_index);
        let removed = self.solver_sets.get_mut(set)?.bodies.swap_remove(local)?;
        if let Some(moved) = removed.moved_body {
            if let Some(moved_body) = self.bodies.get_by_index_mut(moved) {
                moved_body.local_index = local;
            }
            self.refresh_constraints_of(moved, false);
        }
        Some(removed)
    }

    /// Moves body `body_index`'s sim and state to set `to`; a body leaving the awake set is put
    /// at rest. Its constraints learn its new place.
    pub(crate) fn move_body_to_set(&mut self, body_index: u32, to: u32) {
        let Some(removed) = self.remove_body_sim(body_index) else {
            return;
        };
        let state = if to == AWAKE_SET {
            removed.state
        } else {
            at_rest(removed.state)
        };
        self.push_body_sim(body_index, removed.sim, state, to);
    }

    /// Appends a body's sim and state to set `to` and tells its constraints.
    pub(crate) fn push_body_sim(
        &mut self,
        body_index: u32,
        sim: core_soa::BodySim,
        state: BodyState,
        to: u32,
    ) {
        let local = self.solver_sets[to as usize].bodies.push(sim, state);
        if let Some(body) = self.bodies.get_by_index_mut(body_index) {
            (body.set_index, body.local_index) = (to, local);
        }
        self.refresh_constraints_of(body_index, false);
    }
}

/// What a contact holds of one of its bodies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ContactSide {
    /// Where the body's sim is (for its transform).
    pub(crate) place: BodyRef,
    /// Its index in the awake arrays, or `NULL_BODY`.
    pub(crate) index: u32,
    pub(crate) inv_mass: f32,
    pub(crate) inv_inertia: f32,
}

impl ContactSim {
    /// Writes side `side` (0 = body A) from `data`.
    pub(crate) fn set_side(&mut self, side: usize, data: ContactSide) {
        self.bodies[side] = data.place;
        let s = &mut self.solver;
        let fields = (data.index, data.inv_mass, data.inv_inertia);
        if side == 0 {
            (s.body_a, s.inv_mass_a, s.inv_inertia_a) = fields;
        } else {
            (s.body_b, s.inv_mass_b, s.inv_inertia_b) = fields;
        }
    }
}

/// A body state at rest: no velocity, no pending motion.
pub(crate) fn at_rest(state: BodyState) -> BodyState {
    BodyState {
        linear_velocity: Vec2::ZERO,
        angular_velocity: 0.0,
        delta_position: Vec2::ZERO,
        delta_rotation: Rot::IDENTITY,
        ..state
    }
}
