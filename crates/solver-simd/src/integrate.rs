//! Body integration: the start of a step, velocities, positions, and the final pose.
//!
//! The solver integrates with symplectic (semi-implicit) Euler per substep `h`:
//!
//! ```text
//!   v ← (v + h·(g·gravity_scale + F/m)) then damped;   ω ← ω + h·τ/I then damped
//!   Δp ← Δp + h·v;                                      Δq ← integrate(Δq, h·ω)
//! ```
//!
//! Positions are not written during the substeps: each body accumulates its displacement
//! `Δp` and rotation `Δq` since the start of the step in its hot [`BodyState`], which is all the
//! contact passes need to track separation. [`finalize_bodies`] composes them with the pose at
//! the start of the step (`center0`, `rotation0`) once at the end.
//!
//! **Per-step terms.** Gravity, force, torque, masses, damping and `h` do not change within a
//! step, so the velocity increments and damping factors of a substep are the same in every
//! substep. [`begin_step`] — the step's first stage, run in blocks of bodies by the solver's
//! workers — computes them once per step into a compact [`VelocityTerms`] array (20 bytes a
//! body) in the same walk over the sims that records the start pose, and every
//! substep's [`integrate_velocities`] reads that array and the hot state instead of the
//! fields of the large `BodySim` (which span two cache lines), and divides nothing. The
//! arithmetic is the same expressions evaluated once instead of four times, so the velocities
//! are bit for bit those of evaluating them every substep.
//!
//! **Damping** is the implicit form of `dv/dt = −c·v`: `v₂ = v₁ − h·c·v₂`, so
//! `v₂ = v₁ / (1 + h·c)`, which never overshoots zero however large `h·c` is. It multiplies the
//! velocity carried into the substep; the forces' increment of the same substep is added
//! undamped.
//!
//! **Error of the integrator.** Under constant gravity from rest, after `N` substeps
//! (`t = N·h`) the velocity is `v = Σ h·g = g·t` exactly (up to float rounding of the sum),
//! and the displacement is `Σ_{k=1..N} h·(k·h·g) = g·h²·N(N+1)/2 = ½·g·t² + ½·g·t·h`: symplectic
//! Euler overshoots the exact parabola by the first-order term `½·g·t·h`.
//!
//! **Clamps.** The linear speed is clamped to `max_linear_speed`, and the angular speed so that
//! a body turns at most [`MAX_ROTATION_PER_SUBSTEP`] radians per substep. The rotation update
//! `normalize(q + h·ω·q⊥)` turns by `atan(h·ω)` rather than `h·ω`; the clamp keeps that error
//! bounded (at the limit, π/4 becomes atan(π/4) ≈ 0.67).
//!
//! Kinematic bodies (awake, not [`body_flags::DYNAMIC`]) skip velocity integration — no gravity,
//! no forces, no damping — but move with their velocity like every awake body.

use crate::profile::zone;
use core_soa::{BodySim, BodyState, Rot, Vec2, body_flags};

/// Bodies per parallel task in [`finalize_bodies_on`]: a body costs a few nanoseconds there,
/// so a task holds a thousand to outweigh the scheduling. (The begin pass is a solver stage,
/// run in the executor's body blocks.)
const BODY_CHUNK: usize = 1024;

/// The largest rotation (radians) a body may turn in one substep: a quarter of π.
pub const MAX_ROTATION_PER_SUBSTEP: f32 = 0.25 * std::f32::consts::PI;

/// What velocity integration needs from the step.
#[derive(Clone, Copy, Debug)]
pub struct VelocityIntegration {
    /// The substep (s).
    pub h: f32,
    pub gravity: Vec2,
    pub max_linear_speed: f32,
}

/// One body's velocity update over a substep, the same in every substep of a step (see the
/// module notes).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct VelocityTerms {
    /// `h·(g·gravity_scale + F/m)`.
    pub linear_increment: Vec2,
    /// `h·τ/I`.
    pub angular_increment: f32,
    /// `1/(1 + h·linear_damping)` and `1/(1 + h·angular_damping)`.
    pub linear_damping: f32,
    pub angular_damping: f32,
}

impl VelocityTerms {
    /// The terms of `sim` for substeps of `step`.
    #[inline]
    pub fn of(sim: &BodySim, step: &VelocityIntegration) -> VelocityTerms {
        let h = step.h;
        VelocityTerms {
            linear_increment: h * (sim.gravity_scale * step.gravity + sim.inv_mass * sim.force),
            angular_increment: h * sim.inv_inertia * sim.torque,
            linear_damping: 1.0 / (1.0 + h * sim.linear_damping),
            angular_damping: 1.0 / (1.0 + h * sim.angular_damping),
        }
    }
}

