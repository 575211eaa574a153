//! Contact recycling: reusing a pair's manifold while the pair has barely moved relative to
//! itself.
//!
//! Most contacts in a resting pile see little relative motion from one step to the next, yet the
//! narrowphase would clip polygons for each of them every step. When a manifold is computed we
//! record what it takes to carry it — the [`ManifoldFrame`]:
//!
//! - body B's pose in body A's frame, `R = X_A⁻¹·X_B`, and each body's rotation `q_A`, `q_B`;
//! - per point the separation `s₀`;
//! - the largest distance `e` of a point of B's shape from B's origin.
//!
//! The rest is the manifold itself, which carrying never changes but for its separations: its
//! normal `n₀` and its anchors `a₀`, `b₀` from each body's centre of mass to the point (world
//! orientation), as captured. The point is one material point of A and one of B, which coincide
//! at capture. The record is 44 bytes inside the contact's sim; a contact whose anchors no
//! longer match it (its body's centre of mass moved) is marked not recyclable and collided
//! afresh.
//!
//! On a later step the manifold is carried instead of re-collided while
//!
//! ```text
//!   |R.p − R₀.p| + e·|sin(R.q − R₀.q)| < tolerance       and  q·q₀ > cos 11.5° for both bodies
//! ```
//!
//! The left side bounds how far any point of B has moved relative to A since the capture (a
//! conservative-advancement bound), so nothing the clipping would see can have changed by more
//! than the tolerance: [`RECYCLE_DISTANCE`] (ten linear slops) for a touching manifold, and the
//! smaller of that and the speculative distance for an empty one, so that an empty manifold is
//! kept only while its shapes cannot have come within touching range. The rotation test bounds
//! how stale the carried normal and anchors may become. These are Box2D v3's tolerances; the
//! comparison is always with the capture, never with the last carried manifold, so slow drift
//! cannot accumulate unseen.
//!
//! ## What a carried manifold keeps
//!
//! A carried manifold keeps its normal and its anchors as they were at capture and updates only
//! each point's separation, from how far the two material points have drifted apart along the
//! normal (as the solver does inside a step):
//!
//! ```text
//!   s = s₀ + n₀·((c_B + Δq_B·b₀) − (c_A + Δq_A·a₀))          c: centres of mass now
//! ```
//!
//! Keeping the geometry is a choice with a consequence worth knowing, measured on single columns
//! of unit boxes at 30 Hz contact stiffness. A soft contact is compliant: a 30-box column sinks
//! 31 cm. A compliant column whose contact normals and lever arms follow the boxes as they turn
//! (which exact manifolds do) is a column under its own weight with flexible joints, and it
//! buckles above about fifteen boxes once anything breaks its symmetry: with manifolds
//! re-collided every step, a 20-box column offset by ±1 mm falls within six seconds — in Prism,
//! and likewise in Box2D and Rapier with their recycling turned off. Holding the normal and the
//! lever arms of a resting contact fixed linearises the contact geometry around the capture and
//! removes that geometric (P–Δ) coupling, so the same offset columns stand: that, not the
//! accuracy of the carried points, is why Box2D's and Rapier's stacks stand, and it is why we
//! carry manifolds the same way (carrying the anchors with the bodies instead lets the offset
//! columns fall again). A perfectly aligned column stands on exact manifolds too — the solver
//! keeps it exactly symmetric (`solver_simd::normal_block`) — so recycling is not what holds a
//! well-built stack up; it is what keeps an imperfect one from buckling the way a compliant one
//! would. Feature ids and accumulated impulses are kept, so warm starting is unchanged; a carried
//! point that drifted beyond the speculative distance forces a full collide.

use collision::{Manifold, SPECULATIVE_DISTANCE};
use core_soa::{BodySim, Rot, Transform};

/// Relative motion (m) below which a touching manifold is carried: ten linear slops.
pub(crate) const RECYCLE_DISTANCE: f32 = 10.0 * 0.005;

