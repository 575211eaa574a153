//! # solver-simd — the constraint solver
//!
//! This crate turns the World's touching contacts, joints and awake bodies into one step of
//! motion. Inside, one file per concept:
//!
//! - **softness math** (`softness.rs`): a constraint as an implicitly integrated spring-damper,
//!   reduced to three coefficients (bias rate, mass scale, impulse scale);
//! - **contact constraints**: preparation once per step (`contact_constraint.rs`: anchors,
//!   effective masses, base separation, approach speed) and the velocity passes over them
//!   (`contact_solver.rs`: warm start, soft solve, rigid relax, friction, restitution, impulse
//!   store), with the two normal rows of a two-point manifold solved as one block
//!   (`normal_block.rs`). This scalar path is the reference, and the solver for constraints
//!   that find no graph colour;
//! - **wide contact constraints** (`contact_wide.rs`): the same preparation and passes over
//!   bundles of [`LANES`] contacts of one colour, one per SIMD lane, bit for bit the scalar
//!   results, built on the wide float types (`wide.rs`) and the body transpose and lane access
//!   (`gather_scatter.rs`);
//! - **joints** ([`joint`]): seven kinds of joint constraint and their passes
//!   (`joint_passes.rs`), solved in the same stages as the contacts of their colour, a
//!   colour's hinges [`LANES`] at a time (`joint/revolute_wide.rs`);
//! - **body integration** (`integrate.rs`): gravity, forces, damping, speed clamps, the step's
//!   accumulated displacement, and the final pose;
//! - **the stages** (`stages.rs`): the step as data — the solver kind's list of [`Stage`]s,
//!   expanded per step into entries per graph colour and for the overflow set, each cut into
//!   blocks by the scene's counts alone (`step.rs` runs one block);
//! - **the staged executor** (`executor.rs`): the caller and `workers − 1` tasks offered to
//!   the `workers` crate's helper threads stay with the step from its first stage to its last,
//!   claim the blocks of each entry through per-segment cursors and meet at entry boundaries,
//!   all shared mutable access going through one type (`core_soa::SharedSlice`) whose
//!   soundness rests on the colour invariant (`constraints.rs` checks it);
//! - **the contact order** (`contact_order.rs`): with several workers, each colour's contacts
//!   are bundled in the order of their lower awake body, so that a worker's share of every
//!   colour touches about the same bodies (the order changes no bit of the result);
//! - **two solver kinds** sharing all of the above: the soft step (default) and classic
//!   sequential impulses with Baumgarte feedback (`sequential_impulses.rs`).
//!
//! ```text
//!   constraints by colour ──▶ check ──▶ bundles (8 lanes) per colour, overflow constraints
//!                                                  │
//!   stage list: begin, prepare │ ×N: integrate v, warm start·overflow·c0·c1…, solve·…,
//!               integrate x, relax·… │ restitution·… │ store ──▶ executor (1..N threads, same bits)
//! ```
//!
//! ## The soft step
//!
//! ```text
//!             ┌──────────────────── substep h = dt / N, N times ────────────────────┐
//!   prepare → │ integrate v → warm start → solve (soft, biased) → integrate x → relax │ →
//!             └──────────────────────────────────────────────────────────────────────┘
//!   → restitution → store impulses → finalize bodies (and catch any that blew up)
//! ```
//!
//! The biased solve pushes overlap out with a soft spring (30 Hz, damping ratio 10, at most
//! 3 m/s); the relax pass then solves the same rows rigidly without position feedback, removing
//! the velocity the push-out added so that it does not turn into bounce. Positions are never
//! re-collided inside the step: each contact point's separation is tracked from the bodies'
//! accumulated displacement (`Δp`, `Δq`) with anchors fixed at preparation.
//!
//! ## Interface
//!
//! One entry point: [`ContactSolver::step`] (or its unchecked twin, for a caller whose colouring
//! guarantees the colour invariant) takes [`SolverParams`], the awake bodies ([`AwakeBodies`]:
//! hot `BodyState`s and warm `BodySim`s, parallel) and the step's constraints grouped by graph
//! colour ([`StepConstraints`]): per colour a slice of the caller's persistent contact records
//! — anything that carries a [`SolverContact`], [`ContactRecord`] — and of its joints
//! ([`joint::JointConstraint`]), then the overflow set. Preparation reads the records, each
//! colour is solved wide and in parallel ([`ContactSolver::set_worker_count`]), the overflow set
//! by the scalar path, and the accumulated impulses are written back into the records, where
//! the caller's narrowphase carries them to the next step. Joints are prepared after the step's
//! start pose is recorded, and in every substep warm started, solved and relaxed just before
//! the contacts of their colour (`joint_passes`). Static bodies are not in the arrays: a
//! contact names them with `core_soa::NULL_BODY`. Kinematic bodies are, without the `DYNAMIC`
//! flag; they move with their velocity and contacts never change it. No path fuses multiply-adds
//! and the work partition depends on the scene alone, so a step is a deterministic function of
//! its input, whatever the number of threads.

