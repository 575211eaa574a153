//! Step timings and world counters.
//!
//! [`StepProfile`] is measured on every step with `std::time::Instant` (a few clock reads per
//! step, negligible next to any phase): wall-clock milliseconds for each phase of
//! [`crate::World::step`] plus the solver's own per-stage breakdown. [`Counters`] is computed on
//! request from the world's arrays. Both report only things that exist in the world.
//!
//! The phases cover the whole call: everything `World::step` does runs inside one of them, so
//! the top-level fields (all but `solver`, `continuous` and `particle_figures`, which break
//! down `solve`, `finalize` and `particles`) add up to `total` but for the clock reads between
//! them. The step runs on the calling thread with any number of workers (the helpers only
//! take pieces of its parallel passes), so a benchmark timing the call from outside sees
//! `total`, and nothing it measures is missing from the breakdown.
//!
//! [`timed`] is never inlined, so each phase stays a function of its own in an
//! instruction-level profile (callgrind and the like) of an optimised build, and the phases'
//! inclusive costs can be set against the step's.
//!
//! The colour counters describe the constraint graph as the next solve will see it: how many
//! colours hold contacts, how many contacts each holds, and how many found no colour (the
//! overflow set, solved by the scalar path). A scene whose contacts pile into the overflow set
//! — one body touching more than two dozen others — loses the wide path for those contacts;
//! these counters are how to notice.
//!
//! ## Tracy
//!
//! With the `profile` feature (which turns on solver-simd's too) a step shows in the Tracy
//! profiler under the names prism-bench's `--stages` prints, so a capture and a benchmark
//! table read alike:
//!
//! ```text
//!   zone                          thread            what
//!   step                          caller's thread   the whole step (`total`)
//!   pairs, collide, update_contacts, solve, break_joints, finalize, sleep, sensors,
//!   particles, release_spare
//!                                 caller's thread   the phase of that name
//!   continuous                    every worker      a finalize chunk's fast-body sweeps
//!   continuous_bullets            caller's thread   the bullets' pass (part of `continuous`)
//!   events_begin, events_hits, events_asleep
//!                                 caller's thread   the three parts of `events` (move events
//!                                                   are recorded in the finalize chunks)
//!   <phase> chunk                 every worker      one chunk of a parallel phase
//!   prepare … store_impulses, <stage> block, begin_step, finalize_poses
//!                                 (see solver-simd's `profile` module)
//! ```
//!
//! The workers are the caller and the helper threads `prism-worker-1` … (the `workers`
//! crate); a chunk or block runs on whichever of them claimed it.
//!
//! No two zones share a name. Every step ends with a frame mark, so the profiler counts one
//! frame per step, and with plots of the step's counters: `awake_bodies`, `contacts` (pairs
//! whose fat boxes overlap), `solved_contacts` (touching contacts the solver saw),
//! `overflow_contacts` and `colors` (graph colours in use). Zones, marks and plots are made
//! only while a Tracy client runs. Without the feature the `zone!` macro expands to nothing
//! and [`World::end_profiler_frame`] is empty, so the instrumentation costs nothing. How to
//! capture a run (with the profiler's window or headless) is in the README.

/// Opens a Tracy zone named `$name` that lasts until the end of the enclosing block (feature
/// `profile`); expands to nothing without the feature.
#[cfg(feature = "profile")]
macro_rules! zone {
    ($name:literal) => {
        let _zone = tracy_client::Client::running()
            .map(|client| client.span(tracy_client::span_location!($name), 0));
    };
}

#[cfg(not(feature = "profile"))]
macro_rules! zone {
    ($name:literal) => {};
}

pub(crate) use zone;

use crate::world::World;
use graph_coloring::GRAPH_COLOR_COUNT;
use solver_simd::SolverProfile;
use std::time::Instant;

impl World {
    /// Ends the step's Tracy frame: plots the step's counters and marks the frame (feature
    /// `profile`, while a Tracy client runs; nothing otherwise).
    #[inline]
    pub(crate) fn end_profiler_frame(&self) {
        #[cfg(feature = "profile")]
        if let Some(client) = tracy_client::Client::running() {
            use tracy_client::plot_name;
            let awake = &self.solver_sets[crate::solver_set::AWAKE_SET as usize];
            let solver = self.solver.counters();
            let solved = solver.colored_contacts + solver.overflow_contacts;
            client.plot(plot_name!("awake_bodies"), awake.bodies.len() as f64);
            client.plot(plot_name!("contacts"), self.contacts.len() as f64);
            client.plot(plot_name!("solved_contacts"), solved as f64);
            client.plot(
                plot_name!("overflow_contacts"),
                solver.overflow_contacts as f64,
            );
            client.plot(plot_name!("colors"), solver.colors as f64);
            client.frame_mark();
        }
    }
}

