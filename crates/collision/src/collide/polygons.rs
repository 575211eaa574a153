//! Polygon against polygon, by the separating axis test and clipping.
//!
//! ## Reference face
//!
//! For convex polygons the penetration (or gap) along the normal `n_i` of an edge of A is
//! `s_i = min_j n_i·(w_j − v_i)` over the vertices `w_j` of B. The edge of largest `s_i` over
//! both polygons' edges is the axis of least penetration (when overlapping) or the best
//! separating face axis (when apart). That edge is the *reference face*; its polygon is the
//! reference polygon. B's face is only chosen when it beats A's by more than a tenth of the
//! linear slop, so two nearly equal candidates do not trade places from step to step (the
//! feature ids, and therefore warm starting, depend on the choice staying put).
//!
//! ## Incident edge and clipping
//!
//! The *incident edge* is the edge of the other polygon whose normal is most anti-parallel to the
//! reference normal. Its two ends are clipped to the slab between the side planes through the
//! reference edge's end vertices (parametrised by the distance `t` along the reference edge),
//! giving at most two points. Each point's separation is its height above the reference face,
//! `n·(w − v_ref)`, less both radii; points at or beyond the speculative distance are dropped.
//!
//! ## Rounded polygons and the vertex–vertex case
//!
//! A rounded polygon is its core polygon grown by `radius`. The test runs on the cores and
//! subtracts both radii, and each point is moved to the middle of the two surfaces:
//! with `h` the core height of incident point `w` above the reference face,
//! `point = w + ½·(r_ref − r_inc − h)·n`.
//!
//! When the cores are apart and the incident edge lies wholly beyond one end of the reference
//! edge (and the reference edge wholly beyond the matching end of the incident edge), the
//! closest features are two vertices, and a face normal would understate the gap (and, for
//! rounded shapes, point in the wrong direction): the normal then runs from one vertex to the
//! other and the single point sits midway between the surfaces.
//!
//! ## Ids
//!
//! A clipped point keeps the id built from the reference edge's end vertex on its side and the
//! incident vertex it came from: `(i11, i22)` for the lower point and `(i12, i21)` for the
//! upper. The ids depend only on which edges touch, not on whether a side plane clipped, so a
//! box sliding along another keeps its two ids.

use super::round::collide_polygon_and_circle;
use super::{
    LocalManifold, capsule_as_circle, feature_id, has_valid_count, transformed_polygon, two_gon,
};
use crate::manifold::{LINEAR_SLOP, Manifold, SPECULATIVE_DISTANCE};
use crate::shapes::{Capsule, Polygon, Segment};
use core_soa::{Rot, Transform, Vec2};

/// How much B's face must beat A's before it becomes the reference face (m).
pub(crate) const REFERENCE_FACE_TOLERANCE: f32 = 0.1 * LINEAR_SLOP;

/// Polygon A against polygon B (either or both may be rounded).
pub fn collide_polygons(
    polygon_a: &Polygon,
    xf_a: Transform,
    polygon_b: &Polygon,
    xf_b: Transform,
) -> Manifold {
    if !has_valid_count(polygon_a) || !has_valid_count(polygon_b) {
        return Manifold::default();
    }
    // Work with A's first vertex as the origin: the clipping then subtracts small numbers,
    // whatever the shapes' placement in their body frames.
    let origin = polygon_a.vertices[0];
    let shift = Transform::new(-origin, Rot::IDENTITY);
    let poly_a = transformed_polygon(polygon_a, shift);
    let poly_b = transformed_polygon(polygon_b, shift.mul(xf_a.inv_mul(xf_b)));
    let mut manifold = polygons_in_one_frame(&poly_a, &poly_b);
    for point in &mut manifold.points[..manifold.count] {
        point.point += origin;
    }
    manifold.to_world(xf_a, xf_b)
}

