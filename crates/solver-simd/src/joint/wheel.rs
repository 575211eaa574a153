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
//! - **Spring** along the axis, `C = x`, with its own softness in every pass.
//! - **Motor** on `Ċ = ωB − ωA − speed`, effective mass `1/(IA⁻¹ + IB⁻¹)`, accumulated impulse
//!   bounded by `h·max_motor_torque`.
//! - **Limits** `x − lower ≥ 0`, `upper − x ≥ 0`, speculative while open. The two share the
//!   axial Jacobian, so they are solved on `ẋ` alone and their total impulse is applied once
//!   (`rows.rs`, "Rows that share one Jacobian touch the bodies once"). The spring shares it
//!   too, but the motor between them reads `ωB − ωA`, which the spring's impulse changes, so
//!   the spring is applied before the motor runs.
//! - **Line**: `C = n·d`, effective mass `1/(mA⁻¹ + mB⁻¹ + IA⁻¹·s1² + IB⁻¹·s2²)`, soft with
//!   the joint softness in the biased pass, rigid in the relax pass; solved last.

use super::prismatic::{LineGeometry, line_impulse};
use super::rows::{AngularRow, Deferred, JointPair, RowTerms, solve_motor, solve_row};
use super::{JointImpulses, JointParams, JointPrepared, PassContext};
use super::{spring_softness, switched_impulses};
use core_soa::Vec2;

/// Settings of a wheel joint. The default is a free wheel on a free axis.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WheelJoint {
    /// Turn the suspension spring on.
    pub enable_spring: bool,
    /// Suspension frequency (Hz), rest at zero translation.
    pub hertz: f32,
    /// Damping ratio of the suspension spring (1 = critical).
    pub damping_ratio: f32,
    /// Turn the translation limits on.
    pub enable_limit: bool,
    /// Lowest translation along the suspension axis (m).
    pub lower_translation: f32,
    /// Highest translation along the suspension axis (m).
    pub upper_translation: f32,
    /// Turn the rotation motor on.
    pub enable_motor: bool,
    /// Target relative angular speed `ωB − ωA` (rad/s).
    pub motor_speed: f32,
    /// Largest torque the motor applies (N·m).
    pub max_motor_torque: f32,
}

impl WheelJoint {
    pub(crate) fn prepare(&self, p: &mut JointPrepared, params: &JointParams) {
        p.spring_softness =
            spring_softness(self.enable_spring, self.hertz, self.damping_ratio, params);
    }

    /// Which of the spring, motor and limit rows are on.
    fn switches(&self) -> (bool, bool, bool) {
        (self.enable_spring, self.enable_motor, self.enable_limit)
    }

    /// The impulses of the rows these settings solve (see `JointConstraint::prepare`).
    pub(crate) fn used_impulses(&self, i: &JointImpulses) -> JointImpulses {
        JointImpulses {
            linear: Vec2::new(i.linear.x, 0.0),
            ..switched_impulses(i, self.switches())
        }
    }

    pub(crate) fn warm_start(&self, p: &JointPrepared, i: &JointImpulses, pair: &mut JointPair) {
        LineGeometry::current(pair, p).warm_start(pair, axial_impulse(i), i.linear.x);
        pair.apply_angular(i.motor);
    }

    /// Spring, motor, limits, then the line row.
    pub(crate) fn solve(&self, i: &mut JointImpulses, pair: &mut JointPair, pass: &PassContext) {
        let p = pass.prepared;
        let mut g = LineGeometry::current(pair, p);
        if self.enable_spring {
            let mut axial = g.axial;
            g.solve_spring(&mut axial, &p.spring_softness, pair, &mut i.spring);
        }
        if self.enable_motor && p.angular_mass > 0.0 {
            let mut spin = AngularRow {
                mass: p.angular_mass,
            };
            let max_impulse = pass.h * self.max_motor_torque;
            solve_motor(&mut spin, pair, self.motor_speed, max_impulse, &mut i.motor);
        }
        if self.enable_limit {
            let limits = (self.lower_translation, self.upper_translation);
            let mut axial = Deferred::new(g.axial, pair);
            g.solve_limits(&mut axial, limits, i, pair, pass);
            axial.finish(pair);
        }
        let terms = RowTerms::equality(&p.joint_softness, g.offset, pass.use_bias);
        solve_row(&mut g.perp, pair, &terms, &mut i.linear.x);
    }
}

/// The total impulse along the axis on body B.
fn axial_impulse(i: &JointImpulses) -> f32 {
    i.spring + i.lower - i.upper
}

/// The linear and angular impulses the joint applies to body B, along the prepared axes.
pub(crate) fn reaction_impulses(p: &JointPrepared, i: &JointImpulses) -> (Vec2, f32) {
    (line_impulse(p, axial_impulse(i), i.linear.x), i.motor)
}
