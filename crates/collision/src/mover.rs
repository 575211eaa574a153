//! Geometry for a kinematic character mover: collision planes and the plane solver.
//!
//! A character controller in the manner of Box2D v3.1 moves a capsule by hand rather than by
//! the solver. Each frame it casts the capsule along the desired move ([`crate::shape_cast()`])
//! to find how far it can go, then gathers the shapes it touches near the new position as
//! *planes* and solves for the largest move that respects all of them:
//!
//! - [`collide_mover`] turns one shape near the capsule into a plane: the unit normal `n`
//!   points from the shape towards the capsule and the offset is how deep the capsule is in
//!   (`r_mover + r_shape − D`, positive when overlapping, `D` the core distance). A move `δ`
//!   satisfies the plane when `n·δ ≥ offset`: it carries the capsule at least out of the shape.
//! - [`solve_planes`] finds that move by projected Gauss–Seidel on the planes: starting from
//!   the desired move, each plane in turn pushes the move out along its normal by its violation
//!   `offset − n·δ` plus a linear slop of margin, the push accumulated per plane and clamped to
//!   `[0, push_limit]` (a push never pulls the mover into a shape; a finite limit makes a soft
//!   plane). It stops when a sweep over the planes pushes less than a slop in total.
//! - [`clip_vector`] removes from a velocity the part that runs into planes that pushed, so a
//!   character sliding along a wall keeps only its tangential speed.
//!
//! Chain segments count from both sides here: a mover's planes are about where the capsule
//! overlaps geometry, and a character is never meant to be behind terrain.

use core_soa::{Transform, Vec2};

use crate::distance::{SimplexCache, core_distance};
use crate::geometry::shape_centroid;
use crate::manifold::LINEAR_SLOP;
use crate::proxy::ShapeProxy;
use crate::shapes::{Capsule, Shape};

/// Plane-solver sweeps before giving up (it normally converges in two or three).
const MAX_PLANE_ITERATIONS: u32 = 20;

/// A plane a move must satisfy: `normal·δ ≥ offset`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plane {
    /// Unit normal, from the shape towards the mover.
    pub normal: Vec2,
    /// How far along `normal` the mover must move (positive: it overlaps the shape by that).
    pub offset: f32,
}

/// One shape's plane as [`collide_mover`] finds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoverContact {
    /// The plane the mover's move must satisfy.
    pub plane: Plane,
    /// The closest point of the shape's surface to the mover (world).
    pub point: Vec2,
}

/// A plane in the solver, with its accumulated push.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CollisionPlane {
    /// The plane.
    pub plane: Plane,
    /// The largest total push this plane may apply (m); `f32::MAX` for a rigid plane.
    pub push_limit: f32,
    /// The push the solver applied (m); written by [`solve_planes`].
    pub push: f32,
    /// Whether [`clip_vector`] should clip velocities against this plane.
    pub clip_velocity: bool,
}

impl CollisionPlane {
    /// A rigid plane that clips velocity.
    pub fn rigid(plane: Plane) -> CollisionPlane {
        CollisionPlane {
            plane,
            push_limit: f32::MAX,
            push: 0.0,
            clip_velocity: true,
        }
    }
}

/// The result of [`solve_planes`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaneSolverResult {
    /// The move that satisfies the planes as far as their push limits allow.
    pub translation: Vec2,
    /// Sweeps over the planes used.
    pub iterations: u32,
}

/// The plane of `shape` (placed by `xf`) against the `mover` capsule (world coordinates), if
/// the capsule touches or overlaps it. When the cores themselves overlap there is no closest
/// direction; the normal then runs from the shape's centroid to the capsule's centre (or +y),
/// with the offset set to the sum of the radii, a push that at least clears the rounding.
pub fn collide_mover(mover: &Capsule, shape: &Shape, xf: Transform) -> Option<MoverContact> {
    let local = [xf.inv_apply(mover.center1), xf.inv_apply(mover.center2)];
    let mover_core = ShapeProxy::new(&local, 0.0).ok()?;
    let shape_proxy = ShapeProxy::from_shape(shape);
    let total_radius = mover.radius + shape_proxy.radius();
    let core = core_distance(&shape_proxy, &mover_core, &mut SimplexCache::default());
    if core.distance > total_radius {
        return None;
    }
    let (normal, offset) = if core.normal == Vec2::ZERO {
        let centre = 0.5 * (local[0] + local[1]);
        let away = (centre - shape_centroid(shape)).normalize_or(Vec2::Y);
        (away, total_radius)
    } else {
        (core.normal, total_radius - core.distance)
    };
    let surface = core.point_a + shape_proxy.radius() * normal;
    Some(MoverContact {
        plane: Plane {
            normal: xf.q.rotate(normal),
            offset,
        },
        point: xf.apply(surface),
    })
}

