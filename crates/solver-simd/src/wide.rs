//! Wide floats: one type for "as many constraints as the machine solves at once".
//!
//! The solver handles one colour of constraints at a time, and no two constraints of a colour
//! share a dynamic body, so [`LANES`] of them can go through the same arithmetic side by side.
//! [`FloatW`] is that arithmetic:
//!
//! | build                                  | `FloatW` wraps   | `LANES` |
//! |----------------------------------------|------------------|---------|
//! | `target_feature = "avx2"` (x86-64-v3)  | `wide::f32x8`    | 8       |
//! | otherwise                              | `wide::f32x4`    | 4       |
//! | feature `scalar`                       | `f32`            | 1       |
//!
//! On top of it, [`Vec2W`] and [`RotW`] mirror `Vec2` and `Rot` lane by lane, with operators,
//! so a constraint kernel reads like the formula it implements (`vr = vB + ωB × rB − vA − ωA × rA`
//! is `vb + cross_sv(wb, rb) - va - cross_sv(wa, ra)`).
//!
//! ## Rounding is the same in every lane and every build
//!
//! Every operation here is a single IEEE-754 binary32 operation per lane, in the same order as
//! the scalar code in `core_soa::math`: `a * b + c` is a multiply rounded to f32 and then an add
//! rounded to f32. `wide`'s `Mul` and `Add` on `f32x8` are the separate `vmulps`/`vaddps`
//! intrinsics (`mul_m256`, `add_m256`), never `vfmadd`; the only fusing entry points in `wide`
//! are its explicit `mul_add` family, which this module never calls. LLVM does not contract a
//! separate multiply and add into an FMA on its own: Rust emits neither the `contract`
//! fast-math flag nor `llvm.fmuladd`, even with `target-cpu=x86-64-v3` enabling FMA. So a lane
//! of the wide solver, the scalar build and the overflow path all round identically, and the
//! result depends on the SIMD width only through which constraints share a bundle. The test
//! `wide_multiply_then_add_is_not_fused` checks this on a case where fusing changes the answer.
//!
//! `min`/`max` are the bare x86 `minps`/`maxps` rule, `max(a, b) = a > b ? a : b`: on a tie
//! (±0) or when either operand is NaN the answer is the second operand. Every build implements
//! exactly this rule (one instruction on x86; a compare and a select elsewhere), so even ties
//! of ±0 resolve alike. A NaN-ignoring `max` costs a compare and a blend more, and the contact
//! kernels clamp several times per row (measurements in `benches/results/NOTES.md`). Callers
//! that must not let a NaN through put the value that may be NaN first: the
//! clamps `x.max(lo).min(hi)` return `lo` for a NaN `x`. `sqrt` and `/` are correctly rounded
//! in every build (no reciprocal estimates).

use core::ops::{Add, AddAssign, BitAnd, BitOr, Div, Mul, MulAssign, Neg, Not, Sub, SubAssign};
use core_soa::{Rot, Vec2};

pub use backend::LANES;

/// The per-build representation: a lane type and the free functions that differ per build.
#[cfg(feature = "scalar")]
mod backend {
    /// One lane: the scalar build.
    pub const LANES: usize = 1;
    pub type Float = f32;
    pub type Mask = bool;

    pub fn splat(v: f32) -> Float {
        v
    }
    pub fn from_array(a: [f32; LANES]) -> Float {
        a[0]
    }
    pub fn to_array(v: Float) -> [f32; LANES] {
        [v]
    }
    /// `minps` semantics: `a < b ? a : b`.
    pub fn min(a: Float, b: Float) -> Float {
        if a < b { a } else { b }
    }
    /// `maxps` semantics: `a > b ? a : b`.
    pub fn max(a: Float, b: Float) -> Float {
        if a > b { a } else { b }
    }
    pub fn lt(a: Float, b: Float) -> Mask {
        a < b
    }
    pub fn le(a: Float, b: Float) -> Mask {
        a <= b
    }
    pub fn eq(a: Float, b: Float) -> Mask {
        a == b
    }
    pub fn select(m: Mask, t: Float, f: Float) -> Float {
        if m { t } else { f }
    }
    pub fn mask_from_bools(b: [bool; LANES]) -> Mask {
        b[0]
    }
    pub fn bitmask(m: Mask) -> u32 {
        u32::from(m)
    }
}

