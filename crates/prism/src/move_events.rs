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
//!   record   inside the finalize pass (`finalize.rs`), at the end of each chunk of the awake
//!            set, while its bodies are in cache: one event per body that moved, in
//!            awake-set order, pushed straight into the chunk's part of the world's array
//!            (room for each of its bodies); the parts are then closed up in chunk order
//!            (`workers::extend_in_pieces`), which moves nothing while every awake body
//!            moves; a bullet's event is refreshed after the bullets' sweep, which may move
//!            it back
//!   asleep   after the sleep phase, only if an island fell asleep: in parallel over the
//!            events, fell_asleep = the body now rests in a sleeping set
//! ```
//!
//! Neither pass is serial over the awake bodies, and both give the same array for any worker
//! count. The array is refilled every step and reused, so a steady world does not allocate.
//! (Chunks that filled lists of their own, copied into the array by the serial part, spent
//! 31–37 µs a step on that copy in `many_pyramids` at two workers: 22,000 events.)

use crate::body::Body;
use crate::profile::zone;
use crate::solver_set::FIRST_SLEEPING_SET;
use crate::world::World;
use core_soa::{Arena, BodyId, BodySim, BodyState, Rot, Transform, Vec2, body_flags};
use workers::Piece;

/// Events per parallel task of the `asleep` pass.
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
        if self.parallel_step {
            let mut chunks: Vec<_> = self.move_events.chunks_mut(MOVE_CHUNK).collect();
            workers::for_each_mut(&mut chunks, |_, chunk| {
                zone!("events_asleep chunk");
                chunk.iter_mut().for_each(mark);
            });
        } else {
            self.move_events.iter_mut().for_each(mark);
        }
    }
}

/// Pushes into `moves` the move events of one chunk of the awake set whose first body has
/// awake-set index `first`, and appends to `bullets` each bullet's awake-set index with the
/// position of its event in `moves` (the bullets' sweep may still move it).
pub(crate) fn record_chunk_moves(
    bodies: &Arena<Body, BodyId>,
    (sims, states): (&[BodySim], &[BodyState]),
    first: u32,
    moves: &mut Piece<'_, BodyMoveEvent>,
    bullets: &mut Vec<(u32, u32)>,
) {
    for (offset, (sim, state)) in sims.iter().zip(states).enumerate() {
        if state.delta_position == Vec2::ZERO && state.delta_rotation == Rot::IDENTITY {
            continue;
        }
        let Some((body, record)) = bodies.key_at(sim.body).zip(bodies.get_by_index(sim.body))
        else {
            continue;
        };
        if state.flags & body_flags::BULLET != 0 {
            bullets.push((first + offset as u32, moves.len() as u32));
        }
        moves.push(BodyMoveEvent {
            body,
            transform: sim.transform,
            user_data: record.user_data,
            fell_asleep: false,
        });
    }
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
