//! Solver sets: which set each island's bodies and constraints live in, and stable set ids.
//!
//! The World stores bodies and constraints per solver set, so that the per-step work touches
//! only the awake set's dense arrays:
//!
//! ```text
//!   set 0  static      bodies that never move
//!   set 1  disabled    bodies removed from the simulation but kept
//!   set 2  awake       everything the step touches
//!   set 3+ sleeping    one set per sleeping island
//! ```
//!
//! This type keeps only the bookkeeping: which island sleeps in which set, and which set ids are
//! free. Sleeping set ids come from an [`IdPool`], reused last-in first-out, so the id an island
//! receives depends only on the sequence of sleep and wake calls (deterministic), and the World's
//! table of sets stays as short as the largest number of islands ever asleep at once. An island
//! not asleep is in the awake set. Moving the actual data is the World's part.

use crate::{IslandError, IslandGraph, IslandId};
use core_soa::IdPool;

/// A solver set index: 0 static, 1 disabled, 2 awake, 3 and up one sleeping island each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SolverSetId(u32);

impl SolverSetId {
    /// Bodies that never move.
    pub const STATIC: SolverSetId = SolverSetId(0);
    /// Bodies taken out of the simulation.
    pub const DISABLED: SolverSetId = SolverSetId(1);
    /// Everything the step simulates.
    pub const AWAKE: SolverSetId = SolverSetId(2);
    /// The first sleeping set.
    pub const FIRST_SLEEPING: SolverSetId = SolverSetId(3);

    /// The set with index `index` (whether it is live is for [`SolverSets`] to say).
    #[inline]
    pub const fn from_index(index: u32) -> SolverSetId {
        SolverSetId(index)
    }

    /// The set's index, usable to index the World's table of sets.
    #[inline]
    pub const fn index(self) -> u32 {
        self.0
    }

    /// Whether this index is in the sleeping range (3 and up).
    #[inline]
    pub const fn is_sleeping(self) -> bool {
        self.0 >= Self::FIRST_SLEEPING.0
    }
}

/// Which island sleeps in which set, and the pool of sleeping set ids.
#[derive(Clone, Debug, Default)]
pub struct SolverSets {
    /// Hands out `set index - FIRST_SLEEPING`.
    pub(crate) sleeping_ids: IdPool,
    /// The island in each sleeping set, by `set index - FIRST_SLEEPING` (NULL when free).
    pub(crate) island_in_set: Vec<IslandId>,
    /// The sleeping set of each island, by island slot, with the island id it was issued for.
    pub(crate) set_of_island: Vec<Option<(IslandId, SolverSetId)>>,
}

impl SolverSets {
    /// No sleeping sets.
    pub fn new() -> Self {
        Self::default()
    }

    /// Puts `island` into a new sleeping set and returns the set. The island must be live,
    /// awake, and have no pending removals (split it first).
    pub fn sleep_island(
        &mut self,
        islands: &IslandGraph,
        island: IslandId,
    ) -> Result<SolverSetId, IslandError> {
        if islands.constraint_remove_count(island)? > 0 {
            return Err(IslandError::PendingRemovals(island));
        }
        if self.is_asleep(island) {
            return Err(IslandError::IslandAlreadyAsleep(island));
        }
        let offset = self.sleeping_ids.alloc();
        let set = SolverSetId(SolverSetId::FIRST_SLEEPING.0 + offset);
        if offset as usize >= self.island_in_set.len() {
            self.island_in_set
                .resize(offset as usize + 1, IslandId::NULL);
        }
        self.island_in_set[offset as usize] = island;
        let slot = island.index() as usize;
        if slot >= self.set_of_island.len() {
            self.set_of_island.resize(slot + 1, None);
        }
        self.set_of_island[slot] = Some((island, set));
        Ok(set)
    }

    /// Wakes the sleeping set `set`: frees its id for reuse and returns the island that was in
    /// it, which is now in the awake set.
    pub fn wake_set(&mut self, set: SolverSetId) -> Result<IslandId, IslandError> {
        let island = self
            .island_in(set)
            .ok_or(IslandError::NotASleepingSet(set))?;
        let offset = set.0 - SolverSetId::FIRST_SLEEPING.0;
        self.sleeping_ids.free(offset);
        self.island_in_set[offset as usize] = IslandId::NULL;
        if let Some(entry) = self.set_of_island.get_mut(island.index() as usize)
            && entry.is_some_and(|(id, _)| id == island)
        {
            *entry = None;
        }
        Ok(island)
    }

    /// Wakes `island` if it is asleep; returns the set it left, or `None` if it was awake.
    pub fn wake_island(&mut self, island: IslandId) -> Option<SolverSetId> {
        let set = self.sleeping_set_of(island)?;
        self.wake_set(set).ok()?;
        Some(set)
    }

    /// The sleeping set holding `island`, or `None` if it is awake (or the id is unknown).
    pub fn sleeping_set_of(&self, island: IslandId) -> Option<SolverSetId> {
        match self.set_of_island.get(island.index() as usize) {
            Some(&Some((id, set))) if id == island => Some(set),
            _ => None,
        }
    }

    /// The set `island` is in: its sleeping set, or [`SolverSetId::AWAKE`].
    pub fn set_of(&self, island: IslandId) -> SolverSetId {
        self.sleeping_set_of(island).unwrap_or(SolverSetId::AWAKE)
    }

    /// Whether `island` is in a sleeping set.
    pub fn is_asleep(&self, island: IslandId) -> bool {
        self.sleeping_set_of(island).is_some()
    }

    /// The island sleeping in `set`, if `set` is a live sleeping set.
    pub fn island_in(&self, set: SolverSetId) -> Option<IslandId> {
        let offset = set.0.checked_sub(SolverSetId::FIRST_SLEEPING.0)?;
        self.sleeping_ids
            .is_allocated(offset)
            .then(|| self.island_in_set[offset as usize])
    }

    /// The number of sleeping sets (= sleeping islands).
    pub fn sleeping_set_count(&self) -> usize {
        self.sleeping_ids.count()
    }

    /// One past the highest set index ever used: the length the World's table of sets needs.
    pub fn set_capacity(&self) -> usize {
        SolverSetId::FIRST_SLEEPING.0 as usize + self.sleeping_ids.capacity()
    }

    /// Every sleeping set with its island, in set order.
    pub fn sleeping_sets(&self) -> impl Iterator<Item = (SolverSetId, IslandId)> + '_ {
        self.sleeping_ids.iter().map(|offset| {
            (
                SolverSetId(SolverSetId::FIRST_SLEEPING.0 + offset),
                self.island_in_set[offset as usize],
            )
        })
    }
}
