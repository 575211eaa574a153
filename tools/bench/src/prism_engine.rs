//! The Prism backend: scenes are built by the `scenes` crate's translator
//! ([`scenes::prism_build`]), the same code tests use, from the same engine-neutral data the
//! Box2D and Rapier backends build.
//!
//! **Settings.** Prism's world defaults are Box2D's; the scene's gravity and
//! sleep flag, the worker count, continuous collision as asked (`WorldDef::enable_continuous`),
//! and contact recycling as asked (`WorldDef::enable_contact_recycling`, on by default).
//!
//! **Quality.** Penetration is the deepest overlap among the touching contacts' manifold points
//! (`−separation`), as the other backends report it.

use crate::engine::{
    BenchError, BodyContacts, BodySample, Counters, Engine, Memory, WorldSettings, vec_bytes,
};
use prism::{BodyType, JointKind, PrismError, Shape, StepProfile, World, WorldDef};
use scenes::description::{BodyGroup, SUBSTEPS, TIME_STEP};
use scenes::prism_build::{self, BuiltGroup};
use std::collections::HashMap;

/// One Prism world and the groups built into it, by slot.
struct PrismEngine {
    world: World,
    groups: Vec<Option<BuiltGroup>>,
    /// Steps in which bodies diverged (`World::diverged_bodies`) or that failed; the benchmark
    /// keeps going.
    diverged_steps: usize,
    /// Every step's `StepProfile`, summed field by field (ms).
    phase_totals: Vec<(&'static str, f64)>,
}

/// The phases and solver stages of a `StepProfile`, in step order. The labels are the names of
/// the Tracy zones of a `profile` build (no two alike), so a capture reads like this table.
fn phases(profile: &StepProfile) -> [(&'static str, f32); 22] {
    let solver = &profile.solver;
    [
        ("pairs", profile.pairs),
        ("collide", profile.collide),
        ("update_contacts", profile.update_contacts),
        ("solve", profile.solve),
        ("  prepare", solver.prepare),
        ("  integrate_velocities", solver.integrate_velocities),
        ("  warm_start", solver.warm_start),
        ("  solve_impulses", solver.solve),
        ("  integrate_positions", solver.integrate_positions),
        ("  relax_impulses", solver.relax),
        ("  restitution", solver.restitution),
        ("  store_impulses", solver.store_impulses),
        ("  finalize_poses", solver.finalize),
        ("break_joints", profile.break_joints),
        ("finalize", profile.finalize),
        ("  continuous", profile.continuous),
        ("sleep", profile.sleep),
        ("sensors", profile.sensors),
        ("events", profile.events),
        ("particles", profile.particles),
        ("release_spare", profile.release_spare),
        ("total", profile.total),
    ]
}

/// Creates an empty Prism world for `settings` (the registry's constructor).
pub fn create(settings: &WorldSettings) -> Result<Box<dyn Engine>, BenchError> {
    let worker_count = u32::try_from(settings.threads)
        .map_err(|_| BenchError::new(format!("too many threads: {}", settings.threads)))?;
    let def = WorldDef {
        gravity: settings.gravity,
        enable_sleep: settings.sleep_enabled,
        enable_continuous: settings.continuous,
        enable_contact_recycling: settings.contact_recycling,
        worker_count,
        ..WorldDef::default()
    };
    let world = World::new(def).map_err(prism_error)?;
    Ok(Box::new(PrismEngine {
        world,
        groups: Vec::new(),
        diverged_steps: 0,
        phase_totals: Vec::new(),
    }))
}

fn prism_error(error: PrismError) -> BenchError {
    BenchError::new(format!("prism: {error}"))
}

impl PrismEngine {
    fn body(&self, slot: usize, body: usize) -> Option<prism::BodyId> {
        self.groups.get(slot)?.as_ref()?.bodies.get(body).copied()
    }
}

impl Engine for PrismEngine {
    fn insert_group(&mut self, slot: usize, group: &BodyGroup) -> Result<(), BenchError> {
        if self.groups.get(slot).is_some_and(Option::is_some) {
            return Err(BenchError::new(format!("slot {slot} is taken")));
        }
        let built = prism_build::insert_group(&mut self.world, group).map_err(prism_error)?;
        if self.groups.len() <= slot {
            self.groups.resize_with(slot + 1, || None);
        }
        self.groups[slot] = Some(built);
        Ok(())
    }

    fn remove_group(&mut self, slot: usize) {
        if let Some(built) = self.groups.get_mut(slot).and_then(Option::take) {
            prism_build::remove_group(&mut self.world, &built);
        }
    }

    fn step(&mut self) {
        let stepped = self.world.step(TIME_STEP, SUBSTEPS as u32);
        if stepped.is_err() || !self.world.diverged_bodies().is_empty() {
            self.diverged_steps += 1;
        }
        let step = phases(self.world.profile());
        if self.phase_totals.is_empty() {
            self.phase_totals = step.iter().map(|&(name, _)| (name, 0.0)).collect();
        }
        for (total, (_, ms)) in self.phase_totals.iter_mut().zip(step) {
            total.1 += f64::from(ms);
        }
    }

    fn counters(&self) -> Counters {
        let counters = self.world.counters();
        Counters {
            bodies: counters.bodies,
            shapes: counters.shapes,
            contacts: counters.contacts,
            joints: self.world.joint_ids().len(),
        }
    }

    fn deepest_penetration(&mut self) -> f32 {
        self.world
            .contact_data()
            .flat_map(|contact| {
                let manifold = contact.manifold;
                (0..manifold.point_count).map(move |i| -manifold.points[i].separation)
            })
            .fold(0.0, f32::max)
    }

    fn body_sample(&self, slot: usize, body: usize) -> Option<BodySample> {
        let id = self.body(slot, body)?;
        let world = &self.world;
        Some(BodySample {
            position: world.position(id).ok()?,
            angle: world.rotation(id).ok()?.angle(),
            linear_velocity: world.linear_velocity(id).ok()?,
            angular_velocity: world.angular_velocity(id).ok()?,
        })
    }

    fn max_joint_error(&self) -> f32 {
        let joints = self
            .groups
            .iter()
            .flatten()
            .flat_map(|g| g.joints.iter().flatten());
        joints
            .filter_map(|&joint| {
                let kept = match self.world.joint_settings(joint).ok()? {
                    JointKind::Distance(d) if d.enable_spring => return None,
                    JointKind::Distance(d) => d.length,
                    _ => 0.0,
                };
                let (a, b) = self.world.joint_anchors(joint).ok()?;
                Some((a.distance(b) - kept).abs())
            })
            .fold(0.0, f32::max)
    }

    fn phase_totals(&self) -> Vec<(&'static str, f64)> {
        self.phase_totals.clone()
    }

    fn body_contacts(&self) -> Option<Vec<BodyContacts>> {
        let built = self.groups.iter().enumerate();
        let places: HashMap<prism::BodyId, (usize, usize)> = built
            .filter_map(|(slot, group)| Some((slot, group.as_ref()?)))
            .flat_map(|(slot, group)| {
                let bodies = group.bodies.iter().enumerate();
                bodies.map(move |(index, &body)| (body, (slot, index)))
            })
            .collect();
        let world = &self.world;
        let census = places.iter().filter_map(|(&body, &at)| {
            let touching = world.body_contact_data(body).ok()?.into_iter();
            let touching = touching.filter_map(|contact| {
                let (own, other) = if world.shape_body(contact.shape_a).ok()? == body {
                    (contact.shape_a, contact.shape_b)
                } else {
                    (contact.shape_b, contact.shape_a)
                };
                let polygon = matches!(world.shape_geometry(own).ok()?, Shape::Polygon(_));
                Some((polygon, *places.get(&world.shape_body(other).ok()?)?))
            });
            Some(BodyContacts {
                at,
                is_static: world.body_type(body).ok()? == BodyType::Static,
                awake: world.is_awake(body).ok()?,
                total: world.body_contact_count(body).ok()?,
                touching: touching.collect(),
            })
        });
        Some(census.collect())
    }

    /// The world is measured by the counting allocator; the built groups' id lists and the
    /// phase totals are this backend's, not Prism's.
    fn memory(&self) -> Memory {
        let groups: usize = self
            .groups
            .iter()
            .flatten()
            .map(|g| vec_bytes(&g.bodies) + vec_bytes(&g.joints))
            .sum();
        Memory::GlobalAllocator {
            bookkeeping: vec_bytes(&self.groups) + groups + vec_bytes(&self.phase_totals),
        }
    }
}

impl Drop for PrismEngine {
    fn drop(&mut self) {
        if self.diverged_steps > 0 {
            eprintln!(
                "prism: {} step(s) reported a diverged body",
                self.diverged_steps
            );
        }
    }
}
