//! Rotations and rigid transforms in the plane.
//!
//! A rotation is stored as its cosine/sine pair rather than an angle: composing, inverting and
//! applying it are then a handful of multiplies with no trigonometry, and the solver can
//! integrate it by angular velocity with a first-order update followed by renormalisation
//! (`q ← normalize(q + h·ω·q⊥)`), which is what a substepping solver does thousands of times a
//! step.

use glam::Vec2;

/// A rotation as a unit complex number `c + i·s` (cosine and sine of the angle).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Rot {
    pub c: f32,
    pub s: f32,
}

impl Default for Rot {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Rot {
    pub const IDENTITY: Rot = Rot { c: 1.0, s: 0.0 };

    /// The rotation by `angle` radians.
    #[inline]
    pub fn from_angle(angle: f32) -> Rot {
        let (s, c) = angle.sin_cos();
        Rot { c, s }
    }

    /// The angle in radians, in (−π, π].
    #[inline]
    pub fn angle(self) -> f32 {
        self.s.atan2(self.c)
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
        Rot { c: self.c, s: -self.s }
    }

    /// Returns the rotation scaled back to unit length (identity if degenerate).
    #[inline]
    pub fn normalize(self) -> Rot {
        let mag = (self.c * self.c + self.s * self.s).sqrt();
        if mag > 0.0 {
            let inv = 1.0 / mag;
            Rot { c: self.c * inv, s: self.s * inv }
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
        Rot { c: u * a.c + t * b.c, s: u * a.s + t * b.s }.normalize()
    }

    /// The relative angle from `a` to `b`, in (−π, π].
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

    pub fn is_valid(self) -> bool {
        self.c.is_finite() && self.s.is_finite() && ((self.c * self.c + self.s * self.s) - 1.0).abs() < 1e-3
    }
}

/// A rigid transform: rotate, then translate.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Transform {
    pub p: Vec2,
    pub q: Rot,
}

impl Transform {
    pub const IDENTITY: Transform = Transform { p: Vec2::ZERO, q: Rot::IDENTITY };

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
    pub fn mul(self, other: Transform) -> Transform {
        Transform { p: self.q.rotate(other.p) + self.p, q: self.q.mul(other.q) }
    }

    /// `self⁻¹ ∘ other`: `other` expressed in the frame of `self`.
    #[inline]
    pub fn inv_mul(self, other: Transform) -> Transform {
        Transform { p: self.q.inv_rotate(other.p - self.p), q: self.q.inv_mul(other.q) }
    }

    pub fn inverse(self) -> Transform {
        let q = self.q.inverse();
        Transform { p: -q.rotate(self.p), q }
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
