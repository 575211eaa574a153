//! Per-step timings and solver figures of a particle system.
//!
//! Measured on every step with `std::time::Instant` (a few clock reads per substep). The five
//! phases add up to nearly all of `total`; the rest is bookkeeping (topology rebuild, state
//! snapshot, divergence check). The World copies these into its own step profile and opens a
//! profiler zone around the whole particle step.

use std::time::Instant;

/// What the last step did and how long each phase took.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ParticleProfile {
    /// Applied forces: gravity, drag, springs, fields (ms).
    pub forces: f32,
    /// Constraint solves: global CG or PGS sweeps (ms).
    pub solve: f32,
    /// The implicit integrator's spring solve (ms).
    pub implicit: f32,
    /// State updates of the integrator, beads included (ms).
    pub integrate: f32,
    /// Contact queries, friction, and the reaction impulses handed to the collider (ms).
    pub collide: f32,
    /// The whole step (ms).
    pub total: f32,
    /// Conjugate-gradient solves of the constraint system in the step.
    pub cg_solves: u32,
    /// Their iterations, summed.
    pub cg_iterations: u32,
    /// The largest final relative residual `|b − Aλ|/|b|` among them.
    pub cg_residual: f64,
    /// How many stopped at the iteration cap before reaching the tolerance.
    pub cg_unconverged: u32,
    /// Iterations of the implicit integrator's spring solves, summed.
    pub implicit_iterations: u32,
    /// The largest final relative residual among them.
    pub implicit_residual: f64,
    /// PGS sweeps over all substeps (velocity sweeps plus position sweeps).
    pub pgs_sweeps: u32,
    /// Constraint rows (a pin counts two).
    pub constraint_rows: u32,
    /// Contacts found by the collide phase.
    pub contacts: u32,
    /// Contacts that pushed in the last solve (global path).
    pub active_contacts: u32,
    /// Largest `|C|` over the constraint rows at the end of the step (m).
    pub max_constraint_error: f32,
}

/// Milliseconds since `start`.
pub(crate) fn elapsed_ms(start: Instant) -> f32 {
    (start.elapsed().as_secs_f64() * 1000.0) as f32
}
