//! Persistent islands: bodies and the constraints that join them, merged on link.
//!
//! An island is a set of dynamic bodies together with the constraints (touching contacts and
//! joints) linked between them. Islands live in a generational [`Arena`], so an [`IslandId`]
//! stays valid for as long as the island does and a merged-away island's id is detected as
//! stale instead of silently naming a newcomer.
//!
//! ## Storage
//!
//! Each island keeps two dense `Vec`s, its bodies and its constraints. Every body and every
//! linked constraint has a small record, indexed by the caller's own `u32` index, that says
//! which island it is in and at which position of that island's list:
//!
//! ```text
//!   body_links[7] = { island: 2, position: 1 }      islands[2].bodies      = [4, 7, 9]
//!   contact_links[3] = { island: 2, position: 0 }   islands[2].constraints = [c3, j0]
//!                                                   islands[2].ends        = [(4,7), (9,4)]
//! ```
//!
//! Each constraint's two bodies are kept beside it in the island (`ends`, parallel to
//! `constraints`) rather than in its record: a split walks an island's constraints in list
//! order and needs only their bodies, and reading them from the list streams through memory
//! where the records, indexed by the caller's scattered constraint indices, would cost a cache
//! miss each on a large island.
//!
//! That gives O(1) add (push) and O(1) remove (swap-remove, then rewrite the position of the
//! element that moved into the hole), and it lets the caller read an island's members as plain
//! slices when it moves them into or out of a sleeping solver set. Intrusive linked lists would
//! make the splice of a merge O(1), but a merge must relabel every member of one side anyway, so
//! both layouts cost O(smaller side) per merge; the `Vec`s iterate contiguously.
//!
//! ## Merge
//!
//! [`IslandGraph::link`] adds a constraint between two bodies. If they are in different islands
//! the smaller island (fewer bodies; on a tie the one in the higher arena slot) is poured into
//! the larger, whose id survives. Pouring the smaller side means a body changes island at most
//! log₂(n) times while n bodies gather, so building an island of n bodies costs O(n log n) in
//! total. The rule depends only on the call sequence, so it is deterministic.
//!
//! ## Removal
//!
//! [`IslandGraph::unlink`] removes a constraint but does not split: finding out whether the
//! island fell apart needs a traversal of the whole island, and most removals (a contact that
//! flickers) do not disconnect anything. Instead the island counts its pending removals
//! (`constraint_remove_count`) and becomes a split candidate; see the `split` module.

use crate::IslandError;
use crate::sleep::RestRecord;
use crate::split::SplitScratch;
use core_soa::{Arena, ArenaKey, Id, NULL_INDEX};

/// A handle to an island: an arena slot and its generation. Stale once the island is merged
/// away or emptied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IslandId(Id);

impl IslandId {
    /// A handle that is never valid.
    pub const NULL: IslandId = IslandId(Id::NULL);

    /// The arena slot.
    #[inline]
    pub const fn index(self) -> u32 {
        self.0.index()
    }

    /// The slot generation this handle was issued for.
    #[inline]
    pub const fn generation(self) -> u32 {
        self.0.generation()
    }
}

impl ArenaKey for IslandId {
    #[inline]
    fn from_id(id: Id) -> Self {
        IslandId(id)
    }
    #[inline]
    fn id(self) -> Id {
        self.0
    }
}

/// Whether a constraint is a contact or a joint; the two kinds have separate index spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ConstraintKind {
    /// A contact; its index is the caller's contact index.
    Contact,
    /// A joint; its index is the caller's joint index.
    Joint,
}

/// A constraint as the caller names it: its kind and its index in the caller's contact or joint
/// storage (stable for the constraint's lifetime).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstraintKey {
    /// Which index space `index` belongs to: contacts or joints.
    pub kind: ConstraintKind,
    /// The constraint's index in the caller's storage of that kind.
    pub index: u32,
}

impl ConstraintKey {
    /// The contact with index `index`.
    #[inline]
    pub const fn contact(index: u32) -> ConstraintKey {
        ConstraintKey {
            kind: ConstraintKind::Contact,
            index,
        }
    }

    /// The joint with index `index`.
    #[inline]
    pub const fn joint(index: u32) -> ConstraintKey {
        ConstraintKey {
            kind: ConstraintKind::Joint,
            index,
        }
    }
}

/// What [`IslandGraph::link`] did: the island now holding the constraint, and the island that
/// was merged into it (whose id is now stale), if the constraint joined two islands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkOutcome {
    /// The island that holds the constraint after the link.
    pub island: IslandId,
    /// The island merged into `island`, if the link joined two islands; its id is stale from now
    /// on.
    pub absorbed: Option<IslandId>,
}

