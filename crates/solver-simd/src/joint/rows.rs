//! The pieces every joint row is built from: the two bodies as a pass sees them, the current
//! anchors and relative pose, impulse application, the soft/rigid row terms and the clamped
//! accumulators.
//!
//! ## Bodies within a pass
//!
//! A pass loads both bodies' velocities and step displacements (`Δp`, `Δq`) from the awake
//! [`BodyState`] array (a static body gathers as the identity state), applies its rows to the
//! local copies, and writes the velocities back only for dynamic bodies: a kinematic body has
//! zero inverse mass, so its velocity never changes anyway, and a static body has no slot.
//!
//! ## The current relative pose
//!
//! Unlike contacts, whose Jacobians stay frozen for the step, joints rotate their anchors with
//! the bodies every time a row is solved: a hinge on a spinning wheel must follow the wheel
//! within the step. With `rA₀`, `rB₀` the anchors (from each centre of mass, world orientation)
//! at the start of the step and `Δq` the rotation since then,
//!
//! ```text
//!   rA = R(ΔqA)·rA₀,   rB = R(ΔqB)·rB₀
//!   cA = cA₀ + ΔpA,    cB = cB₀ + ΔpB
//!   d  = (cB + rB) − (cA + rA) = (ΔpB − ΔpA) + (rB − rA) + (cB₀ − cA₀)
//! ```
//!
//! `d` is the vector from anchor A to anchor B: the position error of a point constraint, and
//! the quantity whose length or projection the distance, prismatic and wheel rows constrain.
//! `cB₀ − cA₀` is computed once at preparation (`delta_center`), so the substeps never read a
//! transform. In the plane rotations commute, so the relative angle of the two joint frames is
//! the angle at the start of the step plus the relative angle of the two step rotations:
//! `(ΔqA·qA)⁻¹·(ΔqB·qB) = (ΔqA⁻¹·ΔqB)·(qA⁻¹·qB)`.
//!
//! ## A row
//!
//! Every scalar row is `Ċ = J·v` with effective mass `m = 1/(J M⁻¹ Jᵀ)` and, per pass, terms
//! (bias, mass scale, impulse scale) from [`RowTerms`]; the increment is the soft-step formula
//! derived in [`crate::softness`],
//!
//! ```text
//!   Δλ = −m·mass_scale·(Ċ + bias) − impulse_scale·Λ
//! ```
//!
//! The kinds of scalar row a joint is made of — a spring or equality row ([`solve_row`]), a
//! motor with a bounded accumulated impulse ([`solve_motor`]) and a pair of one-sided limits
//! ([`solve_limits`]) — are written once against [`ScalarRow`], which says only how fast the
//! row moves and how an impulse along it changes the bodies: an axial row ([`AxialRow`]), the
//! relative rotation ([`AngularRow`]), or a rotation that carries the hinge with it (the
//! revolute joint's).
//!
//! A two-row point constraint solves the same formula with the 2×2 matrix `K = J M⁻¹ Jᵀ`
//! instead of `1/m` ([`Sym22`]), so both directions are satisfied at once instead of fighting
//! each other across iterations.
//!
//! ## Rows that share one Jacobian touch the bodies once
//!
//! Several rows of a joint often share one Jacobian `J`: the spring, motor and both limits of a
//! hinge all act on `ωB − ωA`, those of a slider or a distance joint all on one axis. Each reads
//! only its velocity `Ċ = J·v` and applies `Δv = M⁻¹Jᵀ·λ`, which changes that velocity by
//!
//! ```text
//!   J·Δv = (J M⁻¹ Jᵀ)·λ = r·λ        (r: the row's response, `ScalarRow::response`)
//! ```
//!
//! So after rows `1..k` with impulses `λ₁ … λₖ` the velocity the next row reads is
//! `Ċ₀ + r·(λ₁ + … + λₖ)`, and the bodies, being linear in the impulses, end where one impulse
//! `λ₁ + … + λₙ` applied once would put them. [`Deferred`] solves the rows in the same order
//! on the scalar `Ċ`, sums the impulses and applies the sum once: the same Gauss–Seidel
//! sequence in exact arithmetic (only the rounding differs), with one body update where there
//! were up to four.

use super::{JointImpulses, JointPrepared, PassContext};
use crate::contact_constraint::state_or_identity;
use crate::contact_solver::{clamp_accumulated, lane_max};
use crate::softness::Softness;
use core_soa::{BodyState, NULL_BODY, Rot, Vec2, body_flags, cross, cross_sv};

