//! Body motion: pose, velocity, forces and impulses.
//!
//! Every edit wakes the body (and so its island) first: an edit is a disturbance, and a sleeping
//! body's sim is not stepped. Forces and torques accumulate until the next step, which applies
//! and clears them; impulses change the velocity at once. Forces, torques and impulses act on
//! dynamic bodies only; velocities may be set on kinematic bodies too; static bodies never move
//! except by [`World::set_transform`].

use crate::def::validate_rotation;
use crate::error::{PrismError, finite, finite_vec};
use crate::solver_set::{AWAKE_SET, DISABLED_SET};
use crate::world::World;
use core_soa::{BodyId, BodySim, BodyState, BodyType, Rot, Transform, Vec2, cross};

impl World {
    /// The transform of the body origin.
    pub fn transform(&self, id: BodyId) -> Result<Transform, PrismError> {
        Ok(self.sim(id)?.transform)
    }

    /// The world position of the body origin.
    pub fn position(&self, id: BodyId) -> Result<Vec2, PrismError> {
        Ok(self.sim(id)?.transform.p)
    }

    /// World position of the body's origin (m), as of the end of the last step or the last
    /// teleport.
    pub fn rotation(&self, id: BodyId) -> Result<Rot, PrismError> {
        Ok(self.sim(id)?.transform.q)
    }

    /// The world position of the centre of mass.
    pub fn world_center_of_mass(&self, id: BodyId) -> Result<Vec2, PrismError> {
        Ok(self.sim(id)?.center)
    }

    /// Teleports the body origin. Contacts are updated by the next step; the joints of a static
    /// body take its new pose at once (they hold it, see `relocate.rs`).
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
        self.refresh_constraints_of(id.index(), false);
        Ok(())
    }

    /// Gives a kinematic (or dynamic) body the velocity that carries it to `position`,
    /// `rotation` in one step of `dt` seconds: `v = (target centre − centre)/dt` and
    /// `ω = (relative angle)/dt`. The position is reached exactly; the angle to within the
    /// integrator's rotation error, `n·atan(Δθ/n)` instead of `Δθ` over `n` substeps
    /// (`solver-simd`'s `integrate.rs`; 2·10⁻⁵ rad for 0.1 rad in 4 substeps).
    ///
    /// Unlike setting a velocity, this wakes a body only if it is asleep and the motion is not
    /// below its sleep threshold (`|v| + extent·|ω|`, as the sleep timer measures): an
    /// awake body keeps its sleep timer, and a sleeping one is not woken to move by a hair.
    /// A fixed-rotation body only translates. No effect on static or disabled bodies. Errors: a non-finite position, a rotation that
    /// is not a unit rotation, `dt` not finite and positive.
    pub fn set_target_transform(
        &mut self,
        id: BodyId,
        position: Vec2,
        rotation: Rot,
        dt: f32,
    ) -> Result<(), PrismError> {
        finite_vec("position", position)?;
        validate_rotation("rotation", rotation)?;
        crate::error::positive("dt", dt)?;
        let body = self.body(id)?;
        let movable = body.body_type != BodyType::Static;
        if !movable || body.set_index == DISABLED_SET {
            return Ok(());
        }
        let (asleep, turns) = (body.set_index != AWAKE_SET, !body.fixed_rotation);
        let sim = self.sim(id)?;
        let target = Transform::new(position, rotation.normalize());
        let inv_dt = 1.0 / dt;
        let linear = inv_dt * (target.apply(sim.local_center) - sim.center);
        let angular = if turns {
            inv_dt * Rot::relative_angle(sim.transform.q, target.q)
        } else {
            0.0
        };
        if asleep {
            let speed = island::sleep_speed(linear.length(), angular, sim.max_extent, 0.0, dt);
            if speed < sim.sleep_threshold {
                return Ok(());
            }
            self.wake_body(id.index());
        }
        if let Some((_, state)) = self.body_sim_state_mut(id.index()) {
            state.linear_velocity = linear;
            state.angular_velocity = angular;
        }
        Ok(())
    }

    /// Velocity of the centre of mass (zero for static bodies).
    pub fn linear_velocity(&self, id: BodyId) -> Result<Vec2, PrismError> {
        Ok(self.state(id)?.linear_velocity)
    }

    /// Angular velocity (rad/s, counter-clockwise positive).
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
}
