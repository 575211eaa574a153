//! Step phase 5: after the solver has written the new transforms, every moving body's shapes
//! get new tight boxes. A proxy whose tight box has left its fat box is re-inserted into the
//! moving tree with a fresh fat box and buffered, so the next step's pair update looks for what
//! it now overlaps; a box still inside its fat box costs nothing more (that slack is what the
//! 0.1 m margin buys).
//!
//! The phase is two passes over the awake bodies, in awake-set order:
//!
//! ```text
//!   boxes   per shape: tight box from the body's transform, and whether it escaped the
//!           fat box the shape record keeps (a copy of its tree leaf's box)
//!   apply   store the tight boxes; move the escaped proxies and buffer their moves
//!   rebuild the part of the moving tree the moves loosened, once
//! ```
//!
//! A moved proxy of the moving tree gets its new fat box at once but keeps its place, and the
//! tree only notes it (`move_proxy_deferred`, see the collision crate's `tree/enlarge.rs`);
//! after the last move one `rebuild_enlarged` flags the moved leaves' ancestors and rebuilds
//! that top part of the tree, keeping close subtrees whole. With several workers the rebuild
//! runs over the world's pool and gives the same tree, node for node, as with one, so the
//! pair update that follows sees identical trees for any worker count.
//!
//! The first pass reads only the body's sim and its shapes' geometry, so with several workers
//! it runs over fixed chunks of bodies in parallel; the chunks' results are concatenated in
//! body order, and the second pass — which edits the tree and the move buffer — runs serially
//! in that order. The tree and the buffer therefore see the same edits in the same order for
//! any worker count, and the step stays bitwise reproducible. With one worker both passes are
//! one loop.
//!
//! Most resting shapes never escape their fat box, so the escape test uses the record's copy
//! of the fat box instead of the tree's leaf: the common case reads nothing outside the shape
//! record. The copy is kept equal to the leaf wherever a proxy is created or re-inserted.

use crate::body::AWAKE_SET;
use crate::broadphase::{BroadPhase, TreeKind};
use crate::profile::zone;
use crate::shape::ShapeRecord;
use crate::world::World;
use collision::Aabb;
use collision::geometry::compute_aabb;
use core_soa::{Arena, BodySim, ShapeId};
use rayon::prelude::*;

/// Awake bodies per parallel task when computing boxes: a box costs tens of nanoseconds, so a
/// task must hold a few hundred bodies to outweigh the scheduling.
const BOX_CHUNK: usize = 256;

/// One shape's new tight box, and whether it left the shape's fat box.
#[derive(Clone, Copy, Debug)]
struct ShapeBox {
    shape: ShapeId,
    tight: Aabb,
    escaped: bool,
}

impl World {
    /// New shape boxes and proxies for every awake body.
    pub(crate) fn finalize_bodies(&mut self) {
        zone!("finalize bodies");
        if self.def.worker_count > 1 {
            let boxes = self.awake_shape_boxes_parallel();
            for shape_box in boxes {
                apply_shape_box(&mut self.shapes, &mut self.broadphase, shape_box);
            }
        } else {
            self.finalize_bodies_serial();
        }
        if self.def.worker_count > 1 {
            self.broadphase.moving_tree.rebuild_enlarged_parallel();
        } else {
            self.broadphase.moving_tree.rebuild_enlarged();
        }
    }

    /// Both passes of [`World::finalize_bodies`] in one loop, for one worker.
    fn finalize_bodies_serial(&mut self) {
        let (shapes, broadphase) = (&mut self.shapes, &mut self.broadphase);
        for sim in self.solver_sets[AWAKE_SET as usize].sims() {
            let Some(body) = self.bodies.get_by_index(sim.body) else {
                continue;
            };
            for &shape in &body.shapes {
                if let Some(shape_box) = shape_box(shapes, shape, sim) {
                    apply_shape_box(shapes, broadphase, shape_box);
                }
            }
        }
    }

