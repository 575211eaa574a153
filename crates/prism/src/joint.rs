//! Joints: constraints between two bodies — distance, revolute, prismatic, weld, wheel, motor
//! and target joints — with springs, limits, motors, and break thresholds.
//!
//! ## Creating and editing
//!
//! A joint is made from a definition (`def.rs`): a [`JointDef`] with the two bodies, an anchor on
//! each relative to the body *origin*, `collide_connected`, break thresholds and user data, plus
//! the kind's settings. Creation validates everything first (ids, finite values, ranges, a body
//! joined to itself, two static bodies) and changes nothing on error. It wakes both bodies,
//! threads the joint into both bodies' joint lists, links their islands (so a chain sleeps and
//! wakes as one) and gives it a graph colour; if the bodies may not collide, their existing
//! contacts are destroyed and the pair update skips them from then on.
//!
//! Edits between steps — limits, motor, spring, target, thresholds — validate the new values,
//! wake the bodies and keep the carried impulses valid: the impulse of a row whose meaning
//! changed (a limit moved, a spring or motor switched off) is zeroed, the others keep warm
//! starting. Destroying a joint wakes its bodies and unlinks it; destroying a body destroys its
//! joints.
//!
//! ## In the step
//!
//! A joint's constraint lives in a graph colour while its bodies are awake (`store.rs`), so the
//! solver prepares and solves it in place: each colour's joints in that colour's stages, before
//! its contacts, the overflow joints on the scalar path. After the solve, breakable joints over
//! their threshold are destroyed and reported ([`World::joint_events`]); a joint's reaction is
//! its accumulated impulses over the substep ([`World::joint_reaction`], `step.rs`).

//! ## Mass ratios
//!
//! An iterative solver moves impulses well only between bodies of similar effective mass at the
//! joint, `1/(1/m + d²/I)`; a heavy body hung on light thin links makes the chain stretch.
//! [`World::mass_ratio_warnings`] lists the joints whose ratio exceeds 10 (and
//! [`World::mass_ratio_report`] those above a threshold of the caller's), with the two
//! remedies: raise the light body's rotational inertia (`BodyDef::inertia_scale`, ×2–4, which
//! raises `d²/I`'s denominator without changing the mass or how the body falls) or add substeps.

mod def;
mod events;
mod report;
mod step;
mod store;
mod validate;

pub use def::{
    DistanceJointDef, JointDef, MotorJointDef, PrismaticJointDef, RevoluteJointDef, TargetJointDef,
    WeldJointDef, WheelJointDef,
};
pub use events::{JointBreakEvent, JointEvents};
pub use report::MassRatioWarning;
pub(crate) use store::{JointRecord, JointStore, joint_forbids_collision};

use crate::error::{IdKind, PrismError, finite, finite_vec};
use crate::world::World;
use core_soa::{BodyId, BodyType, JointId, Rot, Transform, Vec2};
use def::JointBlueprint;
use solver_simd::joint::{JointImpulses, JointKind};
use validate::validate_kind;

impl World {
    /// Creates a distance joint (rod, spring or rope).
    pub fn create_distance_joint(&mut self, def: &DistanceJointDef) -> Result<JointId, PrismError> {
        self.create_joint(def.blueprint()?)
    }

    /// Creates a revolute joint (hinge).
    pub fn create_revolute_joint(&mut self, def: &RevoluteJointDef) -> Result<JointId, PrismError> {
        self.create_joint(def.blueprint()?)
    }

    /// Creates a prismatic joint (slider).
    pub fn create_prismatic_joint(
        &mut self,
        def: &PrismaticJointDef,
    ) -> Result<JointId, PrismError> {
        self.create_joint(def.blueprint()?)
    }

    /// Creates a weld joint.
    pub fn create_weld_joint(&mut self, def: &WeldJointDef) -> Result<JointId, PrismError> {
        self.create_joint(def.blueprint()?)
    }

    /// Creates a wheel joint.
    pub fn create_wheel_joint(&mut self, def: &WheelJointDef) -> Result<JointId, PrismError> {
        self.create_joint(def.blueprint()?)
    }

    /// Creates a motor joint.
    pub fn create_motor_joint(&mut self, def: &MotorJointDef) -> Result<JointId, PrismError> {
        self.create_joint(def.blueprint()?)
    }

    /// Creates a target (mouse) joint.
    pub fn create_target_joint(&mut self, def: &TargetJointDef) -> Result<JointId, PrismError> {
        self.create_joint(def.blueprint()?)
    }

