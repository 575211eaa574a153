//! # Contact manifolds for every pair of shapes
//!
//! [`collide`] takes two shapes in their bodies' local frames and the transforms of the two body
//! origins, and returns a [`Manifold`]: one unit normal pointing from shape A to shape B and at
//! most two points, each with its separation (negative when the shapes overlap), its anchors
//! relative to both body origins and a feature id.
//!
//! ## One frame, then world
//!
//! Every pair function works in the local frame of body A: shape B is moved there with
//! `xf_a.inv_mul(xf_b)`. Near the origin of A the coordinates are small, so the subtraction of
//! nearly equal numbers that decides a contact loses no precision even when the bodies sit far
//! from the world origin. The result is a `LocalManifold` (normal and points in A's frame), and
//! `LocalManifold::to_world` rotates it back and builds the anchors:
//!
//! ```text
//!   anchor_a = R_a · p_local          point    = xf_a.p + anchor_a
//!   anchor_b = anchor_a + (xf_a.p − xf_b.p)
//! ```
//!
//! `anchor_b` is formed from the difference of the two body positions rather than from the world
//! point, again to avoid cancelling two large coordinates.
//!
//! ## The families
//!
//! ```text
//!   round.rs     circle–circle, capsule–circle, segment–circle, polygon–circle
//!   capsules.rs  capsule–capsule, segment–capsule (closest points of two segments)
//!   polygons.rs  polygon–polygon (SAT + clipping), polygon–capsule, segment–polygon
//!   chain.rs     one-sided chain segment against circle, capsule and polygon
//! ```
//!
//! A capsule is a segment with a radius and a segment is a capsule of radius zero, so the
//! polygon path also serves capsules and segments by viewing them as two-vertex polygons (see
//! `two_gon`). Two zero-area shapes (segments and chain segments) never collide.
//!
//! ## Feature ids
//!
//! A point's id names the features that produced it: the low byte is the feature (vertex or edge
//! index) on shape A and the high byte the feature on shape B ([`make_id`]). While the same two
//! features touch the id stays the same from step to step, which lets the contact cache carry the
//! accumulated impulses across steps (warm starting). When a pair is evaluated in swapped order,
//! the two bytes are swapped back so the id always reads "A feature, B feature".

mod capsules;
mod chain;
mod polygons;
mod round;
#[cfg(test)]
mod tests;

pub(crate) use capsules::closest_fractions;
pub use capsules::{collide_capsules, collide_segment_and_capsule};
pub use chain::{
    collide_chain_segment_and_capsule, collide_chain_segment_and_circle,
    collide_chain_segment_and_polygon,
};
pub use polygons::{collide_polygon_and_capsule, collide_polygons, collide_segment_and_polygon};
pub use round::{
    collide_capsule_and_circle, collide_circles, collide_polygon_and_circle,
    collide_segment_and_circle,
};

use crate::manifold::{LINEAR_SLOP, Manifold, ManifoldPoint, SPECULATIVE_DISTANCE, make_id};
use crate::shapes::{Capsule, Circle, MAX_POLYGON_VERTICES, Polygon, Shape};
use core_soa::{Transform, Vec2, right_perp};

/// The contact manifold between two shapes given in their bodies' local frames, placed by the
/// transforms of the body origins. The normal points from A to B (world frame). Each point's
/// `anchor_a` = point − xf_a.p and `anchor_b` = point − xf_b.p (world orientation), its
/// `separation` (negative = overlap), and a feature id that stays the same while the same
/// features touch. Points are kept while separation < SPECULATIVE_DISTANCE. Impulse fields are 0.
/// Any order of shape kinds works (swap internally and flip the normal/anchors/ids as needed).
/// Pairs that never collide (segment or chain segment against segment or chain segment) give an
/// empty manifold.
pub fn collide(shape_a: &Shape, xf_a: Transform, shape_b: &Shape, xf_b: Transform) -> Manifold {
    use Shape::{Capsule, ChainSegment, Circle, Polygon, Segment};
    match (shape_a, shape_b) {
        (Circle(a), Circle(b)) => collide_circles(a, xf_a, b, xf_b),
        (Capsule(a), Circle(b)) => collide_capsule_and_circle(a, xf_a, b, xf_b),
        (Capsule(a), Capsule(b)) => collide_capsules(a, xf_a, b, xf_b),
        (Polygon(a), Circle(b)) => collide_polygon_and_circle(a, xf_a, b, xf_b),
        (Polygon(a), Capsule(b)) => collide_polygon_and_capsule(a, xf_a, b, xf_b),
        (Polygon(a), Polygon(b)) => collide_polygons(a, xf_a, b, xf_b),
        (Segment(a), Circle(b)) => collide_segment_and_circle(a, xf_a, b, xf_b),
        (Segment(a), Capsule(b)) => collide_segment_and_capsule(a, xf_a, b, xf_b),
        (Segment(a), Polygon(b)) => collide_segment_and_polygon(a, xf_a, b, xf_b),
        (ChainSegment(a), Circle(b)) => collide_chain_segment_and_circle(a, xf_a, b, xf_b),
        (ChainSegment(a), Capsule(b)) => collide_chain_segment_and_capsule(a, xf_a, b, xf_b),
        (ChainSegment(a), Polygon(b)) => collide_chain_segment_and_polygon(a, xf_a, b, xf_b),
        (Segment(_) | ChainSegment(_), Segment(_) | ChainSegment(_)) => Manifold::default(),
        // Every remaining pair is one of the above with the roles exchanged.
        (Circle(_), _) | (Capsule(_), _) | (Polygon(_), _) => {
            flipped(collide(shape_b, xf_b, shape_a, xf_a))
        }
    }
}

