//! Snapshots: the whole simulation state as a compact byte buffer, and back.
//!
//! [`World::snapshot`] writes everything a step reads or a later call observes;
//! [`World::from_snapshot`] builds a world from it and [`World::restore`] replaces a world's
//! state with it. A restored world steps **bitwise identically** to the one that was saved, for
//! any worker count, and saving it again gives the same bytes.
//!
//! ## Why a raw dump
//!
//! Rebuilding a world through the creation API (create every body, shape and joint again)
//! would not give the same bits: the step's results depend on the exact internal order of
//! everything — arena slots and their free lists (the ids the next creation gets), the order of
//! bodies in each solver set, the colour each constraint sits in and its slot there (the
//! solver's Gauss-Seidel order), each broadphase tree's node layout (the order pairs are found
//! and the shape of every partial rebuild), the move buffer, the islands' body and constraint
//! lists (split order, sleep), and the contacts' cached impulses and recycling frames. So the
//! snapshot is a dump of the internal structures as they are, field by field, and a restore is
//! their decoding: no structure is rebuilt, so nothing can come out in a different order.
//!
//! What is *not* state: the worker threads (a restored world runs on any worker count, and
//! determinism holds for any count), the hooks (closures cannot be saved: after
//! [`World::from_snapshot`] set the custom filter and the pre-solve hook again; [`World::restore`]
//! keeps the world's own), the profile of the last step, and scratch that every step rebuilds
//! before reading (the solver's bundles and stages, the tree's search and build buffers, the
//! island split's arrays, the per-step island rest table). The last step's events are state:
//! a restored world reports the same events as the saved one until it steps.
//!
//! ## Format
//!
//! ```text
//!   magic       8 bytes   "PRISMSNP"
//!   version     u32       FORMAT_VERSION; any other is refused
//!   length      u64       payload bytes
//!   checksum    u64       over the payload (below)
//!   payload               the world's structures in a fixed order (`encode_world`)
//! ```
//!
//! The payload uses core-soa's small codec (`core_soa::snapshot`): little-endian fixed-width
//! fields, `f32` as its bits, a `u32` count before each array, a tag byte per enum. It is our
//! own rather than serde with a format crate because it must reach private fields in six
//! crates (each crate implements it for its own types, next to their definitions), must be
//! bit-exact for floats, and must refuse hostile lengths before allocating — a few hundred
//! lines we control fully, with no dependency.
//!
//! The checksum is FNV-1a's multiply-xor run over 64-bit little-endian words (the last partial
//! word byte by byte): `h = (h ^ word) · P` with FNV's 64-bit prime `P`. Each step is a
//! bijection of `h` (the prime is odd), so any change confined to one word — every single
//! byte or bit flip — always changes the result, and other random corruption is missed with
//! probability about 2⁻⁶⁴. Words make it eight times faster than the byte-wise FNV-1a.
//!
//! ## Hostile buffers
//!
//! A buffer that passes the checksum may still be forged. Decoding never trusts a length (see
//! `core_soa::snapshot`), checks every tag and every value with a fixed range as it reads, and
//! checks each tree's links and each arena's free list as it decodes them. Then the decoded
//! world is checked as a whole (`snapshot/check.rs`) before it is handed out: every index the
//! step follows is in bounds and every cross-reference agrees in both directions. Anything
//! wrong returns [`PrismError::Snapshot`] naming the field or check and the reason.

mod check;
mod codec;

use crate::error::PrismError;
use crate::graph::Graph;
use crate::hooks::Hooks;
use crate::particle_world::ParticleSystems;
use crate::profile::StepProfile;
use crate::shape::{ShapeRecord, ShapeSizes};
use crate::sleep::IslandRestTable;
use crate::world::{World, start_workers};
use core_soa::snapshot::{Reader, Snap, SnapshotError, Writer};
use core_soa::{Arena, ShapeId};
use solver_simd::ContactSolver;
use std::sync::Arc;
use workers::Workers;

/// The first bytes of every snapshot.
const MAGIC: [u8; 8] = *b"PRISMSNP";

/// The version of the payload layout; a snapshot of any other version is refused. (2: contact
/// sims no longer carry the narrowphase's change of state, which never outlives a step. 3: an
/// island lists each constraint's two bodies beside it, and the constraint records no longer
/// carry them.)
pub const SNAPSHOT_FORMAT_VERSION: u32 = 3;

/// The most worker threads [`World::from_snapshot`] starts: a forged count must not make it
/// spawn billions (restore into a world made with more to run on more).
pub const MAX_SNAPSHOT_WORKERS: u32 = 256;

/// Magic, version, payload length, checksum.
const HEADER_BYTES: usize = 8 + 4 + 8 + 8;