mod constraints;
mod contact_constraint;
mod contact_order;
mod contact_solver;
mod contact_wide;
mod executor;
mod gather_scatter;
mod integrate;
pub mod joint;
mod joint_passes;
mod normal_block;
mod params;
mod profile;
mod sequential_impulses;
mod snapshot;
mod softness;
mod solver;
mod stages;
mod step;
#[cfg(any(test, feature = "test-support"))]
mod synthetic;
#[cfg(test)]
mod test_rng;
#[cfg(feature = "validate")]
mod validate;
mod wide;

use collision::Manifold;
use core_soa::{BodySim, BodyState};

pub use constraints::{ColorConstraints, ColorError, ContactRecord, StepConstraints};
pub use params::{SolverKind, SolverParams};
pub use profile::SolverProfile;
pub use softness::Softness;
pub use solver::{ContactSolver, SolverCounters};
pub use stages::Stage;
pub use wide::LANES;

/// What benchmarks and tests outside the crate need to drive the solver's parts directly
/// (feature `test-support`): a synthetic wall of boxes, colour ranges for constraints kept in
/// one array, and the wide body transpose.
#[cfg(feature = "test-support")]
pub mod test_support {
    pub use crate::constraints::ColorRanges;
    pub use crate::gather_scatter::{
        BodyStateW, gather, gather_lanewise, scatter, scatter_lanewise,
    };
    pub use crate::synthetic::BoxGrid;
    pub use crate::wide::FloatW;
}

/// The solver's view of one touching contact: what a [`ContactRecord`] carries.
#[derive(Clone, Copy, Debug)]
pub struct SolverContact {
    /// Index into the awake `states`/`sims` arrays, or [`core_soa::NULL_BODY`] (static).
    pub body_a: u32,
    /// Body B's index in the awake arrays, or [`core_soa::NULL_BODY`] (static).
    pub body_b: u32,
    /// Inverse mass and inertia of body A (0 for static/kinematic).
    pub inv_mass_a: f32,
    /// Inverse rotational inertia of body A (1/(kg·m²); 0 for static, kinematic or fixed rotation).
    pub inv_inertia_a: f32,
    /// Inverse mass of body B (1/kg; 0 for static/kinematic).
    pub inv_mass_b: f32,
    /// Inverse rotational inertia of body B (1/(kg·m²)).
    pub inv_inertia_b: f32,
    /// Friction coefficient of the pair, already mixed from the two shapes.
    pub friction: f32,
    /// Restitution coefficient of the pair, already mixed from the two shapes.
    pub restitution: f32,
    /// The manifold with anchors relative to each body's centre of mass, the separations from
    /// the narrowphase, and the accumulated impulses carried over from the last step (0 for new
    /// points). After a step the solver has written back `normal_impulse`, `tangent_impulse`,
    /// `max_normal_impulse` and `normal_velocity`.
    pub manifold: Manifold,
}

/// The awake bodies: `states[i]` and `sims[i]` describe the same body. Static bodies are not in
/// these arrays (constraints refer to them with `NULL_BODY`); kinematic bodies are, with zero
/// inverse mass and without the `DYNAMIC` flag.
pub struct AwakeBodies<'a> {
    /// Hot state of each awake body (velocities, pose deltas), written by the step.
    pub states: &'a mut [BodyState],
    /// Solver data of each awake body (pose, mass, damping), parallel to `states`.
    pub sims: &'a mut [BodySim],
}
