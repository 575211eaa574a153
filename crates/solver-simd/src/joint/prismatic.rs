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
//!   (1 when neither body rotates, so the block stays invertible and the angle row applies
//!   nothing). Soft with the joint softness in the biased pass, rigid in the relax pass.
//! - **Axial rows** with effective mass `1/(mA⁻¹ + mB⁻¹ + IA⁻¹·a1² + IB⁻¹·a2²)`: the motor
//!   (`ẋ = speed`, impulse bounded by `h·max_motor_force`), the spring (`C = x`, rest at the
//!   frames' coincidence) and the limits `x − lower ≥ 0`, `upper − x ≥ 0`.

use super::rows::{JointPair, RowTerms, Sym22, accumulate_bounded, accumulate_non_negative};
use super::{JointError, JointImpulses, JointParams, JointPrepared, PassContext};
use super::{check_finite, check_non_negative, check_range};
use crate::softness::Softness;
use core_soa::{Vec2, cross, left_perp};

/// Settings of a prismatic joint. The default is a free slider.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PrismaticJoint {
    pub enable_spring: bool,
    /// Spring frequency (Hz) along the axis, rest at zero translation.
    pub hertz: f32,
    pub damping_ratio: f32,
    pub enable_limit: bool,
    /// Lowest translation along the axis (m).
    pub lower_translation: f32,
    /// Highest translation along the axis (m).
    pub upper_translation: f32,
    pub enable_motor: bool,
    /// Target translation speed (m/s).
    pub motor_speed: f32,
    /// Largest force the motor applies (N).
    pub max_motor_force: f32,
}

/// The axis, its perpendicular, and the lever arms of both, at the bodies' current pose.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineGeometry {
    /// From anchor A to anchor B.
    pub d: Vec2,
    pub axis: Vec2,
    pub perp: Vec2,
    /// `u·d`.
    pub translation: f32,
    pub a1: f32,
    pub a2: f32,
    pub s1: f32,
    pub s2: f32,
}

impl LineGeometry {
    pub fn current(pair: &JointPair, p: &JointPrepared) -> LineGeometry {
        let (r_a, r_b) = pair.current_anchors(p.anchor_a, p.anchor_b);
        let d = pair.anchor_separation(r_a, r_b, p.delta_center);
        let axis = pair.a.delta_rotation.rotate(p.axis);
        let perp = left_perp(axis);
        LineGeometry {
            d,
            axis,
            perp,
            translation: axis.dot(d),
            a1: cross(d + r_a, axis),
            a2: cross(r_b, axis),
            s1: cross(d + r_a, perp),
            s2: cross(r_b, perp),
        }
    }

    pub fn axial_velocity(&self, pair: &JointPair) -> f32 {
        pair.axial_velocity(self.axis, self.a1, self.a2)
    }

    pub fn apply_axial(&self, pair: &mut JointPair, impulse: f32) {
        pair.apply_axial(impulse, self.axis, self.a1, self.a2);
    }

    pub fn perp_velocity(&self, pair: &JointPair) -> f32 {
        pair.axial_velocity(self.perp, self.s1, self.s2)
    }

    pub fn apply_perp(&self, pair: &mut JointPair, impulse: f32) {
        pair.apply_axial(impulse, self.perp, self.s1, self.s2);
    }
}

/// The translation limits of a prismatic or wheel joint: two one-sided axial rows.
pub(crate) fn solve_translation_limits(
    (lower, upper): (f32, f32),
    g: &LineGeometry,
    p: &JointPrepared,
    i: &mut JointImpulses,
    pair: &mut JointPair,
    pass: &PassContext,
) {
    let mass = pair.axial_mass(g.a1, g.a2);
    let soft = &p.joint_softness;
    let lower_terms = RowTerms::limit(soft, g.translation - lower, pass.use_bias, pass.inv_h);
    let impulse = lower_terms.impulse(mass, g.axial_velocity(pair), i.lower);
    g.apply_axial(pair, accumulate_non_negative(&mut i.lower, impulse));
    let upper_terms = RowTerms::limit(soft, upper - g.translation, pass.use_bias, pass.inv_h);
    let impulse = upper_terms.impulse(mass, -g.axial_velocity(pair), i.upper);
    g.apply_axial(pair, -accumulate_non_negative(&mut i.upper, impulse));
}

