//! Shape geometry: world bounding boxes, centroids, extents and point containment.
//!
//! These are the small questions the World asks about a shape outside the contact pipeline:
//! the broadphase needs a tight world box ([`compute_aabb`]) to fatten and insert; the body
//! needs the shape's centroid and how far the shape reaches from the centre of mass
//! ([`shape_extent`], which bounds how far a point of the body moves for a given rotation) and
//! how thick it is about its centroid ([`shape_inner_radius`]; together they decide when
//! continuous collision is needed); queries need [`point_in_shape`].
//!
//! Rounded shapes (capsules and polygons with a radius) are the set of points within `radius`
//! of a core (segment or convex polygon), so every answer here is "the core's answer, grown by
//! the radius". Segments and chain segments enclose no area, so no point is inside them;
//! a chain segment's box covers only its own segment (the ghost vertices are neighbours'
//! geometry, used for smoothing, not part of this shape).

use core_soa::{Transform, Vec2};

use crate::aabb::Aabb;
use crate::shapes::{Polygon, Shape};

/// The tight axis-aligned box of `shape` placed by `xf`, in world coordinates.
pub fn compute_aabb(shape: &Shape, xf: Transform) -> Aabb {
    match shape {
        Shape::Circle(circle) => {
            let center = xf.apply(circle.center);
            let r = Vec2::splat(circle.radius);
            Aabb::new(center - r, center + r)
        }
        Shape::Capsule(capsule) => points_aabb(
            &[xf.apply(capsule.center1), xf.apply(capsule.center2)],
            capsule.radius,
        ),
        Shape::Segment(segment) => {
            points_aabb(&[xf.apply(segment.point1), xf.apply(segment.point2)], 0.0)
        }
        Shape::ChainSegment(chain) => points_aabb(
            &[
                xf.apply(chain.segment.point1),
                xf.apply(chain.segment.point2),
            ],
            0.0,
        ),
        Shape::Polygon(polygon) => polygon_aabb(polygon, xf),
    }
}

fn polygon_aabb(polygon: &Polygon, xf: Transform) -> Aabb {
    let first = xf.apply(polygon.vertices[0]);
    let (lower, upper) = polygon
        .verts()
        .iter()
        .skip(1)
        .fold((first, first), |(lo, hi), &v| {
            let w = xf.apply(v);
            (lo.min(w), hi.max(w))
        });
    let r = Vec2::splat(polygon.radius);
    Aabb::new(lower - r, upper + r)
}

/// The box of a non-empty set of points, grown by `radius`.
fn points_aabb(points: &[Vec2], radius: f32) -> Aabb {
    let (lower, upper) = points.iter().fold((points[0], points[0]), |(lo, hi), &p| {
        (lo.min(p), hi.max(p))
    });
    let r = Vec2::splat(radius);
    Aabb::new(lower - r, upper + r)
}

/// The centroid of the shape's area in its local frame (the midpoint for segments).
///
/// For a rounded polygon this is the core's centroid, which is also the rounded solid's
/// centroid only when the polygon is centrally symmetric (boxes); use
/// [`crate::mass::compute_mass`] when the exact centre of mass matters.
pub fn shape_centroid(shape: &Shape) -> Vec2 {
    match shape {
        Shape::Circle(circle) => circle.center,
        Shape::Capsule(capsule) => 0.5 * (capsule.center1 + capsule.center2),
        Shape::Segment(segment) => 0.5 * (segment.point1 + segment.point2),
        Shape::ChainSegment(chain) => 0.5 * (chain.segment.point1 + chain.segment.point2),
        Shape::Polygon(polygon) => polygon.centroid,
    }
}

/// The largest distance from `local_center` to any point of the shape (local frame).
///
/// The farthest point of a convex core from any fixed point is one of its vertices (distance
/// is convex, so its maximum over a convex polygon is at a corner); rounding adds the radius.
pub fn shape_extent(shape: &Shape, local_center: Vec2) -> f32 {
    let farthest = |points: &[Vec2]| {
        points
            .iter()
            .map(|p| p.distance(local_center))
            .fold(0.0f32, f32::max)
    };
    match shape {
        Shape::Circle(circle) => circle.center.distance(local_center) + circle.radius,
        Shape::Capsule(capsule) => farthest(&[capsule.center1, capsule.center2]) + capsule.radius,
        Shape::Segment(segment) => farthest(&[segment.point1, segment.point2]),
        Shape::ChainSegment(chain) => farthest(&[chain.segment.point1, chain.segment.point2]),
        Shape::Polygon(polygon) => farthest(polygon.verts()) + polygon.radius,
    }
}

