//! The normal rows of a two-point manifold, solved together: a 2×2 linear complementarity
//! problem with compliance, solved exactly by enumerating its four cases.
//!
//! ## Why the two points are solved as one block
//!
//! Solving a manifold's two normal rows one after the other (Gauss–Seidel inside the manifold)
//! treats them unequally: the first point takes the whole correction, the second gets what is
//! left after the first one has turned the body. For a box resting flat on another box the two
//! corners carry the same load, but point 1 always pushes first, so every pass leaves a small
//! torque; warm starting makes it systematic, and in a tall column it accumulates into a lean
//! that topples a 20-box column within two seconds. Solving both rows at once gives each point
//! the impulse the pair needs together, with no order, and a symmetric column stays symmetric.
//! (Catto's Box2D v2 solved its two-point manifolds this way; the idea is the "block solver" of
//! the contact literature.)
//!
//! ## The problem
//!
//! With `K = J M⁻¹ Jᵀ` the 2×2 matrix of the two normal rows (`K₁₁`, `K₂₂` the inverse effective
//! masses of the points, `K₁₂` their coupling through both bodies),
//!
//! ```text
//!   K₁₂ = mA⁻¹ + mB⁻¹ + IA⁻¹·(rA₁ × n)(rA₂ × n) + IB⁻¹·(rB₁ × n)(rB₂ × n)
//! ```
//!
//! a single soft row computes its new accumulated impulse `λ'` from the accumulated `Λ`, the
//! current normal speed `v` (which already includes `Λ`) and the bias `b` as
//! `λ' = ms·Λ − ms·m·(v + b)` (see [`crate::softness`]). Multiplying by `K/ms` shows that this
//! is the rigid row with compliance added to its diagonal:
//!
//! ```text
//!   K·(1 + c)·λ' = K·Λ − (v + b),       c = impulse_scale / mass_scale = 1/a₂
//! ```
//!
//! The block applies the same rule to both rows at once, with `C = diag(K₁₁·c₁, K₂₂·c₂)` (each
//! point's compliance, zero for a rigid or speculative row), and solves for the increment
//! `Δ = λ' − Λ`, which keeps the numbers small when a row carries a large load:
//!
//! ```text
//!   K'·Δ = e,     K' = K + C,     e = −(v + b) − C·Λ
//!   λ' = Λ + Δ ≥ 0,   w = K'·Δ − e ≥ 0,   λ'ᵢ·wᵢ = 0
//! ```
//!
//! `w` is the velocity error each row is left with; complementarity says a row either pushes
//! and has no error, or pushes nothing and is separating. With one point this is exactly the
//! clamped single-row update.
//!
//! ## Solving it
//!
//! `K'` is symmetric positive definite when the manifold is well conditioned, so the LCP has one
//! solution, which is one of four cases: both points push; only point 1 (λ₂' = 0); only point 2;
//! neither. Each case is a small linear solve; the solution is the first case whose impulses are
//! non-negative and whose idle rows are separating. All four are computed and the answer is
//! picked by selects, so the same code runs one contact (`f32`) or a bundle of lanes (`FloatW`)
//! with the same operations in the same order — the scalar and wide solvers agree to the bit.
//! If no case qualifies (only possible through rounding on a nearly singular `K'`), the
//! impulses are kept.
//!
//! A manifold whose `K` is nearly singular (two points almost on top of each other, so that
//! `K₁₁·K₂₂ ≈ K₁₂²`) is not solved as a block: preparation folds the second point's impulse into
//! the first and makes the second point *inert* — weight 0 and no coupling — which reduces the
//! block to the first row alone. A one-point manifold is the same: its missing second point is
//! inert. With `e₂ = 0`, `K₁₂ = 0` and `Λ₂ = 0`, every case gives `λ₂' = 0`, so one formula serves
//! one- and two-point manifolds and needs no per-lane branch.

