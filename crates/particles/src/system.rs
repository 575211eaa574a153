//! [`ParticleSystem`]: the public face — create, edit, destroy, step, inspect.
//!
//! Every call validates before it changes anything, so an error leaves the system as it was.
//! Structural edits (particles, beads, springs, constraints) mark the topology dirty; the next
//! step rebuilds it once, however many edits there were.
//!
//! A step (`step(dt, collider)`) runs:
//!
//! 1. **collide** — query the collider for the surfaces near every particle (parallel);
//! 2. for each of `substeps` substeps: **forces**, **solve**, **integrate** as the chosen
//!    integrator and solver prescribe (`step.rs`), with friction in the collide phase;
//! 3. **reactions** — hand the contact impulses to the collider and store the anchors'.
//!
//! If the state stops being finite, the whole system is put back at the start of the step and
//! the step returns [`ParticleError::Diverged`]; nothing reaches the collider.

use crate::anchor::{Anchor, AnchorSample, AnchorState};
use crate::constraint::{Constraint, ConstraintDef, CustomConstraint};
use crate::contact::{ParticleCollider, QueryInputs};
use crate::error::{IdKind, ParticleError, finite_vec, non_negative};
use crate::force::{ForceField, SpringDef, SpringEnd, validate_force};
use crate::ids::{AnchorId, ConstraintId, ForceFieldId, ParticleId, SpringId};
use crate::parametric::{Bead, BeadDef};
use crate::profile::{ParticleProfile, elapsed_ms};
use crate::settings::SystemDef;
use crate::step::{Model, State, StepTally, Workspace, place_beads, sample_anchors, substep};
use crate::storage::{ParticleDef, Particles};
use crate::topology::{Structure, Topology, row_templates};
use core_soa::{Arena, ArenaKey, Vec2};
use glam::DVec2;
use std::sync::Arc;
use std::time::Instant;

/// A set of particles with their forces and constraints, stepped as one.
pub struct ParticleSystem {
    def: SystemDef,
    particles: Particles,
    springs: Arena<SpringDef, SpringId>,
    constraints: Arena<Constraint, ConstraintId>,
    anchors: Arena<Anchor, AnchorId>,
    fields: Arena<Box<dyn ForceField>, ForceFieldId>,
    beads: Vec<Bead>,
    topology: Topology,
    dirty: bool,
    work: Workspace,
    profile: ParticleProfile,
}

fn invalid<K: ArenaKey>(kind: IdKind, key: K) -> ParticleError {
    ParticleError::InvalidId {
        kind,
        index: key.id().index(),
        generation: key.id().generation(),
    }
}

impl ParticleSystem {
    /// An empty system.
    pub fn new(def: SystemDef) -> Result<ParticleSystem, ParticleError> {
        def.validate()?;
        Ok(ParticleSystem {
            def,
            particles: Particles::default(),
            springs: Arena::new(),
            constraints: Arena::new(),
            anchors: Arena::new(),
            fields: Arena::new(),
            beads: Vec::new(),
            topology: Topology::default(),
            dirty: true,
            work: Workspace::default(),
            profile: ParticleProfile::default(),
        })
    }

    /// The settings.
    pub fn def(&self) -> &SystemDef {
        &self.def
    }

    /// Replaces the settings (the solvers' warm starts are dropped).
    pub fn set_def(&mut self, def: SystemDef) -> Result<(), ParticleError> {
        def.validate()?;
        self.def = def;
        self.dirty = true;
        Ok(())
    }

    // ----- particles -------------------------------------------------------------------

    /// Creates a free particle.
    pub fn create_particle(&mut self, def: &ParticleDef) -> Result<ParticleId, ParticleError> {
        def.validate()?;
        self.dirty = true;
        Ok(self.particles.insert(def))
    }

    /// Destroys a particle (free or bead) and every spring and constraint attached to it.
    pub fn destroy_particle(&mut self, id: ParticleId) -> Result<(), ParticleError> {
        self.particles.dense(id)?;
        let springs: Vec<SpringId> = self
            .springs
            .iter()
            .filter(|(_, s)| s.a == id || s.b == SpringEnd::Particle(id))
            .map(|(key, _)| key)
            .collect();
        springs.into_iter().for_each(|key| {
            self.springs.remove(key);
        });
        let constraints: Vec<ConstraintId> = self
            .constraints
            .iter()
            .filter(|(_, c)| c.particles().contains(&id))
            .map(|(key, _)| key)
            .collect();
        constraints.into_iter().for_each(|key| {
            self.constraints.remove(key);
        });
        self.beads.retain(|bead| bead.particle != id);
        self.particles.remove(id);
        self.dirty = true;
        Ok(())
    }

