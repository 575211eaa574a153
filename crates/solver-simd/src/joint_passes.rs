//! Joints in the staged step: their blocks in the prepare, warm start, solve and relax stages
//! (the last pass also storing the hinge groups' impulses).
//!
//! The caller hands the solver each colour's joints beside its contacts, and the overflow joints
//! beside the overflow contacts ([`crate::constraints::StepConstraints`]). A colour's joints
//! share no dynamic body with each other or with the colour's contacts (the graph colours joints
//! and contacts together; [`crate::constraints::ColorChecker`] checks both before the step), so
//! they are solved in parallel blocks in an entry of their own just before the colour's contact
//! bundles. The overflow joints are solved one at a time, in one block, before the overflow
//! contacts.
//!
//! ```text
//!   PrepareJoints       each colour's joints, then the overflow's, parallel blocks: frames,
//!                       effective masses, softness; each full group of a colour's hinges
//!                       packed into wide lanes
//!   WarmStart/Solve/Relax
//!       overflow joints (1 block) → overflow contacts → colour 0 joints → colour 0 bundles → …
//!       in the last of them, each hinge group's impulses back into its joints after its pass
//! ```
//!
//! A group of [`LANES`] consecutive joints of a colour that are all revolute runs the wide
//! hinge kernel (`joint/revolute_wide.rs`), one joint per SIMD lane, with the same operations
//! as the scalar kernel in each lane, so the coloured and overflow paths agree to the bit.
//! Other joints — other kinds, a group with another kind in it, a colour's last few joints —
//! run the scalar kernels of [`crate::joint`] (a joint has one to four rows of a
//! kind-dependent shape). The joint entries' blocks are whole groups (`stages.rs`).
//!
//! **A hinge group is packed once per step.** The prepare stage turns each full group of a
//! colour into a [`RevoluteLanes`] (its [`HingeSlot`], in a step-long array beside the contact
//! bundles) and, where some lane has a spring, motor or limit, its [`AngleSettings`]; the
//! twelve velocity passes of a step then read and write those lanes in place, and the last of
//! them writes each group's impulses back into its joints right after solving it (an entry of
//! the store stage did it before, reading every group's lanes once more; either way the cost
//! is the write of each joint's impulse line). Packing the group from its joints at every
//! pass instead (three 8 × 8 transposes of rows read from eight 256-byte records, and the
//! impulses written back after every solve) took about half of the grid's joint passes
//! (`benches/results/NOTES.md`).
//!
//! In the scalar path a joint works on **copies** of its two body states: it reads them with
//! [`SharedSlice::read`] straight into the pair its rows act on, and writes back only the
//! velocities of the bodies with the `DYNAMIC` flag — those the colour invariant reserves to
//! it. A non-dynamic body (kinematic) may be shared by many joints of a colour and is never
//! written, just as the contact scatter never writes one (the wide kernel gathers and
//! scatters through the contacts' `SharedBodies`, which keeps the same rule).
//!
//! What a scalar pass costs per joint is mostly what it loads and the length of its dependency
//! chain, so the path is kept short: the kernel and the kind dispatch are inlined into the
//! block loop (the bodies' copies stay next to the arithmetic), the joint is read as two cache
//! lines (see the layout of [`JointConstraint`]), and the write-back stores only the two
//! velocity fields, which the copies' own narrow stores can forward to. On the grid of hinges
//! this more than halved the time of the joint passes; the wide kernel then took the grid's
//! biased pass from 1.23 to 0.97 ms per step and the ragdolls' from 2.35 to 1.08 ms (both
//! measurements are in `benches/results/NOTES.md`).
//!
//! The soft step prepares with substep `h`; the sequential-impulse step prepares with the whole
//! step and solves the joints in each of its velocity iterations, always with bias (it has no
//! relax pass).

// Unsafe code is confined here: the joint passes read and write the shared arrays by the colour
// invariant; every block has its `// SAFETY:` argument.
#![allow(unsafe_code)]

use crate::gather_scatter::SharedBodies;
use crate::joint::JointConstraint;
use crate::joint::revolute_wide::{AngleSettings, RevoluteLanes};
use crate::joint::rows::JointPair;
use crate::params::SolverKind;
use crate::stages::{Stage, StepContext};
use crate::wide::LANES;
use core::ops::Range;
use core_soa::SharedSlice;
use core_soa::{BodySim, BodyState, NULL_BODY, body_flags};

