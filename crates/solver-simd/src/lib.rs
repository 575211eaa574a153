//! # solver-simd — the constraint solver
//!
//! (Design essay to be completed.)

pub mod gather_scatter;
pub mod wide;
