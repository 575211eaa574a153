//! Step phase 5: after the solver has written the new transforms, one parallel pass over the
//! awake bodies does everything a body needs at the end of a step:
//!
//! ```text
//!   sleep timer   t ← t + dt while the sleep speed ≤ threshold, else 0 (sleep.rs)
//!   island rest   a dynamic body folds t into its island's least and most rested times
//!   moving        a kinematic body whose timer is 0 is listed (it disturbs what it touches)
//!   fast          a dynamic body that moved more than half its thickness is swept against
//!                 the static shapes at the end of the chunk (`continuous.rs`) and its boxes
//!                 tested where the sweep leaves it; a fast bullet is listed for later
//!   boxes         per shape: the reach from the body's transform; listed if it left the fat
//!                 box the shape record keeps (a copy of its tree leaf's box)
//!   moves         at the end of the chunk, a move event for each body that moved
//!                 (`move_events.rs`)
//! ```
//!
//! The bodies are cut into fixed chunks of [`BOX_CHUNK`]; each chunk writes only its own
//! bodies' sims and its own part of the world's move events, and fills its own report —
//! escapes, moving kinematic bodies — folded in chunk order (the reports stay with the world
//! between steps, so their lists keep their room); the islands' rest times are folded with
//! atomic minimum and maximum, which do not depend on the order. A sweep reads only its own
//! body and the static shapes, which no chunk writes. So the pass gives the same result for
//! any number of workers. Then, serially, the escaped proxies are moved — at rest almost none
//! — and the part of the moving tree the moves loosened is refitted once:
//!
//! ```text
//!   apply       move the escaped proxies and buffer their moves, in   O(escapes)
//!               chunk order (within a chunk, the fast bodies' last)
//!   refit       flag the moved leaves' ancestors and give each the    O(flagged nodes)
//!               union of its children's boxes
//!   bullets     sweep the fast bullets against every body, test and   O(bullets)
//!               apply their boxes, refit again if one escaped
//! ```
//!
//! The islands' rests of this step are then handed to the island graph and the candidate
//! island is split (`sleep.rs`, otherwise the sleep phase's first work): that reads only the
//! bodies' timers and writes only the islands, while apply and refit write only shapes,
//! trees, the move buffer and move events. A step with a moving kinematic body (which must
//! disturb its neighbours' timers first) or a fast bullet (whose sweep needs the refitted tree
//! and may move the bullet) leaves them to the sleep phase.
//!
//! With several workers and many escapes ([`SPLIT_MIN_ESCAPES`]) the serial part runs as three
//! tasks shared with the helpers, each writing its own part of the world: the moving tree (the
//! escaped leaves get their fat boxes, then the refit), the shape records (each gets a copy of its
//! leaf's new box, computed by the same function, so bit for bit the same) with the buffering of
//! the moves (a push per escape, in escape order, into the broadphase's move records, borrowed
//! apart from its trees) and the folding of the chunks' reports, and the islands (the rests).
//! In a scene where every body moves each step (a smash: 8,000 escapes) this serial part was a
//! sixth of the step on two workers while only the rests ran beside it; on the hinge grid (7,300
//! escapes) the refit, about 0.2 ms, is now its longest task.
//!
//! A proxy whose reach (its tight box grown by the speculative distance,
//! `broadphase::proxy_box`) has left its fat box is re-inserted into the moving tree with a
//! fresh fat box and buffered, so the next step's pair update looks for what it now overlaps; a
//! reach still inside its fat box costs nothing more (that slack is what the margin buys). The
//! tight box itself is not stored: only queries read it, and they compute it from the body's
//! transform (`World::tight_aabb`).
//!
//! A moved proxy of the moving tree gets its new fat box at once but keeps its place, and the
//! tree only notes it (`move_proxy_deferred`, see the collision crate's `tree/enlarge.rs`).
//! After the last move one `refit_enlarged` flags the moved leaves' ancestors and refits them,
//! so the sensors, the bullets, the queries between steps and the next step's pair search see
//! correct boxes. Rebuilding that loosened top part — the costly half, a binned build over the
//! subtrees below it — waits for the next step, where it runs beside the narrowphase, which
//! reads no tree (`World::collide_beside_tree_rebuild`); Box2D v3 likewise rebuilds its trees
//! in a task beside its narrowphase. With several workers the rebuild runs over the world's
//! workers and gives the same tree, node for node, as with one.
//!
//! Most resting shapes never escape their fat box, and a body's *slack* — how far its shapes
//! may still move before one can have left — skips even the test: the common case reads
//! nothing outside the body's sim.

