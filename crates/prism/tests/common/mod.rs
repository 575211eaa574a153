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

/// A static ground box whose top face is the line y = 0, spanning x ∈ [−half_width, half_width].
pub fn add_ground(world: &mut World, half_width: f32) -> BodyId {
    let ground = world
        .create_body(&BodyDef::fixed_at(Vec2::new(0.0, -1.0)))
        .unwrap();
    world
        .create_polygon_shape(ground, &ShapeDef::default(), &make_box(half_width, 1.0))
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
                .create_polygon_shape(body, &ShapeDef::default(), &make_square(a))
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
