//! Top-down rebuild with a binned surface-area split.
//!
//! Incremental insertion is good but greedy in time: the tree reflects the order in which
//! proxies arrived and moved. A rebuild sees all leaves at once. It frees every internal node and
//! splits the set of leaves recursively (with an explicit work stack): the leaves' box centres
//! are sorted into `BIN_COUNT` equal bins along the axis where the centres spread most, and the
//! split between bins `i` and `i + 1` is scored with the surface-area heuristic
//!
//! ```text
//!     cost(i) = P(left boxes) · n_left + P(right boxes) · n_right
//! ```
//!
//! (a random ray that hits the parent hits a child with probability proportional to the child's
//! perimeter, and then pays for the leaves below it). The cheapest split wins. When all centres
//! coincide, or a split would leave one side empty, the range is cut at its middle. Leaves keep
//! their indices, so proxy ids survive a rebuild.
//!
//! **Partial rebuild.** `rebuild_enlarged` applies the same build to the enlarged part of the
//! tree only (see `tree/enlarge.rs`). Walking down from the root through enlarged nodes, every
//! enlarged node is freed and every node that is not enlarged — a leaf, or an untouched subtree,
//! whose box is exactly its children's union — becomes one *item* of the build, kept whole. The
//! binned split then works on the items' boxes as it does on leaves', and the new internal
//! nodes are refitted bottom-up, which also recomputes their heights from the kept subtrees'.
//! Since the enlarged nodes are connected to the root, the new top part replaces them exactly,
//! and its boxes are tight again. The cost is that of building over `k + 1` items for `k`
//! enlarged nodes, independent of the size of the untouched subtrees. Scratch arrays are kept
//! in the tree between builds, so a rebuild allocates nothing once they have grown.

use super::{DynamicTree, NULL_NODE};
use crate::aabb::Aabb;
use core_soa::Vec2;

/// The number of bins along the split axis; 16 is close to a full sweep in quality at a fraction
/// of its cost.
const BIN_COUNT: usize = 16;

/// A range of items still to be turned into a subtree, and where to hang that subtree.
#[derive(Clone, Copy, Debug)]
struct BuildTask {
    begin: usize,
    end: usize,
    parent: u32,
    is_first_child: bool,
}

/// The boxes and counts of the leaves whose centres fall into one bin.
#[derive(Clone, Copy, Default)]
struct Bin {
    bounds: Option<Aabb>,
    count: usize,
}

/// One subtree (a leaf, or an untouched internal node) the build arranges, with its box and
/// centre copied out of the node array: the build reads them once per level, and a dense array
/// it reorders in place is far kinder to the cache than scattered node loads.
#[derive(Clone, Copy, Debug)]
struct BuildItem {
    aabb: Aabb,
    centre: Vec2,
    node: u32,
}

impl BuildItem {
    fn new(node: u32, aabb: Aabb) -> Self {
        BuildItem {
            aabb,
            centre: aabb.center(),
            node,
        }
    }
}

/// Reusable arrays for the top-down builds.
#[derive(Clone, Debug, Default)]
pub(super) struct BuildScratch {
    /// The subtrees the build arranges.
    items: Vec<BuildItem>,
    tasks: Vec<BuildTask>,
    /// Internal nodes created by the build, parents before children.
    created: Vec<u32>,
}

fn union_of(a: Option<Aabb>, b: Option<Aabb>) -> Option<Aabb> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.union(&b)),
        (a, None) => a,
        (None, b) => b,
    }
}

impl DynamicTree {
    /// Rebuilds the whole hierarchy top-down with binned surface-area splits. Proxy ids, fat
    /// boxes, categories and user data are unchanged.
    pub fn rebuild(&mut self) {
        let mut scratch = std::mem::take(&mut self.build_scratch);
        scratch.items.clear();
        for index in 0..self.nodes.len() as u32 {
            let node = self.nodes[index as usize];
            if !node.is_allocated() {
                continue;
            }
            if node.is_leaf() {
                scratch.items.push(BuildItem::new(index, node.aabb));
            } else {
                self.free_node(index);
            }
        }
        debug_assert_eq!(self.enlarged_count, 0);
        self.build(&mut scratch);
        self.build_scratch = scratch;
    }

