//! World queries: ray casts and box overlaps, over both broadphase trees.
//!
//! A query first walks a tree, which only knows fat boxes and category bits, then tests the
//! candidates exactly: the ray against the shape's geometry (`ray_cast_shape`), the box against
//! the shape's tight box. The [`QueryFilter`] is applied in both directions (the shape's category
//! against the query's mask, and the query's category against the shape's mask).
//!
//! The closest-hit cast shrinks the ray as it finds hits: each tree stops looking beyond the best
//! fraction so far, and the second tree starts from the first one's best. Results are
//! deterministic: ties in fraction are broken by shape index.

use crate::def::QueryFilter;
use crate::error::{PrismError, finite_vec};
use crate::world::World;
use collision::Aabb;
use collision::raycast::{RayCastInput, ray_cast_shape};
use core_soa::{ShapeId, Vec2};

/// A ray hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayResult {
    pub shape: ShapeId,
    /// World point where the ray enters the shape.
    pub point: Vec2,
    /// Surface normal at `point` (unit, world frame).
    pub normal: Vec2,
    /// Where along `translation` the hit is: `point = origin + fraction·translation`.
    pub fraction: f32,
}

impl World {
    /// The first shape hit by the segment `origin → origin + translation`, if any.
    pub fn cast_ray_closest(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: QueryFilter,
    ) -> Result<Option<RayResult>, PrismError> {
        validate_ray(origin, translation)?;
        let mut best: Option<RayResult> = None;
        self.visit_ray_hits(origin, translation, filter, |hit| {
            let closer = best.is_none_or(|b| {
                hit.fraction < b.fraction
                    || (hit.fraction == b.fraction && hit.shape.index() < b.shape.index())
            });
            if closer {
                best = Some(hit);
            }
            best.map_or(1.0, |b| b.fraction)
        });
        Ok(best)
    }

    /// Every shape hit by the segment `origin → origin + translation`, nearest first.
    pub fn cast_ray_all(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: QueryFilter,
    ) -> Result<Vec<RayResult>, PrismError> {
        validate_ray(origin, translation)?;
        let mut hits = Vec::new();
        self.visit_ray_hits(origin, translation, filter, |hit| {
            hits.push(hit);
            1.0
        });
        hits.sort_by(|a, b| {
            a.fraction
                .total_cmp(&b.fraction)
                .then(a.shape.index().cmp(&b.shape.index()))
        });
        Ok(hits)
    }

    /// The shapes whose tight boxes overlap `aabb` (touching counts), in shape-index order.
    pub fn overlap_aabb(
        &self,
        aabb: Aabb,
        filter: QueryFilter,
    ) -> Result<Vec<ShapeId>, PrismError> {
        finite_vec("aabb.min", aabb.min)?;
        finite_vec("aabb.max", aabb.max)?;
        if !aabb.is_valid() {
            return Err(PrismError::OutOfRange {
                field: "aabb",
                value: (aabb.max - aabb.min).min_element(),
                requirement: "a box with min <= max",
            });
        }
        let mut found = Vec::new();
        let broadphase = &self.broadphase;
        for tree in [
            &broadphase.static_tree,
            &broadphase.moving_tree,
            &broadphase.sleeping_tree,
        ] {
            tree.query(&aabb, filter.mask_bits, |_proxy, user_data| {
                let Some(id) = self.shapes.key_at(user_data as u32) else {
                    return true;
                };
                let Some(shape) = self.shapes.get(id) else {
                    return true;
                };
                if filter.accepts(&shape.filter) && self.tight_aabb(shape).overlaps(&aabb) {
                    found.push(id);
                }
                true
            });
        }
        found.sort_unstable_by_key(|id| id.index());
        Ok(found)
    }

    /// Calls `on_hit` for each exact hit found in every tree; `on_hit` returns the fraction the
    /// ray may be clipped to (1 to keep the whole ray).
    fn visit_ray_hits(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: QueryFilter,
        mut on_hit: impl FnMut(RayResult) -> f32,
    ) {
        let mut max_fraction = 1.0;
        let broadphase = &self.broadphase;
        for tree in [
            &broadphase.static_tree,
            &broadphase.moving_tree,
            &broadphase.sleeping_tree,
        ] {
            tree.ray_cast(
                origin,
                translation,
                max_fraction,
                filter.mask_bits,
                |o, t, current, _proxy, user_data| {
                    let Some(hit) = self.ray_cast_one(user_data as u32, o, t, current, filter)
                    else {
                        return -1.0;
                    };
                    max_fraction = on_hit(hit).min(max_fraction);
                    max_fraction
                },
            );
        }
    }

    /// The exact hit of the ray on shape `shape_index`, if it passes the filter.
    fn ray_cast_one(
        &self,
        shape_index: u32,
        origin: Vec2,
        translation: Vec2,
        max_fraction: f32,
        filter: QueryFilter,
    ) -> Option<RayResult> {
        let id = self.shapes.key_at(shape_index)?;
        let shape = self.shapes.get(id)?;
        if !filter.accepts(&shape.filter) {
            return None;
        }
        let transform = self.sim(shape.body).ok()?.transform;
        let input = RayCastInput {
            origin,
            translation,
            max_fraction,
        };
        let hit = ray_cast_shape(&shape.geometry, transform, &input)?;
        Some(RayResult {
            shape: id,
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
