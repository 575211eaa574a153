//! The stages of a step, as data.
//!
//! A solver kind describes its step as a list of [`Stage`]s. The soft step's list (substeps
//! `N`):
//!
//! ```text
//!   BeginStep → OrderContacts → PrepareContacts → PrepareJoints
//!   ┌─ × N ───────────────────────────────────────────────────────────────┐
//!   │ IntegrateVelocities → WarmStart → Solve → IntegratePositions → Relax │
//!   └──────────────────────────────────────────────────────────────────────┘
//!   Restitution → StoreImpulses            (then the bodies are finalised)
//! ```
//!
//! (the sequential-impulse list is in [`crate::sequential_impulses`]). Each step expands that
//! list into [`StageEntry`]s for the scene at hand ([`expand_stages`]): a constraint pass
//! becomes entries for the overflow set and per graph colour — joints first, then contacts —
//! and every entry says which items it covers and how they are cut into blocks:
//!
//! ```text
//!   Stage::Solve  →  Solve·overflow joints (1 block) → Solve·overflow contacts (1 block)
//!                  → Solve·colour 0 joints (j₀ blocks) → Solve·colour 0 bundles (k₀ blocks)
//!                  → Solve·colour 1 joints …
//! ```
//!
//! Within a colour, joints and contacts share no dynamic body (the graph colours them
//! together), so the joints-then-contacts order inside a colour changes no bit; across colours
//! and in the overflow set, joints go first so that contacts have the last word, as in Box2D.
//! Warm start, solve and relax visit joints, restitution does not. A colour's full groups of
//! [`LANES`] hinges keep their impulses in wide lanes during the step (`joint_passes.rs`);
//! the colour's joint entry of the last velocity pass writes them back into the joints
//! ([`StageTarget::JointsThenStore`]), so the store stage stores contacts only.
//!
//! The staged executor ([`crate::executor`]) walks the entries in order and spreads each
//! entry's blocks over its threads; [`crate::step`] runs one block. Block sizes follow from the
//! item counts alone ([`block_size`]), so the partition, like the result, never depends on
//! the number of threads. [`StepContext`] holds the per-step constants every stage reads
//! (substep length, softness, biases), computed once from [`SolverParams`].

use crate::contact_constraint::ContactSoftness;
use crate::contact_solver::{ContactRows, RelaxBias, SoftBias};
use crate::integrate::VelocityIntegration;
use crate::joint::JointParams;
use crate::params::{SolverKind, SolverParams};
use crate::sequential_impulses::BaumgarteBias;
use crate::softness::{Softness, contact_hertz_for_substep};
use crate::wide::LANES;
use std::ops::Range;

/// The stages, as data: the list is built once per step and walked by one loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Start the step on every body: clear its displacement, record its start pose and compute
    /// its velocity terms (`integrate.rs`, once per step).
    BeginStep,
    /// Order each colour's contacts for bundling (`contact_order.rs`; only with several
    /// workers, once per step).
    OrderContacts,
    /// Prepare the contacts: effective masses, anchors, softness (once per step).
    PrepareContacts,
    /// Prepare the joints: frames, effective masses, softness (once per step).
    PrepareJoints,
    /// Integrate gravity, forces and damping into the velocities.
    IntegrateVelocities,
    /// Apply the accumulated impulses of the last step (warm start).
    WarmStart,
    /// Solve every constraint with position-correcting bias.
    Solve,
    /// Move the bodies by their velocities.
    IntegratePositions,
    /// Solve every constraint again without bias, removing the velocity the bias added.
    Relax,
    /// Apply restitution to the points that approached fast enough.
    Restitution,
    /// Copy the accumulated impulses back into the caller's records.
    StoreImpulses,
}

impl Stage {
    /// A short name, for profilers.
    pub fn name(self) -> &'static str {
        match self {
            Stage::BeginStep => "begin_step",
            Stage::OrderContacts => "order_contacts",
            Stage::PrepareContacts => "prepare_contacts",
            Stage::PrepareJoints => "prepare_joints",
            Stage::IntegrateVelocities => "integrate_velocities",
            Stage::WarmStart => "warm_start",
            Stage::Solve => "solve",
            Stage::IntegratePositions => "integrate_positions",
            Stage::Relax => "relax",
            Stage::Restitution => "restitution",
            Stage::StoreImpulses => "store_impulses",
        }
    }
}

/// The soft step's stage list for `substeps` substeps, written into `stages`.
pub fn soft_step_stages(substeps: u32, stages: &mut Vec<Stage>) {
    stages.clear();
    stages.extend([
        Stage::BeginStep,
        Stage::OrderContacts,
        Stage::PrepareContacts,
        Stage::PrepareJoints,
    ]);
    for _ in 0..substeps.max(1) {
        stages.extend([
            Stage::IntegrateVelocities,
            Stage::WarmStart,
            Stage::Solve,
            Stage::IntegratePositions,
            Stage::Relax,
        ]);
    }
    stages.extend([Stage::Restitution, Stage::StoreImpulses]);
}

