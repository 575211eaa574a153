//! Shapes: circles, capsules, segments and convex polygons attached to a body, with a
//! material, a collision filter and the contact-events flag.
//!
//! Geometry is given in the body's frame (relative to the body origin). Creating a shape
//! recomputes its body's mass from all its shapes. The engine checks the geometry (finite
//! values, positive radii, segments longer than the linear slop) and the definition; polygons
//! are checked first by `polygon.rs`.

use crate::boundary::{create, get, probe, update};
use crate::def::{DEF_MARKER, check_marker};
use crate::ids::{PrismBodyId, PrismShapeId};
use crate::math::{PrismAabb, PrismVec2};
use crate::pointer::{In, Out, WorldMut, WorldRef};
use crate::polygon::PrismPolygon;
use crate::status::{CapiError, PrismStatus};
use crate::world::PrismWorld;
use prism::{Capsule, Circle, Filter, Segment, ShapeDef};

/// A solid circle.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismCircle {
    /// Centre in the body frame (m).
    pub center: PrismVec2,
    /// Radius (m), > 0.
    pub radius: f32,
}

/// A solid capsule: the points within `radius` of the segment `center1`–`center2`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismCapsule {
    /// First centre in the body frame (m).
    pub center1: PrismVec2,
    /// Second centre in the body frame (m).
    pub center2: PrismVec2,
    /// Radius (m), > 0.
    pub radius: f32,
}

/// A two-sided line segment (no area, no mass), longer than the linear slop.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismSegment {
    /// First end in the body frame (m).
    pub point1: PrismVec2,
    /// Second end in the body frame (m).
    pub point2: PrismVec2,
}

/// Which shapes may collide with which. Two shapes with the same non-zero `group_index`
/// always collide if it is positive and never if it is negative; otherwise they collide only
/// if each one's `category_bits` intersect the other's `mask_bits`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrismFilter {
    /// The categories this shape belongs to (default 1).
    pub category_bits: u64,
    /// The categories this shape accepts contacts with (default all).
    pub mask_bits: u64,
    /// Collision group (default 0: none).
    pub group_index: i32,
}

/// How to create a shape. Start from `prism_default_shape_def()`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismShapeDef {
    /// Mass per area (kg/m²), ≥ 0 (default 1). Zero makes a massless shape.
    pub density: f32,
    /// Coulomb friction coefficient, ≥ 0 (default 0.6). Mixed as `sqrt(f1·f2)`.
    pub friction: f32,
    /// Coefficient of restitution, ≥ 0 (default 0). Mixed as `max(r1, r2)`.
    pub restitution: f32,
    /// Collision filter.
    pub filter: PrismFilter,
    /// Whether this shape's contacts report begin/end touch events (either shape of a pair
    /// enabling it is enough; default true).
    pub enable_contact_events: bool,
    /// Opaque value for the caller.
    pub user_data: u64,
    /// Set by `prism_default_shape_def()`; leave it unchanged.
    pub internal_value: i32,
}

impl From<Filter> for PrismFilter {
    fn from(filter: Filter) -> PrismFilter {
        PrismFilter {
            category_bits: filter.category_bits,
            mask_bits: filter.mask_bits,
            group_index: filter.group_index,
        }
    }
}

impl From<PrismFilter> for Filter {
    fn from(filter: PrismFilter) -> Filter {
        Filter {
            category_bits: filter.category_bits,
            mask_bits: filter.mask_bits,
            group_index: filter.group_index,
        }
    }
}

impl PrismShapeDef {
    /// The engine's definition, if this one came from its default function.
    fn to_prism(self) -> Result<ShapeDef, CapiError> {
        check_marker(
            self.internal_value,
            "PrismShapeDef",
            "prism_default_shape_def",
        )?;
        Ok(ShapeDef {
            density: self.density,
            friction: self.friction,
            restitution: self.restitution,
            filter: self.filter.into(),
            enable_contact_events: self.enable_contact_events,
            user_data: self.user_data,
            // Flags the C definition does not carry yet keep the engine's defaults.
            ..ShapeDef::default()
        })
    }
}

