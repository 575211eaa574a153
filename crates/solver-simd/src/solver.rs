//! The step runner: a reusable solver object that owns the step's scratch arrays.
//!
//! [`ContactSolver`] keeps everything a step needs between steps — the overflow constraints,
//! the wide bundles, the stage list, the executor's counters — in `Vec`s that are cleared and
//! refilled, so a World that keeps one solver allocates nothing in steady state. Once a step
//! uses less than a quarter of an array's room, the room is cut to twice what it used
//! (`core_soa::spare`), so a burst of contacts does not keep its scratch for ever.
//!
//! One step ([`ContactSolver::step`]):
//!
//! ```text
//!   check          no dynamic body twice in a colour's contacts and joints together
//!   plan           bundles per colour (LANES records each); the kind's stages expanded into
//!                  entries per colour (its joints, then its bundles) and overflow, with block
//!                  sizes from the counts; runs of one-block entries of a stage fused
//!   execute        the entries in order, blocks spread over the workers, each timed; the
//!                  first (begin_step) sets Δp = 0, Δq = I, center0/rotation0 = current pose
//!                  and the bodies' velocity terms
//!   finalize       pose from center0 + Δp, Δq·rotation0; forces cleared; blow-ups reported
//! ```
//!
//! The constraints are the caller's persistent records, grouped by colour
//! ([`crate::constraints`]): preparation reads them and the last stage writes the new impulses
//! back into them. A step with a non-finite or non-positive `dt` starts the step (so `center0`
//! and the deltas describe "no motion") and does nothing else: no velocity, pose, force or
//! impulse changes.
//!
//! **Threads.** [`ContactSolver::set_worker_count`] chooses how many threads share a step (the
//! caller and tasks offered to the helpers of the caller's `workers::Workers`; default 1). Results
//! are bitwise identical for any count: blocks are cut from the scene's counts alone, the blocks of
//! a colour are independent, and the overflow set is solved serially.

// Unsafe code is confined here: `step_unchecked` lets a caller vouch for the colour invariant;
// every block has its `// SAFETY:` argument.
#![allow(unsafe_code)]

use crate::AwakeBodies;
use crate::constraints::{ColorChecker, ColorError, ContactRecord, StepConstraints};
use crate::contact_constraint::ContactConstraint;
use crate::contact_order::ContactOrders;
use crate::contact_wide::ContactBundle;
use crate::executor::{StageObserver, StagedExecutor};
use crate::integrate::{VelocityTerms, begin_step, finalize_bodies_on};
use crate::joint_passes::{AngleSlot, HingeSlot};
use crate::params::{SolverKind, SolverParams};
use crate::profile::{SolverProfile, StageZone, block_zone, ms_since, zone};
use crate::sequential_impulses::sequential_impulse_stages;
use crate::stages::{
    BundlePiece, Stage, StageEntry, StepContext, StepShape, cut_bundle_pieces, expand_stages,
    fuse_single_blocks, soft_step_stages,
};
use crate::step::{BundleSource, StepArrays, run_scheduled};
use crate::wide::LANES;
use core::ops::Range;
use core_soa::{SharedSlice, release_spare};
use std::time::Instant;

/// What the last step's solver knew about its work, for the World's counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolverCounters {
    /// Colours holding at least one constraint.
    pub colors: usize,
    /// Wide bundles over all colours.
    pub bundles: usize,
    /// Contacts in colours (solved by the wide path).
    pub colored_contacts: usize,
    /// Contacts solved by the scalar path.
    pub overflow_contacts: usize,
    /// Entries of the stage list.
    pub stages: usize,
    /// Entries the executor runs, each a barrier between threads: the stage list with runs of
    /// one-block entries of the same stage fused.
    pub barriers: usize,
    /// Threads that shared the step.
    pub workers: usize,
}

/// A solver whose scratch arrays are reused across steps.
#[derive(Debug, Default)]
pub struct ContactSolver {
    overflow_constraints: Vec<ContactConstraint>,
    bundles: Vec<ContactBundle>,
    bundle_sources: Vec<BundleSource>,
    /// Each colour's record positions in bundle order (`contact_order.rs`).
    orders: ContactOrders,
    color_bundles: Vec<Range<u32>>,
    /// The pieces the prepare and store entries hand out (`stages::cut_bundle_pieces`).
    bundle_pieces: Vec<BundlePiece>,
    /// The number of joints of each colour.
    color_joints: Vec<u32>,
    /// Each colour's full groups of joints (`joint_passes.rs`), colour after colour.
    hinges: Vec<HingeSlot>,
    /// Beside each hinge group, its angle settings.
    hinge_angles: Vec<AngleSlot>,
    /// Each colour's first slot in `hinges`.
    color_hinges: Vec<u32>,
    stages: Vec<Stage>,
    entries: Vec<StageEntry>,
    /// `entries` as the executor runs them, runs of one-block entries fused
    /// (`stages::fuse_single_blocks`).
    schedule: Vec<StageEntry>,
    executor: StagedExecutor,
    checker: ColorChecker,
    non_finite_bodies: Vec<u32>,
    /// The awake bodies' velocity terms of this step (`integrate.rs`).
    velocity_terms: Vec<VelocityTerms>,
    counters: SolverCounters,
    workers: usize,
}

