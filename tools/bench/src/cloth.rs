//! The `cloth` scene: a 128 × 128 cloth held along one edge, swinging down onto a dynamic
//! box and three static circles, in a Prism world (particle systems are Prism's own; the other
//! engines have no counterpart and are reported as "n/a").
//!
//! **Scene.** In units of the cloth's width `w` (127 spacings of 2 cm, `w` = 2.54 m): the
//! cloth's left edge pinned along `x = 0` from `0.6 w` to `1.6 w` above the ground, the rest
//! free; on the ground a `0.5 w × 0.3 w`, 20 kg box and three static circles. Particles are
//! 0.5 g (an 8.2 kg cloth) and 8 mm in radius; structural links are rods, shear and bend links
//! stiff springs integrated implicitly (backward Euler), four substeps, the constraint solve
//! capped at 50 CG iterations (the particles crate's benchmark settings, `particles::scenes`).
//!
//! **Figures.** Mean wall time of `World::step` per step (the first step untimed) and of its
//! particle phase, particle and constraint counts, CG iterations or PGS sweeps per step, and the
//! largest constraint error (`|C|` over every rod and pin, m): at the end and averaged over the
//! steps.
//!
//! **Solvers.** `--solver global` (default) and `--solver pgs` run the scene with one solver
//! (PGS at `--pgs-iterations`, default 8). `--solver compare` runs the global solve, then PGS
//! given the sweeps that cost the same constraint-solve time per step — found from two
//! calibration runs at 4 and 16 sweeps (a fixed cost plus a cost per sweep) — and reports the
//! error each reaches: what an iterative solver buys per millisecond.
//!
//! Measured (release build, 120 steps, on a shared two-core machine so loaded that wall times
//! varied by a factor of two between runs): the global solve, CG capped at 50 iterations per
//! solve (702 per step), does not converge on this net and ends with rods off by up to
//! 0.15 m (mean of the per-step largest error 0.08 m), at 1.4 to 2.3 s per step; PGS given
//! the same solve time (136 sweeps per substep) ends within 4.4 mm (mean 3.6 mm), and at its
//! default 8 sweeps, in a fifth of the time, within 2.1 cm. The global solve's figures are
//! the same bits on one and two workers.

use std::time::Instant;

use prism::particles::{
    CgSettings, ClothDef, ConstraintSolver, Integrator, Link, PgsSettings, SystemDef,
};
use prism::{
    BodyDef, Circle, PrismError, ShapeDef, Vec2, World, WorldDef, make_box, make_offset_box,
};

use crate::engine::BenchError;
use crate::report::{json_f32, json_number};

/// Which constraint solver(s) the cloth runs with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClothSolver {
    Global,
    Pgs,
    /// Global, then PGS at the same solve time.
    Compare,
}

impl ClothSolver {
    pub fn parse(value: &str) -> Result<ClothSolver, BenchError> {
        match value {
            "global" => Ok(ClothSolver::Global),
            "pgs" => Ok(ClothSolver::Pgs),
            "compare" => Ok(ClothSolver::Compare),
            other => Err(BenchError::new(format!(
                "--solver expects global, pgs or compare, got `{other}`"
            ))),
        }
    }
}

/// Steps of one cloth run unless `--steps` says otherwise (2 s at 60 Hz: the cloth swings
/// down and lands on the box).
pub const CLOTH_STEPS: usize = 120;

const SIZE: u32 = 128;
const SPACING: f32 = 0.02;
const DT: f32 = 1.0 / 60.0;
const WORLD_SUBSTEPS: u32 = 4;

/// What one run measured.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClothRun {
    pub solver: &'static str,
    pub threads: usize,
    pub steps: usize,
    /// PGS sweeps per substep (0 for the global solve).
    pub pgs_iterations: u32,
    pub particles: usize,
    pub constraints: usize,
    /// Mean ms per `World::step`, the first step left out.
    pub step_ms: f64,
    /// Mean ms of the step's particle phase.
    pub particle_ms: f64,
    /// Mean ms of the constraint solve inside it.
    pub solve_ms: f64,
    pub cg_iterations: f64,
    pub pgs_sweeps: f64,
    pub contacts: f64,
    /// Largest constraint error at the end (m).
    pub final_error: f32,
    /// Mean over the steps of the largest constraint error (m).
    pub mean_error: f64,
}

