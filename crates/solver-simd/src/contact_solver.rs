//! The velocity passes over prepared contacts: warm start, solve, relax, restitution, store.
//!
//! Every pass is a function over a contiguous slice of [`ContactConstraint`]s and the whole
//! awake [`BodyState`] array, so a caller can hand it any block of constraints (a graph colour,
//! a block of one, the overflow set). Within a slice the constraints are visited in order and
//! each one's points in order: the result is a deterministic function of the input.
//!
//! ## The normal rows
//!
//! With `vn = n·(vB + ωB × rB − vA − ωA × rA)` and the accumulated impulse `Λ`, a single soft
//! row computes (see [`crate::softness`])
//!
//! ```text
//!   Δλ = −m_n · mass_scale · (vn + bias) − impulse_scale · Λ
//! ```
//!
//! with `bias = bias_rate·s` (`s` the tracked separation), and clamps so that the *accumulated*
//! impulse stays non-negative (`Λ' = max(Λ + Δλ, 0)`, apply `Λ' − Λ`): contacts push, never pull,
//! but an iteration may take back part of what earlier ones applied. A manifold's rows are not
//! solved one after the other but together, as one 2×2 complementarity problem in which each
//! row's softness is a compliance on its diagonal (`normal_block.rs`); for a single point it is
//! exactly the clamped update above. The bias and the softness depend on the pass and the
//! point, and are supplied by a [`NormalBias`] policy as [`NormalTerms`]:
//!
//! | pass / point | bias | mass_scale | compliance |
//! |---|---|---|---|
//! | any, speculative (`s > 0`) | `s/h` | 1 | 0 |
//! | soft solve, overlapping | `max(bias_rate·s, −push_max)` | soft | soft |
//! | relax, overlapping | 0 | 1 | 0 |
//! | sequential impulses, overlapping | `−β·max(0, −s − slop)/h` | 1 | 0 |
//!
//! A speculative point lets the bodies close the gap `s` within the substep but no further:
//! the impulse is non-zero only when `vn < −s/h`.
//!
//! **Where the push-out clamp goes.** The clamp limits the bias *before* the mass scale
//! multiplies it, not `mass_scale·bias_rate·s` after it (which is Box2D v3's form). At the fixed
//! point of the iteration (`Δλ = 0`) our form gives
//! `vn = −bias − (impulse_scale/mass_scale)·Λ/m_n ≤ push_max`, so the separating speed never
//! exceeds `contact_push_max_speed`, the setting's meaning; clamping after the scale settles at
//! `vn = push_max/mass_scale − …`, up to 6 % faster than the limit at the default softness.
//! Unclamped (every resting contact), both forms are the same impulse.
//!
//! ## Friction
//!
//! The tangent row has no bias: `Δλ = −m_t·vt`, with the accumulated friction impulse clamped to
//! `±μ·Λ_n` (Coulomb's cone, using this point's current normal impulse), after the normal rows
//! of the same contact. A flat two-point manifold has one tangent row through the middle of its
//! points, clamped to `±μ·(Λ₁ + Λ₂)`, instead of two rows that are the same row (see
//! `contact_constraint.rs`; measured in `benches/results/NOTES.md`). Which passes solve
//! friction is the caller's choice ([`ContactRows`]):
//! the soft step solves it in both the biased solve and the relax pass by default, as Box2D
//! v3.0 did; Box2D's later versions and Rapier solve it only in the relax pass
//! ([`crate::stages::FrictionPasses`]). Both were measured: they decelerate a sliding box at
//! μ·g to 0.01 %, but friction in both passes lets a box on a 20° incline (μ = 0.6) creep 30 µm
//! in 2 s against 160 µm for relax-only, and in the benchmark scenes relax-only deepened the
//! tumbler's worst overlap from 0.25 m to 0.28 m and doubled the ragdolls' largest joint error
//! in rain (0.032 m to 0.082 m), for one more row per point per substep.
//!
//! `max_normal_impulse` records the largest *accumulated* normal impulse a point held during
//! the step (the per-substep impulse actually transmitted), rather than the largest single
//! increment: a resting point whose warm start already carries the load shows its load, and a
//! hit shows its peak. Contact events and breakable objects read it.
//!
//! ## Warm starting and restitution
//!
//! The accumulated impulses are per substep (an impulse that balances gravity over `h`), so the
//! warm start applies them again at the start of every substep's solve. Restitution runs once
//! after the substeps: at every point that approached faster than the threshold and took a
//! normal impulse, it asks for `vn = −e·vn₀` with the same clamped accumulation.

