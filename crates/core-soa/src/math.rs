//! Rotations and rigid transforms in the plane.
//!
//! A rotation is stored as its cosine/sine pair rather than an angle: composing, inverting and
//! applying it are then a handful of multiplies with no trigonometry, and the solver can
//! integrate it by angular velocity with a first-order update followed by renormalisation
//! (`q ← normalize(q + h·ω·q⊥)`), which is what a substepping solver does thousands of times a
//! step.
//!
//! Angles enter and leave through [`Rot::from_angle`] and [`Rot::angle`], which use this
//! crate's own [`sin_cos`] and [`atan2`] (see `trig.rs`), not the platform's libm: they give
//! the same bits on every platform, so a body created at an angle or a joint angle measured in
//! the step cannot make two machines' simulations differ.

mod trig;

pub use trig::{atan2, cos, hypot, sin, sin_cos};

use glam::Vec2;

/// A rotation as a unit complex number `c + i·s` (cosine and sine of the angle).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rot {
    /// Cosine of the angle.
    pub c: f32,
    /// Sine of the angle; `c² + s² = 1` for a valid rotation.
    pub s: f32,
}

impl Default for Rot {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Rot {
    /// The rotation by zero: `c = 1, s = 0`.
    pub const IDENTITY: Rot = Rot { c: 1.0, s: 0.0 };

    /// The rotation by `angle` radians (deterministic: [`sin_cos`], within 0.8 ulp).
    #[inline]
    pub fn from_angle(angle: f32) -> Rot {
        let (s, c) = sin_cos(angle);
        Rot { c, s }
    }

    /// The angle in radians, in [−π, π] (−π only for `s = −0`; deterministic: [`atan2`]).
    #[inline]
    pub fn angle(self) -> f32 {
        atan2(self.s, self.c)
    }

    /// Rotates `v`.
    #[inline]
    pub fn rotate(self, v: Vec2) -> Vec2 {
        Vec2::new(self.c * v.x - self.s * v.y, self.s * v.x + self.c * v.y)
    }

    /// Rotates `v` by the inverse rotation.
    #[inline]
    pub fn inv_rotate(self, v: Vec2) -> Vec2 {
        Vec2::new(self.c * v.x + self.s * v.y, -self.s * v.x + self.c * v.y)
    }

    /// The composition `self ∘ other` (apply `other` first).
    #[inline]
    #[allow(
        clippy::should_implement_trait,
        reason = "named to pair with `inv_mul`; composition order is clearer spelled out"
    )]
    pub fn mul(self, other: Rot) -> Rot {
        Rot {
            c: self.c * other.c - self.s * other.s,
            s: self.s * other.c + self.c * other.s,
        }
    }

    /// `self⁻¹ ∘ other`: the rotation of `other` relative to `self`.
    #[inline]
    pub fn inv_mul(self, other: Rot) -> Rot {
        Rot {
            c: self.c * other.c + self.s * other.s,
            s: self.c * other.s - self.s * other.c,
        }
    }

    /// The inverse rotation.
    #[inline]
    pub fn inverse(self) -> Rot {
        Rot {
            c: self.c,
            s: -self.s,
        }
    }

    /// Returns the rotation scaled back to unit length (identity if degenerate).
    #[inline]
    pub fn normalize(self) -> Rot {
        let mag = (self.c * self.c + self.s * self.s).sqrt();
        if mag > 0.0 {
            let inv = 1.0 / mag;
            Rot {
                c: self.c * inv,
                s: self.s * inv,
            }
        } else {
            Rot::IDENTITY
        }
    }

    /// Advances the rotation by a small angle `delta_angle` (ω·h): `q + Δθ·q⊥`, renormalised.
    /// Exact to first order; the renormalisation keeps it a rotation.
    #[inline]
    pub fn integrate(self, delta_angle: f32) -> Rot {
        Rot {
            c: self.c - delta_angle * self.s,
            s: self.s + delta_angle * self.c,
        }
        .normalize()
    }

    /// Normalised linear interpolation from `a` (t = 0) to `b` (t = 1).
    #[inline]
    pub fn nlerp(a: Rot, b: Rot, t: f32) -> Rot {
        let u = 1.0 - t;
        Rot {
            c: u * a.c + t * b.c,
            s: u * a.s + t * b.s,
        }
        .normalize()
    }

    /// The relative angle from `a` to `b`, in [−π, π].
    #[inline]
    pub fn relative_angle(a: Rot, b: Rot) -> f32 {
        a.inv_mul(b).angle()
    }

    /// The local x axis in world coordinates.
    #[inline]
    pub fn x_axis(self) -> Vec2 {
        Vec2::new(self.c, self.s)
    }

    /// The local y axis in world coordinates.
    #[inline]
    pub fn y_axis(self) -> Vec2 {
        Vec2::new(-self.s, self.c)
    }

    /// Whether both components are finite and `c² + s²` is within 10⁻³ of 1 (a usable rotation).
    pub fn is_valid(self) -> bool {
        self.c.is_finite()
            && self.s.is_finite()
            && ((self.c * self.c + self.s * self.s) - 1.0).abs() < 1e-3
    }
}

