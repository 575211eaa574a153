//! # island — persistent islands, sleep timers and solver sets
//!
//! An island is a connected component of the graph whose vertices are dynamic bodies and whose
//! edges are the constraints that couple them: touching contacts and joints between two dynamic
//! bodies. (Static and kinematic bodies are not vertices: a crate resting on the ground must not
//! join every other crate on the ground into one island.) Islands are the unit of sleep: a
//! resting island moves out of the awake solver set and costs nothing per step until something
//! wakes it.
//!
//! Recomputing components every step would cost a pass over every awake constraint. Instead the
//! islands are *persistent* and updated incrementally:
//!
//! ```text
//!   link c(a,b)    a ∈ I, b ∈ J, I ≠ J  →  pour the smaller island into the larger   O(small)
//!   unlink c       I.constraint_remove_count += 1   (I may have fallen apart: a candidate)
//!   each step      split one candidate: union-find over its own bodies and constraints
//!
//!     [a]─c1─[b]   [d]          link c2(b,d)        [a]─c1─[b]─c2─[d]
//!      island 0    island 3     ───────────►         island 0 (3 poured in)
//!
//!     [a]─c1─[b]─c2─[d]         unlink c1           [a]   [b]─c2─[d]   (still island 0,
//!                               ───────────►         remove count 1; the split makes it
//!                                                    island 0 = {a}, new island = {b, d})
//! ```
//!
//! Only islands that matter are split: the one whose most rested body has rested longest
//! ([`IslandGraph::split_candidate`]). An island with pending removals may not sleep (it might be
//! two islands, one of them moving), and splitting the sleepiest candidate each step resolves
//! exactly those.
//!
//! ## A step, as the World drives it
//!
//! ```text
//!   contact begins touching (both dynamic)  graph.link(ConstraintKey::contact(i), a, b)
//!   contact stops touching                  graph.unlink(ConstraintKey::contact(i))
//!   finalize bodies                         graph.begin_sleep_pass();
//!                                           s = sleep_speed(|v|, ω, r, motion, dt);
//!                                           t = update_sleep_time(t, s, threshold, dt);
//!                                           graph.record_sleep_time(body, t)   (awake bodies)
//!   islands                                 if let Some(i) = graph.split_candidate(TIME_TO_SLEEP)
//!                                               { graph.split(i) }
//!                                           for i in graph.islands_ready_to_sleep(TIME_TO_SLEEP)
//!                                               { set = sets.sleep_island(&graph, i); move
//!                                                 graph.bodies(i), graph.constraints(i) there }
//!   wake (touch, joint, user edit)          island = sets.wake_set(set); move them back
//! ```
//!
//! The crate knows nothing of shapes, contacts or solvers: bodies and constraints are the
//! World's own stable `u32` indices, and a constraint is a [`ConstraintKey`] (contact or joint,
//! index). [`SolverSets`] keeps only the bookkeeping of which island sleeps in which set and
//! hands out set ids from a pool; the World moves the data.
//!
//! ## Modules
//!
//! - `island_graph`: islands, records, add/remove body, link (merge) and unlink.
//! - `split`: splitting a candidate into its connected components.
//! - `sleep`: the body timer, per-island aggregation, the split and sleep choices.
//! - `solver_set`: solver set ids and which island sleeps where.
//! - `validate`: whole-structure checks against brute-force components.
//!
//! Determinism: no hashing and no threads; islands live in a generational arena reused last-in
//! first-out, merges and splits follow fixed rules, and every list is returned in a fixed
//! order, so the same calls always produce the same ids and layouts.

#![forbid(unsafe_code)]

mod error;
mod island_graph;
mod sleep;
mod snapshot;
mod solver_set;
mod split;
mod validate;

#[cfg(test)]
mod tests;

pub use error::IslandError;
pub use island_graph::{ConstraintKey, ConstraintKind, IslandGraph, IslandId, LinkOutcome};
pub use sleep::{
    DEFAULT_SLEEP_THRESHOLD, IslandRest, TIME_TO_SLEEP, sleep_speed, update_sleep_time,
};
pub use solver_set::{SolverSetId, SolverSets};