/// Which soft-step passes solve friction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FrictionPasses {
    /// Both the biased solve and the relax pass (Box2D v3.0).
    #[default]
    SolveAndRelax,
    /// The relax pass only (Box2D's later versions, Rapier).
    RelaxOnly,
}

impl FrictionPasses {
    /// The rows the biased solve pass handles.
    pub fn biased_solve_rows(self) -> ContactRows {
        match self {
            FrictionPasses::SolveAndRelax => ContactRows::NormalAndFriction,
            FrictionPasses::RelaxOnly => ContactRows::NormalOnly,
        }
    }
}

/// Multiplier on the contact frequency for contacts against a body with zero inverse mass.
pub const FIXED_CONTACT_HERTZ_SCALE: f32 = 2.0;

/// The constants of one step that the stages read.
#[derive(Clone, Copy, Debug)]
pub struct StepContext {
    pub kind: SolverKind,
    /// Substeps (soft step) or velocity iterations (sequential impulses), at least 1.
    pub substeps: u32,
    /// Substep (soft step) or step (sequential impulses) length (s).
    pub h: f32,
    pub velocity: VelocityIntegration,
    pub softness: ContactSoftness,
    pub soft_bias: SoftBias,
    pub relax_bias: RelaxBias,
    pub baumgarte_bias: BaumgarteBias,
    pub restitution_threshold: f32,
    pub warm_start: bool,
    /// Which soft-step passes solve friction (the sequential-impulse solve always does).
    pub friction_passes: FrictionPasses,
    /// The joint passes' constants: substep `h` (the step for sequential impulses) and the
    /// joint softness.
    pub joint: JointParams,
}

impl StepContext {
    /// The constants for a step with `params` (whose `dt` must be finite and positive).
    pub fn new(params: &SolverParams) -> StepContext {
        let h = match params.kind {
            SolverKind::SoftStep => params.dt / params.substep_count() as f32,
            SolverKind::SequentialImpulses => params.dt,
        };
        let inv_h = 1.0 / h;
        StepContext {
            kind: params.kind,
            substeps: params.substep_count(),
            h,
            velocity: VelocityIntegration {
                h,
                gravity: params.gravity,
                max_linear_speed: params.max_linear_speed,
            },
            softness: contact_softness(params, h),
            soft_bias: SoftBias {
                inv_h,
                push_max_speed: params.contact_push_max_speed,
            },
            relax_bias: RelaxBias { inv_h },
            baumgarte_bias: BaumgarteBias {
                inv_h,
                baumgarte: params.baumgarte,
                linear_slop: params.linear_slop,
            },
            restitution_threshold: params.restitution_threshold,
            warm_start: params.enable_warm_starting,
            friction_passes: FrictionPasses::default(),
            joint: JointParams::for_substep(
                h,
                joint_hertz(params, h),
                params.joint_damping_ratio,
                params.enable_warm_starting,
            ),
        }
    }
}

/// The contact softnesses for substep `h`: contact hertz capped at a quarter of the substep
/// rate, with the contact damping ratio, between dynamic bodies; twice that frequency, with the
/// same damping ratio, against fixed bodies (see [`crate::contact_constraint`]). Box2D v3 uses the
/// contact damping ratio against fixed bodies too; a lighter damping (the joint ratio, 2) was
/// measured to let a 1 kg box under a 1000 kg one be pushed right through the ground, where the
/// contact ratio (10) holds it at 9 cm, with pyramids and columns unchanged to 0.1 mm. The
/// sequential-impulse solver does not use them.
pub fn contact_softness(params: &SolverParams, h: f32) -> ContactSoftness {
    if params.kind == SolverKind::SequentialImpulses {
        return ContactSoftness {
            dynamic: Softness::RIGID,
            fixed: Softness::RIGID,
        };
    }
    let hertz = contact_hertz_for_substep(params.contact_hertz, h);
    ContactSoftness {
        dynamic: Softness::new(hertz, params.contact_damping_ratio, h),
        fixed: Softness::new(
            FIXED_CONTACT_HERTZ_SCALE * hertz,
            params.contact_damping_ratio,
            h,
        ),
    }
}

