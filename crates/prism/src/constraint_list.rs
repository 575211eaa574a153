//! Each body's list of its contacts, and of its joints: one intrusive doubly linked list per
//! body and kind, threaded through the constraints themselves, so a body finds its
//! constraints with no per-body allocation as contacts come and go.
//!
//! A constraint has two links, one in each of its bodies' lists. A link is named by an *edge
//! key*, `constraint index << 1 | side` (side 0 for body A, 1 for body B), so the neighbours in
//! a list can be constraints on either side of their own:
//!
//! ```text
//!   body 7's contacts:  head ─▶ (c12, side 1) ─▶ (c3, side 0) ─▶ (c9, side 0) ─▶ NULL
//!                                 c12.edges[1]     c3.edges[0]     c9.edges[0]
//! ```
//!
//! The same code serves contacts and joints: a constraint type says where its two links are
//! ([`ListNode`]), a body keeps a [`ListHead`] per kind.

use core_soa::{Arena, ArenaKey, NULL_INDEX};

/// The link of a constraint's list entry for one of its two bodies: `constraint << 1 | side`,
/// where `side` is 0 for body A and 1 for body B. Constraint indices stay below 2³¹.
#[inline]
pub(crate) const fn edge_key(constraint: u32, side: u32) -> u32 {
    (constraint << 1) | (side & 1)
}

/// The constraint index of an [`edge_key`].
#[inline]
pub(crate) const fn edge_constraint(key: u32) -> u32 {
    key >> 1
}

/// The side (0 = body A, 1 = body B) of an [`edge_key`].
#[inline]
pub(crate) const fn edge_side(key: u32) -> u32 {
    key & 1
}

/// One side of a constraint in its body's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Edge {
    /// The body's arena index.
    pub(crate) body: u32,
    /// Edge keys of the previous and next entries of the body's list, or [`NULL_INDEX`].
    pub(crate) prev: u32,
    pub(crate) next: u32,
}

impl Edge {
    /// A link in no list.
    pub(crate) const UNLINKED: Edge = Edge {
        body: NULL_INDEX,
        prev: NULL_INDEX,
        next: NULL_INDEX,
    };
}

/// The start of one body's list of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ListHead {
    /// Edge key of the first entry, or [`NULL_INDEX`].
    pub(crate) first: u32,
    pub(crate) count: u32,
}

impl Default for ListHead {
    fn default() -> Self {
        ListHead {
            first: NULL_INDEX,
            count: 0,
        }
    }
}

/// A constraint threaded into its two bodies' lists.
pub(crate) trait ListNode {
    fn edges(&self) -> &[Edge; 2];
    fn edges_mut(&mut self) -> &mut [Edge; 2];
}

/// Pushes constraint `index` (its side `side`, on body `body`) at the front of `head`'s list.
pub(crate) fn attach<T: ListNode, K: ArenaKey>(
    nodes: &mut Arena<T, K>,
    head: &mut ListHead,
    index: u32,
    side: u32,
    body: u32,
) {
    let key = edge_key(index, side);
    let old_first = head.first;
    head.first = key;
    head.count += 1;
    if old_first != NULL_INDEX
        && let Some(next) = nodes.get_by_index_mut(edge_constraint(old_first))
    {
        next.edges_mut()[edge_side(old_first) as usize].prev = key;
    }
    if let Some(node) = nodes.get_by_index_mut(index) {
        node.edges_mut()[side as usize] = Edge {
            body,
            prev: NULL_INDEX,
            next: old_first,
        };
    }
}

/// Takes constraint `index`'s side `side` out of its body's list, whose head is `head`.
pub(crate) fn detach<T: ListNode, K: ArenaKey>(
    nodes: &mut Arena<T, K>,
    head: &mut ListHead,
    index: u32,
    side: u32,
) {
    let Some(node) = nodes.get_by_index_mut(index) else {
        return;
    };
    let edge = std::mem::replace(&mut node.edges_mut()[side as usize], Edge::UNLINKED);
    if edge.prev == NULL_INDEX {
        head.first = edge.next;
    } else if let Some(prev) = nodes.get_by_index_mut(edge_constraint(edge.prev)) {
        prev.edges_mut()[edge_side(edge.prev) as usize].next = edge.next;
    }
    if edge.next != NULL_INDEX
        && let Some(next) = nodes.get_by_index_mut(edge_constraint(edge.next))
    {
        next.edges_mut()[edge_side(edge.next) as usize].prev = edge.prev;
    }
    head.count = head.count.saturating_sub(1);
}

/// The constraint indices of `head`'s list, in list order.
pub(crate) fn members<T: ListNode, K: ArenaKey>(nodes: &Arena<T, K>, head: ListHead) -> Vec<u32> {
    let mut indices = Vec::with_capacity(head.count as usize);
    let mut key = head.first;
    while key != NULL_INDEX {
        let index = edge_constraint(key);
        indices.push(index);
        key = match nodes.get_by_index(index) {
            Some(node) => node.edges()[edge_side(key) as usize].next,
            None => NULL_INDEX,
        };
    }
    indices
}

#[cfg(test)]
mod tests {
    use super::*;
    use core_soa::ContactId;

    #[derive(Clone, Debug)]
    struct Node([Edge; 2]);

    impl ListNode for Node {
        fn edges(&self) -> &[Edge; 2] {
            &self.0
        }
        fn edges_mut(&mut self) -> &mut [Edge; 2] {
            &mut self.0
        }
    }

    #[test]
    fn edge_keys_round_trip() {
        for constraint in [0, 1, 12345, (1 << 31) - 1] {
            for side in [0, 1] {
                let key = edge_key(constraint, side);
                assert_eq!((edge_constraint(key), edge_side(key)), (constraint, side));
            }
        }
    }

    /// Constraints joining bodies 0–1, 1–2, 0–2 and 1–0: each body's list holds exactly its
    /// constraints, newest first, and detaching any of them keeps the others linked.
    #[test]
    fn lists_hold_each_bodys_constraints_through_removals() {
        let mut nodes: Arena<Node, ContactId> = Arena::new();
        let mut heads = [ListHead::default(); 3];
        let pairs = [(0, 1), (1, 2), (0, 2), (1, 0)];
        for &(a, b) in &pairs {
            let index = nodes.insert(Node([Edge::UNLINKED; 2])).index();
            attach(&mut nodes, &mut heads[a], index, 0, a as u32);
            attach(&mut nodes, &mut heads[b], index, 1, b as u32);
        }
        assert_eq!(members(&nodes, heads[0]), [3, 2, 0]);
        assert_eq!(members(&nodes, heads[1]), [3, 1, 0]);
        assert_eq!(members(&nodes, heads[2]), [2, 1]);
        // Detach constraint 3 (body 1 on side 0, body 0 on side 1) and constraint 1.
        detach(&mut nodes, &mut heads[1], 3, 0);
        detach(&mut nodes, &mut heads[0], 3, 1);
        detach(&mut nodes, &mut heads[1], 1, 0);
        detach(&mut nodes, &mut heads[2], 1, 1);
        assert_eq!(members(&nodes, heads[0]), [2, 0]);
        assert_eq!(members(&nodes, heads[1]), [0]);
        assert_eq!(members(&nodes, heads[2]), [2]);
        assert_eq!(heads.map(|h| h.count), [2, 1, 1]);
    }
}
