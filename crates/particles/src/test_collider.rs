//! A small world for particles to collide with: static planes, boxes and circles, and boxes
//! that move.
//!
//! This is the in-crate [`ParticleCollider`] the tests and the benchmark scene use; the World
//! provides its own over its shapes. Its dynamic boxes are rigid bodies with mass and
//! rotational inertia that receive the particles' reaction impulses (two-way coupling), fall
//! under gravity, and rest on the static planes through a few sequential-impulse iterations
//! per step at their corners (Catto, "Iterative dynamics with temporal coherence") — just
//! enough rigid-body dynamics to weigh a cloth. Each box records the impulse the particles
//! gave it and the impulse the planes gave it, so a test can read the force on it.

use crate::contact::{BodyHandle, ParticleCollider, ParticleContact};
use core_soa::Vec2;

/// A static surface.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StaticShape {
    /// The half-space `normal · x ≤ offset`; particles stay on the `normal` side.
    Plane {
        /// Unit normal, pointing out of the solid.
        normal: Vec2,
        /// `normal · x` on the surface.
        offset: f32,
    },
    /// A solid box.
    Box {
        /// Centre (m).
        center: Vec2,
        /// Half width and half height (m).
        half_extents: Vec2,
        /// Rotation (rad).
        angle: f32,
    },
    /// A solid disc.
    Circle {
        /// Centre (m).
        center: Vec2,
        /// Radius (m).
        radius: f32,
    },
}

/// A rigid box that particles push and that rests on the static planes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DynamicBox {
    /// Centre of mass (m).
    pub center: Vec2,
    /// Rotation (rad).
    pub angle: f32,
    /// Velocity of the centre (m/s).
    pub velocity: Vec2,
    /// Angular velocity (rad/s).
    pub angular_velocity: f32,
    /// Half width and half height (m).
    pub half_extents: Vec2,
    /// Mass (kg).
    pub mass: f32,
    /// Moment of inertia about the centre (kg·m²).
    pub inertia: f32,
    /// Impulse received from particles since the last [`TestCollider::step_bodies`] (N·s).
    pub particle_impulse: Vec2,
    /// Impulse received from the static planes in the last [`TestCollider::step_bodies`].
    pub support_impulse: Vec2,
}

impl DynamicBox {
    /// A solid box of `mass` at rest.
    pub fn new(center: Vec2, half_extents: Vec2, mass: f32) -> DynamicBox {
        let size = 2.0 * half_extents;
        DynamicBox {
            center,
            angle: 0.0,
            velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            half_extents,
            mass,
            inertia: mass * (size.x * size.x + size.y * size.y) / 12.0,
            particle_impulse: Vec2::ZERO,
            support_impulse: Vec2::ZERO,
        }
    }

    /// Velocity of the material point at `point`.
    pub fn point_velocity(&self, point: Vec2) -> Vec2 {
        let r = point - self.center;
        self.velocity + self.angular_velocity * Vec2::new(-r.y, r.x)
    }

    fn apply(&mut self, point: Vec2, impulse: Vec2) {
        let r = point - self.center;
        self.velocity += impulse / self.mass;
        self.angular_velocity += (r.x * impulse.y - r.y * impulse.x) / self.inertia;
    }
}

/// Static shapes and dynamic boxes, with one friction coefficient for every surface.
#[derive(Clone, Debug, Default)]
pub struct TestCollider {
    statics: Vec<StaticShape>,
    boxes: Vec<DynamicBox>,
    /// Friction coefficient of every surface.
    pub friction: f32,
}

/// Handles of dynamic boxes have this bit set; static shapes are numbered without it.
const DYNAMIC: u64 = 1 << 32;

impl TestCollider {
    /// An empty world whose surfaces have friction 0.6.
    pub fn new() -> TestCollider {
        TestCollider {
            friction: 0.6,
            ..TestCollider::default()
        }
    }

    /// Adds a static shape; returns its handle.
    pub fn add_static(&mut self, shape: StaticShape) -> BodyHandle {
        self.statics.push(shape);
        BodyHandle(self.statics.len() as u64 - 1)
    }

    /// Adds the ground `y ≤ height`.
    pub fn add_ground(&mut self, height: f32) -> BodyHandle {
        self.add_static(StaticShape::Plane {
            normal: Vec2::Y,
            offset: height,
        })
    }