/// The radius of the largest disc about the shape's centroid ([`shape_centroid`]) that the
/// shape contains: the distance from the centroid to the nearest face. A circle's or capsule's
/// radius; for a polygon the nearest edge plane `min nᵢ·(vᵢ − c)` plus its rounding; 0 for
/// segments and chain segments, which enclose nothing. Continuous collision compares a body's
/// motion with it: a shape that moves less than a fraction of it cannot pass through a thin
/// obstacle unseen by the step's contacts.
pub fn shape_inner_radius(shape: &Shape) -> f32 {
    match shape {
        Shape::Circle(circle) => circle.radius,
        Shape::Capsule(capsule) => capsule.radius,
        Shape::Segment(_) | Shape::ChainSegment(_) => 0.0,
        Shape::Polygon(polygon) => {
            let nearest_face = polygon
                .verts()
                .iter()
                .zip(&polygon.normals)
                .map(|(&v, &n)| n.dot(v - polygon.centroid))
                .fold(f32::INFINITY, f32::min);
            nearest_face + polygon.radius
        }
    }
}

/// Whether the world point `p` lies inside (or on the boundary of) `shape` placed by `xf`.
/// Segments and chain segments have no interior: always `false`.
pub fn point_in_shape(shape: &Shape, xf: Transform, p: Vec2) -> bool {
    let local = xf.inv_apply(p);
    match shape {
        Shape::Circle(circle) => {
            local.distance_squared(circle.center) <= circle.radius * circle.radius
        }
        Shape::Capsule(capsule) => {
            let closest = closest_point_on_segment(capsule.center1, capsule.center2, local);
            local.distance_squared(closest) <= capsule.radius * capsule.radius
        }
        Shape::Polygon(polygon) => {
            polygon_core_distance_squared(polygon, local) <= polygon.radius * polygon.radius
        }
        Shape::Segment(_) | Shape::ChainSegment(_) => false,
    }
}

/// The point of segment `a`–`b` closest to `p`: the projection `a + t(b − a)` with
/// `t = (p − a)·(b − a) / |b − a|²` clamped to `[0, 1]` (the endpoint `a` if degenerate).
pub(crate) fn closest_point_on_segment(a: Vec2, b: Vec2, p: Vec2) -> Vec2 {
    let ab = b - a;
    let length_squared = ab.length_squared();
    if length_squared == 0.0 {
        return a;
    }
    let t = ((p - a).dot(ab) / length_squared).clamp(0.0, 1.0);
    a + t * ab
}

