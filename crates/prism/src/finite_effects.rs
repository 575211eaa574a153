//! Finite arguments with infinite effects: calls refused because of what they would do.
//!
//! An impulse of 10³⁸ N·s is finite, and so is a lever arm of 10⁹ m; the angular velocity
//! their product gives a body is not. A force added to a force already accumulated can
//! overflow the same way, and a teleport to 3·10³⁸ m puts the centre of mass (origin plus the
//! rotated local centre) past `f32::MAX`. The argument checks cannot see this, so these calls
//! compute the state they would leave first, from the body as it is, and refuse with an
//! error naming the argument when any of it is not finite — before waking the body or
//! changing anything, like every other refusal. The values then installed are computed again
//! by the same expressions, so a call that passes gives exactly the bits it always gave.
//!
//! The same holds for where shapes end up: a chain point at `f32::MAX` is finite, but its
//! bounding box, grown by the broadphase margin, is not, and no tree can hold it. A shape is
//! accepted only if its box at its body's pose stays within half of `f32::MAX` of the origin
//! (room for the margin, and for the body to move), and a body is moved only if all its
//! shapes' boxes do.

use crate::error::PrismError;
use crate::world::World;
use collision::Shape;
use collision::geometry::compute_aabb;
use core_soa::{BodyId, BodySim, BodyState, BodyType, Transform};

/// Whether `geometry` placed at `transform` has a bounding box within half of `f32::MAX` of
/// the origin (see the module notes).
pub(crate) fn shape_box_fits(geometry: &Shape, transform: Transform) -> bool {
    let aabb = compute_aabb(geometry, transform);
    let limit = 0.5 * f32::MAX;
    [aabb.min.x, aabb.min.y, aabb.max.x, aabb.max.y]
        .iter()
        .all(|v| v.abs() <= limit)
}

/// The error for a shape whose box does not fit (`field` names its placing argument).
pub(crate) fn box_out_of_range(field: &'static str, value: f32) -> PrismError {
    PrismError::OutOfRange {
        field,
        value,
        requirement: "near enough to the world origin, on its body, that the shape's bounding \
                      box is within half of f32::MAX",
    }
}

impl World {
    /// The pose of body `id` (a live body).
    pub(crate) fn body_transform(&self, id: BodyId) -> Result<Transform, PrismError> {
        Ok(self.sim(id)?.transform)
    }

    /// Whether every shape of body `id` fits at `transform`.
    pub(crate) fn body_shapes_fit(&self, id: BodyId, transform: Transform) -> bool {
        self.body(id).is_ok_and(|body| {
            body.shapes.iter().all(|&shape| {
                self.shapes
                    .get(shape)
                    .is_none_or(|record| shape_box_fits(&record.geometry, transform))
            })
        })
    }

    /// Refuses the call (naming `field`, reporting `value`) if `stays_finite` is false for the
    /// body's current sim and state. Only dynamic bodies are checked when `dynamic_only`
    /// (forces and impulses do nothing to the others).
    pub(crate) fn refuse_infinite_effect(
        &self,
        id: BodyId,
        field: &'static str,
        value: f32,
        dynamic_only: bool,
        stays_finite: impl FnOnce(&BodySim, &BodyState) -> bool,
    ) -> Result<(), PrismError> {
        let body = self.body(id)?;
        if dynamic_only && body.body_type != BodyType::Dynamic {
            return Ok(());
        }
        let Some((sim, state)) = self.solver_sets[body.set_index as usize]
            .bodies
            .get(body.local_index)
        else {
            return Ok(());
        };
        if stays_finite(sim, state) {
            Ok(())
        } else {
            Err(PrismError::OutOfRange {
                field,
                value,
                requirement: "small enough that the body's state stays finite",
            })
        }
    }
}
