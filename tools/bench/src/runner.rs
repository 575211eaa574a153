//! Runs one scene on one engine and measures it, by Box2D's benchmark method.
//!
//! A run builds the world and the scene (untimed), then for every step `0..N`:
//!
//! 1. applies the scene script's group changes for that step (rain's spawning; untimed —
//!    the engine's share of that work that it defers into its step is timed with the step);
//! 2. calls `Engine::step`, timing that call alone with a monotonic clock. Step 0 is the
//!    untimed warm-up step; the durations of steps 1..N−1 (Box2D's "steps 2..N") are
//!    summed into the run's time;
//! 3. samples the deepest contact penetration, after **every** step, outside the timed
//!    region.
//!
//! Right after the last step it takes the engine's bytes (see **Memory** below); then it reads
//! the final quality figures: the drop of each pyramid's top box (start height minus end
//! height, the largest over all pyramids), the largest joint anchor separation, and the
//! motor-driven body's angular speed.
//!
//! **Memory.** The bytes an engine holds for the scene after the run. For Prism and Rapier,
//! which allocate through Rust's global allocator, the counting allocator's live bytes are
//! read just before the engine's world is created and again right after the last step
//! ([`crate::alloc_count`]); the growth between the two is the world's bytes once two things
//! are taken out: the backend's own records of the groups it built (`Memory::GlobalAllocator`'s
//! `bookkeeping`), and what the runner itself still holds from inside that window (the
//! phase totals after the first step). The scene description is built before the window and
//! the quality figures are computed after it; script actions are dropped within the step that
//! applied them; the progress bar draws in uncounted scopes. For Box2D the bytes are Box2D's
//! own count (`Memory::Counted`). Whatever the engine allocated during the run and still holds
//! at the end — caches, arenas, pools grown to the largest step — is part of its bytes: that is
//! what a program running the scene would hold.

use std::time::{Duration, Instant};

use crate::alloc_count::live_bytes;
use crate::engine::{
    BenchError, Counters, EngineFactory, EngineOptions, Memory, WorldSettings, vec_bytes,
};
use crate::progress::Progress;
use scenes::description::{BodyGroup, GroupAction, MAIN_SLOT, Probes, SceneSpec};

/// Quality figures of one run; `None` where the scene does not report that figure.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Quality {
    /// Deepest contact penetration seen after any step, metres.
    pub max_penetration_m: f32,
    /// How far the top box ended below its start (largest over all pyramids), metres.
    pub top_drop_m: Option<f32>,
    /// Largest joint anchor separation after the run, metres.
    pub max_joint_error_m: Option<f32>,
    /// Angular speed of the motor-driven body at the end, rad/s.
    pub motor_speed_rad_s: Option<f32>,
}

/// What one run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    /// Wall time of the timed steps (all but the first), milliseconds.
    pub timed_ms: f64,
    /// Counters after the last step.
    pub counters: Counters,
    pub quality: Quality,
    /// Mean milliseconds per timed step of each phase the engine reports (see
    /// `Engine::phase_totals`).
    pub phases: Vec<(&'static str, f64)>,
    /// Bytes the engine held for the scene after the last step (see the module notes).
    pub bytes: u64,
}

/// A scene ready to be run: its facts, its initial bodies and its probes.
pub struct PreparedScene {
    pub spec: SceneSpec,
    pub group: BodyGroup,
    pub probes: Probes,
}

impl PreparedScene {
    pub fn new(spec: SceneSpec) -> Self {
        let (group, probes) = spec.build();
        Self {
            spec,
            group,
            probes,
        }
    }
}

/// How to run a scene: worker threads, step count, engine switches (continuous collision,
/// contact recycling).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunConfig {
    pub threads: usize,
    pub steps: usize,
    pub engine: EngineOptions,
}

/// The bytes an engine holds, from what it reports (`memory`), the counting allocator's
/// growth over the run (`live_growth`) and what the runner itself holds from inside the
/// measured window (`runner_bytes`).
pub fn engine_bytes(memory: Memory, live_growth: i64, runner_bytes: usize) -> u64 {
    match memory {
        Memory::Counted(bytes) => bytes,
        Memory::GlobalAllocator { bookkeeping } => {
            let others = i64::try_from(bookkeeping + runner_bytes).unwrap_or(i64::MAX);
            u64::try_from(live_growth.saturating_sub(others)).unwrap_or(0)
        }
    }
}