    /// The number of particles (beads included).
    pub fn particle_count(&self) -> usize {
        self.particles.len()
    }

    /// Whether `id` names a live particle.
    pub fn contains_particle(&self, id: ParticleId) -> bool {
        self.particles.slots.contains(id)
    }

    /// Position of a particle (m).
    pub fn position(&self, id: ParticleId) -> Result<Vec2, ParticleError> {
        Ok(self.particles.position[self.particles.dense(id)?])
    }

    /// Velocity of a particle (m/s).
    pub fn velocity(&self, id: ParticleId) -> Result<Vec2, ParticleError> {
        Ok(self.particles.velocity[self.particles.dense(id)?])
    }

    /// Inverse mass of a particle (1/kg).
    pub fn inverse_mass(&self, id: ParticleId) -> Result<f32, ParticleError> {
        Ok(self.particles.inverse_mass[self.particles.dense(id)?])
    }

    /// Moves a free particle (a bead is moved through its coordinate instead).
    pub fn set_position(&mut self, id: ParticleId, position: Vec2) -> Result<(), ParticleError> {
        let dense = self.free_particle(id, "position")?;
        self.particles.position[dense] = finite_vec("position", position)?;
        Ok(())
    }

    /// Sets a free particle's velocity.
    pub fn set_velocity(&mut self, id: ParticleId, velocity: Vec2) -> Result<(), ParticleError> {
        let dense = self.free_particle(id, "velocity")?;
        self.particles.velocity[dense] = finite_vec("velocity", velocity)?;
        Ok(())
    }

    /// Sets a particle's inverse mass (0: immovable).
    pub fn set_inverse_mass(
        &mut self,
        id: ParticleId,
        inverse_mass: f32,
    ) -> Result<(), ParticleError> {
        let dense = self.particles.dense(id)?;
        self.particles.inverse_mass[dense] = non_negative("inverse_mass", inverse_mass)?;
        Ok(())
    }

    /// Adds a force (N) that acts during the next step only.
    pub fn apply_force(&mut self, id: ParticleId, force: Vec2) -> Result<(), ParticleError> {
        let dense = self.particles.dense(id)?;
        self.particles.force[dense] += validate_force("force", force)?;
        Ok(())
    }

    /// Applies an impulse (N·s) now. A bead takes the part along its curve.
    pub fn apply_impulse(&mut self, id: ParticleId, impulse: Vec2) -> Result<(), ParticleError> {
        let dense = self.particles.dense(id)?;
        let impulse = validate_force("impulse", impulse)?;
        let w = self.particles.inverse_mass[dense];
        if let Some(bead) = self.beads.iter_mut().find(|b| b.particle == id) {
            let t = bead.curve.tangent(bead.u);
            bead.rate += f64::from(w) * t.dot(impulse.as_dvec2()) / t.dot(t);
            let (x, v) = bead.point_and_velocity(bead.u, bead.rate);
            self.particles.position[dense] = x;
            self.particles.velocity[dense] = v;
        } else {
            self.particles.velocity[dense] += w * impulse;
        }
        Ok(())
    }

    /// Positions of every particle, in dense order (see [`ParticleSystem::particle_ids`]).
    pub fn positions(&self) -> &[Vec2] {
        &self.particles.position
    }

    /// Velocities of every particle, in dense order.
    pub fn velocities(&self) -> &[Vec2] {
        &self.particles.velocity
    }

    /// Inverse masses of every particle, in dense order.
    pub fn inverse_masses(&self) -> &[f32] {
        &self.particles.inverse_mass
    }

    /// The id of each dense slot (dense order changes when particles are destroyed).
    pub fn particle_ids(&self) -> &[ParticleId] {
        &self.particles.ids
    }

