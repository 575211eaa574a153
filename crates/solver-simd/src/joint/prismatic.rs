//! The prismatic joint (slider): frame B's origin moves along frame A's x axis and the bodies
//! keep their relative angle, with an optional spring, translation limits and a motor along the
//! axis.
//!
//! ## Rows
//!
//! The axis `u` is fixed in body A, so it turns with A: `u = R(ΔqA)·u₀`. With `d` from anchor A
//! to anchor B (see `rows.rs`) the translation is `x = u·d`, and differentiating (with
//! `u̇ = ωA × u`, `ḋ = vB + ωB × rB − vA − ωA × rA`):
//!
//! ```text
//!   ẋ = u·(vB − vA) + ωB·(rB × u) − ωA·((d + rA) × u)
//!     = u·(vB − vA) + a2·ωB − a1·ωA,      a1 = (d + rA) × u,  a2 = rB × u
//! ```
//!
//! The perpendicular direction `n = left_perp(u)` gives the same form with `s1 = (d + rA) × n`,
//! `s2 = rB × n`. The rows:
//!
//! - **Line + angle** (one 2×2 block): `C = (n·d, θ)` with `θ` the joint angle; `K` has
//!   `k11 = mA⁻¹ + mB⁻¹ + IA⁻¹·s1² + IB⁻¹·s2²`, `k12 = IA⁻¹·s1 + IB⁻¹·s2`, `k22 = IA⁻¹ + IB⁻¹`
//!   (1 when neither body rotates, so the block stays invertible; the angle row then neither
//!   applies nor accumulates anything, so no torque is reported). Soft with the joint softness
//!   in the biased pass, rigid in the relax pass.
//! - **Axial rows** with effective mass `1/(mA⁻¹ + mB⁻¹ + IA⁻¹·a1² + IB⁻¹·a2²)`: the spring
//!   (`C = x`, rest at the frames' coincidence), the motor (`ẋ = speed`, impulse bounded by
//!   `h·max_motor_force`) and the limits `x − lower ≥ 0`, `upper − x ≥ 0`, solved in that
//!   order before the block, which has the last word. All four share one Jacobian, so they
//!   are solved on the axial velocity `ẋ` alone and their total impulse is applied to the
//!   bodies once (`rows.rs`, "Rows that share one Jacobian touch the bodies once").

use super::rows::{AxialRow, Deferred, JointPair, RowTerms, ScalarRow, Sym22};
use super::rows::{solve_limits, solve_motor, solve_row};
use super::{JointImpulses, JointParams, JointPrepared, PassContext};
use super::{spring_softness, switched_impulses};
use crate::softness::Softness;
use core_soa::{Vec2, cross, left_perp};

/// Settings of a prismatic joint. The default is a free slider.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PrismaticJoint {
    /// Make the translation a spring toward zero.
    pub enable_spring: bool,
    /// Spring frequency (Hz) along the axis, rest at zero translation.
    pub hertz: f32,
    /// Damping ratio of the spring (1 = critical).
    pub damping_ratio: f32,
    /// Turn the translation limits on.
    pub enable_limit: bool,
    /// Lowest translation along the axis (m).
    pub lower_translation: f32,
    /// Highest translation along the axis (m).
    pub upper_translation: f32,
    /// Turn the motor on.
    pub enable_motor: bool,
    /// Target translation speed (m/s).
    pub motor_speed: f32,
    /// Largest force the motor applies (N).
    pub max_motor_force: f32,
}

/// The axis and its perpendicular as rows, and the translation and offset along them, at the
/// bodies' current pose. Shared by the prismatic and wheel joints.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineGeometry {
    /// `u·d`: the translation along the axis.
    pub translation: f32,
    /// `n·d`: the offset from the axis.
    pub offset: f32,
    /// Along `u`, levers `a1 = (d + rA) × u`, `a2 = rB × u`.
    pub axial: AxialRow,
    /// Along `n`, levers `s1 = (d + rA) × n`, `s2 = rB × n`.
    pub perp: AxialRow,
}

impl LineGeometry {
    pub fn current(pair: &JointPair, p: &JointPrepared) -> LineGeometry {
        let ((r_a, r_b), d) = pair.current_point(p);
        let axis = pair.a.delta_rotation.rotate(p.axis);
        let perp = left_perp(axis);
        let row = |direction: Vec2| {
            AxialRow::new(
                pair,
                direction,
                cross(d + r_a, direction),
                cross(r_b, direction),
            )
        };
        LineGeometry {
            translation: axis.dot(d),
            offset: perp.dot(d),
            axial: row(axis),
            perp: row(perp),
        }
    }

    /// The spring along the axis, solved on `axial` (this geometry's axial row, applied
    /// directly or deferred): `C = x`, rest at zero translation, soft in every pass.
    pub fn solve_spring(
        &self,
        axial: &mut impl ScalarRow,
        softness: &Softness,
        pair: &mut JointPair,
        spring: &mut f32,
    ) {
        let terms = RowTerms::spring(softness, self.translation);
        solve_row(axial, pair, &terms, spring);
    }

