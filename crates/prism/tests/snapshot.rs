//! Snapshots: a restored world steps bitwise like the original, for any worker count and
//! across a rollback; saving it again gives the same bytes; truncated, corrupted and forged
//! buffers are refused without a panic and without a large allocation.
//!
//! "Bitwise like the original" is checked on the whole state, not only on the bodies: two
//! worlds agree when their snapshots are byte for byte equal (after restoring both into worlds
//! of the same worker count, the one field that may differ), and, independently of the
//! snapshot code, when the hash of every body's pose and velocity bits agrees.
//!
//! The size and timing measurement for large_pyramid is `#[ignore]`d; run it with
//! `cargo test --release -p prism --test snapshot -- --ignored --nocapture`.

#![allow(
    unsafe_code,
    reason = "a recording global allocator measures the largest allocation a forged buffer causes"
)]

mod common;

use common::{DT, SUBSTEPS, add_ground, add_pyramid, world_hash};
use prism::{
    BodyDef, BodyId, BodyType, Circle, DistanceJointDef, JointDef, MotorJointDef, PrismError,
    PrismaticJointDef, RevoluteJointDef, Rot, ShapeDef, TargetJointDef, Vec2, WeldJointDef,
    WheelJointDef, World, WorldDef, make_box, make_square,
};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, recording the largest single allocation (to show that a forged
/// length allocates nothing large).
struct Recording;

static LARGEST_ALLOCATION: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the counter is a side
// effect only.
unsafe impl GlobalAlloc for Recording {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST_ALLOCATION.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST_ALLOCATION.fetch_max(new_size, Ordering::Relaxed);
        // SAFETY: as for `alloc`; `ptr` came from this allocator with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Recording = Recording;

/// Header: magic (8), version (4), payload length (8), checksum (8).
const HEADER: usize = 28;

/// The snapshot checksum as the format documents it: FNV-1a's multiply-xor over 64-bit
/// little-endian words, the last partial word byte by byte (recomputed here to forge buffers).
fn checksum(payload: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut words = payload.chunks_exact(8);
    for word in &mut words {
        let word = u64::from_le_bytes(word.try_into().unwrap());
        hash = (hash ^ word).wrapping_mul(0x0000_0100_0000_01b3);
    }
    for &byte in words.remainder() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// Rewrites the header's checksum to match the (edited) payload.
fn reseal(bytes: &mut [u8]) {
    let sum = checksum(&bytes[HEADER..]);
    bytes[20..28].copy_from_slice(&sum.to_le_bytes());
}

fn world(workers: u32) -> World {
    common::pooled_world(WorldDef {
        worker_count: workers,
        ..WorldDef::default()
    })
}

/// The state `bytes` describes, as a snapshot taken on a world with `workers` threads (the
/// worker count is the one field a restore does not take from the snapshot).
fn with_workers(bytes: &[u8], workers: u32) -> Vec<u8> {
    let mut restored = world(workers);
    restored.restore(bytes).unwrap();
    restored.snapshot().unwrap()
}

fn dynamic_box(world: &mut World, at: Vec2, half: f32) -> BodyId {
    let body = world.create_body(&BodyDef::dynamic_at(at)).unwrap();
    let square = make_square(half).unwrap();
    world
        .create_polygon_shape(body, &ShapeDef::default(), &square)
        .unwrap();
    body
}

/// A pyramid, a jointed machine with every joint kind, a small stack that falls asleep and a
/// box that later lands on it, a disabled body, a sensor and a kinematic paddle. Returns every
/// body, for hashing.
fn busy_world(workers: u32) -> (World, Vec<BodyId>) {
    let mut world = world(workers);
    let ground = add_ground(&mut world, 40.0);
    let mut bodies = add_pyramid(&mut world, 8);

    let hub_at = Vec2::new(-15.0, 4.0);
    let hub = dynamic_box(&mut world, hub_at, 0.4);
    let mut links = vec![hub];
    for k in 1..8 {
        let at = hub_at + Vec2::new(k as f32, 0.0);
        links.push(dynamic_box(&mut world, at, 0.3));
    }
    // Neighbours 1 m apart, anchored midway; the ground's anchors are where the bodies are.
    let base = |a: BodyId, b: BodyId| JointDef {
        local_anchor_a: Vec2::new(0.5, 0.0),
        local_anchor_b: Vec2::new(-0.5, 0.0),
        ..JointDef::new(a, b)
    };
    let grounded = |b: BodyId, at: Vec2| JointDef {
        local_anchor_a: at - Vec2::new(0.0, -1.0),
        ..JointDef::new(ground, b)
    };
    world
        .create_distance_joint(&DistanceJointDef::new(base(links[0], links[1])))
        .unwrap();
    world
        .create_revolute_joint(&RevoluteJointDef::new(base(links[1], links[2])))
        .unwrap();
    world
        .create_prismatic_joint(&PrismaticJointDef::new(base(links[2], links[3])))
        .unwrap();
    world
        .create_weld_joint(&WeldJointDef::new(base(links[3], links[4])))
        .unwrap();
    world
        .create_wheel_joint(&WheelJointDef::new(base(links[4], links[5])))
        .unwrap();
    world
        .create_motor_joint(&MotorJointDef::new(base(links[5], links[6])))
        .unwrap();
    let mut target = TargetJointDef::new(grounded(links[7], hub_at + Vec2::new(7.0, 0.0)));
    target.settings.target = hub_at + Vec2::new(7.0, 1.0);
    world.create_target_joint(&target).unwrap();
    world
        .create_revolute_joint(&RevoluteJointDef::new(grounded(hub, hub_at)))
        .unwrap();
    bodies.extend(&links);

    for level in 0..3 {
        let at = Vec2::new(20.0, 0.5 + level as f32);
        bodies.push(dynamic_box(&mut world, at, 0.5));
    }
    bodies.push(dynamic_box(&mut world, Vec2::new(20.2, 60.0), 0.5));

    let disabled = dynamic_box(&mut world, Vec2::new(10.0, 3.0), 0.5);
    world.disable_body(disabled).unwrap();

    let sensor_body = world
        .create_body(&BodyDef::fixed_at(Vec2::new(0.0, 2.0)))
        .unwrap();
    let sensor = ShapeDef {
        is_sensor: true,
        ..ShapeDef::default()
    };
    let zone = Circle {
        center: Vec2::ZERO,
        radius: 3.0,
    };
    world
        .create_circle_shape(sensor_body, &sensor, &zone)
        .unwrap();

    let paddle = world
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            angular_velocity: 1.0,
            ..BodyDef::dynamic_at(Vec2::new(-25.0, 2.0))
        })
        .unwrap();
    world
        .create_polygon_shape(paddle, &ShapeDef::default(), &make_box(2.0, 0.2).unwrap())
        .unwrap();
    bodies.push(paddle);
    (world, bodies)
}

/// The same input every run, a function of the step number: the paddle is driven.
fn drive(world: &mut World, paddle: BodyId, step: usize) {
    let x = -25.0 + 0.05 * (step % 40) as f32;
    let angle = 0.02 * step as f32;
    world
        .set_target_transform(paddle, Vec2::new(x, 2.0), Rot::from_angle(angle), DT)
        .unwrap();
}

#[test]
fn busy_world_restored_steps_bitwise_like_the_original_for_1_2_and_4_workers() {
    let (mut original, bodies) = busy_world(1);
    let paddle = *bodies.last().unwrap();
    for step in 0..90 {
        drive(&mut original, paddle, step);
        original.step(DT, SUBSTEPS).unwrap();
    }
    let sleeper = bodies[bodies.len() - 3];
    assert!(
        !original.is_awake(sleeper).unwrap(),
        "the side stack sleeps"
    );
    assert!(original.counters().sleeping_sets > 0);
    let saved = original.snapshot().unwrap();

    let mut restored: Vec<World> = [1, 2, 4]
        .iter()
        .map(|&workers| {
            let mut world = world(workers);
            world.restore(&saved).unwrap();
            world
        })
        .collect();
    let mut woke = false;
    for step in 90..240 {
        drive(&mut original, paddle, step);
        original.step(DT, SUBSTEPS).unwrap();
        let expected_hash = world_hash(&original, &bodies);
        let expected_state = original.snapshot().unwrap();
        woke |= original.is_awake(sleeper).unwrap();
        for (world, workers) in restored.iter_mut().zip([1, 2, 4]) {
            drive(world, paddle, step);
            world.step(DT, SUBSTEPS).unwrap();
            assert_eq!(
                world_hash(world, &bodies),
                expected_hash,
                "step {step}, {workers} workers"
            );
            if step % 30 == 0 || step == 239 {
                let state = with_workers(&world.snapshot().unwrap(), 1);
                assert!(
                    state == expected_state,
                    "step {step}, {workers} workers: state differs"
                );
            }
            assert_eq!(world.contact_events(), original.contact_events());
        }
    }
    assert!(
        woke,
        "the falling box woke the sleeping stack after the snapshot"
    );
}

#[test]
fn rollback_of_60_steps_gives_the_same_bits_again() {
    let (mut world, bodies) = busy_world(2);
    let paddle = *bodies.last().unwrap();
    let mut first_run = Vec::new();
    let mut saved = Vec::new();
    for step in 0..120 {
        if step == 60 {
            saved = world.snapshot().unwrap();
        }
        drive(&mut world, paddle, step);
        world.step(DT, SUBSTEPS).unwrap();
        first_run.push(world_hash(&world, &bodies));
    }
    let end_of_first_run = world.snapshot().unwrap();
    world.restore(&saved).unwrap();
    for (step, &expected) in first_run.iter().enumerate().skip(60) {
        drive(&mut world, paddle, step);
        world.step(DT, SUBSTEPS).unwrap();
        assert_eq!(world_hash(&world, &bodies), expected, "step {step}");
    }
    assert!(world.snapshot().unwrap() == end_of_first_run);
    let moved = first_run[60..].windows(2).filter(|w| w[0] != w[1]).count();
    assert!(
        moved > 50,
        "the re-simulated steps changed the world ({moved})"
    );
}

#[test]
fn snapshot_of_a_restored_world_is_the_original_byte_for_byte() {
    let (mut original, _) = busy_world(2);
    for _ in 0..45 {
        original.step(DT, SUBSTEPS).unwrap();
    }
    let saved = original.snapshot().unwrap();
    let rebuilt = World::from_snapshot(&saved).unwrap();
    assert_eq!(rebuilt.def().worker_count, 2);
    assert!(rebuilt.snapshot().unwrap() == saved);
    let mut into_existing = world(2);
    into_existing.restore(&saved).unwrap();
    assert!(into_existing.snapshot().unwrap() == saved);
}

/// A world small enough to try every truncation: a box on the ground, a jointed pair, after
/// a few steps (so it has contacts with cached impulses).
fn small_snapshot() -> Vec<u8> {
    let mut world = world(1);
    let ground = add_ground(&mut world, 5.0);
    let a = dynamic_box(&mut world, Vec2::new(0.0, 0.5), 0.5);
    let b = dynamic_box(&mut world, Vec2::new(1.2, 0.5), 0.5);
    world
        .create_revolute_joint(&RevoluteJointDef::new(JointDef::new(a, b)))
        .unwrap();
    world
        .create_distance_joint(&DistanceJointDef::new(JointDef::new(ground, b)))
        .unwrap();
    for _ in 0..10 {
        world.step(DT, SUBSTEPS).unwrap();
    }
    world.snapshot().unwrap()
}

fn assert_refused(bytes: &[u8], case: &str) {
    match World::from_snapshot(bytes) {
        Err(PrismError::Snapshot { .. }) => {}
        Err(other) => panic!("{case}: refused with {other}"),
        Ok(_) => panic!("{case}: accepted"),
    }
}

#[test]
fn every_truncation_is_refused() {
    let bytes = small_snapshot();
    assert!(World::from_snapshot(&bytes).is_ok());
    for length in 0..bytes.len() {
        assert_refused(&bytes[..length], &format!("truncated to {length}"));
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert_refused(&longer, "one byte appended");
}

#[test]
fn single_byte_changes_and_bit_flips_are_refused() {
    let bytes = small_snapshot();
    let mut tried = 0;
    for position in 0..bytes.len() {
        let bits: &[u8] = if position % 7 == 0 {
            &[0, 3, 7]
        } else {
            &[position as u8 % 8]
        };
        for &bit in bits {
            let mut flipped = bytes.clone();
            flipped[position] ^= 1 << bit;
            assert_refused(&flipped, &format!("bit {bit} of byte {position}"));
            tried += 1;
        }
        let mut replaced = bytes.clone();
        replaced[position] = replaced[position].wrapping_add(0x5b);
        assert_refused(&replaced, &format!("byte {position} replaced"));
    }
    assert!(tried > bytes.len());
}

#[test]
fn a_forged_element_count_is_refused_without_allocating() {
    let bytes = small_snapshot();
    // The payload opens with the world's definition (58 bytes: gravity, nine f32 settings,
    // the solver kind, three flags, the worker count, two flags, the hit threshold), then the
    // body arena's slot count.
    let count_at = HEADER + 58;
    let slots = u32::from_le_bytes(bytes[count_at..count_at + 4].try_into().unwrap());
    assert_eq!(
        slots, 3,
        "the body arena's slot count is where the layout says"
    );
    for forged_count in [u32::MAX, u32::MAX / 2, bytes.len() as u32] {
        let mut forged = bytes.clone();
        forged[count_at..count_at + 4].copy_from_slice(&forged_count.to_le_bytes());
        reseal(&mut forged);
        LARGEST_ALLOCATION.store(0, Ordering::Relaxed);
        assert_refused(&forged, &format!("count {forged_count}"));
        let largest = LARGEST_ALLOCATION.load(Ordering::Relaxed);
        assert!(
            largest < 1 << 20,
            "count {forged_count}: allocated {largest} bytes"
        );
    }
}

/// Forged buffers with a valid checksum: random byte edits, resealed. Each must be refused,
/// or, if the edit left a consistent world (a changed velocity, say), step without panicking.
#[test]
fn forged_buffers_with_a_valid_checksum_never_panic() {
    let bytes = small_snapshot();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut refused, mut accepted, mut inconsistent_values) = (0, 0, 0);
    for _ in 0..2000 {
        let mut forged = bytes.clone();
        for _ in 0..1 + next() % 3 {
            let at = HEADER + (next() as usize) % (bytes.len() - HEADER);
            forged[at] = next() as u8;
        }
        reseal(&mut forged);
        match World::from_snapshot(&forged) {
            Err(PrismError::Snapshot { .. }) => refused += 1,
            Err(other) => panic!("refused with {other}"),
            Ok(mut world) => {
                accepted += 1;
                for _ in 0..3 {
                    match world.step(DT, SUBSTEPS) {
                        Ok(()) => {}
                        // The structural check does not judge values: a forged pose or fat-box
                        // slack can leave a shape outside its fat box, which the `validate`
                        // feature's after-step checks report (and nothing else notices).
                        Err(PrismError::Corrupted { .. }) if cfg!(feature = "validate") => {
                            inconsistent_values += 1;
                            break;
                        }
                        Err(other) => panic!("a step of an accepted forged world failed: {other}"),
                    }
                }
            }
        }
    }
    println!(
        "forged: {refused} refused, {accepted} accepted and stepped \
         ({inconsistent_values} with values the validate feature flags)"
    );
    assert!(
        refused > 1000,
        "most random edits break a structure ({refused})"
    );
}

#[test]
fn other_versions_and_foreign_buffers_are_refused() {
    let bytes = small_snapshot();
    let mut newer = bytes.clone();
    newer[8] = newer[8].wrapping_add(1);
    let error = World::from_snapshot(&newer).err().unwrap();
    assert!(error.to_string().contains("header.version"), "{error}");
    assert_refused(b"not a snapshot at all, but long enough", "foreign bytes");
}

#[cfg(feature = "serde")]
#[test]
fn definitions_and_ids_round_trip_through_serde() {
    use prism::{Filter, ShapeDef};
    let world_def = WorldDef {
        gravity: Vec2::new(0.5, -3.0),
        worker_count: 3,
        ..WorldDef::default()
    };
    let body_def = BodyDef {
        rotation: Rot::from_angle(0.3),
        user_data: 77,
        ..BodyDef::dynamic_at(Vec2::new(1.0, 2.0))
    };
    let shape_def = ShapeDef {
        filter: Filter {
            category_bits: 4,
            mask_bits: 0xff,
            group_index: -2,
        },
        ..ShapeDef::default()
    };
    // JSON has no infinity, so the default (unbreakable) thresholds are made finite here.
    let base = JointDef {
        break_force: 1.0e4,
        break_torque: 2.5e3,
        ..JointDef::new(BodyId::new(3, 7), BodyId::new(4, 1))
    };
    let mut joint = RevoluteJointDef::new(base);
    joint.settings.enable_limit = true;
    joint.settings.upper_angle = 0.25;
    let json = serde_json::to_string(&(world_def, body_def, shape_def, joint)).unwrap();
    let back: (WorldDef, BodyDef, ShapeDef, RevoluteJointDef) =
        serde_json::from_str(&json).unwrap();
    assert_eq!(back.0, world_def);
    assert_eq!(back.1, body_def);
    assert_eq!(back.2, shape_def);
    assert_eq!(back.3, joint);
    let id = prism::ShapeId::new(12, 5);
    let text = serde_json::to_string(&id).unwrap();
    assert_eq!(serde_json::from_str::<prism::ShapeId>(&text).unwrap(), id);
}

/// Snapshot size per body and contact, and save and restore times, for large_pyramid after it
/// settled. Run: `cargo test --release -p prism --test snapshot -- --ignored --nocapture`.
#[test]
#[ignore]
fn large_pyramid_snapshot_size_and_time() {
    use std::time::Instant;
    let mut world = world(1);
    add_ground(&mut world, 80.0);
    add_pyramid(&mut world, 100);
    // Before the first step there are no contacts: this size over the bodies is what a body
    // costs, and the growth once settled over the contacts is what a contact costs.
    let bodies_only = world.snapshot().unwrap().len();
    for _ in 0..300 {
        world.step(DT, SUBSTEPS).unwrap();
    }
    let counters = world.counters();
    let repeats = 20;
    let start = Instant::now();
    let mut bytes = Vec::new();
    for _ in 0..repeats {
        bytes = world.snapshot().unwrap();
    }
    let save_ms = start.elapsed().as_secs_f64() * 1e3 / repeats as f64;
    let mut target = prism::World::new(WorldDef::default()).unwrap();
    let start = Instant::now();
    for _ in 0..repeats {
        target.restore(&bytes).unwrap();
    }
    let restore_ms = start.elapsed().as_secs_f64() * 1e3 / repeats as f64;
    let start = Instant::now();
    for _ in 0..repeats {
        World::from_snapshot(&bytes).unwrap();
    }
    let from_ms = start.elapsed().as_secs_f64() * 1e3 / repeats as f64;
    println!(
        "large_pyramid: {} bodies, {} contacts ({} touching), {} bytes: {:.1} B/body, {:.1} B/contact \
         (whole size over each count), save {save_ms:.2} ms, restore {restore_ms:.2} ms, \
         from_snapshot {from_ms:.2} ms",
        counters.bodies,
        counters.contacts,
        counters.touching_contacts,
        bytes.len(),
        bytes.len() as f64 / counters.bodies as f64,
        bytes.len() as f64 / counters.contacts as f64,
    );
    println!(
        "large_pyramid: {bodies_only} bytes before the first step ({:.1} B/body); \
         settled, {:.1} B/contact more",
        bodies_only as f64 / counters.bodies as f64,
        (bytes.len() - bodies_only) as f64 / counters.contacts as f64,
    );
    assert!(target.snapshot().unwrap() == bytes);
}

/// A world with a particle system is not saved (its systems are not part of the format), and
/// saying so names the field; once the system is destroyed the world saves again.
#[test]
fn worlds_with_particle_systems_are_refused() {
    let mut world = World::new(WorldDef::default()).unwrap();
    add_ground(&mut world, 10.0);
    let system = world
        .create_particle_system(&prism::particles::SystemDef::default())
        .unwrap();
    match world.snapshot() {
        Err(PrismError::Snapshot { what, .. }) => assert_eq!(what, "World.particle_systems"),
        other => panic!(
            "expected a refusal, got {:?}",
            other.map(|bytes| bytes.len())
        ),
    }
    world.destroy_particle_system(system).unwrap();
    let bytes = world.snapshot().unwrap();
    assert!(World::from_snapshot(&bytes).is_ok());
}
