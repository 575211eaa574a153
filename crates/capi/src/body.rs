//! Bodies: creation from a definition, destruction, pose, velocity, forces, impulses and mass.
//!
//! Every function takes the world and a `PrismBodyId` by value; a stale id fails with
//! `PRISM_STATUS_INVALID_ID`. Getters write through an output pointer so that they too can
//! report a stale id. Forces and impulses act on dynamic bodies only and are ignored, without
//! error, on static and kinematic ones, as in the engine.

use crate::boundary::{create, get, probe, update};
use crate::def::{DEF_MARKER, check_marker, enum_value};
use crate::ids::{PrismBodyId, PrismShapeId};
use crate::math::{PrismRot, PrismTransform, PrismVec2};
use crate::pointer::{In, Out, OutSlice, WorldMut, WorldRef};
use crate::status::{CapiError, PrismStatus};
use crate::world::PrismWorld;
use prism::{BodyDef, BodyType, MassData};

/// The kind of a body: one of the `PRISM_BODY_TYPE_*` constants.
pub type PrismBodyType = u32;

/// Never moves; infinite mass.
pub const PRISM_BODY_TYPE_STATIC: PrismBodyType = 0;

/// Moves with the velocity it is given; infinite mass, so nothing pushes it.
pub const PRISM_BODY_TYPE_KINEMATIC: PrismBodyType = 1;

/// Moves under gravity, forces, contacts and joints.
pub const PRISM_BODY_TYPE_DYNAMIC: PrismBodyType = 2;

/// How to create a body. Start from `prism_default_body_def()` (a static body at the origin).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismBodyDef {
    /// A `PRISM_BODY_TYPE_*` constant.
    pub body_type: PrismBodyType,
    /// World position of the body origin (m).
    pub position: PrismVec2,
    /// Orientation, a unit rotation (`prism_make_rot(angle)`).
    pub rotation: PrismRot,
    /// Initial velocity of the centre of mass (m/s).
    pub linear_velocity: PrismVec2,
    /// Initial angular velocity (rad/s).
    pub angular_velocity: f32,
    /// Linear damping (1/s), ≥ 0.
    pub linear_damping: f32,
    /// Angular damping (1/s), ≥ 0.
    pub angular_damping: f32,
    /// Multiplies the world's gravity for this body (default 1).
    pub gravity_scale: f32,
    /// Locks the rotation.
    pub fixed_rotation: bool,
    /// Opaque value for the caller.
    pub user_data: u64,
    /// Whether this body may sleep.
    pub enable_sleep: bool,
    /// Speed (m/s, ≥ 0) below which the body counts as resting.
    pub sleep_threshold: f32,
    /// Multiplies the rotational inertia from the shapes (> 0, default 1).
    pub inertia_scale: f32,
    /// Also sweep this body, when fast, against dynamic and kinematic bodies (default false).
    pub is_bullet: bool,
    /// Set by `prism_default_body_def()`; leave it unchanged.
    pub internal_value: i32,
}

/// Mass properties of a body.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismMassData {
    /// Mass (kg).
    pub mass: f32,
    /// Centre of mass in the body frame (m).
    pub center: PrismVec2,
    /// Rotational inertia about the centre of mass (kg·m²).
    pub rotational_inertia: f32,
}

const BODY_TYPES: [(PrismBodyType, &str, BodyType); 3] = [
    (
        PRISM_BODY_TYPE_STATIC,
        "PRISM_BODY_TYPE_STATIC",
        BodyType::Static,
    ),
    (
        PRISM_BODY_TYPE_KINEMATIC,
        "PRISM_BODY_TYPE_KINEMATIC",
        BodyType::Kinematic,
    ),
    (
        PRISM_BODY_TYPE_DYNAMIC,
        "PRISM_BODY_TYPE_DYNAMIC",
        BodyType::Dynamic,
    ),
];

