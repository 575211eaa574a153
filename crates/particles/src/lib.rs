//! # particles — particle systems, cloth and implicit constraints with a global solve
//!
//! Particles (structure of arrays, generational ids), forces as data (gravity, drag, damped
//! springs to particles and anchors, user forces), implicit constraints `C(x) = 0` solved all
//! at once from `J W Jᵀ λ = −J̇ q̇ − J W Q − k_s C − k_d Ċ` by matrix-free conjugate gradient
//! (Witkin, "Constrained dynamics"), the same rows solved by soft-step PGS, parametric beads,
//! five integrators, and contacts with the world through a small collider trait.

mod anchor;
mod cg;
mod cloth;
mod constraint;
mod contact;
mod error;
mod force;
mod geometric;
mod global;
mod ids;
mod implicit;
mod parallel;
mod parametric;
mod pgs;
mod precondition;
mod profile;
pub mod scenes;
mod settings;
mod step;
mod storage;
mod system;
pub mod test_collider;
mod topology;

pub use anchor::AnchorState;
pub use cg::{CgReport, CgSettings};
pub use cloth::{Cloth, ClothDef, Link};
pub use constraint::{ConstraintDef, CustomConstraint, CustomRow};
pub use contact::{BodyHandle, NoCollider, ParticleCollider, ParticleContact};
pub use core_soa::Vec2;
pub use error::{IdKind, ParticleError};
pub use force::{ForceField, SpringDef, SpringEnd};
pub use ids::{AnchorId, ConstraintId, ForceFieldId, ParticleId, SpringId};
pub use parametric::{BeadDef, Curve};
pub use precondition::Preconditioner;
pub use profile::ParticleProfile;
pub use settings::{
    ConstraintLevel, ConstraintSolver, ContactSettings, Feedback, Integrator, PgsSettings,
    SystemDef,
};
pub use storage::ParticleDef;
pub use system::ParticleSystem;
