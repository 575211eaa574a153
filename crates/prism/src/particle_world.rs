//! Particle systems in the World: creation and editing through generational ids, anchors on
//! bodies, and the particle phase of the step.
//!
//! The `particles` crate does the physics (forces, integrators, the global constraint solve and
//! PGS, cloth); this module makes its systems part of the World:
//!
//! ```text
//!   storage    Arena<SystemRecord, ParticleSystemId>: a ParticleSystem and the anchors the
//!              World moves with bodies (anchor id, body id, point in the body's frame)
//!   editing    World methods that check the system id, forward to the system, and turn a
//!              ParticleError into a PrismError (`particle_error`); every check runs before
//!              anything changes, so an error leaves the world as it was
//!   stepping   the "particles" phase, after the rigid bodies have moved (see below)
//! ```
//!
//! **The phase.** It runs last in [`World::step`], once the rigid solve and finalize have put
//! the bodies at their end-of-step poses and the trees are current, so the particles see the
//! shapes where they are now. For each system, in id order:
//!
//! 1. every body anchor is placed on its body: a parabola through the step that ends at the
//!    body point's position `T(p)` and velocity `v + ω × r` now, with the centripetal
//!    acceleration `−ω² r` (`r` from the body's centre of mass), so pins and springs held by a
//!    spinning body follow it through the step;
//! 2. the system steps against a [`crate::particle_collider`] view of the world (particles are
//!    circles of the system's radius; every shape kind; friction mixed with the shape's);
//! 3. the contact reactions and the anchors' reaction impulses are gathered in contact order
//!    and then applied to the bodies (`apply_particle_reactions`): a body is infinitely heavy
//!    within the particle step and answers the particles' push in the next rigid solve.
//!
//! The systems are taken out of the World for the phase, so the collider can borrow the World
//! while the systems change. A system whose state stops being finite is put back at the start
//! of its step by the particles crate and listed by [`World::diverged_particle_systems`]; the
//! step still succeeds, as for diverged bodies. The phase runs inside the world's workers (a
//! world with particle systems never takes a light step), so the particles crate's fixed-chunk
//! parallel passes use exactly the world's workers and give the same bits for any count.

use crate::error::{IdKind, PrismError};
use crate::particle_collider::{BodyReaction, WorldCollider, body_handle};
use crate::profile::zone;
use crate::world::World;
use core_soa::{Arena, ArenaKey, BodyId, Id, Vec2};
use particles::{
    AnchorId, AnchorState, BeadDef, Cloth, ClothDef, ConstraintDef, ConstraintId, CustomConstraint,
    ForceField, ForceFieldId, ParticleDef, ParticleError, ParticleId, ParticleProfile,
    ParticleSystem, SpringDef, SpringId, SystemDef,
};
use std::sync::Arc;

/// A handle to a particle system of a [`World`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ParticleSystemId(Id);

impl ParticleSystemId {
    /// A handle that is never valid.
    pub const NULL: ParticleSystemId = ParticleSystemId(Id::NULL);

    /// The slot index.
    pub const fn index(self) -> u32 {
        self.0.index()
    }

    /// The slot generation this handle was issued for.
    pub const fn generation(self) -> u32 {
        self.0.generation()
    }
}

impl ArenaKey for ParticleSystemId {
    fn from_id(id: Id) -> Self {
        ParticleSystemId(id)
    }
    fn id(self) -> Id {
        self.0
    }
}

/// An anchor of a system that the World keeps on a point of a body.
#[derive(Clone, Copy, Debug)]
struct BodyAnchor {
    anchor: AnchorId,
    body: BodyId,
    /// The point in the body's frame (origin-relative).
    local_point: Vec2,
}

/// A system and its body anchors.
struct SystemRecord {
    system: ParticleSystem,
    body_anchors: Vec<BodyAnchor>,
}

