//! Giving back the spare room of a list that has emptied.
//!
//! A `Vec` that grows keeps its largest capacity for ever, so a store whose length peaks early
//! and falls (the contacts of a smash, whose debris settles and falls asleep) would hold its
//! peak bytes to the end. [`release_spare`] cuts a list's capacity once it is mostly unused:
//!
//! ```text
//!   len < capacity / 4   →   capacity := 2 · len
//! ```
//!
//! **Amortised cost.** A cut to `2·len` copies `len` elements. The next cut needs the length
//! to halve again (at least `len / 2` removals), and the next growth beyond the new capacity
//! needs `len` more pushes, so every copied element is paid for by at least half an element of
//! pushes or removals since the last change of capacity: a constant factor on the work the
//! list does anyway, never a copy per step. Lists smaller than [`MIN_SPARE_BYTES`] are left
//! alone, since cutting them would save less than it costs.
//!
//! **Determinism.** Capacity is invisible to everything that reads a list's elements: a cut
//! keeps the elements and their order, so no result may depend on when or whether it happens.

/// Lists whose capacity holds fewer bytes than this are never cut.
pub const MIN_SPARE_BYTES: usize = 16 * 1024;

/// Whether a list of `len` elements of `element_bytes` bytes each, with room for `capacity`,
/// is sparse enough to cut (see the module notes).
#[inline]
pub fn is_sparse(len: usize, capacity: usize, element_bytes: usize) -> bool {
    len < capacity / 4 && capacity.saturating_mul(element_bytes) >= MIN_SPARE_BYTES
}

/// Cuts `items`' capacity to twice its length if fewer than a quarter of its slots are used
/// (see the module notes); otherwise leaves it as it is.
#[inline]
pub fn release_spare<T>(items: &mut Vec<T>) {
    if is_sparse(items.len(), items.capacity(), size_of::<T>()) {
        items.shrink_to(2 * items.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list emptied below a quarter of its room is cut to twice its length, keeping its
    /// elements; one at a quarter or more, or too small to matter, keeps its capacity.
    #[test]
    fn cuts_only_sparse_lists() {
        let mut items: Vec<u64> = (0..10_000).collect();
        items.truncate(2_600);
        let before = items.capacity();
        release_spare(&mut items);
        assert_eq!(items.capacity(), before, "a quarter used: kept");
        items.truncate(1_000);
        release_spare(&mut items);
        assert!(items.capacity() >= 2_000 && items.capacity() < before / 4);
        assert!(items.iter().copied().eq(0..1_000));
        let mut small: Vec<u64> = Vec::with_capacity(1_000);
        small.push(1);
        release_spare(&mut small);
        assert_eq!(small.capacity(), 1_000, "8 kB: below the threshold");
    }

    /// Growing back after a cut and emptying again cuts again: the rule holds at every size.
    #[test]
    fn cuts_again_after_regrowth() {
        let mut items: Vec<u32> = Vec::with_capacity(100_000);
        items.extend(0..10);
        release_spare(&mut items);
        assert!(items.capacity() < 100_000 / 4);
        items.extend(0..50_000);
        items.truncate(100);
        release_spare(&mut items);
        assert!(items.capacity() < 50_010 / 4);
        assert_eq!(items.len(), 100);
    }
}