/// Wall-clock milliseconds spent in each phase of the last step.
#[derive(Clone, Copy, Debug, Default)]
pub struct StepProfile {
    /// Broadphase: querying the moved proxies for new pairs.
    pub pairs: f32,
    /// Creating the new pairs' contacts, then the narrowphase: a manifold for every contact,
    /// with the contact cache; and beside both the rebuild of the moving tree's part the last
    /// step's finalize loosened (with one worker, before them).
    pub collide: f32,
    /// Serial pass over the contacts the narrowphase changed: begin/end touching, events,
    /// destroyed pairs.
    pub update_contacts: f32,
    /// The solver over the graph's colours, and the divergence check.
    pub solve: f32,
    /// The solver's own stages (a breakdown of `solve`).
    pub solver: SolverProfile,
    /// Breaking the joints whose reaction exceeded their threshold, and their break events.
    pub break_joints: f32,
    /// Sleep timers, shape bounding boxes and broadphase proxies of the awake bodies (moved
    /// and refitted; the rebuild waits for the next step's `collide`), and continuous
    /// collision. Beside its serial part, in most steps, the islands' rest records and the
    /// split of one island, which are otherwise in `sleep`.
    pub finalize: f32,
    /// Continuous collision: the sweeps of the fast bodies and bullets and their boxes (a part
    /// of `finalize`). The fast bodies are swept inside the finalize chunks, so with several
    /// workers this is the chunks' sweep times summed over the workers, not a wall time.
    pub continuous: f32,
    /// Islands: disturbances by kinematic bodies, one island split (unless `finalize` made it),
    /// islands put to sleep.
    pub sleep: f32,
    /// Sensor overlaps and sensor events.
    pub sensors: f32,
    /// Events: clearing the last step's contact and sensor events (and delivering the end
    /// events left pending between steps), hit events, and marking the move events of bodies
    /// that fell asleep (the move events themselves are recorded in the finalize pass, part of
    /// `finalize`).
    pub events: f32,
    /// The particle systems' step: contacts with the shapes, forces, constraint solves,
    /// integration, and the reactions handed to the bodies.
    pub particles: f32,
    /// The particle systems' own figures, combined over the systems: phase times, CG solves,
    /// iterations and the largest residual, PGS sweeps, contacts, the largest constraint error.
    pub particle_figures: particles::ParticleProfile,
    /// Giving back the spare room of the stores that grew in a burst (`spare.rs`).
    pub release_spare: f32,
    /// The whole step as its caller waits for it: the phases above (the whole-world
    /// validation of the `validate` feature left out).
    pub total: f32,
}

/// Sizes of the world's structures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// All bodies, of every type.
    pub bodies: usize,
    /// Bodies in the awake set (dynamic bodies whose island is awake, and kinematic bodies).
    pub awake_bodies: usize,
    /// Islands of dynamic bodies, awake and asleep.
    pub islands: usize,
    /// Sleeping solver sets (one per sleeping island).
    pub sleeping_sets: usize,
    /// All shapes (a chain counts one shape per link).
    pub shapes: usize,
    /// Contacts between shapes whose fat boxes overlap (touching or not).
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
    pub color_contacts: [usize; GRAPH_COLOR_COUNT],
    /// Touching contacts that found no colour (solved one at a time by the scalar path).
    pub overflow_contacts: usize,
}

/// Runs `phase` and returns its result with the elapsed milliseconds. Never inlined (see the
/// module notes).
#[inline(never)]
pub(crate) fn timed<R>(phase: impl FnOnce() -> R) -> (R, f32) {
    let start = Instant::now();
    let result = phase();
    (result, elapsed_ms(start))
}

/// Milliseconds since `start`.
pub(crate) fn elapsed_ms(start: Instant) -> f32 {
    (start.elapsed().as_secs_f64() * 1000.0) as f32
}