use crate::constraints::ContactRecord;
use crate::contact_constraint::{
    ContactConstraint, ContactConstraintPoint, NormalSoftness, middle, state_or_identity,
};
use crate::normal_block::{BlockRow, solve_block};
use core_soa::{BodyState, NULL_BODY, Rot, Vec2, body_flags, cross, cross_sv};

/// The bias and softness of one normal row in one pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NormalTerms {
    /// Velocity bias added to `vn` (m/s); negative pushes apart.
    pub bias: f32,
    /// `1/(1 + compliance)`.
    pub mass_scale: f32,
    /// The row's compliance relative to its inverse effective mass (0: rigid).
    pub compliance: f32,
}

impl NormalTerms {
    /// A speculative point `s > 0` apart: allow closing the gap within `h`, no further.
    #[inline]
    pub fn speculative(separation: f32, inv_h: f32) -> NormalTerms {
        NormalTerms::rigid(separation * inv_h)
    }

    /// A rigid row with the given bias.
    #[inline]
    pub fn rigid(bias: f32) -> NormalTerms {
        NormalTerms {
            bias,
            mass_scale: 1.0,
            compliance: 0.0,
        }
    }
}

/// How a pass turns a point's current separation into its normal row's terms.
pub trait NormalBias {
    /// The terms for a point of a contact with `softness`, currently `separation` apart.
    fn normal_terms(&self, softness: &NormalSoftness, separation: f32) -> NormalTerms;
}

/// The soft step's biased solve: soft spring toward zero overlap, push-out speed clamped.
#[derive(Clone, Copy, Debug)]
pub struct SoftBias {
    pub inv_h: f32,
    pub push_max_speed: f32,
}

impl NormalBias for SoftBias {
    #[inline]
    fn normal_terms(&self, softness: &NormalSoftness, separation: f32) -> NormalTerms {
        if separation > 0.0 {
            return NormalTerms::speculative(separation, self.inv_h);
        }
        NormalTerms {
            bias: lane_max(softness.bias_rate * separation, -self.push_max_speed),
            mass_scale: softness.mass_scale,
            compliance: softness.compliance,
        }
    }
}

/// The soft step's relax pass: rigid, no position feedback (speculative points still apply).
#[derive(Clone, Copy, Debug)]
pub struct RelaxBias {
    pub inv_h: f32,
}

impl NormalBias for RelaxBias {
    #[inline]
    fn normal_terms(&self, _softness: &NormalSoftness, separation: f32) -> NormalTerms {
        if separation > 0.0 {
            NormalTerms::speculative(separation, self.inv_h)
        } else {
            NormalTerms::rigid(0.0)
        }
    }
}

/// A body's velocity and step displacement as a contact pass sees it.
#[derive(Clone, Copy, Debug)]
struct ContactBody {
    linear_velocity: Vec2,
    angular_velocity: f32,
    delta_position: Vec2,
    delta_rotation: Rot,
}

impl ContactBody {
    #[inline]
    fn load(states: &[BodyState], index: u32) -> ContactBody {
        let s = state_or_identity(states, index);
        ContactBody {
            linear_velocity: s.linear_velocity,
            angular_velocity: s.angular_velocity,
            delta_position: s.delta_position,
            delta_rotation: s.delta_rotation,
        }
    }

    /// Writes the velocity back, only for a dynamic body (static and kinematic bodies are never
    /// changed by contacts).
    #[inline]
    fn store(self, states: &mut [BodyState], index: u32) {
        if index == NULL_BODY {
            return;
        }
        let state = &mut states[index as usize];
        if state.flags & body_flags::DYNAMIC != 0 {
            state.linear_velocity = self.linear_velocity;
            state.angular_velocity = self.angular_velocity;
        }
    }

    /// Velocity of the material point at `r` from the centre of mass.
    #[inline]
    fn point_velocity(&self, r: Vec2) -> Vec2 {
        self.linear_velocity + cross_sv(self.angular_velocity, r)
    }

