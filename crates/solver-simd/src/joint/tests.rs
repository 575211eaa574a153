//! Joint behaviour on hand-built scenes, stepped by the soft step's own sequence:
//! `begin_step → prepare → (integrate v → warm start → solve → integrate x → relax) × N →
//! finalize`, with the crate's integration functions. Static bodies are `NULL_BODY` with a
//! fixed pose. Unless a test says otherwise: 60 Hz steps, 4 substeps, g = 10 m/s² downward,
//! joint softness 60 Hz with damping ratio 2 (5 against static bodies).

use super::*;
use crate::integrate::{
    VelocityIntegration, VelocityTerms, begin_step, finalize_bodies, integrate_positions,
    integrate_velocities,
};
use core_soa::body_flags;
use std::f32::consts::PI;

const G: f32 = 10.0;

struct Scene {
    states: Vec<BodyState>,
    sims: Vec<BodySim>,
    joints: Vec<JointConstraint>,
    params: SolverParams,
    time: f32,
}

impl Scene {
    fn new(gravity: f32) -> Scene {
        Scene {
            states: Vec::new(),
            sims: Vec::new(),
            joints: Vec::new(),
            params: SolverParams {
                gravity: Vec2::new(0.0, -gravity),
                ..SolverParams::default()
            },
            time: 0.0,
        }
    }

    /// Adds a dynamic body with its centre of mass at `center`, turned by `angle`.
    fn add_body(&mut self, center: Vec2, angle: f32, mass: f32, inertia: f32) -> u32 {
        let q = Rot::from_angle(angle);
        self.states.push(BodyState {
            flags: body_flags::DYNAMIC,
            ..BodyState::IDENTITY
        });
        self.sims.push(BodySim {
            transform: Transform::new(center, q),
            center,
            mass,
            inv_mass: 1.0 / mass,
            inertia,
            inv_inertia: 1.0 / inertia,
            ..BodySim::default()
        });
        (self.states.len() - 1) as u32
    }

    /// The joint side for awake body `index` with its frame at `anchor` (body coordinates from
    /// the centre of mass), frame orientation `frame_angle`.
    fn side(&self, index: u32, anchor: Vec2, frame_angle: f32) -> JointBody {
        let sim = &self.sims[index as usize];
        let frame = Transform::new(anchor, Rot::from_angle(frame_angle));
        JointBody::awake(index, sim.inv_mass, sim.inv_inertia, frame)
    }

    fn add_joint(&mut self, kind: JointKind, a: JointBody, b: JointBody) -> usize {
        let joint = JointConstraint::new(kind, a, b);
        self.joints.push(joint);
        self.joints.len() - 1
    }

    fn h(&self) -> f32 {
        self.params.dt / self.params.substep_count() as f32
    }

    fn step(&mut self) {
        let params = JointParams::new(&self.params);
        let velocity = VelocityIntegration {
            h: params.h,
            gravity: self.params.gravity,
            max_linear_speed: self.params.max_linear_speed,
        };
        let mut terms = vec![VelocityTerms::default(); self.sims.len()];
        let out = Some((&mut terms[..], &velocity));
        begin_step(&mut self.states, &mut self.sims, out);
        prepare_joints(&mut self.joints, &self.sims, &params);
        for _ in 0..self.params.substep_count() {
            integrate_velocities(&mut self.states, &terms, &velocity);
            warm_start_joints(&self.joints, &mut self.states);
            solve_joints(&mut self.joints, &mut self.states, &params, true);
            integrate_positions(&mut self.states, params.h);
            solve_joints(&mut self.joints, &mut self.states, &params, false);
        }
        let mut non_finite = Vec::new();
        finalize_bodies(&mut self.states, &mut self.sims, 0, &mut non_finite);
        assert!(non_finite.is_empty(), "blow-up in bodies {non_finite:?}");
        self.time += self.params.dt;
    }

    /// Steps for `seconds`, calling `observe` after every step.
    fn run(&mut self, seconds: f32, mut observe: impl FnMut(&Scene)) {
        let steps = (seconds / self.params.dt).round() as usize;
        for _ in 0..steps {
            self.step();
            observe(self);
        }
    }

    fn center(&self, index: u32) -> Vec2 {
        self.sims[index as usize].center
    }

    fn angle(&self, index: u32) -> f32 {
        self.sims[index as usize].transform.q.angle()
    }

    fn reaction(&self, joint: usize) -> JointReaction {
        self.joints[joint].reaction(1.0 / self.h())
    }

    fn velocity(&self, index: u32) -> Vec2 {
        self.states[index as usize].linear_velocity
    }

    fn omega(&self, index: u32) -> f32 {
        self.states[index as usize].angular_velocity
    }

    fn set_velocity(&mut self, index: u32, linear: Vec2, angular: f32) {
        let state = &mut self.states[index as usize];
        state.linear_velocity = linear;
        state.angular_velocity = angular;
    }

    /// Joins awake body `index`, at `anchor` (frame orientation 0), to a ground frame at the
    /// origin.
    fn join_to_ground(&mut self, kind: JointKind, index: u32, anchor: Vec2) -> usize {
        let b = self.side(index, anchor, 0.0);
        self.add_joint(kind, ground(Vec2::ZERO, 0.0), b)
    }

    /// Two free bodies thrown at each other: A (2 kg) at (−0.5, 0) moving at (1, 2) m/s and
    /// spinning at 3 rad/s; B (1 kg) at `b_center`, turned by `b_angle`, moving at
    /// (−2, 0.5) m/s and spinning at `b_spin`.
    fn thrown_pair(&mut self, b_center: Vec2, b_angle: f32, b_spin: f32) -> (u32, u32) {
        let a = self.add_body(Vec2::new(-0.5, 0.0), 0.0, 2.0, 0.3);
        let b = self.add_body(b_center, b_angle, 1.0, 0.1);
        self.set_velocity(a, Vec2::new(1.0, 2.0), 3.0);
        self.set_velocity(b, Vec2::new(-2.0, 0.5), b_spin);
        (a, b)
    }

    /// The total linear momentum of the bodies.
    fn momentum(&self) -> Vec2 {
        self.sims
            .iter()
            .zip(&self.states)
            .map(|(sim, state)| sim.mass * state.linear_velocity)
            .sum()
    }

