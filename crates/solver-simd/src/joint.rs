//! Joint constraints: distance, revolute, prismatic, weld, wheel, motor and target joints,
//! solved in the soft step alongside contacts.
//!
//! ## What a joint is here
//!
//! A joint connects two bodies through one *frame* on each: a point and an orientation fixed in
//! the body, given relative to the body's centre of mass ([`JointBody::local_frame`]). Every
//! kind constrains the pose of frame B relative to frame A:
//!
//! | kind | removes | optional rows |
//! |---|---|---|
//! | [`DistanceJoint`] | distance between the frame origins (or makes it a spring) | min/max limits, motor |
//! | [`RevoluteJoint`] | the two origins coincide | angle spring, angle limits, motor |
//! | [`PrismaticJoint`] | B's origin stays on A's x axis, no relative rotation | translation spring, limits, motor |
//! | [`WeldJoint`] | origins coincide, no relative rotation (each part rigid or a spring) | |
//! | [`WheelJoint`] | B's origin stays on A's x axis | suspension spring, limits, rotation motor |
//! | [`MotorJoint`] | drives B toward an offset pose relative to A with bounded force/torque | |
//! | [`TargetJoint`] | pulls a point of B toward a world target with a bounded spring | |
//!
//! The *joint angle* is the relative angle of the frames, `(θB + φB) − (θA + φA)` with `φ` the
//! frames' orientations in their bodies; a reference angle `θref` (the angle at which the joint
//! counts as zero) is expressed by `φA = 0, φB = −θref`. Axes (prismatic, wheel) are frame A's x
//! axis.
//!
//! ## The passes
//!
//! The functions mirror the contact passes and run at the same places in the soft step:
//!
//! ```text
//!   begin_step → prepare_joints → per substep: integrate v → warm_start_joints →
//!   solve_joints(use_bias = true) → integrate x → solve_joints(use_bias = false)
//! ```
//!
//! - [`prepare_joints`] (once a step, after the step's start pose has been recorded) rotates the
//!   frames into the world, records the centre-to-centre vector and the joint angle at the start
//!   of the step, and computes the effective masses and softnesses. Position errors within the
//!   step are then tracked from the bodies' `Δp`/`Δq`, as contacts track separation (see
//!   `joint/rows.rs`).
//! - [`warm_start_joints`] applies the accumulated impulses again at the start of each substep.
//! - [`solve_joints`] runs every row once. Point (equality) rows are soft with the world's joint
//!   softness in the biased pass and rigid without position feedback in the relax pass; springs
//!   are soft in both (they are part of the model, not an error correction); motors are rigid
//!   velocity rows with a bounded accumulated impulse; limits are speculative while open and
//!   soft/rigid like equality rows once reached. Within a joint the rows run from the least
//!   to the most important — spring, motor, limits, then the equality rows — so that the
//!   equality rows have the last word in every iteration.
//!
//! ## Impulses, forces and what persists
//!
//! Accumulated impulses ([`JointImpulses`]) are per substep, like the contacts': an impulse that
//! holds a weight for `h` seconds. They persist across steps for warm starting — a caller keeps
//! each joint's `impulses` between steps (or keeps the whole [`JointConstraint`]) and hands them
//! back. Preparation drops the impulses of rows the current settings do not solve (a motor,
//! limit or spring switched off since the last step), which would otherwise go on being warm
//! started with nothing to correct them. The force and torque the joint applies to body B are
//! the impulses over the substep, `λ/h` ([`JointConstraint::reaction`]); breakable joints
//! compare them with their thresholds after the step.
//!
//! ## Mass ratios
//!
//! An iterative solver propagates impulses well only between bodies of similar *effective* mass
//! at the joint: a body's resistance to a push at distance `d` from its centre of mass is
//! `1/(1/m + d²/I)`, which a small inertia makes tiny however heavy the body is. A chain that
//! pairs a heavy body with a light, thin one converges slowly and stretches.
//! [`effective_mass_ratio`] reports that ratio per joint so that a caller can list the joints
//! worth fixing (by raising the light body's inertia two- to four-fold, or its mass).

