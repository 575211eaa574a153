//! The benchmark scene — a large cloth falling onto a box and circles — and the comparison of
//! the global solve with PGS at equal time.
//!
//! [`cloth_scene`] builds, in a [`ParticleSystem`] and a [`TestCollider`], a square cloth
//! held along its left edge, so that the rest of it swings and folds down and drapes over a
//! dynamic box resting on the ground and three static circles. It is engine-neutral: a
//! benchmark steps it with [`ClothScene::step`] and reads the system's
//! [`crate::ParticleProfile`].
//!
//! [`compare_solvers`] runs the scene with the global solve, then with PGS given as many
//! sweeps as fit in the time the global solve took per step (found by calibration runs of the
//! same scene). It reports the constraint error each reaches: the figure of merit of an
//! iterative solver is not its cost per iteration but the accuracy it buys per millisecond.
//!
//! Measured (one thread, 60 Hz, four substeps, 120 steps; the 24 × 24 cloth in the test
//! profile, the 128 × 128 one in the release profile, on a shared two-core machine whose
//! timings vary by tens of percent from run to run): on a 24 × 24 cloth
//! the global solve ends with a largest rod error of 1.9e-5 m (mean 2.6e-4 m) against PGS's
//! 1.0e-3 to 1.4e-3 m (14 to 29 sweeps, as the timings of the run allowed); on the full
//! 128 × 128 cloth, CG capped at 50 iterations per solve
//! does not converge (the rods stretch by up to 0.22 m, mean 0.11 m) while PGS at about 120
//! sweeps keeps them within 4.9 mm (mean 4.1 mm).

use crate::cg::CgSettings;
use crate::cloth::{Cloth, ClothDef, Link};
use crate::contact::BodyHandle;
use crate::error::ParticleError;
use crate::settings::{ConstraintSolver, Integrator, PgsSettings, SystemDef};
use crate::system::ParticleSystem;
use crate::test_collider::{DynamicBox, StaticShape, TestCollider};
use core_soa::Vec2;

/// How to build the cloth scene.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClothSceneDef {
    /// Particles per row and rows (the cloth is square).
    pub size: u32,
    /// Distance between neighbours (m).
    pub spacing: f32,
    /// Mass of each particle (kg).
    pub particle_mass: f32,
    /// Stiffness of the shear springs (N/m); the bend springs have half of it. Without enough
    /// of it a net hanging from one edge collapses into overlapping chains (every rod along
    /// one line), a configuration whose constraints are degenerate.
    pub shear_stiffness: f32,
    /// The system's settings (solver, integrator, substeps, CG and PGS settings).
    pub system: SystemDef,
}

impl Default for ClothSceneDef {
    /// 128 × 128 particles 2 cm apart, 0.5 g each (a 2.54 m, 8.2 kg cloth): structural rods,
    /// shear and bend springs stiff enough to keep the net from collapsing into chains, so
    /// integrated implicitly (`k h²/m` ≈ 2.5 at 240 Hz, where explicit springs on a particle
    /// with eight of them are stable only below about 0.25); four substeps, as Prism's rigid
    /// solver (a row of 128 hanging from its pin makes `h² T/(m L)` ≈ 17 at one substep,
    /// beyond what a velocity step resolves); CG capped at 50 iterations per solve.
    fn default() -> Self {
        ClothSceneDef {
            size: 128,
            spacing: 0.02,
            particle_mass: 0.0005,
            shear_stiffness: 20.0,
            system: SystemDef {
                gravity: Vec2::new(0.0, -9.81),
                drag: 0.0005,
                particle_radius: 0.008,
                substeps: 4,
                integrator: Integrator::ImplicitEuler,
                cg: CgSettings {
                    max_iterations: 50,
                    tolerance: 1.0e-6,
                },
                ..SystemDef::default()
            },
        }
    }
}

/// The scene, ready to step.
pub struct ClothScene {
    /// The particles, links and pins.
    pub system: ParticleSystem,
    /// The box, circles and ground.
    pub collider: TestCollider,
    /// The cloth's particles and links.
    pub cloth: Cloth,
    /// The dynamic box.
    pub box_body: BodyHandle,
    gravity: Vec2,
}

/// Builds the scene, in units of the cloth's width `w`: the square cloth's left edge pinned
/// along `x = 0` from `0.6 w` to `1.6 w` above the ground, the rest free to swing down; below
/// it a `0.5 w × 0.3 w`, 20 kg box resting on the ground and three static circles.
pub fn cloth_scene(def: &ClothSceneDef) -> Result<ClothScene, ParticleError> {
    let mut system = ParticleSystem::new(def.system)?;
    let width = (def.size - 1) as f32 * def.spacing;
    let top = 1.6 * width;
    let cloth = Cloth::create(
        &mut system,
        &ClothDef {
            origin: Vec2::new(0.0, top),
            columns: def.size,
            rows: def.size,
            spacing: def.spacing,
            particle_mass: def.particle_mass,
            structural: Link::Rod,
            shear: Link::Spring {
                stiffness: def.shear_stiffness,
                damping: 0.01 * def.shear_stiffness,
            },
            bend: Link::Spring {
                stiffness: 0.5 * def.shear_stiffness,
                damping: 0.005 * def.shear_stiffness,
            },
            ..ClothDef::default()
        },
    )?;
    for row in 0..def.size {
        cloth.pin_in_place(&mut system, 0, row)?;
    }
    let mut collider = TestCollider::new();
    collider.add_ground(0.0);
    let box_body = collider.add_dynamic_box(DynamicBox::new(
        Vec2::new(0.3, 0.15) * width,
        Vec2::new(0.25, 0.15) * width,
        20.0,
    ));
    for (x, y, r) in [(0.1, 0.45, 0.08), (0.6, 0.12, 0.12), (0.85, 0.1, 0.1)] {
        collider.add_static(StaticShape::Circle {
            center: Vec2::new(x, y) * width,
            radius: r * width,
        });
    }
    Ok(ClothScene {
        system,
        cloth,
        collider,
        box_body,
        gravity: def.system.gravity,
    })
}