    /// The world position of a joint side's anchor now.
    fn anchor_position(&self, side: &JointBody) -> Vec2 {
        match self.sims.get(side.index as usize) {
            Some(sim) => sim.transform.apply(side.local_frame.p),
            None => side.fixed_pose.apply(side.local_frame.p),
        }
    }

    /// The distance between a joint's two anchors now: zero for a hinge that holds.
    fn anchor_gap(&self, joint: usize) -> f32 {
        let joint = &self.joints[joint];
        (self.anchor_position(&joint.body_b) - self.anchor_position(&joint.body_a)).length()
    }
}

/// A static body at the origin with its frame at `anchor` (world), orientation `frame_angle`.
fn ground(anchor: Vec2, frame_angle: f32) -> JointBody {
    JointBody::fixed(
        Transform::IDENTITY,
        Transform::new(anchor, Rot::from_angle(frame_angle)),
    )
}

/// Inertia of a solid box of mass `m` and sides `w × h` about its centre.
fn box_inertia(m: f32, w: f32, h: f32) -> f32 {
    m * (w * w + h * h) / 12.0
}

/// Times at which a sampled signal crosses zero, by linear interpolation between samples.
fn zero_crossings(samples: &[(f32, f32)]) -> Vec<f32> {
    samples
        .windows(2)
        .filter(|w| (w[0].1 < 0.0) != (w[1].1 < 0.0))
        .map(|w| {
            let (t0, x0) = w[0];
            let (t1, x1) = w[1];
            t0 + (t1 - t0) * x0 / (x0 - x1)
        })
        .collect()
}

/// The period of an oscillation from its zero crossings: two crossings per period.
fn period_from_crossings(crossings: &[f32]) -> f32 {
    assert!(crossings.len() >= 5, "too few crossings: {crossings:?}");
    let half_periods = (crossings.len() - 1) as f32;
    2.0 * (crossings[crossings.len() - 1] - crossings[0]) / half_periods
}

/// The period of a pendulum of small-amplitude period `t0` swinging to `amplitude` radians:
/// `T = T0·(1 + θ²/16 + 11θ⁴/3072 + …)`. At 5° the correction is 4.8e-4.
fn finite_amplitude_period(t0: f32, amplitude: f32) -> f32 {
    let a2 = amplitude * amplitude;
    t0 * (1.0 + a2 / 16.0 + 11.0 * a2 * a2 / 3072.0)
}

#[test]
fn distance_pendulum_period_matches_simple_pendulum() {
    // A point mass (anchor at its centre, so its own inertia plays no part) on a rigid 1 m rod.
    let mut scene = Scene::new(G);
    let amplitude = 5.0_f32.to_radians();
    let start = Vec2::new(amplitude.sin(), -amplitude.cos());
    let bob = scene.add_body(start, 0.0, 1.0, 0.01);
    let b = scene.side(bob, Vec2::ZERO, 0.0);
    let rod = DistanceJoint::default();
    scene.add_joint(JointKind::Distance(rod), ground(Vec2::ZERO, 0.0), b);
    let mut samples = Vec::new();
    scene.run(10.0, |s| samples.push((s.time, s.center(bob).x)));
    let measured = period_from_crossings(&zero_crossings(&samples));
    let analytic = finite_amplitude_period(2.0 * PI * (1.0 / G).sqrt(), amplitude);
    let error = (measured - analytic).abs() / analytic;
    assert!(
        error < 0.01,
        "period {measured} s vs {analytic} s ({error})"
    );
}

#[test]
fn revolute_compound_pendulum_period() {
    // A dense 0.1 m box whose centre hangs 1 m below the pivot: a compound pendulum with
    // I_pivot = I_c + m·L², period 2π·√(I_pivot/(m·g·L)).
    let mut scene = Scene::new(G);
    let (m, side, length) = (1.0, 0.1, 1.0);
    let inertia = box_inertia(m, side, side);
    let amplitude = 5.0_f32.to_radians();
    let start = length * Vec2::new(amplitude.sin(), -amplitude.cos());
    let bob = scene.add_body(start, amplitude, m, inertia);
    // The pivot is `length` above the centre in the box's own frame.
    let hinge = JointKind::Revolute(RevoluteJoint::default());
    let joint = scene.join_to_ground(hinge, bob, Vec2::new(0.0, length));
    let mut samples = Vec::new();
    let mut worst_gap: f32 = 0.0;
    scene.run(10.0, |s| {
        samples.push((s.time, s.center(bob).x));
        worst_gap = worst_gap.max(s.anchor_gap(joint));
    });
    let measured = period_from_crossings(&zero_crossings(&samples));
    let i_pivot = inertia + m * length * length;
    let t0 = 2.0 * PI * (i_pivot / (m * G * length)).sqrt();
    let analytic = finite_amplitude_period(t0, amplitude);
    let error = (measured - analytic).abs() / analytic;
    assert!(
        error < 0.01,
        "period {measured} s vs {analytic} s ({error})"
    );
    // The pivot stays put: the load is about m·g, and the soft point row deflects by
    // g/ω² = 10/(2π·60)² = 0.07 mm under it; allow 1 mm.
    assert!(worst_gap < 1e-3, "pivot drifted {worst_gap} m");
}

#[test]
fn revolute_motor_reaches_its_speed_with_enough_torque() {
    // A wheel hinged at its centre: gravity is carried by the point rows and the motor sees
    // only the inertia, so ω grows at τ/I until it reaches the target speed.
    let mut scene = Scene::new(G);
    let (inertia, torque, speed) = (0.5, 10.0, 3.0);
    let wheel = scene.add_body(Vec2::ZERO, 0.0, 2.0, inertia);
    let motor = RevoluteJoint {
        enable_motor: true,
        motor_speed: speed,
        max_motor_torque: torque,
        ..RevoluteJoint::default()
    };
    let joint = scene.join_to_ground(JointKind::Revolute(motor), wheel, Vec2::ZERO);
    scene.run(0.1, |_| {});
    // After 0.1 s at τ/I = 20 rad/s²: 2 rad/s, well before saturation at 0.15 s.
    let omega = scene.omega(wheel);
    assert!((omega - 2.0).abs() < 0.02 * 2.0, "ω(0.1 s) = {omega}");
    assert!((scene.reaction(joint).torque - torque).abs() < 1e-3 * torque);
    scene.run(0.9, |_| {});
    let omega = scene.omega(wheel);
    assert!((omega - speed).abs() < 1e-3 * speed, "ω(1 s) = {omega}");
    // At speed the motor only holds: no torque is needed.
    assert!(scene.reaction(joint).torque.abs() < 1e-2);
}