impl PrismaticJoint {
    pub(crate) fn validate(&self) -> Result<(), JointError> {
        const KIND: &str = "prismatic";
        check_non_negative(KIND, "hertz", self.hertz)?;
        check_non_negative(KIND, "damping_ratio", self.damping_ratio)?;
        check_range(
            KIND,
            "lower_translation",
            self.lower_translation,
            self.upper_translation,
        )?;
        check_finite(KIND, "motor_speed", self.motor_speed)?;
        check_non_negative(KIND, "max_motor_force", self.max_motor_force)
    }

    pub(crate) fn prepare(&self, p: &mut JointPrepared, params: &JointParams) {
        if self.enable_spring {
            p.spring_softness = Softness::new(self.hertz, self.damping_ratio, params.h);
        }
    }

    pub(crate) fn warm_start(&self, p: &JointPrepared, i: &JointImpulses, pair: &mut JointPair) {
        let g = LineGeometry::current(pair, p);
        g.apply_axial(pair, i.spring + i.motor + i.lower - i.upper);
        g.apply_perp(pair, i.linear.x);
        pair.apply_angular(i.angular);
    }

    pub(crate) fn solve(
        &self,
        p: &JointPrepared,
        i: &mut JointImpulses,
        pair: &mut JointPair,
        pass: &PassContext,
    ) {
        let g = LineGeometry::current(pair, p);
        let axial_mass = pair.axial_mass(g.a1, g.a2);
        if self.enable_motor {
            let impulse = axial_mass * (self.motor_speed - g.axial_velocity(pair));
            let max_impulse = pass.h * self.max_motor_force;
            g.apply_axial(pair, accumulate_bounded(&mut i.motor, impulse, max_impulse));
        }
        if self.enable_spring {
            let terms = RowTerms::spring(&p.spring_softness, g.translation);
            let impulse = terms.impulse(axial_mass, g.axial_velocity(pair), i.spring);
            i.spring += impulse;
            g.apply_axial(pair, impulse);
        }
        if self.enable_limit {
            let limits = (self.lower_translation, self.upper_translation);
            solve_translation_limits(limits, &g, p, i, pair, pass);
        }
        solve_line_and_angle(&g, p, i, pair, pass);
    }
}

/// The line and angle block: `n·d = 0` and `θ = 0`, solved together.
fn solve_line_and_angle(
    g: &LineGeometry,
    p: &JointPrepared,
    i: &mut JointImpulses,
    pair: &mut JointPair,
    pass: &PassContext,
) {
    let velocity = Vec2::new(g.perp_velocity(pair), pair.relative_angular_velocity());
    let (ma, mb, ia, ib) = (
        pair.inv_mass_a,
        pair.inv_mass_b,
        pair.inv_inertia_a,
        pair.inv_inertia_b,
    );
    let rotational = ia + ib;
    let k = Sym22 {
        k11: ma + mb + ia * g.s1 * g.s1 + ib * g.s2 * g.s2,
        k12: ia * g.s1 + ib * g.s2,
        k22: if rotational > 0.0 { rotational } else { 1.0 },
    };
    let (bias, terms) = if pass.use_bias {
        let error = Vec2::new(g.perp.dot(g.d), p.delta_angle + pair.step_relative_angle());
        let s = &p.joint_softness;
        (s.bias_rate * error, RowTerms::spring(s, 0.0))
    } else {
        (Vec2::ZERO, RowTerms::RIGID)
    };
    let accumulated = Vec2::new(i.linear.x, i.angular);
    let impulse = -terms.mass_scale * k.solve(velocity + bias) - terms.impulse_scale * accumulated;
    i.linear.x += impulse.x;
    i.angular += impulse.y;
    g.apply_perp(pair, impulse.x);
    pair.apply_angular(impulse.y);
}

/// The linear and angular impulses the joint applies to body B, along the prepared axes.
pub(crate) fn reaction_impulses(p: &JointPrepared, i: &JointImpulses) -> (Vec2, f32) {
    let axial = i.spring + i.motor + i.lower - i.upper;
    (axial * p.axis + i.linear.x * left_perp(p.axis), i.angular)
}
