//! Joints between two bodies of a group, naming the bodies by their index in
//! [`BodyGroup::bodies`](super::BodyGroup) and anchoring on each body relative to its origin,
//! in the body's own frame.
//!
//! Two kinds exist, the ones the scenes use:
//!
//! - a **revolute** joint ([`RevoluteDesc`]): the anchors coincide, the bodies turn freely
//!   about them, with optional angle limits, a rotational spring and a motor;
//! - a **distance** joint ([`DistanceDesc`]): the anchors stay `length` apart, the bodies turn
//!   freely about them. Rigid by default (a massless rod); with a spring, the length becomes a
//!   linear spring of the given frequency, optionally kept between limits.
//!
//! Neither lets its two bodies collide with each other (Box2D's `collideConnected = false`).

use prism::Vec2;

/// A rotational spring on a revolute joint, driving the relative angle to zero.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AngularSpring {
    /// Natural frequency (Hz).
    pub hertz: f32,
    /// Damping ratio (1 = critical).
    pub damping_ratio: f32,
}

/// A revolute motor: drive the relative angular speed to `speed` with at most `max_torque`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motor {
    /// Target relative angular speed (rad/s).
    pub speed: f32,
    /// Largest torque the motor applies (N·m).
    pub max_torque: f32,
}

/// A revolute joint between two bodies of the same group (indices into `BodyGroup::bodies`).
/// The relative angle is `angle(B) − angle(A)`, zero at creation.
#[derive(Clone, Debug, PartialEq)]
pub struct RevoluteDesc {
    /// Index of the first body in the group's `bodies`.
    pub body_a: usize,
    /// Index of the second body in the group's `bodies`.
    pub body_b: usize,
    /// The hinge point in body A's frame (m).
    pub local_anchor_a: Vec2,
    /// The hinge point in body B's frame (m); it coincides with A's at creation.
    pub local_anchor_b: Vec2,
    /// Lower and upper relative angle, radians.
    pub limits: Option<[f32; 2]>,
    /// A spring toward the zero angle, if any.
    pub spring: Option<AngularSpring>,
    /// A motor driving the relative angular speed, if any.
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

/// A linear spring on a distance joint, driving the anchor distance to the rest length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearSpring {
    /// Natural frequency (Hz).
    pub hertz: f32,
    /// Damping ratio (1 = critical).
    pub damping_ratio: f32,
}

/// A distance joint between two bodies of the same group: the anchors are kept `length`
/// apart, rigidly unless `spring` is given.
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceDesc {
    /// Body A's index in the group.
    pub body_a: usize,
    /// Body B's index in the group.
    pub body_b: usize,
    /// The anchor on body A, relative to its origin in its frame (m).
    pub local_anchor_a: Vec2,
    /// The anchor on body B, relative to its origin in its frame (m).
    pub local_anchor_b: Vec2,
    /// Rest length (m).
    pub length: f32,
    /// Makes the length a spring; `None` is a rigid rod.
    pub spring: Option<LinearSpring>,
    /// Smallest and largest anchor distance (m) a spring may reach; only with a spring (a
    /// rigid rod has no room to move).
    pub limits: Option<[f32; 2]>,
}

impl DistanceDesc {
    /// A rigid rod of `length` between the anchors.
    pub fn rod(
        body_a: usize,
        body_b: usize,
        local_anchor_a: Vec2,
        local_anchor_b: Vec2,
        length: f32,
    ) -> Self {
        Self {
            body_a,
            body_b,
            local_anchor_a,
            local_anchor_b,
            length,
            spring: None,
            limits: None,
        }
    }
}

/// Any joint of a group.
#[derive(Clone, Debug, PartialEq)]
pub enum JointDesc {
    /// A hinge.
    Revolute(RevoluteDesc),
    /// A rod or a linear spring.
    Distance(DistanceDesc),
}

impl JointDesc {
    /// The indices of the two bodies in the group.
    pub fn bodies(&self) -> (usize, usize) {
        match self {
            JointDesc::Revolute(j) => (j.body_a, j.body_b),
            JointDesc::Distance(j) => (j.body_a, j.body_b),
        }
    }

    /// The anchors on body A and body B, each relative to its body's origin in its frame.
    pub fn local_anchors(&self) -> (Vec2, Vec2) {
        match self {
            JointDesc::Revolute(j) => (j.local_anchor_a, j.local_anchor_b),
            JointDesc::Distance(j) => (j.local_anchor_a, j.local_anchor_b),
        }
    }

    /// The distance the anchors are meant to keep: 0 for a revolute joint, the length of a
    /// rigid distance joint; `None` for a spring, whose length is free to change. The joint
    /// error figures measure against it.
    pub fn kept_distance(&self) -> Option<f32> {
        match self {
            JointDesc::Revolute(_) => Some(0.0),
            JointDesc::Distance(j) if j.spring.is_none() => Some(j.length),
            JointDesc::Distance(_) => None,
        }
    }
}

impl From<RevoluteDesc> for JointDesc {
    fn from(joint: RevoluteDesc) -> Self {
        JointDesc::Revolute(joint)
    }
}

impl From<DistanceDesc> for JointDesc {
    fn from(joint: DistanceDesc) -> Self {
        JointDesc::Distance(joint)
    }
}