use crate::body::Body;
use crate::broadphase::{BroadPhase, TreeKind, proxy_box};
use crate::continuous::{Obstacles, body_shapes, is_fast, rotation_chord};
use crate::move_events::{BodyMoveEvent, record_chunk_moves};
use crate::profile::{elapsed_ms, zone};
use crate::shape::ShapeRecord;
use crate::sleep::{IslandRestTable, RestFold, settle_rests};
use crate::solver_set::AWAKE_SET;
use crate::world::World;
use collision::Aabb;
use collision::geometry::compute_aabb;
use collision::tree::DynamicTree;
use core_soa::{Arena, BodyId, BodySim, BodyState, ShapeId, Vec2, body_flags, release_spare};
use island::{IslandGraph, update_sleep_time};
use std::time::Instant;
use workers::Piece;

/// Awake bodies per parallel task: a body costs tens of nanoseconds, so a task must hold a few
/// hundred bodies to outweigh the scheduling.
pub(crate) const BOX_CHUNK: usize = 256;

/// The fewest escapes for which the serial part is split across the workers
/// ([`World::apply_in_parts`]). Below it the split has little to share, and it was measured
/// to cost more than it saves: a resting pile of 22,000 bodies at 2 threads (a few escapes a
/// step, and, as the pass then ran, 22,000 move events copied on the other worker) took 6.7
/// ms a step with it against 5.9 without, every solver stage about 15 % slower, for a reason
/// not found; the scenes where every body moves (6,000 to 8,000 escapes) gain from it.
const SPLIT_MIN_ESCAPES: usize = 1024;

/// A shape whose new reach left its fat box.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Escape {
    shape: ShapeId,
    /// The shape's tree and proxy there, as its record names them.
    tree: TreeKind,
    proxy: u32,
    reach: Aabb,
    /// The shape's fat margin in its tree (`broadphase::fat_margin`), computed by the
    /// parallel chunk so that the serial part only moves the proxy.
    margin: f32,
}

/// What one chunk of bodies reports to the serial part. The world keeps one per chunk between
/// steps (`World::finalize_reports`), empty but with its lists' room, so that once the scene's
/// counts have settled a step allocates nothing here (see [`World::finalize_bodies`]).
#[derive(Default)]
pub(crate) struct ChunkReport {
    /// The escaped proxies of the chunk's bodies: those of its fast bodies, swept at the end
    /// of the chunk, come after the others.
    escapes: Vec<Escape>,
    moving_kinematics: Vec<u32>,
    /// Milliseconds the chunk spent sweeping its fast bodies.
    continuous_ms: f32,
    /// Awake-set indices of the chunk's fast bullets, to sweep against every body.
    bullets: Vec<u32>,
    /// Each bullet's awake-set index with the position of its move event among the chunk's
    /// (`move_events.rs`).
    bullet_moves: Vec<(u32, u32)>,
}

impl ChunkReport {
    /// Whether every list is empty and no time is recorded: how the serial part leaves a
    /// report for the next step.
    fn is_empty(&self) -> bool {
        self.escapes.is_empty()
            && self.moving_kinematics.is_empty()
            && self.continuous_ms == 0.0
            && self.bullets.is_empty()
            && self.bullet_moves.is_empty()
    }
}

/// The chunks' reports, folded in chunk order by the serial part.
#[derive(Default)]
struct FoldedReports {
    /// Awake kinematic bodies that moved, as `ChunkReport::moving_kinematics`.
    moving: Vec<u32>,
    /// Awake-set indices of the fast bullets.
    bullets: Vec<u32>,
    /// Each bullet's awake-set index with the position of its move event in the world's list.
    bullet_moves: Vec<(u32, u32)>,
    /// Milliseconds the chunks spent sweeping fast bodies, summed.
    continuous: f32,
}

