//! Cheap moves: enlarging ancestors in place instead of re-inserting the leaf.
//!
//! When a proxy's tight box escapes its fat box, the proxy gets a new fat box `F`. Re-inserting
//! the leaf (unlink, branch-and-bound search for the best sibling, rotations on the way up)
//! keeps the tree at its best but costs a search per move, and in a scene where thousands of
//! bodies move every step that search dominates the step. Instead the leaf keeps its place:
//!
//! ```text
//!   leaf.box = F
//!   for each ancestor A, bottom up:
//!       if A.box contains F: stop growing      (every box above contains A.box already)
//!       A.box = A.box ∪ F
//!   flag every ancestor `enlarged`, stopping at the first one already flagged
//! ```
//!
//! The walk is correct because a query prunes a subtree only when the subtree's box misses the
//! query, and every internal box still contains its children's boxes. What it gives up is
//! tightness: an ancestor keeps the region the leaf left. The flags record exactly where that
//! happened, and they satisfy two invariants that `validate` checks:
//!
//! * an internal node that is *not* enlarged has exactly the union of its children's boxes
//!   (the first ancestor is flagged even when it did not grow, because its box may now be
//!   larger than the union with the leaf's new, smaller-or-shifted box);
//! * the parent of an enlarged node is enlarged, so the flagged nodes form a connected top
//!   part of the tree containing the root. Insertion and rotation keep this (a new parent of an
//!   enlarged node is flagged), and `rebuild_enlarged` rebuilds precisely that top part,
//!   keeping every untouched subtree whole.
//!
//! **Long jumps re-insert.** For any ancestor `A ⊇ O` of a leaf whose fat box goes from `O` to
//! `F`, the perimeter growth is bounded by the leaf's own: per axis, the amount by which `F`
//! sticks out of an interval containing `O` is at most the amount it sticks out of `O`, so
//! `P(A ∪ F) − P(A) ≤ P(O ∪ F) − P(O)`. A move whose growth `P(O ∪ F) − P(O)` is at most `P(F)`
//! (the box travelled no more than about its own size) therefore loosens every ancestor by at
//! most one box's perimeter, and is enlarged. A longer jump (a teleport, a body thrown across
//! the world) would stretch every ancestor across the jump, so it is re-inserted instead.
//!
//! **Deferred moves only flag.** A caller that moves many proxies and rebuilds right after
//! (`move_proxy_deferred`, then `rebuild_enlarged`) does not need the boxes grown in between:
//! the rebuild reads no enlarged node's box, only the boxes of the items below the flagged part,
//! and those are exact. So a deferred move only sets the leaf's box and notes the leaf; the
//! rebuild (or any edit that relinks the tree) first walks up from each noted leaf while the
//! ancestors are unflagged — with many moves, most walks stop after a node or two. Doing the
//! walks in one tight loop rather than between a caller's other work lets the processor overlap
//! their cache misses, which dominate them. Until the rebuild the flagged boxes are stale (they
//! may miss a moved leaf), which the tree records so that debug builds catch a query. Nor does a long jump need re-insertion: the moved
//! leaf is itself an item of the rebuild (its parent is flagged), which places it afresh.
//!
//! **Refit now, rebuild later.** A caller that needs the tree queryable at once but can afford
//! its tightness later calls `refit_enlarged` instead: the same flagging walks and the same
//! walk down the enlarged part, after which every enlarged node gets the exact union of its
//! children's boxes, bottom up, in `O(k)`. Queries are then correct — a refitted node is as
//! tight as its place allows, only the topology is stale — and the nodes stay flagged. The walk
//! is kept with the tree, so the `rebuild_enlarged` that follows builds at once, without
//! walking again, unless an edit came in between (any create, destroy, move or origin shift
//! drops it, and the rebuild walks afresh: the walk of an unchanged tree finds the same slots
//! and items, so the result is the same tree either way). A physics step uses this to refit
//! at the end of one step and rebuild beside the next step's narrowphase, which reads no tree.
//!
//! **When the tree rebuilds itself.** `rebuild_enlarged` costs `O(k log k)` for `k` enlarged
//! nodes. A move flags at most `height` new nodes, so `k` enlarged nodes took at least
//! `k / height` moves; rebuilding once `k` passes a fixed fraction of the internal nodes spreads
//! the rebuild over those moves at `O(height · log k)` each — the order of one insertion, but
//! done in bulk — and usually far less, since neighbouring moves share ancestors. The fraction
//! bounds how much of the tree can be loose at any time (and so the extra query cost) without
//! rebuilding after every few moves. A quarter is the chosen compromise: in a scene where every
//! body moves every step the tree rebuilds its top a few times per step, and in a scene where
//! few bodies move it rarely does. The trigger depends only on the sequence of operations, so
//! the same operations give the same tree. A caller that calls `rebuild_enlarged` once per step
//! keeps the tree tight at the start of each step and makes the trigger a backstop.

