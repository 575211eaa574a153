//! Scene pieces shared by the behaviour tests.

#![allow(dead_code)]

use prism::{BodyDef, BodyId, ShapeDef, SolverKind, Vec2, World, WorldDef, make_box, make_square};

/// 60 Hz, as in the benchmarks.
pub const DT: f32 = 1.0 / 60.0;
/// Box2D's default substep count.
pub const SUBSTEPS: u32 = 4;

/// A world with default settings and the given solver.
pub fn world_with(kind: SolverKind) -> World {
    World::new(WorldDef {
        solver_kind: kind,
        ..WorldDef::default()
    })
    .expect("default world")
}

/// A world built from `def` whose every step shares its passes with the helpers, light steps
/// included
/// (`World::set_light_steps_on_caller(false)`), so that tests comparing worker counts exercise
/// the parallel passes even on small worlds.
pub fn pooled_world(def: WorldDef) -> World {
    let mut world = World::new(def).expect("valid world definition");
    world.set_light_steps_on_caller(false);
    world
}

/// A static ground box whose top face is the line y = 0, spanning x ∈ [−half_width, half_width].
pub fn add_ground(world: &mut World, half_width: f32) -> BodyId {
    let ground = world
        .create_body(&BodyDef::fixed_at(Vec2::new(0.0, -1.0)))
        .unwrap();
    world
        .create_polygon_shape(
            ground,
            &ShapeDef::default(),
            &make_box(half_width, 1.0).unwrap(),
        )
        .unwrap();
    ground
}

/// A pyramid of unit boxes (half extent 0.5) on the ground, `rows` boxes at the base, laid out
/// as Box2D's large_pyramid benchmark. Returns the boxes, bottom row first.
pub fn add_pyramid(world: &mut World, rows: usize) -> Vec<BodyId> {
    let a = 0.5;
    let mut boxes = Vec::new();
    for i in 0..rows {
        let y = (2 * i + 1) as f32 * a;
        for j in i..rows {
            let x = (i + 1) as f32 * a + 2.0 * (j - i) as f32 * a - a * rows as f32;
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

/// Steps `count` times, failing the test on any step error.
pub fn run(world: &mut World, count: usize) {
    for _ in 0..count {
        world.step(DT, SUBSTEPS).expect("step");
    }
}

/// Steps `count` times with an explicit substep (or iteration) count.
pub fn run_with(world: &mut World, count: usize, substeps: u32) {
    for _ in 0..count {
        world.step(DT, substeps).expect("step");
    }
}

/// FNV-1a over the bits of every body's position, rotation and velocities, in body order.
pub fn world_hash(world: &World, bodies: &[BodyId]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &body in bodies {
        let transform = world.transform(body).unwrap();
        let velocity = world.linear_velocity(body).unwrap();
        let spin = world.angular_velocity(body).unwrap();
        let fields = [
            transform.p.x,
            transform.p.y,
            transform.q.c,
            transform.q.s,
            velocity.x,
            velocity.y,
            spin,
        ];
        for bits in fields.map(f32::to_bits) {
            for byte in bits.to_le_bytes() {
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
    }
    hash
}

/// A dense box at 40 m/s into a 40 × 30 block of 0.4 m squares, without gravity.
pub fn smash(world: &mut World) -> Vec<BodyId> {
    world.set_gravity(Vec2::ZERO).unwrap();
    let smasher = world
        .create_body(&BodyDef {
            linear_velocity: Vec2::new(40.0, 0.0),
            ..BodyDef::dynamic_at(Vec2::new(-20.0, 0.0))
        })
        .unwrap();
    let heavy = ShapeDef {
        density: 8.0,
        ..ShapeDef::default()
    };
    world
        .create_polygon_shape(smasher, &heavy, &make_box(4.0, 4.0).unwrap())
        .unwrap();
    let mut bodies = vec![smasher];
    let (d, columns, rows) = (0.4f32, 40i32, 30i32);
    let square = make_square(0.5 * d).unwrap();
    for i in 0..columns {
        for j in 0..rows {
            let position = Vec2::new(30.0 + d * i as f32, d * (j - rows / 2) as f32);
            let target = world.create_body(&BodyDef::dynamic_at(position)).unwrap();
            world
                .create_polygon_shape(target, &ShapeDef::default(), &square)
                .unwrap();
            bodies.push(target);
        }
    }
    bodies
}
