//! Restitution: a ball with e = 0.5 dropped from 2 m rebounds to e²·2 m = 0.5 m.

mod common;

use common::{DT, SUBSTEPS, add_ground, world_with};
use prism::{BodyDef, Circle, ShapeDef, SolverKind, Vec2};

#[test]
fn ball_rebounds_to_a_quarter_of_its_drop_height() {
    let radius = 0.25;
    let mut world = world_with(SolverKind::SoftStep);
    add_ground(&mut world, 10.0);
    let ball = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 2.0 + radius)))
        .unwrap();
    let shape = ShapeDef {
        restitution: 0.5,
        ..ShapeDef::default()
    };
    world
        .create_circle_shape(
            ball,
            &shape,
            &Circle {
                center: Vec2::ZERO,
                radius,
            },
        )
        .unwrap();

    // Fall until the ball moves upward (the bounce), then follow it to the top of its arc.
    let mut bounced = false;
    let mut apex = f32::NEG_INFINITY;
    for _ in 0..300 {
        world.step(DT, SUBSTEPS).unwrap();
        let vy = world.linear_velocity(ball).unwrap().y;
        let height = world.position(ball).unwrap().y - radius;
        if !bounced && vy > 0.0 {
            bounced = true;
        }
        if bounced {
            apex = apex.max(height);
            if vy < 0.0 {
                break;
            }
        }
    }
    assert!(bounced, "the ball never bounced");
    // e = 0.5: the rebound speed is half the impact speed, so the height is a quarter.
    let expected = 0.25 * 2.0;
    assert!(
        (apex - expected).abs() < 0.1 * expected,
        "rebound height {apex} m, expected {expected} m"
    );
}