impl ClothScene {
    /// One step of the particles, then of the box (which receives the cloth's impulses).
    pub fn step(&mut self, dt: f32) -> Result<(), ParticleError> {
        self.system.step(dt, &mut self.collider)?;
        self.collider.step_bodies(dt, self.gravity);
        Ok(())
    }

    /// Particles in the scene.
    pub fn particle_count(&self) -> usize {
        self.system.particle_count()
    }

    /// Rods and pins (constraints) in the scene.
    pub fn constraint_count(&self) -> usize {
        self.system.constraint_count()
    }
}

/// One solver's figures in [`compare_solvers`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SolverRun {
    /// PGS sweeps per substep (velocity and as many position sweeps); 0 for the global solve.
    pub pgs_iterations: u32,
    /// Mean CG iterations per step (global solve).
    pub cg_iterations: f64,
    /// Mean wall-clock time of the constraint solve per step (ms).
    pub solve_ms: f64,
    /// Mean wall-clock time of the whole particle step (ms).
    pub step_ms: f64,
    /// Largest constraint error at the end of the last step (m).
    pub final_error: f32,
    /// Mean over the steps of the largest constraint error at the end of each step (m).
    pub mean_error: f64,
}

/// The global solve against PGS at equal solve time on one scene.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SolverComparison {
    /// The global solve.
    pub global: SolverRun,
    /// PGS with the sweeps that take the global solve's time.
    pub pgs: SolverRun,
    /// Steps run by each.
    pub steps: u32,
}

/// Runs `def`'s scene for `steps` steps of `dt` with the global solve, then with PGS given the
/// number of sweeps that costs the same constraint-solve time per step: estimated from two
/// calibration runs at 4 and 16 sweeps, then corrected once from the run at the estimate.
/// `def.system.solver` is ignored. Times are wall clock, so call it inside the workers that
/// should run it (`workers::Workers::install`).
pub fn compare_solvers(
    def: &ClothSceneDef,
    steps: u32,
    dt: f32,
) -> Result<SolverComparison, ParticleError> {
    let with = |solver, iterations| ClothSceneDef {
        system: SystemDef {
            solver,
            pgs: PgsSettings {
                iterations,
                ..def.system.pgs
            },
            ..def.system
        },
        ..*def
    };
    let global = run_scene(&with(ConstraintSolver::Global, 1), steps, dt)?;
    // PGS's solve time is a fixed part (evaluating and preparing rows) plus a part per sweep:
    // two runs give both.
    let (few, many) = (4, 16);
    let low = run_scene(&with(ConstraintSolver::Pgs, few), steps, dt)?;
    let high = run_scene(&with(ConstraintSolver::Pgs, many), steps, dt)?;
    let per_sweep = ((high.solve_ms - low.solve_ms) / f64::from(many - few)).max(1.0e-9);
    let fixed = (low.solve_ms - per_sweep * f64::from(few)).max(0.0);
    let iterations = ((global.solve_ms - fixed) / per_sweep)
        .round()
        .clamp(1.0, 10_000.0) as u32;
    let mut pgs = run_scene(&with(ConstraintSolver::Pgs, iterations), steps, dt)?;
    // One refinement: the per-sweep cost at `iterations` sweeps, from this run.
    let per_sweep = ((pgs.solve_ms - fixed) / f64::from(iterations)).max(1.0e-9);
    let refined = ((global.solve_ms - fixed) / per_sweep)
        .round()
        .clamp(1.0, 10_000.0) as u32;
    if refined != iterations {
        pgs = run_scene(&with(ConstraintSolver::Pgs, refined), steps, dt)?;
    }
    Ok(SolverComparison { global, pgs, steps })
}

/// Builds and runs one scene, averaging its profile.
fn run_scene(def: &ClothSceneDef, steps: u32, dt: f32) -> Result<SolverRun, ParticleError> {
    let mut scene = cloth_scene(def)?;
    let mut run = SolverRun {
        pgs_iterations: if def.system.solver == ConstraintSolver::Pgs {
            def.system.pgs.iterations
        } else {
            0
        },
        ..SolverRun::default()
    };
    for _ in 0..steps {
        scene.step(dt)?;
        let profile = scene.system.profile();
        run.cg_iterations += f64::from(profile.cg_iterations);
        run.solve_ms += f64::from(profile.solve);
        run.step_ms += f64::from(profile.total);
        run.mean_error += f64::from(profile.max_constraint_error);
        run.final_error = profile.max_constraint_error;
    }
    let n = f64::from(steps.max(1));
    run.cg_iterations /= n;
    run.solve_ms /= n;
    run.step_ms /= n;
    run.mean_error /= n;
    Ok(run)
}
