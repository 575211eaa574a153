//! One substep of each integrator, built from one operation: the derivative evaluation.
//!
//! Witkin's particle systems separate the *system* (particles, forces, constraints) from the
//! *solver* (the integrator) by a single interface: given a state, evaluate its derivative.
//! With constraints, the derivative evaluation is "clear the force accumulators, apply every
//! force, solve for the constraint forces, return `(v, W (Q + Q̂))`" — so any explicit
//! integrator gets constrained dynamics for free, each of its stages seeing the constraint
//! forces of its own state:
//!
//! ```text
//!   explicit Euler   x' = x + h v₀             v' = v + h a₀
//!   symplectic Euler v' = v + h a₀             x' = x + h v'
//!   midpoint         k₁ at s; k₂ at s + h/2·k₁;                       s' = s + h k₂
//!   RK4              k₁ at s; k₂ at s + h/2·k₁; k₃ at s + h/2·k₂;
//!                    k₄ at s + h k₃;           s' = s + h/6 (k₁ + 2k₂ + 2k₃ + k₄)
//! ```
//!
//! The explicit Runge–Kutta family is written once with its weights; symplectic Euler, the
//! PGS path and the implicit integrator have their own short functions because they interleave
//! the velocity and position updates differently. Impulses handed to bodies and anchors are
//! the constraint and contact forces integrated with the same stage weights, so a resting
//! cloth hands exactly its weight to what supports it.

use crate::anchor::{AnchorSample, AnchorState};
use crate::contact::{ContactSet, apply_friction};
use crate::force::{ForceField, ForceInputs, accumulate};
use crate::geometric::response_inverse_mass;
use crate::global::{GlobalSolver, Level, PushOut, SolveInputs, SolveStats};
use crate::implicit::{ImplicitInputs, ImplicitSolver};
use crate::parallel::for_chunks;
use crate::parametric::{self, Bead};
use crate::pgs::{PgsParams, PgsSolver, PositionInputs, position_sweeps};
use crate::profile::elapsed_ms;
use crate::settings::{ConstraintLevel, ConstraintSolver, Integrator, SystemDef};
use crate::topology::Topology;
use core_soa::Vec2;
use glam::DVec2;
use solver_simd::Softness;
use std::time::Instant;

/// What stays fixed during a step.
pub(crate) struct Model<'a> {
    pub def: &'a SystemDef,
    pub topology: &'a Topology,
    pub inverse_mass: &'a [f32],
    pub external: &'a [Vec2],
    pub fields: &'a [&'a dyn ForceField],
    /// Anchor states by slot (dead slots hold a default).
    pub anchors: &'a [AnchorState],
    pub beads: &'a [Bead],
    /// The substep (s).
    pub h: f32,
}

/// The mutable state: particles and bead coordinates.
pub(crate) struct State<'a> {
    pub x: &'a mut [Vec2],
    pub v: &'a mut [Vec2],
    pub u: &'a mut [f64],
    pub rate: &'a mut [f64],
}

/// Time per phase and solver counts, summed over a step.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct StepTally {
    pub forces: f32,
    pub solve: f32,
    pub implicit: f32,
    pub integrate: f32,
    pub collide: f32,
    pub constraint: SolveStats,
    pub implicit_iterations: u32,
    pub implicit_residual: f64,
    pub pgs_sweeps: u32,
}

/// Buffers of the derivative evaluation and the step's running sums.
#[derive(Clone, Default)]
pub(crate) struct Eval {
    pub force: Vec<DVec2>,
    pub spring_force: Vec<DVec2>,
    pub anchors: Vec<AnchorSample>,
    pub global: GlobalSolver,
    pub contacts: ContactSet,
    /// Reaction impulse per anchor slot over the step.
    pub anchor_impulse: Vec<DVec2>,
    /// Inverse masses of the velocity update, raised by geometric stiffness (`geometric.rs`).
    pub response_w: Vec<f32>,
    pub tally: StepTally,
}

