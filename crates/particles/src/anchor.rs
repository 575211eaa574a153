//! Anchors: external points that springs and pins can hold on to.
//!
//! An anchor is a point the particle system does not move: a point on a rigid body, a mouse
//! cursor, a scripted path. Before each step the owner sets its position, velocity and
//! (optionally) acceleration; during the step the anchor follows the parabola
//! `p + v t + ½ a t²`, so substeps and Runge–Kutta stages see it move. Springs and pins that
//! hold particles to it push back on it: the step sums their reaction into an impulse
//! ([`crate::ParticleSystem::anchor_impulse`]) that the owner applies to its body at the
//! anchor's point — the particle side of a two-way coupling.

use crate::error::{ParticleError, finite_vec};
use core_soa::Vec2;
use glam::DVec2;

/// Where an anchor is at the start of the coming step and how it moves during it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AnchorState {
    /// Position (m).
    pub position: Vec2,
    /// Velocity (m/s).
    pub velocity: Vec2,
    /// Acceleration (m/s²); for a point on a spinning body, its centripetal acceleration.
    pub acceleration: Vec2,
}

impl AnchorState {
    /// A still anchor at `position`.
    pub fn at(position: Vec2) -> AnchorState {
        AnchorState {
            position,
            ..AnchorState::default()
        }
    }

    /// The same anchor moving at `velocity`.
    pub fn with_velocity(self, velocity: Vec2) -> AnchorState {
        AnchorState { velocity, ..self }
    }

    /// Checks every field.
    pub fn validate(&self) -> Result<(), ParticleError> {
        finite_vec("AnchorState::position", self.position)?;
        finite_vec("AnchorState::velocity", self.velocity)?;
        finite_vec("AnchorState::acceleration", self.acceleration)?;
        Ok(())
    }

    /// The anchor `t` seconds into the step.
    pub(crate) fn sample(&self, t: f32) -> AnchorSample {
        let t = f64::from(t);
        let p = self.position.as_dvec2();
        let v = self.velocity.as_dvec2();
        let a = self.acceleration.as_dvec2();
        AnchorSample {
            position: p + v * t + a * (0.5 * t * t),
            velocity: v + a * t,
            acceleration: a,
        }
    }
}

/// An anchor at one instant, in the solver's precision.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct AnchorSample {
    pub position: DVec2,
    pub velocity: DVec2,
    pub acceleration: DVec2,
}

/// An anchor as stored.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Anchor {
    pub state: AnchorState,
    /// The reaction impulse (N·s) springs and pins applied to the anchor during the last step.
    pub impulse: Vec2,
}
