//! Events of the last step: contacts that began and stopped touching, joints that broke.
//!
//! After every `prism_world_step()` the world's event lists are copied once into C-layout
//! arrays kept in the `PrismWorld`, and the getters hand out pointers into them with their
//! counts. The arrays belong to the world: they stay valid and unchanged until the next
//! `prism_world_step()` or `prism_world_destroy()` on that world, whatever else is called in
//! between. Copying once per step rather than per request keeps a getter free of allocation and
//! makes every request between two steps see the same arrays.
//!
//! End events caused by destroying a body or shape between steps are delivered with the next
//! step's events, as in the engine, so a program that reads events after every step sees every
//! end exactly once. A pair reports events only if one of its shapes has
//! `enable_contact_events`. Later event kinds (sensors, hits) will come as further copies kept
//! here and further getters of the same form.

use crate::boundary::get;
use crate::ids::{PrismBodyId, PrismJointId, PrismShapeId};
use crate::math::PrismVec2;
use crate::pointer::{Out, WorldRef};
use crate::status::PrismStatus;
use crate::world::PrismWorld;
use prism::{
    ContactBeginTouchEvent, ContactEndTouchEvent, JointBreakEvent, Manifold, ManifoldPoint, World,
};

/// The most points a contact manifold has.
pub const PRISM_MAX_MANIFOLD_POINTS: usize = 2;

/// One point of a contact manifold.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismManifoldPoint {
    /// World point, midway between the two surfaces (m).
    pub point: PrismVec2,
    /// The point relative to body A's origin, in world orientation (m).
    pub anchor_a: PrismVec2,
    /// The point relative to body B's origin, in world orientation (m).
    pub anchor_b: PrismVec2,
    /// Signed distance along the normal (m); negative when overlapping.
    pub separation: f32,
    /// Accumulated normal impulse (N·s).
    pub normal_impulse: f32,
    /// Accumulated friction impulse (N·s).
    pub tangent_impulse: f32,
    /// Largest normal impulse during the last step (N·s).
    pub max_normal_impulse: f32,
    /// Relative normal velocity before the solve (m/s).
    pub normal_velocity: f32,
    /// Which features made this point (matches points across steps).
    pub id: u16,
    /// Whether the point persisted from the previous step.
    pub persisted: bool,
}

/// The contact points between two shapes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismManifold {
    /// Unit normal from shape A to shape B (world frame).
    pub normal: PrismVec2,
    /// The points; the first `point_count` are used.
    pub points: [PrismManifoldPoint; PRISM_MAX_MANIFOLD_POINTS],
    /// How many points are used (0 to `PRISM_MAX_MANIFOLD_POINTS`).
    pub point_count: u32,
}

/// Two shapes began touching during the step.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismContactBeginTouchEvent {
    /// The first shape.
    pub shape_a: PrismShapeId,
    /// The second shape.
    pub shape_b: PrismShapeId,
    /// The manifold when touching began (impulses not yet solved).
    pub manifold: PrismManifold,
}

/// Two shapes stopped touching, or one of them (or its body) was destroyed; the ids may
/// therefore be stale.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrismContactEndTouchEvent {
    /// The first shape.
    pub shape_a: PrismShapeId,
    /// The second shape.
    pub shape_b: PrismShapeId,
}

/// The contact events of the last step: arrays owned by the world, valid until the next
/// `prism_world_step()` or `prism_world_destroy()`. An empty array is NULL with count 0.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismContactEvents {
    /// Pairs that began touching, in contact order.
    pub begin_events: *const PrismContactBeginTouchEvent,
    /// How many begin events there are.
    pub begin_count: usize,
    /// Pairs that stopped touching, in contact order, after those ended by destructions.
    pub end_events: *const PrismContactEndTouchEvent,
    /// How many end events there are.
    pub end_count: usize,
}

/// A joint broke: its force or torque exceeded a break threshold. The joint is destroyed;
/// `joint` is stale.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismJointBreakEvent {
    /// The destroyed joint.
    pub joint: PrismJointId,
    /// Its first body.
    pub body_a: PrismBodyId,
    /// Its second body.
    pub body_b: PrismBodyId,
    /// The force (N) it applied to body B in the step it broke.
    pub force: PrismVec2,
    /// The torque (N·m) it applied to body B.
    pub torque: f32,
    /// The joint's user data.
    pub user_data: u64,
}

