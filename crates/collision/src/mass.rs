//! Mass properties: from a shape and a density to mass, centre of mass and rotational inertia.
//!
//! Every solid shape is integrated exactly (no approximation for rounded polygons):
//!
//! - **Circle**: `m = ρπr²`, `I = ½mr²` about its centre.
//! - **Capsule**: a `L × 2r` rectangle plus two half-disks; the half-disks' inertia needs the
//!   parallel-axis theorem twice (derived in [`capsule_mass`]).
//! - **Polygon**: a fan of triangles from a reference point inside the polygon. Each triangle
//!   contributes its area, its first moment and its second moment `∫|x|² dA` about the
//!   reference point, and the sums give the centre and the inertia (moved to the centre with the
//!   parallel-axis theorem).
//! - **Rounded polygon** (the Minkowski sum of the core polygon with a disk of radius `r`):
//!   decomposed into the core, one `edge length × r` rectangle outside each edge, and one
//!   circular sector of radius `r` at each vertex whose opening angle is the turn between the
//!   two edge normals (the sectors' angles add to 2π, so together they make one full disk).
//!   Rectangles are integrated as quads with the same triangle formulas; sectors have closed
//!   forms (see `MomentSums::add_sector`). The result is exact: e.g. a rounded box has area
//!   `4·hx·hy + 2r(2hx + 2hy) + πr²`.
//!
//! Segments and chain segments have no area and so no mass: they are meant for static
//! geometry, and a body made only of them is given mass by the World's rules, not here.
//!
//! Density is not validated here: the World rejects non-positive density before it gets this
//! far, and a zero density simply gives zero mass.

use core::f32::consts::PI;

use core_soa::Vec2;
use core_soa::math::{atan2, cross, sin};

use crate::shapes::{Capsule, Circle, Polygon, Shape};

/// Mass, centre of mass (in the shape's local frame) and rotational inertia about that centre.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MassData {
    /// Mass (kg): the shape's area times its density; 0 for shapes without area.
    pub mass: f32,
    /// Centre of mass in the shape's local frame (m).
    pub center: Vec2,
    /// The rotational inertia about `center` (not about the body origin).
    pub rotational_inertia: f32,
}

/// The mass properties of `shape` at `density` (kg/m²). Segments and chain segments have zero
/// mass (their `center` is the segment midpoint, their inertia zero).
pub fn compute_mass(shape: &Shape, density: f32) -> MassData {
    match shape {
        Shape::Circle(circle) => circle_mass(circle, density),
        Shape::Capsule(capsule) => capsule_mass(capsule, density),
        Shape::Polygon(polygon) => polygon_mass(polygon, density),
        Shape::Segment(segment) => zero_mass_at(0.5 * (segment.point1 + segment.point2)),
        Shape::ChainSegment(chain) => {
            zero_mass_at(0.5 * (chain.segment.point1 + chain.segment.point2))
        }
    }
}

fn zero_mass_at(center: Vec2) -> MassData {
    MassData {
        mass: 0.0,
        center,
        rotational_inertia: 0.0,
    }
}

/// A disk: `m = ρπr²`, `I = ∫ρ|x|² dA = ρ·2π·r⁴/4 = ½mr²`.
pub fn circle_mass(circle: &Circle, density: f32) -> MassData {
    let rr = circle.radius * circle.radius;
    let mass = density * PI * rr;
    MassData {
        mass,
        center: circle.center,
        rotational_inertia: 0.5 * mass * rr,
    }
}

