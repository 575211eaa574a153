//! The joints' part of a step: the solver's joint list before the solve, the impulses and
//! reactions after it, and breaking.
//!
//! ```text
//!   build_solver_joints      graph membership brought up to date (store.rs); one
//!                            JointConstraint per joint in the graph, colour 0's first, …,
//!                            overflow last, with a ColorLayout of the ranges
//!   (solver)                 prepare after begin_step; per substep warm start, solve, relax —
//!                            each colour's joints in that colour's stage, next to its contacts
//!   store_joint_results      accumulated impulses back into the joints' carries (warm
//!                            starting next step); reaction = impulse / h
//!   break_overloaded_joints  every breakable joint whose reaction exceeds a threshold is
//!                            destroyed and reported (nothing to do without breakable joints)
//! ```
//!
//! **Cost.** The build and the store are per-joint streams: each joint reads its record, its
//! carry and its two bodies, and writes its 256-byte constraint; after the solve each reads the
//! constraint's kind, impulses and axis and writes its 48-byte carry. Both run across the pool
//! in chunks (the build over all colours at once, the results in list order before they are
//! written to the carries), and neither touches a joint whose bodies did not change class for
//! the graph re-check (store.rs). The break check reads only the carries' `breakable` flags,
//! and not even those while the world has no breakable joint.
//!
//! **Frames per step.** A record keeps its anchors relative to the body origins; the solver
//! wants them relative to the centres of mass, `p − local_center` (the frame orientation is
//! unchanged: the centre of mass is a point of the same rigid frame). A body's centre moves when
//! its shapes change, so the conversion is made here, every step, from the body's current sim.
//!
//! **Body indices.** An awake body (dynamic or kinematic) is named by its index in the awake
//! arrays, which changes whenever another body leaves the set; a static body is
//! `NULL_BODY` with its pose handed over (`JointBody::fixed`). Both are read fresh each step.
//!
//! **Carried impulses.** They are per-substep impulses (`λ` over one substep `h`): when the
//! user changes the substep count, the carried impulse still describes the force `λ/h_old`,
//! so it is rescaled by `h_new/h_old` to keep the same force (a warm start with the wrong
//! scale would kick the bodies for one step).

use crate::body::AWAKE_SET;
use crate::joint::events::JointBreakEvent;
use crate::joint::store::{
    CLASS_UNKNOWN, JointCarry, JointRecord, JointStore, SolvedJoint, endpoint_class,
    for_each_jointed_body,
};
use crate::world::World;
use core_soa::{Arena, Body, BodyArrays, BodyId, JointId, Transform};
use graph_coloring::{ColorIndex, ConstraintGraph, GRAPH_COLOR_COUNT};
use rayon::prelude::*;
use solver_simd::joint::{JointBody, JointConstraint, JointImpulses, JointKind, JointReaction};
use solver_simd::shared::SharedSlice;
use solver_simd::{ColorLayout, SolverKind};

/// Joints per parallel task when building the solver list (each is a 256-byte write) or
/// reading its results back.
const PARALLEL_CHUNK: usize = 256;

impl World {
    /// Fills the solver's joint list by colour (see the module notes). `h` is the coming
    /// substep, used to rescale carried impulses after a substep change. With more than one
    /// worker the list is built across the pool, all colours at once; every element depends on
    /// its own joint only and the order is kept, so the list is the same for any worker count.
    pub(crate) fn build_solver_joints(&mut self, h: f32) {
        let (reclassified, views_changed) = self.scan_jointed_bodies();
        self.sync_joint_graph(&reclassified);
        let key = ListKey {
            substep_bits: h.to_bits(),
            awake_count: self
                .solver_sets
                .get(AWAKE_SET as usize)
                .map_or(0, |set| set.len()),
        };
        let store = &mut self.joints;
        let sources_changed = store.graph_joints_changed || store.list_key.is_none();
        store.graph_joints_changed = false;
        if sources_changed || cfg!(debug_assertions) {
            let mut sources = std::mem::take(&mut store.gathered_sources);
            gather_sources(&self.graph.graph, &mut sources, &mut store.layout);
            debug_assert!(
                sources_changed || sources == store.solver_sources,
                "the graph's joint lists changed without a flag"
            );
            store.gathered_sources = std::mem::replace(&mut store.solver_sources, sources);
        }
        let reusable = !views_changed
            && !sources_changed
            && !store.joints_edited
            && store.list_key == Some(key)
            && store.solver_joints.len() == store.solver_sources.len();
        store.list_key = Some(key);
        store.joints_edited = false;
        if !reusable {
            self.rebuild_solver_joints(h);
        }
        debug_assert!(
            self.solver_joints_are_current(h),
            "a kept solver joint differs from its rebuild"
        );
    }