use crate::wide::{FloatW, MaskW};
use std::ops::{Add, BitAnd, Div, Mul, Neg, Sub};

/// A manifold is solved as a block only if `max(K₁₁, K₂₂)² < MAX_CONDITION · det K`: a bound on
/// the condition number of `K` (Box2D v2 used the same figure). Beyond it the two points are
/// nearly the same point and their separate impulses are not meaningful.
pub const MAX_CONDITION: f32 = 1000.0;

/// The arithmetic the block solve needs, for one contact (`f32`) or a bundle of lanes
/// ([`FloatW`]).
pub trait BlockFloat:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// A per-lane truth value.
    type Mask: Copy + BitAnd<Output = Self::Mask>;
    fn zero() -> Self;
    fn one() -> Self;
    /// `self ≥ 0` (false for NaN).
    fn non_negative(self) -> Self::Mask;
    /// `if mask { if_true } else { if_false }`, per lane.
    fn select(mask: Self::Mask, if_true: Self, if_false: Self) -> Self;
    /// Whether `mask` holds in every lane.
    fn all(mask: Self::Mask) -> bool;
}

impl BlockFloat for f32 {
    type Mask = bool;

    #[inline]
    fn zero() -> f32 {
        0.0
    }

    #[inline]
    fn one() -> f32 {
        1.0
    }

    #[inline]
    fn non_negative(self) -> bool {
        self >= 0.0
    }

    #[inline]
    fn select(mask: bool, if_true: f32, if_false: f32) -> f32 {
        if mask { if_true } else { if_false }
    }

    #[inline]
    fn all(mask: bool) -> bool {
        mask
    }
}

impl BlockFloat for FloatW {
    type Mask = MaskW;

    #[inline]
    fn zero() -> FloatW {
        FloatW::zero()
    }

    #[inline]
    fn one() -> FloatW {
        FloatW::one()
    }

    #[inline]
    fn non_negative(self) -> MaskW {
        self.cmp_ge(FloatW::zero())
    }

    #[inline]
    fn select(mask: MaskW, if_true: FloatW, if_false: FloatW) -> FloatW {
        FloatW::select(mask, if_true, if_false)
    }

    #[inline]
    fn all(mask: MaskW) -> bool {
        mask.all()
    }
}

/// One row of the block as a pass sees it.
#[derive(Clone, Copy, Debug)]
pub struct BlockRow<F> {
    /// `K'ᵢᵢ = Kᵢᵢ·(1 + cᵢ)`.
    pub k: F,
    /// `1 / K'ᵢᵢ = mᵢ·mass_scaleᵢ`.
    pub inv_k: F,
    /// `eᵢ = −(vᵢ + bᵢ) − Kᵢᵢ·cᵢ·Λᵢ`, zero for an inert row.
    pub e: F,
    /// The accumulated impulse `Λᵢ`.
    pub accumulated: F,
}

