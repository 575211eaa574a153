//! Convex polygons from points.
//!
//! [`make_polygon`] turns a cloud of points into the solver's [`Polygon`]: the convex hull, with
//! counter-clockwise vertices, one unit outward normal per edge, and the area-weighted centroid.
//! The collision code relies on that shape being *well conditioned*, so the hull is cleaned on
//! the way:
//!
//! 1. **Validation.** Non-finite coordinates and a negative or non-finite radius are errors.
//! 2. **Welding.** Points closer than the linear slop (0.005 m) to a point already kept are the
//!    same point: a sliver edge shorter than the slop would give a normal dominated by rounding
//!    error. Fewer than three distinct points is an error.
//! 3. **Hull.** Andrew's monotone chain: sort the points lexicographically, then sweep left to
//!    right building the lower chain and right to left building the upper chain, popping the
//!    last kept point while it does not make a strict left turn. O(n log n), no special cases
//!    for ties, and only strictly convex turns survive.
//! 4. **Collinear removal.** A vertex that lies within the slop of the line through its two
//!    neighbours is dropped (repeatedly, since dropping one can expose another): it would create
//!    two nearly parallel edges, and the clipping would then flip between them.
//! 5. **Limits.** Fewer than three vertices left means the input was collinear; more than
//!    [`MAX_POLYGON_VERTICES`] is an error (the manifold code uses fixed-size arrays).
//!
//! The boxes (`make_box` and friends) are built directly, since their hull is known; their
//! arguments are checked instead (finite half extents of at least [`MIN_HALF_EXTENT`], a finite
//! centre, a unit rotation, a finite non-negative radius), so that every polygon they return
//! passes [`check_polygon`].
//!
//! A polygon that was not made here — filled in by hand, or read from a file — is checked by
//! [`check_polygon`] (in `hull/check.rs`) before a world accepts it.

use core::fmt;

use core_soa::math::{cross, right_perp};
use core_soa::{Rot, Vec2};

use crate::manifold::LINEAR_SLOP;
use crate::shapes::{MAX_POLYGON_VERTICES, Polygon};

mod check;

pub use check::check_polygon;

/// The smallest half extent a box may have (m): a box this small has edges one slop long and
/// corners 0.7 slop from the diagonal through their neighbours, within what [`check_polygon`]
/// accepts (half a slop for both).
pub const MIN_HALF_EXTENT: f32 = 0.5 * LINEAR_SLOP;

/// Why a set of points does not make a valid polygon.
#[derive(Debug, Clone, PartialEq)]
pub enum HullError {
    /// Fewer than three points remain after welding points closer than the linear slop.
    TooFewPoints {
        /// How many distinct points remained after welding.
        distinct: usize,
    },
    /// All points lie on one line (within the linear slop).
    Collinear,
    /// The hull has more vertices than [`MAX_POLYGON_VERTICES`].
    TooManyVertices {
        /// Vertices of the hull that was computed.
        count: usize,
    },
    /// The point at `index` has a NaN or infinite coordinate.
    NonFinite {
        /// Index of the offending point in the list given.
        index: usize,
    },
    /// The rounding radius is negative or not finite.
    InvalidRadius {
        /// The radius given (m).
        radius: f32,
    },
    /// A constructor argument outside its range: `field` names it, `requirement` says what it
    /// must be.
    InvalidArgument {
        /// The argument's name, as the caller wrote it.
        field: &'static str,
        /// The value given.
        value: f32,
        /// What the value must be, in words (for the error message).
        requirement: &'static str,
    },
    /// Edge `index` (from vertex `index` to the next) is shorter than half the linear slop.
    ShortEdge {
        /// Index of the edge's first vertex.
        index: usize,
        /// The edge's length (m).
        length: f32,
    },
    /// Vertex `index` lies closer than half the linear slop to the line through its two
    /// neighbours: it makes two nearly parallel edges.
    FlatVertex {
        /// Index of the vertex.
        index: usize,
        /// Its distance (m) from the line through its neighbours.
        distance: f32,
    },
    /// `normals[index]` is not the outward unit normal of edge `index`.
    WrongNormal {
        /// Index of the edge.
        index: usize,
        /// The normal stored for it.
        normal: Vec2,
    },
    /// Vertex `vertex` lies outside edge `edge`: the vertices are not convex and
    /// counter-clockwise.
    NotConvex {
        /// Index of the vertex that lies outside.
        vertex: usize,
        /// Index of the edge it lies outside of.
        edge: usize,
        /// How far (m) outside the edge's line the vertex lies.
        distance: f32,
    },
    /// The stored centroid is not the centroid of the vertices' area.
    WrongCentroid {
        /// The centroid stored in the polygon.
        centroid: Vec2,
        /// The area centroid computed from the vertices.
        expected: Vec2,
    },
}

