//! Convex polygons: the C structure, the functions that make one, and the checks of one made
//! by hand.
//!
//! `prism_make_polygon()` (convex hull of points), `prism_make_box()` and its variants fill a
//! `PrismPolygon` exactly as the engine's own constructors do, so a C program builds the same shapes,
//! bit for bit, as a Rust one. A C program can also fill the structure itself, so
//! `prism_shape_create_polygon()` checks it before the engine sees it — beyond the engine's own
//! checks (vertex count, finite values, positive area) it verifies what the engine takes on
//! trust from its constructors:
//!
//! * every edge is longer than half the linear slop, and `normals[i]` is the outward unit
//!   normal of edge `i` (from `vertices[i]` to `vertices[i + 1]`): for a counter-clockwise
//!   polygon that is the edge's right perpendicular, `(e.y, −e.x)/|e|`, within 10⁻³;
//! * the polygon is convex and counter-clockwise: every vertex lies on the inner side of every
//!   edge, `cross(eᵢ, vⱼ − vᵢ)/|eᵢ| ≥ −slop/10` (this also rejects a star that turns twice);
//! * `centroid` is the area centroid: the triangle fan from vertex 0 gives
//!   `c = Σ Aₖ (v₀ + vₖ + vₖ₊₁)/3 / Σ Aₖ` with `Aₖ = cross(vₖ − v₀, vₖ₊₁ − v₀)/2`, and the
//!   stored value must match it within `slop/10 + 10⁻⁵·max|v|` (rounding of far-off vertices).

use crate::boundary::call;
use crate::math::{PrismRot, PrismVec2};
use crate::pointer::{InSlice, Out};
use crate::status::{CapiError, PrismStatus};
use prism::{
    LINEAR_SLOP, Polygon, PrismError, Rot, Vec2, make_box, make_offset_box, make_polygon,
    make_rounded_box,
};

/// The largest number of vertices a polygon can have.
pub const PRISM_MAX_POLYGON_VERTICES: usize = 8;

/// A solid convex polygon, optionally rounded by `radius`. Fill it with `prism_make_polygon()`
/// or `prism_make_box()`; a polygon filled by hand must be convex, counter-clockwise, with
/// outward unit normals and its area centroid.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismPolygon {
    /// The vertices, counter-clockwise (the first `count` are used).
    pub vertices: [PrismVec2; PRISM_MAX_POLYGON_VERTICES],
    /// `normals[i]` is the outward unit normal of the edge from `vertices[i]` to the next.
    pub normals: [PrismVec2; PRISM_MAX_POLYGON_VERTICES],
    /// The centroid of the polygon's area.
    pub centroid: PrismVec2,
    /// Rounding radius (m), ≥ 0.
    pub radius: f32,
    /// How many vertices are used, 3 to `PRISM_MAX_POLYGON_VERTICES`.
    pub count: u32,
}

impl From<&Polygon> for PrismPolygon {
    fn from(polygon: &Polygon) -> PrismPolygon {
        let mut result = PrismPolygon {
            vertices: [PrismVec2::default(); PRISM_MAX_POLYGON_VERTICES],
            normals: [PrismVec2::default(); PRISM_MAX_POLYGON_VERTICES],
            centroid: polygon.centroid.into(),
            radius: polygon.radius,
            count: polygon.count as u32,
        };
        for i in 0..polygon.count {
            result.vertices[i] = polygon.vertices[i].into();
            result.normals[i] = polygon.normals[i].into();
        }
        result
    }
}

impl PrismPolygon {
    /// The engine's polygon, after the checks in the module notes.
    pub(crate) fn to_prism(self) -> Result<Polygon, CapiError> {
        let count = self.checked_count()?;
        let mut polygon = Polygon {
            vertices: [Vec2::ZERO; PRISM_MAX_POLYGON_VERTICES],
            normals: [Vec2::ZERO; PRISM_MAX_POLYGON_VERTICES],
            centroid: self.centroid.into(),
            radius: self.radius,
            count,
        };
        for i in 0..count {
            polygon.vertices[i] = finite_point("vertices", i, self.vertices[i])?;
            polygon.normals[i] = finite_point("normals", i, self.normals[i])?;
        }
        if !self.centroid.x.is_finite() || !self.centroid.y.is_finite() {
            return Err(non_finite("`PrismPolygon::centroid`"));
        }
        check_edges(&polygon)?;
        check_convex(&polygon)?;
        check_centroid(&polygon)?;
        Ok(polygon)
    }

