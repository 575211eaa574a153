//! The cold and warm body tiers and their dense arrays.

use crate::math::{Rot, Transform};
use glam::Vec2;

/// The warm tier: what integration, preparation and finalisation read. Stored in a dense array
/// parallel to the hot [`crate::BodyState`] array of the same solver set (same index).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodySim {
    /// Transform of the body origin.
    pub transform: Transform,
    /// World position of the centre of mass.
    pub center: Vec2,
    /// Rotation at the start of the step.
    pub rotation0: Rot,
    /// Centre of mass at the start of the step.
    pub center0: Vec2,
    /// Centre of mass in body-local coordinates.
    pub local_center: Vec2,
    /// Accumulated force (N), cleared after each step.
    pub force: Vec2,
    /// Accumulated torque (N·m), cleared after each step.
    pub torque: f32,
    pub mass: f32,
    pub inv_mass: f32,
    /// Rotational inertia about the centre of mass (kg·m²).
    pub inertia: f32,
    pub inv_inertia: f32,
    pub linear_damping: f32,
    pub angular_damping: f32,
    pub gravity_scale: f32,
    /// Index of the cold [`Body`] this sim belongs to (back-reference, fixed up on swap-remove).
    pub body: u32,
}

impl Default for BodySim {
    fn default() -> Self {
        BodySim {
            transform: Transform::IDENTITY,
            center: Vec2::ZERO,
            rotation0: Rot::IDENTITY,
            center0: Vec2::ZERO,
            local_center: Vec2::ZERO,
            force: Vec2::ZERO,
            torque: 0.0,
            mass: 0.0,
            inv_mass: 0.0,
            inertia: 0.0,
            inv_inertia: 0.0,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            body: u32::MAX,
        }
    }
}