impl fmt::Display for HullError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HullError::TooFewPoints { distinct } => write!(
                f,
                "polygon needs at least 3 distinct points (closer than {LINEAR_SLOP} m are \
                 merged), got {distinct}"
            ),
            HullError::Collinear => write!(f, "polygon points are collinear"),
            HullError::TooManyVertices { count } => write!(
                f,
                "polygon hull has {count} vertices, at most {MAX_POLYGON_VERTICES} are allowed"
            ),
            HullError::NonFinite { index } => {
                write!(f, "polygon point {index} has a non-finite coordinate")
            }
            HullError::InvalidRadius { radius } => {
                write!(f, "polygon radius must be finite and >= 0, got {radius}")
            }
            HullError::InvalidArgument {
                field,
                value,
                requirement,
            } => write!(f, "`{field}` must be {requirement}, got {value}"),
            HullError::ShortEdge { index, length } => write!(
                f,
                "polygon edge {index} is {length} m long, shorter than half the linear slop \
                 ({} m)",
                0.5 * LINEAR_SLOP
            ),
            HullError::FlatVertex { index, distance } => write!(
                f,
                "polygon vertex {index} lies {distance} m from the line through its neighbours, \
                 closer than half the linear slop ({} m)",
                0.5 * LINEAR_SLOP
            ),
            HullError::WrongNormal { index, normal } => write!(
                f,
                "polygon normal {index} ({}, {}) is not the outward unit normal of edge {index}",
                normal.x, normal.y
            ),
            HullError::NotConvex {
                vertex,
                edge,
                distance,
            } => write!(
                f,
                "polygon vertices are not convex and counter-clockwise: vertex {vertex} lies \
                 {distance} m outside edge {edge}"
            ),
            HullError::WrongCentroid { centroid, expected } => write!(
                f,
                "polygon centroid ({}, {}) is not the area centroid ({}, {})",
                centroid.x, centroid.y, expected.x, expected.y
            ),
        }
    }
}

impl std::error::Error for HullError {}

/// Builds the convex hull of `points` as a polygon rounded by `radius`.
///
/// The points may be in any order and may include interior points; see the module notes for
/// welding, collinear removal and the errors.
pub fn make_polygon(points: &[Vec2], radius: f32) -> Result<Polygon, HullError> {
    if !radius.is_finite() || radius < 0.0 {
        return Err(HullError::InvalidRadius { radius });
    }
    if let Some(index) = points.iter().position(|p| !p.is_finite()) {
        return Err(HullError::NonFinite { index });
    }
    let distinct = weld_points(points);
    if distinct.len() < 3 {
        return Err(HullError::TooFewPoints {
            distinct: distinct.len(),
        });
    }
    let mut hull = monotone_chain_hull(distinct);
    remove_collinear_vertices(&mut hull);
    if hull.len() < 3 {
        return Err(HullError::Collinear);
    }
    if hull.len() > MAX_POLYGON_VERTICES {
        return Err(HullError::TooManyVertices { count: hull.len() });
    }
    Ok(polygon_from_ccw_hull(&hull, radius))
}

/// An axis-aligned box centred on the origin, with half extents `half_width` × `half_height`.
///
/// Errors: a half extent that is not finite or is smaller than [`MIN_HALF_EXTENT`]
/// ([`HullError::InvalidArgument`] naming `half_width` or `half_height`).
pub fn make_box(half_width: f32, half_height: f32) -> Result<Polygon, HullError> {
    let hw = half_extent("half_width", half_width)?;
    let hh = half_extent("half_height", half_height)?;
    Ok(polygon_with_known_normals(
        &[
            Vec2::new(-hw, -hh),
            Vec2::new(hw, -hh),
            Vec2::new(hw, hh),
            Vec2::new(-hw, hh),
        ],
        &[Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X],
        Vec2::ZERO,
        0.0,
    ))
}