#[test]
fn revolute_motor_stalls_under_a_heavier_load() {
    // A 1 kg mass 1 m out on a horizontal arm: gravity's torque about the pivot is 10 N·m,
    // twice what the motor may apply, so the arm falls although the motor pushes it up.
    let mut scene = Scene::new(G);
    let arm = scene.add_body(Vec2::new(1.0, 0.0), 0.0, 1.0, box_inertia(1.0, 0.1, 0.1));
    let motor = RevoluteJoint {
        enable_motor: true,
        motor_speed: 1.0,
        max_motor_torque: 5.0,
        ..RevoluteJoint::default()
    };
    let joint = scene.join_to_ground(JointKind::Revolute(motor), arm, Vec2::new(-1.0, 0.0));
    scene.run(0.25, |_| {});
    let omega = scene.omega(arm);
    assert!(omega < 0.0, "the arm should be falling, ω = {omega}");
    assert!(scene.angle(arm) < -0.05, "angle {}", scene.angle(arm));
    // The motor is saturated at its limit.
    let torque = scene.reaction(joint).torque;
    assert!((torque - 5.0).abs() < 1e-3, "motor torque {torque}");
}

#[test]
fn revolute_limit_holds_under_gravity() {
    // The arm starts horizontal, swinging down at 3 rad/s, and the lower limit is −30°.
    let mut scene = Scene::new(G);
    let arm = scene.add_body(Vec2::new(1.0, 0.0), 0.0, 1.0, box_inertia(1.0, 0.1, 0.1));
    scene.set_velocity(arm, Vec2::new(0.0, -3.0), -3.0);
    let lower = -30.0_f32.to_radians();
    let limited = RevoluteJoint {
        enable_limit: true,
        lower_angle: lower,
        upper_angle: 30.0_f32.to_radians(),
        ..RevoluteJoint::default()
    };
    scene.join_to_ground(JointKind::Revolute(limited), arm, Vec2::new(-1.0, 0.0));
    let mut lowest = f32::MAX;
    scene.run(3.0, |s| lowest = lowest.min(s.angle(arm)));
    let tolerance = 0.5_f32.to_radians();
    assert!(
        lowest > lower - tolerance,
        "overshoot to {}°",
        lowest.to_degrees()
    );
    let resting = scene.angle(arm);
    assert!(
        (resting - lower).abs() < tolerance,
        "rests at {}°",
        resting.to_degrees()
    );
}

#[test]
fn revolute_spring_settles_at_the_reference_angle() {
    // No gravity; the frames say the joint angle is θB − θA − 0.5, so the spring rests at 0.5.
    let mut scene = Scene::new(0.0);
    let wheel = scene.add_body(Vec2::ZERO, 0.0, 1.0, 0.2);
    let spring = RevoluteJoint {
        enable_spring: true,
        hertz: 2.0,
        damping_ratio: 1.0,
        ..RevoluteJoint::default()
    };
    let b = scene.side(wheel, Vec2::ZERO, -0.5);
    scene.add_joint(JointKind::Revolute(spring), ground(Vec2::ZERO, 0.0), b);
    scene.run(3.0, |_| {});
    assert!(
        (scene.angle(wheel) - 0.5).abs() < 1e-3,
        "{}",
        scene.angle(wheel)
    );
}

#[test]
fn prismatic_limit_holds_and_the_slider_stays_on_its_axis() {
    // A vertical slider (frame A turned 90°, so its x axis points up) through the origin; the
    // body falls from translation 0 to the lower limit at −1 m, arriving at √(2·g·1) ≈ 4.5 m/s.
    let mut scene = Scene::new(G);
    let block = scene.add_body(Vec2::ZERO, 0.0, 1.0, box_inertia(1.0, 0.2, 0.2));
    let slider = PrismaticJoint {
        enable_limit: true,
        lower_translation: -1.0,
        upper_translation: 0.5,
        ..PrismaticJoint::default()
    };
    let b = scene.side(block, Vec2::ZERO, PI / 2.0);
    scene.add_joint(
        JointKind::Prismatic(slider),
        ground(Vec2::ZERO, PI / 2.0),
        b,
    );
    let (mut lowest, mut widest, mut most_turned) = (f32::MAX, 0.0_f32, 0.0_f32);
    scene.run(3.0, |s| {
        lowest = lowest.min(s.center(block).y);
        widest = widest.max(s.center(block).x.abs());
        most_turned = most_turned.max(s.angle(block).abs());
    });
    assert!(lowest > -1.0 - 0.005, "overshoot to {lowest}");
    assert!(
        (scene.center(block).y + 1.0).abs() < 0.005,
        "rests at {}",
        scene.center(block).y
    );
    assert!(
        widest < 1e-4 && most_turned < 1e-4,
        "off axis {widest}, turned {most_turned}"
    );
}

#[test]
fn prismatic_motor_drives_at_its_speed() {
    let mut scene = Scene::new(0.0);
    let block = scene.add_body(Vec2::ZERO, 0.0, 2.0, 0.1);
    let motor = PrismaticJoint {
        enable_motor: true,
        motor_speed: 0.5,
        max_motor_force: 100.0,
        ..PrismaticJoint::default()
    };
    scene.join_to_ground(JointKind::Prismatic(motor), block, Vec2::ZERO);
    scene.run(1.0, |_| {});
    let v = scene.velocity(block);
    assert!((v.x - 0.5).abs() < 1e-4 && v.y.abs() < 1e-6, "v = {v}");
    // The motor adds at most h·F = 0.417 N·s per substep, so the speed runs 0.208, 0.417,
    // then 0.5 m/s; symplectic Euler moves by h·v after each, so the body lags the ideal
    // 0.5 m by h·((0.5 − 0.208) + (0.5 − 0.417)) = 1.56 mm.
    let h = scene.h();
    let (mut speed, mut lag) = (0.0_f32, 0.0_f32);
    while speed < 0.5 {
        speed = (speed + h * 100.0 / 2.0).min(0.5);
        lag += h * (0.5 - speed);
    }
    let x = scene.center(block).x;
    assert!(
        (x - (0.5 - lag)).abs() < 1e-5,
        "x = {x}, expected {}",
        0.5 - lag
    );
}

