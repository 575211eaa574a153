//! Shared helpers for the criterion benchmarks.

#![forbid(unsafe_code)]
