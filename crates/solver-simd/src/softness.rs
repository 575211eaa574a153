//! Soft constraints: a stiff spring-damper solved implicitly, expressed as three numbers.
//!
//! A rigid constraint asks the solver to make its velocity error vanish in one iteration, and to
//! remove its position error by a bias velocity whose gain is a hand-tuned Baumgarte factor. The
//! soft step instead treats the constraint as a spring of frequency `hertz` and damping ratio
//! `ζ` on the constraint's effective mass, and integrates that spring *implicitly* over the
//! substep `h`. The result is unconditionally stable, has physical units, and collapses into the
//! same impulse formula as the rigid solver with three coefficients.
//!
//! ## Derivation
//!
//! Let the constraint have effective mass `m`, position error `C` and velocity `v = Ċ`. A
//! spring-damper of stiffness `k` and damping `c` on it, with `ω = 2π·hertz`, has
//! `k = m·ω²` and `c = 2·m·ζ·ω`. Implicit Euler over `h` with the impulse `λ`:
//!
//! ```text
//!   m·(v₂ − v₁) = λ = −h·(k·C₂ + c·v₂),        C₂ ≈ C₁ + h·v₂
//!   λ = −h·k·C₁ − h·(h·k + c)·v₂,              v₂ = v₁ + λ/m
//!   λ·(1 + h·(h·k + c)/m) = −h·k·C₁ − h·(h·k + c)·v₁
//! ```
//!
//! With `h·(h·k + c)/m = h·ω·(h·ω + 2ζ)`, name `a1 = 2ζ + h·ω` and `a2 = h·ω·a1`:
//!
//! ```text
//!   λ·(1 + a2) = −m·(a2·v₁ + h·ω²·C₁)
//!   λ = −m · a2/(1 + a2) · (v₁ + (h·ω²/a2)·C₁)
//!     = −m · mass_scale · (v₁ + bias_rate·C₁)
//!   mass_scale = a2/(1 + a2) = a2·a3,   a3 = 1/(1 + a2),   bias_rate = h·ω²/(h·ω·a1) = ω/a1
//! ```
//!
//! An iterative solver applies this in pieces. After earlier iterations have applied the
//! accumulated impulse `Λ`, the current velocity is `v = v₁ + Λ/m`; substituting `v₁` gives the
//! increment
//!
//! ```text
//!   Δλ = −m·mass_scale·(v + bias_rate·C) + mass_scale·Λ − Λ
//!      = −m·mass_scale·(v + bias_rate·C) − impulse_scale·Λ,   impulse_scale = 1 − mass_scale = a3
//! ```
//!
//! so `mass_scale + impulse_scale = 1` exactly. Limits: `hertz → ∞` gives `mass_scale → 1`,
//! `impulse_scale → 0` and `bias_rate → 1/h` (a rigid constraint with full position
//! correction); `hertz = 0` gives `mass_scale = 0`, `impulse_scale = 1` (the constraint does
//! nothing and the accumulated impulse is cancelled).
//!
//! An implicitly integrated spring is stable for any `h`, but its stiffness is only *resolved*
//! when `h` is small against its period; the contact solver therefore caps the contact
//! frequency at a quarter of the substep rate ([`contact_hertz_for_substep`]).

/// The three coefficients of a soft constraint over one substep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Softness {
    /// Position error to bias velocity (1/s): `ω / (2ζ + h·ω)`.
    pub bias_rate: f32,
    /// Fraction of the rigid impulse to apply: `a2 / (1 + a2)`.
    pub mass_scale: f32,
    /// Fraction of the accumulated impulse to take back each iteration: `1 / (1 + a2)`.
    pub impulse_scale: f32,
}

impl Default for Softness {
    fn default() -> Self {
        Softness::RIGID
    }
}

impl Softness {
    /// A rigid constraint: full impulse, no relaxation, no position bias.
    pub const RIGID: Softness = Softness {
        bias_rate: 0.0,
        mass_scale: 1.0,
        impulse_scale: 0.0,
    };

    /// The softness of a spring of `hertz` and damping ratio `zeta` integrated over `h` seconds.
    /// A zero frequency gives a constraint that applies nothing.
    pub fn new(hertz: f32, zeta: f32, h: f32) -> Softness {
        if hertz <= 0.0 {
            return Softness {
                bias_rate: 0.0,
                mass_scale: 0.0,
                impulse_scale: 1.0,
            };
        }
        let omega = 2.0 * std::f32::consts::PI * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Softness {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }
}

/// The contact frequency actually used for a substep of `h` seconds: `requested_hertz`, capped at
/// a quarter of the substep rate so that the spring's period spans at least four substeps.
///
/// Box2D v3 caps contacts at an eighth of the substep rate. At the default four substeps both
/// caps leave 30 Hz alone; with fewer substeps the eighth makes contacts softer than asked:
/// measured on columns of unit boxes at one substep per 60 Hz step, a 20-box column sinks
/// 2.17 m and leans 15 cm with the eighth, 0.54 m and 7 mm with the quarter, and a 30-box
/// column falls with the eighth and stands with the quarter.
pub fn contact_hertz_for_substep(requested_hertz: f32, h: f32) -> f32 {
    requested_hertz.min(0.25 / h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_sum_to_one() {
        for &(hz, zeta, h) in &[
            (30.0, 10.0, 1.0 / 240.0),
            (60.0, 2.0, 1.0 / 60.0),
            (5.0, 0.7, 0.01),
        ] {
            let s = Softness::new(hz, zeta, h);
            assert!((s.mass_scale + s.impulse_scale - 1.0).abs() < 1e-6, "{s:?}");
        }
    }

    #[test]
    fn known_values_30hz_zeta10_240hz_substep() {
        // ω = 60π = 188.49556; hω = π/4 = 0.78539816; a1 = 20.785398; a2 = hω·a1 = 16.324649;
        // a3 = 1/17.324649 = 0.0577207; bias_rate = ω/a1 = 9.068653; mass_scale = 0.9422793.
        let s = Softness::new(30.0, 10.0, 1.0 / 240.0);
        let omega = 60.0 * std::f64::consts::PI;
        let h = 1.0 / 240.0;
        let a1 = 20.0 + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        assert!((s.bias_rate as f64 - omega / a1).abs() < 1e-4);
        assert!((s.bias_rate - 9.068653).abs() < 1e-3);
        assert!((s.mass_scale as f64 - a2 * a3).abs() < 1e-6);
        assert!((s.mass_scale - 0.9422793).abs() < 1e-5);
        assert!((s.impulse_scale as f64 - a3).abs() < 1e-6);
        assert!((s.impulse_scale - 0.0577207).abs() < 1e-5);
    }

    #[test]
    fn stiff_limit_is_rigid_with_full_correction() {
        let h = 1.0 / 240.0;
        let s = Softness::new(1.0e7, 1.0, h);
        assert!((s.mass_scale - 1.0).abs() < 1e-4);
        assert!(s.impulse_scale < 1e-4);
        assert!((s.bias_rate * h - 1.0).abs() < 1e-3);
    }

    #[test]
    fn zero_hertz_does_nothing() {
        let s = Softness::new(0.0, 10.0, 1.0 / 240.0);
        assert_eq!(s.mass_scale, 0.0);
        assert_eq!(s.impulse_scale, 1.0);
    }

    #[test]
    fn hertz_capped_at_quarter_substep_rate() {
        assert_eq!(contact_hertz_for_substep(30.0, 1.0 / 240.0), 30.0);
        assert!((contact_hertz_for_substep(30.0, 1.0 / 60.0) - 15.0).abs() < 1e-5);
    }
}
