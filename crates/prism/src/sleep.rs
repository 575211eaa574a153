//! Sleep: resting islands leave the step; touching, joints and user edits bring them back.
//!
//! ## The step phase
//!
//! The per-body work happens inside the parallel finalize (`finalize.rs`): every awake body's
//! timer advances (`t ← t + dt` while its sleep speed `≤ threshold`, else 0) and every dynamic
//! body folds its timer into its island's least and most rested times, an atomic minimum and
//! maximum per island slot ([`IslandRestTable`]), which lists the slots it touched. What is left
//! runs serially here, and costs O(awake islands), not O(bodies) or O(all islands):
//!
//! ```text
//!   kinematic  a moving kinematic body resets the timers of the bodies it touches or is
//!              jointed to (and wakes any sleeping island among them)     O(its constraints)
//!   record     each awake island's rest, read from the touched slots    O(awake islands)
//!   split      one candidate island: the sleepiest one with pending
//!              constraint removals                                       O(its size)
//!   sleep      every island whose least rested body has rested ≥ 0.5 s
//!              → a sleeping set                                          O(its size)
//! ```
//!
//! When no kinematic body moved and no bullet flies, record and split ([`settle_rests`]) need
//! nothing the rest of the finalize still writes, so the finalize runs them beside its own
//! serial part (the escaped proxies and the tree refit) and only the sleep step is left here;
//! the order of operations on the islands is the same, and so is the result.
//!
//! The sleep speed (`island::sleep_speed`, as Box2D v3 measures it) is the larger of the
//! fastest point's speed `|v| + r·|ω|`, `r` the body's extent (`mass.rs`), and half the average
//! speed of the step's whole motion, which sees the substeps' position correction; the
//! threshold (0.05 m/s by default) bounds both. An island sleeps only as a whole, so the least
//! rested body decides; a body with sleep disabled keeps its timer at 0 and therefore its
//! island awake, and a world with sleep disabled skips the timers and the phase.
//!
//! Kinematic bodies are not island vertices (they are not solved, so they do not couple the
//! bodies they touch) and never sleep; they stay in the awake set. A kinematic body moving
//! faster than its threshold counts as a disturbance of everything it touches or is jointed
//! to: those bodies' timers restart, so a platform carrying boxes keeps them awake, and one
//! that starts moving under a sleeping pile wakes it (also when the user sets its velocity).
//! (Box2D instead lets the kinematic body's own timer decide; with kinematic bodies outside
//! the islands, this is the rule that keeps a carried box from sleeping on a moving platform.)
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

use crate::body::Body;
use crate::error::{PrismError, non_negative};
use crate::profile::zone;
use crate::solver_set::AWAKE_SET;
use crate::solver_set::SolverSet;
use crate::world::World;
use core_soa::{Arena, BodyId, BodyType};
use island::{IslandGraph, IslandId, IslandRest, TIME_TO_SLEEP};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, PoisonError};

/// A body fell asleep with its island.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodySleepEvent {
    /// The body that fell asleep.
    pub body: BodyId,
    /// The island it sleeps in (valid until the island is merged or split after waking).
    pub island: IslandId,
}

/// A body woke up with its island.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyWakeEvent {
    /// The body that woke.
    pub body: BodyId,
    /// The island that woke.
    pub island: IslandId,
}

/// The bodies that fell asleep and woke, in the order it happened (an island's bodies
/// together, in island order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BodyEvents {
    /// Bodies that fell asleep in the step.
    pub sleep: Vec<BodySleepEvent>,
    /// Bodies that woke in the step (or by a call since it).
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

/// Per island slot, the least and most rested bodies' timers of this step, folded in by the
/// parallel finalize. Sleep times are finite and non-negative, and such floats order as their
/// bits do, so an atomic minimum and maximum of the bits fold them in any order to the same
/// result. A slot no body folded into keeps the "no record" minimum `u32::MAX`.
///
/// The table has a slot for every island, asleep ones included, but a step touches only the
/// awake islands' slots: the first fold into a slot (the one whose atomic minimum still read
/// "no record") lists it, and the sleep phase and the next reset visit only the listed slots,
/// sorted — so a world of sleeping islands costs nothing here, and the order (slot order) is
/// the same for any worker count.
#[derive(Debug, Default)]
pub(crate) struct IslandRestTable {
    min: Vec<AtomicU32>,
    max: Vec<AtomicU32>,
    /// The slots folded into since the last reset, in the order the folds came.
    touched: Mutex<Vec<u32>>,
}