/// The oscillation frequency of a 2 kg mass on `spring` (rest length 1 m), released from
/// 1.1 m with no gravity, measured from 3 s of zero crossings.
fn distance_spring_frequency(spring: DistanceJoint) -> f32 {
    let mut scene = Scene::new(0.0);
    let bob = scene.add_body(Vec2::new(1.1, 0.0), 0.0, 2.0, 0.1);
    scene.join_to_ground(JointKind::Distance(spring), bob, Vec2::ZERO);
    let mut samples = Vec::new();
    scene.run(3.0, |s| {
        samples.push((s.time, s.center(bob).length() - 1.0))
    });
    1.0 / period_from_crossings(&zero_crossings(&samples))
}

/// An undamped 2 Hz spring of rest length 1 m.
fn undamped_2hz() -> DistanceJoint {
    DistanceJoint {
        length: 1.0,
        enable_spring: true,
        hertz: 2.0,
        damping_ratio: 0.0,
        ..DistanceJoint::default()
    }
}

#[test]
fn distance_spring_oscillates_at_its_frequency() {
    let measured = distance_spring_frequency(undamped_2hz());
    let hertz = undamped_2hz().hertz;
    let error = (measured - hertz).abs() / hertz;
    assert!(error < 0.02, "{measured} Hz vs {hertz} Hz ({error})");
}

#[test]
fn distance_spring_ignores_limits_that_are_off() {
    // Limits pinned at the rest length but switched off leave the spring a spring.
    let pinned_but_off = DistanceJoint {
        min_length: 1.0,
        max_length: 1.0,
        ..undamped_2hz()
    };
    let measured = distance_spring_frequency(pinned_but_off);
    let hertz = pinned_but_off.hertz;
    let error = (measured - hertz).abs() / hertz;
    assert!(error < 0.02, "{measured} Hz vs {hertz} Hz ({error})");
}

#[test]
fn rigid_distance_keeps_its_length_through_a_full_swing() {
    // Released from horizontal: at the bottom the rod carries m·g + m·v²/L = 3·m·g.
    //
    // The length error has two parts. One is the soft row's static deflection under that load,
    // F/(m·ω²) = 3g/(2π·60)² = 0.21 mm. The other is geometric: each substep moves the bob along
    // a straight line, off the circle by (v·h)²/(2L), and the biased pass pulls back the fraction
    // mass_scale·bias_rate·h of the error per substep. They balance at
    // δ = v²·h/(2L·mass_scale·bias_rate), largest at the bottom where v² = 2gL:
    // δ = g·h/(mass_scale·bias_rate) = 0.35 mm with the joint softness (60 Hz, ζ = 0.5). The
    // error stays within their sum and above the larger of the two.
    let mut scene = Scene::new(G);
    let bob = scene.add_body(Vec2::new(1.0, 0.0), 0.0, 1.0, 0.01);
    let joint = scene.join_to_ground(
        JointKind::Distance(DistanceJoint::default()),
        bob,
        Vec2::ZERO,
    );
    let (mut worst, mut peak_force) = (0.0_f32, 0.0_f32);
    scene.run(3.0, |s| {
        worst = worst.max((s.center(bob).length() - 1.0).abs());
        peak_force = peak_force.max(s.reaction(joint).force.length());
    });
    let h = scene.h();
    let soft = JointParams::new(&scene.params).joint_softness;
    let geometric = G * h / (soft.mass_scale * soft.bias_rate);
    let omega = 2.0 * std::f32::consts::PI * 60.0;
    let deflection = 3.0 * G / (omega * omega);
    assert!(
        worst < geometric + deflection && worst > geometric.max(deflection),
        "length error {worst} m vs {geometric} m + {deflection} m"
    );
    // The largest tension is the bottom of the swing, 3·m·g (within the step's sampling).
    assert!(
        (peak_force - 3.0 * G).abs() < 0.03 * 3.0 * G,
        "peak {peak_force} N"
    );
}

#[test]
fn weld_holds_a_cantilever_with_small_sag() {
    // A 1 m × 0.1 m, 1 kg beam welded at its left end to the ground, held horizontal.
    let mut scene = Scene::new(G);
    let beam = scene.add_body(Vec2::new(0.5, 0.0), 0.0, 1.0, box_inertia(1.0, 1.0, 0.1));
    let joint = scene.join_to_ground(
        JointKind::Weld(WeldJoint::default()),
        beam,
        Vec2::new(-0.5, 0.0),
    );
    scene.run(2.0, |_| {});
    let sag = -scene.center(beam).y;
    let tilt = scene.angle(beam).abs();
    assert!((0.0..1e-3).contains(&sag), "sag {sag} m");
    assert!(tilt < 0.1_f32.to_radians(), "tilt {}°", tilt.to_degrees());
    // Equilibrium of the beam: the point row carries its weight, and the angle row the
    // moment of that weight about the anchor, m·g·0.5 m.
    let reaction = scene.reaction(joint);
    assert!(
        (reaction.force - Vec2::new(0.0, G)).length() < 0.01 * G,
        "{reaction:?}"
    );
    assert!(
        (reaction.torque - 0.5 * G).abs() < 0.01 * 0.5 * G,
        "{reaction:?}"
    );
}

#[test]
fn soft_weld_bends_by_the_spring_deflection() {
    // A point mass welded at its centre with a 2 Hz linear part: it hangs g/ω² = 6.3 cm low.
    let mut scene = Scene::new(G);
    let bob = scene.add_body(Vec2::ZERO, 0.0, 1.0, 0.1);
    let soft = WeldJoint {
        linear_hertz: 2.0,
        linear_damping_ratio: 1.0,
        ..WeldJoint::default()
    };
    scene.join_to_ground(JointKind::Weld(soft), bob, Vec2::ZERO);
    scene.run(4.0, |_| {});
    let expected = G / (2.0 * PI * 2.0).powi(2);
    let sag = -scene.center(bob).y;
    assert!(
        (sag - expected).abs() < 0.01 * expected,
        "sag {sag} vs {expected}"
    );
}

