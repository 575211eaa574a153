//! # Dynamic AABB tree
//!
//! A binary bounding-volume hierarchy over axis-aligned boxes, used as the broadphase (which
//! shapes might touch?) and to answer box and ray queries. Every leaf is a *proxy*: a shape's box
//! grown by a margin (the *fat* box), its category bits and an opaque `user_data`. Every internal
//! node holds a box containing its two children's boxes (their union, unless a move enlarged it
//! in place; see below) and the bitwise OR of their category bits, so a query can skip a whole
//! subtree whose box misses the query box or whose categories miss the query mask.
//!
//! ```text
//!                 [A ∪ B ∪ C]              internal nodes: union box, OR of categories
//!                 /         \
//!            [A ∪ B]        (C)            leaves: one proxy each, fat box = tight + margin
//!            /     \
//!          (A)     (B)
//! ```
//!
//! **Storage.** Nodes live in one `Vec` with an intrusive free list threaded through the parent
//! field. A proxy id is the index of its leaf; leaves never move while they live (insertion and
//! rotation only re-link internal nodes), so ids stay stable until `destroy_proxy`.
//!
//! **Fat boxes.** A moving shape reports its tight box every step; as long as the tight box stays
//! inside the fat box nothing happens, which makes small jitter free. When it escapes, the leaf
//! gets a new fat box (the tight box grown by the margin). Static trees use a margin of zero.
//!
//! **Moves enlarge; rebuilds tighten.** A small escape does not re-insert the leaf: it only
//! grows the ancestors' boxes until one already contains the new fat box and flags every
//! ancestor as *enlarged* (`tree/enlarge.rs`). That is a short walk with no search, no
//! allocation and no rotation, so a scene where every body moves every step pays little per
//! move. Enlarged boxes are still correct bounds (they contain their children), only looser,
//! and the flagged part of the tree is rebuilt top-down by `rebuild_enlarged`, which the tree
//! also triggers by itself once the flagged part grows past a fixed fraction of the tree. A long
//! jump (a teleport) would stretch every ancestor across the jump, so it re-inserts instead.
//!
//! **Insertion** follows the surface-area heuristic, with perimeter as the 2D "area": the cost of
//! a tree is the sum of its internal nodes' perimeters (a random query point of a random line
//! hits a node with probability proportional to its perimeter). Inserting leaf `L` as the sibling
//! of node `X` creates a parent of perimeter `P(X ∪ L)` and grows each ancestor `A` of `X` by
//! `P(A ∪ L) − P(A)`. The best sibling is found by branch and bound: every node in the subtree
//! under `X` costs at least `P(L)` plus the growth already inherited down to and including `X`,
//! so a subtree whose lower bound is no better than the best cost found so far is skipped. The
//! result is the globally cheapest sibling, not a greedy guess.
//!
//! **Rotations.** After every insertion or removal the path to the root is refitted, and at each
//! node `A = (B, C)` we try the four swaps of one child with a grandchild on the other side
//! (`B ↔ F`, `B ↔ G` when `C = (F, G)`, and `C ↔ D`, `C ↔ E` when `B = (D, E)`). A swap leaves
//! `A`'s box unchanged and changes only the perimeter of the child that receives the new node,
//! so its gain is computed from two boxes. The best perimeter-reducing swap is applied. When no
//! swap reduces the perimeter but the children's heights differ by two or more, the shorter child
//! is swapped with the taller grandchild (an AVL-style rotation), which never increases the
//! height, so sorted insertion orders do not degenerate into long chains.
//!
//! **Traversal** (box queries, ray casts, box casts for swept shapes: `tree/box_cast.rs`, and the
//! walk of the tree against itself that finds every overlapping pair of proxies once:
//! `tree/self_overlap.rs`) uses an explicit stack (inline storage, spilling to the heap only for
//! very deep trees), never recursion. Everything is deterministic: the same
//! sequence of operations gives bit-identical trees and the same callback order.
//!
//! **Rebuild** (`rebuild`) rearranges all leaves under the same internal nodes top-down with a
//! binned surface-area split, which recovers quality after long runs of incremental updates;
//! `rebuild_enlarged` does the same for the enlarged part only, keeping intact every subtree
//! that no move has touched (and flagged subtrees of up to sixteen leaves whose parts stayed
//! close together). Both have parallel twins that give the same tree node for node
//! (`tree/rebuild.rs`). A caller that moves many proxies at once uses `move_proxy_deferred`,
//! which only notes the leaf, and one `rebuild_enlarged` afterwards (`tree/enlarge.rs`).

