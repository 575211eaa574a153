//! The shape types. Every shape is stored in its body's local frame (relative to the body
//! origin, not the centre of mass).

use core_soa::Vec2;

/// The largest number of vertices a convex polygon may have.
pub const MAX_POLYGON_VERTICES: usize = 8;

/// A solid disk.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Circle {
    pub center: Vec2,
    pub radius: f32,
}

/// A solid capsule: the set of points within `radius` of the segment `center1`–`center2`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule {
    pub center1: Vec2,
    pub center2: Vec2,
    pub radius: f32,
}

/// A two-sided line segment (no area, no mass).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    pub point1: Vec2,
    pub point2: Vec2,
}

/// A solid convex polygon with counter-clockwise vertices and outward unit normals,
/// `normals[i]` being the normal of the edge from `vertices[i]` to `vertices[i + 1]`.
/// A positive `radius` rounds it (the Minkowski sum with a disk).
/// Built by [`crate::hull::make_polygon`] and the `make_*box` helpers, never by hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Polygon {
    pub vertices: [Vec2; MAX_POLYGON_VERTICES],
    pub normals: [Vec2; MAX_POLYGON_VERTICES],
    pub centroid: Vec2,
    pub radius: f32,
    pub count: usize,
}

impl Polygon {
    /// The vertices in use.
    #[inline]
    pub fn verts(&self) -> &[Vec2] {
        &self.vertices[..self.count]
    }
}

/// One link of a chain: a one-sided segment that collides only on its right side (its normal
/// is the right perpendicular of `point1 → point2`, so a clockwise loop holds bodies inside it,
/// as the spinner scene's container does) and that knows its neighbours' far vertices
/// (`ghost1` before `point1`, `ghost2` after `point2`), so that a body sliding across a join
/// does not catch on the inner vertex.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChainSegment {
    pub ghost1: Vec2,
    pub segment: Segment,
    pub ghost2: Vec2,
    /// Which chain this link belongs to (for the caller's bookkeeping).
    pub chain_id: u32,
}

/// Any shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    Circle(Circle),
    Capsule(Capsule),
    Segment(Segment),
    Polygon(Polygon),
    ChainSegment(ChainSegment),
}

/// The kind of a shape, for dispatch tables and counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeKind {
    Circle,
    Capsule,
    Segment,
    Polygon,
    ChainSegment,
}

impl Shape {
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Circle(_) => ShapeKind::Circle,
            Shape::Capsule(_) => ShapeKind::Capsule,
            Shape::Segment(_) => ShapeKind::Segment,
            Shape::Polygon(_) => ShapeKind::Polygon,
            Shape::ChainSegment(_) => ShapeKind::ChainSegment,
        }
    }
}