/// The World's particle systems and what their last step reported.
#[derive(Default)]
pub(crate) struct ParticleSystems {
    systems: Arena<SystemRecord, ParticleSystemId>,
    /// The systems whose last step diverged (and were put back).
    diverged: Vec<ParticleSystemId>,
}

impl ParticleSystems {
    /// How many particle systems the world has.
    pub(crate) fn system_count(&self) -> usize {
        self.systems.len()
    }

    /// Forgets the last step's reports (a paused step).
    pub(crate) fn pause(&mut self) {
        self.diverged.clear();
    }
}

/// A [`ParticleError`] as a [`PrismError`]: the field-and-value variants map onto the World's
/// own; the rest (stale particle-side ids, constraints that cannot be built, incompatible
/// settings, divergence) are carried whole in [`PrismError::Particles`].
pub(crate) fn particle_error(error: ParticleError) -> PrismError {
    match error {
        ParticleError::NonFinite { field, value } => PrismError::NonFinite { field, value },
        ParticleError::OutOfRange {
            field,
            value,
            requirement,
        } => PrismError::OutOfRange {
            field,
            value,
            requirement,
        },
        ParticleError::InvalidCount {
            field,
            value,
            requirement,
        } => PrismError::InvalidCount {
            field,
            value,
            requirement,
        },
        other => PrismError::Particles(other),
    }
}

fn invalid_system(id: ParticleSystemId) -> PrismError {
    PrismError::InvalidId {
        kind: IdKind::ParticleSystem,
        index: id.index(),
        generation: id.generation(),
    }
}

/// Where a body anchor starts a particle step of `dt` and how it moves through it: the body
/// has already moved this step, so the anchor's parabola `p₀ + v₀ t + ½ a t²` is chosen to
/// end at the body point's position `p` and velocity `v` now — `v₀ = v − a dt`,
/// `p₀ = p − v dt + ½ a dt²` — with the point's velocity `v + ω × r` and centripetal
/// acceleration `a = −ω² r` (`r` from the body's centre of mass).
fn anchor_on_body(world: &World, body: BodyId, local_point: Vec2, dt: f32) -> Option<AnchorState> {
    let (sim, state) = world.body_motion(body)?;
    let position = sim.transform.apply(local_point);
    let r = position - sim.center;
    let w = state.angular_velocity;
    let velocity = state.linear_velocity + Vec2::new(-w * r.y, w * r.x);
    let acceleration = -(w * w) * r;
    Some(AnchorState {
        position: position - velocity * dt + acceleration * (0.5 * dt * dt),
        velocity: velocity - acceleration * dt,
        acceleration,
    })
}

impl World {
    fn particle_record(&self, id: ParticleSystemId) -> Result<&SystemRecord, PrismError> {
        self.particles
            .systems
            .get(id)
            .ok_or_else(|| invalid_system(id))
    }

    fn particle_record_mut(
        &mut self,
        id: ParticleSystemId,
    ) -> Result<&mut SystemRecord, PrismError> {
        self.particles
            .systems
            .get_mut(id)
            .ok_or_else(|| invalid_system(id))
    }

    /// Runs `edit` on system `id`, mapping its error.
    fn edit_particles<R>(
        &mut self,
        id: ParticleSystemId,
        edit: impl FnOnce(&mut ParticleSystem) -> Result<R, ParticleError>,
    ) -> Result<R, PrismError> {
        edit(&mut self.particle_record_mut(id)?.system).map_err(particle_error)
    }

    // ----- systems ---------------------------------------------------------------------

    /// Creates an empty particle system with `def`'s settings (integrator, constraint solver,
    /// particle radius, contact friction, gravity — the system's own, not the world's —,
    /// substeps, ...). Errors: the first bad field of `def`.
    pub fn create_particle_system(
        &mut self,
        def: &SystemDef,
    ) -> Result<ParticleSystemId, PrismError> {
        let system = ParticleSystem::new(*def).map_err(particle_error)?;
        Ok(self.particles.systems.insert(SystemRecord {
            system,
            body_anchors: Vec::new(),
        }))
    }

