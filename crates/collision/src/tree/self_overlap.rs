//! Every pair of overlapping leaves of one tree, each found once, in one walk of the tree
//! against itself.
//!
//! The pair search usually asks, for each proxy that moved, which leaves its fat box overlaps:
//! one query from the root per moved proxy. When nearly every proxy of the tree moved (a
//! shaken pile, a drum full of debris), those queries together walk the top of the tree once
//! per proxy, and find every pair of moved proxies twice, once from each end. Walking the tree
//! against itself finds the same overlapping pairs once each and shares the walk above them.
//!
//! The walk works on node pairs `(a, b)` and reports a pair of leaves whose boxes overlap:
//!
//! ```text
//!   within(n):     n a leaf → nothing;  else within(c₁), within(c₂), between(c₁, c₂)
//!   between(a, b): boxes apart → nothing;  both leaves → report (a, b);
//!                  else split the one with the larger box (a leaf is never split):
//!                  between(a, c₁(b)), between(a, c₂(b))
//! ```
//!
//! Every unordered pair of distinct leaves `{x, y}` is reached exactly once: `within` of their
//! lowest common ancestor splits them into `between(c₁, c₂)` (the only call that separates
//! them), and `between` splits one side at a time down to the two leaves, each child once. A
//! pair is reported only if the boxes of every node pair on the way overlap; an ancestor's box
//! contains its descendants', so two overlapping leaves are never pruned on the way.
//!
//! Both kinds of call are stored as one pair on one stack (the traversals' `NodeStack`, inline
//! until it is deep), `within(n)` as `(n, n)`. Before a `between` is pushed, its two boxes are tested (two
//! children against one box in one eight-lane comparison, `PairTest`), so a miss costs no stack
//! traffic.
//!
//! **Tasks.** [`DynamicTree::overlap_tasks`] cuts the walk into independent pieces for
//! several threads: it unfolds the first levels breadth first until there are enough pieces,
//! and [`DynamicTree::overlapping_leaves`] finishes one piece. The pieces together report
//! every pair once, whatever their number; the order of the reports depends on the cut (a
//! caller that needs an order sorts them).

use super::traverse::{NodeStack, PairTest};
use super::{DynamicTree, NULL_NODE};
use std::collections::VecDeque;

/// One piece of the walk: the overlapping leaf pairs under one node, or between two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverlapTask {
    /// Pairs of leaves both under this node.
    Within(u32),
    /// Pairs of one leaf under the first node and one under the second (disjoint subtrees).
    Between(u32, u32),
}

impl OverlapTask {
    /// The task as the walk's stack holds it.
    fn as_pair(self) -> (u32, u32) {
        match self {
            OverlapTask::Within(node) => (node, node),
            OverlapTask::Between(a, b) => (a, b),
        }
    }
}

impl DynamicTree {
    /// Calls `callback(user_data_a, user_data_b)` once for every pair of distinct proxies
    /// whose fat boxes overlap (touching counts), in an order that depends on the tree's
    /// layout. Category bits are not consulted.
    pub fn self_overlaps(&self, mut callback: impl FnMut(u64, u64)) {
        if self.root != NULL_NODE {
            self.overlapping_leaves(OverlapTask::Within(self.root), &mut callback);
        }
    }

    /// The walk of [`DynamicTree::self_overlaps`] cut into at least `min_tasks` pieces where
    /// the tree allows (fewer for a small tree, none for an empty one). Running every piece
    /// with [`DynamicTree::overlapping_leaves`] reports each overlapping pair exactly once.
    pub fn overlap_tasks(&self, min_tasks: usize) -> Vec<OverlapTask> {
        debug_assert!(
            !self.boxes_stale,
            "pair walk after deferred moves, before a rebuild"
        );
        if self.root == NULL_NODE {
            return Vec::new();
        }
        let mut open = VecDeque::from([OverlapTask::Within(self.root)]);
        let mut done = Vec::new();
        // Each unfolding replaces one piece by at most three; a piece that cannot unfold (two
        // leaves, or a leaf within itself) is final.
        while let Some(task) = open.pop_front() {
            if open.len() + done.len() + 1 >= min_tasks {
                open.push_front(task);
                break;
            }
            let before = open.len();
            self.unfold(task, |next| open.push_back(next));
            if open.len() == before && self.can_report(task) {
                done.push(task);
            }
        }
        done.extend(open);
        done
    }

