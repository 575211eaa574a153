//! Vectors, rotations, transforms and boxes: the plain structures every other part uses.
//!
//! A rotation is a unit complex number `c + i·s` (cosine and sine of the angle), as in the
//! engine: make one from an angle with `prism_make_rot()`. Functions that take a rotation check
//! that it is finite and of unit length (within 10⁻³).

use prism::{Aabb, Rot, Transform, Vec2};

/// A 2D vector (m, m/s, N, … depending on use).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PrismVec2 {
    /// The x component.
    pub x: f32,
    /// The y component.
    pub y: f32,
}

/// A rotation: cosine and sine of its angle.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismRot {
    /// Cosine of the angle.
    pub c: f32,
    /// Sine of the angle.
    pub s: f32,
}

/// A rigid transform: rotate by `q`, then translate by `p`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismTransform {
    /// The translation (the body origin's world position).
    pub p: PrismVec2,
    /// The rotation.
    pub q: PrismRot,
}

/// An axis-aligned box.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismAabb {
    /// The corner with the smallest coordinates.
    pub lower: PrismVec2,
    /// The corner with the largest coordinates.
    pub upper: PrismVec2,
}

impl From<Vec2> for PrismVec2 {
    fn from(v: Vec2) -> PrismVec2 {
        PrismVec2 { x: v.x, y: v.y }
    }
}

impl From<PrismVec2> for Vec2 {
    fn from(v: PrismVec2) -> Vec2 {
        Vec2::new(v.x, v.y)
    }
}

impl From<Rot> for PrismRot {
    fn from(q: Rot) -> PrismRot {
        PrismRot { c: q.c, s: q.s }
    }
}

impl From<PrismRot> for Rot {
    fn from(q: PrismRot) -> Rot {
        Rot { c: q.c, s: q.s }
    }
}

impl From<Transform> for PrismTransform {
    fn from(t: Transform) -> PrismTransform {
        PrismTransform {
            p: t.p.into(),
            q: t.q.into(),
        }
    }
}

impl From<Aabb> for PrismAabb {
    fn from(aabb: Aabb) -> PrismAabb {
        PrismAabb {
            lower: aabb.min.into(),
            upper: aabb.max.into(),
        }
    }
}

impl From<PrismAabb> for Aabb {
    fn from(aabb: PrismAabb) -> Aabb {
        Aabb {
            min: aabb.lower.into(),
            max: aabb.upper.into(),
        }
    }
}

/// The rotation by `angle` radians.
#[unsafe(no_mangle)]
pub extern "C" fn prism_make_rot(angle: f32) -> PrismRot {
    Rot::from_angle(angle).into()
}

/// The angle of a rotation in radians, in (−π, π].
#[unsafe(no_mangle)]
pub extern "C" fn prism_rot_get_angle(rotation: PrismRot) -> f32 {
    Rot::from(rotation).angle()
}

/// The identity rotation (angle 0).
#[unsafe(no_mangle)]
pub extern "C" fn prism_rot_identity() -> PrismRot {
    Rot::IDENTITY.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_round_trip_through_their_angle() {
        for angle in [-3.0f32, -1.0, 0.0, 0.5, 3.1] {
            let q = prism_make_rot(angle);
            assert!((q.c - angle.cos()).abs() < 1e-6 && (q.s - angle.sin()).abs() < 1e-6);
            assert!((prism_rot_get_angle(q) - angle).abs() < 1e-6, "{angle}");
        }
        assert_eq!(prism_rot_identity(), PrismRot { c: 1.0, s: 0.0 });
    }
}