/// A capsule of core length `L = |c2 − c1|` and radius `r`, about its midpoint.
///
/// Rectangle `L × 2r`: `m_b = ρ·2rL`, `I_b = m_b(L² + (2r)²)/12`.
///
/// The two half-disks together have the mass of one disk, `m_c = ρπr²`; each has `m_c/2`.
/// A half-disk's inertia about the centre of its flat side is half the disk's: `½(m_c/2)r²`.
/// Its own centroid lies `d = 4r/(3π)` from the flat side, so by the parallel-axis theorem its
/// inertia about its centroid is `½(m_c/2)r² − (m_c/2)d²`, and about the capsule midpoint,
/// which is `L/2 + d` from that centroid, it is
/// `½(m_c/2)r² − (m_c/2)d² + (m_c/2)(L/2 + d)² = (m_c/2)(r²/2 + L²/4 + L·d)`.
/// Both half-disks together: `I_c = m_c(r²/2 + L²/4 + L·d)`.
pub fn capsule_mass(capsule: &Capsule, density: f32) -> MassData {
    let r = capsule.radius;
    let length = (capsule.center2 - capsule.center1).length();
    let box_mass = density * 2.0 * r * length;
    let box_inertia = box_mass * (length * length + 4.0 * r * r) / 12.0;
    let disk_mass = density * PI * r * r;
    let flat_to_centroid = 4.0 * r / (3.0 * PI);
    let caps_inertia =
        disk_mass * (0.5 * r * r + 0.25 * length * length + length * flat_to_centroid);
    MassData {
        mass: box_mass + disk_mass,
        center: 0.5 * (capsule.center1 + capsule.center2),
        rotational_inertia: box_inertia + caps_inertia,
    }
}

/// A convex polygon, rounded or not (exact; see the module notes).
pub fn polygon_mass(polygon: &Polygon, density: f32) -> MassData {
    let vertices = polygon.verts();
    // Integrate about a point inside the polygon so the sums stay well scaled when the polygon
    // sits far from the body origin.
    let reference = polygon.centroid;
    let mut sums = MomentSums::default();
    let count = vertices.len();
    for i in 0..count {
        let a = vertices[i] - reference;
        let b = vertices[(i + 1) % count] - reference;
        sums.add_fan_triangle(a, b);
    }
    let r = polygon.radius;
    if r > 0.0 {
        for i in 0..count {
            let j = (i + 1) % count;
            let (a, b) = (vertices[i] - reference, vertices[j] - reference);
            let offset = r * polygon.normals[i];
            sums.add_convex_quad([a, a + offset, b + offset, b]);
            // The sector at vertex j turns from this edge's normal to the next edge's.
            sums.add_sector(b, polygon.normals[i], polygon.normals[j], r);
        }
    }
    sums.into_mass_data(reference, density)
}

/// Running integrals about a reference point: area `A = ∫dA`, first moment `S = ∫x dA` and
/// polar second moment `J = ∫|x|² dA`, with `x` measured from the reference point.
#[derive(Default)]
struct MomentSums {
    area: f32,
    first_moment: Vec2,
    second_moment: f32,
}

impl MomentSums {
    /// The triangle `(0, e1, e2)` (signed: counter-clockwise is positive).
    ///
    /// With `x = s·e1 + t·e2` over the unit triangle (`dA = D ds dt`, `D = e1 × e2`):
    /// `A = D/2`, `S = A(e1 + e2)/3`, and since `∫s² = ∫t² = 1/12`, `∫st = 1/24`,
    /// `J = D(|e1|²/12 + e1·e2/12 + |e2|²/12) = (A/6)(|e1|² + e1·e2 + |e2|²)`.
    fn add_fan_triangle(&mut self, e1: Vec2, e2: Vec2) {
        let area = 0.5 * cross(e1, e2);
        self.area += area;
        self.first_moment += area * (e1 + e2) / 3.0;
        self.second_moment += area / 6.0 * (e1.length_squared() + e1.dot(e2) + e2.length_squared());
    }

    /// A counter-clockwise quadrilateral, as a signed fan about the reference point.
    fn add_convex_quad(&mut self, corners: [Vec2; 4]) {
        for i in 0..4 {
            self.add_fan_triangle(corners[i], corners[(i + 1) % 4]);
        }
    }

