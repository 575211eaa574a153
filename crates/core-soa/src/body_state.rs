//! The hot body tier: what the solver reads and writes for every constraint, every substep.
//!
//! One `BodyState` is exactly 32 bytes and 32-byte aligned, so a gather of one body is one
//! aligned load and eight of them transpose into the lanes of the wide solver. Only awake bodies
//! have one; a constraint refers to a body by its index in the awake state array, or by
//! [`NULL_BODY`] for a static body, which gathers as [`BodyState::IDENTITY`].

use crate::math::Rot;
use glam::Vec2;

/// A constraint's body index that refers to no awake body (a static body): it gathers as the
/// identity state and is never written back.
pub const NULL_BODY: u32 = u32::MAX;

/// Flag bits stored in [`BodyState::flags`].
pub mod body_flags {
    /// The body is dynamic (written back by the solver).
    pub const DYNAMIC: u32 = 1 << 0;
    /// The body is kinematic (moves, but constraints never change its velocity).
    pub const KINEMATIC: u32 = 1 << 1;
    /// The body's rotation is locked.
    pub const FIXED_ROTATION: u32 = 1 << 2;
    /// The body is fast and wants continuous collision.
    pub const BULLET: u32 = 1 << 3;
}

/// Velocity and the displacement accumulated during the current step.
#[repr(C, align(32))]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct BodyState {
    /// Linear velocity of the centre of mass (m/s).
    pub linear_velocity: Vec2,
    /// Angular velocity (rad/s).
    pub angular_velocity: f32,
    /// [`body_flags`] bits.
    pub flags: u32,
    /// Displacement of the centre of mass since the start of the step (m).
    pub delta_position: Vec2,
    /// Rotation since the start of the step.
    pub delta_rotation: Rot,
}

const _: () = assert!(std::mem::size_of::<BodyState>() == 32);
const _: () = assert!(std::mem::align_of::<BodyState>() == 32);

impl Default for BodyState {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl BodyState {
    /// At rest and not yet moved: what a static body gathers as.
    pub const IDENTITY: BodyState = BodyState {
        linear_velocity: Vec2::ZERO,
        angular_velocity: 0.0,
        flags: 0,
        delta_position: Vec2::ZERO,
        delta_rotation: Rot::IDENTITY,
    };
}
