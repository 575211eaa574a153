//! The benchmark scene and the equal-time comparison of the global solve with PGS.
//!
//! The full-size runs (128 × 128) take minutes in the test profile and are ignored; run them
//! with `cargo test -p particles --release --test scene -- --ignored --nocapture`.

use particles::scenes::{ClothSceneDef, SolverComparison, cloth_scene, compare_solvers};
use particles::{ConstraintSolver, SystemDef};

const DT: f32 = 1.0 / 60.0;

fn one_thread<R>(work: impl FnOnce() -> R) -> R {
    workers::Workers::new(1).unwrap().install(work)
}

#[test]
fn cloth_scene_has_the_advertised_size_and_falls_onto_the_obstacles() {
    let def = ClothSceneDef::default();
    let scene = cloth_scene(&def).unwrap();
    assert_eq!(scene.particle_count(), 128 * 128);
    // Structural rods in both directions, plus one pin per row of the held edge.
    assert_eq!(scene.constraint_count(), 2 * 128 * 127 + 128);
    assert_eq!(scene.system.spring_count(), 2 * 127 * 127 + 2 * 128 * 126);

    // A smaller cloth runs long enough to reach the box and circles.
    let small = ClothSceneDef {
        size: 24,
        ..ClothSceneDef::default()
    };
    let mut scene = one_thread(|| {
        let mut scene = cloth_scene(&small).unwrap();
        let mut touched = 0;
        for _ in 0..120 {
            scene.step(DT).unwrap();
            touched = touched.max(scene.system.profile().contacts);
        }
        assert!(touched > 0, "the cloth reached an obstacle");
        scene
    });
    let held = scene
        .system
        .position(scene.cloth.particle(0, 5).unwrap())
        .unwrap();
    let start = 1.6 * 23.0 * 0.02 - 5.0 * 0.02;
    assert!(
        (held.y - start).abs() < 1e-3,
        "the held edge stays put: {held:?}"
    );
    assert!(scene.step(DT).is_ok());
}

fn report(name: &str, comparison: &SolverComparison) {
    let (g, p) = (&comparison.global, &comparison.pgs);
    println!(
        "{name}, {} steps: global CG {:.1} iterations/step, solve {:.2} ms/step, step {:.2} \
         ms, largest constraint error final {:.2e} m, mean {:.2e} m | PGS {} sweeps, solve \
         {:.2} ms/step, step {:.2} ms, final {:.2e} m, mean {:.2e} m",
        comparison.steps,
        g.cg_iterations,
        g.solve_ms,
        g.step_ms,
        g.final_error,
        g.mean_error,
        p.pgs_iterations,
        p.solve_ms,
        p.step_ms,
        p.final_error,
        p.mean_error
    );
}

#[test]
fn equal_time_comparison_runs_both_solvers_on_the_same_scene() {
    let def = ClothSceneDef {
        size: 24,
        ..ClothSceneDef::default()
    };
    let comparison = one_thread(|| compare_solvers(&def, 60, DT).unwrap());
    report("24×24 cloth", &comparison);
    assert_eq!(comparison.steps, 60);
    assert!(comparison.pgs.pgs_iterations >= 1);
    assert!(comparison.global.cg_iterations > 0.0);
    // The global run is the scene itself with the global solver: its figures are reproducible.
    let direct = one_thread(|| {
        let mut scene = cloth_scene(&ClothSceneDef {
            system: SystemDef {
                solver: ConstraintSolver::Global,
                ..def.system
            },
            ..def
        })
        .unwrap();
        for _ in 0..60 {
            scene.step(DT).unwrap();
        }
        scene.system.profile().max_constraint_error
    });
    assert_eq!(direct.to_bits(), comparison.global.final_error.to_bits());
    assert!(comparison.pgs.final_error.is_finite() && comparison.pgs.final_error > 0.0);
}

/// The full-size comparison (128 × 128, 16384 particles); see the module comment to run it.
#[test]
#[ignore]
fn equal_time_comparison_at_full_size() {
    let runs: Vec<SolverComparison> = [1, 2]
        .into_iter()
        .map(|threads| {
            let def = ClothSceneDef::default();
            let comparison = workers::Workers::new(threads)
                .unwrap()
                .install(|| compare_solvers(&def, 120, DT).unwrap());
            report(&format!("128×128 cloth, {threads} threads"), &comparison);
            comparison
        })
        .collect();
    // The global run does the same work whatever the thread count, bit for bit.
    assert_eq!(
        runs[0].global.final_error.to_bits(),
        runs[1].global.final_error.to_bits()
    );
    assert!(runs.iter().all(|r| r.pgs.final_error.is_finite()));
}
