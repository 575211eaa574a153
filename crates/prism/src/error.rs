//! Errors: what a caller can get wrong.
//!
//! Every public function that takes user input validates it *before* changing anything, so an
//! error leaves the world exactly as it was: nothing is half-created, no id is handed out, and
//! the world can be stepped and queried as if the call had not been made. Each variant carries
//! enough to find the mistake without a debugger: the field's name and the offending value, or
//! the stale id's kind, index and generation.
//!
//! A simulation can still diverge with valid inputs (an absurd torque on a body with a tiny
//! inertia overflows `f32`). That is not an error of the call: the step checks every moving
//! body after the solve, puts one whose velocity or pose is no longer finite back where it was
//! at the start of the step, at rest, lists it in [`crate::World::diverged_bodies`], and
//! succeeds. The NaN never reaches a contact cache, a broadphase tree, or another body. The
//! only error a step returns besides bad arguments is [`PrismError::Corrupted`], from the
//! `validate` feature's checks.

use collision::chain::ChainError;
use collision::hull::HullError;
use core_soa::Vec2;
use std::fmt;

/// Which kind of object an id refers to (for [`PrismError::InvalidId`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IdKind {
    /// A body id ([`BodyId`](core_soa::BodyId)).
    Body,
    /// A shape id ([`ShapeId`](core_soa::ShapeId)).
    Shape,
    /// A joint id ([`JointId`](core_soa::JointId)).
    Joint,
    /// A [`crate::ParticleSystemId`].
    ParticleSystem,
}

impl fmt::Display for IdKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IdKind::Body => "body",
            IdKind::Shape => "shape",
            IdKind::Joint => "joint",
            IdKind::ParticleSystem => "particle system",
        })
    }
}

/// Everything that can go wrong in a call to the world.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum PrismError {
    /// A number that must be finite was NaN or infinite.
    NonFinite {
        /// The field or argument, as `Type::field` or the parameter's name.
        field: &'static str,
        /// The value given.
        value: f32,
    },
    /// A finite number outside its allowed range (`requirement` says which range).
    OutOfRange {
        /// The field or argument, as `Type::field` or the parameter's name.
        field: &'static str,
        /// The value given.
        value: f32,
        /// The allowed range, in words.
        requirement: &'static str,
    },
    /// A count outside its allowed range (substeps, worker count).
    InvalidCount {
        /// The field, as `Type::field`.
        field: &'static str,
        /// The value given.
        value: u32,
        /// The allowed range, in words.
        requirement: &'static str,
    },
    /// An id whose object was destroyed, or that never came from this world.
    InvalidId {
        /// What kind of object the id names.
        kind: IdKind,
        /// The id's slot index.
        index: u32,
        /// The id's generation (a destroyed object's slot gets a new generation when reused).
        generation: u32,
    },
    /// A polygon that is not a valid convex polygon.
    DegeneratePolygon(HullError),
    /// A chain that cannot be built from the given points.
    InvalidChain(ChainError),
    /// A whole-structure check (feature `validate`) found the world's bookkeeping inconsistent.
    Corrupted {
        /// Which check failed and on what.
        message: String,
    },
    /// The operating system refused the worker threads asked for by `WorldDef::worker_count`.
    ThreadPool {
        /// The operating system's reason, as it reported it.
        message: String,
    },
    /// A joint that cannot be made or set as asked: `field` names the setting or body,
    /// `reason` says what is wrong with it.
    InvalidJoint {
        /// The setting or body, as `kind.field` (for example `revolute.lower_angle`).
        field: String,
        /// What is wrong with it, with the value and the rule.
        reason: String,
    },
    /// A particle-system call the particles crate refused beyond a bad number: a stale
    /// particle, spring, constraint, anchor or force-field id, a constraint that cannot be
    /// built, or settings that do not go together (the error names the field).
    Particles(particles::ParticleError),
    /// A snapshot that cannot be restored: truncated, corrupted, of another format version,
    /// or describing an inconsistent world.
    Snapshot {
        /// The field or check that failed.
        what: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl fmt::Display for PrismError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrismError::NonFinite { field, value } => {
                write!(f, "`{field}` must be finite, got {value}")
            }
            PrismError::OutOfRange {
                field,
                value,
                requirement,
            } => {
                write!(f, "`{field}` must be {requirement}, got {value}")
            }
            PrismError::InvalidCount {
                field,
                value,
                requirement,
            } => {
                write!(f, "`{field}` must be {requirement}, got {value}")
            }
            PrismError::InvalidId {
                kind,
                index,
                generation,
            } => write!(
                f,
                "{kind} id (index {index}, generation {generation}) does not refer to a live {kind}"
            ),
            PrismError::DegeneratePolygon(error) => write!(f, "degenerate polygon: {error}"),
            PrismError::InvalidChain(error) => write!(f, "invalid chain: {error}"),
            PrismError::Corrupted { message } => write!(f, "world validation failed: {message}"),
            PrismError::ThreadPool { message } => {
                write!(f, "could not start the worker threads: {message}")
            }
            PrismError::InvalidJoint { field, reason } => {
                write!(f, "invalid joint: `{field}` {reason}")
            }
            PrismError::Particles(error) => write!(f, "particles: {error}"),
            PrismError::Snapshot { what, reason } => {
                write!(f, "invalid snapshot: `{what}`: {reason}")
            }
        }
    }
}

impl std::error::Error for PrismError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PrismError::DegeneratePolygon(error) => Some(error),
            PrismError::InvalidChain(error) => Some(error),
            PrismError::Particles(error) => Some(error),
            _ => None,
        }
    }
}

impl From<HullError> for PrismError {
    fn from(error: HullError) -> Self {
        PrismError::DegeneratePolygon(error)
    }
}

impl From<ChainError> for PrismError {
    fn from(error: ChainError) -> Self {
        PrismError::InvalidChain(error)
    }
}

/// `Ok(value)` if finite, else [`PrismError::NonFinite`] naming `field`.
pub(crate) fn finite(field: &'static str, value: f32) -> Result<f32, PrismError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(PrismError::NonFinite { field, value })
    }
}

/// `Ok(v)` if both components are finite, else [`PrismError::NonFinite`] naming `field` and the
/// first offending component.
pub(crate) fn finite_vec(field: &'static str, v: Vec2) -> Result<Vec2, PrismError> {
    finite(field, v.x)?;
    finite(field, v.y)?;
    Ok(v)
}

/// `Ok(value)` if finite and `value >= 0`.
pub(crate) fn non_negative(field: &'static str, value: f32) -> Result<f32, PrismError> {
    finite(field, value)?;
    if value >= 0.0 {
        Ok(value)
    } else {
        Err(PrismError::OutOfRange {
            field,
            value,
            requirement: "at least 0",
        })
    }
}

/// `Ok(value)` if finite and `value > 0`.
pub(crate) fn positive(field: &'static str, value: f32) -> Result<f32, PrismError> {
    finite(field, value)?;
    if value > 0.0 {
        Ok(value)
    } else {
        Err(PrismError::OutOfRange {
            field,
            value,
            requirement: "greater than 0",
        })
    }
}