/// The per-build representation: a lane type and the free functions that differ per build.
#[cfg(not(feature = "scalar"))]
mod backend {
    /// Eight lanes: `f32x8` on AVX2.
    #[cfg(target_feature = "avx2")]
    pub const LANES: usize = 8;
    #[cfg(target_feature = "avx2")]
    pub type Float = ::wide::f32x8;
    /// Four lanes: `f32x4` on SSE2 and other targets.
    #[cfg(not(target_feature = "avx2"))]
    pub const LANES: usize = 4;
    #[cfg(not(target_feature = "avx2"))]
    pub type Float = ::wide::f32x4;
    /// A comparison result: each lane all ones (true) or all zeros (false).
    pub type Mask = Float;

    pub fn splat(v: f32) -> Float {
        Float::splat(v)
    }
    pub fn from_array(a: [f32; LANES]) -> Float {
        Float::new(a)
    }
    pub fn to_array(v: Float) -> [f32; LANES] {
        v.to_array()
    }
    /// `a < b ? a : b`: `minps` itself on x86, a compare and a select elsewhere.
    pub fn min(a: Float, b: Float) -> Float {
        #[cfg(target_arch = "x86_64")]
        {
            a.fast_min(b)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            a.simd_lt(b).blend(a, b)
        }
    }
    /// `a > b ? a : b`: `maxps` itself on x86, a compare and a select elsewhere.
    pub fn max(a: Float, b: Float) -> Float {
        #[cfg(target_arch = "x86_64")]
        {
            a.fast_max(b)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            a.simd_gt(b).blend(a, b)
        }
    }
    pub fn lt(a: Float, b: Float) -> Mask {
        a.simd_lt(b)
    }
    pub fn le(a: Float, b: Float) -> Mask {
        a.simd_le(b)
    }
    pub fn eq(a: Float, b: Float) -> Mask {
        a.simd_eq(b)
    }
    pub fn select(m: Mask, t: Float, f: Float) -> Float {
        m.select(t, f)
    }
    pub fn mask_from_bools(b: [bool; LANES]) -> Mask {
        Float::new(b.map(|on| f32::from_bits(if on { u32::MAX } else { 0 })))
    }
    pub fn bitmask(m: Mask) -> u32 {
        m.to_bitmask()
    }
}

/// [`LANES`] f32 values operated on together.
#[derive(Clone, Copy, Default)]
pub struct FloatW(pub(crate) backend::Float);

/// [`LANES`] booleans, the result of comparing two [`FloatW`]s.
#[derive(Clone, Copy)]
pub struct MaskW(backend::Mask);

impl FloatW {
    /// Every lane `value`.
    #[inline]
    pub fn splat(value: f32) -> FloatW {
        FloatW(backend::splat(value))
    }

    /// Every lane 0.
    #[inline]
    pub fn zero() -> FloatW {
        FloatW::splat(0.0)
    }

    /// Every lane 1.
    #[inline]
    pub fn one() -> FloatW {
        FloatW::splat(1.0)
    }

    /// Lane `i` is `lanes[i]`.
    #[inline]
    pub fn from_array(lanes: [f32; LANES]) -> FloatW {
        FloatW(backend::from_array(lanes))
    }

    /// The lanes as an array, lane `i` at index `i`.
    #[inline]
    pub fn to_array(self) -> [f32; LANES] {
        backend::to_array(self.0)
    }

    /// The value in lane `i` (panics if `i >= LANES`, like an array index).
    #[inline]
    pub fn lane(self, i: usize) -> f32 {
        self.to_array()[i]
    }

    /// Lanewise `self < other ? self : other` (`other` on a tie or where either is NaN).
    #[inline]
    pub fn min(self, other: FloatW) -> FloatW {
        FloatW(backend::min(self.0, other.0))
    }

    /// Lanewise `self > other ? self : other` (`other` on a tie or where either is NaN).
    #[inline]
    pub fn max(self, other: FloatW) -> FloatW {
        FloatW(backend::max(self.0, other.0))
    }

    /// `max(lo, min(self, hi))` lanewise.
    #[inline]
    pub fn clamp(self, lo: FloatW, hi: FloatW) -> FloatW {
        self.min(hi).max(lo)
    }

