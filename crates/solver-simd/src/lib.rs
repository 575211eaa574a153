//! # solver-simd — the constraint solver
//!
//! (Design essay to be completed.)