/// Writes a body's velocity back if `index` names a dynamic body.
#[inline]
fn store_velocity(body: &BodyState, states: &mut [BodyState], index: u32) {
    if index == NULL_BODY {
        return;
    }
    let state = &mut states[index as usize];
    if state.flags & body_flags::DYNAMIC != 0 {
        state.linear_velocity = body.linear_velocity;
        state.angular_velocity = body.angular_velocity;
    }
}

/// The two bodies of a joint (velocities and step displacements) with their inverse masses,
/// loaded for a pass.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointPair {
    pub a: BodyState,
    pub b: BodyState,
    pub inv_mass_a: f32,
    pub inv_inertia_a: f32,
    pub inv_mass_b: f32,
    pub inv_inertia_b: f32,
}

impl JointPair {
    #[inline]
    pub fn load(
        states: &[BodyState],
        (index_a, inv_mass_a, inv_inertia_a): (u32, f32, f32),
        (index_b, inv_mass_b, inv_inertia_b): (u32, f32, f32),
    ) -> JointPair {
        JointPair {
            a: state_or_identity(states, index_a),
            b: state_or_identity(states, index_b),
            inv_mass_a,
            inv_inertia_a,
            inv_mass_b,
            inv_inertia_b,
        }
    }

    /// The pair at the start of the step (at rest, not yet displaced): what preparation uses
    /// to compute effective masses.
    pub fn at_rest(side_a: (u32, f32, f32), side_b: (u32, f32, f32)) -> JointPair {
        JointPair::load(
            &[],
            (NULL_BODY, side_a.1, side_a.2),
            (NULL_BODY, side_b.1, side_b.2),
        )
    }

    #[inline]
    pub fn store(&self, states: &mut [BodyState], index_a: u32, index_b: u32) {
        store_velocity(&self.a, states, index_a);
        store_velocity(&self.b, states, index_b);
    }

    /// The anchors rotated by each body's rotation since the start of the step.
    #[inline]
    pub fn current_anchors(&self, anchor_a: Vec2, anchor_b: Vec2) -> (Vec2, Vec2) {
        (
            self.a.delta_rotation.rotate(anchor_a),
            self.b.delta_rotation.rotate(anchor_b),
        )
    }

    /// `d = (ΔpB − ΔpA) + (rB − rA) + (cB₀ − cA₀)`: from anchor A to anchor B, now.
    #[inline]
    pub fn anchor_separation(&self, r_a: Vec2, r_b: Vec2, delta_center: Vec2) -> Vec2 {
        (self.b.delta_position - self.a.delta_position) + (r_b - r_a) + delta_center
    }

    /// The current anchors of a prepared joint and the separation `d` between them.
    #[inline]
    pub fn current_point(&self, p: &JointPrepared) -> ((Vec2, Vec2), Vec2) {
        let (r_a, r_b) = self.current_anchors(p.anchor_a, p.anchor_b);
        ((r_a, r_b), self.anchor_separation(r_a, r_b, p.delta_center))
    }

    /// The rotation of B relative to A since the start of the step (radians).
    #[inline]
    pub fn step_relative_angle(&self) -> f32 {
        Rot::relative_angle(self.a.delta_rotation, self.b.delta_rotation)
    }

    /// The joint angle now: the prepared angle plus the relative rotation within the step.
    #[inline]
    pub fn joint_angle(&self, p: &JointPrepared) -> f32 {
        p.delta_angle + self.step_relative_angle()
    }

    /// `vB + ωB × rB − vA − ωA × rA`: the relative velocity of the two anchor points.
    #[inline]
    pub fn relative_point_velocity(&self, r_a: Vec2, r_b: Vec2) -> Vec2 {
        (self.b.linear_velocity + cross_sv(self.b.angular_velocity, r_b))
            - (self.a.linear_velocity + cross_sv(self.a.angular_velocity, r_a))
    }

    /// `ωB − ωA`.
    #[inline]
    pub fn relative_angular_velocity(&self) -> f32 {
        self.b.angular_velocity - self.a.angular_velocity
    }

    /// Applies `impulse` to B at `r_b` and its opposite to A at `r_a`.
    #[inline]
    pub fn apply_point(&mut self, impulse: Vec2, r_a: Vec2, r_b: Vec2) {
        self.a.linear_velocity -= self.inv_mass_a * impulse;
        self.a.angular_velocity -= self.inv_inertia_a * cross(r_a, impulse);
        self.b.linear_velocity += self.inv_mass_b * impulse;
        self.b.angular_velocity += self.inv_inertia_b * cross(r_b, impulse);
    }