fn prism_error(error: PrismError) -> BenchError {
    BenchError::new(format!("prism: {error}"))
}

/// The scene's world on `threads` workers with the cloth's system settings.
fn build(
    threads: usize,
    solver: ConstraintSolver,
    pgs_iterations: u32,
) -> Result<(World, prism::ParticleSystemId), PrismError> {
    let mut world = World::new(WorldDef {
        gravity: Vec2::new(0.0, -9.81),
        worker_count: threads as u32,
        ..WorldDef::default()
    })?;
    let w = (SIZE - 1) as f32 * SPACING;
    let ground = world.create_body(&BodyDef::default())?;
    let floor = make_offset_box(4.0 * w, 0.5, Vec2::new(w, -0.5), prism::Rot::IDENTITY)?;
    world.create_polygon_shape(ground, &ShapeDef::default(), &floor)?;
    for (x, y, r) in [(0.1, 0.45, 0.08), (0.6, 0.12, 0.12), (0.85, 0.1, 0.1)] {
        let circle = Circle {
            center: Vec2::new(x, y) * w,
            radius: r * w,
        };
        world.create_circle_shape(ground, &ShapeDef::default(), &circle)?;
    }
    let half = Vec2::new(0.25, 0.15) * w;
    let body = world.create_body(&BodyDef::dynamic_at(Vec2::new(0.3, 0.15) * w))?;
    let density = 20.0 / (4.0 * half.x * half.y);
    let shape = ShapeDef {
        density,
        ..ShapeDef::default()
    };
    world.create_polygon_shape(body, &shape, &make_box(half.x, half.y)?)?;
    let system = world.create_particle_system(&SystemDef {
        gravity: Vec2::new(0.0, -9.81),
        drag: 0.0005,
        particle_radius: 0.008,
        substeps: 4,
        integrator: Integrator::ImplicitEuler,
        solver,
        pgs: PgsSettings {
            iterations: pgs_iterations,
            warm_start: true,
        },
        cg: CgSettings {
            max_iterations: 50,
            tolerance: 1.0e-6,
        },
        ..SystemDef::default()
    })?;
    let stiffness = 20.0;
    let cloth = world.create_cloth(
        system,
        &ClothDef {
            origin: Vec2::new(0.0, 1.6 * w),
            columns: SIZE,
            rows: SIZE,
            spacing: SPACING,
            particle_mass: 0.0005,
            structural: Link::Rod,
            shear: Link::Spring {
                stiffness,
                damping: 0.01 * stiffness,
            },
            bend: Link::Spring {
                stiffness: 0.5 * stiffness,
                damping: 0.005 * stiffness,
            },
            ..ClothDef::default()
        },
    )?;
    for row in 0..SIZE {
        let particle = cloth.particle(0, row).unwrap_or_default();
        let point = world.particle_position(system, particle)?;
        world.pin_cloth(system, &cloth, 0, row, point)?;
    }
    Ok((world, system))
}

/// Builds and runs the scene once.
fn run_one(
    threads: usize,
    steps: usize,
    solver: ConstraintSolver,
    pgs_iterations: u32,
) -> Result<ClothRun, BenchError> {
    let (mut world, system) = build(threads, solver, pgs_iterations).map_err(prism_error)?;
    let is_pgs = solver == ConstraintSolver::Pgs;
    let mut run = ClothRun {
        solver: if is_pgs { "pgs" } else { "global" },
        threads,
        steps,
        pgs_iterations: if is_pgs { pgs_iterations } else { 0 },
        ..ClothRun::default()
    };
    let mut diverged = 0;
    for step in 0..steps {
        let start = Instant::now();
        world.step(DT, WORLD_SUBSTEPS).map_err(prism_error)?;
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        diverged += world.diverged_particle_systems().len();
        let profile = world.profile();
        let figures = profile.particle_figures;
        if step > 0 {
            run.step_ms += ms;
            run.particle_ms += f64::from(profile.particles);
            run.solve_ms += f64::from(figures.solve);
        }
        run.cg_iterations += f64::from(figures.cg_iterations);
        run.pgs_sweeps += f64::from(figures.pgs_sweeps);
        run.contacts += f64::from(figures.contacts);
        run.mean_error += f64::from(figures.max_constraint_error);
        run.final_error = figures.max_constraint_error;
    }
    if diverged > 0 {
        eprintln!("prism-bench: cloth: {diverged} particle step(s) diverged and were put back");
    }
    let timed = (steps - 1).max(1) as f64;
    let all = steps.max(1) as f64;
    run.step_ms /= timed;
    run.particle_ms /= timed;
    run.solve_ms /= timed;
    run.cg_iterations /= all;
    run.pgs_sweeps /= all;
    run.contacts /= all;
    run.mean_error /= all;
    let system = world.particle_system(system).map_err(prism_error)?;
    run.particles = system.particle_count();
    run.constraints = system.constraint_count();
    Ok(run)
}

