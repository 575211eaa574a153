//! The revolute joint (hinge): the two frame origins coincide, the bodies turn freely about
//! them, with an optional angle spring, angle limits and a motor.
//!
//! ## Rows
//!
//! - **Point** (two rows, one 2×2 block): `C = d = (cB + rB) − (cA + rA)`,
//!   `Ċ = vB + ωB × rB − vA − ωA × rA`, `K` from `JointPair::point_matrix` in `rows.rs`. Soft with the
//!   joint softness in the biased pass, rigid in the relax pass.
//! - **Angle rows** all have `Ċ = ωB − ωA` and effective mass `1/(IA⁻¹ + IB⁻¹)`
//!   (`prepared.angular_mass`), with the joint angle `θ = delta_angle + angle(ΔqA⁻¹·ΔqB)`:
//!   - spring: `C = θ` (rest at the reference angle), soft with the spring's own softness;
//!   - motor: a velocity row `Ċ = ωB − ωA − speed`, rigid, with the accumulated impulse
//!     bounded by `h·max_motor_torque`;
//!   - lower limit `C = θ − lower ≥ 0` and upper limit `C = upper − θ ≥ 0`, each a one-sided
//!     row (accumulated impulse ≥ 0), speculative while open.
//!
//! When neither body can rotate (`angular_mass = 0`) the angle rows are skipped, and so they
//! are when none is switched on: a plain hinge is the point block alone, with its anchors
//! rotated and its `K` built and factored once per pass (the angle rows, when on, share
//! both), and without the joint angle and its `atan2` (neither the motor nor the point block
//! reads it).
//!
//! ## Angle rows turn the bodies about the hinge
//!
//! Solved on their own, the angle rows would see only the bodies' inertias about their centres,
//! `1/(IA⁻¹ + IB⁻¹)`, and the point row solved after them would undo their work: on an arm whose
//! mass sits far from the hinge (inertia small against `m·r²`) the point row turns the body right
//! back to keep the hinge together, and a limit leaks by tens of degrees. So each angle row
//! applies its angular impulse `λ` *together with* the point impulse that keeps the hinge's
//! relative velocity unchanged. An angular impulse changes the hinge velocity by `u·λ` with
//!
//! ```text
//!   u = ωB-part × rB − ωA-part × rA = left_perp(IA⁻¹·rA + IB⁻¹·rB)
//! ```
//!
//! and the point impulse `P = −K⁻¹·u·λ` cancels exactly that. The pair `(λ, P)` changes the
//! relative angular velocity by `(IA⁻¹ + IB⁻¹ − uᵀ·K⁻¹·u)·λ` (the point block's Schur complement),
//! so the row's effective mass is `1/(IA⁻¹ + IB⁻¹ − uᵀ·K⁻¹·u)`. For a body of mass `m` and
//! inertia `I` hinged at distance `L` to the ground this is `I + m·L²`, the inertia about the
//! hinge, as it should be. `P` is part of the hinge's reaction and accumulates into the point
//! impulse, so warm starting and the force read-back include it.
//!
//! **While the hinge holds.** The turn is exact for the velocities, but it leans on the point
//! block: `P` is sized by the point block's `K` so that the hinge's relative velocity does not
//! change, and the soft point block then works against what the angle rows did to the bodies.
//! While the anchors are nearly together that is what makes the limits hold; with the anchors
//! pulled far apart (a joint created between anchors a metre apart, found by the fuzzer), the
//! point block's large soft correction and the angle rows' coupled turns feed each other and
//! the velocities grow by orders of magnitude per step. So the turn is used only while the
//! anchors are within a tenth of the lever arms `|rA| + |rB|` (plus four linear slops) of each
//! other; farther apart the angle rows are solved alone, as Box2D solves them, with effective
//! mass `1/(IA⁻¹ + IB⁻¹)`, until the point block has brought the anchors together.
//!
//! ## The angle rows touch the bodies once
//!
//! Every angle row reads only `w = ωB − ωA` and applies a hinge turn `(λ, λ·P̂)` with
//! `P̂ = −K⁻¹·u` the point impulse per unit angular impulse (`point_per_unit`; zero for the
//! plain turn). With `s = IA⁻¹·rA + IB⁻¹·rB`, so that `u = left_perp(s)`, the turn changes
//!
//! ```text
//!   ωB by  IB⁻¹·(λ + rB × λP̂),    ωA by  −IA⁻¹·(λ + rA × λP̂)
//!   w  by  (IA⁻¹ + IB⁻¹)·λ + (s × P̂)·λ = (IA⁻¹ + IB⁻¹ + u·P̂)·λ = c·λ
//! ```
//!
//! (`s × P̂ = left_perp(s)·P̂`), with `c = IA⁻¹ + IB⁻¹ − uᵀ·K⁻¹·u` the complement above
//! (`IA⁻¹ + IB⁻¹` for the plain turn). So after the rows before it have applied `λ₁ … λₖ`, the
//! next row reads `w₀ + c·(λ₁ + … + λₖ)`, and all of them together leave the bodies where the
//! one turn `Λ = Σλ` leaves them. The rows are therefore solved in their usual order on the
//! scalar `w` alone, and the bodies receive one angular impulse `Λ` and one point impulse
//! `Λ·P̂` at the end (`rows::Deferred`): the same Gauss–Seidel sweep in exact arithmetic, with
//! one body update instead of four angular and four point updates.
//!
//! The joint angle is measured in (−π, π] at the start of each step and tracked continuously
//! within it, so limits should lie inside (−π, π).

