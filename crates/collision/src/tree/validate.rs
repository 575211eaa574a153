//! Whole-structure checks of the tree, for tests and for the `validate` feature of callers.
//!
//! Every reachable node must be allocated and linked back to its parent; a leaf has height 0,
//! no children and no enlarged flag; an internal node's height is one more than its taller
//! child's, its category bits are the OR of its children's, and its box contains its children's
//! boxes — exactly their union unless the node is enlarged. The parent of an enlarged node must
//! be enlarged, and the enlarged nodes must number `enlarged_count`. The reachable leaves must
//! number `proxy_count`, the free list must hold only free, unflagged nodes and end, and
//! reachable plus free nodes must account for every stored node (nothing leaks). Between
//! deferred moves and the rebuild that follows them, boxes may miss their children and are not
//! checked.

use super::{DynamicTree, NULL_NODE};
use crate::aabb::Aabb;

impl DynamicTree {
    /// Checks the whole structure: links, heights, boxes and categories of internal nodes, the
    /// proxy count and the free list. Returns a description of the first problem found.
    pub fn validate(&self) -> Result<(), String> {
        let reachable = self.validate_reachable()?;
        let free = self.validate_free_list()?;
        if reachable + free != self.nodes.len() {
            return Err(format!(
                "{reachable} reachable and {free} free nodes, but {} stored",
                self.nodes.len()
            ));
        }
        Ok(())
    }

    /// Walks the tree from the root; returns the number of nodes reached.
    fn validate_reachable(&self) -> Result<usize, String> {
        if self.root == NULL_NODE {
            return if self.proxy_count == 0 {
                Ok(0)
            } else {
                Err("empty tree with proxies".into())
            };
        }
        let root = self
            .nodes
            .get(self.root as usize)
            .ok_or("root out of range")?;
        if root.parent_or_next != NULL_NODE {
            return Err(format!(
                "root {} has parent {}",
                self.root, root.parent_or_next
            ));
        }
        let (mut reached, mut leaves, mut enlarged) = (0usize, 0usize, 0usize);
        let mut stack = vec![self.root];
        while let Some(index) = stack.pop() {
            reached += 1;
            if reached > self.nodes.len() {
                return Err("cycle in the tree".into());
            }
            let node = &self.nodes[index as usize];
            if !node.is_allocated() {
                return Err(format!("node {index} is reachable but free"));
            }
            if node.is_leaf() {
                leaves += 1;
                if node.height != 0 || node.child2 != NULL_NODE || node.enlarged {
                    return Err(format!(
                        "leaf {index} has height {}, a second child or the enlarged flag",
                        node.height
                    ));
                }
                continue;
            }
            enlarged += usize::from(node.enlarged);
            self.validate_internal(index)?;
            stack.extend([node.child1, node.child2]);
        }
        if leaves != self.proxy_count {
            return Err(format!(
                "{leaves} leaves but proxy count {}",
                self.proxy_count
            ));
        }
        if enlarged != self.enlarged_count {
            return Err(format!(
                "{enlarged} enlarged nodes but enlarged count {}",
                self.enlarged_count
            ));
        }
        Ok(reached)
    }

    /// Checks one internal node against its two children.
    fn validate_internal(&self, index: u32) -> Result<(), String> {
        let node = &self.nodes[index as usize];
        let mut max_child_height = 0;
        let (mut union, mut categories) = (None::<Aabb>, 0u64);
        for child in [node.child1, node.child2] {
            let child_node = self
                .nodes
                .get(child as usize)
                .ok_or(format!("node {index}: child {child} out of range"))?;
            if child_node.parent_or_next != index {
                return Err(format!(
                    "node {child} has parent {} instead of {index}",
                    child_node.parent_or_next
                ));
            }
            if child_node.enlarged && !node.enlarged {
                return Err(format!(
                    "node {child} is enlarged but its parent {index} is not"
                ));
            }
            // Deferred moves leave boxes stale until the next rebuild.
            if !self.boxes_stale && !node.aabb.contains(&child_node.aabb) {
                return Err(format!("node {index} box does not contain child {child}"));
            }
            max_child_height = max_child_height.max(child_node.height);
            union = Some(union.map_or(child_node.aabb, |u| u.union(&child_node.aabb)));
            categories |= child_node.category_bits;
        }
        if node.height != 1 + max_child_height {
            return Err(format!(
                "node {index} height {} but children reach {max_child_height}",
                node.height
            ));
        }
        let box_is_exact = union == Some(node.aabb) || self.boxes_stale;
        if (!box_is_exact && !node.enlarged) || categories != node.category_bits {
            return Err(format!(
                "node {index} box or categories are not its children's union"
            ));
        }
        Ok(())
    }

    /// Walks the free list; returns its length.
    fn validate_free_list(&self) -> Result<usize, String> {
        let mut free = 0usize;
        let mut index = self.free_list;
        while index != NULL_NODE {
            let node = self
                .nodes
                .get(index as usize)
                .ok_or(format!("free node {index} out of range"))?;
            if node.is_allocated() || node.enlarged {
                return Err(format!(
                    "node {index} is on the free list but allocated or enlarged"
                ));
            }
            free += 1;
            if free > self.nodes.len() {
                return Err("cycle in the free list".into());
            }
            index = node.parent_or_next;
        }
        Ok(free)
    }
}