    /// A [`JointDef`] between `body_a` and `body_b` whose anchors both sit at the world point
    /// `world_anchor` in the bodies' current poses.
    pub fn anchored_joint_def(
        &self,
        body_a: BodyId,
        body_b: BodyId,
        world_anchor: Vec2,
    ) -> Result<JointDef, PrismError> {
        finite_vec("world_anchor", world_anchor)?;
        let transform_a = self.transform(body_a)?;
        let transform_b = self.transform(body_b)?;
        Ok(JointDef {
            local_anchor_a: transform_a.inv_apply(world_anchor),
            local_anchor_b: transform_b.inv_apply(world_anchor),
            ..JointDef::new(body_a, body_b)
        })
    }

    /// Destroys a joint. Wakes its bodies; if they may now collide, their shapes are re-checked
    /// for overlap by the next step.
    pub fn destroy_joint(&mut self, id: JointId) -> Result<(), PrismError> {
        let base = self.joint(id)?.base;
        self.remove_joint(id.index());
        if !base.collide_connected {
            self.recheck_body_pairs(base.body_a);
            self.recheck_body_pairs(base.body_b);
        }
        Ok(())
    }

    /// Whether `id` refers to a live joint of this world.
    pub fn is_joint_valid(&self, id: JointId) -> bool {
        self.joints.arena.contains(id)
    }

    /// The ids of all live joints, in slot order.
    pub fn joint_ids(&self) -> Vec<JointId> {
        self.joints.arena.iter().map(|(id, _)| id).collect()
    }

    /// The joints attached to a body, most recent first.
    pub fn body_joints(&self, body: BodyId) -> Result<Vec<JointId>, PrismError> {
        self.body(body)?;
        Ok(self
            .joints_of_body(body.index())
            .into_iter()
            .filter_map(|index| self.joints.arena.key_at(index))
            .collect())
    }

    /// The joint's bodies, A then B.
    pub fn joint_bodies(&self, id: JointId) -> Result<(BodyId, BodyId), PrismError> {
        let record = self.joint(id)?;
        Ok((record.base.body_a, record.base.body_b))
    }

    /// The joint's definition as created (bodies, origin-relative anchors, options; current
    /// break thresholds and user data).
    pub fn joint_def(&self, id: JointId) -> Result<JointDef, PrismError> {
        Ok(self.joint(id)?.base)
    }

    /// The kind and current settings of a joint.
    pub fn joint_settings(&self, id: JointId) -> Result<JointKind, PrismError> {
        self.joint(id)?;
        self.joint_sim(id.index())
            .map(|joint| joint.kind)
            .ok_or_else(|| invalid_joint(id))
    }

    /// Replaces a joint's settings with `settings` of the same kind (a revolute joint takes
    /// `JointKind::Revolute`, …). Validates, wakes the bodies; the carried impulses of rows whose
    /// settings changed are zeroed.
    pub fn set_joint_settings(
        &mut self,
        id: JointId,
        settings: JointKind,
    ) -> Result<(), PrismError> {
        let current = self.joint_settings(id)?;
        if std::mem::discriminant(&current) != std::mem::discriminant(&settings) {
            return Err(PrismError::InvalidJoint {
                field: "settings".into(),
                reason: format!("is not the joint's kind ({})", kind_name(&current)),
            });
        }
        validate_kind(&settings)?;
        let (a, b) = self.joint_bodies(id)?;
        self.wake_body(a.index());
        self.wake_body(b.index());
        let changed = changed_rows(&current, &settings);
        if let Some(joint) = self.joint_sim_mut(id.index()) {
            joint.kind = settings;
            reset_changed_rows(&mut joint.impulses, changed);
        }
        Ok(())
    }

    /// Sets the limits of a revolute (angles, rad), prismatic or wheel (translations, m) or
    /// distance joint (lengths, m); `enable` turns them on or off.
    pub fn set_joint_limits(
        &mut self,
        id: JointId,
        enable: bool,
        lower: f32,
        upper: f32,
    ) -> Result<(), PrismError> {
        let mut settings = self.joint_settings(id)?;
        match &mut settings {
            JointKind::Revolute(j) => {
                (j.enable_limit, j.lower_angle, j.upper_angle) = (enable, lower, upper)
            }
            JointKind::Prismatic(j) => {
                (j.enable_limit, j.lower_translation, j.upper_translation) = (enable, lower, upper)
            }
            JointKind::Wheel(j) => {
                (j.enable_limit, j.lower_translation, j.upper_translation) = (enable, lower, upper)
            }
            JointKind::Distance(j) => {
                (j.enable_limit, j.min_length, j.max_length) = (enable, lower, upper)
            }
            other => return Err(not_supported("limits", other)),
        }
        self.set_joint_settings(id, settings)
    }

