//! Pointer arguments: the only place where this crate touches memory it did not allocate.
//!
//! Each exported function wraps its raw pointers, in one `unsafe` block at its top, into the
//! small types below. Their constructors are `unsafe`: by calling one, the function passes on to
//! this module its own caller's promise (the pointer contract in the crate documentation) that
//! the pointer is NULL or valid for the access the type makes, for the duration of the call.
//! From then on the wrappers are used safely: a NULL pointer becomes an error naming the
//! argument, and reads and writes go through the checked methods here.
//!
//! None of the wrappers is `Clone` or outlives the call it was made in, so each promise is used
//! once, within the call, as the C caller intended.

use crate::status::CapiError;
use crate::world::PrismWorld;
use std::mem::MaybeUninit;

/// An input value the caller passes by pointer (`const T *`).
pub(crate) struct In<T> {
    pointer: *const T,
    name: &'static str,
}

impl<T: Copy> In<T> {
    /// Wraps the argument `name`.
    ///
    /// # Safety
    ///
    /// `pointer` is NULL or points to an initialised, properly aligned `T` that nothing writes
    /// during the call.
    pub(crate) unsafe fn new(pointer: *const T, name: &'static str) -> In<T> {
        In { pointer, name }
    }

    /// A copy of the value, or a NULL-pointer error naming the argument.
    pub(crate) fn read(&self) -> Result<T, CapiError> {
        // SAFETY: `new`'s contract: NULL (handled by `as_ref`) or a valid, aligned,
        // initialised `T` for the duration of the call.
        let value = unsafe { self.pointer.as_ref() };
        value.copied().ok_or_else(|| CapiError::null(self.name))
    }
}

/// An input array the caller passes as a pointer and a count (`const T *, size_t`).
pub(crate) struct InSlice<T> {
    pointer: *const T,
    count: usize,
    name: &'static str,
}

impl<T> InSlice<T> {
    /// Wraps the array argument `name` of `count` elements.
    ///
    /// # Safety
    ///
    /// `pointer` is NULL (only valid with `count == 0`) or points to `count` initialised,
    /// properly aligned values of `T` in one allocation that nothing writes during the call.
    pub(crate) unsafe fn new(pointer: *const T, count: usize, name: &'static str) -> InSlice<T> {
        InSlice {
            pointer,
            count,
            name,
        }
    }

    /// The elements, or a NULL-pointer error if the pointer is NULL and the count is not zero.
    pub(crate) fn get(&self) -> Result<&[T], CapiError> {
        if self.count == 0 {
            return Ok(&[]);
        }
        if self.pointer.is_null() {
            return Err(CapiError::null(self.name));
        }
        // SAFETY: non-NULL, and `new`'s contract makes it `count` valid, aligned, initialised
        // values in one allocation, unchanged during the call (which the borrow cannot outlive).
        Ok(unsafe { std::slice::from_raw_parts(self.pointer, self.count) })
    }
}

/// An output the function writes through a pointer (`T *`).
pub(crate) struct Out<T> {
    pointer: *mut T,
    name: &'static str,
}

impl<T> Out<T> {
    /// Wraps the output argument `name`.
    ///
    /// # Safety
    ///
    /// `pointer` is NULL or points to memory valid for writing one properly aligned `T` (its
    /// old contents are neither read nor dropped), not overlapping any other argument.
    pub(crate) unsafe fn new(pointer: *mut T, name: &'static str) -> Out<T> {
        Out { pointer, name }
    }

    /// A NULL-pointer error if the output is NULL: functions that change the world check their
    /// outputs first, so that they never change it and then fail to report the result.
    pub(crate) fn check(&self) -> Result<(), CapiError> {
        if self.pointer.is_null() {
            Err(CapiError::null(self.name))
        } else {
            Ok(())
        }
    }

    /// Writes `value`, or returns a NULL-pointer error naming the argument.
    pub(crate) fn put(self, value: T) -> Result<(), CapiError> {
        self.check()?;
        // SAFETY: non-NULL, and `new`'s contract makes it valid and aligned for writing a `T`
        // whose old contents need no drop.
        unsafe { self.pointer.write(value) };
        Ok(())
    }
}

