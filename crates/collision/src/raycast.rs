//! Ray casts against shapes and boxes.
//!
//! A ray is `x(t) = origin + t·translation` for `t ∈ [0, max_fraction]`; a hit reports the
//! first point where the ray *enters* the shape, the shape's outward unit normal there, and the
//! fraction `t`. The shape functions work in the shape's local frame;
//! [`ray_cast_shape`] moves the ray into the body frame and the hit back to the world.
//!
//! **Conventions.**
//! - A ray that *starts inside* a solid shape (circle, capsule, polygon) reports no hit: it
//!   never enters the shape, and a query that wants "what contains this point" should use
//!   [`crate::geometry::point_in_shape`]. A ray starting exactly on the boundary and heading in
//!   hits at fraction 0.
//! - Two-sided segments are hit from either side, with the normal facing the ray. One-sided
//!   segments (chain links) are hit only from their free (right) side; a ray coming from behind
//!   passes through.
//! - A zero translation (or one so short that its squared length is not a normal `f32`, or so
//!   long that it is not finite), a negative or non-finite `max_fraction`, or non-finite input
//!   reports no hit.
//!
//! **Rounded shapes.** A capsule or rounded polygon is the union of its core, one rectangle
//! outside each core edge and one disk at each core vertex. From a start point outside the
//! union, the entry into a union is the earliest entry into any of its pieces, and only two
//! kinds of piece boundary can be met first: the outer face of an edge rectangle (the core edge
//! pushed out by `radius` along its normal) and a vertex disk (the rectangles' side faces lie
//! inside the disks and the core lies inside everything). So the cast is the earliest of a few
//! front-facing face casts and circle casts — exact, with no iteration.

use core_soa::math::right_perp;
use core_soa::{Transform, Vec2};

use crate::aabb::Aabb;
use crate::geometry::{closest_point_on_segment, polygon_core_distance_squared};
use crate::shapes::{Capsule, Circle, Polygon, Segment, Shape};

/// A ray from `origin` along `translation`, considered up to `origin + max_fraction·translation`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayCastInput {
    /// Where the ray starts (m).
    pub origin: Vec2,
    /// The ray's direction and length: the end point is `origin + translation` (m).
    pub translation: Vec2,
    /// How much of `translation` to consider: hits beyond `origin + max_fraction·translation` are
    /// ignored.
    pub max_fraction: f32,
}

/// Where a ray enters a shape: the point, the shape's outward unit normal there, and the
/// fraction of `translation` travelled, in `[0, max_fraction]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The point where the ray enters the shape (m).
    pub point: Vec2,
    /// The shape's outward unit normal at `point`.
    pub normal: Vec2,
    /// How far along `translation` the hit lies: `point = origin + fraction·translation`.
    pub fraction: f32,
}

/// Whether a translation's squared length lets the casts divide by the length: positive and
/// normal (a subnormal square, below `f32::MIN_POSITIVE`, has a square root whose inverse, or
/// the direction it gives, is not finite) and finite.
fn is_castable_length(length_squared: f32) -> bool {
    (f32::MIN_POSITIVE..=f32::MAX).contains(&length_squared)
}

impl RayCastInput {
    fn is_castable(&self) -> bool {
        self.origin.is_finite()
            && self.translation.is_finite()
            && self.max_fraction.is_finite()
            && self.max_fraction >= 0.0
            && is_castable_length(self.translation.length_squared())
    }

    fn point_at(&self, fraction: f32) -> Vec2 {
        self.origin + fraction * self.translation
    }
}

/// Casts a world-space ray against `shape` placed by `xf`; the hit is in world space.
pub fn ray_cast_shape(shape: &Shape, xf: Transform, input: &RayCastInput) -> Option<RayHit> {
    let local = RayCastInput {
        origin: xf.inv_apply(input.origin),
        translation: xf.q.inv_rotate(input.translation),
        max_fraction: input.max_fraction,
    };
    let hit = match shape {
        Shape::Circle(circle) => ray_cast_circle(circle, &local),
        Shape::Capsule(capsule) => ray_cast_capsule(capsule, &local),
        Shape::Segment(segment) => ray_cast_segment(segment, &local, false),
        Shape::ChainSegment(chain) => ray_cast_segment(&chain.segment, &local, true),
        Shape::Polygon(polygon) => ray_cast_polygon(polygon, &local),
    }?;
    Some(RayHit {
        point: xf.apply(hit.point),
        normal: xf.q.rotate(hit.normal),
        fraction: hit.fraction,
    })
}

