//! Generational ids, an index pool and a generational arena.
//!
//! Users hold small `Copy` handles ([`BodyId`], [`ShapeId`], [`JointId`], [`ContactId`]) instead
//! of references. A handle is an *index* into an arena plus a *generation*: each slot of the arena
//! counts how many times it has been vacated, and a handle is honoured only while its generation
//! equals the slot's. Removing an object bumps the slot's generation, so every handle to it goes
//! stale at once; when the slot is later reused for a new object, the old handles still carry the
//! old generation and are rejected instead of aliasing the newcomer:
//!
//! ```text
//!   insert A  -> slot 3, gen 1   id_A = (3, 1)   get(id_A) = A
//!   remove A  -> slot 3, gen 2   (vacant)        get(id_A) = None
//!   insert B  -> slot 3, gen 2   id_B = (3, 2)   get(id_A) = None, get(id_B) = B
//! ```
//!
//! Generation 0 is never given to a live object, so a zeroed or [`Id::NULL`] handle is never
//! valid. A slot whose generation would wrap past `u32::MAX` is retired: it is never reused, so
//! no handle, however old, can ever match a later occupant. Retiring costs one empty slot per
//! four billion reuses of the same index.
//!
//! Free slots are reused last-in first-out, which makes the index an insertion receives a pure
//! function of the sequence of inserts and removes: the same calls give the same ids on every
//! run, a prerequisite for deterministic simulation. Iteration is in index order for the same
//! reason.
//!
//! [`IdPool`] is the same free-list idea without the payload: it hands out dense `u32` indices
//! for tables that keep their own storage (for example constraint arrays addressed by index).

use crate::BitSet;

/// A generational handle: an index into an arena and the generation of the slot it refers to.
///
/// Eight bytes, `Copy`, hashable and totally ordered (by index, then generation), so it can key
/// maps and be sorted deterministically.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Id {
    index: u32,
    generation: u32,
}

impl Id {
    /// A handle that no arena ever honours (generation 0 is never live).
    pub const NULL: Id = Id {
        index: u32::MAX,
        generation: 0,
    };

    /// A handle to slot `index` at `generation`.
    #[inline]
    pub const fn new(index: u32, generation: u32) -> Id {
        Id { index, generation }
    }

    /// The slot index.
    #[inline]
    pub const fn index(self) -> u32 {
        self.index
    }

    /// The slot generation this handle was issued for.
    #[inline]
    pub const fn generation(self) -> u32 {
        self.generation
    }

    /// Whether this is the [`Id::NULL`]-like "never valid" handle (generation 0).
    #[inline]
    pub const fn is_null(self) -> bool {
        self.generation == 0
    }
}

impl Default for Id {
    fn default() -> Self {
        Id::NULL
    }
}

/// A key type an [`Arena`] can hand out: a typed wrapper around an [`Id`].
pub trait ArenaKey: Copy {
    /// Wraps a raw handle.
    fn from_id(id: Id) -> Self;
    /// The raw handle.
    fn id(self) -> Id;
}

impl ArenaKey for Id {
    #[inline]
    fn from_id(id: Id) -> Self {
        id
    }
    #[inline]
    fn id(self) -> Id {
        self
    }
}

/// Defines a distinct typed handle wrapping an [`Id`], so that a `BodyId` cannot be passed where a
/// `ShapeId` is expected.
macro_rules! typed_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub struct $name(Id);

        impl $name {
            /// A handle that is never valid.
            pub const NULL: $name = $name(Id::NULL);

            /// A handle to slot `index` at `generation`.
            #[inline]
            pub const fn new(index: u32, generation: u32) -> Self {
                $name(Id::new(index, generation))
            }

            /// The slot index.
            #[inline]
            pub const fn index(self) -> u32 {
                self.0.index()
            }

            /// The slot generation this handle was issued for.
            #[inline]
            pub const fn generation(self) -> u32 {
                self.0.generation()
            }

            /// Whether this handle is never valid (generation 0).
            #[inline]
            pub const fn is_null(self) -> bool {
                self.0.is_null()
            }

            /// The untyped handle.
            #[inline]
            pub const fn raw(self) -> Id {
                self.0
            }
        }

        impl ArenaKey for $name {
            #[inline]
            fn from_id(id: Id) -> Self {
                $name(id)
            }
            #[inline]
            fn id(self) -> Id {
                self.0
            }
        }
    };
}