/// The shared arrays a joint block needs.
pub(crate) struct JointArrays<'s, 'a> {
    pub states: &'s SharedSlice<'a, BodyState>,
    pub sims: &'s SharedSlice<'a, BodySim>,
    pub joints: &'s SharedSlice<'a, JointConstraint>,
    /// For a colour, the step's hinge groups; `None` for the overflow joints.
    pub hinges: Option<HingeArrays<'s, 'a>>,
}

/// One full group of [`LANES`] consecutive joints of a colour, as the prepare stage found it:
/// the hinges' lanes if all of them are revolute joints, else `None` (the scalar kernels run).
pub(crate) type HingeSlot = Option<RevoluteLanes>;

/// Beside each [`HingeSlot`], what its angle rows read: written only where some lane has one
/// (`RevoluteLanes::has_angle_rows`), read only there.
pub(crate) type AngleSlot = Option<AngleSettings>;

/// Every colour's hinge groups, colour after colour, and where one colour's groups start: its
/// group `g` (joints `g·LANES …`) is slot `first + g`.
#[derive(Clone, Copy)]
pub(crate) struct HingeArrays<'s, 'a> {
    pub lanes: &'s SharedSlice<'a, HingeSlot>,
    pub angles: &'s SharedSlice<'a, AngleSlot>,
    pub first: usize,
}

/// Which velocity pass a joint entry runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JointPass {
    WarmStart,
    Solve { use_bias: bool },
}

/// The joint pass of `stage` for the solver kind (`None` for stages joints take no part in).
fn joint_pass(stage: Stage, kind: SolverKind) -> Option<JointPass> {
    match (stage, kind) {
        (Stage::WarmStart, _) => Some(JointPass::WarmStart),
        (Stage::Solve, _) => Some(JointPass::Solve { use_bias: true }),
        (Stage::Relax, SolverKind::SoftStep) => Some(JointPass::Solve { use_bias: false }),
        _ => None,
    }
}

/// Runs block `items` of a [`crate::stages::StageTarget::Joints`] entry: preparation of any
/// joints, or a velocity pass over one colour's joints, after which, with `store` (the last
/// pass, [`crate::stages::StageTarget::JointsThenStore`]), each full hinge group writes its
/// impulses back into its joints. A colour's blocks start at a multiple of [`LANES`]
/// (`stages.rs`).
pub(crate) fn run_joint_block(
    stage: Stage,
    items: Range<usize>,
    store: bool,
    ctx: &StepContext,
    arrays: &JointArrays,
) {
    let groups = items.start / LANES..items.end / LANES;
    // SAFETY: blocks of one entry cover disjoint joints, and so disjoint hinge groups, each
    // handed to one thread; no other entry runs at the same time.
    let (joints, hinges) = unsafe {
        let hinges = arrays.hinges.map(|h| {
            debug_assert_eq!(
                items.start % LANES,
                0,
                "a colour's joint block starts a group"
            );
            let slots = h.first + groups.start..h.first + groups.end;
            (h.lanes.slice_mut(slots.clone()), h.angles.slice_mut(slots))
        });
        (arrays.joints.slice_mut(items), hinges)
    };
    match stage {
        Stage::PrepareJoints => prepare_block(joints, hinges, ctx, arrays),
        _ => {
            let Some(pass) = joint_pass(stage, ctx.kind) else {
                debug_assert!(false, "{stage:?} is not a joint stage");
                return;
            };
            let (lanes, angles) = hinges.unwrap_or_default();
            // SAFETY: the block's joints are this entry's, one colour's (see
            // `run_scalar_passes`): this thread alone accesses their dynamic bodies now.
            unsafe { run_pass_block(joints, (lanes, angles), arrays.states, (pass, store), ctx) }
        }
    }
}