/// Where a body is: its island slot and position in that island's body list, how many linked
/// constraints touch it, and the sleep time last recorded for it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BodyLink {
    pub(crate) island: u32,
    pub(crate) position: u32,
    pub(crate) linked_constraints: u32,
    pub(crate) sleep_time: f32,
    pub(crate) sleep_pass: u32,
}

impl BodyLink {
    const ABSENT: BodyLink = BodyLink {
        island: NULL_INDEX,
        position: NULL_INDEX,
        linked_constraints: 0,
        sleep_time: 0.0,
        sleep_pass: 0,
    };
}

/// Where a linked constraint is: its island and its position in that island's lists (its
/// bodies are `ends[position]` there).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ConstraintLink {
    pub(crate) island: u32,
    pub(crate) position: u32,
}

impl ConstraintLink {
    const ABSENT: ConstraintLink = ConstraintLink {
        island: NULL_INDEX,
        position: NULL_INDEX,
    };
}

/// The per-constraint records, one table per kind, indexed by the caller's constraint index.
#[derive(Clone, Debug, Default)]
pub(crate) struct ConstraintLinks {
    pub(crate) contacts: Vec<ConstraintLink>,
    pub(crate) joints: Vec<ConstraintLink>,
}

impl ConstraintLinks {
    fn table(&self, kind: ConstraintKind) -> &Vec<ConstraintLink> {
        match kind {
            ConstraintKind::Contact => &self.contacts,
            ConstraintKind::Joint => &self.joints,
        }
    }

    fn table_mut(&mut self, kind: ConstraintKind) -> &mut Vec<ConstraintLink> {
        match kind {
            ConstraintKind::Contact => &mut self.contacts,
            ConstraintKind::Joint => &mut self.joints,
        }
    }

    /// The record of a linked constraint, or `None` if it is not linked.
    pub(crate) fn get(&self, key: ConstraintKey) -> Option<&ConstraintLink> {
        self.table(key.kind)
            .get(key.index as usize)
            .filter(|link| link.island != NULL_INDEX)
    }

    /// The record slot of `key`, grown into existence if needed.
    pub(crate) fn slot_mut(&mut self, key: ConstraintKey) -> &mut ConstraintLink {
        let table = self.table_mut(key.kind);
        let index = key.index as usize;
        if index >= table.len() {
            table.resize(index + 1, ConstraintLink::ABSENT);
        }
        &mut table[index]
    }

    /// Every linked constraint with its record, contacts first, each kind in index order.
    pub(crate) fn iter_linked(&self) -> impl Iterator<Item = (ConstraintKey, &ConstraintLink)> {
        let contacts = self
            .contacts
            .iter()
            .enumerate()
            .map(|(index, link)| (ConstraintKey::contact(index as u32), link));
        let joints = self
            .joints
            .iter()
            .enumerate()
            .map(|(index, link)| (ConstraintKey::joint(index as u32), link));
        contacts
            .chain(joints)
            .filter(|(_, link)| link.island != NULL_INDEX)
    }
}

/// One island: its bodies, its constraints with their two bodies each, its pending removals
/// and its rest record.
#[derive(Clone, Debug, Default)]
pub(crate) struct Island {
    pub(crate) bodies: Vec<u32>,
    pub(crate) constraints: Vec<ConstraintKey>,
    /// The bodies each constraint was linked with, in the order given to `link`; parallel to
    /// `constraints`.
    pub(crate) ends: Vec<[u32; 2]>,
    pub(crate) constraint_remove_count: u32,
    pub(crate) rest: RestRecord,
}

/// All islands, and the records that place each body and linked constraint in one of them.
///
/// Bodies and constraints are named by the caller's `u32` indices; the tables indexed by them
/// grow to the highest index seen, so indices should be dense (arena slots are). `u32::MAX` is
/// reserved.
#[derive(Clone, Debug)]
pub struct IslandGraph {
    pub(crate) islands: Arena<Island, IslandId>,
    pub(crate) body_links: Vec<BodyLink>,
    pub(crate) constraint_links: ConstraintLinks,
    /// The current sleep-recording pass (see the `sleep` module); 0 is never current.
    pub(crate) sleep_pass: u32,
    /// Slots of the islands that received a sleep record in the current pass (may repeat).
    pub(crate) rested_islands: Vec<u32>,
    pub(crate) split_scratch: SplitScratch,
}

impl Default for IslandGraph {
    fn default() -> Self {
        Self::new()
    }
}

impl IslandGraph {
    /// An empty graph: no bodies, no islands.
    pub fn new() -> Self {
        IslandGraph {
            islands: Arena::new(),
            body_links: Vec::new(),
            constraint_links: ConstraintLinks::default(),
            sleep_pass: 1,
            rested_islands: Vec::new(),
            split_scratch: SplitScratch::default(),
        }
    }

