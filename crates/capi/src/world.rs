//! Worlds: creation from a definition, destruction, the step, gravity and sleep.
//!
//! A `PrismWorld` is opaque to C: the engine's world, the C copies of the last step's events
//! (see `events.rs`) and the poisoned flag (see `boundary.rs`). C holds a pointer to it from
//! `prism_world_create()` until `prism_world_destroy()`.

use crate::boundary::{call, get, update};
use crate::def::{DEF_MARKER, check_marker, enum_value};
use crate::events::EventCopies;
use crate::ids::PrismBodyId;
use crate::math::PrismVec2;
use crate::pointer::{In, Out, OutSlice, WorldMut, WorldRef};
use crate::status::{CapiError, PrismStatus};
use prism::{SolverKind, World, WorldDef};

/// Which contact solver a world runs: one of the `PRISM_SOLVER_*` constants.
pub type PrismSolverKind = u32;

/// Catto's soft step with substeps (the default).
pub const PRISM_SOLVER_SOFT_STEP: PrismSolverKind = 0;

/// Classic sequential impulses with Baumgarte position feedback; the step's `substeps` is its
/// velocity iteration count.
pub const PRISM_SOLVER_SEQUENTIAL_IMPULSES: PrismSolverKind = 1;

/// A world's settings. Start from `prism_default_world_def()`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismWorldDef {
    /// Gravitational acceleration (m/s²). Default (0, −10).
    pub gravity: PrismVec2,
    /// Contact stiffness (Hz), > 0; the solver caps it at a quarter of the substep rate.
    pub contact_hertz: f32,
    /// Contact damping ratio, ≥ 0.
    pub contact_damping_ratio: f32,
    /// The largest speed (m/s) at which the solver pushes overlapping shapes apart, ≥ 0.
    pub max_contact_push_speed: f32,
    /// Joint stiffness (Hz), > 0.
    pub joint_hertz: f32,
    /// Joint damping ratio, ≥ 0.
    pub joint_damping_ratio: f32,
    /// Closing speed (m/s) below which restitution is ignored, ≥ 0.
    pub restitution_threshold: f32,
    /// Speed limit for every body (m/s), > 0.
    pub max_linear_speed: f32,
    /// Overlap (m) the solver tolerates between touching shapes, ≥ 0.
    pub linear_slop: f32,
    /// Baumgarte factor of the sequential-impulses solver, ≥ 0.
    pub baumgarte: f32,
    /// Which contact solver runs: a `PRISM_SOLVER_*` constant.
    pub solver_kind: PrismSolverKind,
    /// Whether the previous step's impulses seed the solver.
    pub enable_warm_starting: bool,
    /// Whether a resting pair that barely moved reuses its contact manifold.
    pub enable_contact_recycling: bool,
    /// Solves every contact one at a time on the scalar path (for debugging; slower).
    pub force_overflow: bool,
    /// Threads the step uses, ≥ 1: the calling thread and `worker_count − 1` helper threads
    /// the world starts. Results are bitwise identical for any worker count.
    pub worker_count: u32,
    /// Whether resting islands fall asleep.
    pub enable_sleep: bool,
    /// Whether fast bodies are swept against static shapes (and bullets against every body)
    /// and moved back to their time of impact (on by default).
    pub enable_continuous: bool,
    /// Set by `prism_default_world_def()`; leave it unchanged.
    pub internal_value: i32,
}

/// A world: opaque to C, created by `prism_world_create()` and freed by
/// `prism_world_destroy()`.
pub struct PrismWorld {
    pub(crate) world: World,
    /// The last step's events in C layout.
    pub(crate) events: EventCopies,
    /// Set when an internal error interrupted a change (see `boundary.rs`).
    pub(crate) poisoned: bool,
}

/// The header promises that reads (`const PrismWorld *`) may run on several threads at once,
/// which is sound only while a shared world is `Sync`; this fails to compile if it stops being.
const _: () = {
    const fn shared_reads_are_safe<T: Sync>() {}
    shared_reads_are_safe::<PrismWorld>();
};