const NO_RECORD: u32 = u32::MAX;

impl IslandRestTable {
    /// Forgets every record; room for `slots` islands.
    pub(crate) fn reset(&mut self, slots: usize) {
        let touched = self
            .touched
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        for slot in touched.drain(..) {
            if let (Some(min), Some(max)) = (
                self.min.get_mut(slot as usize),
                self.max.get_mut(slot as usize),
            ) {
                *min.get_mut() = NO_RECORD;
                *max.get_mut() = 0;
            }
        }
        self.min.resize_with(slots, || AtomicU32::new(NO_RECORD));
        self.max.resize_with(slots, || AtomicU32::new(0));
    }

    /// Sorts the slots folded into since the last reset into increasing order and lends them
    /// out; hand them back with [`IslandRestTable::return_touched`] (the list is kept until the
    /// next reset, which clears those slots, and its room is reused step after step).
    fn take_touched_sorted(&mut self) -> Vec<u32> {
        let touched = self
            .touched
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        touched.sort_unstable();
        std::mem::take(touched)
    }

    /// Takes back the list lent by [`IslandRestTable::take_touched_sorted`].
    fn return_touched(&mut self, slots: Vec<u32>) {
        *self
            .touched
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner) = slots;
    }

    /// Folds the timers of bodies of island slot `slot`, least `min` and most `max`; true if
    /// this was the slot's first fold since the reset (the caller lists the slot).
    fn fold(&self, slot: u32, min: f32, max: f32) -> bool {
        let (Some(low), Some(high)) = (self.min.get(slot as usize), self.max.get(slot as usize))
        else {
            return false;
        };
        // A NaN timer (a broken velocity) counts as motion.
        let bits = |t: f32| if t >= 0.0 { t.to_bits() } else { 0 };
        let first = low.fetch_min(bits(min), Ordering::Relaxed) == NO_RECORD;
        high.fetch_max(bits(max), Ordering::Relaxed);
        first
    }

    /// Lists slots whose first fold came from the caller.
    fn list_touched(&self, slots: &[u32]) {
        if !slots.is_empty() {
            let mut touched = self.touched.lock().unwrap_or_else(PoisonError::into_inner);
            touched.extend_from_slice(slots);
        }
    }

    /// Island slot `slot`'s rest this step, if a body folded into it.
    fn rest(&self, slot: usize) -> Option<IslandRest> {
        let min = self.min.get(slot)?.load(Ordering::Relaxed);
        let max = self.max.get(slot)?.load(Ordering::Relaxed);
        (min != NO_RECORD).then(|| IslandRest {
            min_sleep_time: f32::from_bits(min),
            max_sleep_time: f32::from_bits(max),
        })
    }
}

/// One chunk's folding into an [`IslandRestTable`]: consecutive bodies of one island (the usual
/// case) are folded locally and written once.
pub(crate) struct RestFold<'a> {
    table: &'a IslandRestTable,
    current: Option<(u32, f32, f32)>,
    /// Slots this fold touched first, listed in the table at the end of the chunk.
    first_touched: Vec<u32>,
}

impl<'a> RestFold<'a> {
    pub(crate) fn new(table: &'a IslandRestTable) -> RestFold<'a> {
        RestFold {
            table,
            current: None,
            first_touched: Vec::new(),
        }
    }

    /// Folds one body's timer into island slot `slot`.
    #[inline]
    pub(crate) fn add(&mut self, slot: u32, time: f32) {
        match &mut self.current {
            Some((current, min, max)) if *current == slot => {
                *min = min.min(time);
                *max = max.max(time);
            }
            _ => {
                self.write_current();
                self.current = Some((slot, time, time));
            }
        }
    }

    /// Writes the island being folded locally into the table.
    fn write_current(&mut self) {
        if let Some((slot, min, max)) = self.current.take()
            && self.table.fold(slot, min, max)
        {
            self.first_touched.push(slot);
        }
    }

    /// Writes what is folded locally and lists the slots it touched first (call once at the
    /// end of the chunk).
    pub(crate) fn flush(&mut self) {
        self.write_current();
        self.table.list_touched(&self.first_touched);
        self.first_touched.clear();
    }
}

impl World {
    /// Step phase 6 (see the module notes): `moving_kinematics` are the kinematic bodies the
    /// finalize found moving.
    /// `rests_settled` says that the finalize already recorded the islands' rests and made
    /// the split, beside its own serial part (`World::settle_island_rests`).
    pub(crate) fn update_sleep(&mut self, moving_kinematics: &[u32], rests_settled: bool) {
        zone!("sleep");
        if self.def.enable_sleep {
            for &mover in moving_kinematics {
                self.disturb_around(mover);
            }
            if !rests_settled {
                self.settle_island_rests();
            }
            for island in self.islands.graph.islands_ready_to_sleep(TIME_TO_SLEEP) {
                let slept = self.sleep_island(island);
                debug_assert!(slept.is_ok(), "sleep {island:?}: {slept:?}");
            }
        }
        self.islands.events.publish();
    }