    fn checked_count(&self) -> Result<usize, CapiError> {
        let count = self.count as usize;
        if (3..=PRISM_MAX_POLYGON_VERTICES).contains(&count) {
            Ok(count)
        } else {
            Err(CapiError::new(
                PrismStatus::InvalidCount,
                format!(
                    "`PrismPolygon::count` must be 3 to {PRISM_MAX_POLYGON_VERTICES}, got {}",
                    self.count
                ),
            ))
        }
    }
}

fn finite_point(field: &str, index: usize, point: PrismVec2) -> Result<Vec2, CapiError> {
    let point = Vec2::from(point);
    if point.is_finite() {
        Ok(point)
    } else {
        Err(non_finite(&format!("`PrismPolygon::{field}[{index}]`")))
    }
}

fn non_finite(field: &str) -> CapiError {
    CapiError::new(PrismStatus::NonFinite, format!("{field} must be finite"))
}

fn degenerate(message: String) -> CapiError {
    CapiError::new(
        PrismStatus::DegeneratePolygon,
        format!("{message}; build polygons with prism_make_polygon() or prism_make_box()"),
    )
}

/// Edge `i` of the polygon: from vertex `i` to the next.
fn edge(polygon: &Polygon, i: usize) -> Vec2 {
    polygon.vertices[(i + 1) % polygon.count] - polygon.vertices[i]
}

/// Every edge long enough, every normal the edge's outward unit normal.
fn check_edges(polygon: &Polygon) -> Result<(), CapiError> {
    for i in 0..polygon.count {
        let e = edge(polygon, i);
        let length = e.length();
        if length <= 0.5 * LINEAR_SLOP {
            return Err(degenerate(format!(
                "edge {i} of `PrismPolygon::vertices` is {length} m long, shorter than half \
                 the linear slop ({} m)",
                0.5 * LINEAR_SLOP
            )));
        }
        let expected = Vec2::new(e.y, -e.x) / length;
        let normal = polygon.normals[i];
        if (normal - expected).length() > 1e-3 {
            return Err(degenerate(format!(
                "`PrismPolygon::normals[{i}]` = ({}, {}) is not the outward unit normal \
                 ({}, {}) of edge {i}",
                normal.x, normal.y, expected.x, expected.y
            )));
        }
    }
    Ok(())
}

/// Every vertex on the inner side of every edge.
fn check_convex(polygon: &Polygon) -> Result<(), CapiError> {
    let tolerance = 0.1 * LINEAR_SLOP;
    for i in 0..polygon.count {
        let e = edge(polygon, i);
        let length = e.length();
        for j in 0..polygon.count {
            let offset = polygon.vertices[j] - polygon.vertices[i];
            let inside = (e.x * offset.y - e.y * offset.x) / length;
            if inside < -tolerance {
                return Err(degenerate(format!(
                    "`PrismPolygon::vertices` are not convex and counter-clockwise: vertex \
                     {j} lies {} m outside edge {i}",
                    -inside
                )));
            }
        }
    }
    Ok(())
}

