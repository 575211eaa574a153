//! Momentum: two frictionless bodies colliding head-on in zero gravity exchange momentum but
//! conserve its sum.

mod common;

use prism::{BodyDef, Circle, ShapeDef, SolverKind, Vec2, World, WorldDef, make_box};

#[test]
fn head_on_collision_conserves_linear_momentum() {
    for kind in [SolverKind::SoftStep, SolverKind::SequentialImpulses] {
        let def = WorldDef {
            gravity: Vec2::ZERO,
            solver_kind: kind,
            ..WorldDef::default()
        };
        let mut world = World::new(def).unwrap();
        let frictionless = ShapeDef {
            friction: 0.0,
            ..ShapeDef::default()
        };
        let heavy = ShapeDef {
            density: 3.0,
            ..frictionless
        };

        let disk = world
            .create_body(&BodyDef {
                linear_velocity: Vec2::new(5.0, 0.0),
                ..BodyDef::dynamic_at(Vec2::new(-2.0, 0.0))
            })
            .unwrap();
        world
            .create_circle_shape(
                disk,
                &frictionless,
                &Circle {
                    center: Vec2::ZERO,
                    radius: 0.5,
                },
            )
            .unwrap();
        let block = world
            .create_body(&BodyDef {
                linear_velocity: Vec2::new(-1.0, 0.0),
                ..BodyDef::dynamic_at(Vec2::new(2.0, 0.0))
            })
            .unwrap();
        world
            .create_polygon_shape(block, &heavy, &make_box(0.3, 0.3).unwrap())
            .unwrap();

        let momentum = |world: &World| {
            [disk, block]
                .iter()
                .map(|&b| world.mass_data(b).unwrap().mass * world.linear_velocity(b).unwrap())
                .fold(Vec2::ZERO, |sum, p| sum + p)
        };
        let before = momentum(&world);
        for _ in 0..120 {
            world.step(1.0 / 60.0, 4).unwrap();
        }
        let after = momentum(&world);
        assert!(
            world.linear_velocity(block).unwrap().x > 0.0,
            "{kind:?}: the bodies never met"
        );
        let error = (after - before).length() / before.length();
        assert!(
            error < 1e-3,
            "{kind:?}: momentum {before:?} -> {after:?} (error {error})"
        );
    }
}
