//! # prism — a data-oriented 2D rigid-body physics engine
//!
//! (Design essay to be completed.)