#[test]
fn target_joint_pulls_a_body_to_the_target() {
    // The spring (5 Hz, ζ = 0.7) settles g/ω² = 1.01 cm below the target under gravity.
    let mut scene = Scene::new(G);
    let body = scene.add_body(Vec2::ZERO, 0.0, 2.0, 0.2);
    let target = Vec2::new(2.0, 1.0);
    let pull = TargetJoint {
        target,
        hertz: 5.0,
        damping_ratio: 0.7,
        max_force: 1000.0,
    };
    scene.join_to_ground(JointKind::Target(pull), body, Vec2::ZERO);
    scene.run(3.0, |_| {});
    let sag = G / (2.0 * PI * 5.0).powi(2);
    let offset = scene.center(body) - target;
    assert!(offset.x.abs() < 1e-4, "{offset}");
    assert!((offset.y + sag).abs() < 0.01 * sag, "{offset} vs sag {sag}");
}

#[test]
fn target_joint_force_is_bounded() {
    // No gravity; 5 N on 2 kg toward a far target: the body accelerates at 2.5 m/s² at most.
    let mut scene = Scene::new(0.0);
    let body = scene.add_body(Vec2::ZERO, 0.0, 2.0, 0.2);
    let pull = TargetJoint {
        target: Vec2::new(100.0, 0.0),
        max_force: 5.0,
        ..TargetJoint::default()
    };
    let joint = scene.join_to_ground(JointKind::Target(pull), body, Vec2::ZERO);
    scene.run(0.5, |_| {});
    let v = scene.velocity(body);
    assert!((v.x - 1.25).abs() < 1e-3 && v.y.abs() < 1e-6, "v = {v}");
    assert!((scene.reaction(joint).force.length() - 5.0).abs() < 1e-3);
}

#[test]
fn hanging_mass_reports_its_weight() {
    // 3 kg hanging 1 m below a hinge and 1 m below a distance joint: both carry m·g = 30 N.
    let mut scene = Scene::new(G);
    let m = 3.0;
    let on_hinge = scene.add_body(Vec2::new(0.0, -1.0), 0.0, m, 0.05);
    let on_rod = scene.add_body(Vec2::new(5.0, -1.0), 0.0, m, 0.05);
    let hinge_b = scene.side(on_hinge, Vec2::new(0.0, 1.0), 0.0);
    let rod_b = scene.side(on_rod, Vec2::ZERO, 0.0);
    let hinge = scene.add_joint(
        JointKind::Revolute(RevoluteJoint::default()),
        ground(Vec2::ZERO, 0.0),
        hinge_b,
    );
    let rod = scene.add_joint(
        JointKind::Distance(DistanceJoint::default()),
        ground(Vec2::new(5.0, 0.0), 0.0),
        rod_b,
    );
    scene.run(1.0, |_| {});
    for joint in [hinge, rod] {
        let force = scene.reaction(joint).force;
        assert!(
            (force - Vec2::new(0.0, m * G)).length() < 0.01 * m * G,
            "joint {joint}: {force}"
        );
    }
}

#[test]
fn joint_between_free_bodies_conserves_momentum() {
    // No gravity; two bodies hinged together, thrown with different velocities and spins.
    let mut scene = Scene::new(0.0);
    let (a, b) = scene.thrown_pair(Vec2::new(0.5, 0.0), 0.0, 0.0);
    let start = scene.momentum();
    let side_a = scene.side(a, Vec2::new(0.5, 0.0), 0.0);
    let side_b = scene.side(b, Vec2::new(-0.5, 0.0), 0.0);
    let hinge = JointKind::Revolute(RevoluteJoint::default());
    let joint = scene.add_joint(hinge, side_a, side_b);
    let mut worst_gap: f32 = 0.0;
    scene.run(2.0, |s| worst_gap = worst_gap.max(s.anchor_gap(joint)));
    let end = scene.momentum();
    // Equal and opposite impulses: momentum changes by rounding only.
    assert!((end - start).length() < 1e-4, "{start} → {end}");
    // The hinge holds while the pair tumbles (the first step absorbs the initial mismatch of
    // the anchor velocities, about 2.5 m/s·h before the rows catch it).
    assert!(worst_gap < 5e-3, "gap {worst_gap}");
}

#[test]
fn wheel_suspension_sags_by_the_spring_deflection_and_motor_spins() {
    // A wheel on a vertical strut: 4 Hz suspension, rest at the frame origin, so under its
    // weight it settles g/ω² = 1.58 cm low; the motor spins it at 5 rad/s.
    let mut scene = Scene::new(G);
    let wheel = scene.add_body(Vec2::ZERO, 0.0, 1.0, 0.05);
    let strut = WheelJoint {
        enable_spring: true,
        hertz: 4.0,
        damping_ratio: 0.7,
        enable_motor: true,
        motor_speed: 5.0,
        max_motor_torque: 10.0,
        ..WheelJoint::default()
    };
    let b = scene.side(wheel, Vec2::ZERO, 0.0);
    let joint = scene.add_joint(JointKind::Wheel(strut), ground(Vec2::ZERO, PI / 2.0), b);
    scene.run(3.0, |_| {});
    let expected = G / (2.0 * PI * 4.0).powi(2);
    let center = scene.center(wheel);
    assert!(center.x.abs() < 1e-4, "off axis {center}");
    assert!(
        (center.y + expected).abs() < 0.01 * expected,
        "{center} vs {expected}"
    );
    let omega = scene.omega(wheel);
    assert!((omega - 5.0).abs() < 1e-3, "ω = {omega}");
    assert!((scene.reaction(joint).force.y - G).abs() < 0.01 * G);
}

#[test]
fn motor_joint_drives_to_the_offset_pose() {
    let mut scene = Scene::new(0.0);
    let body = scene.add_body(Vec2::ZERO, 0.0, 1.0, 0.1);
    let drive = MotorJoint {
        linear_offset: Vec2::new(1.0, 0.5),
        angular_offset: 0.3,
        max_force: 50.0,
        max_torque: 10.0,
        correction_factor: 0.3,
    };
    scene.join_to_ground(JointKind::Motor(drive), body, Vec2::ZERO);
    scene.run(3.0, |_| {});
    assert!((scene.center(body) - Vec2::new(1.0, 0.5)).length() < 1e-4);
    assert!((scene.angle(body) - 0.3).abs() < 1e-4);
}