    /// Applies an angular impulse to B and its opposite to A.
    #[inline]
    pub fn apply_angular(&mut self, impulse: f32) {
        self.a.angular_velocity -= self.inv_inertia_a * impulse;
        self.b.angular_velocity += self.inv_inertia_b * impulse;
    }

    /// The warm start of a joint whose rows are a point block and an angle: the linear
    /// impulse at the current anchors, then the angular impulse.
    #[inline]
    pub fn warm_start_point_and_angle(&mut self, p: &JointPrepared, i: &JointImpulses) {
        let (r_a, r_b) = self.current_anchors(p.anchor_a, p.anchor_b);
        self.apply_point(i.linear, r_a, r_b);
        self.apply_angular(i.angular);
    }

    /// `1/(J M⁻¹ Jᵀ)` of an axial row with lever arms `lever_a`, `lever_b`, or 0 when neither
    /// body can respond.
    #[inline]
    pub fn axial_mass(&self, lever_a: f32, lever_b: f32) -> f32 {
        inverse_or_zero(self.axial_response(lever_a, lever_b))
    }

    /// `J M⁻¹ Jᵀ = mA⁻¹ + mB⁻¹ + IA⁻¹·lever_a² + IB⁻¹·lever_b²` of an axial row along a unit
    /// axis with lever arms `lever_a`, `lever_b`.
    #[inline]
    pub fn axial_response(&self, lever_a: f32, lever_b: f32) -> f32 {
        self.inv_mass_a
            + self.inv_mass_b
            + self.inv_inertia_a * lever_a * lever_a
            + self.inv_inertia_b * lever_b * lever_b
    }

    /// The increment of a two-row point constraint `d = 0` at anchors `r_a`, `r_b` with
    /// accumulated impulse `accumulated`. With `softness` the row is a spring pulling the
    /// current separation `d` to zero; without, it is rigid with no position feedback (the
    /// relax pass):
    ///
    /// ```text
    ///   Δλ = −mass_scale·K⁻¹·(Ċ + bias_rate·d) − impulse_scale·Λ
    /// ```
    #[inline]
    pub fn point_increment(
        &self,
        (r_a, r_b): (Vec2, Vec2),
        separation: Vec2,
        softness: Option<&Softness>,
        accumulated: Vec2,
    ) -> Vec2 {
        let velocity = self.relative_point_velocity(r_a, r_b);
        let (bias, terms) = match softness {
            Some(s) => (s.bias_rate * separation, RowTerms::spring(s, 0.0)),
            None => (Vec2::ZERO, RowTerms::RIGID),
        };
        let k = self.point_matrix(r_a, r_b).factor();
        point_impulse(velocity + bias, &k, &terms, accumulated)
    }

    /// Solves a point constraint once at anchors whose point matrix `k` the caller already
    /// has (factored), accumulating into `accumulated`: [`JointPair::solve_point`] without
    /// recomputing `K` or its determinant.
    #[inline]
    pub fn solve_point_with(
        &mut self,
        (r_a, r_b): (Vec2, Vec2),
        k: &FactoredSym22,
        separation: Vec2,
        softness: Option<&Softness>,
        accumulated: &mut Vec2,
    ) {
        let velocity = self.relative_point_velocity(r_a, r_b);
        let (bias, terms) = match softness {
            Some(s) => (s.bias_rate * separation, RowTerms::spring(s, 0.0)),
            None => (Vec2::ZERO, RowTerms::RIGID),
        };
        let impulse = point_impulse(velocity + bias, k, &terms, *accumulated);
        *accumulated += impulse;
        self.apply_point(impulse, r_a, r_b);
    }

    /// Solves a point constraint once ([`JointPair::point_increment`]), accumulating into
    /// `accumulated`.
    #[inline]
    pub fn solve_point(
        &mut self,
        anchors: (Vec2, Vec2),
        separation: Vec2,
        softness: Option<&Softness>,
        accumulated: &mut Vec2,
    ) {
        let impulse = self.point_increment(anchors, separation, softness, *accumulated);
        *accumulated += impulse;
        self.apply_point(impulse, anchors.0, anchors.1);
    }

