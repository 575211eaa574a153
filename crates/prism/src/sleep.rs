//! Sleep: resting islands leave the step; touching, joints and user edits bring them back.
//!
//! ## The step phase ([`World::update_sleep`], after finalize)
//!
//! ```text
//!   timers     every awake body: t ← t + dt while max(|v|, r·|ω|) ≤ threshold, else 0
//!   kinematic  a moving kinematic body resets the timers of the bodies it touches or is
//!              jointed to (and wakes any sleeping island among them)
//!   record     every awake dynamic body's timer into its island (min and max per island)
//!   split      one candidate island: the sleepiest one with pending constraint removals
//!   sleep      every island whose least rested body has rested ≥ 0.5 s → a sleeping set
//! ```
//!
//! `r` is the body's extent (see `island.rs`), so `r·|ω|` is the speed of its farthest point
//! due to rotation and the threshold (0.05 m/s by default) bounds every point's speed, within a
//! factor 2 (Box2D's choice; `island::sleep_speed`). An island sleeps only as a whole, so the
//! least rested body decides; a body with sleep disabled keeps its timer at 0 and therefore its
//! island awake, and a world with sleep disabled skips the phase.
//!
//! Kinematic bodies are not island vertices (they are not solved, so they do not couple the
//! bodies they touch) and never sleep; they stay in the awake set. A kinematic body moving
//! faster than its threshold counts as a disturbance of everything it touches or is jointed
//! to: those bodies' timers restart, so a platform carrying boxes keeps them awake, and one
//! that starts moving under a sleeping pile wakes it (also when the user sets its velocity).
//! (Box2D instead lets the kinematic body's own timer decide; with kinematic bodies outside
//! the islands, this is the rule that keeps a carried box from sleeping on a moving platform.)
//!
//! Cost: one pass over the awake bodies, plus each moving kinematic body's contact and joint
//! lists; the
//! split is one island's union-find; putting an island to sleep is proportional to its size.
//! Sleeping bodies cost nothing here.
//!
//! ## Waking
//!
//! A sleeping island wakes when one of its bodies begins touching an awake body (the link in
//! `island.rs`), when a joint is created to one of its bodies or destroyed or broken, when the
//! user edits one of its bodies (pose, velocity, force, torque, impulse,
//! mass) or calls [`World::set_awake`], when one of its contacts is destroyed (a shape or body
//! destroyed), and when sleep is disabled for the world or one of its bodies. Waking resets the
//! island's timers, so it stays awake at least the time to sleep.
//!
//! ## Events
//!
//! Each island that falls asleep or wakes reports its bodies ([`BodyEvents`]). Events are
//! collected from the end of one step's sleep phase to the end of the next, so what
//! [`World::body_events`] returns after a step covers that step and the calls made before it.

use crate::body::AWAKE_SET;
use crate::error::{PrismError, non_negative};
use crate::profile::zone;
use crate::world::World;
use core_soa::{BodyId, BodyType};
use island::{IslandId, TIME_TO_SLEEP, update_sleep_time};

/// A body fell asleep with its island.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodySleepEvent {
    pub body: BodyId,
    /// The island it sleeps in (valid until the island is merged or split after waking).
    pub island: IslandId,
}

/// A body woke up with its island.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyWakeEvent {
    pub body: BodyId,
    /// The island that woke.
    pub island: IslandId,
}

/// The bodies that fell asleep and woke, in the order it happened (an island's bodies
/// together, in island order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BodyEvents {
    pub sleep: Vec<BodySleepEvent>,
    pub wake: Vec<BodyWakeEvent>,
}

/// The published events of the last step and those collected since its sleep phase.
#[derive(Clone, Debug, Default)]
pub(crate) struct BodyEventBuffers {
    published: BodyEvents,
    pending: BodyEvents,
}

impl BodyEventBuffers {
    pub(crate) fn record_sleep(&mut self, body: BodyId, island: IslandId) {
        self.pending.sleep.push(BodySleepEvent { body, island });
    }

    pub(crate) fn record_wake(&mut self, body: BodyId, island: IslandId) {
        self.pending.wake.push(BodyWakeEvent { body, island });
    }

    /// A paused step: nothing is published, what was collected waits for the next step.
    pub(crate) fn pause(&mut self) {
        self.published = BodyEvents::default();
    }