/// The joint frequency for substep `h`: in the soft step the requested joint hertz is capped,
/// like the contacts', at a quarter of the substep rate. A stiffer joint spring than the
/// substeps resolve overshoots from substep to substep: a 20-link chain holding a weight of
/// 100 links folds up at 120 Hz with 4 substeps (240 Hz substep rate), and hangs straight,
/// stretched by 0.74 %, at 120 Hz with 8. The sequential-impulse step keeps the requested
/// value (its joints take one step of `dt` as their substep).
pub fn joint_hertz(params: &SolverParams, h: f32) -> f32 {
    match params.kind {
        SolverKind::SoftStep => contact_hertz_for_substep(params.joint_hertz, h),
        SolverKind::SequentialImpulses => params.joint_hertz,
    }
}

/// What the items of a [`StageEntry`] are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageTarget {
    /// Awake bodies.
    Bodies,
    /// Graph colours, one per block (the contact order).
    Colors,
    /// One colour's contact bundles.
    Bundles,
    /// Every colour's contact bundles (prepare and store), one piece of a colour per block,
    /// the pieces in the order of [`cut_bundle_pieces`]; the items index the pieces.
    BundlePieces,
    /// Overflow constraints, solved by the scalar path.
    Overflow,
    /// Joints: one colour's (or, to prepare, all of them) in parallel blocks.
    Joints,
    /// One colour's joints in the step's last velocity pass over them, in parallel blocks;
    /// after its pass each full hinge group writes its impulses back into its joints
    /// (`joint_passes.rs`), so no entry of its own reads the lanes again to store them.
    JointsThenStore,
    /// The overflow joints, solved one at a time in one block.
    OverflowJoints,
    /// Consecutive single-block entries of one stage, run one after another in one block
    /// ([`fuse_single_blocks`]); the items index the step's entry list.
    Fused,
}

/// One entry of the step's stage list: a [`Stage`] over a range of items, cut into blocks.
/// The executor runs entries in order and the blocks of one entry in any order, possibly at
/// the same time; an entry whose blocks must not run at the same time has one block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageEntry {
    pub stage: Stage,
    pub target: StageTarget,
    /// The colour whose bundles or joints this entry works on, or for joint entries the
    /// overflow group (the index after the last colour); `None` for every other entry.
    pub color: Option<u32>,
    /// Indices of the items (bodies, bundles or overflow constraints).
    pub items: Range<u32>,
    /// Items per block (the last block may be shorter); at least 1.
    pub block_size: u32,
}

impl StageEntry {
    /// The number of blocks.
    pub fn block_count(&self) -> u32 {
        self.items.len().div_ceil(self.block_size as usize) as u32
    }

    /// The items of block `block`.
    pub fn block(&self, block: u32) -> Range<usize> {
        let start = self.items.start as usize + (block * self.block_size) as usize;
        start..(start + self.block_size as usize).min(self.items.end as usize)
    }
}

/// At most this many blocks per parallel stage: enough to balance eight threads, few enough
/// that claiming a block (one atomic increment) stays small next to its work.
pub const MAX_BLOCKS_PER_STAGE: u32 = 32;
/// The smallest block of bundles (32 contacts with eight lanes).
pub const MIN_BUNDLES_PER_BLOCK: u32 = 4;
/// The smallest block of bodies.
pub const MIN_BODIES_PER_BLOCK: u32 = 128;
/// The smallest block of overflow contacts in the prepare and store stages.
pub const MIN_CONTACTS_PER_BLOCK: u32 = 64;
/// The smallest block of joints (each is solved by the scalar kernel).
pub const MIN_JOINTS_PER_BLOCK: u32 = 32;

/// The block size for `items` items: at least `min`, and at most [`MAX_BLOCKS_PER_STAGE`]
/// blocks. It depends on the item count alone, never on the number of threads.
pub fn block_size(items: u32, min: u32) -> u32 {
    items.div_ceil(MAX_BLOCKS_PER_STAGE).max(min).max(1)
}

