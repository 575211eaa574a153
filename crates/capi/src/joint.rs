//! Joints: creation of every kind, destruction, state, and edits of limits, motors, springs
//! and targets.
//!
//! Creation validates the whole definition (ids, finite values, ranges, a body joined to
//! itself, two static bodies) before changing anything. A joint whose body is destroyed is
//! destroyed with it, so its id goes stale.

use crate::boundary::{create, get, probe, update};
use crate::ids::{PrismBodyId, PrismJointId};
use crate::joint_def::{
    PrismDistanceJointDef, PrismJointDef, PrismMotorJointDef, PrismPrismaticJointDef,
    PrismRevoluteJointDef, PrismTargetJointDef, PrismWeldJointDef, PrismWheelJointDef,
};
use crate::math::PrismVec2;
use crate::pointer::{In, Out, WorldMut, WorldRef};
use crate::status::PrismStatus;
use crate::world::PrismWorld;
use prism::JointDef;

/// The force and torque a joint applied to body B in the last step it was solved (body A
/// received the opposite).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismJointReaction {
    /// Force (N).
    pub force: PrismVec2,
    /// Torque (N·m).
    pub torque: f32,
}

/// The shared part of a joint definition, with both bodies unset, anchors at both origins,
/// not colliding, unbreakable.
#[unsafe(no_mangle)]
pub extern "C" fn prism_default_joint_def() -> PrismJointDef {
    PrismRevoluteJointDef::default_def().base
}

/// The default distance joint (rigid rod of length 1 m).
#[unsafe(no_mangle)]
pub extern "C" fn prism_default_distance_joint_def() -> PrismDistanceJointDef {
    PrismDistanceJointDef::default_def()
}

/// The default revolute joint (free hinge, reference angle 0).
#[unsafe(no_mangle)]
pub extern "C" fn prism_default_revolute_joint_def() -> PrismRevoluteJointDef {
    PrismRevoluteJointDef::default_def()
}

/// The default prismatic joint (free slider along x).
#[unsafe(no_mangle)]
pub extern "C" fn prism_default_prismatic_joint_def() -> PrismPrismaticJointDef {
    PrismPrismaticJointDef::default_def()
}

/// The default weld joint (rigid).
#[unsafe(no_mangle)]
pub extern "C" fn prism_default_weld_joint_def() -> PrismWeldJointDef {
    PrismWeldJointDef::default_def()
}

/// The default wheel joint (suspension axis y, no spring, no motor).
#[unsafe(no_mangle)]
pub extern "C" fn prism_default_wheel_joint_def() -> PrismWheelJointDef {
    PrismWheelJointDef::default_def()
}

/// The default motor joint (zero offsets, force and torque limits 1).
#[unsafe(no_mangle)]
pub extern "C" fn prism_default_motor_joint_def() -> PrismMotorJointDef {
    PrismMotorJointDef::default_def()
}

/// The default target joint (5 Hz, damping 0.7, at most 1000 N).
#[unsafe(no_mangle)]
pub extern "C" fn prism_default_target_joint_def() -> PrismTargetJointDef {
    PrismTargetJointDef::default_def()
}

/// Writes to `*out` a shared joint definition between `body_a` and `body_b` whose anchors both
/// sit at the world point `world_anchor` in the bodies' current poses (the other fields at
/// their defaults). Copy it into a kind's definition as `base`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_joint_anchored_def(
    world: *const PrismWorld,
    body_a: PrismBodyId,
    body_b: PrismBodyId,
    world_anchor: PrismVec2,
    out: *mut PrismJointDef,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_joint_anchored_def", world, out, |handle| {
        let def: JointDef =
            handle
                .world
                .anchored_joint_def(body_a.into(), body_b.into(), world_anchor.into())?;
        Ok(def.into())
    })
}

/// Creates a distance joint and writes its id to `*out_joint`.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call; `def` is readable;
/// `out_joint` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_joint_create_distance(
    world: *mut PrismWorld,
    def: *const PrismDistanceJointDef,
    out_joint: *mut PrismJointId,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for all three arguments.
    let (world, def, out) = unsafe {
        (
            WorldMut::new(world),
            In::new(def, "def"),
            Out::new(out_joint, "out_joint"),
        )
    };
    create("prism_joint_create_distance", world, out, |handle| {
        let def = def.read()?.to_prism()?;
        Ok(handle.world.create_distance_joint(&def)?.into())
    })
}

