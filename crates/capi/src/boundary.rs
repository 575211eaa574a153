//! The boundary every call from C crosses: panics stop here, errors become a status and a
//! message.
//!
//! Each exported function with a status hands its work to one of four runners:
//!
//! * [`call`] — any work: runs it under `catch_unwind`, returns `PRISM_STATUS_OK` or the
//!   error's status, and stores the error's message for `prism_last_error()`;
//! * [`get`] — reads a value from a world into an output;
//! * [`update`] — changes a world;
//! * [`create`] — changes a world and returns a new id, checking the output pointer *before*
//!   the change so that a NULL output never leaves an object nobody can name;
//!
//! and the yes-or-no questions without a status (`prism_*_is_valid`) go to [`probe`].
//!
//! A panic is an internal error of the engine (user input is validated and never panics). It
//! is caught and returned as `PRISM_STATUS_PANIC`. If it happened while a world was being
//! changed, the world may be half-way through an update, so it is marked *poisoned*: every
//! later call on it fails with `PRISM_STATUS_WORLD_POISONED`, except `prism_world_destroy()`.
//!
//! `catch_unwind` needs the unwinding panic strategy. The workspace's `ci` and `capi` profiles
//! unwind; its `release` profile aborts, so a library built with it ends the program on an
//! internal error instead of returning `PRISM_STATUS_PANIC`. Either way nothing unwinds into C.

use crate::pointer::{Out, WorldMut, WorldRef};
use crate::status::{CapiError, PrismStatus, set_last_error};
use crate::world::PrismWorld;
use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

/// Runs `work` as the exported function `function` (see the module notes).
pub(crate) fn call(
    function: &'static str,
    work: impl FnOnce() -> Result<(), CapiError>,
) -> PrismStatus {
    // `AssertUnwindSafe`: after a panic nothing the closure touched is used again, except a
    // world being changed, which `change_world` poisons first.
    let outcome = catch_unwind(AssertUnwindSafe(work))
        .unwrap_or_else(|payload| Err(panic_error(payload.as_ref())));
    match outcome {
        Ok(()) => PrismStatus::Ok,
        Err(error) => {
            set_last_error(function, &error.message);
            error.status
        }
    }
}

/// Reads a value from the world with `read` and writes it to `out`.
pub(crate) fn get<T>(
    function: &'static str,
    world: WorldRef,
    out: Out<T>,
    read: impl FnOnce(&PrismWorld) -> Result<T, CapiError>,
) -> PrismStatus {
    call(function, || {
        out.check()?;
        let value = read(live(world.get()?)?)?;
        out.put(value)
    })
}

/// Changes the world with `change`.
pub(crate) fn update(
    function: &'static str,
    mut world: WorldMut,
    change: impl FnOnce(&mut PrismWorld) -> Result<(), CapiError>,
) -> PrismStatus {
    call(function, || change_world(world.get()?, change))
}

/// Makes a new object with `make` and writes its id to `out` (checked before the change).
pub(crate) fn create<Id>(
    function: &'static str,
    mut world: WorldMut,
    out: Out<Id>,
    make: impl FnOnce(&mut PrismWorld) -> Result<Id, CapiError>,
) -> PrismStatus {
    call(function, || {
        out.check()?;
        let id = change_world(world.get()?, make)?;
        out.put(id)
    })
}

/// Runs a question without a status (`prism_*_is_valid`): `None` (a NULL world) and a caught
/// panic both answer false, and the last-error message is left alone.
pub(crate) fn probe(question: impl FnOnce() -> Option<bool>) -> bool {
    catch_unwind(AssertUnwindSafe(question))
        .ok()
        .flatten()
        .unwrap_or(false)
}

/// Runs `change` on a live world; a panic inside it poisons the world before it goes on to
/// [`call`].
fn change_world<R>(
    world: &mut PrismWorld,
    change: impl FnOnce(&mut PrismWorld) -> Result<R, CapiError>,
) -> Result<R, CapiError> {
    live(world)?;
    match catch_unwind(AssertUnwindSafe(|| change(world))) {
        Ok(result) => result,
        Err(payload) => {
            world.poisoned = true;
            resume_unwind(payload)
        }
    }
}

/// The world, unless an earlier internal error poisoned it.
fn live(world: &PrismWorld) -> Result<&PrismWorld, CapiError> {
    if world.poisoned {
        Err(CapiError::new(
            PrismStatus::WorldPoisoned,
            "the world was poisoned by an earlier internal error (PRISM_STATUS_PANIC) and \
             accepts only prism_world_destroy()",
        ))
    } else {
        Ok(world)
    }
}

/// The error for a caught panic, with its message when it has one.
fn panic_error(payload: &(dyn Any + Send)) -> CapiError {
    let detail = payload
        .downcast_ref::<&str>()
        .map(|text| text.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string());
    CapiError::new(
        PrismStatus::Panic,
        format!("internal error in the engine (a Rust panic): {detail}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{prism_default_world_def, prism_world_create, prism_world_destroy};
    use std::ffi::CStr;
    use std::ptr;

    fn last_error() -> String {
        // SAFETY: a NUL-terminated buffer owned by this thread, unchanged while we read it.
        unsafe { CStr::from_ptr(crate::status::prism_last_error()) }
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn a_panic_becomes_a_status_and_a_message() {
        let status = call("prism_test", || panic!("lost invariant"));
        assert_eq!(status, PrismStatus::Panic);
        let message = last_error();
        assert!(
            message.starts_with("prism_test: internal error"),
            "{message}"
        );
        assert!(message.ends_with("lost invariant"), "{message}");
    }

    #[test]
    fn a_panic_while_changing_a_world_poisons_it() {
        let def = prism_default_world_def();
        let mut world = ptr::null_mut();
        // SAFETY: `def` and `world` are live locals of the right types.
        let status = unsafe { prism_world_create(&def, &mut world) };
        assert_eq!(status, PrismStatus::Ok);
        let world_arg = || {
            // SAFETY: `world` is the live world created above, used by this thread alone.
            unsafe { WorldMut::new(world) }
        };
        let panicked = update("prism_test", world_arg(), |_| panic!("half-way"));
        assert_eq!(panicked, PrismStatus::Panic);
        let refused = update("prism_test", world_arg(), |_| Ok(()));
        assert_eq!(refused, PrismStatus::WorldPoisoned);
        assert!(last_error().contains("poisoned"), "{}", last_error());
        // SAFETY: the world is live and never used again.
        assert_eq!(unsafe { prism_world_destroy(world) }, PrismStatus::Ok);
    }

    #[test]
    fn a_null_output_is_reported_before_the_world_changes() {
        let def = prism_default_world_def();
        let mut world = ptr::null_mut();
        // SAFETY: live locals of the right types.
        let status = unsafe { prism_world_create(&def, &mut world) };
        assert_eq!(status, PrismStatus::Ok);
        let mut changed = false;
        // SAFETY: `world` is live; the output is NULL, which `Out` accepts.
        let (world_arg, out) = unsafe {
            (
                WorldMut::new(world),
                Out::<u32>::new(ptr::null_mut(), "out_id"),
            )
        };
        let status = create("prism_test", world_arg, out, |_| {
            changed = true;
            Ok(1)
        });
        assert_eq!(status, PrismStatus::NullPointer);
        assert!(!changed);
        assert_eq!(last_error(), "prism_test: `out_id` is NULL");
        // SAFETY: the world is live and never used again.
        assert_eq!(unsafe { prism_world_destroy(world) }, PrismStatus::Ok);
    }
}
