//! The World as particles see it: a [`ParticleCollider`] over the broadphase trees and the
//! shapes, and the reactions the particles hand back to the bodies.
//!
//! **Query.** A particle is a circle of its system's radius `r`. The particles crate asks,
//! from several threads at once, for every surface within `r + margin` of a particle's centre
//! `p`. The trees (static, moving, sleeping, in that order) give the shapes whose fat boxes
//! meet the square of half-width `r + margin` around `p`; for each candidate that is not a
//! sensor, `collision::shape_point_distance` gives the closest boundary point `q`, the outward
//! normal `n` there and the signed distance `d` of `p` (negative inside a solid), so the
//! circle's gap is `s = d − r`. A candidate with `s ≤ margin` becomes a contact plane through
//! `q` with normal `n`, gap `s`, the shape's friction, and the surface velocity of the body at
//! `q`, `v + ω × (q − c)`. The bodies have already moved this step, so the plane is reported
//! where the surface was at the step's start — through `q − v_s h`, with gap `s + n·v_s h` —
//! and the particle step, which moves it on at `v_s`, ends with it where the body is now.
//! That covers every shape kind: circles, capsules and polygons
//! (rounded or not) from outside and from inside, segments and chain segments from either side.
//! Tree walks are in a fixed order and each answer depends only on the particle and the world,
//! so the contacts are the same for any number of threads.
//!
//! **Reactions.** The particle step ends by handing the opposite of every contact's impulse
//! to the collider, in contact order; they are kept as [`BodyReaction`]s and applied after the
//! step by [`World::apply_particle_reactions`], serially in that order:
//!
//! ```text
//!   static, kinematic, disabled, destroyed body   ignored (infinitely heavy, or gone)
//!   awake dynamic body                            force P/h at q for the next step
//!   sleeping dynamic body                         summed per body; woken and pushed only if
//!                                                 the sum would change its velocity by more
//!                                                 than its sleep threshold — otherwise its
//!                                                 resting contacts hold the load, as for a
//!                                                 rigid body resting on it
//! ```
//!
//! A body does not move during the particle step; it answers in the next rigid step, where
//! the particles' impulse `P` of this step (length `h`) acts as the force `P/h` (and torque
//! `(q − c) × P/h`) spread over the solver's substeps like gravity, so a resting cloth's
//! weight shows in every substep's ground contact of the body under it. (If the next step is
//! longer or shorter, the impulse it delivers scales with it.)

use crate::solver_set::{DISABLED_SET, FIRST_SLEEPING_SET};
use crate::world::World;
use collision::{Aabb, shape_point_distance};
use core_soa::{BodyId, BodySim, BodyState, BodyType, Vec2, cross};
use particles::{BodyHandle, ParticleCollider, ParticleContact};
use std::collections::BTreeMap;

/// An impulse the particles gave back to a body.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BodyReaction {
    pub body: BodyHandle,
    /// Where it acts (world).
    pub point: Vec2,
    /// The impulse on the body (N·s).
    pub impulse: Vec2,
}

/// The particles crate's name for a body: its id's index and generation.
pub(crate) fn body_handle(body: BodyId) -> BodyHandle {
    BodyHandle(u64::from(body.generation()) << 32 | u64::from(body.index()))
}

fn body_of(handle: BodyHandle) -> BodyId {
    BodyId::new(handle.0 as u32, (handle.0 >> 32) as u32)
}

/// The world's shapes as contact planes for particles; collects the reactions.
pub(crate) struct WorldCollider<'w> {
    world: &'w World,
    /// The step's length: the surfaces are reported where they were this long ago.
    dt: f32,
    pub reactions: Vec<BodyReaction>,
}

