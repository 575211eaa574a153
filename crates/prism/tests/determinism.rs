//! Determinism: the same calls give bitwise the same world, whatever the worker count.
//!
//! Each scene is built four times, with 1, 2, 3 and 4 workers, and the four worlds are stepped
//! in lockstep. After *every* step the state of every body — position, rotation, linear and
//! angular velocity, as raw `f32` bits — is hashed, and the four hashes must be equal. The
//! pair search, the narrowphase and the solver's colour stages all split their work across
//! the workers, so any dependence of a result on how work was split (a reduction in thread
//! order, a block partition that follows the worker count, a race between two lanes writing
//! one body) shows up as a differing bit, at the step where it first happens.
//!
//! The scenes are small versions of the benchmark scenes, chosen to exercise what threads
//! could disturb: a tall pyramid (many colours, long dependency chains), a grid of small
//! pyramids on segment grounds (many independent islands, thousands of contacts), and a smash
//! (contacts beginning and ending every step, pairs created and destroyed, proxies re-inserted).

mod common;

use common::{DT, SUBSTEPS, add_ground, add_pyramid, smash, world_hash};
use prism::{BodyDef, BodyId, Segment, ShapeDef, Vec2, World, WorldDef, make_square};

const WORKER_COUNTS: [u32; 4] = [1, 2, 3, 4];

/// Builds `build`'s scene once per worker count, steps all of them `steps` times, and asserts
/// that their hashes agree after every step. Returns the 1-worker world and the hashes of each
/// step, for the scene's own sanity checks. Sleep as in the benchmarks: off for the pyramids,
/// on for the smash.
fn assert_lockstep(
    steps: usize,
    enable_sleep: bool,
    build: impl Fn(&mut World) -> Vec<BodyId>,
) -> (World, Vec<u64>) {
    let mut worlds: Vec<(World, Vec<BodyId>)> = WORKER_COUNTS
        .iter()
        .map(|&worker_count| {
            let mut world = common::pooled_world(WorldDef {
                worker_count,
                enable_sleep,
                ..WorldDef::default()
            });
            let bodies = build(&mut world);
            (world, bodies)
        })
        .collect();
    let mut history = Vec::with_capacity(steps);
    for step in 0..steps {
        let hashes: Vec<u64> = worlds
            .iter_mut()
            .map(|(world, bodies)| {
                world.step(DT, SUBSTEPS).unwrap();
                world_hash(world, bodies)
            })
            .collect();
        for (&workers, &hash) in WORKER_COUNTS.iter().zip(&hashes) {
            assert_eq!(
                hash, hashes[0],
                "step {step}: {workers} workers differ from 1 worker"
            );
        }
        history.push(hashes[0]);
    }
    let (world, _) = worlds.swap_remove(0);
    (world, history)
}

/// How many different states the history holds.
fn distinct_hashes(history: &[u64]) -> usize {
    let mut sorted = history.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    sorted.len()
}

#[test]
fn pyramid_of_20_rows_is_identical_for_1_to_4_workers() {
    let (world, history) = assert_lockstep(120, false, |world| {
        add_ground(world, 40.0);
        add_pyramid(world, 20)
    });
    let counters = world.counters();
    assert_eq!(counters.awake_bodies, 210);
    // 190 box-box contact pairs along rows and diagonals, 20 on the ground — all touching.
    assert!(counters.touching_contacts >= 550, "{counters:?}");
    assert!(counters.colors >= 6, "{counters:?}");
    // The pyramid settles but keeps moving at the bit level: every step is a new state.
    assert!(distinct_hashes(&history) > 100);
}