    /// Whether every solver joint is what a rebuild would make of it, apart from its prepared
    /// data (which the solver's preparation overwrites whole).
    fn solver_joints_are_current(&self, h: f32) -> bool {
        let store = &self.joints;
        store.solver_joints.len() == store.solver_sources.len()
            && store
                .solver_joints
                .iter()
                .zip(&store.solver_sources)
                .all(|(kept, &handle)| {
                    let record = store.arena.get_by_index(handle);
                    let carry = store.carried.get(handle as usize).copied();
                    let carry = carry.unwrap_or_default();
                    let fresh = solver_joint(&self.bodies, &self.solver_sets, record, &carry, h);
                    (kept.kind, kept.impulses, kept.body_a, kept.body_b)
                        == (fresh.kind, fresh.impulses, fresh.body_a, fresh.body_b)
                })
    }

    /// Builds every solver joint from its record, carry and bodies, in the order of
    /// `solver_sources` (see [`World::build_solver_joints`]).
    fn rebuild_solver_joints(&mut self, h: f32) {
        let parallel = self.def.worker_count > 1;
        let JointStore {
            arena,
            carried,
            solver_joints,
            solver_sources,
            ..
        } = &mut self.joints;
        let (bodies, sets) = (&self.bodies, &self.solver_sets);
        let make = |&handle: &u32| {
            let record = arena.get_by_index(handle);
            let carry = carried.get(handle as usize).copied().unwrap_or_default();
            solver_joint(bodies, sets, record, &carry, h)
        };
        solver_joints.clear();
        if parallel && solver_sources.len() >= 2 * PARALLEL_CHUNK {
            let items = solver_sources.par_iter().with_min_len(PARALLEL_CHUNK);
            solver_joints.par_extend(items.map(make));
        } else {
            solver_joints.extend(solver_sources.iter().map(make));
        }
    }

    /// The interval the joint impulses of a step are accumulated over: the substep
    /// `dt/substeps` of the soft step, the whole step for sequential impulses.
    pub(crate) fn joint_substep(&self, dt: f32, substeps: u32) -> f32 {
        match self.def.solver_kind {
            SolverKind::SoftStep => dt / substeps.max(1) as f32,
            SolverKind::SequentialImpulses => dt,
        }
    }

    /// Copies the solved impulses and the reactions (impulse over substep `h`) back into the
    /// joints' carries. Non-finite values (a diverged body) are dropped rather than carried.
    /// With more than one worker the list is split into chunks across the pool; each joint
    /// writes only its own carry, so the outcome does not depend on the split.
    pub(crate) fn store_joint_results(&mut self, h: f32) {
        let inv_h = if h > 0.0 { 1.0 / h } else { 0.0 };
        let parallel = self.def.worker_count > 1;
        let JointStore {
            carried,
            solver_joints,
            solver_sources,
            ..
        } = &mut self.joints;
        debug_assert!(
            sources_are_distinct(solver_sources, carried.len()),
            "a joint appears twice in the solver list, or has no carry"
        );
        let carries = SharedSlice::new(carried);
        let store = |(joint, &source): (&mut JointConstraint, &u32)| {
            let result = solved_joint(joint, inv_h);
            // SAFETY: every source names a distinct carry: a joint is in the graph at most
            // once (it enters a colour only from outside the graph, update_joint_graph), and
            // the list holds the graph's joints; debug builds check it above. So no two
            // iterations, on any threads, touch the same element.
            let mut carry = unsafe { carries.read(source as usize) };
            carry.impulses = result.impulses;
            carry.reaction = result.reaction;
            carry.solved_substep = h;
            // SAFETY: as for the read.
            unsafe { carries.write(source as usize, carry) };
        };
        if parallel && solver_joints.len() >= 2 * PARALLEL_CHUNK {
            solver_joints
                .par_iter_mut()
                .zip(solver_sources.par_iter())
                .with_min_len(PARALLEL_CHUNK)
                .for_each(store);
        } else {
            solver_joints
                .iter_mut()
                .zip(solver_sources.iter())
                .for_each(store);
        }
    }

