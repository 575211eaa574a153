//! Running one block of one stage entry: the bridge from the stage list to the kernels.
//!
//! `StepArrays` holds every array of a step as a [`SharedSlice`] — the body arrays, and per
//! constraint group (each graph colour, then the overflow set) the caller's contact records and
//! joints — and `run_block` picks the kernel for an entry's stage and target and hands it the
//! block's items:
//!
//! | target | prepare / store | warm start, solve, relax, restitution | integrate |
//! |---|---|---|---|
//! | bundles | scalar prepare + pack, per bundle, from its records / the impulses back into them, a piece of a colour per block (`stages::cut_bundle_pieces`) | wide kernels over the block's bundles | — |
//! | overflow | scalar, per block of contacts | scalar, the whole set as one block | — |
//! | bodies | — | — | the block's bodies (and the step's begin pass) |
//! | joints, overflow joints | prepare per joint (parallel), a colour's hinge lanes / — | wide hinge lanes or scalar joint kernels, the last pass storing the lanes' impulses (see [`crate::joint_passes`]) | — |
//!
//! The executor runs the schedule, in which a run of one-block entries of one stage is one
//! fused entry (`stages::fuse_single_blocks`); `run_scheduled` runs such an entry's members one
//! after another, each as its single block, and hands every other entry to `run_block`. The
//! body stages read the velocity terms that the step's first stage, the begin pass, wrote
//! (`integrate.rs`).
//!
//! Each access below states why it cannot race: blocks of one entry cover disjoint items;
//! entries run one after another; within a colour no dynamic body repeats (checked before the
//! step by [`crate::constraints::ColorChecker`], or promised by the caller of the unsafe
//! `ContactSolver::step_unchecked`, and bundles are packed from exactly those records); and an
//! overflow pass is a single block, so it alone touches the bodies.

// Unsafe code is confined here: the stage kernels read and write the shared arrays by the colour
// invariant; every block has its `// SAFETY:` argument.
#![allow(unsafe_code)]

use crate::constraints::ContactRecord;
use crate::contact_constraint::{ContactConstraint, prepare_contacts};
use crate::contact_order::order_colour;
use crate::contact_solver::{
    ContactRows, apply_restitution, solve_contacts, store_impulses, warm_start_contacts,
};
use crate::contact_wide::{
    ContactBundle, prepare_bundle_in_place, restitution_bundles, solve_bundles,
    store_bundle_impulses, warm_start_bundles,
};
use crate::gather_scatter::SharedBodies;
use crate::integrate::{VelocityTerms, begin_step, integrate_positions, integrate_velocities};
use crate::joint::JointConstraint;
use crate::joint_passes::{
    AngleSlot, HingeArrays, HingeSlot, JointArrays, run_joint_block, run_overflow_joint_block,
};
use crate::params::SolverKind;
use crate::stages::{BundlePiece, Stage, StageEntry, StageTarget, StepContext};
use crate::wide::LANES;
use core::ops::Range;
use core_soa::SharedSlice;
use core_soa::{BodySim, BodyState};

/// Where a bundle's contacts are: records of colour `group`, at the `lane_count` positions
/// the colour's contact order (`StepArrays::contact_orders`) lists from `first` on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BundleSource {
    pub group: u32,
    pub first: u32,
    pub lane_count: u32,
}

impl BundleSource {
    /// The bundle's lanes in the step's contact order.
    pub fn lanes(self) -> Range<usize> {
        let first = self.first as usize;
        first..first + self.lane_count as usize
    }
}

/// The arrays of one step, shared by its threads.
pub(crate) struct StepArrays<'a, C> {
    pub states: SharedSlice<'a, BodyState>,
    pub sims: SharedSlice<'a, BodySim>,
    /// The bodies' velocity terms of the step (`integrate.rs`), parallel to the states.
    pub velocity_terms: SharedSlice<'a, VelocityTerms>,
    /// Per group — each colour in order, then the overflow set — the contact records.
    pub contacts: Vec<SharedSlice<'a, C>>,
    /// Per group, the joints.
    pub joints: Vec<SharedSlice<'a, JointConstraint>>,
    /// Every colour's full groups of joints, colour after colour: built by the joint prepare
    /// stage, solved in place, stored back by the last velocity pass (`joint_passes.rs`).
    pub hinges: SharedSlice<'a, HingeSlot>,
    /// Beside each hinge group, its angle settings (where some lane has angle rows).
    pub hinge_angles: SharedSlice<'a, AngleSlot>,
    /// Per colour, its first slot in `hinges`.
    pub color_hinges: &'a [u32],
    pub bundles: SharedSlice<'a, ContactBundle>,
    /// The prepared overflow contacts; constraint `i` is record `i` of the overflow group.
    pub overflow: SharedSlice<'a, ContactConstraint>,
    pub bundle_sources: &'a [BundleSource],
    /// The pieces of the prepare and store entries (`stages::cut_bundle_pieces`).
    pub bundle_pieces: &'a [BundlePiece],
    /// Per colour, its record positions in the order its bundles take them
    /// (`contact_order.rs`): written by the order stage, read by prepare and store.
    pub contact_orders: Vec<SharedSlice<'a, u32>>,
    /// The colours the order stage orders this step, one per item.
    pub colors_to_order: &'a [u32],
    /// Per colour, the order stage's scratch.
    pub order_buckets: Vec<SharedSlice<'a, u16>>,
}