/// Prepares a block of joints, then, for a colour, each full group's hinge lanes (and their
/// angle settings where some lane has angle rows).
fn prepare_block(
    joints: &mut [JointConstraint],
    hinges: Option<(&mut [HingeSlot], &mut [AngleSlot])>,
    ctx: &StepContext,
    arrays: &JointArrays,
) {
    // SAFETY: during a prepare entry no thread writes the sims.
    let sims = unsafe { arrays.sims.slice(0..arrays.sims.len()) };
    for joint in joints.iter_mut() {
        joint.prepare(sims, &ctx.joint);
    }
    let Some((slots, angle_slots)) = hinges else {
        return;
    };
    let (groups, _) = joints.as_chunks::<LANES>();
    for ((group, slot), angle_slot) in groups.iter().zip(slots).zip(angle_slots) {
        debug_assert!(
            group
                .iter()
                .all(|j| j.prepared.joint_softness == ctx.joint.joint_softness)
        );
        *slot = RevoluteLanes::load(group, arrays.states.len()).map(|(lanes, angle)| {
            if angle.is_some() {
                *angle_slot = angle;
            }
            lanes
        });
    }
}

/// Runs `pass` on a colour's block of joints: each full group of hinges on its prepared lanes
/// (`slots`, one per group, with their angle settings), then with `store` its impulses back
/// into its joints; every other joint with the scalar kernels, which write their impulses in
/// place.
///
/// # Safety
/// As [`run_on_shared_bodies`], for every joint of the block: no other thread writes their
/// bodies or accesses a dynamic one while this runs.
unsafe fn run_pass_block(
    joints: &mut [JointConstraint],
    (slots, angles): (&mut [HingeSlot], &mut [AngleSlot]),
    states: &SharedSlice<BodyState>,
    (pass, store): (JointPass, bool),
    ctx: &StepContext,
) {
    let (groups, rest) = joints.as_chunks_mut::<LANES>();
    let mut slots = slots.iter_mut().zip(angles.iter());
    for group in groups {
        match slots.next() {
            Some((Some(lanes), angle)) => {
                // SAFETY: the caller's guarantee, for the group's joints.
                unsafe { run_wide_pass(lanes, angle.as_ref(), states, pass, ctx) };
                if store {
                    lanes.store_impulses(group);
                }
            }
            _ => run_scalar_passes(group, states, pass, ctx),
        }
    }
    run_scalar_passes(rest, states, pass, ctx);
}

/// Runs `pass` on each of `joints` with the scalar kernels.
fn run_scalar_passes(
    joints: &mut [JointConstraint],
    states: &SharedSlice<BodyState>,
    pass: JointPass,
    ctx: &StepContext,
) {
    for joint in joints {
        // SAFETY: the joints of this entry are one colour's, which name no dynamic body twice
        // and share none with the other constraints of the colour (checked before the step);
        // so this thread alone accesses the dynamic bodies of its joints during the entry.
        unsafe { run_on_shared_bodies(joint, states, |j, pair| run_pair_pass(j, pair, pass, ctx)) };
    }
}

/// Runs `pass` on a group of [`LANES`] revolute joints with the wide kernel (one joint per
/// lane), on the lanes the prepare stage built; their impulses stay in the lanes until the
/// last pass stores them ([`run_pass_block`]).
///
/// # Safety
/// As [`run_on_shared_bodies`], for every joint of the group: no other thread writes their
/// bodies or accesses a dynamic one while this runs.
unsafe fn run_wide_pass(
    lanes: &mut RevoluteLanes,
    angle: Option<&AngleSettings>,
    states: &SharedSlice<BodyState>,
    pass: JointPass,
    ctx: &StepContext,
) {
    // SAFETY: the caller's guarantee is `SharedBodies::new`'s contract for these joints' bodies.
    let mut bodies = unsafe { SharedBodies::new(states) };
    match pass {
        JointPass::WarmStart => {
            if ctx.warm_start {
                lanes.warm_start(&mut bodies);
            }
        }
        // The lanes read `angle` only where some lane has angle rows (a slot not written this
        // step is never read).
        JointPass::Solve { use_bias } => lanes.solve(angle, &mut bodies, &ctx.joint, use_bias),
    }
}