/// What the pass reads besides the bodies.
struct FinalizeView<'a> {
    bodies: &'a Arena<Body, BodyId>,
    shapes: &'a Arena<ShapeRecord, ShapeId>,
    islands: &'a IslandGraph,
    rest: &'a IslandRestTable,
    /// The step's `dt` when sleep is enabled for the world; `None` skips the timers.
    sleep_dt: Option<f32>,
    /// The step's `dt` and what fast bodies are swept against, when continuous collision is
    /// enabled; `None` finds no fast bodies.
    continuous: Option<(f32, Obstacles<'a>)>,
}

impl World {
    /// Step phase 5 (see the module notes). Returns the awake kinematic bodies that moved this
    /// step, in awake-set order, the milliseconds spent in continuous collision, and whether
    /// the islands' rests were settled beside the serial part.
    pub(crate) fn finalize_bodies(&mut self, dt: f32) -> (Vec<u32>, f32, bool) {
        zone!("finalize");
        let parallel = self.parallel_step;
        self.island_rest
            .reset(self.islands.graph.island_slot_count());
        let (below_awake, from_awake) = self.solver_sets.split_at_mut(AWAKE_SET as usize);
        let obstacles = Obstacles::static_only(
            (&self.bodies, &self.shapes),
            &self.joints.arena,
            &self.broadphase.static_tree,
            below_awake,
            &self.hooks,
        );
        let view = FinalizeView {
            bodies: &self.bodies,
            shapes: &self.shapes,
            islands: &self.islands.graph,
            rest: &self.island_rest,
            sleep_dt: self.def.enable_sleep.then_some(dt),
            continuous: self.def.enable_continuous.then_some((dt, obstacles)),
        };
        let (sims, states) = from_awake[0].bodies.sims_and_states_mut();
        // The last step's reports, left empty, one per chunk: their lists keep their room.
        // (Allocated afresh every step, with two workers they cost more in the allocator than
        // the pass's own tests, mostly freeing on one thread what another had allocated:
        // `joint_grid`'s finalize went from 0.88 to 0.67 ms/step, `benches/results/NOTES.md`.)
        // One worker runs a single chunk.
        let mut reports = std::mem::take(&mut self.finalize_reports);
        let chunk_size = if parallel {
            BOX_CHUNK
        } else {
            sims.len().max(1)
        };
        reports.resize_with(sims.len().div_ceil(chunk_size), ChunkReport::default);
        let mut chunks: Vec<_> = sims
            .chunks_mut(chunk_size)
            .zip(states.chunks(chunk_size))
            .zip(reports.iter_mut())
            .collect();
        // Each chunk pushes its move events straight into its part of the world's array,
        // which is closed up afterwards (`move_events.rs`).
        self.move_events.clear();
        let move_starts = workers::extend_in_pieces(
            &mut self.move_events,
            &mut chunks,
            |((sims, _), _)| sims.len(),
            |index, ((sims, states), report), moves| {
                let first = (index * chunk_size) as u32;
                finalize_chunk(sims, states, first, &view, report, moves);
            },
        );
        drop(chunks);
        // With no disturbance and no bullet to come, the islands' rests are final: they are
        // settled beside the serial part, which touches no island.
        let settle = self.def.enable_sleep
            && reports
                .iter()
                .all(|r| r.moving_kinematics.is_empty() && r.bullets.is_empty());
        let mut folded = self.apply_reports(&mut reports, &move_starts, settle, parallel);
        self.finalize_reports = reports;
        if !folded.bullets.is_empty() {
            let start = Instant::now();
            self.sweep_bullets(&folded.bullets, parallel);
            folded.continuous += elapsed_ms(start);
            self.refresh_bullet_moves(&folded.bullet_moves);
        }
        (folded.moving, folded.continuous, settle)
    }

