//! Forces as data: gravity, viscous drag, damped springs, user forces and force fields.
//!
//! Following Witkin's particle-system notes, a force is an object that knows which particles
//! it acts on and adds its contribution to their force accumulators; the step clears the
//! accumulators and lets every force add in. Here that loop is restructured for parallel,
//! deterministic execution: each spring's force is computed once into a per-spring array, and
//! then every particle *gathers* — gravity `m g`, drag `−c v`, the user's external force, the
//! force fields, and its incident springs in a fixed order — so no two threads ever add into
//! the same accumulator.
//!
//! A damped spring between `a` and `b` with rest length `L`, stiffness `k` and damping `c`
//! (Witkin and Baraff, "Physically based modeling: particle system dynamics") acts on `a` with
//!
//! ```text
//!   d = x_a − x_b,  l = |d|,  n = d / l
//!   f_a = −( k (l − L) + c (v_a − v_b)·n ) n,     f_b = −f_a
//! ```
//!
//! For the implicit integrator it also provides its Jacobians (Baraff and Witkin, "Large steps
//! in cloth simulation", §5):
//!
//! ```text
//!   ∂f_a/∂x_a = −k ( n nᵀ + (1 − L/l)(I − n nᵀ) ),   ∂f_a/∂v_a = −c n nᵀ
//! ```
//!
//! with `(1 − L/l)` clamped at 0: under compression the exact term is negative and would make
//! the implicit system indefinite (Choi and Ko, "Stable but responsive cloth", drop it for the
//! same reason). The damping force's dependence on `x` through `n` is left out, as in Baraff
//! and Witkin, which keeps the system symmetric.

use crate::anchor::AnchorSample;
use crate::error::{ParticleError, finite, non_negative};
use crate::ids::{AnchorId, ParticleId};
use crate::parallel::for_chunks;
use core_soa::Vec2;
use glam::DVec2;

/// The second end of a spring.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SpringEnd {
    /// Another particle.
    Particle(ParticleId),
    /// An anchor (a point the caller moves, such as a point on a rigid body).
    Anchor(AnchorId),
}

/// How to create a damped spring.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringDef {
    /// The first end.
    pub a: ParticleId,
    /// The second end.
    pub b: SpringEnd,
    /// Rest length (m), at least 0.
    pub rest_length: f32,
    /// Stiffness `k` (N/m), at least 0.
    pub stiffness: f32,
    /// Damping `c` along the spring (N·s/m), at least 0.
    pub damping: f32,
}

impl SpringDef {
    /// Checks the numbers (ids are checked by the system).
    pub fn validate(&self) -> Result<(), ParticleError> {
        non_negative("SpringDef::rest_length", self.rest_length)?;
        non_negative("SpringDef::stiffness", self.stiffness)?;
        non_negative("SpringDef::damping", self.damping)?;
        Ok(())
    }
}

/// A user force acting on every particle of a system, evaluated wherever the integrator needs
/// a derivative (wind, buoyancy, a vortex). It is called from several threads at once.
pub trait ForceField: Send + Sync {
    /// The force (N) on a particle at `position` moving at `velocity`, with `inverse_mass`.
    fn force(&self, position: Vec2, velocity: Vec2, inverse_mass: f32) -> Vec2;
}

/// A spring with its ends resolved to a dense particle index and a particle or anchor slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct DenseSpring {
    pub a: u32,
    pub b: u32,
    pub b_is_anchor: bool,
    pub rest_length: f64,
    pub stiffness: f64,
    pub damping: f64,
}

/// `∂f_a/∂x_a` and `∂f_a/∂v_a` of a spring as symmetric 2×2 blocks `[xx, xy, yy]`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct SpringJacobian {
    pub dx: [f64; 3],
    pub dv: [f64; 3],
}

impl DenseSpring {
    /// Position and velocity of the second end.
    fn end_b(&self, x: &[Vec2], v: &[Vec2], anchors: &[AnchorSample]) -> (DVec2, DVec2) {
        if self.b_is_anchor {
            let anchor = anchors[self.b as usize];
            (anchor.position, anchor.velocity)
        } else {
            let b = self.b as usize;
            (x[b].as_dvec2(), v[b].as_dvec2())
        }
    }

    /// `d = x_a − x_b`, `l`, `n` and the relative velocity.
    fn geometry(&self, x: &[Vec2], v: &[Vec2], anchors: &[AnchorSample]) -> SpringGeometry {
        let a = self.a as usize;
        let (xb, vb) = self.end_b(x, v, anchors);
        let d = x[a].as_dvec2() - xb;
        let length = d.length();
        let normal = if length > 1.0e-12 {
            d / length
        } else {
            DVec2::ZERO
        };
        SpringGeometry {
            length,
            normal,
            relative_velocity: v[a].as_dvec2() - vb,
        }
    }

    /// The force on end `a` (end `b` feels the opposite).
    pub fn force_on_a(&self, x: &[Vec2], v: &[Vec2], anchors: &[AnchorSample]) -> DVec2 {
        let g = self.geometry(x, v, anchors);
        let stretch = g.length - self.rest_length;
        -(self.stiffness * stretch + self.damping * g.relative_velocity.dot(g.normal)) * g.normal
    }