impl PrismWorldDef {
    /// The engine's definition, or an error naming the field the C layer checks.
    fn to_prism(self) -> Result<WorldDef, CapiError> {
        check_marker(
            self.internal_value,
            "PrismWorldDef",
            "prism_default_world_def",
        )?;
        let solver_kind = enum_value(
            "PrismWorldDef::solver_kind",
            self.solver_kind,
            &[
                (
                    PRISM_SOLVER_SOFT_STEP,
                    "PRISM_SOLVER_SOFT_STEP",
                    SolverKind::SoftStep,
                ),
                (
                    PRISM_SOLVER_SEQUENTIAL_IMPULSES,
                    "PRISM_SOLVER_SEQUENTIAL_IMPULSES",
                    SolverKind::SequentialImpulses,
                ),
            ],
        )?;
        Ok(WorldDef {
            gravity: self.gravity.into(),
            contact_hertz: self.contact_hertz,
            contact_damping_ratio: self.contact_damping_ratio,
            max_contact_push_speed: self.max_contact_push_speed,
            joint_hertz: self.joint_hertz,
            joint_damping_ratio: self.joint_damping_ratio,
            restitution_threshold: self.restitution_threshold,
            max_linear_speed: self.max_linear_speed,
            linear_slop: self.linear_slop,
            baumgarte: self.baumgarte,
            solver_kind,
            enable_warm_starting: self.enable_warm_starting,
            enable_contact_recycling: self.enable_contact_recycling,
            force_overflow: self.force_overflow,
            worker_count: self.worker_count,
            enable_sleep: self.enable_sleep,
            enable_continuous: self.enable_continuous,
            // Settings the C definition does not carry yet keep the engine's defaults.
            ..WorldDef::default()
        })
    }
}

/// The default world settings (the engine's, which are Box2D's): gravity (0, −10), one worker.
#[unsafe(no_mangle)]
pub extern "C" fn prism_default_world_def() -> PrismWorldDef {
    let def = WorldDef::default();
    PrismWorldDef {
        gravity: def.gravity.into(),
        contact_hertz: def.contact_hertz,
        contact_damping_ratio: def.contact_damping_ratio,
        max_contact_push_speed: def.max_contact_push_speed,
        joint_hertz: def.joint_hertz,
        joint_damping_ratio: def.joint_damping_ratio,
        restitution_threshold: def.restitution_threshold,
        max_linear_speed: def.max_linear_speed,
        linear_slop: def.linear_slop,
        baumgarte: def.baumgarte,
        solver_kind: match def.solver_kind {
            SolverKind::SoftStep => PRISM_SOLVER_SOFT_STEP,
            SolverKind::SequentialImpulses => PRISM_SOLVER_SEQUENTIAL_IMPULSES,
        },
        enable_warm_starting: def.enable_warm_starting,
        enable_contact_recycling: def.enable_contact_recycling,
        force_overflow: def.force_overflow,
        worker_count: def.worker_count,
        enable_sleep: def.enable_sleep,
        enable_continuous: def.enable_continuous,
        internal_value: DEF_MARKER,
    }
}

/// Creates a world and writes it to `*out_world` (left unchanged on error).
///
/// Fails with the status of the first invalid field of `def`, or `PRISM_STATUS_THREAD_POOL`
/// if the worker threads cannot be started.
///
/// # Safety
///
/// See the pointer contract in `prism.h`'s introduction: `def` is readable, `out_world`
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_world_create(
    def: *const PrismWorldDef,
    out_world: *mut *mut PrismWorld,
) -> PrismStatus {
    // SAFETY: the caller keeps this function's pointer contract for both arguments.
    let (def, out_world) = unsafe { (In::new(def, "def"), Out::new(out_world, "out_world")) };
    call("prism_world_create", || {
        out_world.check()?;
        let world = World::new(def.read()?.to_prism()?)?;
        let handle = Box::new(PrismWorld {
            world,
            events: EventCopies::default(),
            poisoned: false,
        });
        out_world.put(Box::into_raw(handle))
    })
}