/// FNV's 64-bit offset basis and prime.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The payload checksum (see the module essay).
fn checksum(payload: &[u8]) -> u64 {
    let mut hash = FNV_OFFSET;
    let mut words = payload.chunks_exact(8);
    for word in &mut words {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(word);
        hash = (hash ^ u64::from_le_bytes(bytes)).wrapping_mul(FNV_PRIME);
    }
    for &byte in words.remainder() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME);
    }
    hash
}

/// A codec error as the world reports it.
fn snapshot_error(error: SnapshotError) -> PrismError {
    PrismError::Snapshot {
        what: error.what,
        reason: format!("{} (at payload byte {})", error.reason, error.offset),
    }
}

/// A refusal of the header or of the whole-world check.
pub(crate) fn refuse(what: &str, reason: impl Into<String>) -> PrismError {
    PrismError::Snapshot {
        what: what.to_string(),
        reason: reason.into(),
    }
}

impl World {
    /// The whole simulation state as a versioned, checksummed byte buffer (see the `snapshot`
    /// module for what it holds and its format). Restore it with [`World::from_snapshot`] or
    /// [`World::restore`]; the restored world steps bitwise identically to this one.
    ///
    /// Errors: [`PrismError::Snapshot`] if the world has particle systems — their state
    /// (which may hold user-defined constraints and force fields) is not saved, and a snapshot
    /// that silently dropped it would not restore the simulation.
    pub fn snapshot(&self) -> Result<Vec<u8>, PrismError> {
        if self.particles.system_count() > 0 {
            return Err(refuse(
                "World.particle_systems",
                format!(
                    "{} particle systems: worlds with particle systems cannot be saved",
                    self.particles.system_count()
                ),
            ));
        }
        let mut payload = Writer::new();
        self.encode_world(&mut payload);
        let payload = payload.into_bytes();
        let mut out = Vec::with_capacity(HEADER_BYTES + payload.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&SNAPSHOT_FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&checksum(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        Ok(out)
    }

    /// A world rebuilt from a snapshot, running on the saved `WorldDef::worker_count` threads
    /// (use [`World::restore`] on a world with another count to choose). No hooks are set:
    /// set the custom filter and the pre-solve hook again if the saved world had them.
    ///
    /// Errors: [`PrismError::Snapshot`] for a buffer that is truncated, corrupted, of another
    /// format version, or inconsistent; [`PrismError::ThreadPool`] if the threads cannot start.
    pub fn from_snapshot(bytes: &[u8]) -> Result<World, PrismError> {
        let payload = open_payload(bytes)?;
        let mut reader = Reader::new(payload);
        let def: crate::def::WorldDef = reader.field("World.def").map_err(snapshot_error)?;
        def.validate()
            .map_err(|error| refuse("World.def", error.to_string()))?;
        if def.worker_count > MAX_SNAPSHOT_WORKERS {
            let count = def.worker_count;
            return Err(refuse(
                "World.def.worker_count",
                format!("{count} workers, more than {MAX_SNAPSHOT_WORKERS}"),
            ));
        }
        let workers = start_workers(def.worker_count)?;
        decode_world(def, reader, workers, Hooks::default())
    }

    /// Replaces this world's whole state with a snapshot's: bodies, shapes, contacts, joints,
    /// islands, events and settings. The world keeps its worker threads (so its worker count —
    /// results do not depend on it), where its light steps run
    /// ([`World::set_light_steps_on_caller`]) and its hooks. On error nothing changes.
    ///
    /// Errors: as [`World::from_snapshot`].
    pub fn restore(&mut self, bytes: &[u8]) -> Result<(), PrismError> {
        let payload = open_payload(bytes)?;
        let mut reader = Reader::new(payload);
        let mut def: crate::def::WorldDef = reader.field("World.def").map_err(snapshot_error)?;
        def.worker_count = self.def.worker_count;
        def.validate()
            .map_err(|error| refuse("World.def", error.to_string()))?;
        let workers = Arc::clone(&self.workers);
        let mut restored = decode_world(def, reader, workers, Hooks::default())?;
        restored.hooks = std::mem::take(&mut self.hooks);
        restored.light_steps_on_caller = self.light_steps_on_caller;
        *self = restored;
        Ok(())
    }

    /// The payload: every structure in a fixed order (the world's definition first, so a
    /// restore can start the worker threads before reading the rest).
    fn encode_world(&self, w: &mut Writer) {
        self.def.put(w);
        self.bodies.put(w);
        self.solver_sets.put(w);
        self.graph.put(w);
        self.shapes.put(w);
        self.contacts.put(w);
        self.joints.put(w);
        self.broadphase.put(w);
        self.islands.put(w);
        let kinematic: Vec<u32> = self.kinematic_bodies.iter().copied().collect();
        kinematic.put(w);
        self.events.put(w);
        self.sensors.put(w);
        self.move_events.put(w);
        self.diverged.put(w);
        self.next_chain_id.put(w);
    }
}

/// The payload of a snapshot whose header is sound and whose checksum matches.
fn open_payload(bytes: &[u8]) -> Result<&[u8], PrismError> {
    if bytes.len() < HEADER_BYTES {
        let length = bytes.len();
        return Err(refuse(
            "header",
            format!("{length} bytes, shorter than a header"),
        ));
    }
    let (header, payload) = bytes.split_at(HEADER_BYTES);
    let mut reader = Reader::new(header);
    let field = |reader: &mut Reader<'_>, n: usize| -> Vec<u8> {
        reader.take(n).map(<[u8]>::to_vec).unwrap_or_default()
    };
    if field(&mut reader, 8) != MAGIC {
        return Err(refuse("header.magic", "not a Prism snapshot"));
    }
    let number = |reader: &mut Reader<'_>, n: usize| {
        let mut bytes = [0u8; 8];
        bytes[..n].copy_from_slice(&field(reader, n));
        u64::from_le_bytes(bytes)
    };
    let version = number(&mut reader, 4);
    if version != u64::from(SNAPSHOT_FORMAT_VERSION) {
        return Err(refuse(
            "header.version",
            format!("format {version}, this build reads {SNAPSHOT_FORMAT_VERSION}"),
        ));
    }
    let length = number(&mut reader, 8);
    if length != payload.len() as u64 {
        let actual = payload.len();
        return Err(refuse(
            "header.length",
            format!("{length} payload bytes announced, {actual} present"),
        ));
    }
    if number(&mut reader, 8) != checksum(payload) {
        return Err(refuse("header.checksum", "the payload is corrupted"));
    }
    Ok(payload)
}

