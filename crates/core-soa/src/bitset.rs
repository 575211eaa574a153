//! A growable set of small integers, one bit each, in 64-bit blocks.
//!
//! Graph colouring keeps one per colour (which dynamic bodies the colour already holds) and the
//! island code uses them to mark visited bodies and constraints during a split.

/// A dense bitset over `0..capacity()`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BitSet {
    blocks: Vec<u64>,
}

impl BitSet {
    /// An empty set (no storage until a bit is set).
    pub fn new() -> Self {
        Self { blocks: Vec::new() }
    }

    /// A bitset able to hold bits `0..bit_capacity` without growing.
    pub fn with_capacity(bit_capacity: usize) -> Self {
        Self {
            blocks: vec![0; bit_capacity.div_ceil(64)],
        }
    }

    /// The number of bits the set can hold before it must grow.
    pub fn capacity(&self) -> usize {
        self.blocks.len() * 64
    }

    /// Grows (never shrinks) so that bits `0..bit_capacity` are addressable; new bits are clear.
    pub fn grow(&mut self, bit_capacity: usize) {
        let blocks = bit_capacity.div_ceil(64);
        if blocks > self.blocks.len() {
            self.blocks.resize(blocks, 0);
        }
    }

    /// Sets every bit to zero, keeping the capacity.
    pub fn clear(&mut self) {
        self.blocks.fill(0);
    }

    /// Sets bit `i`, growing if needed.
    #[inline]
    pub fn set(&mut self, i: usize) {
        let block = i / 64;
        if block >= self.blocks.len() {
            self.blocks.resize(block + 1, 0);
        }
        self.blocks[block] |= 1u64 << (i % 64);
    }

    /// Clears bit `i` (a bit past the capacity is already clear).
    #[inline]
    pub fn unset(&mut self, i: usize) {
        if let Some(b) = self.blocks.get_mut(i / 64) {
            *b &= !(1u64 << (i % 64));
        }
    }

    /// Whether bit `i` is set.
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        self.blocks
            .get(i / 64)
            .is_some_and(|b| b & (1u64 << (i % 64)) != 0)
    }

    /// The number of set bits.
    pub fn count_ones(&self) -> usize {
        self.blocks.iter().map(|b| b.count_ones() as usize).sum()
    }

    /// Iterates the set bits in increasing order.
    pub fn iter_ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.blocks.iter().enumerate().flat_map(|(k, &block)| {
            let mut bits = block;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let t = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(k * 64 + t)
            })
        })
    }

    /// In-place union with `other`.
    pub fn union_with(&mut self, other: &BitSet) {
        if other.blocks.len() > self.blocks.len() {
            self.blocks.resize(other.blocks.len(), 0);
        }
        for (a, b) in self.blocks.iter_mut().zip(&other.blocks) {
            *a |= *b;
        }
    }
}

crate::snap_struct!(BitSet { blocks });

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::XorShift64;
    use std::collections::BTreeSet;

    #[test]
    fn set_unset_get() {
        let mut bits = BitSet::with_capacity(130);
        assert_eq!(bits.capacity(), 192);
        for i in [0, 63, 64, 129] {
            assert!(!bits.get(i));
            bits.set(i);
            assert!(bits.get(i));
        }
        assert!(!bits.get(1) && !bits.get(65) && !bits.get(10_000));
        bits.unset(63);
        bits.unset(10_000);
        assert!(!bits.get(63) && bits.get(64));
        assert_eq!(bits.count_ones(), 3);
        bits.clear();
        assert_eq!((bits.count_ones(), bits.capacity()), (0, 192));
    }

    #[test]
    fn grows_on_set_and_never_shrinks() {
        let mut bits = BitSet::new();
        assert_eq!(bits.capacity(), 0);
        bits.set(200);
        assert_eq!(bits.capacity(), 256);
        assert!(bits.get(200));
        bits.grow(100);
        assert_eq!(bits.capacity(), 256);
        bits.grow(257);
        assert_eq!(bits.capacity(), 320);
        assert_eq!(bits.iter_ones().collect::<Vec<_>>(), [200]);
    }

    #[test]
    fn random_bits_match_a_reference_set() {
        let mut rng = XorShift64::new(7);
        let mut bits = BitSet::new();
        let mut model = BTreeSet::new();
        for _ in 0..4_000 {
            let i = rng.below(700);
            if rng.below(3) == 0 {
                bits.unset(i);
                model.remove(&i);
            } else {
                bits.set(i);
                model.insert(i);
            }
        }
        assert_eq!(bits.count_ones(), model.len());
        assert!(
            bits.iter_ones().eq(model.iter().copied()),
            "increasing order"
        );
        assert!((0..800).all(|i| bits.get(i) == model.contains(&i)));
    }

    #[test]
    fn union_takes_every_bit_of_both_and_grows() {
        let mut small = BitSet::new();
        let mut large = BitSet::new();
        for i in [1, 64, 70] {
            small.set(i);
        }
        for i in [2, 70, 300] {
            large.set(i);
        }
        small.union_with(&large);
        assert_eq!(small.iter_ones().collect::<Vec<_>>(), [1, 2, 64, 70, 300]);
        assert_eq!(small.capacity(), large.capacity());
        let before = large.clone();
        large.union_with(&BitSet::new());
        assert_eq!(large, before, "union with the empty set changes nothing");
    }
}
