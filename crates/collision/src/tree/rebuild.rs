//! Top-down rebuild with a binned surface-area split, serial or over the caller's workers.
//!
//! Incremental insertion is good but greedy in time: the tree reflects the order in which
//! proxies arrived and moved. A rebuild sees all leaves at once and splits the set of leaves
//! recursively: the leaves' box centres are sorted into `BIN_COUNT` equal bins along the axis
//! where the centres spread most, and the split between bins `i` and `i + 1` is scored with the
//! surface-area heuristic
//!
//! ```text
//!     cost(i) = P(left boxes) · n_left + P(right boxes) · n_right
//! ```
//!
//! (a random ray that hits the parent hits a child with probability proportional to the child's
//! perimeter, and then pays for the leaves below it). The cheapest split wins. When all centres
//! coincide the range is cut at its middle. Leaves keep their indices, so proxy ids survive a
//! rebuild.
//!
//! **Partial rebuild.** `rebuild_enlarged` applies the same build to the enlarged part of the
//! tree only (see `tree/enlarge.rs`). Walking down from the root through enlarged nodes, every
//! enlarged node becomes a free *slot* and every node that is not enlarged — a leaf, or an
//! untouched subtree, whose box is exactly its children's union — becomes one *item* of the
//! build, kept whole. Since the enlarged nodes are connected to the root, `k` of them have
//! exactly `k + 1` items below them, and the new top part over those items needs exactly `k`
//! internal nodes: the build reuses the slots and never touches the free list. The boxes of the
//! enlarged nodes are never read, so they may be stale (see `move_proxy_deferred`). The full
//! `rebuild` is the case where every internal node is a slot and every leaf an item.
//!
//! **Node numbering.** A range of items `[b, e)` owns the slots `[b, e − 1)`. Its split at `m`
//! (`b < m < e`) takes slot `m − 1` for its own node and leaves `[b, m − 1)` to the left range
//! and `[m, e − 1)` to the right one: an in-order numbering of the internal nodes, fixed by the
//! item ranges alone. The build writes each new node into a dense array at its slot position
//! (children, box, categories, height, all known once both halves are built) and a last serial
//! pass copies that array into the node storage and links the parents.
//!
//! **Parallel build.** Because a range's split depends only on the items in that range, and its
//! nodes are numbered by position, disjoint ranges can be built independently: the parallel
//! build splits large ranges on the calling worker and hands the two halves to `workers::join`,
//! each with its own sub-slices of items, slots and output. The result is the same tree, node
//! for node, as the serial build on any number of workers.
//!
//! **Cost per level.** The items are copied into a dense array (box, categories, node, height)
//! which the build reorders in place. One binning pass per range gathers, per bin, the boxes'
//! union, the centres' bounds and the count; the chosen split's two halves then inherit their
//! centre bounds from the bins, so no range scans its items for bounds first. A partition pass
//! recomputes each item's bin, which is cheaper than storing it. Ranges of at most `SWEEP_MAX`
//! items — half of all ranges are pairs — skip the bins: they sort their few centres and sweep
//! every cut exactly, which is both cheaper than sixteen bins and a better split.

// Unsafe code is confined here: the parallel rebuild writes disjoint node slots from several
// threads; every block has its `// SAFETY:` argument.
#![allow(unsafe_code)]

use super::{DynamicTree, NULL_NODE};
use crate::aabb::Aabb;
use core_soa::Vec2;

/// The number of bins along the split axis; 16 is close to a full sweep in quality at a fraction
/// of its cost.
const BIN_COUNT: usize = 16;

/// Flagged subtrees of at most this height (up to sixteen leaves) are refitted and kept whole
/// when their parts still lie close together, instead of being rebuilt (see
/// `DynamicTree::settle_close`). The height trades the rebuild's work against the tree's
/// quality: shapes that move together (a hanging net, a falling ragdoll, a sliding pile) keep
/// their subtrees and the rebuild arranges only what moved apart, while a kept subtree keeps
/// an arrangement the build would no longer choose. Going from 2 to 4 cut the hinge grid's
/// rebuild (its whole `collide` phase) by two thirds and the other moving scenes' `collide` by
/// 3–21 %, and raised the moving tree's area ratio by up to 6 % (`benches/results/NOTES.md`,
/// "Subtrees of sixteen leaves kept whole").
const KEEP_HEIGHT: u32 = 4;

/// Ranges of at most this many items are split by an exact sweep over their sorted centres.
const SWEEP_MAX: usize = 8;

