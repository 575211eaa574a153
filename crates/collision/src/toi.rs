//! # Time of impact between moving shapes
//!
//! Continuous collision asks, for a fast body and a shape in its path, at what fraction of the
//! step the two would first come within a small target separation. The body is then moved
//! back to that time, so a bullet stops at the wall instead of stepping past it.
//!
//! ## Sweeps
//!
//! A [`Sweep`] is the motion of a body over the step, parametrised by `t ∈ [0, 1]`: its centre
//! of mass moves on the straight line `c(t) = (1 − t)·c1 + t·c2` and its rotation is the
//! normalised linear interpolation `q(t) = normalize((1 − t)·q1 + t·q2)` (the rotation turns
//! monotonically through the shorter arc from `q1` to `q2`). Shapes hang off the body origin,
//! which sits at `c(t) − q(t)·local_center`.
//!
//! ## Conservative advancement
//!
//! The method is Mirtich's conservative advancement ("Impulse-based Dynamic Simulation of
//! Rigid Body Systems", 1996), in the directional form of Zhang, Redon, Lee and Kim
//! ("Continuous Collision Detection for Articulated Models using Taylor Models and Temporal
//! Culling", 2007): at time `t` GJK gives the core distance `D` and the unit normal `n` from A
//! to B. The line through the closest points perpendicular to `n` separates the cores: A lies
//! in `n·x ≤ n·p_A`, B in `n·x ≥ n·p_A + D`. Over `[t, t + Δ]` a point of A at distance `r`
//! from A's centre moves along `n` by at most `Δ·n·(c2_A − c1_A) + r·α_A`, where `α_A` is the
//! angle A turns; likewise for B towards `−n`. So the slab between them, and with it the core
//! distance, stays at least
//!
//! ```text
//!   D − Δ·μ,   μ = −n·(Δc_B − Δc_A) + ω_A·r_A + ω_B·r_B
//! ```
//!
//! with `Δc` the centre displacement over the whole sweep, `r` the largest distance from a
//! body's centre to a point of its core, and `ω` a bound on the turning rate `|dθ/dt|`. The
//! interpolated rotation turns fastest halfway: with `q1` the identity and a total turn `φ`,
//! `q(t) ∝ (1 − t + t·cos φ, t·sin φ)` turns at `dθ/dt = cross(q, q′)/|q|² = sin φ/|q|²`, and
//! `|q|²` is smallest at `t = ½`, where it is `cos²(φ/2)`; so `ω = 2·tan(φ/2)`, a little above
//! the mean rate `φ` (6 % above it at φ = 0.8). Advancing by `Δ = (D − target)/μ` therefore
//! never passes the first time the cores come within `target`: every step is safe, and the
//! steps shrink geometrically as the shapes close in.
//!
//! ```text
//!   t ← 0
//!   loop:  D, n ← GJK at t        (warm-started from the previous simplex)
//!          D ≤ 0                  → overlapped (at t = 0)
//!          D ≤ target + tolerance → hit at t
//!          μ ≤ 0                  → separated: the slab can never close
//!          t ← t + (D − target)/μ
//!          t ≥ t_max              → separated
//!   iteration limit               → failed, t still safe
//! ```
//!
//! ## Why conservative advancement rather than root finding on a separating axis
//!
//! The alternative (Box2D's `b2TimeOfImpact`) builds a separating axis from the GJK simplex
//! and finds where the separation along that axis reaches the target by bisection and false
//! position. It converges in fewer distance calls when rotation dominates, but as its own
//! documentation says, it can miss a collision that happens between its samples of an axis
//! that is not the one that matters. Conservative advancement cannot: every step is justified
//! by a bound, so "separated" is a proof and a hit is never later than the true first contact.
//! For the cases continuous collision exists for — bullets and fast bodies that translate much
//! more than they turn — the rotation term is small and the iteration is Newton's method on a
//! convex function (see the shape-cast notes): two to four distance calls, each warm-started.
//! A body spinning fast near grazing contact needs more iterations; if the limit is reached the
//! answer is `Failed` with a time that is still safe to move to.
//!
//! ## Target and tolerance
//!
//! [`ToiInput::new`] sets the target as Box2D does: the cores stop `max(slop, r_a + r_b − slop)`
//! apart, i.e. sharp shapes a linear slop short of touching (so the contact solver finds a
//! speculative point and closes the gap itself) and rounded shapes with a slop of overlap; the
//! tolerance is a quarter slop. The core target is never below the tolerance: GJK gives no
//! normal for touching cores.
//!
//! ## One-sided chain segments
//!
//! [`shape_time_of_impact`] respects a chain segment's one side: if the other shape's centroid
//! starts behind the segment's free side, the segment is not in its way.

