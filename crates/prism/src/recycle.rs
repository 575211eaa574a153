//! Contact recycling: reusing a resting pair's manifold while its relative pose barely changes.
//!
//! Most contacts in a resting stack see almost no relative motion from one step to the next,
//! yet the narrowphase would clip polygons for each of them every step. When a touching manifold
//! is computed, we record it in a form that moves with the bodies — the [`ManifoldFrame`]:
//!
//! - body B's pose in body A's frame, `R = X_A⁻¹ · X_B`;
//! - the normal in A's frame;
//! - for each point, the two surface points it joins: `c_A = p − ½ s n` on A (stored in A's
//!   frame) and `c_B = p + ½ s n` on B (stored in B's frame), where `p` is the mid-point and
//!   `s` the separation.
//!
//! On a later step, if `R` has moved by less than [`RECYCLE_LINEAR_TOLERANCE`] and turned by
//! less than [`RECYCLE_ANGULAR_TOLERANCE`] since that capture, the manifold is rebuilt from the
//! frame instead of re-collided: the normal and both surface points are carried to the world by
//! the current transforms, and each point's separation is the gap along the normal,
//! `s' = n'·(c_B' − c_A')`, its mid-point `½(c_A' + c_B')`. This is the same first-order update
//! the solver uses for separations inside a step; it is exact for the tracked features and only
//! misses a feature change, which the tolerances keep far below the speculative margin (a
//! 1 m box tilting by the angular tolerance moves a corner by 2.5 mm, an eighth of it).
//!
//! The comparison is always against the pose at capture, never the last recycled one, so slow
//! drift cannot accumulate unseen: after at most the tolerance the pair is re-collided and
//! re-captured. Feature ids and accumulated impulses are kept, so warm starting is unchanged.
//! A recycled point that drifted beyond the speculative distance forces a full collide.

use collision::{Manifold, SPECULATIVE_DISTANCE};
use core_soa::{Rot, Transform, Vec2};

/// Relative translation (m) below which a manifold is recycled: a quarter of the linear slop.
pub(crate) const RECYCLE_LINEAR_TOLERANCE: f32 = 0.25 * 0.005;

/// Relative rotation (rad) below which a manifold is recycled.
pub(crate) const RECYCLE_ANGULAR_TOLERANCE: f32 = 0.005;

/// A touching manifold expressed in its bodies' frames (see the module notes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ManifoldFrame {
    /// Body B's pose in body A's frame at capture.
    relative: Transform,
    /// The normal in A's frame.
    local_normal: Vec2,
    /// Each point's surface point on A, in A's frame.
    surface_a: [Vec2; 2],
    /// Each point's surface point on B, in B's frame.
    surface_b: [Vec2; 2],
}

impl ManifoldFrame {
    /// Records `manifold`, computed with the body transforms `xf_a` and `xf_b`.
    pub(crate) fn capture(manifold: &Manifold, xf_a: Transform, xf_b: Transform) -> ManifoldFrame {
        let mut frame = ManifoldFrame {
            relative: xf_a.inv_mul(xf_b),
            local_normal: xf_a.q.inv_rotate(manifold.normal),
            surface_a: [Vec2::ZERO; 2],
            surface_b: [Vec2::ZERO; 2],
        };
        for (i, point) in manifold.points().iter().enumerate() {
            let half_gap = 0.5 * point.separation * manifold.normal;
            frame.surface_a[i] = xf_a.inv_apply(point.point - half_gap);
            frame.surface_b[i] = xf_b.inv_apply(point.point + half_gap);
        }
        frame
    }

    /// `previous` carried rigidly to the transforms `xf_a`, `xf_b`, if the pair has moved less
    /// than the tolerances relative to each other since the capture; `None` otherwise.
    pub(crate) fn recycle(
        &self,
        previous: &Manifold,
        xf_a: Transform,
        xf_b: Transform,
    ) -> Option<Manifold> {
        let relative = xf_a.inv_mul(xf_b);
        let shift_squared = relative.p.distance_squared(self.relative.p);
        let turn = self.relative.q.inv_mul(relative.q);
        if shift_squared > RECYCLE_LINEAR_TOLERANCE * RECYCLE_LINEAR_TOLERANCE
            || !within_angular_tolerance(turn)
        {
            return None;
        }
        let mut manifold = *previous;
        let normal = xf_a.q.rotate(self.local_normal);
        manifold.normal = normal;
        for (i, point) in manifold.points_mut().iter_mut().enumerate() {
            let on_a = xf_a.apply(self.surface_a[i]);
            let on_b = xf_b.apply(self.surface_b[i]);
            point.separation = normal.dot(on_b - on_a);
            if point.separation >= SPECULATIVE_DISTANCE {
                return None;
            }
            point.point = 0.5 * (on_a + on_b);
            point.anchor_a = point.point - xf_a.p;
            point.anchor_b = point.point - xf_b.p;
            point.persisted = true;
        }
        Some(manifold)
    }
}

