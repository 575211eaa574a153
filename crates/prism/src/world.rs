//! The world: where every body, shape, contact and joint lives, and the step that advances them.
//!
//! The world owns flat storage and nothing else (see the crate essay for the tiers):
//!
//! ```text
//!   bodies        Arena<Body>           cold records, stable slots, generational ids
//!   solver_sets   Vec<SolverSet>        bodies, contacts, joints: static, disabled (parked
//!                                       bodies and constraints), awake, one per sleeping island
//!   graph         ConstraintGraph       the awake touching contacts and the awake joints,
//!                                       stored by colour, solved in place
//!   shapes        Arena<ShapeRecord>    geometry, material, filter, proxy and fat box
//!   contacts      Arena<Contact>        cold records: shapes, list links, where the sim is
//!   joints        JointStore            cold records, breakable list, break events
//!   broadphase    BroadPhase            static, moving and sleeping trees, move buffer, pairs
//!   sensors       Sensors               sensor shapes, their visitors, sensor events
//! ```
//!
//! [`World::step`] is the pipeline, one method per phase, each timed into the [`StepProfile`].
//! Every per-body and per-contact pass runs across the world's workers in fixed chunks; the serial
//! work left is proportional to what changed (new pairs, contacts that began or stopped
//! touching, escaped proxies, islands) — listed in the crate essay. Every set of new things
//! (pairs, changed contacts, events) is sorted or produced in a fixed order, so the same calls
//! give the same world on every run and for any worker count.

use crate::body::Body;
use crate::broadphase::BroadPhase;
use crate::contact::Contact;
use crate::def::WorldDef;
use crate::error::{PrismError, finite_vec, non_negative};
use crate::events::{ContactEvents, EventBuffers};
use crate::finalize::ChunkReport;
use crate::graph::Graph;
use crate::hooks::Hooks;
use crate::island::Islands;
use crate::joint::JointStore;
use crate::move_events::BodyMoveEvent;
use crate::particle_world::ParticleSystems;
use crate::profile::{Counters, StepProfile, elapsed_ms, timed, zone};
use crate::sensor::Sensors;
use crate::shape::ShapeRecord;
use crate::sleep::IslandRestTable;
use crate::solver_set::{AWAKE_SET, FIRST_SLEEPING_SET, SolverSet};
use core_soa::{Arena, BodyId, ContactId, ShapeId, Vec2};
use solver_simd::{ContactSolver, SolverKind};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Instant;
use workers::Workers;

/// A physics world.
pub struct World {
    pub(crate) def: WorldDef,
    pub(crate) bodies: Arena<Body, BodyId>,
    /// Indexed by `island::SolverSetId` (see `solver_set.rs`).
    pub(crate) solver_sets: Vec<SolverSet>,
    /// The colours of the awake touching contacts and joints, holding their records.
    pub(crate) graph: Graph,
    pub(crate) shapes: Arena<ShapeRecord, ShapeId>,
    pub(crate) contacts: Arena<Contact, ContactId>,
    pub(crate) joints: JointStore,
    pub(crate) broadphase: BroadPhase,
    /// Islands, sleeping sets and body sleep events.
    pub(crate) islands: Islands,
    /// This step's least and most rested timer per island (filled by the finalize).
    pub(crate) island_rest: IslandRestTable,
    /// The arena indices of the kinematic bodies.
    pub(crate) kinematic_bodies: BTreeSet<u32>,
    pub(crate) events: EventBuffers,
    /// Sensor shapes, their visitors and the sensor events (`sensor.rs`).
    pub(crate) sensors: Sensors,
    /// The bodies the last step moved (`move_events.rs`).
    pub(crate) move_events: Vec<BodyMoveEvent>,
    /// The finalize pass's report per chunk of bodies, kept empty between steps for their
    /// room (`finalize.rs`).
    pub(crate) finalize_reports: Vec<ChunkReport>,
    /// The custom filter and the pre-solve hook (`hooks.rs`).
    pub(crate) hooks: Hooks,
    /// The bodies the last step reset because they diverged (`solve.rs`).
    pub(crate) diverged: Vec<BodyId>,
    pub(crate) profile: StepProfile,
    /// The contact solver (keeps its scratch arrays between steps).
    pub(crate) solver: ContactSolver,
    /// The `worker_count` workers the step runs on: the caller and `worker_count − 1` helper
    /// threads (the `workers` crate).
    pub(crate) workers: Arc<Workers>,
    /// Whether the current step's passes run across the workers: several workers and a step
    /// that is not light (`light_step.rs`). Set at the start of each step.
    pub(crate) parallel_step: bool,
    /// Whether light steps run on the caller (`World::set_light_steps_on_caller`).
    pub(crate) light_steps_on_caller: bool,
    /// Particle systems and cloth (`particle_world.rs`).
    pub(crate) particles: ParticleSystems,
    /// The next id stamped into a chain's segments.
    pub(crate) next_chain_id: u32,
    /// A broken invariant the step found (feature `validate`).
    #[cfg(feature = "validate")]
    pub(crate) corruption: Option<String>,
}

