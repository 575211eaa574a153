//! # particles — particle systems, cloth and implicit constraints with a global solve
//!
//! A second way to hold things together besides the rigid solver's sequential impulses:
//! particles moved by forces, held by *implicit constraints* `C(x) = 0` whose forces are
//! found all at once from one linear system (Witkin, "Constrained dynamics", and Witkin and
//! Baraff, "Physically based modeling"). A [`ParticleSystem`] owns particles, forces,
//! constraints, beads on curves and anchors; [`ParticleSystem::step`] advances it against the
//! surfaces a [`ParticleCollider`] reports and hands the reaction impulses back, so a World
//! can own any number of systems and couple them to its bodies.
//!
//! ## The step
//!
//! ```text
//!   collide     query the collider for the surfaces near every particle (parallel)
//!   per substep:
//!     forces    gravity, drag, springs, user forces and fields → Q          (force.rs)
//!     solve     constraint forces or impulses: global CG or PGS            (global.rs, pgs.rs)
//!               implicit spring solve for ImplicitEuler                     (implicit.rs)
//!     integrate the chosen integrator; beads along their curves             (step.rs)
//!     friction  Coulomb, with the substep's normal impulses                 (contact.rs)
//!   reactions   contact impulses to the collider's bodies, anchor impulses
//! ```
//!
//! Every phase is timed into a [`ParticleProfile`] with the solver's figures (CG iterations and
//! residual, PGS sweeps, rows, contacts, the largest constraint error), for the World's step
//! profile and profiler zones. A step whose state stops being finite is rolled back and
//! reported ([`ParticleError::Diverged`]).
//!
//! ## Data
//!
//! Particles are structure of arrays — position, velocity, inverse mass, force accumulator —
//! in dense arrays, named by generational [`ParticleId`]s through core-soa's `Arena`, and
//! swap-removed on destruction (`storage.rs`). Springs, constraints, anchors and force fields
//! live in arenas of their own; a *topology* resolves their ids to dense indices and builds
//! the incidence lists every parallel pass gathers through, once per structural change
//! (`topology.rs`). Bad input returns a [`ParticleError`] naming the field and value, before
//! anything changes.
//!
//! ## Implicit constraints: where `J W Jᵀ λ` comes from
//!
//! Stack the positions in `q`, the applied forces in `Q`, the inverse masses in the diagonal
//! `W`; the constraints are `C(q) = 0` with Jacobian `J = ∂C/∂q`. The constraint force `Q̂`
//! must keep the state legal. If position and velocity are legal (`C = 0`, `Ċ = J q̇ = 0`),
//! it suffices that the acceleration is: `C̈ = J̇ q̇ + J q̈ = 0` with `q̈ = W (Q + Q̂)`. That is
//! `m` equations for `2n` unknowns; the principle of virtual work closes them — the
//! constraint force must do no work on any legal velocity, `Q̂ · q̇ = 0` for all `q̇` with
//! `J q̇ = 0`, so `Q̂` lies in the row space of `J`: `Q̂ = Jᵀ λ`. Substituting,
//!
//! ```text
//!   J W Jᵀ λ = −J̇ q̇ − J W Q
//! ```
//!
//! `m` equations for the `m` Lagrange multipliers. Numerical drift and initially violated
//! constraints make `C` and `Ċ` non-zero anyway, so instead of `C̈ = 0` the solve asks for
//! `C̈ = −k_s C − k_d Ċ`, a damped spring pulling the error back (*feedback*):
//!
//! ```text
//!   J W Jᵀ λ = −J̇ q̇ − J W Q − k_s C − k_d Ċ,        Q̂ = Jᵀ λ
//! ```
//!
//! Each constraint evaluates its own `C`, blocks of `J` and `J̇ q̇` (`constraint.rs`: rods,
//! pins to points and to moving anchors, beads on circles and lines, and
//! [`CustomConstraint`]s); a row touches one or two particles, so `J` is block-sparse and never
//! stored as a matrix. `J W Jᵀ` is symmetric positive semi-definite; the solve is conjugate
//! gradient with a Jacobi (or SSOR) preconditioner, its product `J W Jᵀ p` computed by two
//! gathers (per particle `Jᵀ p`, per row `J W (Jᵀ p)`), in parallel over fixed chunks with
//! ordered reductions, so the result is bitwise the same for any number of threads
//! (`global.rs`, `cg.rs`, `parallel.rs`). A proximal term `εD (λ − λ⁻)` keeps the system
//! solvable when rows are redundant or degenerate (a folded cloth) and vanishes at rest.
//!
//! The same matrix also gives the impulse that makes an end-of-step velocity legal, the
//! *velocity form* `J W Jᵀ λ = −β C − J v*` (`v*` the velocity after the applied forces, `β` the
//! position-correction rate that corresponds to the feedback gains).
//!
//! ### Feedback gains
//!
//! The defaults make the error oscillator `C̈ + k_d Ċ + k_s C = 0` critically damped at 5 Hz
//! (`k_s ≈ 987 s⁻²`, `k_d ≈ 62.8 s⁻¹`): fast enough to remove drift in about two steps at
//! 60 Hz, slow enough that symplectic Euler integrates the error oscillator stably with a
//! margin (`h ω = 0.52` against a limit of 0.83); longer steps cap `ω` at `0.5/h`. The velocity
//! forms read the same gains as a soft constraint, `β = ω/(2ζ + hω) ≈ 12.4 s⁻¹` at 60 Hz
//! (Catto's soft step), about a fifth of the error per step (`settings.rs`).
//!
//! ## Parametric constraints
//!
//! The notes' second method, a bead described by its curve's own coordinate `u`
//! (`x = x(u)`), meets its constraint exactly and needs no feedback: `ü` follows from
//! projecting Newton's law on the tangent (`parametric.rs`). Circles and lines are provided.
//! A bead feels every force but takes no implicit constraint and does not collide.
//!
//! ## Integrators, and which to choose
//!
//! * **Symplectic Euler** (default) solves the velocity form: one solve per substep, and energy
//!   that oscillates without drifting (0.1% over 10 s on a free spring triangle at 240 Hz,
//!   against +5.8% for explicit Euler). Witkin's acceleration form is available with it
//!   ([`ConstraintLevel::Acceleration`]) but extrapolates every link's turn with `J̇ q̇`; when a
//!   link turns by a radian or more per step (the free end of a whipping chain), the
//!   extrapolation shortens the link it should keep, which raises `J̇ q̇` further, and the
//!   step diverges. The velocity form only loses accuracy there.
//! * **Explicit Euler, midpoint, RK4** evaluate derivatives, so they solve the acceleration
//!   form at every stage (four solves per RK4 step). RK4 is the accurate choice for smooth
//!   motion: a bead on a unit wire stays within 2.4e-5 m of it over 10 s at 60 Hz and swings
//!   with the exact pendulum period to 3e-5 relative, where symplectic Euler drifts 1.3 cm.
//!   Explicit Euler gains energy and is there for comparison.
//! * **Implicit Euler** (Baraff and Witkin, "Large steps in cloth simulation") solves the
//!   linearised backward-Euler system of the springs by CG, then projects onto the
//!   constraints: a 32 × 32 cloth of 500 N/m springs on 2 g particles (`k h²/m ≈ 69` at 60 Hz)
//!   settles in 5 s; with symplectic Euler it blows up within a second.
//!
//! ## Which constraint solver
//!
//! * **Global CG** carries a load through the whole system in one solve. On a pinned chain
//!   of 20 rods it holds the total length to 0.06% after 10 s of swinging, where PGS at 16
//!   sweeps is off by 1.5% and at 4 sweeps by 11%. Its cost is iterations: Jacobi-preconditioned
//!   CG needs about `√κ` of them and `κ` grows with the square of a net's size, so a 32 × 32
//!   cloth needs a few hundred per solve to converge; warm starting from the last step's
//!   multipliers makes resting scenes cheap.
//! * **PGS** (`pgs.rs`) sweeps the rows one at a time — rigid velocity rows warm-started from
//!   the last substep, then the same number of nonlinear Gauss–Seidel sweeps on the positions
//!   — in parallel by colour. A sweep is cheap and the result degrades gracefully when stopped
//!   early, but load travels one link per sweep. [`scenes::compare_solvers`] runs both on the
//!   benchmark cloth at equal solve time: on a 24 × 24 cloth CG ends with a largest rod error
//!   of 2e-5 m against PGS's 1e-3 m; on the 128 × 128 cloth, CG capped at 50 iterations per
//!   solve no longer converges and lets rods stretch by up to 0.2 m, where PGS (about 120
//!   sweeps in the same time) keeps them within 5 mm. The global solve wins while CG
//!   converges, and its iteration count grows with the size of the net.
//! * **Stiff springs with the implicit integrator** instead of constraints when the material
//!   should stretch a little and must never explode: one well-conditioned CG per step.
//!
//! ## Contacts and coupling
//!
//! The world is a [`ParticleCollider`]: queried once per step for contact planes within each
//! particle's reach, told at the end of the step the opposite of every impulse its contacts
//! gave the particles (two-way coupling; momentum of cloth plus box is conserved to 1e-6 in
//! the tests). Contacts are push-only rows — an active set in the global solve, clamped rows in
//! PGS — with speculative gaps and Coulomb friction (`contact.rs`). Anchors are points the
//! owner moves each step; pins and springs hold particles to them and their reaction impulse
//! is read back with [`ParticleSystem::anchor_impulse`]. [`test_collider::TestCollider`] is a
//! small world of planes, boxes, circles and dynamic boxes for the tests and the benchmark
//! scene (`scenes.rs`).
//!
//! ## Limits of a velocity step
//!
//! A rod under tension `T` resists sideways motion like a spring of `T/L`; a velocity step
//! treats that explicitly and is stable only while `h² T/(m L)` stays below about 4. A net
//! hanging from two corners exceeds it at 60 Hz; substeps fix it exactly, and the optional
//! geometric-stiffness mass (`geometric.rs`) fixes it in one step at the price of momentum
//! conservation where it acts. Particles do not collide with each other, and a body is
//! infinitely heavy during the particle step (it responds between steps).

