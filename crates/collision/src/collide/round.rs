//! Pairs whose second shape is a circle: circle, capsule, segment and polygon against a circle.
//!
//! A circle touches another shape at exactly one point, along the line from the circle's centre
//! to the closest point of the other shape's core (its centre, its segment, or its polygon).
//! With `d` the distance from the centre to that closest point and `r_a`, `r_b` the two radii,
//! the separation is `d − r_a − r_b`, the normal is the unit direction from the closest point to
//! the centre, and the contact point is midway between the two surface points
//! `closest + r_a·n` and `centre − r_b·n`.
//!
//! A circle contact has a single point, so its id is always 0.

use super::{LocalManifold, has_valid_count};
use crate::manifold::{Manifold, SPECULATIVE_DISTANCE};
use crate::shapes::{Capsule, Circle, Polygon, Segment};
use core_soa::{Transform, Vec2};

/// The direction used when two centres coincide and no direction is preferred.
const FALLBACK_NORMAL: Vec2 = Vec2::X;

/// Circle A against circle B.
pub fn collide_circles(
    circle_a: &Circle,
    xf_a: Transform,
    circle_b: &Circle,
    xf_b: Transform,
) -> Manifold {
    let center_b = xf_a.inv_mul(xf_b).apply(circle_b.center);
    point_against_circle(circle_a.center, circle_a.radius, center_b, circle_b.radius)
        .to_world(xf_a, xf_b)
}

/// Capsule A against circle B.
pub fn collide_capsule_and_circle(
    capsule_a: &Capsule,
    xf_a: Transform,
    circle_b: &Circle,
    xf_b: Transform,
) -> Manifold {
    let center_b = xf_a.inv_mul(xf_b).apply(circle_b.center);
    let closest = closest_point_on_segment(capsule_a.center1, capsule_a.center2, center_b);
    point_against_circle(closest, capsule_a.radius, center_b, circle_b.radius).to_world(xf_a, xf_b)
}

/// Segment A (two-sided, no radius) against circle B.
pub fn collide_segment_and_circle(
    segment_a: &Segment,
    xf_a: Transform,
    circle_b: &Circle,
    xf_b: Transform,
) -> Manifold {
    let capsule = Capsule {
        center1: segment_a.point1,
        center2: segment_a.point2,
        radius: 0.0,
    };
    collide_capsule_and_circle(&capsule, xf_a, circle_b, xf_b)
}

/// Polygon A (possibly rounded) against circle B.
pub fn collide_polygon_and_circle(
    polygon_a: &Polygon,
    xf_a: Transform,
    circle_b: &Circle,
    xf_b: Transform,
) -> Manifold {
    if !has_valid_count(polygon_a) {
        return Manifold::default();
    }
    let center_b = xf_a.inv_mul(xf_b).apply(circle_b.center);
    polygon_against_circle(polygon_a, center_b, circle_b.radius).to_world(xf_a, xf_b)
}

/// The closest point of segment `p1`–`p2` to `q`: `p1 + t·(p2 − p1)` with
/// `t = clamp((q − p1)·d / d·d, 0, 1)` (a degenerate segment gives `p1`).
pub(crate) fn closest_point_on_segment(p1: Vec2, p2: Vec2, q: Vec2) -> Vec2 {
    let d = p2 - p1;
    let length_squared = d.length_squared();
    if length_squared <= f32::EPSILON * f32::EPSILON {
        return p1;
    }
    p1 + (((q - p1).dot(d)) / length_squared).clamp(0.0, 1.0) * d
}

/// The contact between a disk of radius `radius_a` centred at `center_a` (a circle, or the
/// closest point of a capsule's core) and a circle of radius `radius_b` at `center_b`.
pub(crate) fn point_against_circle(
    center_a: Vec2,
    radius_a: f32,
    center_b: Vec2,
    radius_b: f32,
) -> LocalManifold {
    let offset = center_b - center_a;
    let distance = offset.length();
    if distance - radius_a - radius_b >= SPECULATIVE_DISTANCE {
        return LocalManifold::default();
    }
    let normal = if distance > f32::EPSILON {
        offset / distance
    } else {
        FALLBACK_NORMAL
    };
    LocalManifold::single(
        normal,
        center_a + radius_a * normal,
        center_b - radius_b * normal,
        0,
    )
}

/// Polygon against a circle centred at `center` (in the polygon's frame).
///
/// The face of greatest separation `s = n_i·(c − v_i)` is found first. If the centre lies
/// outside the polygon (`s > 0`) and beyond one end of that face, the closest feature is that
/// end vertex and the normal runs from the vertex to the centre; otherwise the closest feature
/// is the face itself and the normal is the face normal (this also covers a centre inside the
/// polygon, where the least-penetrated face is the way out).
pub(crate) fn polygon_against_circle(
    polygon: &Polygon,
    center: Vec2,
    circle_radius: f32,
) -> LocalManifold {
    let total_radius = polygon.radius + circle_radius;
    let vertices = polygon.verts();
    let (face, face_separation) = (0..vertices.len())
        .map(|i| (i, polygon.normals[i].dot(center - vertices[i])))
        .fold((0, f32::MIN), |best, candidate| {
            if candidate.1 > best.1 {
                candidate
            } else {
                best
            }
        });
    if face_separation - total_radius >= SPECULATIVE_DISTANCE {
        return LocalManifold::default();
    }
    let v1 = vertices[face];
    let v2 = vertices[(face + 1) % vertices.len()];
    let outside = face_separation > f32::EPSILON;
    let closest_vertex = if outside && (center - v1).dot(v2 - v1) < 0.0 {
        Some(v1)
    } else if outside && (center - v2).dot(v1 - v2) < 0.0 {
        Some(v2)
    } else {
        None
    };
    match closest_vertex {
        Some(vertex) => point_against_circle(vertex, polygon.radius, center, circle_radius),
        None => {
            let normal = polygon.normals[face];
            let on_core = center - face_separation * normal;
            LocalManifold::single(
                normal,
                on_core + polygon.radius * normal,
                center - circle_radius * normal,
                0,
            )
        }
    }
}