impl World {
    /// Creates an empty world.
    pub fn new(def: WorldDef) -> Result<World, PrismError> {
        def.validate()?;
        let workers = start_workers(def.worker_count)?;
        let mut graph = Graph::new();
        // The sequential-impulses solver sweeps its contacts serially (see `graph.rs`).
        let serial = def.force_overflow || def.solver_kind == SolverKind::SequentialImpulses;
        graph.set_force_overflow(serial);
        Ok(World {
            def,
            bodies: Arena::new(),
            solver_sets: (0..FIRST_SLEEPING_SET)
                .map(|_| SolverSet::default())
                .collect(),
            graph,
            shapes: Arena::new(),
            contacts: Arena::new(),
            joints: JointStore::default(),
            broadphase: BroadPhase::new(),
            islands: Islands::default(),
            island_rest: IslandRestTable::default(),
            kinematic_bodies: BTreeSet::new(),
            events: EventBuffers::default(),
            sensors: Sensors::default(),
            move_events: Vec::new(),
            finalize_reports: Vec::new(),
            hooks: Hooks::default(),
            diverged: Vec::new(),
            profile: StepProfile::default(),
            solver: ContactSolver::new(),
            workers,
            particles: ParticleSystems::default(),
            parallel_step: false,
            light_steps_on_caller: true,
            next_chain_id: 0,
            #[cfg(feature = "validate")]
            corruption: None,
        })
    }