    /// Sets the motor of a revolute or wheel joint (speed rad/s, maximum torque N·m) or of a
    /// prismatic or distance joint (speed m/s, maximum force N).
    pub fn set_joint_motor(
        &mut self,
        id: JointId,
        enable: bool,
        speed: f32,
        max_effort: f32,
    ) -> Result<(), PrismError> {
        let mut settings = self.joint_settings(id)?;
        match &mut settings {
            JointKind::Revolute(j) => {
                (j.enable_motor, j.motor_speed, j.max_motor_torque) = (enable, speed, max_effort)
            }
            JointKind::Wheel(j) => {
                (j.enable_motor, j.motor_speed, j.max_motor_torque) = (enable, speed, max_effort)
            }
            JointKind::Prismatic(j) => {
                (j.enable_motor, j.motor_speed, j.max_motor_force) = (enable, speed, max_effort)
            }
            JointKind::Distance(j) => {
                (j.enable_motor, j.motor_speed, j.max_motor_force) = (enable, speed, max_effort)
            }
            other => return Err(not_supported("a motor", other)),
        }
        self.set_joint_settings(id, settings)
    }

    /// Sets the spring of a revolute, prismatic, wheel or distance joint (frequency Hz, damping
    /// ratio).
    pub fn set_joint_spring(
        &mut self,
        id: JointId,
        enable: bool,
        hertz: f32,
        damping_ratio: f32,
    ) -> Result<(), PrismError> {
        let mut settings = self.joint_settings(id)?;
        match &mut settings {
            JointKind::Revolute(j) => {
                (j.enable_spring, j.hertz, j.damping_ratio) = (enable, hertz, damping_ratio)
            }
            JointKind::Prismatic(j) => {
                (j.enable_spring, j.hertz, j.damping_ratio) = (enable, hertz, damping_ratio)
            }
            JointKind::Wheel(j) => {
                (j.enable_spring, j.hertz, j.damping_ratio) = (enable, hertz, damping_ratio)
            }
            JointKind::Distance(j) => {
                (j.enable_spring, j.hertz, j.damping_ratio) = (enable, hertz, damping_ratio)
            }
            other => return Err(not_supported("a spring", other)),
        }
        self.set_joint_settings(id, settings)
    }

    /// Moves a target joint's target (world point).
    pub fn set_joint_target(&mut self, id: JointId, target: Vec2) -> Result<(), PrismError> {
        let mut settings = self.joint_settings(id)?;
        match &mut settings {
            JointKind::Target(j) => j.target = finite_vec("target", target)?,
            other => return Err(not_supported("a target", other)),
        }
        self.set_joint_settings(id, settings)
    }

    /// Sets a motor joint's goal: B's frame origin at `linear_offset` in A's frame, at joint
    /// angle `angular_offset`.
    pub fn set_motor_joint_offsets(
        &mut self,
        id: JointId,
        linear_offset: Vec2,
        angular_offset: f32,
    ) -> Result<(), PrismError> {
        let mut settings = self.joint_settings(id)?;
        match &mut settings {
            JointKind::Motor(j) => {
                j.linear_offset = finite_vec("linear_offset", linear_offset)?;
                j.angular_offset = finite("angular_offset", angular_offset)?;
            }
            other => return Err(not_supported("offsets", other)),
        }
        self.set_joint_settings(id, settings)
    }

    /// Sets the break thresholds (N, N·m; infinity never breaks). Wakes the bodies, so that
    /// the next step checks the joint against them (a sleeping joint is not solved).
    pub fn set_joint_break_thresholds(
        &mut self,
        id: JointId,
        break_force: f32,
        break_torque: f32,
    ) -> Result<(), PrismError> {
        def::break_threshold("break_force", break_force)?;
        def::break_threshold("break_torque", break_torque)?;
        let (a, b) = self.joint_bodies(id)?;
        self.wake_body(a.index());
        self.wake_body(b.index());
        let record = self.joint_mut(id)?;
        record.base.break_force = break_force;
        record.base.break_torque = break_torque;
        let breakable = record.is_breakable();
        self.joints.set_breakable(id.index(), breakable);
        Ok(())
    }

    /// The `user_data` the joint was created with or last set to.
    pub fn joint_user_data(&self, id: JointId) -> Result<u64, PrismError> {
        Ok(self.joint(id)?.base.user_data)
    }

    /// Replaces the joint's user data (Prism never reads it).
    pub fn set_joint_user_data(&mut self, id: JointId, user_data: u64) -> Result<(), PrismError> {
        self.joint_mut(id)?.base.user_data = user_data;
        Ok(())
    }

