//! # Shape casts: sweeping a convex shape along a straight line
//!
//! A shape cast asks when a shape moving by a translation first comes within a target
//! separation of another (itself possibly translating): the fraction of the translation
//! travelled, the point and the normal there. It is the ray cast of shapes, used by world
//! queries and by a character mover that wants to know how far it can go.
//!
//! ## Conservative advancement on the distance
//!
//! Only the relative motion matters, so the cast runs in A's frame with B translating by
//! `d = R_a⁻¹·(translation_b − translation_a)`. With `D(f)` the distance between the cores
//! when B has moved by `f·d`:
//!
//! - `D` is the distance from the origin to the Minkowski difference `B − A` moved by `f·d`,
//!   and the distance from a point moving on a line to a fixed convex set is a **convex**
//!   function of the line parameter (it is the composition of a convex function with an
//!   affine one). Where it is positive it is also differentiable, with `D′(f) = n·d`, `n` the
//!   unit normal from A to B at the closest points.
//! - A convex function lies above its tangents: `D(f + Δ) ≥ D(f) + Δ·n·d`. So advancing by
//!   `Δ = (D(f) − c) / (−n·d)` (Newton's step towards the core target `c`) never passes the
//!   first fraction where `D = c`. The iteration climbs monotonically to that root; where
//!   the closest features stay the same, `D` is linear and one step lands on it exactly,
//!   and elsewhere convergence is quadratic.
//! - If `n·d ≥ 0` the tangent, and therefore `D`, never decreases again: the shapes miss.
//!
//! This is Mirtich's conservative advancement ("Impulse-based Dynamic Simulation of Rigid Body
//! Systems", 1996) specialised to translation, where the bound on the approach speed is exact.
//!
//! ```text
//!   f ← 0
//!   loop:  D, n ← GJK at f          (warm-started from the previous simplex)
//!          D − c ≤ tolerance        → hit at f
//!          n·d ≥ 0                  → miss (moving apart)
//!          f ← f + (D − c)/(−n·d)
//!          f > max_fraction         → miss
//! ```
//!
//! ## Targets and the start
//!
//! The core target is `c = r_a + r_b + target_separation` (not below zero): a target
//! separation of 0 reports the fraction where the rounded surfaces touch; a positive one stops
//! that far short (a character mover keeps a skin of the linear slop), a negative one lets
//! rounded shapes sink in. The tolerance is 10 µm, raised for large coordinates to a few f32
//! rounding steps of the problem's size, so fractions are accurate well below 0.1 mm.
//!
//! At `f = 0` three cases differ. Shapes already closer than the target by more than the
//! tolerance report an **initial overlap**: fraction 0 and a flag. Shapes touching to within
//! the tolerance hit at 0 if they approach and miss if they slide along or separate, so a
//! body resting on the ground can cast sideways. With `can_encroach`, shapes that start
//! touching or overlapping but whose cores are more than two linear slops apart lower the
//! target to their current core distance minus one slop: the cast reports how far they may
//! move on while sinking in by at most a slop, rather than a hit at 0.
//!
//! The hit point is on A's surface, in the configuration of the hit; the normal points from A
//! to B. A world query casts the user's proxy as B against each shape A
//! ([`shape_cast`]), so the normal is the hit shape's surface normal facing the caster.
//!
//! ## One-sided segments
//!
//! [`shape_cast`] treats a chain segment as one-sided, like the ray cast does: a proxy whose
//! mean point starts behind the segment's free side is not hit by it.

use core_soa::{Transform, Vec2};

use crate::distance::{SimplexCache, core_distance};
use crate::manifold::LINEAR_SLOP;
use crate::proxy::ShapeProxy;
use crate::shapes::Shape;

/// The cast stops this close (m) to the target, at the least.
const CAST_TOLERANCE: f32 = 1e-5;

/// The iteration bound; a cast normally needs one to four distance calls.
const MAX_CAST_ITERATIONS: u32 = 20;