    /// The serial part of the pass (see the module notes), and with `settle` the islands'
    /// rests settled beside it (`sleep.rs`). With `parallel` and at least
    /// [`SPLIT_MIN_ESCAPES`] escapes it is cut in three parts that write disjoint parts of the
    /// world and run on the workers ([`World::apply_in_parts`]); the result is the same either way.
    /// The reports are left empty, with their lists' room.
    fn apply_reports(
        &mut self,
        reports: &mut [ChunkReport],
        move_starts: &[usize],
        settle: bool,
        parallel: bool,
    ) -> FoldedReports {
        let escapes: Vec<Vec<Escape>> = reports
            .iter_mut()
            .map(|report| std::mem::take(&mut report.escapes))
            .collect();
        let count: usize = escapes.iter().map(Vec::len).sum();
        let all_moving = escapes.iter().flatten().all(|e| e.tree == TreeKind::Moving);
        let folded = if parallel && all_moving && count >= SPLIT_MIN_ESCAPES {
            self.apply_in_parts(&escapes, reports, move_starts, settle)
        } else {
            for &escape in escapes.iter().flatten() {
                apply_escape(&mut self.shapes, &mut self.broadphase, escape);
            }
            self.broadphase.moving_tree.refit_enlarged();
            let folded = fold_reports(reports, move_starts);
            if settle {
                self.settle_island_rests();
            }
            folded
        };
        // The escape lists go back to their reports for the next step to refill, cut by the
        // world's rule for spare room (`spare.rs`) against this step's use: one worker's single
        // list can hold every awake shape's escape after a burst.
        for (report, mut escapes) in reports.iter_mut().zip(escapes) {
            release_spare(&mut escapes);
            escapes.clear();
            report.escapes = escapes;
        }
        folded
    }

    /// The serial part for escapes all in the moving tree, as three tasks: the proxies'
    /// leaves get their new fat boxes and the tree is refitted; the shape records get copies
    /// of the same boxes ([`DynamicTree::fat_box`], bit for bit), the moves are buffered in
    /// escape order and the reports are folded; the rests are settled. Each writes only its
    /// own part of the world (tree; shapes, move records and move events; islands). A
    /// moving-tree escape always moves its leaf: the chunk found its reach outside the
    /// record's fat box, which is a copy of the leaf's.
    fn apply_in_parts(
        &mut self,
        escapes: &[Vec<Escape>],
        reports: &mut [ChunkReport],
        move_starts: &[usize],
        settle: bool,
    ) -> FoldedReports {
        let World {
            shapes,
            broadphase,
            islands,
            island_rest,
            bodies,
            solver_sets,
            ..
        } = self;
        let (tree, mut records) = broadphase.split_moving_tree();
        let move_leaves = || {
            zone!("move leaves");
            for escape in escapes.iter().flatten() {
                let moved =
                    tree.move_proxy_deferred_with_margin(escape.proxy, escape.reach, escape.margin);
                debug_assert!(moved, "escape of {:?} moved no leaf", escape.shape);
            }
            tree.refit_enlarged();
        };
        let copy_and_fold = || {
            zone!("copy fat boxes");
            for escape in escapes.iter().flatten() {
                if let Some(shape) = shapes.get_mut(escape.shape) {
                    shape.fat_aabb = DynamicTree::fat_box(escape.reach, escape.margin);
                }
                records.buffer_move(escape.shape.index());
            }
            fold_reports(reports, move_starts)
        };
        let settle_now = || {
            if settle {
                settle_rests(&mut islands.graph, island_rest, (bodies, solver_sets));
            }
        };
        let ((), (folded, ())) =
            workers::join(move_leaves, || workers::join(copy_and_fold, settle_now));
        folded
    }

    /// Gives the move events of bullets (awake-set index, event position) the transforms the
    /// bullets' sweep left them at.
    fn refresh_bullet_moves(&mut self, bullet_moves: &[(u32, u32)]) {
        let sims = self.solver_sets[AWAKE_SET as usize].bodies.sims();
        for &(body, event) in bullet_moves {
            self.move_events[event as usize].transform = sims[body as usize].transform;
        }
    }

    /// Refits the part of the moving tree above the proxies moved since the last rebuild, so
    /// that it answers queries; the next step rebuilds that part beside its narrowphase
    /// (`World::collide_beside_tree_rebuild`).
    pub(crate) fn refit_moving_tree(&mut self) {
        self.broadphase.moving_tree.refit_enlarged();
    }

