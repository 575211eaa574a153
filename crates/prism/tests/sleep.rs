//! Islands and sleep, through the public API: resting islands fall asleep and stay put, touching
//! and user edits wake exactly the island concerned, events report the bodies that changed
//! state, and a sleeping world steps identically on any number of workers.

mod common;

use common::{DT, SUBSTEPS, add_ground};
use prism::{
    BodyDef, BodyId, BodyType, DistanceJoint, DistanceJointDef, IslandId, JointDef, ShapeDef, Vec2,
    World, WorldDef, make_box, make_square,
};
use std::collections::BTreeSet;

/// Box2D's default speed threshold for rest (m/s).
const THRESHOLD: f32 = 0.05;

fn world_with_workers(workers: u32) -> World {
    common::pooled_world(WorldDef {
        worker_count: workers,
        ..WorldDef::default()
    })
}

/// A pyramid of unit boxes with `rows` at the base, centred on `center_x`, its bottom row `lift`
/// above the line y = 0.
fn pyramid_at(world: &mut World, rows: usize, center_x: f32, lift: f32) -> Vec<BodyId> {
    let a = 0.5;
    let mut boxes = Vec::new();
    for i in 0..rows {
        let y = (2 * i + 1) as f32 * a + lift;
        for j in i..rows {
            let x = center_x + (i + 1) as f32 * a + 2.0 * (j - i) as f32 * a - a * rows as f32;
            let body = world
                .create_body(&BodyDef::dynamic_at(Vec2::new(x, y)))
                .unwrap();
            world
                .create_polygon_shape(body, &ShapeDef::default(), &make_square(a).unwrap())
                .unwrap();
            boxes.push(body);
        }
    }
    boxes
}

fn step(world: &mut World) {
    world.step(DT, SUBSTEPS).expect("step");
}

fn all_asleep(world: &World, bodies: &[BodyId]) -> bool {
    bodies.iter().all(|&b| !world.is_awake(b).unwrap())
}

fn all_awake(world: &World, bodies: &[BodyId]) -> bool {
    bodies.iter().all(|&b| world.is_awake(b).unwrap())
}

/// Steps until every body of `bodies` sleeps; returns the number of steps, or fails after
/// `limit` steps.
fn step_until_asleep(world: &mut World, bodies: &[BodyId], limit: usize) -> usize {
    for steps in 1..=limit {
        step(world);
        if all_asleep(world, bodies) {
            return steps;
        }
    }
    panic!("still awake after {limit} steps");
}

/// The largest fastest-point speed of the bodies, `|v| + extent·|ω|` with a unit box's extent
/// √0.5: the part of the sleep speed a user sees (the other part, the step's position
/// correction, can only make it larger, so a body faster than this is not resting).
fn max_rest_speed(world: &World, bodies: &[BodyId]) -> f32 {
    bodies
        .iter()
        .map(|&b| {
            let v = world.linear_velocity(b).unwrap().length();
            let w = world.angular_velocity(b).unwrap().abs() * 0.5f32.sqrt();
            v + w
        })
        .fold(0.0, f32::max)
}

fn poses(world: &World, bodies: &[BodyId]) -> Vec<(u32, u32, u32, u32)> {
    bodies
        .iter()
        .map(|&b| {
            let t = world.transform(b).unwrap();
            (
                t.p.x.to_bits(),
                t.p.y.to_bits(),
                t.q.c.to_bits(),
                t.q.s.to_bits(),
            )
        })
        .collect()
}

/// A 20-row pyramid dropped from 0.25 m settles; it sleeps within 3 s of coming to rest (the
/// step after which no body is faster than the threshold again), then stays asleep for 10 s
/// with no body moving at all (bitwise), no awake body left to step and a single sleeping set.
#[test]
fn settled_pyramid_sleeps_soon_after_rest_and_stays_put() {
    let mut world = world_with_workers(1);
    add_ground(&mut world, 40.0);
    let boxes = pyramid_at(&mut world, 20, 0.0, 0.25);
    let mut last_fast_step = 0;
    let mut sleep_step = None;
    for steps in 1..=1200 {
        step(&mut world);
        if all_asleep(&world, &boxes) {
            sleep_step = Some(steps);
            break;
        }
        if max_rest_speed(&world, &boxes) >= THRESHOLD {
            last_fast_step = steps;
        }
    }
    let sleep = sleep_step.expect("the pyramid falls asleep");
    assert!(last_fast_step > 10, "the drop never moved the pyramid");
    let delay = (sleep - last_fast_step) as f32 * DT;
    assert!(delay <= 3.0, "asleep {delay} s after coming to rest");
    // The whole island has rested the time to sleep (0.5 s) first.
    assert!(delay >= 0.5 - 1e-3, "asleep {delay} s after coming to rest");

    let counters = world.counters();
    assert_eq!(counters.awake_bodies, 0);
    assert_eq!(counters.sleeping_sets, 1);
    assert_eq!(counters.islands, 1);
    let island = world.body_island(boxes[0]).unwrap().unwrap();
    assert!(
        boxes
            .iter()
            .all(|&b| world.body_island(b).unwrap() == Some(island))
    );

    let before = poses(&world, &boxes);
    for _ in 0..600 {
        step(&mut world);
        assert!(all_asleep(&world, &boxes), "a box woke up by itself");
        assert!(world.body_events().wake.is_empty());
    }
    assert_eq!(poses(&world, &boxes), before, "a sleeping box moved");
    assert!(
        boxes
            .iter()
            .all(|&b| world.linear_velocity(b).unwrap() == Vec2::ZERO)
    );
}

