//! Ray casts against the world (see `query.rs` for how queries work).
//!
//! A ray is the segment `origin + t·translation`, `t ∈ [0, 1]`. Each tree is walked with the
//! ray clipped to the search's current reach; every fat box the ray enters is tested exactly
//! (`collision::ray_cast_shape`: circles, capsules and polygons are entered from outside only,
//! segments from either side, chain segments from their free side only) and a hit goes to the
//! callback, whose [`CastControl`] decides the rest of the search.

use crate::def::QueryFilter;
use crate::error::{PrismError, finite_vec};
use crate::query::{CastControl, CastHit, keep_all, keep_closest};
use crate::world::World;
use collision::raycast::{RayCastInput, ray_cast_shape};
use core_soa::{BodyId, ShapeId, Vec2};

/// A ray hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayResult {
    /// The shape hit.
    pub shape: ShapeId,
    /// The body the shape is attached to.
    pub body: BodyId,
    /// World point where the ray enters the shape.
    pub point: Vec2,
    /// Surface normal at `point` (unit, world frame).
    pub normal: Vec2,
    /// Where along `translation` the hit is: `point = origin + fraction·translation`.
    pub fraction: f32,
}

impl World {
    /// Casts the ray `origin → origin + translation` and calls `on_hit` with every hit within
    /// the search's current reach, in tree order; `on_hit` decides the rest of the search
    /// ([`CastControl`]). Errors: a non-finite `origin` or `translation`.
    pub fn cast_ray(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: QueryFilter,
        mut on_hit: impl FnMut(RayResult) -> CastControl,
    ) -> Result<(), PrismError> {
        validate_ray(origin, translation)?;
        let mut reach = 1.0;
        for tree in self.query_trees() {
            let mut stopped = false;
            tree.ray_cast(
                origin,
                translation,
                reach,
                filter.mask_bits,
                |o, t, current, _proxy, user_data| {
                    let Some(hit) = self.ray_cast_one(user_data, o, t, current, &filter) else {
                        return -1.0;
                    };
                    let control = on_hit(hit);
                    stopped = control == CastControl::Stop;
                    let value = control.tree_value(hit.fraction, current);
                    reach = value.min(reach);
                    value
                },
            );
            if stopped {
                break;
            }
        }
        Ok(())
    }

    /// The first shape hit by the segment `origin → origin + translation`, if any (ties in
    /// fraction go to the lower shape index).
    pub fn cast_ray_closest(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: QueryFilter,
    ) -> Result<Option<RayResult>, PrismError> {
        let mut best = None;
        self.cast_ray(origin, translation, filter, keep_closest(&mut best))?;
        Ok(best)
    }

    /// Every shape hit by the segment `origin → origin + translation`, nearest first (ties by
    /// shape index).
    pub fn cast_ray_all(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: QueryFilter,
    ) -> Result<Vec<RayResult>, PrismError> {
        let mut hits = Vec::new();
        self.cast_ray(origin, translation, filter, keep_all(&mut hits))?;
        hits.sort_by(CastHit::cast_order);
        Ok(hits)
    }

    /// The exact hit of the ray on the shape behind `user_data`, if it passes the filter.
    fn ray_cast_one(
        &self,
        user_data: u64,
        origin: Vec2,
        translation: Vec2,
        max_fraction: f32,
        filter: &QueryFilter,
    ) -> Option<RayResult> {
        let (id, shape, transform) = self.query_candidate(user_data, filter)?;
        let input = RayCastInput {
            origin,
            translation,
            max_fraction,
        };
        let hit = ray_cast_shape(&shape.geometry, transform, &input)?;
        Some(RayResult {
            shape: id,
            body: shape.body,
            point: hit.point,
            normal: hit.normal,
            fraction: hit.fraction,
        })
    }
}

/// The ray's points must be finite, and so must their squared lengths: the exact tests solve
/// quadratics in them (about 1.8·10¹⁹ m is the limit).
fn validate_ray(origin: Vec2, translation: Vec2) -> Result<(), PrismError> {
    finite_vec("origin", origin)?;
    finite_vec("translation", translation)?;
    for (field, v) in [("origin", origin), ("translation", translation)] {
        if !v.length_squared().is_finite() {
            return Err(PrismError::OutOfRange {
                field,
                value: v.x.abs().max(v.y.abs()),
                requirement: "small enough that its squared length is finite",
            });
        }
    }
    Ok(())
}

impl CastHit for RayResult {
    fn fraction(&self) -> f32 {
        self.fraction
    }

    fn shape(&self) -> ShapeId {
        self.shape
    }
}
