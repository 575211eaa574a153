//! Step phase 4: hand the touching contacts to the solver and keep what it learned.
//!
//! The solver works on the awake bodies' dense arrays and a flat list of [`SolverContact`]s.
//! For every touching contact the World builds one:
//!
//! - body indices: the awake-set index of each body, or `NULL_BODY` for a static body (which
//!   the solver treats as an immovable identity state);
//! - inverse masses from the bodies' sims (zero for static and kinematic bodies);
//! - the manifold with anchors moved from the body origins to the centres of mass. The
//!   narrowphase gives `anchor = point − origin` in world orientation; the centre of mass sits
//!   at `origin + q·local_center`, so `anchor_com = anchor − q·local_center`.
//!
//! After the solve each point's accumulated impulses (and the solver's diagnostics) are copied
//! back into the contact's manifold: next step's narrowphase carries them to the matching new
//! points, which is what makes warm starting work.
//!
//! Then divergence is collected: the solver leaves a body whose velocity or displacement blew up
//! at its start pose, at rest, and lists it; the World also checks every awake body's pose and
//! resets any that is not finite to the pose recorded at the step start (`center0`,
//! `rotation0`). Those bodies are reported by the step; cached impulses that are no longer
//! finite are dropped. No NaN survives into the next step.

use crate::body::AWAKE_SET;
use crate::contact::ContactSim;
use crate::profile::zone;
use crate::world::World;
use collision::Manifold;
use core_soa::{Arena, Body, BodyArrays, BodyId, BodySim, BodyState, NULL_BODY, Transform, Vec2};
use solver_simd::{AwakeBodies, SolverContact, SolverParams};

impl World {
    /// Runs the solver over the touching contacts; returns the bodies that diverged.
    pub(crate) fn solve(&mut self, dt: f32, substeps: u32) -> Vec<BodyId> {
        zone!("solve");
        self.build_solver_contacts();
        self.run_solver(dt, substeps);
        self.store_impulses();
        self.collect_diverged_bodies()
    }

    fn run_solver(&mut self, dt: f32, substeps: u32) {
        let params = self.solver_params(dt, substeps);
        let (sims, states) = self.solver_sets[AWAKE_SET as usize].sims_and_states_mut();
        let bodies = AwakeBodies { states, sims };
        let contacts = &mut self.solver_contacts;
        self.solver
            .solve(&params, bodies, contacts, &mut self.profile.solver);
    }

    /// The bodies the solver reported as blown up, plus any whose pose is not finite (reset
    /// here), in awake-set order.
    fn collect_diverged_bodies(&mut self) -> Vec<BodyId> {
        let mut diverged = self.solver.non_finite_bodies().to_vec();
        diverged.extend(self.reset_diverged_bodies());
        diverged.sort_unstable();
        diverged.dedup();
        let sims = self.solver_sets[AWAKE_SET as usize].sims();
        diverged
            .iter()
            .filter_map(|&local| self.bodies.key_at(sims.get(local as usize)?.body))
            .collect()
    }

    fn solver_params(&self, dt: f32, substeps: u32) -> SolverParams {
        let def = &self.def;
        SolverParams {
            dt,
            substeps,
            gravity: def.gravity,
            contact_hertz: def.contact_hertz,
            contact_damping_ratio: def.contact_damping_ratio,
            contact_push_max_speed: def.max_contact_push_speed,
            joint_hertz: def.joint_hertz,
            joint_damping_ratio: def.joint_damping_ratio,
            restitution_threshold: def.restitution_threshold,
            max_linear_speed: def.max_linear_speed,
            linear_slop: def.linear_slop,
            baumgarte: def.baumgarte,
            kind: def.solver_kind,
            enable_warm_starting: def.enable_warm_starting,
        }
    }

    /// Fills the solver's contact list from the touching contacts, in contact order.
    fn build_solver_contacts(&mut self) {
        self.solver_contacts.clear();
        self.solver_contact_sources.clear();
        for (index, sim) in self.contacts.sims.iter().enumerate() {
            if !sim.touching {
                continue;
            }
            let a = solver_body(&self.bodies, &self.solver_sets, sim.body_a);
            let b = solver_body(&self.bodies, &self.solver_sets, sim.body_b);
            self.solver_contacts.push(solver_contact(sim, a, b));
            self.solver_contact_sources.push(index as u32);
        }
    }

    /// Copies the solved impulses back into the contacts' manifolds (the cache).
    fn store_impulses(&mut self) {
        for (solved, &source) in self
            .solver_contacts
            .iter()
            .zip(&self.solver_contact_sources)
        {
            let Some(sim) = self.contacts.sims.get_mut(source as usize) else {
                continue;
            };
            let count = sim.manifold.point_count.min(solved.manifold.point_count);
            for (point, result) in sim.manifold.points[..count]
                .iter_mut()
                .zip(&solved.manifold.points)
            {
                point.normal_impulse = finite_or_zero(result.normal_impulse);
                point.tangent_impulse = finite_or_zero(result.tangent_impulse);
                point.max_normal_impulse = finite_or_zero(result.max_normal_impulse);
                point.normal_velocity = finite_or_zero(result.normal_velocity);
            }
        }
    }

    /// Puts every awake body with a non-finite velocity or pose back at its step-start pose, at
    /// rest; returns their awake-set indices. (The solver already resets bodies whose velocity
    /// blew up; this also catches a pose that overflowed.)
    fn reset_diverged_bodies(&mut self) -> Vec<u32> {
        let mut diverged = Vec::new();
        let (sims, states) = self.solver_sets[AWAKE_SET as usize].sims_and_states_mut();
        for (local, (sim, state)) in sims.iter_mut().zip(states.iter_mut()).enumerate() {
            if !is_body_finite(sim, state) {
                reset_to_step_start(sim, state);
                diverged.push(local as u32);
            }
        }
        diverged
    }
}

