//! Step phase 5: after the solver has written the new transforms, every moving body's shapes
//! are tested against their fat boxes. A proxy whose reach (its tight box grown by the
//! speculative distance, `broadphase::proxy_box`) has left its fat box is re-inserted into the
//! moving tree with a fresh fat box and buffered, so the next step's pair update looks for what
//! it now overlaps; a reach still inside its fat box costs nothing more (that slack is what the
//! margin buys). The tight box itself is not stored: only queries read it, and they compute it
//! from the body's transform (`World::tight_aabb`).
//!
//! The phase is two passes over the awake bodies, in awake-set order:
//!
//! ```text
//!   escapes  per shape: reach from the body's transform; keep it if it left the fat box
//!            the shape record keeps (a copy of its tree leaf's box)
//!   apply    move the escaped proxies and buffer their moves
//!   rebuild  the part of the moving tree the moves loosened, once
//! ```
//!
//! A moved proxy of the moving tree gets its new fat box at once but keeps its place, and the
//! tree only notes it (`move_proxy_deferred`, see the collision crate's `tree/enlarge.rs`);
//! after the last move one `rebuild_enlarged` flags the moved leaves' ancestors and rebuilds
//! that top part of the tree, keeping close subtrees whole. With several workers the rebuild
//! runs over the world's pool and gives the same tree, node for node, as with one, so the
//! pair update that follows sees identical trees for any worker count.
//!
//! The first pass reads only the body's sim and its shapes' records, so with several workers
//! it runs over fixed chunks of bodies in parallel and writes nothing; the chunks' escapes are
//! concatenated in body order, and the second pass — which edits the tree and the move buffer
//! — runs serially in that order. The tree and the buffer therefore see the same edits in the
//! same order for any worker count, and the step stays bitwise reproducible. At rest almost no
//! shape escapes, so the serial pass is short. With one worker both passes are one loop.
//!
//! Most resting shapes never escape their fat box, so the escape test uses the record's copy
//! of the fat box instead of the tree's leaf: the common case reads nothing outside the shape
//! record. The copy is kept equal to the leaf wherever a proxy is created or re-inserted.

use crate::body::AWAKE_SET;
use crate::broadphase::{BroadPhase, TreeKind, fat_margin, proxy_box};
use crate::profile::zone;
use crate::shape::ShapeRecord;
use crate::world::World;
use collision::Aabb;
use collision::geometry::compute_aabb;
use core_soa::{Arena, Body, BodyId, BodySim, BodyState, ShapeId, Vec2};
use rayon::prelude::*;

/// Awake bodies per parallel task when testing boxes: a box costs tens of nanoseconds, so a
/// task must hold a few hundred bodies to outweigh the scheduling.
const BOX_CHUNK: usize = 256;

/// A shape whose new reach left its fat box.
#[derive(Clone, Copy, Debug)]
struct Escape {
    shape: ShapeId,
    reach: Aabb,
}

impl World {
    /// New proxies for every awake shape that left its fat box.
    pub(crate) fn finalize_bodies(&mut self) {
        zone!("finalize bodies");
        let parallel = self.def.worker_count > 1;
        for escape in self.awake_escapes(parallel) {
            apply_escape(&mut self.shapes, &mut self.broadphase, escape);
        }
        if parallel {
            self.broadphase.moving_tree.rebuild_enlarged_parallel();
        } else {
            self.broadphase.moving_tree.rebuild_enlarged();
        }
    }

    /// Every awake shape that left its fat box, in awake-set order; with `parallel`, found
    /// over the current rayon pool in fixed chunks of bodies. Updates each body's slack.
    fn awake_escapes(&mut self, parallel: bool) -> Vec<Escape> {
        let (bodies, shapes) = (&self.bodies, &self.shapes);
        let (sims, states) = self.solver_sets[AWAKE_SET as usize].sims_and_states_mut();
        let test = |(sims, states): (&mut [BodySim], &[BodyState])| {
            let mut escapes = Vec::new();
            for (sim, state) in sims.iter_mut().zip(states) {
                test_body(bodies, shapes, sim, state, &mut escapes);
            }
            escapes
        };
        if !parallel {
            return test((sims, states));
        }
        let chunks = sims
            .par_chunks_mut(BOX_CHUNK)
            .zip(states.par_chunks(BOX_CHUNK));
        let escapes: Vec<Vec<Escape>> = chunks.map(test).collect();
        escapes.concat()
    }