impl PrismBodyDef {
    /// The engine's definition, or an error naming the field the C layer checks.
    fn to_prism(self) -> Result<BodyDef, CapiError> {
        check_marker(
            self.internal_value,
            "PrismBodyDef",
            "prism_default_body_def",
        )?;
        Ok(BodyDef {
            body_type: enum_value("PrismBodyDef::body_type", self.body_type, &BODY_TYPES)?,
            position: self.position.into(),
            rotation: self.rotation.into(),
            linear_velocity: self.linear_velocity.into(),
            angular_velocity: self.angular_velocity,
            linear_damping: self.linear_damping,
            angular_damping: self.angular_damping,
            gravity_scale: self.gravity_scale,
            fixed_rotation: self.fixed_rotation,
            user_data: self.user_data,
            enable_sleep: self.enable_sleep,
            sleep_threshold: self.sleep_threshold,
            inertia_scale: self.inertia_scale,
            is_bullet: self.is_bullet,
        })
    }
}

fn body_type_constant(body_type: BodyType) -> PrismBodyType {
    BODY_TYPES
        .iter()
        .find(|(_, _, kind)| *kind == body_type)
        .map_or(PRISM_BODY_TYPE_STATIC, |(constant, _, _)| *constant)
}

impl From<MassData> for PrismMassData {
    fn from(data: MassData) -> PrismMassData {
        PrismMassData {
            mass: data.mass,
            center: data.center.into(),
            rotational_inertia: data.rotational_inertia,
        }
    }
}

/// The default body: static, at the origin, unrotated, at rest, gravity scale 1, may sleep.
#[unsafe(no_mangle)]
pub extern "C" fn prism_default_body_def() -> PrismBodyDef {
    let def = BodyDef::default();
    PrismBodyDef {
        body_type: body_type_constant(def.body_type),
        position: def.position.into(),
        rotation: def.rotation.into(),
        linear_velocity: def.linear_velocity.into(),
        angular_velocity: def.angular_velocity,
        linear_damping: def.linear_damping,
        angular_damping: def.angular_damping,
        gravity_scale: def.gravity_scale,
        fixed_rotation: def.fixed_rotation,
        user_data: def.user_data,
        enable_sleep: def.enable_sleep,
        sleep_threshold: def.sleep_threshold,
        inertia_scale: def.inertia_scale,
        is_bullet: def.is_bullet,
        internal_value: DEF_MARKER,
    }
}

/// Creates a body and writes its id to `*out_body`. Fails, changing nothing, with the status of
/// the first invalid field of `def`.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call; `def` is readable;
/// `out_body` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_create(
    world: *mut PrismWorld,
    def: *const PrismBodyDef,
    out_body: *mut PrismBodyId,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for all three arguments.
    let (world, def, out) = unsafe {
        (
            WorldMut::new(world),
            In::new(def, "def"),
            Out::new(out_body, "out_body"),
        )
    };
    create("prism_body_create", world, out, |handle| {
        let def = def.read()?.to_prism()?;
        Ok(handle.world.create_body(&def)?.into())
    })
}

/// Destroys a body with its shapes, joints and contacts. Touching contacts report end events
/// with the next step's events.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_destroy(
    world: *mut PrismWorld,
    body: PrismBodyId,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_body_destroy", world, |handle| {
        Ok(handle.world.destroy_body(body.into())?)
    })
}

/// Whether `body` names a live body of `world`. False for a NULL or poisoned world.
///
/// # Safety
///
/// `world` is NULL or a live world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_is_valid(world: *const PrismWorld, body: PrismBodyId) -> bool {
    // SAFETY: the caller passes NULL or a live world.
    let world = unsafe { WorldRef::new(world) };
    probe(|| {
        let handle = world.get().ok()?;
        Some(!handle.poisoned && handle.world.is_body_valid(body.into()))
    })
}

/// Writes the body's type (a `PRISM_BODY_TYPE_*` constant) to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_get_type(
    world: *const PrismWorld,
    body: PrismBodyId,
    out: *mut PrismBodyType,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_body_get_type", world, out, |handle| {
        Ok(body_type_constant(handle.world.body_type(body.into())?))
    })
}

/// Writes the world position of the body origin (m) to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_get_position(
    world: *const PrismWorld,
    body: PrismBodyId,
    out: *mut PrismVec2,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_body_get_position", world, out, |handle| {
        Ok(handle.world.position(body.into())?.into())
    })
}