pub mod distance;
pub mod motor;
pub mod prismatic;
pub mod revolute;
pub(crate) mod revolute_wide;
pub(crate) mod rows;
pub mod target;
pub mod weld;
pub mod wheel;

#[cfg(test)]
mod tests;

pub use distance::DistanceJoint;
pub use motor::MotorJoint;
pub use prismatic::PrismaticJoint;
pub use revolute::RevoluteJoint;
pub use target::TargetJoint;
pub use weld::WeldJoint;
pub use wheel::WheelJoint;

use crate::contact_constraint::{checked_body_index, state_or_identity};
use crate::params::SolverParams;
use crate::softness::Softness;
use core_soa::{BodySim, BodyState, NULL_BODY, Rot, Transform, Vec2};
use rows::JointPair;

/// One side of a joint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointBody {
    /// Index into the awake `states`/`sims` arrays, or [`NULL_BODY`] for a body that is not
    /// simulated (static).
    pub index: u32,
    /// Inverse mass (0 for static and kinematic bodies).
    pub inv_mass: f32,
    /// Inverse rotational inertia about the centre of mass (0 for fixed rotation).
    pub inv_inertia: f32,
    /// The joint frame in body coordinates: `p` from the centre of mass to the anchor, `q` the
    /// frame's orientation relative to the body.
    pub local_frame: Transform,
    /// World centre of mass (`p`) and rotation (`q`) of a body that is not in the awake arrays;
    /// ignored when `index` names an awake body (the pose is read from its `BodySim`).
    pub fixed_pose: Transform,
}

impl JointBody {
    /// An awake body at `index` with the given inverse mass and inertia.
    pub fn awake(index: u32, inv_mass: f32, inv_inertia: f32, local_frame: Transform) -> Self {
        JointBody {
            index,
            inv_mass,
            inv_inertia,
            local_frame,
            fixed_pose: Transform::IDENTITY,
        }
    }

    /// A static body whose centre of mass and rotation are `pose`.
    pub fn fixed(pose: Transform, local_frame: Transform) -> Self {
        JointBody {
            index: NULL_BODY,
            inv_mass: 0.0,
            inv_inertia: 0.0,
            local_frame,
            fixed_pose: pose,
        }
    }

    /// The world centre of mass and rotation of this body at the start of the step.
    fn pose(&self, sims: &[BodySim]) -> Transform {
        match sims.get(self.index as usize) {
            Some(sim) if self.index != NULL_BODY => Transform::new(sim.center, sim.transform.q),
            _ => self.fixed_pose,
        }
    }

    fn masses(&self) -> (u32, f32, f32) {
        (self.index, self.inv_mass, self.inv_inertia)
    }

    /// True when no impulse can move this body.
    fn is_immovable(&self) -> bool {
        self.inv_mass == 0.0 && self.inv_inertia == 0.0
    }
}

/// The kind of a joint and its settings. The World may change settings between steps (motor
/// speed, target, spring frequency); they take effect at the next [`prepare_joints`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JointKind {
    /// A rod, spring or rope between the anchors.
    Distance(DistanceJoint),
    /// A hinge.
    Revolute(RevoluteJoint),
    /// A slider along an axis fixed in body A.
    Prismatic(PrismaticJoint),
    /// A rigid or soft weld.
    Weld(WeldJoint),
    /// A wheel on a suspension axis, free to turn.
    Wheel(WheelJoint),
    /// Drives body B toward an offset pose with bounded force and torque.
    Motor(MotorJoint),
    /// Pulls anchor B toward a world target.
    Target(TargetJoint),
}

/// The accumulated impulses of one joint (per substep). They persist across steps for warm
/// starting. Which slots a kind uses:
///
/// | kind | `linear` | `angular` | `spring` | `motor` | `lower`/`upper` |
/// |---|---|---|---|---|---|
/// | distance | x: rigid length row | | length spring | motor | length limits |
/// | revolute | point | | angle spring | motor | angle limits |
/// | prismatic | x: perpendicular | relative angle | spring | motor | translation limits |
/// | weld | point | relative angle | | | |
/// | wheel | x: perpendicular | | suspension | rotation motor | translation limits |
/// | motor | point (bounded) | angle (bounded) | | | |
/// | target | point (bounded) | angular damping | | | |
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct JointImpulses {
    /// Impulse of the point or perpendicular rows (N·s, per substep; x only for one-row kinds).
    pub linear: Vec2,
    /// Impulse of the angular row (N·m·s).
    pub angular: f32,
    /// Impulse of the spring row.
    pub spring: f32,
    /// Impulse of the motor row.
    pub motor: f32,
    /// Impulse of the lower limit row (≥ 0).
    pub lower: f32,
    /// Impulse of the upper limit row (≥ 0).
    pub upper: f32,
}

