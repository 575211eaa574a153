//! World queries: ray casts and box overlaps.
//!
//! Queries that find many shapes fill a caller's array: they copy the first `capacity` results
//! (nearest first for rays, in shape order for boxes) and write the total number found to
//! `*out_count`. A call with `capacity` 0 and a NULL array asks for the count alone; a count
//! larger than the capacity means the array holds only the first results. That is not an
//! error: the caller asked for at most `capacity`.

use crate::boundary::get;
use crate::ids::{PrismBodyId, PrismShapeId};
use crate::math::{PrismAabb, PrismVec2};
use crate::pointer::{Out, OutSlice, WorldRef};
use crate::status::{CapiError, PrismStatus};
use crate::world::PrismWorld;
use prism::{QueryFilter, RayResult};

/// Which shapes a query reports: those whose category intersects `mask_bits` and whose mask
/// accepts `category_bits`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrismQueryFilter {
    /// The query's categories (default 1).
    pub category_bits: u64,
    /// The shape categories the query reports (default all).
    pub mask_bits: u64,
}

/// A ray hit.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrismRayResult {
    /// The shape hit (`{0}` when `hit` is false).
    pub shape: PrismShapeId,
    /// The body the shape is attached to (`{0}` when `hit` is false).
    pub body: PrismBodyId,
    /// World point where the ray enters the shape (m).
    pub point: PrismVec2,
    /// Unit surface normal at `point`.
    pub normal: PrismVec2,
    /// Where along the translation the hit is: `point = origin + fraction·translation`.
    pub fraction: f32,
    /// Whether anything was hit (the other fields are zero if not).
    pub hit: bool,
}

impl From<PrismQueryFilter> for QueryFilter {
    fn from(filter: PrismQueryFilter) -> QueryFilter {
        QueryFilter {
            category_bits: filter.category_bits,
            mask_bits: filter.mask_bits,
        }
    }
}

impl From<RayResult> for PrismRayResult {
    fn from(result: RayResult) -> PrismRayResult {
        PrismRayResult {
            shape: result.shape.into(),
            body: result.body.into(),
            point: result.point.into(),
            normal: result.normal.into(),
            fraction: result.fraction,
            hit: true,
        }
    }
}

/// No hit: every field zero.
const MISS: PrismRayResult = PrismRayResult {
    shape: PrismShapeId { bits: 0 },
    body: PrismBodyId { bits: 0 },
    point: PrismVec2 { x: 0.0, y: 0.0 },
    normal: PrismVec2 { x: 0.0, y: 0.0 },
    fraction: 0.0,
    hit: false,
};

/// The default query filter: category 1, reporting every shape category.
#[unsafe(no_mangle)]
pub extern "C" fn prism_default_query_filter() -> PrismQueryFilter {
    let filter = QueryFilter::default();
    PrismQueryFilter {
        category_bits: filter.category_bits,
        mask_bits: filter.mask_bits,
    }
}

/// Casts the segment `origin → origin + translation` (both finite) and writes the first shape
/// hit to `*out` (`out->hit` false if none). Ties in distance go to the lower shape index.
///
/// # Safety
///
/// `world` is a live world; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_world_cast_ray_closest(
    world: *const PrismWorld,
    origin: PrismVec2,
    translation: PrismVec2,
    filter: PrismQueryFilter,
    out: *mut PrismRayResult,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world` and `out`.
    let (world, out) = unsafe { (WorldRef::new(world), Out::new(out, "out")) };
    get("prism_world_cast_ray_closest", world, out, |handle| {
        let hit =
            handle
                .world
                .cast_ray_closest(origin.into(), translation.into(), filter.into())?;
        Ok(hit.map_or(MISS, PrismRayResult::from))
    })
}

/// Casts the segment `origin → origin + translation` (both finite), copies the first
/// `capacity` hits, nearest first, into `results`, and writes the number of shapes hit to
/// `*out_count` (see the notes on arrays in the introduction).
///
/// # Safety
///
/// `world` is a live world; `results` is writable for `capacity` values (NULL only with
/// `capacity == 0`); `out_count` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_world_cast_ray_all(
    world: *const PrismWorld,
    origin: PrismVec2,
    translation: PrismVec2,
    filter: PrismQueryFilter,
    results: *mut PrismRayResult,
    capacity: usize,
    out_count: *mut usize,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world`, `results` and `out_count`.
    let (world, results, out_count) = unsafe {
        (
            WorldRef::new(world),
            OutSlice::new(results, capacity, "results"),
            Out::new(out_count, "out_count"),
        )
    };
    get("prism_world_cast_ray_all", world, out_count, |handle| {
        results.check()?;
        let hits: Vec<PrismRayResult> = handle
            .world
            .cast_ray_all(origin.into(), translation.into(), filter.into())?
            .into_iter()
            .map(PrismRayResult::from)
            .collect();
        results.fill(&hits)?;
        Ok(hits.len())
    })
}

/// Finds the shapes whose tight boxes overlap `aabb` (touching counts; `lower ≤ upper`),
/// copies the first `capacity` ids, in shape order, into `shapes`, and writes how many were
/// found to `*out_count`.
///
/// # Safety
///
/// `world` is a live world; `shapes` is writable for `capacity` ids (NULL only with
/// `capacity == 0`); `out_count` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prism_world_overlap_aabb(
    world: *const PrismWorld,
    aabb: PrismAabb,
    filter: PrismQueryFilter,
    shapes: *mut PrismShapeId,
    capacity: usize,
    out_count: *mut usize,
) -> PrismStatus {
    // SAFETY: the caller keeps the pointer contract for `world`, `shapes` and `out_count`.
    let (world, shapes, out_count) = unsafe {
        (
            WorldRef::new(world),
            OutSlice::new(shapes, capacity, "shapes"),
            Out::new(out_count, "out_count"),
        )
    };
    get("prism_world_overlap_aabb", world, out_count, |handle| {
        shapes.check()?;
        let found: Vec<PrismShapeId> = handle
            .world
            .overlap_aabb(aabb.into(), filter.into())
            .map_err(CapiError::from)?
            .into_iter()
            .map(PrismShapeId::from)
            .collect();
        shapes.fill(&found)?;
        Ok(found.len())
    })
}
