//! Capsule against capsule (and segment against capsule, a segment being a capsule of radius 0).
//!
//! ## Closest points
//!
//! With `P(s) = p1 + s·d1` and `Q(t) = q1 + t·d2` on the two core segments, the squared
//! distance `|P(s) − Q(t)|²` is a convex quadratic in `(s, t)`. Setting its gradient to zero
//! with `r = p1 − q1`, `a = d1·d1`, `b = d1·d2`, `e = d2·d2`, `c = d1·r`, `f = d2·r` gives
//!
//! ```text
//!   a·s − b·t = −c          s = (b·f − c·e) / (a·e − b²)
//!   b·s − e·t = −f          t = (b·s + f) / e
//! ```
//!
//! clamped to `[0, 1]`; when `t` leaves the range it is clamped and `s` recomputed as the
//! closest point of segment 1 to the clamped end (`s = −c/a` or `(b − c)/a`). Parallel segments
//! (`a·e − b² ≈ 0`) start from `s = 0`. The contact is then that of two disks at the closest
//! points: separation `distance − r_a − r_b`, normal along the closest-point direction.
//!
//! ## Parallel capsules
//!
//! One closest point cannot hold a capsule lying along another one: it would see-saw about it.
//! When the cores are parallel to within `PARALLEL_SINE` and B's core, projected on A's axis,
//! overlaps A's core by more than the linear slop, B's two ends are clipped to A's extent and
//! each gives a point with the normal perpendicular to A. Their heights above A's core line
//! give the separations, so a slightly tilted capsule gets a raised second point that the
//! speculative rule drops once it is too far.
//!
//! ## Ids
//!
//! Each side's feature is 0 or 1 for its first or second end and 2 for the interior of its
//! core. A clipped parallel point is (interior of A, end k of B), which is the same id the single
//! point gets when B tips onto its end k over A's interior, so the surviving point keeps its
//! warm-start impulse.

use super::{LocalManifold, feature_id};
use crate::manifold::{LINEAR_SLOP, Manifold, SPECULATIVE_DISTANCE};
use crate::shapes::{Capsule, Segment};
use core_soa::{Transform, Vec2, cross, left_perp};

/// Two cores count as parallel when the sine of the angle between them is below this.
const PARALLEL_SINE: f32 = 0.1;

/// The feature index of a core's interior (0 and 1 are its ends).
const INTERIOR: usize = 2;

/// Capsule A against capsule B.
pub fn collide_capsules(
    capsule_a: &Capsule,
    xf_a: Transform,
    capsule_b: &Capsule,
    xf_b: Transform,
) -> Manifold {
    let xf = xf_a.inv_mul(xf_b);
    let core_a = Core {
        p1: capsule_a.center1,
        p2: capsule_a.center2,
        radius: capsule_a.radius,
    };
    let core_b = Core {
        p1: xf.apply(capsule_b.center1),
        p2: xf.apply(capsule_b.center2),
        radius: capsule_b.radius,
    };
    capsules_in_one_frame(core_a, core_b).to_world(xf_a, xf_b)
}

/// Segment A (two-sided, no radius) against capsule B.
pub fn collide_segment_and_capsule(
    segment_a: &Segment,
    xf_a: Transform,
    capsule_b: &Capsule,
    xf_b: Transform,
) -> Manifold {
    let capsule_a = Capsule {
        center1: segment_a.point1,
        center2: segment_a.point2,
        radius: 0.0,
    };
    collide_capsules(&capsule_a, xf_a, capsule_b, xf_b)
}

/// A capsule's core segment and radius, in some common frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Core {
    pub p1: Vec2,
    pub p2: Vec2,
    pub radius: f32,
}