    fn free_particle(&self, id: ParticleId, field: &'static str) -> Result<usize, ParticleError> {
        let dense = self.particles.dense(id)?;
        if self.beads.iter().any(|b| b.particle == id) {
            return Err(ParticleError::InvalidConstraint {
                field,
                reason: "cannot be set on a bead; its coordinate on the curve decides it".into(),
            });
        }
        Ok(dense)
    }

    // ----- beads -----------------------------------------------------------------------

    /// Creates a bead: a particle moving on its curve by construction (parametric constraint).
    pub fn create_bead(&mut self, def: &BeadDef) -> Result<ParticleId, ParticleError> {
        let def = def.validated()?;
        let mut bead = Bead {
            particle: ParticleId::NULL,
            curve: def.curve,
            u: f64::from(def.coordinate),
            rate: f64::from(def.rate),
        };
        let (position, velocity) = bead.point_and_velocity(bead.u, bead.rate);
        bead.particle = self.particles.insert(&ParticleDef {
            position,
            velocity,
            inverse_mass: def.inverse_mass,
        });
        self.beads.push(bead);
        self.dirty = true;
        Ok(bead.particle)
    }

    /// A bead's coordinate `u` and rate `u̇`.
    pub fn bead_coordinate(&self, id: ParticleId) -> Result<(f64, f64), ParticleError> {
        self.particles.dense(id)?;
        self.beads
            .iter()
            .find(|b| b.particle == id)
            .map(|b| (b.u, b.rate))
            .ok_or(ParticleError::InvalidConstraint {
                field: "particle",
                reason: "is not a bead".into(),
            })
    }

    // ----- springs ---------------------------------------------------------------------

    /// Creates a damped spring.
    pub fn create_spring(&mut self, def: &SpringDef) -> Result<SpringId, ParticleError> {
        def.validate()?;
        self.particles.dense(def.a)?;
        match def.b {
            SpringEnd::Particle(b) => {
                self.particles.dense(b)?;
                if b == def.a {
                    return Err(ParticleError::InvalidConstraint {
                        field: "SpringDef::b",
                        reason: "is the same particle as `a`".into(),
                    });
                }
            }
            SpringEnd::Anchor(anchor) => {
                self.anchors
                    .get(anchor)
                    .ok_or(invalid(IdKind::Anchor, anchor))?;
            }
        }
        self.dirty = true;
        Ok(self.springs.insert(*def))
    }

    /// Destroys a spring.
    pub fn destroy_spring(&mut self, id: SpringId) -> Result<(), ParticleError> {
        self.springs.remove(id).ok_or(invalid(IdKind::Spring, id))?;
        self.dirty = true;
        Ok(())
    }

    /// The number of springs.
    pub fn spring_count(&self) -> usize {
        self.springs.len()
    }

    // ----- anchors ---------------------------------------------------------------------

    /// Creates an anchor.
    pub fn create_anchor(&mut self, state: AnchorState) -> Result<AnchorId, ParticleError> {
        state.validate()?;
        Ok(self.anchors.insert(Anchor {
            state,
            impulse: Vec2::ZERO,
        }))
    }

    /// Sets where an anchor is and how it moves during the coming step.
    pub fn set_anchor(&mut self, id: AnchorId, state: AnchorState) -> Result<(), ParticleError> {
        state.validate()?;
        let anchor = self
            .anchors
            .get_mut(id)
            .ok_or(invalid(IdKind::Anchor, id))?;
        anchor.state = state;
        Ok(())
    }

    /// An anchor's state.
    pub fn anchor(&self, id: AnchorId) -> Result<AnchorState, ParticleError> {
        Ok(self
            .anchors
            .get(id)
            .ok_or(invalid(IdKind::Anchor, id))?
            .state)
    }

    /// The impulse (N·s) the springs and pins holding on to the anchor applied to it during
    /// the last step: apply it to the anchor's body at the anchor's point.
    pub fn anchor_impulse(&self, id: AnchorId) -> Result<Vec2, ParticleError> {
        Ok(self
            .anchors
            .get(id)
            .ok_or(invalid(IdKind::Anchor, id))?
            .impulse)
    }