/// Stage buffers of the Runge–Kutta family.
#[derive(Clone, Default)]
pub(crate) struct Stages {
    x: Vec<Vec2>,
    v: Vec<Vec2>,
    u: Vec<f64>,
    rate: Vec<f64>,
    accel: Vec<Vec2>,
    bead_accel: Vec<f64>,
    sum_v: Vec<DVec2>,
    sum_a: Vec<DVec2>,
    sum_rate: Vec<f64>,
    sum_bead_accel: Vec<f64>,
}

/// All step buffers.
#[derive(Clone, Default)]
pub(crate) struct Workspace {
    pub eval: Eval,
    pub stages: Stages,
    pub pgs: PgsSolver,
    pub implicit: ImplicitSolver,
}

/// Advances `state` by one substep starting `t0` seconds into the step.
pub(crate) fn substep(model: &Model<'_>, work: &mut Workspace, state: &mut State<'_>, t0: f64) {
    work.eval.contacts.normal_impulse.fill(0.0);
    match (model.def.integrator, model.def.solver) {
        (Integrator::SymplecticEuler, ConstraintSolver::Global) => {
            match model.def.symplectic_level {
                ConstraintLevel::Velocity => symplectic_velocity(model, &mut work.eval, state, t0),
                ConstraintLevel::Acceleration => symplectic_acceleration(model, work, state, t0),
            }
        }
        (Integrator::SymplecticEuler, ConstraintSolver::Pgs) => {
            symplectic_pgs(model, work, state, t0)
        }
        (Integrator::ImplicitEuler, _) => implicit(model, work, state, t0),
        (Integrator::ExplicitEuler, _) => runge_kutta(model, work, state, t0, &EULER),
        (Integrator::Midpoint, _) => runge_kutta(model, work, state, t0, &MIDPOINT),
        (Integrator::Rk4, _) => runge_kutta(model, work, state, t0, &RK4),
    }
}

/// Samples every anchor `t` seconds into the step.
pub(crate) fn sample_anchors(anchors: &[AnchorState], t: f64, out: &mut Vec<AnchorSample>) {
    out.clear();
    out.extend(anchors.iter().map(|a| a.sample(t as f32)));
}

/// The applied forces `Q` at `(x, v)`, into `eval.force`.
fn forces(model: &Model<'_>, eval: &mut Eval, x: &[Vec2], v: &[Vec2]) {
    let start = Instant::now();
    let topology = model.topology;
    let inputs = ForceInputs {
        x,
        v,
        inverse_mass: model.inverse_mass,
        external: model.external,
        anchors: &eval.anchors,
        springs: &topology.springs,
        spring_start: &topology.spring_start,
        spring_incidence: &topology.spring_incidence,
        fields: model.fields,
        gravity: model.def.gravity.as_dvec2(),
        drag: f64::from(model.def.drag),
    };
    eval.force.resize(x.len(), DVec2::ZERO);
    accumulate(&inputs, &mut eval.spring_force, &mut eval.force);
    eval.tally.forces += elapsed_ms(start);
}

/// How contacts are pushed out at substep `h`.
fn push_out(def: &SystemDef, h: f32) -> PushOut {
    let contact = def.contact;
    let hertz = contact.hertz.min(0.25 / h);
    PushOut {
        h: f64::from(h),
        bias_rate: f64::from(Softness::new(hertz, contact.damping_ratio, h).bias_rate),
        max_velocity: f64::from(contact.max_push_velocity),
    }
}

/// Evaluates the rows at `(x, v)` and solves at `level`; `Jᵀλ` ends in `eval.global.jt`.
fn solve_global(
    model: &Model<'_>,
    eval: &mut Eval,
    state: (&[Vec2], &[Vec2], &[f32]),
    t: f64,
    level: Level,
) {
    let (x, v, w) = state;
    let start = Instant::now();
    let Eval {
        global,
        contacts,
        anchors,
        force,
        tally,
        ..
    } = eval;
    global.evaluate_rows(model.topology, contacts, (x, v), anchors, t);
    let inputs = SolveInputs {
        topology: model.topology,
        contacts,
        inverse_mass: w,
        force,
        level,
        push: push_out(model.def, model.h),
        regularization: f64::from(model.def.regularization),
        cg: model.def.cg,
        preconditioner: model.def.preconditioner,
        passes: model.def.active_set_passes,
    };
    let stats = global.solve(&inputs);
    let total = &mut tally.constraint;
    total.solves += stats.solves;
    total.iterations += stats.iterations;
    total.max_residual = total.max_residual.max(stats.max_residual);
    total.unconverged += stats.unconverged;
    total.active_contacts = stats.active_contacts;
    tally.solve += elapsed_ms(start);
}