/// Ranges of fewer items are built by one worker: a join costs about a microsecond, building
/// a few hundred items several times that.
const PARALLEL_MIN_ITEMS: usize = 512;

/// How many levels of the parallel build may fork; bounds its recursion when splits are very
/// uneven (the serial build below uses an explicit stack).
const PARALLEL_MAX_DEPTH: u32 = 24;

/// One subtree (a leaf, or an untouched internal node) the build arranges, with what a parent
/// needs of it copied out of the node array: the build reads these once per level, and a dense
/// array it reorders in place is far kinder to the cache than scattered node loads. A finished
/// part of the new tree is described by the same record.
#[derive(Clone, Copy, Debug)]
struct BuildItem {
    aabb: Aabb,
    category_bits: u64,
    node: u32,
    height: u32,
}

impl BuildItem {
    /// Twice the box centre: the bins only compare centres, so the halving is left out.
    #[inline]
    fn centre2(&self) -> Vec2 {
        self.aabb.min + self.aabb.max
    }
}

/// A new internal node, stored at its slot position until it is copied into the tree.
#[derive(Clone, Copy, Debug)]
struct BuiltNode {
    aabb: Aabb,
    category_bits: u64,
    child1: u32,
    child2: u32,
    height: u32,
}

const UNBUILT: BuiltNode = BuiltNode {
    aabb: Aabb {
        min: Vec2::ZERO,
        max: Vec2::ZERO,
    },
    category_bits: 0,
    child1: NULL_NODE,
    child2: NULL_NODE,
    height: 0,
};

/// A box as `[min.x, min.y, −max.x, −max.y]`: the union of two is then one lane-wise minimum,
/// which compiles to a single vector instruction in the binning loop (`Aabb::union`'s NaN-aware
/// `f32::min` does not). Negation is exact, so the values are those of the `Aabb` math.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(align(16))]
struct Bounds([f32; 4]);

impl Bounds {
    const EMPTY: Bounds = Bounds([f32::INFINITY; 4]);

    #[inline]
    fn of(aabb: &Aabb) -> Bounds {
        Bounds([aabb.min.x, aabb.min.y, -aabb.max.x, -aabb.max.y])
    }

    #[inline]
    fn point(p: Vec2) -> Bounds {
        Bounds([p.x, p.y, -p.x, -p.y])
    }

    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn union(self, other: Bounds) -> Bounds {
        use std::arch::x86_64::{_mm_loadu_ps, _mm_min_ps, _mm_storeu_ps};
        let mut out = [0.0f32; 4];
        // SAFETY: the pointers address the three local four-float arrays.
        unsafe {
            let min = _mm_min_ps(
                _mm_loadu_ps(self.0.as_ptr()),
                _mm_loadu_ps(other.0.as_ptr()),
            );
            _mm_storeu_ps(out.as_mut_ptr(), min);
        }
        Bounds(out)
    }

    #[cfg(not(target_arch = "x86_64"))]
    #[inline]
    fn union(self, other: Bounds) -> Bounds {
        let (a, b) = (self.0, other.0);
        Bounds(std::array::from_fn(
            |i| if a[i] < b[i] { a[i] } else { b[i] },
        ))
    }

    #[inline]
    fn perimeter(self) -> f32 {
        let b = self.0;
        2.0 * ((-b[2] - b[0]) + (-b[3] - b[1]))
    }

    /// `max − min` per axis.
    #[inline]
    fn spread(self) -> Vec2 {
        let b = self.0;
        Vec2::new(-b[2] - b[0], -b[3] - b[1])
    }

    #[inline]
    fn low(self, axis: usize) -> f32 {
        self.0[axis]
    }
}

/// The bounds of a set of (doubled) centres; `Bounds::EMPTY` for none.
type CentreBounds = Bounds;

/// One step of the serial build's explicit stack: split a range, or join the two subtrees just
/// built into the node at a slot position.
#[derive(Clone, Copy, Debug)]
enum Task {
    Split {
        begin: usize,
        end: usize,
        centres: CentreBounds,
    },
    Join(usize),
}

/// The boxes, centre bounds and count of the items whose centres fall into one bin.
#[derive(Clone, Copy)]
struct Bin {
    bounds: Bounds,
    centres: CentreBounds,
    count: usize,
}

const EMPTY_BIN: Bin = Bin {
    bounds: Bounds::EMPTY,
    centres: Bounds::EMPTY,
    count: 0,
};