/// Polygon A against capsule B (the capsule is a two-vertex polygon with a radius).
pub fn collide_polygon_and_capsule(
    polygon_a: &Polygon,
    xf_a: Transform,
    capsule_b: &Capsule,
    xf_b: Transform,
) -> Manifold {
    if let Some(circle_b) = capsule_as_circle(capsule_b) {
        return collide_polygon_and_circle(polygon_a, xf_a, &circle_b, xf_b);
    }
    let capsule_polygon = two_gon(capsule_b.center1, capsule_b.center2, capsule_b.radius);
    collide_polygons(polygon_a, xf_a, &capsule_polygon, xf_b)
}

/// Segment A (two-sided, no radius) against polygon B.
pub fn collide_segment_and_polygon(
    segment_a: &Segment,
    xf_a: Transform,
    polygon_b: &Polygon,
    xf_b: Transform,
) -> Manifold {
    let segment_polygon = two_gon(segment_a.point1, segment_a.point2, 0.0);
    collide_polygons(&segment_polygon, xf_a, polygon_b, xf_b)
}

/// The manifold of two polygons given in the same frame, in that frame.
pub(crate) fn polygons_in_one_frame(poly_a: &Polygon, poly_b: &Polygon) -> LocalManifold {
    let (edge_a, separation_a) = max_face_separation(poly_a, poly_b);
    let (edge_b, separation_b) = max_face_separation(poly_b, poly_a);
    let total_radius = poly_a.radius + poly_b.radius;
    if separation_a.max(separation_b) - total_radius >= SPECULATIVE_DISTANCE {
        return LocalManifold::default();
    }
    if separation_b > separation_a + REFERENCE_FACE_TOLERANCE {
        reference_face_contact(poly_b, edge_b, poly_a, separation_b, |_| true).flipped()
    } else {
        reference_face_contact(poly_a, edge_a, poly_b, separation_a, |_| true)
    }
}

/// The edge of `reference` whose normal best separates it from `other`, and that separation:
/// `max_i min_j n_i·(w_j − v_i)`.
pub(crate) fn max_face_separation(reference: &Polygon, other: &Polygon) -> (usize, f32) {
    let mut best = (0, f32::MIN);
    for (i, (&normal, &vertex)) in reference.normals.iter().zip(reference.verts()).enumerate() {
        let separation = other
            .verts()
            .iter()
            .map(|&w| normal.dot(w - vertex))
            .fold(f32::MAX, f32::min);
        if separation > best.1 {
            best = (i, separation);
        }
    }
    best
}

/// The edge of `polygon` whose normal is most anti-parallel to `normal`.
pub(crate) fn incident_edge(polygon: &Polygon, normal: Vec2) -> usize {
    let mut best = (0, f32::MAX);
    for (i, n) in polygon.normals[..polygon.count].iter().enumerate() {
        let alignment = n.dot(normal);
        if alignment < best.1 {
            best = (i, alignment);
        }
    }
    best.0
}

/// The contact with `reference`'s edge `edge` as reference face, with the normal pointing from
/// `reference` to `incident` and ids reading (reference feature, incident feature).
///
/// `accept_vertex_normal` may veto a vertex–vertex normal (the one-sided chain segments use it to
/// refuse normals outside their smooth cone); clipping is used instead.
pub(crate) fn reference_face_contact(
    reference: &Polygon,
    edge: usize,
    incident: &Polygon,
    core_separation: f32,
    accept_vertex_normal: impl Fn(Vec2) -> bool,
) -> LocalManifold {
    let normal = reference.normals[edge];
    let incident_index = incident_edge(incident, normal);
    let ref_edge = EdgeIndices::of(reference, edge);
    let inc_edge = EdgeIndices::of(incident, incident_index);
    if core_separation > REFERENCE_FACE_TOLERANCE
        && let Some(manifold) = vertex_vertex_contact(reference, ref_edge, incident, inc_edge)
        && accept_vertex_normal(manifold.normal)
    {
        return manifold;
    }
    clip_incident_edge(reference, ref_edge, incident, inc_edge, normal)
}

/// The two vertex indices of an edge (start, end).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdgeIndices {
    pub start: usize,
    pub end: usize,
}

impl EdgeIndices {
    pub fn of(polygon: &Polygon, edge: usize) -> EdgeIndices {
        EdgeIndices {
            start: edge,
            end: (edge + 1) % polygon.count,
        }
    }
}