    /// Adds a dynamic box; returns its handle.
    pub fn add_dynamic_box(&mut self, body: DynamicBox) -> BodyHandle {
        self.boxes.push(body);
        BodyHandle(DYNAMIC | (self.boxes.len() as u64 - 1))
    }

    /// The dynamic box behind `handle`.
    pub fn dynamic_box(&self, handle: BodyHandle) -> Option<&DynamicBox> {
        if handle.0 & DYNAMIC == 0 {
            return None;
        }
        self.boxes.get((handle.0 & !DYNAMIC) as usize)
    }

    /// Moves the dynamic boxes by `dt` under `gravity`, resting on the static planes, and
    /// clears their particle impulses.
    pub fn step_bodies(&mut self, dt: f32, gravity: Vec2) {
        let planes: Vec<(Vec2, f32)> = self
            .statics
            .iter()
            .filter_map(|shape| match *shape {
                StaticShape::Plane { normal, offset } => Some((normal, offset)),
                _ => None,
            })
            .collect();
        let friction = self.friction;
        for body in &mut self.boxes {
            body.velocity += gravity * dt;
            body.support_impulse = Vec2::ZERO;
            for &(normal, offset) in &planes {
                support_on_plane(body, normal, offset, friction, dt);
            }
            body.center += body.velocity * dt;
            body.angle += body.angular_velocity * dt;
            body.particle_impulse = Vec2::ZERO;
        }
    }
}

/// The box's four corners in world space.
fn corners(body: &DynamicBox) -> [Vec2; 4] {
    let (s, c) = body.angle.sin_cos();
    let h = body.half_extents;
    [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(sx, sy)| {
        let local = Vec2::new(sx * h.x, sy * h.y);
        body.center + Vec2::new(c * local.x - s * local.y, s * local.x + c * local.y)
    })
}

/// Sequential impulses at the corners against one plane: no approach (speculative while
/// apart, a 20% push-out when overlapping), Coulomb friction.
fn support_on_plane(body: &mut DynamicBox, normal: Vec2, offset: f32, friction: f32, dt: f32) {
    let points = corners(body);
    let mut normal_impulse = [0.0f32; 4];
    let mut tangent_impulse = [0.0f32; 4];
    let tangent = Vec2::new(-normal.y, normal.x);
    for _ in 0..10 {
        for (k, &point) in points.iter().enumerate() {
            let gap = normal.dot(point) - offset;
            if gap > 0.1 {
                continue;
            }
            let r = point - body.center;
            let (inverse_mass, inverse_inertia) = (1.0 / body.mass, 1.0 / body.inertia);
            let mass = |axis: Vec2| {
                let rn = r.x * axis.y - r.y * axis.x;
                1.0 / (inverse_mass + rn * rn * inverse_inertia)
            };
            let bias = if gap > 0.0 { gap / dt } else { 0.2 * gap / dt };
            let approach = normal.dot(body.point_velocity(point));
            let total = (normal_impulse[k] - mass(normal) * (approach + bias)).max(0.0);
            let delta = total - normal_impulse[k];
            normal_impulse[k] = total;
            body.apply(point, delta * normal);
            body.support_impulse += delta * normal;
            let slide = tangent.dot(body.point_velocity(point));
            let limit = friction * normal_impulse[k];
            let total = (tangent_impulse[k] - mass(tangent) * slide).clamp(-limit, limit);
            let delta = total - tangent_impulse[k];
            tangent_impulse[k] = total;
            body.apply(point, delta * tangent);
            body.support_impulse += delta * tangent;
        }
    }
}

/// The closest point of a solid box (centre, half extents, angle) to `x`, the outward normal
/// there, and the signed distance from the surface (negative inside).
fn box_surface(center: Vec2, half: Vec2, angle: f32, x: Vec2) -> (Vec2, Vec2, f32) {
    let (s, c) = angle.sin_cos();
    let to_world = |v: Vec2| Vec2::new(c * v.x - s * v.y, s * v.x + c * v.y);
    let d = x - center;
    let local = Vec2::new(c * d.x + s * d.y, -s * d.x + c * d.y);
    let clamped = local.clamp(-half, half);
    if clamped != local {
        let offset = local - clamped;
        let distance = offset.length();
        return (
            center + to_world(clamped),
            to_world(offset / distance),
            distance,
        );
    }
    let depth = half - local.abs();
    let (point, normal, depth) = if depth.x < depth.y {
        let side = local.x.signum();
        (
            Vec2::new(side * half.x, local.y),
            Vec2::new(side, 0.0),
            depth.x,
        )
    } else {
        let side = local.y.signum();
        (
            Vec2::new(local.x, side * half.y),
            Vec2::new(0.0, side),
            depth.y,
        )
    };
    (center + to_world(point), to_world(normal), -depth)
}