    /// Applies `impulse` at `r`.
    #[inline]
    fn apply(&mut self, inv_mass: f32, inv_inertia: f32, r: Vec2, impulse: Vec2) {
        self.linear_velocity += inv_mass * impulse;
        self.angular_velocity += inv_inertia * cross(r, impulse);
    }
}

/// The two bodies of one contact, loaded for a pass.
struct ContactPair {
    a: ContactBody,
    b: ContactBody,
}

impl ContactPair {
    #[inline]
    fn load(c: &ContactConstraint, states: &[BodyState]) -> ContactPair {
        ContactPair {
            a: ContactBody::load(states, c.body_a),
            b: ContactBody::load(states, c.body_b),
        }
    }

    #[inline]
    fn store(self, c: &ContactConstraint, states: &mut [BodyState]) {
        self.a.store(states, c.body_a);
        self.b.store(states, c.body_b);
    }

    /// `vB + ωB × rB − vA − ωA × rA`.
    #[inline]
    fn relative_velocity(&self, p: &ContactConstraintPoint) -> Vec2 {
        self.b.point_velocity(p.anchor_b) - self.a.point_velocity(p.anchor_a)
    }

    /// Applies `impulse` to B and its opposite to A at the point's anchors.
    #[inline]
    fn apply(&mut self, c: &ContactConstraint, p: &ContactConstraintPoint, impulse: Vec2) {
        self.a
            .apply(c.inv_mass_a, c.inv_inertia_a, p.anchor_a, -impulse);
        self.b
            .apply(c.inv_mass_b, c.inv_inertia_b, p.anchor_b, impulse);
    }

    /// Applies two impulses at once, each at its point (the normal block's answer).
    #[inline]
    fn apply_two(
        &mut self,
        c: &ContactConstraint,
        (p1, impulse1): (&ContactConstraintPoint, Vec2),
        (p2, impulse2): (&ContactConstraintPoint, Vec2),
    ) {
        self.a.linear_velocity -= c.inv_mass_a * (impulse1 + impulse2);
        self.a.angular_velocity -=
            c.inv_inertia_a * (cross(p1.anchor_a, impulse1) + cross(p2.anchor_a, impulse2));
        self.b.linear_velocity += c.inv_mass_b * (impulse1 + impulse2);
        self.b.angular_velocity +=
            c.inv_inertia_b * (cross(p1.anchor_b, impulse1) + cross(p2.anchor_b, impulse2));
    }

    /// `s = base_separation + n·(ΔpB − ΔpA + R(ΔqB)·rB − R(ΔqA)·rA)`.
    #[inline]
    fn current_separation(&self, normal: Vec2, p: &ContactConstraintPoint) -> f32 {
        let moved_b = self.b.delta_position + self.b.delta_rotation.rotate(p.anchor_b);
        let moved_a = self.a.delta_position + self.a.delta_rotation.rotate(p.anchor_a);
        normal.dot(moved_b - moved_a) + p.base_separation
    }
}

/// Adds `delta` to the accumulated impulse, clamps the sum to `[lower, upper]`, and returns the
/// new accumulated impulse and the part of `delta` that survived the clamp.
#[inline]
pub fn clamp_accumulated(accumulated: f32, delta: f32, lower: f32, upper: f32) -> (f32, f32) {
    let clamped = lane_min(lane_max(accumulated + delta, lower), upper);
    (clamped, clamped - accumulated)
}

/// `max(a, b)` with the rule of the wide lanes (x86 `maxps`): `a > b ? a : b`, so `b` on a
/// ±0 tie or when either is NaN. `f32::max` leaves the sign of a ±0 tie and which NaN wins to
/// the compiler; this rule fixes both, so that a lane of the wide solver and this scalar path
/// pick the same bits in every case.
#[inline]
pub fn lane_max(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

/// `min(a, b)` with the rule of the wide lanes (x86 `minps`): `a < b ? a : b`.
#[inline]
pub fn lane_min(a: f32, b: f32) -> f32 {
    if a < b { a } else { b }
}

/// Applies every point's accumulated normal and friction impulse.
pub fn warm_start_contacts(constraints: &[ContactConstraint], states: &mut [BodyState]) {
    for c in constraints {
        let mut pair = ContactPair::load(c, states);
        let tangent = c.tangent();
        for p in c.points() {
            let impulse = p.normal_impulse * c.normal + p.tangent_impulse * tangent;
            pair.apply(c, p, impulse);
        }
        pair.store(c, states);
    }
}

/// Which rows a contact pass solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContactRows {
    /// The normal rows, then the friction rows of the same contact.
    NormalAndFriction,
    /// The normal rows only.
    NormalOnly,
}