/// The joint events of the last step, owned by the world like `PrismContactEvents`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismJointEvents {
    /// Joints that broke, in the order the solver listed them.
    pub break_events: *const PrismJointBreakEvent,
    /// How many there are.
    pub break_count: usize,
}

/// The C copies of the last step's events.
#[derive(Debug, Default)]
pub(crate) struct EventCopies {
    begin: Vec<PrismContactBeginTouchEvent>,
    end: Vec<PrismContactEndTouchEvent>,
    breaks: Vec<PrismJointBreakEvent>,
}

impl EventCopies {
    /// Replaces the copies with the world's current events (called after every step).
    pub(crate) fn refresh(&mut self, world: &World) {
        let contacts = world.contact_events();
        self.begin.clear();
        self.begin.extend(contacts.begin.iter().map(begin_event));
        self.end.clear();
        self.end.extend(contacts.end.iter().map(end_event));
        self.breaks.clear();
        self.breaks
            .extend(world.joint_events().breaks.iter().map(break_event));
    }
}

/// The pointer to an array's first element, or NULL for an empty one.
fn array_start<T>(array: &[T]) -> *const T {
    if array.is_empty() {
        std::ptr::null()
    } else {
        array.as_ptr()
    }
}

fn manifold_point(point: &ManifoldPoint) -> PrismManifoldPoint {
    PrismManifoldPoint {
        point: point.point.into(),
        anchor_a: point.anchor_a.into(),
        anchor_b: point.anchor_b.into(),
        separation: point.separation,
        normal_impulse: point.normal_impulse,
        tangent_impulse: point.tangent_impulse,
        max_normal_impulse: point.max_normal_impulse,
        normal_velocity: point.normal_velocity,
        id: point.id,
        persisted: point.persisted,
    }
}

fn manifold(manifold: &Manifold) -> PrismManifold {
    PrismManifold {
        normal: manifold.normal.into(),
        points: manifold.points.each_ref().map(manifold_point),
        point_count: manifold.point_count as u32,
    }
}

fn begin_event(event: &ContactBeginTouchEvent) -> PrismContactBeginTouchEvent {
    PrismContactBeginTouchEvent {
        shape_a: event.shape_a.into(),
        shape_b: event.shape_b.into(),
        manifold: manifold(&event.manifold),
    }
}

fn end_event(event: &ContactEndTouchEvent) -> PrismContactEndTouchEvent {
    PrismContactEndTouchEvent {
        shape_a: event.shape_a.into(),
        shape_b: event.shape_b.into(),
    }
}

fn break_event(event: &JointBreakEvent) -> PrismJointBreakEvent {
    PrismJointBreakEvent {
        joint: event.joint.into(),
        body_a: event.body_a.into(),
        body_b: event.body_b.into(),
        force: event.force.into(),
        torque: event.torque,
        user_data: event.user_data,
    }
}

/// Writes the last step's contact events to `*out`: arrays owned by the world, valid until the
/// next `prism_world_step()` or `prism_world_destroy()`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_world_get_contact_events(
    world: *const PrismWorld,
    out: *mut PrismContactEvents,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_world_get_contact_events", world, out, |handle| {
        let copies = &handle.events;
        Ok(PrismContactEvents {
            begin_events: array_start(&copies.begin),
            begin_count: copies.begin.len(),
            end_events: array_start(&copies.end),
            end_count: copies.end.len(),
        })
    })
}

/// Writes the last step's joint events to `*out`: arrays owned by the world, valid until the
/// next `prism_world_step()` or `prism_world_destroy()`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_world_get_joint_events(
    world: *const PrismWorld,
    out: *mut PrismJointEvents,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_world_get_joint_events", world, out, |handle| {
        let breaks = &handle.events.breaks;
        Ok(PrismJointEvents {
            break_events: array_start(breaks),
            break_count: breaks.len(),
        })
    })
}