/// Cosine of the largest rotation of either body (11.5°) for which a manifold is carried.
pub(crate) const RECYCLE_COS_ANGLE: f32 = 0.98;

/// What carrying a manifold needs besides the manifold itself (see the module notes).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ManifoldFrame {
    /// Body B's pose in body A's frame at capture.
    relative: Transform,
    /// The bodies' rotations at capture.
    rotation_a: Rot,
    rotation_b: Rot,
    /// The largest distance of a point of B's shape from B's origin.
    extent_b: f32,
    /// Per point, the separation at capture.
    separations: [f32; 2],
}

impl ManifoldFrame {
    /// Records `manifold`, computed with the body transforms `xf_a` and `xf_b`; `extent_b` is the
    /// largest distance of a point of B's shape from B's origin.
    pub(crate) fn capture(
        manifold: &Manifold,
        xf_a: Transform,
        xf_b: Transform,
        extent_b: f32,
    ) -> ManifoldFrame {
        let mut separations = [0.0; 2];
        for (separation, point) in separations.iter_mut().zip(manifold.points()) {
            *separation = point.separation;
        }
        ManifoldFrame {
            relative: xf_a.inv_mul(xf_b),
            rotation_a: xf_a.q,
            rotation_b: xf_b.q,
            extent_b,
            separations,
        }
    }

    /// Carries `manifold` — the manifold captured, as carried so far (its normal and its
    /// anchors, relative to the centres of mass, are the capture's) — to the bodies' current
    /// poses in place, if the pair has moved less than the tolerances relative to itself since
    /// the capture; otherwise leaves it untouched and returns `false`.
    ///
    /// At capture each point is one material point of A, `c_A + a`, and one of B, `c_B + b`,
    /// at the same place. Since then the bodies' centres moved to `c_A`, `c_B` and they turned
    /// by `Δq_A`, `Δq_B`, so the two material points are `d = (c_B + Δq_B·b) − (c_A + Δq_A·a)`
    /// apart, and the separation has grown by `n·d`.
    ///
    /// In place rather than returning a carried copy: the narrowphase would then copy the
    /// copy into the contact, and that copy — a wide load of a manifold just written field by
    /// field on the stack, which must wait for those writes — was a third of the narrowphase of
    /// a resting pile (`benches/results/NOTES.md`).
    pub(crate) fn recycle_in_place(
        &self,
        manifold: &mut Manifold,
        body_a: &BodySim,
        body_b: &BodySim,
    ) -> bool {
        let (xf_a, xf_b) = (body_a.transform, body_b.transform);
        let tolerance = if manifold.point_count > 0 {
            RECYCLE_DISTANCE
        } else {
            RECYCLE_DISTANCE.min(SPECULATIVE_DISTANCE)
        };
        if !self.within_tolerance(xf_a, xf_b, tolerance) {
            return false;
        }
        let turn_a = xf_a.q.mul(self.rotation_a.inverse());
        let turn_b = xf_b.q.mul(self.rotation_b.inverse());
        let offset = body_b.center - body_a.center;
        let normal = manifold.normal;
        let mut separations = [0.0; 2];
        for (i, point) in manifold.points().iter().enumerate() {
            let drift = offset + turn_b.rotate(point.anchor_b) - turn_a.rotate(point.anchor_a);
            separations[i] = self.separations[i] + normal.dot(drift);
            if separations[i] >= SPECULATIVE_DISTANCE {
                return false;
            }
        }
        for (point, separation) in manifold.points_mut().iter_mut().zip(separations) {
            point.separation = separation;
            point.persisted = true;
        }
        true
    }

    /// [`ManifoldFrame::recycle_in_place`] on a copy of `previous`: the carried manifold, or
    /// `None`.
    #[cfg(test)]
    fn recycle(&self, previous: &Manifold, body_a: &BodySim, body_b: &BodySim) -> Option<Manifold> {
        let mut manifold = *previous;
        self.recycle_in_place(&mut manifold, body_a, body_b)
            .then_some(manifold)
    }