/// Runs one velocity pass of the overflow joints, in order, on this thread alone.
pub(crate) fn run_overflow_joint_block(
    stage: Stage,
    items: Range<usize>,
    serial: bool,
    ctx: &StepContext,
    arrays: &JointArrays,
) {
    let Some(pass) = joint_pass(stage, ctx.kind) else {
        debug_assert!(false, "{stage:?} is not a joint stage");
        return;
    };
    // Overflow joints may share bodies with anything: one block, run while nothing else runs.
    assert!(serial, "an overflow joint pass must be a single block");
    // SAFETY: this is the only block of the entry and entries do not overlap in time, so this
    // thread alone touches the bodies and the overflow joints.
    let (joints, states) = unsafe {
        (
            arrays.joints.slice_mut(items),
            arrays.states.slice_mut(0..arrays.states.len()),
        )
    };
    for joint in joints {
        run_pass(joint, states, pass, ctx);
    }
}

fn run_pass(
    joint: &mut JointConstraint,
    states: &mut [BodyState],
    pass: JointPass,
    ctx: &StepContext,
) {
    match pass {
        JointPass::WarmStart => {
            if ctx.warm_start {
                joint.warm_start(states);
            }
        }
        JointPass::Solve { use_bias } => joint.solve(states, &ctx.joint, use_bias),
    }
}

/// Runs the velocity pass on a joint whose bodies are loaded into `pair`.
#[inline]
fn run_pair_pass(
    joint: &mut JointConstraint,
    pair: &mut JointPair,
    pass: JointPass,
    ctx: &StepContext,
) {
    match pass {
        JointPass::WarmStart => {
            if ctx.warm_start {
                joint.warm_start_pair(pair);
            }
        }
        JointPass::Solve { use_bias } => joint.solve_pair(pair, &ctx.joint, use_bias),
    }
}