/// The new accumulated impulses `(λ₁', λ₂')` of the two rows coupled by `k12` (see the module
/// notes): the first of the four complementarity cases that holds.
#[inline]
pub fn solve_block<F: BlockFloat>(r1: BlockRow<F>, r2: BlockRow<F>, k12: F) -> (F, F) {
    let (l1, l2) = (r1.accumulated, r2.accumulated);
    let zero = F::zero();

    // Both push: K'·Δ = e by Cramer's rule.
    let inv_det = F::one() / (r1.k * r2.k - k12 * k12);
    let both1 = l1 + (r2.k * r1.e - k12 * r2.e) * inv_det;
    let both2 = l2 + (r1.k * r2.e - k12 * r1.e) * inv_det;
    let both = both1.non_negative() & both2.non_negative();
    // The first case wins wherever it holds; where it holds in every lane (a resting pile's
    // usual state) the other cases cannot change the answer and are not computed.
    if F::all(both) {
        return (both1, both2);
    }

    // Only point 1 pushes: Δ₂ = −Λ₂, row 1 solved alone; row 2 must then separate.
    let only1 = l1 + (r1.e + k12 * l2) * r1.inv_k;
    let idle2 = k12 * (only1 - l1) - r2.k * l2 - r2.e;
    let first = only1.non_negative() & idle2.non_negative();

    // Only point 2 pushes.
    let only2 = l2 + (r2.e + k12 * l1) * r2.inv_k;
    let idle1 = k12 * (only2 - l2) - r1.k * l1 - r1.e;
    let second = only2.non_negative() & idle1.non_negative();

    // Neither pushes: Δ = −Λ; both rows must separate.
    let free1 = -(r1.k * l1) - k12 * l2 - r1.e;
    let free2 = -(k12 * l1) - r2.k * l2 - r2.e;
    let neither = free1.non_negative() & free2.non_negative();

    let pick = |both_value: F, first_value: F, second_value: F, kept: F| {
        let otherwise = F::select(neither, zero, kept);
        let otherwise = F::select(second, second_value, otherwise);
        let otherwise = F::select(first, first_value, otherwise);
        F::select(both, both_value, otherwise)
    };
    (pick(both1, only1, zero, l1), pick(both2, zero, only2, l2))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rigid row (no compliance) with inverse mass `k`, accumulated `l`, speed error `e`.
    fn row(k: f32, l: f32, e: f32) -> BlockRow<f32> {
        BlockRow {
            k,
            inv_k: 1.0 / k,
            e,
            accumulated: l,
        }
    }

    /// `w = K·λ' − (K·Λ + e)`: the velocity error left on each row by the answer.
    fn residual(r1: BlockRow<f32>, r2: BlockRow<f32>, k12: f32, (x1, x2): (f32, f32)) -> [f32; 2] {
        let (d1, d2) = (x1 - r1.accumulated, x2 - r2.accumulated);
        [r1.k * d1 + k12 * d2 - r1.e, k12 * d1 + r2.k * d2 - r2.e]
    }

    /// `λ' ≥ 0`, `w ≥ 0` and `λ'·w = 0`, to rounding: each row's error is compared with the size of
    /// the terms it was computed from.
    fn assert_complementary(r1: BlockRow<f32>, r2: BlockRow<f32>, k12: f32, x: (f32, f32)) {
        let w = residual(r1, r2, k12, x);
        let scale = |r: BlockRow<f32>, own: f32, other: f32| {
            1.0 + r.e.abs() + r.k * (own.abs() + r.accumulated.abs()) + k12.abs() * other.abs()
        };
        let rows = [
            (x.0, w[0], scale(r1, x.0, x.1)),
            (x.1, w[1], scale(r2, x.1, x.0)),
        ];
        for (impulse, error, scale) in rows {
            let tolerance = 1e-6 * scale;
            assert!(impulse >= 0.0, "negative impulse {x:?}");
            assert!(
                error >= -tolerance,
                "row left approaching: w = {w:?}, λ = {x:?}"
            );
            assert!(
                impulse == 0.0 || error.abs() <= tolerance,
                "not complementary: λ = {x:?}, w = {w:?}"
            );
        }
    }

    /// A unit box on the ground, corners at x = ±0.5 below its centre: `K₁₁ = K₂₂ = 1 + 6·¼`
    /// and `K₁₂ = 1 − 6·¼` (mass 1, inverse inertia 6).
    const BOX_K: f32 = 2.5;
    const BOX_K12: f32 = -0.5;

    #[test]
    fn equal_approach_gives_equal_impulses() {
        // Both corners approach at 1 m/s: the box must stop without turning, so both impulses
        // are equal and sum to the box's momentum (mass 1): 0.5 each.
        let (r1, r2) = (row(BOX_K, 0.0, 1.0), row(BOX_K, 0.0, 1.0));
        let x = solve_block(r1, r2, BOX_K12);
        assert!(
            (x.0 - 0.5).abs() < 1e-6 && (x.1 - 0.5).abs() < 1e-6,
            "{x:?}"
        );
        assert_eq!(x.0, x.1, "asymmetric");
        assert_complementary(r1, r2, BOX_K12, x);
    }

    #[test]
    fn a_separating_corner_takes_nothing() {
        // Corner 1 approaches, corner 2 separates fast: only corner 1 pushes, λ₁ = e₁/K₁₁, and
        // corner 2 is still separating afterwards.
        let (r1, r2) = (row(BOX_K, 0.0, 1.0), row(BOX_K, 0.0, -3.0));
        let x = solve_block(r1, r2, BOX_K12);
        assert_eq!(x.1, 0.0);
        assert!((x.0 - 1.0 / BOX_K).abs() < 1e-6, "{x:?}");
        assert_complementary(r1, r2, BOX_K12, x);
    }

    #[test]
    fn separating_rows_release_their_impulses() {
        let (r1, r2) = (row(BOX_K, 0.2, -2.0), row(BOX_K, 0.3, -2.0));
        let x = solve_block(r1, r2, BOX_K12);
        assert_eq!(x, (0.0, 0.0));
        assert_complementary(r1, r2, BOX_K12, x);
    }

    #[test]
    fn random_problems_satisfy_complementarity() {
        // A fixed linear congruential sequence in [0, 1).
        let mut state = 7u32;
        let mut next = move || {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) as f32 / (1u32 << 24) as f32
        };
        for _ in 0..10_000 {
            // A random SPD K from two random Jacobian rows of two bodies.
            let k1 = 0.5 + 3.0 * next();
            let k2 = 0.5 + 3.0 * next();
            let k12 = (2.0 * next() - 1.0) * 0.9 * (k1 * k2).sqrt();
            let r1 = row(k1, 2.0 * next(), 4.0 * next() - 2.0);
            let r2 = row(k2, 2.0 * next(), 4.0 * next() - 2.0);
            let x = solve_block(r1, r2, k12);
            assert_complementary(r1, r2, k12, x);
        }
    }

    #[test]
    fn an_inert_second_row_reduces_to_the_clamped_single_row() {
        // e₂ = 0, K₁₂ = 0, Λ₂ = 0: λ₂' = 0 and λ₁' = max(Λ₁ + e₁/K₁₁, 0).
        let inert = row(1.0, 0.0, 0.0);
        for (l1, e1) in [(0.5, 1.0), (0.5, -0.5), (0.5, -5.0), (0.0, -1.0)] {
            let x = solve_block(row(2.0, l1, e1), inert, 0.0);
            assert_eq!(x.1, 0.0);
            let expected = (l1 + e1 / 2.0).max(0.0);
            assert!(
                (x.0 - expected).abs() < 1e-6,
                "{x:?} for Λ₁ = {l1}, e₁ = {e1}"
            );
        }
    }

    #[test]
    fn compliance_softens_the_answer_like_the_single_soft_row() {
        // One row with compliance c: λ' = Λ + e/(K(1 + c)), which is the soft row's
        // λ' = ms·Λ − ms·m·(v + b) when e = −(v + b) − K·c·Λ and ms = 1/(1 + c).
        let (k, c, l, v_plus_b) = (2.0f32, 0.25f32, 0.4f32, -0.3f32);
        let soft = BlockRow {
            k: k * (1.0 + c),
            inv_k: 1.0 / (k * (1.0 + c)),
            e: -v_plus_b - k * c * l,
            accumulated: l,
        };
        let x = solve_block(soft, row(1.0, 0.0, 0.0), 0.0);
        let ms = 1.0 / (1.0 + c);
        let single = ms * l - ms * (1.0 / k) * v_plus_b;
        assert!((x.0 - single).abs() < 1e-6, "{} vs {single}", x.0);
    }
}
