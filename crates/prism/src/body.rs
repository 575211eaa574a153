//! Bodies: the cold record, creation and destruction, and finding a body's sim.
//!
//! A body is three records (core-soa's tiers): its cold [`Body`] in the world's arena, and its
//! warm [`BodySim`] and hot [`BodyState`] side by side in the dense arrays of one solver set
//! (`solver_set.rs`): the static set, the awake set, or the set of the sleeping island it rests
//! in. `Body::set_index` and `Body::local_index` say where the sim is; `BodySim::body` points
//! back. When a body's sim moves — another body was swap-removed into a hole, or its island fell
//! asleep or woke — everything that names it by position is rewritten at once
//! (`relocate.rs`), so no pass of the step looks a body up through its cold record.
//!
//! The cold record holds what only bookkeeping reads: the type, the shapes, the heads of the
//! body's contact and joint lists (`constraint_list.rs`), user data, and the settings that
//! decide its mass (fixed rotation, inertia scale). What the step reads every time — pose,
//! mass, sleep settings and timer, extent — is in the sim.
//!
//! Motion (pose, velocity, forces) is in `body_motion.rs`, mass in `mass.rs`.

use crate::body_shapes::BodyShapes;
use crate::constraint_list::{ListHead, members};
use crate::def::BodyDef;
use crate::error::{IdKind, PrismError};
use crate::solver_set::{AWAKE_SET, STATIC_SET};
use crate::world::World;
use core_soa::{
    BodyId, BodySim, BodyState, BodyType, NULL_INDEX, ShapeId, Transform, Vec2, body_flags,
};

/// The cold body record.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Body {
    pub(crate) body_type: BodyType,
    /// The shapes attached to the body, in attachment order.
    pub(crate) shapes: BodyShapes,
    /// The body's contacts and joints (intrusive lists through the constraints).
    pub(crate) contacts: ListHead,
    pub(crate) joints: ListHead,
    /// The solver set holding the body's sim and state, and their index in it.
    pub(crate) set_index: u32,
    pub(crate) local_index: u32,
    /// Opaque value for the user.
    pub(crate) user_data: u64,
    /// Whether the body's rotation is locked.
    pub(crate) fixed_rotation: bool,
    /// Multiplies the rotational inertia the shapes give (see `mass.rs`).
    pub(crate) inertia_scale: f32,
    /// Whether the body is swept against moving bodies too (`continuous.rs`).
    pub(crate) is_bullet: bool,
}

impl Body {
    /// The [`body_flags`] its [`BodyState`] carries.
    pub(crate) fn state_flags(&self) -> u32 {
        let mut flags = self.body_type.state_flags();
        if self.fixed_rotation {
            flags |= body_flags::FIXED_ROTATION;
        }
        if self.is_bullet {
            flags |= body_flags::BULLET;
        }
        flags
    }
}

impl World {
    /// Creates a body. Errors name the first invalid field of `def`.
    pub fn create_body(&mut self, def: &BodyDef) -> Result<BodyId, PrismError> {
        def.validate()?;
        let set_index = if def.body_type == BodyType::Static {
            STATIC_SET
        } else {
            AWAKE_SET
        };
        let body = Body {
            body_type: def.body_type,
            shapes: BodyShapes::default(),
            contacts: ListHead::default(),
            joints: ListHead::default(),
            set_index,
            local_index: NULL_INDEX,
            user_data: def.user_data,
            fixed_rotation: def.fixed_rotation,
            inertia_scale: def.inertia_scale,
            is_bullet: def.is_bullet,
        };
        let flags = body.state_flags();
        let id = self.bodies.insert(body);
        let local_index = self.solver_sets[set_index as usize]
            .bodies
            .push(new_sim(def, id.index()), new_state(def, flags));
        if let Some(body) = self.bodies.get_mut(id) {
            body.local_index = local_index;
        }
        self.update_body_mass(id.index());
        self.create_island_for_body(id.index());
        if def.body_type == BodyType::Kinematic {
            self.kinematic_bodies.insert(id.index());
        }
        Ok(id)
    }

    /// Destroys a body with its joints, shapes and contacts. Touching contacts produce end-touch
    /// events, delivered with the next step's events.
    pub fn destroy_body(&mut self, id: BodyId) -> Result<(), PrismError> {
        self.body(id)?;
        let index = id.index();
        self.wake_body(index);
        self.remove_body_joints(index);
        for contact in self.contacts_of_body(index) {
            if let Some(event) = self.destroy_contact(contact) {
                self.events.pending_end.push(event);
            }
        }
        let shapes = self.body(id)?.shapes.to_vec();
        for shape in shapes {
            self.remove_shape_record(shape);
        }
        self.remove_body_from_island(index);
        self.remove_body_sim(index);
        self.kinematic_bodies.remove(&index);
        self.bodies.remove(id);
        Ok(())
    }

    /// The ids of all live bodies, in slot order.
    pub fn body_ids(&self) -> Vec<BodyId> {
        self.bodies.iter().map(|(id, _)| id).collect()
    }

    /// Whether `id` refers to a live body of this world.
    pub fn is_body_valid(&self, id: BodyId) -> bool {
        self.bodies.contains(id)
    }