/// One pass over `constraints`: the normal rows with the terms from `bias` (soft solve, relax,
/// or Baumgarte), and the friction rows if `rows` asks for them.
pub fn solve_contacts<B: NormalBias>(
    constraints: &mut [ContactConstraint],
    states: &mut [BodyState],
    bias: &B,
    rows: ContactRows,
) {
    for c in constraints {
        let mut pair = ContactPair::load(c, states);
        solve_normal_rows(c, &mut pair, bias);
        if rows == ContactRows::NormalAndFriction {
            solve_friction_rows(c, &mut pair);
        }
        pair.store(c, states);
    }
}

/// The non-penetration rows of one contact, solved together (see `normal_block.rs`).
#[inline]
fn solve_normal_rows<B: NormalBias>(c: &mut ContactConstraint, pair: &mut ContactPair, bias: &B) {
    let row = |pair: &ContactPair, p: &ContactConstraintPoint| {
        let terms = bias.normal_terms(&c.softness, pair.current_separation(c.normal, p));
        let vn = pair.relative_velocity(p).dot(c.normal);
        block_row(p, &terms, vn)
    };
    let (row1, row2) = (row(pair, &c.points[0]), row(pair, &c.points[1]));
    let (new1, new2) = solve_block(row1, row2, c.normal_coupling);
    let [p1, p2] = c.points;
    let (delta1, delta2) = (new1 - p1.normal_impulse, new2 - p2.normal_impulse);
    pair.apply_two(c, (&p1, delta1 * c.normal), (&p2, delta2 * c.normal));
    for (point, new) in c.points.iter_mut().zip([new1, new2]) {
        point.normal_impulse = new;
        point.max_normal_impulse = lane_max(new, point.max_normal_impulse);
    }
}

/// Row `p` of the normal block for this pass: `K' = K·(1 + c)`, `1/K' = m·mass_scale` and
/// `e = −(vn + bias) − K·c·Λ`, weighted to zero for an inert point.
#[inline]
pub(crate) fn block_row(p: &ContactConstraintPoint, terms: &NormalTerms, vn: f32) -> BlockRow<f32> {
    let k = p.inv_normal_mass;
    BlockRow {
        k: k * (1.0 + terms.compliance),
        inv_k: p.normal_mass * terms.mass_scale,
        e: p.block_weight * (-(vn + terms.bias) - k * terms.compliance * p.normal_impulse),
        accumulated: p.normal_impulse,
    }
}

/// Adds `delta` to point `i`'s accumulated normal impulse, clamped to stay non-negative,
/// applies the part that survives, and records the largest accumulated impulse.
#[inline]
fn apply_normal_impulse(c: &mut ContactConstraint, i: usize, pair: &mut ContactPair, delta: f32) {
    let p = c.points[i];
    let (accumulated, applied) = clamp_accumulated(p.normal_impulse, delta, 0.0, f32::INFINITY);
    pair.apply(c, &p, applied * c.normal);
    let point = &mut c.points[i];
    point.normal_impulse = accumulated;
    point.max_normal_impulse = lane_max(accumulated, point.max_normal_impulse);
}

/// The Coulomb friction rows of one contact: one through the middle of a flat manifold,
/// otherwise one per point.
#[inline]
fn solve_friction_rows(c: &mut ContactConstraint, pair: &mut ContactPair) {
    if c.shared_friction {
        solve_shared_friction_row(c, pair);
        return;
    }
    let (tangent, friction, count) = (c.tangent(), c.friction, c.point_count);
    for i in 0..count {
        let p = c.points[i];
        let vt = pair.relative_velocity(&p).dot(tangent);
        let limit = friction * p.normal_impulse;
        let (accumulated, applied) =
            clamp_accumulated(p.tangent_impulse, -p.tangent_mass * vt, -limit, limit);
        pair.apply(c, &p, applied * tangent);
        c.points[i].tangent_impulse = accumulated;
    }
}

