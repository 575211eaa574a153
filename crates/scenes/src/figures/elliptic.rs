//! The complete elliptic integral of the first kind, by the arithmetic–geometric mean.
//!
//! `K(k) = ∫₀^{π/2} dφ / √(1 − k² sin² φ)`. Gauss showed that
//! `K(k) = π / (2·AGM(1, √(1 − k²)))`, where the arithmetic–geometric mean iterates
//! `aₙ₊₁ = (aₙ + bₙ)/2`, `bₙ₊₁ = √(aₙ bₙ)` to their common limit. The iteration converges
//! quadratically (the number of correct digits doubles each time), so a handful of rounds
//! reach double precision for any modulus `k < 1`.
//!
//! The pendulum check needs it for the exact period of a pendulum released from rest at
//! `θ₀`: `T = 4 √(L/g) · K(sin(θ₀/2))`.

use std::f64::consts::PI;

/// `K(k)` for a modulus `0 ≤ k < 1`; `None` outside that range (at `k = 1` the integral
/// diverges).
pub fn complete_first_kind(k: f64) -> Option<f64> {
    if !(0.0..1.0).contains(&k) {
        return None;
    }
    let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
    // Quadratic convergence: 1 − k² ≥ 10⁻¹⁶ needs about 7 rounds; 64 is a hard stop.
    for _ in 0..64 {
        if (a - b).abs() <= 1e-15 * a {
            break;
        }
        (a, b) = (0.5 * (a + b), (a * b).sqrt());
    }
    Some(PI / (2.0 * a))
}

/// The period (s) of a simple pendulum of length `length` (m) in gravity `gravity` (m/s²)
/// released from rest at `amplitude` (rad from the downward vertical, below π).
pub fn pendulum_period(length: f64, gravity: f64, amplitude: f64) -> Option<f64> {
    let k = complete_first_kind((0.5 * amplitude).sin().abs())?;
    Some(4.0 * (length / gravity).sqrt() * k)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tabulated values of K by modular angle α (k = sin α): Abramowitz and Stegun, Handbook
    /// of Mathematical Functions, table 17.5.
    #[test]
    fn matches_tabulated_values() {
        let table = [
            (0.0f64, PI / 2.0),
            (30.0, 1.685_750_354_8),
            (45.0, 1.854_074_677_3),
            (75.0, 2.768_063_145_4),
            (89.0, 5.434_909_829_6),
        ];
        for (alpha, expected) in table {
            let k = complete_first_kind(alpha.to_radians().sin()).unwrap();
            assert!(
                (k - expected).abs() < 1e-9,
                "K(sin {alpha}°) = {k}, not {expected}"
            );
        }
    }

    #[test]
    fn refuses_a_modulus_outside_zero_to_one() {
        assert_eq!(complete_first_kind(1.0), None);
        assert_eq!(complete_first_kind(-0.1), None);
        assert_eq!(complete_first_kind(f64::NAN), None);
    }

    /// Small swings approach `2π√(L/g)`; the series `T ≈ T₀ (1 + θ₀²/16 + 11θ₀⁴/3072)` holds
    /// to order θ₀⁴ at 20°; at 150° the period is 1.7621 × T₀ (K(sin 75°) · 2/π).
    #[test]
    fn pendulum_period_follows_the_amplitude() {
        let small = 2.0 * PI * (0.1f64).sqrt();
        let tiny = pendulum_period(1.0, 10.0, 1e-4).unwrap();
        assert!((tiny / small - 1.0).abs() < 1e-8);
        let theta = 20f64.to_radians();
        let series = small * (1.0 + theta.powi(2) / 16.0 + 11.0 * theta.powi(4) / 3072.0);
        let exact = pendulum_period(1.0, 10.0, theta).unwrap();
        assert!((exact / series - 1.0).abs() < 1e-5, "{exact} vs {series}");
        let wide = pendulum_period(1.0, 10.0, 150f64.to_radians()).unwrap();
        assert!((wide / small - 2.768_063_145_4 * 2.0 / PI).abs() < 1e-9);
    }
}
