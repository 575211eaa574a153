//! Generated arguments, and the rules that say what the engine must do with them.
//!
//! Arguments come from an [`arbitrary::Unstructured`] fed by the seeded driver. Each op is
//! either *clean* (every number drawn from a small, physically sensible range) or *dirty*
//! (each number has a fair chance to be one of the [`WILD`] values instead: NaN, infinities,
//! 10³⁰, subnormals, values of the wrong sign). Clean ops grow deep, busy worlds; dirty ops
//! probe every check at the boundary.
//!
//! The rules ([`finite`], [`non_negative`], …) are the reference model's reading of the API
//! documentation, one [`Verdict`] per argument; an op combines them with [`Verdict::and`].

use arbitrary::{Result, Unstructured};
use prism::Vec2;

/// What the engine must do with a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// Must succeed.
    Accept,
    /// May succeed or fail (an extreme value another check may refuse); if it fails, it must
    /// leave no trace.
    Either,
    /// Must fail and leave no trace.
    Refuse,
}

impl Verdict {
    /// The verdict of a call with both arguments: the stricter one.
    pub fn and(self, other: Verdict) -> Verdict {
        self.max(other)
    }

    /// `Refuse` if `bad`, else `self`.
    pub fn unless(self, bad: bool) -> Verdict {
        if bad { Verdict::Refuse } else { self }
    }

    /// `Either` (at least) if `doubtful`.
    pub fn doubt(self, doubtful: bool) -> Verdict {
        if doubtful {
            self.and(Verdict::Either)
        } else {
            self
        }
    }
}

/// Values a dirty op may put in any numeric argument.
pub const WILD: [f32; 16] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    1e30,
    -1e30,
    1e20,
    -1e20,
    1e9,
    f32::MAX,
    1e-40,
    -1e-40,
    f32::MIN_POSITIVE,
    0.0,
    -0.0,
    -1.0,
    -1e-3,
];

/// The source of every generated value: the bytes, whether the current op is dirty, and
/// whether it drew an extreme value.
pub struct Source<'a, 'b> {
    pub u: &'a mut Unstructured<'b>,
    pub dirty: bool,
    pub extreme: bool,
}

impl Source<'_, '_> {
    /// An integer in `range`.
    pub fn int(&mut self, range: std::ops::RangeInclusive<u32>) -> Result<u32> {
        self.u.int_in_range(range)
    }

    /// True with probability `numerator / denominator`.
    pub fn chance(&mut self, numerator: u32, denominator: u32) -> Result<bool> {
        Ok(self.u.int_in_range(0..=denominator - 1)? < numerator)
    }

    pub fn flag(&mut self) -> Result<bool> {
        self.chance(1, 2)
    }

    /// A number in `[lo, hi]`, or (dirty ops only, one time in four) a wild value.
    pub fn num(&mut self, lo: f32, hi: f32) -> Result<f32> {
        if self.dirty && self.chance(1, 4)? {
            let value = WILD[self.u.int_in_range(0..=WILD.len() - 1)?];
            self.extreme |= extreme(value);
            return Ok(value);
        }
        let unit = self.u.int_in_range(0..=(1u32 << 24) - 1)? as f32 / (1u32 << 24) as f32;
        Ok(lo + (hi - lo) * unit)
    }

    /// A vector with both components in `[lo, hi]` (each may be wild in a dirty op).
    pub fn vec(&mut self, lo: f32, hi: f32) -> Result<Vec2> {
        Ok(Vec2::new(self.num(lo, hi)?, self.num(lo, hi)?))
    }

    /// A point of the play area: x in [−6, 6], y in [−1, 9].
    pub fn place(&mut self) -> Result<Vec2> {
        Ok(Vec2::new(self.num(-6.0, 6.0)?, self.num(-1.0, 9.0)?))
    }
}

/// Beyond this magnitude a finite number is extreme: accepted where only finiteness is asked,
/// but another check (mass limits) may refuse it.
pub const HUGE: f32 = 1e6;

pub fn finite(v: f32) -> Verdict {
    Verdict::Accept.unless(!v.is_finite())
}

pub fn finite_vec(v: Vec2) -> Verdict {
    finite(v.x).and(finite(v.y))
}

pub fn non_negative(v: f32) -> Verdict {
    Verdict::Accept.unless(!(v.is_finite() && v >= 0.0))
}

pub fn positive(v: f32) -> Verdict {
    Verdict::Accept.unless(!(v.is_finite() && v > 0.0))
}

/// A break threshold: positive, infinity allowed.
pub fn threshold(v: f32) -> Verdict {
    Verdict::Accept.unless(v.is_nan() || v <= 0.0)
}

/// Whether a finite value is extreme (see [`HUGE`]) or subnormal.
pub fn extreme(v: f32) -> bool {
    v.abs() > HUGE || (v != 0.0 && v.abs() < 1e-30)
}

pub fn extreme_vec(v: Vec2) -> bool {
    extreme(v.x) || extreme(v.y)
}