/// Runs `scene` on a fresh world from `factory` as `config` says, advancing `progress` by
/// one after every step.
pub fn run_once(
    factory: EngineFactory,
    scene: &PreparedScene,
    config: RunConfig,
    progress: &Progress,
) -> Result<RunResult, BenchError> {
    let settings = WorldSettings::for_scene(&scene.spec, config.threads, config.engine);
    let live_before = live_bytes();
    let mut engine = factory(&settings)?;
    engine.insert_group(MAIN_SLOT, &scene.group)?;
    let mut script = scene.spec.script();
    let mut timed = Duration::ZERO;
    let mut max_penetration = 0.0f32;
    let mut untimed_phases = Vec::new();
    for step in 0..config.steps {
        for action in script.actions(step) {
            match action {
                GroupAction::Insert { slot, group } => engine.insert_group(slot, &group)?,
                GroupAction::Remove { slot } => engine.remove_group(slot),
            }
        }
        let start = Instant::now();
        engine.step();
        let elapsed = start.elapsed();
        if step > 0 {
            timed += elapsed;
        } else {
            untimed_phases = engine.phase_totals();
        }
        max_penetration = max_penetration.max(engine.deepest_penetration());
        progress.step();
    }
    let live_growth = live_bytes() - live_before;
    let bytes = engine_bytes(engine.memory(), live_growth, vec_bytes(&untimed_phases));
    let mut quality = Quality {
        max_penetration_m: max_penetration,
        ..Quality::default()
    };
    if scene.spec.is_pyramid() {
        quality.top_drop_m = Some(top_drop(engine.as_ref(), scene)?);
    }
    if scene.spec.has_joints {
        quality.max_joint_error_m = Some(engine.max_joint_error());
    }
    if scene.spec.has_motor() {
        let speed = scene
            .probes
            .motor_body
            .and_then(|body| engine.body_angular_velocity(MAIN_SLOT, body))
            .ok_or_else(|| BenchError::new("motor body is missing"))?;
        quality.motor_speed_rad_s = Some(speed);
    }
    Ok(RunResult {
        // Integer nanoseconds over 10⁶ print as short decimals (no binary noise).
        timed_ms: timed.as_nanos() as f64 / 1.0e6,
        counters: engine.counters(),
        quality,
        phases: timed_phase_means(&untimed_phases, &engine.phase_totals(), config.steps),
        bytes,
    })
}

/// Per-step means of the phases over the timed steps: totals at the end minus those after
/// the untimed first step, over the timed step count.
fn timed_phase_means(
    after_first: &[(&'static str, f64)],
    at_end: &[(&'static str, f64)],
    steps: usize,
) -> Vec<(&'static str, f64)> {
    let timed_steps = steps.saturating_sub(1).max(1) as f64;
    at_end
        .iter()
        .zip(after_first)
        .map(|(&(name, end), &(_, first))| (name, (end - first) / timed_steps))
        .collect()
}

/// The phases of the run whose time is the median of `runs` (the mean of the two middle runs'
/// phases for an even count, as the median is their mean), so that a row's phases describe
/// the steps its median time measured. Taking them from any one fixed repeat instead (the
/// last, say) would set one run's breakdown against another run's time, and on a noisy
/// machine the two differ by as much as the noise. Empty if `runs` is.
pub fn median_phases(runs: &[RunResult]) -> Vec<(&'static str, f64)> {
    let mut order: Vec<&RunResult> = runs.iter().collect();
    order.sort_by(|a, b| a.timed_ms.total_cmp(&b.timed_ms));
    let mid = order.len() / 2;
    match order.len() {
        0 => Vec::new(),
        n if n % 2 == 1 => order[mid].phases.clone(),
        _ => {
            let (low, high) = (&order[mid - 1].phases, &order[mid].phases);
            let pairs = low.iter().zip(high);
            pairs
                .map(|(&(name, a), &(_, b))| (name, 0.5 * (a + b)))
                .collect()
        }
    }
}

/// The largest drop of a top box below its starting height.
fn top_drop(engine: &dyn crate::engine::Engine, scene: &PreparedScene) -> Result<f32, BenchError> {
    let mut largest = f32::NEG_INFINITY;
    for &index in &scene.probes.top_boxes {
        let start = scene.group.bodies[index].position.y;
        let end = engine
            .body_position(MAIN_SLOT, index)
            .ok_or_else(|| BenchError::new(format!("top box {index} is missing")))?;
        largest = largest.max(start - end.y);
    }
    Ok(largest)
}

/// The median of `values` (mean of the two middle values for an even count); `None` if
/// empty.
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    Some(if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        0.5 * (sorted[mid - 1] + sorted[mid])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0]), Some(3.0));
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }

    fn run_with(timed_ms: f64, total: f64) -> RunResult {
        RunResult {
            timed_ms,
            counters: Counters::default(),
            quality: Quality::default(),
            phases: vec![("pairs", 0.25 * total), ("total", total)],
            bytes: 0,
        }
    }

    /// The phases come from the run that gave the median time, whatever its place among the
    /// repeats; for an even count they are the mean of the two middle runs', as the time is.
    #[test]
    fn phases_are_those_of_the_median_run() {
        assert!(median_phases(&[]).is_empty());
        let runs = [
            run_with(30.0, 3.0),
            run_with(10.0, 1.0),
            run_with(20.0, 2.0),
        ];
        assert_eq!(median_phases(&runs), vec![("pairs", 0.5), ("total", 2.0)]);
        let runs = [
            runs[0].clone(),
            runs[1].clone(),
            run_with(40.0, 4.0),
            runs[2].clone(),
        ];
        let times: Vec<f64> = runs.iter().map(|r| r.timed_ms).collect();
        assert_eq!(median(&times), Some(25.0));
        assert_eq!(median_phases(&runs), vec![("pairs", 0.625), ("total", 2.5)]);
    }

    /// An engine's own count is taken as it is; a Rust engine's bytes are the allocator's
    /// growth less the backend's and the runner's shares, never below zero.
    #[test]
    fn engine_bytes_leave_out_the_harness() {
        assert_eq!(engine_bytes(Memory::Counted(1234), 99_999, 50), 1234);
        let rust = Memory::GlobalAllocator { bookkeeping: 300 };
        assert_eq!(engine_bytes(rust, 10_000, 700), 9_000);
        assert_eq!(engine_bytes(rust, 900, 700), 0);
    }
}