/// The two bodies as the velocity passes see them: indices into the awake arrays (checked at
/// preparation: an index outside the arrays becomes [`NULL_BODY`]) and inverse masses. They
/// are copied from [`JointBody`] at preparation so that a pass finds everything a point block
/// needs in one cache line of [`JointPrepared`]; the default names no body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PreparedBodies {
    /// Body A's index in the awake arrays, or [`NULL_BODY`].
    pub index_a: u32,
    /// Body B's index in the awake arrays, or [`NULL_BODY`].
    pub index_b: u32,
    /// Body A's inverse mass (1/kg; 0 when it does not move under impulses).
    pub inv_mass_a: f32,
    /// Body A's inverse rotational inertia (1/(kg·m²)).
    pub inv_inertia_a: f32,
    /// Body B's inverse mass (1/kg).
    pub inv_mass_b: f32,
    /// Body B's inverse rotational inertia (1/(kg·m²)).
    pub inv_inertia_b: f32,
}

impl Default for PreparedBodies {
    fn default() -> Self {
        PreparedBodies {
            index_a: NULL_BODY,
            index_b: NULL_BODY,
            inv_mass_a: 0.0,
            inv_inertia_a: 0.0,
            inv_mass_b: 0.0,
            inv_inertia_b: 0.0,
        }
    }
}

/// What preparation computes once per step. Which fields a kind reads is documented on the kind.
///
/// The layout is fixed (`repr(C)`, cache-line aligned): the first 64 bytes hold what every
/// velocity pass of a point block reads — the bodies, both anchors, the centre difference, the
/// joint softness and the angular mass — so that a plain hinge streams one line of prepared
/// data per pass; the fields only some kinds or rows read follow in the second line.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct JointPrepared {
    /// Body indices and inverse masses, as the passes read them.
    pub bodies: PreparedBodies,
    /// Frame A's origin from A's centre of mass, world orientation at the step start.
    pub anchor_a: Vec2,
    /// Frame B's origin from B's centre of mass, world orientation at the step start.
    pub anchor_b: Vec2,
    /// `cB₀ − cA₀` (for a target joint, `cB₀ − target`).
    pub delta_center: Vec2,
    /// Softness of the equality rows in the biased pass.
    pub joint_softness: Softness,
    /// `1/(IA⁻¹ + IB⁻¹)`, or 0 when neither body can rotate.
    pub angular_mass: f32,
    /// Frame A's x axis in the world at the step start (prismatic/wheel axis); for a distance
    /// joint, the unit vector from anchor A to anchor B.
    pub axis: Vec2,
    /// The joint angle at the step start minus the angle the joint drives toward (reference or
    /// offset), in (−π, π]; 0 for a revolute joint with neither spring nor limits, which has no
    /// row that reads it (and so skips its `atan2`).
    pub delta_angle: f32,
    /// Softness of a spring row (or of a weld's linear part, or a target's pull).
    pub spring_softness: Softness,
    /// Softness of a weld's angular part or a target's angular damping.
    pub angular_softness: Softness,
    /// Effective mass of a distance joint's length row. (Prismatic and wheel joints recompute
    /// theirs from the current lever arms at every row, since their arms grow with the
    /// translation.)
    pub axial_mass: f32,
}

// The point-block fields fill the first cache line exactly; the rest starts the second.
const _: () = assert!(std::mem::offset_of!(JointPrepared, axis) == 64);