use core_soa::{Rot, Transform, Vec2, cross};

use crate::distance::{CoreDistance, SimplexCache, core_distance};
use crate::geometry::shape_centroid;
use crate::manifold::LINEAR_SLOP;
use crate::proxy::ShapeProxy;
use crate::shapes::{ChainSegment, Shape};

/// Distance calls before giving up (translation-dominated sweeps need two to four).
const MAX_TOI_ITERATIONS: u32 = 32;

/// The motion of a body over a step, `t ∈ [0, 1]` (module notes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sweep {
    /// The centre of mass in the body frame.
    pub local_center: Vec2,
    /// The centre of mass at `t = 0` (world).
    pub c1: Vec2,
    /// The centre of mass at `t = 1` (world).
    pub c2: Vec2,
    /// The rotation at `t = 0`.
    pub q1: Rot,
    /// The rotation at `t = 1`.
    pub q2: Rot,
}

impl Sweep {
    /// A body that stays at `xf` (its centre of mass at `local_center` in the body frame).
    pub fn stationary(xf: Transform, local_center: Vec2) -> Sweep {
        let center = xf.apply(local_center);
        Sweep {
            local_center,
            c1: center,
            c2: center,
            q1: xf.q,
            q2: xf.q,
        }
    }

    /// The sweep of a body moving from `xf1` to `xf2` (body-origin transforms).
    pub fn between(xf1: Transform, xf2: Transform, local_center: Vec2) -> Sweep {
        Sweep {
            local_center,
            c1: xf1.apply(local_center),
            c2: xf2.apply(local_center),
            q1: xf1.q,
            q2: xf2.q,
        }
    }

    /// The body-origin transform at time `t`.
    pub fn transform_at(&self, t: f32) -> Transform {
        let center = (1.0 - t) * self.c1 + t * self.c2;
        let q = Rot::nlerp(self.q1, self.q2, t);
        Transform::new(center - q.rotate(self.local_center), q)
    }

    /// The largest `|dθ/dt|` over the sweep, `2·tan(φ/2) = 2·sin φ/(1 + cos φ)` for the turn
    /// `φ` from `q1` to `q2` (module notes); infinite for a half turn, which the interpolation
    /// cannot represent.
    fn max_turn_rate(&self) -> f32 {
        let cos = self.q1.c * self.q2.c + self.q1.s * self.q2.s;
        let sin = self.q1.c * self.q2.s - self.q1.s * self.q2.c;
        if 1.0 + cos <= f32::EPSILON {
            return f32::INFINITY;
        }
        2.0 * sin.abs() / (1.0 + cos)
    }

    fn is_finite(&self) -> bool {
        [self.local_center, self.c1, self.c2]
            .iter()
            .all(|v| v.is_finite())
            && [self.q1, self.q2]
                .iter()
                .all(|q| q.c.is_finite() && q.s.is_finite())
    }
}

/// Two shapes moving over a step, for [`time_of_impact`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToiInput {
    /// Shape A in its body frame.
    pub proxy_a: ShapeProxy,
    /// A's motion.
    pub sweep_a: Sweep,
    /// Shape B in its body frame.
    pub proxy_b: ShapeProxy,
    /// B's motion.
    pub sweep_b: Sweep,
    /// The search covers `t ∈ [0, max_fraction]`, `max_fraction ≤ 1`.
    pub max_fraction: f32,
    /// The separation of the rounded surfaces that counts as impact (see [`ToiInput::new`]).
    pub target_separation: f32,
    /// How far above the target a hit may be reported (m, positive).
    pub tolerance: f32,
}

