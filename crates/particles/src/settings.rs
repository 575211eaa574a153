//! The settings of a particle system: integrator, constraint solver, feedback, contacts.
//!
//! ## Feedback gains
//!
//! The global solve asks every constraint for `C̈ = −k_s C − k_d Ċ` instead of `C̈ = 0`
//! (Witkin, "Constrained dynamics"), so numerical drift and an initially violated constraint
//! decay like a damped oscillator `C̈ + k_d Ċ + k_s C = 0`. The defaults make that oscillator
//! critically damped at 5 Hz: `ω = 2π·5`, `k_s = ω² ≈ 987 s⁻²`, `k_d = 2ω ≈ 62.8 s⁻¹`.
//!
//! * Critical damping (`k_d² = 4 k_s`) is the fastest return without overshoot.
//! * Symplectic Euler integrates the error oscillator `(C, Ċ)` with the step matrix
//!   `[[1 − h²k_s, h(1 − h k_d)], [−h k_s, 1 − h k_d]]`, whose determinant is `1 − h k_d` and
//!   trace `2 − h²k_s − h k_d`. It is stable when `0 < h k_d < 2` and `h²k_s < 4 − 2h k_d`;
//!   with `k_d = 2ω` both hold while `hω < 2(√2 − 1) ≈ 0.83`. At 60 Hz that allows up to
//!   7.9 Hz; 5 Hz (`hω = 0.52`) keeps a margin. Explicit Euler, midpoint and RK4 are stable
//!   further out.
//! * Drift is removed in about `1/ω = 32 ms`, two steps at 60 Hz and an order of magnitude
//!   faster than the motions these systems show (a 1 m pendulum swings at 0.5 Hz).
//!
//! Because the stability bound scales with `h`, the gains actually used for a step of `h`
//! seconds are capped at `hω ≤ 0.5` with the damping ratio kept
//! ([`Feedback::effective`]); a user who steps at 30 Hz gets 2.4 Hz feedback instead of a
//! diverging one. The velocity-level solvers (the implicit integrator's projection and PGS)
//! read the same two numbers as a soft constraint of frequency `ω/2π` and damping ratio
//! `ζ = k_d / (2√k_s)` (Catto's soft step).

use crate::cg::CgSettings;
use crate::error::{ParticleError, finite, finite_vec, non_negative, positive};
use crate::precondition::Preconditioner;
use core_soa::Vec2;
use solver_simd::Softness;

/// How the state is advanced over one (sub)step. See the crate essay for when to use which.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Integrator {
    /// `v += h a(x, v); x += h v` — first order, symplectic: energy oscillates but does not
    /// drift. The default, as in the rigid-body solver.
    #[default]
    SymplecticEuler,
    /// `x += h v; v += h a(x, v)` — first order, gains energy every step (for comparison).
    ExplicitEuler,
    /// Second-order Runge–Kutta: one derivative at the start, one at the midpoint.
    Midpoint,
    /// Classical fourth-order Runge–Kutta: four derivative evaluations per step.
    Rk4,
    /// Linearised backward Euler for springs and drag (Baraff and Witkin, "Large steps in cloth
    /// simulation"), followed by a velocity-level projection onto the constraints.
    ImplicitEuler,
}

/// How the constraint forces are found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ConstraintSolver {
    /// All constraints at once: `J W Jᵀ λ = rhs` by preconditioned conjugate gradient.
    #[default]
    Global,
    /// One constraint at a time, projected Gauss–Seidel on velocities with split impulses.
    Pgs,
}

/// Which right-hand side symplectic Euler's global solve uses.
///
/// The explicit integrators (explicit Euler, midpoint, RK4) evaluate derivatives, so they
/// always solve the acceleration form; the implicit integrator always projects velocities.
/// Symplectic Euler can do either; see the crate essay for why the velocity form is the
/// default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ConstraintLevel {
    /// `J W Jᵀ λ = −β C − J v*` for the impulse that makes the new velocity legal.
    #[default]
    Velocity,
    /// `J W Jᵀ λ = −J̇ q̇ − J W Q − k_s C − k_d Ċ` for the constraint force (Witkin).
    Acceleration,
}

