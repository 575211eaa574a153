//! Running one block of one stage entry: the bridge from the stage list to the kernels.
//!
//! `StepArrays` holds every array of a step as a [`SharedSlice`], and `run_block` picks
//! the kernel for an entry's stage and target and hands it the block's items:
//!
//! | target | prepare / store | warm start, solve, relax, restitution | integrate |
//! |---|---|---|---|
//! | bundles | scalar prepare + pack, per bundle / unpack into the manifolds or the results | wide kernels over the block's bundles | — |
//! | overflow | scalar, per block of contacts | scalar, the whole set as one block | — |
//! | bodies | — | — | the block's bodies |
//! | joints, overflow joints | prepare per joint (parallel) | scalar joint kernels (see [`crate::joint_passes`]) | — |
//!
//! Each access below states why it cannot race: blocks of one entry cover disjoint items;
//! entries run one after another; within a colour no dynamic body repeats (checked before the
//! step by [`crate::color_layout::LayoutChecker`], or promised by the caller of the unsafe
//! `ContactSolver::solve_colored_with_joints_unchecked`, and bundles are packed from exactly
//! those contacts); and an overflow pass is a single block, so it alone touches the bodies.

use crate::contact_constraint::{ContactConstraint, prepare_contacts};
use crate::contact_solver::{
    ContactRows, apply_restitution, solve_contacts, store_impulses, store_impulses_dense,
    warm_start_contacts,
};
use crate::contact_wide::{
    ContactBundle, SharedBodies, prepare_bundle_in_place, restitution_bundles, solve_bundles,
    store_bundle_impulses, store_bundle_impulses_dense, warm_start_bundles,
};
use crate::integrate::{integrate_positions, integrate_velocities};
use crate::joint::JointConstraint;
use crate::joint_passes::{JointArrays, run_joint_block, run_overflow_joint_block};
use crate::params::SolverKind;
use crate::shared::SharedSlice;
use crate::stages::{Stage, StageEntry, StageTarget, StepContext};
use crate::{ContactImpulses, SolverContact};
use core::ops::Range;
use core_soa::{BodySim, BodyState};

/// Where a bundle's contacts are: `lane_count` contacts from `first_contact` on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BundleSource {
    pub first_contact: u32,
    pub lane_count: u32,
}

impl BundleSource {
    pub fn contacts(self) -> Range<usize> {
        let first = self.first_contact as usize;
        first..first + self.lane_count as usize
    }
}

/// The arrays of one step, shared by its threads.
pub(crate) struct StepArrays<'a> {
    pub states: SharedSlice<'a, BodyState>,
    pub sims: SharedSlice<'a, BodySim>,
    pub contacts: SharedSlice<'a, SolverContact>,
    /// With [`crate::ImpulseOutput::Dense`], the results by contact (parallel to `contacts`);
    /// `None` stores them into the contacts.
    pub impulses: Option<SharedSlice<'a, ContactImpulses>>,
    pub bundles: SharedSlice<'a, ContactBundle>,
    /// The overflow constraints; constraint `i` is contact `overflow_first_contact + i`.
    pub overflow: SharedSlice<'a, ContactConstraint>,
    pub overflow_first_contact: usize,
    pub bundle_sources: &'a [BundleSource],
    /// The step's joints, ordered by colour.
    pub joints: SharedSlice<'a, JointConstraint>,
}

/// Runs block `block` of `entry`.
pub(crate) fn run_block(entry: &StageEntry, block: u32, ctx: &StepContext, arrays: &StepArrays) {
    let items = entry.block(block);
    match entry.target {
        StageTarget::Bodies => run_body_block(entry.stage, items, ctx, arrays),
        StageTarget::Bundles => run_bundle_block(entry.stage, items, ctx, arrays),
        StageTarget::Overflow => {
            let serial = entry.block_count() == 1;
            run_overflow_block(entry.stage, items, serial, ctx, arrays)
        }
        StageTarget::Joints => run_joint_block(entry.stage, items, ctx, &joint_arrays(arrays)),
        StageTarget::OverflowJoints => {
            let serial = entry.block_count() == 1;
            run_overflow_joint_block(entry.stage, items, serial, ctx, &joint_arrays(arrays))
        }
    }
}

fn joint_arrays<'s, 'a>(arrays: &'s StepArrays<'a>) -> JointArrays<'s, 'a> {
    JointArrays {
        states: &arrays.states,
        sims: &arrays.sims,
        joints: &arrays.joints,
    }
}

fn run_body_block(stage: Stage, items: Range<usize>, ctx: &StepContext, arrays: &StepArrays) {
    // SAFETY: body stages give each thread a disjoint block of bodies, and no other entry runs
    // at the same time; the sims are only read during the solver's stages.
    let (states, sims) = unsafe {
        (
            arrays.states.slice_mut(items.clone()),
            arrays.sims.slice(items),
        )
    };
    match stage {
        Stage::IntegrateVelocities => integrate_velocities(states, sims, &ctx.velocity),
        Stage::IntegratePositions => integrate_positions(states, ctx.h),
        _ => debug_assert!(false, "{stage:?} is not a body stage"),
    }
}