/// The squared distance from the local point `p` to the polygon's core (zero inside it).
///
/// Inside a convex polygon every edge plane has `n·(p − v) ≤ 0`; outside, the nearest point of
/// the polygon lies on its boundary, so it is the nearest of the per-edge closest points.
pub(crate) fn polygon_core_distance_squared(polygon: &Polygon, p: Vec2) -> f32 {
    let vertices = polygon.verts();
    let count = vertices.len();
    let outside = (0..count).any(|i| polygon.normals[i].dot(p - vertices[i]) > 0.0);
    if !outside {
        return 0.0;
    }
    (0..count)
        .map(|i| {
            let closest = closest_point_on_segment(vertices[i], vertices[(i + 1) % count], p);
            p.distance_squared(closest)
        })
        .fold(f32::INFINITY, f32::min)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hull::{make_box, make_offset_box, make_rounded_box};
    use crate::shapes::{Capsule, ChainSegment, Circle, Segment};
    use core::f32::consts::FRAC_PI_4;
    use core_soa::Rot;

    fn assert_aabb_close(actual: Aabb, expected: Aabb) {
        let error = (actual.min - expected.min)
            .abs()
            .max((actual.max - expected.max).abs());
        assert!(error.max_element() < 1e-5, "{actual:?} vs {expected:?}");
    }

    fn placed(x: f32, y: f32, angle: f32) -> Transform {
        Transform::new(Vec2::new(x, y), Rot::from_angle(angle))
    }

    #[test]
    fn circle_and_capsule_aabb_include_radius() {
        let circle = Shape::Circle(Circle {
            center: Vec2::new(1.0, 0.0),
            radius: 0.5,
        });
        let xf = placed(2.0, 3.0, core::f32::consts::FRAC_PI_2);
        // Local (1, 0) rotated a quarter turn is (0, 1); world centre (2, 4).
        assert_aabb_close(
            compute_aabb(&circle, xf),
            Aabb::new(Vec2::new(1.5, 3.5), Vec2::new(2.5, 4.5)),
        );

        let capsule = Shape::Capsule(Capsule {
            center1: Vec2::new(-1.0, 0.0),
            center2: Vec2::new(1.0, 0.0),
            radius: 0.25,
        });
        assert_aabb_close(
            compute_aabb(&capsule, placed(0.0, 0.0, 0.0)),
            Aabb::new(Vec2::new(-1.25, -0.25), Vec2::new(1.25, 0.25)),
        );
        assert_aabb_close(
            compute_aabb(&capsule, xf),
            Aabb::new(Vec2::new(1.75, 1.75), Vec2::new(2.25, 4.25)),
        );
    }

    #[test]
    fn rotated_box_and_rounded_box_aabb() {
        let square = Shape::Polygon(make_box(1.0, 1.0).unwrap());
        let s = 2.0f32.sqrt();
        assert_aabb_close(
            compute_aabb(&square, placed(1.0, -1.0, FRAC_PI_4)),
            Aabb::new(Vec2::new(1.0 - s, -1.0 - s), Vec2::new(1.0 + s, -1.0 + s)),
        );
        let rounded = Shape::Polygon(make_rounded_box(2.0, 1.0, 0.1).unwrap());
        assert_aabb_close(
            compute_aabb(&rounded, Transform::IDENTITY),
            Aabb::new(Vec2::new(-2.1, -1.1), Vec2::new(2.1, 1.1)),
        );
    }

    #[test]
    fn segment_and_chain_aabb_ignore_ghosts() {
        let segment = Segment {
            point1: Vec2::new(3.0, 1.0),
            point2: Vec2::new(-1.0, 2.0),
        };
        let expected = Aabb::new(Vec2::new(-1.0, 1.0), Vec2::new(3.0, 2.0));
        assert_aabb_close(
            compute_aabb(&Shape::Segment(segment), Transform::IDENTITY),
            expected,
        );
        let chain = ChainSegment {
            ghost1: Vec2::splat(-10.0),
            segment,
            ghost2: Vec2::splat(10.0),
            chain_id: 1,
        };
        assert_aabb_close(
            compute_aabb(&Shape::ChainSegment(chain), Transform::IDENTITY),
            expected,
        );
    }

    #[test]
    fn centroids_and_extents() {
        let offset_box =
            Shape::Polygon(make_offset_box(1.0, 2.0, Vec2::new(3.0, 0.0), Rot::IDENTITY).unwrap());
        assert_eq!(shape_centroid(&offset_box), Vec2::new(3.0, 0.0));
        // Farthest corner from the origin is (4, ±2).
        assert!((shape_extent(&offset_box, Vec2::ZERO) - 20.0f32.sqrt()).abs() < 1e-6);
        let capsule = Shape::Capsule(Capsule {
            center1: Vec2::new(0.0, -1.0),
            center2: Vec2::new(0.0, 1.0),
            radius: 0.5,
        });
        assert_eq!(shape_centroid(&capsule), Vec2::ZERO);
        assert!((shape_extent(&capsule, Vec2::ZERO) - 1.5).abs() < 1e-6);
        assert!((shape_extent(&capsule, Vec2::new(0.0, 1.0)) - 2.5).abs() < 1e-6);
        let circle = Shape::Circle(Circle {
            center: Vec2::new(3.0, 4.0),
            radius: 1.0,
        });
        assert!((shape_extent(&circle, Vec2::ZERO) - 6.0).abs() < 1e-6);
        let rounded = Shape::Polygon(make_rounded_box(3.0, 4.0, 0.5).unwrap());
        assert!((shape_extent(&rounded, Vec2::ZERO) - 5.5).abs() < 1e-6);
    }

    #[test]
    fn inner_radii() {
        let circle = Shape::Circle(Circle {
            center: Vec2::new(3.0, 1.0),
            radius: 0.25,
        });
        assert_eq!(shape_inner_radius(&circle), 0.25);
        let capsule = Shape::Capsule(Capsule {
            center1: Vec2::new(-1.0, 0.0),
            center2: Vec2::new(1.0, 0.0),
            radius: 0.1,
        });
        assert_eq!(shape_inner_radius(&capsule), 0.1);
        // A 2 × 0.5 box: the nearest faces are the long ones, 0.25 from the centre, wherever
        // the box sits in its body.
        let offset =
            make_offset_box(1.0, 0.25, Vec2::new(4.0, -2.0), Rot::from_angle(0.7)).unwrap();
        assert!((shape_inner_radius(&Shape::Polygon(offset)) - 0.25).abs() < 1e-6);
        let rounded = Shape::Polygon(make_rounded_box(1.0, 0.25, 0.05).unwrap());
        assert!((shape_inner_radius(&rounded) - 0.3).abs() < 1e-6);
        // An equilateral triangle of circumradius 1: its inradius is ½.
        let corners: Vec<Vec2> = (0..3)
            .map(|k| Rot::from_angle(k as f32 * 2.0 * core::f32::consts::FRAC_PI_3).rotate(Vec2::X))
            .collect();
        let triangle = Shape::Polygon(crate::hull::make_polygon(&corners, 0.0).unwrap());
        assert!((shape_inner_radius(&triangle) - 0.5).abs() < 1e-6);
        let segment = Shape::Segment(Segment {
            point1: Vec2::ZERO,
            point2: Vec2::X,
        });
        assert_eq!(shape_inner_radius(&segment), 0.0);
    }

    #[test]
    fn containment() {
        let xf = placed(5.0, 0.0, FRAC_PI_4);
        let square = Shape::Polygon(make_box(1.0, 1.0).unwrap());
        // The rotated square reaches √2 along the world axes from its centre.
        assert!(point_in_shape(&square, xf, Vec2::new(5.0 + 1.4, 0.0)));
        assert!(!point_in_shape(&square, xf, Vec2::new(5.0 + 1.42, 0.0)));
        assert!(!point_in_shape(&square, xf, Vec2::new(5.0 + 1.0, 1.0)));

        let rounded = Shape::Polygon(make_rounded_box(1.0, 1.0, 0.5).unwrap());
        // Corner region: inside within 0.5 of (1, 1).
        let corner = Vec2::new(1.0, 1.0) + 0.49 * Vec2::ONE.normalize();
        assert!(point_in_shape(&rounded, Transform::IDENTITY, corner));
        assert!(!point_in_shape(
            &rounded,
            Transform::IDENTITY,
            Vec2::new(1.4, 1.4)
        ));
        assert!(point_in_shape(
            &rounded,
            Transform::IDENTITY,
            Vec2::new(1.49, 0.0)
        ));

        let capsule = Shape::Capsule(Capsule {
            center1: Vec2::new(-1.0, 0.0),
            center2: Vec2::new(1.0, 0.0),
            radius: 0.5,
        });
        assert!(point_in_shape(
            &capsule,
            Transform::IDENTITY,
            Vec2::new(1.3, 0.35)
        ));
        assert!(!point_in_shape(
            &capsule,
            Transform::IDENTITY,
            Vec2::new(1.4, 0.35)
        ));
        assert!(point_in_shape(
            &capsule,
            Transform::IDENTITY,
            Vec2::new(0.0, -0.5)
        ));

        let circle = Shape::Circle(Circle {
            center: Vec2::ZERO,
            radius: 1.0,
        });
        assert!(point_in_shape(
            &circle,
            placed(0.0, 2.0, 0.0),
            Vec2::new(0.0, 2.9)
        ));
        assert!(!point_in_shape(
            &circle,
            placed(0.0, 2.0, 0.0),
            Vec2::new(0.0, 3.1)
        ));

        let segment = Shape::Segment(Segment {
            point1: Vec2::NEG_X,
            point2: Vec2::X,
        });
        assert!(!point_in_shape(&segment, Transform::IDENTITY, Vec2::ZERO));
    }
}