/// Adds `scale ×` the last global solve's contact and anchor-row multipliers to the
/// substep's contact impulses and the anchors' reactions.
fn record_multipliers(model: &Model<'_>, eval: &mut Eval, scale: f64) {
    let rows = model.topology.rows.len();
    let lambda = &eval.global.lambda;
    if lambda.len() < rows + eval.contacts.len() {
        return;
    }
    for k in 0..eval.contacts.len() {
        eval.contacts.normal_impulse[k] += scale * lambda[rows + k];
    }
    for &(row, slot, axis) in &model.topology.anchor_rows {
        eval.anchor_impulse[slot as usize][axis] -= scale * lambda[row as usize];
    }
}

/// Adds `scale ×` the anchored springs' last computed forces to the anchors' reactions.
fn record_anchored_springs(model: &Model<'_>, eval: &mut Eval, scale: f64) {
    for &s in &model.topology.anchored_springs {
        let spring = model.topology.springs[s as usize];
        eval.anchor_impulse[spring.b as usize] -= scale * eval.spring_force[s as usize];
    }
}

/// Forces, constraint forces (acceleration level) and accelerations at a state.
fn derivative(
    model: &Model<'_>,
    eval: &mut Eval,
    state: (&[Vec2], &[Vec2], &[f64], &[f64]),
    t: f64,
    weight: f64,
    out: (&mut [Vec2], &mut [f64]),
) {
    let (x, v, u, rate) = state;
    sample_anchors(model.anchors, t, &mut eval.anchors);
    forces(model, eval, x, v);
    let has_rows = !model.topology.rows.is_empty() || eval.contacts.len() > 0;
    let h = f64::from(model.h);
    if has_rows {
        let (ks, kd) = model.def.feedback.effective(model.h);
        let state = (x, v, model.inverse_mass);
        solve_global(model, eval, state, t, Level::Acceleration { ks, kd, h });
        record_multipliers(model, eval, weight * h);
    } else {
        eval.global.jt.clear();
        eval.global.jt.resize(x.len(), DVec2::ZERO);
    }
    record_anchored_springs(model, eval, weight * h);
    let start = Instant::now();
    let (accel, bead_accel) = out;
    let (force, jt, w) = (&eval.force, &eval.global.jt, model.inverse_mass);
    for_chunks(accel, |first, out| {
        for (k, a) in out.iter_mut().enumerate() {
            let i = first + k;
            *a = (f64::from(w[i]) * (force[i] + jt[i])).as_vec2();
        }
    });
    bead_accelerations(model, force, u, rate, bead_accel);
    eval.tally.integrate += elapsed_ms(start);
}

/// `ü` of every bead from the applied forces.
fn bead_accelerations(
    model: &Model<'_>,
    force: &[DVec2],
    u: &[f64],
    rate: &[f64],
    out: &mut [f64],
) {
    for (b, bead) in model.beads.iter().enumerate() {
        let p = model.topology.bead_particle[b] as usize;
        let w = f64::from(model.inverse_mass[p]);
        out[b] = parametric::acceleration(&bead.curve, u[b], rate[b], w, force[p]);
    }
}

/// Puts every bead particle where its coordinate says.
pub(crate) fn place_beads(
    model: &Model<'_>,
    x: &mut [Vec2],
    v: &mut [Vec2],
    u: &[f64],
    rate: &[f64],
) {
    for (b, bead) in model.beads.iter().enumerate() {
        let p = model.topology.bead_particle[b] as usize;
        (x[p], v[p]) = bead.point_and_velocity(u[b], rate[b]);
    }
}

