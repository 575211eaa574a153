//! Checks of prism-bench's memory figures that need a process to themselves.
//!
//! The counting allocator counts the whole process, and Box2D's byte count is process-wide
//! too, so while other tests run on other threads a measured world would pick up their
//! allocations. This file is its own test binary without the test harness (`harness = false`
//! in Cargo.toml): its checks run one after another on the main thread, nothing else
//! allocates meanwhile, and every figure is exact. It builds prism-bench's own modules from
//! `src/` so that it measures with the very code the tool runs.
//!
//! Run with `cargo test -p prism-bench --profile ci --test memory` (Box2D and Rapier checks
//! too with `--features compare`).

#![allow(
    unsafe_code,
    reason = "reads Box2D's byte count through its C interface"
)]
// The modules below are built here without the test harness: their own unit tests compile
// away (leaving their test imports unused), and only what these checks call is used.
#![allow(dead_code, unused_imports)]

#[path = "../src/alloc_count.rs"]
mod alloc_count;
#[cfg(feature = "compare")]
#[path = "../src/box2d.rs"]
mod box2d;
#[path = "../src/engine.rs"]
mod engine;
#[cfg(feature = "compare")]
#[path = "../src/group_bits.rs"]
mod group_bits;
#[path = "../src/prism_engine.rs"]
mod prism_engine;
#[path = "../src/progress.rs"]
mod progress;
#[cfg(feature = "compare")]
#[path = "../src/rapier.rs"]
mod rapier;
#[path = "../src/report.rs"]
mod report;
#[path = "../src/runner.rs"]
mod runner;
#[path = "../src/soak.rs"]
mod soak;
#[path = "../src/soak_report.rs"]
mod soak_report;

use std::time::Duration;

use alloc_count::live_bytes;
use engine::{EngineFactory, EngineOptions, WorldSettings};
use progress::Progress;
use runner::{PreparedScene, RunConfig, engine_bytes, run_once};
use scenes::description::{BodyGroup, find_scene};

/// Bytes two measurements of the same world may differ by: the worker threads of a world
/// dropped just before may still be exiting and freeing their few thread-local buffers.
const THREAD_NOISE: i64 = 16 * 1024;

/// Waits until the live byte count stops changing (threads of dropped pools have exited), at
/// most a second, and returns it.
fn settled_live_bytes() -> i64 {
    let mut last = live_bytes();
    for _ in 0..100 {
        std::thread::sleep(Duration::from_millis(10));
        let now = live_bytes();
        if now == last {
            return now;
        }
        last = now;
    }
    last
}

/// Builds `groups` into a fresh engine (one slot each), steps it `steps` times and returns the
/// world's bytes as the runner computes them.
fn measure(factory: EngineFactory, groups: &[BodyGroup], steps: usize) -> u64 {
    let settings = WorldSettings {
        gravity: scenes::description::Vec2::new(0.0, -10.0),
        sleep_enabled: false,
        threads: 1,
        continuous: false,
        contact_recycling: true,
    };
    let before = settled_live_bytes();
    let mut engine = factory(&settings).expect("engine builds");
    for (slot, group) in groups.iter().enumerate() {
        engine.insert_group(slot, group).expect("group builds");
    }
    for _ in 0..steps {
        engine.step();
    }
    let bytes = engine_bytes(engine.memory(), live_bytes() - before, 0);
    drop(engine);
    bytes
}

/// large_pyramid as one group, and as one group per body.
fn pyramid_groups() -> (Vec<BodyGroup>, Vec<BodyGroup>) {
    let (group, _) = find_scene("large_pyramid").unwrap().build();
    let split = group
        .bodies
        .iter()
        .map(|body| BodyGroup {
            bodies: vec![body.clone()],
            joints: Vec::new(),
        })
        .collect();
    (vec![group], split)
}

/// The same world built as one group or as 5,051 groups measures the same: the backend's
/// records (here about half a megabyte more for the split build) are left out exactly.
fn harness_records_are_left_out(name: &str, factory: EngineFactory) {
    let (whole, split) = pyramid_groups();
    let one = measure(factory, &whole, 3) as i64;
    let many = measure(factory, &split, 3) as i64;
    println!("  {name}: one group {one} B, one group per body {many} B");
    assert!(
        (one - many).abs() <= THREAD_NOISE,
        "{name}: {one} vs {many}"
    );
}

