//! # collision — shapes, mass, queries and contact manifolds
//!
//! (Design essay to be completed.)

pub mod aabb;
pub mod chain;
pub mod collide;
pub mod geometry;
pub mod hull;
pub mod manifold;
pub mod mass;
pub mod raycast;
pub mod shapes;
pub mod tree;

pub use aabb::Aabb;
pub use manifold::{LINEAR_SLOP, Manifold, ManifoldPoint, SPECULATIVE_DISTANCE};
pub use shapes::{Capsule, ChainSegment, Circle, MAX_POLYGON_VERTICES, Polygon, Segment, Shape, ShapeKind};