    /// Lanewise `x` where `x` is finite, else `0` (the scalar `finite_or_zero` of
    /// `contact_solver.rs`, bit for bit: a finite lane keeps its bits, −0 included).
    #[inline]
    pub fn finite_or_zero(self) -> FloatW {
        let finite = self.abs().cmp_lt(FloatW::splat(f32::INFINITY));
        FloatW::select(finite, self, FloatW::zero())
    }

    /// Lanewise absolute value.
    #[inline]
    pub fn abs(self) -> FloatW {
        FloatW(self.0.abs())
    }

    /// Correctly rounded square root.
    #[inline]
    pub fn sqrt(self) -> FloatW {
        FloatW(self.0.sqrt())
    }

    /// Lanewise `self < other`.
    #[inline]
    pub fn cmp_lt(self, other: FloatW) -> MaskW {
        MaskW(backend::lt(self.0, other.0))
    }

    /// Lanewise `self <= other`.
    #[inline]
    pub fn cmp_le(self, other: FloatW) -> MaskW {
        MaskW(backend::le(self.0, other.0))
    }

    /// Lanewise `self > other`.
    #[inline]
    pub fn cmp_gt(self, other: FloatW) -> MaskW {
        other.cmp_lt(self)
    }

    /// Lanewise `self >= other`.
    #[inline]
    pub fn cmp_ge(self, other: FloatW) -> MaskW {
        other.cmp_le(self)
    }

    /// Lanewise `self == other` (false where either is NaN).
    #[inline]
    pub fn cmp_eq(self, other: FloatW) -> MaskW {
        MaskW(backend::eq(self.0, other.0))
    }

    /// Lanewise `if mask { if_true } else { if_false }` (a blend, both sides evaluated).
    #[inline]
    pub fn select(mask: MaskW, if_true: FloatW, if_false: FloatW) -> FloatW {
        FloatW(backend::select(mask.0, if_true.0, if_false.0))
    }
}

impl MaskW {
    /// Lane `i` is `lanes[i]`.
    #[inline]
    pub fn from_bools(lanes: [bool; LANES]) -> MaskW {
        MaskW(backend::mask_from_bools(lanes))
    }

    /// Bit `i` set when lane `i` is true.
    #[inline]
    pub fn to_bitmask(self) -> u32 {
        backend::bitmask(self.0)
    }

    #[inline]
    pub fn to_bools(self) -> [bool; LANES] {
        let bits = self.to_bitmask();
        core::array::from_fn(|i| bits & (1 << i) != 0)
    }

    #[inline]
    pub fn any(self) -> bool {
        self.to_bitmask() != 0
    }

    #[inline]
    pub fn all(self) -> bool {
        self.to_bitmask() == (1u32 << LANES) - 1
    }
}

impl core::fmt::Debug for FloatW {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "FloatW{:?}", self.to_array())
    }
}

impl core::fmt::Debug for MaskW {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "MaskW{:?}", self.to_bools())
    }
}

impl From<f32> for FloatW {
    #[inline]
    fn from(value: f32) -> FloatW {
        FloatW::splat(value)
    }
}

/// Implements a binary operator and its compound assignment lanewise on the inner type.
macro_rules! float_binary_op {
    ($op:ident, $method:ident, $assign_op:ident, $assign_method:ident) => {
        impl $op for FloatW {
            type Output = FloatW;
            #[inline]
            fn $method(self, rhs: FloatW) -> FloatW {
                FloatW(self.0.$method(rhs.0))
            }
        }

        impl $assign_op for FloatW {
            #[inline]
            fn $assign_method(&mut self, rhs: FloatW) {
                *self = (*self).$method(rhs);
            }
        }
    };
}

float_binary_op!(Add, add, AddAssign, add_assign);
float_binary_op!(Sub, sub, SubAssign, sub_assign);
float_binary_op!(Mul, mul, MulAssign, mul_assign);

impl Div for FloatW {
    type Output = FloatW;
    #[inline]
    fn div(self, rhs: FloatW) -> FloatW {
        FloatW(self.0 / rhs.0)
    }
}