/// Casts a local-space ray against a disk.
///
/// Rather than solving the quadratic `|s + t·d|² = r²` directly (whose `b² − ac` cancels badly
/// when the ray starts far away), work along the unit direction `u = d/|d|` with the centre at
/// the origin: the closest approach is at distance `τ = −s·u` along the ray, with squared miss
/// distance `c² = |s + τu|²`; the ray hits if `c² ≤ r²`, entering at `τ − √(r² − c²)`.
/// A negative entry distance means the start is inside (or past the disk): no hit.
pub fn ray_cast_circle(c: &Circle, input: &RayCastInput) -> Option<RayHit> {
    if !input.is_castable() {
        return None;
    }
    let start = input.origin - c.center;
    let length = input.translation.length();
    let direction = input.translation / length;
    let along = -start.dot(direction);
    let closest = start + along * direction;
    let miss_squared = closest.length_squared();
    let rr = c.radius * c.radius;
    if miss_squared > rr {
        return None;
    }
    let entry_distance = along - (rr - miss_squared).sqrt();
    if entry_distance < 0.0 || entry_distance > input.max_fraction * length {
        return None;
    }
    let fraction = entry_distance / length;
    let offset = start + entry_distance * direction;
    Some(RayHit {
        point: c.center + offset,
        normal: offset.normalize_or(-direction),
        fraction,
    })
}

/// Casts a local-space ray against a capsule: the earlier of its two side faces and its two
/// end disks (see the module notes for why that is exact).
pub fn ray_cast_capsule(c: &Capsule, input: &RayCastInput) -> Option<RayHit> {
    if !input.is_castable() {
        return None;
    }
    let closest = closest_point_on_segment(c.center1, c.center2, input.origin);
    if input.origin.distance_squared(closest) < c.radius * c.radius {
        return None;
    }
    let side = right_perp(c.center2 - c.center1).normalize_or_zero();
    let mut best: Option<RayHit> = None;
    if side != Vec2::ZERO {
        for normal in [side, -side] {
            let offset = c.radius * normal;
            let hit = ray_cast_outer_face(c.center1 + offset, c.center2 + offset, normal, input);
            best = earlier(best, hit);
        }
    }
    for center in [c.center1, c.center2] {
        best = earlier(
            best,
            ray_cast_circle(
                &Circle {
                    center,
                    radius: c.radius,
                },
                input,
            ),
        );
    }
    best
}

/// Casts a local-space ray against a segment. `one_sided`: only rays arriving from the right
/// side of `point1 → point2` hit (chain links), with the right-side normal.
///
/// With `n` the unit right normal, the ray meets the segment's line where
/// `n·(origin + t·d − p1) = 0`, i.e. `t = n·(p1 − origin) / n·d`; the crossing lies on the
/// segment when its projection `u = (q − p1)·e / |e|²` is in `[0, 1]`. The ray arrives from the
/// right side exactly when `n·d < 0`.
pub fn ray_cast_segment(s: &Segment, input: &RayCastInput, one_sided: bool) -> Option<RayHit> {
    if !input.is_castable() {
        return None;
    }
    let edge = s.point2 - s.point1;
    let right_normal = right_perp(edge).normalize_or_zero();
    if right_normal == Vec2::ZERO {
        return None;
    }
    let from_right = right_normal.dot(input.translation) < 0.0;
    if one_sided && !from_right {
        return None;
    }
    let facing = if from_right {
        right_normal
    } else {
        -right_normal
    };
    ray_cast_outer_face(s.point1, s.point2, facing, input)
}

/// Casts a local-space ray against a convex polygon, rounded or not.
pub fn ray_cast_polygon(p: &Polygon, input: &RayCastInput) -> Option<RayHit> {
    if !input.is_castable() {
        return None;
    }
    if p.radius > 0.0 {
        ray_cast_rounded_polygon(p, input)
    } else {
        ray_cast_sharp_polygon(p, input)
    }
}