/// The single vertex-to-vertex point when the two edges do not overlap along either edge's
/// direction (see the module notes), or `None` when clipping applies.
fn vertex_vertex_contact(
    reference: &Polygon,
    ref_edge: EdgeIndices,
    incident: &Polygon,
    inc_edge: EdgeIndices,
) -> Option<LocalManifold> {
    let (r1, r2) = (
        reference.vertices[ref_edge.start],
        reference.vertices[ref_edge.end],
    );
    let (w1, w2) = (
        incident.vertices[inc_edge.start],
        incident.vertices[inc_edge.end],
    );
    // The incident edge runs against the reference edge: w1 projects high along it, w2 low.
    // Wholly before r1, its nearest vertex is w1; wholly past r2, it is w2.
    let ref_vertex_and_inc_vertex = if beyond_end(r2, r1, w1, w2) && beyond_end(w2, w1, r1, r2) {
        (ref_edge.start, inc_edge.start)
    } else if beyond_end(r1, r2, w1, w2) && beyond_end(w1, w2, r1, r2) {
        (ref_edge.end, inc_edge.end)
    } else {
        return None;
    };
    let (ref_vertex, inc_vertex) = ref_vertex_and_inc_vertex;
    let (p, q) = (
        reference.vertices[ref_vertex],
        incident.vertices[inc_vertex],
    );
    let normal = (q - p).try_normalize()?;
    Some(LocalManifold::single(
        normal,
        p + reference.radius * normal,
        q - incident.radius * normal,
        feature_id(ref_vertex, inc_vertex),
    ))
}

/// Whether both points `a` and `b` lie strictly beyond `end` of the edge `start → end`
/// (measured along the edge direction).
fn beyond_end(start: Vec2, end: Vec2, a: Vec2, b: Vec2) -> bool {
    let direction = end - start;
    direction.dot(a - end) > 0.0 && direction.dot(b - end) > 0.0
}

/// Clips the incident edge to the reference edge's side planes (see the module notes).
fn clip_incident_edge(
    reference: &Polygon,
    ref_edge: EdgeIndices,
    incident: &Polygon,
    inc_edge: EdgeIndices,
    normal: Vec2,
) -> LocalManifold {
    let v11 = reference.vertices[ref_edge.start];
    let v12 = reference.vertices[ref_edge.end];
    let Some(tangent) = (v12 - v11).try_normalize() else {
        return LocalManifold::default();
    };
    let (v21, v22) = (
        incident.vertices[inc_edge.start],
        incident.vertices[inc_edge.end],
    );
    // Positions along the reference edge: the edge spans [0, length]; the incident edge runs
    // from `t_upper` (at v21) down to `t_lower` (at v22).
    let length = (v12 - v11).dot(tangent);
    let t_upper = (v21 - v11).dot(tangent);
    let t_lower = (v22 - v11).dot(tangent);
    let span = t_upper - t_lower;
    let mut manifold = LocalManifold::new(normal);
    if t_upper < 0.0 || t_lower > length {
        return manifold;
    }
    let (lower, upper) = if span > f32::EPSILON * length {
        let at = |t: f32| v22 + ((t - t_lower) / span) * (v21 - v22);
        let lower = if t_lower < 0.0 { at(0.0) } else { v22 };
        let upper = if t_upper > length { at(length) } else { v21 };
        (lower, upper)
    } else {
        // The incident edge stands (nearly) square on the reference face: its ends project to
        // one spot inside the slab and need no clipping.
        (v22, v21)
    };

    let (r_ref, r_inc) = (reference.radius, incident.radius);
    for (vertex, id) in [
        (lower, feature_id(ref_edge.start, inc_edge.end)),
        (upper, feature_id(ref_edge.end, inc_edge.start)),
    ] {
        let height = (vertex - v11).dot(normal);
        manifold.push(
            vertex + 0.5 * (r_ref - r_inc - height) * normal,
            height - r_ref - r_inc,
            id,
        );
    }
    manifold
}
