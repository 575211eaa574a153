//! Regression tests: each failure the fuzzer found, shrunk and rewritten as plain API calls.
