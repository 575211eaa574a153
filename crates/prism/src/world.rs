//! The world: where every body, shape and contact lives, and the step that advances them.
//!
//! The world owns flat storage and nothing else (see the crate essay for the tiers):
//!
//! ```text
//!   bodies         Arena<Body>          cold records, stable slots, generational ids
//!   solver_sets[0] BodyArrays           static bodies' sims (the static solver set)
//!   solver_sets[1] BodyArrays           awake dynamic + kinematic bodies: sims + states
//!   shapes         Arena<ShapeRecord>   geometry, material, filter, proxy and boxes
//!   contacts       ContactStore         Arena<Contact> (cold) + dense Vec<ContactSim> (hot)
//!   broadphase     BroadPhase           static tree, moving tree, move buffer, pair set
//! ```
//!
//! [`World::step`] is the pipeline of DESIGN §4, one method per phase, each timed into the
//! [`StepProfile`]. Every phase is written as a pass over dense arrays in index order, and every
//! set of new things (pairs, events) is sorted or produced in that order, so the same calls give
//! the same world on every run.

use crate::body::{AWAKE_SET, SOLVER_SET_COUNT};
use crate::broadphase::BroadPhase;
use crate::contact::ContactStore;
use crate::def::WorldDef;
use crate::error::{PrismError, finite_vec};
use crate::events::{ContactEvents, EventBuffers};
use crate::graph::ContactGraph;
use crate::island::Islands;
use crate::joint::JointStore;
use crate::profile::{Counters, StepProfile, elapsed_ms, timed, zone};
use crate::shape::ShapeRecord;
use crate::solve::StepScratch;
use core_soa::{Arena, Body, BodyArrays, BodyId, ShapeId, Vec2};
use solver_simd::{ContactSolver, SolverContact};
use std::sync::Arc;
use std::time::Instant;

/// A physics world.
pub struct World {
    pub(crate) def: WorldDef,
    pub(crate) bodies: Arena<Body, BodyId>,
    /// Indexed by [`Body::set_index`]: the static set and the awake set.
    pub(crate) solver_sets: Vec<BodyArrays>,
    pub(crate) shapes: Arena<ShapeRecord, ShapeId>,
    pub(crate) contacts: ContactStore,
    /// The colours of the touching contacts between awake bodies.
    pub(crate) graph: ContactGraph,
    pub(crate) broadphase: BroadPhase,
    /// Islands, sleeping sets and body sleep events.
    pub(crate) islands: Islands,
    /// Joints, their solver list and break events.
    pub(crate) joints: JointStore,
    pub(crate) events: EventBuffers,
    pub(crate) profile: StepProfile,
    /// The contact solver (keeps its scratch arrays between steps).
    pub(crate) solver: ContactSolver,
    /// Scratch: the solver's contact list, reused from step to step.
    pub(crate) solver_contacts: Vec<SolverContact>,
    /// How many contacts this step's solver list holds.
    pub(crate) solver_contact_count: usize,
    /// Per-step lookup tables of the narrowphase and the solve phase.
    pub(crate) step_scratch: StepScratch,
    /// The `worker_count` threads the step runs on.
    pub(crate) thread_pool: Arc<rayon::ThreadPool>,
    /// The next id stamped into a chain's segments.
    pub(crate) next_chain_id: u32,
}

impl World {
    /// Creates an empty world.
    pub fn new(def: WorldDef) -> Result<World, PrismError> {
        def.validate()?;
        let thread_pool = build_thread_pool(def.worker_count)?;
        Ok(World {
            def,
            bodies: Arena::new(),
            solver_sets: (0..SOLVER_SET_COUNT).map(|_| BodyArrays::new()).collect(),
            shapes: Arena::new(),
            contacts: ContactStore::default(),
            graph: ContactGraph::new(def.force_overflow),
            broadphase: BroadPhase::new(),
            islands: Islands::default(),
            joints: JointStore::default(),
            events: EventBuffers::default(),
            profile: StepProfile::default(),
            solver: ContactSolver::new(),
            solver_contacts: Vec::new(),
            solver_contact_count: 0,
            step_scratch: StepScratch::default(),
            thread_pool,
            next_chain_id: 0,
        })
    }