/// Two shapes, each translating, for [`shape_cast_pair`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeCastPairInput {
    /// Shape A in its body-local frame.
    pub proxy_a: ShapeProxy,
    /// Where A's body starts.
    pub xf_a: Transform,
    /// How far A's body moves over the whole cast (world frame).
    pub translation_a: Vec2,
    /// Shape B in its body-local frame.
    pub proxy_b: ShapeProxy,
    /// Where B's body starts.
    pub xf_b: Transform,
    /// How far B's body moves over the whole cast (world frame).
    pub translation_b: Vec2,
    /// The cast covers fractions `[0, max_fraction]` of the translations (usually 1).
    pub max_fraction: f32,
    /// The separation between the rounded surfaces that counts as a hit (0: touching).
    pub target_separation: f32,
    /// Let shapes that start touching move on by up to a linear slop (module notes).
    pub can_encroach: bool,
}

/// A proxy in world coordinates swept along a translation, for [`shape_cast`] against shapes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeCastInput {
    /// The swept shape, in world coordinates at the start of the cast.
    pub proxy: ShapeProxy,
    /// How far it moves over the whole cast.
    pub translation: Vec2,
    /// The cast covers fractions `[0, max_fraction]` of the translation (usually 1).
    pub max_fraction: f32,
    /// The separation between the rounded surfaces that counts as a hit (0: touching).
    pub target_separation: f32,
    /// Let a proxy that starts touching move on by up to a linear slop (module notes).
    pub can_encroach: bool,
}

impl ShapeCastInput {
    /// A cast of `proxy` along `translation` to touching: whole translation, target 0, no
    /// encroaching.
    pub fn new(proxy: ShapeProxy, translation: Vec2) -> ShapeCastInput {
        ShapeCastInput {
            proxy,
            translation,
            max_fraction: 1.0,
            target_separation: 0.0,
            can_encroach: false,
        }
    }
}

/// Where a cast stops (world frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastHit {
    /// On A's surface at the hit; for an initial overlap, midway between the two surface
    /// points (the common core point when the cores overlap).
    pub point: Vec2,
    /// Unit normal from A to B at the hit. `Vec2::ZERO` for an initial overlap of the cores.
    pub normal: Vec2,
    /// The fraction of the translations travelled, in `[0, max_fraction]`.
    pub fraction: f32,
    /// The shapes started closer than the target separation (the fraction is then 0).
    pub initial_overlap: bool,
    /// Distance calls used.
    pub iterations: u32,
}

/// Casts `input.proxy` (B, world frame) along `input.translation` against `shape` (A) placed
/// by `xf`. A chain segment is hit only by a proxy whose mean point starts on its free side.
/// Non-finite input, a negative or NaN `max_fraction` or a NaN target give no hit.
pub fn shape_cast(shape: &Shape, xf: Transform, input: &ShapeCastInput) -> Option<CastHit> {
    if let Shape::ChainSegment(chain) = shape {
        let mean = xf.inv_apply(input.proxy.mean_point());
        if chain.normal().dot(mean - chain.segment.point1) < 0.0 {
            return None;
        }
    }
    shape_cast_pair(&ShapeCastPairInput {
        proxy_a: ShapeProxy::from_shape(shape),
        xf_a: xf,
        translation_a: Vec2::ZERO,
        proxy_b: input.proxy,
        xf_b: Transform::IDENTITY,
        translation_b: input.translation,
        max_fraction: input.max_fraction,
        target_separation: input.target_separation,
        can_encroach: input.can_encroach,
    })
}