/// The stored centroid matches the area centroid (triangle fan from vertex 0).
fn check_centroid(polygon: &Polygon) -> Result<(), CapiError> {
    let v = &polygon.vertices[..polygon.count];
    let (mut area, mut moment) = (0.0f32, Vec2::ZERO);
    for k in 1..polygon.count - 1 {
        let (a, b) = (v[k] - v[0], v[k + 1] - v[0]);
        let triangle = 0.5 * (a.x * b.y - a.y * b.x);
        area += triangle;
        moment += triangle * (v[0] + v[k] + v[k + 1]) / 3.0;
    }
    // The convexity check above guarantees a positive area unless all points are collinear,
    // which the edge check (every normal matching) has already excluded.
    let centroid = moment / area;
    let scale = v
        .iter()
        .map(|p| p.abs().max_element())
        .fold(0.0f32, f32::max);
    let tolerance = 0.1 * LINEAR_SLOP + 1e-5 * scale;
    if (polygon.centroid - centroid).length() > tolerance {
        return Err(degenerate(format!(
            "`PrismPolygon::centroid` = ({}, {}) is not the area centroid ({}, {})",
            polygon.centroid.x, polygon.centroid.y, centroid.x, centroid.y
        )));
    }
    Ok(())
}

/// A positive, finite half extent named `field`.
fn half_extent(field: &'static str, value: f32) -> Result<f32, CapiError> {
    if !value.is_finite() {
        return Err(PrismError::NonFinite { field, value }.into());
    }
    if value > 0.0 {
        Ok(value)
    } else {
        Err(PrismError::OutOfRange {
            field,
            value,
            requirement: "greater than 0",
        }
        .into())
    }
}

/// Makes the convex hull of `count` points (any order; points closer than the linear slop are
/// merged, collinear ones dropped), rounded by `radius` (≥ 0), and writes it to `*out`.
/// Fails with `PRISM_STATUS_DEGENERATE_POLYGON` if fewer than 3 distinct points remain, they
/// are collinear, or the hull has more than `PRISM_MAX_POLYGON_VERTICES` vertices.
///
/// # Safety
///
/// `points` is readable for `count` values (NULL only with `count == 0`); `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_make_polygon(
    points: *const PrismVec2,
    count: usize,
    radius: f32,
    out: *mut PrismPolygon,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `points` and `out`.
    let (points, out) = unsafe { (InSlice::new(points, count, "points"), Out::new(out, "out")) };
    call("prism_make_polygon", || {
        let points: Vec<Vec2> = points.get()?.iter().map(|&p| p.into()).collect();
        let polygon = make_polygon(&points, radius).map_err(PrismError::from)?;
        out.put((&polygon).into())
    })
}

/// Makes a box centred on the origin with the given half extents (m, finite, at least 0.0025:
/// half the linear slop) and writes it to `*out`. A 1 m box has half extents 0.5 × 0.5.
///
/// # Safety
///
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_make_box(
    half_width: f32,
    half_height: f32,
    out: *mut PrismPolygon,
) -> PrismStatus {
    // SAFETY: the caller passes a writable `out`.
    let out = unsafe { Out::new(out, "out") };
    call("prism_make_box", || {
        let polygon = make_box(
            half_extent("half_width", half_width)?,
            half_extent("half_height", half_height)?,
        )
        .map_err(PrismError::from)?;
        out.put((&polygon).into())
    })
}

/// Makes a box with the given half extents (m, finite, at least 0.0025: half the linear slop),
/// rotated by `rotation` (unit) and centred on `center` (body frame), and writes it to `*out`.
///
/// # Safety
///
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_make_offset_box(
    half_width: f32,
    half_height: f32,
    center: PrismVec2,
    rotation: PrismRot,
    out: *mut PrismPolygon,
) -> PrismStatus {
    // SAFETY: the caller passes a writable `out`.
    let out = unsafe { Out::new(out, "out") };
    call("prism_make_offset_box", || {
        let (half_width, half_height) = (
            half_extent("half_width", half_width)?,
            half_extent("half_height", half_height)?,
        );
        let center = Vec2::from(center);
        if !center.is_finite() {
            return Err(non_finite("`center`"));
        }
        let rotation = Rot::from(rotation);
        if !rotation.is_valid() {
            return Err(CapiError::new(
                PrismStatus::OutOfRange,
                format!(
                    "`rotation` must be a unit rotation (use prism_make_rot()), got ({}, {})",
                    rotation.c, rotation.s
                ),
            ));
        }
        let polygon =
            make_offset_box(half_width, half_height, center, rotation).map_err(PrismError::from)?;
        out.put((&polygon).into())
    })
}

