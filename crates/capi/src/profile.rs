//! Step timings and world counters.
//!
//! `PrismStepProfile` holds the wall-clock milliseconds of each phase of the last step, with
//! the solver's own stages as a nested `PrismSolverProfile` (the phases added after the first
//! release follow `total`, so the struct's earlier layout is unchanged); `PrismCounters` the current sizes of
//! the world's structures, including how many contacts each graph colour holds.

use crate::boundary::get;
use crate::pointer::{Out, WorldRef};
use crate::status::PrismStatus;
use crate::world::PrismWorld;
use prism::{Counters, SolverProfile, StepProfile};

/// The number of graph colours (the length of `PrismCounters::color_contacts`).
pub const PRISM_GRAPH_COLOR_COUNT: usize = 24;

const _: () = assert!(PRISM_GRAPH_COLOR_COUNT == prism::GRAPH_COLOR_COUNT);

/// Milliseconds spent in each stage of the solver during the last step.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PrismSolverProfile {
    /// Preparing contact and joint constraints.
    pub prepare: f32,
    /// Integrating velocities.
    pub integrate_velocities: f32,
    /// Warm starting.
    pub warm_start: f32,
    /// Solving the constraints.
    pub solve: f32,
    /// Integrating positions.
    pub integrate_positions: f32,
    /// The relax iterations.
    pub relax: f32,
    /// Applying restitution.
    pub restitution: f32,
    /// Storing impulses for warm starting.
    pub store_impulses: f32,
    /// Finalising body states.
    pub finalize: f32,
    /// The whole solver.
    pub total: f32,
}

/// Milliseconds spent in each phase of the last step.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PrismStepProfile {
    /// Broadphase: finding new pairs and creating their contacts.
    pub pairs: f32,
    /// Narrowphase: contact manifolds.
    pub collide: f32,
    /// Begin/end touching of the changed contacts, events, destroyed pairs.
    pub update_contacts: f32,
    /// The solver over the graph's colours, and the divergence check.
    pub solve: f32,
    /// The solver's own stages (a breakdown of `solve`).
    pub solver: PrismSolverProfile,
    /// Sleep timers, shape boxes and broadphase proxies of the awake bodies.
    pub finalize: f32,
    /// Islands and sleep.
    pub sleep: f32,
    /// The whole step: the phases here, the solver's stages and `continuous` aside, add up
    /// to it (but for the clock reads between them).
    pub total: f32,
    /// Continuous collision (a part of `finalize`; the finalize chunks' sweep times summed over
    /// the workers).
    pub continuous: f32,
    /// Sensor overlaps and sensor events.
    pub sensors: f32,
    /// Clearing the last step's events, hit events, marking bodies fallen asleep.
    pub events: f32,
    /// Particle systems.
    pub particles: f32,
    /// Breaking overloaded joints.
    pub break_joints: f32,
    /// Giving back the spare room of stores that grew in a burst.
    pub release_spare: f32,
}

/// Sizes of a world's structures.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrismCounters {
    /// All bodies, of every type.
    pub bodies: usize,
    /// Bodies in the awake set.
    pub awake_bodies: usize,
    /// Islands, awake and asleep.
    pub islands: usize,
    /// Sleeping solver sets (one per sleeping island).
    pub sleeping_sets: usize,
    /// Shapes.
    pub shapes: usize,
    /// Contacts between shapes whose fat boxes overlap.
    pub contacts: usize,
    /// Contacts with at least one manifold point.
    pub touching_contacts: usize,
    /// Height of the static bodies' broadphase tree.
    pub static_tree_height: u32,
    /// Height of the moving bodies' broadphase tree.
    pub moving_tree_height: u32,
    /// Graph colours holding at least one contact.
    pub colors: usize,
    /// Contacts in each graph colour.
    pub color_contacts: [usize; PRISM_GRAPH_COLOR_COUNT],
    /// Touching contacts that found no colour (solved one at a time).
    pub overflow_contacts: usize,
}

impl From<SolverProfile> for PrismSolverProfile {
    fn from(p: SolverProfile) -> PrismSolverProfile {
        PrismSolverProfile {
            prepare: p.prepare,
            integrate_velocities: p.integrate_velocities,
            warm_start: p.warm_start,
            solve: p.solve,
            integrate_positions: p.integrate_positions,
            relax: p.relax,
            restitution: p.restitution,
            store_impulses: p.store_impulses,
            finalize: p.finalize,
            total: p.total,
        }
    }
}

impl From<StepProfile> for PrismStepProfile {
    fn from(p: StepProfile) -> PrismStepProfile {
        PrismStepProfile {
            pairs: p.pairs,
            collide: p.collide,
            update_contacts: p.update_contacts,
            solve: p.solve,
            solver: p.solver.into(),
            finalize: p.finalize,
            sleep: p.sleep,
            total: p.total,
            continuous: p.continuous,
            sensors: p.sensors,
            events: p.events,
            particles: p.particles,
            break_joints: p.break_joints,
            release_spare: p.release_spare,
        }
    }
}

impl From<Counters> for PrismCounters {
    fn from(c: Counters) -> PrismCounters {
        PrismCounters {
            bodies: c.bodies,
            awake_bodies: c.awake_bodies,
            islands: c.islands,
            sleeping_sets: c.sleeping_sets,
            shapes: c.shapes,
            contacts: c.contacts,
            touching_contacts: c.touching_contacts,
            static_tree_height: c.static_tree_height,
            moving_tree_height: c.moving_tree_height,
            colors: c.colors,
            color_contacts: c.color_contacts,
            overflow_contacts: c.overflow_contacts,
        }
    }
}

/// Writes the timings of the last step to `*out` (all zero before the first step).
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_world_get_profile(
    world: *const PrismWorld,
    out: *mut PrismStepProfile,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_world_get_profile", world, out, |handle| {
        Ok((*handle.world.profile()).into())
    })
}

/// Writes the current sizes of the world's structures to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_world_get_counters(
    world: *const PrismWorld,
    out: *mut PrismCounters,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_world_get_counters", world, out, |handle| {
        Ok(handle.world.counters().into())
    })
}