/// A range's cut: the first `left` items form the left subtree; each side's centre bounds.
struct Cut {
    left: usize,
    left_centres: CentreBounds,
    right_centres: CentreBounds,
}

/// Reusable arrays for the builds, kept in the tree so that a per-step partial rebuild
/// allocates nothing once warmed up.
#[derive(Clone, Debug, Default)]
pub(super) struct BuildScratch {
    items: Vec<BuildItem>,
    /// The node indices the new internal nodes take, by slot position.
    slots: Vec<u32>,
    built: Vec<BuiltNode>,
    tasks: Vec<Task>,
    done: Vec<BuildItem>,
    /// The walk down the enlarged part.
    descent: Vec<u32>,
}

impl DynamicTree {
    /// Rebuilds the whole hierarchy top-down with binned surface-area splits. Proxy ids, fat
    /// boxes, categories and user data are unchanged.
    pub fn rebuild(&mut self) {
        self.rebuild_all(false);
    }

    /// [`DynamicTree::rebuild`] on the caller's workers (the `workers` crate); gives the same
    /// tree, node for node.
    pub fn rebuild_parallel(&mut self) {
        self.rebuild_all(true);
    }

    /// Rebuilds the enlarged top part of the tree (see the module documentation), leaving the
    /// subtrees below it untouched. Afterwards no node is enlarged and every box is the exact
    /// union of its children's. Proxy ids, fat boxes, categories and user data are unchanged.
    /// Does nothing when no node is enlarged.
    pub fn rebuild_enlarged(&mut self) {
        self.rebuild_top(false);
    }

    /// [`DynamicTree::rebuild_enlarged`] on the caller's workers (for example inside
    /// `workers::Workers::install`); gives the same tree, node for node.
    pub fn rebuild_enlarged_parallel(&mut self) {
        self.rebuild_top(true);
    }

    /// Makes the boxes valid for queries after deferred moves without rebuilding: flags the
    /// moved leaves' ancestors, walks the enlarged part as [`DynamicTree::rebuild_enlarged`]
    /// does, and sets each enlarged node's box to the union of its children's, bottom up, in
    /// `O(enlarged nodes)`. The nodes stay flagged and the walk is kept, so a later
    /// `rebuild_enlarged` (or its parallel twin) builds that part at once — possibly while
    /// other work runs beside it — unless an edit came in between (see `tree/enlarge.rs`).
    pub fn refit_enlarged(&mut self) {
        self.flag_deferred();
        self.boxes_stale = false;
        self.collected = false;
        if self.root == NULL_NODE || !self.nodes[self.root as usize].enlarged {
            return;
        }
        let mut scratch = std::mem::take(&mut self.build_scratch);
        self.collect_enlarged(&mut scratch, false);
        // The walk lists every slot before the slots below it, so in reverse each node's
        // children are final before the node itself.
        // (Heights do not change with the boxes; `refit` recomputes them to the same values.)
        for &slot in scratch.slots.iter().rev() {
            self.refit(slot);
        }
        // The walk settled some small subtrees; the slots are what stays flagged.
        self.enlarged_count = scratch.slots.len();
        self.build_scratch = scratch;
        self.collected = true;
    }

    fn rebuild_all(&mut self, parallel: bool) {
        self.collected = false;
        let mut scratch = std::mem::take(&mut self.build_scratch);
        scratch.items.clear();
        scratch.slots.clear();
        for (index, node) in self.nodes.iter_mut().enumerate() {
            if !node.is_allocated() {
                continue;
            }
            if node.is_leaf() {
                scratch.items.push(BuildItem {
                    aabb: node.aabb,
                    category_bits: node.category_bits,
                    node: index as u32,
                    height: 0,
                });
            } else {
                node.enlarged = false;
                scratch.slots.push(index as u32);
            }
        }
        self.enlarged_count = 0;
        self.boxes_stale = false;
        self.deferred.clear();
        self.build(&mut scratch, parallel);
        self.build_scratch = scratch;
    }

    fn rebuild_top(&mut self, parallel: bool) {
        if std::mem::take(&mut self.collected) {
            // `refit_enlarged`'s walk, and the tree is as it left it: the walk would find
            // the same slots and items again.
            let mut scratch = std::mem::take(&mut self.build_scratch);
            for &slot in &scratch.slots {
                self.nodes[slot as usize].enlarged = false;
            }
            self.enlarged_count = 0;
            self.build(&mut scratch, parallel);
            self.build_scratch = scratch;
            return;
        }
        self.flag_deferred();
        self.boxes_stale = false;
        if self.root == NULL_NODE || !self.nodes[self.root as usize].enlarged {
            debug_assert_eq!(self.enlarged_count, 0);
            return;
        }
        let mut scratch = std::mem::take(&mut self.build_scratch);
        self.collect_enlarged(&mut scratch, true);
        self.enlarged_count = 0;
        self.build(&mut scratch, parallel);
        self.build_scratch = scratch;
    }

