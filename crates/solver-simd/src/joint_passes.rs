//! Joints in the staged step: their blocks in the prepare, warm start, solve and relax stages.
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
//!                       effective masses, softness
//!   WarmStart/Solve/Relax
//!       overflow joints (1 block) → overflow contacts → colour 0 joints → colour 0 bundles → …
//! ```
//!
//! Each joint runs the scalar kernels of [`crate::joint`] (a joint has one to four rows of a
//! kind-dependent shape, so lanes of one colour would run different code). In a parallel
//! block a joint works on **copies** of its two body states: it reads them with
//! [`SharedSlice::read`] straight into the pair its rows act on, and writes back only the
//! velocities of the bodies with the `DYNAMIC` flag — those the colour invariant reserves to
//! it. A non-dynamic body (kinematic) may be shared by many joints of a colour and is never
//! written, just as the contact scatter never writes one.
//!
//! What a pass costs per joint is mostly what it loads and the length of its dependency chain,
//! so the path is kept short: the kernel and the kind dispatch are inlined into the block loop
//! (the bodies' copies stay next to the arithmetic), the joint is read as two cache lines (see
//! the layout of [`JointConstraint`]), and the write-back stores only the two velocity fields,
//! which the copies' own narrow stores can forward to. On the grid of hinges this more than
//! halved the time of the joint passes (the measurement is in `benches/results/NOTES.md`).
//! A wide kernel for the revolute point block (eight joints of a colour at once) is the next
//! step; it must reproduce the scalar kernel's operations exactly, since the overflow path and
//! the coloured path are required to agree bit for bit.
//!
//! The soft step prepares with substep `h`; the sequential-impulse step prepares with the whole
//! step and solves the joints in each of its velocity iterations, always with bias (it has no
//! relax pass).

// Unsafe code is confined here: the joint passes read and write the shared arrays by the colour
// invariant; every block has its `// SAFETY:` argument.
#![allow(unsafe_code)]

use crate::joint::JointConstraint;
use crate::joint::rows::JointPair;
use crate::params::SolverKind;
use crate::stages::{Stage, StepContext};
use core::ops::Range;
use core_soa::SharedSlice;
use core_soa::{BodySim, BodyState, NULL_BODY, body_flags};

/// The shared arrays a joint block needs.
pub(crate) struct JointArrays<'s, 'a> {
    pub states: &'s SharedSlice<'a, BodyState>,
    pub sims: &'s SharedSlice<'a, BodySim>,
    pub joints: &'s SharedSlice<'a, JointConstraint>,
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
/// joints, or a velocity pass over one colour's joints.
pub(crate) fn run_joint_block(
    stage: Stage,
    items: Range<usize>,
    ctx: &StepContext,
    arrays: &JointArrays,
) {
    // SAFETY: blocks of one entry cover disjoint joints, each handed to one thread, and no
    // other entry runs at the same time.
    let joints = unsafe { arrays.joints.slice_mut(items) };
    if stage == Stage::PrepareJoints {
        // SAFETY: during a prepare entry no thread writes the sims.
        let sims = unsafe { arrays.sims.slice(0..arrays.sims.len()) };
        for joint in joints {
            joint.prepare(sims, &ctx.joint);
        }
        return;
    }
    let Some(pass) = joint_pass(stage, ctx.kind) else {
        debug_assert!(false, "{stage:?} is not a joint stage");
        return;
    };
    for joint in joints {
        // SAFETY: the joints of this entry are one colour's, which name no dynamic body twice
        // and share none with the other constraints of the colour (checked before the step);
        // so this thread alone accesses the dynamic bodies of its joints during the entry.
        unsafe {
            run_on_shared_bodies(joint, arrays.states, |j, pair| {
                run_pair_pass(j, pair, pass, ctx)
            })
        };
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

    /// A hanging chain of nine links stepped with its joints in two colours (parallel blocks
    /// on copies of the shared states) and with the same joints, in the same order, in the
    /// overflow set (serial, on the shared array): the same bits, on one worker and on two.
    #[test]
    fn colored_joints_match_the_serial_path_for_any_worker_count() {
        use crate::{AwakeBodies, ContactSolver, SolverParams, SolverProfile};
        let links = 9;
        let run = |colored: bool, workers: usize| {
            let mut states: Vec<BodyState> = (0..links).map(|_| dynamic(Vec2::ZERO)).collect();
            let mut sims: Vec<BodySim> = (0..links)
                .map(|i| {
                    let center = Vec2::new(0.5 + i as f32, 0.0);
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
                })
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
            let mut solver = ContactSolver::new();
            solver.set_worker_count(workers);
            let mut profile = SolverProfile::default();
            for _ in 0..30 {
                let bodies = AwakeBodies {
                    states: &mut states,
                    sims: &mut sims,
                };
                let no_contacts = (&ColorRanges::default(), &mut [][..]);
                let constraints: StepConstraints<SolverContact> =
                    ColorRanges::constraints(no_contacts, (&layout, &mut joints));
                let params = SolverParams::default();
                solver
                    .step(&params, bodies, constraints, &mut profile)
                    .unwrap();
            }
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
