//! Shared helpers for the criterion benchmarks.