    /// Destroys an anchor and every spring and pin holding on to it.
    pub fn destroy_anchor(&mut self, id: AnchorId) -> Result<(), ParticleError> {
        self.anchors.remove(id).ok_or(invalid(IdKind::Anchor, id))?;
        let springs: Vec<SpringId> = self
            .springs
            .iter()
            .filter(|(_, s)| s.b == SpringEnd::Anchor(id))
            .map(|(key, _)| key)
            .collect();
        springs.into_iter().for_each(|key| {
            self.springs.remove(key);
        });
        let constraints: Vec<ConstraintId> = self
            .constraints
            .iter()
            .filter(|(_, c)| c.anchor() == Some(id))
            .map(|(key, _)| key)
            .collect();
        constraints.into_iter().for_each(|key| {
            self.constraints.remove(key);
        });
        self.dirty = true;
        Ok(())
    }

    // ----- constraints -----------------------------------------------------------------

    /// Creates a built-in constraint.
    pub fn create_constraint(
        &mut self,
        def: &ConstraintDef,
    ) -> Result<ConstraintId, ParticleError> {
        def.validate()?;
        self.check_constrainable(&def.particles())?;
        if let ConstraintDef::PinToAnchor { anchor, .. } = *def {
            self.anchors
                .get(anchor)
                .ok_or(invalid(IdKind::Anchor, anchor))?;
        }
        self.dirty = true;
        Ok(self.constraints.insert(Constraint::Builtin(*def)))
    }

    /// Creates a user constraint on one or two particles.
    pub fn create_custom_constraint(
        &mut self,
        particles: &[ParticleId],
        function: Arc<dyn CustomConstraint>,
    ) -> Result<ConstraintId, ParticleError> {
        if particles.is_empty() || particles.len() > 2 {
            return Err(ParticleError::InvalidCount {
                field: "particles",
                value: particles.len() as u32,
                requirement: "1 or 2",
            });
        }
        if particles.len() == 2 && particles[0] == particles[1] {
            return Err(ParticleError::InvalidConstraint {
                field: "particles",
                reason: "names the same particle twice".into(),
            });
        }
        self.check_constrainable(particles)?;
        self.dirty = true;
        Ok(self.constraints.insert(Constraint::Custom {
            particles: particles.to_vec(),
            function,
        }))
    }

    /// Live, and not beads (a bead is already constrained by its parametrisation).
    fn check_constrainable(&self, particles: &[ParticleId]) -> Result<(), ParticleError> {
        for &id in particles {
            self.particles.dense(id)?;
            if self.beads.iter().any(|b| b.particle == id) {
                return Err(ParticleError::InvalidConstraint {
                    field: "particle",
                    reason: format!(
                        "(index {}, generation {}) is a bead; beads cannot take implicit \
                         constraints",
                        id.index(),
                        id.generation()
                    ),
                });
            }
        }
        Ok(())
    }

    /// Destroys a constraint.
    pub fn destroy_constraint(&mut self, id: ConstraintId) -> Result<(), ParticleError> {
        self.constraints
            .remove(id)
            .ok_or(invalid(IdKind::Constraint, id))?;
        self.dirty = true;
        Ok(())
    }

    /// The number of constraints.
    pub fn constraint_count(&self) -> usize {
        self.constraints.len()
    }

    /// The error of a constraint at the current state: `|C|`, or the distance for a pin.
    pub fn constraint_error(&self, id: ConstraintId) -> Result<f32, ParticleError> {
        let constraint = self
            .constraints
            .get(id)
            .ok_or(invalid(IdKind::Constraint, id))?;
        Ok(self.rows_error(constraint, &self.current_anchors()) as f32)
    }

    /// The largest constraint error at the current state (m).
    pub fn max_constraint_error(&self) -> f32 {
        let anchors = self.current_anchors();
        self.constraints
            .values()
            .map(|c| self.rows_error(c, &anchors))
            .fold(0.0, f64::max) as f32
    }

    /// The anchors where they are now.
    fn current_anchors(&self) -> Vec<AnchorSample> {
        let mut anchors = Vec::new();
        sample_anchors(&self.anchor_states(), 0.0, &mut anchors);
        anchors
    }