    /// Destroys a particle system with everything in it. Errors: a stale id.
    pub fn destroy_particle_system(&mut self, id: ParticleSystemId) -> Result<(), PrismError> {
        self.particles
            .systems
            .remove(id)
            .map(|_| ())
            .ok_or_else(|| invalid_system(id))
    }

    /// Replaces a system's settings. Errors: a stale id, or the first bad field of `def`.
    pub fn set_particle_system_def(
        &mut self,
        id: ParticleSystemId,
        def: &SystemDef,
    ) -> Result<(), PrismError> {
        self.edit_particles(id, |system| system.set_def(*def))
    }

    /// The particle system `id`, for reading: positions, velocities, ids, energies, anchor
    /// impulses, constraint errors and its profile. Errors: a stale id.
    pub fn particle_system(&self, id: ParticleSystemId) -> Result<&ParticleSystem, PrismError> {
        Ok(&self.particle_record(id)?.system)
    }

    /// The live particle systems, in id order.
    pub fn particle_systems(&self) -> impl Iterator<Item = ParticleSystemId> + '_ {
        self.particles.systems.iter().map(|(id, _)| id)
    }

    /// The positions of a system's particles, in its dense order (see
    /// [`ParticleSystem::particle_ids`]). Errors: a stale id.
    pub fn particle_positions(&self, id: ParticleSystemId) -> Result<&[Vec2], PrismError> {
        Ok(self.particle_system(id)?.positions())
    }

    /// The velocities of a system's particles, in the same order. Errors: a stale id.
    pub fn particle_velocities(&self, id: ParticleSystemId) -> Result<&[Vec2], PrismError> {
        Ok(self.particle_system(id)?.velocities())
    }

    /// What a system's last step did: phase timings, CG iterations and residual, PGS sweeps,
    /// contacts and the largest constraint error. Errors: a stale id.
    pub fn particle_profile(&self, id: ParticleSystemId) -> Result<ParticleProfile, PrismError> {
        Ok(self.particle_system(id)?.profile())
    }

    /// The systems whose last step stopped being finite; each was put back where it was at
    /// the start of that step.
    pub fn diverged_particle_systems(&self) -> &[ParticleSystemId] {
        &self.particles.diverged
    }

    // ----- particles -------------------------------------------------------------------

    /// Creates a particle. Errors: a stale system id, or a bad field of `def`.
    pub fn create_particle(
        &mut self,
        system: ParticleSystemId,
        def: &ParticleDef,
    ) -> Result<ParticleId, PrismError> {
        self.edit_particles(system, |s| s.create_particle(def))
    }

    /// Creates a bead moving along a curve in its own coordinate (the parametric method).
    /// Errors: a stale system id, or a bad field of `def`.
    pub fn create_bead(
        &mut self,
        system: ParticleSystemId,
        def: &BeadDef,
    ) -> Result<ParticleId, PrismError> {
        self.edit_particles(system, |s| s.create_bead(def))
    }

    /// Destroys a particle and the springs and constraints that use it. Errors: stale ids.
    pub fn destroy_particle(
        &mut self,
        system: ParticleSystemId,
        particle: ParticleId,
    ) -> Result<(), PrismError> {
        self.edit_particles(system, |s| s.destroy_particle(particle))
    }

    /// A particle's position. Errors: stale ids.
    pub fn particle_position(
        &self,
        system: ParticleSystemId,
        particle: ParticleId,
    ) -> Result<Vec2, PrismError> {
        self.particle_system(system)?
            .position(particle)
            .map_err(particle_error)
    }

    /// A particle's velocity. Errors: stale ids.
    pub fn particle_velocity(
        &self,
        system: ParticleSystemId,
        particle: ParticleId,
    ) -> Result<Vec2, PrismError> {
        self.particle_system(system)?
            .velocity(particle)
            .map_err(particle_error)
    }

    /// Moves a particle. Errors: stale ids, or a non-finite position.
    pub fn set_particle_position(
        &mut self,
        system: ParticleSystemId,
        particle: ParticleId,
        position: Vec2,
    ) -> Result<(), PrismError> {
        self.edit_particles(system, |s| s.set_position(particle, position))
    }

    /// Sets a particle's velocity. Errors: stale ids, or a non-finite velocity.
    pub fn set_particle_velocity(
        &mut self,
        system: ParticleSystemId,
        particle: ParticleId,
        velocity: Vec2,
    ) -> Result<(), PrismError> {
        self.edit_particles(system, |s| s.set_velocity(particle, velocity))
    }

    /// Adds a force (N) to a particle for the next step. Errors: stale ids, a non-finite force.
    pub fn apply_particle_force(
        &mut self,
        system: ParticleSystemId,
        particle: ParticleId,
        force: Vec2,
    ) -> Result<(), PrismError> {
        self.edit_particles(system, |s| s.apply_force(particle, force))
    }

    // ----- springs, constraints, fields --------------------------------------------------

    /// Creates a damped spring between two particles or a particle and an anchor.
    /// Errors: stale ids, or a bad field of `def`.
    pub fn create_spring(
        &mut self,
        system: ParticleSystemId,
        def: &SpringDef,
    ) -> Result<SpringId, PrismError> {
        self.edit_particles(system, |s| s.create_spring(def))
    }

    /// Destroys a spring. Errors: stale ids.
    pub fn destroy_spring(
        &mut self,
        system: ParticleSystemId,
        spring: SpringId,
    ) -> Result<(), PrismError> {
        self.edit_particles(system, |s| s.destroy_spring(spring))
    }

    /// Creates an implicit constraint: a rod, a pin to a point or an anchor, a bead on a circle
    /// or a line. Errors: stale ids, or a bad field of `def`.
    pub fn create_particle_constraint(
        &mut self,
        system: ParticleSystemId,
        def: &ConstraintDef,
    ) -> Result<ConstraintId, PrismError> {
        self.edit_particles(system, |s| s.create_constraint(def))
    }

    /// Creates a user constraint on one or two particles. Errors: stale ids, a wrong count.
    pub fn create_custom_particle_constraint(
        &mut self,
        system: ParticleSystemId,
        particles: &[ParticleId],
        function: Arc<dyn CustomConstraint>,
    ) -> Result<ConstraintId, PrismError> {
        self.edit_particles(system, |s| s.create_custom_constraint(particles, function))
    }

    /// Destroys a constraint. Errors: stale ids.
    pub fn destroy_particle_constraint(
        &mut self,
        system: ParticleSystemId,
        constraint: ConstraintId,
    ) -> Result<(), PrismError> {
        self.edit_particles(system, |s| s.destroy_constraint(constraint))
    }

    /// Adds a user force field. Errors: a stale system id.
    pub fn add_particle_force_field(
        &mut self,
        system: ParticleSystemId,
        field: Box<dyn ForceField>,
    ) -> Result<ForceFieldId, PrismError> {
        self.edit_particles(system, |s| Ok(s.add_force_field(field)))
    }

    /// Removes a user force field. Errors: stale ids.
    pub fn remove_particle_force_field(
        &mut self,
        system: ParticleSystemId,
        field: ForceFieldId,
    ) -> Result<(), PrismError> {
        self.edit_particles(system, |s| s.remove_force_field(field))
    }

    // ----- anchors -----------------------------------------------------------------------

    /// Creates an anchor the caller moves ([`World::set_particle_anchor`]): a point that pins
    /// and springs can hold on to. Errors: a stale system id, a non-finite state.
    pub fn create_particle_anchor(
        &mut self,
        system: ParticleSystemId,
        state: AnchorState,
    ) -> Result<AnchorId, PrismError> {
        self.edit_particles(system, |s| s.create_anchor(state))
    }

    /// Creates an anchor the World keeps at `local_point` (in the body's frame) of `body`
    /// every step; the pins and springs holding on to it pull the body back (the reaction is
    /// applied to the body at the anchor). If the body is destroyed the anchor stays where the
    /// body last had it. Errors: stale ids, a non-finite point.
    pub fn create_body_anchor(
        &mut self,
        system: ParticleSystemId,
        body: BodyId,
        local_point: Vec2,
    ) -> Result<AnchorId, PrismError> {
        self.particle_record(system)?;
        crate::error::finite_vec("local_point", local_point)?;
        self.body(body)?;
        let state = anchor_on_body(self, body, local_point, 0.0).unwrap_or_default();
        let record = self.particle_record_mut(system)?;
        let anchor = record.system.create_anchor(state).map_err(particle_error)?;
        record.body_anchors.push(BodyAnchor {
            anchor,
            body,
            local_point,
        });
        Ok(anchor)
    }

    /// Moves an anchor created with [`World::create_particle_anchor`] (a body anchor is
    /// overwritten by its body at the next step). Errors: stale ids, a non-finite state.
    pub fn set_particle_anchor(
        &mut self,
        system: ParticleSystemId,
        anchor: AnchorId,
        state: AnchorState,
    ) -> Result<(), PrismError> {
        self.edit_particles(system, |s| s.set_anchor(anchor, state))
    }

    /// Destroys an anchor and the springs and pins holding on to it. Errors: stale ids.
    pub fn destroy_particle_anchor(
        &mut self,
        system: ParticleSystemId,
        anchor: AnchorId,
    ) -> Result<(), PrismError> {
        let record = self.particle_record_mut(system)?;
        record
            .system
            .destroy_anchor(anchor)
            .map_err(particle_error)?;
        record.body_anchors.retain(|a| a.anchor != anchor);
        Ok(())
    }

    // ----- cloth -------------------------------------------------------------------------

    /// Creates a cloth: a grid of particles with structural, shear and bend links.
    /// Errors: a stale system id, or a bad field of `def` (including a grid whose far corner
    /// or particle inverse mass would not be finite); nothing is created then.
    pub fn create_cloth(
        &mut self,
        system: ParticleSystemId,
        def: &ClothDef,
    ) -> Result<Cloth, PrismError> {
        self.particle_record(system)?;
        def.validate().map_err(particle_error)?;
        let extent = Vec2::new(def.columns as f32, -(def.rows as f32)) * def.spacing;
        crate::error::finite_vec("ClothDef::spacing", def.origin + extent)?;
        crate::error::finite("ClothDef::particle_mass", 1.0 / def.particle_mass)?;
        self.edit_particles(system, |s| Cloth::create(s, def))
    }

    /// Pins cloth particle `(column, row)` to a fixed point. Errors: a stale id, a cell
    /// outside the grid, a non-finite point.
    pub fn pin_cloth(
        &mut self,
        system: ParticleSystemId,
        cloth: &Cloth,
        column: u32,
        row: u32,
        point: Vec2,
    ) -> Result<ConstraintId, PrismError> {
        self.edit_particles(system, |s| cloth.pin(s, column, row, point))
    }

    /// Pins cloth particle `(column, row)` to `local_point` of `body` (a body anchor and a
    /// pin to it). Errors: stale ids, a cell outside the grid, a non-finite point; nothing is
    /// created then.
    pub fn pin_cloth_to_body(
        &mut self,
        system: ParticleSystemId,
        cloth: &Cloth,
        column: u32,
        row: u32,
        body: BodyId,
        local_point: Vec2,
    ) -> Result<(AnchorId, ConstraintId), PrismError> {
        check_cell(cloth, column, row)?;
        let particle = cloth.particle(column, row).unwrap_or_default();
        self.particle_system(system)?
            .position(particle)
            .map_err(particle_error)?;
        let anchor = self.create_body_anchor(system, body, local_point)?;
        let pin = self.edit_particles(system, |s| cloth.pin_to_anchor(s, column, row, anchor))?;
        Ok((anchor, pin))
    }

    // ----- the step ----------------------------------------------------------------------

    /// The particle phase of the step (module notes); returns the systems' figures combined.
    pub(crate) fn step_particles(&mut self, dt: f32) -> ParticleProfile {
        zone!("particles");
        self.particles.diverged.clear();
        if self.particles.systems.is_empty() {
            return ParticleProfile::default();
        }
        let mut systems = std::mem::take(&mut self.particles.systems);
        let (reactions, diverged, figures) = self.run_particle_systems(&mut systems, dt);
        self.particles.systems = systems;
        self.particles.diverged = diverged;
        self.apply_particle_reactions(&reactions, dt);
        figures
    }

    /// Steps every system against the world; returns the reactions for the bodies, the
    /// diverged systems and the combined figures.
    fn run_particle_systems(
        &self,
        systems: &mut Arena<SystemRecord, ParticleSystemId>,
        dt: f32,
    ) -> (Vec<BodyReaction>, Vec<ParticleSystemId>, ParticleProfile) {
        let mut reactions = Vec::new();
        let mut diverged = Vec::new();
        let mut figures = ParticleProfile::default();
        for (id, record) in systems.iter_mut() {
            for a in &record.body_anchors {
                if let Some(state) = anchor_on_body(self, a.body, a.local_point, dt) {
                    // Finite by construction of a finite body; a failure leaves it in place.
                    let _ = record.system.set_anchor(a.anchor, state);
                }
            }
            let mut collider = WorldCollider::new(self, dt);
            if record.system.step(dt, &mut collider).is_err() {
                diverged.push(id);
                continue;
            }
            reactions.append(&mut collider.reactions);
            for a in &record.body_anchors {
                let (Ok(impulse), Some((sim, _))) = (
                    record.system.anchor_impulse(a.anchor),
                    self.body_motion(a.body),
                ) else {
                    continue;
                };
                reactions.push(BodyReaction {
                    body: body_handle(a.body),
                    point: sim.transform.apply(a.local_point),
                    impulse,
                });
            }
            combine(&mut figures, &record.system.profile());
        }
        (reactions, diverged, figures)
    }
}