/// The step constants the joint passes read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointParams {
    /// Substep (s).
    pub h: f32,
    /// `1/h`, or 0 for a step that moves nothing.
    pub inv_h: f32,
    /// Softness of the equality rows in the biased pass.
    pub joint_softness: Softness,
    /// Keep the carried impulses; otherwise preparation zeroes them.
    pub enable_warm_starting: bool,
}

impl JointParams {
    /// The joint constants of a soft step with `params`: `h = dt / substeps`, the joint
    /// softness from `joint_hertz` and `joint_damping_ratio`, the same for every joint (a joint
    /// to the ground has no more damping than one between two bodies: extra damping there would
    /// drain a pendulum's energy). A non-finite or non-positive `dt`
    /// gives `h = 0` and `inv_h = 0`: such a step moves nothing and must not run the joint
    /// passes (the solver skips it, see [`crate::ContactSolver::step`]).
    pub fn new(params: &SolverParams) -> JointParams {
        let h = if params.has_valid_dt() {
            params.dt / params.substep_count() as f32
        } else {
            0.0
        };
        JointParams::for_substep(
            h,
            params.joint_hertz,
            params.joint_damping_ratio,
            params.enable_warm_starting,
        )
    }

    /// The joint constants for substep `h` with the joint spring `hertz`, `damping_ratio`.
    pub fn for_substep(
        h: f32,
        hertz: f32,
        damping_ratio: f32,
        enable_warm_starting: bool,
    ) -> JointParams {
        let valid = h.is_finite() && h > 0.0;
        let h = if valid { h } else { 0.0 };
        JointParams {
            h,
            inv_h: if valid { 1.0 / h } else { 0.0 },
            joint_softness: Softness::new(hertz, damping_ratio, h),
            enable_warm_starting,
        }
    }
}

/// What a pass over one joint reads besides its impulses and bodies: the joint's prepared data
/// and the pass's constants.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PassContext<'a> {
    pub prepared: &'a JointPrepared,
    pub h: f32,
    pub inv_h: f32,
    pub use_bias: bool,
}

/// The force (N) and torque (N·m) a joint applied to body B over the last step; body A received
/// the opposite force (and the torque of the opposite force about its own anchor).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct JointReaction {
    /// Force on body B (N, world frame).
    pub force: Vec2,
    /// Torque on body B (N·m).
    pub torque: f32,
}

impl JointReaction {
    /// True when the force's magnitude exceeds `max_force` or the torque's exceeds
    /// `max_torque`: the test a breakable joint applies after each step.
    pub fn exceeds(&self, max_force: f32, max_torque: f32) -> bool {
        self.force.length_squared() > max_force * max_force || self.torque.abs() > max_torque
    }
}

/// One joint constraint: bodies, kind, prepared data and accumulated impulses.
///
/// The layout is fixed so that a velocity pass over a joint reads two whole cache lines and
/// no more for a plain hinge: the first holds the kind (its tag and settings) and the
/// accumulated impulses, the second the point-block part of [`JointPrepared`]. The bodies'
/// definitions (frames, fixed poses), read only at preparation, come last.
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointConstraint {
    /// Which kind of joint this is, with its settings.
    pub kind: JointKind,
    /// Accumulated impulses: carried in from the last step, carried out to the next.
    pub impulses: JointImpulses,
    /// The caller's name for this joint (its index in the caller's joint table): the solver
    /// never reads it. It also fills the first cache line, so that the prepared data starts the
    /// second.
    pub handle: u32,
    /// Filled by [`prepare_joints`].
    pub prepared: JointPrepared,
    /// Body A as the joint sees it (index, mass, frame).
    pub body_a: JointBody,
    /// Body B as the joint sees it (index, mass, frame).
    pub body_b: JointBody,
}

// The kind and the impulses share the first cache line; the prepared data starts the second;
// the whole record is four lines.
const _: () = assert!(std::mem::offset_of!(JointConstraint, prepared) == 64);
const _: () = assert!(std::mem::size_of::<JointConstraint>() == 256);

impl JointConstraint {
    /// A joint with no carried impulses.
    pub fn new(kind: JointKind, body_a: JointBody, body_b: JointBody) -> JointConstraint {
        JointConstraint {
            body_a,
            body_b,
            kind,
            impulses: JointImpulses::default(),
            handle: 0,
            prepared: JointPrepared::default(),
        }
    }