/// Creates a revolute joint and writes its id to `*out_joint`.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call; `def` is readable;
/// `out_joint` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_joint_create_revolute(
    world: *mut PrismWorld,
    def: *const PrismRevoluteJointDef,
    out_joint: *mut PrismJointId,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for all three arguments.
    let (world, def, out) = unsafe {
        (
            WorldMut::new(world),
            In::new(def, "def"),
            Out::new(out_joint, "out_joint"),
        )
    };
    create("prism_joint_create_revolute", world, out, |handle| {
        let def = def.read()?.to_prism()?;
        Ok(handle.world.create_revolute_joint(&def)?.into())
    })
}

/// Creates a prismatic joint and writes its id to `*out_joint`.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call; `def` is readable;
/// `out_joint` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_joint_create_prismatic(
    world: *mut PrismWorld,
    def: *const PrismPrismaticJointDef,
    out_joint: *mut PrismJointId,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for all three arguments.
    let (world, def, out) = unsafe {
        (
            WorldMut::new(world),
            In::new(def, "def"),
            Out::new(out_joint, "out_joint"),
        )
    };
    create("prism_joint_create_prismatic", world, out, |handle| {
        let def = def.read()?.to_prism()?;
        Ok(handle.world.create_prismatic_joint(&def)?.into())
    })
}

/// Creates a weld joint and writes its id to `*out_joint`.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call; `def` is readable;
/// `out_joint` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_joint_create_weld(
    world: *mut PrismWorld,
    def: *const PrismWeldJointDef,
    out_joint: *mut PrismJointId,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for all three arguments.
    let (world, def, out) = unsafe {
        (
            WorldMut::new(world),
            In::new(def, "def"),
            Out::new(out_joint, "out_joint"),
        )
    };
    create("prism_joint_create_weld", world, out, |handle| {
        let def = def.read()?.to_prism()?;
        Ok(handle.world.create_weld_joint(&def)?.into())
    })
}

/// Creates a wheel joint and writes its id to `*out_joint`.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call; `def` is readable;
/// `out_joint` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_joint_create_wheel(
    world: *mut PrismWorld,
    def: *const PrismWheelJointDef,
    out_joint: *mut PrismJointId,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for all three arguments.
    let (world, def, out) = unsafe {
        (
            WorldMut::new(world),
            In::new(def, "def"),
            Out::new(out_joint, "out_joint"),
        )
    };
    create("prism_joint_create_wheel", world, out, |handle| {
        let def = def.read()?.to_prism()?;
        Ok(handle.world.create_wheel_joint(&def)?.into())
    })
}

/// Creates a motor joint and writes its id to `*out_joint`.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call; `def` is readable;
/// `out_joint` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_joint_create_motor(
    world: *mut PrismWorld,
    def: *const PrismMotorJointDef,
    out_joint: *mut PrismJointId,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for all three arguments.
    let (world, def, out) = unsafe {
        (
            WorldMut::new(world),
            In::new(def, "def"),
            Out::new(out_joint, "out_joint"),
        )
    };
    create("prism_joint_create_motor", world, out, |handle| {
        let def = def.read()?.to_prism()?;
        Ok(handle.world.create_motor_joint(&def)?.into())
    })
}

/// Creates a target joint and writes its id to `*out_joint`.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call; `def` is readable;
/// `out_joint` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_joint_create_target(
    world: *mut PrismWorld,
    def: *const PrismTargetJointDef,
    out_joint: *mut PrismJointId,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for all three arguments.
    let (world, def, out) = unsafe {
        (
            WorldMut::new(world),
            In::new(def, "def"),
            Out::new(out_joint, "out_joint"),
        )
    };
    create("prism_joint_create_target", world, out, |handle| {
        let def = def.read()?.to_prism()?;
        Ok(handle.world.create_target_joint(&def)?.into())
    })
}

/// Destroys a joint and wakes its bodies.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_joint_destroy(
    world: *mut PrismWorld,
    joint: PrismJointId,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_joint_destroy", world, |handle| {
        Ok(handle.world.destroy_joint(joint.into())?)
    })
}