/// Two separate sleeping pyramids; a box dropped on the left one wakes exactly the left one
/// (the wake events name exactly its bodies, and the box joins it); the right one stays asleep
/// throughout; the left one and the box fall asleep again.
#[test]
fn dropped_box_wakes_only_the_island_it_hits() {
    let mut world = world_with_workers(1);
    add_ground(&mut world, 60.0);
    let left = pyramid_at(&mut world, 8, -20.0, 0.0);
    let right = pyramid_at(&mut world, 8, 20.0, 0.0);
    let both: Vec<BodyId> = left.iter().chain(&right).copied().collect();
    step_until_asleep(&mut world, &both, 900);
    assert_eq!(world.counters().sleeping_sets, 2);
    let right_island = world.body_island(right[0]).unwrap();

    let falling = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(-20.0, 10.0)))
        .unwrap();
    world
        .create_polygon_shape(falling, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap())
        .unwrap();
    let mut woken: Vec<BodyId> = Vec::new();
    let mut hit = false;
    for _ in 0..120 {
        step(&mut world);
        woken.extend(world.body_events().wake.iter().map(|e| e.body));
        assert!(all_asleep(&world, &right), "the far pyramid woke up");
        if all_awake(&world, &left) {
            hit = true;
            break;
        }
    }
    assert!(hit, "the box never woke the pyramid it fell on");
    let woken: BTreeSet<BodyId> = woken.into_iter().collect();
    let expected: BTreeSet<BodyId> = left.iter().copied().collect();
    assert_eq!(woken, expected, "exactly the hit pyramid's bodies woke");
    let joined = world.body_island(falling).unwrap();
    assert_eq!(world.body_island(left[0]).unwrap(), joined);

    let mut with_box = left.clone();
    with_box.push(falling);
    for _ in 0..900 {
        step(&mut world);
        assert!(all_asleep(&world, &right), "the far pyramid woke up");
        if all_asleep(&world, &with_box) {
            break;
        }
    }
    assert!(
        all_asleep(&world, &with_box),
        "the hit pyramid never slept again"
    );
    assert_eq!(world.body_island(right[0]).unwrap(), right_island);
    assert_eq!(world.counters().awake_bodies, 0);
}

/// Destroying a body of a sleeping pyramid wakes the pyramid (the rest must react), the world
/// stays consistent, and the remainder falls asleep again.
#[test]
fn destroying_a_sleeping_body_wakes_its_island() {
    let mut world = world_with_workers(1);
    add_ground(&mut world, 30.0);
    let mut boxes = pyramid_at(&mut world, 6, 0.0, 0.0);
    step_until_asleep(&mut world, &boxes, 900);
    let top = boxes.pop().unwrap();
    world.destroy_body(top).unwrap();
    assert!(all_awake(&world, &boxes), "the island did not wake");
    assert_eq!(world.counters().awake_bodies, boxes.len());
    assert_eq!(world.counters().sleeping_sets, 0);
    assert!(!world.is_body_valid(top));
    step_until_asleep(&mut world, &boxes, 900);
    assert_eq!(world.counters().sleeping_sets, 1);
}