    /// Every awake body's shape boxes in awake-set order, computed over the current rayon pool
    /// in fixed chunks of bodies.
    fn awake_shape_boxes_parallel(&self) -> Vec<ShapeBox> {
        let sims = self.solver_sets[AWAKE_SET as usize].sims();
        let (bodies, shapes) = (&self.bodies, &self.shapes);
        let chunks: Vec<Vec<ShapeBox>> = sims
            .par_chunks(BOX_CHUNK)
            .map(|chunk| {
                let mut boxes = Vec::with_capacity(chunk.len());
                for sim in chunk {
                    let Some(body) = bodies.get_by_index(sim.body) else {
                        continue;
                    };
                    let of_body = body.shapes.iter();
                    boxes.extend(of_body.filter_map(|&shape| shape_box(shapes, shape, sim)));
                }
                boxes
            })
            .collect();
        chunks.concat()
    }
}

/// The new tight box of `shape` on the body whose sim is `sim`, or `None` for a stale id.
fn shape_box(
    shapes: &Arena<ShapeRecord, ShapeId>,
    shape: ShapeId,
    sim: &BodySim,
) -> Option<ShapeBox> {
    let record = shapes.get(shape)?;
    let tight = compute_aabb(&record.geometry, sim.transform);
    Some(ShapeBox {
        shape,
        tight,
        escaped: !record.fat_aabb.contains(&tight),
    })
}

/// Stores a shape's tight box; re-inserts its proxy and buffers the move if the box left the
/// fat box (shapes in the static tree keep their proxy: a static body does not move).
fn apply_shape_box(
    shapes: &mut Arena<ShapeRecord, ShapeId>,
    broadphase: &mut BroadPhase,
    shape_box: ShapeBox,
) {
    let Some(shape) = shapes.get_mut(shape_box.shape) else {
        return;
    };
    shape.aabb = shape_box.tight;
    if !shape_box.escaped || shape.tree == TreeKind::Static {
        return;
    }
    let tree = broadphase.tree_mut(shape.tree);
    // Only the moving tree is rebuilt at the end of the phase; any other tree moves at once.
    let moved = if shape.tree == TreeKind::Moving {
        tree.move_proxy_deferred(shape.proxy, shape.aabb)
    } else {
        tree.move_proxy(shape.proxy, shape.aabb)
    };
    if moved {
        shape.fat_aabb = tree.fat_aabb(shape.proxy);
        broadphase.buffer_move(shape_box.shape.index());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BodyDef, ShapeDef, Vec2, WorldDef, make_box};
    use collision::tree::AABB_MARGIN;
    use std::sync::Arc;

    const BODIES: usize = 600;

    /// How far body `k` is shifted along x before finalising: not at all, well inside the
    /// margin, or past it.
    fn shift(k: usize) -> f32 {
        [0.0, 0.5 * AABB_MARGIN, 1.5 * AABB_MARGIN][k % 3]
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
                let square = make_box(0.5, 0.5);
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
        let (sims, _) = world.solver_sets[AWAKE_SET as usize].sims_and_states_mut();
        for (k, sim) in sims.iter_mut().enumerate() {
            sim.transform.p.x += shift(k);
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
                assert_eq!(record.aabb, compute_aabb(&record.geometry, sim.transform));
                let tree = world.broadphase.tree(record.tree);
                assert_eq!(record.fat_aabb, tree.fat_aabb(record.proxy));
                assert!(record.fat_aabb.contains(&record.aabb), "body {k}");
                let escaped = shift(k) > AABB_MARGIN;
                if escaped {
                    // A re-inserted proxy's fat box is the new tight box grown by the margin.
                    assert_eq!(
                        record.fat_aabb,
                        record.aabb.fattened(AABB_MARGIN),
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
            assert_eq!((a.aabb, a.fat_aabb), (b.aabb, b.fat_aabb));
        }
    }
}
