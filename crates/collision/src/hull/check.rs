//! The check of a polygon that did not come from [`super::make_polygon`] or the box helpers.
//!
//! [`Polygon`]'s fields are public (the collision routines read them in their inner loops, and
//! the C interface fills one from a C structure), so a polygon can be built by hand with any
//! values. Everything downstream — the manifolds' clipping, the distance routine, the mass
//! integrals — assumes what the constructors guarantee. [`check_polygon`] verifies exactly that,
//! in this order, and names the first thing that is wrong:
//!
//! 1. **Count**: 3 to [`MAX_POLYGON_VERTICES`] vertices.
//! 2. **Finite**: every vertex finite; the radius finite and ≥ 0.
//! 3. **Area**: twice the area (shoelace formula, fanned from vertex 0) larger than
//!    (slop/2)² in magnitude; collinear vertices enclose none.
//! 4. **Edges**: every edge at least half the linear slop long, and every vertex at least half
//!    the slop from the line through its two neighbours. `make_polygon` welds points closer
//!    than the slop and drops vertices within the slop of their neighbours' line, so its
//!    polygons clear both by a whole slop; half leaves room for rounding in hand-made data. A
//!    shorter edge has a normal dominated by rounding error, and a flat vertex makes two nearly
//!    parallel edges between which the clipping flips.
//! 5. **Convex and counter-clockwise**: every vertex lies on the inner (left) side of every
//!    edge: `cross(eᵢ, vⱼ − vᵢ)/|eᵢ| ≥ −slop/10`. A clockwise polygon has every vertex on the
//!    right of every edge; a star or a dent has some vertex on the right of some edge.
//! 6. **Normals**: `normals[i]` is the outward unit normal of edge `i`, the edge's right
//!    perpendicular `(e.y, −e.x)/|e|`, within 10⁻³ (non-finite normals fail here).
//! 7. **Centroid**: the area centroid of the vertices (the same fan as the area,
//!    `c = Σ Aₖ (v₀ + vₖ + vₖ₊₁)/3 / Σ Aₖ`), within `slop/10 + 10⁻⁵·max|v|`: the second term is
//!    the rounding of vertices far from the origin.
//!
//! Every polygon the constructors return passes (the tests below check it on random hulls and
//! on rotated, offset and rounded boxes).

use core_soa::Vec2;

use super::HullError;
use crate::manifold::LINEAR_SLOP;
use crate::shapes::{MAX_POLYGON_VERTICES, Polygon};

/// Checks that `polygon` is what the constructors would build (see the module notes).
///
/// The arithmetic is done in `f64`, so that the check itself cannot overflow: a polygon of
/// 10³⁰ m is a valid polygon here (whether its mass fits in `f32` is the world's question).
pub fn check_polygon(polygon: &Polygon) -> Result<(), HullError> {
    check_count(polygon.count)?;
    let vertices = polygon.verts();
    if let Some(index) = vertices.iter().position(|v| !v.is_finite()) {
        return Err(HullError::NonFinite { index });
    }
    if !(polygon.radius.is_finite() && polygon.radius >= 0.0) {
        return Err(HullError::InvalidRadius {
            radius: polygon.radius,
        });
    }
    let mut buffer = [Point { x: 0.0, y: 0.0 }; MAX_POLYGON_VERTICES];
    for (point, &vertex) in buffer.iter_mut().zip(vertices) {
        *point = Point::from(vertex);
    }
    let points = &buffer[..vertices.len()];
    let (twice_area, _) = fan_area_and_moment(points);
    let slop = f64::from(LINEAR_SLOP);
    // Written so that a NaN area fails too.
    let encloses_area = twice_area.abs() > 0.25 * slop * slop;
    if !encloses_area {
        return Err(HullError::Collinear);
    }
    check_edges(points)?;
    check_vertices_stand_out(points)?;
    check_convex(points)?;
    check_normals(points, &polygon.normals)?;
    check_centroid(points, polygon.centroid)
}

fn check_count(count: usize) -> Result<(), HullError> {
    if count > MAX_POLYGON_VERTICES {
        return Err(HullError::TooManyVertices { count });
    }
    if count < 3 {
        return Err(HullError::TooFewPoints { distinct: count });
    }
    Ok(())
}

/// A point or vector in `f64`.
#[derive(Clone, Copy, Debug)]
struct Point {
    x: f64,
    y: f64,
}