    /// The force (N) and torque (N·m) the joint applied to body B in the last step it was
    /// solved (body A received the opposite force): its accumulated impulses over the substep
    /// of the last step. Zero before the first step.
    pub fn joint_reaction(&self, id: JointId) -> Result<(Vec2, f32), PrismError> {
        self.joint(id)?;
        let reaction = self.joint_reaction_of(id.index());
        Ok((reaction.force, reaction.torque))
    }

    /// The joint events of the last step.
    pub fn joint_events(&self) -> JointEvents<'_> {
        JointEvents {
            breaks: &self.joints.break_events,
        }
    }

    /// The world positions of the joint's two anchors.
    pub fn joint_anchors(&self, id: JointId) -> Result<(Vec2, Vec2), PrismError> {
        let (frame_a, frame_b) = self.joint_world_frames(id)?;
        Ok((frame_a.p, frame_b.p))
    }

    /// The joint angle (rad): `θB − θA − reference angle` (for prismatic and wheel joints,
    /// measured between the frames on the axis), in (−π, π].
    pub fn joint_angle(&self, id: JointId) -> Result<f32, PrismError> {
        let (frame_a, frame_b) = self.joint_world_frames(id)?;
        Ok(Rot::relative_angle(frame_a.q, frame_b.q))
    }

    /// The translation (m) of anchor B from anchor A along the joint axis (frame A's x axis;
    /// for a prismatic or wheel joint, the user's axis).
    pub fn joint_translation(&self, id: JointId) -> Result<f32, PrismError> {
        let (frame_a, frame_b) = self.joint_world_frames(id)?;
        Ok(frame_a.q.x_axis().dot(frame_b.p - frame_a.p))
    }

    /// Each body's joint frame in the world (anchor point and frame orientation).
    fn joint_world_frames(&self, id: JointId) -> Result<(Transform, Transform), PrismError> {
        let record = self.joint(id)?;
        let transform_a = self.transform(record.base.body_a)?;
        let transform_b = self.transform(record.base.body_b)?;
        Ok((
            transform_a.mul(record.frame_a),
            transform_b.mul(record.frame_b),
        ))
    }

    /// Validates and inserts a joint (see the module notes).
    fn create_joint(&mut self, blueprint: JointBlueprint) -> Result<JointId, PrismError> {
        let base = &blueprint.base;
        base.validate()?;
        let type_a = self.body(base.body_a)?.body_type;
        let type_b = self.body(base.body_b)?.body_type;
        if base.body_a == base.body_b {
            return Err(PrismError::InvalidJoint {
                field: "JointDef::body_b".into(),
                reason: "is the same body as body_a; a joint connects two bodies".into(),
            });
        }
        if type_a == BodyType::Static && type_b == BodyType::Static {
            return Err(PrismError::InvalidJoint {
                field: "JointDef::body_a, JointDef::body_b".into(),
                reason: "are both static; a joint needs a body that can move".into(),
            });
        }
        validate_kind(&blueprint.kind)?;
        if !base.collide_connected {
            self.destroy_contacts_between(base.body_a.index(), base.body_b.index());
        }
        Ok(self.insert_joint(&blueprint))
    }

    /// Destroys the contacts between two bodies (their end-touch events come with the next
    /// step's events).
    fn destroy_contacts_between(&mut self, body_a: u32, body_b: u32) {
        for contact in self.contacts_of_body(body_a) {
            let Some(record) = self.contacts.get_by_index(contact) else {
                continue;
            };
            let other_side = record.edges.iter().any(|edge| edge.body == body_b);
            if other_side && let Some(event) = self.destroy_contact(contact) {
                self.events.pending_end.push(event);
            }
        }
    }

    /// Re-buffers a body's proxies so that the next pair update finds the pairs a destroyed
    /// joint had filtered out.
    fn recheck_body_pairs(&mut self, body: BodyId) {
        let Some(record) = self.bodies.get(body) else {
            return;
        };
        for shape in &record.shapes {
            self.broadphase.buffer_move(shape.index());
        }
    }

    /// Whether the pair update must skip shapes `shape_a`, `shape_b` (arena indices) because a
    /// joint between their bodies does not let them collide.
    pub(crate) fn joint_filters_shape_pair(&self, shape_a: u32, shape_b: u32) -> bool {
        let body_of = |shape| self.shapes.get_by_index(shape).map(|s| s.body.index());
        match (body_of(shape_a), body_of(shape_b)) {
            (Some(a), Some(b)) => self.joint_prevents_collision(a, b),
            _ => false,
        }
    }

    /// The live joint `id`, or [`PrismError::InvalidId`].
    fn joint(&self, id: JointId) -> Result<&JointRecord, PrismError> {
        self.joints.arena.get(id).ok_or_else(|| invalid_joint(id))
    }

    fn joint_mut(&mut self, id: JointId) -> Result<&mut JointRecord, PrismError> {
        self.joints
            .arena
            .get_mut(id)
            .ok_or_else(|| invalid_joint(id))
    }
}

