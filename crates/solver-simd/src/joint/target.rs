//! The target joint (the "mouse joint"): pulls a point of body B toward a world target with a
//! spring of given frequency and damping ratio, and a bounded force — how a user drags a body.
//! It acts on body B only; body A is ignored.
//!
//! ## Rows
//!
//! - **Point**: `C = cB + rB − target = ΔpB + rB + (cB₀ − target)`, `Ċ = vB + ωB × rB`,
//!   `K = mB⁻¹·I + IB⁻¹·[rB.y², −rB.x·rB.y; −rB.x·rB.y, rB.x²]`, as a spring in every pass:
//!
//!   ```text
//!     Δλ = −mass_scale·K⁻¹·(Ċ + bias_rate·C) − impulse_scale·Λ,   |Λ| ≤ h·max_force
//!   ```
//!
//!   At rest under a constant load `F` the spring settles where the carried impulse balances
//!   it: `Λ = F·h = −mass_scale/impulse_scale·bias_rate·m·C·h/h`, and with
//!   `mass_scale/impulse_scale = a2` and `a2·bias_rate = h·ω²` (see `crate::softness`) that
//!   is `C = −F/(m·ω²)`: the static deflection of a spring `k = m·ω²`, as designed.
//! - **Angular damping**: a weak rotational damper (`Ċ = ωB`, no position error,
//!   [`TARGET_ANGULAR_HERTZ`], [`TARGET_ANGULAR_DAMPING_RATIO`]) so that a body dragged by an
//!   off-centre point does not keep spinning about it.

use super::rows::solve_row;
use super::rows::{AngularRow, JointPair, RowTerms, accumulate_within_length, inverse_or_zero};
use super::{JointBody, JointImpulses, JointParams, JointPrepared, PassContext};
use crate::softness::Softness;
use core_soa::{BodySim, Vec2};

/// Frequency of the target joint's angular damper (Hz).
pub const TARGET_ANGULAR_HERTZ: f32 = 0.5;
/// Damping ratio of the target joint's angular damper.
pub const TARGET_ANGULAR_DAMPING_RATIO: f32 = 0.1;

/// Settings of a target joint.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TargetJoint {
    /// Where frame B's origin is pulled to (world, m).
    pub target: Vec2,
    /// Spring frequency (Hz).
    pub hertz: f32,
    /// Damping ratio of the pulling spring (1 = critical).
    pub damping_ratio: f32,
    /// Largest pulling force (N).
    pub max_force: f32,
}

impl Default for TargetJoint {
    fn default() -> Self {
        TargetJoint {
            target: Vec2::ZERO,
            hertz: 5.0,
            damping_ratio: 0.7,
            max_force: 1000.0,
        }
    }
}

impl TargetJoint {
    pub(crate) fn prepare(
        &self,
        p: &mut JointPrepared,
        body_b: &JointBody,
        sims: &[BodySim],
        params: &JointParams,
    ) {
        p.delta_center = body_b.pose(sims).p - self.target;
        p.spring_softness = Softness::new(self.hertz, self.damping_ratio, params.h);
        p.angular_softness =
            Softness::new(TARGET_ANGULAR_HERTZ, TARGET_ANGULAR_DAMPING_RATIO, params.h);
        p.angular_mass = inverse_or_zero(body_b.inv_inertia);
    }

    pub(crate) fn warm_start(&self, p: &JointPrepared, i: &JointImpulses, pair: &mut JointPair) {
        let mut b_only = only_body_b(pair);
        let r_b = b_only.b.delta_rotation.rotate(p.anchor_b);
        b_only.apply_point(i.linear, Vec2::ZERO, r_b);
        b_only.apply_angular(i.angular);
        pair.b = b_only.b;
    }

    pub(crate) fn solve(&self, i: &mut JointImpulses, pair: &mut JointPair, pass: &PassContext) {
        let p = pass.prepared;
        let mut b_only = only_body_b(pair);
        let damper = RowTerms::spring(&p.angular_softness, 0.0);
        let mut spin = AngularRow {
            mass: p.angular_mass,
        };
        solve_row(&mut spin, &mut b_only, &damper, &mut i.angular);

        let r_b = b_only.b.delta_rotation.rotate(p.anchor_b);
        let anchors = (Vec2::ZERO, r_b);
        let separation = b_only.b.delta_position + r_b + p.delta_center;
        let spring = Some(&p.spring_softness);
        let impulse = b_only.point_increment(anchors, separation, spring, i.linear);
        let max_impulse = pass.h * self.max_force;
        let applied = accumulate_within_length(&mut i.linear, impulse, max_impulse);
        b_only.apply_point(applied, Vec2::ZERO, r_b);
        pair.b = b_only.b;
    }
}

/// The pair with body A made immovable and at rest, so that rows see body B alone.
fn only_body_b(pair: &JointPair) -> JointPair {
    let mut b_only = JointPair::at_rest((0, 0.0, 0.0), (0, pair.inv_mass_b, pair.inv_inertia_b));
    b_only.b = pair.b;
    b_only
}