/// Cuts every colour's bundles into the pieces that the prepare and store entries hand out as
/// blocks, written into `pieces` in the order the executor's segments take them.
///
/// Why not blocks over all bundles in order: the executor gives worker `w` of `W` the `w`-th
/// segment of every entry's blocks, and each colour's passes give it the `w`-th part of that
/// colour's bundles. Blocks over all bundles in order would hand worker 0 the first colours
/// whole and the last worker the last ones, so every bundle outside its own part would be
/// prepared on one core and solved on another, and its lines would cross between the cores
/// at the first warm start and again at the store. So each colour is cut into about equal
/// pieces of at most the block size the bundle count alone gives, and the pieces are listed
/// by where they lie in their colour (the middle of piece `j` of `k` is at `(2j + 1)/2k` of it;
/// ties in colour order): the first `w`-th of the list holds about the first `w`-th of every
/// colour, for any `W`. With one worker (`by_place` false) the pieces stay in colour order,
/// so the bundles are prepared and stored front to back. The cut depends on the counts alone,
/// and preparing or storing a bundle reads and writes that bundle only, so the order changes
/// which core does the work, never what it computes.
pub fn cut_bundle_pieces(
    color_bundles: &[Range<u32>],
    bundle_count: u32,
    by_place: bool,
    pieces: &mut Vec<BundlePiece>,
) {
    pieces.clear();
    let most = block_size(bundle_count, MIN_BUNDLES_PER_BLOCK);
    for bundles in color_bundles {
        let (first, n) = (bundles.start, bundles.len() as u32);
        let k = n.div_ceil(most);
        pieces.extend((0..k).map(|j| BundlePiece {
            bundles: first + j * n / k..first + (j + 1) * n / k,
            index: j,
            of: k,
        }));
    }
    if !by_place {
        return;
    }
    // (2j + 1)/2k < (2j' + 1)/2k'  ⇔  (2j + 1)·k' < (2j' + 1)·k; ties go by first bundle, so
    // in colour order, and the order is total (an unstable sort, which allocates nothing).
    let middle = |p: &BundlePiece, q: &BundlePiece| u64::from(2 * p.index + 1) * u64::from(q.of);
    pieces.sort_unstable_by(|p, q| {
        let by_place = middle(p, q).cmp(&middle(q, p));
        by_place.then(p.bundles.start.cmp(&q.bundles.start))
    });
}

/// A run of one colour's bundles, piece `index` of the `of` pieces the colour is cut into
/// ([`cut_bundle_pieces`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundlePiece {
    pub bundles: Range<u32>,
    pub index: u32,
    pub of: u32,
}

/// The block size of a colour's `joints` in every joint stage: whole groups of [`LANES`], so
/// that only a colour's last joints fall outside the wide hinge kernel's groups and each block
/// owns whole groups (`joint_passes.rs`).
fn joint_block(joints: u32) -> u32 {
    block_size(joints, MIN_JOINTS_PER_BLOCK).next_multiple_of(LANES as u32)
}

/// The sizes of a step that its stage list depends on.
#[derive(Clone, Debug)]
pub struct StepShape<'a> {
    pub body_count: u32,
    /// The bundles of each colour, in order (empty ranges for colours without contacts).
    pub color_bundles: &'a [Range<u32>],
    /// The pieces [`cut_bundle_pieces`] cut the bundles into for prepare and store.
    pub bundle_pieces: u32,
    /// The colours whose contacts the step orders (all of them with several workers, none
    /// with one: see `contact_order.rs`).
    pub ordered_colors: u32,
    pub overflow_count: u32,
    /// The number of joints of each colour, in order.
    pub color_joints: &'a [u32],
    /// The number of overflow joints.
    pub overflow_joints: u32,
}

/// Expands the solver kind's list of `stages` into entries for a step of `shape`, written into
/// `entries`: body stages over all bodies; per constraint pass, the overflow joints and the
/// overflow contacts (one block each, the scalar path), then each colour's joints and bundles
/// in order; prepare and store over every colour's bundles in pieces ([`cut_bundle_pieces`])
/// and over all overflow contacts, and the joint preparation of each colour's joints and of
/// the overflow joints, in parallel blocks; with a store stage, each colour's joint entry of
/// the last velocity pass stores its hinge groups' impulses ([`last_storing_pass`]). A joint
/// entry names its group in `color`: a colour, or `color_joints.len()` for the overflow
/// joints. Empty entries are left out.
pub fn expand_stages(stages: &[Stage], shape: &StepShape<'_>, entries: &mut Vec<StageEntry>) {
    entries.clear();
    let mut push = |stage, target, color, items: Range<u32>, block_size| {
        if !items.is_empty() {
            entries.push(StageEntry {
                stage,
                target,
                color,
                items,
                block_size,
            });
        }
    };
    let overflow = 0..shape.overflow_count;
    let overflow_group = shape.color_joints.len().max(shape.color_bundles.len()) as u32;
    let storing_pass = last_storing_pass(stages);
    for (index, &stage) in stages.iter().enumerate() {
        match stage {
            Stage::BeginStep | Stage::IntegrateVelocities | Stage::IntegratePositions => {
                let size = block_size(shape.body_count, MIN_BODIES_PER_BLOCK);
                push(stage, StageTarget::Bodies, None, 0..shape.body_count, size);
            }
            Stage::OrderContacts => {
                let colors = 0..shape.ordered_colors;
                push(stage, StageTarget::Colors, None, colors, 1);
            }
            Stage::PrepareContacts | Stage::StoreImpulses => {
                let pieces = 0..shape.bundle_pieces;
                push(stage, StageTarget::BundlePieces, None, pieces, 1);
                let size = block_size(shape.overflow_count, MIN_CONTACTS_PER_BLOCK);
                push(stage, StageTarget::Overflow, None, overflow.clone(), size);
            }
            Stage::PrepareJoints => {
                for (color, &joints) in shape.color_joints.iter().enumerate() {
                    let tag = Some(color as u32);
                    let size = joint_block(joints);
                    push(stage, StageTarget::Joints, tag, 0..joints, size);
                }
                let (joints, tag) = (shape.overflow_joints, Some(overflow_group));
                let size = block_size(joints, MIN_JOINTS_PER_BLOCK);
                push(stage, StageTarget::Joints, tag, 0..joints, size);
            }
            Stage::WarmStart | Stage::Solve | Stage::Relax => {
                let joints = 0..shape.overflow_joints;
                let serial = shape.overflow_joints.max(1);
                let tag = Some(overflow_group);
                push(stage, StageTarget::OverflowJoints, tag, joints, serial);
                let serial = shape.overflow_count.max(1);
                push(stage, StageTarget::Overflow, None, overflow.clone(), serial);
                let colors = shape.color_bundles.len().max(shape.color_joints.len());
                let joint_target = if storing_pass == Some(index) {
                    StageTarget::JointsThenStore
                } else {
                    StageTarget::Joints
                };
                for color in 0..colors {
                    let tag = Some(color as u32);
                    if let Some(&joints) = shape.color_joints.get(color) {
                        let size = joint_block(joints);
                        push(stage, joint_target, tag, 0..joints, size);
                    }
                    if let Some(bundles) = shape.color_bundles.get(color) {
                        let size = block_size(bundles.len() as u32, MIN_BUNDLES_PER_BLOCK);
                        push(stage, StageTarget::Bundles, tag, bundles.clone(), size);
                    }
                }
            }
            Stage::Restitution => {
                let serial = shape.overflow_count.max(1);
                push(stage, StageTarget::Overflow, None, overflow.clone(), serial);
                for (color, bundles) in shape.color_bundles.iter().enumerate() {
                    let size = block_size(bundles.len() as u32, MIN_BUNDLES_PER_BLOCK);
                    let color = Some(color as u32);
                    push(stage, StageTarget::Bundles, color, bundles.clone(), size);
                }
            }
        }
    }
}

