//! Body move events: the bodies the step moved, with their new transforms, in one flat array a
//! renderer can copy from ([`World::body_move_events`]).
//!
//! A body is listed when it was awake for the step and the step moved it: its step
//! displacement (`BodyState::delta_position`, `delta_rotation`, which the solver accumulates
//! over the substeps) is not zero. Static and sleeping bodies are never listed, nor is an awake
//! body that stood exactly still (a kinematic body at rest), nor a body moved by the user
//! between steps. `fell_asleep` says that the body's island fell asleep at the end of this
//! step: the body will not be listed again until it wakes (`World::body_events` reports the
//! wake, and every body that fell asleep).
//!
//! ```text
//!   record   after the finalize, in parallel chunks of the awake set: one event per body
//!            that moved, in awake-set order (chunk lists concatenated in chunk order)
//!   asleep   after the sleep phase, only if an island fell asleep: in parallel over the
//!            events, fell_asleep = the body now rests in a sleeping set
//! ```
//!
//! Neither pass is serial over the awake bodies, and both give the same array for any worker
//! count. The array is refilled every step and reused, so a steady world does not allocate.

use crate::body::Body;
use crate::profile::zone;
use crate::solver_set::{AWAKE_SET, FIRST_SLEEPING_SET};
use crate::world::World;
use core_soa::{Arena, BodyId, BodySim, BodyState, Rot, Transform, Vec2};
use rayon::prelude::*;

/// Awake bodies per parallel task.
const MOVE_CHUNK: usize = 256;

/// A body the last step moved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyMoveEvent {
    /// The body that moved.
    pub body: BodyId,
    /// The body's transform (origin and rotation) at the end of the step.
    pub transform: Transform,
    /// The body's `BodyDef::user_data`.
    pub user_data: u64,
    /// Whether the body's island fell asleep at the end of the step.
    pub fell_asleep: bool,
}

impl World {
    /// The bodies the last step moved, in the order of the awake set (see the module notes).
    pub fn body_move_events(&self) -> &[BodyMoveEvent] {
        &self.move_events
    }

    /// Fills the move events from the awake set; call after the finalize, before the sleep
    /// phase moves bodies out of the awake set.
    pub(crate) fn record_body_moves(&mut self) {
        zone!("events_moves");
        let bodies = &self.bodies;
        let awake = &self.solver_sets[AWAKE_SET as usize].bodies;
        let (sims, states) = (awake.sims(), awake.states());
        let events = &mut self.move_events;
        events.clear();
        if self.def.worker_count > 1 {
            let chunks = sims
                .par_chunks(MOVE_CHUNK)
                .zip(states.par_chunks(MOVE_CHUNK));
            events.par_extend(chunks.flat_map_iter(|(sims, states)| {
                zone!("events_moves chunk");
                moves_of(bodies, sims, states)
            }));
        } else {
            events.extend(moves_of(bodies, sims, states));
        }
    }

    /// Marks the moved bodies whose island fell asleep in this step's sleep phase.
    pub(crate) fn mark_fallen_asleep(&mut self) {
        zone!("events_asleep");
        // Every body that fell asleep is in the sleep events; none there, nothing to mark.
        if self.body_events().sleep.is_empty() {
            return;
        }
        let bodies = &self.bodies;
        let mark = |event: &mut BodyMoveEvent| {
            event.fell_asleep = bodies
                .get(event.body)
                .is_some_and(|body| body.set_index >= FIRST_SLEEPING_SET);
        };
        if self.def.worker_count > 1 {
            self.move_events
                .par_chunks_mut(MOVE_CHUNK)
                .for_each(|chunk| {
                    zone!("events_asleep chunk");
                    chunk.iter_mut().for_each(mark);
                });
        } else {
            self.move_events.iter_mut().for_each(mark);
        }
    }
}

/// The move events of one chunk of the awake set.
fn moves_of<'a>(
    bodies: &'a Arena<Body, BodyId>,
    sims: &'a [BodySim],
    states: &'a [BodyState],
) -> impl Iterator<Item = BodyMoveEvent> + 'a {
    sims.iter()
        .zip(states)
        .filter(|(_, state)| {
            state.delta_position != Vec2::ZERO || state.delta_rotation != Rot::IDENTITY
        })
        .filter_map(|(sim, _)| {
            let body = bodies.key_at(sim.body)?;
            Some(BodyMoveEvent {
                body,
                transform: sim.transform,
                user_data: bodies.get(body)?.user_data,
                fell_asleep: false,
            })
        })
}

#[cfg(feature = "validate")]
impl World {
    /// Every move event names a live body once, with its current transform, and says it fell
    /// asleep exactly when the body now sleeps.
    pub(crate) fn validate_move_events(&self) -> Result<(), String> {
        let mut seen = std::collections::HashSet::new();
        for event in &self.move_events {
            let body = self
                .bodies
                .get(event.body)
                .ok_or(format!("move event of dead body {:?}", event.body))?;
            if !seen.insert(event.body) {
                return Err(format!("two move events for body {:?}", event.body));
            }
            let sim = self.body_sim(event.body.index());
            if sim.map(|sim| sim.transform) != Some(event.transform) {
                return Err(format!("move event of {:?}: stale transform", event.body));
            }
            if event.fell_asleep != (body.set_index >= FIRST_SLEEPING_SET) {
                return Err(format!("move event of {:?}: wrong sleep flag", event.body));
            }
        }
        Ok(())
    }
}