    /// `K = J M⁻¹ Jᵀ` of a point constraint at anchors `r_a`, `r_b`. With `J = [−I, −r̃A, I, r̃B]`
    /// (`r̃·ω = ω × r = (−ω·r.y, ω·r.x)`):
    ///
    /// ```text
    ///   K = (mA⁻¹ + mB⁻¹)·I + IA⁻¹·[r.y², −r.x·r.y; −r.x·r.y, r.x²]_A + (same)_B
    /// ```
    #[inline]
    pub fn point_matrix(&self, r_a: Vec2, r_b: Vec2) -> Sym22 {
        let (ma, mb, ia, ib) = (
            self.inv_mass_a,
            self.inv_mass_b,
            self.inv_inertia_a,
            self.inv_inertia_b,
        );
        Sym22 {
            k11: ma + mb + ia * r_a.y * r_a.y + ib * r_b.y * r_b.y,
            k12: -ia * r_a.x * r_a.y - ib * r_b.x * r_b.y,
            k22: ma + mb + ia * r_a.x * r_a.x + ib * r_b.x * r_b.x,
        }
    }
}

/// `−mass_scale·K⁻¹·(Ċ + bias) − impulse_scale·Λ`: the soft-step increment of a point block
/// whose biased velocity is `biased_velocity`.
#[inline]
fn point_impulse(
    biased_velocity: Vec2,
    k: &FactoredSym22,
    terms: &RowTerms,
    accumulated: Vec2,
) -> Vec2 {
    -terms.mass_scale * k.solve(biased_velocity) - terms.impulse_scale * accumulated
}

/// One scalar row `Ċ = J·v` between the two bodies of a pair: its effective mass
/// `1/(J M⁻¹ Jᵀ)`, its velocity, and how an impulse `λ` along it changes the bodies (`M⁻¹Jᵀλ`).
/// The row solvers below ([`solve_row`], [`solve_motor`], [`solve_limits`]) are written once
/// against it.
pub(crate) trait ScalarRow {
    /// The effective mass the row solves with.
    fn mass(&self) -> f32;
    /// `J M⁻¹ Jᵀ`: how much a unit impulse along the row changes its velocity.
    fn response(&self, pair: &JointPair) -> f32;
    /// The row's velocity `Ċ = J·v` now.
    fn velocity(&self, pair: &JointPair) -> f32;
    /// Applies the impulse `impulse` along the row (`Δv = M⁻¹Jᵀ·λ`).
    fn apply(&mut self, pair: &mut JointPair, impulse: f32);
}

/// A row whose impulses are summed and applied to the bodies once, by [`Deferred::finish`]
/// (module notes, "Rows that share one Jacobian touch the bodies once"). Between the two it
/// tracks the row's velocity `Ċ₀ + r·Σλ` itself, so the row solvers run on it unchanged.
pub(crate) struct Deferred<R> {
    row: R,
    /// `J M⁻¹ Jᵀ` of the row.
    response: f32,
    /// The row's velocity with the impulses solved so far.
    velocity: f32,
    /// The impulses solved so far, not yet applied.
    pending: f32,
}

impl<R: ScalarRow> Deferred<R> {
    /// Starts deferring `row` at the bodies' velocities now.
    #[inline]
    pub fn new(row: R, pair: &JointPair) -> Deferred<R> {
        Deferred {
            response: row.response(pair),
            velocity: row.velocity(pair),
            pending: 0.0,
            row,
        }
    }

    /// Applies the summed impulse to the bodies; returns the row.
    #[inline]
    pub fn finish(mut self, pair: &mut JointPair) -> R {
        self.row.apply(pair, self.pending);
        self.row
    }
}

impl<R: ScalarRow> ScalarRow for Deferred<R> {
    #[inline]
    fn mass(&self) -> f32 {
        self.row.mass()
    }

    #[inline]
    fn response(&self, _pair: &JointPair) -> f32 {
        self.response
    }

    #[inline]
    fn velocity(&self, _pair: &JointPair) -> f32 {
        self.velocity
    }

    /// Adds the impulse to the pending sum and its effect `r·λ` to the velocity; the bodies
    /// are left alone until [`Deferred::finish`].
    #[inline]
    fn apply(&mut self, _pair: &mut JointPair, impulse: f32) {
        self.velocity += self.response * impulse;
        self.pending += impulse;
    }
}

/// A row along a world `axis` with angular lever arms:
/// `Ċ = axis·(vB − vA) + lever_b·ωB − lever_a·ωA`, `J = [−axisᵀ, −lever_a, axisᵀ, lever_b]`,
/// effective mass `1/(mA⁻¹ + mB⁻¹ + IA⁻¹·lever_a² + IB⁻¹·lever_b²)`. For a direction through
/// the two anchors the levers are `r × axis` (since `axis·(ω × r) = ω·(r × axis)`); a prismatic
/// axis that turns with body A adds `d × axis` to A's lever (see `prismatic.rs`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AxialRow {
    pub axis: Vec2,
    pub lever_a: f32,
    pub lever_b: f32,
    pub mass: f32,
}

