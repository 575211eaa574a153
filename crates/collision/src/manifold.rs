//! Contact manifolds: the result types (the pair functions live in [`crate::collide`](mod@crate::collide) and its
//! files `collide/*.rs`).

use core_soa::Vec2;

/// The speculative distance: points are kept while their separation is below this
/// (4 × linear slop of 0.005 m).
pub const SPECULATIVE_DISTANCE: f32 = 4.0 * 0.005;

/// The linear slop (m): the overlap the solver leaves alone.
pub const LINEAR_SLOP: f32 = 0.005;

/// One contact point.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ManifoldPoint {
    /// The contact point in world coordinates (midway between the two surfaces).
    pub point: Vec2,
    /// The point relative to body A's origin, in world orientation (`point − xf_a.p`).
    pub anchor_a: Vec2,
    /// The point relative to body B's origin, in world orientation (`point − xf_b.p`).
    pub anchor_b: Vec2,
    /// Signed distance along the normal; negative when overlapping.
    pub separation: f32,
    /// Feature id from the clipping (which edges/vertices made this point); the contact cache
    /// matches points across steps by it.
    pub id: u16,
    /// Accumulated normal impulse (filled in and carried by the contact cache / solver).
    pub normal_impulse: f32,
    /// Accumulated tangent (friction) impulse.
    pub tangent_impulse: f32,
    /// Largest normal impulse applied during the last step (for events and breaking).
    pub max_normal_impulse: f32,
    /// Relative normal velocity before the solve (for restitution).
    pub normal_velocity: f32,
    /// Whether this point persisted from the previous step (matched by id).
    pub persisted: bool,
}

/// Up to two contact points sharing one normal.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Manifold {
    /// Unit normal pointing from shape A to shape B, in world coordinates.
    pub normal: Vec2,
    /// The contact points; only the first `point_count` are meaningful.
    pub points: [ManifoldPoint; 2],
    /// How many of `points` are in use: 0 (not touching), 1 or 2.
    pub point_count: usize,
}

impl Manifold {
    /// The points in use.
    #[inline]
    pub fn points(&self) -> &[ManifoldPoint] {
        &self.points[..self.point_count]
    }

    /// The points in use, for updating them in place (impulses, anchors).
    #[inline]
    pub fn points_mut(&mut self) -> &mut [ManifoldPoint] {
        &mut self.points[..self.point_count]
    }
}

/// Builds a feature id from the clipping's edge/vertex indices: reference feature in the low
/// byte, incident feature in the high byte.
#[inline]
pub const fn make_id(a: u8, b: u8) -> u16 {
    (a as u16) | ((b as u16) << 8)
}
