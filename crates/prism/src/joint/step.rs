//! The joints' part of a step: the solver's joint list before the solve, the impulses and
//! reactions after it, and breaking.
//!
//! ```text
//!   build_solver_joints      graph membership brought up to date (store.rs); one
//!                            JointConstraint per joint in the graph, colour 0's first, …,
//!                            overflow last, with a ColorLayout of the ranges
//!   (solver)                 prepare after begin_step; per substep warm start, solve, relax —
//!                            each colour's joints in that colour's stage, next to its contacts
//!   store_joint_results      accumulated impulses back into the records (warm starting next
//!                            step); reaction = impulse / h
//!   break_overloaded_joints  every breakable joint whose reaction exceeds a threshold is
//!                            destroyed and reported
//! ```
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
use crate::joint::store::{JointRecord, JointStore};
use crate::world::World;
use core_soa::{Arena, Body, BodyArrays, BodyId, JointId, Transform};
use graph_coloring::{ColorIndex, GRAPH_COLOR_COUNT};
use rayon::prelude::*;
use solver_simd::SolverKind;
use solver_simd::joint::{JointBody, JointConstraint, JointImpulses, JointKind, JointReaction};

/// Joints per parallel task when building the solver list (each is a ~230-byte copy).
const PARALLEL_CHUNK: usize = 256;

impl World {
    /// Fills the solver's joint list by colour (see the module notes). `h` is the coming
    /// substep, used to rescale carried impulses after a substep change. With more than one
    /// worker each colour's list is built across the pool; every element depends on its own
    /// joint only and the order is kept, so the list is the same for any worker count.
    pub(crate) fn build_solver_joints(&mut self, h: f32) {
        self.sync_joint_graph();
        let parallel = self.def.worker_count > 1;
        let JointStore {
            arena,
            solver_joints,
            solver_sources,
            layout,
            ..
        } = &mut self.joints;
        let (bodies, sets) = (&self.bodies, &self.solver_sets);
        solver_joints.clear();
        solver_sources.clear();
        layout.color_ranges.clear();
        let make = |&handle: &u32| solver_joint(bodies, sets, arena.get_by_index(handle), h);
        let colors = (0..GRAPH_COLOR_COUNT)
            .filter_map(ColorIndex::new)
            .chain([ColorIndex::OVERFLOW]);
        for color in colors {
            let handles = self.graph.graph.joints(color);
            let start = solver_joints.len();
            if parallel && handles.len() >= 2 * PARALLEL_CHUNK {
                let items = handles.par_iter().with_min_len(PARALLEL_CHUNK);
                solver_joints.par_extend(items.map(make));
            } else {
                solver_joints.extend(handles.iter().map(make));
            }
            solver_sources.extend_from_slice(handles);
            let range = start..solver_joints.len();
            if color.is_overflow() {
                layout.overflow = range;
            } else {
                layout.color_ranges.push(range);
            }
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
    /// records. Non-finite values (a diverged body) are dropped rather than carried.
    pub(crate) fn store_joint_results(&mut self, h: f32) {
        let inv_h = if h > 0.0 { 1.0 / h } else { 0.0 };
        let store = &mut self.joints;
        for (joint, &source) in store.solver_joints.iter().zip(&store.solver_sources) {
            let Some(record) = store.arena.get_by_index_mut(source) else {
                continue;
            };
            record.solved_substep = h;
            let reaction = joint.reaction(inv_h);
            let finite = is_finite_impulses(&joint.impulses)
                && reaction.force.is_finite()
                && reaction.torque.is_finite();
            (record.impulses, record.reaction) = if finite {
                (joint.impulses, reaction)
            } else {
                (JointImpulses::default(), JointReaction::default())
            };
        }
    }

    /// Destroys the solved joints whose reaction exceeded a break threshold this step and
    /// reports them; replaces the last step's break events.
    pub(crate) fn break_overloaded_joints(&mut self) {
        self.joints.break_events.clear();
        let store = &self.joints;
        let broken: Vec<JointBreakEvent> = store
            .solver_sources
            .iter()
            .filter_map(|&source| {
                let id = store.arena.key_at(source)?;
                let record = store.arena.get(id)?;
                overloaded(record).then(|| break_event(id, record))
            })
            .collect();
        for event in broken {
            self.remove_joint(event.joint.index());
            self.joints.break_events.push(event);
        }
    }
}

/// Whether a breakable joint's last reaction exceeds its thresholds.
fn overloaded(record: &JointRecord) -> bool {
    record.is_breakable()
        && record
            .reaction
            .exceeds(record.base.break_force, record.base.break_torque)
}

fn break_event(joint: JointId, record: &JointRecord) -> JointBreakEvent {
    JointBreakEvent {
        joint,
        body_a: record.base.body_a,
        body_b: record.base.body_b,
        force: record.reaction.force,
        torque: record.reaction.torque,
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
    JointImpulses {
        linear: scale * impulses.linear,
        angular: scale * impulses.angular,
        spring: scale * impulses.spring,
        motor: scale * impulses.motor,
        lower: scale * impulses.lower,
        upper: scale * impulses.upper,
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
            joint.impulses = rescaled_impulses(record.impulses, record.solved_substep, h);
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
    use core_soa::Vec2;

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