/// Where [`begin_step`] writes the bodies' velocity terms, and for which substeps.
pub type TermsOut<'a> = Option<(&'a mut [VelocityTerms], &'a VelocityIntegration)>;

/// Starts a step: records each body's pose as the step's start pose and zeroes its
/// accumulated displacement; with `terms`, writes each body's velocity terms there.
/// `states`, `sims` and the terms are parallel slices.
pub fn begin_step(states: &mut [BodyState], sims: &mut [BodySim], terms: TermsOut<'_>) {
    debug_assert_eq!(states.len(), sims.len());
    let begin = |state: &mut BodyState, sim: &mut BodySim| {
        state.delta_position = Vec2::ZERO;
        state.delta_rotation = Rot::IDENTITY;
        sim.center0 = sim.center;
        sim.rotation0 = sim.transform.q;
    };
    let bodies = states.iter_mut().zip(sims.iter_mut());
    match terms {
        // One walk over the sims: a large scene's sims do not fit in the cache twice.
        Some((terms, step)) => {
            debug_assert_eq!(terms.len(), bodies.len());
            for ((state, sim), terms) in bodies.zip(terms.iter_mut()) {
                begin(state, sim);
                *terms = VelocityTerms::of(sim, step);
            }
        }
        None => bodies.for_each(|(state, sim)| begin(state, sim)),
    }
}

/// Applies gravity, forces and damping over one substep to the dynamic bodies, then clamps
/// their speeds. `terms` are the bodies' [`VelocityTerms`] for this step.
pub fn integrate_velocities(
    states: &mut [BodyState],
    terms: &[VelocityTerms],
    step: &VelocityIntegration,
) {
    debug_assert_eq!(states.len(), terms.len());
    let max_angular_speed = MAX_ROTATION_PER_SUBSTEP / step.h;
    for (state, terms) in states.iter_mut().zip(terms.iter()) {
        if state.flags & body_flags::DYNAMIC == 0 {
            continue;
        }
        let mut v = terms.linear_increment + terms.linear_damping * state.linear_velocity;
        let mut w = terms.angular_increment + terms.angular_damping * state.angular_velocity;
        if v.dot(v) > step.max_linear_speed * step.max_linear_speed {
            v = step.max_linear_speed * v.normalize_or_zero();
        }
        if w * w > max_angular_speed * max_angular_speed {
            w = max_angular_speed.copysign(w);
        }
        state.linear_velocity = v;
        state.angular_velocity = w;
    }
}

/// Moves every awake body by its velocity over one substep of `h` seconds.
pub fn integrate_positions(states: &mut [BodyState], h: f32) {
    for state in states.iter_mut() {
        state.delta_rotation = state.delta_rotation.integrate(h * state.angular_velocity);
        state.delta_position += h * state.linear_velocity;
    }
}

/// Ends a step: writes each body's centre of mass and transform from the start pose and the
/// accumulated displacement, and clears its force and torque. The displacement stays in the
/// state for the caller (AABB growth, sleep, continuous collision).
///
/// A body whose velocity or displacement is no longer finite (a numerical blow-up) is not
/// moved: it keeps its start pose, its velocity and displacement are zeroed, and its index
/// (`first_index` + its position in the slice) is pushed to `non_finite`, so that one bad body
/// is reported instead of spreading NaN through the World. A body whose motion is finite but
/// whose new pose is not (a pose that overflowed) is put back at its start pose, at rest, and
/// reported the same way.
pub fn finalize_bodies(
    states: &mut [BodyState],
    sims: &mut [BodySim],
    first_index: u32,
    non_finite: &mut Vec<u32>,
) {
    zone!("finalize_poses chunk");
    debug_assert_eq!(states.len(), sims.len());
    for (offset, (state, sim)) in states.iter_mut().zip(sims.iter_mut()).enumerate() {
        let motion_finite = state_is_finite(state);
        if !motion_finite {
            stop(state);
        }
        let q = state.delta_rotation.mul(sim.rotation0).normalize();
        sim.center = sim.center0 + state.delta_position;
        sim.transform.q = q;
        sim.transform.p = sim.center - q.rotate(sim.local_center);
        sim.force = Vec2::ZERO;
        sim.torque = 0.0;
        let pose_finite = pose_is_finite(sim);
        if !pose_finite {
            stop(state);
            let rotation = sim.rotation0;
            sim.center = sim.center0;
            sim.transform.q = rotation;
            sim.transform.p = sim.center0 - rotation.rotate(sim.local_center);
        }
        if !(motion_finite && pose_finite) {
            non_finite.push(first_index + offset as u32);
        }
    }
}