impl Neg for FloatW {
    type Output = FloatW;
    #[inline]
    fn neg(self) -> FloatW {
        FloatW(-self.0)
    }
}

impl BitAnd for MaskW {
    type Output = MaskW;
    #[inline]
    fn bitand(self, rhs: MaskW) -> MaskW {
        MaskW(self.0 & rhs.0)
    }
}

impl BitOr for MaskW {
    type Output = MaskW;
    #[inline]
    fn bitor(self, rhs: MaskW) -> MaskW {
        MaskW(self.0 | rhs.0)
    }
}

impl Not for MaskW {
    type Output = MaskW;
    #[inline]
    fn not(self) -> MaskW {
        MaskW(!self.0)
    }
}

/// [`LANES`] 2D vectors, one per lane.
#[derive(Clone, Copy, Debug, Default)]
pub struct Vec2W {
    pub x: FloatW,
    pub y: FloatW,
}

impl Vec2W {
    #[inline]
    pub fn new(x: FloatW, y: FloatW) -> Vec2W {
        Vec2W { x, y }
    }

    #[inline]
    pub fn zero() -> Vec2W {
        Vec2W::new(FloatW::zero(), FloatW::zero())
    }

    /// Every lane `v`.
    #[inline]
    pub fn splat(v: Vec2) -> Vec2W {
        Vec2W::new(FloatW::splat(v.x), FloatW::splat(v.y))
    }

    /// Lane `i` is `lanes[i]`.
    #[inline]
    pub fn from_lanes(lanes: [Vec2; LANES]) -> Vec2W {
        Vec2W::new(
            FloatW::from_array(lanes.map(|v| v.x)),
            FloatW::from_array(lanes.map(|v| v.y)),
        )
    }

    #[inline]
    pub fn to_lanes(self) -> [Vec2; LANES] {
        let (x, y) = (self.x.to_array(), self.y.to_array());
        core::array::from_fn(|i| Vec2::new(x[i], y[i]))
    }

    /// `x·x' + y·y'`.
    #[inline]
    pub fn dot(self, other: Vec2W) -> FloatW {
        self.x * other.x + self.y * other.y
    }

    /// The 2D cross product `x·y' − y·x'` (the z of the 3D cross product).
    #[inline]
    pub fn cross(self, other: Vec2W) -> FloatW {
        self.x * other.y - self.y * other.x
    }

    #[inline]
    pub fn length_squared(self) -> FloatW {
        self.dot(self)
    }

    #[inline]
    pub fn length(self) -> FloatW {
        self.length_squared().sqrt()
    }

    /// The left perpendicular `(−y, x)` (rotation by +90°).
    #[inline]
    pub fn left_perp(self) -> Vec2W {
        Vec2W::new(-self.y, self.x)
    }

    /// The right perpendicular `(y, −x)` (rotation by −90°).
    #[inline]
    pub fn right_perp(self) -> Vec2W {
        Vec2W::new(self.y, -self.x)
    }

    /// Lanewise `if mask { if_true } else { if_false }`.
    #[inline]
    pub fn select(mask: MaskW, if_true: Vec2W, if_false: Vec2W) -> Vec2W {
        Vec2W::new(
            FloatW::select(mask, if_true.x, if_false.x),
            FloatW::select(mask, if_true.y, if_false.y),
        )
    }
}

/// Scalar × vector cross product `s × v = (−s·v.y, s·v.x)`: the velocity `ω × r` of a point at
/// offset `r` on a body spinning at `ω`.
#[inline]
pub fn cross_sv(s: FloatW, v: Vec2W) -> Vec2W {
    Vec2W::new(-s * v.y, s * v.x)
}

impl Add for Vec2W {
    type Output = Vec2W;
    #[inline]
    fn add(self, rhs: Vec2W) -> Vec2W {
        Vec2W::new(self.x + rhs.x, self.y + rhs.y)
    }
}

impl Sub for Vec2W {
    type Output = Vec2W;
    #[inline]
    fn sub(self, rhs: Vec2W) -> Vec2W {
        Vec2W::new(self.x - rhs.x, self.y - rhs.y)
    }
}

impl Neg for Vec2W {
    type Output = Vec2W;
    #[inline]
    fn neg(self) -> Vec2W {
        Vec2W::new(-self.x, -self.y)
    }
}

