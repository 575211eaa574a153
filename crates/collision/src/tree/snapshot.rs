//! Snapshot encoding of the tree: the node array as it is (slots, free list, heights), so a
//! restored tree has the same layout and answers every query in the same order. Scratch (the
//! search stack, the build buffers) is not written. A decoded tree must pass
//! [`DynamicTree::validate`] and name only leaves in its deferred list, so no later operation
//! indexes past its nodes.

use super::{DynamicTree, Node};
use core_soa::snap_struct;
use core_soa::snapshot::{Reader, Snap, SnapshotError, Writer};

snap_struct!(Node {
    aabb,
    category_bits,
    user_data,
    parent_or_next,
    child1,
    child2,
    height,
    enlarged,
});

impl Snap for DynamicTree {
    fn put(&self, w: &mut Writer) {
        self.nodes.put(w);
        self.root.put(w);
        self.free_list.put(w);
        self.proxy_count.put(w);
        self.margin.put(w);
        self.enlarged_count.put(w);
        self.auto_rebuild.put(w);
        self.boxes_stale.put(w);
        self.deferred.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        let tree = DynamicTree {
            nodes: r.field("DynamicTree.nodes")?,
            root: r.field("DynamicTree.root")?,
            free_list: r.field("DynamicTree.free_list")?,
            proxy_count: r.field("DynamicTree.proxy_count")?,
            margin: r.field("DynamicTree.margin")?,
            enlarged_count: r.field("DynamicTree.enlarged_count")?,
            auto_rebuild: r.field("DynamicTree.auto_rebuild")?,
            boxes_stale: r.field("DynamicTree.boxes_stale")?,
            deferred: r.field("DynamicTree.deferred")?,
            collected: false,
            search_stack: Vec::new(),
            build_scratch: Default::default(),
        };
        tree.validate()
            .map_err(|reason| r.error("DynamicTree", reason))?;
        for &leaf in &tree.deferred {
            if !tree.is_proxy(leaf) {
                return Err(r.error("DynamicTree.deferred", format!("{leaf} is not a leaf")));
            }
        }
        Ok(tree)
    }
}
