//! The weld joint: the frame origins coincide and the bodies keep their relative angle. Each
//! part is rigid (frequency 0, using the world's joint softness like any equality row) or a
//! spring of its own frequency and damping ratio — a soft weld is how a bendable beam or a
//! wobbly attachment is made from rigid bodies.
//!
//! ## Rows
//!
//! - **Angle**: `C = θ`, `Ċ = ωB − ωA`, effective mass `1/(IA⁻¹ + IB⁻¹)`.
//! - **Point** (2×2 block): `C = d`, as in the revolute joint.
//!
//! A rigid part is soft with the joint softness in the biased pass and rigid in the relax pass;
//! a spring part uses its own softness in both passes. The angle is solved first, so that the
//! point block, which also turns the bodies, has the last word.

use super::check_non_negative;
use super::rows::{JointPair, RowTerms};
use super::{JointError, JointImpulses, JointParams, JointPrepared, PassContext};
use crate::softness::Softness;

/// Settings of a weld joint. The default is rigid.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WeldJoint {
    /// Frequency of the linear part (Hz); 0 is rigid.
    pub linear_hertz: f32,
    pub linear_damping_ratio: f32,
    /// Frequency of the angular part (Hz); 0 is rigid.
    pub angular_hertz: f32,
    pub angular_damping_ratio: f32,
}

impl WeldJoint {
    pub(crate) fn validate(&self) -> Result<(), JointError> {
        const KIND: &str = "weld";
        check_non_negative(KIND, "linear_hertz", self.linear_hertz)?;
        check_non_negative(KIND, "linear_damping_ratio", self.linear_damping_ratio)?;
        check_non_negative(KIND, "angular_hertz", self.angular_hertz)?;
        check_non_negative(KIND, "angular_damping_ratio", self.angular_damping_ratio)
    }

    /// `spring_softness` holds the linear part's softness, `angular_softness` the angular part's
    /// (the joint softness for a rigid part).
    pub(crate) fn prepare(&self, p: &mut JointPrepared, params: &JointParams) {
        let part = |hertz: f32, zeta: f32| {
            if hertz > 0.0 {
                Softness::new(hertz, zeta, params.h)
            } else {
                p.joint_softness
            }
        };
        p.spring_softness = part(self.linear_hertz, self.linear_damping_ratio);
        p.angular_softness = part(self.angular_hertz, self.angular_damping_ratio);
    }

    pub(crate) fn warm_start(&self, p: &JointPrepared, i: &JointImpulses, pair: &mut JointPair) {
        let anchors = pair.current_anchors(p.anchor_a, p.anchor_b);
        pair.apply_point(i.linear, anchors.0, anchors.1);
        pair.apply_angular(i.angular);
    }

    pub(crate) fn solve(
        &self,
        p: &JointPrepared,
        i: &mut JointImpulses,
        pair: &mut JointPair,
        pass: &PassContext,
    ) {
        let angular_soft = pass.use_bias || self.angular_hertz > 0.0;
        let terms = if angular_soft {
            let angle = p.delta_angle + pair.step_relative_angle();
            RowTerms::spring(&p.angular_softness, angle)
        } else {
            RowTerms::RIGID
        };
        let impulse = terms.impulse(p.angular_mass, pair.relative_angular_velocity(), i.angular);
        i.angular += impulse;
        pair.apply_angular(impulse);

        let anchors = pair.current_anchors(p.anchor_a, p.anchor_b);
        let separation = pair.anchor_separation(anchors.0, anchors.1, p.delta_center);
        let linear_soft = pass.use_bias || self.linear_hertz > 0.0;
        let softness = linear_soft.then_some(&p.spring_softness);
        pair.solve_point(anchors, separation, softness, &mut i.linear);
    }
}
