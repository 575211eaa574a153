//! The step runner: a reusable solver object that owns the step's scratch arrays.
//!
//! [`ContactSolver`] keeps everything a step needs between steps — the overflow constraints,
//! the wide bundles, the stage list, the executor's counters — in `Vec`s that are cleared and
//! refilled, so a World that keeps one solver allocates nothing in steady state.
//! [`crate::solve`] is the same step with a solver made for the occasion.
//!
//! One step:
//!
//! ```text
//!   begin_step     Δp = 0, Δq = I, center0/rotation0 = current pose
//!   check          the colour layouts partition the contacts and the joints; no dynamic body
//!                  twice in a colour's contacts and joints together
//!   plan           bundles per colour (LANES contacts each); the kind's stages expanded into
//!                  entries per colour (its joints, then its bundles) and overflow, with block
//!                  sizes from the counts
//!   execute        the entries in order, blocks spread over the workers, each timed
//!   finalize       pose from center0 + Δp, Δq·rotation0; forces cleared; blow-ups reported
//! ```
//!
//! A step with a non-finite or non-positive `dt` starts the step (so `center0` and the deltas
//! describe "no motion") and does nothing else: no velocity, pose, force or impulse changes.
//!
//! **Threads.** [`ContactSolver::set_worker_count`] chooses how many threads share a step (the
//! caller's plus rayon tasks; default 1). Results are bitwise identical for any count: blocks
//! are cut from the scene's counts alone, the blocks of a colour are independent, and the
//! overflow set is solved serially.

use crate::color_layout::{ColorLayout, ColorLayoutError, LayoutChecker, check_layout_ranges};
use crate::contact_constraint::ContactConstraint;
use crate::contact_wide::ContactBundle;
use crate::executor::{StageObserver, StagedExecutor};
use crate::integrate::{begin_step_on, finalize_bodies_on};
use crate::joint_passes::SolverJoints;
use crate::params::{SolverKind, SolverParams};
use crate::profile::{SolverProfile, StageZone, ms_since};
use crate::sequential_impulses::sequential_impulse_stages;
use crate::shared::SharedSlice;
use crate::stages::{Stage, StageEntry, StepContext, StepShape, expand_stages, soft_step_stages};
use crate::step::{BundleSource, StepArrays, run_block};
use crate::wide::LANES;
use crate::{AwakeBodies, ContactImpulses, ImpulseOutput, SolverContact};
use core::ops::Range;
use std::time::Instant;

/// What the last step's solver knew about its work, for the World's counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolverCounters {
    /// Colours holding at least one contact.
    pub colors: usize,
    /// Wide bundles over all colours.
    pub bundles: usize,
    /// Contacts in colours (solved by the wide path).
    pub colored_contacts: usize,
    /// Contacts solved by the scalar path.
    pub overflow_contacts: usize,
    /// Entries of the stage list (each a barrier between threads).
    pub stages: usize,
    /// Threads that shared the step.
    pub workers: usize,
}

/// A solver whose scratch arrays are reused across steps.
#[derive(Debug, Default)]
pub struct ContactSolver {
    overflow_constraints: Vec<ContactConstraint>,
    bundles: Vec<ContactBundle>,
    bundle_sources: Vec<BundleSource>,
    color_bundles: Vec<Range<u32>>,
    /// The joints of each colour (indices into the step's joint list).
    joint_colors: Vec<Range<u32>>,
    stages: Vec<Stage>,
    entries: Vec<StageEntry>,
    executor: StagedExecutor,
    checker: LayoutChecker,
    non_finite_bodies: Vec<u32>,
    counters: SolverCounters,
    workers: usize,
    impulse_output: ImpulseOutput,
    /// The last step's results with [`ImpulseOutput::Dense`], by contact.
    impulses: Vec<ContactImpulses>,
}

impl Clone for ContactSolver {
    /// A solver with the same settings and fresh scratch arrays.
    fn clone(&self) -> ContactSolver {
        let mut solver = ContactSolver::new();
        solver.set_worker_count(self.workers);
        solver.set_impulse_output(self.impulse_output);
        solver
    }
}

impl ContactSolver {
    pub fn new() -> ContactSolver {
        ContactSolver::default()
    }

    /// Sets how many threads share a step: the caller plus `workers − 1` rayon tasks in the
    /// current rayon pool (0 counts as 1). The result does not depend on it.
    pub fn set_worker_count(&mut self, workers: usize) {
        self.workers = workers.max(1);
    }

    /// Where the next steps write each contact's impulses (the contacts' manifolds by
    /// default; see [`ImpulseOutput`]).
    pub fn set_impulse_output(&mut self, output: ImpulseOutput) {
        self.impulse_output = output;
    }

    /// The last step's results by contact (index as in the step's contact list) when it ran
    /// with [`ImpulseOutput::Dense`]; empty otherwise.
    pub fn impulses(&self) -> &[ContactImpulses] {
        &self.impulses
    }

    /// Threads that share a step.
    pub fn worker_count(&self) -> usize {
        self.workers.max(1)
    }

    /// The prepared overflow constraints of the last step (parallel to the overflow range of
    /// its contacts; with [`ContactSolver::solve`], to all of them).
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

    /// Runs one whole step with every contact in the overflow set; see [`crate::solve`].
    pub fn solve(
        &mut self,
        params: &SolverParams,
        bodies: AwakeBodies<'_>,
        contacts: &mut [SolverContact],
        profile: &mut SolverProfile,
    ) {
        let context = params.has_valid_dt().then(|| StepContext::new(params));
        self.solve_with_context(context.as_ref(), bodies, contacts, profile);
    }

    /// Runs one whole step with the step constants `context` (normally
    /// `StepContext::new(params)`, which this lets a caller adjust, e.g. to compare softness
    /// choices), every contact in the overflow set. `None` starts the step and moves nothing,
    /// as for an invalid `dt`.
    pub fn solve_with_context(
        &mut self,
        context: Option<&StepContext>,
        bodies: AwakeBodies<'_>,
        contacts: &mut [SolverContact],
        profile: &mut SolverProfile,
    ) {
        let layout = ColorLayout::overflow_only(contacts.len());
        let step = StepInput {
            contacts,
            layout: &layout,
            joints: SolverJoints {
                joints: &mut [],
                layout: &ColorLayout::default(),
            },
        };
        self.run_step(Instant::now(), context, bodies, step, profile);
    }

    /// Runs one whole step over `contacts` ordered by colour as `layout` describes: each
    /// colour's contacts by the wide kernels in parallel blocks, the overflow contacts by the
    /// scalar path, serially. Fails, before anything moves, if the layout does not partition
    /// the contacts or a colour holds a dynamic body twice.
    pub fn solve_colored(
        &mut self,
        params: &SolverParams,
        bodies: AwakeBodies<'_>,
        contacts: &mut [SolverContact],
        layout: &ColorLayout,
        profile: &mut SolverProfile,
    ) -> Result<(), ColorLayoutError> {
        let context = params.has_valid_dt().then(|| StepContext::new(params));
        self.solve_colored_with_context(context.as_ref(), bodies, contacts, layout, profile)
    }