    /// Adds a dynamic body as a new island of its own and returns that island.
    pub fn add_body(&mut self, body: u32) -> Result<IslandId, IslandError> {
        if body == NULL_INDEX {
            return Err(IslandError::ReservedIndex);
        }
        if self.island_of(body).is_some() {
            return Err(IslandError::BodyAlreadyAdded(body));
        }
        let island = self.islands.insert(Island {
            bodies: vec![body],
            ..Island::default()
        });
        let index = body as usize;
        if index >= self.body_links.len() {
            self.body_links.resize(index + 1, BodyLink::ABSENT);
        }
        self.body_links[index] = BodyLink {
            island: island.index(),
            position: 0,
            ..BodyLink::ABSENT
        };
        Ok(island)
    }

    /// Removes a body that has no linked constraints left (unlink them first). Returns the
    /// island that became empty and was freed, if any. If the body's island is asleep, wake it
    /// first: a freed island must not stay in a sleeping set.
    pub fn remove_body(&mut self, body: u32) -> Result<Option<IslandId>, IslandError> {
        let link = *self.live_body(body)?;
        if link.linked_constraints != 0 {
            return Err(IslandError::BodyHasConstraints {
                body,
                linked: link.linked_constraints,
            });
        }
        self.body_links[body as usize] = BodyLink::ABSENT;
        let island = self.island_at_mut(link.island);
        island.bodies.swap_remove(link.position as usize);
        let moved = island.bodies.get(link.position as usize).copied();
        let now_empty = island.bodies.is_empty();
        if let Some(moved) = moved {
            self.body_links[moved as usize].position = link.position;
        }
        if !now_empty {
            return Ok(None);
        }
        let id = self.key_at(link.island);
        self.islands.remove(id);
        Ok(Some(id))
    }

    /// Links a constraint between two dynamic bodies (the caller links only those), merging
    /// their islands if they differ. Neither island may be asleep: wake them first.
    pub fn link(
        &mut self,
        key: ConstraintKey,
        body_a: u32,
        body_b: u32,
    ) -> Result<LinkOutcome, IslandError> {
        if key.index == NULL_INDEX {
            return Err(IslandError::ReservedIndex);
        }
        if self.constraint_links.get(key).is_some() {
            return Err(IslandError::ConstraintAlreadyLinked(key));
        }
        let slot_a = self.live_body(body_a)?.island;
        let slot_b = self.live_body(body_b)?.island;
        let (slot, absorbed) = if slot_a == slot_b {
            (slot_a, None)
        } else {
            let (kept, absorbed) = self.merge(slot_a, slot_b);
            (kept, Some(absorbed))
        };
        self.body_links[body_a as usize].linked_constraints += 1;
        self.body_links[body_b as usize].linked_constraints += 1;
        let island = self.islands.get_by_index_mut(slot).expect("live island");
        *self.constraint_links.slot_mut(key) = ConstraintLink {
            island: slot,
            position: island.constraints.len() as u32,
        };
        island.constraints.push(key);
        island.ends.push([body_a, body_b]);
        Ok(LinkOutcome {
            island: self.key_at(slot),
            absorbed,
        })
    }

    /// Unlinks a constraint and marks its island as a split candidate. Returns that island.
    /// The island should be awake: a sleeping island with pending removals may not stay asleep
    /// (see `SolverSets::validate`).
    pub fn unlink(&mut self, key: ConstraintKey) -> Result<IslandId, IslandError> {
        let link = *self
            .constraint_links
            .get(key)
            .ok_or(IslandError::ConstraintNotLinked(key))?;
        *self.constraint_links.slot_mut(key) = ConstraintLink::ABSENT;
        let island = self.island_at_mut(link.island);
        island.constraints.swap_remove(link.position as usize);
        let ends = island.ends.swap_remove(link.position as usize);
        island.constraint_remove_count += 1;
        if let Some(&moved) = island.constraints.get(link.position as usize) {
            self.constraint_links.slot_mut(moved).position = link.position;
        }
        for body in ends {
            self.body_links[body as usize].linked_constraints -= 1;
        }
        Ok(self.key_at(link.island))
    }

    /// The island a body belongs to, if it was added.
    pub fn island_of(&self, body: u32) -> Option<IslandId> {
        let link = self.body_links.get(body as usize)?;
        (link.island != NULL_INDEX).then(|| self.key_at(link.island))
    }

    /// The slot index of the island a body belongs to, if it was added: [`IslandGraph::island_of`]
    /// without reading the island's slot, for a pass over every awake body that needs only the
    /// index (the finalize's sleep fold).
    #[inline]
    pub fn island_index_of(&self, body: u32) -> Option<u32> {
        let link = self.body_links.get(body as usize)?;
        (link.island != NULL_INDEX).then_some(link.island)
    }