/// Cyrus–Beck clipping: the ray is inside edge `i`'s half-plane where
/// `n_i·(origin + t·d − v_i) ≤ 0`, i.e. `t·(n_i·d) ≤ n_i·(v_i − origin)`. Edges facing the ray
/// (`n_i·d < 0`) raise the lower bound of `t`, the others lower the upper bound; the ray hits
/// when the interval `[lower, upper]` within `[0, max_fraction]` is non-empty, entering through
/// the edge that set `lower`. If no edge set it, the ray started inside.
fn ray_cast_sharp_polygon(p: &Polygon, input: &RayCastInput) -> Option<RayHit> {
    let (mut lower, mut upper) = (0.0f32, input.max_fraction);
    let mut entry_edge = None;
    for (i, (&vertex, &normal)) in p.verts().iter().zip(&p.normals).enumerate() {
        let numerator = normal.dot(vertex - input.origin);
        let denominator = normal.dot(input.translation);
        if denominator == 0.0 {
            if numerator < 0.0 {
                return None; // Parallel to this edge and outside it.
            }
        } else if denominator < 0.0 {
            if numerator < lower * denominator {
                lower = numerator / denominator;
                entry_edge = Some(i);
            }
        } else if numerator < upper * denominator {
            upper = numerator / denominator;
        }
        if upper < lower {
            return None;
        }
    }
    let edge = entry_edge?;
    Some(RayHit {
        point: input.point_at(lower),
        normal: p.normals[edge],
        fraction: lower,
    })
}

/// The earliest of the pushed-out edge faces and the vertex disks (module notes).
fn ray_cast_rounded_polygon(p: &Polygon, input: &RayCastInput) -> Option<RayHit> {
    if polygon_core_distance_squared(p, input.origin) < p.radius * p.radius {
        return None;
    }
    let vertices = p.verts();
    let count = vertices.len();
    let mut best: Option<RayHit> = None;
    for i in 0..count {
        let offset = p.radius * p.normals[i];
        let (a, b) = (vertices[i] + offset, vertices[(i + 1) % count] + offset);
        best = earlier(best, ray_cast_outer_face(a, b, p.normals[i], input));
        let disk = Circle {
            center: vertices[i],
            radius: p.radius,
        };
        best = earlier(best, ray_cast_circle(&disk, input));
    }
    best
}

/// The ray against the segment `a`–`b` seen only from the side its unit `normal` points to.
fn ray_cast_outer_face(a: Vec2, b: Vec2, normal: Vec2, input: &RayCastInput) -> Option<RayHit> {
    let denominator = normal.dot(input.translation);
    if denominator >= 0.0 {
        return None;
    }
    let numerator = normal.dot(a - input.origin);
    // t = numerator / denominator must lie in [0, max_fraction]; denominator < 0 flips signs.
    if numerator > 0.0 || numerator < input.max_fraction * denominator {
        return None;
    }
    let fraction = numerator / denominator;
    let point = input.point_at(fraction);
    let edge = b - a;
    let along = (point - a).dot(edge);
    if along < 0.0 || along > edge.length_squared() {
        return None;
    }
    Some(RayHit {
        point,
        normal,
        fraction,
    })
}

/// The hit with the smaller fraction (the first on ties).
fn earlier(current: Option<RayHit>, candidate: Option<RayHit>) -> Option<RayHit> {
    match (current, candidate) {
        (Some(a), Some(b)) => Some(if b.fraction < a.fraction { b } else { a }),
        (a, b) => a.or(b),
    }
}

