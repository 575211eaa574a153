//! Sleep timers: per-body rest time, per-island aggregation, and the two per-step decisions it
//! drives (which island to split, which islands to put to sleep).
//!
//! ## The body timer
//!
//! A body has rested for `sleep_time` seconds when, for that long, no point of it has moved
//! faster than its sleep threshold (0.05 m/s by default). As Box2D v3 does, two speeds are
//! compared ([`sleep_speed`]): the fastest point's speed at the end of the step,
//! `|v| + r·|ω|` with `r` the largest distance from the centre of mass to the body's extent,
//! and half the average speed of the step's whole motion, `½·(|Δp| + r·|sin Δθ|)/dt`. The
//! second sees the solver's position correction, which moves a body during the substeps and
//! leaves no trace in its final velocity: a body being pushed out of an overlap is not at
//! rest. Any motion above the threshold resets the timer to zero; otherwise it grows by the
//! step's `dt`:
//!
//! ```text
//!   speed:  ▁▁▁▁▁▁█▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁     (█ above the threshold)
//!   timer:  ╱╱╱╱╱╱0╱╱╱╱╱╱╱╱╱╱╱╱╱╱╱╱─ 0.5 s → the body is ready
//! ```
//!
//! ## The island aggregate
//!
//! An island may sleep only as a whole, so what matters is its *least* rested body: the island
//! is ready when `min sleep_time ≥ time_to_sleep` (0.5 s). Each step the caller opens a pass
//! ([`IslandGraph::begin_sleep_pass`]) and records every awake body's timer
//! ([`IslandGraph::record_sleep_time`]); the graph folds each record into its island's minimum
//! and maximum. Islands that received no record this pass (sleeping ones) are never reported.
//!
//! ## Which island to split
//!
//! An island with pending constraint removals may secretly be several islands; it may not sleep
//! until it is split, because one moving part would keep a resting part awake forever (or a
//! resting part would drag a moving part to sleep). Splitting costs a pass over the island, so
//! one island is split per step, and the one chosen is the island whose *most* rested body has
//! rested longest, provided that body is past `time_to_sleep` ([`IslandGraph::split_candidate`]).
//! Using the maximum, not the minimum, matters: a pile where half the bodies rest and half still
//! move has a minimum of zero, yet splitting it is exactly what lets the resting half sleep.
//! Ties go to the larger island, then to the lower slot, so the choice is deterministic.

use crate::{IslandError, IslandGraph, IslandId};

/// The time a whole island must have rested before it sleeps (seconds).
pub const TIME_TO_SLEEP: f32 = 0.5;

/// The default speed below which a body counts as resting (m/s).
pub const DEFAULT_SLEEP_THRESHOLD: f32 = 0.05;

/// The speed compared with a body's sleep threshold (see the module notes): the fastest
/// point's speed `|v| + max_extent·|ω|`, or half the average speed `step_motion / dt` of the
/// step's whole motion if that is larger. `step_motion = |Δp| + max_extent·|sin Δθ|` bounds how
/// far any point moved in the step; pass 0 where no step was taken. A NaN in either speed
/// gives NaN (which [`update_sleep_time`] counts as motion), where `f32::max` would drop it.
#[inline]
pub fn sleep_speed(
    linear_speed: f32,
    angular_speed: f32,
    max_extent: f32,
    step_motion: f32,
    dt: f32,
) -> f32 {
    let point_speed = linear_speed + max_extent * angular_speed.abs();
    let motion_speed = 0.5 * step_motion / dt;
    if point_speed.is_nan() || motion_speed.is_nan() {
        return f32::NAN;
    }
    point_speed.max(motion_speed)
}

/// Advances a body's rest timer by one step of `dt` seconds: reset to 0 if its sleep speed
/// ([`sleep_speed`]) is above `threshold`, else `+ dt`. A NaN speed counts as motion, so a
/// body with a broken velocity never falls asleep.
#[inline]
pub fn update_sleep_time(sleep_time: f32, speed: f32, threshold: f32, dt: f32) -> f32 {
    if speed <= threshold {
        sleep_time + dt
    } else {
        0.0
    }
}

