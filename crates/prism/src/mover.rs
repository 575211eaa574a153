//! A kinematic character mover on the world, in the manner of Box2D v3.1.
//!
//! A character is a capsule the game moves by hand, not a body the solver moves: each frame
//! it asks the world how far it may go. Three queries make that answer (the geometry is the
//! `collision` crate's `mover.rs`):
//!
//! - [`World::collide_mover`]: the shapes the capsule touches or overlaps where it stands, each
//!   as a *plane* `n·δ ≥ offset` its move `δ` must satisfy (`n` from the shape towards the
//!   capsule, `offset` how deep the capsule is in);
//! - [`World::cast_mover`]: how far along a translation the capsule can sweep before it
//!   meets a shape — stopping a linear slop inside it, as Box2D's mover cast does, so that the
//!   next [`World::collide_mover`] finds that shape's plane — letting it slide out of or along
//!   shapes it already touches (the cast "encroaches": shapes it starts in stop it only once
//!   it would sink a further linear slop);
//! - [`World::move_character`]: the loop Box2D's character sample runs with those two:
//!
//! ```text
//!   δ_total ← 0
//!   repeat up to 5 times:
//!       planes ← collide_mover(capsule moved by δ_total)
//!       δ      ← solve_planes(target − δ_total, planes)     the move closest to the rest of
//!                                                          the target that clears the planes
//!       f      ← cast_mover(capsule moved by δ_total, δ)    how much of it is free
//!       δ_total ← δ_total + f·δ
//!       stop when f = 1 (the solved move was free), or when the round started touching
//!       something and moved less than MOVE_TOLERANCE
//!   planes ← collide_mover(capsule moved by δ_total,        where it ends, with the push each
//!                          radius grown by CONTACT_SKIN)    would need against the rest
//!   solve_planes(target − δ_total, planes)
//! ```
//!
//! A round that starts clear of everything and is stopped short by the cast goes on, however
//! short its step: the next round has the plane of what it met and slides along it. (Box2D's
//! sample stops on any short step, which leaves a character that starts a few millimetres
//! above a slope stuck where the first cast met it for that frame.)
//!
//! Against a wall the plane solver removes the part of the move into the wall, so the
//! character slides along it; on a slope the floor's plane lifts a horizontal move onto the
//! slope, so it walks up (and, with gravity in the target, down) the slope. The planes where
//! the capsule ends, with how hard each pushes against the part of the target it did not
//! reach, are returned so the game can take the blocked part out of its velocity
//! ([`CharacterMove::clip_velocity`]).
//!
//! Everything here reads the world only; a character that should push bodies, or be pushed,
//! does that itself (with impulses or a kinematic body).

use crate::def::QueryFilter;
use crate::error::{PrismError, finite_vec};
use crate::world::World;
use collision::{
    Capsule, CollisionPlane, LINEAR_SLOP, Plane, ShapeCastInput, ShapeProxy, clip_vector,
    collide_mover, solve_planes,
};
use core_soa::{BodyId, ShapeId, Vec2};

/// The most collide-solve-cast rounds [`World::move_character`] makes (Box2D's sample's).
const MOVE_ITERATIONS: u32 = 5;

/// A round that starts in contact and moves the capsule less than this (m) ends the move.
/// Against a shape that blocks the target, rounds move the capsule across a skin of two
/// linear slops — the cast lets it sink one slop into what it meets, the plane solver pushes
/// it one slop clear — so such a round only shuffles it within that skin.
const MOVE_TOLERANCE: f32 = 3.0 * LINEAR_SLOP;

/// How close (m) a shape must be to the capsule where a move ends to count as one of its
/// contacts: two linear slops, since the move leaves the capsule up to a slop clear of what
/// it pressed against (the plane solver's margin).
const CONTACT_SKIN: f32 = 2.0 * LINEAR_SLOP;

