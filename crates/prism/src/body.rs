//! Bodies: creation and destruction, pose and velocity, forces and impulses, mass.
//!
//! A body is three records (core-soa's tiers): its cold [`Body`] in the world's arena, and its
//! warm [`BodySim`] and hot [`BodyState`] side by side in one solver set's dense arrays. Static
//! bodies live in the static set and are never stepped; dynamic and kinematic bodies live in the
//! awake set, whose arrays the solver walks. `Body::set_index` and `Body::local_index` say where
//! a body's sim is; `BodySim::body` points back, and every swap-remove fixes the moved body's
//! `local_index` up.
//!
//! ## Mass from shapes
//!
//! Each shape `i` gives a mass `mᵢ`, a centroid `cᵢ` (body frame) and an inertia `Iᵢ` about its
//! centroid. The body's mass is `m = Σ mᵢ`, its centre `c = Σ mᵢ cᵢ / m`, and its inertia about
//! that centre follows from the parallel-axis theorem applied twice — shift every shape's
//! inertia to the body origin, sum, then shift the sum to the centre:
//!
//! ```text
//!   I_origin = Σ (Iᵢ + mᵢ |cᵢ|²)          I_center = I_origin − m |c|²
//! ```
//!
//! A dynamic body whose shapes have no mass gets mass 1 (and no rotational inertia), as in
//! Box2D, so it still falls and can be pushed. A fixed-rotation body gets zero inverse inertia.
//! Moving the centre of mass keeps the body origin where it is, so the centre's velocity changes
//! by `ω × (c_new − c_old)` — the same rigid motion, described about a different point.

use crate::def::{BodyDef, validate_rotation};
use crate::error::{IdKind, PrismError, finite, finite_vec, non_negative};
use crate::world::World;
use collision::mass::{MassData, compute_mass};
use core_soa::{
    Body, BodyId, BodySim, BodyState, BodyType, NULL_INDEX, Rot, ShapeId, Transform, Vec2, cross,
    cross_sv, edge_constraint, edge_side,
};

/// The solver set holding static bodies.
pub(crate) const STATIC_SET: u32 = 0;
/// The solver set holding awake dynamic and kinematic bodies.
pub(crate) const AWAKE_SET: u32 = 1;
/// How many solver sets the world keeps.
pub(crate) const SOLVER_SET_COUNT: u32 = 2;

impl World {
    /// Creates a body. Errors name the first invalid field of `def`.
    pub fn create_body(&mut self, def: &BodyDef) -> Result<BodyId, PrismError> {
        def.validate()?;
        let set_index = if def.body_type == BodyType::Static {
            STATIC_SET
        } else {
            AWAKE_SET
        };
        let id = self.bodies.insert_with(|id| Body {
            user_data: def.user_data,
            set_index,
            sleep_threshold: def.sleep_threshold,
            enable_sleep: def.enable_sleep,
            fixed_rotation: def.fixed_rotation,
            ..Body::new(id, def.body_type)
        });
        let rotation = def.rotation.normalize();
        let sim = BodySim {
            transform: Transform::new(def.position, rotation),
            center: def.position,
            center0: def.position,
            rotation0: rotation,
            linear_damping: def.linear_damping,
            angular_damping: def.angular_damping,
            gravity_scale: def.gravity_scale,
            body: id.index(),
            ..BodySim::default()
        };
        let moving = def.body_type != BodyType::Static;
        let state = BodyState {
            linear_velocity: if moving {
                def.linear_velocity
            } else {
                Vec2::ZERO
            },
            angular_velocity: if moving { def.angular_velocity } else { 0.0 },
            flags: self.bodies.get(id).map_or(0, Body::state_flags),
            ..BodyState::IDENTITY
        };
        let local_index = self.solver_sets[set_index as usize].push(sim, state);
        if let Some(body) = self.bodies.get_mut(id) {
            body.local_index = local_index;
        }
        self.record_inertia_scale(id.index(), def.inertia_scale);
        self.update_body_mass(id.index());
        self.create_island_for_body(id.index());
        Ok(id)
    }