impl ParticleCollider for TestCollider {
    fn query(&self, position: Vec2, radius: f32, margin: f32, out: &mut Vec<ParticleContact>) {
        let mut report = |point: Vec2, normal: Vec2, distance: f32, velocity: Vec2, body| {
            let separation = distance - radius;
            if separation <= margin {
                out.push(ParticleContact {
                    point,
                    normal,
                    separation,
                    surface_velocity: velocity,
                    friction: self.friction,
                    body,
                });
            }
        };
        for (index, shape) in self.statics.iter().enumerate() {
            let body = BodyHandle(index as u64);
            match *shape {
                StaticShape::Plane { normal, offset } => {
                    let distance = normal.dot(position) - offset;
                    report(
                        position - distance * normal,
                        normal,
                        distance,
                        Vec2::ZERO,
                        body,
                    );
                }
                StaticShape::Box {
                    center,
                    half_extents,
                    angle,
                } => {
                    let (point, normal, distance) =
                        box_surface(center, half_extents, angle, position);
                    report(point, normal, distance, Vec2::ZERO, body);
                }
                StaticShape::Circle { center, radius: r } => {
                    let d = position - center;
                    let length = d.length();
                    let normal = if length > 1.0e-9 { d / length } else { Vec2::Y };
                    report(center + r * normal, normal, length - r, Vec2::ZERO, body);
                }
            }
        }
        for (index, body) in self.boxes.iter().enumerate() {
            let (point, normal, distance) =
                box_surface(body.center, body.half_extents, body.angle, position);
            let handle = BodyHandle(DYNAMIC | index as u64);
            report(point, normal, distance, body.point_velocity(point), handle);
        }
    }

    fn apply_impulse(&mut self, body: BodyHandle, point: Vec2, impulse: Vec2) {
        if body.0 & DYNAMIC == 0 {
            return;
        }
        if let Some(dynamic) = self.boxes.get_mut((body.0 & !DYNAMIC) as usize) {
            dynamic.apply(point, impulse);
            dynamic.particle_impulse += impulse;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_surface_is_the_closest_point_with_the_outward_normal() {
        let (center, half, angle) = (Vec2::new(1.0, 2.0), Vec2::new(0.5, 0.25), 0.3f32);
        // Outside, straight above the top face (in the box's frame).
        let (s, c) = angle.sin_cos();
        let up = Vec2::new(-s, c);
        let (point, normal, distance) = box_surface(center, half, angle, center + up * 0.75);
        assert!((distance - 0.5).abs() < 1e-6);
        assert!((normal - up).length() < 1e-6);
        assert!((point - (center + up * 0.25)).length() < 1e-6);
        // Inside, nearer the right face.
        let right = Vec2::new(c, s);
        let (_, normal, distance) = box_surface(center, half, angle, center + right * 0.45);
        assert!((distance + 0.05).abs() < 1e-6 && (normal - right).length() < 1e-6);
    }

    #[test]
    fn a_box_rests_on_the_ground_and_the_ground_carries_its_weight() {
        let mut world = TestCollider::new();
        world.add_ground(0.0);
        let handle = world.add_dynamic_box(DynamicBox::new(
            Vec2::new(0.0, 0.6),
            Vec2::new(0.5, 0.5),
            4.0,
        ));
        let dt = 1.0 / 60.0;
        let gravity = Vec2::new(0.0, -10.0);
        for _ in 0..120 {
            world.step_bodies(dt, gravity);
        }
        let body = world.dynamic_box(handle).unwrap();
        assert!((body.center.y - 0.5).abs() < 0.01, "{:?}", body.center);
        assert!(body.velocity.length() < 1e-3);
        let weight = 4.0 * 10.0 * dt;
        assert!((body.support_impulse.y - weight).abs() < 1e-3 * weight);
    }
}
