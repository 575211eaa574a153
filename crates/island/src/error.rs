//! Errors for misuse of the island bookkeeping.
//!
//! The World drives this crate with its own body and constraint indices. A call that names a
//! body that was never added, links a constraint twice, or uses an island id that has since been
//! merged away is a bookkeeping error on the caller's side; it is reported as an [`IslandError`]
//! and changes nothing, so the structure stays consistent and the caller can surface the error.

use crate::{ConstraintKey, IslandId, SolverSetId};
use std::fmt;

/// Why an island or solver-set operation was refused. Every refused call leaves the structure
/// unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IslandError {
    /// The body or constraint index is reserved (`u32::MAX` means "none").
    ReservedIndex,
    /// The body already belongs to an island.
    BodyAlreadyAdded(u32),
    /// The body belongs to no island (never added, or removed).
    UnknownBody(u32),
    /// The body still has linked constraints; unlink them before removing it.
    BodyHasConstraints {
        /// The body's index.
        body: u32,
        /// How many constraints are still linked to it.
        linked: u32,
    },
    /// The constraint is already linked into an island.
    ConstraintAlreadyLinked(ConstraintKey),
    /// The constraint is not linked into any island.
    ConstraintNotLinked(ConstraintKey),
    /// The island id is stale (merged away, or emptied) or was never issued.
    StaleIsland(IslandId),
    /// The island has constraint removals pending; it must be split before it may sleep.
    PendingRemovals(IslandId),
    /// The island is already in a sleeping solver set.
    IslandAlreadyAsleep(IslandId),
    /// The solver set is not a live sleeping set.
    NotASleepingSet(SolverSetId),
}

impl fmt::Display for IslandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IslandError::ReservedIndex => write!(f, "index u32::MAX is reserved"),
            IslandError::BodyAlreadyAdded(body) => {
                write!(f, "body {body} already belongs to an island")
            }
            IslandError::UnknownBody(body) => write!(f, "body {body} belongs to no island"),
            IslandError::BodyHasConstraints { body, linked } => write!(
                f,
                "body {body} still has {linked} linked constraint(s); unlink them first"
            ),
            IslandError::ConstraintAlreadyLinked(key) => {
                write!(f, "{key:?} is already linked into an island")
            }
            IslandError::ConstraintNotLinked(key) => write!(f, "{key:?} is not linked"),
            IslandError::StaleIsland(island) => write!(f, "island {island:?} is not live"),
            IslandError::PendingRemovals(island) => {
                write!(f, "island {island:?} must be split before it may sleep")
            }
            IslandError::IslandAlreadyAsleep(island) => {
                write!(f, "island {island:?} is already asleep")
            }
            IslandError::NotASleepingSet(set) => write!(f, "{set:?} is not a sleeping set"),
        }
    }
}

impl std::error::Error for IslandError {}