/// `x += h v` for the free particles and `u += h u̇` for the beads, then the beads' placement.
fn advance_positions(model: &Model<'_>, state: &mut State<'_>) {
    let h = model.h;
    let (v, is_bead) = (&*state.v, &model.topology.is_bead);
    for_chunks(state.x, |first, out| {
        for (k, x) in out.iter_mut().enumerate() {
            if !is_bead[first + k] {
                *x += h * v[first + k];
            }
        }
    });
    for (u, rate) in state.u.iter_mut().zip(state.rate.iter()) {
        *u += f64::from(h) * rate;
    }
    place_beads(model, state.x, state.v, state.u, state.rate);
}

/// Coulomb friction on the velocities, then the substep's normal impulses into the step sums.
fn friction(eval: &mut Eval, v: &mut [Vec2], w: &[f32]) {
    if eval.contacts.len() == 0 {
        return;
    }
    let start = Instant::now();
    apply_friction(&mut eval.contacts, v, w);
    eval.contacts.accumulate_normal_impulses();
    eval.tally.collide += elapsed_ms(start);
}

/// Symplectic Euler with the global acceleration-level solve (Witkin's form).
fn symplectic_acceleration(
    model: &Model<'_>,
    work: &mut Workspace,
    state: &mut State<'_>,
    t0: f64,
) {
    let Workspace { eval, stages, .. } = work;
    stages.accel.resize(state.x.len(), Vec2::ZERO);
    stages.bead_accel.resize(state.u.len(), 0.0);
    derivative(
        model,
        eval,
        (state.x, state.v, state.u, state.rate),
        t0,
        1.0,
        (&mut stages.accel, &mut stages.bead_accel),
    );
    let start = Instant::now();
    let h = model.h;
    let (accel, is_bead) = (&stages.accel, &model.topology.is_bead);
    for_chunks(state.v, |first, out| {
        for (k, v) in out.iter_mut().enumerate() {
            if !is_bead[first + k] {
                *v += h * accel[first + k];
            }
        }
    });
    for (rate, a) in state.rate.iter_mut().zip(&stages.bead_accel) {
        *rate += f64::from(h) * a;
    }
    eval.tally.integrate += elapsed_ms(start);
    friction(eval, state.v, model.inverse_mass);
    let start = Instant::now();
    advance_positions(model, state);
    eval.tally.integrate += elapsed_ms(start);
}

/// Symplectic Euler with the global velocity-level projection.
fn symplectic_velocity(model: &Model<'_>, eval: &mut Eval, state: &mut State<'_>, t0: f64) {
    sample_anchors(model.anchors, t0, &mut eval.anchors);
    forces(model, eval, state.x, state.v);
    record_anchored_springs(model, eval, f64::from(model.h));
    let start = Instant::now();
    let previous = eval.global.constraint_multipliers().to_vec();
    prepare_response_mass(model, eval, &previous);
    apply_forces_to_velocities(model, eval, state);
    eval.tally.integrate += elapsed_ms(start);
    project_and_move(model, eval, state, t0);
}

/// `eval.response_w`: the inverse masses of the velocity update, from the previous substep's
/// constraint impulses.
fn prepare_response_mass(model: &Model<'_>, eval: &mut Eval, previous: &[f64]) {
    let lambda = if model.def.geometric_stiffness {
        previous
    } else {
        &[]
    };
    let h = f64::from(model.h);
    response_inverse_mass(
        model.topology,
        model.inverse_mass,
        lambda,
        h,
        &mut eval.response_w,
    );
}

/// Projects the velocities onto the constraints and contacts (global, velocity level), applies
/// friction, and moves the positions.
fn project_and_move(model: &Model<'_>, eval: &mut Eval, state: &mut State<'_>, t0: f64) {
    let w = std::mem::take(&mut eval.response_w);
    if !model.topology.rows.is_empty() || eval.contacts.len() > 0 {
        let bias_rate = f64::from(model.def.feedback.softness(model.h).bias_rate);
        let level = Level::Velocity { bias_rate };
        solve_global(model, eval, (state.x, state.v, &w), t0, level);
        record_multipliers(model, eval, 1.0);
        let jt = &eval.global.jt;
        for_chunks(state.v, |first, out| {
            for (k, v) in out.iter_mut().enumerate() {
                *v += (f64::from(w[first + k]) * jt[first + k]).as_vec2();
            }
        });
    }
    friction(eval, state.v, &w);
    eval.response_w = w;
    let start = Instant::now();
    advance_positions(model, state);
    eval.tally.integrate += elapsed_ms(start);
}

