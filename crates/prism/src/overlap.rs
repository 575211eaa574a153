//! Overlap queries: the shapes in a box, under a convex shape, or at a point (see `query.rs`).
//!
//! Each walks the trees with a box — the query box, the proxy's box, or the point as a box of
//! no size — and keeps the candidates whose geometry really meets the query:
//!
//! ```text
//!   overlap_aabb    the shape's tight box (from its geometry and its body's transform,
//!                   not the fat box the tree holds) overlaps the query box
//!   overlap_shape   GJK: the distance between the cores is at most the sum of the radii
//!   overlap_point   the point is inside a solid shape (segments and chain segments, which
//!                   have no inside, never contain a point)
//! ```
//!
//! Touching counts as overlapping in all three. A shape is reported once, and the result is
//! sorted by shape index.

use crate::def::QueryFilter;
use crate::error::{PrismError, finite_vec};
use crate::query::validate_proxy;
use crate::shape::ShapeRecord;
use crate::shape_cast::proxy_box;
use crate::world::World;
use collision::{Aabb, ShapeProxy, compute_aabb, point_in_shape, proxy_overlaps_shape};
use core_soa::{ShapeId, Transform, Vec2};

impl World {
    /// The shapes whose tight boxes overlap `aabb` (touching counts), in shape-index order.
    /// Errors: a non-finite corner, or `min` above `max` on an axis.
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
        Ok(self.overlapping(&aabb, filter, |shape, transform| {
            compute_aabb(&shape.geometry, transform).overlaps(&aabb)
        }))
    }

    /// The shapes that `proxy` (world coordinates) overlaps or touches, in shape-index order.
    /// Errors: a non-finite proxy point or radius, or a negative radius.
    pub fn overlap_shape(
        &self,
        proxy: &ShapeProxy,
        filter: QueryFilter,
    ) -> Result<Vec<ShapeId>, PrismError> {
        validate_proxy(proxy)?;
        Ok(
            self.overlapping(&proxy_box(proxy), filter, |shape, transform| {
                proxy_overlaps_shape(proxy, &shape.geometry, transform)
            }),
        )
    }

    /// The solid shapes containing `point` (boundary included), in shape-index order.
    /// Errors: a non-finite point.
    pub fn overlap_point(
        &self,
        point: Vec2,
        filter: QueryFilter,
    ) -> Result<Vec<ShapeId>, PrismError> {
        finite_vec("point", point)?;
        let aabb = Aabb::new(point, point);
        Ok(self.overlapping(&aabb, filter, |shape, transform| {
            point_in_shape(&shape.geometry, transform, point)
        }))
    }

    /// The shapes whose fat boxes overlap `aabb`, that pass `filter` and for which `exact`
    /// holds, sorted by shape index.
    fn overlapping(
        &self,
        aabb: &Aabb,
        filter: QueryFilter,
        exact: impl Fn(&ShapeRecord, Transform) -> bool,
    ) -> Vec<ShapeId> {
        let mut found = Vec::new();
        for tree in self.query_trees() {
            tree.query(aabb, filter.mask_bits, |_proxy, user_data| {
                if let Some((id, shape, transform)) = self.query_candidate(user_data, &filter)
                    && exact(shape, transform)
                {
                    found.push(id);
                }
                true
            });
        }
        found.sort_unstable_by_key(|id| id.index());
        found
    }
}