/// 4 × 4 pyramids of base 10 on four segment grounds, laid out as the many_pyramids benchmark.
fn many_pyramids(world: &mut World) -> Vec<BodyId> {
    let (extent, base, rows, columns) = (0.5f32, 10usize, 4usize, 4usize);
    let ground_dy = 2.0 * extent * (base + 1) as f32;
    let ground_width = 2.0 * extent * (columns * (base + 1)) as f32;
    let ground = world.create_body(&BodyDef::fixed_at(Vec2::ZERO)).unwrap();
    for row in 0..rows {
        let y = ground_dy * row as f32;
        let segment = Segment {
            point1: Vec2::new(-0.5 * ground_width, y),
            point2: Vec2::new(0.5 * ground_width, y),
        };
        world
            .create_segment_shape(ground, &ShapeDef::default(), &segment)
            .unwrap();
    }
    let square = make_square(extent).unwrap();
    let mut boxes = Vec::new();
    for row in 0..rows {
        for column in 0..columns {
            let base_y = ground_dy * row as f32;
            let center_x = -0.5 * ground_width + (column * (base + 1)) as f32 * 2.0 * extent + 1.0;
            for i in 0..base {
                let y = (2 * i + 1) as f32 * extent + base_y;
                for j in i..base {
                    let x =
                        (i + 1) as f32 * extent + 2.0 * (j - i) as f32 * extent + center_x - 0.5;
                    let body = world
                        .create_body(&BodyDef::dynamic_at(Vec2::new(x, y)))
                        .unwrap();
                    world
                        .create_polygon_shape(body, &ShapeDef::default(), &square)
                        .unwrap();
                    boxes.push(body);
                }
            }
        }
    }
    boxes
}

#[test]
fn many_pyramids_are_identical_for_1_to_4_workers() {
    let (world, history) = assert_lockstep(150, false, many_pyramids);
    let counters = world.counters();
    assert_eq!(counters.awake_bodies, 16 * 55);
    // Per pyramid: 45 side-by-side pairs, 90 box-on-two-boxes pairs, 10 on the ground.
    assert!(counters.touching_contacts >= 16 * 100, "{counters:?}");
    assert_eq!(counters.overflow_contacts, 0, "{counters:?}");
    assert!(distinct_hashes(&history) > 140);
}

#[test]
fn smash_is_identical_for_1_to_4_workers() {
    let (world, history) = assert_lockstep(300, true, smash);
    let bodies = world.body_ids();
    // The smasher went through the block and scattered it: some target is far from home.
    let scattered = bodies
        .iter()
        .skip(1)
        .filter(|&&b| world.linear_velocity(b).unwrap().length() > 1.0)
        .count();
    assert!(scattered > 100, "only {scattered} targets are moving");
    assert!(distinct_hashes(&history) > 250);
}

#[test]
fn repeated_runs_are_bitwise_identical() {
    let run = || {
        let mut world = World::new(WorldDef {
            worker_count: 2,
            ..WorldDef::default()
        })
        .unwrap();
        let bodies = smash(&mut world);
        (0..150)
            .map(|_| {
                world.step(DT, SUBSTEPS).unwrap();
                world_hash(&world, &bodies)
            })
            .collect::<Vec<u64>>()
    };
    assert_eq!(run(), run());
}

/// A light step (a world almost all asleep) runs serially instead of sharing its passes with
/// the helpers; the bits must not depend on how a step ran. A 20-row pyramid (210 boxes, more
/// awake bodies than a light step allows) falls, settles and sleeps with two workers: once
/// with light steps serial, once with every step parallel, and once with one worker. The three
/// agree after every step, and the pyramid ends asleep, so its late steps are light ones.
#[test]
fn light_steps_on_the_caller_give_the_same_bits() {
    let build = |workers: u32, light_on_caller: bool| {
        let mut world = World::new(WorldDef {
            worker_count: workers,
            ..WorldDef::default()
        })
        .unwrap();
        world.set_light_steps_on_caller(light_on_caller);
        add_ground(&mut world, 20.0);
        let bodies = add_pyramid(&mut world, 20);
        (world, bodies)
    };
    let mut worlds = [build(2, true), build(2, false), build(1, true)];
    for step in 0..600 {
        let hashes = worlds.each_mut().map(|(world, bodies)| {
            world.step(DT, SUBSTEPS).unwrap();
            world_hash(world, bodies)
        });
        assert!(
            hashes.iter().all(|&h| h == hashes[0]),
            "step {step}: {hashes:x?}"
        );
    }
    let (light, bodies) = &worlds[0];
    let awake = bodies
        .iter()
        .filter(|&&b| light.is_awake(b).unwrap())
        .count();
    assert_eq!(awake, 0, "the pyramid should be asleep after 10 s");
}