impl<C> StepArrays<'_, C> {
    /// The index of the overflow group (after the colours).
    pub fn overflow_group(&self) -> usize {
        self.contacts.len() - 1
    }
}

/// Runs block `block` of `entry`, an entry of the schedule: a fused entry runs its members
/// (entries of `members`, the step's entry list) one after another.
pub(crate) fn run_scheduled<C: ContactRecord>(
    entry: &StageEntry,
    block: u32,
    members: &[StageEntry],
    ctx: &StepContext,
    arrays: &StepArrays<C>,
) {
    if entry.target != StageTarget::Fused {
        return run_block(entry, block, ctx, arrays);
    }
    for member in &members[entry.items.start as usize..entry.items.end as usize] {
        debug_assert_eq!(member.block_count(), 1);
        run_block(member, 0, ctx, arrays);
    }
}

/// Runs block `block` of `entry`.
pub(crate) fn run_block<C: ContactRecord>(
    entry: &StageEntry,
    block: u32,
    ctx: &StepContext,
    arrays: &StepArrays<C>,
) {
    let items = entry.block(block);
    match entry.target {
        StageTarget::Bodies => run_body_block(entry.stage, items, ctx, arrays),
        StageTarget::Colors => order_colour_block(items, arrays),
        StageTarget::Bundles => run_bundle_block(entry.stage, items, ctx, arrays),
        StageTarget::BundlePieces => {
            for piece in &arrays.bundle_pieces[items] {
                let bundles = piece.bundles.start as usize..piece.bundles.end as usize;
                run_bundle_block(entry.stage, bundles, ctx, arrays);
            }
        }
        StageTarget::Overflow => {
            let serial = entry.block_count() == 1;
            run_overflow_block(entry.stage, items, serial, ctx, arrays)
        }
        StageTarget::Joints | StageTarget::JointsThenStore => {
            let joints = joint_arrays(arrays, entry_group(entry));
            let store = entry.target == StageTarget::JointsThenStore;
            run_joint_block(entry.stage, items, store, ctx, &joints)
        }
        StageTarget::OverflowJoints => {
            let serial = entry.block_count() == 1;
            let joints = joint_arrays(arrays, arrays.overflow_group());
            run_overflow_joint_block(entry.stage, items, serial, ctx, &joints)
        }
        StageTarget::Fused => debug_assert!(false, "a fused entry is run by run_scheduled"),
    }
}

/// The constraint group an entry works on.
fn entry_group(entry: &StageEntry) -> usize {
    entry.color.map_or(0, |group| group as usize)
}

fn joint_arrays<'s, 'a, C>(arrays: &'s StepArrays<'a, C>, group: usize) -> JointArrays<'s, 'a> {
    let first_hinge = arrays.color_hinges.get(group);
    JointArrays {
        states: &arrays.states,
        sims: &arrays.sims,
        joints: &arrays.joints[group],
        hinges: first_hinge.map(|&first| HingeArrays {
            lanes: &arrays.hinges,
            angles: &arrays.hinge_angles,
            first: first as usize,
        }),
    }
}

fn run_body_block<C>(stage: Stage, items: Range<usize>, ctx: &StepContext, arrays: &StepArrays<C>) {
    if stage == Stage::BeginStep {
        return begin_body_block(items, ctx, arrays);
    }
    // SAFETY: body stages give each thread a disjoint block of bodies, and no other entry runs
    // at the same time; the velocity terms are written only by the begin pass, an earlier
    // entry.
    let (states, terms) = unsafe {
        (
            arrays.states.slice_mut(items.clone()),
            arrays.velocity_terms.slice(items),
        )
    };
    match stage {
        Stage::IntegrateVelocities => integrate_velocities(states, terms, &ctx.velocity),
        Stage::IntegratePositions => integrate_positions(states, ctx.h),
        _ => debug_assert!(false, "{stage:?} is not a body stage"),
    }
}

