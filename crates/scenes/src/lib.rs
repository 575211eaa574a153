//! # scenes — canonical scenes shared by tests, benchmarks and tools
//!
//! Each scene is a function that builds a `prism::World` exactly as shared/BENCHMARKS.md
//! specifies (Box2D v3's benchmark definitions), plus small validation scenes used by the
//! physics tests.