    /// [`ContactSolver::solve_colored`] with adjusted step constants (see
    /// [`ContactSolver::solve_with_context`]).
    pub fn solve_colored_with_context(
        &mut self,
        context: Option<&StepContext>,
        bodies: AwakeBodies<'_>,
        contacts: &mut [SolverContact],
        layout: &ColorLayout,
        profile: &mut SolverProfile,
    ) -> Result<(), ColorLayoutError> {
        let no_joints = SolverJoints {
            joints: &mut [],
            layout: &ColorLayout::default(),
        };
        self.solve_colored_joints_with_context(
            context, bodies, contacts, layout, no_joints, profile,
        )
    }

    /// [`ContactSolver::solve_colored`] with the step's joints, ordered by the same graph
    /// colours as `joints.layout` describes: each colour's joints are solved in parallel
    /// blocks just before that colour's contacts, the overflow joints serially before the
    /// overflow contacts (see [`crate::joint_passes`]). Fails, before anything moves, if either
    /// layout does not partition its constraints or a colour's contacts and joints together
    /// name a dynamic body twice.
    pub fn solve_colored_with_joints(
        &mut self,
        params: &SolverParams,
        bodies: AwakeBodies<'_>,
        contacts: &mut [SolverContact],
        layout: &ColorLayout,
        joints: SolverJoints<'_>,
        profile: &mut SolverProfile,
    ) -> Result<(), ColorLayoutError> {
        let context = params.has_valid_dt().then(|| StepContext::new(params));
        self.solve_colored_joints_with_context(
            context.as_ref(),
            bodies,
            contacts,
            layout,
            joints,
            profile,
        )
    }

    /// [`ContactSolver::solve_colored_with_joints`] with adjusted step constants (see
    /// [`ContactSolver::solve_with_context`]).
    pub fn solve_colored_joints_with_context(
        &mut self,
        context: Option<&StepContext>,
        bodies: AwakeBodies<'_>,
        contacts: &mut [SolverContact],
        layout: &ColorLayout,
        joints: SolverJoints<'_>,
        profile: &mut SolverProfile,
    ) -> Result<(), ColorLayoutError> {
        let step_start = Instant::now();
        let body_count = bodies.states.len().min(bodies.sims.len());
        self.checker.check_with_joints(
            layout,
            contacts,
            joints.layout,
            joints.joints,
            &bodies.states[..body_count],
        )?;
        let step = StepInput {
            contacts,
            layout,
            joints,
        };
        self.run_step(step_start, context, bodies, step, profile);
        Ok(())
    }

    /// [`ContactSolver::solve_colored_with_joints`] without the walk over every constraint
    /// that proves no colour names a dynamic body twice; the layouts' ranges are still
    /// checked. For a caller whose colouring guarantees it by construction (the World's
    /// constraint graph keeps a bitset of each colour's dynamic bodies and admits a constraint
    /// only where both its dynamic bodies are free), for which the walk is a serial pass over
    /// every contact and joint each step.
    ///
    /// # Safety
    ///
    /// No dynamic body of `bodies` may appear twice among one colour's contacts and joints
    /// taken together — what [`crate::color_layout::LayoutChecker::check_with_joints`] verifies. One
    /// colour's constraints write their bodies' states from several lanes and threads without
    /// synchronisation; a body named twice in a colour would be a data race.
    pub unsafe fn solve_colored_with_joints_unchecked(
        &mut self,
        params: &SolverParams,
        bodies: AwakeBodies<'_>,
        contacts: &mut [SolverContact],
        layout: &ColorLayout,
        joints: SolverJoints<'_>,
        profile: &mut SolverProfile,
    ) -> Result<(), ColorLayoutError> {
        let step_start = Instant::now();
        check_layout_ranges(layout, contacts.len(), joints.layout, joints.joints.len())?;
        let context = params.has_valid_dt().then(|| StepContext::new(params));
        let step = StepInput {
            contacts,
            layout,
            joints,
        };
        self.run_step(step_start, context.as_ref(), bodies, step, profile);
        Ok(())
    }

    /// The step, with its layouts already checked; `step_start` is when the call began.
    fn run_step(
        &mut self,
        step_start: Instant,
        context: Option<&StepContext>,
        bodies: AwakeBodies<'_>,
        step: StepInput<'_, '_>,
        profile: &mut SolverProfile,
    ) {
        let StepInput {
            contacts,
            layout,
            joints,
        } = step;
        *profile = SolverProfile::default();
        self.non_finite_bodies.clear();
        let AwakeBodies { states, sims } = bodies;
        let body_count = states.len().min(sims.len());
        debug_assert_eq!(states.len(), sims.len(), "states and sims must be parallel");
        let (states, sims) = (&mut states[..body_count], &mut sims[..body_count]);
        begin_step_on(self.workers, states, sims);
        let Some(context) = context else {
            self.impulses.clear();
            profile.total = ms_since(step_start);
            return;
        };
        self.plan(context, layout, joints.layout, body_count);
        let dense = self.impulse_output == ImpulseOutput::Dense;
        set_len_for_overwrite(&mut self.impulses, if dense { contacts.len() } else { 0 });
        {
            let arrays = StepArrays {
                states: SharedSlice::new(states),
                sims: SharedSlice::new(sims),
                contacts: SharedSlice::new(contacts),
                impulses: dense.then(|| SharedSlice::new(&mut self.impulses)),
                bundles: SharedSlice::new(&mut self.bundles),
                overflow: SharedSlice::new(&mut self.overflow_constraints),
                overflow_first_contact: layout.overflow.start,
                bundle_sources: &self.bundle_sources,
                joints: SharedSlice::new(joints.joints),
            };
            let entries = &self.entries;
            let mut observer = ProfileObserver::new(entries, profile);
            self.executor.run(
                self.workers.max(1),
                entries.iter().map(StageEntry::block_count),
                &|entry, block| run_block(&entries[entry], block, context, &arrays),
                &mut observer,
            );
        }
        #[cfg(feature = "validate")]
        {
            crate::validate::check_bundles(&self.bundles, &self.bundle_sources, contacts, states);
            for range in &self.color_bundles {
                let colour = &self.bundles[range.start as usize..range.end as usize];
                crate::validate::check_color_bundles(colour, states);
            }
        }
        let finalize_start = Instant::now();
        finalize_bodies_on(self.workers, states, sims, &mut self.non_finite_bodies);
        profile.finalize = ms_since(finalize_start);
        profile.total = ms_since(step_start);
    }