    /// Records the class (graph re-check, store.rs) and the [`BodyView`] (list reuse) of every
    /// jointed body in one pass. Returns the bodies whose class differs from the recorded one,
    /// in increasing slot order, and whether a view differs (a body joined or left the awake
    /// set, moved in it, changed mass or centre, or a static body was moved), which the joints
    /// built from it must see. With more than one worker the body slots are split into chunks
    /// across the pool and the chunks' lists joined in slot order, the same for any split.
    pub(crate) fn scan_jointed_bodies(&mut self) -> (Vec<u32>, bool) {
        let store = &mut self.joints;
        if store.arena.is_empty() {
            return (Vec::new(), false);
        }
        let (bodies, sets) = (&self.bodies, &self.solver_sets[..]);
        let slot_count = bodies.slot_count();
        store.body_classes.resize(slot_count, CLASS_UNKNOWN);
        store.body_views.resize(slot_count, [u32::MAX; 10]);
        let (classes, views) = (&mut store.body_classes, &mut store.body_views);
        if 2 * store.arena.len() < slot_count {
            // Few joints: visit the joints' bodies instead of every body slot.
            let mut scan = BodyScan::default();
            for_each_jointed_body(bodies, &store.arena, |slot, body| {
                let (class, view) = (&mut classes[slot as usize], &mut views[slot as usize]);
                scan.visit(slot, body, sets, class, view);
            });
            scan.reclassified.sort_unstable();
            scan.reclassified.dedup();
            return (scan.reclassified, scan.views_changed);
        }
        let chunk = |(k, (classes, views)): (usize, (&mut [u8], &mut [BodyView]))| {
            let start = (k * SCAN_CHUNK) as u32;
            scan_body_slots(bodies, sets, start, classes, views)
        };
        let scans: Vec<BodyScan> = if self.def.worker_count > 1 && slot_count >= 2 * SCAN_CHUNK {
            let items = classes.par_chunks_mut(SCAN_CHUNK);
            let items = items.zip(views.par_chunks_mut(SCAN_CHUNK)).enumerate();
            items.map(chunk).collect()
        } else {
            let items = classes.chunks_mut(SCAN_CHUNK);
            items
                .zip(views.chunks_mut(SCAN_CHUNK))
                .enumerate()
                .map(chunk)
                .collect()
        };
        let views_changed = scans.iter().any(|scan| scan.views_changed);
        let reclassified = scans
            .into_iter()
            .flat_map(|scan| scan.reclassified)
            .collect();
        (reclassified, views_changed)
    }

    /// Destroys the solved joints whose reaction exceeded a break threshold this step and
    /// reports them, in list order; replaces the last step's break events. Without a breakable
    /// joint in the world there is nothing to look at.
    pub(crate) fn break_overloaded_joints(&mut self) {
        self.joints.break_events.clear();
        debug_assert_eq!(
            self.joints.breakable_count,
            self.joints
                .arena
                .iter()
                .filter(|(_, r)| r.is_breakable())
                .count(),
            "breakable joints miscounted"
        );
        if self.joints.breakable_count == 0 {
            return;
        }
        let store = &self.joints;
        let broken: Vec<JointBreakEvent> = store
            .solver_sources
            .iter()
            .filter(|&&source| store.carried[source as usize].breakable)
            .filter_map(|&source| {
                let id = store.arena.key_at(source)?;
                let record = store.arena.get(id)?;
                let reaction = store.carried[source as usize].reaction;
                overloaded(record, &reaction).then(|| break_event(id, record, &reaction))
            })
            .collect();
        for event in broken {
            self.remove_joint(event.joint.index());
            self.joints.break_events.push(event);
        }
    }
}