    /// Walks down from the root through the enlarged nodes: they become the slots (unflagged if
    /// `unflag`), the nodes below them the items. Reads no enlarged node's box.
    fn collect_enlarged(&mut self, scratch: &mut BuildScratch, unflag: bool) {
        let BuildScratch {
            items,
            slots,
            descent,
            ..
        } = scratch;
        items.clear();
        slots.clear();
        descent.clear();
        descent.push(self.root);
        while let Some(index) = descent.pop() {
            let node = self.nodes[index as usize];
            let kept = !node.enlarged
                || (node.height <= KEEP_HEIGHT && self.settle_close(index, KEEP_HEIGHT));
            if kept {
                let node = &self.nodes[index as usize];
                items.push(BuildItem {
                    aabb: node.aabb,
                    category_bits: node.category_bits,
                    node: index,
                    height: node.height,
                });
            } else {
                self.nodes[index as usize].enlarged = !unflag;
                slots.push(index);
                descent.extend([node.child2, node.child1]);
            }
        }
    }

    /// Tries to keep the small subtree at `index` (at most `levels` levels of enlarged nodes)
    /// whole: every enlarged node in it whose two children are kept and still lie close
    /// together — their union's perimeter is at most the sum of theirs, so they overlap or the
    /// gap between them is under about one box — is refitted to their union and unflagged.
    /// Returns whether `index` itself is now exact and unflagged. Children that moved apart
    /// leave their parent flagged, to be rebuilt; a child refitted on the way stays exact and
    /// becomes an item of the build on its own.
    fn settle_close(&mut self, index: u32, levels: u32) -> bool {
        let node = self.nodes[index as usize];
        if !node.enlarged {
            return true;
        }
        if levels == 0
            || !self.settle_close(node.child1, levels - 1)
            || !self.settle_close(node.child2, levels - 1)
        {
            return false;
        }
        let (first, second) = (
            &self.nodes[node.child1 as usize],
            &self.nodes[node.child2 as usize],
        );
        let union = first.aabb.union(&second.aabb);
        if union.perimeter() > first.aabb.perimeter() + second.aabb.perimeter() {
            return false;
        }
        let category_bits = first.category_bits | second.category_bits;
        let node = &mut self.nodes[index as usize];
        node.aabb = union;
        node.category_bits = category_bits;
        node.enlarged = false;
        true
    }

    /// Arranges `scratch.items` under the internal nodes `scratch.slots` (one fewer) and makes
    /// the result the root.
    fn build(&mut self, scratch: &mut BuildScratch, parallel: bool) {
        let BuildScratch {
            items,
            slots,
            built,
            tasks,
            done,
            ..
        } = scratch;
        if items.is_empty() {
            self.root = NULL_NODE;
            return;
        }
        debug_assert_eq!(slots.len() + 1, items.len(), "one slot per internal node");
        built.clear();
        built.resize(slots.len(), UNBUILT);
        let centres = centre_bounds(items);
        let root = if parallel {
            build_parallel(items, slots, built, centres, PARALLEL_MAX_DEPTH)
        } else {
            build_serial(items, slots, built, centres, tasks, done)
        };
        self.link(slots, built, root.node);
    }

    /// Copies the built nodes into the node storage and points every child at its parent.
    fn link(&mut self, slots: &[u32], built: &[BuiltNode], root: u32) {
        for (&index, new) in slots.iter().zip(built) {
            let node = &mut self.nodes[index as usize];
            node.aabb = new.aabb;
            node.category_bits = new.category_bits;
            node.child1 = new.child1;
            node.child2 = new.child2;
            node.height = new.height;
            self.nodes[new.child1 as usize].parent_or_next = index;
            self.nodes[new.child2 as usize].parent_or_next = index;
        }
        self.root = root;
        self.nodes[root as usize].parent_or_next = NULL_NODE;
    }
}

/// The bounds of the items' (doubled) centres.
fn centre_bounds(items: &[BuildItem]) -> CentreBounds {
    items.iter().fold(Bounds::EMPTY, |bounds, item| {
        bounds.union(Bounds::point(item.centre2()))
    })
}