mod box_cast;
mod enlarge;
mod rebuild;
mod self_overlap;
mod snapshot;
#[cfg(test)]
mod tests;
mod traverse;
mod validate;

use crate::aabb::Aabb;
use core_soa::Vec2;

pub use self_overlap::OverlapTask;

/// How far a dynamic proxy's fat box extends beyond its tight box, in metres.
pub const AABB_MARGIN: f32 = 0.1;

/// The id of no proxy (and of no node).
pub const NULL_PROXY: u32 = u32::MAX;

/// The index of no node.
const NULL_NODE: u32 = u32::MAX;

/// The height stored in a node that sits on the free list.
const FREE_HEIGHT: u32 = u32::MAX;

/// One tree node: a leaf (a proxy) or an internal node with two children.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Node {
    /// Leaves: the fat box. Internal nodes: the union of the children's boxes.
    aabb: Aabb,
    /// Leaves: the proxy's categories. Internal nodes: the OR of the children's categories.
    category_bits: u64,
    /// Leaves: the caller's data. Internal nodes: unused (zero).
    user_data: u64,
    /// The parent node, or, for a node on the free list, the next free node.
    parent_or_next: u32,
    /// `NULL_NODE` for leaves.
    child1: u32,
    child2: u32,
    /// 0 for leaves, 1 + the taller child's height for internal nodes, `FREE_HEIGHT` when free.
    height: u32,
    /// Internal nodes only: the box may be larger than the union of the children, because a
    /// leaf below moved since the last rebuild; the node is rebuilt by `rebuild_enlarged`.
    enlarged: bool,
}

impl Node {
    const FREE: Node = Node {
        aabb: Aabb {
            min: Vec2::ZERO,
            max: Vec2::ZERO,
        },
        category_bits: 0,
        user_data: 0,
        parent_or_next: NULL_NODE,
        child1: NULL_NODE,
        child2: NULL_NODE,
        height: FREE_HEIGHT,
        enlarged: false,
    };

    #[inline]
    fn is_leaf(&self) -> bool {
        self.child1 == NULL_NODE
    }

    #[inline]
    fn is_allocated(&self) -> bool {
        self.height != FREE_HEIGHT
    }
}

/// A dynamic bounding-volume hierarchy of fattened boxes; see the module documentation.
#[derive(Clone, Debug)]
pub struct DynamicTree {
    nodes: Vec<Node>,
    root: u32,
    free_list: u32,
    proxy_count: usize,
    margin: f32,
    /// The number of internal nodes flagged `enlarged`.
    enlarged_count: usize,
    /// Whether moves rebuild the enlarged part by themselves (see `tree/enlarge.rs`); always
    /// on outside tests, which turn it off to observe a tree left loose.
    auto_rebuild: bool,
    /// Whether deferred moves left enlarged boxes that no longer contain their children
    /// (cleared by `rebuild_enlarged`; queries must not run while set).
    boxes_stale: bool,
    /// Leaves given a new box by `move_proxy_deferred` whose ancestors are not flagged yet.
    deferred: Vec<u32>,
    /// Whether `build_scratch` holds the enlarged part as `refit_enlarged` collected it, and
    /// nothing changed the tree since: the next rebuild of the enlarged part builds it without
    /// walking the tree again. Any edit clears it (not written to snapshots: a restored tree
    /// walks again, and the walk finds the same part).
    collected: bool,
    /// Scratch for the branch-and-bound sibling search: (node, growth inherited from ancestors).
    search_stack: Vec<(u32, f32)>,
    /// Scratch for the top-down builds, kept so that a per-step partial rebuild allocates
    /// nothing once warmed up.
    build_scratch: rebuild::BuildScratch,
}