/// Body slots per parallel task of [`World::scan_jointed_bodies`].
const SCAN_CHUNK: usize = 1024;

/// What [`World::scan_jointed_bodies`] found in some body slots.
#[derive(Default)]
struct BodyScan {
    reclassified: Vec<u32>,
    views_changed: bool,
}

impl BodyScan {
    /// Records the class and view of jointed body `slot` in `class` and `view`, noting a
    /// change.
    fn visit(
        &mut self,
        slot: u32,
        body: &Body,
        sets: &[BodyArrays],
        class: &mut u8,
        view: &mut BodyView,
    ) {
        let new_class = endpoint_class(slot, body);
        if new_class != *class {
            *class = new_class;
            self.reclassified.push(slot);
        }
        let new_view = body_view(body, sets);
        if new_view != *view {
            *view = new_view;
            self.views_changed = true;
        }
    }
}

/// Scans the jointed bodies among the slots `start..start + classes.len()`, whose classes and
/// views are `classes` and `views`.
fn scan_body_slots(
    bodies: &Arena<Body, BodyId>,
    sets: &[BodyArrays],
    start: u32,
    classes: &mut [u8],
    views: &mut [BodyView],
) -> BodyScan {
    let mut scan = BodyScan::default();
    for (offset, (class, view)) in classes.iter_mut().zip(views.iter_mut()).enumerate() {
        let slot = start + offset as u32;
        if let Some(body) = bodies.get_by_index(slot)
            && body.joint_count > 0
        {
            scan.visit(slot, body, sets, class, view);
        }
    }
    scan
}

/// Whether no source repeats and each has a carry.
fn sources_are_distinct(sources: &[u32], carry_count: usize) -> bool {
    let mut seen = vec![false; carry_count];
    sources
        .iter()
        .all(|&s| (s as usize) < carry_count && !std::mem::replace(&mut seen[s as usize], true))
}

/// The graph's joint handles by colour (colour 0's first, …, overflow last) into `sources`,
/// with their ranges in `layout`.
fn gather_sources(graph: &ConstraintGraph, sources: &mut Vec<u32>, layout: &mut ColorLayout) {
    sources.clear();
    layout.color_ranges.clear();
    let colors = (0..GRAPH_COLOR_COUNT)
        .filter_map(ColorIndex::new)
        .chain([ColorIndex::OVERFLOW]);
    for color in colors {
        let start = sources.len();
        sources.extend_from_slice(graph.joints(color));
        let range = start..sources.len();
        if color.is_overflow() {
            layout.overflow = range;
        } else {
            layout.color_ranges.push(range);
        }
    }
}

/// A solved joint's impulses and reaction, both zero if either is not finite; a joint with
/// non-finite ones is zeroed too, so that the list's impulses stay those of the carries.
fn solved_joint(joint: &mut JointConstraint, inv_h: f32) -> SolvedJoint {
    let reaction = joint.reaction(inv_h);
    let finite = is_finite_impulses(&joint.impulses)
        && reaction.force.is_finite()
        && reaction.torque.is_finite();
    if finite {
        SolvedJoint {
            impulses: joint.impulses,
            reaction,
        }
    } else {
        joint.impulses = JointImpulses::default();
        SolvedJoint {
            impulses: JointImpulses::default(),
            reaction: JointReaction::default(),
        }
    }
}

/// What the list's joints were built for besides their records and bodies: a new substep
/// rescales the carried impulses, a new awake count may change the bodies' checked indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ListKey {
    substep_bits: u32,
    awake_count: usize,
}