impl Clone for ContactSolver {
    /// A solver with the same settings and fresh scratch arrays.
    fn clone(&self) -> ContactSolver {
        let mut solver = ContactSolver::new();
        solver.set_worker_count(self.workers);
        solver
    }
}

impl ContactSolver {
    /// A solver with empty scratch arrays and one worker.
    pub fn new() -> ContactSolver {
        ContactSolver::default()
    }

    /// Sets how many threads share a step: the caller plus `workers − 1` tasks offered to the
    /// helpers of the caller's `workers::Workers` (0 counts as 1). The result does not depend
    /// on it.
    pub fn set_worker_count(&mut self, workers: usize) {
        self.workers = workers.max(1);
    }

    /// Threads that share a step.
    pub fn worker_count(&self) -> usize {
        self.workers.max(1)
    }

    /// The prepared overflow constraints of the last step (parallel to its overflow records).
    pub fn constraints(&self) -> &[ContactConstraint] {
        &self.overflow_constraints
    }

    /// The wide bundles of the last step, colour after colour.
    pub fn bundles(&self) -> &[ContactBundle] {
        &self.bundles
    }

    /// The kind's stage list of the last step (before expansion per colour).
    pub fn stages(&self) -> &[Stage] {
        &self.stages
    }

    /// The expanded stage list of the last step.
    pub fn stage_entries(&self) -> &[StageEntry] {
        &self.entries
    }

    /// Counts of the last step's work.
    pub fn counters(&self) -> SolverCounters {
        self.counters
    }

    /// Awake-array indices of the bodies whose motion blew up (non-finite velocity or
    /// displacement) in the last step. They were left at their start pose with zero velocity.
    pub fn non_finite_bodies(&self) -> &[u32] {
        &self.non_finite_bodies
    }

    /// Runs one whole step over `constraints`: each colour's contacts by the wide kernels and
    /// its joints by the joint kernels, in parallel blocks, the overflow set by the scalar path,
    /// serially. Fails, before anything moves, if a colour holds a dynamic body twice among its
    /// contacts and joints.
    pub fn step<C: ContactRecord>(
        &mut self,
        params: &SolverParams,
        bodies: AwakeBodies<'_>,
        constraints: StepConstraints<'_, C>,
        profile: &mut SolverProfile,
    ) -> Result<(), ColorError> {
        let step_start = Instant::now();
        let body_count = bodies.states.len().min(bodies.sims.len());
        self.checker
            .check(&constraints, &bodies.states[..body_count])?;
        let context = params.has_valid_dt().then(|| StepContext::new(params));
        self.run_step(step_start, context.as_ref(), bodies, constraints, profile);
        Ok(())
    }

    /// [`ContactSolver::step`] with adjusted step constants `context` (normally
    /// `StepContext::new(params)`, which this lets a caller adjust, e.g. to compare softness
    /// choices); `None` starts the step and moves nothing, as for an invalid `dt`.
    pub fn step_with_context<C: ContactRecord>(
        &mut self,
        context: Option<&StepContext>,
        bodies: AwakeBodies<'_>,
        constraints: StepConstraints<'_, C>,
        profile: &mut SolverProfile,
    ) -> Result<(), ColorError> {
        let step_start = Instant::now();
        let body_count = bodies.states.len().min(bodies.sims.len());
        self.checker
            .check(&constraints, &bodies.states[..body_count])?;
        self.run_step(step_start, context, bodies, constraints, profile);
        Ok(())
    }