/// Adds one system's figures to the step's: times, counts and iterations add up; residuals
/// and errors take the largest.
fn combine(total: &mut ParticleProfile, p: &ParticleProfile) {
    total.forces += p.forces;
    total.solve += p.solve;
    total.implicit += p.implicit;
    total.integrate += p.integrate;
    total.collide += p.collide;
    total.total += p.total;
    total.cg_solves += p.cg_solves;
    total.cg_iterations += p.cg_iterations;
    total.cg_residual = total.cg_residual.max(p.cg_residual);
    total.cg_unconverged += p.cg_unconverged;
    total.implicit_iterations += p.implicit_iterations;
    total.implicit_residual = total.implicit_residual.max(p.implicit_residual);
    total.pgs_sweeps += p.pgs_sweeps;
    total.constraint_rows += p.constraint_rows;
    total.contacts += p.contacts;
    total.active_contacts += p.active_contacts;
    total.max_constraint_error = total.max_constraint_error.max(p.max_constraint_error);
}

/// `Ok` if `(column, row)` is a cell of `cloth`.
fn check_cell(cloth: &Cloth, column: u32, row: u32) -> Result<(), PrismError> {
    if column >= cloth.columns() {
        return Err(PrismError::InvalidCount {
            field: "column",
            value: column,
            requirement: "less than the cloth's columns",
        });
    }
    if row >= cloth.rows() {
        return Err(PrismError::InvalidCount {
            field: "row",
            value: row,
            requirement: "less than the cloth's rows",
        });
    }
    Ok(())
}
