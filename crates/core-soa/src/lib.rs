//! # core-soa — Prism's data model
//!
//! Everything the other crates agree on lives here: the plane's math (glam's `Vec2`, the
//! cosine/sine [`Rot`], the rigid [`Transform`]), generational ids and the pools that hand them
//! out, a [`BitSet`], and the three tiers in which a body is stored.
//!
//! "Structure of arrays" in Prism means one array per *access pattern*, not one array per float.
//! The solver gathers bodies at random through constraint indices, so the record it touches must
//! be a single aligned load:
//!
//! ```text
//!   Body       (cold)  ids, shapes, constraint lists, island link, user data, sleep settings
//!   BodySim    (warm)  transform, centre of mass, forces, mass and inertia, damping
//!   BodyState  (hot)   velocity, flags, delta position, delta rotation — 32 bytes, 32-aligned
//! ```
//!
//! Each tier is its own dense array with O(1) add and swap-remove; whoever refers into a dense
//! array (a body to its sim slot, a constraint to a body's state slot) is fixed up on removal.

pub mod bitset;
pub mod body;
pub mod body_state;
pub mod id;
pub mod math;

pub use bitset::BitSet;
pub use body_state::{BodyState, NULL_BODY, body_flags};
pub use glam::Vec2;
pub use math::{Rot, Transform, cross, cross_sv, cross_vs, left_perp, right_perp};