    /// The force Jacobians of end `a` (see the module essay).
    pub fn jacobian(&self, x: &[Vec2], v: &[Vec2], anchors: &[AnchorSample]) -> SpringJacobian {
        let g = self.geometry(x, v, anchors);
        let n = g.normal;
        let nn = [n.x * n.x, n.x * n.y, n.y * n.y];
        let lateral = if g.length > 1.0e-12 {
            (1.0 - self.rest_length / g.length).max(0.0)
        } else {
            0.0
        };
        let identity = [1.0, 0.0, 1.0];
        let mut dx = [0.0; 3];
        let mut dv = [0.0; 3];
        for k in 0..3 {
            dx[k] = -self.stiffness * (nn[k] + lateral * (identity[k] - nn[k]));
            dv[k] = -self.damping * nn[k];
        }
        SpringJacobian { dx, dv }
    }

    /// Potential energy `½ k (l − L)²` (J).
    pub fn energy(&self, x: &[Vec2], anchors: &[AnchorSample]) -> f64 {
        let g = self.geometry(x, x, anchors);
        let stretch = g.length - self.rest_length;
        0.5 * self.stiffness * stretch * stretch
    }
}

struct SpringGeometry {
    length: f64,
    normal: DVec2,
    relative_velocity: DVec2,
}

/// Everything the force pass reads.
pub(crate) struct ForceInputs<'a> {
    pub x: &'a [Vec2],
    pub v: &'a [Vec2],
    pub inverse_mass: &'a [f32],
    pub external: &'a [Vec2],
    pub anchors: &'a [AnchorSample],
    pub springs: &'a [DenseSpring],
    /// Particle → incident springs (CSR offsets into `spring_incidence`).
    pub spring_start: &'a [u32],
    /// `(spring, +1 for end a / −1 for end b)`.
    pub spring_incidence: &'a [(u32, f64)],
    pub fields: &'a [&'a dyn ForceField],
    pub gravity: DVec2,
    pub drag: f64,
}

/// Fills `force` with every applied force `Q` (everything but the constraint forces).
pub(crate) fn accumulate(
    inputs: &ForceInputs<'_>,
    spring_force: &mut Vec<DVec2>,
    force: &mut [DVec2],
) {
    spring_force.clear();
    spring_force.resize(inputs.springs.len(), DVec2::ZERO);
    for_chunks(spring_force, |first, out| {
        for (k, out) in out.iter_mut().enumerate() {
            *out = inputs.springs[first + k].force_on_a(inputs.x, inputs.v, inputs.anchors);
        }
    });
    let spring_force = &*spring_force;
    for_chunks(force, |first, out| {
        for (k, out) in out.iter_mut().enumerate() {
            *out = particle_force(inputs, spring_force, first + k);
        }
    });
}

/// Gravity, drag, external force, fields and incident springs of particle `i`, in that order.
fn particle_force(inputs: &ForceInputs<'_>, spring_force: &[DVec2], i: usize) -> DVec2 {
    let w = inputs.inverse_mass[i];
    let velocity = inputs.v[i].as_dvec2();
    let mut f = inputs.external[i].as_dvec2() - inputs.drag * velocity;
    if w > 0.0 {
        f += inputs.gravity / f64::from(w);
    }
    for field in inputs.fields {
        f += field.force(inputs.x[i], inputs.v[i], w).as_dvec2();
    }
    let range = inputs.spring_start[i] as usize..inputs.spring_start[i + 1] as usize;
    for &(spring, sign) in &inputs.spring_incidence[range] {
        f += sign * spring_force[spring as usize];
    }
    f
}

/// Checks a user force before it is stored.
pub(crate) fn validate_force(field: &'static str, force: Vec2) -> Result<Vec2, ParticleError> {
    finite(field, force.x)?;
    finite(field, force.y)?;
    Ok(force)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spring(rest_length: f64, stiffness: f64, damping: f64) -> DenseSpring {
        DenseSpring {
            a: 0,
            b: 1,
            b_is_anchor: false,
            rest_length,
            stiffness,
            damping,
        }
    }

    #[test]
    fn spring_force_is_hookes_law_plus_damping_along_the_spring() {
        let x = [Vec2::new(1.5, 0.0), Vec2::ZERO];
        let v = [Vec2::new(2.0, 3.0), Vec2::ZERO];
        let f = spring(1.0, 10.0, 0.5).force_on_a(&x, &v, &[]);
        // Stretch 0.5 → −5 N along x; damping −0.5·2 = −1 N along x; the y velocity is lateral.
        assert!((f - DVec2::new(-6.0, 0.0)).length() < 1e-12, "{f:?}");
    }

    #[test]
    fn spring_jacobian_matches_finite_differences_when_stretched() {
        let s = spring(1.0, 7.0, 0.0);
        let x0 = [Vec2::new(1.2, 0.7), Vec2::new(-0.1, 0.2)];
        let v = [Vec2::ZERO; 2];
        let j = s.jacobian(&x0, &v, &[]);
        let eps = 1.0e-3f32;
        for (axis, column) in [(0usize, [j.dx[0], j.dx[1]]), (1, [j.dx[1], j.dx[2]])] {
            let mut xp = x0;
            let mut xm = x0;
            xp[0][axis] += eps;
            xm[0][axis] -= eps;
            let fd =
                (s.force_on_a(&xp, &v, &[]) - s.force_on_a(&xm, &v, &[])) / f64::from(2.0 * eps);
            assert!((fd.x - column[0]).abs() < 2e-3 && (fd.y - column[1]).abs() < 2e-3);
        }
    }
}