impl Default for DynamicTree {
    fn default() -> Self {
        DynamicTree::new(AABB_MARGIN)
    }
}

/// `margin` if it is a finite positive number, else 0.
fn valid_margin(margin: f32) -> f32 {
    if margin.is_finite() && margin > 0.0 {
        margin
    } else {
        0.0
    }
}

impl DynamicTree {
    /// An empty tree whose fat boxes are the tight boxes grown by `margin` on every side (use 0
    /// for static geometry). A negative or non-finite margin is treated as zero.
    pub fn new(margin: f32) -> Self {
        let margin = valid_margin(margin);
        DynamicTree {
            nodes: Vec::new(),
            root: NULL_NODE,
            free_list: NULL_NODE,
            proxy_count: 0,
            margin,
            enlarged_count: 0,
            auto_rebuild: true,
            boxes_stale: false,
            deferred: Vec::new(),
            collected: false,
            search_stack: Vec::new(),
            build_scratch: rebuild::BuildScratch::default(),
        }
    }

    /// The margin fat boxes are grown by.
    pub fn margin(&self) -> f32 {
        self.margin
    }

    /// Adds a proxy for a shape whose tight box is `tight` and returns its id, which stays valid
    /// until `destroy_proxy`. `tight` must be a valid box (finite, `min <= max`).
    pub fn create_proxy(&mut self, tight: Aabb, category_bits: u64, user_data: u64) -> u32 {
        self.create_proxy_with_margin(tight, self.margin, category_bits, user_data)
    }

    /// [`DynamicTree::create_proxy`] with a margin of the proxy's own instead of the tree's
    /// (a caller that scales the slack with the shape's size passes the same margin to every
    /// move of the proxy). A negative or non-finite margin is treated as zero.
    pub fn create_proxy_with_margin(
        &mut self,
        tight: Aabb,
        margin: f32,
        category_bits: u64,
        user_data: u64,
    ) -> u32 {
        debug_assert!(tight.is_valid(), "create_proxy: invalid box {tight:?}");
        self.collected = false;
        self.flag_deferred();
        let proxy = self.allocate_node();
        let node = &mut self.nodes[proxy as usize];
        node.aabb = tight.fattened(valid_margin(margin));
        node.category_bits = category_bits;
        node.user_data = user_data;
        node.height = 0;
        self.insert_leaf(proxy);
        self.proxy_count += 1;
        proxy
    }

    /// Removes a live proxy; its id may be reused by a later `create_proxy`. An id that is not
    /// a live proxy is a caller bug: debug builds assert, release builds ignore the call.
    pub fn destroy_proxy(&mut self, proxy: u32) {
        debug_assert!(
            self.is_proxy(proxy),
            "destroy_proxy: {proxy} is not a live proxy"
        );
        if !self.is_proxy(proxy) {
            return;
        }
        self.collected = false;
        self.flag_deferred();
        self.remove_leaf(proxy);
        self.free_node(proxy);
        self.proxy_count -= 1;
    }

    /// Updates a live proxy for a shape whose tight box is now `tight`. When `tight` is no longer
    /// inside the proxy's fat box, gives the proxy a new fat box (`tight` grown by the margin)
    /// and returns true; otherwise changes nothing and returns false. A small move enlarges the
    /// ancestors in place, a long jump re-inserts the leaf (see `tree/enlarge.rs`); either way
    /// queries see the new box at once. A dead id is treated as by `destroy_proxy`.
    pub fn move_proxy(&mut self, proxy: u32, tight: Aabb) -> bool {
        self.move_proxy_with_margin(proxy, tight, self.margin)
    }

