//! Joints between two bodies of a group, naming the bodies by their index in
//! [`BodyGroup::bodies`](super::BodyGroup) and anchoring on each body relative to its origin,
//! in the body's own frame.

use prism::Vec2;

/// A rotational spring on a revolute joint, driving the relative angle to zero.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AngularSpring {
    pub hertz: f32,
    pub damping_ratio: f32,
}

/// A revolute motor: drive the relative angular speed to `speed` with at most `max_torque`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motor {
    pub speed: f32,
    pub max_torque: f32,
}

/// A revolute joint between two bodies of the same group (indices into `BodyGroup::bodies`).
/// The relative angle is `angle(B) − angle(A)`, zero at creation.
#[derive(Clone, Debug, PartialEq)]
pub struct RevoluteDesc {
    pub body_a: usize,
    pub body_b: usize,
    pub local_anchor_a: Vec2,
    pub local_anchor_b: Vec2,
    /// Lower and upper relative angle, radians.
    pub limits: Option<[f32; 2]>,
    pub spring: Option<AngularSpring>,
    pub motor: Option<Motor>,
}

impl RevoluteDesc {
    /// A plain hinge (no limits, spring or motor).
    pub fn hinge(body_a: usize, body_b: usize, local_anchor_a: Vec2, local_anchor_b: Vec2) -> Self {
        Self {
            body_a,
            body_b,
            local_anchor_a,
            local_anchor_b,
            limits: None,
            spring: None,
            motor: None,
        }
    }
}