/// A rigid transform: rotate, then translate.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Transform {
    /// Translation (m): where the frame's origin lands.
    pub p: Vec2,
    /// Rotation, applied before the translation.
    pub q: Rot,
}

impl Transform {
    /// The transform that leaves every point where it is.
    pub const IDENTITY: Transform = Transform {
        p: Vec2::ZERO,
        q: Rot::IDENTITY,
    };

    /// The transform that rotates by `q`, then translates by `p`.
    #[inline]
    pub fn new(p: Vec2, q: Rot) -> Transform {
        Transform { p, q }
    }

    /// Maps a local point to world coordinates.
    #[inline]
    pub fn apply(self, v: Vec2) -> Vec2 {
        self.q.rotate(v) + self.p
    }

    /// Maps a world point to local coordinates.
    #[inline]
    pub fn inv_apply(self, v: Vec2) -> Vec2 {
        self.q.inv_rotate(v - self.p)
    }

    /// The composition `self ∘ other`.
    #[inline]
    #[allow(
        clippy::should_implement_trait,
        reason = "named to pair with `inv_mul`; composition order is clearer spelled out"
    )]
    pub fn mul(self, other: Transform) -> Transform {
        Transform {
            p: self.q.rotate(other.p) + self.p,
            q: self.q.mul(other.q),
        }
    }

    /// `self⁻¹ ∘ other`: `other` expressed in the frame of `self`.
    #[inline]
    pub fn inv_mul(self, other: Transform) -> Transform {
        Transform {
            p: self.q.inv_rotate(other.p - self.p),
            q: self.q.inv_mul(other.q),
        }
    }

    /// The transform that undoes this one: `inverse().apply(apply(v)) = v` up to rounding.
    pub fn inverse(self) -> Transform {
        let q = self.q.inverse();
        Transform {
            p: -q.rotate(self.p),
            q,
        }
    }
}

/// 2D cross product of two vectors (a scalar).
#[inline]
pub fn cross(a: Vec2, b: Vec2) -> f32 {
    a.x * b.y - a.y * b.x
}

/// Cross product of a vector and a scalar: `v × s = (s·v.y, −s·v.x)`.
#[inline]
pub fn cross_vs(v: Vec2, s: f32) -> Vec2 {
    Vec2::new(s * v.y, -s * v.x)
}

/// Cross product of a scalar and a vector: `s × v = (−s·v.y, s·v.x)`.
#[inline]
pub fn cross_sv(s: f32, v: Vec2) -> Vec2 {
    Vec2::new(-s * v.y, s * v.x)
}

/// The left perpendicular `(−y, x)`.
#[inline]
pub fn left_perp(v: Vec2) -> Vec2 {
    Vec2::new(-v.y, v.x)
}