    /// Advances the world by `dt` seconds with `substeps` solver substeps (the sequential
    /// impulses solver uses `substeps` as its velocity iteration count).
    ///
    /// `dt == 0` pauses: nothing moves and nothing is computed, and the event lists (contact,
    /// body, joint) read after the call are empty, so no stale events are read. (Box2D also
    /// clears its events and skips the solve for a zero step, but still updates the contacts
    /// and reports their touch events; Prism leaves that to the next step that runs.) Events
    /// that calls made between steps produced (end touches of destroyed shapes, wakes) are
    /// kept for that step.
    ///
    /// Errors: `dt` negative or not finite, or `substeps == 0` (nothing happens); or
    /// [`PrismError::Diverged`] after a completed step in which some bodies blew up (they were
    /// reset; everything else stepped normally).
    pub fn step(&mut self, dt: f32, substeps: u32) -> Result<(), PrismError> {
        crate::error::non_negative("dt", dt)?;
        if substeps == 0 {
            return Err(PrismError::InvalidCount {
                field: "substeps",
                value: 0,
                requirement: "at least 1",
            });
        }
        if dt == 0.0 {
            self.pause();
            return Ok(());
        }
        if self.def.worker_count <= 1 {
            // One worker: every phase runs serially on the caller, with no hand-off to the pool.
            return self.run_step(dt, substeps);
        }
        let pool = Arc::clone(&self.thread_pool);
        pool.install(|| self.run_step(dt, substeps))
    }

    /// A step with `dt == 0`: clears the last step's events and timings, changes nothing else.
    fn pause(&mut self) {
        self.events.pause();
        self.islands.events.pause();
        self.joints.break_events.clear();
        self.profile = StepProfile::default();
    }

    /// The phases of a step, in order. It runs inside the world's thread pool, so every
    /// parallel phase — here and in the solver — uses exactly the world's `worker_count`
    /// threads (`rayon::current_num_threads()`), and a single worker means a serial step.
    fn run_step(&mut self, dt: f32, substeps: u32) -> Result<(), PrismError> {
        zone!("step");
        let start = Instant::now();
        self.events.begin_step();

        let ((), pairs) = timed(|| self.update_pairs());
        let (changed, collide) = timed(|| self.collide());
        let ((), update_contacts) = timed(|| self.update_contact_states(changed));
        let (diverged, solve) = timed(|| self.solve(dt, substeps));
        self.break_overloaded_joints();
        let ((), finalize) = timed(|| self.finalize_bodies());
        let ((), sleep) = timed(|| self.update_sleep(dt));

        self.profile = StepProfile {
            pairs,
            collide,
            update_contacts,
            solve,
            solver: self.profile.solver,
            solver_gather: self.profile.solver_gather,
            solver_store: self.profile.solver_store,
            solver_joints: self.profile.solver_joints,
            finalize,
            sleep,
            total: elapsed_ms(start),
        };
        #[cfg(feature = "validate")]
        self.validate()?;
        if diverged.is_empty() {
            Ok(())
        } else {
            Err(PrismError::Diverged { bodies: diverged })
        }
    }

    /// The settings the world was created with (gravity as last set).
    pub fn def(&self) -> &WorldDef {
        &self.def
    }

    pub fn gravity(&self) -> Vec2 {
        self.def.gravity
    }

    pub fn set_gravity(&mut self, gravity: Vec2) -> Result<(), PrismError> {
        self.def.gravity = finite_vec("gravity", gravity)?;
        Ok(())
    }

    /// The begin/end touch events of the last step.
    pub fn contact_events(&self) -> &ContactEvents {
        &self.events.current
    }

    /// Timings of the last step.
    pub fn profile(&self) -> &StepProfile {
        &self.profile
    }

    /// Current sizes of the world's structures.
    pub fn counters(&self) -> Counters {
        Counters {
            bodies: self.bodies.len(),
            awake_bodies: self.solver_sets[AWAKE_SET as usize].len(),
            shapes: self.shapes.len(),
            islands: self.island_count(),
            sleeping_sets: self.sleeping_set_count(),
            contacts: self.contact_count(),
            touching_contacts: self.touching_contact_count(),
            static_tree_height: self.broadphase.static_tree.height(),
            moving_tree_height: self.broadphase.moving_tree.height(),
            colors: self.graph.colors_in_use(),
            color_contacts: self.graph.occupancy(),
            overflow_contacts: self.graph.overflow_count(),
        }
    }
}

/// The world's pool of `worker_count` threads.
fn build_thread_pool(worker_count: u32) -> Result<Arc<rayon::ThreadPool>, PrismError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(worker_count as usize)
        .thread_name(|index| format!("prism-worker-{index}"))
        .build()
        .map(Arc::new)
        .map_err(|error| PrismError::ThreadPool {
            message: error.to_string(),
        })
}