/// The bits of everything [`joint_body`] reads of a body: its set and index, masses, centre
/// of mass in the body, and (outside the awake set, where the pose is handed over) its pose.
pub(crate) type BodyView = [u32; 10];

/// The [`BodyView`] of `body`, or all ones if its sim is missing.
fn body_view(body: &Body, sets: &[BodyArrays]) -> BodyView {
    let Some((sim, _)) = sets
        .get(body.set_index as usize)
        .and_then(|set| set.get(body.local_index))
    else {
        return [u32::MAX; 10];
    };
    let pose = if body.set_index == AWAKE_SET {
        Transform::IDENTITY
    } else {
        Transform::new(sim.center, sim.transform.q)
    };
    [
        body.set_index,
        body.local_index,
        sim.inv_mass.to_bits(),
        sim.inv_inertia.to_bits(),
        sim.local_center.x.to_bits(),
        sim.local_center.y.to_bits(),
        pose.p.x.to_bits(),
        pose.p.y.to_bits(),
        pose.q.c.to_bits(),
        pose.q.s.to_bits(),
    ]
}

/// Whether a breakable joint's last reaction exceeds its thresholds.
fn overloaded(record: &JointRecord, reaction: &JointReaction) -> bool {
    record.is_breakable() && reaction.exceeds(record.base.break_force, record.base.break_torque)
}

fn break_event(joint: JointId, record: &JointRecord, reaction: &JointReaction) -> JointBreakEvent {
    JointBreakEvent {
        joint,
        body_a: record.base.body_a,
        body_b: record.base.body_b,
        force: reaction.force,
        torque: reaction.torque,
        user_data: record.base.user_data,
    }
}

fn is_finite_impulses(i: &JointImpulses) -> bool {
    i.linear.is_finite()
        && [i.angular, i.spring, i.motor, i.lower, i.upper]
            .iter()
            .all(|v| v.is_finite())
}

/// The carried impulses of a joint last solved with substep `solved_substep`, rescaled to
/// substep `h` (see the module notes).
fn rescaled_impulses(impulses: JointImpulses, solved_substep: f32, h: f32) -> JointImpulses {
    if solved_substep <= 0.0 || h <= 0.0 || solved_substep == h {
        return impulses;
    }
    let scale = h / solved_substep;
    let rescaled = JointImpulses {
        linear: scale * impulses.linear,
        angular: scale * impulses.angular,
        spring: scale * impulses.spring,
        motor: scale * impulses.motor,
        lower: scale * impulses.lower,
        upper: scale * impulses.upper,
    };
    // A substep 10³⁸ times the last one overflows the scale or the product (and `0·∞` is
    // NaN): then there is no force worth carrying, and the joint starts cold.
    if is_finite_impulses(&rescaled) {
        rescaled
    } else {
        JointImpulses::default()
    }
}

/// The solver's view of a joint, with fresh body indices, centre-of-mass frames and the
/// carried impulses at substep `h`. A joint in the graph always has its record and both
/// bodies; were one missing, an inert stand-in (two immovable sides) keeps the list aligned
/// with its sources and applies nothing.
fn solver_joint(
    bodies: &Arena<Body, BodyId>,
    sets: &[BodyArrays],
    record: Option<&JointRecord>,
    carry: &JointCarry,
    h: f32,
) -> JointConstraint {
    let sides = record.and_then(|record| {
        let body_a = joint_body(bodies, sets, record.base.body_a, record.frame_a)?;
        let body_b = joint_body(bodies, sets, record.base.body_b, record.frame_b)?;
        Some((record, body_a, body_b))
    });
    match sides {
        Some((record, body_a, body_b)) => {
            let mut joint = JointConstraint::new(record.kind, body_a, body_b);
            joint.impulses = rescaled_impulses(carry.impulses, carry.solved_substep, h);
            joint
        }
        None => {
            debug_assert!(false, "a joint in the graph lost its record or a body");
            let inert = JointBody::fixed(Transform::IDENTITY, Transform::IDENTITY);
            let kind = record.map_or(JointKind::Weld(Default::default()), |r| r.kind);
            JointConstraint::new(kind, inert, inert)
        }
    }
}

