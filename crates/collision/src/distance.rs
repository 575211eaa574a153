//! # Distance between convex shapes (GJK)
//!
//! [`shape_distance`] finds the closest points of two convex shapes given as
//! [`ShapeProxy`]s, with the algorithm of Gilbert, Johnson and Keerthi ("A fast procedure for
//! computing the distance between complex objects in three-dimensional space", 1988) in the
//! two-dimensional, barycentric form Erin Catto presents in "Computing Distance using GJK"
//! (GDC 2010).
//!
//! ## The idea
//!
//! The distance between cores `A` and `B` is the distance from the origin to their Minkowski
//! difference `B − A = { b − a }`, a convex polygon whose vertices are differences of the two
//! shapes' points. GJK never builds that polygon. It keeps a *simplex* of at most three of its
//! vertices and repeats:
//!
//! ```text
//!   1. v ← the point of the simplex closest to the origin; drop the vertices not needed to
//!      express v (at most two remain in 2D unless the origin is inside a triangle).
//!   2. w ← the vertex of B − A farthest towards the origin:
//!          w = support_B(−v) − support_A(v)
//!   3. if w adds nothing (it is already in the simplex, or |v|² − v·w ≤ ε|v|²), stop:
//!      v is the closest point of B − A, and |v| is the distance.
//!   4. add w to the simplex.
//! ```
//!
//! `v = p_B − p_A` where `p_A`, `p_B` are the witness points on the two cores: the same
//! barycentric weights that express `v` in the simplex's vertices `w_i = b_i − a_i` give
//! `p_A = Σ λ_i a_i` and `p_B = Σ λ_i b_i`. The normal `v/|v|` points from A to B.
//!
//! Each step-1 case is a Voronoi-region test on the simplex. For a segment `w1 → w2` with
//! `e = w2 − w1`, the origin projects at `λ2 = −w1·e / e·e`: at or before `w1` when
//! `−w1·e ≤ 0`, at or past `w2` when `w2·e ≤ 0`, otherwise inside with weights
//! `λ1 = w2·e / e·e`, `λ2 = −w1·e / e·e`. The direction back to the origin is then computed
//! as the perpendicular of `e` scaled by `cross(w1, e)/e·e`, not as `−(λ1 w1 + λ2 w2)`: the
//! perpendicular keeps its accuracy when the origin is very close to the segment, where the
//! weighted sum cancels. A triangle adds the three sub-triangle areas as the weights of its
//! interior region; when the origin is inside, the cores overlap and the distance is zero.
//!
//! ## Radii
//!
//! The iteration runs on the cores only. With `use_radii`, the distance is reduced by both
//! radii (never below zero) and the witness points move out to the surfaces along the normal,
//! even when the rounded shapes overlap: the points then still move smoothly with the shapes.
//!
//! ## Warm starting
//!
//! A [`SimplexCache`] keeps the indices of the final simplex's vertices. Passed back in for
//! the next call on the same pair (the next time-of-impact iteration, or the next step), it
//! starts GJK at last time's answer, which for slowly moving shapes is already the answer:
//! the first support query finds nothing new and the call costs one iteration. A stale or
//! foreign cache is harmless: indices out of range are discarded and any start converges.
//!
//! ## Frames
//!
//! The iteration runs in A's frame, with B's points moved there once per call, so the
//! subtraction of nearly equal coordinates that decides the distance happens near the origin
//! even when both shapes sit far from the world origin. The results are mapped back to world
//! coordinates at the end.

use core_soa::{Transform, Vec2, cross, left_perp};

use crate::collide::closest_fractions;
use crate::proxy::ShapeProxy;
use crate::shapes::Shape;

/// GJK stops after this many support queries (it normally needs two to six; the bound only
/// guards against cycling on numerically tied supports).
const MAX_ITERATIONS: u32 = 20;

/// Stop when a new support point improves the lower bound on the distance by less than this
/// fraction of the distance (the `ε` of step 3 in the module notes).
const RELATIVE_PROGRESS: f32 = 1e-6;

/// The start of a GJK run: the vertex indices of the last simplex of a pair. `Default` (or
/// [`SimplexCache::EMPTY`]) is a cold start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimplexCache {
    count: u8,
    index_a: [u8; 3],
    index_b: [u8; 3],
}

impl SimplexCache {
    /// A cold start.
    pub const EMPTY: SimplexCache = SimplexCache {
        count: 0,
        index_a: [0; 3],
        index_b: [0; 3],
    };