/// Settings of the projected Gauss–Seidel path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PgsSettings {
    /// Sweeps per substep: this many over the velocities, then as many over the positions.
    pub iterations: u32,
    /// Start each substep from the previous substep's multipliers.
    pub warm_start: bool,
}

impl Default for PgsSettings {
    fn default() -> Self {
        PgsSettings {
            iterations: 8,
            warm_start: true,
        }
    }
}

/// Constraint feedback: the gains of `C̈ = −k_s C − k_d Ċ` (see the module essay).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Feedback {
    /// `k_s`, in 1/s².
    pub stiffness: f32,
    /// `k_d`, in 1/s.
    pub damping: f32,
}

impl Default for Feedback {
    /// Critically damped at 5 Hz.
    fn default() -> Self {
        Feedback::critically_damped(5.0)
    }
}

impl Feedback {
    /// `k_s = ω²`, `k_d = 2ω` for `ω = 2π·hertz`.
    pub fn critically_damped(hertz: f32) -> Feedback {
        let omega = 2.0 * std::f32::consts::PI * hertz;
        Feedback {
            stiffness: omega * omega,
            damping: 2.0 * omega,
        }
    }

    /// The natural frequency `ω = √k_s` (rad/s) and damping ratio `ζ = k_d/(2ω)`.
    pub fn omega_zeta(self) -> (f32, f32) {
        let omega = self.stiffness.sqrt();
        let zeta = if omega > 0.0 {
            self.damping / (2.0 * omega)
        } else {
            0.0
        };
        (omega, zeta)
    }

    /// The gains `(k_s, k_d)` used for a step of `h` seconds: `ω` capped at `0.5/h`, the damping
    /// ratio kept (a pure damper, `k_s = 0`, has `k_d` capped at `1/h`).
    pub fn effective(self, h: f32) -> (f64, f64) {
        let (omega, zeta) = self.omega_zeta();
        if omega == 0.0 {
            return (0.0, f64::from(self.damping.min(1.0 / h)));
        }
        let omega = f64::from(omega.min(0.5 / h));
        (omega * omega, 2.0 * f64::from(zeta) * omega)
    }

    /// The same spring-damper as a soft constraint over `h` (velocity-level solvers).
    pub(crate) fn softness(self, h: f32) -> Softness {
        let (ks, kd) = self.effective(h);
        let omega = ks.sqrt();
        if omega == 0.0 {
            return Softness::new(0.0, 0.0, h);
        }
        let hertz = (omega / (2.0 * std::f64::consts::PI)) as f32;
        Softness::new(hertz, (kd / (2.0 * omega)) as f32, h)
    }
}

/// How particles meet the world's surfaces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactSettings {
    /// The particles' Coulomb friction coefficient, mixed with each surface's as `√(μ_p μ_s)`.
    pub friction: f32,
    /// Stiffness of the push-out of overlapping particles (Hz), as Prism's contacts.
    pub hertz: f32,
    /// Damping ratio of the push-out.
    pub damping_ratio: f32,
    /// The largest speed (m/s) at which overlapping particles are pushed out.
    pub max_push_velocity: f32,
    /// Extra distance (m) beyond the radius and the step's travel within which surfaces are
    /// reported as speculative contacts.
    pub margin: f32,
}

impl Default for ContactSettings {
    fn default() -> Self {
        ContactSettings {
            friction: 0.6,
            hertz: 30.0,
            damping_ratio: 10.0,
            max_push_velocity: 3.0,
            margin: 0.01,
        }
    }
}