    /// [`ContactSolver::step`] without the walk over every constraint that proves no colour
    /// names a dynamic body twice, for a caller whose colouring guarantees it by construction
    /// (the World's constraint graph keeps a bitset of each colour's dynamic bodies and admits
    /// a constraint only where its dynamic bodies are free); the walk would be a serial pass
    /// over every contact and joint each step.
    ///
    /// # Safety
    ///
    /// No dynamic body of `bodies` may appear twice among one colour's contacts and joints
    /// taken together — what `ColorChecker::check` verifies. One colour's constraints write
    /// their bodies' states from several lanes and threads without synchronisation; a body
    /// named twice in a colour would be a data race.
    pub unsafe fn step_unchecked<C: ContactRecord>(
        &mut self,
        params: &SolverParams,
        bodies: AwakeBodies<'_>,
        constraints: StepConstraints<'_, C>,
        profile: &mut SolverProfile,
    ) {
        let step_start = Instant::now();
        let context = params.has_valid_dt().then(|| StepContext::new(params));
        self.run_step(step_start, context.as_ref(), bodies, constraints, profile);
    }

    /// The step, with its colours already checked; `step_start` is when the call began.
    fn run_step<C: ContactRecord>(
        &mut self,
        step_start: Instant,
        context: Option<&StepContext>,
        bodies: AwakeBodies<'_>,
        constraints: StepConstraints<'_, C>,
        profile: &mut SolverProfile,
    ) {
        *profile = SolverProfile::default();
        self.non_finite_bodies.clear();
        let AwakeBodies { states, sims } = bodies;
        let body_count = states.len().min(sims.len());
        debug_assert_eq!(states.len(), sims.len(), "states and sims must be parallel");
        let (states, sims) = (&mut states[..body_count], &mut sims[..body_count]);
        let Some(context) = context else {
            zone!("begin_step");
            begin_step(states, sims, None);
            profile.total = ms_since(step_start);
            return;
        };
        // Written by the begin pass, the first stage, on the workers that later integrate the
        // same bodies.
        set_len_for_overwrite(&mut self.velocity_terms, body_count);
        self.plan(context, &constraints, body_count);
        {
            let StepConstraints { colors, overflow } = constraints;
            let groups = colors.into_iter().chain([overflow]);
            let (mut contacts, mut joints) = (Vec::new(), Vec::new());
            for group in groups {
                contacts.push(SharedSlice::new(group.contacts));
                joints.push(SharedSlice::new(group.joints));
            }
            let arrays = StepArrays {
                states: SharedSlice::new(states),
                sims: SharedSlice::new(sims),
                velocity_terms: SharedSlice::new(&mut self.velocity_terms),
                contacts,
                joints,
                hinges: SharedSlice::new(&mut self.hinges),
                hinge_angles: SharedSlice::new(&mut self.hinge_angles),
                color_hinges: &self.color_hinges,
                bundles: SharedSlice::new(&mut self.bundles),
                overflow: SharedSlice::new(&mut self.overflow_constraints),
                bundle_sources: &self.bundle_sources,
                bundle_pieces: &self.bundle_pieces,
                contact_orders: shared_each(&mut self.orders.per_color),
                colors_to_order: &self.orders.to_order,
                order_buckets: shared_each(&mut self.orders.buckets),
            };
            let (entries, schedule) = (&self.entries, &self.schedule);
            let mut observer = ProfileObserver::new(schedule, profile);
            self.executor.run(
                self.workers.max(1),
                schedule.iter().map(StageEntry::block_count),
                &|entry, block| {
                    let _zone = block_zone(schedule[entry].stage);
                    run_scheduled(&schedule[entry], block, entries, context, &arrays)
                },
                &mut observer,
            );
        }
        #[cfg(feature = "validate")]
        for (order, sources) in self.orders.per_color.iter().zip(&self.color_bundles) {
            let sources = &self.bundle_sources[sources.start as usize..sources.end as usize];
            let count = sources.iter().map(|s| s.lane_count as usize).sum();
            crate::validate::check_contact_order(order, count);
        }
        #[cfg(feature = "validate")]
        for range in &self.color_bundles {
            let colour = &self.bundles[range.start as usize..range.end as usize];
            crate::validate::check_color_bundles(colour, states);
        }
        let finalize_start = Instant::now();
        zone!("finalize_poses");
        finalize_bodies_on(self.workers, states, sims, &mut self.non_finite_bodies);
        self.release_spare();
        profile.finalize = ms_since(finalize_start);
        profile.total = ms_since(step_start);
    }

