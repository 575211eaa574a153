//! Step phase 4: the solver runs over the constraints where they live.
//!
//! The awake bodies' dense arrays and the graph's colours are the solver's input as they
//! stand: each colour's contact sims and joint constraints (`graph.rs`), colours in order, the
//! overflow set last. Nothing is gathered before or stored after — preparation reads each
//! contact's [`SolverContact`](solver_simd::SolverContact) part in place, and the last stage
//! writes the accumulated impulses back into it, where the next narrowphase carries them to
//! the new manifold (the contact cache). The contact sims already name their bodies by awake
//! index with their inverse masses (`relocate.rs`), and their anchors are relative to the
//! centres of mass (`narrowphase.rs`).
//!
//! ```text
//!   rescale   carried joint impulses, if the substep changed (joint/step.rs)
//!   solve     solver-simd: colours as wide bundles in parallel blocks, overflow serially;
//!             beside it, on another worker, the contact-state pass's tail: island unlinks
//!             and the rest of the parted contacts' destruction
//!   check     bodies that diverged are reset and reported
//! ```
//!
//! The contacts that stopped touching or parted have already left the colours when the phase
//! starts (`narrowphase.rs`); what the contact-state pass left undone — unlinking them from their
//! islands, and the rest of the parted contacts' destruction — writes only the island graph, the
//! contacts' cold records, the awake set's store of non-touching contacts, the bodies' contact
//! lists and the pair set (`contact::ContactStateTail`), none of which the solver reads. So the
//! two run under one `workers::join`, each on its own borrowed part of the world: the tail is
//! offered to the helpers, a second worker takes it up while the caller starts the solver's
//! stages, and joins the solver when it is done (the executor lets a late worker skip to the
//! current stage). Neither part depends on which thread runs it or when, so the world after the
//! phase is the same as with one worker, where the contact-state pass runs the tail itself.
//!
//! The solver writes one colour's bodies from several lanes and threads at once, which is sound
//! only because no dynamic body appears twice in a colour; the graph guarantees it by
//! construction, so the step skips the solver's own check of it (a walk over every constraint)
//! except in `validate` builds, which make it every step.
//!
//! Then divergence is collected: the solver leaves a body whose velocity or displacement blew up
//! at its start pose, at rest, and lists it, and likewise a body whose new pose is not finite
//! (it checks each pose as its final pass writes it, so no serial pass over the awake bodies
//! is needed here). Those bodies are reported as the step's divergence events
//! ([`World::diverged_bodies`]) and the step still succeeds: a blow-up is something the
//! simulation did, not a mistake in the caller's arguments. Contact impulses that are not
//! finite are zeroed by the solver and joint impulses here. No NaN survives into the next
//! step.

// Unsafe code is confined here: the World's colouring proves the invariant `step_unchecked` asks
// for; every block has its `// SAFETY:` argument.
#![allow(unsafe_code)]

use crate::contact::{ContactStateTail, PartedContacts};
use crate::profile::zone;
use crate::solver_set::{AWAKE_SET, SolverSet};
use crate::world::World;
use core_soa::BodyId;
use solver_simd::{
    AwakeBodies, ColorConstraints, ContactSolver, SolverParams, SolverProfile, StepConstraints,
};

use crate::contact::ContactSim;
use crate::graph::Graph;

impl World {
    /// The bodies the last step found blown up (a velocity or pose no longer finite) and put
    /// back where they were at the start of that step, at rest, in awake-set order. Empty
    /// after a healthy step.
    pub fn diverged_bodies(&self) -> &[BodyId] {
        &self.diverged
    }

    /// Runs the solver over the touching contacts and the joints, and beside it the contact
    /// state pass's `tail` (module notes); returns the bodies that diverged.
    pub(crate) fn solve(&mut self, dt: f32, substeps: u32, tail: &ContactStateTail) -> Vec<BodyId> {
        zone!("solve");
        let h = self.joint_substep(dt, substeps);
        self.rescale_joint_impulses(h);
        self.run_solver(dt, substeps, tail);
        let diverged = self.collect_diverged_bodies();
        if !diverged.is_empty() {
            self.drop_non_finite_joint_impulses();
        }
        diverged
    }

    /// Runs the solver over the graph's colours on `worker_count` threads, or on one for a
    /// light step (`World::parallel_step`), with the contact-state pass's tail (island
    /// unlinks, the parted contacts' destruction) beside it.
    fn run_solver(&mut self, dt: f32, substeps: u32, left: &ContactStateTail) {
        let params = self.solver_params(dt, substeps);
        let workers = if self.parallel_step {
            self.def.worker_count
        } else {
            1
        };
        let World {
            solver,
            solver_sets,
            graph,
            profile,
            contacts,
            bodies,
            broadphase,
            islands,
            ..
        } = self;
        solver.set_worker_count(workers as usize);
        let SolverSet {
            bodies: awake_bodies,
            contacts: awake_store,
            ..
        } = &mut solver_sets[AWAKE_SET as usize];
        let parted = PartedContacts {
            contacts,
            store: awake_store,
            bodies,
            pair_set: &mut broadphase.pair_set,
        };
        let (sims, states) = awake_bodies.sims_and_states_mut();
        let mut run = move || {
            let bodies = AwakeBodies { states, sims };
            run_graph(solver, &params, bodies, graph, &mut profile.solver)
        };
        let complaint = if left.unlinks.is_empty() && left.parted.is_empty() {
            run()
        } else {
            workers::join(run, || left.run(&mut islands.graph, parted)).0
        };
        #[cfg(feature = "validate")]
        if let Some(complaint) = complaint {
            self.corruption = Some(complaint);
        }
        #[cfg(not(feature = "validate"))]
        let _: Option<String> = complaint;
    }