/// The right perpendicular `(y, −x)`.
#[inline]
pub fn right_perp(v: Vec2) -> Vec2 {
    Vec2::new(v.y, -v.x)
}

/// True when both components are finite.
#[inline]
pub fn is_finite(v: Vec2) -> bool {
    v.x.is_finite() && v.y.is_finite()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::PI;

    /// Single-precision products and sums of unit-sized numbers carry a few ulps of error
    /// (ε = 1.2e-7); 1e-6 allows about eight of them.
    const UNIT_TOLERANCE: f32 = 1e-6;

    fn angles() -> impl Iterator<Item = f32> {
        (-12..=12).map(|k| k as f32 * PI / 12.0 + 0.01)
    }

    fn vectors() -> [Vec2; 4] {
        [
            Vec2::new(1.0, 0.0),
            Vec2::new(-3.0, 2.5),
            Vec2::new(0.25, -7.0),
            Vec2::new(9.0, 9.0),
        ]
    }

    fn assert_rot_close(a: Rot, b: Rot, tolerance: f32) {
        assert!(
            (a.c - b.c).abs() <= tolerance && (a.s - b.s).abs() <= tolerance,
            "{a:?} vs {b:?}"
        );
    }

    /// Vectors up to length ~13 here: the tolerance scales the unit one by the magnitude.
    fn assert_vec_close(a: Vec2, b: Vec2) {
        let tolerance = UNIT_TOLERANCE * 16.0 * (1.0 + b.length());
        assert!((a - b).length() <= tolerance, "{a} vs {b}");
    }

    /// The distance between two angles on the circle (so ±π are the same angle).
    fn angle_distance(a: f32, b: f32) -> f32 {
        let d = (a - b).rem_euclid(2.0 * PI);
        d.min(2.0 * PI - d)
    }

    #[test]
    fn rotate_then_inv_rotate_is_identity_and_preserves_length() {
        for angle in angles() {
            let q = Rot::from_angle(angle);
            for v in vectors() {
                assert_vec_close(q.inv_rotate(q.rotate(v)), v);
                assert!((q.rotate(v).length() - v.length()).abs() <= 1e-5 * v.length());
            }
        }
        let quarter = Rot::from_angle(PI / 2.0);
        assert_vec_close(quarter.rotate(Vec2::X), Vec2::Y);
    }

    #[test]
    fn composition_adds_angles_and_inverse_undoes() {
        for a in angles() {
            for b in angles() {
                let (qa, qb) = (Rot::from_angle(a), Rot::from_angle(b));
                assert_rot_close(qa.mul(qb), Rot::from_angle(a + b), UNIT_TOLERANCE);
                assert_rot_close(qa.inv_mul(qb), Rot::from_angle(b - a), UNIT_TOLERANCE);
                assert_rot_close(qa.inv_mul(qb), qa.inverse().mul(qb), UNIT_TOLERANCE);
                let relative = Rot::relative_angle(qa, qb);
                let expected = Rot::from_angle(b - a).angle();
                assert!(
                    angle_distance(relative, expected) <= 1e-5,
                    "{relative} vs {expected}"
                );
            }
            let q = Rot::from_angle(a);
            assert_rot_close(q.mul(q.inverse()), Rot::IDENTITY, UNIT_TOLERANCE);
        }
    }

    /// One integration step turns by atan(Δθ), not Δθ: `q + Δθ·q⊥` has angle atan(Δθ) relative
    /// to `q`, and normalising does not change the angle. Compounded, N steps give N·atan(Δθ).
    #[test]
    fn integrate_turns_by_atan_of_each_increment() {
        let delta = 0.1_f32;
        let steps = 20;
        let mut q = Rot::IDENTITY;
        for _ in 0..steps {
            q = q.integrate(delta);
        }
        // Exact angle 2.0; first-order lag per step Δθ − atan Δθ ≈ Δθ³/3 = 3.3e-4, total 6.6e-3.
        let expected = steps as f32 * delta.atan();
        // Rounding: ~2.4e-7 rad per step (a few ulps through normalise), 20 steps ≈ 5e-6.
        assert!(
            (q.angle() - expected).abs() < 1e-5,
            "{} vs {expected}",
            q.angle()
        );
        assert!(
            (q.angle() - 2.0).abs() > 5e-3,
            "the first-order lag is really there"
        );
        assert!(q.is_valid());
    }

    /// With ω·h small the lag Δθ³/3 per step vanishes: ω = 1 rad/s, h = 1 ms, 1000 steps lag by
    /// 1000·(1e-3)³/3 = 3.3e-7 rad. Rounding dominates: at most ~2.4e-7 rad per step in the worst
    /// case, 2.4e-4 rad after 1000 steps, so that is the bound.
    #[test]
    fn integrate_many_small_steps_approaches_exact_angle() {
        let (omega, h, steps) = (1.0_f32, 1e-3_f32, 1000);
        let mut q = Rot::IDENTITY;
        for _ in 0..steps {
            q = q.integrate(omega * h);
        }
        let exact = omega * h * steps as f32;
        assert!(
            (q.angle() - exact).abs() < 2.4e-4,
            "{} vs {exact}",
            q.angle()
        );
        assert!(q.is_valid());
    }

    #[test]
    fn nlerp_hits_endpoints_and_bisects_at_midpoint() {
        let (a, b) = (0.3_f32, 1.9_f32);
        let (qa, qb) = (Rot::from_angle(a), Rot::from_angle(b));
        assert_rot_close(Rot::nlerp(qa, qb, 0.0), qa, UNIT_TOLERANCE);
        assert_rot_close(Rot::nlerp(qa, qb, 1.0), qb, UNIT_TOLERANCE);
        // The chord's midpoint lies on the bisector, so the normalised midpoint is exact.
        let middle = Rot::nlerp(qa, qb, 0.5);
        assert!((middle.angle() - 0.5 * (a + b)).abs() <= UNIT_TOLERANCE);
        // Elsewhere nlerp is not uniform in angle, but it stays between the endpoints.
        let quarter = Rot::nlerp(qa, qb, 0.25).angle();
        assert!(a < quarter && quarter < middle.angle());
    }

    #[test]
    fn transform_round_trips() {
        let frames = [
            Transform::new(Vec2::new(1.0, -2.0), Rot::from_angle(0.7)),
            Transform::new(Vec2::new(-4.5, 3.0), Rot::from_angle(-2.9)),
            Transform::IDENTITY,
        ];
        for a in frames {
            for b in frames {
                for v in vectors() {
                    assert_vec_close(a.inv_apply(a.apply(v)), v);
                    assert_vec_close(a.apply(a.inv_apply(v)), v);
                    assert_vec_close(a.mul(b).apply(v), a.apply(b.apply(v)));
                    assert_vec_close(a.inv_mul(b).apply(v), a.inv_apply(b.apply(v)));
                    assert_vec_close(a.inverse().apply(v), a.inv_apply(v));
                }
                let back = a.mul(a.inv_mul(b));
                assert_vec_close(back.p, b.p);
                assert_rot_close(back.q, b.q, UNIT_TOLERANCE);
            }
        }
    }

    #[test]
    fn cross_products_and_perpendiculars() {
        let (a, b) = (Vec2::new(2.0, 3.0), Vec2::new(-1.0, 4.0));
        assert_eq!(cross(a, b), 11.0);
        assert_eq!(cross_sv(2.0, a), Vec2::new(-6.0, 4.0));
        assert_eq!(cross_vs(a, 2.0), Vec2::new(6.0, -4.0));
        assert_eq!(left_perp(a), Vec2::new(-3.0, 2.0));
        assert_eq!(right_perp(a), Vec2::new(3.0, -2.0));
        assert_eq!(cross(left_perp(a), a), -a.length_squared());
        assert!(is_finite(a) && !is_finite(Vec2::new(f32::NAN, 0.0)));
    }
}
