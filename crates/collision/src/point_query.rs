//! Point queries: the closest boundary point of a shape to a point, and the signed distance.
//!
//! Every solid shape here is a core grown by a radius, so the answer is the core's answer
//! moved out by the radius:
//!
//! - **outside the core**, the closest core point `q` is the centre (circle), the projection
//!   on the core segment (capsule), or the nearest of the per-edge projections (polygon); the
//!   boundary point is `q + r·n` with `n = (p − q)/|p − q|`, and the signed distance is
//!   `|p − q| − r`;
//! - **inside a polygon's core**, the nearest boundary of a convex polygon is the plane of the
//!   edge with the greatest separation `s = n_i·(p − v_i) ≤ 0` (its foot always lies on that
//!   edge: a foot beyond the edge's ends would mean the path to it leaves the polygon through
//!   a nearer edge), so the boundary point is `p + (r − s)·n_i` and the distance `s − r`.
//!
//! The distance is negative inside a solid, so `distance ≤ 0` agrees with
//! [`crate::geometry::point_in_shape`]. Segments and chain segments have no inside: their
//! distance is the plain distance to the segment, never negative.
//!
//! When the point sits exactly on a core (a circle's centre, a capsule's or segment's core)
//! no direction is preferred, and the normal falls back to a fixed one: +x for a circle, the
//! left side for a capsule, the right (free) side for a segment or chain segment.

use core_soa::{Transform, Vec2, left_perp, right_perp};

use crate::geometry::closest_point_on_segment;
use crate::shapes::{Polygon, Shape};

/// The closest boundary point of a shape to a query point (world frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointDistance {
    /// The closest point of the shape's boundary.
    pub point: Vec2,
    /// The unit outward normal of the boundary at `point` (from the shape towards the query
    /// point when it is outside).
    pub normal: Vec2,
    /// Signed distance from the boundary: negative inside a solid shape.
    pub distance: f32,
}

/// The closest boundary point of `shape` placed by `xf` to the world point `p`, with the
/// outward normal there and the signed distance (module notes).
pub fn shape_point_distance(shape: &Shape, xf: Transform, p: Vec2) -> PointDistance {
    let local = xf.inv_apply(p);
    let (point, normal, distance) = match shape {
        Shape::Circle(circle) => around_core_point(circle.center, circle.radius, local, Vec2::X),
        Shape::Capsule(capsule) => {
            let (a, b) = (capsule.center1, capsule.center2);
            let side = left_perp(b - a).normalize_or(Vec2::X);
            let closest = closest_point_on_segment(a, b, local);
            around_core_point(closest, capsule.radius, local, side)
        }
        Shape::Segment(segment) => {
            let (a, b) = (segment.point1, segment.point2);
            let side = right_perp(b - a).normalize_or(Vec2::X);
            around_core_point(closest_point_on_segment(a, b, local), 0.0, local, side)
        }
        Shape::ChainSegment(chain) => {
            let (a, b) = (chain.segment.point1, chain.segment.point2);
            let side = chain.normal().normalize_or(Vec2::X);
            around_core_point(closest_point_on_segment(a, b, local), 0.0, local, side)
        }
        Shape::Polygon(polygon) => polygon_point_distance(polygon, local),
    };
    PointDistance {
        point: xf.apply(point),
        normal: xf.q.rotate(normal),
        distance,
    }
}

/// Boundary point, normal and signed distance of the disk of `radius` around `core_point`
/// (the closest core point to `p`); `fallback` is the normal when `p` is on the core.
fn around_core_point(core_point: Vec2, radius: f32, p: Vec2, fallback: Vec2) -> (Vec2, Vec2, f32) {
    let offset = p - core_point;
    let length = offset.length();
    let normal = if length > 0.0 {
        offset / length
    } else {
        fallback
    };
    (core_point + radius * normal, normal, length - radius)
}