/// Over a scenario with sleeping, a wake by impulse, a wake by touch and sleeping again, every
/// body whose awake state changed over a step has exactly one event of that kind (naming its
/// island), and no other body has any.
#[test]
fn sleep_and_wake_events_match_state_changes() {
    let mut world = world_with_workers(1);
    add_ground(&mut world, 30.0);
    let mut bodies: Vec<BodyId> = Vec::new();
    for column in 0..3 {
        for level in 0..3 {
            let position = Vec2::new(-6.0 + 6.0 * column as f32, 0.5 + level as f32);
            let body = world.create_body(&BodyDef::dynamic_at(position)).unwrap();
            world
                .create_polygon_shape(body, &ShapeDef::default(), &make_square(0.5).unwrap())
                .unwrap();
            bodies.push(body);
        }
    }
    let mut awake: Vec<bool> = bodies.iter().map(|_| true).collect();
    let (mut sleeps, mut wakes) = (0, 0);
    for frame in 0..600 {
        match frame {
            150 => world
                .apply_linear_impulse_to_center(bodies[1], Vec2::new(0.0, 2.0))
                .unwrap(),
            300 => {
                let dropped = world
                    .create_body(&BodyDef::dynamic_at(Vec2::new(6.0, 6.0)))
                    .unwrap();
                world
                    .create_polygon_shape(dropped, &ShapeDef::default(), &make_square(0.5).unwrap())
                    .unwrap();
                bodies.push(dropped);
                awake.push(true);
            }
            _ => {}
        }
        step(&mut world);
        let events = world.body_events();
        for (index, &body) in bodies.iter().enumerate() {
            let now = world.is_awake(body).unwrap();
            let slept: Vec<IslandId> = events
                .sleep
                .iter()
                .filter(|e| e.body == body)
                .map(|e| e.island)
                .collect();
            let woke = events.wake.iter().filter(|e| e.body == body).count();
            let (expect_sleep, expect_wake) = (awake[index] && !now, !awake[index] && now);
            assert_eq!(slept.len(), usize::from(expect_sleep), "frame {frame}");
            assert_eq!(woke, usize::from(expect_wake), "frame {frame}");
            if let Some(&island) = slept.first() {
                assert_eq!(Some(island), world.body_island(body).unwrap());
            }
            awake[index] = now;
        }
        sleeps += events.sleep.len();
        wakes += events.wake.len();
    }
    // Three stacks slept (9), the impulse woke one stack (3), it slept again (3), the dropped
    // box woke the right stack (3), which slept again with the box (4).
    assert_eq!(sleeps, 9 + 3 + 4, "sleep events");
    assert_eq!(wakes, 3 + 3, "wake events");
}

/// A body that may not sleep keeps its island awake; other islands still sleep; disabling sleep
/// for the world wakes everything and keeps it awake.
#[test]
fn sleep_can_be_disabled_per_body_and_per_world() {
    let mut world = world_with_workers(1);
    add_ground(&mut world, 30.0);
    let insomniac = pyramid_at(&mut world, 3, -8.0, 0.0);
    let sleeper = pyramid_at(&mut world, 3, 8.0, 0.0);
    world.set_body_sleep_enabled(insomniac[5], false).unwrap();
    assert!(!world.is_body_sleep_enabled(insomniac[5]).unwrap());
    step_until_asleep(&mut world, &sleeper, 600);
    for _ in 0..120 {
        step(&mut world);
    }
    assert!(all_awake(&world, &insomniac));
    assert!(all_asleep(&world, &sleeper));

    world.set_sleep_enabled(false);
    assert!(!world.is_sleep_enabled());
    assert!(
        all_awake(&world, &sleeper),
        "disabling sleep wakes every island"
    );
    for _ in 0..120 {
        step(&mut world);
    }
    assert!(all_awake(&world, &sleeper) && all_awake(&world, &insomniac));
    world.set_sleep_enabled(true);
    step_until_asleep(&mut world, &sleeper, 600);
}

/// `set_awake(false)` puts an island to sleep at once and `set_awake(true)` wakes it with its
/// contacts' accumulated impulses intact, so it carries on as if it had never slept: the
/// contact data are bitwise the same before sleeping and after waking.
#[test]
fn explicit_sleep_and_wake_keep_warm_start_impulses() {
    let mut world = world_with_workers(1);
    add_ground(&mut world, 30.0);
    let stack = pyramid_at(&mut world, 4, 0.0, 0.0);
    world.set_sleep_enabled(false);
    for _ in 0..60 {
        step(&mut world);
    }
    world.set_sleep_enabled(true);
    let before: Vec<_> = world.body_contact_data(stack[0]).unwrap();
    assert!(
        before
            .iter()
            .any(|c| c.manifold.points[0].normal_impulse > 0.0)
    );
    world.set_awake(stack[0], false).unwrap();
    assert!(all_asleep(&world, &stack));
    assert_eq!(world.counters().awake_bodies, 0);
    assert_eq!(world.body_contact_data(stack[0]).unwrap(), before);
    assert_eq!(
        world.counters().touching_contacts,
        world.contact_data().count()
    );
    step(&mut world);
    world.set_awake(stack[3], true).unwrap();
    assert!(all_awake(&world, &stack));
    assert_eq!(world.body_contact_data(stack[0]).unwrap(), before);
}