    /// The island a constraint is linked into, if it is linked.
    pub fn island_of_constraint(&self, key: ConstraintKey) -> Option<IslandId> {
        let link = self.constraint_links.get(key)?;
        Some(self.key_at(link.island))
    }

    /// The two bodies a linked constraint was linked with, in the order given to `link`.
    pub fn constraint_bodies(&self, key: ConstraintKey) -> Option<(u32, u32)> {
        let link = self.constraint_links.get(key)?;
        let island = self.islands.get_by_index(link.island)?;
        let [body_a, body_b] = *island.ends.get(link.position as usize)?;
        Some((body_a, body_b))
    }

    /// The bodies of an island, in a deterministic (but unspecified) order.
    pub fn bodies(&self, island: IslandId) -> Result<&[u32], IslandError> {
        Ok(&self.live_island(island)?.bodies)
    }

    /// The constraints of an island, in a deterministic (but unspecified) order.
    pub fn constraints(&self, island: IslandId) -> Result<&[ConstraintKey], IslandError> {
        Ok(&self.live_island(island)?.constraints)
    }

    /// How many constraints were unlinked from the island since it was last split (merges add
    /// up). Non-zero means the island may have fallen apart and is a split candidate.
    pub fn constraint_remove_count(&self, island: IslandId) -> Result<u32, IslandError> {
        Ok(self.live_island(island)?.constraint_remove_count)
    }

    /// Whether `island` is a live island.
    pub fn contains(&self, island: IslandId) -> bool {
        self.islands.contains(island)
    }

    /// The number of live islands.
    pub fn island_count(&self) -> usize {
        self.islands.len()
    }

    /// Every live island, in slot order.
    pub fn islands(&self) -> impl Iterator<Item = IslandId> + '_ {
        self.islands.iter().map(|(id, _)| id)
    }

    /// Every island with pending removals, in slot order. O(islands): for tests and for callers
    /// that want to split everything; the per-step policy is `split_candidate`.
    pub fn split_candidates(&self) -> impl Iterator<Item = IslandId> + '_ {
        self.islands
            .iter()
            .filter(|(_, island)| island.constraint_remove_count > 0)
            .map(|(id, _)| id)
    }

    /// Pours the smaller of two islands into the larger. Returns (kept slot, absorbed id).
    fn merge(&mut self, slot_a: u32, slot_b: u32) -> (u32, IslandId) {
        let size = |slot: u32| {
            self.islands
                .get_by_index(slot)
                .map_or(0, |i| i.bodies.len())
        };
        let (kept, absorbed) = match size(slot_a).cmp(&size(slot_b)) {
            std::cmp::Ordering::Greater => (slot_a, slot_b),
            std::cmp::Ordering::Less => (slot_b, slot_a),
            std::cmp::Ordering::Equal => (slot_a.min(slot_b), slot_a.max(slot_b)),
        };
        let absorbed_id = self.key_at(absorbed);
        let gone = self.islands.remove(absorbed_id).expect("live island");
        let pass = self.sleep_pass;
        let target = self.islands.get_by_index_mut(kept).expect("live island");
        for body in gone.bodies {
            let link = &mut self.body_links[body as usize];
            link.island = kept;
            link.position = target.bodies.len() as u32;
            target.bodies.push(body);
        }
        for (key, ends) in gone.constraints.into_iter().zip(gone.ends) {
            let link = self.constraint_links.slot_mut(key);
            link.island = kept;
            link.position = target.constraints.len() as u32;
            target.constraints.push(key);
            target.ends.push(ends);
        }
        target.constraint_remove_count += gone.constraint_remove_count;
        target.rest = RestRecord::merged(target.rest, gone.rest, pass);
        (kept, absorbed_id)
    }

    /// The record of a body that belongs to an island.
    pub(crate) fn live_body(&self, body: u32) -> Result<&BodyLink, IslandError> {
        self.body_links
            .get(body as usize)
            .filter(|link| link.island != NULL_INDEX)
            .ok_or(IslandError::UnknownBody(body))
    }

    /// The island `island` names, if live.
    pub(crate) fn live_island(&self, island: IslandId) -> Result<&Island, IslandError> {
        self.islands
            .get(island)
            .ok_or(IslandError::StaleIsland(island))
    }

    /// The live island in `slot` (slots taken from records are always live).
    pub(crate) fn island_at_mut(&mut self, slot: u32) -> &mut Island {
        self.islands
            .get_by_index_mut(slot)
            .expect("records name live islands")
    }

    /// The current id of the live island in `slot`.
    pub(crate) fn key_at(&self, slot: u32) -> IslandId {
        self.islands
            .key_at(slot)
            .expect("records name live islands")
    }
}