/// The first fraction at which two translating shapes come within the target separation
/// (module notes), or `None` if they do not within `max_fraction`. Non-finite input, a
/// negative or NaN `max_fraction` or a NaN target give `None`.
pub fn shape_cast_pair(input: &ShapeCastPairInput) -> Option<CastHit> {
    if !is_castable(input) {
        return None;
    }
    let xf_a = input.xf_a;
    let local_b = input.proxy_b.transformed(xf_a.inv_mul(input.xf_b));
    let motion = xf_a.q.inv_rotate(input.translation_b - input.translation_a);
    let local = cast_in_frame_a(&input.proxy_a, &local_b, motion, input)?;
    Some(CastHit {
        point: xf_a.apply(local.point) + local.fraction * input.translation_a,
        normal: xf_a.q.rotate(local.normal),
        ..local
    })
}

fn is_castable(input: &ShapeCastPairInput) -> bool {
    let finite_transform =
        |xf: Transform| xf.p.is_finite() && xf.q.c.is_finite() && xf.q.s.is_finite();
    finite_transform(input.xf_a)
        && finite_transform(input.xf_b)
        && input.translation_a.is_finite()
        && input.translation_b.is_finite()
        && input.max_fraction >= 0.0
        && input.max_fraction.is_finite()
        && input.target_separation.is_finite()
}

/// The cast with A fixed at the origin of its frame and B (already in that frame) moving by
/// `f·motion`. The hit is in A's frame.
fn cast_in_frame_a(
    a: &ShapeProxy,
    b: &ShapeProxy,
    motion: Vec2,
    input: &ShapeCastPairInput,
) -> Option<CastHit> {
    let (radius_a, radius_b) = (a.radius(), b.radius());
    let mut target = (radius_a + radius_b + input.target_separation).max(0.0);
    let scale = 1.0
        + motion.length() * input.max_fraction
        + a.core_extent(Vec2::ZERO)
        + b.core_extent(Vec2::ZERO);
    let tolerance = CAST_TOLERANCE.max(16.0 * f32::EPSILON * scale);
    let mut cache = SimplexCache::default();
    let mut fraction = 0.0;
    let mut last_normal = Vec2::ZERO;
    for iteration in 1..=MAX_CAST_ITERATIONS {
        let core = core_distance(a, &b.translated(fraction * motion), &mut cache);
        let hit = |normal: Vec2, initial_overlap: bool| CastHit {
            point: core.point_a + radius_a * normal,
            normal,
            fraction,
            initial_overlap,
            iterations: iteration,
        };
        if core.normal == Vec2::ZERO {
            // The cores touch or overlap: at the start an overlap, later a landing exactly on
            // a zero target, where the previous step's normal still holds.
            return Some(if iteration == 1 {
                hit(Vec2::ZERO, true)
            } else {
                hit(last_normal, false)
            });
        }
        let mut gap = core.distance - target;
        if iteration == 1 && gap <= tolerance {
            if input.can_encroach && core.distance > 2.0 * LINEAR_SLOP {
                target = core.distance - LINEAR_SLOP;
                gap = LINEAR_SLOP;
            } else if gap < -tolerance {
                let surface_a = core.point_a + radius_a * core.normal;
                let surface_b = core.point_b - radius_b * core.normal;
                return Some(CastHit {
                    point: 0.5 * (surface_a + surface_b),
                    ..hit(core.normal, true)
                });
            }
        }
        let approach = -core.normal.dot(motion);
        if gap <= tolerance {
            // Touching within the tolerance: a hit only if still approaching.
            return (approach > 0.0 || iteration > 1).then(|| hit(core.normal, false));
        }
        if approach <= 0.0 {
            return None;
        }
        fraction += gap / approach;
        if fraction > input.max_fraction {
            return None;
        }
        last_normal = core.normal;
    }
    // Not converged (numerically tied features): the last fraction is never past the hit.
    let core = core_distance(a, &b.translated(fraction * motion), &mut cache);
    let normal = if core.normal == Vec2::ZERO {
        last_normal
    } else {
        core.normal
    };
    Some(CastHit {
        point: core.point_a + radius_a * normal,
        normal,
        fraction,
        initial_overlap: false,
        iterations: MAX_CAST_ITERATIONS,
    })
}

#[cfg(test)]
mod tests;