    /// How many simplex vertices are cached (0 to 3; 3 only after an overlap).
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// Whether this is a cold start.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether `vertex` (by its pair of point indices) is one of the cached vertices.
    fn has(&self, vertex: SimplexVertex) -> bool {
        (0..self.count as usize)
            .any(|i| self.index_a[i] == vertex.index_a && self.index_b[i] == vertex.index_b)
    }
}

/// Two shapes placed in the world, for [`shape_distance`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistanceInput {
    /// Shape A in its body-local frame.
    pub proxy_a: ShapeProxy,
    /// Where A's body is.
    pub xf_a: Transform,
    /// Shape B in its body-local frame.
    pub proxy_b: ShapeProxy,
    /// Where B's body is.
    pub xf_b: Transform,
    /// Whether to measure between the rounded surfaces (true) or the cores (false).
    pub use_radii: bool,
}

impl DistanceInput {
    /// The input for two shapes placed by their bodies' transforms.
    pub fn from_shapes(
        shape_a: &Shape,
        xf_a: Transform,
        shape_b: &Shape,
        xf_b: Transform,
        use_radii: bool,
    ) -> DistanceInput {
        DistanceInput {
            proxy_a: ShapeProxy::from_shape(shape_a),
            xf_a,
            proxy_b: ShapeProxy::from_shape(shape_b),
            xf_b,
            use_radii,
        }
    }
}

/// The closest points of two shapes, in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistanceOutput {
    /// The closest point of A (on its rounded surface when `use_radii`, else on its core).
    pub point_a: Vec2,
    /// The closest point of B (likewise).
    pub point_b: Vec2,
    /// Unit normal from A to B. `Vec2::ZERO` when the cores overlap (no direction exists);
    /// valid whenever the cores are apart, even if the rounded shapes overlap.
    pub normal: Vec2,
    /// The distance between the shapes; zero when they overlap.
    pub distance: f32,
    /// Support queries used (0 when a warm start already contained the origin).
    pub iterations: u32,
}

/// The distance and closest points of two convex shapes (module notes). `cache` is read as a
/// warm start and overwritten with this call's final simplex.
pub fn shape_distance(input: &DistanceInput, cache: &mut SimplexCache) -> DistanceOutput {
    let relative = input.xf_a.inv_mul(input.xf_b);
    let local_b = input.proxy_b.transformed(relative);
    let core = core_distance(&input.proxy_a, &local_b, cache);
    let mut local = (core.point_a, core.point_b, core.distance);
    if input.use_radii {
        local = core.with_radii(input.proxy_a.radius(), input.proxy_b.radius());
    }
    let xf = input.xf_a;
    DistanceOutput {
        point_a: xf.apply(local.0),
        point_b: xf.apply(local.1),
        normal: xf.q.rotate(core.normal),
        distance: local.2,
        iterations: core.iterations,
    }
}

/// The closest points of two segments `p1–q1` and `p2–q2`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SegmentDistance {
    /// The closest point of the first segment, `p1 + fraction1·(q1 − p1)`.
    pub closest1: Vec2,
    /// The closest point of the second segment, `p2 + fraction2·(q2 − p2)`.
    pub closest2: Vec2,
    /// Where `closest1` lies along the first segment, in `[0, 1]`.
    pub fraction1: f32,
    /// Where `closest2` lies along the second segment, in `[0, 1]`.
    pub fraction2: f32,
    /// `|closest1 − closest2|²`.
    pub distance_squared: f32,
}

/// The closest points of segments `p1–q1` and `p2–q2`, in closed form (the minimum of the
/// convex quadratic `|p1 + s·d1 − p2 − t·d2|²` over the unit square; see the capsule contact
/// notes for the derivation). Degenerate segments are points.
pub fn segment_distance(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> SegmentDistance {
    let (d1, d2) = (q1 - p1, q2 - p2);
    let (fraction1, fraction2) = closest_fractions(p1, d1, p2, d2);
    let closest1 = p1 + fraction1 * d1;
    let closest2 = p2 + fraction2 * d2;
    SegmentDistance {
        closest1,
        closest2,
        fraction1,
        fraction2,
        distance_squared: closest1.distance_squared(closest2),
    }
}

/// The result of GJK on two cores given in one frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CoreDistance {
    pub point_a: Vec2,
    pub point_b: Vec2,
    /// Unit A→B, or zero when the cores overlap.
    pub normal: Vec2,
    pub distance: f32,
    pub iterations: u32,
}

