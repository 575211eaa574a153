//! Explosions: an impulse on every dynamic shape near a point, as Box2D's `b2World_Explode`.
//!
//! A blast at `p` with radius `R`, falloff `F` and impulse per length `j` pushes each shape of
//! a dynamic body within `R + F` of it (the distance `d` from `p` to the shape's surface; 0 if
//! `p` is inside):
//!
//! ```text
//!   direction   u = (c − p) / |c − p|        c: the shape's closest point to p (its
//!                                               centroid if p is inside)
//!   width       w = the shape's extent across u: its width seen from the blast
//!   falloff     s = 1 for d ≤ R,  s = (R + F − d) / F  for R < d ≤ R + F
//!   impulse     J = j · w · s · u, applied at c
//! ```
//!
//! so the impulse grows with the area the shape presents to the blast, and fades linearly to
//! nothing across the falloff band. Applied at `c`, it changes the body's velocity by
//! `J / m` and its angular velocity by `(c − centre) × J / I`. A negative `j` makes an
//! implosion. The width `w` is measured on the shape's proxy (its points and radius):
//! `max − min` of the points projected on the line across `u`, plus twice the radius — `2r`
//! for a circle, the projected core length plus `2r` for a capsule, the projected width for a
//! polygon or segment.
//!
//! Every shape is computed from the world as it stands, then the impulses are applied in
//! shape-index order (a body with several shapes near the blast gets one impulse per shape),
//! each waking its body. The distance and direction are computed in the body's frame, so they
//! stay precise far from the world origin.

use crate::error::{PrismError, finite, finite_vec, non_negative};
use crate::world::World;
use collision::{Aabb, ShapeProxy, shape_centroid, shape_point_distance};
use core_soa::{BodyType, ShapeId, Transform, Vec2, cross, left_perp};

/// An explosion (see the module notes). `Default` is Box2D's: radius 0, falloff 0, no
/// impulse, every category.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ExplosionDef {
    /// The categories of shapes the blast acts on (matched against their `category_bits`).
    pub mask_bits: u64,
    /// The centre of the blast (world).
    pub position: Vec2,
    /// Within this distance (m, ≥ 0) of the blast a shape gets the full impulse.
    pub radius: f32,
    /// The band (m, ≥ 0) beyond the radius over which the impulse fades to zero.
    pub falloff: f32,
    /// Impulse per metre of the width a shape presents to the blast (N·s/m); negative pulls.
    pub impulse_per_length: f32,
}

impl Default for ExplosionDef {
    fn default() -> Self {
        ExplosionDef {
            mask_bits: u64::MAX,
            position: Vec2::ZERO,
            radius: 0.0,
            falloff: 0.0,
            impulse_per_length: 0.0,
        }
    }
}

impl ExplosionDef {
    fn validate(&self) -> Result<(), PrismError> {
        finite_vec("ExplosionDef::position", self.position)?;
        non_negative("ExplosionDef::radius", self.radius)?;
        non_negative("ExplosionDef::falloff", self.falloff)?;
        finite("ExplosionDef::impulse_per_length", self.impulse_per_length)?;
        Ok(())
    }
}

/// One shape's share of a blast.
#[derive(Clone, Copy, Debug)]
struct Push {
    shape: ShapeId,
    impulse: Vec2,
    /// Where it acts (world).
    point: Vec2,
}

impl World {
    /// Applies an explosion's impulses (see the module notes). Errors name the first invalid
    /// field of `def`; nothing is pushed then.
    pub fn explode(&mut self, def: &ExplosionDef) -> Result<(), PrismError> {
        def.validate()?;
        let mut pushes = self.blast_pushes(def);
        pushes.sort_unstable_by_key(|push| push.shape.index());
        for push in pushes {
            self.apply_push(push);
        }
        Ok(())
    }

    /// Each dynamic shape's impulse, found in the moving and sleeping trees (static shapes
    /// cannot move, and only dynamic bodies respond to impulses).
    fn blast_pushes(&self, def: &ExplosionDef) -> Vec<Push> {
        let reach = def.radius + def.falloff;
        let aabb = Aabb::new(def.position, def.position).fattened(reach);
        let mut pushes = Vec::new();
        let trees = [&self.broadphase.moving_tree, &self.broadphase.sleeping_tree];
        for tree in trees {
            tree.query(&aabb, def.mask_bits, |_proxy, user_data| {
                if let Some(push) = self.push_on(user_data, def) {
                    pushes.push(push);
                }
                true
            });
        }
        pushes
    }