impl Mul<FloatW> for Vec2W {
    type Output = Vec2W;
    #[inline]
    fn mul(self, s: FloatW) -> Vec2W {
        Vec2W::new(self.x * s, self.y * s)
    }
}

impl Mul<Vec2W> for FloatW {
    type Output = Vec2W;
    #[inline]
    fn mul(self, v: Vec2W) -> Vec2W {
        Vec2W::new(self * v.x, self * v.y)
    }
}

impl AddAssign for Vec2W {
    #[inline]
    fn add_assign(&mut self, rhs: Vec2W) {
        *self = *self + rhs;
    }
}

impl SubAssign for Vec2W {
    #[inline]
    fn sub_assign(&mut self, rhs: Vec2W) {
        *self = *self - rhs;
    }
}

impl MulAssign<FloatW> for Vec2W {
    #[inline]
    fn mul_assign(&mut self, s: FloatW) {
        *self = *self * s;
    }
}

/// Lane `i` of column `c` is `rows[i][c]`: eight fields of [`LANES`] records turned into eight
/// lane vectors, by one 8 × 8 transpose where AVX2 is available.
#[inline(always)]
pub fn rows_to_lanes(rows: [[f32; 8]; LANES]) -> [FloatW; 8] {
    #[cfg(all(not(feature = "scalar"), target_feature = "avx2"))]
    {
        ::wide::f32x8::transpose(rows.map(::wide::f32x8::from)).map(FloatW)
    }
    #[cfg(not(all(not(feature = "scalar"), target_feature = "avx2")))]
    {
        core::array::from_fn(|column| FloatW::from_array(rows.map(|row| row[column])))
    }
}

/// [`LANES`] rotations as cosine/sine pairs, mirroring [`Rot`] operation for operation.
#[derive(Clone, Copy, Debug)]
pub struct RotW {
    pub c: FloatW,
    pub s: FloatW,
}

impl Default for RotW {
    fn default() -> Self {
        RotW::identity()
    }
}

impl RotW {
    #[inline]
    pub fn identity() -> RotW {
        RotW {
            c: FloatW::one(),
            s: FloatW::zero(),
        }
    }

    /// Lane `i` is `lanes[i]`.
    #[inline]
    pub fn from_lanes(lanes: [Rot; LANES]) -> RotW {
        RotW {
            c: FloatW::from_array(lanes.map(|q| q.c)),
            s: FloatW::from_array(lanes.map(|q| q.s)),
        }
    }

    #[inline]
    pub fn to_lanes(self) -> [Rot; LANES] {
        let (c, s) = (self.c.to_array(), self.s.to_array());
        core::array::from_fn(|i| Rot { c: c[i], s: s[i] })
    }

    /// `(c·x − s·y, s·x + c·y)`.
    #[inline]
    pub fn rotate(self, v: Vec2W) -> Vec2W {
        Vec2W::new(self.c * v.x - self.s * v.y, self.s * v.x + self.c * v.y)
    }
}

/// The composition `self ∘ other` (apply `other` first): complex multiplication, as
/// [`Rot::mul`].
impl Mul for RotW {
    type Output = RotW;
    #[inline]
    fn mul(self, other: RotW) -> RotW {
        RotW {
            c: self.c * other.c - self.s * other.s,
            s: self.s * other.c + self.c * other.s,
        }
    }
}

#[cfg(test)]
mod tests {
    //! Every wide operation against the scalar `f32`/`Vec2`/`Rot` computation, lane by lane and
    //! bit for bit: with no fused multiply-add anywhere the two must round identically.

    use super::*;
    use core::hint::black_box;

    /// Deterministic, varied test values (mixed signs and magnitudes, no zeros or NaN).
    fn lanes(seed: u32) -> [f32; LANES] {
        core::array::from_fn(|i| {
            let k = (seed.wrapping_mul(2654435761).wrapping_add(i as u32 * 40503)) % 10007;
            let magnitude = 0.001 + (k as f32) * 0.37;
            if (k + i as u32).is_multiple_of(3) {
                -magnitude
            } else {
                magnitude / 7.0
            }
        })
    }