    /// Cuts each colour into bundles, sizes the scratch arrays, and builds the stage list.
    fn plan(
        &mut self,
        context: &StepContext,
        layout: &ColorLayout,
        joint_layout: &ColorLayout,
        body_count: usize,
    ) {
        self.color_bundles.clear();
        self.bundle_sources.clear();
        for range in &layout.color_ranges {
            let first_bundle = self.bundle_sources.len() as u32;
            for first_contact in range.clone().step_by(LANES) {
                self.bundle_sources.push(BundleSource {
                    first_contact: first_contact as u32,
                    lane_count: (range.end - first_contact).min(LANES) as u32,
                });
            }
            self.color_bundles
                .push(first_bundle..self.bundle_sources.len() as u32);
        }
        self.joint_colors.clear();
        self.joint_colors
            .extend(joint_layout.color_ranges.iter().map(as_u32_range));
        let bundle_count = self.bundle_sources.len();
        set_len_for_overwrite(&mut self.bundles, bundle_count);
        set_len_for_overwrite(&mut self.overflow_constraints, layout.overflow.len());
        match context.kind {
            SolverKind::SoftStep => soft_step_stages(context.substeps, &mut self.stages),
            SolverKind::SequentialImpulses => {
                sequential_impulse_stages(context.substeps, &mut self.stages)
            }
        }
        let shape = StepShape {
            body_count: body_count as u32,
            color_bundles: &self.color_bundles,
            bundle_count: bundle_count as u32,
            overflow_count: layout.overflow.len() as u32,
            joint_colors: &self.joint_colors,
            overflow_joints: as_u32_range(&joint_layout.overflow),
            joint_count: joint_count(joint_layout) as u32,
        };
        expand_stages(&self.stages, &shape, &mut self.entries);
        self.counters = SolverCounters {
            colors: layout.colors_in_use(),
            bundles: bundle_count,
            colored_contacts: layout.color_ranges.iter().map(|r| r.len()).sum(),
            overflow_contacts: layout.overflow.len(),
            stages: self.entries.len(),
            workers: self.worker_count(),
        };
    }
}

/// What one step solves: the contacts and joints, each ordered by colour as its layout says.
struct StepInput<'c, 'j> {
    contacts: &'c mut [SolverContact],
    layout: &'c ColorLayout,
    joints: SolverJoints<'j>,
}

fn as_u32_range(range: &Range<usize>) -> Range<u32> {
    range.start as u32..range.end as u32
}