/// The world the rest of the payload describes, checked as a whole.
fn decode_world(
    def: crate::def::WorldDef,
    mut r: Reader<'_>,
    workers: Arc<Workers>,
    hooks: Hooks,
) -> Result<World, PrismError> {
    let world = decode_parts(def, &mut r, workers, hooks).map_err(snapshot_error)?;
    r.finish().map_err(snapshot_error)?;
    world.check_snapshot()?;
    Ok(world)
}

/// Decodes the structures in the order [`World::encode_world`] wrote them.
fn decode_parts(
    def: crate::def::WorldDef,
    r: &mut Reader<'_>,
    workers: Arc<Workers>,
    hooks: Hooks,
) -> Result<World, SnapshotError> {
    let bodies = r.field("World.bodies")?;
    let solver_sets = r.field("World.solver_sets")?;
    let graph: Graph = r.field("World.graph")?;
    let mut shapes: Arena<ShapeRecord, ShapeId> = r.field("World.shapes")?;
    for (_, shape) in shapes.iter_mut() {
        shape.sizes = ShapeSizes::of(&shape.geometry);
    }
    let contacts = r.field("World.contacts")?;
    let joints = r.field("World.joints")?;
    let broadphase = r.field("World.broadphase")?;
    let islands = r.field("World.islands")?;
    let kinematic: Vec<u32> = r.field("World.kinematic_bodies")?;
    Ok(World {
        def,
        bodies,
        solver_sets,
        graph,
        shapes,
        contacts,
        joints,
        broadphase,
        islands,
        island_rest: IslandRestTable::default(),
        kinematic_bodies: kinematic.into_iter().collect(),
        events: r.field("World.events")?,
        sensors: r.field("World.sensors")?,
        move_events: r.field("World.move_events")?,
        finalize_reports: Vec::new(),
        hooks,
        diverged: r.field("World.diverged")?,
        profile: StepProfile::default(),
        particles: ParticleSystems::default(),
        solver: ContactSolver::new(),
        workers,
        parallel_step: false,
        light_steps_on_caller: true,
        next_chain_id: r.field("World.next_chain_id")?,
        #[cfg(feature = "validate")]
        corruption: None,
    })
}

#[cfg(test)]
mod tests {
    use super::checksum;

    /// Any change confined to one 64-bit word changes the checksum: each round is a bijection.
    #[test]
    fn every_single_bit_flip_changes_the_checksum() {
        let payload: Vec<u8> = (0..37u32).map(|i| (i * 73 + 11) as u8).collect();
        let original = checksum(&payload);
        for bit in 0..payload.len() * 8 {
            let mut flipped = payload.clone();
            flipped[bit / 8] ^= 1 << (bit % 8);
            assert_ne!(checksum(&flipped), original, "bit {bit}");
        }
    }
}