    /// Restarts the timers of bodies touching or jointed to moving kinematic body `mover` and
    /// wakes the sleeping islands among them (see the module notes).
    fn disturb_around(&mut self, mover: u32) {
        self.wake_touching_islands(mover);
        let touched = self
            .contacts_of_body(mover)
            .into_iter()
            .filter_map(|contact| {
                let record = self.contacts.get_by_index(contact)?;
                let touching = self.contact_sim(contact)?.touching;
                let (a, b) = (record.edges[0].body, record.edges[1].body);
                touching.then_some(if a == mover { b } else { a })
            });
        let disturbed: Vec<u32> = touched.chain(self.jointed_bodies(mover)).collect();
        for body in disturbed {
            if let Some((sim, _)) = self.body_sim_state_mut(body) {
                sim.sleep_time = 0.0;
            }
            if let Some(island) = self.island_of_body(body)
                && self.island_rest.fold(island.index(), 0.0, 0.0)
            {
                self.island_rest.list_touched(&[island.index()]);
            }
        }
    }

    /// Records this step's island rests and splits the candidate island, if any (see the
    /// module notes).
    pub(crate) fn settle_island_rests(&mut self) {
        let World {
            islands,
            island_rest,
            bodies,
            solver_sets,
            ..
        } = self;
        settle_rests(&mut islands.graph, island_rest, (bodies, solver_sets));
    }

    /// Splits `island` and records each part's rest from its bodies' timers.
    fn split_island(&mut self, island: IslandId) {
        let World {
            islands,
            bodies,
            solver_sets,
            ..
        } = self;
        split_and_record(&mut islands.graph, island, (bodies, solver_sets), None);
    }