/// Makes a box centred on the origin with the given half extents (m, finite, at least 0.0025:
/// half the linear slop), rounded by `radius` (m, finite, ≥ 0), and writes it to `*out`.
///
/// # Safety
///
/// `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_make_rounded_box(
    half_width: f32,
    half_height: f32,
    radius: f32,
    out: *mut PrismPolygon,
) -> PrismStatus {
    // SAFETY: the caller passes a writable `out`.
    let out = unsafe { Out::new(out, "out") };
    call("prism_make_rounded_box", || {
        let (half_width, half_height) = (
            half_extent("half_width", half_width)?,
            half_extent("half_height", half_height)?,
        );
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(PrismError::OutOfRange {
                field: "radius",
                value: radius,
                requirement: "finite and at least 0",
            }
            .into());
        }
        let polygon =
            make_rounded_box(half_width, half_height, radius).map_err(PrismError::from)?;
        out.put((&polygon).into())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn made_box() -> PrismPolygon {
        (&make_offset_box(1.5, 0.25, Vec2::new(30.0, -2.0), Rot::from_angle(0.7)).unwrap()).into()
    }

    #[test]
    fn constructed_polygons_pass_the_checks_unchanged() {
        let polygon = made_box();
        let back = polygon.to_prism().expect("a constructed polygon is valid");
        assert_eq!(PrismPolygon::from(&back), polygon);
        let hull = make_polygon(
            &[
                Vec2::new(0.0, 0.0),
                Vec2::new(2.0, 0.1),
                Vec2::new(2.5, 1.5),
                Vec2::new(0.5, 2.0),
                Vec2::new(-0.5, 1.0),
            ],
            0.05,
        )
        .unwrap();
        assert!(PrismPolygon::from(&hull).to_prism().is_ok());
    }

    #[test]
    fn a_wrong_normal_is_named() {
        let mut polygon = made_box();
        polygon.normals[2] = PrismVec2 { x: 0.0, y: 1.0 };
        let error = polygon.to_prism().unwrap_err();
        assert_eq!(error.status, PrismStatus::DegeneratePolygon);
        assert!(
            error.message.contains("`PrismPolygon::normals[2]`"),
            "{}",
            error.message
        );
    }

    #[test]
    fn clockwise_and_star_polygons_are_rejected() {
        let mut clockwise = made_box();
        clockwise.vertices[..4].reverse();
        assert_eq!(
            clockwise.to_prism().unwrap_err().status,
            PrismStatus::DegeneratePolygon
        );
        // A pentagram: five points of a regular pentagon visited two steps at a time. Every
        // turn is to the left, yet vertices lie outside edges.
        let mut star = PrismPolygon::from(&make_box(1.0, 1.0).unwrap());
        star.count = 5;
        for k in 0..5 {
            let angle = (2 * k % 5) as f32 * std::f32::consts::TAU / 5.0;
            star.vertices[k] = PrismVec2 {
                x: angle.cos(),
                y: angle.sin(),
            };
        }
        for k in 0..5 {
            let e = Vec2::from(star.vertices[(k + 1) % 5]) - Vec2::from(star.vertices[k]);
            star.normals[k] = (Vec2::new(e.y, -e.x) / e.length()).into();
        }
        star.centroid = PrismVec2::default();
        let error = star.to_prism().unwrap_err();
        assert!(error.message.contains("not convex"), "{}", error.message);
    }

    #[test]
    fn a_moved_centroid_and_a_bad_count_are_rejected() {
        let mut polygon = made_box();
        polygon.centroid.x += 0.01;
        let error = polygon.to_prism().unwrap_err();
        assert!(
            error.message.contains("`PrismPolygon::centroid`"),
            "{}",
            error.message
        );
        let mut polygon = made_box();
        polygon.count = 9;
        let error = polygon.to_prism().unwrap_err();
        assert_eq!(error.status, PrismStatus::InvalidCount);
        assert_eq!(error.message, "`PrismPolygon::count` must be 3 to 8, got 9");
    }
}
