//! # island — persistent islands and sleep
//!
//! An island is a connected component of the graph whose vertices are dynamic bodies and whose
//! edges are touching contacts and joints. Islands are persistent: adding a constraint links two
//! islands (a union), removing one only marks its island as a candidate for splitting, and one
//! candidate is split per step by a traversal. This crate will own islands, their merge and
//! split, per-body sleep timers and the solver sets that sleeping islands move into, so that a
//! resting island costs nothing per step.
