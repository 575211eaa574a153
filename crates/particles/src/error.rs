//! Errors: what a caller can get wrong, and what a step can detect going wrong.
//!
//! Every public function validates its input *before* changing anything, so an error leaves the
//! system exactly as it was. Each variant names the offending field and value (or the stale
//! id's kind, index and generation), so the variants map one to one onto the World's own error
//! type when the system is stepped inside a World.

use crate::ids::ParticleId;
use core_soa::Vec2;
use std::fmt;

/// Which kind of object an id refers to (for [`ParticleError::InvalidId`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IdKind {
    /// A [`crate::ParticleId`].
    Particle,
    /// A [`crate::SpringId`].
    Spring,
    /// A [`crate::ConstraintId`].
    Constraint,
    /// A [`crate::AnchorId`].
    Anchor,
    /// A [`crate::ForceFieldId`].
    ForceField,
}

impl fmt::Display for IdKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IdKind::Particle => "particle",
            IdKind::Spring => "spring",
            IdKind::Constraint => "constraint",
            IdKind::Anchor => "anchor",
            IdKind::ForceField => "force field",
        })
    }
}

/// Everything that can go wrong in a call to a particle system.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ParticleError {
    /// A number that must be finite was NaN or infinite.
    NonFinite {
        /// The field's name.
        field: &'static str,
        /// The offending value.
        value: f32,
    },
    /// A finite number outside its allowed range (`requirement` says which range).
    OutOfRange {
        /// The field's name.
        field: &'static str,
        /// The offending value.
        value: f32,
        /// The allowed range, in words.
        requirement: &'static str,
    },
    /// A count outside its allowed range (substeps, iterations, grid sizes).
    InvalidCount {
        /// The field's name.
        field: &'static str,
        /// The offending count.
        value: u32,
        /// The allowed range, in words.
        requirement: &'static str,
    },
    /// An id whose object was destroyed, or that never came from this system.
    InvalidId {
        /// What the id names.
        kind: IdKind,
        /// Its slot index.
        index: u32,
        /// Its generation.
        generation: u32,
    },
    /// A constraint or spring that cannot be built as asked (`field` names the setting).
    InvalidConstraint {
        /// The field's name.
        field: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// Settings that are valid one by one but not together.
    IncompatibleSettings {
        /// The field's name.
        field: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// The step left these particles with a non-finite position or velocity; the whole system
    /// was put back at its state from the start of the step.
    Diverged {
        /// The particles found non-finite (at most 64 are listed).
        particles: Vec<ParticleId>,
    },
}

impl fmt::Display for ParticleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParticleError::NonFinite { field, value } => {
                write!(f, "`{field}` must be finite, got {value}")
            }
            ParticleError::OutOfRange {
                field,
                value,
                requirement,
            } => write!(f, "`{field}` must be {requirement}, got {value}"),
            ParticleError::InvalidCount {
                field,
                value,
                requirement,
            } => write!(f, "`{field}` must be {requirement}, got {value}"),
            ParticleError::InvalidId {
                kind,
                index,
                generation,
            } => write!(
                f,
                "{kind} id (index {index}, generation {generation}) does not refer to a live {kind}"
            ),
            ParticleError::InvalidConstraint { field, reason } => {
                write!(f, "invalid constraint: `{field}` {reason}")
            }
            ParticleError::IncompatibleSettings { field, reason } => {
                write!(f, "incompatible settings: `{field}` {reason}")
            }
            ParticleError::Diverged { particles } => write!(
                f,
                "the step diverged for {} particle(s); the system was reset to the step start",
                particles.len()
            ),
        }
    }
}

impl std::error::Error for ParticleError {}

/// `Ok(value)` if finite, else [`ParticleError::NonFinite`] naming `field`.
pub(crate) fn finite(field: &'static str, value: f32) -> Result<f32, ParticleError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(ParticleError::NonFinite { field, value })
    }
}

/// `Ok(v)` if both components are finite.
pub(crate) fn finite_vec(field: &'static str, v: Vec2) -> Result<Vec2, ParticleError> {
    finite(field, v.x)?;
    finite(field, v.y)?;
    Ok(v)
}

/// `Ok(value)` if finite and at least 0.
pub(crate) fn non_negative(field: &'static str, value: f32) -> Result<f32, ParticleError> {
    finite(field, value)?;
    if value >= 0.0 {
        Ok(value)
    } else {
        Err(ParticleError::OutOfRange {
            field,
            value,
            requirement: "at least 0",
        })
    }
}

/// `Ok(value)` if finite and greater than 0.
pub(crate) fn positive(field: &'static str, value: f32) -> Result<f32, ParticleError> {
    finite(field, value)?;
    if value > 0.0 {
        Ok(value)
    } else {
        Err(ParticleError::OutOfRange {
            field,
            value,
            requirement: "greater than 0",
        })
    }
}

/// `Ok(v)` if finite and of length at least `1e-6` (a direction that can be normalised).
pub(crate) fn direction(field: &'static str, v: Vec2) -> Result<Vec2, ParticleError> {
    finite_vec(field, v)?;
    let length = v.length();
    if length >= 1.0e-6 {
        Ok(v / length)
    } else {
        Err(ParticleError::OutOfRange {
            field,
            value: length,
            requirement: "a direction of length at least 1e-6",
        })
    }
}