/// The manifold of two capsules given in the same frame.
pub(crate) fn capsules_in_one_frame(a: Core, b: Core) -> LocalManifold {
    let (s, t) = closest_fractions(a.p1, a.p2 - a.p1, b.p1, b.p2 - b.p1);
    let closest_a = a.p1 + s * (a.p2 - a.p1);
    let closest_b = b.p1 + t * (b.p2 - b.p1);
    let distance = closest_a.distance(closest_b);
    if distance - a.radius - b.radius >= SPECULATIVE_DISTANCE {
        return LocalManifold::default();
    }
    if let Some(manifold) = parallel_contact(a, b, closest_b - closest_a) {
        return manifold;
    }
    let normal = (closest_b - closest_a)
        .try_normalize()
        .unwrap_or_else(|| side_normal(a, b, Vec2::ZERO));
    LocalManifold::single(
        normal,
        closest_a + a.radius * normal,
        closest_b - b.radius * normal,
        feature_id(feature_of_fraction(s), feature_of_fraction(t)),
    )
}

/// End 0, end 1 or the interior, from a clamped fraction along a core.
fn feature_of_fraction(fraction: f32) -> usize {
    if fraction <= 0.0 {
        0
    } else if fraction >= 1.0 {
        1
    } else {
        INTERIOR
    }
}

/// The closest points' fractions `(s, t)` along `p1 + s·d1` and `q1 + t·d2` (module notes).
pub(crate) fn closest_fractions(p1: Vec2, d1: Vec2, q1: Vec2, d2: Vec2) -> (f32, f32) {
    const TINY: f32 = f32::EPSILON * f32::EPSILON;
    let r = p1 - q1;
    let (a, e, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    if a <= TINY && e <= TINY {
        return (0.0, 0.0);
    }
    if a <= TINY {
        return (0.0, (f / e).clamp(0.0, 1.0));
    }
    let c = d1.dot(r);
    if e <= TINY {
        return ((-c / a).clamp(0.0, 1.0), 0.0);
    }
    let b = d1.dot(d2);
    let denominator = a * e - b * b;
    let s = if denominator > f32::EPSILON * a * e {
        ((b * f - c * e) / denominator).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let t = (b * s + f) / e;
    if t < 0.0 {
        ((-c / a).clamp(0.0, 1.0), 0.0)
    } else if t > 1.0 {
        (((b - c) / a).clamp(0.0, 1.0), 1.0)
    } else {
        (s, t)
    }
}

/// The unit perpendicular of A's core on B's side: decided by the closest-point offset when
/// there is one, else by B's midpoint. (Used when the offset alone gives no direction.)
fn side_normal(a: Core, b: Core, closest_offset: Vec2) -> Vec2 {
    let Some(perpendicular) = left_perp(a.p2 - a.p1).try_normalize() else {
        return Vec2::X;
    };
    let toward_b = if closest_offset.length_squared() > f32::EPSILON * f32::EPSILON {
        closest_offset
    } else {
        0.5 * (b.p1 + b.p2) - a.p1
    };
    if perpendicular.dot(toward_b) < 0.0 {
        -perpendicular
    } else {
        perpendicular
    }
}

/// The two-point contact of nearly parallel, overlapping cores (module notes), or `None`.
fn parallel_contact(a: Core, b: Core, closest_offset: Vec2) -> Option<LocalManifold> {
    let axis_a = (a.p2 - a.p1).try_normalize()?;
    let axis_b = (b.p2 - b.p1).try_normalize()?;
    if cross(axis_a, axis_b).abs() >= PARALLEL_SINE {
        return None;
    }
    let length_a = (a.p2 - a.p1).dot(axis_a);
    let (t1, t2) = ((b.p1 - a.p1).dot(axis_a), (b.p2 - a.p1).dot(axis_a));
    let overlap = t1.max(t2).min(length_a) - t1.min(t2).max(0.0);
    if overlap <= LINEAR_SLOP {
        return None;
    }
    let normal = side_normal(a, b, closest_offset);
    let mut manifold = LocalManifold::new(normal);
    for (end, t) in [(0, t1), (1, t2)] {
        // Slide this end of B along B's core until it projects inside A's extent.
        let fraction = (t.clamp(0.0, length_a) - t1) / (t2 - t1);
        let vertex = b.p1 + fraction * (b.p2 - b.p1);
        let height = (vertex - a.p1).dot(normal);
        let midway = vertex + 0.5 * (a.radius - b.radius - height) * normal;
        manifold.push(
            midway,
            height - a.radius - b.radius,
            feature_id(INTERIOR, end),
        );
    }
    Some(manifold)
}