    /// Publishes what was collected and starts collecting anew.
    fn publish(&mut self) {
        self.published = std::mem::take(&mut self.pending);
    }
}

impl World {
    /// Step phase 6 (see the module notes).
    pub(crate) fn update_sleep(&mut self, dt: f32) {
        zone!("islands");
        if self.def.enable_sleep {
            self.advance_sleep_timers(dt);
            self.disturb_bodies_touching_moving_kinematics();
            self.record_sleep_times();
            if let Some(island) = self.islands.graph.split_candidate(TIME_TO_SLEEP) {
                let split = self.islands.graph.split(island);
                debug_assert!(split.is_ok(), "split {island:?}: {split:?}");
            }
            for island in self.islands.graph.islands_ready_to_sleep(TIME_TO_SLEEP) {
                let slept = self.sleep_island(island);
                debug_assert!(slept.is_ok(), "sleep {island:?}: {slept:?}");
            }
        }
        self.islands.events.publish();
    }

    /// Advances the sleep timer of every awake body.
    fn advance_sleep_timers(&mut self, dt: f32) {
        let set = &self.solver_sets[AWAKE_SET as usize];
        for (sim, state) in set.sims().iter().zip(set.states()) {
            let extent = self.body_extent(sim.body);
            let Some(body) = self.bodies.get_by_index_mut(sim.body) else {
                continue;
            };
            let linear = state.linear_velocity.length();
            let angular = extent * state.angular_velocity.abs();
            let time =
                update_sleep_time(body.sleep_time, linear, angular, body.sleep_threshold, dt);
            // A body that may not sleep never accumulates rest, except a kinematic body, whose
            // timer says only whether it moves (it never sleeps: it has no island).
            let may_rest = body.enable_sleep || body.body_type == BodyType::Kinematic;
            body.sleep_time = if may_rest { time } else { 0.0 };
        }
    }

    /// Restarts the timers of bodies touching or jointed to a moving kinematic body and wakes
    /// the sleeping islands among them (see the module notes).
    fn disturb_bodies_touching_moving_kinematics(&mut self) {
        let set = &self.solver_sets[AWAKE_SET as usize];
        let movers: Vec<u32> = set
            .sims()
            .iter()
            .map(|sim| sim.body)
            .filter(|&index| {
                self.bodies.get_by_index(index).is_some_and(|body| {
                    body.body_type == BodyType::Kinematic && body.sleep_time == 0.0
                })
            })
            .collect();
        for mover in movers {
            self.wake_touching_islands(mover);
            for contact in self.contacts_of_body(mover) {
                let Some(sim) = self.contact_sim(contact).filter(|sim| sim.touching) else {
                    continue;
                };
                let other = if sim.body_a == mover {
                    sim.body_b
                } else {
                    sim.body_a
                };
                if let Some(body) = self.bodies.get_by_index_mut(other) {
                    body.sleep_time = 0.0;
                }
            }
            for other in self.jointed_bodies(mover) {
                if let Some(body) = self.bodies.get_by_index_mut(other) {
                    body.sleep_time = 0.0;
                }
            }
        }
    }

    /// Records every awake dynamic body's timer into its island for this step's decisions.
    fn record_sleep_times(&mut self) {
        self.islands.graph.begin_sleep_pass();
        let set = &self.solver_sets[AWAKE_SET as usize];
        for sim in set.sims() {
            let Some(body) = self.bodies.get_by_index(sim.body) else {
                continue;
            };
            if body.body_type == BodyType::Dynamic {
                let recorded = self
                    .islands
                    .graph
                    .record_sleep_time(sim.body, body.sleep_time);
                debug_assert!(recorded.is_ok(), "sleep record of {}", sim.body);
            }
        }
    }

    /// Wakes body `body_index` (arena index) and restarts its sleep timer: a dynamic body's
    /// island wakes if it sleeps; a static or kinematic body wakes the islands it touches.
    pub(crate) fn wake_body(&mut self, body_index: u32) {
        let Some(body) = self.bodies.get_by_index_mut(body_index) else {
            return;
        };
        body.sleep_time = 0.0;
        if body.body_type == BodyType::Dynamic {
            self.wake_island_of(body_index);
        } else {
            self.wake_touching_islands(body_index);
        }
    }

    /// Whether bodies may fall asleep in this world.
    pub fn is_sleep_enabled(&self) -> bool {
        self.def.enable_sleep
    }