typed_id!(
    /// A handle to a rigid body.
    BodyId
);
typed_id!(
    /// A handle to a collision shape attached to a body.
    ShapeId
);
typed_id!(
    /// A handle to a joint between two bodies.
    JointId
);
typed_id!(
    /// A handle to a contact between two shapes.
    ContactId
);

const _: () = assert!(std::mem::size_of::<Id>() == 8);
const _: () = assert!(std::mem::size_of::<BodyId>() == 8);

/// Hands out dense `u32` indices, reusing freed ones last-in first-out.
///
/// `capacity()` is the number of indices ever handed out (the length a table indexed by this pool
/// must have); `count()` is the number currently allocated.
#[derive(Clone, Debug, Default)]
pub struct IdPool {
    free: Vec<u32>,
    allocated: BitSet,
    next_index: u32,
}

impl IdPool {
    /// An empty pool: the first index handed out is 0.
    pub fn new() -> Self {
        Self::default()
    }

    /// Allocates an index: the most recently freed one if any, else the next new one.
    pub fn alloc(&mut self) -> u32 {
        let index = match self.free.pop() {
            Some(index) => index,
            None => {
                let index = self.next_index;
                self.next_index += 1;
                index
            }
        };
        self.allocated.set(index as usize);
        index
    }

    /// Returns `index` to the pool. Returns `false` (and changes nothing) if it was not allocated,
    /// so a double free cannot hand the same index out twice.
    pub fn free(&mut self, index: u32) -> bool {
        if !self.is_allocated(index) {
            return false;
        }
        self.allocated.unset(index as usize);
        self.free.push(index);
        true
    }

    /// Whether `index` is currently allocated.
    #[inline]
    pub fn is_allocated(&self, index: u32) -> bool {
        self.allocated.get(index as usize)
    }

    /// The number of indices currently allocated.
    #[inline]
    pub fn count(&self) -> usize {
        self.next_index as usize - self.free.len()
    }

    /// One past the highest index ever handed out.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.next_index as usize
    }

    /// Iterates the allocated indices in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.allocated.iter_ones().map(|i| i as u32)
    }
}

/// One arena slot: the generation of its current (or next) occupant, and the occupant.
#[derive(Clone, Debug)]
struct Slot<T> {
    generation: u32,
    value: Option<T>,
}

/// A generational arena: stable handles to values, O(1) insert, lookup and remove, and stale
/// handles detected rather than aliased. `K` is the handle type it hands out.
#[derive(Clone, Debug)]
pub struct Arena<T, K: ArenaKey = Id> {
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
    len: usize,
    _key: std::marker::PhantomData<fn() -> K>,
}

impl<T, K: ArenaKey> Default for Arena<T, K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T, K: ArenaKey> Arena<T, K> {
    /// An empty arena.
    pub fn new() -> Self {
        Arena {
            slots: Vec::new(),
            free: Vec::new(),
            len: 0,
            _key: std::marker::PhantomData,
        }
    }

    /// Stores `value` and returns its handle.
    pub fn insert(&mut self, value: T) -> K {
        self.insert_with(|_| value)
    }

    /// Stores the value built by `make` from its own handle (for values that record their id).
    pub fn insert_with(&mut self, make: impl FnOnce(K) -> T) -> K {
        let index = match self.free.pop() {
            Some(index) => index,
            None => {
                self.slots.push(Slot {
                    generation: 1,
                    value: None,
                });
                (self.slots.len() - 1) as u32
            }
        };
        let slot = &mut self.slots[index as usize];
        let key = K::from_id(Id::new(index, slot.generation));
        slot.value = Some(make(key));
        self.len += 1;
        key
    }

