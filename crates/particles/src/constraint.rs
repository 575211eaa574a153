//! Implicit constraints `C(x) = 0`: each evaluates its own value, Jacobian blocks and `J̇ q̇`.
//!
//! Witkin's "Constrained dynamics" notes build the global system out of modules: every
//! constraint knows which particles it touches and evaluates `C`, `Ċ`, its blocks of `J` and
//! of `J̇` itself; the system only places the blocks. Here a constraint is one or two scalar
//! *rows*, each touching one or two particles, so a row of `J` is at most two 2-vectors:
//!
//! ```text
//!   row r:  particles (p, q),  J_rp, J_rq ∈ ℝ²,  C_r,  Ċ_r = J_rp·v_p + J_rq·v_q,
//!           (J̇ q̇)_r = J̇_rp·v_p + J̇_rq·v_q
//! ```
//!
//! The built-in constraints use the *length* form `C = |d| − L` rather than the notes'
//! `½(d·d − L²)`, so `C` is an error in metres and the feedback gains mean the same for every
//! constraint. With `n = d/|d|` and `u = ḋ`:
//!
//! ```text
//!   rod        C = |x_a − x_b| − L     J = (n, −n)   J̇q̇ = (u·u − (n·u)²)/|d|
//!   circle     C = |x − c| − r         J = n         J̇q̇ = (v·v − (n·v)²)/|x − c|
//!   line       C = n·(x − p)           J = n         J̇q̇ = 0          (n ⊥ the line)
//!   pin        C = x − p  (two rows)   J = e_x, e_y  J̇q̇ = 0
//!   anchor pin C = x − a(t)            J = e_x, e_y  C̈ − J q̈ = −ä  (the anchor's acceleration)
//! ```
//!
//! The `J̇q̇` of the rod is the centripetal term: `d/dt n = (u − (n·u) n)/|d|`, and
//! `(d/dt n)·u = (u·u − (n·u)²)/|d|`. It is what makes a bead on a circle turn instead of
//! flying off along its tangent.

use crate::anchor::AnchorSample;
use crate::error::{ParticleError, direction, finite_vec, positive};
use crate::ids::{AnchorId, ParticleId};
use core_soa::Vec2;
use glam::DVec2;
use std::sync::Arc;

/// A built-in constraint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConstraintDef {
    /// Keeps two particles `length` apart (a rigid rod).
    Rod {
        /// The first particle.
        a: ParticleId,
        /// The second particle.
        b: ParticleId,
        /// The distance to keep (m), greater than 0.
        length: f32,
    },
    /// Holds a particle at a fixed point (two rows).
    Pin {
        /// The particle.
        particle: ParticleId,
        /// The point (m).
        point: Vec2,
    },
    /// Holds a particle at an anchor, which the caller moves (two rows).
    PinToAnchor {
        /// The particle.
        particle: ParticleId,
        /// The anchor.
        anchor: AnchorId,
    },
    /// A bead on a circular wire.
    Circle {
        /// The particle.
        particle: ParticleId,
        /// The wire's centre (m).
        center: Vec2,
        /// The wire's radius (m), greater than 0.
        radius: f32,
    },
    /// A bead on a straight wire through `point` along `direction`.
    Line {
        /// The particle.
        particle: ParticleId,
        /// A point of the line (m).
        point: Vec2,
        /// The line's direction (any non-zero length).
        direction: Vec2,
    },
}

impl ConstraintDef {
    /// Checks the numbers (ids are checked by the system).
    pub fn validate(&self) -> Result<(), ParticleError> {
        match *self {
            ConstraintDef::Rod { a, b, length } => {
                positive("ConstraintDef::Rod::length", length)?;
                if a == b {
                    return Err(ParticleError::InvalidConstraint {
                        field: "ConstraintDef::Rod::b",
                        reason: "is the same particle as `a`".to_string(),
                    });
                }
            }
            ConstraintDef::Pin { point, .. } => {
                finite_vec("ConstraintDef::Pin::point", point)?;
            }
            ConstraintDef::PinToAnchor { .. } => {}
            ConstraintDef::Circle { center, radius, .. } => {
                finite_vec("ConstraintDef::Circle::center", center)?;
                positive("ConstraintDef::Circle::radius", radius)?;
            }
            ConstraintDef::Line {
                point, direction, ..
            } => {
                finite_vec("ConstraintDef::Line::point", point)?;
                self::direction("ConstraintDef::Line::direction", direction)?;
            }
        }
        Ok(())
    }