    /// Calls `callback(user_data_a, user_data_b)` for every overlapping pair of leaves of
    /// `task` (see [`DynamicTree::overlap_tasks`]).
    pub fn overlapping_leaves(&self, task: OverlapTask, mut callback: impl FnMut(u64, u64)) {
        debug_assert!(
            !self.boxes_stale,
            "pair walk after deferred moves, before a rebuild"
        );
        let mut stack = NodeStack::<(u32, u32)>::new();
        stack.push(task.as_pair());
        if let OverlapTask::Between(a, b) = task
            && !self.nodes[a as usize]
                .aabb
                .overlaps(&self.nodes[b as usize].aabb)
        {
            return;
        }
        while let Some((a, b)) = stack.pop() {
            let (node_a, node_b) = (&self.nodes[a as usize], &self.nodes[b as usize]);
            if a == b {
                if !node_a.is_leaf() {
                    let (c1, c2) = (node_a.child1, node_a.child2);
                    stack.push((c1, c1));
                    stack.push((c2, c2));
                    let boxes = (&self.nodes[c1 as usize].aabb, &self.nodes[c2 as usize].aabb);
                    if boxes.0.overlaps(boxes.1) {
                        stack.push((c1, c2));
                    }
                }
                continue;
            }
            // `a` and `b` overlap (tested before the push).
            if node_a.is_leaf() && node_b.is_leaf() {
                callback(node_a.user_data, node_b.user_data);
                continue;
            }
            let (keep, split) = self.keep_and_split(a, b);
            let split_node = &self.nodes[split as usize];
            let (c1, c2) = (split_node.child1, split_node.child2);
            let test = PairTest::new(&self.nodes[keep as usize].aabb);
            let [meets1, meets2] =
                test.overlaps(&self.nodes[c1 as usize].aabb, &self.nodes[c2 as usize].aabb);
            if meets2 {
                stack.push((keep, c2));
            }
            if meets1 {
                stack.push((keep, c1));
            }
        }
    }

    /// The node `between(a, b)` keeps and the one it splits: the internal node with the
    /// larger box is split (`a` on a tie).
    fn keep_and_split(&self, a: u32, b: u32) -> (u32, u32) {
        let (node_a, node_b) = (&self.nodes[a as usize], &self.nodes[b as usize]);
        let split_a = !node_a.is_leaf()
            && (node_b.is_leaf() || node_a.aabb.perimeter() >= node_b.aabb.perimeter());
        if split_a { (b, a) } else { (a, b) }
    }

    /// Whether a task that does not unfold can still report a pair: two overlapping leaves.
    fn can_report(&self, task: OverlapTask) -> bool {
        match task {
            OverlapTask::Within(_) => false,
            OverlapTask::Between(a, b) => self.nodes[a as usize]
                .aabb
                .overlaps(&self.nodes[b as usize].aabb),
        }
    }

    /// The pieces one step of the walk makes of `task` (nothing for a leaf within itself, two
    /// leaves, or two boxes apart).
    fn unfold(&self, task: OverlapTask, mut next: impl FnMut(OverlapTask)) {
        match task {
            OverlapTask::Within(n) => {
                let node = &self.nodes[n as usize];
                if !node.is_leaf() {
                    next(OverlapTask::Within(node.child1));
                    next(OverlapTask::Within(node.child2));
                    next(OverlapTask::Between(node.child1, node.child2));
                }
            }
            OverlapTask::Between(a, b) => {
                let (node_a, node_b) = (&self.nodes[a as usize], &self.nodes[b as usize]);
                if !node_a.aabb.overlaps(&node_b.aabb) || (node_a.is_leaf() && node_b.is_leaf()) {
                    return;
                }
                let (keep, split) = self.keep_and_split(a, b);
                let split_node = &self.nodes[split as usize];
                next(OverlapTask::Between(keep, split_node.child1));
                next(OverlapTask::Between(keep, split_node.child2));
            }
        }
    }
}