    /// Wakes body `body_index` (arena index) and restarts its sleep timer: a dynamic body's
    /// island wakes if it sleeps; a static or kinematic body wakes the islands it touches.
    pub(crate) fn wake_body(&mut self, body_index: u32) {
        let Some(body_type) = self.bodies.get_by_index(body_index).map(|b| b.body_type) else {
            return;
        };
        if let Some((sim, _)) = self.body_sim_state_mut(body_index) {
            sim.sleep_time = 0.0;
        }
        if body_type == BodyType::Dynamic {
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
        Ok(self.sim(id)?.enable_sleep)
    }

    /// Enables or disables sleep for one body; disabling wakes its island.
    pub fn set_body_sleep_enabled(&mut self, id: BodyId, enabled: bool) -> Result<(), PrismError> {
        self.body(id)?;
        if !enabled {
            self.wake_body(id.index());
        }
        if let Some((sim, _)) = self.body_sim_state_mut(id.index()) {
            sim.enable_sleep = enabled;
        }
        Ok(())
    }

    /// The speed (m/s) below which the body counts as resting.
    pub fn sleep_threshold(&self, id: BodyId) -> Result<f32, PrismError> {
        Ok(self.sim(id)?.sleep_threshold)
    }

    /// Sets the speed (m/s, finite, ≥ 0) below which the body counts as resting.
    pub fn set_sleep_threshold(&mut self, id: BodyId, threshold: f32) -> Result<(), PrismError> {
        non_negative("sleep_threshold", threshold)?;
        self.body(id)?;
        if let Some((sim, _)) = self.body_sim_state_mut(id.index()) {
            sim.sleep_threshold = threshold;
        }
        Ok(())
    }

    /// How long (s) the body has been resting (0 for a body that moves or may not sleep).
    pub fn sleep_time(&self, id: BodyId) -> Result<f32, PrismError> {
        Ok(self.sim(id)?.sleep_time)
    }

    /// Whether the body is in the awake set: dynamic bodies whose island is not asleep, and
    /// kinematic bodies. Static bodies are never awake.
    pub fn is_awake(&self, id: BodyId) -> Result<bool, PrismError> {
        Ok(self.body(id)?.set_index == AWAKE_SET)
    }

    /// Wakes the body and the rest of its island, or puts its island to
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
            self.split_island(island);
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
        let set = &mut self.solver_sets[AWAKE_SET as usize];
        for sim in set.bodies.sims_mut() {
            sim.sleep_time = 0.0;
        }
    }
}

core_soa::snap_struct!(BodyEventBuffers { published, pending });

/// What the rest records read of the bodies: their cold records and the solver sets holding
/// their sims (for the sleep timers).
type BodyTimers<'a> = (&'a Arena<Body, BodyId>, &'a [SolverSet]);

/// The sleep timer of body `body_index`, wherever its sim is.
fn sleep_time(body_index: u32, (bodies, sets): BodyTimers<'_>) -> Option<f32> {
    let body = bodies.get_by_index(body_index)?;
    let set = sets.get(body.set_index as usize)?;
    let sim = set.bodies.sims().get(body.local_index as usize)?;
    Some(sim.sleep_time)
}

/// Hands the islands' rest times of this step (`rest`, filled by the finalize) to the island
/// graph, then splits the candidate island. Reads no broadphase or shape, so the finalize runs
/// it beside its own serial part.
pub(crate) fn settle_rests(
    graph: &mut IslandGraph,
    rest: &mut IslandRestTable,
    timers: BodyTimers<'_>,
) {
    graph.begin_sleep_pass();
    let slots = rest.take_touched_sorted();
    for &slot in &slots {
        let Some(rest) = rest.rest(slot as usize) else {
            continue;
        };
        if let Some(island) = graph.island_at_slot(slot) {
            let recorded = graph.record_island_rest(island, rest);
            debug_assert!(recorded.is_ok(), "rest of {island:?}: {recorded:?}");
        }
    }
    rest.return_touched(slots);
    if let Some(island) = graph.split_candidate(TIME_TO_SLEEP) {
        // The candidate's rest was recorded above, from this step's timers.
        let settled = graph.island_rest(island).ok().flatten();
        split_and_record(graph, island, timers, settled);
    }
}

/// Splits `island` and records each part's rest from its bodies' timers.
///
/// `settled` is the island's rest just recorded from this step's timers, if the caller has it:
/// when the island turns out to be still one piece, that rest stands and the timers are not
/// read again (a random access per body).
fn split_and_record(
    graph: &mut IslandGraph,
    island: IslandId,
    timers: BodyTimers<'_>,
    settled: Option<IslandRest>,
) {
    let parts = match graph.split(island) {
        Ok(parts) => parts,
        Err(error) => {
            debug_assert!(false, "split {island:?}: {error:?}");
            return;
        }
    };
    if let (Some(rest), [_]) = (settled, parts.as_slice()) {
        debug_assert_eq!(
            graph
                .bodies(island)
                .ok()
                .and_then(|b| rest_from_timers(b, timers)),
            Some(rest),
            "the settled rest of {island:?} is not its timers'"
        );
        let recorded = graph.record_island_rest(island, rest);
        debug_assert!(recorded.is_ok(), "rest of {island:?}: {recorded:?}");
        return;
    }
    for part in parts {
        let rest = graph
            .bodies(part)
            .ok()
            .and_then(|b| rest_from_timers(b, timers));
        if let Some(rest) = rest {
            let recorded = graph.record_island_rest(part, rest);
            debug_assert!(recorded.is_ok(), "rest of {part:?}: {recorded:?}");
        }
    }
}

/// The least and largest sleep timer of `bodies`, or `None` if no body has one.
fn rest_from_timers(bodies: &[u32], timers: BodyTimers<'_>) -> Option<IslandRest> {
    let times = bodies.iter().filter_map(|&body| sleep_time(body, timers));
    let (min, max) = times.fold((f32::INFINITY, 0.0f32), |(lo, hi), t| {
        (lo.min(t), hi.max(t))
    });
    min.is_finite().then_some(IslandRest {
        min_sleep_time: min,
        max_sleep_time: max,
    })
}