    /// `|C|` of a constraint's rows (the Euclidean norm over a pin's two rows).
    fn rows_error(&self, constraint: &Constraint, anchors: &[AnchorSample]) -> f64 {
        let (x, v) = (&self.particles.position, &self.particles.velocity);
        row_templates(&self.particles, constraint)
            .iter()
            .map(|row| row.evaluate(x, v, anchors).c.powi(2))
            .sum::<f64>()
            .sqrt()
    }

    // ----- force fields ----------------------------------------------------------------

    /// Adds a force field acting on every particle.
    pub fn add_force_field(&mut self, field: Box<dyn ForceField>) -> ForceFieldId {
        self.fields.insert(field)
    }

    /// Removes a force field.
    pub fn remove_force_field(&mut self, id: ForceFieldId) -> Result<(), ParticleError> {
        self.fields
            .remove(id)
            .map(|_| ())
            .ok_or(invalid(IdKind::ForceField, id))
    }

    // ----- energy ----------------------------------------------------------------------

    /// Kinetic energy `Σ ½ m v²` of the particles with mass (J).
    pub fn kinetic_energy(&self) -> f64 {
        let p = &self.particles;
        (0..p.len())
            .filter(|&i| p.inverse_mass[i] > 0.0)
            .map(|i| 0.5 * p.velocity[i].as_dvec2().length_squared() / f64::from(p.inverse_mass[i]))
            .sum()
    }

    /// Potential energy of the springs (J).
    pub fn spring_energy(&self) -> f64 {
        let rebuilt;
        let topology = if self.dirty {
            rebuilt = Topology::build(&self.structure());
            &rebuilt
        } else {
            &self.topology
        };
        let anchors = self.current_anchors();
        topology
            .springs
            .iter()
            .map(|s| s.energy(&self.particles.position, &anchors))
            .sum()
    }

    /// Potential energy in gravity, `−Σ m g·x` (J).
    pub fn gravity_energy(&self) -> f64 {
        let p = &self.particles;
        let g = self.def.gravity.as_dvec2();
        (0..p.len())
            .filter(|&i| p.inverse_mass[i] > 0.0)
            .map(|i| -g.dot(p.position[i].as_dvec2()) / f64::from(p.inverse_mass[i]))
            .sum()
    }

    // ----- stepping --------------------------------------------------------------------

    /// The timings and solver figures of the last step.
    pub fn profile(&self) -> ParticleProfile {
        self.profile
    }