    /// [`DynamicTree::move_proxy`] with the proxy's own margin (see
    /// [`DynamicTree::create_proxy_with_margin`]).
    pub fn move_proxy_with_margin(&mut self, proxy: u32, tight: Aabb, margin: f32) -> bool {
        debug_assert!(
            self.is_proxy(proxy),
            "move_proxy: {proxy} is not a live proxy"
        );
        debug_assert!(tight.is_valid(), "move_proxy: invalid box {tight:?}");
        if !self.is_proxy(proxy) || self.nodes[proxy as usize].aabb.contains(&tight) {
            return false;
        }
        self.collected = false;
        self.flag_deferred();
        let fat = tight.fattened(valid_margin(margin));
        if enlarge::is_short_move(self.nodes[proxy as usize].aabb, fat) {
            self.enlarge_proxy(proxy, fat);
        } else {
            self.remove_leaf(proxy);
            self.nodes[proxy as usize].aabb = fat;
            self.insert_leaf(proxy);
        }
        if self.boxes_stale {
            // Earlier deferred moves left boxes the queries promised by this call need.
            self.rebuild_enlarged();
        } else {
            self.rebuild_enlarged_if_due();
        }
        true
    }

    /// [`DynamicTree::move_proxy`] for a caller that moves many proxies and then calls
    /// [`DynamicTree::rebuild_enlarged`] (or its parallel twin) once: the leaf gets its new fat
    /// box at once (so [`DynamicTree::fat_aabb`] is current) but its ancestors are only flagged,
    /// not grown (see `tree/enlarge.rs`). Until that rebuild the flagged boxes are stale, so
    /// queries and ray casts must wait for it (debug builds assert); creating, destroying and
    /// deferred-moving proxies in between is fine, and [`DynamicTree::move_proxy`] rebuilds
    /// first. A long jump needs no re-insertion here: the moved leaf is an item of the rebuild,
    /// which places it afresh. Returns whether the proxy got a new fat box.
    pub fn move_proxy_deferred(&mut self, proxy: u32, tight: Aabb) -> bool {
        self.move_proxy_deferred_with_margin(proxy, tight, self.margin)
    }

    /// The fat box a proxy with tight box `tight` and margin `margin` gets when it is moved
    /// (deferred or not) or created: for callers that keep a copy of it, bit for bit.
    pub fn fat_box(tight: Aabb, margin: f32) -> Aabb {
        tight.fattened(valid_margin(margin))
    }

    /// [`DynamicTree::move_proxy_deferred`] with the proxy's own margin (see
    /// [`DynamicTree::create_proxy_with_margin`]).
    pub fn move_proxy_deferred_with_margin(
        &mut self,
        proxy: u32,
        tight: Aabb,
        margin: f32,
    ) -> bool {
        debug_assert!(
            self.is_proxy(proxy),
            "move_proxy_deferred: {proxy} is not a live proxy"
        );
        debug_assert!(
            tight.is_valid(),
            "move_proxy_deferred: invalid box {tight:?}"
        );
        if !self.is_proxy(proxy) || self.nodes[proxy as usize].aabb.contains(&tight) {
            return false;
        }
        self.nodes[proxy as usize].aabb = DynamicTree::fat_box(tight, margin);
        self.collected = false;
        self.deferred.push(proxy);
        self.boxes_stale = true;
        true
    }

    /// Whether `proxy` is the id of a live proxy of this tree.
    pub fn is_proxy(&self, proxy: u32) -> bool {
        self.nodes
            .get(proxy as usize)
            .is_some_and(|node| node.is_allocated() && node.is_leaf())
    }

    /// The fat box of a live proxy (for a dead id: debug builds assert, release builds return
    /// an unspecified box; the same holds for the other per-proxy getters).
    pub fn fat_aabb(&self, proxy: u32) -> Aabb {
        self.live_leaf(proxy).aabb
    }

    /// The user data given when the proxy was created.
    pub fn user_data(&self, proxy: u32) -> u64 {
        self.live_leaf(proxy).user_data
    }

    /// The category bits given when the proxy was created.
    pub fn category_bits(&self, proxy: u32) -> u64 {
        self.live_leaf(proxy).category_bits
    }

    fn live_leaf(&self, proxy: u32) -> &Node {
        debug_assert!(self.is_proxy(proxy), "{proxy} is not a live proxy");
        self.nodes.get(proxy as usize).unwrap_or(&Node::FREE)
    }