/// The rest summary of an island in the current pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IslandRest {
    /// The sleep time of the least rested body (the island sleeps when this reaches the time to
    /// sleep).
    pub min_sleep_time: f32,
    /// The sleep time of the most rested body (drives the split choice).
    pub max_sleep_time: f32,
}

/// An island's rest summary and the pass it belongs to (`pass == 0`: no record).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RestRecord {
    pub(crate) pass: u32,
    pub(crate) rest: Option<IslandRest>,
}

impl RestRecord {
    /// The summary if it was recorded in `pass`.
    pub(crate) fn current(self, pass: u32) -> Option<IslandRest> {
        self.rest.filter(|_| self.pass == pass)
    }

    /// Folds one body's sleep time into the record for `pass` (restarting a stale record).
    pub(crate) fn fold(&mut self, pass: u32, sleep_time: f32) {
        let rest = match self.current(pass) {
            Some(rest) => IslandRest {
                min_sleep_time: rest.min_sleep_time.min(sleep_time),
                max_sleep_time: rest.max_sleep_time.max(sleep_time),
            },
            None => IslandRest {
                min_sleep_time: sleep_time,
                max_sleep_time: sleep_time,
            },
        };
        *self = RestRecord {
            pass,
            rest: Some(rest),
        };
    }

    /// The record of a merged island: the combination if both halves are current, else none
    /// (a half without a record could hide a moving body).
    pub(crate) fn merged(a: RestRecord, b: RestRecord, pass: u32) -> RestRecord {
        match (a.current(pass), b.current(pass)) {
            (Some(a), Some(b)) => RestRecord {
                pass,
                rest: Some(IslandRest {
                    min_sleep_time: a.min_sleep_time.min(b.min_sleep_time),
                    max_sleep_time: a.max_sleep_time.max(b.max_sleep_time),
                }),
            },
            _ => RestRecord::default(),
        }
    }
}

impl IslandGraph {
    /// Starts a new recording pass: every island's rest summary is forgotten until its bodies
    /// are recorded again. Call once per step before recording.
    pub fn begin_sleep_pass(&mut self) {
        self.sleep_pass = self.sleep_pass.wrapping_add(1).max(1);
        self.rested_islands.clear();
    }

    /// Records a body's sleep time (from [`update_sleep_time`]) for this pass and folds it into
    /// its island's summary. Returns the body's island. A NaN time is recorded as 0 (awake).
    pub fn record_sleep_time(
        &mut self,
        body: u32,
        sleep_time: f32,
    ) -> Result<IslandId, IslandError> {
        let slot = self.live_body(body)?.island;
        let sleep_time = if sleep_time.is_nan() { 0.0 } else { sleep_time };
        let pass = self.sleep_pass;
        let link = &mut self.body_links[body as usize];
        link.sleep_time = sleep_time;
        link.sleep_pass = pass;
        let island = self.island_at_mut(slot);
        let first_record = island.rest.current(pass).is_none();
        island.rest.fold(pass, sleep_time);
        if first_record {
            self.rested_islands.push(slot);
        }
        Ok(self.key_at(slot))
    }

    /// Records a whole island's rest summary for this pass at once, for a caller that folds its
    /// bodies' timers itself (in parallel, say): the same as recording each body, except that
    /// the bodies' own records are not kept, so an island split in this pass gets no summary
    /// until the caller records one for each part. A NaN time counts as 0 (awake).
    pub fn record_island_rest(
        &mut self,
        island: IslandId,
        rest: IslandRest,
    ) -> Result<(), IslandError> {
        self.live_island(island)?;
        let clean = |t: f32| if t.is_nan() { 0.0 } else { t };
        let rest = IslandRest {
            min_sleep_time: clean(rest.min_sleep_time),
            max_sleep_time: clean(rest.max_sleep_time),
        };
        let pass = self.sleep_pass;
        let slot = island.index();
        let record = &mut self.island_at_mut(slot).rest;
        let first_record = record.current(pass).is_none();
        *record = RestRecord {
            pass,
            rest: Some(rest),
        };
        if first_record {
            self.rested_islands.push(slot);
        }
        Ok(())
    }