impl CoreDistance {
    /// The surface points and the surface distance for radii `radius_a`, `radius_b`.
    pub fn with_radii(&self, radius_a: f32, radius_b: f32) -> (Vec2, Vec2, f32) {
        (
            self.point_a + radius_a * self.normal,
            self.point_b - radius_b * self.normal,
            (self.distance - radius_a - radius_b).max(0.0),
        )
    }
}

/// GJK between `a` and `b`, both given in the same frame (module notes).
pub(crate) fn core_distance(
    a: &ShapeProxy,
    b: &ShapeProxy,
    cache: &mut SimplexCache,
) -> CoreDistance {
    let mut simplex = Simplex::from_cache(cache, a, b);
    let mut iterations = 0;
    let toward_origin = loop {
        let previous = simplex.cache();
        let toward_origin = simplex.solve();
        if simplex.count == 3 || simplex.contains_origin(toward_origin) {
            *cache = simplex.cache();
            let (point_a, _) = simplex.witness_points();
            return CoreDistance {
                point_a,
                point_b: point_a,
                normal: Vec2::ZERO,
                distance: 0.0,
                iterations,
            };
        }
        if iterations == MAX_ITERATIONS {
            break toward_origin;
        }
        // v = −toward_origin: A's support along v, B's against it.
        let vertex = SimplexVertex::new(a, a.support(-toward_origin), b, b.support(toward_origin));
        iterations += 1;
        let progress = toward_origin.length_squared() + toward_origin.dot(vertex.w);
        if previous.has(vertex) || progress <= RELATIVE_PROGRESS * toward_origin.length_squared() {
            break toward_origin;
        }
        simplex.push(vertex);
    };
    *cache = simplex.cache();
    let (point_a, point_b) = simplex.witness_points();
    CoreDistance {
        point_a,
        point_b,
        normal: (-toward_origin).normalize_or_zero(),
        distance: point_a.distance(point_b),
        iterations,
    }
}

/// One vertex `w = b − a` of the Minkowski difference, with the shape points it came from.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct SimplexVertex {
    on_a: Vec2,
    on_b: Vec2,
    w: Vec2,
    /// Barycentric weight in the closest point (valid after `solve`).
    weight: f32,
    index_a: u8,
    index_b: u8,
}

impl SimplexVertex {
    fn new(a: &ShapeProxy, index_a: usize, b: &ShapeProxy, index_b: usize) -> SimplexVertex {
        let (on_a, on_b) = (a.point(index_a), b.point(index_b));
        SimplexVertex {
            on_a,
            on_b,
            w: on_b - on_a,
            weight: 1.0,
            index_a: index_a as u8,
            index_b: index_b as u8,
        }
    }

    fn same_points(&self, other: SimplexVertex) -> bool {
        self.index_a == other.index_a && self.index_b == other.index_b
    }
}

/// Up to three vertices of the Minkowski difference.
#[derive(Clone, Copy, Debug)]
struct Simplex {
    v: [SimplexVertex; 3],
    count: usize,
}

impl Simplex {
    /// The cached simplex, re-evaluated on the current shapes; a cold start (the pair of
    /// first points) when the cache is empty or does not fit these proxies.
    fn from_cache(cache: &SimplexCache, a: &ShapeProxy, b: &ShapeProxy) -> Simplex {
        let mut simplex = Simplex {
            v: [SimplexVertex::default(); 3],
            count: 0,
        };
        let fits = |i: usize| {
            (cache.index_a[i] as usize) < a.points().len()
                && (cache.index_b[i] as usize) < b.points().len()
        };
        if cache.count <= 3 && (0..cache.count as usize).all(fits) {
            for i in 0..cache.count as usize {
                let vertex =
                    SimplexVertex::new(a, cache.index_a[i] as usize, b, cache.index_b[i] as usize);
                if !simplex.has(vertex) {
                    simplex.push(vertex);
                }
            }
        }
        if simplex.count == 0 {
            simplex.push(SimplexVertex::new(a, 0, b, 0));
        }
        simplex
    }

    fn cache(&self) -> SimplexCache {
        let mut cache = SimplexCache {
            count: self.count as u8,
            ..SimplexCache::EMPTY
        };
        for (i, vertex) in self.v[..self.count].iter().enumerate() {
            cache.index_a[i] = vertex.index_a;
            cache.index_b[i] = vertex.index_b;
        }
        cache
    }

    fn has(&self, vertex: SimplexVertex) -> bool {
        self.v[..self.count].iter().any(|v| v.same_points(vertex))
    }

    fn push(&mut self, vertex: SimplexVertex) {
        self.v[self.count] = vertex;
        self.count += 1;
    }

