//! Lane width: the wide solver and the one-lane (`scalar`) build give bitwise the same world.
//!
//! Each lane of a wide kernel performs the scalar kernel's operations in the same order, with
//! no fused multiply-add and with the same `min`/`max` rule (see `solver_simd::wide`), and a
//! colour's constraints share no dynamic body, so packing them 8 to a bundle or 1 to a bundle
//! cannot change a bit. This test checks that claim on whole scenes, across two builds: each
//! build records the hash of every scene's final state in `CARGO_TARGET_TMPDIR` under its lane
//! count, and the one-lane build compares its hashes with every wider build's record. The test
//! command in README.md runs the default (wide) build first and the `scalar` build after it,
//! so the comparison happens on every CI run; run alone, the one-lane build fails and asks for
//! the wide run first rather than passing without a comparison.

mod common;

use common::{DT, SUBSTEPS, add_ground, add_pyramid, smash, world_hash};
use prism::{BodyId, SOLVER_LANES, World, WorldDef};
use std::fs;
use std::path::PathBuf;

/// The scenes compared, with their step counts: a 20-row pyramid (every colour full, long
/// support chains) and a smash (contacts beginning and ending every step, sleep on).
fn scene_hashes() -> Vec<(&'static str, u64)> {
    let run = |name, steps: usize, enable_sleep, build: fn(&mut World) -> Vec<BodyId>| {
        let def = WorldDef {
            enable_sleep,
            ..WorldDef::default()
        };
        let mut world = World::new(def).unwrap();
        let bodies = build(&mut world);
        let start = bodies
            .iter()
            .map(|&b| world.position(b).unwrap().y)
            .collect::<Vec<_>>();
        for _ in 0..steps {
            world.step(DT, SUBSTEPS).unwrap();
        }
        // Agreement only means something if the scenes did their work: the pyramid's top box
        // still stands within 5 cm of its start, the smash moved its top-right target.
        let last = *bodies.last().unwrap();
        let moved = start.last().unwrap() - world.position(last).unwrap().y;
        assert!(
            if enable_sleep {
                moved.abs() > 0.0
            } else {
                moved.abs() < 0.05
            },
            "{name}: last body moved {moved} m"
        );
        (name, world_hash(&world, &bodies))
    };
    vec![
        run("pyramid_20", 300, false, |world| {
            add_ground(world, 40.0);
            add_pyramid(world, 20)
        }),
        run("smash_40x30", 300, true, smash),
    ]
}

fn record_path(lanes: usize) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("lane_width_{lanes}.txt"))
}

fn format_record(hashes: &[(&str, u64)]) -> String {
    hashes
        .iter()
        .map(|(name, hash)| format!("{name} {hash:016x}\n"))
        .collect()
}

#[test]
fn wide_and_scalar_builds_give_the_same_bits() {
    let hashes = scene_hashes();
    let record = format_record(&hashes);
    fs::write(record_path(SOLVER_LANES), &record).unwrap();
    if SOLVER_LANES > 1 {
        // The wide build only records; the one-lane build compares.
        return;
    }
    let wide: Vec<(usize, String)> = [4, 8]
        .into_iter()
        .filter_map(|lanes| Some((lanes, fs::read_to_string(record_path(lanes)).ok()?)))
        .collect();
    assert!(
        !wide.is_empty(),
        "no wide build has recorded its hashes: run `cargo test -p prism --profile ci` first"
    );
    for (lanes, wide_record) in wide {
        assert_eq!(
            wide_record, record,
            "{lanes}-lane build (left) and 1-lane build (right) differ (a stale record needs \
             the wide test run again)"
        );
    }
}