/// Builds the subtree over `items` with the internal nodes `slots` (one fewer), writing each
/// new node to `built` at its slot position; returns the subtree's root. An explicit stack of
/// splits and joins in post-order: a join pops the two subtrees its split pushed last.
fn build_serial(
    items: &mut [BuildItem],
    slots: &[u32],
    built: &mut [BuiltNode],
    centres: CentreBounds,
    tasks: &mut Vec<Task>,
    done: &mut Vec<BuildItem>,
) -> BuildItem {
    tasks.clear();
    done.clear();
    tasks.push(Task::Split {
        begin: 0,
        end: items.len(),
        centres,
    });
    while let Some(task) = tasks.pop() {
        match task {
            Task::Split { begin, end, .. } if end - begin == 1 => done.push(items[begin]),
            Task::Split {
                begin,
                end,
                centres,
            } => {
                let cut = split(&mut items[begin..end], centres);
                let middle = begin + cut.left;
                tasks.push(Task::Join(middle - 1));
                tasks.push(Task::Split {
                    begin: middle,
                    end,
                    centres: cut.right_centres,
                });
                tasks.push(Task::Split {
                    begin,
                    end: middle,
                    centres: cut.left_centres,
                });
            }
            Task::Join(position) => {
                let (Some(second), Some(first)) = (done.pop(), done.pop()) else {
                    unreachable!("a join follows the two subtrees it joins");
                };
                let joined = join(&mut built[position], slots[position], first, second);
                done.push(joined);
            }
        }
    }
    debug_assert_eq!(done.len(), 1);
    done[0]
}

/// As `build_serial`, forking the two halves of large ranges onto the caller's workers. Each half
/// gets the sub-slices its numbering gives it, so the tree does not depend on the schedule.
fn build_parallel(
    items: &mut [BuildItem],
    slots: &[u32],
    built: &mut [BuiltNode],
    centres: CentreBounds,
    depth: u32,
) -> BuildItem {
    if items.len() < PARALLEL_MIN_ITEMS || depth == 0 {
        let (mut tasks, mut done) = (Vec::new(), Vec::new());
        return build_serial(items, slots, built, centres, &mut tasks, &mut done);
    }
    let cut = split(items, centres);
    let position = cut.left - 1;
    let (left_items, right_items) = items.split_at_mut(cut.left);
    let (left_built, rest) = built.split_at_mut(position);
    let (own, right_built) = rest
        .split_first_mut()
        .expect("a range of two or more items");
    let (left_slots, right_slots) = (&slots[..position], &slots[position + 1..]);
    let (first, second) = workers::join(
        || {
            build_parallel(
                left_items,
                left_slots,
                left_built,
                cut.left_centres,
                depth - 1,
            )
        },
        || {
            build_parallel(
                right_items,
                right_slots,
                right_built,
                cut.right_centres,
                depth - 1,
            )
        },
    );
    join(own, slots[position], first, second)
}

/// Makes `first` and `second` the children of the new node `index`, described in `own`.
#[inline]
fn join(own: &mut BuiltNode, index: u32, first: BuildItem, second: BuildItem) -> BuildItem {
    let aabb = first.aabb.union(&second.aabb);
    let category_bits = first.category_bits | second.category_bits;
    let height = 1 + first.height.max(second.height);
    *own = BuiltNode {
        aabb,
        category_bits,
        child1: first.node,
        child2: second.node,
        height,
    };
    BuildItem {
        aabb,
        category_bits,
        node: index,
        height,
    }
}

/// Reorders `items` (at least two, their centres bounded by `centres`) so that the first
/// `cut.left` form the left subtree, with `0 < cut.left < items.len()`.
fn split(items: &mut [BuildItem], centres: CentreBounds) -> Cut {
    if items.len() <= SWEEP_MAX {
        return split_small(items);
    }
    let spread = centres.spread();
    let axis = usize::from(spread.y > spread.x);
    if !(spread[axis].is_finite() && spread[axis] > 0.0) {
        return cut_at(items, items.len() / 2);
    }
    let (low, scale) = (centres.low(axis), BIN_COUNT as f32 / spread[axis]);
    // The product lies in `[0, BIN_COUNT]` (up to rounding), so the conversion through `i32`
    // (cheaper than to `usize`) and the clamp keep the index in range.
    let bin_of = |item: &BuildItem| {
        (((item.centre2()[axis] - low) * scale) as i32).clamp(0, BIN_COUNT as i32 - 1) as usize
    };
    let mut bins = [EMPTY_BIN; BIN_COUNT];
    for item in items.iter() {
        let (bin, c) = (&mut bins[bin_of(item)], item.centre2());
        bin.bounds = bin.bounds.union(Bounds::of(&item.aabb));
        bin.centres = bin.centres.union(Bounds::point(c));
        bin.count += 1;
    }
    let Some(last_left_bin) = cheapest_split(&bins) else {
        return cut_at(items, items.len() / 2);
    };
    let left = partition(items, |item| bin_of(item) <= last_left_bin);
    let centres_of = |bins: &[Bin]| {
        bins.iter()
            .fold(Bounds::EMPTY, |b, bin| b.union(bin.centres))
    };
    Cut {
        left,
        left_centres: centres_of(&bins[..=last_left_bin]),
        right_centres: centres_of(&bins[last_left_bin + 1..]),
    }
}

