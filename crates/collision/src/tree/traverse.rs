//! Box queries and ray casts over the tree.
//!
//! Both walk the tree depth first with an explicit stack. A node is entered only when its box
//! passes the geometric test and its category bits (the OR over its subtree) intersect the mask,
//! so a subtree of, say, static debris is skipped whole by a query that masks debris out.
//!
//! A box query is the pair search's inner loop, so it is lean: it tests an internal node's two
//! children together, in one eight-lane comparison (`PairTest`), pushes only the children that
//! pass, and keeps its stack in a local array as deep as the tree is high.
//!
//! The ray is the segment `origin + t · translation` for `t ∈ [0, max_fraction]`, tested against
//! boxes with the slab method: on each axis the segment is inside the slab `[min, max]` for
//! `t ∈ [(min − o)/d, (max − o)/d]` (swapped when `d < 0`); the segment meets the box when the
//! intersection of the per-axis intervals with `[0, max_fraction]` is not empty, and the entry
//! fraction is the interval's lower end. Because `(a − o) · (1/d)` is monotone in `a` even in
//! floating point, a box that contains another never reports a later entry or an earlier exit, so
//! pruning at an internal node never loses a leaf that the same test would accept.

use super::{DynamicTree, NULL_NODE};
use crate::aabb::Aabb;
use core_soa::Vec2;
use wide::f32x8;

/// Stack entries a walk keeps on the call stack (a cast's inline array before it spills, a
/// query's whole stack when the tree is lower than this): a depth-first walk holds at most
/// `height + 1` entries, and balanced trees of a million proxies are about 40 high.
const INLINE_STACK: usize = 64;

/// A last-in-first-out stack of node indices (or, for the pair walk, of node pairs) that
/// allocates only when it outgrows its inline array.
pub(super) struct NodeStack<T = u32> {
    inline: [T; INLINE_STACK],
    inline_len: usize,
    spilled: Vec<T>,
}

impl<T: Copy + Default> NodeStack<T> {
    pub(super) fn new() -> Self {
        NodeStack {
            inline: [T::default(); INLINE_STACK],
            inline_len: 0,
            spilled: Vec::new(),
        }
    }

    #[inline]
    pub(super) fn push(&mut self, entry: T) {
        if self.inline_len < INLINE_STACK {
            self.inline[self.inline_len] = entry;
            self.inline_len += 1;
        } else {
            self.spilled.push(entry);
        }
    }

    /// Spilled entries were pushed after the inline array filled, so they come off first (and
    /// there are none unless it is full, which keeps the common pop to one test).
    #[inline]
    pub(super) fn pop(&mut self) -> Option<T> {
        if self.inline_len == INLINE_STACK
            && let Some(entry) = self.spilled.pop()
        {
            return Some(entry);
        }
        if self.inline_len == 0 {
            return None;
        }
        self.inline_len -= 1;
        Some(self.inline[self.inline_len])
    }
}

/// A query box set up to test two boxes against it in one eight-lane comparison.
///
/// `Aabb::overlaps` says two boxes overlap unless one of four comparisons holds:
/// `b.min > q.max` on either axis, or `q.min > b.max` on either axis. The second pair is the
/// same as `−b.max > −q.min`, so with a box loaded as `[min.x, min.y, −max.x, −max.y]` and the
/// query as `[max.x, max.y, −min.x, −min.y]` all four are one lane-wise `>`; two boxes fill the
/// eight lanes. Negation is exact and the comparison is IEEE `>` (false when either side is
/// NaN), so every lane decides exactly as the scalar test does.
pub(super) struct PairTest {
    /// `[q.max.x, q.max.y, −q.min.x, −q.min.y]`, twice.
    bound: f32x8,
}

/// The lanes whose sign flips: each box's `max` half.
const MAX_HALVES: [f32; 8] = [0.0, 0.0, -0.0, -0.0, 0.0, 0.0, -0.0, -0.0];