impl ToiInput {
    /// The input over the whole step with the default target: the cores stop
    /// `max(slop, r_a + r_b − slop)` apart, within a quarter slop (module notes).
    pub fn new(proxy_a: ShapeProxy, sweep_a: Sweep, proxy_b: ShapeProxy, sweep_b: Sweep) -> Self {
        let radii = proxy_a.radius() + proxy_b.radius();
        ToiInput {
            proxy_a,
            sweep_a,
            proxy_b,
            sweep_b,
            max_fraction: 1.0,
            target_separation: LINEAR_SLOP.max(radii - LINEAR_SLOP) - radii,
            tolerance: 0.25 * LINEAR_SLOP,
        }
    }
}

/// How a time-of-impact search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToiState {
    /// The shapes come within the target at `fraction`.
    Hit,
    /// They stay apart over the whole interval (`fraction` is `max_fraction`).
    Separated,
    /// Their cores already overlap at the start (`fraction` is 0): nothing to sweep.
    Overlapped,
    /// The iteration limit was reached, or the input was not finite; `fraction` is a time at
    /// which the shapes are still apart (0 for bad input).
    Failed,
}

/// The answer of [`time_of_impact`] (world frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToiOutput {
    /// How the search ended.
    pub state: ToiState,
    /// The time of impact (see [`ToiState`] for what it means in each state).
    pub fraction: f32,
    /// Midway between the closest surface points at `fraction` (for `Hit` and `Failed`).
    pub point: Vec2,
    /// Unit normal from A to B at `fraction` (for `Hit` and `Failed`; zero otherwise).
    pub normal: Vec2,
    /// Distance calls used.
    pub iterations: u32,
}

impl ToiOutput {
    fn without_contact(state: ToiState, fraction: f32, iterations: u32) -> ToiOutput {
        ToiOutput {
            state,
            fraction,
            point: Vec2::ZERO,
            normal: Vec2::ZERO,
            iterations,
        }
    }
}

/// The first time in `[0, max_fraction]` at which the shapes come within the target
/// separation, by conservative advancement (module notes).
pub fn time_of_impact(input: &ToiInput) -> ToiOutput {
    let t_max = input.max_fraction;
    let valid_bounds = (0.0..=1.0).contains(&t_max)
        && input.tolerance > 0.0
        && input.tolerance.is_finite()
        && input.target_separation.is_finite();
    if !(valid_bounds && input.sweep_a.is_finite() && input.sweep_b.is_finite()) {
        return ToiOutput::without_contact(ToiState::Failed, 0.0, 0);
    }
    let (a, b) = (&input.proxy_a, &input.proxy_b);
    let radii = a.radius() + b.radius();
    let target = (radii + input.target_separation).max(input.tolerance);
    let (sweep_a, sweep_b) = (&input.sweep_a, &input.sweep_b);
    let turning = sweep_a.max_turn_rate() * a.core_extent(sweep_a.local_center)
        + sweep_b.max_turn_rate() * b.core_extent(sweep_b.local_center);
    if !turning.is_finite() {
        return ToiOutput::without_contact(ToiState::Failed, 0.0, 0);
    }
    let closing = (sweep_b.c2 - sweep_b.c1) - (sweep_a.c2 - sweep_a.c1);
    let mut cache = SimplexCache::default();
    let mut t = 0.0;
    for iteration in 1..=MAX_TOI_ITERATIONS {
        let (xf_a, core) = distance_at(input, t, &mut cache);
        if core.normal == Vec2::ZERO {
            // Overlapping cores: at the start there is nothing to sweep; later only rounding
            // can bring it about, and the previous time is still safe.
            let state = if iteration == 1 {
                ToiState::Overlapped
            } else {
                ToiState::Failed
            };
            let safe = if iteration == 1 { 0.0 } else { t };
            return ToiOutput::without_contact(state, safe, iteration);
        }
        let normal = xf_a.q.rotate(core.normal);
        if core.distance <= target + input.tolerance {
            return contact(ToiState::Hit, t, xf_a, &core, radii_of(input), iteration);
        }
        let approach_bound = -normal.dot(closing) + turning;
        if approach_bound <= 0.0 {
            return ToiOutput::without_contact(ToiState::Separated, t_max, iteration);
        }
        let next = t + (core.distance - target) / approach_bound;
        if next >= t_max {
            return ToiOutput::without_contact(ToiState::Separated, t_max, iteration);
        }
        t = next;
    }
    let (xf_a, core) = distance_at(input, t, &mut cache);
    contact(
        ToiState::Failed,
        t,
        xf_a,
        &core,
        radii_of(input),
        MAX_TOI_ITERATIONS,
    )
}