fn invalid_joint(id: JointId) -> PrismError {
    PrismError::InvalidId {
        kind: IdKind::Joint,
        index: id.index(),
        generation: id.generation(),
    }
}

fn not_supported(what: &str, kind: &JointKind) -> PrismError {
    PrismError::InvalidJoint {
        field: "settings".into(),
        reason: format!("a {} joint has no {what}", kind_name(kind)),
    }
}

pub(crate) fn kind_name(kind: &JointKind) -> &'static str {
    match kind {
        JointKind::Distance(_) => "distance",
        JointKind::Revolute(_) => "revolute",
        JointKind::Prismatic(_) => "prismatic",
        JointKind::Weld(_) => "weld",
        JointKind::Wheel(_) => "wheel",
        JointKind::Motor(_) => "motor",
        JointKind::Target(_) => "target",
    }
}

/// Zeroes the carried impulses of the rows whose settings changed (`changed_rows` of the old
/// and new settings): limit rows when a limit moves or toggles, the spring row when the spring
/// changes, the motor row when the motor changes. The equality rows keep theirs: the
/// constraint is the same.
fn reset_changed_rows(i: &mut JointImpulses, (limits, spring, motor): (bool, bool, bool)) {
    if limits {
        (i.lower, i.upper) = (0.0, 0.0);
    }
    if spring {
        i.spring = 0.0;
    }
    if motor {
        i.motor = 0.0;
    }
}

/// Which of (limits, spring, motor) differ between two settings of one kind.
fn changed_rows(old: &JointKind, new: &JointKind) -> (bool, bool, bool) {
    macro_rules! rows {
        ($o:ident, $n:ident, [$($l:ident),*], [$($s:ident),*], [$($m:ident),*]) => {
            (
                false $(|| $o.$l != $n.$l)*,
                false $(|| $o.$s != $n.$s)*,
                false $(|| $o.$m != $n.$m)*,
            )
        };
    }
    match (old, new) {
        (JointKind::Distance(o), JointKind::Distance(n)) => rows!(
            o,
            n,
            [enable_limit, min_length, max_length],
            [enable_spring, hertz, damping_ratio, length],
            [enable_motor, motor_speed, max_motor_force]
        ),
        (JointKind::Revolute(o), JointKind::Revolute(n)) => rows!(
            o,
            n,
            [enable_limit, lower_angle, upper_angle],
            [enable_spring, hertz, damping_ratio],
            [enable_motor, max_motor_torque]
        ),
        (JointKind::Prismatic(o), JointKind::Prismatic(n)) => rows!(
            o,
            n,
            [enable_limit, lower_translation, upper_translation],
            [enable_spring, hertz, damping_ratio],
            [enable_motor, max_motor_force]
        ),
        (JointKind::Wheel(o), JointKind::Wheel(n)) => rows!(
            o,
            n,
            [enable_limit, lower_translation, upper_translation],
            [enable_spring, hertz, damping_ratio],
            [enable_motor, max_motor_torque]
        ),
        _ => (false, false, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solver_simd::joint::RevoluteJoint;

    #[test]
    fn moving_a_limit_zeroes_only_the_limit_impulses() {
        let old = JointKind::Revolute(RevoluteJoint {
            enable_limit: true,
            lower_angle: -0.5,
            upper_angle: 0.5,
            ..RevoluteJoint::default()
        });
        let moved = JointKind::Revolute(RevoluteJoint {
            enable_limit: true,
            lower_angle: -0.25,
            upper_angle: 0.5,
            ..RevoluteJoint::default()
        });
        assert_eq!(changed_rows(&old, &moved), (true, false, false));
        let faster = JointKind::Revolute(RevoluteJoint {
            enable_limit: true,
            lower_angle: -0.5,
            upper_angle: 0.5,
            motor_speed: 3.0,
            ..RevoluteJoint::default()
        });
        // A new motor speed keeps the motor impulse: the torque it needs barely changes.
        assert_eq!(changed_rows(&old, &faster), (false, false, false));
        let sprung = JointKind::Revolute(RevoluteJoint {
            enable_spring: true,
            hertz: 2.0,
            ..RevoluteJoint::default()
        });
        assert_eq!(changed_rows(&old, &sprung), (true, true, false));
    }
}