/// The manifold of the pair (B, A) turned into the manifold of (A, B): the normal reverses, the
/// anchors exchange roles and the id bytes swap so the low byte still names A's feature. Points
/// and separations are symmetric and stay as they are.
fn flipped(mut manifold: Manifold) -> Manifold {
    manifold.normal = -manifold.normal;
    for point in manifold.points_mut() {
        std::mem::swap(&mut point.anchor_a, &mut point.anchor_b);
        point.id = point.id.rotate_left(8);
    }
    manifold
}

/// A contact point in the local frame of body A, before anchors are built.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct LocalPoint {
    /// Midway between the two surfaces, in A's frame.
    pub point: Vec2,
    pub separation: f32,
    pub id: u16,
}

/// A manifold in the local frame of body A. Points are only accepted while their separation
/// is below the speculative distance, so every constructor path applies the same rule.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct LocalManifold {
    pub normal: Vec2,
    pub points: [LocalPoint; 2],
    pub count: usize,
}

impl LocalManifold {
    pub fn new(normal: Vec2) -> LocalManifold {
        LocalManifold {
            normal,
            ..LocalManifold::default()
        }
    }

    /// The manifold with the single point midway between the surface point `on_a` of A and
    /// `on_b` of B, whose separation is measured along `normal`.
    pub fn single(normal: Vec2, on_a: Vec2, on_b: Vec2, id: u16) -> LocalManifold {
        let mut manifold = LocalManifold::new(normal);
        manifold.push(0.5 * (on_a + on_b), (on_b - on_a).dot(normal), id);
        manifold
    }

    /// Adds a point if it is within the speculative distance (and there is room).
    pub fn push(&mut self, point: Vec2, separation: f32, id: u16) {
        if separation < SPECULATIVE_DISTANCE && self.count < 2 {
            self.points[self.count] = LocalPoint {
                point,
                separation,
                id,
            };
            self.count += 1;
        }
    }

    /// The world-frame manifold: normal rotated by A's rotation, points placed by A's transform,
    /// anchors relative to both body origins (see the module notes).
    pub fn to_world(self, xf_a: Transform, xf_b: Transform) -> Manifold {
        let mut manifold = Manifold {
            normal: xf_a.q.rotate(self.normal),
            ..Manifold::default()
        };
        let origin_offset = xf_a.p - xf_b.p;
        for (local, out) in self.points[..self.count]
            .iter()
            .zip(manifold.points.iter_mut())
        {
            let anchor_a = xf_a.q.rotate(local.point);
            *out = ManifoldPoint {
                point: xf_a.p + anchor_a,
                anchor_a,
                anchor_b: anchor_a + origin_offset,
                separation: local.separation,
                id: local.id,
                ..ManifoldPoint::default()
            };
        }
        manifold.point_count = self.count;
        manifold
    }

    /// The same contact seen from the other shape: normal reversed, id bytes swapped.
    pub fn flipped(mut self) -> LocalManifold {
        self.normal = -self.normal;
        for point in &mut self.points[..self.count] {
            point.id = point.id.rotate_left(8);
        }
        self
    }
}

/// A segment `p1 → p2` seen as a polygon with two vertices and two opposite edges, rounded by
/// `radius`. Edge 0 runs `p1 → p2` with outward normal the right perpendicular of that direction
/// (the counter-clockwise rule), edge 1 runs back with the opposite normal. A degenerate segment
/// (both points equal) gets an arbitrary but unit normal so the clipping code stays finite.
pub(crate) fn two_gon(p1: Vec2, p2: Vec2, radius: f32) -> Polygon {
    let normal = right_perp(p2 - p1).try_normalize().unwrap_or(Vec2::Y);
    let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    let mut normals = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    vertices[0] = p1;
    vertices[1] = p2;
    normals[0] = normal;
    normals[1] = -normal;
    Polygon {
        vertices,
        normals,
        centroid: 0.5 * (p1 + p2),
        radius,
        count: 2,
    }
}

/// Whether `polygon` has a vertex count the pair functions can work with. Polygons come from
/// the hull builder, which guarantees it; a hand-made one outside the range gives no contact
/// instead of an out-of-bounds index.
pub(crate) fn has_valid_count(polygon: &Polygon) -> bool {
    (2..=MAX_POLYGON_VERTICES).contains(&polygon.count)
}

/// A capsule whose core is shorter than the linear slop has no reliable direction: it is the
/// circle at its midpoint.
pub(crate) fn capsule_as_circle(capsule: &Capsule) -> Option<Circle> {
    let core = capsule.center2 - capsule.center1;
    (core.length_squared() < LINEAR_SLOP * LINEAR_SLOP).then(|| Circle {
        center: 0.5 * (capsule.center1 + capsule.center2),
        radius: capsule.radius,
    })
}

/// `polygon` moved by `xf` (vertices, normals and centroid).
pub(crate) fn transformed_polygon(polygon: &Polygon, xf: Transform) -> Polygon {
    let mut moved = *polygon;
    for i in 0..polygon.count {
        moved.vertices[i] = xf.apply(polygon.vertices[i]);
        moved.normals[i] = xf.q.rotate(polygon.normals[i]);
    }
    moved.centroid = xf.apply(polygon.centroid);
    moved
}

/// The feature id of a single point made by vertex `a` of A and feature `b` of B.
#[inline]
pub(crate) fn feature_id(a: usize, b: usize) -> u16 {
    make_id(a as u8, b as u8)
}