    /// The live slot `key` refers to, if its generation still matches.
    #[inline]
    fn live_slot(&self, key: K) -> Option<&Slot<T>> {
        let id = key.id();
        self.slots
            .get(id.index() as usize)
            .filter(|slot| slot.generation == id.generation() && slot.value.is_some())
    }

    /// Whether `key` refers to a live value.
    #[inline]
    pub fn contains(&self, key: K) -> bool {
        self.live_slot(key).is_some()
    }

    /// The value `key` refers to, or `None` if the handle is stale or foreign.
    #[inline]
    pub fn get(&self, key: K) -> Option<&T> {
        self.live_slot(key).and_then(|slot| slot.value.as_ref())
    }

    /// Mutable access to the value `key` refers to, or `None` if the handle is stale or foreign.
    #[inline]
    pub fn get_mut(&mut self, key: K) -> Option<&mut T> {
        let id = key.id();
        self.slots
            .get_mut(id.index() as usize)
            .filter(|slot| slot.generation == id.generation())
            .and_then(|slot| slot.value.as_mut())
    }

    /// Removes and returns the value `key` refers to; `None` (and no change) if it is stale.
    ///
    /// The slot's generation is bumped so that every outstanding handle goes stale; a slot whose
    /// generation cannot be bumped without wrapping is retired instead of reused.
    pub fn remove(&mut self, key: K) -> Option<T> {
        let id = key.id();
        let slot = self.slots.get_mut(id.index() as usize)?;
        if slot.generation != id.generation() {
            return None;
        }
        let value = slot.value.take()?;
        self.len -= 1;
        if let Some(next_generation) = slot.generation.checked_add(1) {
            slot.generation = next_generation;
            self.free.push(id.index());
        }
        Some(value)
    }

    /// The value in slot `index` regardless of generation (for internal back-references that
    /// are known to be current).
    #[inline]
    pub fn get_by_index(&self, index: u32) -> Option<&T> {
        self.slots
            .get(index as usize)
            .and_then(|slot| slot.value.as_ref())
    }

    /// Mutable access to the value in slot `index` regardless of generation.
    #[inline]
    pub fn get_by_index_mut(&mut self, index: u32) -> Option<&mut T> {
        self.slots
            .get_mut(index as usize)
            .and_then(|slot| slot.value.as_mut())
    }

    /// The handle of the live value in slot `index`, if any.
    #[inline]
    pub fn key_at(&self, index: u32) -> Option<K> {
        let slot = self.slots.get(index as usize)?;
        slot.value.as_ref()?;
        Some(K::from_id(Id::new(index, slot.generation)))
    }

    /// The number of live values.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the arena holds no values.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// One past the highest slot index ever used (the length a side table indexed by slot needs).
    #[inline]
    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// Live values with their handles, in increasing index order.
    pub fn iter(&self) -> impl Iterator<Item = (K, &T)> + '_ {
        self.slots.iter().enumerate().filter_map(|(index, slot)| {
            let value = slot.value.as_ref()?;
            Some((K::from_id(Id::new(index as u32, slot.generation)), value))
        })
    }

    /// Live values with their handles, mutably, in increasing index order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (K, &mut T)> + '_ {
        self.slots
            .iter_mut()
            .enumerate()
            .filter_map(|(index, slot)| {
                let generation = slot.generation;
                let value = slot.value.as_mut()?;
                Some((K::from_id(Id::new(index as u32, generation)), value))
            })
    }

    /// Live values in increasing index order.
    pub fn values(&self) -> impl Iterator<Item = &T> + '_ {
        self.slots.iter().filter_map(|slot| slot.value.as_ref())
    }
}

