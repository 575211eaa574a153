//! Large-angle pendulums at the default settings, against the exact period.
//!
//! A pendulum released from rest at angle θ₀ swings with the period
//! `T(θ₀) = 4·√(L/g)·K(sin(θ₀/2))`, with `K` the complete elliptic integral of the first kind
//! (computed here by the arithmetic–geometric mean) and `L` the pendulum's length — for a body
//! pinned at a point other than its centre of mass, the equivalent length `I_pivot/(m·d)`. The
//! tests release at 150°, where the period is 37 % longer than the small-angle one and very
//! sensitive to the amplitude, and measure over ten periods:
//!
//! - each period against the exact period at that period's own amplitude (the mean of its two
//!   swings), within 0.25 %: the timing error of the integration, separated from the energy
//!   the joint loses;
//! - the amplitude lost over the ten periods, under 1 %.

mod common;

use common::{DT, SUBSTEPS};
use prism::{
    BodyDef, BodyId, Circle, DistanceJoint, DistanceJointDef, JointDef, RevoluteJointDef, Rot,
    ShapeDef, Vec2, World, WorldDef, make_box,
};

const GRAVITY: f64 = 10.0;
const RELEASE: f64 = 150.0 * std::f64::consts::PI / 180.0;
const PIVOT: Vec2 = Vec2::new(0.0, 10.0);

/// `K(k)` by the arithmetic–geometric mean: `K = π / (2·AGM(1, √(1 − k²)))`.
fn elliptic_k(k: f64) -> f64 {
    let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
    while (a - b).abs() > 1e-15 * a {
        (a, b) = (0.5 * (a + b), (a * b).sqrt());
    }
    std::f64::consts::PI / (2.0 * a)
}

/// The exact period of a pendulum of equivalent length `length` swinging to `amplitude`.
fn exact_period(length: f64, amplitude: f64) -> f64 {
    4.0 * (length / GRAVITY).sqrt() * elliptic_k((0.5 * amplitude).sin())
}

/// Ten periods of a swing: each period with the amplitude it swung at.
struct Swing {
    periods: Vec<(f64, f64)>,
    /// The largest angle of the last half swing.
    last_amplitude: f64,
}

/// Steps until ten full periods have passed, timing the downward zero crossings of the angle of
/// `body`'s centre about the pivot (interpolated within the step) and the largest angle between
/// successive crossings.
fn swing(world: &mut World, body: BodyId) -> Swing {
    let angle = |world: &World| {
        let d = world.position(body).unwrap() - PIVOT;
        f64::from(d.x).atan2(-f64::from(d.y))
    };
    let (mut time, mut previous) = (0.0f64, angle(world));
    let (mut crossings, mut half_swings, mut largest) = (Vec::new(), Vec::new(), 0.0f64);
    while crossings.len() < 11 && time < 60.0 {
        world.step(DT, SUBSTEPS).unwrap();
        time += f64::from(DT);
        let now = angle(world);
        largest = largest.max(now.abs());
        if previous.signum() != now.signum() {
            half_swings.push(largest);
            largest = 0.0;
            if previous > 0.0 {
                crossings.push(time - f64::from(DT) * now / (now - previous));
            }
        }
        previous = now;
    }
    assert_eq!(crossings.len(), 11, "ten periods in a minute");
    // A period runs between two downward crossings; its two half swings are the ones whose
    // ends bound it (every other half swing lies between crossings of opposite direction).
    let first = half_swings.len() - 2 * (crossings.len() - 1);
    let periods = crossings
        .windows(2)
        .zip(half_swings[first..].chunks(2))
        .map(|(t, swings)| (t[1] - t[0], 0.5 * (swings[0] + swings[1])))
        .collect();
    Swing {
        periods,
        last_amplitude: *half_swings.last().unwrap(),
    }
}

fn assert_accurate(swing: &Swing, length: f64, what: &str) {
    for (i, &(period, amplitude)) in swing.periods.iter().enumerate() {
        let exact = exact_period(length, amplitude);
        let error = (period - exact) / exact;
        assert!(
            error.abs() < 0.0025,
            "{what}: period {i} is {period} s at {:.2}°, exact {exact} s ({:+.3} %)",
            amplitude.to_degrees(),
            100.0 * error
        );
    }
    let loss = 1.0 - swing.last_amplitude / RELEASE;
    assert!(
        (0.0..0.01).contains(&loss),
        "{what}: lost {:.3} % of its amplitude in ten periods",
        100.0 * loss
    );
}

fn world() -> World {
    World::new(WorldDef {
        enable_sleep: false,
        ..WorldDef::default()
    })
    .unwrap()
}

/// A 1 kg bob (a 5 cm circle, jointed at its centre so it does not turn) on a rigid 1 m distance
/// joint to a static pivot.
#[test]
fn distance_joint_pendulum_keeps_its_period_and_energy() {
    let mut world = world();
    let pivot = world.create_body(&BodyDef::fixed_at(PIVOT)).unwrap();
    let start = Vec2::new(RELEASE.sin() as f32, -(RELEASE.cos() as f32));
    let bob = world
        .create_body(&BodyDef::dynamic_at(PIVOT + start))
        .unwrap();
    let circle = Circle {
        center: Vec2::ZERO,
        radius: 0.05,
    };
    let shape = ShapeDef {
        density: 1.0 / (std::f32::consts::PI * 0.05 * 0.05),
        ..ShapeDef::default()
    };
    world.create_circle_shape(bob, &shape, &circle).unwrap();
    let rod = DistanceJointDef {
        settings: DistanceJoint {
            length: 1.0,
            ..DistanceJoint::default()
        },
        ..DistanceJointDef::new(JointDef::new(pivot, bob))
    };
    world.create_distance_joint(&rod).unwrap();
    assert!((world.mass_data(bob).unwrap().mass - 1.0).abs() < 1e-5);
    let swing = swing(&mut world, bob);
    assert_accurate(&swing, 1.0, "distance pendulum");
}

/// A 1 m × 5 cm rod pinned by a revolute joint at one end: a physical pendulum of equivalent
/// length `I_pivot/(m·d) = ((1² + 0.05²)/12 + ½²)/½ = 0.66708 m`.
#[test]
fn revolute_pinned_rod_keeps_its_period_and_energy() {
    let mut world = world();
    let pivot = world.create_body(&BodyDef::fixed_at(PIVOT)).unwrap();
    let direction = Vec2::new(RELEASE.sin() as f32, -(RELEASE.cos() as f32));
    let rod = world
        .create_body(&BodyDef {
            rotation: Rot::from_angle((RELEASE - std::f64::consts::FRAC_PI_2) as f32),
            ..BodyDef::dynamic_at(PIVOT + 0.5 * direction)
        })
        .unwrap();
    world
        .create_polygon_shape(rod, &ShapeDef::default(), &make_box(0.5, 0.025).unwrap())
        .unwrap();
    let hinge = JointDef {
        local_anchor_b: Vec2::new(-0.5, 0.0),
        ..JointDef::new(pivot, rod)
    };
    world
        .create_revolute_joint(&RevoluteJointDef::new(hinge))
        .unwrap();
    let length = ((1.0 + 0.05 * 0.05) / 12.0 + 0.25) / 0.5;
    let swing = swing(&mut world, rod);
    assert_accurate(&swing, length, "revolute rod");
}