impl PairTest {
    pub(super) fn new(query: &Aabb) -> PairTest {
        let (lo, hi) = (query.min, query.max);
        PairTest {
            bound: f32x8::new([hi.x, hi.y, -lo.x, -lo.y, hi.x, hi.y, -lo.x, -lo.y]),
        }
    }

    /// Whether `first` and `second` each overlap the query box (touching counts).
    #[inline]
    pub(super) fn overlaps(&self, first: &Aabb, second: &Aabb) -> [bool; 2] {
        let (a, b) = (first, second);
        let rows = [
            a.min.x, a.min.y, a.max.x, a.max.y, b.min.x, b.min.y, b.max.x, b.max.y,
        ];
        let corners = f32x8::new(rows) ^ f32x8::new(MAX_HALVES);
        let outside = corners.simd_gt(self.bound).to_bitmask();
        [outside & 0x0f == 0, outside & 0xf0 == 0]
    }
}

/// A segment prepared for repeated slab tests.
#[derive(Clone, Copy, Debug)]
pub(super) struct Segment {
    origin: Vec2,
    /// `1 / translation` per axis; an axis with a non-finite inverse is treated as parallel.
    inverse: Vec2,
    parallel: [bool; 2],
}

impl Segment {
    pub(super) fn new(origin: Vec2, translation: Vec2) -> Self {
        let inverse = Vec2::ONE / translation;
        let parallel = [!inverse.x.is_finite(), !inverse.y.is_finite()];
        Segment {
            origin,
            inverse,
            parallel,
        }
    }

    /// The fraction at which the segment `[0, max_fraction]` enters `aabb` (0 when it starts
    /// inside), or `None` when it misses.
    #[inline]
    pub(super) fn entry_fraction(&self, aabb: &Aabb, max_fraction: f32) -> Option<f32> {
        let (mut enter, mut exit) = (0.0f32, max_fraction);
        for axis in 0..2 {
            let (o, lo, hi) = (self.origin[axis], aabb.min[axis], aabb.max[axis]);
            if self.parallel[axis] {
                if o < lo || o > hi {
                    return None;
                }
                continue;
            }
            let (t_lo, t_hi) = ((lo - o) * self.inverse[axis], (hi - o) * self.inverse[axis]);
            let (near, far) = if t_lo <= t_hi {
                (t_lo, t_hi)
            } else {
                (t_hi, t_lo)
            };
            enter = enter.max(near);
            exit = exit.min(far);
            if enter > exit {
                return None;
            }
        }
        Some(enter)
    }
}

impl DynamicTree {
    /// Calls `callback(proxy, user_data)` for every proxy whose fat box overlaps `aabb`
    /// (touching counts) and whose category bits intersect `mask`. The callback returns `true`
    /// to continue and `false` to stop the query at once.
    pub fn query(&self, aabb: &Aabb, mask: u64, callback: impl FnMut(u32, u64) -> bool) {
        debug_assert!(
            !self.boxes_stale,
            "query after deferred moves, before a rebuild"
        );
        if self.root == NULL_NODE || !self.query_passes(self.root, aabb, mask) {
            return;
        }
        // The walk holds at most `height + 1` entries (see `query_walk`): a tree shorter than
        // the local array never needs the heap.
        let height = self.height() as usize;
        let mut local = [0u32; INLINE_STACK];
        let mut heap = Vec::new();
        let stack = if height < INLINE_STACK {
            &mut local[..]
        } else {
            heap.resize(height + 1, 0);
            &mut heap[..]
        };
        self.query_walk(stack, aabb, mask, callback);
    }

    /// Whether node `index` may hold a proxy `query` reports: its box overlaps `aabb` and its
    /// categories intersect `mask` (the root's test; the walk tests children in pairs).
    #[inline]
    fn query_passes(&self, index: u32, aabb: &Aabb, mask: u64) -> bool {
        let node = &self.nodes[index as usize];
        node.aabb.overlaps(aabb) && node.category_bits & mask != 0
    }

