//! A counting global allocator: the live bytes of the process's Rust heap, so prism-bench can
//! report what a Prism or Rapier world holds.
//!
//! **What is counted.** Every allocation made through Rust's global allocator adds its
//! requested size (`Layout::size`) to one process-wide counter and every free subtracts it;
//! a reallocation adds the difference. The counter is the *requested* bytes, not what the
//! system allocator reserves for them (its headers, rounding and free lists are not counted),
//! which is also how Box2D counts its own bytes (`b2GetByteCount` sums the sizes passed to
//! `b2Alloc`). Memory mapped outside the allocator — thread stacks, the program image — is not
//! counted by either.
//!
//! **Measuring a world.** [`live_bytes`] is read just before an engine's world is created and
//! again after its last step; the difference is what was allocated in between and is still
//! held. The runner keeps everything else out of that window: the scene description is built
//! before it, the figures are computed after it, and whatever the backend and the runner
//! themselves keep during it (the backend's records of the groups it built, the runner's phase
//! totals) is subtracted by its exact size (see `runner::run_once`). Box2D's C allocations do
//! not go through this allocator at all; the Box2D backend reports Box2D's own count.
//!
//! **Uncounted scopes.** Code run inside [`uncounted`] (on the calling thread only) neither adds
//! nor subtracts: the progress display uses it, so that drawing on a terminal never changes a
//! measurement. What such a scope allocates must be freed inside such a scope too.
//!
//! The counter is one relaxed atomic add per allocation and per free, in every run and for
//! every Rust engine alike.

// Unsafe code is confined here: a counting global allocator is unsafe by its trait; every block has
// its `// SAFETY:` argument.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicI64, Ordering};

/// The system allocator, counting the bytes it hands out.
pub struct CountingAllocator {
    live: AtomicI64,
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator::new();

thread_local! {
    /// Set while the thread runs inside [`uncounted`]. A `const` thread-local of a type
    /// without a destructor needs no lazy initialisation, so reading it never allocates.
    static UNCOUNTED: Cell<bool> = const { Cell::new(false) };
}

/// Live bytes allocated through the global allocator, process-wide, now.
pub fn live_bytes() -> i64 {
    GLOBAL.live()
}

/// Runs `f` with this thread's allocations and frees left out of the count.
pub fn uncounted<R>(f: impl FnOnce() -> R) -> R {
    let outer = UNCOUNTED.with(|flag| flag.replace(true));
    let result = f();
    UNCOUNTED.with(|flag| flag.set(outer));
    result
}

/// Whether this thread's allocations count now.
fn counting() -> bool {
    !UNCOUNTED.try_with(Cell::get).unwrap_or(false)
}

/// Bytes as a signed count (no allocation is anywhere near 2⁶³ bytes).
fn signed(bytes: usize) -> i64 {
    i64::try_from(bytes).unwrap_or(i64::MAX)
}

impl CountingAllocator {
    /// A counter at zero.
    pub const fn new() -> Self {
        Self {
            live: AtomicI64::new(0),
        }
    }

    /// Live bytes counted by this allocator.
    pub fn live(&self) -> i64 {
        self.live.load(Ordering::Relaxed)
    }

    fn add(&self, bytes: i64) {
        if counting() {
            self.live.fetch_add(bytes, Ordering::Relaxed);
        }
    }
}

impl Default for CountingAllocator {
    fn default() -> Self {
        Self::new()
    }
}

// SAFETY: every method forwards to the system allocator with the caller's own arguments,
// unchanged, and returns its result unchanged, so `System`'s guarantees are ours; the only
// addition is arithmetic on an atomic counter and a read of a destructor-free thread-local,
// neither of which allocates or unwinds.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which we pass on.
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            self.add(signed(layout.size()));
        }
        pointer
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let pointer = unsafe { System.alloc_zeroed(layout) };
        if !pointer.is_null() {
            self.add(signed(layout.size()));
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: `pointer` came from this allocator, hence from `System`, with `layout`.
        unsafe { System.dealloc(pointer, layout) };
        self.add(-signed(layout.size()));
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `pointer` came from `System` with `layout`; the caller upholds the rest.
        let moved = unsafe { System.realloc(pointer, layout, new_size) };
        if !moved.is_null() {
            self.add(signed(new_size) - signed(layout.size()));
        }
        moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A private counter sees exactly what it hands out: sizes on allocation, the difference
    /// on reallocation (growing and shrinking), nothing after the last free, and nothing from
    /// inside an uncounted scope.
    #[test]
    fn counts_requested_bytes_exactly() {
        let counter = CountingAllocator::new();
        let small = Layout::from_size_align(100, 8).unwrap();
        let wide = Layout::from_size_align(3000, 64).unwrap();
        // SAFETY: both layouts have non-zero size; each pointer is freed once, with the layout
        // (and size after reallocation) it was allocated with.
        unsafe {
            let a = counter.alloc(small);
            let b = counter.alloc_zeroed(wide);
            assert!(!a.is_null() && !b.is_null());
            assert_eq!(counter.live(), 3100);
            assert!(std::slice::from_raw_parts(b, 3000).iter().all(|&x| x == 0));
            let a = counter.realloc(a, small, 1000);
            assert_eq!(counter.live(), 4000);
            let a = counter.realloc(a, Layout::from_size_align(1000, 8).unwrap(), 10);
            assert_eq!(counter.live(), 3010);
            let c = uncounted(|| counter.alloc(small));
            assert_eq!(counter.live(), 3010);
            uncounted(|| counter.dealloc(c, small));
            counter.dealloc(a, Layout::from_size_align(10, 8).unwrap());
            counter.dealloc(b, wide);
        }
        assert_eq!(counter.live(), 0);
    }

    /// Uncounted scopes nest: leaving the inner one does not turn counting back on.
    #[test]
    fn uncounted_scopes_nest() {
        uncounted(|| {
            uncounted(|| assert!(!counting()));
            assert!(!counting());
        });
        assert!(counting());
    }

    /// The installed allocator sees a 4 MiB buffer come and go. Other tests allocate on other
    /// threads at the same time, so of twenty tries at least one window must see exactly the
    /// buffer's bytes (and a window that short is almost always undisturbed).
    #[test]
    fn the_global_counter_sees_a_buffer_come_and_go() {
        const BYTES: usize = 4 << 20;
        let exact = (0..20).any(|_| {
            let before = live_bytes();
            let buffer = vec![1u8; BYTES];
            let held = live_bytes() - before;
            drop(std::hint::black_box(buffer));
            let after = live_bytes() - before;
            held == BYTES as i64 && after == 0
        });
        assert!(exact, "no undisturbed window saw exactly {BYTES} bytes");
    }
}