    fn structure(&self) -> Structure<'_> {
        Structure {
            particles: &self.particles,
            springs: &self.springs,
            constraints: &self.constraints,
            beads: &self.beads,
        }
    }

    fn anchor_states(&self) -> Vec<AnchorState> {
        let mut states = vec![AnchorState::default(); self.anchors.slot_count()];
        for (id, anchor) in self.anchors.iter() {
            states[id.index() as usize] = anchor.state;
        }
        states
    }

    fn refresh_topology(&mut self) {
        if self.dirty {
            self.topology = Topology::build(&self.structure());
            self.work.eval.global.reset_warm_start();
            self.work.pgs.reset();
            self.dirty = false;
        }
    }

    /// Advances the system by `dt` seconds against the surfaces `collider` reports, and hands
    /// the contact reactions to it. `dt = 0` does nothing.
    pub fn step(
        &mut self,
        dt: f32,
        collider: &mut dyn ParticleCollider,
    ) -> Result<(), ParticleError> {
        non_negative("dt", dt)?;
        if dt == 0.0 {
            return Ok(());
        }
        let start = Instant::now();
        self.refresh_topology();
        let snapshot = (
            self.particles.position.clone(),
            self.particles.velocity.clone(),
            self.beads.clone(),
        );
        let anchors = self.anchor_states();
        self.collide(collider, &anchors, dt);
        let tally = self.run_substeps(&anchors, dt);
        if let Some(diverged) = self.diverged() {
            (self.particles.position, self.particles.velocity, self.beads) = snapshot;
            return Err(ParticleError::Diverged {
                particles: diverged,
            });
        }
        let reaction_start = Instant::now();
        self.work.eval.contacts.apply_reactions(collider);
        for (id, anchor) in self.anchors.iter_mut() {
            anchor.impulse = self.work.eval.anchor_impulse[id.index() as usize].as_vec2();
        }
        self.particles.force.fill(Vec2::ZERO);
        let collide_tail = elapsed_ms(reaction_start);
        self.fill_profile(&tally, &anchors, dt, collide_tail, start);
        Ok(())
    }

    /// Queries the collider for every particle that is not a bead.
    fn collide(&mut self, collider: &dyn ParticleCollider, anchors: &[AnchorState], dt: f32) {
        let start = Instant::now();
        let eval = &mut self.work.eval;
        eval.tally = StepTally::default();
        let inputs = QueryInputs {
            x: &self.particles.position,
            v: &self.particles.velocity,
            skip: &self.topology.is_bead,
            radius: self.def.particle_radius,
            margin: self.def.contact.margin,
            dt,
            gravity: self.def.gravity.length(),
            particle_friction: self.def.contact.friction,
        };
        eval.contacts.gather(collider, &inputs);
        self.work.pgs.begin_step(eval.contacts.len());
        eval.anchor_impulse.clear();
        eval.anchor_impulse.resize(anchors.len(), DVec2::ZERO);
        eval.tally.collide += elapsed_ms(start);
    }

    fn run_substeps(&mut self, anchors: &[AnchorState], dt: f32) -> StepTally {
        let substeps = self.def.substeps;
        let h = dt / substeps as f32;
        let fields: Vec<&dyn ForceField> = self.fields.values().map(|f| f.as_ref()).collect();
        let model = Model {
            def: &self.def,
            topology: &self.topology,
            inverse_mass: &self.particles.inverse_mass,
            external: &self.particles.force,
            fields: &fields,
            anchors,
            beads: &self.beads,
            h,
        };
        let mut u: Vec<f64> = self.beads.iter().map(|b| b.u).collect();
        let mut rate: Vec<f64> = self.beads.iter().map(|b| b.rate).collect();
        let mut state = State {
            x: &mut self.particles.position,
            v: &mut self.particles.velocity,
            u: &mut u,
            rate: &mut rate,
        };
        place_beads(&model, state.x, state.v, state.u, state.rate);
        for k in 0..substeps {
            substep(
                &model,
                &mut self.work,
                &mut state,
                f64::from(k) * f64::from(h),
            );
        }
        for (b, bead) in self.beads.iter_mut().enumerate() {
            bead.u = u[b];
            bead.rate = rate[b];
        }
        self.work.eval.tally
    }

    /// The particles whose state is no longer finite (at most 64), if any.
    fn diverged(&self) -> Option<Vec<ParticleId>> {
        let p = &self.particles;
        let bad: Vec<ParticleId> = (0..p.len())
            .filter(|&i| !(p.position[i].is_finite() && p.velocity[i].is_finite()))
            .take(64)
            .map(|i| p.ids[i])
            .collect();
        let beads_bad = self
            .beads
            .iter()
            .any(|b| !(b.u.is_finite() && b.rate.is_finite()));
        (!bad.is_empty() || beads_bad).then_some(bad)
    }

    fn fill_profile(
        &mut self,
        tally: &StepTally,
        anchors: &[AnchorState],
        dt: f32,
        collide_tail: f32,
        start: Instant,
    ) {
        let eval = &mut self.work.eval;
        let mut samples = Vec::new();
        sample_anchors(anchors, f64::from(dt), &mut samples);
        let (x, v) = (&self.particles.position, &self.particles.velocity);
        let rows = self.topology.rows.len();
        let max_error = (0..rows)
            .map(|r| self.topology.rows[r].evaluate(x, v, &samples).c.abs())
            .fold(0.0, f64::max);
        self.profile = ParticleProfile {
            forces: tally.forces,
            solve: tally.solve,
            implicit: tally.implicit,
            integrate: tally.integrate,
            collide: tally.collide + collide_tail,
            total: elapsed_ms(start),
            cg_solves: tally.constraint.solves,
            cg_iterations: tally.constraint.iterations,
            cg_residual: tally.constraint.max_residual,
            cg_unconverged: tally.constraint.unconverged,
            implicit_iterations: tally.implicit_iterations,
            implicit_residual: tally.implicit_residual,
            pgs_sweeps: tally.pgs_sweeps,
            constraint_rows: rows as u32,
            contacts: eval.contacts.len() as u32,
            active_contacts: tally.constraint.active_contacts,
            max_constraint_error: max_error as f32,
        };
    }
}