    /// The translation limits `x − lower ≥ 0` and `upper − x ≥ 0`, solved on `axial` (as in
    /// [`LineGeometry::solve_spring`]).
    pub fn solve_limits(
        &self,
        axial: &mut impl ScalarRow,
        (lower, upper): (f32, f32),
        i: &mut JointImpulses,
        pair: &mut JointPair,
        pass: &PassContext,
    ) {
        let gaps = (self.translation - lower, upper - self.translation);
        solve_limits(axial, pair, gaps, pass, i);
    }

    /// Applies the carried impulses along the axis and its perpendicular.
    pub fn warm_start(&mut self, pair: &mut JointPair, axial: f32, perp: f32) {
        self.axial.apply(pair, axial);
        self.perp.apply(pair, perp);
    }
}

/// The linear impulse on body B of the axial and perpendicular impulses, along the prepared
/// axis and its perpendicular.
pub(crate) fn line_impulse(p: &JointPrepared, axial: f32, perp: f32) -> Vec2 {
    axial * p.axis + perp * left_perp(p.axis)
}

impl PrismaticJoint {
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
            angular: i.angular,
            ..switched_impulses(i, self.switches())
        }
    }

    pub(crate) fn warm_start(&self, p: &JointPrepared, i: &JointImpulses, pair: &mut JointPair) {
        LineGeometry::current(pair, p).warm_start(pair, axial_impulse(i), i.linear.x);
        pair.apply_angular(i.angular);
    }

    /// Spring, motor, limits, then the line and angle block.
    pub(crate) fn solve(&self, i: &mut JointImpulses, pair: &mut JointPair, pass: &PassContext) {
        let mut g = LineGeometry::current(pair, pass.prepared);
        if self.enable_spring || self.enable_motor || self.enable_limit {
            self.solve_axial_rows(&g, i, pair, pass);
        }
        solve_line_and_angle(&mut g, i, pair, pass);
    }

    /// Spring, motor and limits along the axis, solved in turn on the axial velocity; their
    /// total impulse reaches the bodies once, at the end.
    fn solve_axial_rows(
        &self,
        g: &LineGeometry,
        i: &mut JointImpulses,
        pair: &mut JointPair,
        pass: &PassContext,
    ) {
        let p = pass.prepared;
        let mut axial = Deferred::new(g.axial, pair);
        if self.enable_spring {
            g.solve_spring(&mut axial, &p.spring_softness, pair, &mut i.spring);
        }
        if self.enable_motor {
            let max_impulse = pass.h * self.max_motor_force;
            solve_motor(
                &mut axial,
                pair,
                self.motor_speed,
                max_impulse,
                &mut i.motor,
            );
        }
        if self.enable_limit {
            let limits = (self.lower_translation, self.upper_translation);
            g.solve_limits(&mut axial, limits, i, pair, pass);
        }
        axial.finish(pair);
    }
}

/// The line and angle block: `n·d = 0` and `θ = 0`, solved together.
fn solve_line_and_angle(
    g: &mut LineGeometry,
    i: &mut JointImpulses,
    pair: &mut JointPair,
    pass: &PassContext,
) {
    let p = pass.prepared;
    let velocity = Vec2::new(g.perp.velocity(pair), pair.relative_angular_velocity());
    let (ia, ib) = (pair.inv_inertia_a, pair.inv_inertia_b);
    let rotational = ia + ib;
    let (s1, s2) = (g.perp.lever_a, g.perp.lever_b);
    let k = Sym22 {
        k11: pair.inv_mass_a + pair.inv_mass_b + ia * s1 * s1 + ib * s2 * s2,
        k12: ia * s1 + ib * s2,
        k22: if rotational > 0.0 { rotational } else { 1.0 },
    };
    let (bias, terms) = if pass.use_bias {
        let error = Vec2::new(g.offset, pair.joint_angle(p));
        let s = &p.joint_softness;
        (s.bias_rate * error, RowTerms::spring(s, 0.0))
    } else {
        (Vec2::ZERO, RowTerms::RIGID)
    };
    let accumulated = Vec2::new(i.linear.x, i.angular);
    let mut impulse =
        -terms.mass_scale * k.solve(velocity + bias) - terms.impulse_scale * accumulated;
    if rotational == 0.0 {
        // Neither body can turn: the angle row moves nothing, so it must not accumulate an
        // impulse that would be reported as a reaction torque.
        impulse.y = 0.0;
    }
    i.linear.x += impulse.x;
    i.angular += impulse.y;
    g.perp.apply(pair, impulse.x);
    pair.apply_angular(impulse.y);
}

/// The total impulse along the axis on body B.
fn axial_impulse(i: &JointImpulses) -> f32 {
    i.spring + i.motor + i.lower - i.upper
}

/// The linear and angular impulses the joint applies to body B, along the prepared axes.
pub(crate) fn reaction_impulses(p: &JointPrepared, i: &JointImpulses) -> (Vec2, f32) {
    (line_impulse(p, axial_impulse(i), i.linear.x), i.angular)
}