/// Cuts at `left` without reordering, scanning both sides for their centre bounds.
fn cut_at(items: &[BuildItem], left: usize) -> Cut {
    Cut {
        left,
        left_centres: centre_bounds(&items[..left]),
        right_centres: centre_bounds(&items[left..]),
    }
}

/// The exact surface-area split of a few items: sorted along the axis where their centres
/// spread most, every cut between neighbours is scored and the cheapest wins. The children are
/// small too, so their centre bounds are not needed (they are left empty).
fn split_small(items: &mut [BuildItem]) -> Cut {
    let n = items.len();
    let small_cut = |left| Cut {
        left,
        left_centres: Bounds::EMPTY,
        right_centres: Bounds::EMPTY,
    };
    if n == 2 {
        return small_cut(1);
    }
    let spread = centre_bounds(items).spread();
    let axis = usize::from(spread.y > spread.x);
    // Insertion sort: stable, and at most `SWEEP_MAX` items.
    for i in 1..n {
        let mut j = i;
        while j > 0 && items[j].centre2()[axis] < items[j - 1].centre2()[axis] {
            items.swap(j, j - 1);
            j -= 1;
        }
    }
    // Suffix boxes: `right[i]` bounds items `i..`.
    let mut right = [Bounds::EMPTY; SWEEP_MAX];
    let mut bounds = Bounds::EMPTY;
    for i in (1..n).rev() {
        bounds = bounds.union(Bounds::of(&items[i].aabb));
        right[i] = bounds;
    }
    let (mut best_cost, mut best) = (f32::INFINITY, n / 2);
    let mut left = Bounds::EMPTY;
    for i in 1..n {
        left = left.union(Bounds::of(&items[i - 1].aabb));
        let cost = left.perimeter() * i as f32 + right[i].perimeter() * (n - i) as f32;
        if cost < best_cost {
            (best_cost, best) = (cost, i);
        }
    }
    small_cut(best)
}

/// The bin index `i` such that splitting after bin `i` has the least surface-area cost, among
/// splits that leave both sides non-empty.
fn cheapest_split(bins: &[Bin; BIN_COUNT]) -> Option<usize> {
    // Right-to-left sweep: cost contribution of bins i+1.. for each split i.
    let mut right_cost = [0.0f32; BIN_COUNT];
    let mut right_count = [0usize; BIN_COUNT];
    let (mut bounds, mut count) = (Bounds::EMPTY, 0);
    for i in (1..BIN_COUNT).rev() {
        bounds = bounds.union(bins[i].bounds);
        count += bins[i].count;
        right_cost[i - 1] = bounds.perimeter() * count as f32;
        right_count[i - 1] = count;
    }
    let (mut bounds, mut count) = (Bounds::EMPTY, 0);
    let mut best: Option<(f32, usize)> = None;
    for i in 0..BIN_COUNT - 1 {
        bounds = bounds.union(bins[i].bounds);
        count += bins[i].count;
        if count == 0 || right_count[i] == 0 {
            continue;
        }
        let cost = bounds.perimeter() * count as f32 + right_cost[i];
        if best.is_none_or(|(best_cost, _)| cost < best_cost) {
            best = Some((cost, i));
        }
    }
    best.map(|(_, i)| i)
}

/// Moves the items that satisfy `goes_left` to the front (order within each side is not kept)
/// and returns how many there are.
fn partition(items: &mut [BuildItem], goes_left: impl Fn(&BuildItem) -> bool) -> usize {
    let mut left = 0;
    for i in 0..items.len() {
        if goes_left(&items[i]) {
            items.swap(left, i);
            left += 1;
        }
    }
    left
}