/// Destroys a world with everything in it. `world` must not be used afterwards. A NULL world
/// is ignored (returns `PRISM_STATUS_OK`), as `free(NULL)` is. Also accepts a poisoned world.
///
/// # Safety
///
/// `world` is NULL or a live world from `prism_world_create()`, destroyed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_world_destroy(world: *mut PrismWorld) -> PrismStatus {
    // SAFETY: the caller passes a live world (or NULL) and never uses it again.
    let world = unsafe { WorldMut::new(world).take() };
    call("prism_world_destroy", || {
        drop(world);
        Ok(())
    })
}

/// Advances the world by `dt` seconds (finite, ≥ 0) with `substeps` solver substeps (≥ 1;
/// 4 is typical). `dt = 0` pauses: nothing moves and the event lists read after it are empty.
///
/// Bodies that blew up during the step (a velocity or pose no longer finite) are put back where
/// they were at the start of the step, at rest, and listed by
/// `prism_world_get_diverged_bodies()`; the step still succeeds, the rest of the world stepped
/// normally, and its events are available.
///
/// # Safety
///
/// `world` is a live world, not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_world_step(
    world: *mut PrismWorld,
    dt: f32,
    substeps: u32,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_world_step", world, |handle| {
        let stepped = handle.world.step(dt, substeps);
        handle.events.refresh(&handle.world);
        Ok(stepped?)
    })
}

/// Copies the first `capacity` bodies the last step reset because they diverged into `bodies`
/// and writes how many there were to `*out_count` (0 after a healthy step; see the notes on
/// arrays in the introduction).
///
/// # Safety
///
/// `world` is a live world; `bodies` is writable for `capacity` ids (NULL only with
/// `capacity == 0`); `out_count` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_world_get_diverged_bodies(
    world: *const PrismWorld,
    bodies: *mut PrismBodyId,
    capacity: usize,
    out_count: *mut usize,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world`, `bodies` and `out_count`.
    let (world, bodies, out_count) = unsafe {
        (
            WorldRef::new(world),
            OutSlice::new(bodies, capacity, "bodies"),
            Out::new(out_count, "out_count"),
        )
    };
    get(
        "prism_world_get_diverged_bodies",
        world,
        out_count,
        |handle| {
            bodies.check()?;
            let diverged: Vec<PrismBodyId> = handle
                .world
                .diverged_bodies()
                .iter()
                .map(|&body| PrismBodyId::from(body))
                .collect();
            bodies.fill(&diverged)?;
            Ok(diverged.len())
        },
    )
}

/// Writes the world's gravity (m/s²) to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_world_get_gravity(
    world: *const PrismWorld,
    out: *mut PrismVec2,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_world_get_gravity", world, out, |handle| {
        Ok(handle.world.gravity().into())
    })
}

/// Sets the world's gravity (m/s², finite).
///
/// # Safety
///
/// `world` is a live world, not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_world_set_gravity(
    world: *mut PrismWorld,
    gravity: PrismVec2,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_world_set_gravity", world, |handle| {
        Ok(handle.world.set_gravity(gravity.into())?)
    })
}

/// Enables or disables sleeping for the whole world; disabling wakes every sleeping body.
///
/// # Safety
///
/// `world` is a live world, not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_world_enable_sleep(
    world: *mut PrismWorld,
    enable: bool,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_world_enable_sleep", world, |handle| {
        handle.world.set_sleep_enabled(enable);
        Ok(())
    })
}

/// Whether a light step (a world almost all asleep: few awake bodies, constraints, moved
/// proxies and sensors, no particle system) runs serially on the calling thread rather than
/// sharing its passes with the world's helper threads; on by default. Off, every step of a
/// world with several workers shares them. The results are the same either way; only the cost
/// of offering the work differs.
///
/// # Safety
///
/// `world` is a live world, not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_world_set_light_steps_on_caller(
    world: *mut PrismWorld,
    on: bool,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_world_set_light_steps_on_caller", world, |handle| {
        handle.world.set_light_steps_on_caller(on);
        Ok(())
    })
}
