//! Axis-aligned bounding boxes.

use core_soa::Vec2;

/// An axis-aligned box `[min, max]`. Laid out as `[min.x, min.y, max.x, max.y]`, so that the
/// tree's queries can load a box as one 16-byte row.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub struct Aabb {
    /// The lower-left corner: the smallest x and y of the box (m, world or local frame as the owner
    /// says).
    pub min: Vec2,
    /// The upper-right corner: the largest x and y; `min <= max` in both axes for a non-empty box.
    pub max: Vec2,
}

impl Aabb {
    /// The box with corners `min` and `max` (not checked: the caller keeps `min <= max`).
    #[inline]
    pub fn new(min: Vec2, max: Vec2) -> Aabb {
        Aabb { min, max }
    }

    /// Whether the two boxes overlap (touching counts).
    #[inline]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        // Non-short-circuit `|`: four comparisons and one branch, not four branches (the
        // tree's queries test many boxes whose outcome no predictor can guess).
        !((other.min.x > self.max.x)
            | (other.min.y > self.max.y)
            | (self.min.x > other.max.x)
            | (self.min.y > other.max.y))
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
        Aabb {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// The perimeter (the "surface area" of the tree's insertion heuristic in 2D).
    #[inline]
    pub fn perimeter(&self) -> f32 {
        2.0 * ((self.max.x - self.min.x) + (self.max.y - self.min.y))
    }

    /// The centre point, halfway between `min` and `max`.
    #[inline]
    pub fn center(&self) -> Vec2 {
        0.5 * (self.min + self.max)
    }

    /// The half extents: half the width and half the height (non-negative for a valid box).
    #[inline]
    pub fn extents(&self) -> Vec2 {
        0.5 * (self.max - self.min)
    }

    /// The box grown by `margin` on every side.
    #[inline]
    pub fn fattened(&self, margin: f32) -> Aabb {
        let m = Vec2::splat(margin);
        Aabb {
            min: self.min - m,
            max: self.max + m,
        }
    }

    /// Valid when finite and `min <= max`.
    pub fn is_valid(&self) -> bool {
        self.min.is_finite()
            && self.max.is_finite()
            && self.min.x <= self.max.x
            && self.min.y <= self.max.y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxed(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb {
        Aabb::new(Vec2::new(x0, y0), Vec2::new(x1, y1))
    }

    #[test]
    fn overlap_counts_touching_and_rejects_separated() {
        let a = boxed(0.0, 0.0, 2.0, 1.0);
        assert!(a.overlaps(&boxed(1.0, 0.5, 3.0, 3.0)));
        assert!(
            a.overlaps(&boxed(2.0, 1.0, 3.0, 2.0)),
            "corner contact counts"
        );
        assert!(!a.overlaps(&boxed(2.01, 0.0, 3.0, 1.0)));
        assert!(!a.overlaps(&boxed(0.0, -2.0, 2.0, -0.01)));
        assert!(a.overlaps(&boxed(-1.0, -1.0, 5.0, 5.0)), "enclosing box");
    }

    #[test]
    fn containment_union_and_measures() {
        let a = boxed(0.0, 0.0, 2.0, 1.0);
        let b = boxed(-1.0, 0.5, 1.0, 3.0);
        let u = a.union(&b);
        assert_eq!(u, boxed(-1.0, 0.0, 2.0, 3.0));
        assert!(u.contains(&a) && u.contains(&b));
        assert!(!a.contains(&b));
        assert!(a.contains(&a));
        assert_eq!(a.perimeter(), 6.0);
        assert_eq!(a.center(), Vec2::new(1.0, 0.5));
        assert_eq!(a.extents(), Vec2::new(1.0, 0.5));
        assert_eq!(a.fattened(0.1), boxed(-0.1, -0.1, 2.1, 1.1));
    }

    #[test]
    fn validity() {
        assert!(boxed(0.0, 0.0, 0.0, 0.0).is_valid());
        assert!(!boxed(1.0, 0.0, 0.0, 1.0).is_valid());
        assert!(!boxed(0.0, f32::NAN, 1.0, 1.0).is_valid());
        assert!(!boxed(0.0, 0.0, f32::INFINITY, 1.0).is_valid());
    }
}