    /// The circular sector of radius `r` with its apex at `apex`, spanning the directions from
    /// unit `from` counter-clockwise to unit `to` (an angle `θ` in `[0, π)`).
    ///
    /// About the apex, in polar coordinates: `A = ½r²θ`; `J_apex = ∫∫ρ²·ρ dρ dφ = r⁴θ/4`; the
    /// first moment points along the bisector `b` with length `∫∫ρ cos φ · ρ dρ dφ` over
    /// `φ ∈ [−θ/2, θ/2]`, i.e. `(r³/3)·2 sin(θ/2)`. Moving to the reference point (`x = apex + u`):
    /// `S = A·apex + S_apex`, `J = A|apex|² + 2 apex·S_apex + J_apex`.
    fn add_sector(&mut self, apex: Vec2, from: Vec2, to: Vec2, r: f32) {
        let angle = atan2(cross(from, to), from.dot(to)).max(0.0);
        let bisector = (from + to).normalize_or_zero();
        let area = 0.5 * r * r * angle;
        let apex_first_moment = (2.0 / 3.0) * r * r * r * sin(0.5 * angle) * bisector;
        let apex_second_moment = 0.25 * r * r * r * r * angle;
        self.area += area;
        self.first_moment += area * apex + apex_first_moment;
        self.second_moment +=
            area * apex.length_squared() + 2.0 * apex.dot(apex_first_moment) + apex_second_moment;
    }