/// A square centred on the origin with half extent `half_extent` (errors as [`make_box`]).
pub fn make_square(half_extent: f32) -> Result<Polygon, HullError> {
    make_box(half_extent, half_extent)
}

/// A box with half extents `half_width` × `half_height`, rotated by `rotation` and then centred
/// at `center` (in the body frame).
///
/// Errors: the half extents as for [`make_box`]; a non-finite `center`; a `rotation` that is not
/// finite and of unit length (`Rot::is_valid`).
pub fn make_offset_box(
    half_width: f32,
    half_height: f32,
    center: Vec2,
    rotation: Rot,
) -> Result<Polygon, HullError> {
    let mut polygon = make_box(half_width, half_height)?;
    for value in [center.x, center.y] {
        if !value.is_finite() {
            return Err(HullError::InvalidArgument {
                field: "center",
                value,
                requirement: "finite",
            });
        }
    }
    if !rotation.is_valid() {
        return Err(HullError::InvalidArgument {
            field: "rotation",
            value: (rotation.c * rotation.c + rotation.s * rotation.s).sqrt(),
            requirement: "a finite unit rotation (|q| = 1)",
        });
    }
    for i in 0..polygon.count {
        polygon.vertices[i] = rotation.rotate(polygon.vertices[i]) + center;
        polygon.normals[i] = rotation.rotate(polygon.normals[i]);
    }
    polygon.centroid = center;
    Ok(polygon)
}

/// A box whose core has half extents `half_width` × `half_height`, rounded by `radius`: the
/// solid reaches `half_width + radius` along x and `half_height + radius` along y.
///
/// Errors: the half extents as for [`make_box`]; a negative or non-finite `radius`
/// ([`HullError::InvalidRadius`]).
pub fn make_rounded_box(
    half_width: f32,
    half_height: f32,
    radius: f32,
) -> Result<Polygon, HullError> {
    let mut polygon = make_box(half_width, half_height)?;
    if !(radius.is_finite() && radius >= 0.0) {
        return Err(HullError::InvalidRadius { radius });
    }
    polygon.radius = radius;
    Ok(polygon)
}

/// `value` if it is a finite half extent of at least [`MIN_HALF_EXTENT`].
fn half_extent(field: &'static str, value: f32) -> Result<f32, HullError> {
    if value.is_finite() && value >= MIN_HALF_EXTENT {
        Ok(value)
    } else {
        Err(HullError::InvalidArgument {
            field,
            value,
            requirement: "finite and at least 0.0025 m (half the linear slop)",
        })
    }
}

/// Keeps each point unless it lies within the linear slop of a point already kept.
/// Quadratic, but hull inputs are small (a polygon keeps at most eight vertices).
fn weld_points(points: &[Vec2]) -> Vec<Vec2> {
    let weld_distance_squared = LINEAR_SLOP * LINEAR_SLOP;
    let mut kept: Vec<Vec2> = Vec::with_capacity(points.len());
    for &p in points {
        if kept
            .iter()
            .all(|&q| p.distance_squared(q) >= weld_distance_squared)
        {
            kept.push(p);
        }
    }
    kept
}

/// Andrew's monotone chain. Returns the strictly convex hull in counter-clockwise order,
/// starting from the lexicographically smallest point. Collinear and interior points are
/// dropped because only strict left turns (`cross > 0`) are kept.
fn monotone_chain_hull(mut points: Vec<Vec2>) -> Vec<Vec2> {
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    let mut hull: Vec<Vec2> = Vec::with_capacity(points.len() + 1);
    // Lower chain left to right, then upper chain right to left.
    push_convex_chain(&mut hull, points.iter().copied());
    push_convex_chain(&mut hull, points.iter().rev().copied());
    hull
}

/// Appends one monotone chain to `hull`, popping its own points (never the ones already in
/// `hull`) while they fail to make a strict left turn. The chain's last point is dropped since
/// it is the first point of the other chain.
fn push_convex_chain(hull: &mut Vec<Vec2>, ordered: impl Iterator<Item = Vec2>) {
    let chain_start = hull.len();
    for p in ordered {
        while hull.len() >= chain_start + 2 {
            let (a, b) = (hull[hull.len() - 2], hull[hull.len() - 1]);
            if cross(b - a, p - b) > 0.0 {
                break;
            }
            hull.pop();
        }
        hull.push(p);
    }
    hull.pop();
}