/// Whether the rotation `turn` is by at most [`RECYCLE_ANGULAR_TOLERANCE`] either way.
///
/// For an angle θ in (−π, π], `|θ| ≤ tol` (with `tol < π/2`) holds exactly when `cos θ > 0`
/// (θ within a quarter turn) and `|sin θ| ≤ sin tol` (sin is increasing on [0, π/2]). This asks
/// the question without an `atan2` per contact, and with the sine's full resolution near zero
/// (a cosine test, `cos θ ≥ cos tol`, would resolve angles near zero only to ~3·10⁻⁴ rad in f32).
#[inline]
fn within_angular_tolerance(turn: Rot) -> bool {
    // The sine of a constant folds at compile time.
    turn.c > 0.0 && turn.s.abs() <= RECYCLE_ANGULAR_TOLERANCE.sin()
}

#[cfg(test)]
mod tests {
    use super::*;
    use collision::ManifoldPoint;

    /// A box corner pair on the ground: normal up, points at x = ±0.5, overlap 1 mm.
    fn resting_manifold() -> Manifold {
        let point = |x: f32, id: u16| ManifoldPoint {
            point: Vec2::new(x, -0.0005),
            separation: -0.001,
            id,
            normal_impulse: 2.5,
            ..ManifoldPoint::default()
        };
        Manifold {
            normal: Vec2::Y,
            points: [point(-0.5, 1), point(0.5, 2)],
            point_count: 2,
        }
    }

    #[test]
    fn small_relative_motion_moves_points_and_separations_rigidly() {
        let ground = Transform::IDENTITY;
        let crate_at = |y: f32| Transform::new(Vec2::new(0.0, y), Rot::IDENTITY);
        let manifold = resting_manifold();
        let frame = ManifoldFrame::capture(&manifold, ground, crate_at(0.5));
        // The box sinks 0.4 mm: both separations decrease by exactly that.
        let recycled = frame.recycle(&manifold, ground, crate_at(0.4996)).unwrap();
        for point in recycled.points() {
            assert!((point.separation - (-0.0014)).abs() < 1e-6, "{point:?}");
            assert_eq!(point.normal_impulse, 2.5);
            assert!(point.persisted);
        }
        // The anchors follow the mid-points.
        assert!(
            (recycled.points[1].anchor_b - (recycled.points[1].point - Vec2::new(0.0, 0.4996)))
                .length()
                < 1e-7
        );
    }

    #[test]
    fn moving_the_pair_together_keeps_the_manifold_exactly() {
        let manifold = resting_manifold();
        let xf_a = Transform::IDENTITY;
        let xf_b = Transform::new(Vec2::new(0.0, 0.5), Rot::IDENTITY);
        let frame = ManifoldFrame::capture(&manifold, xf_a, xf_b);
        let carried = Transform::new(Vec2::new(3.0, 1.0), Rot::from_angle(0.7));
        let recycled = frame
            .recycle(&manifold, carried, carried.mul(xf_b))
            .unwrap();
        let expected_normal = Rot::from_angle(0.7).rotate(Vec2::Y);
        assert!((recycled.normal - expected_normal).length() < 1e-6);
        assert!((recycled.points[0].separation - (-0.001)).abs() < 1e-6);
    }

    #[test]
    fn angular_test_matches_the_angle_against_the_tolerance() {
        let tolerance = f64::from(RECYCLE_ANGULAR_TOLERANCE);
        // Angles either side of ±tolerance, and beyond a quarter turn (where sin is small again).
        for angle in [0.0, 0.001, 0.004_9, 0.005_1, 0.01, 1.0, 3.0, 3.1] {
            for signed in [angle, -angle] {
                let turn = Rot::from_angle(signed as f32);
                let expected = f64::abs(signed) <= tolerance;
                assert_eq!(within_angular_tolerance(turn), expected, "angle {signed}");
            }
        }
    }

    #[test]
    fn motion_beyond_a_tolerance_forces_a_collide() {
        let manifold = resting_manifold();
        let xf_b = Transform::new(Vec2::new(0.0, 0.5), Rot::IDENTITY);
        let frame = ManifoldFrame::capture(&manifold, Transform::IDENTITY, xf_b);
        let slid = Transform::new(
            Vec2::new(2.0 * RECYCLE_LINEAR_TOLERANCE, 0.5),
            Rot::IDENTITY,
        );
        assert!(
            frame
                .recycle(&manifold, Transform::IDENTITY, slid)
                .is_none()
        );
        let tilted = Transform::new(
            Vec2::new(0.0, 0.5),
            Rot::from_angle(2.0 * RECYCLE_ANGULAR_TOLERANCE),
        );
        assert!(
            frame
                .recycle(&manifold, Transform::IDENTITY, tilted)
                .is_none()
        );
    }
}