    /// Makes the next finalize test every shape of the body against its fat box: for a body
    /// moved, re-massed, or given new shapes or proxies outside the solver.
    pub(crate) fn forget_fat_slack(&mut self, body_index: u32) {
        if let Some((sim, _)) = self.body_sim_state_mut(body_index) {
            sim.fat_slack = 0.0;
        }
    }
}

/// Folds the chunks' reports in chunk order (their escapes already taken out and applied);
/// `move_starts` are where each chunk's move events start in the world's array. The reports
/// are left empty, with their room.
fn fold_reports(reports: &mut [ChunkReport], move_starts: &[usize]) -> FoldedReports {
    let mut folded = FoldedReports::default();
    for (report, &start) in reports.iter_mut().zip(move_starts) {
        folded.moving.append(&mut report.moving_kinematics);
        folded.bullets.append(&mut report.bullets);
        folded.continuous += std::mem::take(&mut report.continuous_ms);
        let bullet_moves = report.bullet_moves.drain(..);
        folded
            .bullet_moves
            .extend(bullet_moves.map(|(b, e)| (b, start as u32 + e)));
    }
    folded
}

/// One chunk of the pass (see the module notes) into `report` (left empty by the last step's
/// serial part, or new); `first` is the awake-set index of its first body. The chunk's fast
/// bodies are swept at its end, while their sims are still in cache.
fn finalize_chunk(
    sims: &mut [BodySim],
    states: &[BodyState],
    first: u32,
    view: &FinalizeView<'_>,
    report: &mut ChunkReport,
    moves: &mut Piece<'_, BodyMoveEvent>,
) {
    zone!("finalize chunk");
    debug_assert!(
        report.is_empty(),
        "a chunk report kept content from the last step"
    );
    let mut fold = RestFold::new(view.rest);
    let mut fast = Vec::new();
    for (offset, (sim, state)) in sims.iter_mut().zip(states).enumerate() {
        if let Some(dt) = view.sleep_dt {
            advance_sleep_timer(sim, state, dt);
            if state.flags & body_flags::KINEMATIC != 0 {
                if sim.sleep_time == 0.0 {
                    report.moving_kinematics.push(sim.body);
                }
            } else if let Some(island) = view.islands.island_index_of(sim.body) {
                fold.add(island, sim.sleep_time);
            }
        }
        // A resting body (its sleep timer runs) is never swept, as in Box2D.
        let resting = view.sleep_dt.is_some() && sim.sleep_time > 0.0;
        if !resting
            && view
                .continuous
                .is_some_and(|(dt, _)| is_fast(sim, state, dt))
        {
            // Its boxes are tested where the sweep leaves it.
            sim.fat_slack = 0.0;
            if state.flags & body_flags::BULLET != 0 {
                report.bullets.push(first + offset as u32);
            } else {
                fast.push(offset);
            }
            continue;
        }
        test_body(view.bodies, view.shapes, sim, state, &mut report.escapes);
    }
    fold.flush();
    if let Some((_, obstacles)) = &view.continuous
        && !fast.is_empty()
    {
        let start = Instant::now();
        let escapes = &mut report.escapes;
        sweep_fast_bodies(obstacles, (sims, states), &fast, escapes);
        report.continuous_ms = elapsed_ms(start);
    }
    let bullet_moves = &mut report.bullet_moves;
    record_chunk_moves(view.bodies, (sims, states), first, moves, bullet_moves);
}

/// Sweeps the chunk's fast bodies (offsets `fast` into `sims`) against `obstacles`, moves
/// those that hit back to the impact, and tests their boxes where they end. Kept out of line
/// so that profiles show continuous collision's cost on its own.
#[inline(never)]
fn sweep_fast_bodies(
    obstacles: &Obstacles<'_>,
    (sims, states): (&mut [BodySim], &[BodyState]),
    fast: &[usize],
    escapes: &mut Vec<Escape>,
) {
    zone!("continuous");
    let mut end_boxes = Vec::new();
    for &offset in fast {
        let sim = &mut sims[offset];
        if obstacles.sweep(sim, &mut end_boxes) || end_boxes.is_empty() {
            let (bodies, shapes) = obstacles.bodies_and_shapes();
            test_body(bodies, shapes, sim, &states[offset], escapes);
        } else {
            test_shapes(sim, end_boxes.iter().copied(), escapes);
        }
    }
}