use super::rows::{
    Deferred, FactoredSym22, JointPair, RowTerms, ScalarRow, inverse_or_zero, solve_limits,
    solve_motor, solve_row,
};
use super::{JointImpulses, JointParams, JointPrepared, PassContext};
use super::{spring_softness, switched_impulses};
use core_soa::{Vec2, left_perp};

/// Settings of a revolute joint. The default is a free hinge.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RevoluteJoint {
    /// Turn the angle spring on.
    pub enable_spring: bool,
    /// Spring frequency (Hz); 0 makes the spring apply nothing.
    pub hertz: f32,
    /// Spring damping ratio.
    pub damping_ratio: f32,
    /// Turn the angle limits on.
    pub enable_limit: bool,
    /// Lowest joint angle (rad).
    pub lower_angle: f32,
    /// Highest joint angle (rad).
    pub upper_angle: f32,
    /// Turn the motor on.
    pub enable_motor: bool,
    /// Target relative angular speed `ωB − ωA` (rad/s).
    pub motor_speed: f32,
    /// Largest torque the motor applies (N·m).
    pub max_motor_torque: f32,
}

impl RevoluteJoint {
    /// The default settings (a free hinge), as a constant.
    pub(crate) const DEFAULT: RevoluteJoint = RevoluteJoint {
        enable_spring: false,
        hertz: 0.0,
        damping_ratio: 0.0,
        enable_limit: false,
        lower_angle: 0.0,
        upper_angle: 0.0,
        enable_motor: false,
        motor_speed: 0.0,
        max_motor_torque: 0.0,
    };

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
            linear: i.linear,
            ..switched_impulses(i, self.switches())
        }
    }

    #[inline(always)]
    pub(crate) fn warm_start(&self, p: &JointPrepared, i: &JointImpulses, pair: &mut JointPair) {
        let (r_a, r_b) = pair.current_anchors(p.anchor_a, p.anchor_b);
        pair.apply_point(i.linear, r_a, r_b);
        pair.apply_angular(angular_impulse(i));
    }

    /// True when any angle row (spring, motor, limits) is on: a plain hinge skips the angle,
    /// its `atan2` and the hinge-turn mass entirely.
    fn has_angle_rows(&self) -> bool {
        self.enable_spring || self.enable_motor || self.enable_limit
    }

    /// True when a row reads the joint angle (the motor needs only the angular velocity).
    pub(crate) fn needs_angle(&self) -> bool {
        self.enable_spring || self.enable_limit
    }

    #[inline(always)]
    pub(crate) fn solve(&self, i: &mut JointImpulses, pair: &mut JointPair, pass: &PassContext) {
        let p = pass.prepared;
        // The anchors follow the bodies' step rotations, which no row of this pass changes:
        // rotate them once for the angle rows and the point block alike.
        let anchors = pair.current_anchors(p.anchor_a, p.anchor_b);
        // `K` and its determinant serve the angle rows' turn and the point block alike.
        let k = pair.point_matrix(anchors.0, anchors.1).factor();
        // The separation depends on the positions only, which no row of this pass changes.
        let separation = pair.anchor_separation(anchors.0, anchors.1, p.delta_center);
        if p.angular_mass > 0.0 && self.has_angle_rows() {
            let holds = hinge_holds(anchors, separation);
            self.solve_angle_rows(i, pair, pass, anchors, &k, holds);
        }
        let softness = pass.use_bias.then_some(&p.joint_softness);
        pair.solve_point_with(anchors, &k, separation, softness, &mut i.linear);
    }

    /// Spring, motor, limits: each turns the bodies about the hinge, solved in turn on
    /// `ωB − ωA` alone; the bodies then receive the rows' total turn at once (module notes,
    /// "The angle rows touch the bodies once"), and the point impulse that kept the hinge
    /// together is added to the point block's total.
    // Kept out of line: the plain hinge, inlined into the block loop, does not carry it.
    #[inline(never)]
    fn solve_angle_rows(
        &self,
        i: &mut JointImpulses,
        pair: &mut JointPair,
        pass: &PassContext,
        anchors: (Vec2, Vec2),
        k: &FactoredSym22,
        holds: bool,
    ) {
        let p = pass.prepared;
        let hinge = if holds {
            HingeTurn::at(pair, anchors, k)
        } else {
            HingeTurn::plain(pair, anchors, p.angular_mass)
        };
        let angle = if self.needs_angle() {
            pair.joint_angle(p)
        } else {
            0.0
        };
        let mut turn = Deferred::new(hinge, pair);
        if self.enable_spring {
            let terms = RowTerms::spring(&p.spring_softness, angle);
            solve_row(&mut turn, pair, &terms, &mut i.spring);
        }
        if self.enable_motor {
            let max_impulse = pass.h * self.max_motor_torque;
            solve_motor(&mut turn, pair, self.motor_speed, max_impulse, &mut i.motor);
        }
        if self.enable_limit {
            let gaps = (angle - self.lower_angle, self.upper_angle - angle);
            solve_limits(&mut turn, pair, gaps, pass, i);
        }
        i.linear += turn.finish(pair).point_applied;
    }
}