/// One shape's plane against a mover capsule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoverPlane {
    /// The shape touched.
    pub shape: ShapeId,
    /// Its body.
    pub body: BodyId,
    /// The plane a move must satisfy: `plane.normal · δ ≥ plane.offset`.
    pub plane: Plane,
    /// The closest point of the shape's surface to the capsule (world).
    pub point: Vec2,
}

/// What [`World::move_character`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct CharacterMove {
    /// How far the capsule may move (world): add it to the character's position.
    pub translation: Vec2,
    /// The planes of the shapes within two linear slops of the capsule where it ends (an
    /// offset below zero: clear of the shape by that much), in shape-index order.
    pub contacts: Vec<MoverPlane>,
    /// The same planes in the plane solver's form (same order), each with the push it needs
    /// against the part of the target not reached: a plane that blocked the move pushes.
    pub planes: Vec<CollisionPlane>,
    /// Collide-solve-cast rounds made.
    pub iterations: u32,
}

impl CharacterMove {
    /// `velocity` without its parts into the planes that pushed the capsule: a character
    /// running into a wall keeps only its speed along the wall.
    pub fn clip_velocity(&self, velocity: Vec2) -> Vec2 {
        clip_vector(velocity, &self.planes)
    }
}

impl World {
    /// The planes of the shapes `mover` (world coordinates) touches or overlaps, in shape-index
    /// order. Errors: see [`World::move_character`].
    pub fn collide_mover(
        &self,
        mover: &Capsule,
        filter: QueryFilter,
    ) -> Result<Vec<MoverPlane>, PrismError> {
        validate_mover(mover)?;
        Ok(self.mover_planes(mover, filter))
    }

    /// The fraction of `translation` the capsule `mover` (world coordinates) can sweep before
    /// it is a linear slop inside a shape (1 if it never is). Shapes the capsule starts in do
    /// not stop it while it moves out of them or sinks in by less than a linear slop. Errors: see
    /// [`World::move_character`], and a non-finite translation.
    pub fn cast_mover(
        &self,
        mover: &Capsule,
        translation: Vec2,
        filter: QueryFilter,
    ) -> Result<f32, PrismError> {
        validate_mover(mover)?;
        finite_vec("translation", translation)?;
        Ok(self.mover_fraction(mover, translation, filter))
    }

    /// Moves the capsule `mover` (world coordinates) towards `mover + target` as far as the
    /// shapes passing `filter` allow, sliding along what it meets (see the module notes).
    /// Errors: a non-finite centre, a radius not above twice the linear slop (1 cm), a
    /// non-finite target.
    pub fn move_character(
        &self,
        mover: &Capsule,
        target: Vec2,
        filter: QueryFilter,
    ) -> Result<CharacterMove, PrismError> {
        validate_mover(mover)?;
        finite_vec("target", target)?;
        let mut moved = Vec2::ZERO;
        let mut iterations = 0;
        while iterations < MOVE_ITERATIONS {
            iterations += 1;
            let here = shifted(mover, moved);
            let mut planes = rigid_planes(&self.mover_planes(&here, filter));
            let solved = solve_planes(target - moved, &mut planes);
            let fraction = self.mover_fraction(&here, solved.translation, filter);
            let step = fraction * solved.translation;
            moved += step;
            let shuffled = !planes.is_empty() && step.length() < MOVE_TOLERANCE;
            if fraction >= 1.0 || shuffled {
                break;
            }
        }
        let contacts = self.skin_planes(&shifted(mover, moved), filter);
        let mut planes = rigid_planes(&contacts);
        solve_planes(target - moved, &mut planes);
        Ok(CharacterMove {
            translation: moved,
            contacts,
            planes,
            iterations,
        })
    }