    /// Destroys a body with its joints, shapes and contacts. Touching contacts produce end-touch events,
    /// delivered with the next step's events.
    pub fn destroy_body(&mut self, id: BodyId) -> Result<(), PrismError> {
        self.body(id)?;
        self.wake_body(id.index());
        self.remove_body_joints(id.index());
        let body = self.body(id)?;
        let contacts = self.body_contact_indices(body);
        let shapes = body.shapes.clone();
        let (set_index, local_index) = (body.set_index, body.local_index);
        for contact in contacts {
            if let Some(event) = self.destroy_contact(contact) {
                self.events.pending_end.push(event);
            }
        }
        for shape in shapes {
            self.remove_shape_record(shape);
        }
        self.remove_body_from_island(id.index());
        let bodies = &mut self.bodies;
        self.solver_sets[set_index as usize].swap_remove_with(local_index, |moved, new_index| {
            if let Some(moved_body) = bodies.get_by_index_mut(moved) {
                moved_body.local_index = new_index;
            }
        });
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

    pub fn body_type(&self, id: BodyId) -> Result<BodyType, PrismError> {
        Ok(self.body(id)?.body_type)
    }

    /// The shapes attached to the body, in attachment order.
    pub fn body_shapes(&self, id: BodyId) -> Result<&[ShapeId], PrismError> {
        Ok(&self.body(id)?.shapes)
    }

    pub fn body_user_data(&self, id: BodyId) -> Result<u64, PrismError> {
        Ok(self.body(id)?.user_data)
    }

    pub fn set_body_user_data(&mut self, id: BodyId, user_data: u64) -> Result<(), PrismError> {
        self.body_mut(id)?.user_data = user_data;
        Ok(())
    }

    /// The transform of the body origin.
    pub fn transform(&self, id: BodyId) -> Result<Transform, PrismError> {
        Ok(self.sim(id)?.transform)
    }

    /// The world position of the body origin.
    pub fn position(&self, id: BodyId) -> Result<Vec2, PrismError> {
        Ok(self.sim(id)?.transform.p)
    }

    pub fn rotation(&self, id: BodyId) -> Result<Rot, PrismError> {
        Ok(self.sim(id)?.transform.q)
    }

    /// The world position of the centre of mass.
    pub fn world_center_of_mass(&self, id: BodyId) -> Result<Vec2, PrismError> {
        Ok(self.sim(id)?.center)
    }

    /// Teleports the body origin. Contacts are updated by the next step.
    pub fn set_transform(
        &mut self,
        id: BodyId,
        position: Vec2,
        rotation: Rot,
    ) -> Result<(), PrismError> {
        finite_vec("position", position)?;
        validate_rotation("rotation", rotation)?;
        let transform = Transform::new(position, rotation.normalize());
        let size = position.x.abs().max(position.y.abs());
        self.refuse_infinite_effect(id, "position", size, false, |sim, _| {
            transform.apply(sim.local_center).is_finite() && self.body_shapes_fit(id, transform)
        })?;
        let (sim, _) = self.sim_state_mut(id)?;
        sim.transform = transform;
        sim.center = transform.apply(sim.local_center);
        sim.center0 = sim.center;
        sim.rotation0 = transform.q;
        self.refresh_body_shapes(id.index(), true);
        Ok(())
    }

    /// Velocity of the centre of mass (zero for static bodies).
    pub fn linear_velocity(&self, id: BodyId) -> Result<Vec2, PrismError> {
        Ok(self.state(id)?.linear_velocity)
    }

    pub fn angular_velocity(&self, id: BodyId) -> Result<f32, PrismError> {
        Ok(self.state(id)?.angular_velocity)
    }

    /// Sets the velocity of the centre of mass. No effect on static bodies.
    pub fn set_linear_velocity(&mut self, id: BodyId, velocity: Vec2) -> Result<(), PrismError> {
        finite_vec("velocity", velocity)?;
        if let Some(state) = self.moving_state_mut(id)? {
            state.linear_velocity = velocity;
        }
        Ok(())
    }

    /// Sets the angular velocity. No effect on static bodies.
    pub fn set_angular_velocity(&mut self, id: BodyId, velocity: f32) -> Result<(), PrismError> {
        finite("angular_velocity", velocity)?;
        if let Some(state) = self.moving_state_mut(id)? {
            state.angular_velocity = velocity;
        }
        Ok(())
    }

    /// Applies `force` (N) at the world `point` for the next step. Dynamic bodies only (no
    /// effect on others).
    pub fn apply_force(&mut self, id: BodyId, force: Vec2, point: Vec2) -> Result<(), PrismError> {
        finite_vec("force", force)?;
        finite_vec("point", point)?;
        self.refuse_infinite_effect(id, "force", force.length(), true, |sim, _| {
            (sim.force + force).is_finite()
                && (sim.torque + cross(point - sim.center, force)).is_finite()
        })?;
        if let Some((sim, _)) = self.dynamic_mut(id)? {
            sim.force += force;
            sim.torque += cross(point - sim.center, force);
        }
        Ok(())
    }

    /// Applies `force` (N) at the centre of mass for the next step.
    pub fn apply_force_to_center(&mut self, id: BodyId, force: Vec2) -> Result<(), PrismError> {
        finite_vec("force", force)?;
        self.refuse_infinite_effect(id, "force", force.length(), true, |sim, _| {
            (sim.force + force).is_finite()
        })?;
        if let Some((sim, _)) = self.dynamic_mut(id)? {
            sim.force += force;
        }
        Ok(())
    }

    /// Applies `torque` (N·m) for the next step.
    pub fn apply_torque(&mut self, id: BodyId, torque: f32) -> Result<(), PrismError> {
        finite("torque", torque)?;
        self.refuse_infinite_effect(id, "torque", torque, true, |sim, _| {
            (sim.torque + torque).is_finite()
        })?;
        if let Some((sim, _)) = self.dynamic_mut(id)? {
            sim.torque += torque;
        }
        Ok(())
    }

    /// Applies `impulse` (N·s) at the world `point`: changes the velocity at once.
    pub fn apply_linear_impulse(
        &mut self,
        id: BodyId,
        impulse: Vec2,
        point: Vec2,
    ) -> Result<(), PrismError> {
        finite_vec("impulse", impulse)?;
        finite_vec("point", point)?;
        self.refuse_infinite_effect(id, "impulse", impulse.length(), true, |sim, state| {
            (state.linear_velocity + sim.inv_mass * impulse).is_finite()
                && (state.angular_velocity + sim.inv_inertia * cross(point - sim.center, impulse))
                    .is_finite()
        })?;
        if let Some((sim, state)) = self.dynamic_mut(id)? {
            state.linear_velocity += sim.inv_mass * impulse;
            state.angular_velocity += sim.inv_inertia * cross(point - sim.center, impulse);
        }
        Ok(())
    }

    /// Applies `impulse` (N·s) at the centre of mass.
    pub fn apply_linear_impulse_to_center(
        &mut self,
        id: BodyId,
        impulse: Vec2,
    ) -> Result<(), PrismError> {
        finite_vec("impulse", impulse)?;
        self.refuse_infinite_effect(id, "impulse", impulse.length(), true, |sim, state| {
            (state.linear_velocity + sim.inv_mass * impulse).is_finite()
        })?;
        if let Some((sim, state)) = self.dynamic_mut(id)? {
            state.linear_velocity += sim.inv_mass * impulse;
        }
        Ok(())
    }

    /// Applies an angular impulse (N·m·s).
    pub fn apply_angular_impulse(&mut self, id: BodyId, impulse: f32) -> Result<(), PrismError> {
        finite("impulse", impulse)?;
        self.refuse_infinite_effect(id, "impulse", impulse, true, |sim, state| {
            (state.angular_velocity + sim.inv_inertia * impulse).is_finite()
        })?;
        if let Some((sim, state)) = self.dynamic_mut(id)? {
            state.angular_velocity += sim.inv_inertia * impulse;
        }
        Ok(())
    }

    /// Mass (kg), centre of mass (body frame) and rotational inertia about it (kg·m²).
    pub fn mass_data(&self, id: BodyId) -> Result<MassData, PrismError> {
        let sim = self.sim(id)?;
        Ok(MassData {
            mass: sim.mass,
            center: sim.local_center,
            rotational_inertia: sim.inertia,
        })
    }

    /// Overrides the mass properties of a dynamic body (no effect on others). Adding or removing
    /// a shape later recomputes them from the shapes. A zero mass becomes 1, as for a body
    /// without massive shapes. A positive mass or inertia must have a finite inverse (be at
    /// least `1/f32::MAX`).
    pub fn set_mass_data(&mut self, id: BodyId, mass_data: MassData) -> Result<(), PrismError> {
        non_negative("MassData::mass", mass_data.mass)?;
        finite_vec("MassData::center", mass_data.center)?;
        non_negative("MassData::rotational_inertia", mass_data.rotational_inertia)?;
        crate::mass_limits::check_mass_override(&mass_data)?;
        let center = mass_data.center;
        let size = center.x.abs().max(center.y.abs());
        self.refuse_infinite_effect(id, "MassData::center", size, true, |sim, state| {
            // As `apply_mass` moves the centre and corrects the velocity.
            let new_center = sim.transform.apply(center);
            let velocity =
                state.linear_velocity + cross_sv(state.angular_velocity, new_center - sim.center);
            new_center.is_finite() && velocity.is_finite()
        })?;
        let fixed_rotation = self.body(id)?.fixed_rotation;
        if let Some((sim, state)) = self.dynamic_mut(id)? {
            apply_mass(sim, state, mass_data, fixed_rotation);
        }
        self.update_body_extent(id.index());
        Ok(())
    }

    /// Recomputes a body's mass properties from its shapes (see the module notes).
    pub(crate) fn update_body_mass(&mut self, body_index: u32) {
        let Some(body) = self.bodies.get_by_index(body_index) else {
            return;
        };
        let (set, local, fixed_rotation) = (body.set_index, body.local_index, body.fixed_rotation);
        let mass_data = if body.body_type == BodyType::Dynamic {
            let mut mass_data = self.mass_from_shapes(&body.shapes);
            mass_data.rotational_inertia *= self.inertia_scale_of(body_index);
            Some(mass_data)
        } else {
            None
        };
        let Some((sim, state)) = self.solver_sets[set as usize].get_mut(local) else {
            return;
        };
        match mass_data {
            Some(mass_data) => apply_mass(sim, state, mass_data, fixed_rotation),
            None => clear_mass(sim),
        }
        self.update_body_extent(body_index);
    }

    /// Sums the shapes' mass properties about the body's centre of mass.
    pub(crate) fn mass_from_shapes(&self, shapes: &[ShapeId]) -> MassData {
        sum_mass_parts(self.shape_mass_parts(shapes))
    }

    /// The mass properties of each shape that has mass. Massless parts (zero density,
    /// segments, chain links) add nothing, and are skipped rather than added as zeros: the
    /// parallel-axis term `0·|c|²` of a segment 10²⁰ m from the origin is `0·∞ = NaN`.
    pub(crate) fn shape_mass_parts<'a>(
        &'a self,
        shapes: &'a [ShapeId],
    ) -> impl Iterator<Item = MassData> + 'a {
        shapes
            .iter()
            .filter_map(|&id| self.shapes.get(id))
            .filter(|shape| shape.density != 0.0)
            .map(|shape| compute_mass(&shape.geometry, shape.density))
            .filter(|part| part.mass != 0.0)
    }

    /// The live body `id`, or [`PrismError::InvalidId`].
    pub(crate) fn body(&self, id: BodyId) -> Result<&Body, PrismError> {
        self.bodies.get(id).ok_or_else(|| invalid_body(id))
    }

    fn body_mut(&mut self, id: BodyId) -> Result<&mut Body, PrismError> {
        self.bodies.get_mut(id).ok_or_else(|| invalid_body(id))
    }

    /// The warm record of body `id`.
    pub(crate) fn sim(&self, id: BodyId) -> Result<&BodySim, PrismError> {
        let body = self.body(id)?;
        self.solver_sets[body.set_index as usize]
            .get(body.local_index)
            .map(|(sim, _)| sim)
            .ok_or_else(|| invalid_body(id))
    }

    fn state(&self, id: BodyId) -> Result<&BodyState, PrismError> {
        let body = self.body(id)?;
        self.solver_sets[body.set_index as usize]
            .get(body.local_index)
            .map(|(_, state)| state)
            .ok_or_else(|| invalid_body(id))
    }

    /// Mutable access for a user edit: wakes the body first (see `sleep.rs`).
    fn sim_state_mut(&mut self, id: BodyId) -> Result<(&mut BodySim, &mut BodyState), PrismError> {
        self.body(id)?;
        self.wake_body(id.index());
        let body = self.bodies.get(id).ok_or_else(|| invalid_body(id))?;
        let (set, local) = (body.set_index as usize, body.local_index);
        self.solver_sets[set]
            .get_mut(local)
            .ok_or_else(|| invalid_body(id))
    }

    /// The state of a dynamic or kinematic body; `None` for a static body.
    fn moving_state_mut(&mut self, id: BodyId) -> Result<Option<&mut BodyState>, PrismError> {
        let is_static = self.body(id)?.body_type == BodyType::Static;
        let (_, state) = self.sim_state_mut(id)?;
        Ok((!is_static).then_some(state))
    }

    /// Sim and state of a dynamic body; `None` for static and kinematic bodies.
    fn dynamic_mut(
        &mut self,
        id: BodyId,
    ) -> Result<Option<(&mut BodySim, &mut BodyState)>, PrismError> {
        let is_dynamic = self.body(id)?.body_type == BodyType::Dynamic;
        let pair = self.sim_state_mut(id)?;
        Ok(is_dynamic.then_some(pair))
    }

    /// The arena indices of the contacts in `body`'s contact list, in list order.
    pub(crate) fn body_contact_indices(&self, body: &Body) -> Vec<u32> {
        let mut indices = Vec::with_capacity(body.contact_count as usize);
        let mut key = body.contact_head;
        while key != NULL_INDEX {
            let index = edge_constraint(key);
            indices.push(index);
            key = match self.contacts.arena.get_by_index(index) {
                Some(contact) => contact.edges[edge_side(key) as usize].next,
                None => NULL_INDEX,
            };
        }
        indices
    }
}