/// The polygon case of the module notes, in the polygon's frame.
fn polygon_point_distance(polygon: &Polygon, p: Vec2) -> (Vec2, Vec2, f32) {
    let vertices = &polygon.vertices[..polygon.count.clamp(1, polygon.vertices.len())];
    let count = vertices.len();
    if count < 3 {
        // Not a polygon the hull builder makes; read it as its first vertex, rounded.
        return around_core_point(vertices[0], polygon.radius, p, Vec2::X);
    }
    let (face, separation) = (0..count)
        .map(|i| (i, polygon.normals[i].dot(p - vertices[i])))
        .fold((0, f32::MIN), |best, candidate| {
            if candidate.1 > best.1 {
                candidate
            } else {
                best
            }
        });
    if separation <= 0.0 {
        let normal = polygon.normals[face];
        return (
            p + (polygon.radius - separation) * normal,
            normal,
            separation - polygon.radius,
        );
    }
    let closest = (0..count)
        .map(|i| closest_point_on_segment(vertices[i], vertices[(i + 1) % count], p))
        .fold((Vec2::ZERO, f32::INFINITY), |best, q| {
            let d = p.distance_squared(q);
            if d < best.1 { (q, d) } else { best }
        })
        .0;
    around_core_point(closest, polygon.radius, p, polygon.normals[face])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{point_in_shape, polygon_core_distance_squared};
    use crate::hull::{make_box, make_polygon, make_rounded_box};
    use crate::shapes::{Capsule, ChainSegment, Circle, Segment};
    use crate::test_support::{Uniform, assert_close, assert_vec_close, placed};

    const TOLERANCE: f32 = 2e-5;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    /// Checks the answer in the canonical frame and in a rotated, translated one.
    #[track_caller]
    fn check(shape: &Shape, p: Vec2, point: Vec2, normal: Vec2, distance: f32) {
        for frame in [Transform::IDENTITY, placed(4.0, -6.0, 2.3)] {
            let out = shape_point_distance(shape, frame, frame.apply(p));
            let what = format!("frame {frame:?}");
            assert_vec_close(out.point, frame.apply(point), TOLERANCE, &what);
            assert_vec_close(out.normal, frame.q.rotate(normal), TOLERANCE, &what);
            assert_close(out.distance, distance, TOLERANCE, &what);
        }
    }

    /// A query exactly on a core, in the canonical frame only (moved by a rotated frame, the
    /// point lands a rounding error off the core, on an unpredictable side).
    #[track_caller]
    fn check_on_core(shape: &Shape, p: Vec2, point: Vec2, normal: Vec2, distance: f32) {
        let out = shape_point_distance(shape, Transform::IDENTITY, p);
        assert_vec_close(out.point, point, TOLERANCE, "point");
        assert_vec_close(out.normal, normal, TOLERANCE, "fallback normal");
        assert_close(out.distance, distance, TOLERANCE, "distance");
    }

    #[test]
    fn circle_and_capsule() {
        let circle = Shape::Circle(Circle {
            center: v(1.0, 0.0),
            radius: 0.5,
        });
        check(&circle, v(4.0, 4.0), v(1.3, 0.4), v(0.6, 0.8), 4.5);
        check(&circle, v(1.0, 0.3), v(1.0, 0.5), v(0.0, 1.0), -0.2);
        check_on_core(&circle, v(1.0, 0.0), v(1.5, 0.0), v(1.0, 0.0), -0.5);
        let capsule = Shape::Capsule(Capsule {
            center1: v(-1.0, 0.0),
            center2: v(1.0, 0.0),
            radius: 0.25,
        });
        // Beside the core, beyond an end, inside, and on the core.
        check(&capsule, v(0.3, 1.0), v(0.3, 0.25), v(0.0, 1.0), 0.75);
        check(&capsule, v(1.3, -0.4), v(1.15, -0.2), v(0.6, -0.8), 0.25);
        check(&capsule, v(0.3, -0.1), v(0.3, -0.25), v(0.0, -1.0), -0.15);
        check_on_core(&capsule, v(0.0, 0.0), v(0.0, 0.25), v(0.0, 1.0), -0.25);
    }

    #[test]
    fn boxes_inside_and_out() {
        let rectangle = Shape::Polygon(make_box(2.0, 1.0).unwrap());
        // Nearest face from inside is the top one (0.3 away), not the side (1.5 away).
        check(&rectangle, v(0.5, 0.7), v(0.5, 1.0), v(0.0, 1.0), -0.3);
        // Outside a face and outside a corner.
        check(&rectangle, v(3.0, 0.2), v(2.0, 0.2), v(1.0, 0.0), 1.0);
        check(&rectangle, v(2.3, -1.4), v(2.0, -1.0), v(0.6, -0.8), 0.5);
        let rounded = Shape::Polygon(make_rounded_box(2.0, 1.0, 0.1).unwrap());
        check(&rounded, v(0.5, 0.7), v(0.5, 1.1), v(0.0, 1.0), -0.4);
        check(&rounded, v(2.3, -1.4), v(2.06, -1.08), v(0.6, -0.8), 0.4);
    }

    #[test]
    fn segments_are_never_inside() {
        let plain = Shape::Segment(Segment {
            point1: v(0.0, 0.0),
            point2: v(2.0, 0.0),
        });
        check(&plain, v(1.0, -0.5), v(1.0, 0.0), v(0.0, -1.0), 0.5);
        check(&plain, v(3.0, 0.0), v(2.0, 0.0), v(1.0, 0.0), 1.0);
        // On the segment: distance 0 and the right-side normal.
        check_on_core(&plain, v(1.0, 0.0), v(1.0, 0.0), v(0.0, -1.0), 0.0);
        let chain = Shape::ChainSegment(ChainSegment {
            ghost1: v(3.0, 0.0),
            segment: Segment {
                point1: v(2.0, 0.0),
                point2: v(0.0, 0.0),
            },
            ghost2: v(-1.0, 0.0),
            chain_id: 0,
        });
        check_on_core(&chain, v(1.0, 0.0), v(1.0, 0.0), v(0.0, 1.0), 0.0);
        check(&chain, v(1.0, -0.5), v(1.0, 0.0), v(0.0, -1.0), 0.5);
    }

    /// Random points around random shapes: the sign agrees with `point_in_shape`, the point is
    /// `|distance|` away, and it lies on the boundary (inside just behind it along the normal,
    /// outside just in front).
    #[test]
    fn random_points_agree_with_containment() {
        let mut uniform = Uniform::new(21);
        let mut inside = 0;
        for case in 0..400 {
            let points: Vec<Vec2> = (0..6)
                .map(|_| v(uniform.range(-1.0, 1.0), uniform.range(-1.0, 1.0)))
                .collect();
            let radius = if case % 2 == 0 {
                0.0
            } else {
                uniform.range(0.05, 0.3)
            };
            let shape = if case % 3 == 0 {
                Shape::Capsule(Capsule {
                    center1: points[0],
                    center2: points[1],
                    radius: radius + 0.1,
                })
            } else {
                match make_polygon(&points, radius) {
                    Ok(p) => Shape::Polygon(p),
                    Err(_) => continue,
                }
            };
            let xf = placed(
                uniform.range(-3.0, 3.0),
                uniform.range(-3.0, 3.0),
                uniform.range(-3.0, 3.0),
            );
            let p = xf.p + v(uniform.range(-1.5, 1.5), uniform.range(-1.5, 1.5));
            let out = shape_point_distance(&shape, xf, p);
            if out.distance.abs() < 1e-4 {
                continue;
            }
            let contained = point_in_shape(&shape, xf, p);
            inside += contained as usize;
            assert_eq!(contained, out.distance < 0.0, "case {case}: {out:?}");
            assert_close(out.point.distance(p), out.distance.abs(), 1e-5, "offset");
            if radius > 0.0 {
                // Back towards the core along a rounded surface's normal is inside. (At a
                // sharp corner the normal may lean too far for that; there the point must
                // simply lie on the polygon.)
                let behind = out.point - 1e-3 * out.normal;
                assert!(point_in_shape(&shape, xf, behind), "case {case}");
            } else if let Shape::Polygon(polygon) = &shape {
                let local = xf.inv_apply(out.point);
                let boundary = polygon_core_distance_squared(polygon, local) < 1e-10
                    && point_in_shape(
                        &shape,
                        xf,
                        out.point - 1e-4 * (out.point - xf.apply(polygon.centroid)),
                    );
                assert!(boundary, "case {case}: {out:?} is not on the polygon");
            }
            assert!(
                !point_in_shape(&shape, xf, out.point + 1e-3 * out.normal),
                "case {case}"
            );
        }
        assert!(inside > 40, "{inside} points inside");
    }
}
