//! The distance joint: keeps the frame origins at a rest length — rigidly, or as a spring —
//! with optional minimum/maximum lengths and a motor along the line between them.
//!
//! ## Rows
//!
//! All rows act along the unit axis `u = d/|d|` from anchor A to anchor B, recomputed from the
//! current relative pose each time the joint is solved (see `rows.rs`). With
//! `Ċ = u·(vB + ωB × rB − vA − ωA × rA)` the Jacobian is `[−uᵀ, −(rA × u), uᵀ, rB × u]` and the
//! effective mass is `1/(mA⁻¹ + mB⁻¹ + IA⁻¹·(rA × u)² + IB⁻¹·(rB × u)²)`, computed at
//! preparation (the axis turns little within a step).
//!
//! - **Rigid** (spring off, or `min_length == max_length`): `C = |d| − length`, soft with the
//!   joint softness in the biased pass, rigid in the relax pass. Accumulated in `linear.x`.
//! - **Spring** (`enable_spring`, `hertz > 0`): the same row with the spring's softness in
//!   every pass. With `hertz = 0` the spring is off and only the limits hold the bodies.
//! - **Limits** (`enable_limit`, only with the spring): `|d| − min ≥ 0` and `max − |d| ≥ 0`,
//!   one-sided, speculative while open: a rope is a spring-less joint with `min = 0`.
//! - **Motor**: `Ċ = speed` with the accumulated impulse bounded by `h·max_motor_force`.
//!
//! The length is kept at least [`MIN_DISTANCE_LENGTH`]: at zero length the axis is undefined.

use super::rows::{JointPair, RowTerms, accumulate_bounded, accumulate_non_negative};
use super::{JointError, JointImpulses, JointParams, JointPrepared, PassContext};
use super::{check_finite, check_non_negative, check_range};
use crate::softness::Softness;
use core_soa::{Vec2, cross};

/// The shortest length a distance joint keeps (m).
pub const MIN_DISTANCE_LENGTH: f32 = 0.005;

/// Settings of a distance joint. The default is a rigid rod of one metre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistanceJoint {
    /// Rest length (m).
    pub length: f32,
    /// Make the length a spring instead of a rigid rod.
    pub enable_spring: bool,
    /// Spring frequency (Hz); 0 leaves the length free between the limits.
    pub hertz: f32,
    /// Spring damping ratio.
    pub damping_ratio: f32,
    /// Turn the length limits on (used with the spring).
    pub enable_limit: bool,
    pub min_length: f32,
    pub max_length: f32,
    /// Turn the motor on.
    pub enable_motor: bool,
    /// Target rate of change of the length (m/s).
    pub motor_speed: f32,
    /// Largest force the motor applies (N).
    pub max_motor_force: f32,
}

impl Default for DistanceJoint {
    fn default() -> Self {
        DistanceJoint {
            length: 1.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
            enable_limit: false,
            min_length: 0.0,
            max_length: f32::MAX,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_force: 0.0,
        }
    }
}

impl DistanceJoint {
    pub(crate) fn validate(&self) -> Result<(), JointError> {
        const KIND: &str = "distance";
        check_non_negative(KIND, "length", self.length)?;
        check_non_negative(KIND, "hertz", self.hertz)?;
        check_non_negative(KIND, "damping_ratio", self.damping_ratio)?;
        check_non_negative(KIND, "min_length", self.min_length)?;
        check_range(KIND, "min_length", self.min_length, self.max_length)?;
        check_finite(KIND, "motor_speed", self.motor_speed)?;
        check_non_negative(KIND, "max_motor_force", self.max_motor_force)
    }

    fn rest_length(&self) -> f32 {
        self.length.max(MIN_DISTANCE_LENGTH)
    }

    fn limits(&self) -> (f32, f32) {
        let min = self.min_length.max(MIN_DISTANCE_LENGTH);
        (min, self.max_length.max(min))
    }

    /// True when the length row is a spring (or free) rather than a rigid rod.
    fn is_springy(&self) -> bool {
        let (min, max) = self.limits();
        self.enable_spring && min < max
    }