    /// The bodies the solver reported as blown up (their motion or their new pose not finite)
    /// and put back at their start pose, in awake-set order.
    fn collect_diverged_bodies(&mut self) -> Vec<BodyId> {
        let sims = self.solver_sets[AWAKE_SET as usize].bodies.sims();
        self.solver
            .non_finite_bodies()
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
}

/// One solver step over the graph's colours (see [`World::run_solver`]). Returns the solver's
/// complaint about the colouring, which only `validate` builds check.
fn run_graph(
    solver: &mut ContactSolver,
    params: &SolverParams,
    bodies: AwakeBodies<'_>,
    graph: &mut Graph,
    profile: &mut SolverProfile,
) -> Option<String> {
    let constraints = step_constraints(graph);
    #[cfg(feature = "validate")]
    {
        let checked = solver.step(params, bodies, constraints, profile);
        checked
            .err()
            .map(|error| format!("solver colouring: {error}"))
    }
    #[cfg(not(feature = "validate"))]
    {
        // SAFETY: no dynamic body appears twice among one colour's contacts and joints. The
        // constraint graph admits a constraint to a colour only if none of its dynamic bodies'
        // bits is set in that colour's body bitset (shared by contacts and joints), sets them
        // on admission and clears them on removal (`graph_coloring`). Only awake dynamic bodies
        // take bits — a body's constraints leave the graph before it leaves the awake set
        // (`solver_set.rs`) — and static and kinematic bodies are never written by the solver.
        // A body's bit is its arena index, and each constraint names it by its awake index,
        // which `relocate.rs` keeps equal to the body's place in the awake arrays, one to one
        // with arena indices. The `validate` build checks all of this every step instead.
        unsafe {
            solver.step_unchecked(params, bodies, constraints, profile);
        }
        None
    }
}

/// The graph's colours as the solver's input: colours in order, the overflow set last.
fn step_constraints(graph: &mut Graph) -> StepConstraints<'_, ContactSim> {
    let mut colors: Vec<ColorConstraints<'_, ContactSim>> = graph
        .colors_mut()
        .map(|(contacts, joints)| ColorConstraints { contacts, joints })
        .collect();
    let overflow = colors.pop().unwrap_or_default();
    StepConstraints { colors, overflow }
}

#[cfg(test)]
mod tests {
    use crate::solver_set::AWAKE_SET;
    use crate::{BodyDef, ShapeDef, Vec2, World, WorldDef, make_box};

    const DT: f32 = 1.0 / 60.0;

    /// A NaN that appears inside a step (as an overflow in the solver would make it) is caught:
    /// the body goes back to its step-start pose, at rest; the step succeeds and names it among
    /// its divergence events (for that step only); the other bodies and the contact cache stay
    /// finite; the world steps on.
    #[test]
    fn non_finite_body_is_reset_reported_and_contained() {
        // Awake throughout: the test writes into the awake set's states directly.
        let mut world = World::new(WorldDef {
            enable_sleep: false,
            ..WorldDef::default()
        })
        .unwrap();
        let ground = world
            .create_body(&BodyDef::fixed_at(Vec2::new(0.0, -1.0)))
            .unwrap();
        world
            .create_polygon_shape(ground, &ShapeDef::default(), &make_box(20.0, 1.0).unwrap())
            .unwrap();
        let mut drop = |x: f32| {
            let body = world
                .create_body(&BodyDef::dynamic_at(Vec2::new(x, 0.5)))
                .unwrap();
            world
                .create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap())
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
        world.solver_sets[AWAKE_SET as usize].bodies.states_mut()[local]
            .linear_velocity
            .x = f32::NAN;

        assert_eq!(world.step(DT, 4), Ok(()));
        assert_eq!(world.diverged_bodies(), [victim]);
        assert_eq!(world.transform(victim).unwrap(), pose);
        assert_eq!(world.linear_velocity(victim).unwrap(), Vec2::ZERO);
        let moved = world
            .transform(bystander)
            .unwrap()
            .p
            .distance(bystander_pose.p);
        assert!(moved < 1e-3, "the resting bystander moved {moved} m");
        let cache_finite = world.contact_data().all(|data| {
            data.manifold
                .points()
                .iter()
                .all(|p| p.normal_impulse.is_finite() && p.tangent_impulse.is_finite())
        });
        assert!(cache_finite, "a NaN reached the contact cache");

        world.step(DT, 4).unwrap();
        assert!(world.diverged_bodies().is_empty(), "reported once");
        for _ in 0..29 {
            world.step(DT, 4).unwrap();
        }
        let y = world.position(victim).unwrap().y;
        assert!(
            (y - 0.5).abs() < 0.01,
            "the reset body rests again at y = {y}"
        );
    }
}