    /// Orders each colour's contacts and cuts them into bundles, sizes the scratch arrays, and
    /// builds the stage list.
    fn plan<C: ContactRecord>(
        &mut self,
        context: &StepContext,
        constraints: &StepConstraints<'_, C>,
        body_count: usize,
    ) {
        self.color_bundles.clear();
        self.bundle_sources.clear();
        self.color_joints.clear();
        self.color_hinges.clear();
        let mut hinge_count = 0;
        for (group, color) in constraints.colors.iter().enumerate() {
            let first_bundle = self.bundle_sources.len() as u32;
            let count = color.contacts.len();
            for first in (0..count).step_by(LANES) {
                self.bundle_sources.push(BundleSource {
                    group: group as u32,
                    first: first as u32,
                    lane_count: (count - first).min(LANES) as u32,
                });
            }
            self.color_bundles
                .push(first_bundle..self.bundle_sources.len() as u32);
            self.color_joints.push(color.joints.len() as u32);
            self.color_hinges.push(hinge_count as u32);
            hinge_count += color.joints.len() / LANES;
        }
        set_len_for_overwrite(&mut self.hinges, hinge_count);
        set_len_for_overwrite(&mut self.hinge_angles, hinge_count);
        let counts = constraints.colors.iter().map(|c| c.contacts.len());
        self.orders.plan(counts, self.workers > 1);
        let ordered_colors = self.orders.to_order.len() as u32;
        let bundle_count = self.bundle_sources.len();
        let by_place = self.workers > 1;
        let pieces = &mut self.bundle_pieces;
        cut_bundle_pieces(&self.color_bundles, bundle_count as u32, by_place, pieces);
        let overflow_count = constraints.overflow.contacts.len();
        set_len_for_overwrite(&mut self.bundles, bundle_count);
        set_len_for_overwrite(&mut self.overflow_constraints, overflow_count);
        match context.kind {
            SolverKind::SoftStep => soft_step_stages(context.substeps, &mut self.stages),
            SolverKind::SequentialImpulses => {
                sequential_impulse_stages(context.substeps, &mut self.stages)
            }
        }
        let shape = StepShape {
            body_count: body_count as u32,
            color_bundles: &self.color_bundles,
            bundle_pieces: self.bundle_pieces.len() as u32,
            ordered_colors,
            overflow_count: overflow_count as u32,
            color_joints: &self.color_joints,
            overflow_joints: constraints.overflow.joints.len() as u32,
        };
        expand_stages(&self.stages, &shape, &mut self.entries);
        fuse_single_blocks(&self.entries, &mut self.schedule);
        let colored: usize = constraints.colors.iter().map(|c| c.contacts.len()).sum();
        self.counters = SolverCounters {
            colors: constraints.colors_in_use(),
            bundles: bundle_count,
            colored_contacts: colored,
            overflow_contacts: overflow_count,
            stages: self.entries.len(),
            barriers: self.schedule.len(),
            workers: self.worker_count(),
        };
    }
}

impl ContactSolver {
    /// Gives back the scratch arrays' room beyond what recent steps used, once it is mostly
    /// unused (`core_soa::spare`): after a burst of contacts the bundles would otherwise keep
    /// the burst's size for ever. Amortised, and invisible to results (only capacity changes).
    fn release_spare(&mut self) {
        release_spare(&mut self.bundles);
        release_spare(&mut self.bundle_sources);
        release_spare(&mut self.hinges);
        release_spare(&mut self.hinge_angles);
        self.orders.per_color.iter_mut().for_each(release_spare);
        release_spare(&mut self.overflow_constraints);
        release_spare(&mut self.velocity_terms);
    }
}

/// A shared view of each of `lists`.
fn shared_each<T>(lists: &mut [Vec<T>]) -> Vec<SharedSlice<'_, T>> {
    lists
        .iter_mut()
        .map(|list| SharedSlice::new(list))
        .collect()
}

/// Gives `items` length `len` without writing elements it already has (every element is
/// overwritten by the prepare stage before it is read).
fn set_len_for_overwrite<T: Clone + Default>(items: &mut Vec<T>, len: usize) {
    if items.len() >= len {
        items.truncate(len);
    } else {
        items.resize(len, T::default());
    }
}

/// Times each entry into its stage's field of the profile, and opens a profiler zone for it.
struct ProfileObserver<'a> {
    entries: &'a [StageEntry],
    profile: &'a mut SolverProfile,
    /// When the previous entry ended (or the walk began).
    last: Instant,
    zone: StageZone,
}

impl<'a> ProfileObserver<'a> {
    fn new(entries: &'a [StageEntry], profile: &'a mut SolverProfile) -> ProfileObserver<'a> {
        ProfileObserver {
            entries,
            profile,
            last: Instant::now(),
            zone: StageZone::default(),
        }
    }
}

impl StageObserver for ProfileObserver<'_> {
    fn stage_started(&mut self, entry: usize) {
        self.zone.enter(self.entries[entry].stage);
    }

    fn stage_finished(&mut self, entry: usize) {
        self.zone.exit();
        let now = Instant::now();
        self.profile
            .add_stage(self.entries[entry].stage, now - self.last);
        self.last = now;
    }
}

#[cfg(test)]
mod tests;
