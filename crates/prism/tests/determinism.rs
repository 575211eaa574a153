//! Determinism: the same calls give bitwise the same world, whatever the worker count.

mod common;

use common::{DT, SUBSTEPS, add_ground, add_pyramid};
use prism::{World, WorldDef};

/// Every body's transform, as bits, after 90 steps of a 12-row pyramid.
fn snapshot(worker_count: u32) -> Vec<u32> {
    let mut world = World::new(WorldDef {
        worker_count,
        ..WorldDef::default()
    })
    .unwrap();
    add_ground(&mut world, 40.0);
    let boxes = add_pyramid(&mut world, 12);
    for _ in 0..90 {
        world.step(DT, SUBSTEPS).unwrap();
    }
    assert!(
        world.counters().touching_contacts > 100,
        "the pyramid is in contact"
    );
    boxes
        .iter()
        .flat_map(|&b| {
            let xf = world.transform(b).unwrap();
            [xf.p.x, xf.p.y, xf.q.c, xf.q.s].map(f32::to_bits)
        })
        .collect()
}

#[test]
fn repeated_runs_are_bitwise_identical() {
    assert_eq!(snapshot(1), snapshot(1));
}

#[test]
fn thread_count_does_not_change_the_result() {
    let serial = snapshot(1);
    assert_eq!(serial, snapshot(2));
    assert_eq!(serial, snapshot(3));
}