#[test]
fn motor_joint_yields_to_a_load_beyond_its_force() {
    // The drive holds the body in place with at most 6 N against 10 N of weight: the body
    // falls at g − F/m = 4 m/s².
    let mut scene = Scene::new(G);
    let body = scene.add_body(Vec2::ZERO, 0.0, 1.0, 0.1);
    let drive = MotorJoint {
        max_force: 6.0,
        max_torque: 1.0,
        correction_factor: 0.3,
        ..MotorJoint::default()
    };
    scene.join_to_ground(JointKind::Motor(drive), body, Vec2::ZERO);
    scene.run(0.5, |_| {});
    let vy = scene.velocity(body).y;
    assert!((vy + 4.0 * 0.5).abs() < 0.01 * 2.0, "v.y = {vy}");
}

#[test]
fn mass_ratio_is_the_ratio_of_anchor_effective_masses() {
    // A: 10 kg, I = 1, anchor 1 m out: 1/(0.1 + 1) = 0.909 kg.
    // B: 1 kg, I = 0.01, anchor 0.5 m out: 1/(1 + 25) = 0.0385 kg. Ratio 23.64.
    let heavy = JointBody::awake(0, 0.1, 1.0, Transform::new(Vec2::X, Rot::IDENTITY));
    let thin = JointBody::awake(
        1,
        1.0,
        100.0,
        Transform::new(Vec2::new(0.0, 0.5), Rot::IDENTITY),
    );
    let kind = JointKind::Revolute(RevoluteJoint::default());
    let lopsided = JointConstraint::new(kind, heavy, thin);
    let expected = (1.0 / 1.1) / (1.0 / 26.0);
    assert!((effective_mass_ratio(&lopsided) - expected).abs() < 1e-4 * expected);
    let balanced = JointConstraint::new(kind, heavy, heavy);
    let grounded = JointConstraint::new(kind, ground(Vec2::ZERO, 0.0), thin);
    assert_eq!(effective_mass_ratio(&balanced), 1.0);
    assert_eq!(effective_mass_ratio(&grounded), 1.0);
    let mut out = Vec::new();
    joints_above_mass_ratio(&[balanced, lopsided, grounded], 10.0, &mut out);
    assert_eq!(out, vec![1]);
}

#[test]
fn without_warm_starting_impulses_start_from_zero() {
    let mut joint = JointConstraint::new(
        JointKind::Revolute(RevoluteJoint::default()),
        ground(Vec2::ZERO, 0.0),
        JointBody::awake(0, 1.0, 1.0, Transform::IDENTITY),
    );
    joint.impulses.linear = Vec2::new(1.0, 2.0);
    let sims = [BodySim::default()];
    let cold = JointParams::for_substep(1.0 / 240.0, 60.0, 2.0, false);
    let warm = JointParams {
        enable_warm_starting: true,
        ..cold
    };
    joint.prepare(&sims, &warm);
    assert_eq!(joint.impulses.linear, Vec2::new(1.0, 2.0));
    assert_eq!(joint.prepared.joint_softness, warm.joint_softness);
    joint.prepare(&sims, &cold);
    assert_eq!(joint.impulses, JointImpulses::default());
}

#[test]
fn rope_catches_the_falling_body_at_its_maximum_length() {
    // A spring-less distance joint with limits [0, 1] m is a rope: the bob falls freely from
    // 0.5 m beside the anchor and the rope catches it at 1 m, arriving at about 3.9 m/s.
    let mut scene = Scene::new(G);
    let bob = scene.add_body(Vec2::new(0.5, 0.0), 0.0, 1.0, 0.01);
    let rope = DistanceJoint {
        enable_spring: true,
        hertz: 0.0,
        enable_limit: true,
        min_length: 0.0,
        max_length: 1.0,
        ..DistanceJoint::default()
    };
    scene.join_to_ground(JointKind::Distance(rope), bob, Vec2::ZERO);
    let mut samples = Vec::new();
    scene.run(3.0, |s| samples.push(s.center(bob)));
    // Slack for the first 0.3 s (it would take a fall of √(1 − 0.25) = 0.87 m to go taut), so
    // the rope applies nothing: symplectic Euler's free fall, ½·g·t² + ½·g·t·h.
    let free_fall_steps = 18;
    let t = free_fall_steps as f32 / 60.0;
    let free_fall_y = samples[free_fall_steps - 1].y;
    let expected_drop = 0.5 * G * t * (t + scene.h());
    assert!(
        (free_fall_y + expected_drop).abs() < 1e-5,
        "y = {free_fall_y}"
    );
    let longest = samples.iter().map(|p| p.length()).fold(0.0, f32::max);
    assert!(longest < 1.0 + 0.005, "rope stretched to {longest}");
    assert!(longest > 0.99, "rope never taut: {longest}");
}

#[test]
fn distance_motor_extends_at_its_speed() {
    // A free length (spring on, 0 Hz) driven at 0.3 m/s with ample force, no gravity.
    let mut scene = Scene::new(0.0);
    let bob = scene.add_body(Vec2::new(1.0, 0.0), 0.0, 1.0, 0.01);
    let jack = DistanceJoint {
        enable_spring: true,
        enable_motor: true,
        motor_speed: 0.3,
        max_motor_force: 100.0,
        ..DistanceJoint::default()
    };
    scene.join_to_ground(JointKind::Distance(jack), bob, Vec2::ZERO);
    scene.run(1.0, |_| {});
    let v = scene.velocity(bob);
    assert!((v - Vec2::new(0.3, 0.0)).length() < 1e-5, "v = {v}");
    // 0.3 m/s reached within the first substep (m·v = 0.3 N·s < h·F = 0.42 N·s).
    assert!(
        (scene.center(bob).x - 1.3).abs() < 1e-4,
        "{}",
        scene.center(bob)
    );
}