/// Writes the body's rotation to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_get_rotation(
    world: *const PrismWorld,
    body: PrismBodyId,
    out: *mut PrismRot,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_body_get_rotation", world, out, |handle| {
        Ok(handle.world.rotation(body.into())?.into())
    })
}

/// Writes the body's angle (rad, in (−π, π]) to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_get_angle(
    world: *const PrismWorld,
    body: PrismBodyId,
    out: *mut f32,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_body_get_angle", world, out, |handle| {
        Ok(handle.world.rotation(body.into())?.angle())
    })
}

/// Writes the transform of the body origin to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_get_transform(
    world: *const PrismWorld,
    body: PrismBodyId,
    out: *mut PrismTransform,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_body_get_transform", world, out, |handle| {
        Ok(handle.world.transform(body.into())?.into())
    })
}

/// Writes the world position of the body's centre of mass (m) to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_get_world_center_of_mass(
    world: *const PrismWorld,
    body: PrismBodyId,
    out: *mut PrismVec2,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get(
        "prism_body_get_world_center_of_mass",
        world,
        out,
        |handle| Ok(handle.world.world_center_of_mass(body.into())?.into()),
    )
}

/// Teleports the body origin to `position` (finite) with `rotation` (unit). Contacts are
/// updated by the next step.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_set_transform(
    world: *mut PrismWorld,
    body: PrismBodyId,
    position: PrismVec2,
    rotation: PrismRot,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_body_set_transform", world, |handle| {
        let (position, rotation) = (position.into(), rotation.into());
        Ok(handle
            .world
            .set_transform(body.into(), position, rotation)?)
    })
}

/// Writes the velocity of the centre of mass (m/s) to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_get_linear_velocity(
    world: *const PrismWorld,
    body: PrismBodyId,
    out: *mut PrismVec2,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_body_get_linear_velocity", world, out, |handle| {
        Ok(handle.world.linear_velocity(body.into())?.into())
    })
}

/// Sets the velocity of the centre of mass (m/s, finite). No effect on static bodies.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_set_linear_velocity(
    world: *mut PrismWorld,
    body: PrismBodyId,
    velocity: PrismVec2,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_body_set_linear_velocity", world, |handle| {
        Ok(handle
            .world
            .set_linear_velocity(body.into(), velocity.into())?)
    })
}

/// Writes the angular velocity (rad/s) to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_get_angular_velocity(
    world: *const PrismWorld,
    body: PrismBodyId,
    out: *mut f32,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_body_get_angular_velocity", world, out, |handle| {
        Ok(handle.world.angular_velocity(body.into())?)
    })
}

/// Sets the angular velocity (rad/s, finite). No effect on static bodies.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_set_angular_velocity(
    world: *mut PrismWorld,
    body: PrismBodyId,
    velocity: f32,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_body_set_angular_velocity", world, |handle| {
        Ok(handle.world.set_angular_velocity(body.into(), velocity)?)
    })
}

/// Applies `force` (N) at the world `point` during the next step.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_apply_force(
    world: *mut PrismWorld,
    body: PrismBodyId,
    force: PrismVec2,
    point: PrismVec2,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_body_apply_force", world, |handle| {
        Ok(handle
            .world
            .apply_force(body.into(), force.into(), point.into())?)
    })
}

/// Applies `force` (N) at the centre of mass during the next step.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_apply_force_to_center(
    world: *mut PrismWorld,
    body: PrismBodyId,
    force: PrismVec2,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_body_apply_force_to_center", world, |handle| {
        Ok(handle
            .world
            .apply_force_to_center(body.into(), force.into())?)
    })
}

/// Applies `torque` (N·m) during the next step.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_apply_torque(
    world: *mut PrismWorld,
    body: PrismBodyId,
    torque: f32,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_body_apply_torque", world, |handle| {
        Ok(handle.world.apply_torque(body.into(), torque)?)
    })
}

/// Applies `impulse` (N·s) at the world `point`: changes the velocity at once.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_apply_linear_impulse(
    world: *mut PrismWorld,
    body: PrismBodyId,
    impulse: PrismVec2,
    point: PrismVec2,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_body_apply_linear_impulse", world, |handle| {
        Ok(handle
            .world
            .apply_linear_impulse(body.into(), impulse.into(), point.into())?)
    })
}