/// Zeroes the body's velocity and its displacement in the step.
#[inline]
fn stop(state: &mut BodyState) {
    state.linear_velocity = Vec2::ZERO;
    state.angular_velocity = 0.0;
    state.delta_position = Vec2::ZERO;
    state.delta_rotation = Rot::IDENTITY;
}

/// True when the body's centre of mass and transform are all finite.
#[inline]
fn pose_is_finite(sim: &BodySim) -> bool {
    sim.center.is_finite()
        && sim.transform.p.is_finite()
        && sim.transform.q.c.is_finite()
        && sim.transform.q.s.is_finite()
}

/// [`finalize_bodies`] split over the caller's workers (the `workers` crate) in fixed chunks
/// when `workers > 1`;
/// the chunks' non-finite indices are appended in body order, as one pass would push them.
pub fn finalize_bodies_on(
    workers: usize,
    states: &mut [BodyState],
    sims: &mut [BodySim],
    non_finite: &mut Vec<u32>,
) {
    if workers <= 1 || states.len() <= BODY_CHUNK {
        return finalize_bodies(states, sims, 0, non_finite);
    }
    let mut chunks: Vec<_> = states
        .chunks_mut(BODY_CHUNK)
        .zip(sims.chunks_mut(BODY_CHUNK))
        .collect();
    let found = workers::map_mut(&mut chunks, |chunk, (states, sims)| {
        let mut found = Vec::new();
        finalize_bodies(states, sims, (chunk * BODY_CHUNK) as u32, &mut found);
        found
    });
    non_finite.extend(found.into_iter().flatten());
}

