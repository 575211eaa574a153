//! The one door through which the solvers' threads share mutable arrays.
//!
//! A parallel stage hands out blocks of one array (bodies, bundles, contacts, particles) to
//! several threads at once, and a colour stage lets every thread write body states picked at
//! random by its constraints. Rust's borrows cannot express "these threads write disjoint
//! elements chosen at run time", so the arrays are shared as a [`SharedSlice`]: a pointer and a
//! length that may be sent between threads, with `unsafe` accessors whose contracts state
//! exactly what the caller must guarantee. Every such access in the engine goes through it, and
//! each call site argues its guarantee in a `// SAFETY:` comment, typically from one of:
//!
//! - **block disjointness**: the executor gives each block of a stage to exactly one thread,
//!   and blocks of one stage cover disjoint index ranges;
//! - **stage barriers**: a stage starts only after every block of the previous stage has
//!   finished (with release/acquire ordering), so accesses of different stages never overlap
//!   in time;
//! - **the colour invariant**: no dynamic body appears twice among the constraints of one
//!   colour, so the threads solving a colour's blocks write
//!   disjoint body states, and read non-dynamic bodies that nobody writes.
//!
//! Element accessors ([`SharedSlice::read`], [`SharedSlice::write`]) never create a reference
//! to the whole array, so a thread reading body 3 does not alias another thread's write to
//! body 7.

// Unsafe code is confined here: SharedSlice is the one place where threads write disjoint parts of
// one array; every block has its `// SAFETY:` argument.
#![allow(unsafe_code)]

use core::marker::PhantomData;
use core::ops::Range;

/// A mutable slice shared between the threads of one step.
pub struct SharedSlice<'a, T> {
    ptr: *mut T,
    len: usize,
    _borrow: PhantomData<&'a mut [T]>,
}

// SAFETY: a `SharedSlice` is a `&mut [T]` whose accesses are split among threads by the
// contracts of its unsafe methods; sending or sharing it is sound when `T` itself may be sent
// to another thread (each element is accessed by one thread at a time).
unsafe impl<T: Send> Send for SharedSlice<'_, T> {}
// SAFETY: as above: shared use only goes through the unsafe accessors.
unsafe impl<T: Send> Sync for SharedSlice<'_, T> {}

impl<'a, T> SharedSlice<'a, T> {
    /// Shares `slice` for the lifetime `'a`; the exclusive borrow keeps everyone else out.
    pub fn new(slice: &'a mut [T]) -> SharedSlice<'a, T> {
        SharedSlice {
            ptr: slice.as_mut_ptr(),
            len: slice.len(),
            _borrow: PhantomData,
        }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The elements `range` for reading.
    ///
    /// # Safety
    /// No thread may write any element of `range` while the returned slice is alive.
    #[inline]
    pub unsafe fn slice(&self, range: Range<usize>) -> &[T] {
        assert!(range.start <= range.end && range.end <= self.len);
        // SAFETY: the range is in bounds of the borrowed slice (asserted), and the caller
        // guarantees no concurrent writes to it.
        unsafe { core::slice::from_raw_parts(self.ptr.add(range.start), range.len()) }
    }

    /// The elements `range` for writing.
    ///
    /// # Safety
    /// No other thread may access any element of `range` while the returned slice is alive.
    #[allow(clippy::mut_from_ref)]
    #[inline]
    pub unsafe fn slice_mut(&self, range: Range<usize>) -> &mut [T] {
        assert!(range.start <= range.end && range.end <= self.len);
        // SAFETY: in bounds (asserted); the caller guarantees exclusive access to the range.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.add(range.start), range.len()) }
    }

    /// Element `index` for reading.
    ///
    /// # Safety
    /// No thread may write element `index` while the returned reference is alive.
    #[inline]
    pub unsafe fn get(&self, index: usize) -> &T {
        assert!(index < self.len);
        // SAFETY: in bounds (asserted), and not written concurrently (the caller's guarantee).
        unsafe { &*self.ptr.add(index) }
    }

    /// Element `index` for writing.
    ///
    /// # Safety
    /// No other thread may access element `index` while the returned reference is alive.
    #[allow(clippy::mut_from_ref)]
    #[inline]
    pub unsafe fn get_mut(&self, index: usize) -> &mut T {
        assert!(index < self.len);
        // SAFETY: in bounds (asserted); the caller guarantees exclusive access to the element.
        unsafe { &mut *self.ptr.add(index) }
    }

    /// A copy of element `index`.
    ///
    /// # Safety
    /// No thread may write element `index` during the read.
    #[inline]
    pub unsafe fn read(&self, index: usize) -> T
    where
        T: Copy,
    {
        assert!(index < self.len);
        // SAFETY: in bounds (asserted), aligned (an element of a slice), and not written
        // concurrently (the caller's guarantee).
        unsafe { self.ptr.add(index).read() }
    }

    /// Overwrites element `index` with `value`.
    ///
    /// # Safety
    /// No other thread may access element `index` during the write.
    #[inline]
    pub unsafe fn write(&self, index: usize, value: T)
    where
        T: Copy,
    {
        assert!(index < self.len);
        // SAFETY: in bounds (asserted), aligned, and exclusively accessed (the caller's
        // guarantee); `T: Copy` has no destructor to skip.
        unsafe { self.ptr.add(index).write(value) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accessors_see_the_borrowed_slice() {
        let mut data = [1, 2, 3, 4, 5];
        let shared = SharedSlice::new(&mut data);
        assert_eq!(shared.len(), 5);
        // SAFETY: single-threaded test; no access overlaps another.
        unsafe {
            assert_eq!(shared.slice(1..3), &[2, 3]);
            shared.slice_mut(3..5).copy_from_slice(&[40, 50]);
            shared.write(0, 10);
            assert_eq!(shared.read(0), 10);
        }
        assert_eq!(data, [10, 2, 3, 40, 50]);
    }

    #[test]
    fn threads_write_disjoint_elements() {
        let mut data = vec![0u32; 1000];
        let shared = SharedSlice::new(&mut data);
        std::thread::scope(|scope| {
            for parity in 0..2 {
                let shared = &shared;
                scope.spawn(move || {
                    for i in (parity..1000).step_by(2) {
                        // SAFETY: thread `parity` alone touches the indices of its parity.
                        unsafe { shared.write(i, i as u32 * 3) };
                    }
                });
            }
        });
        assert!(data.iter().enumerate().all(|(i, &v)| v == i as u32 * 3));
    }

    #[test]
    #[should_panic]
    fn out_of_bounds_is_caught() {
        let mut data = [0u8; 4];
        let shared = SharedSlice::new(&mut data);
        // SAFETY: single-threaded; the bounds check panics before any access.
        unsafe { shared.read(4) };
    }
}