    /// Makes the next finalize test every shape of the body against its fat box: for a body
    /// moved, re-massed, or given new shapes or proxies outside the solver.
    pub(crate) fn forget_fat_slack(&mut self, body_index: u32) {
        let Some(body) = self.bodies.get_by_index(body_index) else {
            return;
        };
        let set = self.solver_sets.get_mut(body.set_index as usize);
        if let Some((sim, _)) = set.and_then(|set| set.get_mut(body.local_index)) {
            sim.fat_slack = 0.0;
        }
    }
}

/// Tests the body's shapes against their fat boxes, pushing those that left to `escapes`,
/// unless its slack shows that none can have left: the slack minus this step's motion bound
/// becomes the new slack. A test measures the slack afresh (0 if a shape left, so the next
/// step tests the re-inserted boxes again).
fn test_body(
    bodies: &Arena<Body, BodyId>,
    shapes: &Arena<ShapeRecord, ShapeId>,
    sim: &mut BodySim,
    state: &BodyState,
    escapes: &mut Vec<Escape>,
) {
    let remaining = sim.fat_slack - motion_bound(state, sim.fat_extent, sim.center);
    if remaining > 0.0 {
        sim.fat_slack = remaining;
        return;
    }
    let Some(body) = bodies.get_by_index(sim.body) else {
        return;
    };
    let (mut slack, mut extent, mut escaped) = (f32::INFINITY, 0.0f32, false);
    for &shape in &body.shapes {
        let Some(record) = shapes.get(shape) else {
            continue;
        };
        let tight = compute_aabb(&record.geometry, sim.transform);
        extent = extent.max(farthest_corner(&tight, sim.center));
        let reach = proxy_box(record.tree, tight);
        if record.fat_aabb.contains(&reach) {
            slack = slack.min(inner_gap(&record.fat_aabb, &reach));
        } else if record.tree != TreeKind::Static {
            escapes.push(Escape { shape, reach });
            escaped = true;
        }
    }
    sim.fat_slack = if escaped { 0.0 } else { slack };
    sim.fat_extent = extent;
}

/// An upper bound on how far any point within `extent` of the centre of mass moved this step.
///
/// A point at `v` from the centre moves by `Δc + (R(q₁) − R(q₀))·v`, and
/// `|(R(q₁) − R(q₀))·v| = |R(Δq) − I|·|v|` with `Δq = q₁·q₀⁻¹`, the step's rotation; for the
/// unit `Δq = (c, s)` that factor is the chord `√((c − 1)² + s²)`. The bound adds a thousandth
/// and a micrometre for rounding, so slack runs out after at most 10⁵ steps even at rest.
///
/// It also adds the rounding of the boxes themselves, which is relative to the coordinates: a
/// box corner `p + R·v` is computed to within a few `f32::EPSILON · (|p| + |v|)`, which at
/// 10⁹ m is hundreds of metres, far more than any motion; without this term a shape 10⁹ m
/// from its body origin left its fat box unnoticed (found by the fuzzer). Near the origin the
/// term is micrometres, and a test made more often than needed changes nothing.
fn motion_bound(state: &BodyState, extent: f32, center: Vec2) -> f32 {
    let dq = state.delta_rotation;
    let norm = (dq.c * dq.c + dq.s * dq.s).sqrt();
    let (c, s) = (dq.c / norm, dq.s / norm);
    let chord = ((c - 1.0) * (c - 1.0) + s * s).sqrt();
    let travel = state.delta_position.length() + chord * extent;
    let rounding = 8.0 * f32::EPSILON * (center.abs().max_element() + extent);
    travel * 1.001 + 1.0e-6 + rounding
}

