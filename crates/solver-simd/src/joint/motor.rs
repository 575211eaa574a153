//! The motor joint: drives body B toward a pose relative to body A — frame B's origin at
//! `linear_offset` in frame A, and the joint angle at `angular_offset` — with a bounded force
//! and torque. It is a controller, not a constraint: a character pushed around by a platform,
//! or a body steered by a user, that still yields to anything stronger than its limits.
//!
//! ## Rows
//!
//! Both parts ask for the velocity that would remove a fraction `β` (the correction factor) of
//! the error within one substep, and bound the accumulated impulse:
//!
//! ```text
//!   angle:  Δλ = −(1/(IA⁻¹ + IB⁻¹))·(ωB − ωA + β·(θ − θ_offset)/h),   |Λ| ≤ h·max_torque
//!   point:  Δλ = −K⁻¹·(Ċ + β·d/h),                                     |Λ| ≤ h·max_force
//! ```
//!
//! with `d` from the offset target point on A to frame B's origin and `K` the point constraint's
//! matrix (`JointPair::point_matrix` in `rows.rs`). The rows are the same in both passes: the correction is
//! the drive itself, not a stabilisation the relax pass should remove. `β = 1` reaches the
//! target in one substep when the limits allow; smaller values approach it exponentially.

use super::rows::{AngularRow, JointPair, accumulate_within_length, solve_motor};
use super::{JointBody, JointImpulses, JointPrepared, PassContext};
use crate::softness::Softness;
use core_soa::{BodySim, Rot, Vec2};

/// Settings of a motor joint.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MotorJoint {
    /// Where frame B's origin should be, in frame A's coordinates (m).
    pub linear_offset: Vec2,
    /// The joint angle to reach (rad).
    pub angular_offset: f32,
    /// Largest force (N).
    pub max_force: f32,
    /// Largest torque (N·m).
    pub max_torque: f32,
    /// Fraction of the pose error removed per substep, in [0, 1].
    pub correction_factor: f32,
}

impl Default for MotorJoint {
    fn default() -> Self {
        MotorJoint {
            linear_offset: Vec2::ZERO,
            angular_offset: 0.0,
            max_force: 1.0,
            max_torque: 1.0,
            correction_factor: 0.3,
        }
    }
}

impl MotorJoint {
    /// Moves anchor A to the offset target point and subtracts the target angle, so that the
    /// rows drive `d` and `delta_angle` to zero.
    pub(crate) fn prepare(&self, p: &mut JointPrepared, body_a: &JointBody, sims: &[BodySim]) {
        let q_a = body_a.pose(sims).q;
        let offset_in_body = body_a.local_frame.q.rotate(self.linear_offset);
        p.anchor_a += q_a.rotate(offset_in_body);
        p.delta_angle = Rot::from_angle(p.delta_angle - self.angular_offset).angle();
    }

    pub(crate) fn warm_start(&self, p: &JointPrepared, i: &JointImpulses, pair: &mut JointPair) {
        pair.warm_start_point_and_angle(p, i);
    }

    /// The angle row is a motor whose speed removes the fraction `β` of the angle error per
    /// substep, `speed = −(β/h)·θ`; the point row is the rigid point block with bias
    /// `(β/h)·d`, written as a softness of bias rate `β/h` and rigid scales.
    pub(crate) fn solve(&self, i: &mut JointImpulses, pair: &mut JointPair, pass: &PassContext) {
        let p = pass.prepared;
        let gain = self.correction_factor.clamp(0.0, 1.0) * pass.inv_h;
        let mut angle_row = AngularRow {
            mass: p.angular_mass,
        };
        let speed = -(gain * pair.joint_angle(p));
        let max_angular = pass.h * self.max_torque;
        solve_motor(&mut angle_row, pair, speed, max_angular, &mut i.angular);

        let (anchors, d) = pair.current_point(p);
        let drive = Softness {
            bias_rate: gain,
            ..Softness::RIGID
        };
        let impulse = pair.point_increment(anchors, d, Some(&drive), i.linear);
        let max_linear = pass.h * self.max_force;
        let applied = accumulate_within_length(&mut i.linear, impulse, max_linear);
        pair.apply_point(applied, anchors.0, anchors.1);
    }
}