    /// Keeps only `indices` (in that order), with the given weights.
    fn keep(&mut self, indices: &[usize], weights: &[f32]) {
        let old = self.v;
        for (slot, (&i, &weight)) in indices.iter().zip(weights).enumerate() {
            self.v[slot] = old[i];
            self.v[slot].weight = weight;
        }
        self.count = indices.len();
    }

    /// Reduces the simplex to the vertices that express its point closest to the origin, sets
    /// their weights, and returns the vector from that point to the origin (zero if the
    /// origin is inside a triangle).
    fn solve(&mut self) -> Vec2 {
        match self.count {
            1 => {
                self.v[0].weight = 1.0;
                -self.v[0].w
            }
            2 => self.solve_segment(0, 1),
            _ => self.solve_triangle(),
        }
    }

    /// The closest point of the segment `v[i] → v[j]` (module notes).
    fn solve_segment(&mut self, i: usize, j: usize) -> Vec2 {
        let (w1, w2) = (self.v[i].w, self.v[j].w);
        let e = w2 - w1;
        let weight2 = -w1.dot(e);
        if weight2 <= 0.0 {
            self.keep(&[i], &[1.0]);
            return -w1;
        }
        let weight1 = w2.dot(e);
        if weight1 <= 0.0 {
            self.keep(&[j], &[1.0]);
            return -w2;
        }
        let length_squared = weight1 + weight2; // = e·e
        self.keep(
            &[i, j],
            &[weight1 / length_squared, weight2 / length_squared],
        );
        (cross(w1, e) / length_squared) * left_perp(e)
    }

    /// The closest point of the triangle `v[0] v[1] v[2]`: its vertex, edge or interior
    /// region, tested in the order that makes each test's preconditions hold.
    fn solve_triangle(&mut self) -> Vec2 {
        let (w1, w2, w3) = (self.v[0].w, self.v[1].w, self.v[2].w);
        let (e12, e13, e23) = (w2 - w1, w3 - w1, w3 - w2);
        // Segment weights (unnormalised): u_ij for the first end, v_ij for the second.
        let (u12, v12) = (w2.dot(e12), -w1.dot(e12));
        let (u13, v13) = (w3.dot(e13), -w1.dot(e13));
        let (u23, v23) = (w3.dot(e23), -w2.dot(e23));
        // Triangle weights: the signed sub-areas opposite each vertex, times the orientation.
        let area = cross(e12, e13);
        let (t1, t2, t3) = (
            area * cross(w2, w3),
            area * cross(w3, w1),
            area * cross(w1, w2),
        );
        if v12 <= 0.0 && v13 <= 0.0 {
            self.keep(&[0], &[1.0]);
            return -w1;
        }
        if u12 > 0.0 && v12 > 0.0 && t3 <= 0.0 {
            return self.solve_segment(0, 1);
        }
        if u13 > 0.0 && v13 > 0.0 && t2 <= 0.0 {
            return self.solve_segment(0, 2);
        }
        if u12 <= 0.0 && v23 <= 0.0 {
            self.keep(&[1], &[1.0]);
            return -w2;
        }
        if u13 <= 0.0 && u23 <= 0.0 {
            self.keep(&[2], &[1.0]);
            return -w3;
        }
        if u23 > 0.0 && v23 > 0.0 && t1 <= 0.0 {
            return self.solve_segment(1, 2);
        }
        let total = t1 + t2 + t3;
        let weights = if total > 0.0 {
            [t1 / total, t2 / total, t3 / total]
        } else {
            [1.0 / 3.0; 3]
        };
        self.keep(&[0, 1, 2], &weights);
        Vec2::ZERO
    }

    /// Whether the origin lies on the simplex to within rounding (a segment or point through
    /// the origin: the cores touch or overlap and no normal is defined).
    fn contains_origin(&self, toward_origin: Vec2) -> bool {
        let scale = self.v[..self.count]
            .iter()
            .map(|v| v.w.length_squared())
            .fold(0.0f32, f32::max);
        toward_origin.length_squared() <= f32::EPSILON * f32::EPSILON * scale.max(f32::MIN_POSITIVE)
    }

    /// The witness points `Σ λ_i a_i` and `Σ λ_i b_i`.
    fn witness_points(&self) -> (Vec2, Vec2) {
        self.v[..self.count]
            .iter()
            .fold((Vec2::ZERO, Vec2::ZERO), |(pa, pb), v| {
                (pa + v.weight * v.on_a, pb + v.weight * v.on_b)
            })
    }
}

#[cfg(test)]
mod tests;