/// An angle row's direction with the hinge held: per unit angular impulse, the point impulse
/// that keeps the hinge velocity unchanged, and the effective mass of the combination.
struct HingeTurn {
    r_a: Vec2,
    r_b: Vec2,
    /// `−K⁻¹·u`: the point impulse per unit angular impulse.
    point_per_unit: Vec2,
    /// `IA⁻¹ + IB⁻¹ − uᵀ·K⁻¹·u`: how much a unit turn changes `ωB − ωA`.
    complement: f32,
    /// `1/complement` (0 when it is not positive).
    mass: f32,
    /// The point impulses applied along with the angular ones so far.
    point_applied: Vec2,
}

impl HingeTurn {
    /// The hinge turn at the current anchors `(r_a, r_b)`, whose point matrix is `k`.
    fn at(pair: &JointPair, (r_a, r_b): (Vec2, Vec2), k: &FactoredSym22) -> HingeTurn {
        let u = left_perp(pair.inv_inertia_a * r_a + pair.inv_inertia_b * r_b);
        let point_per_unit = -k.solve(u);
        // uᵀ·K⁻¹·u = −u·point_per_unit; the complement is positive for any body that can turn
        // (it is the inverse inertia about the hinge), but rounding may leave a tiny negative
        // value when none can, which `inverse_or_zero` turns into "apply nothing".
        let complement = pair.inv_inertia_a + pair.inv_inertia_b + u.dot(point_per_unit);
        HingeTurn {
            r_a,
            r_b,
            point_per_unit,
            complement,
            mass: inverse_or_zero(complement),
            point_applied: Vec2::ZERO,
        }
    }

    /// The angle rows alone, as Box2D solves them: no point impulse, effective mass
    /// `1/(IA⁻¹ + IB⁻¹)` (`angular_mass`). Used while the hinge is pulled apart (see
    /// [`hinge_holds`]).
    fn plain(pair: &JointPair, (r_a, r_b): (Vec2, Vec2), angular_mass: f32) -> HingeTurn {
        HingeTurn {
            r_a,
            r_b,
            point_per_unit: Vec2::ZERO,
            complement: pair.inv_inertia_a + pair.inv_inertia_b,
            mass: angular_mass,
            point_applied: Vec2::ZERO,
        }
    }
}

