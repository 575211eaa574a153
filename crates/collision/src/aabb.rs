//! Axis-aligned bounding boxes.

use core_soa::Vec2;

/// An axis-aligned box `[min, max]`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Aabb {
    pub min: Vec2,
    pub max: Vec2,
}

impl Aabb {
    #[inline]
    pub fn new(min: Vec2, max: Vec2) -> Aabb {
        Aabb { min, max }
    }

    /// Whether the two boxes overlap (touching counts).
    #[inline]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        !(other.min.x > self.max.x
            || other.min.y > self.max.y
            || self.min.x > other.max.x
            || self.min.y > other.max.y)
    }

    /// Whether `other` lies inside `self`.
    #[inline]
    pub fn contains(&self, other: &Aabb) -> bool {
        self.min.x <= other.min.x
            && self.min.y <= other.min.y
            && other.max.x <= self.max.x
            && other.max.y <= self.max.y
    }

    /// The smallest box holding both.
    #[inline]
    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb { min: self.min.min(other.min), max: self.max.max(other.max) }
    }

    /// The perimeter (the "surface area" of the tree's insertion heuristic in 2D).
    #[inline]
    pub fn perimeter(&self) -> f32 {
        2.0 * ((self.max.x - self.min.x) + (self.max.y - self.min.y))
    }

    #[inline]
    pub fn center(&self) -> Vec2 {
        0.5 * (self.min + self.max)
    }

    #[inline]
    pub fn extents(&self) -> Vec2 {
        0.5 * (self.max - self.min)
    }

    /// The box grown by `margin` on every side.
    #[inline]
    pub fn fattened(&self, margin: f32) -> Aabb {
        let m = Vec2::splat(margin);
        Aabb { min: self.min - m, max: self.max + m }
    }

    /// Valid when finite and `min <= max`.
    pub fn is_valid(&self) -> bool {
        self.min.is_finite() && self.max.is_finite() && self.min.x <= self.max.x && self.min.y <= self.max.y
    }
}