    /// The planes of the shapes within [`CONTACT_SKIN`] of the capsule, with their true
    /// offsets (negative: the capsule is clear of the shape by that much).
    fn skin_planes(&self, mover: &Capsule, filter: QueryFilter) -> Vec<MoverPlane> {
        let grown = Capsule {
            radius: mover.radius + CONTACT_SKIN,
            ..*mover
        };
        let mut planes = self.mover_planes(&grown, filter);
        for plane in &mut planes {
            plane.plane.offset -= CONTACT_SKIN;
        }
        planes
    }

    /// [`World::collide_mover`] for a validated capsule.
    fn mover_planes(&self, mover: &Capsule, filter: QueryFilter) -> Vec<MoverPlane> {
        let r = Vec2::splat(mover.radius);
        let aabb = collision::Aabb::new(
            mover.center1.min(mover.center2) - r,
            mover.center1.max(mover.center2) + r,
        );
        let mut planes = Vec::new();
        for tree in self.query_trees() {
            tree.query(&aabb, filter.mask_bits, |_proxy, user_data| {
                let Some((id, shape, transform)) = self.query_candidate(user_data, &filter) else {
                    return true;
                };
                if let Some(contact) = collide_mover(mover, &shape.geometry, transform)
                    && is_unit(contact.plane.normal)
                {
                    planes.push(MoverPlane {
                        shape: id,
                        body: shape.body,
                        plane: contact.plane,
                        point: contact.point,
                    });
                }
                true
            });
        }
        planes.sort_unstable_by_key(|plane| plane.shape.index());
        planes
    }

    /// [`World::cast_mover`] for validated input: the least fraction of the encroaching casts,
    /// ignoring shapes the capsule is stuck in at fraction 0 (the planes deal with those).
    /// A cast stops with the capsule a linear slop inside what it meets (as Box2D's does), so
    /// the next round's [`World::collide_mover`] finds that shape's plane.
    fn mover_fraction(&self, mover: &Capsule, translation: Vec2, filter: QueryFilter) -> f32 {
        let Ok(proxy) = ShapeProxy::new(&[mover.center1, mover.center2], mover.radius) else {
            return 1.0;
        };
        let input = ShapeCastInput {
            can_encroach: true,
            target_separation: -LINEAR_SLOP,
            ..ShapeCastInput::new(proxy, translation)
        };
        let mut fraction = 1.0f32;
        self.sweep(&input, filter, |hit| {
            if hit.fraction > 0.0 {
                fraction = fraction.min(hit.fraction);
                crate::query::CastControl::Clip
            } else {
                crate::query::CastControl::Continue
            }
        });
        fraction
    }
}

/// Rigid, velocity-clipping solver planes for the contacts, in the same order.
fn rigid_planes(contacts: &[MoverPlane]) -> Vec<CollisionPlane> {
    contacts
        .iter()
        .map(|contact| CollisionPlane::rigid(contact.plane))
        .collect()
}

/// The capsule moved by `offset`.
fn shifted(mover: &Capsule, offset: Vec2) -> Capsule {
    Capsule {
        center1: mover.center1 + offset,
        center2: mover.center2 + offset,
        radius: mover.radius,
    }
}

/// Whether `normal` is of unit length to within float rounding (a plane from a degenerate
/// configuration is dropped, as Box2D does).
fn is_unit(normal: Vec2) -> bool {
    (normal.length_squared() - 1.0).abs() < 1.0e-4
}

/// Finite centres and a radius above twice the linear slop: the encroaching cast lets a
/// capsule sink a slop into what it touches, which a thinner one could pass through.
fn validate_mover(mover: &Capsule) -> Result<(), PrismError> {
    finite_vec("mover.center1", mover.center1)?;
    finite_vec("mover.center2", mover.center2)?;
    let radius = crate::error::finite("mover.radius", mover.radius)?;
    if radius <= 2.0 * LINEAR_SLOP {
        return Err(PrismError::OutOfRange {
            field: "mover.radius",
            value: radius,
            requirement: "greater than twice the linear slop (0.01 m)",
        });
    }
    Ok(())
}