use super::{DynamicTree, NULL_NODE};
use crate::aabb::Aabb;

/// The tree rebuilds its enlarged part by itself once more than `1 / AUTO_REBUILD_DIVISOR` of
/// its internal nodes are enlarged (see the module documentation).
const AUTO_REBUILD_DIVISOR: usize = 4;

/// Whether a leaf whose fat box goes from `old` to `new` should be enlarged in place rather
/// than re-inserted: the growth of `old` needed to cover `new` is at most `new`'s perimeter.
pub(super) fn is_short_move(old: Aabb, new: Aabb) -> bool {
    old.union(&new).perimeter() - old.perimeter() <= new.perimeter()
}

impl DynamicTree {
    /// The number of internal nodes whose boxes may be looser than their children's union
    /// because a leaf below moved since the last rebuild.
    pub fn enlarged_count(&self) -> usize {
        self.enlarged_count
    }

    /// Gives a leaf the fat box `fat` without moving it in the tree: grows the ancestors until
    /// one contains `fat`, and flags the path to the root (see the module documentation).
    pub(super) fn enlarge_proxy(&mut self, proxy: u32, fat: Aabb) {
        self.nodes[proxy as usize].aabb = fat;
        let mut index = self.nodes[proxy as usize].parent_or_next;
        while index != NULL_NODE {
            let node = &mut self.nodes[index as usize];
            let grew = !node.aabb.contains(&fat);
            if grew {
                node.aabb = node.aabb.union(&fat);
            }
            let parent = node.parent_or_next;
            self.mark_enlarged(index);
            index = parent;
            if !grew {
                break;
            }
        }
        // Above here the boxes already contain `fat`; they only need the flag, and an ancestor
        // that has it proves that all ancestors above it have it too.
        while index != NULL_NODE && !self.nodes[index as usize].enlarged {
            self.mark_enlarged(index);
            index = self.nodes[index as usize].parent_or_next;
        }
    }

    /// Flags the ancestors of the leaves moved by `move_proxy_deferred`, each walk stopping at
    /// the first ancestor already flagged, without growing any box (see the module
    /// documentation). Must run before anything relinks the tree.
    pub(super) fn flag_deferred(&mut self) {
        let deferred = std::mem::take(&mut self.deferred);
        for &leaf in &deferred {
            let mut index = self.nodes[leaf as usize].parent_or_next;
            while index != NULL_NODE && !self.nodes[index as usize].enlarged {
                self.mark_enlarged(index);
                index = self.nodes[index as usize].parent_or_next;
            }
        }
        self.deferred = deferred;
        self.deferred.clear();
    }

    /// Flags an internal node as enlarged (counting it once).
    pub(super) fn mark_enlarged(&mut self, index: u32) {
        let node = &mut self.nodes[index as usize];
        debug_assert!(!node.is_leaf(), "leaf {index} flagged as enlarged");
        if !node.enlarged {
            node.enlarged = true;
            self.enlarged_count += 1;
        }
    }

    /// Runs `rebuild_enlarged` when the enlarged nodes exceed the fraction of the tree set by
    /// `AUTO_REBUILD_DIVISOR`.
    pub(super) fn rebuild_enlarged_if_due(&mut self) {
        let internal_count = self.proxy_count.saturating_sub(1);
        if self.auto_rebuild && self.enlarged_count > internal_count / AUTO_REBUILD_DIVISOR {
            self.rebuild_enlarged();
        }
    }
}