/// The runs `solver` asks for on `threads` workers.
pub fn run_cloth(
    threads: usize,
    steps: usize,
    solver: ClothSolver,
    pgs_iterations: u32,
) -> Result<Vec<ClothRun>, BenchError> {
    match solver {
        ClothSolver::Global => Ok(vec![run_one(threads, steps, ConstraintSolver::Global, 1)?]),
        ClothSolver::Pgs => Ok(vec![run_one(
            threads,
            steps,
            ConstraintSolver::Pgs,
            pgs_iterations,
        )?]),
        ClothSolver::Compare => compare(threads, steps),
    }
}

/// The global solve, then PGS at the same solve time per step (module notes).
fn compare(threads: usize, steps: usize) -> Result<Vec<ClothRun>, BenchError> {
    let global = run_one(threads, steps, ConstraintSolver::Global, 1)?;
    let (few, many) = (4, 16);
    let low = run_one(threads, steps, ConstraintSolver::Pgs, few)?;
    let high = run_one(threads, steps, ConstraintSolver::Pgs, many)?;
    let per_sweep = ((high.solve_ms - low.solve_ms) / f64::from(many - few)).max(1.0e-9);
    let fixed = (low.solve_ms - per_sweep * f64::from(few)).max(0.0);
    let sweeps = ((global.solve_ms - fixed) / per_sweep)
        .round()
        .clamp(1.0, 10_000.0) as u32;
    let equal = run_one(threads, steps, ConstraintSolver::Pgs, sweeps)?;
    Ok(vec![global, low, high, equal])
}

/// The table's header.
pub fn table_header() -> String {
    format!(
        "{:<8} {:>3} {:>6} {:>5} {:>7} {:>7} {:>9} {:>9} {:>8} {:>7} {:>7} {:>10} {:>10}",
        "solver",
        "thr",
        "steps",
        "pgs",
        "parts",
        "constr",
        "ms/step",
        "particles",
        "solve",
        "CG/step",
        "contact",
        "err_final",
        "err_mean"
    )
}

/// One run as a table line.
pub fn table_line(run: &ClothRun) -> String {
    format!(
        "{:<8} {:>3} {:>6} {:>5} {:>7} {:>7} {:>9.3} {:>9.3} {:>8.3} {:>7.1} {:>7.0} {:>10.3e} {:>10.3e}",
        run.solver,
        run.threads,
        run.steps,
        run.pgs_iterations,
        run.particles,
        run.constraints,
        run.step_ms,
        run.particle_ms,
        run.solve_ms,
        run.cg_iterations,
        run.contacts,
        run.final_error,
        run.mean_error
    )
}

/// One run as a JSON object.
pub fn json_line(run: &ClothRun) -> String {
    format!(
        "{{\"scene\":\"cloth\",\"engine\":\"prism\",\"solver\":\"{}\",\"threads\":{},\"steps\":{},\
         \"pgs_iterations\":{},\"particles\":{},\"constraints\":{},\"ms_per_step\":{},\
         \"particle_ms\":{},\"solve_ms\":{},\"cg_iterations_per_step\":{},\
         \"pgs_sweeps_per_step\":{},\"contacts\":{},\"final_error\":{},\"mean_error\":{}}}",
        run.solver,
        run.threads,
        run.steps,
        run.pgs_iterations,
        run.particles,
        run.constraints,
        json_number(run.step_ms),
        json_number(run.particle_ms),
        json_number(run.solve_ms),
        json_number(run.cg_iterations),
        json_number(run.pgs_sweeps),
        json_number(run.contacts),
        json_f32(run.final_error),
        json_number(run.mean_error)
    )
}
