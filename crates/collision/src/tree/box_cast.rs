//! Box casts over the tree: which proxies a box sweeping along a translation may touch.
//!
//! A world shape cast sweeps a shape along a straight line; the tree only needs to find the
//! leaves whose fat boxes the shape's *box* touches somewhere along the sweep. A box of centre
//! `c` and half extents `h`, moved by `t·d`, touches a node box `N` exactly when its centre
//! `c + t·d` lies in `N` grown by `h` on every side (the Minkowski sum of the two boxes). So the
//! box cast is the ray cast of the centre against grown node boxes, with the same slab test and
//! the same pruning argument: a grown box that contains another grown box never reports a later
//! entry, so skipping a subtree whose grown box the centre misses never loses a leaf.
//!
//! The half extents are padded by a few float rounding steps of the box's size and position,
//! since `c ± h` recomputed from the box need not give back its exact corners: the tree must
//! never drop a candidate the exact shape cast would hit (a candidate too many only costs that
//! exact cast).

use super::traverse::{NodeStack, Segment};
use super::{DynamicTree, NULL_NODE};
use crate::aabb::Aabb;
use core_soa::Vec2;

impl DynamicTree {
    /// Sweeps `aabb` along `translation` over `t ∈ [0, max_fraction]` against the fat boxes of
    /// the proxies whose category bits intersect `mask`.
    ///
    /// For every proxy whose fat box the swept box touches within the current range, the tree
    /// calls `callback(current_max_fraction, proxy, user_data)` and acts on the returned value
    /// exactly as [`DynamicTree::ray_cast`] does: `0` stops the cast, a negative (or NaN) value
    /// ignores the proxy, a value in `(0, current)` clips the sweep to it, and anything larger
    /// continues unchanged. A zero translation makes this a box overlap query. Non-finite
    /// input, or a negative or NaN `max_fraction`, finds nothing.
    pub fn box_cast(
        &self,
        aabb: &Aabb,
        translation: Vec2,
        max_fraction: f32,
        mask: u64,
        mut callback: impl FnMut(f32, u32, u64) -> f32,
    ) {
        debug_assert!(
            !self.boxes_stale,
            "box cast after deferred moves, before a rebuild"
        );
        let castable = aabb.is_valid() && translation.is_finite() && max_fraction >= 0.0;
        if self.root == NULL_NODE || !castable || !max_fraction.is_finite() {
            return;
        }
        let center = aabb.center();
        let half = padded_half_extents(aabb);
        let segment = Segment::new(center, translation);
        let grown = |node: &Aabb| Aabb::new(node.min - half, node.max + half);
        let mut max_fraction = max_fraction;
        let mut stack = NodeStack::new();
        stack.push(self.root);
        while let Some(index) = stack.pop() {
            let node = &self.nodes[index as usize];
            if node.category_bits & mask == 0
                || segment
                    .entry_fraction(&grown(&node.aabb), max_fraction)
                    .is_none()
            {
                continue;
            }
            if !node.is_leaf() {
                stack.push(node.child2);
                stack.push(node.child1);
                continue;
            }
            let value = callback(max_fraction, index, node.user_data);
            if value == 0.0 {
                return;
            }
            if value > 0.0 && value < max_fraction {
                max_fraction = value;
            }
        }
    }
}