/// Everything a [`crate::ParticleSystem`] is created with (see each field).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SystemDef {
    /// Acceleration of gravity (m/s²), applied to every particle with mass.
    pub gravity: Vec2,
    /// Viscous drag coefficient `c` (N·s/m): every particle feels `−c v`.
    pub drag: f32,
    /// Collision radius of every particle of the system (m).
    pub particle_radius: f32,
    /// The integrator.
    pub integrator: Integrator,
    /// The constraint solver.
    pub solver: ConstraintSolver,
    /// The global solve's form under symplectic Euler.
    pub symplectic_level: ConstraintLevel,
    /// Conjugate gradient for the constraint system.
    pub cg: CgSettings,
    /// Its preconditioner.
    pub preconditioner: Preconditioner,
    /// Conjugate gradient for the implicit integrator's spring system.
    pub implicit_cg: CgSettings,
    /// The PGS path's sweeps.
    pub pgs: PgsSettings,
    /// Constraint feedback gains.
    pub feedback: Feedback,
    /// Proximal regularisation `ε`: the global system is
    /// `(J W Jᵀ + εD) λ = b + εD λ⁻` with `D = diag(J W Jᵀ)` and `λ⁻` the last multipliers,
    /// which keeps it well conditioned when constraints are redundant or degenerate (a folded
    /// cloth) and is exact at rest. It also slows the change of the multipliers whose
    /// eigenvalue is below `εD`: the default 1e-5 lets a folded 16 × 16 cloth come to rest on
    /// a box, where 1e-4 already holds back the smooth tension modes of a 32 × 32 net hanging
    /// from two corners and it does not settle.
    pub regularization: f32,
    /// Contact behaviour.
    pub contact: ContactSettings,
    /// Substeps per step (the step's `dt` is split evenly).
    pub substeps: u32,
    /// Rounds of the global solve's contact active set (each is one CG solve).
    pub active_set_passes: u32,
    /// Raise the mass of particles whose rods' tension the step cannot resolve, in the
    /// velocity update of the symplectic and implicit steps. Stabilises tight nets at one
    /// substep, at the price of exact momentum conservation where it acts (`geometric.rs`).
    pub geometric_stiffness: bool,
}

impl Default for SystemDef {
    fn default() -> Self {
        SystemDef {
            gravity: Vec2::new(0.0, -10.0),
            drag: 0.0,
            particle_radius: 0.01,
            integrator: Integrator::SymplecticEuler,
            solver: ConstraintSolver::Global,
            symplectic_level: ConstraintLevel::Velocity,
            cg: CgSettings::default(),
            preconditioner: Preconditioner::default(),
            implicit_cg: CgSettings::default(),
            pgs: PgsSettings::default(),
            feedback: Feedback::default(),
            regularization: 1.0e-5,
            contact: ContactSettings::default(),
            substeps: 1,
            active_set_passes: 4,
            geometric_stiffness: false,
        }
    }
}

impl SystemDef {
    /// Checks every field; the first bad one is returned by name.
    pub fn validate(&self) -> Result<(), ParticleError> {
        finite_vec("SystemDef::gravity", self.gravity)?;
        non_negative("SystemDef::drag", self.drag)?;
        positive("SystemDef::particle_radius", self.particle_radius)?;
        validate_cg(
            "SystemDef::cg::max_iterations",
            "SystemDef::cg::tolerance",
            self.cg,
        )?;
        validate_cg(
            "SystemDef::implicit_cg::max_iterations",
            "SystemDef::implicit_cg::tolerance",
            self.implicit_cg,
        )?;
        count(
            "SystemDef::pgs::iterations",
            self.pgs.iterations,
            1..=10_000,
            "between 1 and 10000",
        )?;
        non_negative("SystemDef::feedback::stiffness", self.feedback.stiffness)?;
        non_negative("SystemDef::feedback::damping", self.feedback.damping)?;
        non_negative("SystemDef::regularization", self.regularization)?;
        if let Preconditioner::Ssor { relaxation } = self.preconditioner {
            finite("SystemDef::preconditioner::relaxation", relaxation)?;
            if !(relaxation > 0.0 && relaxation < 2.0) {
                return Err(ParticleError::OutOfRange {
                    field: "SystemDef::preconditioner::relaxation",
                    value: relaxation,
                    requirement: "between 0 and 2 (exclusive)",
                });
            }
        }
        non_negative("SystemDef::contact::friction", self.contact.friction)?;
        positive("SystemDef::contact::hertz", self.contact.hertz)?;
        non_negative(
            "SystemDef::contact::damping_ratio",
            self.contact.damping_ratio,
        )?;
        non_negative(
            "SystemDef::contact::max_push_velocity",
            self.contact.max_push_velocity,
        )?;
        non_negative("SystemDef::contact::margin", self.contact.margin)?;
        count(
            "SystemDef::substeps",
            self.substeps,
            1..=1000,
            "between 1 and 1000",
        )?;
        count(
            "SystemDef::active_set_passes",
            self.active_set_passes,
            1..=100,
            "between 1 and 100",
        )?;
        let velocity_level = matches!(
            self.integrator,
            Integrator::SymplecticEuler | Integrator::ImplicitEuler
        );
        if self.solver == ConstraintSolver::Pgs && !velocity_level {
            return Err(ParticleError::IncompatibleSettings {
                field: "SystemDef::solver",
                reason: format!(
                    "Pgs works on velocities and needs the SymplecticEuler or ImplicitEuler \
                     integrator, got {:?}",
                    self.integrator
                ),
            });
        }
        Ok(())
    }
}

