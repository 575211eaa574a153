//! # graph-coloring — persistent colours of the constraint graph
//!
//! Bodies are the vertices of the constraint graph and touching contacts and joints its edges.
//! A *colour* is a set of constraints of which no two share a dynamic body, so every constraint
//! of a colour can be solved at the same time: in the lanes of one wide SIMD bundle, and in
//! parallel blocks across threads, with no two lanes writing the same body.
//!
//! ```text
//!              colour 0        colour 1      ...   colour 22        colour 23       overflow
//!   bodies   {1,2,5,6,..}    {2,3,6,7,..}          {..}             {1,4,9,..}
//!   contacts [c0 c4 c9 ..]   [c1 c5 ..]            [..]             [g0 g1 g2 ..]   [c77 ..]
//!   joints   [j2 ..]         [j0 ..]               [..]             [..]            [..]
//!            ───── two dynamic bodies: search from the front ───▶
//!                                       ◀─── one static body: search from the back ──
//! ```
//!
//! Colours are *persistent*: a constraint is given a colour when it begins touching (or when a
//! joint is created between awake bodies) and keeps it until it is removed. Nothing is
//! recoloured from scratch each step, so the cost of colouring follows the number of contacts
//! that begin or end touching, not the number that touch. Each colour keeps a [`BitSet`] of the
//! dynamic bodies its constraints hold; a constraint fits a colour when none of its dynamic
//! bodies is in that set. Static and kinematic bodies take no bit: the solver never writes them,
//! so any number of constraints of one colour may share them.
//!
//! Placement policy (see [`ColoringPolicy`]):
//! - A constraint between two dynamic bodies takes the first colour, from colour 0 upwards,
//!   that holds neither body. Greedy first-fit keeps the front colours large, which keeps the
//!   SIMD bundles full.
//! - A constraint with one static body takes the *last* colour that does not hold its dynamic
//!   body, searching downwards but not below a small reserved front range. Such a constraint
//!   needs only one free bit, so it fits almost anywhere; placed at the back, it does not take
//!   bits in the front colours that a later two-dynamic constraint on the same body would need.
//! - A constraint that finds no colour goes to the *overflow* set, which the solver handles with
//!   its scalar path (one constraint at a time, no colour invariant needed).
//! - A constraint with no dynamic body is the caller's bug (it constrains nothing the solver may
//!   move); it trips a `debug_assert!` and is parked in the overflow set in release builds so the
//!   graph stays consistent and removable.
//!
//! Contacts and joints are two *kinds* of entry ([`ConstraintKind`]) that share the colours'
//! body sets but are kept in separate handle lists, because the solver packs and solves them
//! separately (contacts in wide bundles, joints in their own kernels). Handles are the caller's
//! `u32` indices into its own contact or joint arrays; the graph stores them densely per colour
//! and tells the caller, on removal, which handle moved into the hole ([`Moved`]).
//!
//! Determinism: placement depends only on the sequence of `add` and `remove` calls (no hashing,
//! no threads), so the same sequence always gives the same layout.
//!
//! Checking: [`ConstraintGraph::validate`] recomputes the whole colour invariant from the
//! handles. It is always compiled (tests use it) but costs a pass over every constraint, so the
//! engine calls it only when its `validate` feature is on; this crate's `validate` feature is
//! the switch it forwards.
//!
//! [`BitSet`]: core_soa::BitSet

#![forbid(unsafe_code)]

mod constraint_graph;
mod snapshot;
mod validate;

pub use constraint_graph::{
    ColorIndex, ColoringPolicy, ConstraintGraph, ConstraintKind, Endpoint, GRAPH_COLOR_COUNT,
    Moved, Slot,
};

#[cfg(test)]
mod tests;