/// A moving kinematic platform keeps the box riding it awake; stopped, the box sleeps; setting
/// the platform's velocity again wakes the box.
#[test]
fn moving_kinematic_body_keeps_what_it_touches_awake() {
    let mut world = world_with_workers(1);
    let platform = world
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            linear_velocity: Vec2::new(1.0, 0.0),
            ..BodyDef::fixed_at(Vec2::ZERO)
        })
        .unwrap();
    world
        .create_polygon_shape(
            platform,
            &ShapeDef::default(),
            &make_box(4.0, 0.25).unwrap(),
        )
        .unwrap();
    let rider = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 0.75)))
        .unwrap();
    // Frictionless and weightless: the platform does not drag the rider, which stays still,
    // so only the platform's motion can keep it awake.
    let slippery = ShapeDef {
        friction: 0.0,
        ..ShapeDef::default()
    };
    world
        .create_polygon_shape(rider, &slippery, &make_square(0.5).unwrap())
        .unwrap();
    world.set_gravity(Vec2::ZERO).unwrap();
    for _ in 0..120 {
        step(&mut world);
        assert!(world.is_awake(rider).unwrap(), "the rider fell asleep");
        assert!(world.linear_velocity(rider).unwrap().length() < THRESHOLD);
    }
    world.set_linear_velocity(platform, Vec2::ZERO).unwrap();
    world.set_linear_velocity(rider, Vec2::ZERO).unwrap();
    step_until_asleep(&mut world, &[rider], 120);
    assert!(
        world.is_awake(platform).unwrap(),
        "kinematic bodies never sleep"
    );
    world
        .set_linear_velocity(platform, Vec2::new(0.0, 1.0))
        .unwrap();
    assert!(
        world.is_awake(rider).unwrap(),
        "the platform did not wake its rider"
    );
}

/// Hash of every body's pose and velocity bits and its awake flag.
fn world_hash(world: &World, bodies: &[BodyId]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut mix = |bits: u32| {
        hash ^= u64::from(bits);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    };
    for &body in bodies {
        let t = world.transform(body).unwrap();
        let v = world.linear_velocity(body).unwrap();
        for value in [t.p.x, t.p.y, t.q.c, t.q.s, v.x, v.y] {
            mix(value.to_bits());
        }
        mix(world.angular_velocity(body).unwrap().to_bits());
        mix(u32::from(world.is_awake(body).unwrap()));
    }
    hash
}

/// Sleeping and waking are part of the deterministic step: two pyramids fall asleep, a box
/// wakes one, and the world hashes identically at every step for 1, 2 and 3 workers.
#[test]
fn sleeping_world_is_identical_for_any_worker_count() {
    let run = |workers: u32| -> (Vec<u64>, Vec<u64>) {
        let mut world = world_with_workers(workers);
        add_ground(&mut world, 40.0);
        let mut bodies = pyramid_at(&mut world, 6, -10.0, 0.0);
        bodies.extend(pyramid_at(&mut world, 6, 10.0, 0.0));
        let (mut hashes, mut sleeping_sets) = (Vec::new(), Vec::new());
        for frame in 0..420 {
            if frame == 200 {
                let dropped = world
                    .create_body(&BodyDef::dynamic_at(Vec2::new(-10.0, 9.0)))
                    .unwrap();
                world
                    .create_polygon_shape(dropped, &ShapeDef::default(), &make_square(0.5).unwrap())
                    .unwrap();
                bodies.push(dropped);
            }
            step(&mut world);
            let sleeping = world.counters().sleeping_sets as u64;
            hashes.push(world_hash(&world, &bodies) ^ sleeping);
            sleeping_sets.push(sleeping);
        }
        (hashes, sleeping_sets)
    };
    let (reference, sleeping_sets) = run(1);
    // The scenario does what it says: both pyramids asleep before the drop, one woken after.
    assert_eq!(sleeping_sets[199], 2);
    assert!(sleeping_sets[200..].contains(&1));
    for workers in [2, 3] {
        let (hashes, _) = run(workers);
        let first_difference = reference.iter().zip(&hashes).position(|(a, b)| a != b);
        assert_eq!(first_difference, None, "{workers} workers diverge");
    }
}