    /// Prepares the joint for a step whose start pose is in `sims` (see [`prepare_joints`]).
    pub fn prepare(&mut self, sims: &[BodySim], params: &JointParams) {
        self.body_a.index = checked_body_index(self.body_a.index, sims.len());
        self.body_b.index = checked_body_index(self.body_b.index, sims.len());
        self.prepared = self.prepare_frames(sims, params);
        self.impulses = if params.enable_warm_starting {
            self.used_impulses()
        } else {
            JointImpulses::default()
        };
        let pair = JointPair::at_rest(self.body_a.masses(), self.body_b.masses());
        let prepared = &mut self.prepared;
        match &self.kind {
            JointKind::Distance(j) => j.prepare(prepared, &pair, params),
            JointKind::Revolute(j) => j.prepare(prepared, params),
            JointKind::Prismatic(j) => j.prepare(prepared, params),
            JointKind::Weld(j) => j.prepare(prepared, params),
            JointKind::Wheel(j) => j.prepare(prepared, params),
            JointKind::Motor(j) => j.prepare(prepared, &self.body_a, sims),
            JointKind::Target(j) => j.prepare(prepared, &self.body_b, sims, params),
        }
    }

    /// The carried impulses of the rows the current settings solve. A row switched off between
    /// steps (a motor, a limit, a spring) would otherwise keep being warm started with its last
    /// impulse although nothing solves it any more.
    fn used_impulses(&self) -> JointImpulses {
        let i = &self.impulses;
        match &self.kind {
            JointKind::Distance(j) => j.used_impulses(i),
            JointKind::Revolute(j) => j.used_impulses(i),
            JointKind::Prismatic(j) => j.used_impulses(i),
            JointKind::Wheel(j) => j.used_impulses(i),
            JointKind::Weld(_) | JointKind::Motor(_) | JointKind::Target(_) => JointImpulses {
                linear: i.linear,
                angular: i.angular,
                ..JointImpulses::default()
            },
        }
    }

    /// False for the one case with no row that reads the joint angle: a revolute joint with
    /// neither spring nor limits (its motor reads only the angular velocity).
    fn reads_joint_angle(&self) -> bool {
        match &self.kind {
            JointKind::Revolute(j) => j.needs_angle(),
            _ => true,
        }
    }

    /// The frame data every kind shares: the bodies' (already checked) indices and masses,
    /// world anchors and axis, centre difference, joint angle, joint softness and angular mass.
    fn prepare_frames(&self, sims: &[BodySim], params: &JointParams) -> JointPrepared {
        let pose_a = self.body_a.pose(sims);
        let pose_b = self.body_b.pose(sims);
        let frame_rotation_a = pose_a.q.mul(self.body_a.local_frame.q);
        let frame_rotation_b = pose_b.q.mul(self.body_b.local_frame.q);
        JointPrepared {
            bodies: PreparedBodies {
                index_a: self.body_a.index,
                index_b: self.body_b.index,
                inv_mass_a: self.body_a.inv_mass,
                inv_inertia_a: self.body_a.inv_inertia,
                inv_mass_b: self.body_b.inv_mass,
                inv_inertia_b: self.body_b.inv_inertia,
            },
            anchor_a: pose_a.q.rotate(self.body_a.local_frame.p),
            anchor_b: pose_b.q.rotate(self.body_b.local_frame.p),
            axis: frame_rotation_a.x_axis(),
            delta_center: pose_b.p - pose_a.p,
            delta_angle: if self.reads_joint_angle() {
                Rot::relative_angle(frame_rotation_a, frame_rotation_b)
            } else {
                0.0
            },
            joint_softness: params.joint_softness,
            spring_softness: Softness::RIGID,
            angular_softness: Softness::RIGID,
            axial_mass: 0.0,
            angular_mass: rows::inverse_or_zero(self.body_a.inv_inertia + self.body_b.inv_inertia),
        }
    }

    /// The prepared body indices, `(a, b)`.
    #[inline]
    pub(crate) fn body_indices(&self) -> (u32, u32) {
        (self.prepared.bodies.index_a, self.prepared.bodies.index_b)
    }