/// The number of joints a (checked) joint layout covers.
fn joint_count(layout: &ColorLayout) -> usize {
    layout
        .color_ranges
        .iter()
        .chain([&layout.overflow])
        .map(|range| range.end)
        .max()
        .unwrap_or(0)
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
mod tests {
    //! Whole-step behaviour on hand-built scenes. The "narrowphase" here is exact for the
    //! shapes used (a box's bottom edge or a circle above the ground line y = 0), and carries
    //! the accumulated impulses from one step's manifold to the next by point index, as the
    //! contact cache does by feature id.

    use super::*;
    use crate::solve;
    use crate::{ColorLayout, ColorLayoutError};
    use collision::{Manifold, ManifoldPoint};
    use core_soa::{BodySim, BodyState, NULL_BODY, Rot, Transform, Vec2, body_flags};

    const HALF: f32 = 0.5;

    std::thread_local! {
        /// Whether `run_on_ground` puts its contact in a colour (wide path) instead of the
        /// overflow set (scalar path).
        static COLORED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    /// Runs `test` with the ground contact in the overflow set and then in a colour, and
    /// checks that both give the same bits (a lane of the wide path is the scalar path).
    fn on_both_paths<T: PartialEq + std::fmt::Debug>(test: impl Fn() -> T) {
        COLORED.with(|c| c.set(false));
        let scalar = test();
        COLORED.with(|c| c.set(true));
        let wide = test();
        COLORED.with(|c| c.set(false));
        assert_eq!(format!("{scalar:?}"), format!("{wide:?}"));
    }

    fn dynamic_body(center: Vec2, mass: f32, inertia: f32) -> (BodyState, BodySim) {
        let state = BodyState {
            flags: body_flags::DYNAMIC,
            ..BodyState::IDENTITY
        };
        let sim = BodySim {
            transform: Transform::new(center, Rot::IDENTITY),
            center,
            mass,
            inv_mass: 1.0 / mass,
            inertia,
            inv_inertia: 1.0 / inertia,
            ..BodySim::default()
        };
        (state, sim)
    }

    /// A unit box (1 kg, 1 m × 1 m, I = m·(w² + h²)/12 = 1/6) with its centre at `center`.
    fn unit_box(center: Vec2) -> (BodyState, BodySim) {
        dynamic_body(center, 1.0, 1.0 / 6.0)
    }

    fn ground_contact(
        manifold: Manifold,
        sim: &BodySim,
        friction: f32,
        restitution: f32,
    ) -> SolverContact {
        SolverContact {
            body_a: NULL_BODY,
            body_b: 0,
            inv_mass_a: 0.0,
            inv_inertia_a: 0.0,
            inv_mass_b: sim.inv_mass,
            inv_inertia_b: sim.inv_inertia,
            friction,
            restitution,
            manifold,
        }
    }

    /// The manifold of body 0's bottom edge (a box) against the ground, impulses carried over.
    fn box_manifold(sim: &BodySim, previous: &Manifold) -> Manifold {
        let mut m = Manifold {
            normal: Vec2::Y,
            point_count: 2,
            ..Default::default()
        };
        for (i, local_x) in [-HALF, HALF].into_iter().enumerate() {
            let corner = sim.center + sim.transform.q.rotate(Vec2::new(local_x, -HALF));
            let point = Vec2::new(corner.x, 0.5 * corner.y);
            m.points[i] = ManifoldPoint {
                point,
                anchor_a: point,
                anchor_b: point - sim.center,
                separation: corner.y,
                id: i as u16,
                normal_impulse: previous.points[i].normal_impulse,
                tangent_impulse: previous.points[i].tangent_impulse,
                persisted: previous.point_count == 2,
                ..Default::default()
            };
        }
        m
    }

    /// The manifold of a ball of `radius` (body 0) against the ground.
    fn ball_manifold(sim: &BodySim, radius: f32, previous: &Manifold) -> Manifold {
        let mut m = Manifold {
            normal: Vec2::Y,
            point_count: 1,
            ..Default::default()
        };
        let lowest = sim.center - Vec2::new(0.0, radius);
        let point = Vec2::new(lowest.x, 0.5 * lowest.y);
        m.points[0] = ManifoldPoint {
            point,
            anchor_a: point,
            anchor_b: point - sim.center,
            separation: lowest.y,
            normal_impulse: previous.points[0].normal_impulse,
            tangent_impulse: previous.points[0].tangent_impulse,
            ..Default::default()
        };
        m
    }

    /// Steps body 0 against the ground `steps` times, re-colliding with `collide` each step, and
    /// calls `observe` after every step.
    fn run_on_ground(
        params: &SolverParams,
        body: (BodyState, BodySim),
        contact: (f32, f32),
        steps: usize,
        collide: impl Fn(&BodySim, &Manifold) -> Manifold,
        mut observe: impl FnMut(&BodyState, &BodySim),
    ) -> (BodyState, BodySim) {
        let (mut states, mut sims) = ([body.0], [body.1]);
        let mut solver = ContactSolver::new();
        let mut profile = SolverProfile::default();
        let mut manifold = Manifold {
            point_count: 0,
            ..Default::default()
        };
        for _ in 0..steps {
            manifold = collide(&sims[0], &manifold);
            let mut contacts = [ground_contact(manifold, &sims[0], contact.0, contact.1)];
            let bodies = AwakeBodies {
                states: &mut states,
                sims: &mut sims,
            };
            if COLORED.with(|c| c.get()) {
                let layout = ColorLayout {
                    color_ranges: std::iter::once(0..1).collect(),
                    overflow: 1..1,
                };
                solver
                    .solve_colored(params, bodies, &mut contacts, &layout, &mut profile)
                    .unwrap();
                assert_eq!(solver.counters().bundles, 1);
            } else {
                solver.solve(params, bodies, &mut contacts, &mut profile);
            }
            manifold = contacts[0].manifold;
            observe(&states[0], &sims[0]);
        }
        (states[0], sims[0])
    }

    fn resting_box_stays_put(params: &SolverParams) -> (BodyState, BodySim) {
        let start = Vec2::new(0.0, HALF);
        let (state, sim) = run_on_ground(
            params,
            unit_box(start),
            (0.6, 0.0),
            60,
            box_manifold,
            |_, _| {},
        );
        let speed = (state.linear_velocity.length_squared()
            + state.angular_velocity * state.angular_velocity)
            .sqrt();
        assert!(speed < 1e-3, "still moving at {speed}");
        let moved = (sim.center - start).length();
        assert!(moved < params.linear_slop, "moved {moved}");
        assert!(sim.transform.q.angle().abs() < 1e-4);
        (state, sim)
    }

    #[test]
    fn soft_step_box_rests_on_ground() {
        on_both_paths(|| resting_box_stays_put(&SolverParams::default()));
    }

    #[test]
    fn sequential_impulses_box_rests_on_ground() {
        let params = SolverParams {
            kind: SolverKind::SequentialImpulses,
            substeps: 8,
            ..SolverParams::default()
        };
        on_both_paths(|| resting_box_stays_put(&params));
    }

    #[test]
    fn resting_impulses_carry_the_weight() {
        // At rest the two points share the weight per substep: Σλ = m·g·h = 10/240.
        let params = SolverParams::default();
        let mut last = Manifold::default();
        let (mut states, mut sims) = (
            [unit_box(Vec2::new(0.0, HALF)).0],
            [unit_box(Vec2::new(0.0, HALF)).1],
        );
        for _ in 0..30 {
            last = box_manifold(&sims[0], &last);
            let mut contacts = [ground_contact(last, &sims[0], 0.6, 0.0)];
            solve(
                &params,
                AwakeBodies {
                    states: &mut states,
                    sims: &mut sims,
                },
                &mut contacts,
                &mut SolverProfile::default(),
            );
            last = contacts[0].manifold;
        }
        let total: f32 = last.points().iter().map(|p| p.normal_impulse).sum();
        assert!(
            (total - 10.0 / 240.0).abs() < 1e-3 * 10.0 / 240.0,
            "total {total}"
        );
        assert!((last.points[0].normal_impulse - last.points[1].normal_impulse).abs() < 1e-4);
    }

    #[test]
    fn overlap_is_pushed_out_no_faster_than_the_limit() {
        let params = SolverParams::default();
        let start = Vec2::new(0.0, HALF - 0.1);
        let mut fastest: f32 = 0.0;
        let mut previous_y = start.y;
        let mut fastest_displacement: f32 = 0.0;
        let (_, sim) = run_on_ground(
            &params,
            unit_box(start),
            (0.6, 0.0),
            60,
            box_manifold,
            |state, sim| {
                fastest = fastest.max(state.linear_velocity.y);
                fastest_displacement =
                    fastest_displacement.max((sim.center.y - previous_y) / params.dt);
                previous_y = sim.center.y;
            },
        );
        assert!(
            fastest <= params.contact_push_max_speed,
            "pushed at {fastest}"
        );
        assert!(
            fastest_displacement <= params.contact_push_max_speed,
            "moved at {fastest_displacement}"
        );
        // The relax pass takes back the push-out velocity each substep, so it shows in the
        // displacement, not in the velocity left at the end of the step.
        assert!(
            fastest_displacement > 0.5 * params.contact_push_max_speed,
            "push-out should be near the limit, got {fastest_displacement}"
        );
        // Out of the overlap, to within the slop, after a second.
        assert!(
            sim.center.y > HALF - params.linear_slop,
            "y = {}",
            sim.center.y
        );
    }

    const BOTH_KINDS: [SolverKind; 2] = [SolverKind::SoftStep, SolverKind::SequentialImpulses];

    #[test]
    fn sliding_box_decelerates_at_mu_g() {
        on_both_paths(|| BOTH_KINDS.map(sliding_box_decelerates_at_mu_g_with));
    }

    fn sliding_box_decelerates_at_mu_g_with(kind: SolverKind) -> BodyState {
        let params = SolverParams {
            kind,
            ..SolverParams::default()
        };
        let mu = 0.5;
        let (mut state, sim) = unit_box(Vec2::new(0.0, HALF));
        state.linear_velocity = Vec2::new(2.0, 0.0);
        // 12 steps = 0.2 s, while the box still slides (it would stop at 0.4 s).
        let steps = 12;
        let (end, _) = run_on_ground(
            &params,
            (state, sim),
            (mu, 0.0),
            steps,
            box_manifold,
            |_, _| {},
        );
        let t = steps as f32 * params.dt;
        let deceleration = (2.0 - end.linear_velocity.x) / t;
        let expected = mu * 10.0;
        assert!(
            (deceleration - expected).abs() < 0.02 * expected,
            "{kind:?}: deceleration {deceleration}"
        );
        end
    }

    #[test]
    fn ball_bounces_with_restitution() {
        on_both_paths(|| BOTH_KINDS.map(ball_bounces_with_restitution_with));
    }

    fn ball_bounces_with_restitution_with(kind: SolverKind) -> f32 {
        let params = SolverParams {
            kind,
            gravity: Vec2::ZERO,
            ..SolverParams::default()
        };
        let radius = 0.5;
        let (mut state, sim) =
            dynamic_body(Vec2::new(0.0, radius + 0.01), 1.0, 0.5 * radius * radius);
        state.linear_velocity = Vec2::new(0.0, -5.0);
        let mut bounced = None;
        run_on_ground(
            &params,
            (state, sim),
            (0.0, 0.5),
            10,
            |s, m| ball_manifold(s, radius, m),
            |state, _| {
                if bounced.is_none() && state.linear_velocity.y > 0.0 {
                    bounced = Some(state.linear_velocity.y);
                }
            },
        );
        let leaving = bounced.expect("the ball never bounced");
        assert!(
            (leaving - 2.5).abs() < 0.02 * 2.5,
            "{kind:?}: left at {leaving}"
        );
        leaving
    }

    #[test]
    fn free_fall_is_symplectic_euler() {
        // v = g·t to float precision; x = ½·g·t² + ½·g·t·h (the integrator's first-order term).
        let params = SolverParams::default();
        let (mut states, mut sims) = ([unit_box(Vec2::ZERO).0], [unit_box(Vec2::ZERO).1]);
        let steps = 60;
        for _ in 0..steps {
            solve(
                &params,
                AwakeBodies {
                    states: &mut states,
                    sims: &mut sims,
                },
                &mut [],
                &mut SolverProfile::default(),
            );
        }
        let substeps = (steps * params.substeps as usize) as f32;
        let h = params.dt / params.substeps as f32;
        let t = steps as f32 * params.dt;
        let g = params.gravity.y;
        // Each of the N additions rounds by at most half an ulp of the running sum.
        let v_tolerance = substeps * f32::EPSILON * (g * t).abs();
        assert!((states[0].linear_velocity.y - g * t).abs() <= v_tolerance);
        assert_eq!(states[0].linear_velocity.x, 0.0);
        let expected_y = 0.5 * g * t * t + 0.5 * g * t * h;
        let y = sims[0].center.y;
        assert!(
            (y - expected_y).abs() <= substeps * f32::EPSILON * expected_y.abs(),
            "{y} vs {expected_y}"
        );
        // The first-order term is what separates it from the exact parabola.
        assert!((y - 0.5 * g * t * t).abs() > 0.9 * (0.5 * g * t * h).abs());
    }

    #[test]
    fn head_on_collision_conserves_momentum() {
        // Two free bodies, A (2 kg) moving right at 3 m/s into B (1 kg) at rest, touching at x = 0.
        let params = SolverParams {
            gravity: Vec2::ZERO,
            ..SolverParams::default()
        };
        let (mut a_state, a_sim) = dynamic_body(Vec2::new(-0.5, 0.0), 2.0, 1.0);
        let (b_state, b_sim) = dynamic_body(Vec2::new(0.5, 0.0), 1.0, 1.0);
        a_state.linear_velocity = Vec2::new(3.0, 0.0);
        let mut states = [a_state, b_state];
        let mut sims = [a_sim, b_sim];
        let mut m = Manifold {
            normal: Vec2::X,
            point_count: 1,
            ..Default::default()
        };
        m.points[0] = ManifoldPoint {
            anchor_a: Vec2::new(0.5, 0.0),
            anchor_b: Vec2::new(-0.5, 0.0),
            ..Default::default()
        };
        let mut contacts = [SolverContact {
            body_a: 0,
            body_b: 1,
            inv_mass_a: 0.5,
            inv_inertia_a: 1.0,
            inv_mass_b: 1.0,
            inv_inertia_b: 1.0,
            friction: 0.5,
            restitution: 0.0,
            manifold: m,
        }];
        solve(
            &params,
            AwakeBodies {
                states: &mut states,
                sims: &mut sims,
            },
            &mut contacts,
            &mut SolverProfile::default(),
        );
        let momentum = 2.0 * states[0].linear_velocity + states[1].linear_velocity;
        assert!(
            (momentum - Vec2::new(6.0, 0.0)).length() < 1e-5,
            "{momentum}"
        );
        // Perfectly inelastic: both at the common speed 2 m/s.
        assert!((states[0].linear_velocity.x - 2.0).abs() < 1e-3);
        assert!((states[1].linear_velocity.x - 2.0).abs() < 1e-3);
        assert!(contacts[0].manifold.points[0].max_normal_impulse > 0.0);
        assert!((contacts[0].manifold.points[0].normal_velocity + 3.0).abs() < 1e-6);
    }

    #[test]
    fn kinematic_body_pushes_but_is_not_pushed() {
        let params = SolverParams::default();
        let (mut k_state, mut k_sim) = dynamic_body(Vec2::new(0.0, -0.5), 1.0, 1.0);
        k_state.flags = body_flags::KINEMATIC;
        k_state.linear_velocity = Vec2::new(0.0, 1.0);
        k_sim.inv_mass = 0.0;
        k_sim.inv_inertia = 0.0;
        let (b_state, b_sim) = unit_box(Vec2::new(0.0, 0.5));
        let mut states = [k_state, b_state];
        let mut sims = [k_sim, b_sim];
        let mut m = Manifold {
            normal: Vec2::Y,
            point_count: 1,
            ..Default::default()
        };
        m.points[0] = ManifoldPoint {
            anchor_a: Vec2::new(0.0, 0.5),
            anchor_b: Vec2::new(0.0, -0.5),
            ..Default::default()
        };
        let mut contacts = [SolverContact {
            body_a: 0,
            body_b: 1,
            inv_mass_a: 0.0,
            inv_inertia_a: 0.0,
            inv_mass_b: 1.0,
            inv_inertia_b: 6.0,
            friction: 0.5,
            restitution: 0.0,
            manifold: m,
        }];
        solve(
            &params,
            AwakeBodies {
                states: &mut states,
                sims: &mut sims,
            },
            &mut contacts,
            &mut SolverProfile::default(),
        );
        assert_eq!(states[0].linear_velocity, Vec2::new(0.0, 1.0));
        assert!((sims[0].center.y - (-0.5 + params.dt)).abs() < 1e-6);
        // The box is carried up with the platform.
        assert!(
            (states[1].linear_velocity.y - 1.0).abs() < 1e-3,
            "{}",
            states[1].linear_velocity.y
        );
    }

    #[test]
    fn steps_are_bitwise_deterministic_and_bad_dt_moves_nothing() {
        let params = SolverParams::default();
        let run = || {
            let (mut state, sim) = unit_box(Vec2::new(0.0, HALF - 0.05));
            state.linear_velocity = Vec2::new(1.0, -1.0);
            state.angular_velocity = 0.3;
            run_on_ground(
                &params,
                (state, sim),
                (0.6, 0.0),
                20,
                box_manifold,
                |_, _| {},
            )
        };
        assert_eq!(run(), run());

        let (mut state, mut sim) = unit_box(Vec2::new(1.0, 2.0));
        state.linear_velocity = Vec2::new(1.0, 0.0);
        sim.force = Vec2::new(3.0, 0.0);
        let (mut states, mut sims) = ([state], [sim]);
        for dt in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            let bad = SolverParams { dt, ..params };
            solve(
                &bad,
                AwakeBodies {
                    states: &mut states,
                    sims: &mut sims,
                },
                &mut [],
                &mut SolverProfile::default(),
            );
            assert_eq!(sims[0].center, Vec2::new(1.0, 2.0));
            assert_eq!(states[0].linear_velocity, Vec2::new(1.0, 0.0));
            assert_eq!(sims[0].force, Vec2::new(3.0, 0.0));
        }
    }

    #[test]
    fn profile_is_filled_and_consistent() {
        let params = SolverParams::default();
        let mut profile = SolverProfile::default();
        let (mut states, mut sims) = (
            [unit_box(Vec2::new(0.0, HALF)).0],
            [unit_box(Vec2::new(0.0, HALF)).1],
        );
        let m = box_manifold(&sims[0], &Manifold::default());
        let mut contacts = [ground_contact(m, &sims[0], 0.6, 0.0)];
        let mut solver = ContactSolver::new();
        solver.solve(
            &params,
            AwakeBodies {
                states: &mut states,
                sims: &mut sims,
            },
            &mut contacts,
            &mut profile,
        );
        assert!(profile.total > 0.0);
        assert!(profile.stage_sum() <= profile.total * 1.0001 + 1e-6);
        // Prepare contacts and joints, 4 × 5 substep stages, restitution and store.
        assert_eq!(solver.stages().len(), 2 + 4 * 5 + 2);
        assert_eq!(solver.constraints().len(), 1);
    }

    /// The manifold of box `b`'s bottom edge against the top face of box `a` (or of the
    /// ground when `a` is `None`), for near-aligned unit boxes, impulses carried over.
    fn stacked_manifold(a: Option<&BodySim>, b: &BodySim, previous: &Manifold) -> Manifold {
        let (normal, face_point, center_a) = match a {
            Some(a) => (
                a.transform.q.rotate(Vec2::Y),
                a.center + a.transform.q.rotate(Vec2::new(0.0, HALF)),
                a.center,
            ),
            None => (Vec2::Y, Vec2::ZERO, Vec2::ZERO),
        };
        let mut m = Manifold {
            normal,
            point_count: 2,
            ..Default::default()
        };
        for (i, local_x) in [-HALF, HALF].into_iter().enumerate() {
            let corner = b.center + b.transform.q.rotate(Vec2::new(local_x, -HALF));
            let separation = normal.dot(corner - face_point);
            let point = corner - 0.5 * separation * normal;
            m.points[i] = ManifoldPoint {
                point,
                anchor_a: point - center_a,
                anchor_b: point - b.center,
                separation,
                id: i as u16,
                normal_impulse: previous.points[i].normal_impulse,
                tangent_impulse: previous.points[i].tangent_impulse,
                ..Default::default()
            };
        }
        m
    }

    /// Steps a column of `count` unit boxes for `steps` steps with the step constants adjusted
    /// by `adjust`, and returns the bodies.
    fn run_stack(count: usize, steps: usize, adjust: impl Fn(&mut StepContext)) -> Vec<BodySim> {
        let params = SolverParams::default();
        let mut context = StepContext::new(&params);
        adjust(&mut context);
        let bodies: Vec<_> = (0..count)
            .map(|i| unit_box(Vec2::new(0.0, HALF + i as f32)))
            .collect();
        let mut states: Vec<BodyState> = bodies.iter().map(|b| b.0).collect();
        let mut sims: Vec<BodySim> = bodies.iter().map(|b| b.1).collect();
        let mut manifolds = vec![Manifold::default(); count];
        let mut solver = ContactSolver::new();
        for _ in 0..steps {
            let contacts: Vec<SolverContact> = (0..count)
                .map(|i| {
                    let below = i.checked_sub(1).map(|j| &sims[j]);
                    let manifold = stacked_manifold(below, &sims[i], &manifolds[i]);
                    let mut contact = ground_contact(manifold, &sims[i], 0.6, 0.0);
                    contact.body_b = i as u32;
                    if let Some(j) = i.checked_sub(1) {
                        (contact.body_a, contact.inv_mass_a, contact.inv_inertia_a) =
                            (j as u32, 1.0, 6.0);
                    }
                    contact
                })
                .collect();
            let mut contacts = contacts;
            let bodies = AwakeBodies {
                states: &mut states,
                sims: &mut sims,
            };
            solver.solve_with_context(
                Some(&context),
                bodies,
                &mut contacts,
                &mut SolverProfile::default(),
            );
            for (m, c) in manifolds.iter_mut().zip(&contacts) {
                *m = c.manifold;
            }
        }
        sims
    }

    /// The resting overlap of a soft contact point carrying `load` (impulse per substep) with
    /// effective mass `normal_mass`. At rest the warm start cancels gravity's substep velocity,
    /// so the soft pass sees `vn = 0`, and its fixed point `Δλ = 0` gives
    /// `0 = −m_n·mass_scale·bias_rate·s − impulse_scale·load`.
    fn predicted_overlap(softness: &crate::Softness, load: f32, normal_mass: f32) -> f32 {
        softness.impulse_scale / softness.mass_scale * load / (normal_mass * softness.bias_rate)
    }

    #[test]
    fn stiffer_fixed_contact_softness_reduces_stack_sinking() {
        // A column of 10 unit boxes after 2 s. The ground contact carries the column: each of its
        // two points holds Λ = 10·m·g·h/2 per substep, with m_n = 1/(1 + 6·0.5²) = 0.4. With the
        // fixed-body softness (2× hertz, joint damping ratio) it settles at a quarter of the
        // overlap it would have with the dynamic softness.
        let count = 10;
        let context = StepContext::new(&SolverParams::default());
        let load = count as f32 * 10.0 * context.h / 2.0;
        let stiff = run_stack(count, 120, |_| {});
        let soft = run_stack(count, 120, |c| c.softness.fixed = c.softness.dynamic);
        let overlap = |sims: &[BodySim]| HALF - sims[0].center.y;
        let (stiff_overlap, soft_overlap) = (overlap(&stiff), overlap(&soft));
        let stiff_expected = predicted_overlap(&context.softness.fixed, load, 0.4);
        let soft_expected = predicted_overlap(&context.softness.dynamic, load, 0.4);
        assert!(
            (stiff_overlap - stiff_expected).abs() < 0.03 * stiff_expected,
            "{stiff_overlap} vs {stiff_expected}"
        );
        assert!(
            (soft_overlap - soft_expected).abs() < 0.03 * soft_expected,
            "{soft_overlap} vs {soft_expected}"
        );
        assert!(stiff_overlap < 0.3 * soft_overlap);
        // Gauss–Seidel visits the left point of each contact first, which tips the column by
        // about a milliradian while it settles; it stays standing and straightens over time.
        for sims in [&stiff, &soft] {
            let top = sims[count - 1];
            assert!(
                top.center.x.abs() < 0.02,
                "the column leans: top at x = {}",
                top.center.x
            );
            assert!(sims.iter().all(|b| b.transform.q.angle().abs() < 0.005));
            assert!(
                top.center.y > count as f32 - HALF - 0.05,
                "the column sank: top at {}",
                top.center.y
            );
        }
    }

    /// Steps body 0 on the ground with the step constants adjusted by `adjust`.
    fn run_on_ground_with(
        params: &SolverParams,
        adjust: impl Fn(&mut StepContext),
        body: (BodyState, BodySim),
        friction: f32,
        steps: usize,
    ) -> (BodyState, BodySim) {
        let mut context = StepContext::new(params);
        adjust(&mut context);
        let (mut states, mut sims) = ([body.0], [body.1]);
        let mut solver = ContactSolver::new();
        let mut manifold = Manifold::default();
        for _ in 0..steps {
            manifold = box_manifold(&sims[0], &manifold);
            let mut contacts = [ground_contact(manifold, &sims[0], friction, 0.0)];
            let bodies = AwakeBodies {
                states: &mut states,
                sims: &mut sims,
            };
            solver.solve_with_context(
                Some(&context),
                bodies,
                &mut contacts,
                &mut SolverProfile::default(),
            );
            manifold = contacts[0].manifold;
        }
        (states[0], sims[0])
    }

    #[test]
    fn friction_passes_compared() {
        // Both choices decelerate a sliding box at μ·g; friction in both passes holds a box on
        // an incline about five times tighter (30 µm against 160 µm of creep in 2 s), which is
        // why it is the default.
        use crate::stages::FrictionPasses;
        let mut creeps = Vec::new();
        for passes in [FrictionPasses::SolveAndRelax, FrictionPasses::RelaxOnly] {
            let adjust = |c: &mut StepContext| c.friction_passes = passes;
            // Sliding: 2 m/s, μ = 0.5, 0.2 s.
            let (mut state, sim) = unit_box(Vec2::new(0.0, HALF));
            state.linear_velocity = Vec2::new(2.0, 0.0);
            let params = SolverParams::default();
            let (end, _) = run_on_ground_with(&params, adjust, (state, sim), 0.5, 12);
            let deceleration = (2.0 - end.linear_velocity.x) / 0.2;
            // Holding on a 20° incline (gravity tilted instead of the ground), μ = 0.6 > tan 20°.
            let angle = 20f32.to_radians();
            let tilted = SolverParams {
                gravity: 10.0 * Vec2::new(-angle.sin(), -angle.cos()),
                ..params
            };
            let start = unit_box(Vec2::new(0.0, HALF));
            let (_, held) = run_on_ground_with(&tilted, adjust, start, 0.6, 120);
            let creep = held.center.x.abs();
            assert!(
                (deceleration - 5.0).abs() < 0.02 * 5.0,
                "{passes:?}: {deceleration}"
            );
            assert!(creep < 1e-3, "{passes:?}: crept {creep}");
            creeps.push(creep);
        }
        assert!(creeps[0] < 0.5 * creeps[1], "creep {creeps:?}");
    }

    #[test]
    fn a_blown_up_body_is_reported_not_spread() {
        let params = SolverParams::default();
        let (state, mut sim) = unit_box(Vec2::new(0.0, HALF));
        sim.force = Vec2::new(0.0, f32::NAN);
        let (mut states, mut sims) = ([state], [sim]);
        let manifold = box_manifold(&sims[0], &Manifold::default());
        let mut contacts = [ground_contact(manifold, &sims[0], 0.6, 0.0)];
        let mut solver = ContactSolver::new();
        let bodies = AwakeBodies {
            states: &mut states,
            sims: &mut sims,
        };
        solver.solve(
            &params,
            bodies,
            &mut contacts,
            &mut SolverProfile::default(),
        );
        assert_eq!(solver.non_finite_bodies(), &[0]);
        assert_eq!(sims[0].center, Vec2::new(0.0, HALF));
        assert_eq!(states[0].linear_velocity, Vec2::ZERO);
        for p in contacts[0].manifold.points() {
            assert_eq!((p.normal_impulse, p.tangent_impulse), (0.0, 0.0));
        }
        // The next step (force cleared) is healthy again.
        let bodies = AwakeBodies {
            states: &mut states,
            sims: &mut sims,
        };
        solver.solve(
            &params,
            bodies,
            &mut contacts,
            &mut SolverProfile::default(),
        );
        assert!(solver.non_finite_bodies().is_empty());
    }

    /// Steps `grid` `steps` times with `workers` threads, re-colliding before every step, and
    /// returns the bits of every body state and contact impulse.
    fn run_grid(
        grid: &mut crate::synthetic::BoxGrid,
        workers: usize,
        steps: usize,
    ) -> (Vec<u32>, Vec<u32>) {
        run_grid_with(grid, &SolverParams::default(), workers, steps)
    }

    fn run_grid_with(
        grid: &mut crate::synthetic::BoxGrid,
        params: &SolverParams,
        workers: usize,
        steps: usize,
    ) -> (Vec<u32>, Vec<u32>) {
        let mut solver = ContactSolver::new();
        solver.set_worker_count(workers);
        for _ in 0..steps {
            grid.collide();
            let layout = grid.layout().clone();
            let mut contacts = std::mem::take(&mut grid.contacts);
            solver
                .solve_colored(
                    params,
                    grid.bodies(),
                    &mut contacts,
                    &layout,
                    &mut SolverProfile::default(),
                )
                .unwrap();
            grid.contacts = contacts;
        }
        let states = bytemuck::cast_slice::<BodyState, u32>(&grid.states).to_vec();
        let impulses = grid
            .contacts
            .iter()
            .flat_map(|c| c.manifold.points().to_vec())
            .flat_map(|p| [p.normal_impulse.to_bits(), p.tangent_impulse.to_bits()])
            .collect();
        (states, impulses)
    }

    #[test]
    fn colored_steps_are_bitwise_identical_for_1_to_4_workers() {
        // A wall of 24 × 12 boxes, set moving, coloured freely and with only three colours (so
        // that some contacts overflow), 60 steps of each solver kind.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        for max_colors in [24, 3] {
            let mut start = crate::synthetic::BoxGrid::new(24, 12, 0.0);
            start.color(max_colors);
            for (i, state) in start.states.iter_mut().enumerate() {
                state.linear_velocity = Vec2::new(0.01 * (i % 7) as f32, 0.0);
                state.angular_velocity = 0.02 * (i % 5) as f32 - 0.04;
            }
            let overflow = start.layout().overflow.len();
            assert_eq!(overflow == 0, max_colors == 24, "overflow {overflow}");
            for kind in BOTH_KINDS {
                let params = SolverParams {
                    kind,
                    ..SolverParams::default()
                };
                let reference = run_grid_with(&mut start.clone(), &params, 1, 60);
                for workers in 2..=4 {
                    let run = || run_grid_with(&mut start.clone(), &params, workers, 60);
                    let result = pool.install(run);
                    assert!(
                        result == reference,
                        "{kind:?}: {workers} workers, {max_colors} colours"
                    );
                }
            }
        }
    }

    /// One settled step of a wall whose three colours leave some contacts in the overflow set,
    /// solved twice on two threads: the dense results equal, bit for bit, what the other output
    /// writes into the contacts, and the dense run leaves the contacts' impulses as given.
    #[test]
    fn dense_impulses_equal_the_impulses_stored_into_the_contacts() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let mut start = crate::synthetic::BoxGrid::new(24, 12, 0.0);
        start.color(3);
        run_grid(&mut start, 1, 30);
        start.collide();
        assert!(!start.layout().overflow.is_empty());
        for kind in BOTH_KINDS {
            let params = SolverParams {
                kind,
                ..SolverParams::default()
            };
            let run = |output: ImpulseOutput| {
                let mut grid = start.clone();
                let layout = grid.layout().clone();
                let mut contacts = std::mem::take(&mut grid.contacts);
                let mut solver = ContactSolver::new();
                solver.set_worker_count(2);
                solver.set_impulse_output(output);
                let mut profile = SolverProfile::default();
                pool.install(|| {
                    let bodies = grid.bodies();
                    solver.solve_colored(&params, bodies, &mut contacts, &layout, &mut profile)
                })
                .unwrap();
                (contacts, solver.impulses().to_vec(), grid.states)
            };
            let (stored, no_dense, states) = run(ImpulseOutput::Contacts);
            let (untouched, dense, dense_states) = run(ImpulseOutput::Dense);
            assert!(no_dense.is_empty());
            assert_eq!(dense.len(), stored.len());
            assert_eq!(states, dense_states);
            let mut loaded = 0;
            for (i, (contact, result)) in stored.iter().zip(&dense).enumerate() {
                for slot in 0..2 {
                    let (p, r) = (contact.manifold.points[slot], result.points[slot]);
                    if slot >= contact.manifold.point_count {
                        assert_eq!(r, crate::PointImpulses::default());
                        continue;
                    }
                    assert_eq!(p.normal_impulse.to_bits(), r.normal_impulse.to_bits());
                    assert_eq!(p.tangent_impulse.to_bits(), r.tangent_impulse.to_bits());
                    assert_eq!(
                        p.max_normal_impulse.to_bits(),
                        r.max_normal_impulse.to_bits()
                    );
                    assert_eq!(p.normal_velocity.to_bits(), r.normal_velocity.to_bits());
                    loaded += usize::from(r.normal_impulse > 0.0);
                }
                let impulses = |contact: &SolverContact| {
                    contact
                        .manifold
                        .points
                        .map(|p| (p.normal_impulse, p.tangent_impulse))
                };
                assert_eq!(impulses(&untouched[i]), impulses(&start.contacts[i]));
            }
            assert!(loaded > stored.len(), "{kind:?}: {loaded} loaded points");
        }
    }

    #[test]
    fn a_wall_settles_where_the_soft_contacts_predict() {
        // 20 × 10 boxes for 2 s, solved by colours on two threads. Each column settles like the
        // column of `stiffer_fixed_contact_softness_reduces_stack_sinking`: the contact under
        // row r carries the 10 − r boxes above it, and overlaps by `predicted_overlap` with
        // m_n = 0.4 against the ground (1/(1 + 6·½²)) and 0.2 between boxes (1/(2 + 2·6·½²)).
        let (columns, rows) = (20, 10);
        let mut grid = crate::synthetic::BoxGrid::new(columns, rows, 0.0);
        grid.color(24);
        run_grid(&mut grid, 2, 120);
        let context = StepContext::new(&SolverParams::default());
        let mut sink = 0.0;
        for row in 0..rows {
            let load = (rows - row) as f32 * 10.0 * context.h / 2.0;
            sink += match row {
                0 => predicted_overlap(&context.softness.fixed, load, 0.4),
                _ => predicted_overlap(&context.softness.dynamic, load, 0.2),
            };
            let expected_y = row as f32 + HALF - sink;
            for column in 0..columns {
                let sim = &grid.sims[row * columns + column];
                let y = sim.center.y;
                assert!(
                    (y - expected_y).abs() < 0.05 * sink,
                    "row {row}, column {column}: y = {y}, expected {expected_y}"
                );
                // Gauss–Seidel visits each contact's left point first, which shears the wall
                // by about a millimetre at the top while it settles (as in the column test).
                assert!(
                    (sim.center.x - column as f32).abs() < 5e-3,
                    "{}",
                    sim.center
                );
                assert!(sim.transform.q.angle().abs() < 5e-3);
            }
        }
    }

    #[test]
    fn a_bad_layout_is_rejected_before_anything_moves() {
        let mut grid = crate::synthetic::BoxGrid::new(4, 2, 0.0);
        let before = grid.sims.clone();
        let contact_count = grid.contacts.len();
        // Everything in one colour: boxes share contacts.
        let layout = ColorLayout {
            color_ranges: std::iter::once(0..contact_count).collect(),
            overflow: contact_count..contact_count,
        };
        let mut contacts = grid.contacts.clone();
        let result = ContactSolver::new().solve_colored(
            &SolverParams::default(),
            grid.bodies(),
            &mut contacts,
            &layout,
            &mut SolverProfile::default(),
        );
        assert!(matches!(
            result,
            Err(ColorLayoutError::BodyTwiceInColor { color: 0, .. })
        ));
        assert_eq!(grid.sims, before);
    }

    #[test]
    fn the_unchecked_entry_solves_as_the_checked_one_and_still_checks_ranges() {
        let mut checked = crate::synthetic::BoxGrid::new(16, 8, 0.0);
        checked.color(24);
        let mut unchecked = checked.clone();
        let params = SolverParams::default();
        let mut solver = ContactSolver::new();
        solver.set_worker_count(2);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let empty_layout = ColorLayout::default();
        let no_joints = || SolverJoints {
            joints: Default::default(),
            layout: &empty_layout,
        };
        let mut profile = SolverProfile::default();
        for _ in 0..30 {
            for (grid, check) in [(&mut checked, true), (&mut unchecked, false)] {
                grid.collide();
                let layout = grid.layout().clone();
                let mut contacts = std::mem::take(&mut grid.contacts);
                let bodies = grid.bodies();
                pool.install(|| {
                    let result = if check {
                        solver.solve_colored_with_joints(
                            &params,
                            bodies,
                            &mut contacts,
                            &layout,
                            no_joints(),
                            &mut profile,
                        )
                    } else {
                        // SAFETY: `BoxGrid::color` gives no colour a dynamic body twice (the
                        // checked run of the same grid verifies it every step).
                        unsafe {
                            solver.solve_colored_with_joints_unchecked(
                                &params,
                                bodies,
                                &mut contacts,
                                &layout,
                                no_joints(),
                                &mut profile,
                            )
                        }
                    };
                    result.unwrap();
                });
                grid.contacts = contacts;
            }
            assert_eq!(checked.states, unchecked.states);
        }
        // A layout that does not cover the contacts is still refused, before anything moves.
        let before = unchecked.sims.clone();
        let mut contacts = unchecked.contacts.clone();
        let short = ColorLayout::overflow_only(contacts.len() - 1);
        // SAFETY: everything is in the overflow set, which no colour rule applies to.
        let result = unsafe {
            solver.solve_colored_with_joints_unchecked(
                &params,
                unchecked.bodies(),
                &mut contacts,
                &short,
                no_joints(),
                &mut profile,
            )
        };
        assert!(result.is_err());
        assert_eq!(unchecked.sims, before);
    }

    #[test]
    fn counters_and_entries_describe_the_colours() {
        let mut grid = crate::synthetic::BoxGrid::new(30, 4, 0.0);
        grid.color(24);
        let layout = grid.layout().clone();
        let mut solver = ContactSolver::new();
        let mut contacts = grid.contacts.clone();
        solver
            .solve_colored(
                &SolverParams::default(),
                grid.bodies(),
                &mut contacts,
                &layout,
                &mut SolverProfile::default(),
            )
            .unwrap();
        let counters = solver.counters();
        let expected_bundles: usize = layout
            .color_ranges
            .iter()
            .map(|r| r.len().div_ceil(crate::wide::LANES))
            .sum();
        assert_eq!(counters.bundles, expected_bundles);
        assert_eq!(counters.colors, layout.colors_in_use());
        assert_eq!(counters.colored_contacts, contacts.len());
        assert_eq!(counters.overflow_contacts, 0);
        // Per substep: integrate velocities, 3 passes per colour, integrate positions.
        let colors = counters.colors;
        assert_eq!(counters.stages, 1 + 4 * (2 + 3 * colors) + colors + 1);
        assert_eq!(solver.stage_entries().len(), counters.stages);
    }
}