#[test]
fn hanging_chain_stretches_by_the_soft_joints_static_deflection() {
    // Ten 1 kg links, 0.5 m apart, hinged end to end and to the ground. Every hinge lies on
    // the chain's axis through both centres, so along the chain each hinge's effective mass
    // is that of its links' translation: m for the top hinge (ground above), m/2 between two
    // links. Hinge k (from the top) carries the (n − k) links below it, so a soft row of
    // frequency ω settles stretched by F/(m_eff·ω²):
    //   top: n·g/ω²;   others: 2·(n − k)·g/ω²;   total n·g/ω² + n·(n − 1)·g/ω² = n²·g/ω².
    // For n = 10 at 60 Hz: 100·10/(2π·60)² = 7.04 mm. The solver's fixed point (warm started)
    // is that of the exact soft system, so the settled chain must show it.
    let n = 10;
    let spacing = 0.5;
    let mut scene = Scene::new(G);
    let mut previous = ground(Vec2::ZERO, 0.0);
    let mut links = Vec::new();
    for k in 0..n {
        let center = Vec2::new(0.0, -spacing * (k as f32 + 0.5));
        let link = scene.add_body(center, 0.0, 1.0, box_inertia(1.0, 0.1, spacing));
        let top = scene.side(link, Vec2::new(0.0, 0.5 * spacing), 0.0);
        scene.add_joint(JointKind::Revolute(RevoluteJoint::default()), previous, top);
        previous = scene.side(link, Vec2::new(0.0, -0.5 * spacing), 0.0);
        links.push(link);
    }
    scene.run(5.0, |_| {});
    let bottom = scene.center(links[n - 1]);
    let stretch = -bottom.y - spacing * (n as f32 - 0.5);
    let omega = 2.0 * PI * scene.params.joint_hertz;
    let expected = (n * n) as f32 * G / (omega * omega);
    assert!(bottom.x.abs() < 1e-4, "chain swung to {bottom}");
    assert!(
        (stretch - expected).abs() < 0.01 * expected,
        "stretch {stretch} vs {expected}"
    );
    // The top hinge carries the whole chain.
    let top_force = scene.reaction(0).force;
    let weight = n as f32 * G;
    assert!(
        (top_force - Vec2::new(0.0, weight)).length() < 0.01 * weight,
        "{top_force}"
    );
}

#[test]
fn breaking_threshold_compares_force_and_torque() {
    let reaction = JointReaction {
        force: Vec2::new(3.0, 4.0),
        torque: -2.0,
    };
    assert!(!reaction.exceeds(5.0, 2.0));
    assert!(reaction.exceeds(4.9, 2.0));
    assert!(reaction.exceeds(5.0, 1.9));
}

#[test]
fn every_kind_between_free_bodies_conserves_linear_momentum() {
    // Each joint applies equal and opposite impulses, so with no gravity the pair's linear
    // momentum can change only by rounding, whatever the joint does to the relative motion.
    let kinds = [
        JointKind::Distance(DistanceJoint {
            enable_spring: true,
            hertz: 3.0,
            damping_ratio: 0.2,
            enable_motor: true,
            motor_speed: 0.5,
            max_motor_force: 2.0,
            ..DistanceJoint::default()
        }),
        JointKind::Revolute(RevoluteJoint {
            enable_limit: true,
            lower_angle: -0.3,
            upper_angle: 0.3,
            enable_motor: true,
            motor_speed: 4.0,
            max_motor_torque: 1.0,
            ..RevoluteJoint::default()
        }),
        JointKind::Prismatic(PrismaticJoint {
            enable_limit: true,
            lower_translation: -0.2,
            upper_translation: 0.2,
            enable_spring: true,
            hertz: 2.0,
            damping_ratio: 0.5,
            ..PrismaticJoint::default()
        }),
        JointKind::Weld(WeldJoint {
            angular_hertz: 4.0,
            angular_damping_ratio: 0.3,
            ..WeldJoint::default()
        }),
        JointKind::Wheel(WheelJoint {
            enable_spring: true,
            hertz: 3.0,
            damping_ratio: 0.5,
            enable_motor: true,
            motor_speed: 2.0,
            max_motor_torque: 1.0,
            ..WheelJoint::default()
        }),
        JointKind::Motor(MotorJoint {
            linear_offset: Vec2::new(1.2, 0.3),
            max_force: 5.0,
            max_torque: 2.0,
            ..MotorJoint::default()
        }),
    ];
    for kind in kinds {
        let mut scene = Scene::new(0.0);
        let (a, b) = scene.thrown_pair(Vec2::new(0.5, 0.1), 0.2, -1.0);
        let start = scene.momentum();
        let side_a = scene.side(a, Vec2::new(0.4, 0.0), 0.1);
        let side_b = scene.side(b, Vec2::new(-0.4, 0.0), -0.1);
        scene.add_joint(kind, side_a, side_b);
        scene.run(2.0, |_| {});
        let end = scene.momentum();
        // |p| ≈ 4.5 kg·m/s; 960 substeps of a few rounded operations each.
        assert!((end - start).length() < 1e-4, "{kind:?}: {start} → {end}");
        assert!(
            scene.joints[0].impulses != JointImpulses::default(),
            "{kind:?} did nothing"
        );
    }
}

#[test]
fn a_kinematic_body_drives_its_joint_but_is_not_driven() {
    // A kinematic carrier moving at 1 m/s with a 1 kg bob hinged 0.5 m below it.
    let mut scene = Scene::new(G);
    let carrier = scene.add_body(Vec2::ZERO, 0.0, 1.0, 1.0);
    scene.states[carrier as usize].flags = body_flags::KINEMATIC;
    scene.states[carrier as usize].linear_velocity = Vec2::new(1.0, 0.0);
    scene.sims[carrier as usize].inv_mass = 0.0;
    scene.sims[carrier as usize].inv_inertia = 0.0;
    let bob = scene.add_body(Vec2::new(0.0, -0.5), 0.0, 1.0, 0.01);
    let top = scene.side(carrier, Vec2::ZERO, 0.0);
    let bottom = scene.side(bob, Vec2::new(0.0, 0.5), 0.0);
    let hinge = JointKind::Revolute(RevoluteJoint::default());
    let joint = scene.add_joint(hinge, top, bottom);
    let mut worst_gap: f32 = 0.0;
    scene.run(2.0, |s| worst_gap = worst_gap.max(s.anchor_gap(joint)));
    assert_eq!(scene.velocity(carrier), Vec2::new(1.0, 0.0));
    assert!((scene.center(carrier).x - 2.0).abs() < 1e-5);
    // The jerk at the start (the carrier moves off at 1 m/s, the bob at rest) is taken within
    // the first substep; afterwards the hinge holds as in the pendulum tests.
    assert!(worst_gap < 5e-3, "gap {worst_gap}");
    assert!(
        (scene.center(bob).x - 2.0).abs() < 0.5,
        "the bob came along"
    );
}