    fn assert_bits(wide: FloatW, expected: impl Fn(usize) -> f32, what: &str) {
        for (i, got) in wide.to_array().into_iter().enumerate() {
            let want = expected(i);
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "{what}, lane {i}: {got} vs {want}"
            );
        }
    }

    fn vec_lanes(seed: u32) -> [Vec2; LANES] {
        let (x, y) = (lanes(seed), lanes(seed + 101));
        core::array::from_fn(|i| Vec2::new(x[i], y[i]))
    }

    fn rot_lanes(seed: u32) -> [Rot; LANES] {
        let angle = lanes(seed);
        core::array::from_fn(|i| Rot::from_angle(angle[i]))
    }

    #[test]
    fn wide_float_arithmetic_matches_scalar() {
        for seed in 0..50 {
            let (a, b) = (lanes(seed), lanes(seed + 1000));
            let (wa, wb) = (FloatW::from_array(a), FloatW::from_array(b));
            assert_bits(wa + wb, |i| a[i] + b[i], "add");
            assert_bits(wa - wb, |i| a[i] - b[i], "sub");
            assert_bits(wa * wb, |i| a[i] * b[i], "mul");
            assert_bits(wa / wb, |i| a[i] / b[i], "div");
            assert_bits(-wa, |i| -a[i], "neg");
            assert_bits(wa.abs(), |i| a[i].abs(), "abs");
            assert_bits(wa.abs().sqrt(), |i| a[i].abs().sqrt(), "sqrt");
            assert_bits(wa.min(wb), |i| a[i].min(b[i]), "min");
            assert_bits(wa.max(wb), |i| a[i].max(b[i]), "max");
            let mut acc = wa;
            acc += wb;
            acc *= wb;
            acc -= wa;
            assert_bits(acc, |i| (a[i] + b[i]) * b[i] - a[i], "compound assignment");
        }
    }

    #[test]
    fn wide_min_max_follow_the_documented_rule_on_ties_and_nan() {
        let (zero, neg_zero, nan) = (
            FloatW::splat(0.0),
            FloatW::splat(-0.0),
            FloatW::splat(f32::NAN),
        );
        let one = FloatW::one();
        // Ties return the second operand, as minps/maxps do.
        assert_bits(zero.max(neg_zero), |_| -0.0, "max(+0, -0)");
        assert_bits(neg_zero.min(zero), |_| 0.0, "min(-0, +0)");
        // A NaN operand yields the second operand, whichever side the NaN is on.
        assert!(one.max(nan).lane(0).is_nan(), "max(1, NaN)");
        assert_bits(nan.max(one), |_| 1.0, "max(NaN, 1)");
        assert!(one.min(nan).lane(0).is_nan(), "min(1, NaN)");
        assert_bits(nan.min(one), |_| 1.0, "min(NaN, 1)");
        // So a clamp of a NaN value lands on its lower bound.
        assert_bits(nan.max(zero).min(one), |_| 0.0, "NaN clamped to [0, 1]");
        assert_bits(FloatW::splat(5.0).clamp(zero, one), |_| 1.0, "clamp above");
        assert_bits(FloatW::splat(-5.0).clamp(zero, one), |_| 0.0, "clamp below");
    }

    #[test]
    fn wide_finite_or_zero_keeps_finite_bits_and_zeroes_the_rest() {
        let specials = [
            1.5,
            -0.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            -f32::MIN_POSITIVE,
            1e-45,
        ];
        for first in 0..specials.len() {
            let values: [f32; LANES] =
                core::array::from_fn(|i| specials[(first + i) % specials.len()]);
            let expected = |i: usize| {
                let x = values[i];
                if x.is_finite() { x } else { 0.0 }
            };
            assert_bits(
                FloatW::from_array(values).finite_or_zero(),
                expected,
                "finite_or_zero",
            );
        }
    }

    #[test]
    fn wide_multiply_then_add_is_not_fused() {
        // a·a = 1 + 2⁻¹¹ + 2⁻²⁴ exactly; rounded to f32 it is 1 + 2⁻¹¹, so a·a − (1 + 2⁻¹¹) is 0
        // when the product is rounded first and 2⁻²⁴ when a fused multiply-add is used.
        let a = 1.0 + f32::EPSILON * 2048.0;
        let c = -(1.0 + f32::EPSILON * 4096.0);
        let fused = a.mul_add(a, c);
        assert_eq!(fused, 2f32.powi(-24));
        let wa = black_box(FloatW::splat(a));
        let wc = black_box(FloatW::splat(c));
        assert_bits(wa * wa + wc, |_| 0.0, "a*a + c");
        assert_eq!(black_box(a) * black_box(a) + black_box(c), 0.0);
    }

    #[test]
    fn wide_comparisons_and_select() {
        for seed in 0..20 {
            let (a, b) = (lanes(seed), lanes(seed + 7));
            let (wa, wb) = (FloatW::from_array(a), FloatW::from_array(b));
            let expect_lt: [bool; LANES] = core::array::from_fn(|i| a[i] < b[i]);
            assert_eq!(wa.cmp_lt(wb).to_bools(), expect_lt);
            assert_eq!(wa.cmp_ge(wb).to_bools(), expect_lt.map(|x| !x));
            assert_eq!(wb.cmp_gt(wa).to_bools(), expect_lt);
            assert_eq!(wa.cmp_le(wa).to_bools(), [true; LANES]);
            assert_eq!(
                wa.cmp_eq(wb).to_bools(),
                core::array::from_fn(|i| a[i] == b[i])
            );
            let picked = FloatW::select(wa.cmp_lt(wb), wa, wb);
            assert_bits(picked, |i| if a[i] < b[i] { a[i] } else { b[i] }, "select");
            let mask = wa.cmp_lt(wb);
            assert!(!(mask & !mask).any());
            assert!((mask | !mask).all());
        }
        let alternate: [bool; LANES] = core::array::from_fn(|i| i % 2 == 0);
        let mask = MaskW::from_bools(alternate);
        assert_eq!(mask.to_bools(), alternate);
        assert!(mask.any());
        assert_eq!(mask.all(), LANES == 1);
    }

    #[test]
    fn wide_vec2_matches_scalar() {
        for seed in 0..30 {
            let (a, b, s) = (vec_lanes(seed), vec_lanes(seed + 500), lanes(seed + 900));
            let (wa, wb, ws) = (
                Vec2W::from_lanes(a),
                Vec2W::from_lanes(b),
                FloatW::from_array(s),
            );
            let check = |w: Vec2W, f: &dyn Fn(usize) -> Vec2, what: &str| {
                assert_bits(w.x, |i| f(i).x, what);
                assert_bits(w.y, |i| f(i).y, what);
            };
            check(wa + wb, &|i| a[i] + b[i], "add");
            check(wa - wb, &|i| a[i] - b[i], "sub");
            check(-wa, &|i| -a[i], "neg");
            check(wa * ws, &|i| a[i] * s[i], "vec * scalar");
            check(ws * wa, &|i| s[i] * a[i], "scalar * vec");
            check(
                cross_sv(ws, wa),
                &|i| core_soa::cross_sv(s[i], a[i]),
                "cross_sv",
            );
            check(wa.left_perp(), &|i| core_soa::left_perp(a[i]), "left_perp");
            check(
                wa.right_perp(),
                &|i| core_soa::right_perp(a[i]),
                "right_perp",
            );
            assert_bits(wa.dot(wb), |i| a[i].dot(b[i]), "dot");
            assert_bits(wa.cross(wb), |i| core_soa::cross(a[i], b[i]), "cross");
            assert_bits(wa.length(), |i| a[i].length(), "length");
            assert_eq!(wa.to_lanes(), a);
        }
    }

    #[test]
    fn wide_rot_matches_scalar() {
        for seed in 0..30 {
            let (p, q, v) = (rot_lanes(seed), rot_lanes(seed + 3), vec_lanes(seed + 11));
            let (wp, wq, wv) = (
                RotW::from_lanes(p),
                RotW::from_lanes(q),
                Vec2W::from_lanes(v),
            );
            let rotated = wp.rotate(wv);
            assert_bits(rotated.x, |i| p[i].rotate(v[i]).x, "rotate x");
            assert_bits(rotated.y, |i| p[i].rotate(v[i]).y, "rotate y");
            assert_eq!(
                wp.mul(wq).to_lanes(),
                core::array::from_fn(|i| p[i].mul(q[i]))
            );
        }
    }
}
