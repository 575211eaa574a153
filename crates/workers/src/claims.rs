//! The claim counter of one segment of work, claimed from both ends.
//!
//! A segment of `len` items (tasks of a job, blocks of a solver stage) has one owner that
//! takes its items from the front, first item first, and any number of thieves that take from
//! the back, last item first, once their own segments are spent. One `u64` counts both: the
//! items claimed from the front in its low 32 bits, from the back in its high 32 bits. A front
//! claim of item `f` counts only while `f + b < len`, and a back claim of item `len − 1 − b` only
//! while `f + b < len`, for the `(f, b)` it saw; both counts only grow, so the claim that came
//! second saw the other's count raised, and no item is claimed twice.
//!
//! The owner claims with one add, the thieves with a compare-exchange. Each counter sits on a
//! cache line of its own (128 bytes: the pair of lines the adjacent-line prefetcher fetches
//! together), so a thread claiming from its own segment writes a line no other thread writes
//! until one of them runs dry; with one counter shared by every thread, two threads claiming
//! in turn passed the line between the cores at every claim (`benches/results/NOTES.md`).

use std::sync::atomic::{AtomicU64, Ordering};

/// The items claimed so far from one segment, from its front and from its back (module notes).
#[repr(align(128))]
#[derive(Debug, Default)]
pub struct SegmentClaims(AtomicU64);

/// One claim from the back, in the counter.
const BACK_ONE: u64 = 1 << 32;

impl SegmentClaims {
    /// A segment of which nothing is claimed yet.
    pub const fn new() -> SegmentClaims {
        SegmentClaims(AtomicU64::new(0))
    }

    /// Whether some of the segment's `len` items are not claimed yet.
    #[inline]
    pub fn has_unclaimed(&self, len: u64) -> bool {
        claimed(self.0.load(Ordering::Relaxed)) < len
    }

    /// Claims the next item from the front of a segment of `len` items: its offset in the
    /// segment, or `None` when none is left. A spent segment is seen with a load first, so a
    /// thread that finds it spent does not pull its line exclusive.
    #[inline]
    pub fn claim_front(&self, len: u64) -> Option<u64> {
        if !self.has_unclaimed(len) {
            return None;
        }
        let ends = self.0.fetch_add(1, Ordering::Relaxed);
        (claimed(ends) < len).then_some(ends & u64::from(u32::MAX))
    }

    /// Claims the next item from the back of a segment of `len` items: its offset in the
    /// segment, or `None` when none is left.
    #[inline]
    pub fn claim_back(&self, len: u64) -> Option<u64> {
        let mut ends = self.0.load(Ordering::Relaxed);
        while claimed(ends) < len {
            let exchange = self.0.compare_exchange_weak(
                ends,
                ends + BACK_ONE,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
            match exchange {
                Ok(_) => return Some(len - 1 - (ends >> 32)),
                Err(now) => ends = now,
            }
        }
        None
    }
}

/// The items a counter says are claimed, from both ends. A front claim that finds the segment
/// spent still raises the front count, which only makes the sum larger.
#[inline]
fn claimed(ends: u64) -> u64 {
    (ends & u64::from(u32::MAX)) + (ends >> 32)
}

#[cfg(test)]
mod tests {
    use super::SegmentClaims;

    #[test]
    fn front_and_back_claims_share_out_a_segment_once() {
        let claims = SegmentClaims::new();
        assert_eq!(claims.claim_front(5), Some(0));
        assert_eq!(claims.claim_back(5), Some(4));
        assert_eq!(claims.claim_front(5), Some(1));
        assert_eq!(claims.claim_back(5), Some(3));
        assert!(claims.has_unclaimed(5));
        assert_eq!(claims.claim_front(5), Some(2));
        assert!(!claims.has_unclaimed(5));
        assert_eq!(claims.claim_back(5), None);
        assert_eq!(claims.claim_front(5), None);
        let empty = SegmentClaims::new();
        assert_eq!(empty.claim_front(0), None);
        assert_eq!(empty.claim_back(0), None);
    }
}