    /// Whether every point of B has moved less than `tolerance` relative to A since the
    /// capture, and neither body has turned by more than the rotation tolerance.
    #[inline]
    fn within_tolerance(&self, xf_a: Transform, xf_b: Transform, tolerance: f32) -> bool {
        let turned_a = xf_a.q.c * self.rotation_a.c + xf_a.q.s * self.rotation_a.s;
        let turned_b = xf_b.q.c * self.rotation_b.c + xf_b.q.s * self.rotation_b.s;
        if turned_a.min(turned_b) <= RECYCLE_COS_ANGLE {
            return false;
        }
        let relative = xf_a.inv_mul(xf_b);
        let shift = relative.p.distance(self.relative.p);
        let turn = self.relative.q.inv_mul(relative.q);
        shift + self.extent_b * turn.s.abs() < tolerance
    }
}

core_soa::snap_struct!(ManifoldFrame {
    relative,
    rotation_a,
    rotation_b,
    extent_b,
    separations,
});

#[cfg(test)]
mod tests {
    use super::*;
    use collision::ManifoldPoint;
    use core_soa::Vec2;

    /// A unit box resting on the ground (origin at its centre, 0.5 up): normal up, points at
    /// x = ±0.5 on its bottom face, overlap 1 mm.
    fn resting_manifold(box_at: Transform) -> Manifold {
        let point = |x: f32, id: u16| {
            let p = Vec2::new(x, -0.0005);
            ManifoldPoint {
                point: p,
                anchor_a: p,
                anchor_b: p - box_at.p,
                separation: -0.001,
                id,
                normal_impulse: 2.5,
                ..ManifoldPoint::default()
            }
        };
        Manifold {
            normal: Vec2::Y,
            points: [point(-0.5, 1), point(0.5, 2)],
            point_count: 2,
        }
    }

    fn box_at(x: f32, y: f32, angle: f32) -> Transform {
        Transform::new(Vec2::new(x, y), Rot::from_angle(angle))
    }

    const BOX_EXTENT: f32 = std::f32::consts::FRAC_1_SQRT_2;

    /// A body whose centre of mass is its origin, at `transform`.
    fn sim(transform: Transform) -> BodySim {
        BodySim {
            transform,
            center: transform.p,
            ..BodySim::default()
        }
    }

    #[test]
    fn a_sinking_box_changes_only_its_separations() {
        let (ground, start) = (Transform::IDENTITY, box_at(0.0, 0.5, 0.0));
        let manifold = resting_manifold(start);
        let frame = ManifoldFrame::capture(&manifold, ground, start, BOX_EXTENT);
        // The box sinks 0.4 mm: both separations decrease by exactly that.
        let recycled = frame
            .recycle(&manifold, &sim(ground), &sim(box_at(0.0, 0.4996, 0.0)))
            .unwrap();
        for point in recycled.points() {
            assert!((point.separation - (-0.0014)).abs() < 1e-6, "{point:?}");
            assert_eq!(point.normal_impulse, 2.5);
            assert!(point.persisted);
        }
        assert_eq!(recycled.normal, Vec2::Y);
    }

    #[test]
    fn a_tilting_box_lifts_one_corner_and_sinks_the_other() {
        let (ground, start) = (Transform::IDENTITY, box_at(0.0, 0.5, 0.0));
        let manifold = resting_manifold(start);
        let frame = ManifoldFrame::capture(&manifold, ground, start, BOX_EXTENT);
        // Turning the box by θ about its centre moves its corners (∓0.5, −0.5) vertically by
        // ∓0.5·sin θ + 0.5·(1 − cos θ) (the corner offsets rotate with it).
        let angle = 0.01f32;
        let recycled = frame
            .recycle(&manifold, &sim(ground), &sim(box_at(0.0, 0.5, angle)))
            .unwrap();
        let lift = |x: f32| x * angle.sin() + 0.5 * (1.0 - angle.cos());
        for (point, x) in recycled.points().iter().zip([-0.5f32, 0.5]) {
            let expected = -0.001 + lift(x);
            assert!(
                (point.separation - expected).abs() < 1e-6,
                "{} vs {expected}",
                point.separation
            );
        }
    }