    /// Centre `reference + S/A`; inertia about it by the parallel-axis theorem,
    /// `I = ρ(J − A|S/A|²)`.
    fn into_mass_data(self, reference: Vec2, density: f32) -> MassData {
        if self.area <= 0.0 {
            return zero_mass_at(reference);
        }
        let offset = self.first_moment / self.area;
        MassData {
            mass: density * self.area,
            center: reference + offset,
            rotational_inertia: density
                * (self.second_moment - self.area * offset.length_squared()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hull::{make_box, make_offset_box, make_polygon, make_rounded_box};
    use crate::shapes::{ChainSegment, Segment};
    use core_soa::Rot;

    fn assert_close(actual: f32, expected: f32, relative: f32) {
        let scale = expected.abs().max(1e-6);
        assert!(
            (actual - expected).abs() <= relative * scale,
            "actual {actual}, expected {expected} (relative tolerance {relative})"
        );
    }

    #[test]
    fn disk() {
        let circle = Circle {
            center: Vec2::new(1.0, -2.0),
            radius: 0.5,
        };
        let md = compute_mass(&Shape::Circle(circle), 2.0);
        let m = 2.0 * PI * 0.25;
        assert_close(md.mass, m, 1e-6);
        assert_close(md.rotational_inertia, 0.5 * m * 0.25, 1e-6);
        assert_eq!(md.center, circle.center);
    }

    #[test]
    fn rectangle() {
        let (w, h, density) = (4.0, 1.0, 3.0);
        let md = compute_mass(
            &Shape::Polygon(make_box(0.5 * w, 0.5 * h).unwrap()),
            density,
        );
        let m = density * w * h;
        assert_close(md.mass, m, 1e-6);
        assert_close(md.rotational_inertia, m * (w * w + h * h) / 12.0, 1e-5);
        assert!(md.center.length() < 1e-6);
    }

    #[test]
    fn offset_rotated_box_moves_centre_not_inertia() {
        let center = Vec2::new(2.0, 3.0);
        let polygon = make_offset_box(1.0, 0.5, center, Rot::from_angle(0.7)).unwrap();
        let md = compute_mass(&Shape::Polygon(polygon), 1.0);
        assert_close(md.mass, 2.0, 1e-5);
        assert!((md.center - center).length() < 1e-5);
        assert_close(md.rotational_inertia, 2.0 * (4.0 + 1.0) / 12.0, 1e-4);
    }

    #[test]
    fn right_triangle() {
        // Legs a = 3 (x) and b = 2 (y). Area ab/2, centroid (a/3, b/3); about the centroid,
        // I_x = ab³/36 and I_y = a³b/36 for a right triangle, so J = ab(a² + b²)/36.
        let (a, b) = (3.0f32, 2.0f32);
        let polygon =
            make_polygon(&[Vec2::ZERO, Vec2::new(a, 0.0), Vec2::new(0.0, b)], 0.0).unwrap();
        let md = compute_mass(&Shape::Polygon(polygon), 1.0);
        assert_close(md.mass, a * b / 2.0, 1e-6);
        assert!((md.center - Vec2::new(a / 3.0, b / 3.0)).length() < 1e-6);
        assert_close(md.rotational_inertia, a * b * (a * a + b * b) / 36.0, 1e-5);
    }

    #[test]
    fn capsule_matches_analytic_formula() {
        // Horizontal capsule, L = 2, r = 0.5, density 1.
        let capsule = Capsule {
            center1: Vec2::new(-1.0, 1.0),
            center2: Vec2::new(1.0, 1.0),
            radius: 0.5,
        };
        let md = compute_mass(&Shape::Capsule(capsule), 1.0);
        let (l, r) = (2.0f32, 0.5f32);
        let rect_m = 2.0 * r * l;
        let disk_m = PI * r * r;
        assert_close(md.mass, rect_m + disk_m, 1e-6);
        assert_eq!(md.center, Vec2::new(0.0, 1.0));
        let d = 4.0 * r / (3.0 * PI);
        let expected =
            rect_m * (l * l + 4.0 * r * r) / 12.0 + disk_m * (r * r / 2.0 + l * l / 4.0 + l * d);
        assert_close(md.rotational_inertia, expected, 1e-6);
        // Cross-check by numerical integration over a fine grid.
        let capsule_distance = |p: Vec2| {
            let closest = Vec2::new(p.x.clamp(-0.5 * l, 0.5 * l), 1.0);
            (p - closest).length() - r
        };
        let grid = integrate_on_grid(
            capsule_distance,
            Vec2::new(-1.5, 0.5),
            Vec2::new(1.5, 1.5),
            Vec2::new(0.0, 1.0),
        );
        assert_close(md.mass, grid.0, 1e-3);
        assert_close(md.rotational_inertia, grid.1, 2e-3);
    }

    #[test]
    fn zero_length_capsule_is_a_disk() {
        let capsule = Capsule {
            center1: Vec2::ONE,
            center2: Vec2::ONE,
            radius: 0.7,
        };
        let circle = Circle {
            center: Vec2::ONE,
            radius: 0.7,
        };
        let a = compute_mass(&Shape::Capsule(capsule), 1.5);
        let b = compute_mass(&Shape::Circle(circle), 1.5);
        assert_close(a.mass, b.mass, 1e-6);
        assert_close(a.rotational_inertia, b.rotational_inertia, 1e-6);
    }

    #[test]
    fn rounded_box_area_is_exact_and_inertia_matches_integration() {
        let (hx, hy, r) = (1.0f32, 0.5f32, 0.25f32);
        let md = compute_mass(&Shape::Polygon(make_rounded_box(hx, hy, r).unwrap()), 1.0);
        let area = 4.0 * hx * hy + 2.0 * r * (2.0 * hx + 2.0 * hy) + PI * r * r;
        assert_close(md.mass, area, 1e-6);
        assert!(md.center.length() < 1e-6);
        // Exact inertia: core box, four edge slabs and four quarter disks (one full disk split
        // over the corners, each at distance (hx, hy) from the centre).
        let w = 2.0 * hx;
        let h = 2.0 * hy;
        let core = w * h * (w * w + h * h) / 12.0;
        let side_x = 2.0 * (r * h * (r * r + h * h) / 12.0 + r * h * (hx + r / 2.0).powi(2));
        let side_y = 2.0 * (w * r * (w * w + r * r) / 12.0 + w * r * (hy + r / 2.0).powi(2));
        // Quarter disk at corner (hx, hy) opening outward: about its apex, J = πr⁴/8 (quarter of
        // a disk's), first moment (2/3)r³ sin(π/4)·(1,1)/√2 = (r³/3)(1, 1).
        let corner_area = PI * r * r / 4.0;
        let corner = corner_area * (hx * hx + hy * hy)
            + 2.0 * (hx + hy) * r * r * r / 3.0
            + PI * r.powi(4) / 8.0;
        let exact = core + side_x + side_y + 4.0 * corner;
        assert_close(md.rotational_inertia, exact, 1e-5);
        let grid = integrate_on_grid(
            |p| {
                let q = (p.abs() - Vec2::new(hx, hy)).max(Vec2::ZERO);
                q.length() - r
            },
            Vec2::new(-hx - r, -hy - r),
            Vec2::new(hx + r, hy + r),
            Vec2::ZERO,
        );
        assert_close(md.mass, grid.0, 1e-3);
        assert_close(md.rotational_inertia, grid.1, 2e-3);
    }

    #[test]
    fn rounded_triangle_far_from_origin_matches_integration() {
        let offset = Vec2::new(5.0, -3.0);
        let points = [
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.2),
            Vec2::new(0.5, 1.5),
        ]
        .map(|p| p + offset);
        let r = 0.3;
        let polygon = make_polygon(&points, r).unwrap();
        let md = compute_mass(&Shape::Polygon(polygon), 2.0);
        let inside = |p: Vec2| {
            crate::geometry::point_in_shape(
                &Shape::Polygon(polygon),
                core_soa::Transform::IDENTITY,
                p,
            )
        };
        // Brute-force: integrate the indicator over a fine grid.
        let (lo, hi) = (offset + Vec2::splat(-0.4), offset + Vec2::new(2.4, 1.9));
        let n = 1200;
        let cell = (hi - lo) / n as f32;
        let (mut area, mut first) = (0.0f64, [0.0f64; 2]);
        let mut samples = Vec::new();
        for i in 0..n {
            for j in 0..n {
                let p = lo + Vec2::new((i as f32 + 0.5) * cell.x, (j as f32 + 0.5) * cell.y);
                if inside(p) {
                    samples.push(p);
                    area += 1.0;
                    first[0] += p.x as f64;
                    first[1] += p.y as f64;
                }
            }
        }
        let centre = Vec2::new((first[0] / area) as f32, (first[1] / area) as f32);
        let second: f64 = samples
            .iter()
            .map(|p| (*p - centre).length_squared() as f64)
            .sum();
        let cell_area = (cell.x * cell.y) as f64;
        assert_close(md.mass, (2.0 * area * cell_area) as f32, 2e-3);
        assert!(
            (md.center - centre).length() < 2e-3,
            "{:?} vs {centre:?}",
            md.center
        );
        assert_close(
            md.rotational_inertia,
            (2.0 * second * cell_area) as f32,
            3e-3,
        );
    }

    #[test]
    fn segments_have_no_mass() {
        let segment = Segment {
            point1: Vec2::ZERO,
            point2: Vec2::new(2.0, 0.0),
        };
        let md = compute_mass(&Shape::Segment(segment), 5.0);
        assert_eq!(
            md,
            MassData {
                mass: 0.0,
                center: Vec2::new(1.0, 0.0),
                rotational_inertia: 0.0
            }
        );
        let chain = ChainSegment {
            ghost1: Vec2::NEG_X,
            segment,
            ghost2: Vec2::new(3.0, 0.0),
            chain_id: 0,
        };
        assert_eq!(compute_mass(&Shape::ChainSegment(chain), 5.0).mass, 0.0);
    }

    /// Area and polar second moment about `about` of the region where `signed_distance < 0`,
    /// by the midpoint rule on a 1000 × 1000 grid over `[lo, hi]` (accumulated in f64).
    fn integrate_on_grid(
        signed_distance: impl Fn(Vec2) -> f32,
        lo: Vec2,
        hi: Vec2,
        about: Vec2,
    ) -> (f32, f32) {
        let n = 1000;
        let cell = (hi - lo) / n as f32;
        let (mut area, mut second) = (0.0f64, 0.0f64);
        for i in 0..n {
            for j in 0..n {
                let p = lo + Vec2::new((i as f32 + 0.5) * cell.x, (j as f32 + 0.5) * cell.y);
                if signed_distance(p) < 0.0 {
                    area += 1.0;
                    second += (p - about).length_squared() as f64;
                }
            }
        }
        let cell_area = (cell.x * cell.y) as f64;
        ((area * cell_area) as f32, (second * cell_area) as f32)
    }
}