    /// How many island slots there are (live or free): island indices are below it.
    pub fn island_slot_count(&self) -> usize {
        self.islands.slot_count()
    }

    /// The live island in slot `slot`, if there is one.
    pub fn island_at_slot(&self, slot: u32) -> Option<IslandId> {
        self.islands.key_at(slot)
    }

    /// The island's rest summary for the current pass, or `None` if none of its bodies was
    /// recorded since (or since it was merged with an unrecorded island).
    pub fn island_rest(&self, island: IslandId) -> Result<Option<IslandRest>, IslandError> {
        Ok(self.live_island(island)?.rest.current(self.sleep_pass))
    }

    /// The island to split this step: among recorded islands with pending removals whose most
    /// rested body has rested at least `time_to_sleep`, the one with the largest such time;
    /// ties go to more bodies, then to the lower slot. `None` if there is none.
    pub fn split_candidate(&self, time_to_sleep: f32) -> Option<IslandId> {
        let mut best: Option<(f32, usize, u32)> = None;
        for slot in self.recorded_slots() {
            let Some(island) = self.islands.get_by_index(slot) else {
                continue;
            };
            let Some(rest) = island.rest.current(self.sleep_pass) else {
                continue;
            };
            if island.constraint_remove_count == 0 || rest.max_sleep_time < time_to_sleep {
                continue;
            }
            let entry = (rest.max_sleep_time, island.bodies.len(), slot);
            let better = match best {
                None => true,
                Some((time, size, _)) => (entry.0, entry.1) > (time, size),
            };
            if better {
                best = Some(entry);
            }
        }
        best.map(|(_, _, slot)| self.key_at(slot))
    }

    /// The recorded islands whose least rested body has rested at least `time_to_sleep` and
    /// that have no pending removals, in slot order. The caller moves each into a sleeping set.
    pub fn islands_ready_to_sleep(&self, time_to_sleep: f32) -> Vec<IslandId> {
        self.recorded_slots()
            .into_iter()
            .filter(|&slot| {
                self.islands.get_by_index(slot).is_some_and(|island| {
                    island.constraint_remove_count == 0
                        && island
                            .rest
                            .current(self.sleep_pass)
                            .is_some_and(|rest| rest.min_sleep_time >= time_to_sleep)
                })
            })
            .map(|slot| self.key_at(slot))
            .collect()
    }

    /// Slots of live islands recorded in this pass, sorted and without repeats.
    fn recorded_slots(&self) -> Vec<u32> {
        let mut slots: Vec<u32> = self
            .rested_islands
            .iter()
            .copied()
            .filter(|&slot| {
                self.islands
                    .get_by_index(slot)
                    .is_some_and(|island| island.rest.current(self.sleep_pass).is_some())
            })
            .collect();
        slots.sort_unstable();
        slots.dedup();
        slots
    }

    /// Recomputes an island's rest record from its bodies' records of this pass (after a
    /// split): current only if every body was recorded in this pass.
    pub(crate) fn recompute_rest(&mut self, slot: u32) {
        let pass = self.sleep_pass;
        let island = self.islands.get_by_index(slot).expect("live island");
        let mut record = RestRecord::default();
        for &body in &island.bodies {
            let link = &self.body_links[body as usize];
            if link.sleep_pass != pass {
                record = RestRecord::default();
                break;
            }
            record.fold(pass, link.sleep_time);
        }
        if record.current(pass).is_some() {
            self.rested_islands.push(slot);
        }
        self.island_at_mut(slot).rest = record;
    }
}
