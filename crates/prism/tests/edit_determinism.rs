//! Determinism across edits: the same calls between steps — type changes, disabling and
//! enabling, a driven kinematic body, filter, density and rotation-lock changes, an explosion
//! — give bitwise the same world for 1, 2 and 4 workers, checked after every step. Every edit
//! rebuilds part of the structures the parallel passes split (colours, solver sets, islands,
//! broadphase trees), so a dependence of those rebuilds on the worker count, or of the passes
//! on their layout, shows up as a differing bit.
//!
//! With `--features validate` every step also checks the whole world's structures.

mod common;

use common::{DT, SUBSTEPS, add_ground, add_pyramid, world_hash};
use prism::{
    BodyDef, BodyId, BodyType, Circle, ExplosionDef, Filter, RevoluteJointDef, Rot, ShapeDef,
    ShapeId, Vec2, World, WorldDef, make_box, math,
};

const WORKER_COUNTS: [u32; 3] = [1, 2, 4];
const STEPS: usize = 200;

struct Scene {
    world: World,
    bodies: Vec<BodyId>,
    pyramid: Vec<BodyId>,
    links: Vec<BodyId>,
    platform: BodyId,
    ground: BodyId,
}

/// Ground, a 12-row pyramid, a chain of six hinged disks hung from a static anchor, and a
/// kinematic platform under the chain's end.
fn build(worker_count: u32) -> Scene {
    let mut world = common::pooled_world(WorldDef {
        worker_count,
        ..WorldDef::default()
    });
    let ground = add_ground(&mut world, 40.0);
    let pyramid = add_pyramid(&mut world, 12);
    let anchor = world
        .create_body(&BodyDef::fixed_at(Vec2::new(15.0, 8.0)))
        .unwrap();
    let mut links = Vec::new();
    let mut previous = anchor;
    for k in 1..=6 {
        let at = Vec2::new(15.0 + 0.5 * k as f32, 8.0);
        let link = world.create_body(&BodyDef::dynamic_at(at)).unwrap();
        let circle = Circle {
            center: Vec2::ZERO,
            radius: 0.2,
        };
        world
            .create_circle_shape(link, &ShapeDef::default(), &circle)
            .unwrap();
        let pivot = at - Vec2::new(0.25, 0.0);
        let def = world.anchored_joint_def(previous, link, pivot).unwrap();
        world
            .create_revolute_joint(&RevoluteJointDef::new(def))
            .unwrap();
        links.push(link);
        previous = link;
    }
    let platform = world
        .create_body(&BodyDef::kinematic_at(Vec2::new(17.0, 3.0)))
        .unwrap();
    world
        .create_polygon_shape(platform, &ShapeDef::default(), &make_box(2.0, 0.2).unwrap())
        .unwrap();
    let mut bodies = pyramid.clone();
    bodies.extend(&links);
    bodies.push(platform);
    Scene {
        world,
        bodies,
        pyramid,
        links,
        platform,
        ground,
    }
}

fn first_shape(world: &World, body: BodyId) -> ShapeId {
    world.body_shapes(body).unwrap()[0]
}

/// The calls made before step `step` (the same for every world).
fn edit(scene: &mut Scene, step: usize) {
    let world = &mut scene.world;
    let t = step as f32 * DT;
    let (s, c) = math::sin_cos(2.0 * t);
    let target = Vec2::new(17.0 + 2.0 * s, 3.0 + 0.5 * c);
    world
        .set_target_transform(scene.platform, target, Rot::from_angle(0.2 * s), DT)
        .unwrap();
    let victim = scene.pyramid[7];
    let link = scene.links[2];
    match step {
        20 => world.set_body_type(victim, BodyType::Static).unwrap(),
        30 => world.disable_body(link).unwrap(),
        40 => world
            .explode(&ExplosionDef {
                position: Vec2::new(0.0, 2.0),
                radius: 1.5,
                falloff: 3.0,
                impulse_per_length: 4.0,
                ..ExplosionDef::default()
            })
            .unwrap(),
        50 => {
            world.set_body_type(victim, BodyType::Kinematic).unwrap();
            world
                .set_linear_velocity(victim, Vec2::new(0.0, 1.0))
                .unwrap();
        }
        60 => world.enable_body(link).unwrap(),
        70 => world.set_body_type(victim, BodyType::Dynamic).unwrap(),
        80 => {
            let shape = first_shape(world, scene.pyramid[3]);
            let deaf = Filter {
                mask_bits: !1,
                ..Filter::default()
            };
            world.set_shape_filter(shape, deaf).unwrap();
            world
                .set_shape_density(first_shape(world, scene.pyramid[9]), 4.0)
                .unwrap();
            world.set_fixed_rotation(scene.links[4], true).unwrap();
        }
        90 => {
            let shape = first_shape(world, scene.pyramid[3]);
            world.set_shape_filter(shape, Filter::default()).unwrap();
            world.disable_body(scene.pyramid[0]).unwrap();
        }
        110 => {
            world
                .set_body_type(scene.links[5], BodyType::Static)
                .unwrap();
            world
                .set_shape_friction(first_shape(world, scene.pyramid[1]), 0.1)
                .unwrap();
        }
        130 => {
            world.enable_body(scene.pyramid[0]).unwrap();
            world
                .set_body_type(scene.links[5], BodyType::Dynamic)
                .unwrap();
            world.set_fixed_rotation(scene.links[4], false).unwrap();
        }
        150 => world.disable_body(scene.ground).unwrap(),
        170 => world.enable_body(scene.ground).unwrap(),
        _ => {}
    }
}

#[test]
fn edits_between_steps_are_identical_for_1_2_and_4_workers() {
    let mut scenes: Vec<Scene> = WORKER_COUNTS.iter().map(|&w| build(w)).collect();
    let mut history = Vec::with_capacity(STEPS);
    for step in 0..STEPS {
        let hashes: Vec<u64> = scenes
            .iter_mut()
            .map(|scene| {
                edit(scene, step);
                scene
                    .world
                    .step(DT, SUBSTEPS)
                    .unwrap_or_else(|e| panic!("step {step}: {e}"));
                world_hash(&scene.world, &scene.bodies)
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
    history.sort_unstable();
    history.dedup();
    assert!(history.len() > STEPS / 2, "the world hardly moved");
    // The edits happened: the chain's third link is back, the pyramid's victim dynamic.
    let world = &scenes[0].world;
    assert!(world.is_body_enabled(scenes[0].links[2]).unwrap());
    assert_eq!(
        world.body_type(scenes[0].pyramid[7]).unwrap(),
        BodyType::Dynamic
    );
}