    /// The body's type (static, kinematic or dynamic); `InvalidId` for a stale id.
    pub fn body_type(&self, id: BodyId) -> Result<BodyType, PrismError> {
        Ok(self.body(id)?.body_type)
    }

    /// The shapes attached to the body, in attachment order.
    pub fn body_shapes(&self, id: BodyId) -> Result<&[ShapeId], PrismError> {
        Ok(&self.body(id)?.shapes)
    }

    /// The `user_data` the body was created with or last set to.
    pub fn body_user_data(&self, id: BodyId) -> Result<u64, PrismError> {
        Ok(self.body(id)?.user_data)
    }

    /// Replaces the body's user data (Prism never reads it).
    pub fn set_body_user_data(&mut self, id: BodyId, user_data: u64) -> Result<(), PrismError> {
        self.body_mut(id)?.user_data = user_data;
        Ok(())
    }

    /// The live body `id`, or [`PrismError::InvalidId`].
    pub(crate) fn body(&self, id: BodyId) -> Result<&Body, PrismError> {
        self.bodies.get(id).ok_or_else(|| invalid_body(id))
    }

    pub(crate) fn body_mut(&mut self, id: BodyId) -> Result<&mut Body, PrismError> {
        self.bodies.get_mut(id).ok_or_else(|| invalid_body(id))
    }

    /// The warm record of body `id`.
    pub(crate) fn sim(&self, id: BodyId) -> Result<&BodySim, PrismError> {
        self.body(id)?;
        self.body_sim(id.index()).ok_or_else(|| invalid_body(id))
    }

    /// The warm record of the body at arena index `body_index`.
    pub(crate) fn body_sim(&self, body_index: u32) -> Option<&BodySim> {
        let body = self.bodies.get_by_index(body_index)?;
        let set = self.solver_sets.get(body.set_index as usize)?;
        set.bodies.sims().get(body.local_index as usize)
    }

    /// Both records of the body at arena index `body_index`, for writing.
    pub(crate) fn body_sim_state_mut(
        &mut self,
        body_index: u32,
    ) -> Option<(&mut BodySim, &mut BodyState)> {
        let body = self.bodies.get_by_index(body_index)?;
        let set = self.solver_sets.get_mut(body.set_index as usize)?;
        set.bodies.get_mut(body.local_index)
    }

    pub(crate) fn state(&self, id: BodyId) -> Result<&BodyState, PrismError> {
        let body = self.body(id)?;
        self.solver_sets[body.set_index as usize]
            .bodies
            .get(body.local_index)
            .map(|(_, state)| state)
            .ok_or_else(|| invalid_body(id))
    }

    /// Mutable access for a user edit: wakes the body first (see `sleep.rs`).
    pub(crate) fn sim_state_mut(
        &mut self,
        id: BodyId,
    ) -> Result<(&mut BodySim, &mut BodyState), PrismError> {
        self.body(id)?;
        self.wake_body(id.index());
        self.body_sim_state_mut(id.index())
            .ok_or_else(|| invalid_body(id))
    }

    /// The arena indices of a body's contacts, in list order.
    pub(crate) fn contacts_of_body(&self, body_index: u32) -> Vec<u32> {
        match self.bodies.get_by_index(body_index) {
            Some(body) => members(&self.contacts, body.contacts),
            None => Vec::new(),
        }
    }

    /// The arena indices of a body's joints, in list order.
    pub(crate) fn joints_of_body(&self, body_index: u32) -> Vec<u32> {
        match self.bodies.get_by_index(body_index) {
            Some(body) => members(&self.joints.arena, body.joints),
            None => Vec::new(),
        }
    }

    /// Whether the body at arena index `body_index` is in the awake set.
    pub(crate) fn is_body_index_awake(&self, body_index: u32) -> bool {
        self.bodies
            .get_by_index(body_index)
            .is_some_and(|body| body.set_index == AWAKE_SET)
    }
}

/// The warm record of a new body.
fn new_sim(def: &BodyDef, body_index: u32) -> BodySim {
    let rotation = def.rotation.normalize();
    BodySim {
        transform: Transform::new(def.position, rotation),
        center: def.position,
        center0: def.position,
        rotation0: rotation,
        linear_damping: def.linear_damping,
        angular_damping: def.angular_damping,
        gravity_scale: def.gravity_scale,
        sleep_threshold: def.sleep_threshold,
        enable_sleep: def.enable_sleep,
        body: body_index,
        ..BodySim::default()
    }
}

/// The hot record of a new body: static bodies never move.
fn new_state(def: &BodyDef, flags: u32) -> BodyState {
    let moving = def.body_type != BodyType::Static;
    BodyState {
        linear_velocity: if moving {
            def.linear_velocity
        } else {
            Vec2::ZERO
        },
        angular_velocity: if moving { def.angular_velocity } else { 0.0 },
        flags,
        ..BodyState::IDENTITY
    }
}

pub(crate) fn invalid_body(id: BodyId) -> PrismError {
    PrismError::InvalidId {
        kind: IdKind::Body,
        index: id.index(),
        generation: id.generation(),
    }
}
