//! The shape types. Every shape is stored in its body's local frame (relative to the body
//! origin, not the centre of mass).

use core_soa::Vec2;

/// The largest number of vertices a convex polygon may have.
pub const MAX_POLYGON_VERTICES: usize = 8;

/// A solid disk.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Circle {
    /// Centre of the disk in the body's frame (m).
    pub center: Vec2,
    /// Radius (m), positive.
    pub radius: f32,
}

/// A solid capsule: the set of points within `radius` of the segment `center1`–`center2`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule {
    /// One end of the core segment, in the body's frame (m).
    pub center1: Vec2,
    /// The other end of the core segment (m); distinct from `center1`.
    pub center2: Vec2,
    /// Radius of the rounding (m), positive: half the capsule's thickness.
    pub radius: f32,
}

/// A two-sided line segment (no area, no mass).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// The segment's first end, in the body's frame (m).
    pub point1: Vec2,
    /// The segment's second end (m).
    pub point2: Vec2,
}

/// A solid convex polygon with counter-clockwise vertices and outward unit normals,
/// `normals[i]` being the normal of the edge from `vertices[i]` to `vertices[i + 1]`.
/// A positive `radius` rounds it (the Minkowski sum with a disk).
/// Built by [`crate::hull::make_polygon`] and the `make_*box` helpers, never by hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Polygon {
    /// The vertices, counter-clockwise; only the first `count` are used.
    pub vertices: [Vec2; MAX_POLYGON_VERTICES],
    /// `normals[i]` is the outward unit normal of the edge `vertices[i]` → `vertices[i + 1]`.
    pub normals: [Vec2; MAX_POLYGON_VERTICES],
    /// The centroid of the polygon's area (before rounding), in the body's frame (m).
    pub centroid: Vec2,
    /// The rounding radius (m, 0 for a sharp polygon).
    pub radius: f32,
    /// Vertices in use: 3 to [`MAX_POLYGON_VERTICES`].
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
    /// The far end of the previous link (where the chain comes from).
    pub ghost1: Vec2,
    /// The link itself, the part that collides.
    pub segment: Segment,
    /// The far end of the next link (where the chain goes on).
    pub ghost2: Vec2,
    /// Which chain this link belongs to (for the caller's bookkeeping).
    pub chain_id: u32,
}

/// Any shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// A solid disk.
    Circle(Circle),
    /// A solid capsule.
    Capsule(Capsule),
    /// A two-sided segment.
    Segment(Segment),
    /// A solid convex polygon, possibly rounded.
    Polygon(Polygon),
    /// A one-sided link of a chain.
    ChainSegment(ChainSegment),
}

/// The kind of a shape, for dispatch tables and counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeKind {
    /// [`Shape::Circle`].
    Circle,
    /// [`Shape::Capsule`].
    Capsule,
    /// [`Shape::Segment`].
    Segment,
    /// [`Shape::Polygon`].
    Polygon,
    /// [`Shape::ChainSegment`].
    ChainSegment,
}

impl Shape {
    /// Which kind of shape this is.
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