    /// The number of live proxies.
    pub fn proxy_count(&self) -> usize {
        self.proxy_count
    }

    /// The box around every proxy's fat box (the root's), or `None` for an empty tree. After
    /// deferred moves it is current only once the tree is rebuilt.
    pub fn bounds(&self) -> Option<Aabb> {
        (self.root != NULL_NODE).then(|| self.nodes[self.root as usize].aabb)
    }

    /// The union of every proxy's category bits (the root's), 0 for an empty tree.
    pub fn categories(&self) -> u64 {
        if self.root == NULL_NODE {
            0
        } else {
            self.nodes[self.root as usize].category_bits
        }
    }

    /// The height of the tree: 0 for an empty tree or a single leaf, else the number of edges on
    /// the longest root-to-leaf path.
    pub fn height(&self) -> u32 {
        if self.root == NULL_NODE {
            0
        } else {
            self.nodes[self.root as usize].height
        }
    }

    /// The quality metric of the surface-area heuristic: the sum of the perimeters of the
    /// internal nodes below the root, divided by the root's perimeter. Lower is better; 0 for a
    /// tree with fewer than three proxies or a degenerate root.
    pub fn area_ratio(&self) -> f32 {
        if self.root == NULL_NODE {
            return 0.0;
        }
        let root_perimeter = self.nodes[self.root as usize].aabb.perimeter();
        if root_perimeter <= 0.0 {
            return 0.0;
        }
        let internal_perimeter: f32 = self
            .nodes
            .iter()
            .enumerate()
            .filter(|&(index, node)| {
                node.is_allocated() && !node.is_leaf() && index as u32 != self.root
            })
            .map(|(_, node)| node.aabb.perimeter())
            .sum();
        internal_perimeter / root_perimeter
    }

    /// Moves the world origin to `new_origin`: every box is translated by `-new_origin`, so a
    /// point at `new_origin` in the old frame sits at zero in the new one.
    pub fn shift_origin(&mut self, new_origin: Vec2) {
        self.collected = false;
        for node in self.nodes.iter_mut().filter(|node| node.is_allocated()) {
            node.aabb.min -= new_origin;
            node.aabb.max -= new_origin;
        }
    }

    // ----- node storage -------------------------------------------------------------------

    fn allocate_node(&mut self) -> u32 {
        if self.free_list == NULL_NODE {
            self.nodes.push(Node {
                height: 0,
                ..Node::FREE
            });
            return (self.nodes.len() - 1) as u32;
        }
        let index = self.free_list;
        self.free_list = self.nodes[index as usize].parent_or_next;
        self.nodes[index as usize] = Node {
            height: 0,
            ..Node::FREE
        };
        index
    }

    fn free_node(&mut self, index: u32) {
        if self.nodes[index as usize].enlarged {
            self.enlarged_count -= 1;
        }
        self.nodes[index as usize] = Node {
            parent_or_next: self.free_list,
            ..Node::FREE
        };
        self.free_list = index;
    }

    /// Recomputes an internal node's box, categories and height from its two children.
    fn refit(&mut self, index: u32) {
        let node = self.nodes[index as usize];
        let (first, second) = (
            self.nodes[node.child1 as usize],
            self.nodes[node.child2 as usize],
        );
        let node = &mut self.nodes[index as usize];
        node.aabb = first.aabb.union(&second.aabb);
        node.category_bits = first.category_bits | second.category_bits;
        node.height = 1 + first.height.max(second.height);
    }

    /// In `parent`, replaces the link to `old_child` by a link to `new_child` (or makes
    /// `new_child` the root when `parent` is null), and points `new_child` back at `parent`.
    fn replace_child(&mut self, parent: u32, old_child: u32, new_child: u32) {
        if parent == NULL_NODE {
            self.root = new_child;
        } else {
            let node = &mut self.nodes[parent as usize];
            if node.child1 == old_child {
                node.child1 = new_child;
            } else {
                debug_assert_eq!(node.child2, old_child);
                node.child2 = new_child;
            }
        }
        self.nodes[new_child as usize].parent_or_next = parent;
    }