/// With a store stage, the place in `stages` of the last velocity pass (warm start, solve or
/// relax), whose colour joint entries are [`StageTarget::JointsThenStore`]: every pass visits
/// every colour's joints, so that pass is each colour's last, and the hinge groups' impulses
/// go back into their joints as soon as it has run instead of in an entry of the store stage
/// that reads every group's lanes once more (one entry per colour fewer;
/// `benches/results/NOTES.md`). Nothing after it changes a joint's impulse (restitution and
/// the store stage work on contacts only).
fn last_storing_pass(stages: &[Stage]) -> Option<usize> {
    if !stages.contains(&Stage::StoreImpulses) {
        return None;
    }
    let pass = |s: &Stage| matches!(s, Stage::WarmStart | Stage::Solve | Stage::Relax);
    stages.iter().rposition(pass)
}

/// Writes into `schedule` the entry list `entries` as the executor runs it: each maximal run
/// of two or more consecutive entries of the same stage that have one block each becomes one
/// [`StageTarget::Fused`] entry of one block over their indices; every other entry is copied.
///
/// Why: every entry is a barrier at which the threads meet, and a scene whose colouring ends
/// in a tail of nearly empty colours (a tumbling drum: fourteen colours of one bundle each,
/// four substeps, three passes) pays for a hundred and fifty barriers a step around work that
/// only one thread can do. The executor runs entries in order and a one-block entry on a
/// single thread, so running a run of them one after another in one block does exactly the
/// same work in the same order: the results are bit for bit the same, for any thread count.
/// Runs stop at a change of stage, so the stage timings stay exact.
pub fn fuse_single_blocks(entries: &[StageEntry], schedule: &mut Vec<StageEntry>) {
    schedule.clear();
    let mut start = 0;
    while start < entries.len() {
        let first = &entries[start];
        let fusable = |e: &StageEntry| e.block_count() == 1 && e.stage == first.stage;
        let mut end = start + 1;
        if fusable(first) {
            while end < entries.len() && fusable(&entries[end]) {
                end += 1;
            }
        }
        if end - start == 1 {
            schedule.push(first.clone());
        } else {
            schedule.push(StageEntry {
                stage: first.stage,
                target: StageTarget::Fused,
                color: None,
                items: start as u32..end as u32,
                block_size: (end - start) as u32,
            });
        }
        start = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(stage: Stage, target: StageTarget, items: Range<u32>, block_size: u32) -> StageEntry {
        StageEntry {
            stage,
            target,
            color: None,
            items,
            block_size,
        }
    }

    /// Runs of one-block entries of one stage become one fused entry over their indices;
    /// a lone one-block entry, a many-block entry and a change of stage end a run.
    #[test]
    fn runs_of_single_blocks_of_one_stage_are_fused() {
        use Stage::{Relax, Solve};
        use StageTarget::{Bundles, Joints, Overflow};
        let entries = [
            entry(Solve, Bundles, 0..40, 10), // 0: four blocks
            entry(Solve, Bundles, 40..42, 4), // 1: one block
            entry(Solve, Joints, 0..3, 32),   // 2: one block
            entry(Solve, Bundles, 42..43, 4), // 3: one block
            entry(Relax, Overflow, 0..5, 5),  // 4: one block, another stage
            entry(Relax, Bundles, 0..40, 10), // 5: four blocks
            entry(Relax, Bundles, 40..42, 4), // 6: one block, alone
        ];
        let mut schedule = Vec::new();
        fuse_single_blocks(&entries, &mut schedule);
        let fused = entry(Solve, StageTarget::Fused, 1..4, 3);
        let expected = [
            entries[0].clone(),
            fused,
            entries[4].clone(),
            entries[5].clone(),
            entries[6].clone(),
        ];
        assert_eq!(schedule, expected);
        assert!(
            schedule
                .iter()
                .all(|e| e.target != StageTarget::Fused || e.block_count() == 1)
        );
    }

    #[test]
    fn soft_step_list_repeats_the_substep() {
        let mut stages = Vec::new();
        soft_step_stages(4, &mut stages);
        assert_eq!(stages.len(), 4 + 4 * 5 + 2);
        assert_eq!(
            &stages[4..9],
            &[
                Stage::IntegrateVelocities,
                Stage::WarmStart,
                Stage::Solve,
                Stage::IntegratePositions,
                Stage::Relax
            ]
        );
        assert_eq!(stages.iter().filter(|s| **s == Stage::Relax).count(), 4);
        soft_step_stages(0, &mut stages);
        assert_eq!(stages.len(), 4 + 5 + 2);
    }

    #[test]
    fn context_caps_contact_hertz() {
        // One substep at 60 Hz: 30 Hz is capped to 15 Hz.
        let params = SolverParams {
            substeps: 1,
            ..SolverParams::default()
        };
        let ctx = StepContext::new(&params);
        assert_eq!(ctx.softness.dynamic, Softness::new(15.0, 10.0, 1.0 / 60.0));
        assert_eq!(ctx.softness.fixed, Softness::new(30.0, 10.0, 1.0 / 60.0));
        let params = SolverParams::default();
        let ctx = StepContext::new(&params);
        assert!((ctx.h - 1.0 / 240.0).abs() < 1e-9);
        assert_eq!(ctx.softness.dynamic, Softness::new(30.0, 10.0, ctx.h));
    }

    #[test]
    fn joint_hertz_is_capped_at_a_quarter_of_the_substep_rate() {
        // 4 substeps at 60 Hz: h = 1/240 s, cap 60 Hz; 8 substeps: cap 120 Hz.
        let asked = SolverParams {
            joint_hertz: 120.0,
            ..SolverParams::default()
        };
        let ctx = StepContext::new(&asked);
        assert_eq!(ctx.joint.joint_softness, Softness::new(60.0, 0.5, ctx.h));
        let eight = SolverParams {
            substeps: 8,
            ..asked
        };
        let ctx = StepContext::new(&eight);
        assert_eq!(ctx.joint.joint_softness, Softness::new(120.0, 0.5, ctx.h));
        let classic = SolverParams {
            kind: SolverKind::SequentialImpulses,
            ..asked
        };
        assert_eq!(joint_hertz(&classic, 1.0 / 60.0), 120.0);
    }

    /// Joints enter every velocity pass before the contacts: overflow joints, overflow
    /// contacts, then per colour its joints and its bundles; they are prepared once, in
    /// parallel blocks of whole groups, take no part in restitution, and each colour's joint
    /// entry of the last relax pass stores its hinge groups' impulses.
    #[test]
    fn expansion_puts_each_colours_joints_before_its_contacts() {
        let mut stages = Vec::new();
        soft_step_stages(1, &mut stages);
        let color_bundles = [0..4, 4..6, 6..6];
        let color_joints = [100, 0, 30];
        let shape = StepShape {
            body_count: 10,
            color_bundles: &color_bundles,
            bundle_pieces: piece_count(&color_bundles, 6),
            ordered_colors: 0,
            overflow_count: 2,
            color_joints: &color_joints,
            overflow_joints: 3,
        };
        let mut entries = Vec::new();
        expand_stages(&stages, &shape, &mut entries);
        let summary = |stage| {
            entries
                .iter()
                .filter(|e| e.stage == stage)
                .map(|e| (e.target, e.color, e.items.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            summary(Stage::Solve),
            [
                (StageTarget::OverflowJoints, Some(3), 0..3),
                (StageTarget::Overflow, None, 0..2),
                (StageTarget::Joints, Some(0), 0..100),
                (StageTarget::Bundles, Some(0), 0..4),
                (StageTarget::Bundles, Some(1), 4..6),
                (StageTarget::Joints, Some(2), 0..30),
            ]
        );
        // The one relax pass is the last: its colour joint entries also store.
        let relax_as_solve: Vec<_> = summary(Stage::Relax)
            .into_iter()
            .map(|(target, color, items)| match target {
                StageTarget::JointsThenStore => (StageTarget::Joints, color, items),
                other => (other, color, items),
            })
            .collect();
        assert_eq!(relax_as_solve, summary(Stage::Solve));
        assert_eq!(
            summary(Stage::PrepareJoints),
            [
                (StageTarget::Joints, Some(0), 0..100),
                (StageTarget::Joints, Some(2), 0..30),
                (StageTarget::Joints, Some(3), 0..3),
            ]
        );
        // The store stage stores contacts only; the hinge groups' impulses are stored by each
        // colour's joint entry of the last relax pass.
        assert!(
            summary(Stage::StoreImpulses)
                .iter()
                .all(|(target, ..)| matches!(
                    target,
                    StageTarget::BundlePieces | StageTarget::Overflow
                ))
        );
        let storing: Vec<(usize, Option<u32>)> = entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.target == StageTarget::JointsThenStore)
            .map(|(i, e)| (i, e.color))
            .collect();
        let last_relax_joints = |color| {
            entries
                .iter()
                .rposition(|e| {
                    e.stage == Stage::Relax && e.color == color && e.target != StageTarget::Bundles
                })
                .unwrap()
        };
        assert_eq!(
            storing,
            [
                (last_relax_joints(Some(0)), Some(0)),
                (last_relax_joints(Some(2)), Some(2))
            ]
        );
        assert!(entries.iter().all(|e| e.stage != Stage::Restitution
            || !matches!(e.target, StageTarget::Joints | StageTarget::OverflowJoints)));
        let colour_joint_blocks_start_groups = entries.iter().all(|e| {
            !matches!(e.target, StageTarget::Joints | StageTarget::JointsThenStore)
                || e.color == Some(3)
                || (0..e.block_count()).all(|b| e.block(b).start % LANES == 0)
        });
        assert!(colour_joint_blocks_start_groups);
        let overflow_joint_blocks: Vec<u32> = entries
            .iter()
            .filter(|e| e.target == StageTarget::OverflowJoints)
            .map(StageEntry::block_count)
            .collect();
        assert_eq!(
            overflow_joint_blocks,
            [1, 1, 1],
            "warm start, solve, relax: serial"
        );
    }

    #[test]
    fn the_order_stage_has_one_block_per_colour_to_order() {
        let mut stages = Vec::new();
        soft_step_stages(1, &mut stages);
        let color_bundles = [0..40, 40..43];
        let shape = StepShape {
            body_count: 1000,
            color_bundles: &color_bundles,
            bundle_pieces: piece_count(&color_bundles, 43),
            ordered_colors: 1,
            overflow_count: 0,
            color_joints: &[],
            overflow_joints: 0,
        };
        let mut entries = Vec::new();
        expand_stages(&stages, &shape, &mut entries);
        assert_eq!(
            (entries[0].stage, entries[0].target),
            (Stage::BeginStep, StageTarget::Bodies)
        );
        let order = &entries[1];
        assert_eq!(
            (
                order.stage,
                order.target,
                order.items.clone(),
                order.block_count()
            ),
            (Stage::OrderContacts, StageTarget::Colors, 0..1, 1)
        );
        assert_eq!(entries[2].stage, Stage::PrepareContacts);
    }

    #[test]
    fn expansion_gives_overflow_then_colours_per_pass() {
        let mut stages = Vec::new();
        soft_step_stages(2, &mut stages);
        let color_bundles = [0..40, 40..40, 40..43];
        let shape = StepShape {
            body_count: 1000,
            color_bundles: &color_bundles,
            bundle_pieces: piece_count(&color_bundles, 43),
            ordered_colors: 0,
            overflow_count: 5,
            color_joints: &[],
            overflow_joints: 0,
        };
        let mut entries = Vec::new();
        expand_stages(&stages, &shape, &mut entries);
        // begin + prepare (bundles, overflow) + 2 × (integrate v, 3 passes × (overflow + 2
        // colours), integrate x) + restitution (overflow + 2 colours) + store (bundles,
        // overflow).
        assert_eq!(entries.len(), 1 + 2 + 2 * (1 + 3 * 3 + 1) + 3 + 2);
        let begin = &entries[0];
        assert_eq!(
            (begin.stage, begin.items.clone(), begin.block_size),
            (Stage::BeginStep, 0..1000, 128)
        );
        let solves: Vec<_> = entries[..14]
            .iter()
            .filter(|e| e.stage == Stage::Solve)
            .map(|e| (e.target, e.color, e.items.clone(), e.block_count()))
            .collect();
        assert_eq!(
            solves,
            [
                (StageTarget::Overflow, None, 0..5, 1),
                (StageTarget::Bundles, Some(0), 0..40, 10),
                (StageTarget::Bundles, Some(2), 40..43, 1),
            ]
        );
        let prepare = &entries[1];
        assert_eq!(
            (prepare.stage, prepare.target),
            (Stage::PrepareContacts, StageTarget::BundlePieces)
        );
        assert_eq!(
            prepare.items,
            0..11,
            "colour 0 in ten pieces of four, colour 2 in one"
        );
        let bodies = &entries[3];
        assert_eq!(
            (bodies.stage, bodies.block_size),
            (Stage::IntegrateVelocities, 128)
        );
    }

    fn piece_count(color_bundles: &[Range<u32>], bundle_count: u32) -> u32 {
        let mut pieces = Vec::new();
        cut_bundle_pieces(color_bundles, bundle_count, true, &mut pieces);
        pieces.len() as u32
    }

    /// The pieces cover every colour's bundles once, each within its colour and at most the
    /// block size the count gives, and any first `w`-th of the list holds about the first
    /// `w`-th of every large colour.
    #[test]
    fn bundle_pieces_cover_each_colour_once_and_interleave_by_place() {
        let color_bundles = [0..312, 312..624, 624..900, 900..903, 903..903, 903..1013];
        let mut pieces = Vec::new();
        cut_bundle_pieces(&color_bundles, 1013, false, &mut pieces);
        let in_colour_order: Vec<u32> = pieces.iter().flat_map(|p| p.bundles.clone()).collect();
        assert_eq!(
            in_colour_order,
            (0..1013).collect::<Vec<_>>(),
            "one worker: front to back"
        );
        let unsorted = pieces.clone();
        cut_bundle_pieces(&color_bundles, 1013, true, &mut pieces);
        assert_eq!(pieces.len(), unsorted.len());
        assert!(
            unsorted.iter().all(|piece| pieces.contains(piece)),
            "the same pieces"
        );
        let most = block_size(1013, MIN_BUNDLES_PER_BLOCK);
        let mut covered: Vec<u32> = pieces.iter().flat_map(|p| p.bundles.clone()).collect();
        covered.sort_unstable();
        assert_eq!(covered, (0..1013).collect::<Vec<_>>());
        for piece in &pieces {
            let colour = color_bundles
                .iter()
                .find(|c| c.contains(&piece.bundles.start));
            let colour = colour.expect("a piece lies in a colour");
            assert!(piece.bundles.end <= colour.end && !piece.bundles.is_empty());
            assert!(piece.bundles.len() as u32 <= most);
        }
        // Halves: the first half of the list holds the first halves of the colours, to
        // within one piece of each.
        let half = &pieces[..pieces.len() / 2];
        for colour in &color_bundles[..3] {
            let middle = colour.start + colour.len() as u32 / 2;
            let first_half = half.iter().filter(|p| colour.contains(&p.bundles.start));
            let reach = first_half.map(|p| p.bundles.end).max().unwrap();
            assert!(
                reach.abs_diff(middle) <= most,
                "{colour:?}: {reach} against {middle}"
            );
        }
        // Within a colour the pieces keep their order, and the list is sorted by place.
        let place = |p: &BundlePiece| f64::from(2 * p.index + 1) / f64::from(2 * p.of);
        assert!(pieces.windows(2).all(|w| place(&w[0]) <= place(&w[1])));
    }

    #[test]
    fn blocks_cover_the_items_once_and_sizes_follow_the_counts() {
        for (items, min) in [
            (0u32, 4u32),
            (1, 4),
            (31, 4),
            (313, 4),
            (5000, 128),
            (100_000, 128),
        ] {
            let size = block_size(items, min);
            assert!(size >= min);
            let entry = StageEntry {
                stage: Stage::Solve,
                target: StageTarget::Bundles,
                color: Some(0),
                items: 7..7 + items,
                block_size: size,
            };
            assert!(entry.block_count() <= MAX_BLOCKS_PER_STAGE.max(items.div_ceil(min)));
            let covered: Vec<usize> = (0..entry.block_count())
                .flat_map(|b| entry.block(b))
                .collect();
            assert_eq!(covered, (7..7 + items as usize).collect::<Vec<_>>());
        }
        // 313 bundles (a colour of 2,500 contacts): 32 blocks of 10.
        assert_eq!(block_size(313, MIN_BUNDLES_PER_BLOCK), 10);
    }
}