#![warn(missing_docs)]

mod anchor;
mod cg;
mod cloth;
mod constraint;
mod contact;
mod error;
mod force;
mod geometric;
mod global;
mod ids;
mod implicit;
mod parallel;
mod parametric;
mod pgs;
mod precondition;
mod profile;
pub mod scenes;
mod settings;
mod step;
mod storage;
mod system;
pub mod test_collider;
mod topology;

pub use anchor::AnchorState;
pub use cg::CgSettings;
pub use cloth::{Cloth, ClothDef, Link};
pub use constraint::{ConstraintDef, CustomConstraint, CustomRow};
pub use contact::{BodyHandle, NoCollider, ParticleCollider, ParticleContact};
pub use core_soa::Vec2;
pub use error::{IdKind, ParticleError};
pub use force::{ForceField, SpringDef, SpringEnd};
pub use ids::{AnchorId, ConstraintId, ForceFieldId, ParticleId, SpringId};
pub use parametric::{BeadDef, Curve};
pub use precondition::Preconditioner;
pub use profile::ParticleProfile;
pub use settings::{
    ConstraintLevel, ConstraintSolver, ContactSettings, Feedback, Integrator, PgsSettings,
    SystemDef,
};
pub use storage::ParticleDef;
pub use system::ParticleSystem;