    /// Enables or disables sleeping for the whole world. Disabling wakes every sleeping island;
    /// enabling restarts every awake body's timer.
    pub fn set_sleep_enabled(&mut self, enabled: bool) {
        if enabled == self.def.enable_sleep {
            return;
        }
        self.def.enable_sleep = enabled;
        if enabled {
            self.restart_awake_timers();
        } else {
            let sets: Vec<_> = self
                .islands
                .sets
                .sleeping_sets()
                .map(|(set, _)| set)
                .collect();
            for set in sets {
                self.wake_set(set);
            }
        }
    }

    /// Whether `id` may fall asleep (an island with such a body never sleeps).
    pub fn is_body_sleep_enabled(&self, id: BodyId) -> Result<bool, PrismError> {
        Ok(self.body(id)?.enable_sleep)
    }

    /// Enables or disables sleep for one body; disabling wakes its island.
    pub fn set_body_sleep_enabled(&mut self, id: BodyId, enabled: bool) -> Result<(), PrismError> {
        self.body(id)?;
        if !enabled {
            self.wake_body(id.index());
        }
        if let Some(body) = self.bodies.get_mut(id) {
            body.enable_sleep = enabled;
        }
        Ok(())
    }

    /// The speed (m/s) below which the body counts as resting.
    pub fn sleep_threshold(&self, id: BodyId) -> Result<f32, PrismError> {
        Ok(self.body(id)?.sleep_threshold)
    }

    /// Sets the speed (m/s, finite, ≥ 0) below which the body counts as resting.
    pub fn set_sleep_threshold(&mut self, id: BodyId, threshold: f32) -> Result<(), PrismError> {
        non_negative("sleep_threshold", threshold)?;
        self.body(id)?;
        if let Some(body) = self.bodies.get_mut(id) {
            body.sleep_threshold = threshold;
        }
        Ok(())
    }

    /// How long (s) the body has been resting (0 for a body that moves or may not sleep).
    pub fn sleep_time(&self, id: BodyId) -> Result<f32, PrismError> {
        Ok(self.body(id)?.sleep_time)
    }

    /// Whether the body is in the awake set: dynamic bodies whose island is not asleep, and
    /// kinematic bodies. Static bodies are never awake.
    pub fn is_awake(&self, id: BodyId) -> Result<bool, PrismError> {
        Ok(self.body(id)?.set_index == AWAKE_SET)
    }

    /// Wakes the body (see [`World::wake_body`] in the module notes), or puts its island to
    /// sleep at once: it is split first if it has pending constraint removals, and only the
    /// part holding this body sleeps. Putting a static or kinematic body to sleep does nothing.
    pub fn set_awake(&mut self, id: BodyId, awake: bool) -> Result<(), PrismError> {
        self.body(id)?;
        if awake {
            self.wake_body(id.index());
            return Ok(());
        }
        let Some(island) = self.island_of_body(id.index()) else {
            return Ok(());
        };
        if self.islands.sets.is_asleep(island) {
            return Ok(());
        }
        let pending = self.islands.graph.constraint_remove_count(island);
        if pending.is_ok_and(|count| count > 0) {
            let split = self.islands.graph.split(island);
            debug_assert!(split.is_ok(), "split {island:?}: {split:?}");
        }
        if let Some(island) = self.island_of_body(id.index()) {
            let slept = self.sleep_island(island);
            debug_assert!(slept.is_ok(), "sleep {island:?}: {slept:?}");
        }
        Ok(())
    }

    /// The island of a dynamic body (`None` for static and kinematic bodies). Island ids change
    /// when islands merge or split.
    pub fn body_island(&self, id: BodyId) -> Result<Option<IslandId>, PrismError> {
        self.body(id)?;
        Ok(self.island_of_body(id.index()))
    }

    /// The bodies that fell asleep or woke during the last step (and through calls made since
    /// the step before it).
    pub fn body_events(&self) -> &BodyEvents {
        &self.islands.events.published
    }

    /// The number of islands, awake and asleep.
    pub(crate) fn island_count(&self) -> usize {
        self.islands.graph.island_count()
    }

    /// Restarts the timer of every awake body.
    fn restart_awake_timers(&mut self) {
        let set = &self.solver_sets[AWAKE_SET as usize];
        for sim in set.sims() {
            if let Some(body) = self.bodies.get_by_index_mut(sim.body) {
                body.sleep_time = 0.0;
            }
        }
    }
}
