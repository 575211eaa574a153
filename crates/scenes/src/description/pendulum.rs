//! Validation scenes: pendulums released at 150° from the downward vertical in gravity 10 —
//! pendulum_distance (a bob on a rigid distance joint) and pendulum_revolute (a rod pinned at
//! one end).
//!
//! Neither touches anything, so they measure the joints alone: a joint solver that loses
//! energy shortens the swing, one whose correction drifts changes the period. Released from
//! rest at θ₀ = 150° the motion is far from the small-angle sine, and its exact period is
//! `T = 4 √(L/g) K(sin(θ₀/2))` with `L` the equivalent simple-pendulum length
//! ([`crate::figures::pendulum`]):
//!
//! - **pendulum_distance** — a circle of radius 0.05 m and mass 1 kg on a 1 m rigid distance
//!   joint to a static pivot, anchored at the circle's centre. A distance joint passes no
//!   torque to a body anchored at its centre, so the circle never turns: its inertia plays no
//!   part and it swings as a point mass, `L = 1 m`, `T = 3.5013 s`.
//! - **pendulum_revolute** — a rod 1 m × 0.05 m (density 1, 0.05 kg) pinned by a revolute
//!   joint at one end. About the pin its inertia is `I = m (l² + w²)/12 + m d²` with
//!   `d = l/2` the pin–centre distance, so `L = I/(m d) = (l² + w²)/(12 d) + d = 0.66708 m`,
//!   `T = 2.8598 s`.
//!
//! Both run 40 s, which holds ten periods of either (the figures measure over ten).

use super::joint::{DistanceDesc, RevoluteDesc};
use super::model::{BodyDesc, BodyGroup, BodyKind, Geometry, ShapeDesc, square_box};
use super::probes::Probes;
use crate::figures::{Check, PendulumCheck};
use prism::Vec2;
use std::f32::consts::{FRAC_PI_2, PI};

/// The release angle from the downward vertical (rad).
const RELEASE: f32 = 150.0 * PI / 180.0;
/// The pivot (static body origin and joint anchor).
const PIVOT: Vec2 = Vec2::new(0.0, 2.0);
/// The magnitude of the scenes' gravity (m/s²).
const GRAVITY: f32 = 10.0;

/// The unit vector from the pivot toward a body at swing angle `theta`.
fn swing_direction(theta: f32) -> Vec2 {
    Vec2::new(theta.sin(), -theta.cos())
}

/// A 1 kg bob of radius 0.05 m on a rigid 1 m distance joint.
pub(super) fn pendulum_distance() -> (BodyGroup, Probes) {
    let (length, radius, mass) = (1.0f32, 0.05f32, 1.0f32);
    let pivot = BodyDesc::new(BodyKind::Static, PIVOT);
    let circle = Geometry::Circle {
        center: Vec2::ZERO,
        radius,
    };
    let density = mass / (PI * radius * radius);
    let bob = BodyDesc::new(BodyKind::Dynamic, PIVOT + length * swing_direction(RELEASE))
        .with_shape(ShapeDesc::new(circle).density(density));
    let rod = DistanceDesc::rod(0, 1, Vec2::ZERO, Vec2::ZERO, length);
    let check = PendulumCheck {
        pivot: PIVOT,
        local_anchor: Vec2::ZERO,
        anchor_distance: length,
        release_angle: RELEASE,
        equivalent_length: length,
        gravity: GRAVITY,
    };
    let group = BodyGroup {
        bodies: vec![pivot, bob],
        joints: vec![rod.into()],
    };
    (group, pendulum_probes(check))
}

/// A 1 m × 0.05 m rod pinned at one end.
pub(super) fn pendulum_revolute() -> (BodyGroup, Probes) {
    let (length, width) = (1.0f32, 0.05f32);
    let d = 0.5 * length;
    let pivot = BodyDesc::new(BodyKind::Static, PIVOT);
    // The rod's x axis points from the pin to its centre.
    let rod = BodyDesc::new(BodyKind::Dynamic, PIVOT + d * swing_direction(RELEASE))
        .rotated(RELEASE - FRAC_PI_2)
        .with_shape(ShapeDesc::new(square_box(d, 0.5 * width)));
    let pin = Vec2::new(-d, 0.0);
    let hinge = RevoluteDesc::hinge(0, 1, Vec2::ZERO, pin);
    let check = PendulumCheck {
        pivot: PIVOT,
        local_anchor: pin,
        anchor_distance: 0.0,
        release_angle: RELEASE,
        equivalent_length: (length * length + width * width) / (12.0 * d) + d,
        gravity: GRAVITY,
    };
    let group = BodyGroup {
        bodies: vec![pivot, rod],
        joints: vec![hinge.into()],
    };
    (group, pendulum_probes(check))
}

fn pendulum_probes(check: PendulumCheck) -> Probes {
    Probes {
        subjects: vec![1],
        check: Some(Check::Pendulum(check)),
        ..Probes::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::Pose;

    fn check_of(probes: &Probes) -> PendulumCheck {
        match probes.check {
            Some(Check::Pendulum(check)) => check,
            other => panic!("not a pendulum: {other:?}"),
        }
    }

    /// Both bodies start at 150° with their joint closed, and the exact periods are the ones
    /// the module notes derive.
    #[test]
    fn released_at_150_degrees_with_joints_closed() {
        for (build, period) in [
            (pendulum_distance as fn() -> (BodyGroup, Probes), 3.5013),
            (pendulum_revolute, 2.8598),
        ] {
            let (group, probes) = build();
            let check = check_of(&probes);
            let body = &group.bodies[probes.subjects[0]];
            let pose = Pose {
                position: body.position,
                angle: body.angle,
            };
            assert!((check.angle(&pose) - f64::from(RELEASE)).abs() < 1e-6);
            let anchor = pose.transform(check.local_anchor);
            let gap = (anchor - check.pivot).length() - check.anchor_distance;
            assert!(gap.abs() < 1e-6, "joint opened by {gap}");
            let exact = check.exact_period().unwrap();
            assert!((exact - period).abs() < 1e-4, "{exact} vs {period}");
        }
    }
}
