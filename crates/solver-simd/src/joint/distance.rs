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
//! - **Rigid** (spring off, or limits on with `min_length == max_length`): `C = |d| − length`,
//!   soft with the joint softness in the biased pass, rigid in the relax pass. Accumulated in
//!   `linear.x`.
//! - **Spring** (`enable_spring`, `hertz > 0`): the same row with the spring's softness in
//!   every pass. With `hertz = 0` the spring is off and only the limits hold the bodies.
//! - **Limits** (`enable_limit`, only with the spring): `|d| − min ≥ 0` and `max − |d| ≥ 0`,
//!   one-sided, speculative while open: a rope is a spring-less joint with `min = 0`.
//! - **Motor**: `Ċ = speed` with the accumulated impulse bounded by `h·max_motor_force`.
//!
//! They run spring, motor, limits, rigid row: the rows that must hold come last. All of them
//! share one Jacobian, so they are solved in that order on the row's velocity alone and their
//! total impulse is applied to the bodies once (`rows.rs`, "Rows that share one Jacobian touch
//! the bodies once").
//!
//! The length is kept at least [`MIN_DISTANCE_LENGTH`]: at zero length the axis is undefined.

use super::kept;
use super::rows::{AxialRow, Deferred, JointPair, RowTerms, ScalarRow};
use super::rows::{solve_limits, solve_motor, solve_row};
use super::{JointImpulses, JointParams, JointPrepared, PassContext};
use super::{spring_softness, switched_impulses};
use core_soa::{Vec2, cross};

/// The shortest length a distance joint keeps (m).
pub const MIN_DISTANCE_LENGTH: f32 = 0.005;

/// Settings of a distance joint. The default is a rigid rod of one metre.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
    /// Shortest allowed length (m) when the limits are on.
    pub min_length: f32,
    /// Longest allowed length (m) when the limits are on.
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
    fn rest_length(&self) -> f32 {
        self.length.max(MIN_DISTANCE_LENGTH)
    }

    fn limits(&self) -> (f32, f32) {
        let min = self.min_length.max(MIN_DISTANCE_LENGTH);
        (min, self.max_length.max(min))
    }

    /// True when the length row is a spring (or free) rather than a rigid rod: the spring is on
    /// and the limits, if on, leave the length some room.
    fn is_springy(&self) -> bool {
        let (min, max) = self.limits();
        self.enable_spring && (!self.enable_limit || min < max)
    }

    pub(crate) fn prepare(&self, p: &mut JointPrepared, pair: &JointPair, params: &JointParams) {
        let d = p.delta_center + p.anchor_b - p.anchor_a;
        p.axis = d.try_normalize().unwrap_or(p.axis);
        p.axial_mass = pair.axial_mass(cross(p.anchor_a, p.axis), cross(p.anchor_b, p.axis));
        p.spring_softness =
            spring_softness(self.enable_spring, self.hertz, self.damping_ratio, params);
    }

    /// The impulses of the rows these settings solve; the rest are dropped so that a row
    /// switched off stops being warm started.
    pub(crate) fn used_impulses(&self, i: &JointImpulses) -> JointImpulses {
        let springy = self.is_springy();
        let limited = springy && self.enable_limit;
        JointImpulses {
            linear: Vec2::new(kept(!springy, i.linear.x), 0.0),
            ..switched_impulses(i, (springy && self.hertz > 0.0, self.enable_motor, limited))
        }
    }

    pub(crate) fn warm_start(&self, p: &JointPrepared, i: &JointImpulses, pair: &mut JointPair) {
        let (mut row, _) = length_row(pair, p);
        row.apply(pair, axial_impulse(i));
    }

    /// The rows from the least to the most important: spring, motor, limits — or, for a rigid
    /// rod, the length row last — on the row's velocity, applied to the bodies once at the end.
    pub(crate) fn solve(&self, i: &mut JointImpulses, pair: &mut JointPair, pass: &PassContext) {
        let p = pass.prepared;
        let (axial, length) = length_row(pair, p);
        let mut row = Deferred::new(axial, pair);
        let springy = self.is_springy();
        if springy && self.hertz > 0.0 {
            let terms = RowTerms::spring(&p.spring_softness, length - self.rest_length());
            solve_row(&mut row, pair, &terms, &mut i.spring);
        }
        if self.enable_motor {
            let max_impulse = pass.h * self.max_motor_force;
            solve_motor(&mut row, pair, self.motor_speed, max_impulse, &mut i.motor);
        }
        if springy && self.enable_limit {
            let (min, max) = self.limits();
            let gaps = (length - min, max - length);
            solve_limits(&mut row, pair, gaps, pass, i);
        }
        if !springy {
            let c = length - self.rest_length();
            let terms = RowTerms::equality(&p.joint_softness, c, pass.use_bias);
            solve_row(&mut row, pair, &terms, &mut i.linear.x);
        }
        row.finish(pair);
    }
}

/// The length row at the current anchors — along the current unit axis from anchor A to
/// anchor B (the prepared axis when the anchors coincide), with the prepared effective mass —
/// and the current length.
fn length_row(pair: &JointPair, p: &JointPrepared) -> (AxialRow, f32) {
    let (anchors, d) = pair.current_point(p);
    let length = d.length();
    let axis = if length > 0.0 { d / length } else { p.axis };
    (
        AxialRow::through_anchors(axis, anchors, p.axial_mass),
        length,
    )
}

/// The total impulse along the axis on body B.
fn axial_impulse(i: &JointImpulses) -> f32 {
    i.linear.x + i.spring + i.lower - i.upper + i.motor
}

/// The linear impulse the joint applies to body B, along the prepared axis.
pub(crate) fn linear_impulse(p: &JointPrepared, i: &JointImpulses) -> Vec2 {
    axial_impulse(i) * p.axis
}
