//! Parametric constraints: a bead that lives on its curve by construction.
//!
//! The second method of Witkin's "Constrained dynamics" notes: instead of letting a particle
//! move freely and adding a force that cancels the illegal part of its acceleration, describe
//! its position by the curve's own coordinate, `x = x(u)`, and integrate `u`. The constraint
//! is then met exactly — there is no drift and no feedback to tune — at the price of one
//! parametrisation per constraint, which does not combine with other constraints on the same
//! particle.
//!
//! With `T = ∂x/∂u` and `T′ = ∂T/∂u`, the velocity is `ẋ = T u̇` and the acceleration
//! `ẍ = T′ u̇² + T ü`. Newton's law with the unknown constraint force `f̂`, which does no work
//! along the curve (`T·f̂ = 0`, the principle of virtual work), projected on `T`:
//!
//! ```text
//!   T·(T′ u̇² + T ü) = T·(f + f̂)/m = T·f/m
//!   ü = (T·f/m − (T·T′) u̇²) / (T·T)
//! ```
//!
//! This is the notes' `ü = (T·f/m − T·Ṫ u̇)/(T·T)` with `Ṫ = T′ u̇`, and for many beads the
//! block-diagonal form of `Jᵀ M J ü = −Jᵀ M J̇ u̇ + Jᵀ Q` with `J = ∂q/∂u`. For a circle of
//! radius `r` (`u` the angle), `T·T = r²` and `T·T′ = 0`, so `ü = T·f/(m r²)`: torque over
//! moment of inertia. For a line (`u` the arc length along a unit direction `d`), `ü = d·f/m`.
//!
//! A bead feels every force (gravity, drag, springs, fields), but it cannot be part of an
//! implicit constraint, does not collide, and is advanced explicitly by every integrator
//! (the implicit one included).

use crate::error::{ParticleError, direction, finite, finite_vec, non_negative, positive};
use core_soa::Vec2;
use glam::DVec2;

/// A curve a bead can be parametrised along.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Curve {
    /// `x(u) = center + radius (cos u, sin u)`; `u` is the angle (rad).
    Circle {
        /// The centre (m).
        center: Vec2,
        /// The radius (m), greater than 0.
        radius: f32,
    },
    /// `x(u) = origin + u d`, `d` the unit `direction`; `u` is the distance along it (m).
    Line {
        /// The point at `u = 0` (m).
        origin: Vec2,
        /// The direction (normalised on creation).
        direction: Vec2,
    },
}

impl Curve {
    /// Checks the numbers, and normalises a line's direction.
    pub(crate) fn validated(self) -> Result<Curve, ParticleError> {
        match self {
            Curve::Circle { center, radius } => {
                finite_vec("Curve::Circle::center", center)?;
                positive("Curve::Circle::radius", radius)?;
                Ok(self)
            }
            Curve::Line { origin, direction } => {
                finite_vec("Curve::Line::origin", origin)?;
                let direction = self::direction("Curve::Line::direction", direction)?;
                Ok(Curve::Line { origin, direction })
            }
        }
    }

    /// `x(u)`.
    pub fn point(&self, u: f64) -> DVec2 {
        match *self {
            Curve::Circle { center, radius } => {
                center.as_dvec2() + f64::from(radius) * DVec2::new(u.cos(), u.sin())
            }
            Curve::Line { origin, direction } => origin.as_dvec2() + u * direction.as_dvec2(),
        }
    }

    /// `T = ∂x/∂u`.
    pub fn tangent(&self, u: f64) -> DVec2 {
        match *self {
            Curve::Circle { radius, .. } => f64::from(radius) * DVec2::new(-u.sin(), u.cos()),
            Curve::Line { direction, .. } => direction.as_dvec2(),
        }
    }

    /// `T′ = ∂T/∂u`.
    pub fn tangent_derivative(&self, u: f64) -> DVec2 {
        match *self {
            Curve::Circle { radius, .. } => -f64::from(radius) * DVec2::new(u.cos(), u.sin()),
            Curve::Line { .. } => DVec2::ZERO,
        }
    }
}

/// How to create a bead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BeadDef {
    /// The curve.
    pub curve: Curve,
    /// The initial coordinate `u`.
    pub coordinate: f32,
    /// The initial rate `u̇`.
    pub rate: f32,
    /// `1/mass` (1/kg); 0 makes the bead immovable.
    pub inverse_mass: f32,
}

impl BeadDef {
    /// Checks every field.
    pub(crate) fn validated(&self) -> Result<BeadDef, ParticleError> {
        finite("BeadDef::coordinate", self.coordinate)?;
        finite("BeadDef::rate", self.rate)?;
        non_negative("BeadDef::inverse_mass", self.inverse_mass)?;
        Ok(BeadDef {
            curve: self.curve.validated()?,
            ..*self
        })
    }
}

/// A bead as stored: its particle, curve and coordinate state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Bead {
    pub particle: crate::ids::ParticleId,
    pub curve: Curve,
    pub u: f64,
    pub rate: f64,
}

impl Bead {
    /// The bead's position and velocity for coordinate `u` and rate `rate`.
    pub fn point_and_velocity(&self, u: f64, rate: f64) -> (Vec2, Vec2) {
        (
            self.curve.point(u).as_vec2(),
            (self.curve.tangent(u) * rate).as_vec2(),
        )
    }
}

/// `ü` of a bead with inverse mass `w` feeling the applied force `f` (see the module essay).
pub(crate) fn acceleration(curve: &Curve, u: f64, rate: f64, w: f64, f: DVec2) -> f64 {
    let t = curve.tangent(u);
    let t_prime = curve.tangent_derivative(u);
    (w * t.dot(f) - t.dot(t_prime) * rate * rate) / t.dot(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tangents_are_derivatives_of_the_curve() {
        let curves = [
            Curve::Circle {
                center: Vec2::new(0.5, -1.0),
                radius: 2.0,
            },
            Curve::Line {
                origin: Vec2::new(1.0, 2.0),
                direction: Vec2::new(0.6, -0.8),
            },
        ];
        for curve in curves {
            for u in [-1.3, 0.0, 0.7, 2.9] {
                let h = 1e-6;
                let t_fd = (curve.point(u + h) - curve.point(u - h)) / (2.0 * h);
                assert!((t_fd - curve.tangent(u)).length() < 1e-8);
                let t2_fd = (curve.tangent(u + h) - curve.tangent(u - h)) / (2.0 * h);
                assert!((t2_fd - curve.tangent_derivative(u)).length() < 1e-8);
            }
        }
    }

    #[test]
    fn bead_on_a_circle_feels_torque_over_moment_of_inertia() {
        let curve = Curve::Circle {
            center: Vec2::ZERO,
            radius: 2.0,
        };
        // At u = 0 the bead is at (2, 0); a downward force of 10 N on 0.5 kg: torque −20 N·m,
        // moment of inertia 0.5·4 = 2 kg·m², so ü = −10 rad/s², whatever the rate.
        let udd = acceleration(&curve, 0.0, 3.0, 2.0, DVec2::new(0.0, -10.0));
        assert!((udd + 10.0).abs() < 1e-12);
    }
}
