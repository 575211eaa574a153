//! One-sided chain segments against circles, capsules and polygons.
//!
//! A chain is a run of segments meant to be the boundary of a solid (terrain, a container). Two
//! things set a chain segment apart from a free segment.
//!
//! **One side.** A segment `p1 → p2` collides only on its right side, the side of its normal
//! `n = right_perp(p2 − p1)/|p2 − p1|`. A shape whose centre (a circle's centre, a polygon's
//! centroid) lies behind the segment (`n·(c − p1) < 0`) is inside the solid or coming from
//! behind and gets no contact: a body can pass through the back of a chain.
//!
//! **Smooth joins.** A body sliding along a flat chain must not notice where one segment ends
//! and the next begins. A segment on its own would give a body hanging past its end a normal
//! round the end vertex (nearly along the chain), and the body would catch on the join. The
//! *ghost* vertices (`ghost1` before `p1`, `ghost2` after `p2`) tell the segment the shape of
//! its neighbourhood, and a normal at an end vertex is only admitted inside the *smooth cone*
//! of that vertex:
//!
//! ```text
//!                 n   n0        ground listed right to left (ghost1 → p1 → p2), free side
//!                 ↑  ↗          up: the previous link climbs to p1 and this one runs flat,
//!     p2 ──────── p1            so the chain turns away from its free side at p1 (a convex
//!                    ╲          join, cross(p1 − ghost1, p2 − p1) > 0) and the cone at p1 is
//!                     ghost1    the fan from n0 to n; at a flat or concave join it is n alone
//! ```
//!
//! A normal that leans towards `p2` (`n_c·(p2 − p1) > 0`) can only come from the vertex `p2`,
//! one that leans towards `p1` only from `p1`. When the best separating axis gives a normal
//! outside the cone, the segment's own face is used instead, and clipping the other shape to
//! the segment's extent leaves only the part above this segment: the neighbour segment reports
//! the rest with its own normal.
//!
//! For circles the same rule reads as ownership of the Voronoi regions: the segment owns its
//! interior, and its first vertex `p1` only when the centre lies past the previous segment's end
//! (else the previous segment's interior holds it); the region past `p2` always belongs to the
//! next segment (its interior or its first vertex).
//!
//! At an open end of a chain the ghost continues the link straight on, so the end behaves as a
//! flat continuation: a circle whose centre has passed the end vertex gets no contact from it,
//! and a polygon is supported by the part of it that is over the link.

use super::polygons::{REFERENCE_FACE_TOLERANCE, max_face_separation, reference_face_contact};
use super::round::point_against_circle;
use super::{LocalManifold, capsule_as_circle, has_valid_count, transformed_polygon, two_gon};
use crate::manifold::{Manifold, SPECULATIVE_DISTANCE};
use crate::shapes::{Capsule, ChainSegment, Circle, Polygon};
use core_soa::{Transform, Vec2, cross, right_perp};

/// A normal within this sine of the segment normal counts as the segment normal.
const ALIGNED_SINE: f32 = 0.01;

/// Chain segment A against circle B.
pub fn collide_chain_segment_and_circle(
    chain_a: &ChainSegment,
    xf_a: Transform,
    circle_b: &Circle,
    xf_b: Transform,
) -> Manifold {
    let center = xf_a.inv_mul(xf_b).apply(circle_b.center);
    chain_against_circle(chain_a, center, circle_b.radius).to_world(xf_a, xf_b)
}

/// Chain segment A against capsule B (the capsule is a two-vertex polygon with a radius).
pub fn collide_chain_segment_and_capsule(
    chain_a: &ChainSegment,
    xf_a: Transform,
    capsule_b: &Capsule,
    xf_b: Transform,
) -> Manifold {
    if let Some(circle_b) = capsule_as_circle(capsule_b) {
        return collide_chain_segment_and_circle(chain_a, xf_a, &circle_b, xf_b);
    }
    let capsule_polygon = two_gon(capsule_b.center1, capsule_b.center2, capsule_b.radius);
    collide_chain_segment_and_polygon(chain_a, xf_a, &capsule_polygon, xf_b)
}