    #[test]
    fn a_pair_moved_together_keeps_its_manifold() {
        // Ground and box carried together by one rigid motion: the two material points of each
        // contact move together, so the separations do not change, and the normal and anchors
        // are kept as captured.
        let start = box_at(0.0, 0.5, 0.0);
        let manifold = resting_manifold(start);
        let frame = ManifoldFrame::capture(&manifold, Transform::IDENTITY, start, BOX_EXTENT);
        let carried = Transform::new(Vec2::new(0.01, 0.0), Rot::from_angle(0.1));
        let recycled = frame
            .recycle(&manifold, &sim(carried), &sim(carried.mul(start)))
            .unwrap();
        assert_eq!(recycled.normal, Vec2::Y);
        for (point, original) in recycled.points().iter().zip(manifold.points()) {
            assert!((point.separation - (-0.001)).abs() < 1e-6, "{point:?}");
            assert_eq!(point.anchor_a, original.anchor_a);
            assert_eq!(point.anchor_b, original.anchor_b);
        }
    }

    #[test]
    fn motion_beyond_the_tolerances_forces_a_collide() {
        let (ground, start) = (Transform::IDENTITY, box_at(0.0, 0.5, 0.0));
        let manifold = resting_manifold(start);
        let frame = ManifoldFrame::capture(&manifold, ground, start, BOX_EXTENT);
        let slid = box_at(1.01 * RECYCLE_DISTANCE, 0.5, 0.0);
        assert!(frame.recycle(&manifold, &sim(ground), &sim(slid)).is_none());
        assert!(
            frame
                .recycle(
                    &manifold,
                    &sim(ground),
                    &sim(box_at(0.99 * RECYCLE_DISTANCE, 0.5, 0.0))
                )
                .is_some()
        );
        // Turning moves the box's far points by extent·sin θ: 0.05 m at θ ≈ 0.0707.
        let limit = (RECYCLE_DISTANCE / BOX_EXTENT).asin();
        let turned =
            |angle: f32| frame.within_tolerance(ground, box_at(0.0, 0.5, angle), RECYCLE_DISTANCE);
        assert!(!turned(1.01 * limit));
        assert!(turned(0.99 * limit));
        // An absolute turn past 11.5° of either body stops recycling even when the pair turns
        // together (the kept normal and anchors would be too stale).
        let both = Transform::new(Vec2::ZERO, Rot::from_angle(0.21));
        assert!(!frame.within_tolerance(both, both.mul(start), RECYCLE_DISTANCE));
    }

    #[test]
    fn an_empty_manifold_is_kept_only_within_the_speculative_distance() {
        let (ground, start) = (Transform::IDENTITY, box_at(0.0, 2.0, 0.0));
        let empty = Manifold::default();
        let frame = ManifoldFrame::capture(&empty, ground, start, BOX_EXTENT);
        let near = box_at(0.0, 2.0 - 0.9 * SPECULATIVE_DISTANCE, 0.0);
        let far = box_at(0.0, 2.0 - 1.1 * SPECULATIVE_DISTANCE, 0.0);
        assert_eq!(frame.recycle(&empty, &sim(ground), &sim(near)), Some(empty));
        assert_eq!(frame.recycle(&empty, &sim(ground), &sim(far)), None);
    }

    #[test]
    fn a_point_drifting_past_the_speculative_distance_forces_a_collide() {
        let (ground, start) = (Transform::IDENTITY, box_at(0.0, 0.5, 0.0));
        let manifold = resting_manifold(start);
        let frame = ManifoldFrame::capture(&manifold, ground, start, BOX_EXTENT);
        let lifted = box_at(0.0, 0.5 + SPECULATIVE_DISTANCE + 0.002, 0.0);
        assert!(
            frame
                .recycle(&manifold, &sim(ground), &sim(lifted))
                .is_none()
        );
    }
}
