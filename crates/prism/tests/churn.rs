//! Churn: a long deterministic sequence of random creations, destructions and teleports while
//! stepping. With `--features validate` every step also checks the world's internal
//! back-references and both trees.

mod common;

use common::{DT, SUBSTEPS, add_ground, world_with};
use prism::{BodyDef, BodyId, Capsule, Circle, Rot, ShapeDef, ShapeId, SolverKind, Vec2, make_box};

/// A small linear congruential generator (Knuth's MMIX constants): reproducible, no dependency.
struct Lcg(u64);

impl Lcg {
    fn next_u32(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }

    fn below(&mut self, n: usize) -> usize {
        self.next_u32() as usize % n
    }

    /// Uniform in [lo, hi).
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.next_u32() as f32 / (1u64 << 31) as f32)
    }
}

#[test]
fn random_edits_keep_the_world_consistent() {
    let mut world = world_with(SolverKind::SoftStep);
    add_ground(&mut world, 30.0);
    let mut rng = Lcg(7);
    let mut bodies: Vec<BodyId> = Vec::new();
    let mut shapes: Vec<ShapeId> = Vec::new();
    let (mut destroyed_bodies, mut destroyed_shapes) = (0, 0);
    for _ in 0..600 {
        match rng.below(10) {
            0..=3 => {
                let position = Vec2::new(rng.range(-20.0, 20.0), rng.range(0.5, 8.0));
                let body = world.create_body(&BodyDef::dynamic_at(position)).unwrap();
                let def = ShapeDef::default();
                let shape = match rng.below(3) {
                    0 => world.create_circle_shape(
                        body,
                        &def,
                        &Circle {
                            center: Vec2::ZERO,
                            radius: rng.range(0.1, 0.6),
                        },
                    ),
                    1 => world.create_polygon_shape(
                        body,
                        &def,
                        &make_box(rng.range(0.1, 0.6), rng.range(0.1, 0.6)).unwrap(),
                    ),
                    _ => {
                        let capsule = Capsule {
                            center1: Vec2::new(-0.3, 0.0),
                            center2: Vec2::new(0.3, 0.0),
                            radius: 0.2,
                        };
                        world.create_capsule_shape(body, &def, &capsule)
                    }
                };
                bodies.push(body);
                shapes.push(shape.unwrap());
            }
            4 if !bodies.is_empty() => {
                let body = bodies.swap_remove(rng.below(bodies.len()));
                world.destroy_body(body).unwrap();
                destroyed_bodies += 1;
            }
            5 if !shapes.is_empty() => {
                let shape = shapes.swap_remove(rng.below(shapes.len()));
                // The shape may have gone with its body.
                if world.is_shape_valid(shape) {
                    world.destroy_shape(shape).unwrap();
                    destroyed_shapes += 1;
                }
            }
            6 if !bodies.is_empty() => {
                let body = bodies[rng.below(bodies.len())];
                let position = Vec2::new(rng.range(-20.0, 20.0), rng.range(0.5, 8.0));
                world
                    .set_transform(body, position, Rot::from_angle(rng.range(-3.0, 3.0)))
                    .unwrap();
            }
            _ => {}
        }
        world.step(DT, SUBSTEPS).unwrap();
    }
    assert!(
        destroyed_bodies > 20 && destroyed_shapes > 10,
        "the sequence exercised destruction"
    );
    let counters = world.counters();
    assert_eq!(counters.bodies, bodies.len() + 1);
    // Resting bodies may have fallen asleep: the awake count is exactly those still awake.
    let awake = bodies
        .iter()
        .filter(|&&b| world.is_awake(b).unwrap())
        .count();
    assert_eq!(counters.awake_bodies, awake);
    for &body in &bodies {
        let p = world.position(body).unwrap();
        assert!(p.is_finite());
        if world.body_shapes(body).unwrap().is_empty() {
            continue; // lost its only shape: nothing holds it up
        }
        assert!(
            p.is_finite() && p.y > -1.0,
            "body at {p:?} fell through the ground"
        );
    }
    assert!(counters.touching_contacts > 0);
}