    /// The particles it touches.
    pub fn particles(&self) -> Vec<ParticleId> {
        match *self {
            ConstraintDef::Rod { a, b, .. } => vec![a, b],
            ConstraintDef::Pin { particle, .. }
            | ConstraintDef::PinToAnchor { particle, .. }
            | ConstraintDef::Circle { particle, .. }
            | ConstraintDef::Line { particle, .. } => vec![particle],
        }
    }
}

/// The value, Jacobian and Jacobian derivative of a user constraint at one state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CustomRow {
    /// `C(x)`.
    pub value: f32,
    /// `∂C/∂x` for each particle (the second is ignored for one-particle constraints).
    pub jacobian: [Vec2; 2],
    /// `d/dt ∂C/∂x` for each particle.
    pub jacobian_dot: [Vec2; 2],
}

/// A user-defined scalar constraint on one or two particles (see [`CustomRow`]). It is
/// evaluated from several threads at once.
pub trait CustomConstraint: Send + Sync {
    /// `C`, `J` and `J̇` at `positions`/`velocities` (one entry per particle of the constraint,
    /// in the order given at creation).
    fn evaluate(&self, positions: &[Vec2], velocities: &[Vec2]) -> CustomRow;
}

/// A constraint as stored.
#[derive(Clone)]
pub(crate) enum Constraint {
    Builtin(ConstraintDef),
    Custom {
        particles: Vec<ParticleId>,
        function: Arc<dyn CustomConstraint>,
    },
}

impl Constraint {
    /// The particles it touches.
    pub fn particles(&self) -> Vec<ParticleId> {
        match self {
            Constraint::Builtin(def) => def.particles(),
            Constraint::Custom { particles, .. } => particles.clone(),
        }
    }

    /// The anchor it holds on to, if any.
    pub fn anchor(&self) -> Option<AnchorId> {
        match self {
            Constraint::Builtin(ConstraintDef::PinToAnchor { anchor, .. }) => Some(*anchor),
            _ => None,
        }
    }
}

/// Marks an absent second particle.
pub(crate) const NO_PARTICLE: u32 = u32::MAX;

/// One scalar row with its particles resolved to dense indices.
#[derive(Clone)]
pub(crate) enum RowTemplate {
    Rod {
        a: u32,
        b: u32,
        length: f64,
    },
    PinAxis {
        particle: u32,
        axis: usize,
        target: f64,
    },
    AnchorAxis {
        particle: u32,
        axis: usize,
        anchor: u32,
    },
    Circle {
        particle: u32,
        center: DVec2,
        radius: f64,
    },
    Line {
        particle: u32,
        point: DVec2,
        normal: DVec2,
    },
    Custom {
        particles: [u32; 2],
        function: Arc<dyn CustomConstraint>,
    },
}

/// The `(particle, block)` pairs of a row, without the absent second particle.
pub(crate) fn blocks(
    particles: [u32; 2],
    jacobian: [DVec2; 2],
) -> impl Iterator<Item = (usize, DVec2)> {
    particles
        .into_iter()
        .zip(jacobian)
        .filter(|&(p, _)| p != NO_PARTICLE)
        .map(|(p, j)| (p as usize, j))
}

/// A row's values at one state: `J` blocks, `C`, `Ċ` and `C̈ − J q̈` (which is `J̇ q̇` plus
/// any term from a moving anchor).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct RowValue {
    pub jacobian: [DVec2; 2],
    pub c: f64,
    pub cdot: f64,
    pub jdot_qdot: f64,
}

