//! Snapshot encoding (core-soa's `snapshot` codec) of the graph: every colour's body bitset and
//! its records in slot order, the overflow set last, and the policy — so a restored graph
//! solves its constraints in the same order and colours new ones the same way. A decoded graph
//! has exactly `GRAPH_COLOR_COUNT + 1` colours and a policy within the colour count; whether its
//! records agree with the bitsets is for the owner to check with
//! [`ConstraintGraph::validate`], which knows the records.

use crate::GRAPH_COLOR_COUNT;
use crate::constraint_graph::{Color, ColorIndex, ColoringPolicy, ConstraintGraph, Endpoint};
use core_soa::snap_struct;
use core_soa::snapshot::{Reader, Snap, SnapshotError, Writer};

snap_struct!(Endpoint { body, dynamic });

impl Snap for ColorIndex {
    fn put(&self, w: &mut Writer) {
        (self.index() as u8).put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        let index = u8::get(r)? as usize;
        match index {
            GRAPH_COLOR_COUNT => Ok(ColorIndex::OVERFLOW),
            _ => ColorIndex::new(index).ok_or_else(|| r.error("", format!("colour {index}"))),
        }
    }
}

impl<C: Snap, J: Snap> Snap for Color<C, J> {
    fn put(&self, w: &mut Writer) {
        self.bodies.put(w);
        self.contacts.put(w);
        self.joints.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        Ok(Color {
            bodies: r.field("Color.bodies")?,
            contacts: r.field("Color.contacts")?,
            joints: r.field("Color.joints")?,
        })
    }
}

impl<C: Snap, J: Snap> Snap for ConstraintGraph<C, J> {
    fn put(&self, w: &mut Writer) {
        self.colors.put(w);
        self.policy.dynamic_colors.put(w);
        self.policy.static_floor.put(w);
        self.force_overflow.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        let graph = ConstraintGraph {
            colors: r.field("ConstraintGraph.colors")?,
            policy: ColoringPolicy {
                dynamic_colors: r.field("ColoringPolicy.dynamic_colors")?,
                static_floor: r.field("ColoringPolicy.static_floor")?,
            },
            force_overflow: r.field("ConstraintGraph.force_overflow")?,
        };
        if graph.colors.len() != GRAPH_COLOR_COUNT + 1 {
            let count = graph.colors.len();
            return Err(r.error("ConstraintGraph.colors", format!("{count} colours")));
        }
        let policy = graph.policy;
        if policy.dynamic_colors > GRAPH_COLOR_COUNT || policy.static_floor > GRAPH_COLOR_COUNT {
            return Err(r.error("ColoringPolicy", "bound above the colour count"));
        }
        Ok(graph)
    }
}