/// The time of impact of two shapes in their body frames, as [`time_of_impact`] with the
/// default target and the interval `[0, max_fraction]`, except that a chain segment is only in
/// the way of a shape whose centroid starts on the segment's free side (otherwise the answer
/// is `Separated`).
pub fn shape_time_of_impact(
    shape_a: &Shape,
    sweep_a: &Sweep,
    shape_b: &Shape,
    sweep_b: &Sweep,
    max_fraction: f32,
) -> ToiOutput {
    let behind = |chain: &ChainFreeSide, other: &Shape, other_sweep: &Sweep| {
        let centroid = other_sweep.transform_at(0.0).apply(shape_centroid(other));
        chain.is_behind(centroid)
    };
    if let Shape::ChainSegment(chain) = shape_a
        && behind(&ChainFreeSide::new(chain, sweep_a), shape_b, sweep_b)
    {
        return ToiOutput::without_contact(ToiState::Separated, max_fraction, 0);
    }
    if let Shape::ChainSegment(chain) = shape_b
        && behind(&ChainFreeSide::new(chain, sweep_b), shape_a, sweep_a)
    {
        return ToiOutput::without_contact(ToiState::Separated, max_fraction, 0);
    }
    let input = ToiInput {
        max_fraction,
        ..ToiInput::new(
            ShapeProxy::from_shape(shape_a),
            *sweep_a,
            ShapeProxy::from_shape(shape_b),
            *sweep_b,
        )
    };
    time_of_impact(&input)
}

/// A chain segment's free side at the start of its sweep.
struct ChainFreeSide {
    point1: Vec2,
    direction: Vec2,
}

impl ChainFreeSide {
    fn new(chain: &ChainSegment, sweep: &Sweep) -> ChainFreeSide {
        let xf = sweep.transform_at(0.0);
        let point1 = xf.apply(chain.segment.point1);
        ChainFreeSide {
            point1,
            direction: xf.apply(chain.segment.point2) - point1,
        }
    }

    /// Whether `point` is behind the free (right) side: `cross(p − p1, e) < 0` is the same as
    /// `right_perp(e)·(p − p1) < 0`.
    fn is_behind(&self, point: Vec2) -> bool {
        cross(point - self.point1, self.direction) < 0.0
    }
}

fn radii_of(input: &ToiInput) -> (f32, f32) {
    (input.proxy_a.radius(), input.proxy_b.radius())
}

/// GJK between the two shapes placed at time `t`, in A's frame; also returns A's transform.
fn distance_at(input: &ToiInput, t: f32, cache: &mut SimplexCache) -> (Transform, CoreDistance) {
    let xf_a = input.sweep_a.transform_at(t);
    let xf_b = input.sweep_b.transform_at(t);
    let local_b = input.proxy_b.transformed(xf_a.inv_mul(xf_b));
    (xf_a, core_distance(&input.proxy_a, &local_b, cache))
}

/// The output for a contact found at `t`: world normal, and the point midway between the
/// rounded surfaces.
fn contact(
    state: ToiState,
    t: f32,
    xf_a: Transform,
    core: &CoreDistance,
    (radius_a, radius_b): (f32, f32),
    iterations: u32,
) -> ToiOutput {
    let (surface_a, surface_b, _) = core.with_radii(radius_a, radius_b);
    ToiOutput {
        state,
        fraction: t,
        point: xf_a.apply(0.5 * (surface_a + surface_b)),
        normal: xf_a.q.rotate(core.normal),
        iterations,
    }
}

#[cfg(test)]
mod tests;