impl RowTemplate {
    /// The dense particle indices (`NO_PARTICLE` for an absent second one).
    pub fn particles(&self) -> [u32; 2] {
        match *self {
            RowTemplate::Rod { a, b, .. } => [a, b],
            RowTemplate::PinAxis { particle, .. }
            | RowTemplate::AnchorAxis { particle, .. }
            | RowTemplate::Circle { particle, .. }
            | RowTemplate::Line { particle, .. } => [particle, NO_PARTICLE],
            RowTemplate::Custom { particles, .. } => particles,
        }
    }

    /// `‖∂J/∂x‖`, the rate at which the row's direction turns as its particles move
    /// (`geometric.rs`): `1/L` for a rod, `1/r` for a circle, 0 for straight rows.
    pub fn curvature(&self) -> f64 {
        match *self {
            RowTemplate::Rod { length, .. } => 1.0 / length,
            RowTemplate::Circle { radius, .. } => 1.0 / radius,
            _ => 0.0,
        }
    }

    /// The row at positions `x`, velocities `v`, anchors as sampled now.
    pub fn evaluate(&self, x: &[Vec2], v: &[Vec2], anchors: &[AnchorSample]) -> RowValue {
        let mut positions = [Vec2::ZERO; 2];
        let mut velocities = [Vec2::ZERO; 2];
        for (slot, &p) in self.particles().iter().enumerate() {
            if p != NO_PARTICLE {
                positions[slot] = x[p as usize];
                velocities[slot] = v[p as usize];
            }
        }
        self.evaluate_local(positions, velocities, anchors)
    }

    /// The row for its own particles' positions `x` and velocities `v` (slot order).
    pub fn evaluate_local(&self, x: [Vec2; 2], v: [Vec2; 2], anchors: &[AnchorSample]) -> RowValue {
        let (x0, v0) = (x[0].as_dvec2(), v[0].as_dvec2());
        match *self {
            RowTemplate::Rod { length, .. } => {
                let d = x0 - x[1].as_dvec2();
                let u = v0 - v[1].as_dvec2();
                let (n, c, cdot, jdot_qdot) = radial(d, u, length);
                RowValue {
                    jacobian: [n, -n],
                    c,
                    cdot,
                    jdot_qdot,
                }
            }
            RowTemplate::Circle { center, radius, .. } => {
                let (n, c, cdot, jdot_qdot) = radial(x0 - center, v0, radius);
                single(n, c, cdot, jdot_qdot)
            }
            RowTemplate::Line { point, normal, .. } => {
                single(normal, normal.dot(x0 - point), normal.dot(v0), 0.0)
            }
            RowTemplate::PinAxis { axis, target, .. } => {
                single(unit(axis), x0[axis] - target, v0[axis], 0.0)
            }
            RowTemplate::AnchorAxis { axis, anchor, .. } => {
                let anchor = anchors[anchor as usize];
                let c = x0[axis] - anchor.position[axis];
                let cdot = v0[axis] - anchor.velocity[axis];
                single(unit(axis), c, cdot, -anchor.acceleration[axis])
            }
            RowTemplate::Custom {
                particles,
                ref function,
            } => custom(particles, function.as_ref(), x, v),
        }
    }
}

/// `n`, `C = |d| − L`, `Ċ = n·u` and `(d/dt n)·u` for a separation `d` changing at `u`.
fn radial(d: DVec2, u: DVec2, length: f64) -> (DVec2, f64, f64, f64) {
    let distance = d.length();
    if distance < 1.0e-12 {
        // Coincident ends: no direction to push along; the row is empty until they separate.
        return (DVec2::ZERO, -length, 0.0, 0.0);
    }
    let n = d / distance;
    let cdot = n.dot(u);
    (
        n,
        distance - length,
        cdot,
        (u.dot(u) - cdot * cdot) / distance,
    )
}