/// What the solver needs to know about one side of a contact.
#[derive(Clone, Copy)]
struct SolverBody {
    index: u32,
    inv_mass: f32,
    inv_inertia: f32,
    /// World offset from the body origin to its centre of mass (`q·local_center`).
    center_offset: Vec2,
}

fn solver_body(bodies: &Arena<Body, BodyId>, sets: &[BodyArrays], body: u32) -> SolverBody {
    let found = bodies.get_by_index(body).and_then(|b| {
        let (sim, _) = sets.get(b.set_index as usize)?.get(b.local_index)?;
        let index = if b.set_index == AWAKE_SET {
            b.local_index
        } else {
            NULL_BODY
        };
        Some((index, sim))
    });
    match found {
        Some((index, sim)) => SolverBody {
            index,
            inv_mass: sim.inv_mass,
            inv_inertia: sim.inv_inertia,
            center_offset: sim.transform.q.rotate(sim.local_center),
        },
        None => SolverBody {
            index: NULL_BODY,
            inv_mass: 0.0,
            inv_inertia: 0.0,
            center_offset: Vec2::ZERO,
        },
    }
}

fn solver_contact(sim: &ContactSim, a: SolverBody, b: SolverBody) -> SolverContact {
    let mut manifold: Manifold = sim.manifold;
    for point in manifold.points_mut() {
        point.anchor_a -= a.center_offset;
        point.anchor_b -= b.center_offset;
    }
    SolverContact {
        body_a: a.index,
        body_b: b.index,
        inv_mass_a: a.inv_mass,
        inv_inertia_a: a.inv_inertia,
        inv_mass_b: b.inv_mass,
        inv_inertia_b: b.inv_inertia,
        friction: sim.friction,
        restitution: sim.restitution,
        manifold,
    }
}

fn finite_or_zero(value: f32) -> f32 {
    if value.is_finite() { value } else { 0.0 }
}

fn is_body_finite(sim: &BodySim, state: &BodyState) -> bool {
    state.linear_velocity.is_finite()
        && state.angular_velocity.is_finite()
        && sim.center.is_finite()
        && sim.transform.p.is_finite()
        && sim.transform.q.c.is_finite()
        && sim.transform.q.s.is_finite()
}

/// Restores the pose recorded at the start of the step and stops the body.
fn reset_to_step_start(sim: &mut BodySim, state: &mut BodyState) {
    let rotation = sim.rotation0;
    sim.center = sim.center0;
    sim.transform = Transform::new(sim.center0 - rotation.rotate(sim.local_center), rotation);
    sim.force = Vec2::ZERO;
    sim.torque = 0.0;
    state.linear_velocity = Vec2::ZERO;
    state.angular_velocity = 0.0;
    state.delta_position = Vec2::ZERO;
    state.delta_rotation = core_soa::Rot::IDENTITY;
}

#[cfg(test)]
mod tests {
    use super::AWAKE_SET;
    use crate::{BodyDef, PrismError, ShapeDef, Vec2, World, WorldDef, make_box};

    const DT: f32 = 1.0 / 60.0;

    /// A NaN that appears inside a step (as an overflow in the solver would make it) is caught:
    /// the body goes back to its step-start pose, at rest; the step names it; the other bodies and
    /// the contact cache stay finite; the world steps on.
    #[test]
    fn non_finite_body_is_reset_reported_and_contained() {
        let mut world = World::new(WorldDef::default()).unwrap();
        let ground = world
            .create_body(&BodyDef::fixed_at(Vec2::new(0.0, -1.0)))
            .unwrap();
        world
            .create_polygon_shape(ground, &ShapeDef::default(), &make_box(20.0, 1.0))
            .unwrap();
        let mut drop = |x: f32| {
            let body = world
                .create_body(&BodyDef::dynamic_at(Vec2::new(x, 0.5)))
                .unwrap();
            world
                .create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5))
                .unwrap();
            body
        };
        let (victim, bystander) = (drop(0.0), drop(5.0));
        for _ in 0..30 {
            world.step(DT, 4).unwrap();
        }
        let pose = world.transform(victim).unwrap();
        let bystander_pose = world.transform(bystander).unwrap();
        let local = world.bodies.get(victim).unwrap().local_index as usize;
        world.solver_sets[AWAKE_SET as usize].states_mut()[local]
            .linear_velocity
            .x = f32::NAN;

        assert_eq!(
            world.step(DT, 4),
            Err(PrismError::Diverged {
                bodies: vec![victim]
            })
        );
        assert_eq!(world.transform(victim).unwrap(), pose);
        assert_eq!(world.linear_velocity(victim).unwrap(), Vec2::ZERO);
        let moved = world
            .transform(bystander)
            .unwrap()
            .p
            .distance(bystander_pose.p);
        assert!(moved < 1e-3, "the resting bystander moved {moved} m");
        let cache_finite = world.contacts.sims.iter().all(|sim| {
            sim.manifold
                .points()
                .iter()
                .all(|p| p.normal_impulse.is_finite() && p.tangent_impulse.is_finite())
        });
        assert!(cache_finite, "a NaN reached the contact cache");

        for _ in 0..30 {
            world.step(DT, 4).unwrap();
        }
        let y = world.position(victim).unwrap().y;
        assert!(
            (y - 0.5).abs() < 0.01,
            "the reset body rests again at y = {y}"
        );
    }
}
