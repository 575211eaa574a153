//! Shape casts against the world: a convex shape swept along a translation (see `query.rs`).
//!
//! The swept shape is a [`ShapeProxy`] in world coordinates — up to eight points grown by a
//! radius, which covers every convex shape Prism has (`ShapeProxy::from_placed_shape` makes
//! one from a shape and a transform). The broad stage sweeps the proxy's box through each tree
//! (`DynamicTree::box_cast`); the exact stage is the `collision` crate's shape cast against each
//! candidate, conservative advancement on the GJK distance (Mirtich, "Impulse-based Dynamic
//! Simulation of Rigid Body Systems"), which finds the first fraction `t` at which the proxy
//! moved by `t·translation` touches the shape.
//!
//! A hit carries the point on the hit shape's surface and that surface's normal facing the
//! caster, at the configuration of the hit. A proxy that starts overlapping a shape hits it at
//! fraction 0 with `initial_overlap` set (its normal is zero when the cores overlap); one that
//! starts touching and slides along or away does not hit it. Chain segments are hit only by a
//! proxy that starts on their free side.

use crate::def::QueryFilter;
use crate::error::{PrismError, finite_vec};
use crate::query::{CastControl, CastHit, keep_all, keep_closest, validate_proxy};
use crate::world::World;
use collision::{Aabb, ShapeCastInput, ShapeProxy, shape_cast};
use core_soa::{BodyId, ShapeId, Vec2};

/// Where a swept shape first touches a shape of the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeCastResult {
    /// The shape hit.
    pub shape: ShapeId,
    /// The body the shape is attached to.
    pub body: BodyId,
    /// The point of contact on the hit shape's surface (world). For an initial overlap, a
    /// point between the two surfaces.
    pub point: Vec2,
    /// The hit shape's unit surface normal at `point`, facing the swept shape; zero for an
    /// initial overlap of the cores.
    pub normal: Vec2,
    /// How far along the translation the proxy touches: it is then moved by
    /// `fraction·translation`.
    pub fraction: f32,
    /// The proxy already overlapped the shape at the start (the fraction is then 0).
    pub initial_overlap: bool,
}

impl World {
    /// Sweeps `proxy` (world coordinates) along `translation` and calls `on_hit` with every
    /// shape it touches within the search's current reach, in tree order; `on_hit` decides the
    /// rest of the search ([`CastControl`]). Errors: a non-finite translation, proxy point or
    /// radius, or a negative radius.
    pub fn cast_shape(
        &self,
        proxy: &ShapeProxy,
        translation: Vec2,
        filter: QueryFilter,
        on_hit: impl FnMut(ShapeCastResult) -> CastControl,
    ) -> Result<(), PrismError> {
        validate_proxy(proxy)?;
        finite_vec("translation", translation)?;
        let input = ShapeCastInput::new(*proxy, translation);
        self.sweep(&input, filter, on_hit);
        Ok(())
    }

    /// The first shape `proxy` touches when swept along `translation`, if any (ties in
    /// fraction go to the lower shape index). A shape the proxy starts in is hit at 0.
    pub fn cast_shape_closest(
        &self,
        proxy: &ShapeProxy,
        translation: Vec2,
        filter: QueryFilter,
    ) -> Result<Option<ShapeCastResult>, PrismError> {
        let mut best = None;
        self.cast_shape(proxy, translation, filter, keep_closest(&mut best))?;
        Ok(best)
    }

    /// Every shape `proxy` touches when swept along `translation`, nearest first (ties by
    /// shape index).
    pub fn cast_shape_all(
        &self,
        proxy: &ShapeProxy,
        translation: Vec2,
        filter: QueryFilter,
    ) -> Result<Vec<ShapeCastResult>, PrismError> {
        let mut hits = Vec::new();
        self.cast_shape(proxy, translation, filter, keep_all(&mut hits))?;
        hits.sort_by(CastHit::cast_order);
        Ok(hits)
    }

    /// The walk behind [`World::cast_shape`], for a validated cast (its `max_fraction` is the
    /// starting reach, its other settings go to every exact cast).
    pub(crate) fn sweep(
        &self,
        input: &ShapeCastInput,
        filter: QueryFilter,
        mut on_hit: impl FnMut(ShapeCastResult) -> CastControl,
    ) {
        let swept_box = proxy_box(&input.proxy);
        let mut reach = input.max_fraction;
        for tree in self.query_trees() {
            let mut stopped = false;
            let start = reach;
            let visit = |current: f32, _proxy: u32, user_data: u64| {
                let cast = ShapeCastInput {
                    max_fraction: current,
                    ..*input
                };
                let Some(hit) = self.shape_cast_one(user_data, &cast, &filter) else {
                    return -1.0;
                };
                let control = on_hit(hit);
                stopped = control == CastControl::Stop;
                let value = control.tree_value(hit.fraction, current);
                reach = value.min(reach);
                value
            };
            tree.box_cast(
                &swept_box,
                input.translation,
                start,
                filter.mask_bits,
                visit,
            );
            if stopped {
                break;
            }
        }
    }

    /// The exact cast against the shape behind `user_data`, if it passes the filter.
    fn shape_cast_one(
        &self,
        user_data: u64,
        input: &ShapeCastInput,
        filter: &QueryFilter,
    ) -> Option<ShapeCastResult> {
        let (id, shape, transform) = self.query_candidate(user_data, filter)?;
        let hit = shape_cast(&shape.geometry, transform, input)?;
        Some(ShapeCastResult {
            shape: id,
            body: shape.body,
            point: hit.point,
            normal: hit.normal,
            fraction: hit.fraction,
            initial_overlap: hit.initial_overlap,
        })
    }
}

/// The box of a proxy: its points' box grown by its radius.
pub(crate) fn proxy_box(proxy: &ShapeProxy) -> Aabb {
    let points = proxy.points();
    let first = Aabb::new(points[0], points[0]);
    let hull = points[1..]
        .iter()
        .fold(first, |aabb, &p| aabb.union(&Aabb::new(p, p)));
    hull.fattened(proxy.radius())
}

impl CastHit for ShapeCastResult {
    fn fraction(&self) -> f32 {
        self.fraction
    }

    fn shape(&self) -> ShapeId {
        self.shape
    }
}
