//! Helpers shared by the query tests (distance, shape cast, time of impact, overlap, points).

use core_soa::{Rot, Transform, Vec2};

use crate::shapes::{Capsule, Circle, Segment, Shape};

/// A transform from a position and an angle.
pub fn placed(x: f32, y: f32, angle: f32) -> Transform {
    Transform::new(Vec2::new(x, y), Rot::from_angle(angle))
}

/// Asserts `|actual − expected| ≤ tolerance`.
#[track_caller]
pub fn assert_vec_close(actual: Vec2, expected: Vec2, tolerance: f32, what: &str) {
    assert!(
        (actual - expected).length() <= tolerance,
        "{what}: got {actual:?}, expected {expected:?} (tolerance {tolerance})"
    );
}

/// Asserts `|actual − expected| ≤ tolerance`.
#[track_caller]
pub fn assert_close(actual: f32, expected: f32, tolerance: f32, what: &str) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "{what}: got {actual}, expected {expected} (tolerance {tolerance})"
    );
}

/// A disk of `radius` centred on the body origin.
pub fn circle(radius: f32) -> Shape {
    Shape::Circle(Circle {
        center: Vec2::ZERO,
        radius,
    })
}

/// A capsule along the local x axis from `−half_length` to `half_length`.
pub fn horizontal_capsule(half_length: f32, radius: f32) -> Shape {
    Shape::Capsule(Capsule {
        center1: Vec2::new(-half_length, 0.0),
        center2: Vec2::new(half_length, 0.0),
        radius,
    })
}

/// A two-sided segment between two points.
pub fn segment(p1: Vec2, p2: Vec2) -> Shape {
    Shape::Segment(Segment {
        point1: p1,
        point2: p2,
    })
}

/// A deterministic uniform generator (a 64-bit LCG, top 24 bits), so randomised tests replay.
pub struct Uniform(u64);

impl Uniform {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Uniform {
        Uniform(seed)
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        lo + (hi - lo) * ((self.0 >> 40) as f32 / (1u64 << 24) as f32)
    }
}