fn validate_cg(
    iterations_field: &'static str,
    tolerance_field: &'static str,
    settings: CgSettings,
) -> Result<(), ParticleError> {
    count(
        iterations_field,
        settings.max_iterations,
        1..=100_000,
        "between 1 and 100000",
    )?;
    let tolerance = settings.tolerance as f32;
    finite(tolerance_field, tolerance)?;
    if !(settings.tolerance > 0.0 && settings.tolerance < 1.0) {
        return Err(ParticleError::OutOfRange {
            field: tolerance_field,
            value: tolerance,
            requirement: "between 0 and 1 (exclusive)",
        });
    }
    Ok(())
}

/// `Ok` if `value` lies in `range`, else [`ParticleError::InvalidCount`] with `requirement`.
fn count(
    field: &'static str,
    value: u32,
    range: std::ops::RangeInclusive<u32>,
    requirement: &'static str,
) -> Result<(), ParticleError> {
    if range.contains(&value) {
        return Ok(());
    }
    Err(ParticleError::InvalidCount {
        field,
        value,
        requirement,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_feedback_is_critically_damped_5_hz_and_stable_for_symplectic_euler_at_60_hz() {
        let feedback = Feedback::default();
        let (omega, zeta) = feedback.omega_zeta();
        assert!((omega - 2.0 * std::f32::consts::PI * 5.0).abs() < 1e-3);
        assert!((zeta - 1.0).abs() < 1e-6);
        // The error oscillator under symplectic Euler: spectral radius of its step matrix.
        let h = 1.0 / 60.0;
        let (ks, kd) = feedback.effective(h as f32);
        let trace = 2.0 - h * h * ks - h * kd;
        let det = 1.0 - h * kd;
        let disc = trace * trace - 4.0 * det;
        let radius = if disc < 0.0 {
            det.sqrt()
        } else {
            ((trace.abs() + disc.sqrt()) / 2.0).max(((trace.abs() - disc.sqrt()) / 2.0).abs())
        };
        assert!(radius < 0.9, "spectral radius {radius}");
    }

    #[test]
    fn effective_gains_are_capped_for_long_steps_and_keep_the_ratio() {
        let feedback = Feedback::critically_damped(50.0);
        let (ks, kd) = feedback.effective(0.02);
        assert!((ks.sqrt() * 0.02 - 0.5).abs() < 1e-6);
        assert!((kd / (2.0 * ks.sqrt()) - 1.0).abs() < 1e-6);
        let (ks, kd) = Feedback::default().effective(1.0 / 600.0);
        assert!((ks - f64::from(Feedback::default().stiffness)).abs() < 1e-3);
        assert!((kd - f64::from(Feedback::default().damping)).abs() < 1e-4);
    }

    #[test]
    fn bad_fields_are_named() {
        let def = SystemDef {
            particle_radius: -1.0,
            ..SystemDef::default()
        };
        assert_eq!(
            def.validate(),
            Err(ParticleError::OutOfRange {
                field: "SystemDef::particle_radius",
                value: -1.0,
                requirement: "greater than 0",
            })
        );
        let def = SystemDef {
            integrator: Integrator::Rk4,
            solver: ConstraintSolver::Pgs,
            ..SystemDef::default()
        };
        assert!(matches!(
            def.validate(),
            Err(ParticleError::IncompatibleSettings {
                field: "SystemDef::solver",
                ..
            })
        ));
        let def = SystemDef {
            substeps: 0,
            ..SystemDef::default()
        };
        assert!(matches!(
            def.validate(),
            Err(ParticleError::InvalidCount {
                field: "SystemDef::substeps",
                value: 0,
                ..
            })
        ));
        assert_eq!(SystemDef::default().validate(), Ok(()));
    }
}