/// True when the velocity and the step's displacement are all finite.
#[inline]
pub fn state_is_finite(state: &BodyState) -> bool {
    state.linear_velocity.is_finite()
        && state.angular_velocity.is_finite()
        && state.delta_position.is_finite()
        && state.delta_rotation.c.is_finite()
        && state.delta_rotation.s.is_finite()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn falling_body() -> (BodyState, BodySim) {
        let state = BodyState {
            flags: body_flags::DYNAMIC,
            ..BodyState::IDENTITY
        };
        let sim = BodySim {
            mass: 2.0,
            inv_mass: 0.5,
            inertia: 1.0,
            inv_inertia: 1.0,
            ..BodySim::default()
        };
        (state, sim)
    }

    fn step(h: f32) -> VelocityIntegration {
        VelocityIntegration {
            h,
            gravity: Vec2::new(0.0, -10.0),
            max_linear_speed: 400.0,
        }
    }

    /// One substep of velocity integration, with the terms computed for it.
    fn integrate(states: &mut [BodyState], sims: &[BodySim], step: &VelocityIntegration) {
        let terms: Vec<VelocityTerms> = sims.iter().map(|s| VelocityTerms::of(s, step)).collect();
        integrate_velocities(states, &terms, step);
    }

    /// The terms computed once at the start of a step give, substep after substep, exactly the
    /// velocities of evaluating the update from the body's fields every substep (damping,
    /// force, torque, gravity scale and the clamp all at work).
    #[test]
    fn terms_once_per_step_match_the_update_evaluated_every_substep() {
        let (mut state, mut sim) = falling_body();
        (state.linear_velocity, state.angular_velocity) = (Vec2::new(3.0, -1.5), 7.0);
        (sim.linear_damping, sim.angular_damping) = (0.7, 2.3);
        (sim.force, sim.torque, sim.gravity_scale) = (Vec2::new(1.3, 9.1), -0.6, 0.8);
        let step = VelocityIntegration {
            max_linear_speed: 3.2,
            ..step(1.0 / 240.0)
        };
        let (mut states, mut sims) = ([state], [sim]);
        let mut terms = [VelocityTerms::default()];
        begin_step(&mut states, &mut sims, Some((&mut terms, &step)));
        let h = step.h;
        let (mut v, mut w) = (state.linear_velocity, state.angular_velocity);
        let mut clamped = false;
        for _ in 0..4 {
            integrate_velocities(&mut states, &terms, &step);
            // The update as it reads from the fields.
            let dv = h * (sim.gravity_scale * step.gravity + sim.inv_mass * sim.force);
            v = dv + (1.0 / (1.0 + h * sim.linear_damping)) * v;
            w = h * sim.inv_inertia * sim.torque + (1.0 / (1.0 + h * sim.angular_damping)) * w;
            if v.dot(v) > step.max_linear_speed * step.max_linear_speed {
                v = step.max_linear_speed * v.normalize_or_zero();
                clamped = true;
            }
            assert_eq!(states[0].linear_velocity.x.to_bits(), v.x.to_bits());
            assert_eq!(states[0].linear_velocity.y.to_bits(), v.y.to_bits());
            assert_eq!(states[0].angular_velocity.to_bits(), w.to_bits());
        }
        assert!(clamped, "the clamp never acted");
    }

    #[test]
    fn implicit_damping_divides_by_one_plus_hc() {
        let (mut state, mut sim) = falling_body();
        state.linear_velocity = Vec2::new(6.0, 0.0);
        state.angular_velocity = 3.0;
        sim.linear_damping = 2.0;
        sim.angular_damping = 8.0;
        sim.gravity_scale = 0.0;
        let (mut states, sims) = ([state], [sim]);
        integrate(&mut states, &sims, &step(0.25));
        assert!((states[0].linear_velocity.x - 6.0 / 1.5).abs() < 1e-6);
        assert!((states[0].angular_velocity - 3.0 / 3.0).abs() < 1e-6);
    }

    #[test]
    fn forces_and_clamps() {
        let (mut state, mut sim) = falling_body();
        sim.force = Vec2::new(4.0, 20.0); // with m = 2: a = (2, 10), cancels gravity in y
        sim.torque = 2.0;
        state.angular_velocity = 0.0;
        let (mut states, sims) = ([state], [sim]);
        integrate(&mut states, &sims, &step(0.5));
        assert!((states[0].linear_velocity - Vec2::new(1.0, 0.0)).length() < 1e-6);
        assert!((states[0].angular_velocity - 1.0).abs() < 1e-6);
        states[0].linear_velocity = Vec2::new(300.0, 400.0);
        states[0].angular_velocity = -100.0;
        sim.force = Vec2::ZERO;
        sim.torque = 0.0;
        sim.gravity_scale = 0.0;
        integrate(&mut states, &[sim], &step(0.5));
        assert!((states[0].linear_velocity - Vec2::new(240.0, 320.0)).length() < 1e-3);
        assert!((states[0].angular_velocity + MAX_ROTATION_PER_SUBSTEP / 0.5).abs() < 1e-6);
    }

    #[test]
    fn kinematic_ignores_gravity_but_moves() {
        let (mut state, sim) = falling_body();
        state.flags = body_flags::KINEMATIC;
        state.linear_velocity = Vec2::new(1.0, 0.0);
        let (mut states, mut sims) = ([state], [sim]);
        begin_step(&mut states, &mut sims, None);
        integrate(&mut states, &sims, &step(0.1));
        integrate_positions(&mut states, 0.1);
        finalize_bodies(&mut states, &mut sims, 0, &mut Vec::new());
        assert_eq!(states[0].linear_velocity, Vec2::new(1.0, 0.0));
        assert!((sims[0].center - Vec2::new(0.1, 0.0)).length() < 1e-7);
    }

    #[test]
    fn finalize_places_origin_from_centre_of_mass() {
        let (state, mut sim) = falling_body();
        sim.local_center = Vec2::new(1.0, 0.0);
        sim.center = Vec2::new(5.0, 0.0);
        sim.transform.p = Vec2::new(4.0, 0.0);
        let (mut states, mut sims) = ([state], [sim]);
        begin_step(&mut states, &mut sims, None);
        // Ten substeps of 1 ms at ω = 50π rad/s: π/20 rad each.
        states[0].angular_velocity = 50.0 * std::f32::consts::PI;
        for _ in 0..10 {
            integrate_positions(&mut states, 0.001);
        }
        finalize_bodies(&mut states, &mut sims, 0, &mut Vec::new());
        let angle = sims[0].transform.q.angle();
        // Each first-order rotation update turns by atan(π/20) rather than π/20.
        let expected = 10.0 * (std::f32::consts::PI / 20.0).atan();
        assert!((angle - expected).abs() < 1e-5, "{angle} vs {expected}");
        let expected_p = sims[0].center - sims[0].transform.q.rotate(Vec2::new(1.0, 0.0));
        assert!((sims[0].transform.p - expected_p).length() < 1e-6);
        assert_eq!(sims[0].center, Vec2::new(5.0, 0.0));
        assert_eq!(sims[0].force, Vec2::ZERO);
    }

    #[test]
    fn non_finite_body_is_reported_and_kept_in_place() {
        let (state, sim) = falling_body();
        let (mut states, mut sims) = ([state; 3], [sim; 3]);
        sims[1].center = Vec2::new(2.0, 3.0);
        sims[1].transform.p = Vec2::new(2.0, 3.0);
        begin_step(&mut states, &mut sims, None);
        states[1].linear_velocity = Vec2::new(f32::NAN, 0.0);
        integrate_positions(&mut states, 0.01);
        let mut non_finite = Vec::new();
        finalize_bodies(&mut states, &mut sims, 10, &mut non_finite);
        assert_eq!(non_finite, vec![11]);
        assert_eq!(sims[1].center, Vec2::new(2.0, 3.0));
        assert_eq!(sims[1].transform.p, Vec2::new(2.0, 3.0));
        assert_eq!(states[1].linear_velocity, Vec2::ZERO);
        assert!(state_is_finite(&states[0]) && state_is_finite(&states[2]));
    }

    /// A finite motion that carries a body's pose past the largest float (a displacement of
    /// 3·10³⁸ m from 3·10³⁸ m) is caught where the pose is written: the body is put back at its
    /// start pose, at rest, and reported once; its neighbour moves normally.
    #[test]
    fn overflowing_pose_is_reset_and_reported() {
        let (state, sim) = falling_body();
        let (mut states, mut sims) = ([state; 2], [sim; 2]);
        let start = Vec2::new(3.0e38, 1.0);
        (sims[0].center, sims[0].transform.p) = (start, start);
        begin_step(&mut states, &mut sims, None);
        for state in &mut states {
            state.linear_velocity = Vec2::new(3.0e38, 0.0);
        }
        integrate_positions(&mut states, 1.0);
        assert!(state_is_finite(&states[0]), "the motion itself is finite");
        let mut non_finite = Vec::new();
        finalize_bodies(&mut states, &mut sims, 7, &mut non_finite);
        assert_eq!(non_finite, vec![7]);
        assert_eq!((sims[0].center, sims[0].transform.p), (start, start));
        assert_eq!(sims[0].transform.q, sim.rotation0);
        assert_eq!(states[0].linear_velocity, Vec2::ZERO);
        assert_eq!(states[0].delta_position, Vec2::ZERO);
        assert_eq!(sims[1].center, Vec2::new(3.0e38, 0.0));
    }

    /// The chunked final pass on two workers gives the serial pass's poses and reports, with
    /// non-finite bodies in several chunks reported by their index in the whole slice.
    #[test]
    fn chunked_passes_match_the_serial_ones() {
        let count = 3 * BODY_CHUNK + 17;
        let bodies = || {
            let (state, sim) = falling_body();
            let mut states = vec![state; count];
            let mut sims = vec![sim; count];
            for (k, (state, sim)) in states.iter_mut().zip(&mut sims).enumerate() {
                sim.center = Vec2::new(k as f32, 0.5 * k as f32);
                sim.transform.p = sim.center;
                sim.force = Vec2::new(0.25 * k as f32, 1.0);
                state.linear_velocity = Vec2::new(1.0, -((k % 7) as f32));
                state.angular_velocity = (k % 5) as f32;
            }
            (states, sims)
        };
        let bad = [5, BODY_CHUNK + 3, 3 * BODY_CHUNK + 16];
        let bad_indices: Vec<u32> = bad.iter().map(|&k| k as u32).collect();
        let run = |workers: usize| {
            let (mut states, mut sims) = bodies();
            let mut non_finite = Vec::new();
            let mut terms = vec![VelocityTerms::default(); count];
            let threads = workers::Workers::new(2).unwrap();
            threads.install(|| {
                let out = Some((&mut terms[..], &step(0.01)));
                begin_step(&mut states, &mut sims, out);
                for &k in &bad {
                    states[k].angular_velocity = f32::INFINITY;
                }
                integrate_positions(&mut states, 0.01);
                finalize_bodies_on(workers, &mut states, &mut sims, &mut non_finite);
            });
            (states, sims, non_finite, terms)
        };
        let (serial, chunked) = (run(1), run(2));
        assert_eq!(serial.2, bad_indices);
        assert_eq!(chunked.2, bad_indices);
        assert_eq!(serial.0, chunked.0);
        assert_eq!(serial.1, chunked.1);
        assert_eq!(serial.3, chunked.3);
        assert_ne!(serial.1[0].center, serial.1[1].center);
        // Every body's terms were written, from its own force.
        let expected: Vec<VelocityTerms> = bodies()
            .1
            .iter()
            .map(|s| VelocityTerms::of(s, &step(0.01)))
            .collect();
        assert_eq!(chunked.3, expected);
    }
}