impl AxialRow {
    /// The row with its effective mass computed from the pair's masses now.
    #[inline]
    pub fn new(pair: &JointPair, axis: Vec2, lever_a: f32, lever_b: f32) -> AxialRow {
        AxialRow {
            axis,
            lever_a,
            lever_b,
            mass: pair.axial_mass(lever_a, lever_b),
        }
    }

    /// The row along `axis` through anchors `r_a`, `r_b`, with a given effective mass.
    #[inline]
    pub fn through_anchors(axis: Vec2, (r_a, r_b): (Vec2, Vec2), mass: f32) -> AxialRow {
        AxialRow {
            axis,
            lever_a: cross(r_a, axis),
            lever_b: cross(r_b, axis),
            mass,
        }
    }
}

impl ScalarRow for AxialRow {
    #[inline]
    fn mass(&self) -> f32 {
        self.mass
    }

    #[inline]
    fn response(&self, pair: &JointPair) -> f32 {
        pair.axial_response(self.lever_a, self.lever_b)
    }

    #[inline]
    fn velocity(&self, pair: &JointPair) -> f32 {
        self.axis
            .dot(pair.b.linear_velocity - pair.a.linear_velocity)
            + self.lever_b * pair.b.angular_velocity
            - self.lever_a * pair.a.angular_velocity
    }

    #[inline]
    fn apply(&mut self, pair: &mut JointPair, impulse: f32) {
        let linear = impulse * self.axis;
        pair.a.linear_velocity -= pair.inv_mass_a * linear;
        pair.a.angular_velocity -= pair.inv_inertia_a * impulse * self.lever_a;
        pair.b.linear_velocity += pair.inv_mass_b * linear;
        pair.b.angular_velocity += pair.inv_inertia_b * impulse * self.lever_b;
    }
}

/// The relative rotation row `Ċ = ωB − ωA`, effective mass `1/(IA⁻¹ + IB⁻¹)`
/// (`prepared.angular_mass`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AngularRow {
    pub mass: f32,
}

impl ScalarRow for AngularRow {
    #[inline]
    fn mass(&self) -> f32 {
        self.mass
    }

    /// `IA⁻¹ + IB⁻¹`.
    #[inline]
    fn response(&self, pair: &JointPair) -> f32 {
        pair.inv_inertia_a + pair.inv_inertia_b
    }

    #[inline]
    fn velocity(&self, pair: &JointPair) -> f32 {
        pair.relative_angular_velocity()
    }

    #[inline]
    fn apply(&mut self, pair: &mut JointPair, impulse: f32) {
        pair.apply_angular(impulse);
    }
}

/// Solves a row with the pass's `terms` once, accumulating into `accumulated` unclamped
/// (springs and equality rows).
#[inline]
pub(crate) fn solve_row(
    row: &mut impl ScalarRow,
    pair: &mut JointPair,
    terms: &RowTerms,
    accumulated: &mut f32,
) {
    let impulse = terms.impulse(row.mass(), row.velocity(pair), *accumulated);
    *accumulated += impulse;
    row.apply(pair, impulse);
}

/// A motor: the rigid velocity row `Ċ = speed`, `Δλ = −m·(Ċ − speed)`, with the accumulated
/// impulse bounded by `±max_impulse` (the force or torque limit times `h`).
#[inline]
pub(crate) fn solve_motor(
    row: &mut impl ScalarRow,
    pair: &mut JointPair,
    speed: f32,
    max_impulse: f32,
    accumulated: &mut f32,
) {
    let velocity_error = row.velocity(pair) - speed;
    let impulse = -row.mass() * velocity_error;
    let applied = accumulate_bounded(accumulated, impulse, max_impulse);
    row.apply(pair, applied);
}

/// The two one-sided limit rows of a coordinate `x` with `lower ≤ x ≤ upper`, given the
/// distances to them, `to_lower = x − lower` and `to_upper = upper − x`. The lower row is
/// `C = x − lower ≥ 0` along the row; the upper row `C = upper − x ≥ 0` runs against it
/// (velocity `−Ċ`, impulse applied negated). Each accumulates a non-negative impulse in
/// `i.lower`/`i.upper`, is speculative while open and soft with the joint softness (biased
/// pass) or rigid (relax pass) once reached ([`RowTerms::limit`]).
#[inline]
pub(crate) fn solve_limits(
    row: &mut impl ScalarRow,
    pair: &mut JointPair,
    (to_lower, to_upper): (f32, f32),
    pass: &PassContext,
    i: &mut JointImpulses,
) {
    let softness = &pass.prepared.joint_softness;
    let lower = RowTerms::limit(softness, to_lower, pass.use_bias, pass.inv_h);
    let impulse = lower.impulse(row.mass(), row.velocity(pair), i.lower);
    let applied = accumulate_non_negative(&mut i.lower, impulse);
    row.apply(pair, applied);
    let upper = RowTerms::limit(softness, to_upper, pass.use_bias, pass.inv_h);
    let impulse = upper.impulse(row.mass(), -row.velocity(pair), i.upper);
    let applied = accumulate_non_negative(&mut i.upper, impulse);
    row.apply(pair, -applied);
}