#[test]
fn a_motor_switched_off_stops_pushing() {
    // The wheel of `revolute_motor_reaches_its_speed`: after 0.1 s at τ/I = 20 rad/s² it turns
    // at 2 rad/s with the motor saturated. Switched off, nothing turns it (the hinge at its
    // centre has no lever), so ω must stay put; a carried motor impulse still warm started
    // with no row to solve it would go on accelerating it at 20 rad/s².
    let mut scene = Scene::new(G);
    let wheel = scene.add_body(Vec2::ZERO, 0.0, 2.0, 0.5);
    let motor = RevoluteJoint {
        enable_motor: true,
        motor_speed: 3.0,
        max_motor_torque: 10.0,
        ..RevoluteJoint::default()
    };
    let joint = scene.join_to_ground(JointKind::Revolute(motor), wheel, Vec2::ZERO);
    scene.run(0.1, |_| {});
    let spinning = scene.omega(wheel);
    scene.joints[joint].kind = JointKind::Revolute(RevoluteJoint::default());
    scene.run(0.1, |_| {});
    let omega = scene.omega(wheel);
    assert!((omega - spinning).abs() < 1e-5, "{spinning} → {omega}");
    assert_eq!(scene.joints[joint].impulses.motor, 0.0);
}

#[test]
fn prismatic_between_bodies_that_cannot_turn_reports_no_torque() {
    // A block with fixed rotation on a horizontal slider whose frames are 0.2 rad apart: the
    // angle row has nothing it can turn, so it applies and reports no torque, while the
    // perpendicular row carries the weight.
    let mut scene = Scene::new(G);
    let block = scene.add_body(Vec2::ZERO, 0.0, 1.0, 1.0);
    scene.sims[block as usize].inv_inertia = 0.0;
    let b = scene.side(block, Vec2::ZERO, 0.2);
    let slider = JointKind::Prismatic(PrismaticJoint::default());
    let joint = scene.add_joint(slider, ground(Vec2::ZERO, 0.0), b);
    scene.run(0.5, |_| {});
    let reaction = scene.reaction(joint);
    assert_eq!(reaction.torque, 0.0);
    assert!(
        (reaction.force - Vec2::new(0.0, G)).length() < 0.01 * G,
        "{reaction:?}"
    );
}

/// Preparation copies the indices and the masses next to the anchors, and measures the joint
/// angle only for a hinge with a row that reads it.
#[test]
fn prepare_copies_the_bodies_and_measures_the_angle_only_when_read() {
    let mut scene = Scene::new(0.0);
    let b = scene.add_body(Vec2::new(1.0, 0.0), 0.3, 4.0, 0.25);
    let side_a = ground(Vec2::new(0.5, 0.0), 0.0);
    let side_b = scene.side(b, Vec2::new(-0.5, 0.0), 0.0);
    let params = JointParams::for_substep(1.0 / 240.0, 60.0, 2.0, true);
    let limited = RevoluteJoint {
        enable_limit: true,
        lower_angle: -1.0,
        upper_angle: 1.0,
        ..RevoluteJoint::default()
    };
    let mut joint = JointConstraint::new(
        JointKind::Revolute(RevoluteJoint::default()),
        side_a,
        side_b,
    );
    joint.prepare(&scene.sims, &params);
    let bodies = joint.prepared.bodies;
    assert_eq!((bodies.index_a, bodies.index_b), (NULL_BODY, b));
    assert_eq!((bodies.inv_mass_a, bodies.inv_inertia_a), (0.0, 0.0));
    assert_eq!((bodies.inv_mass_b, bodies.inv_inertia_b), (0.25, 4.0));
    assert_eq!(joint.prepared.delta_angle, 0.0, "no row reads the angle");

    joint.kind = JointKind::Revolute(limited);
    joint.prepare(&scene.sims, &params);
    // B is turned 0.3 rad against the ground, both frames aligned with their bodies.
    assert!((joint.prepared.delta_angle - 0.3).abs() < 1e-6);
}

/// One relax pass of a plain hinge between a ground anchor and a body whose anchor moves
/// at (1, −2) m/s applies the rigid impulse `−K⁻¹·v`, which stops the anchor exactly.
#[test]
fn plain_hinge_relax_pass_stops_the_anchor() {
    let mut scene = Scene::new(0.0);
    let body = scene.add_body(Vec2::new(0.0, -1.0), 0.0, 2.0, 0.25);
    scene.set_velocity(body, Vec2::new(1.0, -2.0), 0.0);
    let a = ground(Vec2::ZERO, 0.0);
    let b = scene.side(body, Vec2::new(0.0, 1.0), 0.0);
    let mut joint = JointConstraint::new(JointKind::Revolute(RevoluteJoint::default()), a, b);
    let params = JointParams::for_substep(1.0 / 240.0, 60.0, 2.0, true);
    joint.prepare(&scene.sims, &params);
    joint.solve(&mut scene.states, &params, false);
    // rB = (0, 1), m⁻¹ = 0.5, I⁻¹ = 4: K = [0.5 + 4·1, 0; 0, 0.5] = diag(4.5, 0.5), so
    // P = −(1/4.5, −2/0.5) = (−0.2222, 4), and the body ends with v = (0.8889, 0), ω = 0.8889.
    let impulse = joint.impulses.linear;
    assert!(
        (impulse - Vec2::new(-1.0 / 4.5, 4.0)).length() < 1e-5,
        "{impulse}"
    );
    let v = scene.velocity(body);
    let w = scene.omega(body);
    assert!((v - Vec2::new(1.0 - 0.5 / 4.5, 0.0)).length() < 1e-5, "{v}");
    assert!((w - 4.0 / 4.5).abs() < 1e-5, "{w}");
    // The anchor velocity v + ω × rB = (v.x − ω, v.y) is zero.
    assert!((v.x - w).abs() < 1e-5 && v.y.abs() < 1e-5);
}