/// Drops vertices lying within the linear slop of the line through their neighbours, until
/// none is left. The distance of `v` from the line through `prev` and `next` is
/// `|cross(next − prev, v − prev)| / |next − prev|`.
fn remove_collinear_vertices(hull: &mut Vec<Vec2>) {
    let mut i = 0;
    while hull.len() >= 3 && i < hull.len() {
        let n = hull.len();
        let prev = hull[(i + n - 1) % n];
        let next = hull[(i + 1) % n];
        let chord = next - prev;
        let chord_length = chord.length();
        let distance = if chord_length > 0.0 {
            cross(chord, hull[i] - prev).abs() / chord_length
        } else {
            0.0
        };
        if distance < LINEAR_SLOP {
            hull.remove(i);
            // The neighbours changed: re-examine the previous vertex too.
            i = i.saturating_sub(1);
        } else {
            i += 1;
        }
    }
}

/// Builds a polygon from at most eight counter-clockwise, strictly convex vertices, computing
/// the edge normals and the centroid.
fn polygon_from_ccw_hull(hull: &[Vec2], radius: f32) -> Polygon {
    let count = hull.len();
    let mut normals = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    for i in 0..count {
        let edge = hull[(i + 1) % count] - hull[i];
        // Counter-clockwise winding puts the interior on the left, so the right
        // perpendicular points out.
        normals[i] = right_perp(edge).normalize();
    }
    polygon_with_known_normals(hull, &normals[..count], polygon_centroid(hull), radius)
}

fn polygon_with_known_normals(
    vertices: &[Vec2],
    normals: &[Vec2],
    centroid: Vec2,
    radius: f32,
) -> Polygon {
    let mut polygon = Polygon {
        vertices: [Vec2::ZERO; MAX_POLYGON_VERTICES],
        normals: [Vec2::ZERO; MAX_POLYGON_VERTICES],
        centroid,
        radius,
        count: vertices.len(),
    };
    polygon.vertices[..vertices.len()].copy_from_slice(vertices);
    polygon.normals[..normals.len()].copy_from_slice(normals);
    polygon
}

