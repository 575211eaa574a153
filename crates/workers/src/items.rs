//! Handing each task of a job its own element of a mutable slice, or its own part of a
//! vector's spare room to push into.
#![allow(unsafe_code)]

use std::marker::PhantomData;
use std::mem::MaybeUninit;

/// Calls `task(i, &mut items[i])` for every item, spread over this thread's workers.
pub fn for_each_mut<T: Send>(items: &mut [T], task: impl Fn(usize, &mut T) + Sync) {
    let items = DisjointItems::new(items);
    crate::for_each(items.len, |index| {
        // SAFETY: `for_each` calls this closure once for each index in `0..items.len`, so no
        // two calls reach the same element, and `items` holds the slice's mutable borrow
        // until `for_each` has returned, after the last call.
        let item = unsafe { items.get(index) };
        task(index, item)
    });
}

/// `task(i, &mut items[i])` for every item, computed on this thread's workers, in index
/// order.
pub fn map_mut<T: Send, R: Send>(
    items: &mut [T],
    task: impl Fn(usize, &mut T) -> R + Sync,
) -> Vec<R> {
    let mut slots: Vec<(&mut T, Option<R>)> = items.iter_mut().map(|item| (item, None)).collect();
    for_each_mut(&mut slots, |index, (item, result)| {
        *result = Some(task(index, item))
    });
    slots
        .into_iter()
        .map(|(_, result)| result.expect("every task has run"))
        .collect()
}

/// One task's room in [`extend_in_pieces`]: its own part of the vector's spare room, filled
/// from the front.
pub struct Piece<'a, T> {
    room: &'a mut [MaybeUninit<T>],
    len: usize,
}

impl<T> Piece<'_, T> {
    /// Appends `value`. Panics if the piece is full (more pushes than its task was given room
    /// for).
    #[inline]
    pub fn push(&mut self, value: T) {
        self.room[self.len].write(value);
        self.len += 1;
    }

    /// The elements pushed so far.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing has been pushed.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Calls `task(i, &mut items[i], piece)` for every item, spread over this thread's workers,
/// each with a [`Piece`] of `room(&items[i])` elements of `out`'s spare room to push into;
/// then closes the pieces up, in item order, after `out`'s elements. Returns where each
/// item's elements start in `out`. The pushes land in their final places while the task has
/// its data in cache; only a piece that follows one with unused room is moved. `out` ends the
/// same for any number of workers. If a task panics, `out` keeps its old length.
pub fn extend_in_pieces<I: Send, T: Copy + Send>(
    out: &mut Vec<T>,
    items: &mut [I],
    room: impl Fn(&I) -> usize,
    task: impl Fn(usize, &mut I, &mut Piece<'_, T>) + Sync,
) -> Vec<usize> {
    let rooms: Vec<usize> = items.iter().map(room).collect();
    let total: usize = rooms.iter().sum();
    out.reserve(total);
    let mut counts = vec![0; items.len()];
    let mut rest = &mut out.spare_capacity_mut()[..total];
    let mut pieces = Vec::with_capacity(items.len());
    for ((item, &len), count) in items.iter_mut().zip(&rooms).zip(&mut counts) {
        let (room, after) = std::mem::take(&mut rest).split_at_mut(len);
        pieces.push((item, Piece { room, len: 0 }, count));
        rest = after;
    }
    for_each_mut(&mut pieces, |index, (item, piece, count)| {
        task(index, item, piece);
        **count = piece.len;
    });
    drop(pieces);
    // Close up: each piece's elements move down to follow the previous piece's. A piece's
    // target starts at or before its own elements and ends before the next piece's room.
    let first = out.len();
    let spare = &mut out.spare_capacity_mut()[..total];
    let (mut from, mut to) = (0, 0);
    let mut starts = Vec::with_capacity(rooms.len());
    for (&len, &count) in rooms.iter().zip(&counts) {
        starts.push(first + to);
        if from != to {
            spare.copy_within(from..from + count, to);
        }
        (from, to) = (from + len, to + count);
    }
    // SAFETY: `reserve` made room for `total` more elements. Every task has returned
    // (`for_each_mut` returns after the last one), and each piece's first `count` slots were
    // written by its pushes (`Piece::push` writes slot `len`, then counts it); the close-up
    // copied those runs, in order, to consecutive slots from the first, so the first `to`
    // slots of the spare room hold initialised elements.
    unsafe { out.set_len(first + to) };
    starts
}

/// A mutable slice whose elements several threads may take, each a different one.
struct DisjointItems<'a, T> {
    first: *mut T,
    len: usize,
    _slice: PhantomData<&'a mut [T]>,
}

// SAFETY: the slice is only reached through `get`, whose callers take distinct elements, so
// sharing it between threads hands each thread `&mut T` to its own elements: sound for
// `T: Send`, as splitting the slice into pieces would be.
unsafe impl<T: Send> Sync for DisjointItems<'_, T> {}

impl<'a, T> DisjointItems<'a, T> {
    fn new(items: &'a mut [T]) -> DisjointItems<'a, T> {
        DisjointItems {
            first: items.as_mut_ptr(),
            len: items.len(),
            _slice: PhantomData,
        }
    }

    /// Element `index`, which no other caller may take while the result lives.
    #[allow(clippy::mut_from_ref)]
    unsafe fn get(&self, index: usize) -> &mut T {
        assert!(index < self.len, "item {index} of {}", self.len);
        // SAFETY: in bounds (asserted) of a slice borrowed mutably for `'a`; the caller
        // guarantees no other reference to this element exists.
        unsafe { &mut *self.first.add(index) }
    }
}