/// The move closest to `target` that satisfies `planes` (module notes). Each plane's `push`
/// is reset and then holds what it pushed.
pub fn solve_planes(target: Vec2, planes: &mut [CollisionPlane]) -> PlaneSolverResult {
    for plane in planes.iter_mut() {
        plane.push = 0.0;
    }
    let mut delta = target;
    let mut iterations = 0;
    while iterations < MAX_PLANE_ITERATIONS {
        iterations += 1;
        let mut total_push = 0.0;
        for plane in planes.iter_mut() {
            let violation = plane.plane.offset - plane.plane.normal.dot(delta) + LINEAR_SLOP;
            let accumulated = (plane.push + violation).clamp(0.0, plane.push_limit);
            let push = accumulated - plane.push;
            plane.push = accumulated;
            delta += push * plane.plane.normal;
            total_push += push.abs();
        }
        if total_push < LINEAR_SLOP {
            break;
        }
    }
    PlaneSolverResult {
        translation: delta,
        iterations,
    }
}

/// `vector` without its components into the planes that pushed and clip velocity: for each
/// such plane, `v ← v − min(0, v·n)·n`.
pub fn clip_vector(vector: Vec2, planes: &[CollisionPlane]) -> Vec2 {
    planes
        .iter()
        .filter(|plane| plane.push != 0.0 && plane.clip_velocity)
        .fold(vector, |v, plane| {
            let n = plane.plane.normal;
            v - v.dot(n).min(0.0) * n
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hull::{make_rounded_box, make_square};
    use crate::test_support::{assert_close, assert_vec_close, placed, segment};

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    /// A vertical capsule: core from `bottom` up by 1 m, radius 0.25.
    fn standing_capsule(bottom: Vec2) -> Capsule {
        Capsule {
            center1: bottom,
            center2: bottom + v(0.0, 1.0),
            radius: 0.25,
        }
    }

    #[test]
    fn planes_of_a_floor_a_wall_and_a_corner() {
        let ground = Shape::Polygon(make_square(1.0).unwrap());
        let xf = placed(0.0, -1.0, 0.0); // top face at y = 0
        // Sunk 5 cm into the floor.
        let contact = collide_mover(&standing_capsule(v(0.3, 0.2)), &ground, xf).unwrap();
        assert_vec_close(contact.plane.normal, v(0.0, 1.0), 1e-6, "floor normal");
        assert_close(contact.plane.offset, 0.05, 1e-6, "floor depth");
        assert_vec_close(contact.point, v(0.3, 0.0), 1e-6, "floor point");
        // Clear of the floor by 5 cm: no plane.
        assert!(collide_mover(&standing_capsule(v(0.3, 0.3)), &ground, xf).is_none());
        // Beside the right face, 2 cm in, rotated frame: the plane turns with it.
        let turned = placed(4.0, 2.0, 0.5);
        let bottom = turned.apply(v(1.23, -0.5));
        let mover = Capsule {
            center1: bottom,
            center2: bottom + turned.q.rotate(v(0.0, 1.0)),
            radius: 0.25,
        };
        let contact = collide_mover(&mover, &ground, turned).unwrap();
        assert_vec_close(
            contact.plane.normal,
            turned.q.rotate(v(1.0, 0.0)),
            1e-5,
            "wall",
        );
        assert_close(contact.plane.offset, 0.02, 1e-5, "wall depth");
        // Against a rounded corner: the normal runs from the corner's core vertex.
        let rounded = Shape::Polygon(make_rounded_box(1.0, 1.0, 0.1).unwrap());
        let near_corner = standing_capsule(v(1.0, 1.0) + 0.3 * v(0.6, 0.8));
        let contact = collide_mover(&near_corner, &rounded, Transform::IDENTITY).unwrap();
        assert_vec_close(contact.plane.normal, v(0.6, 0.8), 1e-5, "corner normal");
        assert_close(contact.plane.offset, 0.35 - 0.3, 1e-5, "corner depth");
        // Core inside the box: no closest direction, so away from the centroid, by the radius.
        let inside = Capsule {
            center1: v(0.5, -0.5),
            center2: v(0.5, 0.5),
            radius: 0.25,
        };
        let contact = collide_mover(&inside, &ground, Transform::IDENTITY).unwrap();
        assert_vec_close(contact.plane.normal, v(1.0, 0.0), 1e-6, "escape direction");
        assert_close(contact.plane.offset, 0.25, 1e-6, "escape depth");
        // A segment counts from either side.
        let floor_segment = segment(v(-5.0, 0.0), v(5.0, 0.0));
        let below = Capsule {
            center1: v(0.0, -1.2),
            center2: v(0.0, -0.2),
            radius: 0.25,
        };
        let contact = collide_mover(&below, &floor_segment, Transform::IDENTITY).unwrap();
        assert_vec_close(
            contact.plane.normal,
            v(0.0, -1.0),
            1e-6,
            "under the segment",
        );
    }

    #[test]
    fn sliding_along_a_floor_and_stopping_in_a_corner() {
        let floor = Plane {
            normal: v(0.0, 1.0),
            offset: 0.0,
        };
        // Moving down and right into the floor: the vertical part is removed, up to a slop.
        let mut planes = [CollisionPlane::rigid(floor)];
        let result = solve_planes(v(1.0, -0.5), &mut planes);
        assert_vec_close(result.translation, v(1.0, LINEAR_SLOP), 1e-6, "slide");
        assert_close(planes[0].push, 0.5 + LINEAR_SLOP, 1e-6, "push");
        assert_vec_close(
            clip_vector(v(3.0, -2.0), &planes),
            v(3.0, 0.0),
            1e-6,
            "clipped",
        );
        // Moving away from the floor: no push, nothing clipped.
        let result = solve_planes(v(1.0, 0.5), &mut planes);
        assert_vec_close(result.translation, v(1.0, 0.5), 1e-6, "free");
        assert_eq!(planes[0].push, 0.0);
        assert_vec_close(
            clip_vector(v(3.0, -2.0), &planes),
            v(3.0, -2.0),
            1e-6,
            "unclipped",
        );
        // Into the corner of a floor and a wall facing −x at x = 0.2: stops at the wall.
        let wall = Plane {
            normal: v(-1.0, 0.0),
            offset: -0.2,
        };
        let mut corner = [CollisionPlane::rigid(floor), CollisionPlane::rigid(wall)];
        let result = solve_planes(v(1.0, -0.5), &mut corner);
        assert_vec_close(
            result.translation,
            v(0.2 - LINEAR_SLOP, LINEAR_SLOP),
            1e-5,
            "corner",
        );
        assert!(result.iterations <= 3, "{} iterations", result.iterations);
        // A slope at 30° under a move straight down: pushed out along the slope's normal.
        let slope_normal = v(-(0.5f32), 3.0f32.sqrt() * 0.5);
        let mut slope = [CollisionPlane::rigid(Plane {
            normal: slope_normal,
            offset: 0.0,
        })];
        let result = solve_planes(v(0.0, -1.0), &mut slope);
        assert_close(
            result.translation.dot(slope_normal),
            LINEAR_SLOP,
            1e-6,
            "on the slope",
        );
        // A soft plane pushes at most its limit.
        let mut soft = [CollisionPlane {
            push_limit: 0.1,
            clip_velocity: false,
            ..CollisionPlane::rigid(floor)
        }];
        let result = solve_planes(v(0.0, -1.0), &mut soft);
        assert_vec_close(result.translation, v(0.0, -0.9), 1e-6, "soft");
        assert_vec_close(
            clip_vector(v(0.0, -2.0), &soft),
            v(0.0, -2.0),
            1e-6,
            "not clipped",
        );
    }
}