/// A caller's array that the function fills (`T *, size_t capacity`).
pub(crate) struct OutSlice<T> {
    pointer: *mut T,
    capacity: usize,
    name: &'static str,
}

impl<T: Copy> OutSlice<T> {
    /// Wraps the output array `name` with room for `capacity` values.
    ///
    /// # Safety
    ///
    /// `pointer` is NULL (only valid with `capacity == 0`) or points to memory valid for
    /// writing `capacity` properly aligned values of `T` in one allocation, not overlapping any
    /// other argument or memory the world owns.
    pub(crate) unsafe fn new(pointer: *mut T, capacity: usize, name: &'static str) -> OutSlice<T> {
        OutSlice {
            pointer,
            capacity,
            name,
        }
    }

    /// A NULL-pointer error if the array is NULL while its capacity is not zero.
    pub(crate) fn check(&self) -> Result<(), CapiError> {
        if self.pointer.is_null() && self.capacity > 0 {
            Err(CapiError::null(self.name))
        } else {
            Ok(())
        }
    }

    /// Copies the first `min(values.len(), capacity)` values into the array.
    pub(crate) fn fill(self, values: &[T]) -> Result<(), CapiError> {
        self.check()?;
        let count = values.len().min(self.capacity);
        if count == 0 {
            return Ok(());
        }
        // SAFETY: `count ≤ capacity` and `count > 0`, so the pointer is non-NULL (checked above)
        // and `new`'s contract makes it valid for `count` aligned writes; `values` is memory
        // this crate owns, which the contract says the array does not overlap.
        unsafe {
            self.pointer
                .cast::<MaybeUninit<T>>()
                .copy_from_nonoverlapping(values.as_ptr().cast(), count)
        };
        Ok(())
    }
}

/// A world the function only reads (`const PrismWorld *`).
pub(crate) struct WorldRef {
    pointer: *const PrismWorld,
}

impl WorldRef {
    /// Wraps the `world` argument.
    ///
    /// # Safety
    ///
    /// `pointer` is NULL or a world returned by `prism_world_create` and not yet destroyed,
    /// that no other thread changes during the call.
    pub(crate) unsafe fn new(pointer: *const PrismWorld) -> WorldRef {
        WorldRef { pointer }
    }

    /// The world, or a NULL-pointer error.
    pub(crate) fn get(&self) -> Result<&PrismWorld, CapiError> {
        // SAFETY: `new`'s contract: NULL (handled by `as_ref`) or a live world from
        // `Box::into_raw` in `prism_world_create`, not changed during the call.
        let world = unsafe { self.pointer.as_ref() };
        world.ok_or_else(|| CapiError::null("world"))
    }
}

/// A world the function changes (`PrismWorld *`).
pub(crate) struct WorldMut {
    pointer: *mut PrismWorld,
}

impl WorldMut {
    /// Wraps the `world` argument.
    ///
    /// # Safety
    ///
    /// `pointer` is NULL or a world returned by `prism_world_create` and not yet destroyed,
    /// that no other thread uses during the call.
    pub(crate) unsafe fn new(pointer: *mut PrismWorld) -> WorldMut {
        WorldMut { pointer }
    }

    /// The world, or a NULL-pointer error.
    pub(crate) fn get(&mut self) -> Result<&mut PrismWorld, CapiError> {
        // SAFETY: `new`'s contract: NULL (handled by `as_mut`) or a live world from
        // `Box::into_raw`, used by this call alone; the borrow ends with `self`'s.
        let world = unsafe { self.pointer.as_mut() };
        world.ok_or_else(|| CapiError::null("world"))
    }

    /// Takes the world back for destruction; `None` for NULL.
    ///
    /// # Safety
    ///
    /// Beyond `new`'s contract: the caller never uses the pointer again.
    pub(crate) unsafe fn take(self) -> Option<Box<PrismWorld>> {
        if self.pointer.is_null() {
            return None;
        }
        // SAFETY: a live world made by `Box::into_raw` in `prism_world_create` (`new`'s
        // contract), which the caller gives up for good (this function's contract).
        Some(unsafe { Box::from_raw(self.pointer) })
    }
}