/// Snapshot encoding of the pools and arenas (`snapshot.rs`), with the checks that keep a decoded
/// one from panicking later: free indices in range, distinct, and naming empty slots.
mod snapshot_codec {
    use super::{Arena, ArenaKey, IdPool, Slot};
    use crate::BitSet;
    use crate::snapshot::{Reader, Snap, SnapshotError, Writer};

    impl Snap for IdPool {
        fn put(&self, w: &mut Writer) {
            self.free.put(w);
            self.allocated.put(w);
            self.next_index.put(w);
        }
        fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
            let pool = IdPool {
                free: r.field("IdPool.free")?,
                allocated: r.field("IdPool.allocated")?,
                next_index: r.field("IdPool.next_index")?,
            };
            for &index in &pool.free {
                if index >= pool.next_index || pool.allocated.get(index as usize) {
                    return Err(r.error("IdPool.free", format!("index {index} is not free")));
                }
            }
            // Sorted rather than marked in a bit set: `next_index` may be forged, the list's
            // length is bounded by the buffer.
            let mut sorted = pool.free.clone();
            sorted.sort_unstable();
            if sorted.windows(2).any(|two| two[0] == two[1]) {
                return Err(r.error("IdPool.free", "an index listed twice"));
            }
            let beyond = pool
                .allocated
                .iter_ones()
                .any(|i| i >= pool.next_index as usize);
            if beyond || pool.count() != pool.allocated.count_ones() {
                return Err(r.error("IdPool.allocated", "disagrees with the free list"));
            }
            Ok(pool)
        }
    }

    impl<T: Snap> Snap for Slot<T> {
        fn put(&self, w: &mut Writer) {
            self.generation.put(w);
            self.value.put(w);
        }
        fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
            Ok(Slot {
                generation: r.field("Arena.slot.generation")?,
                value: r.field("Arena.slot.value")?,
            })
        }
    }

    impl<T: Snap, K: ArenaKey> Arena<T, K> {
        /// Writes the slots (generations and values) and the free list.
        pub(crate) fn put_slots(&self, w: &mut Writer) {
            self.slots.put(w);
            self.free.put(w);
        }

        /// Reads what [`Arena::put_slots`] wrote and checks it: every free index names an
        /// empty slot, once.
        pub(crate) fn get_slots(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
            let slots: Vec<Slot<T>> = r.field("Arena.slots")?;
            let free: Vec<u32> = r.field("Arena.free")?;
            let mut seen = BitSet::new();
            for &index in &free {
                let empty = slots
                    .get(index as usize)
                    .is_some_and(|slot| slot.value.is_none());
                if !empty || seen.get(index as usize) {
                    return Err(r.error("Arena.free", format!("index {index} is not a free slot")));
                }
                seen.set(index as usize);
            }
            if slots
                .iter()
                .any(|slot| slot.value.is_some() && slot.generation == 0)
            {
                return Err(r.error("Arena.slots", "a live slot of generation 0"));
            }
            let len = slots.iter().filter(|slot| slot.value.is_some()).count();
            Ok(Arena {
                slots,
                free,
                len,
                _key: std::marker::PhantomData,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::XorShift64;
    use std::collections::HashMap;

    #[test]
    fn handles_are_eight_bytes_and_accessors_round_trip() {
        assert_eq!(std::mem::size_of::<Id>(), 8);
        assert_eq!(std::mem::size_of::<ShapeId>(), 8);
        assert_eq!(std::mem::size_of::<JointId>(), 8);
        assert_eq!(std::mem::size_of::<ContactId>(), 8);
        let id = BodyId::new(7, 3);
        assert_eq!((id.index(), id.generation()), (7, 3));
        assert_eq!(id.raw(), Id::new(7, 3));
        assert!(BodyId::NULL.is_null() && BodyId::default().is_null());
        assert!(!id.is_null());
    }

    #[test]
    fn first_insert_gets_generation_one_and_null_is_never_live() {
        let mut arena: Arena<&str, BodyId> = Arena::new();
        let a = arena.insert("a");
        assert_eq!((a.index(), a.generation()), (0, 1));
        assert!(!arena.contains(BodyId::NULL));
        assert_eq!(arena.get(BodyId::new(0, 0)), None);
        assert_eq!(arena.get(BodyId::new(5, 1)), None, "index never used");
    }

    #[test]
    fn stale_id_after_remove_is_rejected() {
        let mut arena: Arena<u32> = Arena::new();
        let a = arena.insert(10);
        let b = arena.insert(20);
        assert_eq!(arena.remove(a), Some(10));
        assert_eq!(arena.get(a), None);
        assert_eq!(arena.get_mut(a), None);
        assert!(!arena.contains(a));
        assert_eq!(arena.remove(a), None, "double remove changes nothing");
        assert_eq!(arena.len(), 1);
        assert_eq!(arena.get(b), Some(&20));
    }

    #[test]
    fn reused_slot_gets_new_generation_and_old_id_does_not_alias() {
        let mut arena: Arena<u32, ShapeId> = Arena::new();
        let old = arena.insert(1);
        arena.remove(old);
        let new = arena.insert(2);
        assert_eq!(new.index(), old.index(), "the freed slot is reused");
        assert_eq!(new.generation(), old.generation() + 1);
        assert_eq!(arena.get(old), None);
        assert_eq!(arena.get_mut(old), None);
        assert_eq!(arena.remove(old), None);
        assert_eq!(
            arena.get(new),
            Some(&2),
            "a stale remove must not evict the new value"
        );
        // Internal index access ignores generations by design.
        assert_eq!(arena.get_by_index(old.index()), Some(&2));
        assert_eq!(arena.key_at(old.index()), Some(new));
    }

    #[test]
    fn slot_whose_generation_would_wrap_is_retired() {
        let mut arena: Arena<u32> = Arena::new();
        let first = arena.insert(1);
        arena.slots[first.index() as usize].generation = u32::MAX;
        let last = Id::new(first.index(), u32::MAX);
        assert_eq!(arena.get(last), Some(&1));
        assert_eq!(arena.remove(last), Some(1));
        let next = arena.insert(2);
        assert_ne!(
            next.index(),
            first.index(),
            "the wrapped slot is not reused"
        );
        assert_eq!(arena.get(last), None);
        assert_eq!(arena.get(Id::new(first.index(), 0)), None);
        assert_eq!(arena.get(Id::new(first.index(), 1)), None);
        assert_eq!(arena.len(), 1);
    }

    #[test]
    fn free_slots_are_reused_last_in_first_out() {
        let mut arena: Arena<u32> = Arena::new();
        let ids: Vec<Id> = (0..5).map(|v| arena.insert(v)).collect();
        arena.remove(ids[1]);
        arena.remove(ids[3]);
        assert_eq!(arena.insert(30).index(), 3);
        assert_eq!(arena.insert(10).index(), 1);
        assert_eq!(arena.insert(50).index(), 5);
    }

    #[test]
    fn iteration_is_in_index_order_and_insert_with_sees_its_key() {
        let mut arena: Arena<(BodyId, u32), BodyId> = Arena::new();
        let keys: Vec<BodyId> = (0..6).map(|v| arena.insert_with(|k| (k, v))).collect();
        arena.remove(keys[2]);
        arena.remove(keys[0]);
        let again = arena.insert_with(|k| (k, 99));
        assert_eq!(again.index(), 0);
        let order: Vec<u32> = arena.iter().map(|(k, _)| k.index()).collect();
        assert_eq!(order, vec![0, 1, 3, 4, 5]);
        for (key, &(own_key, _)) in arena.iter() {
            assert_eq!(key, own_key);
        }
        for (_, value) in arena.iter_mut() {
            value.1 += 1;
        }
        let values: Vec<u32> = arena.values().map(|v| v.1).collect();
        assert_eq!(values, vec![100, 2, 4, 5, 6]);
        assert_eq!(arena.slot_count(), 6);
    }

    /// Random inserts and removes checked after every operation against a `HashMap`, and every
    /// handle ever removed is checked to stay dead.
    #[test]
    fn random_insert_remove_matches_a_reference_map() {
        let mut rng = XorShift64::new(0x05EE_D1D5);
        let mut arena: Arena<u64, JointId> = Arena::new();
        let mut model: HashMap<JointId, u64> = HashMap::new();
        let mut live: Vec<JointId> = Vec::new();
        let mut dead: Vec<JointId> = Vec::new();
        for step in 0..20_000u64 {
            // Bias towards insertion early and removal late so the arena grows and shrinks.
            let insert_weight = if step < 10_000 { 6 } else { 4 };
            if live.is_empty() || rng.below(10) < insert_weight {
                let key = arena.insert(step);
                assert!(
                    model.insert(key, step).is_none(),
                    "a live handle was reissued"
                );
                live.push(key);
            } else {
                let key = live.swap_remove(rng.below(live.len()));
                assert_eq!(arena.remove(key), model.remove(&key));
                dead.push(key);
            }
            assert_eq!(arena.len(), model.len());
            if !live.is_empty() && rng.below(8) == 0 {
                let key = live[rng.below(live.len())];
                *arena.get_mut(key).unwrap() += 1;
                *model.get_mut(&key).unwrap() += 1;
            }
            if !dead.is_empty() {
                let stale = dead[rng.below(dead.len())];
                assert_eq!(arena.get(stale), None);
            }
        }
        for (key, value) in &model {
            assert_eq!(arena.get(*key), Some(value));
        }
        assert!(dead.iter().all(|&key| !arena.contains(key)));
        let mut model_keys: Vec<JointId> = model.keys().copied().collect();
        model_keys.sort();
        let arena_keys: Vec<JointId> = arena.iter().map(|(key, _)| key).collect();
        assert_eq!(arena_keys, model_keys, "iteration is in index order");
    }

    #[test]
    fn id_pool_reuses_lifo_and_rejects_double_free() {
        let mut pool = IdPool::new();
        let ids: Vec<u32> = (0..4).map(|_| pool.alloc()).collect();
        assert_eq!(ids, vec![0, 1, 2, 3]);
        assert!(pool.free(1));
        assert!(pool.free(2));
        assert!(!pool.free(2), "double free");
        assert!(!pool.free(17), "never allocated");
        assert_eq!((pool.count(), pool.capacity()), (2, 4));
        assert_eq!(pool.iter().collect::<Vec<_>>(), vec![0, 3]);
        assert_eq!(pool.alloc(), 2);
        assert_eq!(pool.alloc(), 1);
        assert_eq!(pool.alloc(), 4);
        assert_eq!((pool.count(), pool.capacity()), (5, 5));
        assert!(pool.is_allocated(4) && !pool.is_allocated(5));
    }

    #[test]
    fn id_pool_random_cycles_match_a_reference_set() {
        let mut rng = XorShift64::new(42);
        let mut pool = IdPool::new();
        let mut live = std::collections::BTreeSet::new();
        let mut highest = 0;
        for _ in 0..5_000 {
            if live.is_empty() || rng.below(3) != 0 {
                let index = pool.alloc();
                highest = highest.max(index);
                assert!(live.insert(index), "allocated a live index");
            } else {
                let victim = *live.iter().nth(rng.below(live.len())).unwrap();
                live.remove(&victim);
                assert!(pool.free(victim));
            }
            assert_eq!(pool.count(), live.len());
        }
        assert!(pool.iter().eq(live.iter().copied()));
        assert_eq!(pool.capacity(), highest as usize + 1);
    }
}