impl From<Vec2> for Point {
    fn from(v: Vec2) -> Point {
        Point {
            x: f64::from(v.x),
            y: f64::from(v.y),
        }
    }
}

impl Point {
    fn minus(self, other: Point) -> Point {
        Point {
            x: self.x - other.x,
            y: self.y - other.y,
        }
    }

    fn length(self) -> f64 {
        self.x.hypot(self.y)
    }
}

fn cross(a: Point, b: Point) -> f64 {
    a.x * b.y - a.y * b.x
}

/// Edge `i`: from vertex `i` to the next.
fn edge(points: &[Point], i: usize) -> Point {
    points[(i + 1) % points.len()].minus(points[i])
}

fn check_edges(points: &[Point]) -> Result<(), HullError> {
    for index in 0..points.len() {
        let length = edge(points, index).length();
        let long_enough = length >= 0.5 * f64::from(LINEAR_SLOP);
        if !long_enough {
            return Err(HullError::ShortEdge {
                index,
                length: length as f32,
            });
        }
    }
    Ok(())
}

/// Every vertex at least half a slop from the line through its neighbours:
/// `|cross(next − prev, v − prev)| / |next − prev|` (edges are already long enough, but the
/// two neighbours of a vertex of a triangle-like sliver can still be close: then the distance
/// to `prev` stands in for the distance to the line).
fn check_vertices_stand_out(points: &[Point]) -> Result<(), HullError> {
    let n = points.len();
    for index in 0..n {
        let prev = points[(index + n - 1) % n];
        let offset = points[index].minus(prev);
        let chord = points[(index + 1) % n].minus(prev);
        let chord_length = chord.length();
        let distance = if chord_length > 0.0 {
            cross(chord, offset).abs() / chord_length
        } else {
            offset.length()
        };
        let stands_out = distance >= 0.5 * f64::from(LINEAR_SLOP);
        if !stands_out {
            return Err(HullError::FlatVertex {
                index,
                distance: distance as f32,
            });
        }
    }
    Ok(())
}

fn check_convex(points: &[Point]) -> Result<(), HullError> {
    let tolerance = 0.1 * f64::from(LINEAR_SLOP);
    for i in 0..points.len() {
        let e = edge(points, i);
        let length = e.length();
        for (j, &v) in points.iter().enumerate() {
            let inside = cross(e, v.minus(points[i])) / length;
            if inside < -tolerance {
                return Err(HullError::NotConvex {
                    vertex: j,
                    edge: i,
                    distance: -inside as f32,
                });
            }
        }
    }
    Ok(())
}

fn check_normals(points: &[Point], normals: &[Vec2]) -> Result<(), HullError> {
    for (index, &normal) in normals.iter().enumerate().take(points.len()) {
        let e = edge(points, index);
        let length = e.length();
        let n = Point::from(normal);
        let miss = Point {
            x: n.x - e.y / length,
            y: n.y + e.x / length,
        };
        let matches = miss.length() <= 1e-3;
        if !matches {
            return Err(HullError::WrongNormal { index, normal });
        }
    }
    Ok(())
}

fn check_centroid(points: &[Point], centroid: Vec2) -> Result<(), HullError> {
    let (twice_area, twice_moment) = fan_area_and_moment(points);
    let expected = Point {
        x: points[0].x + twice_moment.x / twice_area,
        y: points[0].y + twice_moment.y / twice_area,
    };
    let scale = points
        .iter()
        .map(|p| p.x.abs().max(p.y.abs()))
        .fold(0.0f64, f64::max);
    let tolerance = 0.1 * f64::from(LINEAR_SLOP) + 1e-5 * scale;
    let matches = Point::from(centroid).minus(expected).length() <= tolerance;
    if !matches {
        return Err(HullError::WrongCentroid {
            centroid,
            expected: Vec2::new(expected.x as f32, expected.y as f32),
        });
    }
    Ok(())
}

