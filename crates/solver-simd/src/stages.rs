//! The stages of a step, as data.
//!
//! A solver kind describes its step as a list of [`Stage`]s. The soft step's list (substeps
//! `N`):
//!
//! ```text
//!   PrepareContacts
//!   ┌─ × N ───────────────────────────────────────────────────────────────┐
//!   │ IntegrateVelocities → WarmStart → Solve → IntegratePositions → Relax │
//!   └──────────────────────────────────────────────────────────────────────┘
//!   Restitution → StoreImpulses            (then the bodies are finalised)
//! ```
//!
//! (the sequential-impulse list is in [`crate::sequential_impulses`]). Each step expands that
//! list into [`StageEntry`]s for the scene at hand ([`expand_stages`]): a contact pass becomes
//! one entry for the overflow set and one per graph colour, and every entry says which items
//! it covers and how they are cut into blocks:
//!
//! ```text
//!   Stage::Solve  →  Solve·overflow (1 block) → Solve·colour 0 (k₀ blocks) → Solve·colour 1 …
//! ```
//!
//! The staged executor ([`crate::executor`]) walks the entries in order and spreads each
//! entry's blocks over its threads; [`crate::step`] runs one block. Block sizes follow from the
//! item counts alone ([`block_size`]), so the partition, like the result, never depends on
//! the number of threads. [`StepContext`] holds the per-step constants every stage reads
//! (substep length, softness, biases), computed once from [`SolverParams`].

use crate::contact_constraint::ContactSoftness;
use crate::contact_solver::{ContactRows, RelaxBias, SoftBias};
use crate::integrate::VelocityIntegration;
use crate::params::{SolverKind, SolverParams};
use crate::sequential_impulses::BaumgarteBias;
use crate::softness::{Softness, contact_hertz_for_substep};
use std::ops::Range;

/// The stages, as data: the list is built once per step and walked by one loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    PrepareContacts,
    IntegrateVelocities,
    WarmStart,
    Solve,
    IntegratePositions,
    Relax,
    Restitution,
    StoreImpulses,
}

impl Stage {
    /// A short name, for profilers.
    pub fn name(self) -> &'static str {
        match self {
            Stage::PrepareContacts => "prepare_contacts",
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
    stages.push(Stage::PrepareContacts);
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
        }
    }
}

/// The contact softnesses for substep `h`: contact hertz capped at a quarter of the substep
/// rate with the contact damping ratio between dynamic bodies; twice that frequency with the
/// joint damping ratio against fixed bodies (see [`crate::contact_constraint`]). The
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
            params.joint_damping_ratio,
            h,
        ),
    }
}

/// What the items of a [`StageEntry`] are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageTarget {
    /// Awake bodies.
    Bodies,
    /// Contact bundles: one colour's, or (prepare and store) every colour's.
    Bundles,
    /// Overflow constraints, solved by the scalar path.
    Overflow,
}

/// One entry of the step's stage list: a [`Stage`] over a range of items, cut into blocks.
/// The executor runs entries in order and the blocks of one entry in any order, possibly at
/// the same time; an entry whose blocks must not run at the same time has one block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageEntry {
    pub stage: Stage,
    pub target: StageTarget,
    /// The colour whose bundles this entry solves (`None` for every other entry).
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

/// The block size for `items` items: at least `min`, and at most [`MAX_BLOCKS_PER_STAGE`]
/// blocks. It depends on the item count alone, never on the number of threads.
pub fn block_size(items: u32, min: u32) -> u32 {
    items.div_ceil(MAX_BLOCKS_PER_STAGE).max(min).max(1)
}

/// The sizes of a step that its stage list depends on.
#[derive(Clone, Copy, Debug)]
pub struct StepShape<'a> {
    pub body_count: u32,
    /// The bundles of each colour, in order (empty ranges for empty colours).
    pub color_bundles: &'a [Range<u32>],
    pub bundle_count: u32,
    pub overflow_count: u32,
}

/// Expands the solver kind's list of `stages` into entries for a step of `shape`, written into
/// `entries`: body stages over all bodies; per contact pass, the overflow set (one block, the
/// scalar path) and then each colour in order; prepare and store over all bundles and all
/// overflow contacts in parallel blocks. Empty entries are left out.
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
    for &stage in stages {
        match stage {
            Stage::IntegrateVelocities | Stage::IntegratePositions => {
                let size = block_size(shape.body_count, MIN_BODIES_PER_BLOCK);
                push(stage, StageTarget::Bodies, None, 0..shape.body_count, size);
            }
            Stage::PrepareContacts | Stage::StoreImpulses => {
                let size = block_size(shape.bundle_count, MIN_BUNDLES_PER_BLOCK);
                push(
                    stage,
                    StageTarget::Bundles,
                    None,
                    0..shape.bundle_count,
                    size,
                );
                let size = block_size(shape.overflow_count, MIN_CONTACTS_PER_BLOCK);
                push(stage, StageTarget::Overflow, None, overflow.clone(), size);
            }
            Stage::WarmStart | Stage::Solve | Stage::Relax | Stage::Restitution => {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soft_step_list_repeats_the_substep() {
        let mut stages = Vec::new();
        soft_step_stages(4, &mut stages);
        assert_eq!(stages.len(), 1 + 4 * 5 + 2);
        assert_eq!(
            &stages[1..6],
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
        assert_eq!(stages.len(), 1 + 5 + 2);
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
        assert_eq!(ctx.softness.fixed, Softness::new(30.0, 2.0, 1.0 / 60.0));
        let params = SolverParams::default();
        let ctx = StepContext::new(&params);
        assert!((ctx.h - 1.0 / 240.0).abs() < 1e-9);
        assert_eq!(ctx.softness.dynamic, Softness::new(30.0, 10.0, ctx.h));
    }

    #[test]
    fn expansion_gives_overflow_then_colours_per_pass() {
        let mut stages = Vec::new();
        soft_step_stages(2, &mut stages);
        let color_bundles = [0..40, 40..40, 40..43];
        let shape = StepShape {
            body_count: 1000,
            color_bundles: &color_bundles,
            bundle_count: 43,
            overflow_count: 5,
        };
        let mut entries = Vec::new();
        expand_stages(&stages, &shape, &mut entries);
        // prepare (bundles, overflow) + 2 × (integrate v, 3 passes × (overflow + 2 colours),
        // integrate x) + restitution (overflow + 2 colours) + store (bundles, overflow).
        assert_eq!(entries.len(), 2 + 2 * (1 + 3 * 3 + 1) + 3 + 2);
        let solves: Vec<_> = entries[..13]
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
        let prepare = &entries[0];
        assert_eq!(
            (prepare.stage, prepare.target),
            (Stage::PrepareContacts, StageTarget::Bundles)
        );
        let bodies = &entries[2];
        assert_eq!(
            (bodies.stage, bodies.block_size),
            (Stage::IntegrateVelocities, 128)
        );
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