/// A symmetric 2×2 matrix `[k11, k12; k12, k22]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Sym22 {
    pub k11: f32,
    pub k12: f32,
    pub k22: f32,
}

impl Sym22 {
    /// `x` with `K·x = b` by Cramer's rule; zero when `K` is singular (nothing can move along
    /// some direction, e.g. both bodies fixed), so the row applies nothing rather than infinity.
    #[inline]
    pub fn solve(&self, b: Vec2) -> Vec2 {
        self.factor().solve(b)
    }

    /// The matrix with `1/det K` computed, ready to solve for several right-hand sides.
    #[inline]
    pub fn factor(self) -> FactoredSym22 {
        let det = self.k11 * self.k22 - self.k12 * self.k12;
        let singular = det == 0.0 || !det.is_finite();
        FactoredSym22 {
            k: self,
            inv_det: if singular { None } else { Some(1.0 / det) },
        }
    }
}

/// A [`Sym22`] with its inverse determinant (`None` when singular): each solve then costs
/// multiplications only, one division in all — a hinge solves with its `K` twice per pass (the
/// angle rows' turn and the point block).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct FactoredSym22 {
    pub k: Sym22,
    pub inv_det: Option<f32>,
}

impl FactoredSym22 {
    /// `x` with `K·x = b` ([`Sym22::solve`]).
    #[inline]
    pub fn solve(&self, b: Vec2) -> Vec2 {
        let Some(inv_det) = self.inv_det else {
            return Vec2::ZERO;
        };
        let k = &self.k;
        Vec2::new(
            inv_det * (k.k22 * b.x - k.k12 * b.y),
            inv_det * (k.k11 * b.y - k.k12 * b.x),
        )
    }
}

/// `1/k`, or 0 when `k` is not positive.
#[inline]
pub(crate) fn inverse_or_zero(k: f32) -> f32 {
    if k > 0.0 { 1.0 / k } else { 0.0 }
}

/// The bias and scales of one row in one pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RowTerms {
    pub bias: f32,
    pub mass_scale: f32,
    pub impulse_scale: f32,
}

impl RowTerms {
    /// Rigid, no position feedback: the relax pass, motors.
    pub const RIGID: RowTerms = RowTerms {
        bias: 0.0,
        mass_scale: 1.0,
        impulse_scale: 0.0,
    };

    /// A spring of `softness` at position error `c`: used in every pass, since a spring is part
    /// of the model rather than an error correction.
    #[inline]
    pub fn spring(softness: &Softness, c: f32) -> RowTerms {
        RowTerms {
            bias: softness.bias_rate * c,
            mass_scale: softness.mass_scale,
            impulse_scale: softness.impulse_scale,
        }
    }

    /// An equality row at position error `c`: soft with the joint softness in the biased pass,
    /// rigid without feedback in the relax pass.
    #[inline]
    pub fn equality(softness: &Softness, c: f32, use_bias: bool) -> RowTerms {
        if use_bias {
            RowTerms::spring(softness, c)
        } else {
            RowTerms::RIGID
        }
    }

    /// A one-sided limit row whose constraint is `c ≥ 0`. A limit not yet reached (`c > 0`) is
    /// speculative in every pass: bias `c/h` lets the bodies close the gap within the substep
    /// and no further, so a fast body stops at the limit instead of tunnelling past it and being
    /// pushed back. A violated limit (`c ≤ 0`) is an equality row.
    #[inline]
    pub fn limit(softness: &Softness, c: f32, use_bias: bool, inv_h: f32) -> RowTerms {
        if c > 0.0 {
            RowTerms {
                bias: c * inv_h,
                ..RowTerms::RIGID
            }
        } else {
            RowTerms::equality(softness, c, use_bias)
        }
    }