/// The one friction row of a flat manifold, at the middle of its points, limited by
/// `μ·(λ₁ + λ₂)`; each point keeps half the accumulated impulse.
#[inline]
fn solve_shared_friction_row(c: &mut ContactConstraint, pair: &mut ContactPair) {
    let [p1, p2] = c.points;
    let tangent = c.tangent();
    let mid = ContactConstraintPoint {
        anchor_a: middle(p1.anchor_a, p2.anchor_a),
        anchor_b: middle(p1.anchor_b, p2.anchor_b),
        ..ContactConstraintPoint::INERT
    };
    let vt = pair.relative_velocity(&mid).dot(tangent);
    let limit = c.friction * (p1.normal_impulse + p2.normal_impulse);
    let accumulated = p1.tangent_impulse + p2.tangent_impulse;
    let (accumulated, applied) =
        clamp_accumulated(accumulated, -p1.tangent_mass * vt, -limit, limit);
    pair.apply(c, &mid, applied * tangent);
    let half = accumulated * 0.5;
    c.points[0].tangent_impulse = half;
    c.points[1].tangent_impulse = half;
}

/// Restitution: at points that approached faster than `threshold` and were pushed, drives the
/// normal velocity to `−e·vn₀`.
pub fn apply_restitution(
    constraints: &mut [ContactConstraint],
    states: &mut [BodyState],
    threshold: f32,
) {
    for c in constraints {
        if c.restitution == 0.0 {
            continue;
        }
        let mut pair = ContactPair::load(c, states);
        let (normal, restitution, count) = (c.normal, c.restitution, c.point_count);
        for i in 0..count {
            let p = c.points[i];
            if p.relative_velocity > -threshold
                || p.max_normal_impulse == 0.0
                || p.block_weight == 0.0
            {
                continue;
            }
            let vn = pair.relative_velocity(&p).dot(normal);
            let delta = -p.normal_mass * (vn + restitution * p.relative_velocity);
            apply_normal_impulse(c, i, &mut pair, delta);
        }
        pair.store(c, states);
    }
}

/// Writes each constraint's impulses and approach speed back into its contact record's manifold
/// (the two slices are parallel). A non-finite impulse (from a body that blew up) is stored as
/// zero so that it is not warm-started into the next step.
pub fn store_impulses<C: ContactRecord>(constraints: &[ContactConstraint], contacts: &mut [C]) {
    debug_assert_eq!(constraints.len(), contacts.len());
    for (c, contact) in constraints.iter().zip(contacts.iter_mut()) {
        let manifold = &mut contact.solver_contact_mut().manifold;
        for (p, mp) in c.points().iter().zip(manifold.points.iter_mut()) {
            mp.normal_impulse = finite_or_zero(p.normal_impulse);
            mp.tangent_impulse = finite_or_zero(p.tangent_impulse);
            mp.max_normal_impulse = finite_or_zero(p.max_normal_impulse);
            mp.normal_velocity = finite_or_zero(p.relative_velocity);
        }
    }
}

