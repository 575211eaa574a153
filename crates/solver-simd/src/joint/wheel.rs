//! The wheel joint: frame B's origin stays on frame A's x axis (the suspension axis) and body B
//! turns freely, with a suspension spring and translation limits along the axis and a motor on
//! the rotation — a car's wheel on its strut.
//!
//! ## Rows
//!
//! The geometry is the prismatic joint's ([`super::prismatic`]): the axis `u` turns with A,
//! `x = u·d`, and `ẋ = u·(vB − vA) + a2·ωB − a1·ωA`; the perpendicular `n` has lever arms
//! `s1`, `s2`.
//!
//! - **Motor** on `Ċ = ωB − ωA − speed`, effective mass `1/(IA⁻¹ + IB⁻¹)`, accumulated impulse
//!   bounded by `h·max_motor_torque`.
//! - **Spring** along the axis, `C = x`, with its own softness in every pass.
//! - **Limits** `x − lower ≥ 0`, `upper − x ≥ 0`, speculative while open.
//! - **Line**: `C = n·d`, effective mass `1/(mA⁻¹ + mB⁻¹ + IA⁻¹·s1² + IB⁻¹·s2²)`, soft with
//!   the joint softness in the biased pass, rigid in the relax pass.

use super::prismatic::{LineGeometry, solve_translation_limits};
use super::rows::{JointPair, RowTerms, accumulate_bounded};
use super::{JointError, JointImpulses, JointParams, JointPrepared, PassContext};
use super::{check_finite, check_non_negative, check_range};
use crate::softness::Softness;
use core_soa::{Vec2, left_perp};

/// Settings of a wheel joint. The default is a free wheel on a free axis.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WheelJoint {
    /// Turn the suspension spring on.
    pub enable_spring: bool,
    /// Suspension frequency (Hz), rest at zero translation.
    pub hertz: f32,
    pub damping_ratio: f32,
    pub enable_limit: bool,
    pub lower_translation: f32,
    pub upper_translation: f32,
    pub enable_motor: bool,
    /// Target relative angular speed `ωB − ωA` (rad/s).
    pub motor_speed: f32,
    /// Largest torque the motor applies (N·m).
    pub max_motor_torque: f32,
}

impl WheelJoint {
    pub(crate) fn validate(&self) -> Result<(), JointError> {
        const KIND: &str = "wheel";
        check_non_negative(KIND, "hertz", self.hertz)?;
        check_non_negative(KIND, "damping_ratio", self.damping_ratio)?;
        check_range(
            KIND,
            "lower_translation",
            self.lower_translation,
            self.upper_translation,
        )?;
        check_finite(KIND, "motor_speed", self.motor_speed)?;
        check_non_negative(KIND, "max_motor_torque", self.max_motor_torque)
    }

    pub(crate) fn prepare(&self, p: &mut JointPrepared, params: &JointParams) {
        if self.enable_spring {
            p.spring_softness = Softness::new(self.hertz, self.damping_ratio, params.h);
        }
    }

    pub(crate) fn warm_start(&self, p: &JointPrepared, i: &JointImpulses, pair: &mut JointPair) {
        let g = LineGeometry::current(pair, p);
        g.apply_axial(pair, i.spring + i.lower - i.upper);
        g.apply_perp(pair, i.linear.x);
        pair.apply_angular(i.motor);
    }

    pub(crate) fn solve(
        &self,
        p: &JointPrepared,
        i: &mut JointImpulses,
        pair: &mut JointPair,
        pass: &PassContext,
    ) {
        let g = LineGeometry::current(pair, p);
        if self.enable_motor && p.angular_mass > 0.0 {
            let velocity_error = pair.relative_angular_velocity() - self.motor_speed;
            let impulse = -p.angular_mass * velocity_error;
            let max_impulse = pass.h * self.max_motor_torque;
            pair.apply_angular(accumulate_bounded(&mut i.motor, impulse, max_impulse));
        }
        if self.enable_spring {
            let mass = pair.axial_mass(g.a1, g.a2);
            let terms = RowTerms::spring(&p.spring_softness, g.translation);
            let impulse = terms.impulse(mass, g.axial_velocity(pair), i.spring);
            i.spring += impulse;
            g.apply_axial(pair, impulse);
        }
        if self.enable_limit {
            let limits = (self.lower_translation, self.upper_translation);
            solve_translation_limits(limits, &g, p, i, pair, pass);
        }
        let perp_mass = pair.axial_mass(g.s1, g.s2);
        let terms = RowTerms::equality(&p.joint_softness, g.perp.dot(g.d), pass.use_bias);
        let impulse = terms.impulse(perp_mass, g.perp_velocity(pair), i.linear.x);
        i.linear.x += impulse;
        g.apply_perp(pair, impulse);
    }
}

/// The linear and angular impulses the joint applies to body B, along the prepared axes.
pub(crate) fn reaction_impulses(p: &JointPrepared, i: &JointImpulses) -> (Vec2, f32) {
    let axial = i.spring + i.lower - i.upper;
    (axial * p.axis + i.linear.x * left_perp(p.axis), i.motor)
}