fn run_bundle_block(stage: Stage, items: Range<usize>, ctx: &StepContext, arrays: &StepArrays) {
    match stage {
        Stage::PrepareContacts => prepare_bundle_block(items, ctx, arrays),
        Stage::StoreImpulses => store_bundle_block(items, arrays),
        _ => {
            // SAFETY: each thread holds a disjoint block of bundles; the block's bundles all
            // belong to this entry's colour, whose contacts name no dynamic body twice, so the
            // bodies one thread writes are touched by no other thread during this entry.
            let (bundles, mut bodies) = unsafe {
                (
                    arrays.bundles.slice_mut(items),
                    SharedBodies::new(&arrays.states),
                )
            };
            match stage {
                Stage::WarmStart => warm_start_bundles(bundles, &mut bodies),
                Stage::Solve => solve_bundles_biased(bundles, &mut bodies, ctx),
                Stage::Relax => {
                    let rows = ContactRows::NormalAndFriction;
                    solve_bundles(bundles, &mut bodies, &ctx.relax_bias, rows)
                }
                Stage::Restitution => {
                    restitution_bundles(bundles, &mut bodies, ctx.restitution_threshold)
                }
                _ => debug_assert!(false, "{stage:?} is not a bundle stage"),
            }
        }
    }
}

/// The biased pass: soft (soft step) or Baumgarte (sequential impulses).
fn solve_bundles_biased(
    bundles: &mut [ContactBundle],
    bodies: &mut SharedBodies,
    ctx: &StepContext,
) {
    match ctx.kind {
        SolverKind::SoftStep => {
            let rows = ctx.friction_passes.biased_solve_rows();
            solve_bundles(bundles, bodies, &ctx.soft_bias, rows)
        }
        SolverKind::SequentialImpulses => {
            let rows = ContactRows::NormalAndFriction;
            solve_bundles(bundles, bodies, &ctx.baumgarte_bias, rows)
        }
    }
}

fn prepare_bundle_block(items: Range<usize>, ctx: &StepContext, arrays: &StepArrays) {
    // SAFETY: during a prepare entry no thread writes bodies or contacts, and each thread
    // writes its own disjoint block of bundles.
    let (states, bundles) = unsafe {
        (
            arrays.states.slice(0..arrays.states.len()),
            arrays.bundles.slice_mut(items.clone()),
        )
    };
    for (bundle, source) in bundles.iter_mut().zip(&arrays.bundle_sources[items]) {
        // SAFETY: contacts are only read during a prepare entry.
        let contacts = unsafe { arrays.contacts.slice(source.contacts()) };
        prepare_bundle_in_place(bundle, contacts, states, &ctx.softness, ctx.warm_start);
    }
}

fn store_bundle_block(items: Range<usize>, arrays: &StepArrays) {
    // SAFETY: during a store entry bundles are only read.
    let bundles = unsafe { arrays.bundles.slice(items.clone()) };
    for (bundle, source) in bundles.iter().zip(&arrays.bundle_sources[items]) {
        // SAFETY (both arms): every bundle has its own contacts (the layout's ranges are
        // disjoint and each colour's range is cut into disjoint bundles), and each thread
        // stores its own bundles; the results array is parallel to the contacts.
        match &arrays.impulses {
            Some(out) => {
                store_bundle_impulses_dense(bundle, unsafe { out.slice_mut(source.contacts()) })
            }
            None => store_bundle_impulses(bundle, unsafe {
                arrays.contacts.slice_mut(source.contacts())
            }),
        }
    }
}

fn run_overflow_block(
    stage: Stage,
    items: Range<usize>,
    serial: bool,
    ctx: &StepContext,
    arrays: &StepArrays,
) {
    let contacts =
        arrays.overflow_first_contact + items.start..arrays.overflow_first_contact + items.end;
    let all_bodies = 0..arrays.states.len();
    match stage {
        // SAFETY: in a prepare entry bodies and contacts are only read; each thread writes its
        // own block of overflow constraints.
        Stage::PrepareContacts => unsafe {
            prepare_contacts(
                arrays.contacts.slice(contacts),
                arrays.overflow.slice_mut(items),
                arrays.states.slice(all_bodies),
                &ctx.softness,
                ctx.warm_start,
            )
        },
        // SAFETY: in a store entry the overflow constraints are only read, and each thread
        // writes the contacts (or the results parallel to them) of its own block.
        Stage::StoreImpulses => unsafe {
            let constraints = arrays.overflow.slice(items);
            match &arrays.impulses {
                Some(out) => store_impulses_dense(constraints, out.slice_mut(contacts)),
                None => store_impulses(constraints, arrays.contacts.slice_mut(contacts)),
            }
        },
        _ => {
            // Overflow constraints may share bodies with anything: their passes must be one
            // block, run by one thread while nothing else runs.
            assert!(serial, "an overflow pass must be a single block");
            // SAFETY: this is the only block of the entry, and entries do not overlap in time,
            // so this thread alone touches the bodies and the overflow constraints.
            let (constraints, states) = unsafe {
                (
                    arrays.overflow.slice_mut(items),
                    arrays.states.slice_mut(all_bodies),
                )
            };
            run_overflow_pass(stage, constraints, states, ctx);
        }
    }
}

/// One scalar pass over the overflow constraints.
fn run_overflow_pass(
    stage: Stage,
    constraints: &mut [ContactConstraint],
    states: &mut [BodyState],
    ctx: &StepContext,
) {
    match stage {
        Stage::WarmStart => warm_start_contacts(constraints, states),
        Stage::Solve => match ctx.kind {
            SolverKind::SoftStep => {
                let rows = ctx.friction_passes.biased_solve_rows();
                solve_contacts(constraints, states, &ctx.soft_bias, rows)
            }
            SolverKind::SequentialImpulses => {
                let rows = ContactRows::NormalAndFriction;
                solve_contacts(constraints, states, &ctx.baumgarte_bias, rows)
            }
        },
        Stage::Relax => {
            let rows = ContactRows::NormalAndFriction;
            solve_contacts(constraints, states, &ctx.relax_bias, rows)
        }
        Stage::Restitution => apply_restitution(constraints, states, ctx.restitution_threshold),
        _ => debug_assert!(false, "{stage:?} is not an overflow pass"),
    }
}