/// The default shape: density 1, friction 0.6, restitution 0, category 1 colliding with
/// everything, contact events on.
#[unsafe(no_mangle)]
pub extern "C" fn prism_default_shape_def() -> PrismShapeDef {
    let def = ShapeDef::default();
    PrismShapeDef {
        density: def.density,
        friction: def.friction,
        restitution: def.restitution,
        filter: def.filter.into(),
        enable_contact_events: def.enable_contact_events,
        user_data: def.user_data,
        internal_value: DEF_MARKER,
    }
}

/// The default filter: category 1, colliding with every category, no group.
#[unsafe(no_mangle)]
pub extern "C" fn prism_default_filter() -> PrismFilter {
    Filter::default().into()
}

/// Attaches a circle to `body` and writes the shape's id to `*out_shape`.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call; `def` and `circle`
/// are readable; `out_shape` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_shape_create_circle(
    world: *mut PrismWorld,
    body: PrismBodyId,
    def: *const PrismShapeDef,
    circle: *const PrismCircle,
    out_shape: *mut PrismShapeId,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for all four arguments.
    let (world, def, circle, out) = unsafe {
        (
            WorldMut::new(world),
            In::new(def, "def"),
            In::new(circle, "circle"),
            Out::new(out_shape, "out_shape"),
        )
    };
    create("prism_shape_create_circle", world, out, |handle| {
        let (def, circle) = (def.read()?.to_prism()?, circle.read()?);
        let circle = Circle {
            center: circle.center.into(),
            radius: circle.radius,
        };
        Ok(handle
            .world
            .create_circle_shape(body.into(), &def, &circle)?
            .into())
    })
}

/// Attaches a capsule to `body` and writes the shape's id to `*out_shape`. A capsule whose
/// centres are closer than the linear slop is stored as a circle.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call; `def` and `capsule`
/// are readable; `out_shape` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_shape_create_capsule(
    world: *mut PrismWorld,
    body: PrismBodyId,
    def: *const PrismShapeDef,
    capsule: *const PrismCapsule,
    out_shape: *mut PrismShapeId,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for all four arguments.
    let (world, def, capsule, out) = unsafe {
        (
            WorldMut::new(world),
            In::new(def, "def"),
            In::new(capsule, "capsule"),
            Out::new(out_shape, "out_shape"),
        )
    };
    create("prism_shape_create_capsule", world, out, |handle| {
        let (def, capsule) = (def.read()?.to_prism()?, capsule.read()?);
        let capsule = Capsule {
            center1: capsule.center1.into(),
            center2: capsule.center2.into(),
            radius: capsule.radius,
        };
        Ok(handle
            .world
            .create_capsule_shape(body.into(), &def, &capsule)?
            .into())
    })
}

/// Attaches a segment to `body` and writes the shape's id to `*out_shape`.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call; `def` and `segment`
/// are readable; `out_shape` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_shape_create_segment(
    world: *mut PrismWorld,
    body: PrismBodyId,
    def: *const PrismShapeDef,
    segment: *const PrismSegment,
    out_shape: *mut PrismShapeId,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for all four arguments.
    let (world, def, segment, out) = unsafe {
        (
            WorldMut::new(world),
            In::new(def, "def"),
            In::new(segment, "segment"),
            Out::new(out_shape, "out_shape"),
        )
    };
    create("prism_shape_create_segment", world, out, |handle| {
        let (def, segment) = (def.read()?.to_prism()?, segment.read()?);
        let segment = Segment {
            point1: segment.point1.into(),
            point2: segment.point2.into(),
        };
        Ok(handle
            .world
            .create_segment_shape(body.into(), &def, &segment)?
            .into())
    })
}