/// How far apart, as a fraction of the lever arms `|rA| + |rB|`, the two anchors may be for
/// the angle rows to turn the bodies about the hinge.
pub(super) const HOLD_FRACTION: f32 = 0.1;

/// Whether the anchors are close enough for the hinge turn (module notes, "While the hinge
/// holds").
fn hinge_holds((r_a, r_b): (Vec2, Vec2), separation: Vec2) -> bool {
    let reach = HOLD_FRACTION * (r_a.length() + r_b.length()) + HOLD_SLACK;
    separation.length_squared() <= reach * reach
}

/// The separation always allowed (m): four linear slops, so that a hinge at the centres of
/// mass (no lever arm) still counts as holding while it is held.
pub(super) const HOLD_SLACK: f32 = 0.02;

impl ScalarRow for HingeTurn {
    fn mass(&self) -> f32 {
        self.mass
    }

    /// The complement `c` (module notes, "The angle rows touch the bodies once").
    fn response(&self, _pair: &JointPair) -> f32 {
        self.complement
    }

    /// The angle rows' velocity, `ωB − ωA`.
    fn velocity(&self, pair: &JointPair) -> f32 {
        pair.relative_angular_velocity()
    }

    /// Applies the angular impulse `impulse` to B (and its opposite to A) with the hinge's
    /// accompanying point impulse.
    fn apply(&mut self, pair: &mut JointPair, impulse: f32) {
        let point = impulse * self.point_per_unit;
        self.point_applied += point;
        pair.apply_angular(impulse);
        pair.apply_point(point, self.r_a, self.r_b);
    }
}

/// The angular impulse the revolute's angle rows apply to body B.
pub(crate) fn angular_impulse(i: &JointImpulses) -> f32 {
    i.spring + i.motor + i.lower - i.upper
}

#[cfg(test)]
mod tests {
    use super::super::rows::tests::resting_pair;
    use super::*;
    use core_soa::BodyState;

    #[test]
    fn the_default_constant_is_the_default() {
        assert_eq!(RevoluteJoint::DEFAULT, RevoluteJoint::default());
    }

    #[test]
    fn a_hinge_turn_changes_the_relative_spin_by_its_complement() {
        // Two free bodies: a turn of 0.3 changes ωB − ωA by 0.3·c and leaves the hinge's
        // relative velocity alone (module notes, "The angle rows touch the bodies once").
        let pair = resting_pair();
        let anchors = (Vec2::new(0.3, -0.7), Vec2::new(-1.1, 0.4));
        // `K` and its determinant serve the angle rows' turn and the point block alike.
        let k = pair.point_matrix(anchors.0, anchors.1).factor();
        let mut turn = HingeTurn::at(&pair, anchors, &k);
        let mut turned = pair;
        turn.apply(&mut turned, 0.3);
        let spin = turned.relative_angular_velocity();
        assert!((spin - 0.3 * turn.response(&pair)).abs() < 1e-6);
        let hinge_velocity = turned.relative_point_velocity(anchors.0, anchors.1);
        assert!(hinge_velocity.length() < 1e-6, "{hinge_velocity}");
        assert!((turn.mass() * turn.response(&pair) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn a_hinge_to_the_ground_turns_with_the_inertia_about_the_hinge() {
        // m = 2 kg, I = 0.5 kg·m², hinged 1 m from its centre: I + m·L² = 2.5 kg·m².
        let pair = JointPair {
            a: BodyState::IDENTITY,
            b: BodyState::IDENTITY,
            inv_mass_a: 0.0,
            inv_inertia_a: 0.0,
            inv_mass_b: 0.5,
            inv_inertia_b: 2.0,
        };
        let anchors = (Vec2::ZERO, Vec2::new(0.0, 1.0));
        // `K` and its determinant serve the angle rows' turn and the point block alike.
        let k = pair.point_matrix(anchors.0, anchors.1).factor();
        let turn = HingeTurn::at(&pair, anchors, &k);
        assert!((turn.response(&pair) - 1.0 / 2.5).abs() < 1e-6);
        assert!((turn.mass() - 2.5).abs() < 1e-5);
        let plain = HingeTurn::plain(&pair, anchors, 0.5);
        assert_eq!(plain.response(&pair), 2.0);
    }
}