/// Advances a body's sleep timer by `dt` (see `sleep.rs`). A body that may not sleep never
/// accumulates rest, except a kinematic body, whose timer says only whether it moves (it
/// never sleeps: it has no island).
fn advance_sleep_timer(sim: &mut BodySim, state: &BodyState, dt: f32) {
    let speed = sleep_speed(state, sim.max_extent, dt);
    let time = update_sleep_time(sim.sleep_time, speed, sim.sleep_threshold, dt);
    let kinematic = state.flags & body_flags::KINEMATIC != 0;
    sim.sleep_time = if sim.enable_sleep || kinematic {
        time
    } else {
        0.0
    };
}

/// The speed a body's sleep threshold is compared with (`island::sleep_speed`): its fastest
/// point's, or half the average speed of the step's motion, which sees position correction.
fn sleep_speed(state: &BodyState, extent: f32, dt: f32) -> f32 {
    let linear = state.linear_velocity.length();
    let step_motion = state.delta_position.length() + extent * state.delta_rotation.s.abs();
    island::sleep_speed(linear, state.angular_velocity, extent, step_motion, dt)
}

/// Tests the body's shapes against their fat boxes, pushing those that left to `escapes`,
/// unless its slack shows that none can have left: the slack minus this step's motion bound
/// becomes the new slack. A test measures the slack afresh (0 if a shape left, so the next
/// step tests the re-inserted boxes again).
pub(crate) fn test_body(
    bodies: &Arena<Body, BodyId>,
    shapes: &Arena<ShapeRecord, ShapeId>,
    sim: &mut BodySim,
    state: &BodyState,
    escapes: &mut Vec<Escape>,
) {
    // A body with no slack left (a fast one, or one that escaped last step) is tested at once.
    if sim.fat_slack > 0.0 {
        let remaining = sim.fat_slack - motion_bound(state, sim.fat_extent, sim.center);
        if remaining > 0.0 {
            sim.fat_slack = remaining;
            return;
        }
    }
    let Some(body) = bodies.get_by_index(sim.body) else {
        return;
    };
    let transform = sim.transform;
    let boxes = body_shapes(body, shapes)
        .map(|(shape, record)| (shape, record, compute_aabb(&record.geometry, transform)));
    test_shapes(sim, boxes, escapes);
}

