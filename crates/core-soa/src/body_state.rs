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
    /// The body is a bullet: continuous collision sweeps it against moving bodies too.
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{align_of, offset_of, size_of};

    #[test]
    fn layout_is_one_aligned_32_byte_record() {
        assert_eq!(size_of::<BodyState>(), 32);
        assert_eq!(align_of::<BodyState>(), 32);
        // The wide gather transposes eight states as eight rows of eight f32 words; these are the
        // word positions it relies on.
        assert_eq!(offset_of!(BodyState, linear_velocity), 0);
        assert_eq!(offset_of!(BodyState, angular_velocity), 8);
        assert_eq!(offset_of!(BodyState, flags), 12);
        assert_eq!(offset_of!(BodyState, delta_position), 16);
        assert_eq!(offset_of!(BodyState, delta_rotation), 24);
        let states = vec![BodyState::IDENTITY; 5];
        for state in &states {
            assert_eq!(std::ptr::from_ref(state) as usize % 32, 0);
        }
    }

    #[test]
    fn identity_is_at_rest_with_unit_rotation() {
        let words: [f32; 8] = bytemuck::cast(BodyState::IDENTITY);
        assert_eq!(words, [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
        assert_eq!(BodyState::default(), BodyState::IDENTITY);
    }
}