    pub(crate) fn prepare(&self, p: &mut JointPrepared, pair: &JointPair, params: &JointParams) {
        let d = p.delta_center + p.anchor_b - p.anchor_a;
        p.axis = d.try_normalize().unwrap_or(p.axis);
        p.axial_mass = pair.axial_mass(cross(p.anchor_a, p.axis), cross(p.anchor_b, p.axis));
        if self.enable_spring {
            p.spring_softness = Softness::new(self.hertz, self.damping_ratio, params.h);
        }
    }

    pub(crate) fn warm_start(&self, p: &JointPrepared, i: &JointImpulses, pair: &mut JointPair) {
        let (r_a, r_b) = pair.current_anchors(p.anchor_a, p.anchor_b);
        let axis = current_axis(pair, p, r_a, r_b).0;
        pair.apply_point(linear_impulse_along(axis, i), r_a, r_b);
    }

    pub(crate) fn solve(
        &self,
        p: &JointPrepared,
        i: &mut JointImpulses,
        pair: &mut JointPair,
        pass: &PassContext,
    ) {
        let (r_a, r_b) = pair.current_anchors(p.anchor_a, p.anchor_b);
        let (axis, length) = current_axis(pair, p, r_a, r_b);
        let row = AxisRow {
            axis,
            r_a,
            r_b,
            mass: p.axial_mass,
        };
        if self.is_springy() {
            if self.hertz > 0.0 {
                let terms = RowTerms::spring(&p.spring_softness, length - self.rest_length());
                let impulse = terms.impulse(row.mass, row.velocity(pair), i.spring);
                i.spring += impulse;
                row.apply(pair, impulse);
            }
            if self.enable_limit {
                self.solve_limits(&row, length, p, i, pair, pass);
            }
        } else {
            let c = length - self.rest_length();
            let terms = RowTerms::equality(&p.joint_softness, c, pass.use_bias);
            let impulse = terms.impulse(row.mass, row.velocity(pair), i.linear.x);
            i.linear.x += impulse;
            row.apply(pair, impulse);
        }
        if self.enable_motor {
            let impulse = row.mass * (self.motor_speed - row.velocity(pair));
            let max_impulse = pass.h * self.max_motor_force;
            row.apply(pair, accumulate_bounded(&mut i.motor, impulse, max_impulse));
        }
    }

    fn solve_limits(
        &self,
        row: &AxisRow,
        length: f32,
        p: &JointPrepared,
        i: &mut JointImpulses,
        pair: &mut JointPair,
        pass: &PassContext,
    ) {
        let (min, max) = self.limits();
        let soft = &p.joint_softness;
        let lower = RowTerms::limit(soft, length - min, pass.use_bias, pass.inv_h);
        let impulse = lower.impulse(row.mass, row.velocity(pair), i.lower);
        row.apply(pair, accumulate_non_negative(&mut i.lower, impulse));
        let upper = RowTerms::limit(soft, max - length, pass.use_bias, pass.inv_h);
        let impulse = upper.impulse(row.mass, -row.velocity(pair), i.upper);
        row.apply(pair, -accumulate_non_negative(&mut i.upper, impulse));
    }
}

/// The length row at the current anchors.
struct AxisRow {
    axis: Vec2,
    r_a: Vec2,
    r_b: Vec2,
    mass: f32,
}

impl AxisRow {
    fn velocity(&self, pair: &JointPair) -> f32 {
        self.axis
            .dot(pair.relative_point_velocity(self.r_a, self.r_b))
    }

    fn apply(&self, pair: &mut JointPair, impulse: f32) {
        pair.apply_point(impulse * self.axis, self.r_a, self.r_b);
    }
}

/// The current unit axis from anchor A to anchor B and the current length (the prepared axis
/// when the anchors coincide).
fn current_axis(pair: &JointPair, p: &JointPrepared, r_a: Vec2, r_b: Vec2) -> (Vec2, f32) {
    let d = pair.anchor_separation(r_a, r_b, p.delta_center);
    let length = d.length();
    let axis = if length > 0.0 { d / length } else { p.axis };
    (axis, length)
}

fn linear_impulse_along(axis: Vec2, i: &JointImpulses) -> Vec2 {
    (i.linear.x + i.spring + i.lower - i.upper + i.motor) * axis
}

/// The linear impulse the joint applies to body B, along the prepared axis.
pub(crate) fn linear_impulse(p: &JointPrepared, i: &JointImpulses) -> Vec2 {
    linear_impulse_along(p.axis, i)
}