/// Sums mass properties given about each part's own centre into the body's: total mass, centre
/// of mass, and inertia about that centre (the parallel-axis theorem twice; module notes).
pub(crate) fn sum_mass_parts(parts: impl Iterator<Item = MassData>) -> MassData {
    let (mut mass, mut moment, mut inertia_about_origin) = (0.0, Vec2::ZERO, 0.0);
    for part in parts {
        mass += part.mass;
        moment += part.mass * part.center;
        inertia_about_origin += part.rotational_inertia + part.mass * part.center.length_squared();
    }
    let center = if mass > 0.0 {
        moment / mass
    } else {
        Vec2::ZERO
    };
    let inertia = (inertia_about_origin - mass * center.length_squared()).max(0.0);
    MassData {
        mass,
        center,
        rotational_inertia: inertia,
    }
}

/// Installs mass properties on a dynamic body (see the module notes).
fn apply_mass(sim: &mut BodySim, state: &mut BodyState, mass_data: MassData, fixed_rotation: bool) {
    let mass = if mass_data.mass > 0.0 {
        mass_data.mass
    } else {
        1.0
    };
    sim.mass = mass;
    sim.inv_mass = 1.0 / mass;
    let rotates = mass_data.rotational_inertia > 0.0 && !fixed_rotation;
    sim.inertia = if rotates {
        mass_data.rotational_inertia
    } else {
        0.0
    };
    sim.inv_inertia = if rotates { 1.0 / sim.inertia } else { 0.0 };
    let old_center = sim.center;
    sim.local_center = mass_data.center;
    sim.center = sim.transform.apply(mass_data.center);
    sim.center0 = sim.center;
    // The shapes' extent was measured from the old centre.
    sim.fat_slack = 0.0;
    state.linear_velocity += cross_sv(state.angular_velocity, sim.center - old_center);
}

/// Static and kinematic bodies: no mass, infinite inertia, centre at the body origin.
fn clear_mass(sim: &mut BodySim) {
    sim.mass = 0.0;
    sim.inv_mass = 0.0;
    sim.inertia = 0.0;
    sim.inv_inertia = 0.0;
    sim.local_center = Vec2::ZERO;
    sim.center = sim.transform.p;
    sim.center0 = sim.transform.p;
    sim.fat_slack = 0.0;
}

pub(crate) fn invalid_body(id: BodyId) -> PrismError {
    PrismError::InvalidId {
        kind: IdKind::Body,
        index: id.index(),
        generation: id.generation(),
    }
}