/// `v += h W Q` for free particles and `u̇ += h ü` for beads, with `Q` in `eval.force`.
fn apply_forces_to_velocities(model: &Model<'_>, eval: &Eval, state: &mut State<'_>) {
    let h = f64::from(model.h);
    let (force, w, is_bead) = (&eval.force, &eval.response_w, &model.topology.is_bead);
    for_chunks(state.v, |first, out| {
        for (k, v) in out.iter_mut().enumerate() {
            let i = first + k;
            if !is_bead[i] {
                *v += (h * f64::from(w[i]) * force[i]).as_vec2();
            }
        }
    });
    let mut bead_accel = vec![0.0; state.u.len()];
    bead_accelerations(model, force, state.u, state.rate, &mut bead_accel);
    for (rate, a) in state.rate.iter_mut().zip(&bead_accel) {
        *rate += h * a;
    }
}

/// The PGS coefficients for substep `h`.
fn pgs_params(def: &SystemDef, h: f32) -> PgsParams {
    let joint_rate = f64::from(def.feedback.softness(h).bias_rate);
    let contact_rate = push_out(def, h).bias_rate;
    let h = f64::from(h);
    PgsParams {
        h,
        joint_fraction: (h * joint_rate).min(1.0),
        contact_fraction: (h * contact_rate).min(1.0),
        max_push: f64::from(def.contact.max_push_velocity) * h,
        warm_start: def.pgs.warm_start,
    }
}

/// Solves the constraints by PGS from the velocities in `state.v`, moves the positions, and
/// corrects them by nonlinear Gauss–Seidel.
fn pgs_solve_and_move(model: &Model<'_>, work: &mut Workspace, state: &mut State<'_>, t0: f64) {
    let start = Instant::now();
    let Workspace { eval, pgs, .. } = work;
    let params = pgs_params(model.def, model.h);
    let topology = model.topology;
    let w = &eval.response_w[..];
    eval.global.evaluate_rows(
        topology,
        &eval.contacts,
        (state.x, state.v),
        &eval.anchors,
        t0,
    );
    pgs.begin_substep(
        topology,
        &eval.contacts,
        &eval.global.values,
        (state.x, state.v, w),
        t0,
        &params,
    );
    let iterations = model.def.pgs.iterations;
    pgs.velocity_sweeps(topology, &eval.contacts, w, &params, iterations);
    pgs.store_velocities(state.v, &topology.is_bead);
    pgs.finish_substep(&mut eval.contacts);
    for &(row, slot, axis) in &topology.anchor_rows {
        eval.anchor_impulse[slot as usize][axis] -= pgs.row_lambda(row as usize);
    }
    eval.tally.solve += elapsed_ms(start);
    let start = Instant::now();
    advance_positions(model, state);
    eval.tally.integrate += elapsed_ms(start);
    let start = Instant::now();
    let t1 = t0 + params.h;
    sample_anchors(model.anchors, t1, &mut eval.anchors);
    let inputs = PositionInputs {
        topology,
        contacts: &eval.contacts,
        inverse_mass: model.inverse_mass,
        anchors: &eval.anchors,
        t: t1,
        params: &params,
    };
    position_sweeps(&inputs, state.x, iterations);
    eval.tally.pgs_sweeps += 2 * iterations;
    eval.tally.solve += elapsed_ms(start);
}

/// Symplectic Euler with PGS.
fn symplectic_pgs(model: &Model<'_>, work: &mut Workspace, state: &mut State<'_>, t0: f64) {
    let Workspace { eval, pgs, .. } = work;
    sample_anchors(model.anchors, t0, &mut eval.anchors);
    forces(model, eval, state.x, state.v);
    record_anchored_springs(model, eval, f64::from(model.h));
    let start = Instant::now();
    prepare_response_mass(model, eval, pgs.constraint_multipliers());
    apply_forces_to_velocities(model, eval, state);
    eval.tally.integrate += elapsed_ms(start);
    pgs_solve_and_move(model, work, state, t0);
}

