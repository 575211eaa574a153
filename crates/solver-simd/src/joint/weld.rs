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

use super::rows::{AngularRow, JointPair, RowTerms, solve_row};
use super::{JointImpulses, JointParams, JointPrepared, PassContext};
use crate::softness::Softness;

/// Settings of a weld joint. The default is rigid.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WeldJoint {
    /// Frequency of the linear part (Hz); 0 is rigid.
    pub linear_hertz: f32,
    /// Damping ratio of the linear part (used when `linear_hertz > 0`).
    pub linear_damping_ratio: f32,
    /// Frequency of the angular part (Hz); 0 is rigid.
    pub angular_hertz: f32,
    /// Damping ratio of the angular part (used when `angular_hertz > 0`).
    pub angular_damping_ratio: f32,
}

impl WeldJoint {
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
        pair.warm_start_point_and_angle(p, i);
    }

    /// A part is soft when it is a spring (every pass) or in the biased pass (a rigid part,
    /// with the joint softness); otherwise rigid without feedback.
    pub(crate) fn solve(&self, i: &mut JointImpulses, pair: &mut JointPair, pass: &PassContext) {
        let p = pass.prepared;
        let angular_soft = pass.use_bias || self.angular_hertz > 0.0;
        let terms = if angular_soft {
            RowTerms::spring(&p.angular_softness, pair.joint_angle(p))
        } else {
            RowTerms::RIGID
        };
        let mut angle_row = AngularRow {
            mass: p.angular_mass,
        };
        solve_row(&mut angle_row, pair, &terms, &mut i.angular);

        let (anchors, separation) = pair.current_point(p);
        let linear_soft = pass.use_bias || self.linear_hertz > 0.0;
        let softness = linear_soft.then_some(&p.spring_softness);
        pair.solve_point(anchors, separation, softness, &mut i.linear);
    }
}