fn single(n: DVec2, c: f64, cdot: f64, jdot_qdot: f64) -> RowValue {
    RowValue {
        jacobian: [n, DVec2::ZERO],
        c,
        cdot,
        jdot_qdot,
    }
}

fn unit(axis: usize) -> DVec2 {
    if axis == 0 { DVec2::X } else { DVec2::Y }
}

fn custom(
    particles: [u32; 2],
    function: &dyn CustomConstraint,
    positions: [Vec2; 2],
    velocities: [Vec2; 2],
) -> RowValue {
    let count = if particles[1] == NO_PARTICLE { 1 } else { 2 };
    let row = function.evaluate(&positions[..count], &velocities[..count]);
    let mut value = RowValue {
        c: f64::from(row.value),
        ..RowValue::default()
    };
    for (slot, velocity) in velocities.iter().enumerate().take(count) {
        let j = row.jacobian[slot].as_dvec2();
        value.jacobian[slot] = j;
        value.cdot += j.dot(velocity.as_dvec2());
        value.jdot_qdot += row.jacobian_dot[slot].as_dvec2().dot(velocity.as_dvec2());
    }
    if !(value.c.is_finite() && value.cdot.is_finite() && value.jdot_qdot.is_finite()) {
        // A user function that returned garbage contributes nothing rather than poisoning the
        // global solve; the step's divergence check reports the particles if they go bad.
        return RowValue::default();
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Central finite difference of `C` along the velocity, and of `Ċ` along the motion, to
    /// check `Ċ = J v` and `C̈ = J a + J̇ q̇` for the built-in rows.
    fn check_derivatives(template: &RowTemplate, x: [Vec2; 2], v: [Vec2; 2]) {
        let a = [Vec2::new(0.3, -0.7), Vec2::new(-0.2, 0.5)];
        let eval = |t: f32| {
            let xs = [
                x[0] + v[0] * t + a[0] * (0.5 * t * t),
                x[1] + v[1] * t + a[1] * (0.5 * t * t),
            ];
            let vs = [v[0] + a[0] * t, v[1] + a[1] * t];
            template.evaluate(&xs, &vs, &[])
        };
        let h = 1.0e-3;
        let row = eval(0.0);
        let c_dot_fd = (eval(h).c - eval(-h).c) / (2.0 * f64::from(h));
        assert!(
            (row.cdot - c_dot_fd).abs() < 1e-4,
            "Ċ {} vs {}",
            row.cdot,
            c_dot_fd
        );
        let c_ddot_fd = (eval(h).cdot - eval(-h).cdot) / (2.0 * f64::from(h));
        let [p, q] = template.particles();
        let mut j_a = row.jacobian[0].dot(a[p as usize].as_dvec2());
        if q != NO_PARTICLE {
            j_a += row.jacobian[1].dot(a[q as usize].as_dvec2());
        }
        let c_ddot = j_a + row.jdot_qdot;
        assert!(
            (c_ddot - c_ddot_fd).abs() < 2e-3,
            "C̈ {c_ddot} vs {c_ddot_fd}"
        );
    }

    #[test]
    fn built_in_rows_have_consistent_derivatives() {
        let x = [Vec2::new(0.4, 0.9), Vec2::new(-0.3, 0.1)];
        let v = [Vec2::new(1.1, -0.4), Vec2::new(0.2, 0.8)];
        check_derivatives(
            &RowTemplate::Rod {
                a: 0,
                b: 1,
                length: 0.5,
            },
            x,
            v,
        );
        check_derivatives(
            &RowTemplate::Circle {
                particle: 0,
                center: DVec2::new(0.1, -0.2),
                radius: 1.0,
            },
            x,
            v,
        );
        check_derivatives(
            &RowTemplate::Line {
                particle: 1,
                point: DVec2::new(0.0, 1.0),
                normal: DVec2::new(0.6, 0.8),
            },
            x,
            v,
        );
        check_derivatives(
            &RowTemplate::PinAxis {
                particle: 0,
                axis: 1,
                target: 0.2,
            },
            x,
            v,
        );
    }
}