/// Backward Euler for the springs, then a velocity-level constraint projection.
fn implicit(model: &Model<'_>, work: &mut Workspace, state: &mut State<'_>, t0: f64) {
    let h = f64::from(model.h);
    {
        let Workspace {
            eval,
            implicit,
            pgs,
            ..
        } = &mut *work;
        sample_anchors(model.anchors, t0, &mut eval.anchors);
        forces(model, eval, state.x, state.v);
        let start = Instant::now();
        let previous = if model.def.solver == ConstraintSolver::Pgs {
            pgs.constraint_multipliers().to_vec()
        } else {
            eval.global.constraint_multipliers().to_vec()
        };
        prepare_response_mass(model, eval, &previous);
        let report = implicit_velocities(model, eval, implicit, state);
        eval.tally.implicit_iterations += report.iterations;
        eval.tally.implicit += elapsed_ms(start);
        eval.tally.implicit_residual = eval.tally.implicit_residual.max(report.relative_residual);
    }
    if model.def.solver == ConstraintSolver::Pgs {
        pgs_solve_and_move(model, work, state, t0);
    } else {
        project_and_move(model, &mut work.eval, state, t0);
    }
    // Backward Euler applies the end-of-step spring forces: use them for the anchors' share.
    let eval = &mut work.eval;
    sample_anchors(model.anchors, t0 + h, &mut eval.anchors);
    for &s in &model.topology.anchored_springs {
        let spring = model.topology.springs[s as usize];
        eval.spring_force[s as usize] = spring.force_on_a(state.x, state.v, &eval.anchors);
    }
    record_anchored_springs(model, eval, h);
}

/// Solves the implicit spring system and applies `Δv`; beads get their explicit update.
fn implicit_velocities(
    model: &Model<'_>,
    eval: &Eval,
    implicit: &mut ImplicitSolver,
    state: &mut State<'_>,
) -> crate::cg::CgReport {
    let inputs = ImplicitInputs {
        topology: model.topology,
        x: state.x,
        v: state.v,
        inverse_mass: &eval.response_w,
        force: &eval.force,
        anchors: &eval.anchors,
        h: f64::from(model.h),
        settings: model.def.implicit_cg,
    };
    let report = implicit.solve(&inputs);
    let (delta_v, is_bead) = (&implicit.delta_v, &model.topology.is_bead);
    for_chunks(state.v, |first, out| {
        for (k, v) in out.iter_mut().enumerate() {
            let i = first + k;
            if !is_bead[i] {
                *v += DVec2::new(delta_v[2 * i], delta_v[2 * i + 1]).as_vec2();
            }
        }
    });
    let mut bead_accel = vec![0.0; state.u.len()];
    bead_accelerations(model, &eval.force, state.u, state.rate, &mut bead_accel);
    for (rate, a) in state.rate.iter_mut().zip(&bead_accel) {
        *rate += f64::from(model.h) * a;
    }
    report
}

/// An explicit Runge–Kutta method whose stage `k` is evaluated at `s + h·a_k·k_{k−1}`, time
/// `t0 + c_k h`, and weighs `b_k` in the result.
struct Tableau {
    a: &'static [f64],
    c: &'static [f64],
    b: &'static [f64],
}

const EULER: Tableau = Tableau {
    a: &[0.0],
    c: &[0.0],
    b: &[1.0],
};
const MIDPOINT: Tableau = Tableau {
    a: &[0.0, 0.5],
    c: &[0.0, 0.5],
    b: &[0.0, 1.0],
};
const RK4: Tableau = Tableau {
    a: &[0.0, 0.5, 0.5, 1.0],
    c: &[0.0, 0.5, 0.5, 1.0],
    b: &[1.0 / 6.0, 2.0 / 6.0, 2.0 / 6.0, 1.0 / 6.0],
};