    /// The impulse on the shape behind `user_data`, if it is dynamic and within reach.
    fn push_on(&self, user_data: u64, def: &ExplosionDef) -> Option<Push> {
        let shape_id = self.shapes.key_at(user_data as u32)?;
        let shape = self.shapes.get(shape_id)?;
        let dynamic = self.bodies.get(shape.body)?.body_type == BodyType::Dynamic;
        if !dynamic || shape.filter.category_bits & def.mask_bits == 0 {
            return None;
        }
        let xf = self.body_sim(shape.body.index())?.transform;
        let local_blast = xf.inv_apply(def.position);
        let surface = shape_point_distance(&shape.geometry, Transform::IDENTITY, local_blast);
        let distance = surface.distance.max(0.0);
        if distance > def.radius + def.falloff {
            return None;
        }
        let closest = if surface.distance > 0.0 {
            surface.point
        } else {
            shape_centroid(&shape.geometry)
        };
        let direction = (closest - local_blast).try_normalize().unwrap_or(Vec2::X);
        let width = projected_width(
            &ShapeProxy::from_shape(&shape.geometry),
            left_perp(direction),
        );
        let scale = falloff_scale(distance, def.radius, def.falloff);
        let magnitude = def.impulse_per_length * width * scale;
        Some(Push {
            shape: shape_id,
            impulse: magnitude * xf.q.rotate(direction),
            point: xf.apply(closest),
        })
    }

    /// Wakes the shape's body and applies the push to it.
    fn apply_push(&mut self, push: Push) {
        let Some(body) = self.shapes.get(push.shape).map(|shape| shape.body) else {
            return;
        };
        self.wake_body(body.index());
        if let Some((sim, state)) = self.body_sim_state_mut(body.index()) {
            state.linear_velocity += sim.inv_mass * push.impulse;
            state.angular_velocity +=
                sim.inv_inertia * cross(push.point - sim.center, push.impulse);
        }
    }
}

/// The full impulse within `radius`, fading linearly to zero at `radius + falloff`.
fn falloff_scale(distance: f32, radius: f32, falloff: f32) -> f32 {
    if distance <= radius || falloff <= 0.0 {
        1.0
    } else {
        ((radius + falloff - distance) / falloff).clamp(0.0, 1.0)
    }
}

/// The proxy's width along the unit `line`: the spread of its points projected on it, plus
/// the rounding on both sides.
fn projected_width(proxy: &ShapeProxy, line: Vec2) -> f32 {
    let projections = proxy.points().iter().map(|&p| p.dot(line));
    let (low, high) = projections.fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    (high - low) + 2.0 * proxy.radius()
}

#[cfg(test)]
mod tests {
    use super::*;
    use collision::{Capsule, Circle, Shape};

    #[test]
    fn widths_and_falloff_follow_the_formulas() {
        let circle = ShapeProxy::from_shape(&Shape::Circle(Circle {
            center: Vec2::new(3.0, 1.0),
            radius: 0.4,
        }));
        assert_eq!(projected_width(&circle, Vec2::Y), 0.8);
        let capsule = ShapeProxy::from_shape(&Shape::Capsule(Capsule {
            center1: Vec2::new(-1.0, 0.0),
            center2: Vec2::new(1.0, 0.0),
            radius: 0.25,
        }));
        // Seen from the side (line along x): the core's 2 m plus the rounding; end on: 0.5 m.
        assert!((projected_width(&capsule, Vec2::X) - 2.5).abs() < 1e-6);
        assert!((projected_width(&capsule, Vec2::Y) - 0.5).abs() < 1e-6);
        assert_eq!(falloff_scale(1.0, 2.0, 1.0), 1.0);
        assert_eq!(falloff_scale(2.5, 2.0, 1.0), 0.5);
        assert_eq!(falloff_scale(3.5, 2.0, 1.0), 0.0);
        assert_eq!(falloff_scale(2.5, 2.0, 0.0), 1.0);
    }
}