/// Attaches a convex polygon (from `prism_make_polygon()`, `prism_make_box()`, …) to `body`
/// and writes the shape's id to `*out_shape`.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call; `def` and `polygon`
/// are readable; `out_shape` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_shape_create_polygon(
    world: *mut PrismWorld,
    body: PrismBodyId,
    def: *const PrismShapeDef,
    polygon: *const PrismPolygon,
    out_shape: *mut PrismShapeId,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for all four arguments.
    let (world, def, polygon, out) = unsafe {
        (
            WorldMut::new(world),
            In::new(def, "def"),
            In::new(polygon, "polygon"),
            Out::new(out_shape, "out_shape"),
        )
    };
    create("prism_shape_create_polygon", world, out, |handle| {
        let (def, polygon) = (def.read()?.to_prism()?, polygon.read()?.to_prism()?);
        Ok(handle
            .world
            .create_polygon_shape(body.into(), &def, &polygon)?
            .into())
    })
}

/// Destroys a shape and its contacts (touching ones report end events with the next step's
/// events) and recomputes its body's mass.
///
/// # Safety
///
/// `world` is a live world not used by another thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_shape_destroy(
    world: *mut PrismWorld,
    shape: PrismShapeId,
) -> PrismStatus {
    // SAFETY: the caller passes a live world used by this thread alone.
    let world = unsafe { WorldMut::new(world) };
    update("prism_shape_destroy", world, |handle| {
        Ok(handle.world.destroy_shape(shape.into())?)
    })
}

/// Whether `shape` names a live shape of `world`. False for a NULL or poisoned world.
///
/// # Safety
///
/// `world` is NULL or a live world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_shape_is_valid(
    world: *const PrismWorld,
    shape: PrismShapeId,
) -> bool {
    // SAFETY: the caller passes NULL or a live world.
    let world = unsafe { WorldRef::new(world) };
    probe(|| {
        let handle = world.get().ok()?;
        Some(!handle.poisoned && handle.world.is_shape_valid(shape.into()))
    })
}

/// Writes the id of the body the shape is attached to to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_shape_get_body(
    world: *const PrismWorld,
    shape: PrismShapeId,
    out: *mut PrismBodyId,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_shape_get_body", world, out, |handle| {
        Ok(handle.world.shape_body(shape.into())?.into())
    })
}

/// Writes the shape's tight world box, at its body's current pose, to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_shape_get_aabb(
    world: *const PrismWorld,
    shape: PrismShapeId,
    out: *mut PrismAabb,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_shape_get_aabb", world, out, |handle| {
        Ok(handle.world.shape_aabb(shape.into())?.into())
    })
}

/// Writes the shape's collision filter to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_shape_get_filter(
    world: *const PrismWorld,
    shape: PrismShapeId,
    out: *mut PrismFilter,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_shape_get_filter", world, out, |handle| {
        Ok(handle.world.shape_filter(shape.into())?.into())
    })
}

/// Writes the shape's user data to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_shape_get_user_data(
    world: *const PrismWorld,
    shape: PrismShapeId,
    out: *mut u64,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_shape_get_user_data", world, out, |handle| {
        Ok(handle.world.shape_user_data(shape.into())?)
    })
}

/// Writes the shape's density (kg/m²) to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_shape_get_density(
    world: *const PrismWorld,
    shape: PrismShapeId,
    out: *mut f32,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_shape_get_density", world, out, |handle| {
        Ok(handle.world.shape_density(shape.into())?)
    })
}

/// Writes the shape's friction coefficient to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_shape_get_friction(
    world: *const PrismWorld,
    shape: PrismShapeId,
    out: *mut f32,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_shape_get_friction", world, out, |handle| {
        Ok(handle.world.shape_friction(shape.into())?)
    })
}

/// Writes the shape's coefficient of restitution to `*out`.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_shape_get_restitution(
    world: *const PrismWorld,
    shape: PrismShapeId,
    out: *mut f32,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_shape_get_restitution", world, out, |handle| {
        Ok(handle.world.shape_restitution(shape.into())?)
    })
}