/// Chain segment A against polygon B (possibly rounded).
pub fn collide_chain_segment_and_polygon(
    chain_a: &ChainSegment,
    xf_a: Transform,
    polygon_b: &Polygon,
    xf_b: Transform,
) -> Manifold {
    if !has_valid_count(polygon_b) {
        return Manifold::default();
    }
    let polygon = transformed_polygon(polygon_b, xf_a.inv_mul(xf_b));
    chain_against_polygon(chain_a, &polygon).to_world(xf_a, xf_b)
}

/// The segment's end points, direction and free-side unit normal, or `None` if degenerate.
fn free_side(chain: &ChainSegment) -> Option<(Vec2, Vec2, Vec2)> {
    let (p1, p2) = (chain.segment.point1, chain.segment.point2);
    let normal = right_perp(p2 - p1).try_normalize()?;
    Some((p1, p2, normal))
}

/// Circle centred at `center` (segment frame) against the chain segment (module notes).
fn chain_against_circle(chain: &ChainSegment, center: Vec2, radius: f32) -> LocalManifold {
    let Some((p1, p2, normal)) = free_side(chain) else {
        return LocalManifold::default();
    };
    if normal.dot(center - p1) < 0.0 {
        return LocalManifold::default();
    }
    let direction = p2 - p1;
    let along = (center - p1).dot(direction);
    if along >= direction.length_squared() {
        return LocalManifold::default();
    }
    let closest = if along <= 0.0 {
        if (center - p1).dot(p1 - chain.ghost1) < 0.0 {
            return LocalManifold::default();
        }
        p1
    } else {
        p1 + (along / direction.length_squared()) * direction
    };
    point_against_circle(closest, 0.0, center, radius)
}

/// Polygon (segment frame) against the chain segment: the separating axis test over the
/// segment's free face and the polygon's faces, with normals held to the smooth cone.
fn chain_against_polygon(chain: &ChainSegment, polygon: &Polygon) -> LocalManifold {
    let Some((p1, p2, normal)) = free_side(chain) else {
        return LocalManifold::default();
    };
    if normal.dot(polygon.centroid - p1) < 0.0 {
        return LocalManifold::default();
    }
    let segment = two_gon(p1, p2, 0.0);
    let segment_separation = polygon
        .verts()
        .iter()
        .map(|&w| normal.dot(w - p1))
        .fold(f32::MAX, f32::min);
    let (polygon_edge, polygon_separation) = max_face_separation(polygon, &segment);
    if segment_separation.max(polygon_separation) - polygon.radius >= SPECULATIVE_DISTANCE {
        return LocalManifold::default();
    }
    let admissible = |candidate: Vec2| in_smooth_cone(chain, normal, candidate);
    if polygon_separation > segment_separation + REFERENCE_FACE_TOLERANCE
        && admissible(-polygon.normals[polygon_edge])
    {
        reference_face_contact(polygon, polygon_edge, &segment, polygon_separation, |m| {
            admissible(-m)
        })
        .flipped()
    } else {
        reference_face_contact(&segment, 0, polygon, segment_separation, admissible)
    }
}

/// Whether the contact normal `candidate` (from the segment towards the other shape) lies in
/// the smooth cone of the vertex it leans towards (module notes).
fn in_smooth_cone(chain: &ChainSegment, normal: Vec2, candidate: Vec2) -> bool {
    if candidate.dot(normal) <= 0.0 {
        return false;
    }
    if cross(normal, candidate).abs() <= ALIGNED_SINE {
        return true;
    }
    let (p1, p2) = (chain.segment.point1, chain.segment.point2);
    let direction = p2 - p1;
    if candidate.dot(direction) > 0.0 {
        // Towards p2: the fan from this normal to the next segment's normal, if convex there.
        let next = chain.ghost2 - p2;
        let Some(next_normal) = right_perp(next).try_normalize() else {
            return false;
        };
        cross(direction, next) > 0.0
            && cross(normal, candidate) >= 0.0
            && cross(candidate, next_normal) >= 0.0
    } else {
        // Towards p1: the fan from the previous segment's normal to this normal, if convex there.
        let previous = p1 - chain.ghost1;
        let Some(previous_normal) = right_perp(previous).try_normalize() else {
            return false;
        };
        cross(previous, direction) > 0.0
            && cross(previous_normal, candidate) >= 0.0
            && cross(candidate, normal) >= 0.0
    }
}