/// The area-weighted centroid of a convex polygon: a fan of triangles from the first vertex,
/// each contributing its area times its own centroid `(a + b + c) / 3`. Working relative to the
/// first vertex keeps the cross products small when the polygon sits far from the origin.
fn polygon_centroid(vertices: &[Vec2]) -> Vec2 {
    let origin = vertices[0];
    let mut area = 0.0;
    let mut weighted = Vec2::ZERO;
    for i in 1..vertices.len() - 1 {
        let e1 = vertices[i] - origin;
        let e2 = vertices[i + 1] - origin;
        let triangle_area = 0.5 * cross(e1, e2);
        area += triangle_area;
        weighted += triangle_area * (e1 + e2) / 3.0;
    }
    origin + weighted / area
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOLERANCE: f32 = 1e-6;

    fn assert_valid_ccw(polygon: &Polygon) {
        let v = polygon.verts();
        for i in 0..polygon.count {
            let a = v[i];
            let b = v[(i + 1) % polygon.count];
            let c = v[(i + 2) % polygon.count];
            assert!(
                cross(b - a, c - b) > 0.0,
                "not strictly convex at {i}: {v:?}"
            );
            let n = polygon.normals[i];
            assert!((n.length() - 1.0).abs() < TOLERANCE);
            assert!(n.dot(b - a).abs() < 1e-5, "normal {i} not perpendicular");
            // Every vertex lies behind every edge.
            for &w in v {
                assert!(n.dot(w - a) <= 1e-5);
            }
        }
    }

    #[test]
    fn square_from_shuffled_points_with_interior_and_duplicates() {
        let points = [
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 0.0),
            Vec2::new(-1.0, -1.0),
            Vec2::new(1.0, -1.0),
            Vec2::new(1.001, -1.0), // welded to (1, -1)
            Vec2::new(-1.0, 1.0),
            Vec2::new(0.3, -0.2),
        ];
        let polygon = make_polygon(&points, 0.0).unwrap();
        assert_eq!(polygon.count, 4);
        assert_valid_ccw(&polygon);
        assert_eq!(polygon.verts()[0], Vec2::new(-1.0, -1.0));
        assert!(polygon.centroid.length() < TOLERANCE);
        assert_eq!(polygon.radius, 0.0);
    }

    #[test]
    fn collinear_points_on_edges_are_removed() {
        // Midpoints of edges and a point 0.001 m off an edge (inside the slop).
        let points = [
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(1.0, 2.001),
            Vec2::new(0.0, 2.0),
        ];
        let polygon = make_polygon(&points, 0.0).unwrap();
        assert_eq!(polygon.count, 4);
        assert_valid_ccw(&polygon);
        assert!((polygon.centroid - Vec2::new(1.0, 1.0)).length() < 1e-5);
    }

    #[test]
    fn triangle_centroid_is_vertex_mean() {
        let points = [
            Vec2::new(0.0, 0.0),
            Vec2::new(3.0, 0.0),
            Vec2::new(0.0, 3.0),
        ];
        let polygon = make_polygon(&points, 0.25).unwrap();
        assert_eq!(polygon.count, 3);
        assert_valid_ccw(&polygon);
        assert!((polygon.centroid - Vec2::new(1.0, 1.0)).length() < 1e-6);
        assert_eq!(polygon.radius, 0.25);
        let expected_hypotenuse_normal = Vec2::new(1.0, 1.0).normalize();
        assert!(
            polygon
                .normals
                .iter()
                .any(|n| (*n - expected_hypotenuse_normal).length() < 1e-6)
        );
    }

    #[test]
    fn far_from_origin_centroid_is_accurate() {
        let c = Vec2::new(1000.0, -2000.0);
        let points = [
            c + Vec2::new(-0.5, -0.25),
            c + Vec2::new(0.5, -0.25),
            c + Vec2::new(0.5, 0.25),
            c + Vec2::new(-0.5, 0.25),
        ];
        let polygon = make_polygon(&points, 0.0).unwrap();
        // f32 spacing at 2000 is 1.2e-4; the fan about a vertex keeps the error at that level.
        assert!((polygon.centroid - c).length() < 3e-4);
    }

    #[test]
    fn regular_octagon_is_accepted_and_nonagon_rejected() {
        let ring = |n: usize| -> Vec<Vec2> {
            (0..n)
                .map(|i| {
                    let a = i as f32 * core::f32::consts::TAU / n as f32;
                    Vec2::new(a.cos(), a.sin())
                })
                .collect()
        };
        let octagon = make_polygon(&ring(8), 0.0).unwrap();
        assert_eq!(octagon.count, 8);
        assert_valid_ccw(&octagon);
        assert!(octagon.centroid.length() < 1e-6);
        assert_eq!(
            make_polygon(&ring(9), 0.0),
            Err(HullError::TooManyVertices { count: 9 })
        );
    }

    #[test]
    fn errors_name_the_problem() {
        let tri = [Vec2::ZERO, Vec2::X, Vec2::Y];
        assert_eq!(
            make_polygon(&tri, -0.1),
            Err(HullError::InvalidRadius { radius: -0.1 })
        );
        assert!(matches!(
            make_polygon(&tri, f32::NAN),
            Err(HullError::InvalidRadius { .. })
        ));
        let with_nan = [Vec2::ZERO, Vec2::X, Vec2::new(0.0, f32::INFINITY)];
        assert_eq!(
            make_polygon(&with_nan, 0.0),
            Err(HullError::NonFinite { index: 2 })
        );
        let welded = [
            Vec2::ZERO,
            Vec2::X,
            Vec2::new(1.004, 0.0),
            Vec2::new(0.0, 0.001),
        ];
        assert_eq!(
            make_polygon(&welded, 0.0),
            Err(HullError::TooFewPoints { distinct: 2 })
        );
        let line = [
            Vec2::ZERO,
            Vec2::new(1.0, 1.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(3.0, 3.002),
        ];
        assert_eq!(make_polygon(&line, 0.0), Err(HullError::Collinear));
        let message = HullError::TooManyVertices { count: 12 }.to_string();
        assert!(message.contains("12") && message.contains('8'), "{message}");
        assert!(
            HullError::InvalidRadius { radius: -2.5 }
                .to_string()
                .contains("-2.5")
        );
    }

    /// A small deterministic generator (64-bit LCG, top bits) for uniform floats in [lo, hi).
    fn uniform_source(seed: u64) -> impl FnMut(f32, f32) -> f32 {
        let mut state = seed;
        move |lo, hi| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            lo + (hi - lo) * ((state >> 40) as f32 / (1u64 << 24) as f32)
        }
    }

    #[test]
    fn random_clouds_are_enclosed_by_their_hull() {
        let mut uniform = uniform_source(17);
        let mut built = 0;
        for _ in 0..500 {
            let n = 3 + (uniform(0.0, 6.0) as usize);
            let points: Vec<Vec2> = (0..n)
                .map(|_| Vec2::new(uniform(-2.0, 2.0), uniform(-1.0, 1.0)))
                .collect();
            let Ok(polygon) = make_polygon(&points, 0.0) else {
                continue; // a welded or collinear cloud; those errors are tested above
            };
            built += 1;
            assert_valid_ccw(&polygon);
            // Every hull vertex is an input point, and every input point is inside the hull
            // or within the slop of it (collinear removal may shave up to the slop).
            for &v in polygon.verts() {
                assert!(points.contains(&v));
            }
            for &p in &points {
                for (v, n) in polygon.verts().iter().zip(&polygon.normals) {
                    assert!(n.dot(p - *v) <= LINEAR_SLOP, "{p:?} outside {polygon:?}");
                }
            }
        }
        assert!(built > 450, "only {built} random hulls were built");
    }

    #[test]
    fn boxes_match_their_hull() {
        let b = make_box(2.0, 0.5).unwrap();
        let hull = make_polygon(&b.vertices[..4], 0.0).unwrap();
        assert_eq!(b, hull);
        assert_eq!(make_square(1.5).unwrap(), make_box(1.5, 1.5).unwrap());
        let rounded = make_rounded_box(1.0, 2.0, 0.1).unwrap();
        assert_eq!(rounded.radius, 0.1);
        assert_eq!(rounded.verts(), make_box(1.0, 2.0).unwrap().verts());
    }

    #[test]
    fn offset_box_is_rotated_then_moved() {
        let center = Vec2::new(3.0, -1.0);
        let b = make_offset_box(
            1.0,
            0.5,
            center,
            Rot::from_angle(core::f32::consts::FRAC_PI_2),
        )
        .unwrap();
        assert_valid_ccw(&b);
        assert_eq!(b.centroid, center);
        // Rotated a quarter turn, the long side runs along y.
        let min_y = b.verts().iter().map(|v| v.y).fold(f32::INFINITY, f32::min);
        let max_x = b
            .verts()
            .iter()
            .map(|v| v.x)
            .fold(f32::NEG_INFINITY, f32::max);
        assert!((min_y - (center.y - 1.0)).abs() < 1e-6);
        assert!((max_x - (center.x + 0.5)).abs() < 1e-6);
    }

    #[test]
    fn box_arguments_are_checked() {
        for (hw, hh, field) in [
            (-0.5, 0.5, "half_width"),
            (0.5, 0.0, "half_height"),
            (f32::NAN, 1.0, "half_width"),
            (1.0, f32::INFINITY, "half_height"),
            (0.001, 1.0, "half_width"),
        ] {
            let error = make_box(hw, hh).unwrap_err();
            assert!(
                matches!(error, HullError::InvalidArgument { field: f, .. } if f == field),
                "{hw} x {hh}: {error:?}"
            );
            assert!(error.to_string().contains(field), "{error}");
        }
        assert!(make_square(-1.0).is_err());
        assert_eq!(
            make_rounded_box(1.0, 1.0, -0.1),
            Err(HullError::InvalidRadius { radius: -0.1 })
        );
        let unit = Rot::IDENTITY;
        assert!(matches!(
            make_offset_box(1.0, 1.0, Vec2::new(f32::NAN, 0.0), unit),
            Err(HullError::InvalidArgument {
                field: "center",
                ..
            })
        ));
        let stretched = Rot { c: 2.0, s: 0.0 };
        assert!(matches!(
            make_offset_box(1.0, 1.0, Vec2::ZERO, stretched),
            Err(HullError::InvalidArgument {
                field: "rotation",
                ..
            })
        ));
        let smallest = make_box(MIN_HALF_EXTENT, MIN_HALF_EXTENT).unwrap();
        assert_eq!(check_polygon(&smallest), Ok(()));
    }
}
