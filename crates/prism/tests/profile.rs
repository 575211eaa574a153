//! The step profile accounts for the whole step: its top-level phases add up to its `total`,
//! with one worker and with two (where the step still runs on the caller, and the helper's
//! share of each parallel pass falls inside the pass's phase).
//!
//! The scene is the smash of the benchmarks, scaled down: a heavy box thrown into a block of
//! small squares, so contacts begin and end in bulk and the stores that grew give back their
//! room — the steps whose odd jobs are the largest.

mod common;

use common::{DT, SUBSTEPS, smash};
use prism::{StepProfile, WorldDef};

/// Steps of the smash: the box reaches the block in about 0.7 s.
const STEPS: usize = 90;

/// The top-level phases: every field but the breakdowns (`solver` of `solve`, `continuous` of
/// `finalize`, `particle_figures` of `particles`) and `total`.
fn phases(profile: &StepProfile) -> [f32; 11] {
    [
        profile.pairs,
        profile.collide,
        profile.update_contacts,
        profile.solve,
        profile.break_joints,
        profile.finalize,
        profile.sleep,
        profile.sensors,
        profile.events,
        profile.particles,
        profile.release_spare,
    ]
}

/// The profiles of `STEPS` steps of the smash with `workers` workers, every step parallel
/// (the smash's first steps, before the projectile arrives, would be light steps run on the
/// caller: `World::set_light_steps_on_caller`).
fn smash_profiles(workers: u32) -> Vec<StepProfile> {
    let mut world = common::pooled_world(WorldDef {
        worker_count: workers,
        ..WorldDef::default()
    });
    smash(&mut world);
    (0..STEPS)
        .map(|_| {
            world.step(DT, SUBSTEPS).unwrap();
            *world.profile()
        })
        .collect()
}

/// Each phase is timed inside the step's window, so the phases never add up to more than the
/// total (but for the rounding of each to `f32`), and all that lies outside every phase is a
/// few clock reads: over the run, less than 2 % of the step time.
fn assert_phases_add_up(profiles: &[StepProfile]) {
    let (mut phase_sum, mut total_sum) = (0.0f64, 0.0f64);
    for (step, profile) in profiles.iter().enumerate() {
        let phases = phases(profile);
        assert!(
            phases.iter().all(|&ms| ms >= 0.0),
            "step {step}: {profile:?}"
        );
        let sum: f64 = phases.iter().map(|&ms| f64::from(ms)).sum();
        let total = f64::from(profile.total);
        assert!(
            sum <= total * (1.0 + 1e-5) + 1e-5,
            "step {step}: phases {sum} ms over the total {total} ms"
        );
        phase_sum += sum;
        total_sum += total;
    }
    let outside = total_sum - phase_sum;
    assert!(
        outside < 0.02 * total_sum,
        "{outside} ms of {total_sum} ms outside every phase"
    );
}

#[test]
fn with_one_worker_the_phases_add_up_to_the_total() {
    assert_phases_add_up(&smash_profiles(1));
}

#[test]
fn with_two_workers_the_phases_add_up_to_the_total() {
    assert_phases_add_up(&smash_profiles(2));
}
