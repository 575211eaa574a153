//! Status codes and the last-error message.
//!
//! Every fallible function returns a [`PrismStatus`]. `PRISM_STATUS_OK` is zero, so
//! `if (status) { … }` tests for failure. On failure the function also leaves a message in a
//! thread-local buffer, read with [`prism_last_error`]: the function's name, then what was wrong,
//! naming the field or argument and the offending value, for example
//!
//! ```text
//!   prism_body_create: `BodyDef::position` must be finite, got NaN
//! ```
//!
//! Checks made by the engine name its own structures (`BodyDef`, `ShapeDef`, `JointDef`, …),
//! whose fields are those of the C structures of the same name with a `Prism` prefix
//! (`PrismBodyDef`, …); checks made by this layer name the C structure or argument directly.
//!
//! The message stays until the next failing call on the same thread; successful calls leave it
//! alone, as `errno` is left alone. The numeric values of the statuses are part of the ABI: new
//! statuses are added at the end.

use prism::PrismError;
use std::cell::RefCell;
use std::ffi::{CString, c_char};

/// The result of a call. Zero is success; every other value is a failure whose details are in
/// `prism_last_error()`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrismStatus {
    /// The call succeeded.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullPointer = 1,
    /// A definition was not started from its `prism_default_*_def()` function.
    UninitializedDef = 2,
    /// An enumeration field held a value outside its constants.
    InvalidEnum = 3,
    /// A number that must be finite was NaN or infinite.
    NonFinite = 4,
    /// A finite number outside its allowed range.
    OutOfRange = 5,
    /// A count outside its allowed range (substeps, worker count, polygon vertices).
    InvalidCount = 6,
    /// An id whose object was destroyed, or that never came from this world.
    InvalidId = 7,
    /// Points or a polygon that do not make a valid convex polygon.
    DegeneratePolygon = 8,
    /// A joint that cannot be made or set as asked.
    InvalidJoint = 9,
    /// Not returned any more: a step in which bodies diverged succeeds, and lists them in
    /// `prism_world_get_diverged_bodies()`. The value stays reserved so the numbers keep their
    /// meaning.
    Diverged = 10,
    /// A whole-world consistency check failed (engine built with validation).
    Corrupted = 11,
    /// The operating system refused the worker threads asked for.
    ThreadPool = 12,
    /// An internal error of the engine (a Rust panic), caught at the boundary. If it happened
    /// while changing a world, that world is poisoned.
    Panic = 13,
    /// The world was being changed when an internal error happened; it may be inconsistent and
    /// accepts no more calls except `prism_world_destroy()`.
    WorldPoisoned = 14,
    /// An error of a kind this version of the C interface does not know.
    Unknown = 15,
}

/// A failed call: the status to return and the message for `prism_last_error()`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CapiError {
    pub(crate) status: PrismStatus,
    pub(crate) message: String,
}

impl CapiError {
    pub(crate) fn new(status: PrismStatus, message: impl Into<String>) -> CapiError {
        CapiError {
            status,
            message: message.into(),
        }
    }

    /// A NULL `argument`.
    pub(crate) fn null(argument: &str) -> CapiError {
        CapiError::new(PrismStatus::NullPointer, format!("`{argument}` is NULL"))
    }

    /// A definition whose `internal_value` was not set by its default function.
    pub(crate) fn uninitialized(def: &str, default_function: &str) -> CapiError {
        CapiError::new(
            PrismStatus::UninitializedDef,
            format!(
                "`{def}` was not initialised with {default_function}() (its `internal_value` \
                 is wrong); start every definition from its default function"
            ),
        )
    }
}

impl From<PrismError> for CapiError {
    fn from(error: PrismError) -> CapiError {
        let status = match &error {
            PrismError::NonFinite { .. } => PrismStatus::NonFinite,
            PrismError::OutOfRange { .. } => PrismStatus::OutOfRange,
            PrismError::InvalidCount { .. } => PrismStatus::InvalidCount,
            PrismError::InvalidId { .. } => PrismStatus::InvalidId,
            PrismError::DegeneratePolygon(_) | PrismError::InvalidChain(_) => {
                PrismStatus::DegeneratePolygon
            }
            PrismError::InvalidJoint { .. } => PrismStatus::InvalidJoint,
            PrismError::Corrupted { .. } => PrismStatus::Corrupted,
            PrismError::ThreadPool { .. } => PrismStatus::ThreadPool,
            _ => PrismStatus::Unknown,
        };
        CapiError::new(status, error.to_string())
    }
}

