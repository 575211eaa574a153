//! Determinism with sensors, events and hooks: the same calls give bitwise the same world and
//! the same events for 1, 2, 3 and 4 workers.
//!
//! The scene exercises every event pass at a size where the passes split into several chunks:
//! 640 shapes rain onto one-way platforms (pre-solve hook) and the ground, through 48 static
//! sensor zones and past two kinematic sensors; a third of the shapes report hits; a custom
//! filter refuses some pairs. After every step the bodies' state and every event list — contact
//! begin, end and hit, sensor begin and end, body moves with their transforms and sleep flags —
//! are hashed, and the four worlds' hashes must agree.

mod common;

use common::{DT, SUBSTEPS, world_hash};
use prism::{
    BodyDef, BodyId, Circle, Segment, ShapeDef, Vec2, World, WorldDef, make_box, make_square,
};

const WORKER_COUNTS: [u32; 4] = [1, 2, 3, 4];

/// FNV-1a over a stream of 32-bit words.
struct Fnv(u64);

impl Fnv {
    fn word(&mut self, value: u32) {
        for byte in value.to_le_bytes() {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn vec(&mut self, v: Vec2) {
        self.word(v.x.to_bits());
        self.word(v.y.to_bits());
    }
}

/// Builds the scene; returns the bodies whose state is hashed.
fn build(world: &mut World) -> Vec<BodyId> {
    let mut bodies = Vec::new();
    let ground = world
        .create_body(&BodyDef::fixed_at(Vec2::new(0.0, -1.0)))
        .unwrap();
    world
        .create_polygon_shape(ground, &ShapeDef::default(), &make_box(40.0, 1.0).unwrap())
        .unwrap();
    let one_way = ShapeDef {
        enable_pre_solve_events: true,
        ..ShapeDef::default()
    };
    for k in 0..4 {
        let x = -24.0 + 16.0 * k as f32;
        let segment = Segment {
            point1: Vec2::new(x - 4.0, 6.0),
            point2: Vec2::new(x + 4.0, 6.0),
        };
        world
            .create_segment_shape(ground, &one_way, &segment)
            .unwrap();
    }
    let sensor = ShapeDef {
        is_sensor: true,
        ..ShapeDef::default()
    };
    for k in 0..48 {
        let at = Vec2::new(-33.0 + 1.4 * k as f32, 3.0 + (k % 3) as f32);
        let zone = world.create_body(&BodyDef::fixed_at(at)).unwrap();
        world
            .create_polygon_shape(zone, &sensor, &make_box(0.6, 0.4).unwrap())
            .unwrap();
    }
    for (x, speed) in [(-30.0, 3.0), (30.0, -3.0)] {
        let sweeper = world
            .create_body(&BodyDef {
                linear_velocity: Vec2::new(speed, 0.0),
                ..BodyDef::kinematic_at(Vec2::new(x, 1.0))
            })
            .unwrap();
        world
            .create_polygon_shape(sweeper, &sensor, &make_box(1.0, 1.0).unwrap())
            .unwrap();
        bodies.push(sweeper);
    }
    for k in 0..640u32 {
        let at = Vec2::new(-32.0 + 0.8 * (k % 80) as f32, 9.0 + 0.9 * (k / 80) as f32);
        let body = world.create_body(&BodyDef::dynamic_at(at)).unwrap();
        let def = ShapeDef {
            restitution: 0.3,
            enable_hit_events: k % 3 == 0,
            enable_custom_filtering: k % 7 == 0,
            user_data: u64::from(k),
            ..ShapeDef::default()
        };
        if k % 2 == 0 {
            let circle = Circle {
                center: Vec2::ZERO,
                radius: 0.3,
            };
            world.create_circle_shape(body, &def, &circle).unwrap();
        } else {
            world
                .create_polygon_shape(body, &def, &make_square(0.3).unwrap())
                .unwrap();
        }
        bodies.push(body);
    }
    world.set_custom_filter(|pair| (pair.user_data_a + pair.user_data_b) % 5 != 0);
    world.set_pre_solve(|contact| contact.normal.y.abs() < 0.5 || contact.separation > -0.2);
    bodies
}

/// The bodies' state and every event list of the last step, hashed.
fn step_hash(world: &World, bodies: &[BodyId]) -> u64 {
    let mut h = Fnv(world_hash(world, bodies));
    let contacts = world.contact_events();
    for e in &contacts.begin {
        h.word(e.shape_a.index());
        h.word(e.shape_b.index());
    }
    for e in &contacts.end {
        h.word(e.shape_a.index());
        h.word(e.shape_b.index());
    }
    for e in &contacts.hit {
        h.word(e.shape_a.index());
        h.word(e.shape_b.index());
        h.vec(e.point);
        h.vec(e.normal);
        h.word(e.approach_speed.to_bits());
    }
    let sensors = world.sensor_events();
    for e in &sensors.begin {
        h.word(e.sensor_shape.index());
        h.word(e.visitor_shape.index());
    }
    for e in &sensors.end {
        h.word(e.sensor_shape.index());
        h.word(e.visitor_shape.index());
    }
    for e in world.body_move_events() {
        h.word(e.body.index());
        h.vec(e.transform.p);
        h.word(e.transform.q.c.to_bits());
        h.word(e.transform.q.s.to_bits());
        h.word(u32::from(e.fell_asleep));
    }
    h.0
}

#[test]
fn sensors_events_and_hooks_are_identical_for_1_to_4_workers() {
    let mut worlds: Vec<(World, Vec<BodyId>)> = WORKER_COUNTS
        .iter()
        .map(|&worker_count| {
            let mut world = common::pooled_world(WorldDef {
                worker_count,
                ..WorldDef::default()
            });
            let bodies = build(&mut world);
            (world, bodies)
        })
        .collect();
    let mut totals = [0usize; 5];
    for step in 0..300 {
        let hashes: Vec<u64> = worlds
            .iter_mut()
            .map(|(world, bodies)| {
                world.step(DT, SUBSTEPS).unwrap();
                step_hash(world, bodies)
            })
            .collect();
        for (&workers, &hash) in WORKER_COUNTS.iter().zip(&hashes) {
            assert_eq!(
                hash, hashes[0],
                "step {step}: {workers} workers differ from 1 worker"
            );
        }
        let world = &worlds[0].0;
        totals[0] += world.sensor_events().begin.len();
        totals[1] += world.sensor_events().end.len();
        totals[2] += world.contact_events().hit.len();
        totals[3] += world.body_move_events().len();
        totals[4] += world
            .body_move_events()
            .iter()
            .filter(|e| e.fell_asleep)
            .count();
    }
    // Every kind of event happened, in numbers that split across chunks.
    let [sensor_begins, sensor_ends, hits, moves, fell_asleep] = totals;
    assert!(sensor_begins > 100 && sensor_ends > 100, "{totals:?}");
    assert!(hits > 50 && moves > 300 * 256, "{totals:?}");
    assert!(fell_asleep > 0, "{totals:?}");
}

/// Thousands of moving bodies, so that the finalize pass's chunks push their move events
/// into parts of the array on several workers: the array — which bodies, in which order, with
/// which transforms — is the same for 1 to 4 workers, and names every falling body once.
#[test]
fn thousands_of_move_events_are_identical_for_1_to_4_workers() {
    const COLUMNS: usize = 80;
    const ROWS: usize = 60;
    let mut worlds: Vec<World> = WORKER_COUNTS
        .iter()
        .map(|&worker_count| {
            let mut world = common::pooled_world(WorldDef {
                worker_count,
                ..WorldDef::default()
            });
            let shape = ShapeDef::default();
            let square = make_square(0.2).unwrap();
            for i in 0..COLUMNS * ROWS {
                let at = Vec2::new((i % COLUMNS) as f32, 10.0 + (i / COLUMNS) as f32);
                let body = world.create_body(&BodyDef::dynamic_at(at)).unwrap();
                world.create_polygon_shape(body, &shape, &square).unwrap();
            }
            world
        })
        .collect();
    for step in 0..4 {
        for world in &mut worlds {
            world.step(DT, SUBSTEPS).unwrap();
        }
        let first = worlds[0].body_move_events();
        assert_eq!(first.len(), COLUMNS * ROWS, "step {step}: every body falls");
        let bodies: std::collections::HashSet<BodyId> = first.iter().map(|e| e.body).collect();
        assert_eq!(
            bodies.len(),
            first.len(),
            "step {step}: a body listed twice"
        );
        for (world, workers) in worlds.iter().zip(WORKER_COUNTS).skip(1) {
            assert!(
                world.body_move_events() == first,
                "step {step}: {workers} workers' move events differ from 1 worker's"
            );
        }
    }
}
