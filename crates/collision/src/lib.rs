//! # collision — shapes, mass, queries and contact manifolds
//!
//! Everything geometric that the World needs, with no knowledge of bodies, solvers or threads:
//!
//! ```text
//!   shapes ──► mass (density → mass, centre, inertia)      hull: points → convex polygon
//!     │    ──► geometry (AABB, centroid, extent)           chain: points → one-sided links
//!     │    ──► raycast (hit point, normal, fraction)
//!     │    ──► point_query (closest boundary point, signed distance)
//!     │
//!     ├──► proxy: ≤ 8 points + radius ──► distance: GJK closest points, warm-start cache
//!     │                                      ├──► overlap: exact shape–shape test
//!     │                                      ├──► shape_cast: translation → fraction, point, normal
//!     │                                      ├──► toi: time of impact of two sweeps
//!     │                                      │    (translation + rotation over a step)
//!     │                                      └──► mover: a character capsule's planes and the
//!     │                                           plane solver for its move
//!     ├──► tree: dynamic AABB tree of fattened boxes (broadphase, ray and box queries)
//!     └──► collide: manifold of ≤ 2 points per shape pair, each with a feature id
//! ```
//!
//! Shapes are stored in their body's local frame and every function takes the transform of the
//! body origin. A manifold's normal points from shape A to shape B; each point carries its
//! anchors relative to both body origins, its separation (negative when overlapping), and a
//! feature id built from the clipping's edge indices. The id is what makes warm starting work:
//! while the same two features touch, the same physical point keeps the same id from step to
//! step, so the World's contact cache can hand the solver last step's accumulated impulses.
//!
//! Points are kept up to a *speculative* distance (4 × linear slop): a point that is about to
//! touch is already in the manifold, and the solver only lets the bodies close that gap within
//! the step, which removes most of the need for continuous collision between slow bodies.
//!
//! For fast bodies and for queries, every convex shape is also seen as a [`ShapeProxy`]: the
//! convex hull of at most eight points grown by a radius, which is all the distance routine
//! needs. On that one routine stand the exact overlap test, the shape cast (conservative
//! advancement along a translation, where the distance is convex and the advancement is
//! Newton's method) and the time of impact (conservative advancement over a sweep that also
//! turns, bounded by the turning rate). Proxies live on the stack and none of these routines
//! allocates. The shape-level entry points ([`shape_cast`](fn@shape_cast),
//! [`shape_time_of_impact`]) treat a chain segment as one-sided, as the contact code does.

pub mod aabb;
pub mod chain;
pub mod collide;
pub mod distance;
pub mod geometry;
pub mod hull;
pub mod manifold;
pub mod mass;
pub mod mover;
pub mod overlap;
pub mod point_query;
pub mod proxy;
pub mod raycast;
pub mod shape_cast;
pub mod shapes;
mod snapshot;
pub mod toi;
pub mod tree;

#[cfg(test)]
mod test_support;

pub use aabb::Aabb;
pub use chain::{ChainError, make_chain};
pub use collide::collide;
pub use distance::{
    DistanceInput, DistanceOutput, SegmentDistance, SimplexCache, segment_distance, shape_distance,
};
pub use geometry::{
    compute_aabb, point_in_shape, shape_centroid, shape_extent, shape_inner_radius,
};
pub use hull::{
    HullError, MIN_HALF_EXTENT, check_polygon, make_box, make_offset_box, make_polygon,
    make_rounded_box, make_square,
};
pub use manifold::{LINEAR_SLOP, Manifold, ManifoldPoint, SPECULATIVE_DISTANCE};
pub use mass::{MassData, compute_mass};
pub use mover::{
    CollisionPlane, MoverContact, Plane, PlaneSolverResult, clip_vector, collide_mover,
    solve_planes,
};
pub use overlap::{proxies_overlap, proxy_overlaps_shape, shapes_overlap};
pub use point_query::{PointDistance, shape_point_distance};
pub use proxy::{ProxyError, ShapeProxy};
pub use raycast::{RayCastInput, RayHit, ray_cast_aabb, ray_cast_shape};
pub use shape_cast::{CastHit, ShapeCastInput, ShapeCastPairInput, shape_cast, shape_cast_pair};
pub use shapes::{
    Capsule, ChainSegment, Circle, MAX_POLYGON_VERTICES, Polygon, Segment, Shape, ShapeKind,
};
pub use toi::{Sweep, ToiInput, ToiOutput, ToiState, shape_time_of_impact, time_of_impact};
