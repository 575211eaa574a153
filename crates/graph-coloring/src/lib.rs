//! # graph-coloring — persistent colours of the constraint graph
//!
//! Bodies are the vertices of the constraint graph and touching contacts and joints its edges.
//! A *colour* is a set of constraints of which no two share a dynamic body, so every constraint
//! of a colour can be solved at the same time: in the lanes of one wide SIMD bundle, and in
//! parallel blocks across threads. This crate will own the colours: assignment when a constraint
//! begins touching, release when it stops, a bitset of dynamic bodies per colour (static bodies
//! take no bit and so never block a colour), the overflow set for constraints that find no
//! colour, and a `validate` check of the colour invariant.