    /// The increment `−m·mass_scale·(Ċ + bias) − impulse_scale·Λ` of a scalar row.
    #[inline]
    pub fn impulse(&self, mass: f32, velocity: f32, accumulated: f32) -> f32 {
        -mass * self.mass_scale * (velocity + self.bias) - self.impulse_scale * accumulated
    }
}

/// Adds `increment` to `accumulated`, keeping the total non-negative; returns what was applied.
#[inline]
pub(crate) fn accumulate_non_negative(accumulated: &mut f32, increment: f32) -> f32 {
    let total = lane_max(*accumulated + increment, 0.0);
    let applied = total - *accumulated;
    *accumulated = total;
    applied
}

/// Adds `increment` to `accumulated`, keeping the total within `±max_magnitude`; returns what
/// was applied. A negative bound counts as zero. The clamps follow the wide lanes' rule
/// ([`lane_max`]), so the wide hinge kernel (`revolute_wide.rs`) reproduces these
/// accumulators to the bit.
#[inline]
pub(crate) fn accumulate_bounded(accumulated: &mut f32, increment: f32, max_magnitude: f32) -> f32 {
    let bound = lane_max(max_magnitude, 0.0);
    let (total, applied) = clamp_accumulated(*accumulated, increment, -bound, bound);
    *accumulated = total;
    applied
}