/// The begin pass over a block of bodies: the only stage that writes the body sims and the
/// velocity terms.
fn begin_body_block<C>(items: Range<usize>, ctx: &StepContext, arrays: &StepArrays<C>) {
    // SAFETY: each thread holds a disjoint block of bodies, and no other entry runs at the same
    // time; the block's states, sims and terms are those of the same bodies.
    let (states, sims, terms) = unsafe {
        (
            arrays.states.slice_mut(items.clone()),
            arrays.sims.slice_mut(items.clone()),
            arrays.velocity_terms.slice_mut(items),
        )
    };
    begin_step(states, sims, Some((terms, &ctx.velocity)));
}

fn run_bundle_block<C: ContactRecord>(
    stage: Stage,
    items: Range<usize>,
    ctx: &StepContext,
    arrays: &StepArrays<C>,
) {
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

fn order_colour_block<C: ContactRecord>(items: Range<usize>, arrays: &StepArrays<C>) {
    for &color in &arrays.colors_to_order[items] {
        let color = color as usize;
        let group = &arrays.contacts[color];
        let (order, buckets) = (&arrays.contact_orders[color], &arrays.order_buckets[color]);
        // SAFETY: during the order entry records are only read, and each block writes the
        // order and scratch of its own colours (each colour is listed once).
        let (contacts, order, buckets) = unsafe {
            (
                group.slice(0..group.len()),
                order.slice_mut(0..order.len()),
                buckets.slice_mut(0..buckets.len()),
            )
        };
        order_colour(contacts, arrays.states.len(), order, buckets);
    }
}

fn prepare_bundle_block<C: ContactRecord>(
    items: Range<usize>,
    ctx: &StepContext,
    arrays: &StepArrays<C>,
) {
    // SAFETY: during a prepare entry no thread writes bodies or contact records, and each
    // thread writes its own disjoint block of bundles.
    let (states, bundles) = unsafe {
        (
            arrays.states.slice(0..arrays.states.len()),
            arrays.bundles.slice_mut(items.clone()),
        )
    };
    for (bundle, source) in bundles.iter_mut().zip(&arrays.bundle_sources[items]) {
        let group = &arrays.contacts[source.group as usize];
        let order = &arrays.contact_orders[source.group as usize];
        // SAFETY: the order is written only by its own entry, before this one.
        let lanes = unsafe { order.slice(source.lanes()) };
        // Lanes past the bundle's last repeat it; only the first `lanes.len()` are used.
        let position = |lane: usize| lanes[lane.min(lanes.len() - 1)] as usize;
        // SAFETY: contact records are only read during a prepare entry.
        let records: [&C; LANES] =
            core::array::from_fn(|lane| unsafe { group.get(position(lane)) });
        let contacts = &records[..lanes.len()];
        prepare_bundle_in_place(bundle, contacts, states, &ctx.softness, ctx.warm_start);
    }
}

fn store_bundle_block<C: ContactRecord>(items: Range<usize>, arrays: &StepArrays<C>) {
    // SAFETY: during a store entry bundles are only read.
    let bundles = unsafe { arrays.bundles.slice(items.clone()) };
    for (bundle, source) in bundles.iter().zip(&arrays.bundle_sources[items]) {
        let group = &arrays.contacts[source.group as usize];
        let order = &arrays.contact_orders[source.group as usize];
        // SAFETY: the order is written only by its own entry, before this one.
        let lanes = unsafe { order.slice(source.lanes()) };
        // SAFETY: every bundle has its own records (a colour's order names each of its records
        // once, and the colour is cut into disjoint runs of it), and each thread stores its own
        // bundles.
        let records = lanes.iter().map(|&p| unsafe { group.get_mut(p as usize) });
        store_bundle_impulses(bundle, records);
    }
}

fn run_overflow_block<C: ContactRecord>(
    stage: Stage,
    items: Range<usize>,
    serial: bool,
    ctx: &StepContext,
    arrays: &StepArrays<C>,
) {
    let records = &arrays.contacts[arrays.overflow_group()];
    let all_bodies = 0..arrays.states.len();
    match stage {
        // SAFETY: in a prepare entry bodies and records are only read; each thread writes its
        // own block of overflow constraints.
        Stage::PrepareContacts => unsafe {
            prepare_contacts(
                records.slice(items.clone()),
                arrays.overflow.slice_mut(items),
                arrays.states.slice(all_bodies),
                &ctx.softness,
                ctx.warm_start,
            )
        },
        // SAFETY: in a store entry the overflow constraints are only read, and each thread
        // writes the records of its own block.
        Stage::StoreImpulses => unsafe {
            store_impulses(
                arrays.overflow.slice(items.clone()),
                records.slice_mut(items),
            )
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
