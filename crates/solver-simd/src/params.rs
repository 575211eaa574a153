//! The knobs of one solver step.
//!
//! [`SolverParams`] is a plain value the World fills in from its settings every step. The
//! defaults are Box2D v3's, which are measured good for metre-scale scenes: four substeps of a
//! 60 Hz step, contacts as 30 Hz springs with a damping ratio of 10 (heavily over-damped, so an
//! overlap is pushed out without bouncing), a push-out speed limit of 3 m/s, joints as 60 Hz
//! springs with damping ratio 2, restitution only above 1 m/s of approach speed, and 5 mm of
//! linear slop.
//!
//! The solver never trusts these blindly: `substeps == 0` runs as one substep, and a step with a
//! non-positive or non-finite `dt` moves nothing (see [`crate::solve`]).

use core_soa::Vec2;

/// Which velocity solver runs the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SolverKind {
    /// Catto's soft step: substeps of integrate → warm start → soft solve → integrate
    /// positions → rigid relax, then restitution.
    #[default]
    SoftStep,
    /// The classic sequential-impulse solver: one velocity solve per step with `substeps`
    /// iterations and Baumgarte position feedback, then one position integration.
    SequentialImpulses,
}

/// Parameters of one solver step.
#[derive(Clone, Copy, Debug)]
pub struct SolverParams {
    /// Step length (s).
    pub dt: f32,
    /// Substeps per step (soft step), or velocity iterations (sequential impulses). At least 1.
    pub substeps: u32,
    /// Gravity (m/s²), scaled per body by its gravity scale.
    pub gravity: Vec2,
    /// Contact stiffness (Hz); the solver caps it at a quarter of the substep rate.
    pub contact_hertz: f32,
    /// Contact damping ratio (dimensionless).
    pub contact_damping_ratio: f32,
    /// Largest speed at which the soft contact pushes overlapping bodies apart (m/s).
    pub contact_push_max_speed: f32,
    /// Joint stiffness (Hz).
    pub joint_hertz: f32,
    /// Joint damping ratio; also the damping ratio of the stiffer contact softness used against
    /// static and kinematic bodies.
    pub joint_damping_ratio: f32,
    /// Approach speeds below this (m/s) do not bounce.
    pub restitution_threshold: f32,
    /// Linear speed clamp (m/s).
    pub max_linear_speed: f32,
    /// Overlap the position feedback leaves alone (m).
    pub linear_slop: f32,
    /// Baumgarte factor β of the sequential-impulse solver (fraction of the overlap removed per
    /// step).
    pub baumgarte: f32,
    /// Which solver runs.
    pub kind: SolverKind,
    /// Start each step from the impulses carried over by the contact cache.
    pub enable_warm_starting: bool,
}

impl Default for SolverParams {
    fn default() -> Self {
        SolverParams {
            dt: 1.0 / 60.0,
            substeps: 4,
            gravity: Vec2::new(0.0, -10.0),
            contact_hertz: 30.0,
            contact_damping_ratio: 10.0,
            contact_push_max_speed: 3.0,
            joint_hertz: 60.0,
            joint_damping_ratio: 0.5,
            restitution_threshold: 1.0,
            max_linear_speed: 400.0,
            linear_slop: 0.005,
            baumgarte: 0.2,
            kind: SolverKind::SoftStep,
            enable_warm_starting: true,
        }
    }
}

impl SolverParams {
    /// The number of substeps (soft step) or iterations (sequential impulses) actually run:
    /// `substeps`, but at least one.
    #[inline]
    pub fn substep_count(&self) -> u32 {
        self.substeps.max(1)
    }

    /// True when `dt` describes a step that can be integrated (finite and positive).
    #[inline]
    pub fn has_valid_dt(&self) -> bool {
        self.dt.is_finite() && self.dt > 0.0
    }
}