/// Twice the signed area of the fan of triangles from vertex 0, and twice its first moment
/// about vertex 0 (`Σ 2Aₖ (eₖ + eₖ₊₁)/3` with `eₖ = vₖ − v₀`).
fn fan_area_and_moment(points: &[Point]) -> (f64, Point) {
    let origin = points[0];
    let mut twice_area = 0.0;
    let mut twice_moment = Point { x: 0.0, y: 0.0 };
    for k in 1..points.len() - 1 {
        let (a, b) = (points[k].minus(origin), points[k + 1].minus(origin));
        let twice_triangle = cross(a, b);
        twice_area += twice_triangle;
        twice_moment.x += twice_triangle * (a.x + b.x) / 3.0;
        twice_moment.y += twice_triangle * (a.y + b.y) / 3.0;
    }
    (twice_area, twice_moment)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hull::{make_box, make_offset_box, make_polygon, make_rounded_box};
    use core_soa::Rot;

    #[test]
    fn constructed_polygons_pass() {
        let boxes = [
            make_box(0.5, 2.0).unwrap(),
            make_box(crate::hull::MIN_HALF_EXTENT, 1.0).unwrap(),
            make_rounded_box(1.0, 0.25, 0.1).unwrap(),
            make_offset_box(1.0, 0.5, Vec2::new(100.0, -40.0), Rot::from_angle(0.7)).unwrap(),
        ];
        for polygon in &boxes {
            assert_eq!(check_polygon(polygon), Ok(()), "{polygon:?}");
        }
        // Random clouds (a 64-bit LCG): every hull make_polygon builds passes.
        let mut state = 7u64;
        let mut uniform = |scale: f32| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            scale * ((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5)
        };
        let mut built = 0;
        for round in 0..2000 {
            let scale = [0.05, 1.0, 30.0, 1000.0][round % 4];
            let offset = Vec2::new(uniform(4.0 * scale), uniform(4.0 * scale));
            let points: Vec<Vec2> = (0..3 + round % 6)
                .map(|_| offset + Vec2::new(uniform(scale), uniform(scale)))
                .collect();
            if let Ok(polygon) = make_polygon(&points, 0.0) {
                built += 1;
                assert_eq!(check_polygon(&polygon), Ok(()), "{points:?}");
            }
        }
        assert!(built > 1900, "only {built} hulls built");
    }

    #[test]
    fn each_defect_is_named() {
        let square = make_box(1.0, 1.0).unwrap();
        let mut clockwise = square;
        clockwise.vertices[..4].reverse();
        assert!(matches!(
            check_polygon(&clockwise),
            Err(HullError::NotConvex { .. })
        ));
        // A dent: vertex 2 pulled inside the square makes vertex 2 concave, so vertex 1 or 3
        // lies outside the edge through the dent.
        let mut dented = make_polygon(
            &[
                Vec2::new(-1.0, -1.0),
                Vec2::new(1.0, -1.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(0.0, 1.5),
                Vec2::new(-1.0, 1.0),
            ],
            0.0,
        )
        .unwrap();
        dented.vertices[3] = Vec2::new(0.0, 0.2);
        assert!(matches!(
            check_polygon(&dented),
            Err(HullError::NotConvex { .. })
        ));
        let mut zero_normal = square;
        zero_normal.normals[1] = Vec2::ZERO;
        assert_eq!(
            check_polygon(&zero_normal),
            Err(HullError::WrongNormal {
                index: 1,
                normal: Vec2::ZERO
            })
        );
        let mut inward = square;
        inward.normals[0] = -inward.normals[0];
        assert!(matches!(
            check_polygon(&inward),
            Err(HullError::WrongNormal { index: 0, .. })
        ));
        let mut short = square;
        short.vertices[1] = Vec2::new(-0.999, -1.0);
        assert!(matches!(
            check_polygon(&short),
            Err(HullError::ShortEdge { index: 0, .. })
        ));
        // A fifth vertex 1 mm outside the middle of the top edge.
        let mut flat = make_polygon(
            &[
                Vec2::new(-1.0, -1.0),
                Vec2::new(1.0, -1.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(0.0, 1.5),
                Vec2::new(-1.0, 1.0),
            ],
            0.0,
        )
        .unwrap();
        flat.vertices[3] = Vec2::new(0.0, 1.001);
        assert!(matches!(
            check_polygon(&flat),
            Err(HullError::FlatVertex { index: 3, .. })
        ));
        let mut moved = square;
        moved.centroid = Vec2::new(0.5, 0.0);
        assert!(matches!(
            check_polygon(&moved),
            Err(HullError::WrongCentroid { .. })
        ));
        let mut rounded = square;
        rounded.radius = f32::INFINITY;
        assert!(matches!(
            check_polygon(&rounded),
            Err(HullError::InvalidRadius { .. })
        ));
        let nine = Polygon { count: 9, ..square };
        assert_eq!(
            check_polygon(&nine),
            Err(HullError::TooManyVertices { count: 9 })
        );
    }
}