/// [`test_body`]'s test of every shape, given each shape's tight box at the body's transform.
pub(crate) fn test_shapes<'a>(
    sim: &mut BodySim,
    boxes: impl IntoIterator<Item = (ShapeId, &'a ShapeRecord, Aabb)>,
    escapes: &mut Vec<Escape>,
) {
    let (mut slack, mut extent, mut escaped) = (f32::INFINITY, 0.0f32, false);
    for (shape, record, tight) in boxes {
        extent = extent.max(farthest_corner(&tight, sim.center));
        let reach = proxy_box(record.tree, tight);
        if record.fat_aabb.contains(&reach) {
            slack = slack.min(inner_gap(&record.fat_aabb, &reach));
        } else if record.tree != TreeKind::Static {
            let margin = record.fat_margin(record.tree);
            escapes.push(Escape {
                shape,
                tree: record.tree,
                proxy: record.proxy,
                reach,
                margin,
            });
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
    let chord = rotation_chord(state.delta_rotation);
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
pub(crate) fn apply_escape(
    shapes: &mut Arena<ShapeRecord, ShapeId>,
    broadphase: &mut BroadPhase,
    escape: Escape,
) {
    let Some(shape) = shapes.get_mut(escape.shape) else {
        return;
    };
    let margin = escape.margin;
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
    use crate::broadphase::{FAT_MARGIN, FAT_MARGIN_PER_RADIUS, fat_margin};
    use crate::{BodyDef, ShapeDef, Vec2, make_box};
    use collision::SPECULATIVE_DISTANCE;
    use collision::Shape;
    use std::sync::Arc;

    /// Every third body escapes: enough for the split serial part (`SPLIT_MIN_ESCAPES`).
    const BODIES: usize = 3300;

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
        let mut world = World::weightless(workers);
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
        let (sims, states) = world.solver_sets[AWAKE_SET as usize]
            .bodies
            .sims_and_states_mut();
        for (k, (sim, state)) in sims.iter_mut().zip(states).enumerate() {
            sim.transform.p.x += shift(k);
            sim.center.x += shift(k);
            state.delta_position = Vec2::new(shift(k), 0.0);
        }
        // As `World::step` would for a larger world: several workers take the parallel path.
        world.parallel_step = workers > 1;
        let threads = Arc::clone(&world.workers);
        threads.install(|| world.finalize_bodies(1.0 / 60.0));
        (world, shapes, resting_fat)
    }

    #[test]
    fn boxes_follow_bodies_and_only_escaped_proxies_move() {
        for workers in [1, 2] {
            let (world, shapes, resting_fat) = shifted_world(workers);
            let sims = world.solver_sets[AWAKE_SET as usize].bodies.sims();
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
            // The record's box is a copy of its leaf's, bit for bit, on either path.
            for (world, record) in [(&serial, a), (&parallel, b)] {
                let leaf = world.broadphase.moving_tree.fat_aabb(record.proxy);
                assert_eq!(leaf, record.fat_aabb);
            }
        }
        let escaped = |world: &World| {
            let moved = |&&shape: &&ShapeId| world.broadphase.is_moved(shape.index());
            shapes.iter().filter(moved).count()
        };
        assert!(
            escaped(&parallel) >= SPLIT_MIN_ESCAPES,
            "too few escapes for the split serial part"
        );
        assert_eq!(escaped(&serial), escaped(&parallel));
    }

    /// A spinning bar, a sliding box and a resting box, stepped for four seconds: after every
    /// step each tight box lies in its fat box (the slack never skips a test it needed), the
    /// bar's and the slider's proxies were re-inserted along the way, and the resting box's
    /// slack has only lost its per-step rounding allowances.
    /// The chunks' reports stay with the world between passes, empty: a second pass lists
    /// each body's move once (not after the first pass's list) and applies no escape again.
    #[test]
    fn reports_are_kept_empty_between_passes() {
        for workers in [1, 2] {
            let (mut world, shapes, _) = shifted_world(workers);
            let first = world.body_move_events().to_vec();
            let shifted = (0..BODIES).filter(|&k| shift(k) != 0.0).count();
            assert_eq!(first.len(), shifted);
            let fat = |world: &World| -> Vec<Aabb> {
                let record = |shape: &ShapeId| world.shapes.get(*shape).unwrap().fat_aabb;
                shapes.iter().map(record).collect()
            };
            let boxes = fat(&world);
            let threads = Arc::clone(&world.workers);
            threads.install(|| world.finalize_bodies(1.0 / 60.0));
            assert_eq!(world.body_move_events(), &first[..]);
            assert_eq!(fat(&world), boxes);
            let chunks = if workers > 1 {
                BODIES.div_ceil(BOX_CHUNK)
            } else {
                1
            };
            assert_eq!(world.finalize_reports.len(), chunks);
            assert!(world.finalize_reports.iter().all(ChunkReport::is_empty));
        }
    }

    #[test]
    fn slack_skips_only_tests_that_cannot_find_an_escape() {
        for workers in [1, 2] {
            let mut world = World::weightless(workers);
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
            // re-inserted once per margin (5 cm) or so.
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

    /// A small shape's slack is an eighth of its radius, a large one's is capped at 5 cm: a
    /// 3 cm move takes a 0.1 m box (margin 0.9 cm) out of its fat box but leaves a 2 m box
    /// (margin 5 cm) inside, and each re-inserted box is its new reach grown by its own margin.
    #[test]
    fn fat_margins_scale_with_shape_size() {
        let mut world = World::weightless(1);
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