    /// `query`'s depth-first walk from the root, which has passed the tests, with `stack` as
    /// its last-in-first-out stack.
    ///
    /// A node is pushed only after its parent was popped, at most two children at a time, and
    /// the first child pushed is the second visited: below every node on the path from the root
    /// to the node being visited, at most one sibling waits. So the stack never holds more than
    /// `height + 1` entries, and `stack` (that long) cannot overflow while the tree's heights
    /// are right (the `validate` feature checks them, and a decoded snapshot must pass it).
    #[inline]
    fn query_walk(
        &self,
        stack: &mut [u32],
        aabb: &Aabb,
        mask: u64,
        mut callback: impl FnMut(u32, u64) -> bool,
    ) {
        // A node is pushed only once it passed the tests, so a child that misses costs a test
        // and no stack traffic: most of the nodes a query looks at are such misses.
        let query = PairTest::new(aabb);
        stack[0] = self.root;
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let index = stack[len];
            let node = &self.nodes[index as usize];
            if node.is_leaf() {
                if !callback(index, node.user_data) {
                    return;
                }
                continue;
            }
            let (first, second) = (node.child1, node.child2);
            let (first_node, second_node) =
                (&self.nodes[first as usize], &self.nodes[second as usize]);
            let [first_meets, second_meets] = query.overlaps(&first_node.aabb, &second_node.aabb);
            if second_meets && second_node.category_bits & mask != 0 {
                stack[len] = second;
                len += 1;
            }
            if first_meets && first_node.category_bits & mask != 0 {
                stack[len] = first;
                len += 1;
            }
        }
    }

    /// Casts the segment `origin + t · translation`, `t ∈ [0, max_fraction]`, against the fat
    /// boxes of the proxies whose category bits intersect `mask`.
    ///
    /// For every proxy whose fat box the current segment touches, the tree calls
    /// `callback(origin, translation, current_max_fraction, proxy, user_data)`, which typically
    /// casts against the proxy's real shape, and acts on the returned value `v`:
    ///
    /// - `v == 0`: stop the cast at once (e.g. any hit is enough);
    /// - `v < 0` (or NaN): ignore this proxy, the segment is unchanged;
    /// - `0 < v < current_max_fraction`: clip the segment to `[0, v]`; later proxies are tested
    ///   against the shorter segment (e.g. the closest hit so far is at `v`);
    /// - `v >= current_max_fraction`: continue unchanged (the segment never grows).
    ///
    /// So returning `current_max_fraction` reports every proxy the original segment touches,
    /// and returning the hit fraction finds the closest hit.
    pub fn ray_cast(
        &self,
        origin: Vec2,
        translation: Vec2,
        max_fraction: f32,
        mask: u64,
        mut callback: impl FnMut(Vec2, Vec2, f32, u32, u64) -> f32,
    ) {
        debug_assert!(
            !self.boxes_stale,
            "ray cast after deferred moves, before a rebuild"
        );
        if self.root == NULL_NODE || max_fraction.is_nan() || max_fraction < 0.0 {
            return;
        }
        let segment = Segment::new(origin, translation);
        let mut max_fraction = max_fraction;
        let mut stack = NodeStack::new();
        stack.push(self.root);
        while let Some(index) = stack.pop() {
            let node = &self.nodes[index as usize];
            if node.category_bits & mask == 0
                || segment.entry_fraction(&node.aabb, max_fraction).is_none()
            {
                continue;
            }
            if !node.is_leaf() {
                stack.push(node.child2);
                stack.push(node.child1);
                continue;
            }
            let value = callback(origin, translation, max_fraction, index, node.user_data);
            if value == 0.0 {
                return;
            }
            if value > 0.0 && value < max_fraction {
                max_fraction = value;
            }
        }
    }
}