    /// Advances the world by `dt` seconds with `substeps` solver substeps (the sequential
    /// impulses solver uses `substeps` as its velocity iteration count).
    ///
    /// `dt == 0` pauses: nothing moves and nothing is computed, and the event lists (contact,
    /// sensor, body, body move, joint) and the diverged list read after the call are empty, so
    /// no stale events are read. (Box2D also clears its events and skips the solve for a zero
    /// step, but still updates the contacts and reports their touch events; Prism leaves that
    /// to the next step that runs.) Events
    /// that calls made between steps produced (end touches of destroyed shapes, wakes) are
    /// kept for that step.
    ///
    /// Errors: `dt` negative or not finite, or `substeps == 0` (nothing happens). Bodies that
    /// blew up during the step are reset and listed by [`World::diverged_bodies`]; the step
    /// still succeeds, as everything else stepped normally.
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
        self.parallel_step =
            self.def.worker_count > 1 && !(self.light_steps_on_caller && self.is_light_step());
        if !self.parallel_step {
            // One worker, or a light step (`light_step.rs`): every phase runs serially.
            return self.run_step(dt, substeps);
        }
        // The step runs here, on the caller, as worker 0; its parallel passes share their
        // pieces with the helper threads (the `workers` crate).
        let workers = Arc::clone(&self.workers);
        workers.install(|| self.run_step(dt, substeps))
    }

    /// A step with `dt == 0`: clears the last step's events and timings, changes nothing else.
    fn pause(&mut self) {
        self.events.pause();
        self.islands.events.pause();
        self.sensors.pause();
        self.move_events.clear();
        self.diverged.clear();
        self.particles.pause();
        self.joints.break_events.clear();
        self.profile = StepProfile::default();
    }

    /// The phases of a step, in order, on the calling thread. With `parallel_step` it runs
    /// inside the world's workers, so every parallel phase — here and in the solver — shares
    /// its pieces with exactly the world's `worker_count − 1` helpers; without, every phase
    /// runs serially.
    fn run_step(&mut self, dt: f32, substeps: u32) -> Result<(), PrismError> {
        zone!("step");
        let start = Instant::now();
        let ((), begin) = timed(|| self.begin_step_events());

        let (new_pairs, pairs) = timed(|| self.find_new_pairs());
        let (changed, collide) = timed(|| self.collide_beside_tree_rebuild(new_pairs));
        let (tail, update_contacts) = timed(|| self.update_contact_states(&changed));
        drop(changed);
        let (diverged, solve) = timed(|| self.solve(dt, substeps, &tail));
        self.diverged = diverged;
        let ((), hits) = timed(|| self.report_hits());
        let ((), break_joints) = timed(|| self.break_overloaded_joints());
        let ((moving_kinematics, continuous, settled), finalize) =
            timed(|| self.finalize_bodies(dt));
        let ((), sleep) = timed(|| self.update_sleep(&moving_kinematics, settled));
        drop(moving_kinematics);
        let ((), asleep) = timed(|| self.mark_fallen_asleep());
        let ((), sensors) = timed(|| self.overlap_sensors());
        let (particle_figures, particles) = timed(|| self.step_particles(dt));
        let ((), release_spare) = timed(|| self.release_spare_capacity());

        self.profile = StepProfile {
            pairs,
            collide,
            update_contacts,
            solve,
            solver: self.profile.solver,
            break_joints,
            finalize,
            continuous,
            sleep,
            sensors,
            events: begin + hits + asleep,
            particles,
            particle_figures,
            release_spare,
            total: elapsed_ms(start),
        };
        self.end_profiler_frame();
        #[cfg(feature = "validate")]
        self.validate()?;
        Ok(())
    }

    /// Starts the step's event lists: clears the last step's contact and sensor events and
    /// delivers the end events that calls between steps left pending (a part of `events`).
    fn begin_step_events(&mut self) {
        zone!("events_begin");
        self.events.begin_step();
        self.sensors.begin_step();
    }

    /// The settings the world was created with (gravity as last set).
    pub fn def(&self) -> &WorldDef {
        &self.def
    }

    /// The world's gravity (m/s²).
    pub fn gravity(&self) -> Vec2 {
        self.def.gravity
    }

    /// Sets the world's gravity (m/s², finite); bodies scale it by their `gravity_scale`.
    pub fn set_gravity(&mut self, gravity: Vec2) -> Result<(), PrismError> {
        self.def.gravity = finite_vec("gravity", gravity)?;
        Ok(())
    }

    /// Sets the approach speed (m/s, finite, ≥ 0) above which contacts report hits.
    pub fn set_hit_event_threshold(&mut self, threshold: f32) -> Result<(), PrismError> {
        self.def.hit_event_threshold = non_negative("hit_event_threshold", threshold)?;
        Ok(())
    }

    /// The begin/end touch and hit events of the last step.
    pub fn contact_events(&self) -> &ContactEvents {
        &self.events.current
    }

    /// Timings of the last step.
    pub fn profile(&self) -> &StepProfile {
        &self.profile
    }

    /// Current sizes of the world's structures.
    pub fn counters(&self) -> Counters {
        let touching = self
            .contacts
            .iter()
            .filter(|(id, _)| self.contact_sim(id.index()).is_some_and(|sim| sim.touching))
            .count();
        Counters {
            bodies: self.bodies.len(),
            awake_bodies: self.solver_sets[AWAKE_SET as usize].bodies.len(),
            shapes: self.shapes.len(),
            islands: self.island_count(),
            sleeping_sets: self.sleeping_set_count(),
            contacts: self.contacts.len(),
            touching_contacts: touching,
            static_tree_height: self.broadphase.static_tree.height(),
            moving_tree_height: self.broadphase.moving_tree.height(),
            colors: self.graph.colors_in_use(),
            color_contacts: self.color_occupancy(),
            overflow_contacts: self.graph.overflow_contacts().len(),
        }
    }
}

/// The world's `worker_count` workers: the caller and `worker_count − 1` helper threads.
pub(crate) fn start_workers(worker_count: u32) -> Result<Arc<Workers>, PrismError> {
    Workers::new(worker_count as usize)
        .map(Arc::new)
        .map_err(|error| PrismError::ThreadPool {
            message: error.to_string(),
        })
}

#[cfg(test)]
impl World {
    /// A world with no gravity and no sleep on `workers` workers: the fixture of the
    /// broadphase and finalize tests, whose bodies move only as the tests move them.
    pub(crate) fn weightless(workers: u32) -> World {
        World::new(WorldDef {
            gravity: core_soa::Vec2::ZERO,
            enable_sleep: false,
            worker_count: workers,
            ..WorldDef::default()
        })
        .expect("a valid weightless world")
    }
}
