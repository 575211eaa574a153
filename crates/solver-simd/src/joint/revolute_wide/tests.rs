//! The wide hinge kernel against the scalar one, bit for bit.

use super::*;
use crate::joint::{JointBody, JointImpulses};
use crate::softness::Softness;
use crate::test_rng::Rng;
use core_soa::{BodyState, Transform, body_flags};

/// The draws the hinges below are made of.
trait Draws {
    fn chance(&mut self, percent: u64) -> bool;
    fn value(&mut self, lo: f32, hi: f32) -> f32;
    fn vector(&mut self, size: f32) -> Vec2;
}

impl Draws for Rng {
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// Mostly `[lo, hi)`, sometimes exactly `+0` or `−0`.
    fn value(&mut self, lo: f32, hi: f32) -> f32 {
        match self.below(10) {
            0 => 0.0,
            1 => -0.0,
            _ => self.range(lo, hi),
        }
    }

    fn vector(&mut self, size: f32) -> Vec2 {
        Vec2::new(self.value(-size, size), self.value(-size, size))
    }
}

/// A body state for a lane: dynamic, kinematic (not written back) or, by the caller, none.
fn random_state(rng: &mut Rng) -> BodyState {
    BodyState {
        linear_velocity: rng.vector(3.0),
        angular_velocity: rng.value(-4.0, 4.0),
        flags: if rng.chance(85) {
            body_flags::DYNAMIC
        } else {
            0
        },
        delta_position: rng.vector(0.05),
        delta_rotation: Rot::from_angle(rng.value(-0.3, 0.3)),
    }
}

fn random_softness(rng: &mut Rng) -> Softness {
    let hertz = if rng.chance(15) {
        0.0
    } else {
        rng.range(0.5, 60.0)
    };
    Softness::new(hertz, rng.range(0.0, 5.0), 1.0 / 240.0)
}

/// A hinge between bodies `2·lane` and `2·lane + 1` (or a static body) with every setting,
/// prepared value and carried impulse drawn at random, covering the cases the kernel
/// branches on: rows switched on and off, limits open and violated, a zero motor torque,
/// anchors far apart (the plain turn), bodies that cannot turn or move at all (`K`
/// singular), and zeros of both signs.
fn random_hinge(rng: &mut Rng, lane: u32) -> JointConstraint {
    let settings = RevoluteJoint {
        enable_spring: rng.chance(60),
        hertz: 0.0,
        damping_ratio: 0.0,
        enable_limit: rng.chance(60),
        lower_angle: rng.range(-1.0, 0.0),
        upper_angle: rng.range(0.0, 1.0),
        enable_motor: rng.chance(60),
        motor_speed: rng.value(-2.0, 2.0),
        max_motor_torque: if rng.chance(20) {
            0.0
        } else {
            rng.range(0.0, 50.0)
        },
    };
    let mut side = |index: u32| {
        let fixed = rng.chance(15);
        let turns = !rng.chance(10);
        let inv_mass = if fixed { 0.0 } else { rng.range(0.1, 3.0) };
        let inv_inertia = if fixed || !turns {
            0.0
        } else {
            rng.range(0.1, 20.0)
        };
        let index = if fixed && rng.chance(50) {
            NULL_BODY
        } else {
            index
        };
        JointBody::awake(index, inv_mass, inv_inertia, Transform::IDENTITY)
    };
    let (a, b) = (side(2 * lane), side(2 * lane + 1));
    let mut joint = JointConstraint::new(JointKind::Revolute(settings), a, b);
    let p = &mut joint.prepared;
    p.bodies.index_a = a.index;
    p.bodies.index_b = b.index;
    (p.bodies.inv_mass_a, p.bodies.inv_inertia_a) = (a.inv_mass, a.inv_inertia);
    (p.bodies.inv_mass_b, p.bodies.inv_inertia_b) = (b.inv_mass, b.inv_inertia);
    p.anchor_a = rng.vector(1.0);
    p.anchor_b = rng.vector(1.0);
    let apart = if rng.chance(25) { 2.0 } else { 0.01 };
    p.delta_center = p.anchor_a - p.anchor_b + rng.vector(apart);
    p.joint_softness = random_softness(rng);
    p.spring_softness = random_softness(rng);
    p.angular_mass = crate::joint::rows::inverse_or_zero(a.inv_inertia + b.inv_inertia);
    p.delta_angle = rng.value(-1.5, 1.5);
    joint.impulses = JointImpulses {
        linear: rng.vector(0.5),
        angular: 0.0,
        spring: rng.value(-0.2, 0.2),
        motor: rng.value(-0.2, 0.2),
        lower: rng.value(0.0, 0.2),
        upper: rng.value(0.0, 0.2),
    };
    joint
}

