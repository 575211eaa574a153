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

use super::{DynamicTree, NULL_NODE};
use crate::aabb::Aabb;

/// The number of bins along the split axis; 16 is close to a full sweep in quality at a fraction
/// of its cost.
const BIN_COUNT: usize = 16;

/// A range of leaves still to be turned into a subtree, and where to hang that subtree.
#[derive(Clone, Copy)]
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
        let mut leaves = Vec::with_capacity(self.proxy_count);
        for index in 0..self.nodes.len() as u32 {
            let node = self.nodes[index as usize];
            if !node.is_allocated() {
                continue;
            }
            if node.is_leaf() {
                leaves.push(index);
            } else {
                self.free_node(index);
            }
        }
        self.root = NULL_NODE;
        if leaves.is_empty() {
            return;
        }
        let mut internal_nodes = Vec::with_capacity(leaves.len());
        let mut tasks = vec![BuildTask {
            begin: 0,
            end: leaves.len(),
            parent: NULL_NODE,
            is_first_child: true,
        }];
        while let Some(task) = tasks.pop() {
            let subtree = if task.end - task.begin == 1 {
                leaves[task.begin]
            } else {
                let middle = self.split_leaves(&mut leaves[task.begin..task.end]) + task.begin;
                let node = self.allocate_node();
                internal_nodes.push(node);
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
        // Children were allocated after their parents, so the reverse order refits bottom-up.
        for &node in internal_nodes.iter().rev() {
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

    /// Reorders `leaves` (at least two) so that the first `k` form the left subtree, and
    /// returns `k`, with `0 < k < leaves.len()`.
    fn split_leaves(&self, leaves: &mut [u32]) -> usize {
        let centre = |leaf: u32| self.nodes[leaf as usize].aabb.center();
        let (mut low, mut high) = (centre(leaves[0]), centre(leaves[0]));
        for &leaf in leaves.iter() {
            low = low.min(centre(leaf));
            high = high.max(centre(leaf));
        }
        let spread = high - low;
        let axis = if spread.x >= spread.y { 0 } else { 1 };
        let can_bin = spread[axis].is_finite() && spread[axis] > 0.0;
        if !can_bin {
            return leaves.len() / 2;
        }
        let scale = BIN_COUNT as f32 / spread[axis];
        let bin_of =
            |leaf: u32| (((centre(leaf)[axis] - low[axis]) * scale) as usize).min(BIN_COUNT - 1);
        let mut bins = [Bin::default(); BIN_COUNT];
        for &leaf in leaves.iter() {
            let bin = &mut bins[bin_of(leaf)];
            bin.bounds = union_of(bin.bounds, Some(self.nodes[leaf as usize].aabb));
            bin.count += 1;
        }
        let Some(last_left_bin) = cheapest_split(&bins) else {
            return leaves.len() / 2;
        };
        partition(leaves, |leaf| bin_of(leaf) <= last_left_bin)
    }
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
fn partition(items: &mut [u32], goes_left: impl Fn(u32) -> bool) -> usize {
    let mut left = 0;
    for i in 0..items.len() {
        if goes_left(items[i]) {
            items.swap(left, i);
            left += 1;
        }
    }
    left
}