/// One side of a joint: awake bodies by index, others (static) by pose.
fn joint_body(
    bodies: &Arena<Body, BodyId>,
    sets: &[BodyArrays],
    id: BodyId,
    origin_frame: Transform,
) -> Option<JointBody> {
    let body = bodies.get(id)?;
    let (sim, _) = sets.get(body.set_index as usize)?.get(body.local_index)?;
    let frame = Transform::new(origin_frame.p - sim.local_center, origin_frame.q);
    Some(if body.set_index == AWAKE_SET {
        JointBody::awake(body.local_index, sim.inv_mass, sim.inv_inertia, frame)
    } else {
        JointBody::fixed(Transform::new(sim.center, sim.transform.q), frame)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BodyDef, Circle, JointDef, RevoluteJointDef, ShapeDef, WeldJointDef, WorldDef};
    use core_soa::Vec2;

    /// The list is kept from step to step while nothing changes, and rebuilt when a joint's
    /// slot is reused by another joint between steps, even one between the same bodies in the
    /// same colour.
    #[test]
    fn a_joint_replaced_in_its_slot_between_steps_is_rebuilt() {
        let mut world = World::new(WorldDef::default()).unwrap();
        let ground = world.create_body(&BodyDef::fixed_at(Vec2::ZERO)).unwrap();
        let body = world
            .create_body(&BodyDef::dynamic_at(Vec2::new(0.5, 0.0)))
            .unwrap();
        let circle = Circle {
            center: Vec2::ZERO,
            radius: 0.1,
        };
        world
            .create_circle_shape(body, &ShapeDef::default(), &circle)
            .unwrap();
        let def = JointDef::new(ground, body);
        let hinge = world
            .create_revolute_joint(&RevoluteJointDef::new(def))
            .unwrap();
        for _ in 0..3 {
            world.step(1.0 / 60.0, 4).unwrap();
        }
        assert!(matches!(
            world.joints.solver_joints[0].kind,
            JointKind::Revolute(_)
        ));
        assert!(world.joints.carried[hinge.index() as usize].impulses != JointImpulses::default());

        world.destroy_joint(hinge).unwrap();
        let weld = world.create_weld_joint(&WeldJointDef::new(def)).unwrap();
        assert_eq!(weld.index(), hinge.index(), "the slot is reused");
        world.step(1.0 / 60.0, 4).unwrap();
        assert_eq!(world.joints.solver_sources, [weld.index()]);
        assert!(matches!(
            world.joints.solver_joints[0].kind,
            JointKind::Weld(_)
        ));
        assert!(world.solver_joints_are_current(1.0 / 60.0 / 4.0));
    }

    #[test]
    fn carried_impulses_keep_their_force_when_the_substep_changes() {
        let carried = JointImpulses {
            linear: Vec2::new(0.4, -0.2),
            angular: 0.1,
            spring: 0.3,
            motor: -0.5,
            lower: 0.25,
            upper: 0.0,
        };
        // 4 → 8 substeps at 60 Hz: the same force λ/h needs half the impulse per substep.
        let halved = rescaled_impulses(carried, 1.0 / 240.0, 1.0 / 480.0);
        assert!((halved.linear - 0.5 * carried.linear).length() < 1e-7);
        for (new, old) in [
            (halved.angular, carried.angular),
            (halved.spring, carried.spring),
            (halved.motor, carried.motor),
            (halved.lower, carried.lower),
        ] {
            assert!((new - 0.5 * old).abs() < 1e-7, "{new} vs {old}");
        }
        // The same substep, or a joint never solved, keeps them as they are.
        assert_eq!(
            rescaled_impulses(carried, 1.0 / 240.0, 1.0 / 240.0),
            carried
        );
        assert_eq!(rescaled_impulses(carried, 0.0, 1.0 / 240.0), carried);
    }
}