/// The distance from `center` to the farthest corner of `aabb`: no point in the box is farther.
fn farthest_corner(aabb: &Aabb, center: Vec2) -> f32 {
    let dx = (aabb.min.x - center.x)
        .abs()
        .max((aabb.max.x - center.x).abs());
    let dy = (aabb.min.y - center.y)
        .abs()
        .max((aabb.max.y - center.y).abs());
    (dx * dx + dy * dy).sqrt()
}

/// How far `inner` may move in any direction and stay inside `outer` (which contains it).
fn inner_gap(outer: &Aabb, inner: &Aabb) -> f32 {
    let low = inner.min - outer.min;
    let high = outer.max - inner.max;
    low.x.min(low.y).min(high.x).min(high.y)
}

/// Re-inserts an escaped proxy and buffers the move (shapes in the static tree keep their
/// proxy: a static body does not move).
fn apply_escape(
    shapes: &mut Arena<ShapeRecord, ShapeId>,
    broadphase: &mut BroadPhase,
    escape: Escape,
) {
    let Some(shape) = shapes.get_mut(escape.shape) else {
        return;
    };
    let margin = fat_margin(shape.tree, &shape.geometry);
    let tree = broadphase.tree_mut(shape.tree);
    // Only the moving tree is rebuilt at the end of the phase; any other tree moves at once.
    let moved = if shape.tree == TreeKind::Moving {
        tree.move_proxy_deferred_with_margin(shape.proxy, escape.reach, margin)
    } else {
        tree.move_proxy_with_margin(shape.proxy, escape.reach, margin)
    };
    if moved {
        shape.fat_aabb = tree.fat_aabb(shape.proxy);
        broadphase.buffer_move(escape.shape.index());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broadphase::{FAT_MARGIN, FAT_MARGIN_PER_RADIUS};
    use crate::{BodyDef, ShapeDef, Vec2, WorldDef, make_box};
    use collision::SPECULATIVE_DISTANCE;
    use collision::Shape;
    use std::sync::Arc;

    const BODIES: usize = 600;

    /// The fat-box margin of a unit box (half extent 0.5) in the moving tree.
    fn unit_box_margin() -> f32 {
        fat_margin(
            TreeKind::Moving,
            &Shape::Polygon(make_box(0.5, 0.5).unwrap()),
        )
    }

    /// How far body `k` is shifted along x before finalising: not at all, well inside the
    /// margin, or past it.
    fn shift(k: usize) -> f32 {
        let margin = unit_box_margin();
        [0.0, 0.5 * margin, 1.5 * margin][k % 3]
    }

    /// A world of `BODIES` unit boxes 3 m apart (no contacts), stepped once at rest, then every
    /// body shifted by `shift` and finalised on `workers` threads. Returns the world and its
    /// shapes in body order with their fat boxes before the shift.
    fn shifted_world(workers: u32) -> (World, Vec<ShapeId>, Vec<Aabb>) {
        let mut world = World::new(WorldDef {
            gravity: Vec2::ZERO,
            enable_sleep: false,
            worker_count: workers,
            ..WorldDef::default()
        })
        .unwrap();
        let shapes: Vec<ShapeId> = (0..BODIES)
            .map(|k| {
                let at = Vec2::new((k % 30) as f32 * 3.0, (k / 30) as f32 * 3.0);
                let body = world.create_body(&BodyDef::dynamic_at(at)).unwrap();
                let square = make_box(0.5, 0.5).unwrap();
                world
                    .create_polygon_shape(body, &ShapeDef::default(), &square)
                    .unwrap()
            })
            .collect();
        world.step(1.0 / 60.0, 4).unwrap();
        #[cfg(feature = "validate")]
        assert!(world.broadphase.move_buffer().is_empty());
        let resting_fat: Vec<Aabb> = shapes
            .iter()
            .map(|&shape| world.shapes.get(shape).unwrap().fat_aabb)
            .collect();
        // Moved as the solver moves a body: pose and the step's displacement together.
        let (sims, states) = world.solver_sets[AWAKE_SET as usize].sims_and_states_mut();
        for (k, (sim, state)) in sims.iter_mut().zip(states).enumerate() {
            sim.transform.p.x += shift(k);
            sim.center.x += shift(k);
            state.delta_position = Vec2::new(shift(k), 0.0);
        }
        let pool = Arc::clone(&world.thread_pool);
        pool.install(|| world.finalize_bodies());
        (world, shapes, resting_fat)
    }

    #[test]
    fn boxes_follow_bodies_and_only_escaped_proxies_move() {
        for workers in [1, 2] {
            let (world, shapes, resting_fat) = shifted_world(workers);
            let sims = world.solver_sets[AWAKE_SET as usize].sims();
            assert_eq!(sims.len(), BODIES);
            let mut expected_moves = Vec::new();
            for (k, (sim, &shape)) in sims.iter().zip(&shapes).enumerate() {
                let record = world.shapes.get(shape).unwrap();
                let tree = world.broadphase.tree(record.tree);
                assert_eq!(record.fat_aabb, tree.fat_aabb(record.proxy));
                let tight = compute_aabb(&record.geometry, sim.transform);
                assert_eq!(world.shape_aabb(shape).unwrap(), tight);
                let reach = tight.fattened(SPECULATIVE_DISTANCE);
                assert!(record.fat_aabb.contains(&reach), "body {k}");
                let escaped = shift(k) > unit_box_margin();
                if escaped {
                    // A re-inserted proxy's fat box is the new reach grown by the margin.
                    assert_eq!(
                        record.fat_aabb,
                        reach.fattened(unit_box_margin()),
                        "body {k}"
                    );
                    expected_moves.push(shape.index());
                } else {
                    assert_eq!(record.fat_aabb, resting_fat[k], "body {k}");
                }
            }
            assert_eq!(expected_moves.len(), BODIES / 3);
            #[cfg(feature = "validate")]
            assert_eq!(world.broadphase.move_buffer(), &expected_moves[..]);
        }
    }

    #[test]
    fn one_and_two_workers_give_the_same_boxes_and_moves() {
        let (serial, shapes, _) = shifted_world(1);
        let (parallel, _, _) = shifted_world(2);
        #[cfg(feature = "validate")]
        assert_eq!(
            serial.broadphase.move_buffer(),
            parallel.broadphase.move_buffer()
        );
        for &shape in &shapes {
            let (a, b) = (serial.shapes.get(shape), parallel.shapes.get(shape));
            let (a, b) = (a.unwrap(), b.unwrap());
            assert_eq!(a.fat_aabb, b.fat_aabb);
            assert_eq!(serial.shape_aabb(shape), parallel.shape_aabb(shape));
        }
    }

    /// A spinning bar, a sliding box and a resting box, stepped for four seconds: after every
    /// step each tight box lies in its fat box (the slack never skips a test it needed), the
    /// bar's and the slider's proxies were re-inserted along the way, and the resting box's
    /// slack has only lost its per-step rounding allowances.
    #[test]
    fn slack_skips_only_tests_that_cannot_find_an_escape() {
        for workers in [1, 2] {
            let mut world = World::new(WorldDef {
                gravity: Vec2::ZERO,
                enable_sleep: false,
                worker_count: workers,
                ..WorldDef::default()
            })
            .unwrap();
            let mut add = |at: Vec2, half: Vec2| {
                let body = world.create_body(&BodyDef::dynamic_at(at)).unwrap();
                let square = make_box(half.x, half.y).unwrap();
                let shape = world
                    .create_polygon_shape(body, &ShapeDef::default(), &square)
                    .unwrap();
                (body, shape)
            };
            let (bar, bar_shape) = add(Vec2::ZERO, Vec2::new(2.0, 0.05));
            let (slider, slider_shape) = add(Vec2::new(10.0, 0.0), Vec2::new(0.5, 0.5));
            let (rester, rester_shape) = add(Vec2::new(20.0, 0.0), Vec2::new(0.5, 0.5));
            world.set_angular_velocity(bar, 0.8).unwrap();
            world
                .set_linear_velocity(slider, Vec2::new(0.7, 0.2))
                .unwrap();
            let fat = |world: &World, shape| world.shapes.get(shape).unwrap().fat_aabb;
            let mut moves = [0; 2];
            let steps = 240;
            for step in 0..steps {
                let before = [fat(&world, bar_shape), fat(&world, slider_shape)];
                world.step(1.0 / 60.0, 4).unwrap();
                for shape in [bar_shape, slider_shape, rester_shape] {
                    let reach = world.shape_aabb(shape).unwrap();
                    let reach = reach.fattened(SPECULATIVE_DISTANCE);
                    assert!(
                        fat(&world, shape).contains(&reach),
                        "step {step}, {workers}"
                    );
                }
                for (count, (shape, old)) in moves
                    .iter_mut()
                    .zip([bar_shape, slider_shape].into_iter().zip(before))
                {
                    *count += usize::from(fat(&world, shape) != old);
                }
            }
            // The bar's tips travel 2 m × 0.8 rad/s × 4 s = 6.4 m and the slider 2.9 m, each
            // re-inserted once per margin (9 or 10 cm) or so.
            assert!(moves[0] > 10 && moves[1] > 10, "{moves:?}");
            let slack = world.sim(rester).unwrap().fat_slack;
            // Per step: the micrometre, and the rounding of a box 20 m from the origin whose
            // corners lie 0.71 m from its centre (see `motion_bound`).
            let rounding = 8.0 * f32::EPSILON * (20.0 + 0.5f32.hypot(0.5));
            let allowance = (1.0e-6 + rounding) * steps as f32;
            let margin = unit_box_margin();
            assert!(slack > margin - allowance - 1.0e-5, "{slack}");
            // Below the margin by about the allowance: a re-test would have measured the full
            // margin again, so the resting box was not tested after the first step.
            assert!(slack < margin - 0.5 * allowance, "{slack}");
        }
    }

    /// A small shape's slack is an eighth of its radius, a large one's is capped at 10 cm: a
    /// 3 cm move takes a 0.1 m box (margin 0.9 cm) out of its fat box but leaves a 2 m box
    /// (margin 10 cm) inside, and each re-inserted box is its new reach grown by its own margin.
    #[test]
    fn fat_margins_scale_with_shape_size() {
        let mut world = World::new(WorldDef {
            gravity: Vec2::ZERO,
            enable_sleep: false,
            ..WorldDef::default()
        })
        .unwrap();
        let mut add = |x: f32, half: f32| {
            let body = world
                .create_body(&BodyDef::dynamic_at(Vec2::new(x, 0.0)))
                .unwrap();
            let square = make_box(half, half).unwrap();
            let shape = world
                .create_polygon_shape(body, &ShapeDef::default(), &square)
                .unwrap();
            (body, shape, (2.0f32 * half * half).sqrt())
        };
        let boxes = [add(0.0, 0.05), add(5.0, 1.0)];
        let margins = boxes.map(|(_, _, radius)| (FAT_MARGIN_PER_RADIUS * radius).min(FAT_MARGIN));
        assert!((margins[0] - 0.125 * 0.05 * 2f32.sqrt()).abs() < 1e-7 && margins[1] == FAT_MARGIN);
        let reach = |world: &World, shape| {
            let tight = world.shape_aabb(shape).unwrap();
            tight.fattened(SPECULATIVE_DISTANCE)
        };
        for (&(_, shape, _), &margin) in boxes.iter().zip(&margins) {
            let fat = world.shapes.get(shape).unwrap().fat_aabb;
            assert_eq!(fat, reach(&world, shape).fattened(margin));
        }
        let before = boxes.map(|(_, shape, _)| world.shapes.get(shape).unwrap().fat_aabb);
        for &(body, _, _) in &boxes {
            // 1.8 m/s for one 1/60 s step: 3 cm.
            world
                .set_linear_velocity(body, Vec2::new(1.8, 0.0))
                .unwrap();
        }
        world.step(1.0 / 60.0, 4).unwrap();
        let (small, large) = (boxes[0].1, boxes[1].1);
        let small_fat = world.shapes.get(small).unwrap().fat_aabb;
        assert_ne!(small_fat, before[0], "the small box stayed in its fat box");
        assert_eq!(small_fat, reach(&world, small).fattened(margins[0]));
        assert_eq!(world.shapes.get(large).unwrap().fat_aabb, before[1]);
        assert!(before[1].contains(&reach(&world, large)));
    }
}