/// Whether `joint` names a live joint of `world`. False for a NULL or poisoned world.
///
/// # Safety
///
/// `world` is NULL or a live world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_joint_is_valid(
    world: *const PrismWorld,
    joint: PrismJointId,
) -> bool {
    // SAFETY: the caller passes NULL or a live world.
    let world = unsafe { WorldRef::new(world) };
    probe(|| {
        let handle = world.get().ok()?;
        Some(!handle.poisoned && handle.world.is_joint_valid(joint.into()))
    })
}

/// Writes the joint's shared definition (bodies, anchors relative to the body origins,
/// options, current break thresholds and user data) to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_joint_get_def(
    world: *const PrismWorld,
    joint: PrismJointId,
    out: *mut PrismJointDef,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_joint_get_def", world, out, |handle| {
        Ok(handle.world.joint_def(joint.into())?.into())
    })
}

/// Writes the force and torque the joint applied to body B in the last step it was solved to
/// `*out` (zero before the first step).
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_joint_get_reaction(
    world: *const PrismWorld,
    joint: PrismJointId,
    out: *mut PrismJointReaction,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_joint_get_reaction", world, out, |handle| {
        let (force, torque) = handle.world.joint_reaction(joint.into())?;
        Ok(PrismJointReaction {
            force: force.into(),
            torque,
        })
    })
}

/// Writes the joint angle (rad, in (−π, π]) to `*out`: `angle_b − angle_a − reference angle`
/// (for prismatic and wheel joints, measured between the frames on the axis).
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_joint_get_angle(
    world: *const PrismWorld,
    joint: PrismJointId,
    out: *mut f32,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_joint_get_angle", world, out, |handle| {
        Ok(handle.world.joint_angle(joint.into())?)
    })
}

/// Writes the translation (m) of anchor B from anchor A along the joint axis (body A's axis
/// for prismatic and wheel joints, A's x axis otherwise) to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_joint_get_translation(
    world: *const PrismWorld,
    joint: PrismJointId,
    out: *mut f32,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_joint_get_translation", world, out, |handle| {
        Ok(handle.world.joint_translation(joint.into())?)
    })
}

/// Sets the limits of a revolute (angles, rad), prismatic or wheel (translations, m) or
/// distance joint (lengths, m). Other kinds fail with `PRISM_STATUS_INVALID_JOINT`.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_joint_set_limits(
    world: *mut PrismWorld,
    joint: PrismJointId,
    enable: bool,
    lower: f32,
    upper: f32,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_joint_set_limits", world, |handle| {
        Ok(handle
            .world
            .set_joint_limits(joint.into(), enable, lower, upper)?)
    })
}

/// Sets the motor of a revolute or wheel joint (speed rad/s, torque N·m) or of a prismatic or
/// distance joint (speed m/s, force N). Other kinds fail with `PRISM_STATUS_INVALID_JOINT`.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_joint_set_motor(
    world: *mut PrismWorld,
    joint: PrismJointId,
    enable: bool,
    speed: f32,
    max_effort: f32,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_joint_set_motor", world, |handle| {
        Ok(handle
            .world
            .set_joint_motor(joint.into(), enable, speed, max_effort)?)
    })
}

/// Sets the spring of a revolute, prismatic, wheel or distance joint (frequency Hz, damping
/// ratio). Other kinds fail with `PRISM_STATUS_INVALID_JOINT`.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_joint_set_spring(
    world: *mut PrismWorld,
    joint: PrismJointId,
    enable: bool,
    hertz: f32,
    damping_ratio: f32,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_joint_set_spring", world, |handle| {
        Ok(handle
            .world
            .set_joint_spring(joint.into(), enable, hertz, damping_ratio)?)
    })
}

/// Moves a target joint's target (world point, m). Other kinds fail with
/// `PRISM_STATUS_INVALID_JOINT`.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_joint_set_target(
    world: *mut PrismWorld,
    joint: PrismJointId,
    target: PrismVec2,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_joint_set_target", world, |handle| {
        Ok(handle.world.set_joint_target(joint.into(), target.into())?)
    })
}