/// Every bit of the states and the joints' impulses, for comparison.
fn bits(states: &[BodyState], joints: &[JointConstraint]) -> Vec<u32> {
    let state = |s: &BodyState| {
        [
            s.linear_velocity.x,
            s.linear_velocity.y,
            s.angular_velocity,
            s.delta_position.x,
            s.delta_position.y,
        ]
    };
    let impulses = |j: &JointConstraint| {
        let i = j.impulses;
        [i.linear.x, i.linear.y, i.spring, i.motor, i.lower, i.upper]
    };
    let floats = states.iter().flat_map(state);
    floats
        .chain(joints.iter().flat_map(impulses))
        .map(f32::to_bits)
        .collect()
}

#[test]
fn lanes_reproduce_the_scalar_hinge_bit_for_bit() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut params = JointParams::for_substep(1.0 / 240.0, 60.0, 2.0, true);
    let mut checked_angle_rows = 0;
    for round in 0..400 {
        // One joint softness for all joints, as preparation gives them, drawn per round.
        params.joint_softness = random_softness(&mut rng);
        let joints: [JointConstraint; LANES] = core::array::from_fn(|lane| {
            let mut joint = random_hinge(&mut rng, lane as u32);
            joint.prepared.joint_softness = params.joint_softness;
            joint
        });
        let states: Vec<BodyState> = (0..2 * LANES).map(|_| random_state(&mut rng)).collect();
        let (mut scalar_states, mut scalar_joints) = (states.clone(), joints);
        let mut wide_states = states;
        // Loaded once, as the prepare stage does; the passes then work on the lanes in place.
        let (mut lanes, angle) = RevoluteLanes::load(&joints, wide_states.len()).unwrap();
        assert_eq!(angle.is_some(), lanes.has_angle_rows);
        // Warm start, biased solve, relax: the passes of a substep, twice.
        for pass in 0..6 {
            let use_bias = pass % 3 == 1;
            for joint in &mut scalar_joints {
                match pass % 3 {
                    0 => joint.warm_start(&mut scalar_states),
                    _ => joint.solve(&mut scalar_states, &params, use_bias),
                }
            }
            match pass % 3 {
                0 => lanes.warm_start(wide_states.as_mut_slice()),
                _ => lanes.solve(
                    angle.as_ref(),
                    wide_states.as_mut_slice(),
                    &params,
                    use_bias,
                ),
            }
            let mut joints = joints;
            lanes.store_impulses(&mut joints);
            assert_eq!(
                bits(&wide_states, &joints),
                bits(&scalar_states, &scalar_joints),
                "round {round}, pass {pass}:\n{:?}\n{:?}",
                joints.map(|j| j.impulses),
                scalar_joints.map(|j| j.impulses),
            );
        }
        checked_angle_rows += joints
            .iter()
            .filter(|j| j.prepared.angular_mass > 0.0)
            .count();
    }
    // Most hinges had angle rows to solve (the rest check the point block alone).
    assert!(checked_angle_rows > 400 * LANES / 2, "{checked_angle_rows}");
}

#[test]
fn a_group_with_another_kind_is_not_loaded() {
    let mut rng = Rng(7);
    let mut joints: [JointConstraint; LANES] =
        core::array::from_fn(|lane| random_hinge(&mut rng, lane as u32));
    assert!(RevoluteLanes::load(&joints, 2 * LANES).is_some());
    joints[LANES - 1].kind = JointKind::Weld(Default::default());
    assert!(RevoluteLanes::load(&joints, 2 * LANES).is_none());
}