impl<'w> WorldCollider<'w> {
    pub fn new(world: &'w World, dt: f32) -> WorldCollider<'w> {
        WorldCollider {
            world,
            dt,
            reactions: Vec::new(),
        }
    }

    /// The contact of the particle at `p` with the shape behind tree entry `user_data`, if it
    /// is within `margin` of the particle's circle.
    fn contact(
        &self,
        user_data: u64,
        p: Vec2,
        radius: f32,
        margin: f32,
    ) -> Option<ParticleContact> {
        let world = self.world;
        let id = world.shapes.key_at(user_data as u32)?;
        let shape = world.shapes.get(id)?;
        if shape.is_sensor {
            return None;
        }
        let (sim, state) = world.body_motion(shape.body)?;
        let surface = shape_point_distance(&shape.geometry, sim.transform, p);
        let r = surface.point - sim.center;
        let w = state.angular_velocity;
        let velocity = state.linear_velocity + Vec2::new(-w * r.y, w * r.x);
        // The plane where the surface was at the start of the step (module notes).
        let separation = surface.distance - radius + surface.normal.dot(velocity) * self.dt;
        if separation > margin {
            return None;
        }
        Some(ParticleContact {
            point: surface.point - velocity * self.dt,
            normal: surface.normal,
            separation,
            surface_velocity: velocity,
            friction: shape.friction,
            body: body_handle(shape.body),
        })
    }
}

impl ParticleCollider for WorldCollider<'_> {
    fn query(&self, position: Vec2, radius: f32, margin: f32, out: &mut Vec<ParticleContact>) {
        let reach = Vec2::splat(radius + margin);
        let aabb = Aabb::new(position - reach, position + reach);
        for tree in self.world.query_trees() {
            tree.query(&aabb, u64::MAX, |_proxy, user_data| {
                out.extend(self.contact(user_data, position, radius, margin));
                true
            });
        }
    }

    fn apply_impulse(&mut self, body: BodyHandle, point: Vec2, impulse: Vec2) {
        self.reactions.push(BodyReaction {
            body,
            point,
            impulse,
        });
    }
}

impl World {
    /// The pose and velocity records of a live body, in whatever set it is.
    pub(crate) fn body_motion(&self, body: BodyId) -> Option<(&BodySim, &BodyState)> {
        let record = self.bodies.get(body)?;
        self.solver_sets
            .get(record.set_index as usize)?
            .bodies
            .get(record.local_index)
    }

    /// Applies the particles' reactions of a step of `dt` to the bodies (module notes).
    pub(crate) fn apply_particle_reactions(&mut self, reactions: &[BodyReaction], dt: f32) {
        let mut sleeping: BTreeMap<u32, (BodyId, Vec2, f32)> = BTreeMap::new();
        for reaction in reactions {
            let body = body_of(reaction.body);
            let Some(record) = self.bodies.get(body) else {
                continue;
            };
            if record.body_type != BodyType::Dynamic || record.set_index == DISABLED_SET {
                continue;
            }
            if record.set_index >= FIRST_SLEEPING_SET {
                let Some((sim, _)) = self.body_motion(body) else {
                    continue;
                };
                let torque = cross(reaction.point - sim.center, reaction.impulse);
                let entry = sleeping
                    .entry(body.index())
                    .or_insert((body, Vec2::ZERO, 0.0));
                entry.1 += reaction.impulse;
                entry.2 += torque;
                continue;
            }
            let Some((sim, _)) = self.body_motion(body) else {
                continue;
            };
            let torque = cross(reaction.point - sim.center, reaction.impulse);
            self.push_body(body, reaction.impulse / dt, torque / dt);
        }
        for (body, impulse, angular) in sleeping.into_values() {
            self.push_sleeping_body(body, impulse, angular, dt);
        }
    }

    /// Adds a force and torque to an awake body for the next step.
    fn push_body(&mut self, body: BodyId, force: Vec2, torque: f32) {
        if let Some((sim, _)) = self.body_sim_state_mut(body.index()) {
            sim.force += force;
            sim.torque += torque;
        }
    }

    /// Wakes a sleeping body and pushes it if the summed impulse would change its velocity by
    /// more than its sleep threshold.
    fn push_sleeping_body(&mut self, body: BodyId, impulse: Vec2, angular: f32, dt: f32) {
        let Some((sim, _)) = self.body_motion(body) else {
            return;
        };
        let linear = sim.inv_mass * impulse.length();
        let spin = sim.inv_inertia * angular.abs() * sim.max_extent;
        if linear + spin <= sim.sleep_threshold {
            return;
        }
        self.wake_body(body.index());
        self.push_body(body, impulse / dt, angular / dt);
    }
}
