//! The step profile through the C interface carries every phase of the step: over a run of a
//! small pile its top-level phases add up to its `total` (but for the clock reads between
//! them), with one worker, with two and with light steps, and the breakdown of `finalize`
//! into `continuous` stays inside it.

#![allow(unsafe_code, reason = "these tests call the C interface as C would")]

mod common;

use common::*;
use prism_capi::*;

/// The profile of the last step.
fn profile(world: &TestWorld) -> PrismStepProfile {
    let mut out = PrismStepProfile::default();
    // SAFETY: a live world and a live output.
    ok(unsafe { prism_world_get_profile(world.ptr, &mut out) });
    out
}

/// Every top-level phase (all but the solver's stages and `continuous`, which break down
/// `solve` and `finalize`, and `total`).
fn phases(p: &PrismStepProfile) -> [f32; 11] {
    [
        p.pairs,
        p.collide,
        p.update_contacts,
        p.solve,
        p.break_joints,
        p.finalize,
        p.sleep,
        p.sensors,
        p.events,
        p.particles,
        p.release_spare,
    ]
}

/// Forty boxes dropped in a heap on the ground, stepped 60 times with `workers` workers; the
/// profile of every step. The pile is small enough for light steps, which run on the caller
/// unless `light_on_caller` is false.
fn pile_profiles(workers: u32, light_on_caller: bool) -> Vec<PrismStepProfile> {
    let def = PrismWorldDef {
        worker_count: workers,
        ..prism_default_world_def()
    };
    let world = TestWorld::with_def(&def);
    // SAFETY: a live world, used by this thread alone.
    ok(unsafe { prism_world_set_light_steps_on_caller(world.ptr, light_on_caller) });
    world.ground();
    for i in 0..40 {
        let position = vec2(0.4 * (i % 8) as f32 - 1.4, 1.0 + 1.1 * (i / 8) as f32);
        let body = world.body(PRISM_BODY_TYPE_DYNAMIC, position);
        world.add_box(body, 0.25, 0.25, &prism_default_shape_def());
    }
    (0..60)
        .map(|_| {
            world.step(1);
            profile(&world)
        })
        .collect()
}

/// The phases never exceed the total (each is timed inside the step's window), and on a
/// typical step they leave less than 5 % of it to the clock reads between them: the median
/// over the run, so that a step preempted between two phases on a busy machine does not
/// decide the test. A phase of any weight that the interface failed to copy would show as
/// missing time.
fn assert_phases_add_up(profiles: &[PrismStepProfile]) {
    let mut outside_fractions = Vec::new();
    for (step, p) in profiles.iter().enumerate() {
        let sum: f64 = phases(p).iter().map(|&ms| f64::from(ms)).sum();
        let total = f64::from(p.total);
        assert!(phases(p).iter().all(|&ms| ms >= 0.0), "step {step}: {p:?}");
        assert!(
            sum <= total * (1.0 + 1e-5) + 1e-5,
            "step {step}: {sum} over {total}"
        );
        assert!(
            p.continuous <= p.finalize * (1.0 + 1e-5) + 1e-5,
            "step {step}: {p:?}"
        );
        assert!(total > 0.0, "step {step}: {p:?}");
        outside_fractions.push((total - sum) / total);
    }
    outside_fractions.sort_by(f64::total_cmp);
    let median = outside_fractions[outside_fractions.len() / 2];
    assert!(
        median < 0.05,
        "median step: {median} of the total outside every phase"
    );
}

#[test]
fn with_one_worker_the_phases_add_up() {
    assert_phases_add_up(&pile_profiles(1, true));
}

/// Two workers and every step parallel: the helpers' share of the passes is inside the
/// phases, since the step runs on the calling thread.
#[test]
fn with_two_workers_the_phases_add_up() {
    assert_phases_add_up(&pile_profiles(2, false));
}

/// The same pile with two workers and light steps run serially (the default).
#[test]
fn with_two_workers_and_light_steps_the_phases_add_up() {
    assert_phases_add_up(&pile_profiles(2, true));
}