    /// Rebuilds the enlarged top part of the tree (see the module documentation), leaving the
    /// subtrees below it untouched. Afterwards no node is enlarged and every box is the exact
    /// union of its children's. Proxy ids, fat boxes, categories and user data are unchanged.
    /// Does nothing when no node is enlarged.
    pub fn rebuild_enlarged(&mut self) {
        if self.root == NULL_NODE || !self.nodes[self.root as usize].enlarged {
            debug_assert_eq!(self.enlarged_count, 0);
            return;
        }
        let mut scratch = std::mem::take(&mut self.build_scratch);
        scratch.items.clear();
        // The array of created nodes serves as the descent stack until the build needs it.
        let mut descent = std::mem::take(&mut scratch.created);
        descent.clear();
        descent.push(self.root);
        while let Some(index) = descent.pop() {
            let node = self.nodes[index as usize];
            if node.is_leaf() || !node.enlarged {
                scratch.items.push(BuildItem::new(index, node.aabb));
            } else {
                descent.extend([node.child2, node.child1]);
                self.free_node(index);
            }
        }
        scratch.created = descent;
        debug_assert_eq!(self.enlarged_count, 0);
        self.build(&mut scratch);
        self.build_scratch = scratch;
    }

    /// Arranges `scratch.items` (subtrees whose internal structure is kept) under new internal
    /// nodes, top-down, and makes the result the root.
    fn build(&mut self, scratch: &mut BuildScratch) {
        let BuildScratch {
            items,
            tasks,
            created,
        } = scratch;
        self.root = NULL_NODE;
        if items.is_empty() {
            return;
        }
        created.clear();
        tasks.clear();
        tasks.push(BuildTask {
            begin: 0,
            end: items.len(),
            parent: NULL_NODE,
            is_first_child: true,
        });
        while let Some(task) = tasks.pop() {
            let subtree = if task.end - task.begin == 1 {
                items[task.begin].node
            } else {
                let middle = split_items(&mut items[task.begin..task.end]) + task.begin;
                let node = self.allocate_node();
                created.push(node);
                tasks.push(BuildTask {
                    begin: middle,
                    end: task.end,
                    parent: node,
                    is_first_child: false,
                });
                tasks.push(BuildTask {
                    begin: task.begin,
                    end: middle,
                    parent: node,
                    is_first_child: true,
                });
                node
            };
            self.attach(subtree, task.parent, task.is_first_child);
        }
        // Children were created after their parents, so the reverse order refits bottom-up.
        for &node in created.iter().rev() {
            self.refit(node);
        }
    }

    fn attach(&mut self, subtree: u32, parent: u32, is_first_child: bool) {
        self.nodes[subtree as usize].parent_or_next = parent;
        if parent == NULL_NODE {
            self.root = subtree;
        } else if is_first_child {
            self.nodes[parent as usize].child1 = subtree;
        } else {
            self.nodes[parent as usize].child2 = subtree;
        }
    }
}

/// Reorders `items` (at least two) so that the first `k` form the left subtree, and returns
/// `k`, with `0 < k < items.len()`.
fn split_items(items: &mut [BuildItem]) -> usize {
    let (mut low, mut high) = (items[0].centre, items[0].centre);
    for item in items.iter() {
        low = low.min(item.centre);
        high = high.max(item.centre);
    }
    let spread = high - low;
    let axis = if spread.x >= spread.y { 0 } else { 1 };
    let can_bin = spread[axis].is_finite() && spread[axis] > 0.0;
    if !can_bin {
        return items.len() / 2;
    }
    let scale = BIN_COUNT as f32 / spread[axis];
    let bin_of =
        |item: &BuildItem| (((item.centre[axis] - low[axis]) * scale) as usize).min(BIN_COUNT - 1);
    let mut bins = [Bin::default(); BIN_COUNT];
    for item in items.iter() {
        let bin = &mut bins[bin_of(item)];
        bin.bounds = union_of(bin.bounds, Some(item.aabb));
        bin.count += 1;
    }
    let Some(last_left_bin) = cheapest_split(&bins) else {
        return items.len() / 2;
    };
    partition(items, |item| bin_of(item) <= last_left_bin)
}

/// The bin index `i` such that splitting after bin `i` has the least surface-area cost, among
/// splits that leave both sides non-empty.
fn cheapest_split(bins: &[Bin; BIN_COUNT]) -> Option<usize> {
    // Right-to-left sweep: cost contribution of bins i+1.. for each split i.
    let mut right_cost = [0.0f32; BIN_COUNT];
    let mut right_count = [0usize; BIN_COUNT];
    let (mut bounds, mut count) = (None, 0);
    for i in (1..BIN_COUNT).rev() {
        bounds = union_of(bounds, bins[i].bounds);
        count += bins[i].count;
        right_cost[i - 1] = bounds.map_or(0.0, |b: Aabb| b.perimeter()) * count as f32;
        right_count[i - 1] = count;
    }
    let (mut bounds, mut count) = (None, 0);
    let mut best: Option<(f32, usize)> = None;
    for i in 0..BIN_COUNT - 1 {
        bounds = union_of(bounds, bins[i].bounds);
        count += bins[i].count;
        if count == 0 || right_count[i] == 0 {
            continue;
        }
        let cost = bounds.map_or(0.0, |b: Aabb| b.perimeter()) * count as f32 + right_cost[i];
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