fn runge_kutta(
    model: &Model<'_>,
    work: &mut Workspace,
    state: &mut State<'_>,
    t0: f64,
    tableau: &Tableau,
) {
    let Workspace { eval, stages, .. } = work;
    stages.begin(state);
    let h = f64::from(model.h);
    for k in 0..tableau.b.len() {
        let start = Instant::now();
        if k > 0 {
            stages.advance_stage(model, state, h * tableau.a[k]);
        }
        eval.tally.integrate += elapsed_ms(start);
        let Stages {
            x,
            v,
            u,
            rate,
            accel,
            bead_accel,
            ..
        } = stages;
        derivative(
            model,
            eval,
            (x, v, u, rate),
            t0 + tableau.c[k] * h,
            tableau.b[k],
            (accel, bead_accel),
        );
        let start = Instant::now();
        stages.accumulate(tableau.b[k]);
        eval.tally.integrate += elapsed_ms(start);
    }
    let start = Instant::now();
    stages.finish(model, state, h);
    eval.tally.integrate += elapsed_ms(start);
    friction(eval, state.v, model.inverse_mass);
}

impl Stages {
    /// Stage 1 is the state itself; the weighted sums start at zero.
    fn begin(&mut self, state: &State<'_>) {
        let n = state.x.len();
        let beads = state.u.len();
        self.x.clear();
        self.x.extend_from_slice(state.x);
        self.v.clear();
        self.v.extend_from_slice(state.v);
        self.u.clear();
        self.u.extend_from_slice(state.u);
        self.rate.clear();
        self.rate.extend_from_slice(state.rate);
        self.accel.resize(n, Vec2::ZERO);
        self.bead_accel.resize(beads, 0.0);
        for sum in [&mut self.sum_v, &mut self.sum_a] {
            sum.clear();
            sum.resize(n, DVec2::ZERO);
        }
        for sum in [&mut self.sum_rate, &mut self.sum_bead_accel] {
            sum.clear();
            sum.resize(beads, 0.0);
        }
    }

    /// The next stage: `s + scale·(v, a)` of the stage just evaluated.
    fn advance_stage(&mut self, model: &Model<'_>, base: &State<'_>, scale: f64) {
        let scale = scale as f32;
        let accel = &self.accel;
        crate::parallel::for_chunks2(&mut self.x, &mut self.v, |first, xs, vs| {
            for k in 0..xs.len() {
                let i = first + k;
                xs[k] = base.x[i] + scale * vs[k];
                vs[k] = base.v[i] + scale * accel[i];
            }
        });
        for b in 0..self.u.len() {
            let (rate_prev, accel_prev) = (self.rate[b], self.bead_accel[b]);
            self.u[b] = base.u[b] + f64::from(scale) * rate_prev;
            self.rate[b] = base.rate[b] + f64::from(scale) * accel_prev;
        }
        place_beads(model, &mut self.x, &mut self.v, &self.u, &self.rate);
    }

    /// Adds the evaluated stage to the weighted sums.
    fn accumulate(&mut self, weight: f64) {
        if weight == 0.0 {
            return;
        }
        let (v, accel) = (&self.v, &self.accel);
        crate::parallel::for_chunks2(&mut self.sum_v, &mut self.sum_a, |first, sv, sa| {
            for k in 0..sv.len() {
                sv[k] += weight * v[first + k].as_dvec2();
                sa[k] += weight * accel[first + k].as_dvec2();
            }
        });
        for b in 0..self.u.len() {
            self.sum_rate[b] += weight * self.rate[b];
            self.sum_bead_accel[b] += weight * self.bead_accel[b];
        }
    }

    /// `s += h Σ b_k k_k`.
    fn finish(&self, model: &Model<'_>, state: &mut State<'_>, h: f64) {
        let (sum_v, sum_a, is_bead) = (&self.sum_v, &self.sum_a, &model.topology.is_bead);
        crate::parallel::for_chunks2(state.x, state.v, |first, xs, vs| {
            for k in 0..xs.len() {
                let i = first + k;
                if !is_bead[i] {
                    xs[k] = (xs[k].as_dvec2() + h * sum_v[i]).as_vec2();
                    vs[k] = (vs[k].as_dvec2() + h * sum_a[i]).as_vec2();
                }
            }
        });
        for b in 0..state.u.len() {
            state.u[b] += h * self.sum_rate[b];
            state.rate[b] += h * self.sum_bead_accel[b];
        }
        place_beads(model, state.x, state.v, state.u, state.rate);
    }
}