/// Applies `impulse` (N·s) at the centre of mass.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_apply_linear_impulse_to_center(
    world: *mut PrismWorld,
    body: PrismBodyId,
    impulse: PrismVec2,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update(
        "prism_body_apply_linear_impulse_to_center",
        world,
        |handle| {
            Ok(handle
                .world
                .apply_linear_impulse_to_center(body.into(), impulse.into())?)
        },
    )
}

/// Applies an angular impulse (N·m·s).
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_apply_angular_impulse(
    world: *mut PrismWorld,
    body: PrismBodyId,
    impulse: f32,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_body_apply_angular_impulse", world, |handle| {
        Ok(handle.world.apply_angular_impulse(body.into(), impulse)?)
    })
}

/// Writes the body's mass (kg; 0 for static and kinematic bodies) to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_get_mass(
    world: *const PrismWorld,
    body: PrismBodyId,
    out: *mut f32,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_body_get_mass", world, out, |handle| {
        Ok(handle.world.mass_data(body.into())?.mass)
    })
}

/// Writes the body's mass, centre of mass and rotational inertia to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_get_mass_data(
    world: *const PrismWorld,
    body: PrismBodyId,
    out: *mut PrismMassData,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_body_get_mass_data", world, out, |handle| {
        Ok(handle.world.mass_data(body.into())?.into())
    })
}

/// Overrides the mass properties of a dynamic body (no effect on others) until a shape is
/// added or removed. A zero mass becomes 1 kg.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_set_mass_data(
    world: *mut PrismWorld,
    body: PrismBodyId,
    mass_data: PrismMassData,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_body_set_mass_data", world, |handle| {
        let data = MassData {
            mass: mass_data.mass,
            center: mass_data.center.into(),
            rotational_inertia: mass_data.rotational_inertia,
        };
        Ok(handle.world.set_mass_data(body.into(), data)?)
    })
}

/// Writes the body's user data to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_get_user_data(
    world: *const PrismWorld,
    body: PrismBodyId,
    out: *mut u64,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_body_get_user_data", world, out, |handle| {
        Ok(handle.world.body_user_data(body.into())?)
    })
}

/// Sets the body's user data.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_set_user_data(
    world: *mut PrismWorld,
    body: PrismBodyId,
    user_data: u64,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_body_set_user_data", world, |handle| {
        Ok(handle.world.set_body_user_data(body.into(), user_data)?)
    })
}

/// Writes whether the body is awake (dynamic bodies whose island is not asleep, and kinematic
/// bodies) to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_is_awake(
    world: *const PrismWorld,
    body: PrismBodyId,
    out: *mut bool,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_body_is_awake", world, out, |handle| {
        Ok(handle.world.is_awake(body.into())?)
    })
}

/// Wakes the body's island, or puts it to sleep at once.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_set_awake(
    world: *mut PrismWorld,
    body: PrismBodyId,
    awake: bool,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_body_set_awake", world, |handle| {
        Ok(handle.world.set_awake(body.into(), awake)?)
    })
}

/// Copies the ids of the body's shapes, in attachment order, into `shapes` (at most `capacity`
/// of them) and writes how many the body has to `*out_count`; pass `shapes = NULL`,
/// `capacity = 0` to ask for the count alone.
///
/// # Safety
///
/// `world` is a live world; `shapes` is writable for `capacity` ids; `out_count` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_body_get_shapes(
    world: *const PrismWorld,
    body: PrismBodyId,
    shapes: *mut PrismShapeId,
    capacity: usize,
    out_count: *mut usize,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for all three pointers.
    let (world, shapes, out_count) = unsafe {
        (
            WorldRef::new(world),
            OutSlice::new(shapes, capacity, "shapes"),
            Out::new(out_count, "out_count"),
        )
    };
    get("prism_body_get_shapes", world, out_count, |handle| {
        shapes.check()?;
        let ids: Vec<PrismShapeId> = handle
            .world
            .body_shapes(body.into())?
            .iter()
            .map(|&id| id.into())
            .collect();
        shapes.fill(&ids)?;
        Ok(ids.len())
    })
}
