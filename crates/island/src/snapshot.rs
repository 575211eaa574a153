//! Snapshot encoding (core-soa's `snapshot` codec) of the islands and the sleeping-set table,
//! as they are: island slots and their body and constraint lists in order, every body's and
//! constraint's link, the sleep-recording pass, and the sleeping-set ids with their free list.
//! A restored graph therefore splits, merges and falls asleep exactly as the original would.
//! The split's scratch is not written.
//!
//! Decoding checks the table's own bounds (the island-in-set table covers every set id ever
//! handed out). Whether the islands agree with the world's bodies and constraints is checked by
//! the owner with [`IslandGraph::validate`] and [`SolverSets::validate`].

use crate::island_graph::{BodyLink, ConstraintLink, ConstraintLinks, Island};
use crate::sleep::RestRecord;
use crate::{
    ConstraintKey, ConstraintKind, IslandGraph, IslandId, IslandRest, SolverSetId, SolverSets,
};
use core_soa::snap_struct;
use core_soa::snapshot::{Reader, Snap, SnapshotError, Writer};
use core_soa::{ArenaKey, Id};

snap_struct!(BodyLink {
    island,
    position,
    linked_constraints,
    sleep_time,
    sleep_pass,
});
snap_struct!(ConstraintLink { island, position });
snap_struct!(ConstraintLinks { contacts, joints });
snap_struct!(ConstraintKey { kind, index });
snap_struct!(Island {
    bodies,
    constraints,
    ends,
    constraint_remove_count,
    rest,
});
snap_struct!(RestRecord { pass, rest });
snap_struct!(IslandRest {
    min_sleep_time,
    max_sleep_time
});
snap_struct!(IslandGraph {
    islands,
    body_links,
    constraint_links,
    sleep_pass,
    rested_islands,
} skip { split_scratch });

impl Snap for ConstraintKind {
    fn put(&self, w: &mut Writer) {
        (*self as u8).put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        match u8::get(r)? {
            0 => Ok(ConstraintKind::Contact),
            1 => Ok(ConstraintKind::Joint),
            tag => Err(r.error("", format!("constraint kind tag {tag}"))),
        }
    }
}

impl Snap for IslandId {
    fn put(&self, w: &mut Writer) {
        self.id().put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        Ok(IslandId::from_id(Id::get(r)?))
    }
}

impl Snap for SolverSetId {
    fn put(&self, w: &mut Writer) {
        self.index().put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        Ok(SolverSetId::from_index(u32::get(r)?))
    }
}

impl Snap for SolverSets {
    fn put(&self, w: &mut Writer) {
        self.sleeping_ids.put(w);
        self.island_in_set.put(w);
        self.set_of_island.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        let sets = SolverSets {
            sleeping_ids: r.field("SolverSets.sleeping_ids")?,
            island_in_set: r.field("SolverSets.island_in_set")?,
            set_of_island: r.field("SolverSets.set_of_island")?,
        };
        if sets.island_in_set.len() < sets.sleeping_ids.capacity() {
            return Err(r.error("SolverSets.island_in_set", "shorter than the set ids"));
        }
        Ok(sets)
    }
}
