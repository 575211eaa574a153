//! World queries: what the shapes of the world are at a point, in a region, or along a path.
//!
//! Every query has the same two stages. A **broad** stage walks the broadphase trees (static,
//! moving and sleeping, in that order), which know only fat boxes and category bits; then an
//! **exact** stage tests each candidate's geometry at its body's current transform, with the
//! `collision` crate's routines:
//!
//! ```text
//!   query                 broad stage (per tree)         exact stage
//!   ray cast (ray.rs)     ray against fat boxes          ray_cast_shape
//!   shape cast            swept box against fat boxes    shape_cast (conservative advancement)
//!   overlap: box          box against fat boxes          the shape's tight box
//!   overlap: shape        the proxy's box                GJK distance ≤ sum of radii
//!   overlap: point        the point                      point_in_shape
//!   mover (mover.rs)      capsule box / swept box        collide_mover / shape_cast
//!   explosion             the blast's box                point distance to the shape
//! ```
//!
//! The [`QueryFilter`] is applied in both directions before the exact stage: the shape's
//! category must meet the query's mask and the query's category the shape's mask (the trees
//! already skip subtrees none of whose categories the mask accepts). Shapes of disabled bodies
//! have no proxies and are never found.
//!
//! **Casts report to a callback.** A ray or shape cast calls the user's function with each hit
//! in tree order, and the [`CastControl`] it returns decides the rest of the search: go on
//! unchanged (collect everything), clip the cast to this hit (so only nearer or equally near
//! hits follow — the closest-hit search), or stop at once (any hit will do). A clipped cast
//! carries its clip from one tree to the next. The `_closest` and `_all` forms are that
//! callback with a fixed rule; their results are deterministic (ties in fraction go to the
//! lower shape index, lists are sorted by fraction then shape index). Overlap queries return
//! the shapes in shape-index order.
//!
//! Queries read the world and never change it, so they may run between steps from any
//! number of threads at once (`World` is `Sync`).

use crate::def::QueryFilter;
use crate::error::{PrismError, finite, finite_vec};
use crate::shape::ShapeRecord;
use crate::world::World;
use collision::ShapeProxy;
use collision::tree::DynamicTree;
use core_soa::{ShapeId, Transform};

/// What a cast callback wants done with the rest of the search (see the module notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastControl {
    /// Search on over the whole remaining cast.
    Continue,
    /// Search on, but only up to this hit's fraction: later hits are no farther than it.
    Clip,
    /// End the search now.
    Stop,
}

impl CastControl {
    /// The value the tree's cast callback returns for this decision on a hit at `fraction`,
    /// with the cast currently reaching `current` (see `DynamicTree::ray_cast`): a clip at 0
    /// becomes the smallest positive fraction, so hits at exactly 0 in the rest of the tree are
    /// still reported, where a tree value of 0 would stop.
    pub(crate) fn tree_value(self, fraction: f32, current: f32) -> f32 {
        match self {
            CastControl::Continue => current,
            CastControl::Clip => fraction.max(f32::MIN_POSITIVE),
            CastControl::Stop => 0.0,
        }
    }
}

impl World {
    /// The broadphase trees in the order queries walk them.
    pub(crate) fn query_trees(&self) -> [&DynamicTree; 3] {
        let broadphase = &self.broadphase;
        [
            &broadphase.static_tree,
            &broadphase.moving_tree,
            &broadphase.sleeping_tree,
        ]
    }

    /// The shape behind a proxy's user data, with its body's transform, if it passes `filter`.
    pub(crate) fn query_candidate(
        &self,
        user_data: u64,
        filter: &QueryFilter,
    ) -> Option<(ShapeId, &ShapeRecord, Transform)> {
        let id = self.shapes.key_at(user_data as u32)?;
        let shape = self.shapes.get(id)?;
        if !filter.accepts(&shape.filter) {
            return None;
        }
        let transform = self.body_sim(shape.body.index())?.transform;
        Some((id, shape, transform))
    }
}

/// Checks a user's proxy: finite points and a finite, non-negative radius (a proxy made by
/// [`ShapeProxy::new`] always passes; one made from a hand-built shape may not).
pub(crate) fn validate_proxy(proxy: &ShapeProxy) -> Result<(), PrismError> {
    for &point in proxy.points() {
        finite_vec("proxy.points", point)?;
    }
    let radius = finite("proxy.radius", proxy.radius())?;
    if radius < 0.0 {
        return Err(PrismError::OutOfRange {
            field: "proxy.radius",
            value: radius,
            requirement: "at least 0",
        });
    }
    Ok(())
}

/// A cast result (ray or shape cast), ordered by where along the cast it is, ties by shape
/// index: the order the closest and all-hits queries report in.
pub(crate) trait CastHit: Copy {
    /// Where along the translation the hit is.
    fn fraction(&self) -> f32;
    /// The shape hit.
    fn shape(&self) -> ShapeId;

    /// `self` before `other` in the reporting order.
    fn cast_order(&self, other: &Self) -> std::cmp::Ordering {
        self.fraction()
            .total_cmp(&other.fraction())
            .then(self.shape().index().cmp(&other.shape().index()))
    }
}

/// A callback keeping the first hit in [`CastHit::cast_order`] in `best`, clipping the search to
/// each new best.
pub(crate) fn keep_closest<H: CastHit>(best: &mut Option<H>) -> impl FnMut(H) -> CastControl + '_ {
    move |hit| {
        if best.is_none_or(|b| hit.cast_order(&b).is_lt()) {
            *best = Some(hit);
        }
        CastControl::Clip
    }
}

/// A callback collecting every hit into `hits` (sort them with [`CastHit::cast_order`]).
pub(crate) fn keep_all<H: CastHit>(hits: &mut Vec<H>) -> impl FnMut(H) -> CastControl + '_ {
    move |hit| {
        hits.push(hit);
        CastControl::Continue
    }
}
