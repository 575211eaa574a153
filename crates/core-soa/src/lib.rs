//! # core-soa — Prism's data model
//!
//! Everything the other crates agree on lives here: the plane's math (glam's `Vec2`, the
//! cosine/sine [`Rot`], the rigid [`Transform`]), generational ids and the pools that hand them
//! out, a [`BitSet`], and the three tiers in which a body is stored.
//!
//! The math includes Prism's own sine, cosine, arctangent and hypotenuse
//! ([`math::sin_cos`], [`math::atan2`], [`math::hypot`]; `math/trig.rs` explains them). The
//! platform's libm rounds those differently from one platform to the next; these are built
//! only from operations IEEE 754 rounds exactly (`+ − × ÷ √` and integer arithmetic), so a
//! rotation made from an angle, or an angle measured from a rotation, has the same bits on
//! every machine. Every use of them in the engine goes through these functions.
//!
//! "Structure of arrays" in Prism means one array per *access pattern*, not one array per float.
//! The solver gathers bodies at random through constraint indices, so the record it touches must
//! be a single aligned load:
//!
//! ```text
//!   Body       (cold)  ids, shapes, constraint lists, user data — the engine's own record
//!   BodySim    (warm)  transform, centre of mass, forces, mass and inertia, damping, extent,
//!                      sleep timer
//!   BodyState  (hot)   velocity, flags, delta position, delta rotation — 32 bytes, 32-aligned
//! ```
//!
//! Each tier is its own dense array with O(1) add and swap-remove; whoever refers into a dense
//! array (a body to its sim slot, a constraint to a body's state slot) is fixed up on removal.
//! [`BodyArrays`] holds one solver set's `BodySim`s and `BodyState`s side by side and reports,
//! on every swap-remove, which body moved into the hole, so the index its cold record keeps can
//! be rewritten.
//!
//! Objects users name (bodies, shapes, joints, contacts) live in an [`Arena`] and are named by
//! 8-byte generational handles ([`BodyId`], [`ShapeId`], [`JointId`], [`ContactId`]): an index
//! plus the generation of the slot it was issued for. Removing an object bumps its slot's
//! generation, so an old handle is detected as stale — never silently redirected to whatever
//! reuses the slot. Freed slots are reused last-in first-out, and everything iterates in index
//! order, so the same sequence of calls yields the same ids on every run. [`IdPool`] hands out
//! plain dense indices for tables that keep their own storage.

pub mod bitset;
pub mod body;
pub mod body_state;
pub mod id;
pub mod math;
pub mod shared;
pub mod snapshot;
pub mod spare;

#[cfg(test)]
mod test_rng;

pub use bitset::BitSet;
pub use body::{BodyArrays, BodySim, BodyType, NULL_INDEX, RemovedBody};
pub use body_state::{BodyState, NULL_BODY, body_flags};
pub use glam::Vec2;
pub use id::{Arena, ArenaKey, BodyId, ContactId, Id, IdPool, JointId, ShapeId};
pub use math::{Rot, Transform, cross, cross_sv, cross_vs, left_perp, right_perp};
pub use shared::SharedSlice;
pub use spare::release_spare;