    fn load(&self, states: &[BodyState]) -> JointPair {
        let (index_a, index_b) = self.body_indices();
        self.pair_of(
            state_or_identity(states, index_a),
            state_or_identity(states, index_b),
        )
    }

    /// The pair this joint's rows act on, with the two bodies' states as given (identity for
    /// a side that is not simulated) and the prepared inverse masses.
    #[inline]
    pub(crate) fn pair_of(&self, state_a: BodyState, state_b: BodyState) -> JointPair {
        let bodies = &self.prepared.bodies;
        JointPair {
            a: state_a,
            b: state_b,
            inv_mass_a: bodies.inv_mass_a,
            inv_inertia_a: bodies.inv_inertia_a,
            inv_mass_b: bodies.inv_mass_b,
            inv_inertia_b: bodies.inv_inertia_b,
        }
    }

    /// Applies the accumulated impulses to the bodies (start of a substep).
    pub fn warm_start(&self, states: &mut [BodyState]) {
        let mut pair = self.load(states);
        self.warm_start_pair(&mut pair);
        let (index_a, index_b) = self.body_indices();
        pair.store(states, index_a, index_b);
    }

    /// [`JointConstraint::warm_start`] on bodies already loaded into `pair`. Always inlined: in
    /// the block loop the pair then stays next to the arithmetic instead of crossing a call.
    #[inline(always)]
    pub(crate) fn warm_start_pair(&self, pair: &mut JointPair) {
        let (p, i) = (&self.prepared, &self.impulses);
        match &self.kind {
            JointKind::Distance(j) => j.warm_start(p, i, pair),
            JointKind::Revolute(j) => j.warm_start(p, i, pair),
            JointKind::Prismatic(j) => j.warm_start(p, i, pair),
            JointKind::Weld(j) => j.warm_start(p, i, pair),
            JointKind::Wheel(j) => j.warm_start(p, i, pair),
            JointKind::Motor(j) => j.warm_start(p, i, pair),
            JointKind::Target(j) => j.warm_start(p, i, pair),
        }
    }

    /// Solves every row of the joint once; `use_bias` selects the biased pass (soft position
    /// feedback) or the relax pass (rigid, none).
    pub fn solve(&mut self, states: &mut [BodyState], params: &JointParams, use_bias: bool) {
        let mut pair = self.load(states);
        self.solve_pair(&mut pair, params, use_bias);
        let (index_a, index_b) = self.body_indices();
        pair.store(states, index_a, index_b);
    }

    /// [`JointConstraint::solve`] on bodies already loaded into `pair` (always inlined, as
    /// [`JointConstraint::warm_start_pair`]).
    #[inline(always)]
    pub(crate) fn solve_pair(
        &mut self,
        pair: &mut JointPair,
        params: &JointParams,
        use_bias: bool,
    ) {
        let pass = PassContext {
            prepared: &self.prepared,
            h: params.h,
            inv_h: params.inv_h,
            use_bias,
        };
        let i = &mut self.impulses;
        match &self.kind {
            JointKind::Distance(j) => j.solve(i, pair, &pass),
            JointKind::Revolute(j) => j.solve(i, pair, &pass),
            JointKind::Prismatic(j) => j.solve(i, pair, &pass),
            JointKind::Weld(j) => j.solve(i, pair, &pass),
            JointKind::Wheel(j) => j.solve(i, pair, &pass),
            JointKind::Motor(j) => j.solve(i, pair, &pass),
            JointKind::Target(j) => j.solve(i, pair, &pass),
        }
    }

    /// The force and torque this joint applied to body B over the last substep of the last
    /// step: the accumulated (per-substep) impulses times `inv_h = 1/h`. Axial impulses are
    /// directed along the axis prepared at the start of the step.
    pub fn reaction(&self, inv_h: f32) -> JointReaction {
        let (p, i) = (&self.prepared, &self.impulses);
        let (linear, angular) = match &self.kind {
            JointKind::Distance(_) => (distance::linear_impulse(p, i), 0.0),
            JointKind::Revolute(_) => (i.linear, revolute::angular_impulse(i)),
            JointKind::Prismatic(_) => prismatic::reaction_impulses(p, i),
            JointKind::Weld(_) | JointKind::Motor(_) | JointKind::Target(_) => {
                (i.linear, i.angular)
            }
            JointKind::Wheel(_) => wheel::reaction_impulses(p, i),
        };
        JointReaction {
            force: inv_h * linear,
            torque: inv_h * angular,
        }
    }
}

