//! Runs a validation scene on one engine and computes its figures.
//!
//! A validation run builds the scene, records the poses of the scene's subjects as built and
//! after every step into a [`Trace`], and hands the trace to the scene's check
//! ([`scenes::figures`]). Nothing is timed: these scenes are about what an engine computes,
//! and the same code judges every engine from the same kind of data (where each subject is
//! and how it is turned).

use crate::engine::{BenchError, Engine, EngineFactory, WorldSettings};
use crate::runner::{PreparedScene, RunConfig};
use scenes::description::{MAIN_SLOT, TIME_STEP};
use scenes::figures::{Figures, Pose, Trace};

/// Runs the validation scene `scene` on a fresh world from `factory` and returns its figures.
pub fn run_validation(
    factory: EngineFactory,
    scene: &PreparedScene,
    config: RunConfig,
) -> Result<Figures, BenchError> {
    let name = scene.spec.name;
    let check = scene
        .probes
        .check
        .ok_or_else(|| BenchError::new(format!("scene `{name}` has no validation check")))?;
    let settings = WorldSettings::for_scene(&scene.spec, config.threads, config.engine);
    let mut engine = factory(&settings)?;
    engine.insert_group(MAIN_SLOT, &scene.group)?;
    let subjects = &scene.probes.subjects;
    let mut trace = Trace::new(TIME_STEP);
    trace.record(subject_poses(engine.as_ref(), subjects)?);
    for _ in 0..config.steps {
        engine.step();
        trace.record(subject_poses(engine.as_ref(), subjects)?);
    }
    check.evaluate(&trace).ok_or_else(|| {
        BenchError::new(format!(
            "scene `{name}`: its check needs more subjects than the {} it names",
            subjects.len()
        ))
    })
}

/// The current poses of `subjects` (indices into the main group).
fn subject_poses(engine: &dyn Engine, subjects: &[usize]) -> Result<Vec<Pose>, BenchError> {
    subjects
        .iter()
        .map(|&body| {
            let sample = engine
                .body_sample(MAIN_SLOT, body)
                .ok_or_else(|| BenchError::new(format!("subject body {body} is missing")))?;
            Ok(Pose {
                position: sample.position,
                angle: sample.angle,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineOptions;
    use scenes::description::VALIDATION_SCENES;
    use scenes::figures::Check;

    fn config(steps: usize) -> RunConfig {
        RunConfig {
            threads: 1,
            steps,
            engine: EngineOptions::default(),
        }
    }

    /// Every validation scene runs on Prism and yields the figures of its own check.
    #[test]
    fn every_validation_scene_runs_on_prism() {
        for spec in VALIDATION_SCENES {
            let scene = PreparedScene::new(spec);
            let figures = run_validation(crate::prism_engine::create, &scene, config(30))
                .unwrap_or_else(|e| panic!("{}: {e}", spec.name));
            let same_kind = matches!(
                (scene.probes.check.unwrap(), figures),
                (Check::Stack(_), Figures::Stack(_))
                    | (Check::HeavyOnLight(_), Figures::HeavyOnLight(_))
                    | (Check::Pendulum(_), Figures::Pendulum(_))
            );
            assert!(same_kind, "{}: {figures:?}", spec.name);
        }
    }

    /// Ten unit boxes stand on Prism for the full 20 s with their top within a centimetre of
    /// where it started (what Prism, Box2D and Rapier all do today).
    #[test]
    fn ten_box_column_stands_on_prism() {
        let spec = scenes::description::find_scene("column_10").unwrap();
        let scene = PreparedScene::new(spec);
        let figures = run_validation(crate::prism_engine::create, &scene, config(spec.steps));
        let Ok(Figures::Stack(stack)) = figures else {
            panic!("{figures:?}");
        };
        assert!(stack.stood && stack.max_top_drift < 0.01, "{stack:?}");
    }
}