/// A column of `count` unit boxes standing on the ground at `x`, bottom first.
fn column_at(world: &mut World, x: f32, count: usize) -> Vec<BodyId> {
    (0..count)
        .map(|level| {
            let position = Vec2::new(x, 0.5 + level as f32);
            let body = world.create_body(&BodyDef::dynamic_at(position)).unwrap();
            world
                .create_polygon_shape(body, &ShapeDef::default(), &make_square(0.5).unwrap())
                .unwrap();
            body
        })
        .collect()
}

/// Two separate sleeping columns; a rod joint between their tops wakes both and merges their
/// islands, which then sleep as one; destroying the rod wakes them, the island splits, and the
/// two columns fall asleep again as two islands.
#[test]
fn joint_merges_islands_and_its_removal_splits_them() {
    let mut world = world_with_workers(1);
    add_ground(&mut world, 30.0);
    let left = column_at(&mut world, -2.0, 3);
    let right = column_at(&mut world, 2.0, 3);
    let both: Vec<BodyId> = left.iter().chain(&right).copied().collect();
    step_until_asleep(&mut world, &both, 600);
    assert_eq!(world.counters().sleeping_sets, 2);
    assert_ne!(
        world.body_island(left[0]).unwrap(),
        world.body_island(right[0]).unwrap()
    );

    let rod = world
        .create_distance_joint(&DistanceJointDef {
            base: JointDef::new(left[2], right[2]),
            settings: DistanceJoint {
                length: 4.0,
                ..DistanceJoint::default()
            },
        })
        .unwrap();
    assert!(
        all_awake(&world, &both),
        "creating the joint wakes both columns"
    );
    let joined = world.body_island(left[0]).unwrap();
    assert!(
        both.iter()
            .all(|&b| world.body_island(b).unwrap() == joined)
    );
    assert_eq!(world.counters().islands, 1);
    step_until_asleep(&mut world, &both, 600);
    assert_eq!(
        world.counters().sleeping_sets,
        1,
        "the joined columns sleep as one"
    );

    world.destroy_joint(rod).unwrap();
    assert!(
        all_awake(&world, &both),
        "destroying the joint wakes the island"
    );
    step_until_asleep(&mut world, &both, 600);
    assert_eq!(
        world.counters().sleeping_sets,
        2,
        "the columns sleep apart again"
    );
    assert_eq!(world.counters().islands, 2);
    let (island_left, island_right) = (
        world.body_island(left[0]).unwrap(),
        world.body_island(right[0]).unwrap(),
    );
    assert_ne!(island_left, island_right);
    assert!(
        left.iter()
            .all(|&b| world.body_island(b).unwrap() == island_left)
    );
    assert!(
        right
            .iter()
            .all(|&b| world.body_island(b).unwrap() == island_right)
    );
}

/// Two boxes 5 cm apart (closer than the broadphase margin, farther than the speculative
/// distance) sleep as two islands with a non-touching contact between them, owned by neither.
/// Pushing one into the other brings that contact back: when it begins touching, the other box
/// wakes and the two join one island.
#[test]
fn pushed_box_wakes_its_sleeping_neighbour() {
    let mut world = world_with_workers(1);
    add_ground(&mut world, 30.0);
    let pair: Vec<BodyId> = [-0.525, 0.525]
        .into_iter()
        .map(|x| {
            let body = world
                .create_body(&BodyDef::dynamic_at(Vec2::new(x, 0.5)))
                .unwrap();
            world
                .create_polygon_shape(body, &ShapeDef::default(), &make_square(0.5).unwrap())
                .unwrap();
            body
        })
        .collect();
    step_until_asleep(&mut world, &pair, 300);
    assert_eq!(world.counters().sleeping_sets, 2);
    // Box–ground (touching, asleep with each island) and box–box (not touching).
    assert_eq!(world.counters().contacts, 3);
    assert_eq!(world.counters().touching_contacts, 2);

    world
        .apply_linear_impulse_to_center(pair[0], Vec2::new(2.0, 0.0))
        .unwrap();
    assert!(world.is_awake(pair[0]).unwrap());
    assert!(!world.is_awake(pair[1]).unwrap());
    let mut met = false;
    for _ in 0..60 {
        step(&mut world);
        if world.is_awake(pair[1]).unwrap() {
            met = true;
            break;
        }
    }
    assert!(met, "the pushed box never woke its neighbour");
    assert_eq!(
        world.body_island(pair[0]).unwrap(),
        world.body_island(pair[1]).unwrap()
    );
    assert!(world.body_events().wake.iter().any(|e| e.body == pair[1]));
}