/// Adds `increment` to `accumulated`, keeping the total's length within `max_length`; returns
/// what was applied.
#[inline]
pub(crate) fn accumulate_within_length(
    accumulated: &mut Vec2,
    increment: Vec2,
    max_length: f32,
) -> Vec2 {
    let bound = max_length.max(0.0);
    let mut total = *accumulated + increment;
    let length_squared = total.length_squared();
    if length_squared > bound * bound {
        total *= bound / length_squared.sqrt();
    }
    let applied = total - *accumulated;
    *accumulated = total;
    applied
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Two bodies at rest with unequal masses and inertias, so that every term of a row acts;
    /// the joints' row tests start from it.
    pub(in crate::joint) fn resting_pair() -> JointPair {
        JointPair {
            a: BodyState::IDENTITY,
            b: BodyState::IDENTITY,
            inv_mass_a: 0.5,
            inv_inertia_a: 2.0,
            inv_mass_b: 0.25,
            inv_inertia_b: 1.5,
        }
    }

    #[test]
    fn sym22_solve_inverts_the_matrix() {
        let k = Sym22 {
            k11: 3.0,
            k12: -1.0,
            k22: 2.0,
        };
        let x = k.solve(Vec2::new(1.0, 4.0));
        // [3 −1; −1 2]·x = (1, 4): det 5, x = (2·1 + 4, 3·4 + 1)/5 = (1.2, 2.6).
        assert!((x - Vec2::new(1.2, 2.6)).length() < 1e-6);
        let singular = Sym22 {
            k11: 0.0,
            k12: 0.0,
            k22: 0.0,
        };
        assert_eq!(singular.solve(Vec2::ONE), Vec2::ZERO);
    }

    #[test]
    fn point_matrix_matches_the_velocity_response() {
        // Apply a unit impulse along x and y and read back the change of relative anchor
        // velocity: that is K's columns by definition.
        let pair = resting_pair();
        let (r_a, r_b) = (Vec2::new(0.3, -0.7), Vec2::new(-1.1, 0.4));
        let k = pair.point_matrix(r_a, r_b);
        for (unit, column) in [
            (Vec2::X, Vec2::new(k.k11, k.k12)),
            (Vec2::Y, Vec2::new(k.k12, k.k22)),
        ] {
            let mut p = pair;
            p.apply_point(unit, r_a, r_b);
            let response = p.relative_point_velocity(r_a, r_b);
            assert!(
                (response - column).length() < 1e-6,
                "{response} vs {column}"
            );
        }
    }

    /// Two bodies in motion, with masses and lever arms that make every row below act.
    fn moving_pair() -> JointPair {
        let mut pair = resting_pair();
        pair.a.linear_velocity = Vec2::new(0.4, -1.2);
        pair.a.angular_velocity = 0.7;
        pair.b.linear_velocity = Vec2::new(-0.9, 0.3);
        pair.b.angular_velocity = -1.6;
        pair
    }

    /// Spring, motor and both limits on one row, in the joints' order; returns the impulses.
    fn solve_four_rows(row: &mut impl ScalarRow, pair: &mut JointPair) -> JointImpulses {
        let h = 1.0 / 240.0;
        let prepared = JointPrepared {
            joint_softness: Softness::new(60.0, 2.0, h),
            ..JointPrepared::default()
        };
        let pass = PassContext {
            prepared: &prepared,
            h,
            inv_h: 1.0 / h,
            use_bias: true,
        };
        let mut i = JointImpulses {
            spring: 0.05,
            lower: 0.02,
            ..JointImpulses::default()
        };
        let spring = RowTerms::spring(&Softness::new(4.0, 0.5, h), 0.3);
        solve_row(row, pair, &spring, &mut i.spring);
        solve_motor(row, pair, -0.8, 0.2, &mut i.motor);
        // The lower limit violated by 1 cm pushes the row out faster than the upper limit,
        // 1 mm away (speculative), allows.
        solve_limits(row, pair, (-0.01, 0.001), &pass, &mut i);
        i
    }

    #[test]
    fn deferred_rows_end_where_the_rows_applied_one_by_one_do() {
        // The same four rows, once applying every impulse to the bodies and once deferred
        // (module notes, "Rows that share one Jacobian touch the bodies once"): the same
        // impulses and the same final velocities, to rounding.
        let start = moving_pair();
        let axial = AxialRow::new(&start, Vec2::new(0.6, 0.8), 0.35, -0.9);

        let (mut direct_pair, mut direct_row) = (start, axial);
        let direct = solve_four_rows(&mut direct_row, &mut direct_pair);

        let mut deferred_pair = start;
        let mut deferred_row = Deferred::new(axial, &deferred_pair);
        let deferred = solve_four_rows(&mut deferred_row, &mut deferred_pair);
        assert_eq!(
            deferred_pair.a, start.a,
            "deferred rows touched the bodies early"
        );
        deferred_row.finish(&mut deferred_pair);

        let impulses = |i: &JointImpulses| [i.spring, i.motor, i.lower, i.upper];
        for (d, e) in impulses(&direct).into_iter().zip(impulses(&deferred)) {
            assert!((d - e).abs() < 1e-6, "impulse {d} vs {e}");
        }
        // Every row acted, so the whole sequence was tested.
        assert!(
            impulses(&direct).iter().all(|&x| x.abs() > 1e-3),
            "{direct:?}"
        );
        for (d, e) in [
            (direct_pair.a, deferred_pair.a),
            (direct_pair.b, deferred_pair.b),
        ] {
            assert!((d.linear_velocity - e.linear_velocity).length() < 1e-6);
            assert!((d.angular_velocity - e.angular_velocity).abs() < 1e-6);
        }
    }

    #[test]
    fn responses_are_the_velocity_change_per_unit_impulse() {
        let start = moving_pair();
        let axial = AxialRow::new(&start, Vec2::new(0.6, 0.8), 0.35, -0.9);
        let spin = AngularRow { mass: 0.0 };
        fn check(mut row: impl ScalarRow, start: &JointPair) {
            let mut pair = *start;
            row.apply(&mut pair, 0.25);
            let change = row.velocity(&pair) - row.velocity(start);
            let expected = 0.25 * row.response(start);
            assert!((change - expected).abs() < 1e-6, "{change} vs {expected}");
        }
        check(axial, &start);
        check(spin, &start);
        // Axial: 0.5 + 0.25 + 2·0.35² + 1.5·0.9² = 2.21.
        assert!((axial.response(&start) - 2.21).abs() < 1e-6);
    }

    #[test]
    fn accumulators_clamp_the_total() {
        let mut total = 1.0;
        assert_eq!(accumulate_non_negative(&mut total, -3.0), -1.0);
        assert_eq!(total, 0.0);
        let mut motor = 0.5;
        assert_eq!(accumulate_bounded(&mut motor, 2.0, 1.0), 0.5);
        assert_eq!(accumulate_bounded(&mut motor, -5.0, 1.0), -2.0);
        assert_eq!(motor, -1.0);
        let mut linear = Vec2::ZERO;
        let applied = accumulate_within_length(&mut linear, Vec2::new(3.0, 4.0), 2.5);
        assert!((applied - Vec2::new(1.5, 2.0)).length() < 1e-6);
    }

    #[test]
    fn limit_terms_are_speculative_when_open() {
        let soft = Softness::new(60.0, 5.0, 1.0 / 240.0);
        let open = RowTerms::limit(&soft, 0.01, true, 240.0);
        assert!((open.bias - 2.4).abs() < 1e-5);
        assert_eq!((open.mass_scale, open.impulse_scale), (1.0, 0.0));
        let violated = RowTerms::limit(&soft, -0.01, true, 240.0);
        assert_eq!(violated, RowTerms::spring(&soft, -0.01));
        assert_eq!(RowTerms::limit(&soft, -0.01, false, 240.0), RowTerms::RIGID);
    }
}