/// The box's half extents grown by eight rounding steps of its largest coordinate, so that the
/// centre plus or minus them covers the box's corners (see the module notes).
fn padded_half_extents(aabb: &Aabb) -> Vec2 {
    let scale = aabb.min.abs().max(aabb.max.abs()).max_element();
    aabb.extents() + Vec2::splat(8.0 * f32::EPSILON * scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 64-bit LCG (top 24 bits), so the randomised test replays.
    struct Lcg(u64);

    impl Lcg {
        fn range(&mut self, lo: f32, hi: f32) -> f32 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            lo + (hi - lo) * ((self.0 >> 40) as f32 / (1u64 << 24) as f32)
        }

        fn aabb(&mut self, world: f32, size: f32) -> Aabb {
            let min = Vec2::new(self.range(0.0, world), self.range(0.0, world));
            let extent = Vec2::new(self.range(0.1, size), self.range(0.1, size));
            Aabb::new(min, min + extent)
        }
    }

    /// The interval of `t` in `[0, 1]` for which `moving + t·d` overlaps `fixed`, by the
    /// separating-axis test on each axis (brute force, no tree).
    fn sweep_overlap(moving: &Aabb, d: Vec2, fixed: &Aabb) -> Option<(f32, f32)> {
        let (mut enter, mut exit) = (0.0f32, 1.0f32);
        for axis in 0..2 {
            let (lo, hi) = (
                fixed.min[axis] - moving.max[axis],
                fixed.max[axis] - moving.min[axis],
            );
            if d[axis] == 0.0 {
                if lo > 0.0 || hi < 0.0 {
                    return None;
                }
                continue;
            }
            let (a, b) = (lo / d[axis], hi / d[axis]);
            enter = enter.max(a.min(b));
            exit = exit.min(a.max(b));
        }
        (enter <= exit).then_some((enter, exit))
    }

    /// With a callback that never clips, the cast reports exactly the boxes a brute-force sweep
    /// overlaps, leaving out only those whose sweep interval is a few rounding steps wide
    /// either way (where both answers are right); with a clipping callback, the first hit it
    /// keeps is the earliest entry.
    #[test]
    fn box_cast_finds_what_a_brute_force_sweep_finds() {
        let mut lcg = Lcg(17);
        let mut tree = DynamicTree::new(0.0);
        let boxes: Vec<Aabb> = (0..300).map(|_| lcg.aabb(100.0, 4.0)).collect();
        for (index, aabb) in boxes.iter().enumerate() {
            tree.create_proxy(*aabb, 1 << (index % 2), index as u64);
        }
        let mut checked = 0;
        for _ in 0..200 {
            let moving = lcg.aabb(100.0, 3.0);
            let d = Vec2::new(lcg.range(-60.0, 60.0), lcg.range(-60.0, 60.0));
            let mut found = Vec::new();
            tree.box_cast(&moving, d, 1.0, 1, |current, _, user_data| {
                found.push(user_data as usize);
                current
            });
            found.sort_unstable();
            for (index, fixed) in boxes.iter().enumerate() {
                let expected = index % 2 == 0
                    && sweep_overlap(&moving, d, fixed).is_some_and(|(a, b)| b - a > 1e-4);
                let grazing = index % 2 == 0 && sweep_overlap(&moving, d, fixed).is_some();
                let reported = found.binary_search(&index).is_ok();
                assert!(reported || !expected, "box {index} missed");
                assert!(
                    !reported || grazing,
                    "box {index} reported but not swept over"
                );
                checked += usize::from(expected);
            }
            // Clipping to each hit's entry leaves the earliest entry as the last clip.
            let earliest = boxes
                .iter()
                .enumerate()
                .filter(|(index, _)| index % 2 == 0)
                .filter_map(|(_, fixed)| sweep_overlap(&moving, d, fixed).map(|(a, _)| a))
                .fold(f32::INFINITY, f32::min);
            let mut clip = f32::INFINITY;
            tree.box_cast(&moving, d, 1.0, 1, |current, _, user_data| {
                let (entry, _) = sweep_overlap(&moving, d, &boxes[user_data as usize])
                    .unwrap_or((current, current));
                clip = clip.min(entry.max(f32::MIN_POSITIVE));
                clip
            });
            if earliest.is_finite() {
                assert!(
                    (clip - earliest.max(f32::MIN_POSITIVE)).abs() < 1e-4,
                    "{clip} vs {earliest}"
                );
            }
        }
        assert!(checked > 300, "only {checked} swept boxes checked");
    }

    #[test]
    fn zero_translation_is_an_overlap_query_and_bad_input_finds_nothing() {
        let mut tree = DynamicTree::new(0.0);
        tree.create_proxy(Aabb::new(Vec2::ZERO, Vec2::ONE), 1, 7);
        tree.create_proxy(Aabb::new(Vec2::splat(3.0), Vec2::splat(4.0)), 1, 8);
        let probe = Aabb::new(Vec2::splat(0.5), Vec2::splat(2.0));
        let mut found = Vec::new();
        tree.box_cast(&probe, Vec2::ZERO, 1.0, u64::MAX, |c, _, u| {
            found.push(u);
            c
        });
        assert_eq!(found, [7]);
        for (translation, max_fraction) in [
            (Vec2::new(f32::NAN, 0.0), 1.0),
            (Vec2::X, -1.0),
            (Vec2::X, f32::NAN),
        ] {
            let mut any = false;
            tree.box_cast(&probe, translation, max_fraction, u64::MAX, |_, _, _| {
                any = true;
                1.0
            });
            assert!(!any, "{translation:?} {max_fraction}");
        }
    }
}
