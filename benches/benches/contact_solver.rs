//! One solver step (four substeps) of a large wall of boxes: the scalar path against the wide
//! colours, on one and two threads.
//!
//! The scene is `solver_simd::test_support::BoxGrid`: 100 × 50 unit boxes resting on the ground,
//! each touching the box below and its right neighbour, so 5,000 bodies and 9,950 two-point
//! contacts — the size of Box2D's `large_pyramid` (5,050 boxes, about 10,000 touching
//! contacts). The contacts are coloured by the engine's persistent colouring
//! (`graph_coloring::ConstraintGraph`, contacts added in creation order), which fills four
//! colours with the box-box contacts and puts the ground contacts in the last colour.
//!
//! Before timing, the wall settles for 30 steps so the warm-start impulses are those of a
//! resting wall. Each timed iteration re-collides the wall (untimed) and times one call to
//! the solver. The "scalar" variants put every contact in the overflow set: one contact at a
//! time, with only body integration split across threads. The per-stage profile of the wide
//! path and the cost per contact and substep are printed first.

use criterion::{Criterion, criterion_group, criterion_main};
use graph_coloring::{ColorIndex, ConstraintGraph, ConstraintKind, Endpoint, GRAPH_COLOR_COUNT};
use solver_simd::test_support::{BoxGrid, ColorRanges};
use solver_simd::{ContactSolver, SolverParams, SolverProfile};
use std::time::{Duration, Instant};

const COLUMNS: usize = 100;
const ROWS: usize = 50;

/// The wall, its contacts ordered by the constraint graph's colours.
fn colored_wall() -> BoxGrid {
    let mut grid = BoxGrid::new(COLUMNS, ROWS, 0.0);
    let mut graph = ConstraintGraph::new();
    let endpoint = |body: u32| match body {
        core_soa::NULL_BODY => Endpoint::fixed(u32::MAX),
        body => Endpoint::dynamic(body),
    };
    for (handle, c) in grid.contacts.iter().enumerate() {
        let (a, b) = (endpoint(c.body_a), endpoint(c.body_b));
        graph.add(ConstraintKind::Contact, handle as u32, a, b);
    }
    let mut colors = vec![GRAPH_COLOR_COUNT; grid.contacts.len()];
    for (color, slot) in colors_of(&graph) {
        colors[slot as usize] = color;
    }
    grid.order_by_colors(&colors, GRAPH_COLOR_COUNT);
    grid
}

/// `(colour, contact handle)` for every coloured contact of `graph`.
fn colors_of(graph: &ConstraintGraph) -> Vec<(usize, u32)> {
    (0..GRAPH_COLOR_COUNT)
        .filter_map(|c| ColorIndex::new(c).map(|index| (c, index)))
        .flat_map(|(c, index)| graph.contacts(index).iter().map(move |&h| (c, h)))
        .collect()
}

/// One solver step of `grid` with `layout` (every contact in overflow: the scalar path).
fn step(grid: &mut BoxGrid, solver: &mut ContactSolver, layout: &ColorRanges) -> SolverProfile {
    let params = SolverParams::default();
    let mut profile = SolverProfile::default();
    let mut contacts = std::mem::take(&mut grid.contacts);
    let no_joints = (&ColorRanges::default(), &mut [][..]);
    let constraints = ColorRanges::constraints((layout, &mut contacts), no_joints);
    solver
        .step(&params, grid.bodies(), constraints, &mut profile)
        .expect("the colouring is valid");
    grid.contacts = contacts;
    profile
}

/// A settled wall, a solver with `workers` threads, and the layout to solve it with.
fn setup(wide: bool, workers: usize) -> (BoxGrid, ContactSolver, ColorRanges) {
    let mut grid = colored_wall();
    let layout = match wide {
        true => grid.layout().clone(),
        false => ColorRanges::overflow_only(grid.contacts.len()),
    };
    let mut solver = ContactSolver::new();
    solver.set_worker_count(workers);
    for _ in 0..30 {
        grid.collide();
        step(&mut grid, &mut solver, &layout);
    }
    (grid, solver, layout)
}

fn report(wide: bool, workers: usize) {
    let (mut grid, mut solver, layout) = setup(wide, workers);
    let steps = 20;
    let mut sum = SolverProfile::default();
    for _ in 0..steps {
        grid.collide();
        let p = step(&mut grid, &mut solver, &layout);
        for (total, part) in [
            (&mut sum.prepare, p.prepare),
            (&mut sum.integrate_velocities, p.integrate_velocities),
            (&mut sum.warm_start, p.warm_start),
            (&mut sum.solve, p.solve),
            (&mut sum.integrate_positions, p.integrate_positions),
            (&mut sum.relax, p.relax),
            (&mut sum.restitution, p.restitution),
            (&mut sum.store_impulses, p.store_impulses),
            (&mut sum.finalize, p.finalize),
            (&mut sum.total, p.total),
        ] {
            *total += part / steps as f32;
        }
    }
    let counters = solver.counters();
    let contacts = grid.contacts.len() as f32;
    let per_contact_substep_ns = sum.total * 1.0e6 / (contacts * 4.0);
    println!(
        "{} × {workers}: {:.3} ms/step, {per_contact_substep_ns:.1} ns per contact per substep; \
         colours {}, bundles {}, overflow {}, stage entries {}",
        if wide { "wide colours" } else { "scalar only " },
        sum.total,
        counters.colors,
        counters.bundles,
        counters.overflow_contacts,
        counters.stages,
    );
    println!(
        "    prepare {:.3}  integrate v {:.3}  warm start {:.3}  solve {:.3}  integrate x {:.3}  \
         relax {:.3}  restitution {:.3}  store {:.3}  finalize {:.3}",
        sum.prepare,
        sum.integrate_velocities,
        sum.warm_start,
        sum.solve,
        sum.integrate_positions,
        sum.relax,
        sum.restitution,
        sum.store_impulses,
        sum.finalize,
    );
}

fn bench_contact_solver(c: &mut Criterion) {
    for wide in [false, true] {
        for workers in [1, 2] {
            report(wide, workers);
        }
    }
    let mut group = c.benchmark_group("contact_solver_wall_100x50");
    for wide in [false, true] {
        for workers in [1, 2] {
            let (mut grid, mut solver, layout) = setup(wide, workers);
            let name = format!("{}_{workers}_workers", if wide { "wide" } else { "scalar" });
            group.bench_function(name, |b| {
                b.iter_custom(|iterations| {
                    let mut timed = Duration::ZERO;
                    for _ in 0..iterations {
                        grid.collide();
                        let start = Instant::now();
                        step(&mut grid, &mut solver, &layout);
                        timed += start.elapsed();
                    }
                    timed
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_contact_solver);
criterion_main!(benches);