#[inline]
pub(crate) fn finite_or_zero(x: f32) -> f32 {
    if x.is_finite() { x } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SolverContact;
    use crate::contact_constraint::{ContactSoftness, prepare_contact};
    use collision::{Manifold, ManifoldPoint};

    fn dynamic_state(v: Vec2, w: f32) -> BodyState {
        BodyState {
            linear_velocity: v,
            angular_velocity: w,
            flags: body_flags::DYNAMIC,
            ..BodyState::IDENTITY
        }
    }

    /// A unit-mass particle B resting on a static A with one point at its centre.
    fn particle_on_ground(separation: f32, normal_impulse: f32) -> SolverContact {
        let mut manifold = Manifold {
            normal: Vec2::Y,
            point_count: 1,
            ..Default::default()
        };
        manifold.points[0] = ManifoldPoint {
            separation,
            normal_impulse,
            ..Default::default()
        };
        SolverContact {
            body_a: NULL_BODY,
            body_b: 0,
            inv_mass_a: 0.0,
            inv_inertia_a: 0.0,
            inv_mass_b: 1.0,
            inv_inertia_b: 0.0,
            friction: 0.5,
            restitution: 0.0,
            manifold,
        }
    }

    fn softness() -> ContactSoftness {
        let s = crate::Softness::new(30.0, 10.0, 1.0 / 240.0);
        ContactSoftness {
            dynamic: s,
            fixed: s,
        }
    }

    #[test]
    fn clamp_keeps_accumulated_within_bounds() {
        assert_eq!(
            clamp_accumulated(2.0, -5.0, 0.0, f32::INFINITY),
            (0.0, -2.0)
        );
        assert_eq!(clamp_accumulated(1.0, 0.5, -1.2, 1.2), (1.2, 0.20000005));
        assert_eq!(clamp_accumulated(1.0, 0.1, -2.0, 2.0), (1.1, 0.100000024));
    }

    #[test]
    fn relax_stops_an_approaching_particle_exactly() {
        let mut states = [dynamic_state(Vec2::new(0.0, -2.0), 0.0)];
        let contact = particle_on_ground(0.0, 0.0);
        let mut c = [prepare_contact(&contact, &states, &softness(), true)];
        solve_contacts(
            &mut c,
            &mut states,
            &RelaxBias { inv_h: 240.0 },
            ContactRows::NormalAndFriction,
        );
        assert!(states[0].linear_velocity.y.abs() < 1e-6);
        assert!((c[0].points[0].normal_impulse - 2.0).abs() < 1e-6);
    }

    #[test]
    fn speculative_point_lets_the_gap_close_in_one_substep() {
        // 0.01 m apart at 240 Hz: approach up to 2.4 m/s is allowed.
        let mut states = [dynamic_state(Vec2::new(0.0, -5.0), 0.0)];
        let contact = particle_on_ground(0.01, 0.0);
        let mut c = [prepare_contact(&contact, &states, &softness(), true)];
        solve_contacts(
            &mut c,
            &mut states,
            &RelaxBias { inv_h: 240.0 },
            ContactRows::NormalAndFriction,
        );
        assert!((states[0].linear_velocity.y + 2.4).abs() < 1e-5);
        let mut slow = [dynamic_state(Vec2::new(0.0, -1.0), 0.0)];
        let mut c = [prepare_contact(&contact, &slow, &softness(), true)];
        solve_contacts(
            &mut c,
            &mut slow,
            &RelaxBias { inv_h: 240.0 },
            ContactRows::NormalAndFriction,
        );
        assert_eq!(slow[0].linear_velocity.y, -1.0);
    }

    #[test]
    fn soft_push_out_is_clamped_before_the_mass_scale() {
        // Deep overlap: bias_rate·s = −9.07 m/s is clamped to −3; from rest the push is
        // mass_scale·3 m/s, never more than 3.
        let mut states = [dynamic_state(Vec2::ZERO, 0.0)];
        let contact = particle_on_ground(-1.0, 0.0);
        let mut c = [prepare_contact(&contact, &states, &softness(), true)];
        let bias = SoftBias {
            inv_h: 240.0,
            push_max_speed: 3.0,
        };
        solve_contacts(&mut c, &mut states, &bias, ContactRows::NormalAndFriction);
        let expected = softness().dynamic.mass_scale * 3.0;
        assert!((states[0].linear_velocity.y - expected).abs() < 1e-5);
    }

    #[test]
    fn friction_is_bounded_by_the_cone() {
        // Sliding at 3 m/s with a normal impulse of 1: friction can take at most μ·1 = 0.5.
        let mut states = [dynamic_state(Vec2::new(3.0, 0.0), 0.0)];
        let contact = particle_on_ground(0.0, 1.0);
        let mut c = [prepare_contact(&contact, &states, &softness(), true)];
        assert_eq!(c[0].points[0].normal_impulse, 1.0);
        // The relax pass leaves the normal impulse at 1 (zero normal velocity after the warm
        // impulse is not applied here), then friction removes μ·1 = 0.5 m/s of the unit mass.
        solve_contacts(
            &mut c,
            &mut states,
            &RelaxBias { inv_h: 240.0 },
            ContactRows::NormalAndFriction,
        );
        assert!((states[0].linear_velocity.x - 2.5).abs() < 1e-6);
        assert!((c[0].points[0].tangent_impulse + 0.5).abs() < 1e-6);
    }

    /// A unit box (mass 1, inertia 1/6) on static ground, its two corners touching: the
    /// points at `x = ±0.5`, the second lifted by `tilt` along the normal, each carrying a
    /// normal impulse of 1 and the given friction impulses.
    fn box_on_ground(tilt: f32, tangent_impulses: [f32; 2]) -> SolverContact {
        let mut manifold = Manifold {
            normal: Vec2::Y,
            point_count: 2,
            ..Default::default()
        };
        for (i, (x, y)) in [(-0.5, -0.5), (0.5, -0.5 + tilt)].into_iter().enumerate() {
            manifold.points[i] = ManifoldPoint {
                anchor_b: Vec2::new(x, y),
                anchor_a: Vec2::new(x, y),
                normal_impulse: 1.0,
                tangent_impulse: tangent_impulses[i],
                ..Default::default()
            };
        }
        SolverContact {
            inv_inertia_b: 6.0,
            manifold,
            ..particle_on_ground(0.0, 0.0)
        }
    }

    #[test]
    fn a_flat_manifold_has_one_friction_row_and_a_tilted_one_a_row_per_point() {
        let states = [dynamic_state(Vec2::ZERO, 0.0)];
        let flat = prepare_contact(&box_on_ground(0.0, [0.1, 0.3]), &states, &softness(), true);
        assert!(flat.shared_friction);
        // The carried friction is split evenly; the row's mass is the one at the middle
        // (0, −0.5): with t = (1, 0), r × t = 0.5, so m = 1/(1 + 6·0.5²) = 0.4 — the same as at
        // either corner, since the two rows are one row.
        assert_eq!(flat.points[0].tangent_impulse, 0.2);
        assert_eq!(flat.points[1].tangent_impulse, 0.2);
        assert!((flat.points[0].tangent_mass - 0.4).abs() < 1e-6);
        // One corner 2 cm higher over a 1 m base is a slope of 0.02, past the limit.
        let tilted = prepare_contact(&box_on_ground(0.02, [0.1, 0.3]), &states, &softness(), true);
        assert!(!tilted.shared_friction);
        assert_eq!(tilted.points[1].tangent_impulse, 0.3);
    }

    #[test]
    fn one_friction_row_stops_what_two_rows_stop() {
        // A box sliding at 3 m/s on its face, each corner holding a normal impulse of 1 (the
        // relax pass keeps them: nothing approaches). Friction may take μ·(λ₁ + λ₂) = 1: the
        // box keeps 2 m/s and, the impulse acting 0.5 m below its centre, turns at
        // −6·0.5·1 = −3 rad/s. Two rows per point reach that in two clamped steps of 0.5, the
        // shared row in one of 1.
        let start = [dynamic_state(Vec2::new(3.0, 0.0), 0.0)];
        let c = prepare_contact(&box_on_ground(0.0, [0.0, 0.0]), &start, &softness(), true);
        let relax = RelaxBias { inv_h: 240.0 };
        let run = |shared: bool| {
            // (The middle's mass, which the shared row keeps in the first point, is also each
            // corner's, so the per-point run can use the same constraint.)
            let (mut states, mut c) = (
                start,
                [ContactConstraint {
                    shared_friction: shared,
                    ..c
                }],
            );
            solve_contacts(&mut c, &mut states, &relax, ContactRows::NormalAndFriction);
            let total = c[0].points[0].tangent_impulse + c[0].points[1].tangent_impulse;
            (states[0], total)
        };
        for shared in [true, false] {
            let (body, total) = run(shared);
            assert!(
                (body.linear_velocity - Vec2::new(2.0, 0.0)).length() < 1e-6,
                "{shared}"
            );
            assert!((body.angular_velocity + 3.0).abs() < 1e-5, "{shared}");
            assert!(
                (total + 1.0).abs() < 1e-6,
                "{shared}: friction impulse {total}"
            );
        }
    }

    #[test]
    fn warm_start_applies_carried_impulses_and_kinematic_is_untouched() {
        let mut states = [dynamic_state(Vec2::ZERO, 0.0)];
        let contact = particle_on_ground(0.0, 0.25);
        let c = [prepare_contact(&contact, &states, &softness(), true)];
        warm_start_contacts(&c, &mut states);
        assert!((states[0].linear_velocity.y - 0.25).abs() < 1e-7);
        states[0].flags = body_flags::KINEMATIC;
        states[0].linear_velocity = Vec2::ZERO;
        warm_start_contacts(&c, &mut states);
        assert_eq!(states[0].linear_velocity, Vec2::ZERO);
    }
}
