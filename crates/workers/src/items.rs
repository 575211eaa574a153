//! Handing each task of a job its own element of a mutable slice, or its own part of a
//! vector's spare room.
#![allow(unsafe_code)]

use std::marker::PhantomData;

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

/// Appends `parts`, in order, to `out`: each part is copied by a task of its own into its
/// place, found from the parts' lengths, so `out` ends the same for any number of workers.
pub fn extend_from_parts<T: Copy + Send + Sync>(out: &mut Vec<T>, parts: &[&[T]]) {
    let total: usize = parts.iter().map(|part| part.len()).sum();
    out.reserve(total);
    let mut rest = &mut out.spare_capacity_mut()[..total];
    let mut pieces = Vec::with_capacity(parts.len());
    for &part in parts {
        let (piece, after) = std::mem::take(&mut rest).split_at_mut(part.len());
        pieces.push((piece, part));
        rest = after;
    }
    for_each_mut(&mut pieces, |_, (piece, part)| {
        piece.write_copy_of_slice(part);
    });
    // SAFETY: `reserve` made room for `total` more elements; the pieces cut the first `total`
    // slots of that room into consecutive parts of the parts' lengths, and `for_each_mut`
    // returned only after every task had written its whole piece.
    unsafe { out.set_len(out.len() + total) };
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