/// Prepares every joint for a step. Call it after the step's start pose is recorded
/// (`integrate::begin_step`: `Δp = 0`, `Δq = I`), with the awake bodies' `sims`. Without warm
/// starting, the carried impulses are zeroed; with it, those of rows the joint's settings no
/// longer solve (a motor, limit or spring switched off) are.
pub fn prepare_joints(joints: &mut [JointConstraint], sims: &[BodySim], params: &JointParams) {
    for joint in joints.iter_mut() {
        joint.prepare(sims, params);
    }
}

/// Applies every joint's accumulated impulses, in order.
pub fn warm_start_joints(joints: &[JointConstraint], states: &mut [BodyState]) {
    for joint in joints {
        joint.warm_start(states);
    }
}

/// Solves every joint once, in order: the biased pass with `use_bias`, the relax pass without.
pub fn solve_joints(
    joints: &mut [JointConstraint],
    states: &mut [BodyState],
    params: &JointParams,
    use_bias: bool,
) {
    for joint in joints.iter_mut() {
        joint.solve(states, params, use_bias);
    }
}

/// The effective mass of one side at its anchor, against a push perpendicular to the lever arm
/// (the weakest direction): `1/(1/m + d²/I)` with `d` the distance from the centre of mass to
/// the anchor. `None` for a body nothing can move.
pub fn anchor_effective_mass(body: &JointBody) -> Option<f32> {
    if body.is_immovable() {
        return None;
    }
    let d_squared = body.local_frame.p.length_squared();
    let k = body.inv_mass + body.inv_inertia * d_squared;
    if k > 0.0 { Some(1.0 / k) } else { None }
}

/// The ratio (≥ 1) of the larger to the smaller effective mass of the two sides of a joint, at
/// their anchors. A joint to an immovable body (or a target joint, which acts on one body) has
/// ratio 1: all the effort goes into the one body that can move.
pub fn effective_mass_ratio(joint: &JointConstraint) -> f32 {
    if matches!(joint.kind, JointKind::Target(_)) {
        return 1.0;
    }
    match (
        anchor_effective_mass(&joint.body_a),
        anchor_effective_mass(&joint.body_b),
    ) {
        (Some(a), Some(b)) => a.max(b) / a.min(b),
        _ => 1.0,
    }
}

/// Appends to `out` the indices of the joints whose [`effective_mass_ratio`] exceeds
/// `threshold`.
pub fn joints_above_mass_ratio(joints: &[JointConstraint], threshold: f32, out: &mut Vec<usize>) {
    out.extend(
        joints
            .iter()
            .enumerate()
            .filter(|(_, joint)| effective_mass_ratio(joint) > threshold)
            .map(|(index, _)| index),
    );
}

/// The softness of a spring row: the spring's own when it is on, rigid (unused) otherwise.
pub(crate) fn spring_softness(
    enabled: bool,
    hertz: f32,
    damping_ratio: f32,
    params: &JointParams,
) -> Softness {
    if enabled {
        Softness::new(hertz, damping_ratio, params.h)
    } else {
        Softness::RIGID
    }
}

/// `impulse` if its row is solved, else 0.
pub(crate) fn kept(solved: bool, impulse: f32) -> f32 {
    if solved { impulse } else { 0.0 }
}

/// The spring, motor and limit impulses of `i`, each kept only if its row is switched on, with
/// zero linear and angular impulses for the kind to fill in.
pub(crate) fn switched_impulses(
    i: &JointImpulses,
    (spring, motor, limit): (bool, bool, bool),
) -> JointImpulses {
    JointImpulses {
        linear: Vec2::ZERO,
        angular: 0.0,
        spring: kept(spring, i.spring),
        motor: kept(motor, i.motor),
        lower: kept(limit, i.lower),
        upper: kept(limit, i.upper),
    }
}