/// The fraction at which the ray enters `aabb`, for tree traversal: `Some(0.0)` if it starts
/// inside, `None` if it misses within `[0, max_fraction]`.
///
/// Slab test: along each axis the ray is between the box's planes for
/// `t ∈ [(min − o)/d, (max − o)/d]` (swapped when `d < 0`); the intersection of the two axes'
/// intervals with `[0, max_fraction]` is where it is inside the box. An axis with `d = 0`
/// constrains nothing if the origin lies between its planes and rules out a hit otherwise.
pub fn ray_cast_aabb(aabb: &Aabb, input: &RayCastInput) -> Option<f32> {
    let bad_fraction = input.max_fraction.is_nan() || input.max_fraction < 0.0;
    if !input.origin.is_finite() || !input.translation.is_finite() || bad_fraction {
        return None;
    }
    let (mut enter, mut exit) = (0.0f32, input.max_fraction);
    for axis in 0..2 {
        let (o, d) = (input.origin[axis], input.translation[axis]);
        let (lo, hi) = (aabb.min[axis], aabb.max[axis]);
        if d == 0.0 {
            if o < lo || o > hi {
                return None;
            }
            continue;
        }
        let inverse = 1.0 / d;
        let (t1, t2) = ((lo - o) * inverse, (hi - o) * inverse);
        enter = enter.max(t1.min(t2));
        exit = exit.min(t1.max(t2));
        if enter > exit {
            return None;
        }
    }
    Some(enter)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hull::{make_box, make_polygon, make_rounded_box};
    use crate::shapes::ChainSegment;
    use core::f32::consts::FRAC_PI_4;
    use core_soa::Rot;

    const TOLERANCE: f32 = 1e-5;

    fn ray(origin: (f32, f32), translation: (f32, f32)) -> RayCastInput {
        RayCastInput {
            origin: Vec2::new(origin.0, origin.1),
            translation: Vec2::new(translation.0, translation.1),
            max_fraction: 1.0,
        }
    }

    fn assert_hit(hit: Option<RayHit>, point: (f32, f32), normal: (f32, f32), fraction: f32) {
        let hit = hit.expect("expected a hit");
        let (p, n) = (Vec2::new(point.0, point.1), Vec2::new(normal.0, normal.1));
        assert!(
            (hit.point - p).length() < TOLERANCE,
            "point {:?} vs {p:?}",
            hit.point
        );
        assert!(
            (hit.normal - n).length() < TOLERANCE,
            "normal {:?} vs {n:?}",
            hit.normal
        );
        assert!(
            (hit.fraction - fraction).abs() < TOLERANCE,
            "fraction {} vs {fraction}",
            hit.fraction
        );
    }

    #[test]
    fn circle_along_axis() {
        let circle = Circle {
            center: Vec2::new(2.0, 0.0),
            radius: 0.5,
        };
        assert_hit(
            ray_cast_circle(&circle, &ray((-2.0, 0.0), (8.0, 0.0))),
            (1.5, 0.0),
            (-1.0, 0.0),
            3.5 / 8.0,
        );
        // Grazing at height 0.3: enters at x = 2 − √(0.25 − 0.09) = 1.6.
        assert_hit(
            ray_cast_circle(&circle, &ray((0.0, 0.3), (4.0, 0.0))),
            (1.6, 0.3),
            (-0.8, 0.6),
            0.4,
        );
        assert!(ray_cast_circle(&circle, &ray((0.0, 0.6), (4.0, 0.0))).is_none());
        // Starting inside, and pointing away.
        assert!(ray_cast_circle(&circle, &ray((2.1, 0.0), (4.0, 0.0))).is_none());
        assert!(ray_cast_circle(&circle, &ray((0.0, 0.0), (-4.0, 0.0))).is_none());
    }

    #[test]
    fn max_fraction_clips() {
        let circle = Circle {
            center: Vec2::new(2.0, 0.0),
            radius: 0.5,
        };
        let mut input = ray((0.0, 0.0), (4.0, 0.0));
        input.max_fraction = 0.374; // the entry is at 1.5 / 4 = 0.375
        assert!(ray_cast_circle(&circle, &input).is_none());
        input.max_fraction = 0.376;
        assert_hit(
            ray_cast_circle(&circle, &input),
            (1.5, 0.0),
            (-1.0, 0.0),
            0.375,
        );
        let square = make_box(0.5, 0.5).unwrap();
        let mut input = ray((-3.0, 0.0), (1.0, 0.0));
        input.max_fraction = 2.4;
        assert!(ray_cast_polygon(&square, &input).is_none());
        input.max_fraction = 2.6;
        assert_hit(
            ray_cast_polygon(&square, &input),
            (-0.5, 0.0),
            (-1.0, 0.0),
            2.5,
        );
    }

    #[test]
    fn box_faces() {
        let b = make_box(1.0, 0.5).unwrap();
        assert_hit(
            ray_cast_polygon(&b, &ray((-3.0, 0.2), (4.0, 0.0))),
            (-1.0, 0.2),
            (-1.0, 0.0),
            0.5,
        );
        assert_hit(
            ray_cast_polygon(&b, &ray((0.5, 2.5), (0.0, -4.0))),
            (0.5, 0.5),
            (0.0, 1.0),
            0.5,
        );
        // Diagonal into the corner region: enters the top face at x = 0.9.
        assert_hit(
            ray_cast_polygon(&b, &ray((1.9, 1.5), (-2.0, -2.0))),
            (0.9, 0.5),
            (0.0, 1.0),
            0.5,
        );
        assert!(ray_cast_polygon(&b, &ray((-3.0, 0.6), (6.0, 0.0))).is_none());
        assert!(
            ray_cast_polygon(&b, &ray((0.0, 0.0), (6.0, 0.0))).is_none(),
            "starts inside"
        );
        assert!(
            ray_cast_polygon(&b, &ray((-3.0, 0.0), (-6.0, 0.0))).is_none(),
            "points away"
        );
        // A hull with a slanted edge: the triangle (0,0), (2,0), (0,2), ray down x = y.
        let tri =
            make_polygon(&[Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(0.0, 2.0)], 0.0).unwrap();
        let s = 0.5f32.sqrt();
        assert_hit(
            ray_cast_polygon(&tri, &ray((3.0, 3.0), (-4.0, -4.0))),
            (1.0, 1.0),
            (s, s),
            0.5,
        );
    }

    #[test]
    fn rotated_box_through_shape_dispatch() {
        // Unit square rotated 45°, centred at (4, 1): its left corner is at (4 − √2, 1).
        let xf = Transform::new(Vec2::new(4.0, 1.0), Rot::from_angle(FRAC_PI_4));
        let square = Shape::Polygon(make_box(1.0, 1.0).unwrap());
        let input = ray((0.0, 1.0), (8.0, 0.0));
        let hit = ray_cast_shape(&square, xf, &input).expect("hit");
        let s = 2.0f32.sqrt();
        assert!(
            (hit.point - Vec2::new(4.0 - s, 1.0)).length() < 1e-5,
            "{hit:?}"
        );
        assert!((hit.fraction - (4.0 - s) / 8.0).abs() < 1e-6);
        // At the corner itself either adjacent face may be reported; both are 45° from −x.
        assert!(
            (hit.normal.x + 0.5f32.sqrt()).abs() < 1e-5
                && (hit.normal.y.abs() - 0.5f32.sqrt()).abs() < 1e-5
        );
        // Slightly above the corner, the upper-left face (normal (−1, 1)/√2) is hit.
        let hit = ray_cast_shape(&square, xf, &ray((0.0, 1.2), (8.0, 0.0))).expect("hit");
        assert_hit(
            Some(hit),
            (4.0 - s + 0.2, 1.2),
            (-0.5f32.sqrt(), 0.5f32.sqrt()),
            (4.0 - s + 0.2) / 8.0,
        );
    }

    #[test]
    fn capsule_side_and_cap() {
        let capsule = Capsule {
            center1: Vec2::new(-1.0, 0.0),
            center2: Vec2::new(1.0, 0.0),
            radius: 0.5,
        };
        assert_hit(
            ray_cast_capsule(&capsule, &ray((0.3, 2.0), (0.0, -4.0))),
            (0.3, 0.5),
            (0.0, 1.0),
            0.375,
        );
        assert_hit(
            ray_cast_capsule(&capsule, &ray((0.3, -2.0), (0.0, 4.0))),
            (0.3, -0.5),
            (0.0, -1.0),
            0.375,
        );
        assert_hit(
            ray_cast_capsule(&capsule, &ray((4.0, 0.0), (-4.0, 0.0))),
            (1.5, 0.0),
            (1.0, 0.0),
            0.625,
        );
        // Cap at height 0.3: x = 1 + √(0.25 − 0.09) = 1.4, normal (0.4, 0.3)/0.5.
        assert_hit(
            ray_cast_capsule(&capsule, &ray((4.0, 0.3), (-4.0, 0.0))),
            (1.4, 0.3),
            (0.8, 0.6),
            0.65,
        );
        assert!(
            ray_cast_capsule(&capsule, &ray((0.0, 0.2), (4.0, 0.0))).is_none(),
            "starts inside"
        );
        assert!(ray_cast_capsule(&capsule, &ray((-3.0, 0.6), (6.0, 0.0))).is_none());
    }

    #[test]
    fn segment_two_and_one_sided() {
        // Right side of (−1,0)→(1,0) is −y.
        let s = Segment {
            point1: Vec2::new(-1.0, 0.0),
            point2: Vec2::new(1.0, 0.0),
        };
        let from_below = ray((0.5, -2.0), (0.0, 4.0));
        let from_above = ray((0.5, 2.0), (0.0, -4.0));
        assert_hit(
            ray_cast_segment(&s, &from_below, false),
            (0.5, 0.0),
            (0.0, -1.0),
            0.5,
        );
        assert_hit(
            ray_cast_segment(&s, &from_above, false),
            (0.5, 0.0),
            (0.0, 1.0),
            0.5,
        );
        assert_hit(
            ray_cast_segment(&s, &from_below, true),
            (0.5, 0.0),
            (0.0, -1.0),
            0.5,
        );
        assert!(ray_cast_segment(&s, &from_above, true).is_none());
        assert!(
            ray_cast_segment(&s, &ray((1.5, -2.0), (0.0, 4.0)), false).is_none(),
            "beyond the end"
        );
        assert!(
            ray_cast_segment(&s, &ray((-2.0, 0.0), (4.0, 0.0)), false).is_none(),
            "parallel"
        );
        let chain = Shape::ChainSegment(ChainSegment {
            ghost1: Vec2::new(-3.0, 0.0),
            segment: s,
            ghost2: Vec2::new(3.0, 0.0),
            chain_id: 0,
        });
        assert!(ray_cast_shape(&chain, Transform::IDENTITY, &from_above).is_none());
        assert_hit(
            ray_cast_shape(&chain, Transform::IDENTITY, &from_below),
            (0.5, 0.0),
            (0.0, -1.0),
            0.5,
        );
    }

    #[test]
    fn rounded_box_faces_and_corners() {
        let b = make_rounded_box(1.0, 0.5, 0.25).unwrap();
        assert_hit(
            ray_cast_polygon(&b, &ray((-3.0, 0.2), (4.0, 0.0))),
            (-1.25, 0.2),
            (-1.0, 0.0),
            1.75 / 4.0,
        );
        assert_hit(
            ray_cast_polygon(&b, &ray((0.0, 3.0), (0.0, -4.0))),
            (0.0, 0.75),
            (0.0, 1.0),
            0.5625,
        );
        // Into the corner disk at (1, 0.5) along y = 0.5 + 0.15: x = 1 + √(0.0625 − 0.0225) = 1.2.
        assert_hit(
            ray_cast_polygon(&b, &ray((3.0, 0.65), (-4.0, 0.0))),
            (1.2, 0.65),
            (0.8, 0.6),
            0.45,
        );
        // Passes the corner diagonally at distance 0.3 > 0.25 from it: miss.
        let d = Vec2::new(1.0, -1.0).normalize();
        let origin = Vec2::new(1.0, 0.5) + 0.3 * Vec2::new(1.0, 1.0).normalize() - 2.0 * d;
        let miss = RayCastInput {
            origin,
            translation: 4.0 * d,
            max_fraction: 1.0,
        };
        assert!(ray_cast_polygon(&b, &miss).is_none());
        assert!(
            ray_cast_polygon(&b, &ray((1.1, 0.0), (4.0, 0.0))).is_none(),
            "starts inside"
        );
    }

    /// Brute force: march along random rays towards random rounded and sharp polygons and
    /// capsules, and compare the first sample found inside with the cast's fraction. The hit
    /// point must lie on the boundary: just behind it (along the normal) is inside, just in front
    /// is outside.
    #[test]
    fn random_casts_agree_with_marching() {
        let mut state = 99u64;
        let mut uniform = move |lo: f32, hi: f32| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            lo + (hi - lo) * ((state >> 40) as f32 / (1u64 << 24) as f32)
        };
        let steps = 4000;
        let mut hits = 0;
        for case in 0..300 {
            let points: Vec<Vec2> = (0..6)
                .map(|_| Vec2::new(uniform(-1.0, 1.0), uniform(-1.0, 1.0)))
                .collect();
            let radius = if case % 2 == 0 {
                0.0
            } else {
                uniform(0.05, 0.4)
            };
            let shape = if case % 3 == 2 {
                Shape::Capsule(Capsule {
                    center1: points[0],
                    center2: points[1],
                    radius: radius + 0.1,
                })
            } else {
                match make_polygon(&points, radius) {
                    Ok(polygon) => Shape::Polygon(polygon),
                    Err(_) => continue,
                }
            };
            let xf = Transform::new(
                Vec2::new(uniform(-3.0, 3.0), uniform(-3.0, 3.0)),
                Rot::from_angle(uniform(-3.0, 3.0)),
            );
            let angle = uniform(0.0, core::f32::consts::TAU);
            let origin = xf.p + 3.0 * Vec2::new(angle.cos(), angle.sin());
            let target = xf.p + Vec2::new(uniform(-1.0, 1.0), uniform(-1.0, 1.0));
            let input = RayCastInput {
                origin,
                translation: 1.5 * (target - origin),
                max_fraction: 1.0,
            };
            let marched = (0..=steps)
                .map(|i| i as f32 / steps as f32)
                .find(|&t| crate::geometry::point_in_shape(&shape, xf, input.point_at(t)));
            let cast = ray_cast_shape(&shape, xf, &input);
            let step = 1.0 / steps as f32;
            let inside = |p| crate::geometry::point_in_shape(&shape, xf, p);
            if let Some(hit) = cast {
                hits += 1;
                assert!((hit.point - input.point_at(hit.fraction)).length() < 1e-5);
                assert!(
                    inside(hit.point - 1e-3 * hit.normal),
                    "case {case}: behind is outside"
                );
                assert!(
                    !inside(hit.point + 1e-3 * hit.normal),
                    "case {case}: in front is inside"
                );
            }
            match (cast, marched) {
                (Some(hit), Some(t)) => assert!(
                    hit.fraction <= t + 1e-5 && hit.fraction > t - step - 1e-5,
                    "case {case}: cast {} marched {t}",
                    hit.fraction
                ),
                (None, Some(t)) => panic!("case {case}: marching entered at {t}, the cast missed"),
                // No hit at all, or a graze shorter than one marching step.
                (None, None) | (Some(_), None) => {}
            }
        }
        assert!(hits > 100, "only {hits} rays hit");
    }

    #[test]
    fn degenerate_rays_miss() {
        let circle = Circle {
            center: Vec2::ZERO,
            radius: 1.0,
        };
        assert!(ray_cast_circle(&circle, &ray((-3.0, 0.0), (0.0, 0.0))).is_none());
        assert!(ray_cast_circle(&circle, &ray((f32::NAN, 0.0), (1.0, 0.0))).is_none());
        let mut negative = ray((-3.0, 0.0), (4.0, 0.0));
        negative.max_fraction = -1.0;
        assert!(ray_cast_polygon(&make_box(1.0, 1.0).unwrap(), &negative).is_none());
        // A translation whose squared length underflows (here 1.4·10⁻⁷⁶ → 0) has no direction:
        // it used to give NaN hits on circles and capsules; it misses, as a zero one does.
        let tiny = ray((-0.04, 0.9), (1e-40, 1.1754944e-38));
        let capsule = Capsule {
            center1: Vec2::new(0.0, -0.5),
            center2: Vec2::new(0.0, 0.5),
            radius: 0.25,
        };
        assert!(ray_cast_capsule(&capsule, &tiny).is_none());
        assert!(ray_cast_circle(&circle, &ray((-3.0, 0.0), (1e-30, 0.0))).is_none());
        // A ray just long enough to cast (squared length 1.21·10⁻³⁸, above f32::MIN_POSITIVE)
        // still hits, at a fraction near 10¹⁹.
        let shortest = ray((-2.0, 0.0), (1.1e-19, 0.0));
        let hit = ray_cast_circle(
            &circle,
            &RayCastInput {
                max_fraction: 2e19,
                ..shortest
            },
        );
        assert!(hit.is_some_and(|h| h.fraction.is_finite() && h.point.is_finite()));
    }

    #[test]
    fn aabb_entry_fraction() {
        let aabb = Aabb::new(Vec2::new(1.0, -1.0), Vec2::new(3.0, 1.0));
        assert_eq!(
            ray_cast_aabb(&aabb, &ray((0.0, 0.0), (4.0, 0.0))),
            Some(0.25)
        );
        assert_eq!(
            ray_cast_aabb(&aabb, &ray((2.0, 0.0), (4.0, 0.0))),
            Some(0.0),
            "inside"
        );
        assert_eq!(
            ray_cast_aabb(&aabb, &ray((0.0, 2.0), (4.0, 0.0))),
            None,
            "parallel, outside"
        );
        assert_eq!(
            ray_cast_aabb(&aabb, &ray((0.0, 0.0), (-4.0, 0.0))),
            None,
            "behind"
        );
        assert_eq!(
            ray_cast_aabb(&aabb, &ray((0.0, 0.0), (0.5, 0.0))),
            None,
            "too short"
        );
        // Diagonal from (0, −3) with direction (2, 2): enters y = −1 at t = 1 (x = 2).
        let mut input = ray((0.0, -3.0), (2.0, 2.0));
        input.max_fraction = 2.0;
        assert_eq!(ray_cast_aabb(&aabb, &input), Some(1.0));
    }
}