thread_local! {
    /// The message of the last failed call on this thread.
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Stores `function: message` as this thread's last error.
pub(crate) fn set_last_error(function: &str, message: &str) {
    // An interior NUL would cut the C string short; no message has one, but a panic payload
    // could.
    let text = format!("{function}: {message}").replace('\0', " ");
    let text = CString::new(text).unwrap_or_default();
    LAST_ERROR.with(|last| *last.borrow_mut() = text);
}

/// The message of the last call on this thread that did not return `PRISM_STATUS_OK`: the
/// function's name, then what was wrong (the field or argument and its value). An empty string
/// if no call has failed on this thread.
///
/// The pointer stays valid, and the text unchanged, until the next failing call on the same
/// thread. Never NULL; do not free it.
#[unsafe(no_mangle)]
pub extern "C" fn prism_last_error() -> *const c_char {
    // The buffer lives as long as the thread and is replaced only by `set_last_error`, which
    // runs only inside a later failing call of this thread.
    LAST_ERROR.with(|last| last.borrow().as_ptr())
}

/// The name of a status as a static string ("PRISM_STATUS_OK", …), or "PRISM_STATUS_UNKNOWN"
/// for a value that is not a status. Never NULL; do not free it.
#[unsafe(no_mangle)]
pub extern "C" fn prism_status_name(status: i32) -> *const c_char {
    let name: &'static std::ffi::CStr = match status {
        0 => c"PRISM_STATUS_OK",
        1 => c"PRISM_STATUS_NULL_POINTER",
        2 => c"PRISM_STATUS_UNINITIALIZED_DEF",
        3 => c"PRISM_STATUS_INVALID_ENUM",
        4 => c"PRISM_STATUS_NON_FINITE",
        5 => c"PRISM_STATUS_OUT_OF_RANGE",
        6 => c"PRISM_STATUS_INVALID_COUNT",
        7 => c"PRISM_STATUS_INVALID_ID",
        8 => c"PRISM_STATUS_DEGENERATE_POLYGON",
        9 => c"PRISM_STATUS_INVALID_JOINT",
        10 => c"PRISM_STATUS_DIVERGED",
        11 => c"PRISM_STATUS_CORRUPTED",
        12 => c"PRISM_STATUS_THREAD_POOL",
        13 => c"PRISM_STATUS_PANIC",
        14 => c"PRISM_STATUS_WORLD_POISONED",
        _ => c"PRISM_STATUS_UNKNOWN",
    };
    name.as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn last_error() -> String {
        // SAFETY: `prism_last_error` returns a NUL-terminated buffer owned by this thread,
        // unchanged until the next failing call, and nothing fails while we read it.
        unsafe { CStr::from_ptr(prism_last_error()) }
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn status_names_match_the_enum_values() {
        let statuses = [
            (PrismStatus::Ok, "PRISM_STATUS_OK"),
            (PrismStatus::NullPointer, "PRISM_STATUS_NULL_POINTER"),
            (PrismStatus::InvalidId, "PRISM_STATUS_INVALID_ID"),
            (PrismStatus::WorldPoisoned, "PRISM_STATUS_WORLD_POISONED"),
            (PrismStatus::Unknown, "PRISM_STATUS_UNKNOWN"),
        ];
        for (status, expected) in statuses {
            // SAFETY: `prism_status_name` returns a static NUL-terminated string.
            let name = unsafe { CStr::from_ptr(prism_status_name(status as i32)) };
            assert_eq!(name.to_str(), Ok(expected));
        }
        // SAFETY: as above.
        let unknown = unsafe { CStr::from_ptr(prism_status_name(-4)) };
        assert_eq!(unknown.to_str(), Ok("PRISM_STATUS_UNKNOWN"));
    }

    #[test]
    fn the_message_names_the_function_and_survives_nul_bytes() {
        set_last_error("prism_test", "bad \0 value");
        assert_eq!(last_error(), "prism_test: bad   value");
    }

    #[test]
    fn engine_errors_keep_their_message() {
        let error = CapiError::from(PrismError::NonFinite {
            field: "BodyDef::position",
            value: f32::NAN,
        });
        assert_eq!(error.status, PrismStatus::NonFinite);
        assert_eq!(error.message, "`BodyDef::position` must be finite, got NaN");
    }
}