/// Runs `pass` on `joint` with copies of its two body states read from the shared array, then
/// writes back the velocities of the dynamic ones; the joint itself is only written where its
/// impulses change.
///
/// # Safety
/// While this runs, no other thread may write either body of `joint`, nor access one of them
/// that has the `DYNAMIC` flag.
#[inline]
unsafe fn run_on_shared_bodies(
    joint: &mut JointConstraint,
    states: &SharedSlice<BodyState>,
    pass: impl FnOnce(&mut JointConstraint, &mut JointPair),
) {
    let (index_a, index_b) = joint.body_indices();
    let in_range = |index: u32| index != NULL_BODY && (index as usize) < states.len();
    let load = |index: u32| {
        if in_range(index) {
            // SAFETY: the caller guarantees no other thread writes this body now.
            unsafe { states.read(index as usize) }
        } else {
            BodyState::IDENTITY
        }
    };
    let mut pair = joint.pair_of(load(index_a), load(index_b));
    pass(joint, &mut pair);
    for (index, solved) in [(index_a, &pair.a), (index_b, &pair.b)] {
        if in_range(index) && solved.flags & body_flags::DYNAMIC != 0 {
            let index = index as usize;
            // SAFETY: a dynamic body of this joint is accessed by this thread alone (the
            // caller's guarantee).
            let shared = unsafe { &mut states.slice_mut(index..index + 1)[0] };
            // Only the velocities change in a pass. Storing them field by field (not the whole
            // 32-byte state) also lets the copies' narrow stores forward to these loads.
            shared.linear_velocity = solved.linear_velocity;
            shared.angular_velocity = solved.angular_velocity;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SolverContact;
    use crate::constraints::{ColorRanges, StepConstraints};
    use crate::joint::{JointBody, JointKind, JointParams, RevoluteJoint};
    use core_soa::{Rot, Transform, Vec2};

    fn dynamic(velocity: Vec2) -> BodyState {
        BodyState {
            linear_velocity: velocity,
            flags: body_flags::DYNAMIC,
            ..BodyState::IDENTITY
        }
    }

    /// A hinge between bodies 2 and 0 solved on copies read from the shared array changes the
    /// shared states exactly as solving it on a plain slice does, and leaves body 1 alone.
    #[test]
    fn copies_from_the_shared_array_solve_like_a_plain_slice() {
        let sims: Vec<BodySim> = (0..3)
            .map(|i| BodySim {
                center: Vec2::new(i as f32, 0.0),
                transform: Transform::new(Vec2::new(i as f32, 0.0), Rot::IDENTITY),
                ..BodySim::default()
            })
            .collect();
        let frame = |x: f32| Transform::new(Vec2::new(x, 0.0), Rot::IDENTITY);
        let mut joint = JointConstraint::new(
            JointKind::Revolute(RevoluteJoint::default()),
            JointBody::awake(2, 1.0, 2.0, frame(-1.0)),
            JointBody::awake(0, 0.5, 1.0, frame(1.0)),
        );
        let params = JointParams::for_substep(1.0 / 240.0, 60.0, 2.0, true);
        joint.prepare(&sims, &params);
        let start = [
            dynamic(Vec2::new(0.0, -1.0)),
            dynamic(Vec2::new(3.0, 3.0)),
            dynamic(Vec2::new(1.0, 2.0)),
        ];

        let mut reference_joint = joint;
        let mut reference = start;
        reference_joint.solve(&mut reference, &params, true);

        let mut shared_states = start;
        let shared = SharedSlice::new(&mut shared_states);
        // SAFETY: one thread, nothing else touches the states.
        unsafe {
            run_on_shared_bodies(&mut joint, &shared, |j, pair| {
                j.solve_pair(pair, &params, true)
            });
        }
        assert_eq!(format!("{shared_states:?}"), format!("{reference:?}"));
        assert_eq!(joint, reference_joint);
        assert_eq!(shared_states[1], start[1]);
        assert_ne!(shared_states[0], start[0], "the hinge changed body 0");
    }

    /// A unit link of a hanging chain: 1 kg, inertia 0.1 kg·m², centred at `center`.
    fn link_sim(center: Vec2) -> BodySim {
        BodySim {
            center,
            transform: Transform::new(center, Rot::IDENTITY),
            mass: 1.0,
            inv_mass: 1.0,
            inertia: 0.1,
            inv_inertia: 10.0,
            gravity_scale: 1.0,
            ..BodySim::default()
        }
    }

    /// `steps` steps of the bodies of `sims` (starting at rest, their poses updated in place)
    /// held by `joints`, laid out by `layout`, on `workers` workers; returns the bodies' final
    /// states.
    fn step_joints(
        sims: &mut [BodySim],
        joints: &mut [JointConstraint],
        layout: &ColorRanges,
        workers: usize,
        steps: usize,
    ) -> Vec<BodyState> {
        use crate::{AwakeBodies, ContactSolver, SolverParams, SolverProfile};
        let mut states: Vec<BodyState> = sims.iter().map(|_| dynamic(Vec2::ZERO)).collect();
        let mut solver = ContactSolver::new();
        solver.set_worker_count(workers);
        let mut profile = SolverProfile::default();
        for _ in 0..steps {
            let bodies = AwakeBodies {
                states: &mut states,
                sims,
            };
            let no_contacts = (&ColorRanges::default(), &mut [][..]);
            let constraints: StepConstraints<SolverContact> =
                ColorRanges::constraints(no_contacts, (layout, &mut *joints));
            solver
                .step(&SolverParams::default(), bodies, constraints, &mut profile)
                .unwrap();
        }
        states
    }

    /// Twelve hanging chains of five links whose hinges have every angle row (spring, motor
    /// with a friction torque, limits), stepped with the hinges in two colours — three and more
    /// full groups of the wide kernel per colour, joints of other kinds mixed into one group —
    /// and with the same joints, in the same order, in the overflow set (the scalar kernel, on
    /// one thread): the same bits, on one worker and on two.
    #[test]
    fn wide_hinge_groups_match_the_serial_path() {
        use crate::joint::WeldJoint;
        let (chains, links) = (12u32, 5u32);
        let body = |chain: u32, link: u32| chain * links + link;
        let pivot = |chain: u32| Vec2::new(0.0, -3.0 * chain as f32);
        let hinge = |chain: u32, link: u32| {
            let half = |x: f32| Transform::new(Vec2::new(x, 0.0), Rot::IDENTITY);
            let a = if link == 0 {
                JointBody::fixed(half(0.0), Transform::new(pivot(chain), Rot::IDENTITY))
            } else {
                JointBody::awake(body(chain, link - 1), 1.0, 10.0, half(0.5))
            };
            let b = JointBody::awake(body(chain, link), 1.0, 10.0, half(-0.5));
            let settings = RevoluteJoint {
                enable_spring: !chain.is_multiple_of(3),
                hertz: 2.0,
                damping_ratio: 0.3,
                enable_limit: chain.is_multiple_of(2),
                lower_angle: -0.4,
                upper_angle: 0.3,
                enable_motor: chain % 4 != 1,
                motor_speed: 0.0,
                max_motor_torque: 0.5,
            };
            let kind = if chain == 5 && link == 2 {
                JointKind::Weld(WeldJoint::default())
            } else {
                JointKind::Revolute(settings)
            };
            JointConstraint::new(kind, a, b)
        };
        // Colour 0: the even links of every chain, colour 1 the odd ones.
        let parity = |odd: u32| {
            (0..chains).flat_map(move |c| {
                (0..links)
                    .filter(move |l| l % 2 == odd)
                    .map(move |l| (c, l))
            })
        };
        let run = |colored: bool, workers: usize| {
            let mut sims: Vec<BodySim> = (0..chains * links)
                .map(|i| link_sim(pivot(i / links) + Vec2::new(0.5 + (i % links) as f32, 0.0)))
                .collect();
            let mut joints: Vec<JointConstraint> = parity(0)
                .chain(parity(1))
                .map(|(c, l)| hinge(c, l))
                .collect();
            let (even, all) = (parity(0).count(), joints.len());
            let layout = if colored {
                ColorRanges {
                    colors: vec![0..even, even..all],
                    overflow: all..all,
                }
            } else {
                ColorRanges::overflow_only(all)
            };
            let states = step_joints(&mut sims, &mut joints, &layout, workers, 40);
            let limited = joints
                .iter()
                .filter(|j| j.impulses.lower + j.impulses.upper > 0.0);
            (format!("{states:?} {sims:?} {joints:?}"), limited.count())
        };
        let (serial, limited) = run(false, 1);
        // The chains swing down from horizontal: the limits of the limited chains are reached.
        assert!(limited > 5, "{limited} joints at a limit");
        assert_eq!(run(true, 1).0, serial);
        assert_eq!(run(true, 2).0, serial);
    }

    /// A hanging chain of nine links stepped with its joints in two colours (parallel blocks
    /// on copies of the shared states) and with the same joints, in the same order, in the
    /// overflow set (serial, on the shared array): the same bits, on one worker and on two.
    #[test]
    fn colored_joints_match_the_serial_path_for_any_worker_count() {
        let links = 9;
        let run = |colored: bool, workers: usize| {
            let mut sims: Vec<BodySim> = (0..links)
                .map(|i| link_sim(Vec2::new(0.5 + i as f32, 0.0)))
                .collect();
            let hinge = |i: u32| {
                let half = |x: f32| Transform::new(Vec2::new(x, 0.0), Rot::IDENTITY);
                let a = if i == 0 {
                    JointBody::fixed(half(0.0), Transform::IDENTITY)
                } else {
                    JointBody::awake(i - 1, 1.0, 10.0, half(0.5))
                };
                let b = JointBody::awake(i, 1.0, 10.0, half(-0.5));
                JointConstraint::new(JointKind::Revolute(RevoluteJoint::default()), a, b)
            };
            // Colour 0 holds the even joints, colour 1 the odd ones: neighbours share a body.
            let order = [0, 2, 4, 6, 8, 1, 3, 5, 7];
            let mut joints: Vec<JointConstraint> = order.iter().map(|&i| hinge(i)).collect();
            let layout = if colored {
                ColorRanges {
                    colors: vec![0..5, 5..9],
                    overflow: 9..9,
                }
            } else {
                ColorRanges::overflow_only(links)
            };
            let states = step_joints(&mut sims, &mut joints, &layout, workers, 30);
            let last = sims[links - 1].center;
            (format!("{states:?} {sims:?}"), last)
        };
        let (serial, last) = run(false, 1);
        // Released horizontal, the chain's end falls about as far as a free body would in
        // 0.5 s (g·t²/2 = 1.25 m) while the chain swings in toward the pivot.
        assert!(last.y < -1.0 && last.x < 8.5, "chain end at {last:?}");
        assert_eq!(run(true, 1).0, serial);
        assert_eq!(run(true, 2).0, serial);
    }
}