    // ----- insertion and removal ------------------------------------------------------------

    /// Links an allocated leaf (its box already set) into the tree at the cheapest place.
    fn insert_leaf(&mut self, leaf: u32) {
        if self.root == NULL_NODE {
            self.root = leaf;
            self.nodes[leaf as usize].parent_or_next = NULL_NODE;
            return;
        }
        let sibling = self.find_best_sibling(self.nodes[leaf as usize].aabb);
        let old_parent = self.nodes[sibling as usize].parent_or_next;
        let new_parent = self.allocate_node();
        {
            let node = &mut self.nodes[new_parent as usize];
            node.child1 = sibling;
            node.child2 = leaf;
        }
        // An enlarged sibling keeps an enlarged parent (the flags stay closed upwards).
        if self.nodes[sibling as usize].enlarged {
            self.mark_enlarged(new_parent);
        }
        self.replace_child(old_parent, sibling, new_parent);
        self.nodes[sibling as usize].parent_or_next = new_parent;
        self.nodes[leaf as usize].parent_or_next = new_parent;
        self.refit_to_root(new_parent);
    }

    /// Unlinks a leaf: its parent is freed and the sibling takes the parent's place.
    fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL_NODE;
            return;
        }
        let parent = self.nodes[leaf as usize].parent_or_next;
        let parent_node = self.nodes[parent as usize];
        let sibling = if parent_node.child1 == leaf {
            parent_node.child2
        } else {
            parent_node.child1
        };
        let grandparent = parent_node.parent_or_next;
        self.replace_child(grandparent, parent, sibling);
        self.free_node(parent);
        self.nodes[leaf as usize].parent_or_next = NULL_NODE;
        if grandparent != NULL_NODE {
            self.refit_to_root(grandparent);
        }
    }

    /// The node that, as the new leaf's sibling, adds the least total perimeter to the tree
    /// (branch and bound; see the module documentation for the bound).
    fn find_best_sibling(&mut self, leaf_box: Aabb) -> u32 {
        let leaf_perimeter = leaf_box.perimeter();
        let mut best = self.root;
        let mut best_cost = self.nodes[self.root as usize]
            .aabb
            .union(&leaf_box)
            .perimeter();
        let mut stack = std::mem::take(&mut self.search_stack);
        stack.clear();
        stack.push((self.root, 0.0));
        while let Some((index, inherited)) = stack.pop() {
            // Nothing at or below this node can beat a best found since it was pushed.
            if leaf_perimeter + inherited >= best_cost {
                continue;
            }
            let node = self.nodes[index as usize];
            let union_perimeter = node.aabb.union(&leaf_box).perimeter();
            let cost = union_perimeter + inherited;
            if cost < best_cost {
                best_cost = cost;
                best = index;
            }
            if node.is_leaf() {
                continue;
            }
            // Below this node, every candidate pays the growth of this node as well.
            let child_inherited = inherited + (union_perimeter - node.aabb.perimeter());
            if leaf_perimeter + child_inherited < best_cost {
                // Explore first the child that grows least: it tends to lower the best cost
                // early, which prunes more of the other side.
                let growth = |child: u32| {
                    let child_box = self.nodes[child as usize].aabb;
                    child_box.union(&leaf_box).perimeter() - child_box.perimeter()
                };
                let (first, second) = if growth(node.child1) <= growth(node.child2) {
                    (node.child1, node.child2)
                } else {
                    (node.child2, node.child1)
                };
                stack.push((second, child_inherited));
                stack.push((first, child_inherited));
            }
        }
        self.search_stack = stack;
        best
    }

    /// Walks from `start` to the root, rotating each node when that lowers the tree's cost or
    /// height, and refitting its box, categories and height.
    fn refit_to_root(&mut self, start: u32) {
        let mut index = start;
        while index != NULL_NODE {
            self.rotate(index);
            self.refit(index);
            index = self.nodes[index as usize].parent_or_next;
        }
    }

    /// Applies at most one child/grandchild swap at internal node `a`; see the module docs.
    fn rotate(&mut self, a: u32) {
        let node = self.nodes[a as usize];
        let (b, c) = (node.child1, node.child2);
        let mut best: Option<(f32, Swap)> = None;
        for swap in [self.swaps_into(b, c), self.swaps_into(c, b)]
            .into_iter()
            .flatten()
            .flatten()
        {
            let change = self.swap_perimeter_change(swap);
            if change < 0.0 && best.is_none_or(|(best_change, _)| change < best_change) {
                best = Some((change, swap));
            }
        }
        if let Some((_, swap)) = best {
            self.apply_swap(a, swap);
        } else if let Some(swap) = self.balancing_swap(b, c) {
            self.apply_swap(a, swap);
        }
    }

    /// The two swaps that move `lowered` below its sibling `other`, exchanging it with one of
    /// `other`'s children (none when `other` is a leaf).
    fn swaps_into(&self, lowered: u32, other: u32) -> [Option<Swap>; 2] {
        let other_node = &self.nodes[other as usize];
        if other_node.is_leaf() {
            return [None, None];
        }
        let (f, g) = (other_node.child1, other_node.child2);
        [
            Some(Swap {
                lifted: f,
                lowered,
                new_parent: other,
                kept: g,
            }),
            Some(Swap {
                lifted: g,
                lowered,
                new_parent: other,
                kept: f,
            }),
        ]
    }

    /// The perimeter change of `swap`: only `new_parent`'s box changes, from its old box to the
    /// union of the lowered node and the kept grandchild.
    fn swap_perimeter_change(&self, swap: Swap) -> f32 {
        let lowered = self.nodes[swap.lowered as usize].aabb;
        let kept = self.nodes[swap.kept as usize].aabb;
        lowered.union(&kept).perimeter() - self.nodes[swap.new_parent as usize].aabb.perimeter()
    }

    /// When the children's heights differ by two or more, the swap of the shorter child with the
    /// taller grandchild. With `C` taller than `B` by at least two and `F` the taller child of
    /// `C`, `C`'s new height is `1 + max(h(B), h(G)) <= h(C)`, so no height grows.
    fn balancing_swap(&self, b: u32, c: u32) -> Option<Swap> {
        let (hb, hc) = (self.nodes[b as usize].height, self.nodes[c as usize].height);
        let (short, tall) = match hb.abs_diff(hc) {
            0 | 1 => return None,
            _ if hb < hc => (b, c),
            _ => (c, b),
        };
        let tall_node = &self.nodes[tall as usize];
        let (f, g) = (tall_node.child1, tall_node.child2);
        let (lifted, kept) = if self.nodes[f as usize].height >= self.nodes[g as usize].height {
            (f, g)
        } else {
            (g, f)
        };
        Some(Swap {
            lifted,
            lowered: short,
            new_parent: tall,
            kept,
        })
    }

    /// Exchanges `swap.lowered` (a child of `a`) with `swap.lifted` (a child of `new_parent`,
    /// the other child of `a`) and refits `new_parent`.
    /// The lifted node's new parent `a` was already its grandparent, so it is enlarged whenever
    /// the lifted node is; the lowered node's new parent must be flagged when it is enlarged.
    fn apply_swap(&mut self, a: u32, swap: Swap) {
        self.replace_child(a, swap.lowered, swap.lifted);
        self.replace_child(swap.new_parent, swap.lifted, swap.lowered);
        if self.nodes[swap.lowered as usize].enlarged {
            self.mark_enlarged(swap.new_parent);
        }
        self.refit(swap.new_parent);
    }
}

/// A rotation at a node `A` whose children are `lowered` and `new_parent`: `lifted`, a child of
/// `new_parent`, becomes `A`'s child, and `lowered` takes its place beside `kept`.
#[derive(Clone, Copy, Debug)]
struct Swap {
    lifted: u32,
    lowered: u32,
    new_parent: u32,
    kept: u32,
}