/// A dropped Prism world gives back everything it held.
fn prism_world_is_freed_on_drop() {
    let (whole, _) = pyramid_groups();
    let before = settled_live_bytes();
    let bytes = measure(prism_engine::create, &whole, 3);
    let after = settled_live_bytes();
    println!("  held {bytes} B, {} B left after drop", after - before);
    assert!(bytes > 0);
    assert!((after - before).abs() <= THREAD_NOISE, "{before} → {after}");
}

/// Each of large_pyramid's 5,050 boxes is a polygon the world must store somewhere, so the
/// world holds at least that many polygons' bytes; and the runner's window over a full
/// `run_once` measures what a hand-made window over the same world does.
fn prism_bytes_bound_and_runner_agree() {
    let spec = find_scene("large_pyramid").unwrap();
    let scene = PreparedScene::new(spec);
    let config = RunConfig {
        threads: 1,
        steps: 3,
        engine: EngineOptions::default(),
    };
    let run = run_once(
        prism_engine::create,
        &scene,
        config,
        &Progress::new(false, 0),
    )
    .unwrap();
    let by_hand = measure(prism_engine::create, std::slice::from_ref(&scene.group), 3);
    let polygons = 5050 * std::mem::size_of::<prism::Polygon>() as u64;
    println!(
        "  run_once {} B, by hand {by_hand} B, polygons alone {polygons} B",
        run.bytes
    );
    assert!(run.bytes > polygons);
    assert!((run.bytes as i64 - by_hand as i64).abs() <= THREAD_NOISE);
}

/// A short soak, measured exactly: memory and every slot series hold steady after warm-up.
fn short_soak_holds_steady() {
    let config = soak::SoakConfig {
        steps: 6000,
        pairs: 60,
        threads: 1,
        samples: 300,
    };
    let run = soak::run_soak(config, &Progress::new(false, 0)).unwrap();
    let growth = soak_report::growth(&run.samples);
    for g in &growth {
        println!(
            "  {:<13} first half max {:>10.0}, second half max {:>10.0}",
            g.name, g.first_half_max, g.second_half_max
        );
    }
    assert!(run.samples.iter().all(|s| s.bytes > 0));
    assert!(soak_report::steady(&growth), "{growth:?}");
}

/// Box2D's own count goes back to where it was once its world is destroyed.
#[cfg(feature = "compare")]
fn box2d_count_returns_after_destroy() {
    // SAFETY: b2GetByteCount only reads an atomic counter.
    let count = || unsafe { boxdd_sys::ffi::b2GetByteCount() };
    let before = count();
    let (whole, _) = pyramid_groups();
    let bytes = measure(box2d::create, &whole, 3);
    let polygons = 5050 * std::mem::size_of::<boxdd_sys::ffi::b2Polygon>() as u64;
    println!("  held {bytes} B, polygons alone {polygons} B");
    assert!(bytes > polygons);
    assert_eq!(count(), before);
}

/// A named check.
type Check = (&'static str, Box<dyn Fn()>);

#[cfg(feature = "compare")]
fn comparison_checks() -> Vec<Check> {
    vec![
        (
            "rapier: harness records are left out",
            Box::new(|| harness_records_are_left_out("rapier", rapier::create)),
        ),
        (
            "box2d: harness records are left out",
            Box::new(|| harness_records_are_left_out("box2d", box2d::create)),
        ),
        (
            "box2d: count returns after destroy",
            Box::new(box2d_count_returns_after_destroy),
        ),
    ]
}

#[cfg(not(feature = "compare"))]
fn comparison_checks() -> Vec<Check> {
    Vec::new()
}

fn main() {
    let mut checks: Vec<Check> = vec![
        (
            "prism: harness records are left out",
            Box::new(|| harness_records_are_left_out("prism", prism_engine::create)),
        ),
        (
            "prism: world freed on drop",
            Box::new(prism_world_is_freed_on_drop),
        ),
        (
            "prism: bytes bound, runner agrees",
            Box::new(prism_bytes_bound_and_runner_agree),
        ),
        (
            "prism: short soak holds steady",
            Box::new(short_soak_holds_steady),
        ),
    ];
    checks.extend(comparison_checks());
    for (name, check) in &checks {
        println!("memory check: {name}");
        check();
    }
    println!("memory: {} passed, 0 failed", checks.len());
}
