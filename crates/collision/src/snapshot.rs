//! Snapshot encoding (core-soa's `snapshot` codec) of the geometry a world stores: boxes,
//! shapes and contact manifolds. The tree encodes itself (`tree/snapshot.rs`).
//!
//! Decoding refuses what the collision routines index by without checking: a polygon's vertex
//! count outside `3..=MAX_POLYGON_VERTICES` and a manifold's point count above 2.

use crate::aabb::Aabb;
use crate::manifold::{Manifold, ManifoldPoint};
use crate::shapes::{Capsule, ChainSegment, Circle, MAX_POLYGON_VERTICES, Polygon, Segment, Shape};
use core_soa::snap_struct;
use core_soa::snapshot::{Reader, Snap, SnapshotError, Writer};

snap_struct!(Aabb { min, max });
snap_struct!(Circle { center, radius });
snap_struct!(Capsule {
    center1,
    center2,
    radius
});
snap_struct!(Segment { point1, point2 });
snap_struct!(ChainSegment {
    ghost1,
    segment,
    ghost2,
    chain_id
});
snap_struct!(ManifoldPoint {
    point,
    anchor_a,
    anchor_b,
    separation,
    id,
    normal_impulse,
    tangent_impulse,
    max_normal_impulse,
    normal_velocity,
    persisted,
});

impl Snap for Polygon {
    fn put(&self, w: &mut Writer) {
        self.vertices.put(w);
        self.normals.put(w);
        self.centroid.put(w);
        self.radius.put(w);
        self.count.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        let polygon = Polygon {
            vertices: r.field("Polygon.vertices")?,
            normals: r.field("Polygon.normals")?,
            centroid: r.field("Polygon.centroid")?,
            radius: r.field("Polygon.radius")?,
            count: r.field("Polygon.count")?,
        };
        if !(3..=MAX_POLYGON_VERTICES).contains(&polygon.count) {
            let count = polygon.count;
            return Err(r.error("Polygon.count", format!("{count} vertices")));
        }
        Ok(polygon)
    }
}

impl Snap for Manifold {
    fn put(&self, w: &mut Writer) {
        self.normal.put(w);
        self.points.put(w);
        self.point_count.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        let manifold = Manifold {
            normal: r.field("Manifold.normal")?,
            points: r.field("Manifold.points")?,
            point_count: r.field("Manifold.point_count")?,
        };
        if manifold.point_count > manifold.points.len() {
            let count = manifold.point_count;
            return Err(r.error("Manifold.point_count", format!("{count} points")));
        }
        Ok(manifold)
    }
}

impl Snap for Shape {
    fn put(&self, w: &mut Writer) {
        match self {
            Shape::Circle(circle) => {
                0u8.put(w);
                circle.put(w);
            }
            Shape::Capsule(capsule) => {
                1u8.put(w);
                capsule.put(w);
            }
            Shape::Segment(segment) => {
                2u8.put(w);
                segment.put(w);
            }
            Shape::Polygon(polygon) => {
                3u8.put(w);
                polygon.put(w);
            }
            Shape::ChainSegment(chain) => {
                4u8.put(w);
                chain.put(w);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, SnapshotError> {
        Ok(match u8::get(r)? {
            0 => Shape::Circle(r.field("Shape::Circle")?),
            1 => Shape::Capsule(r.field("Shape::Capsule")?),
            2 => Shape::Segment(r.field("Shape::Segment")?),
            3 => Shape::Polygon(r.field("Shape::Polygon")?),
            4 => Shape::ChainSegment(r.field("Shape::ChainSegment")?),
            tag => return Err(r.error("Shape", format!("shape tag {tag}"))),
        })
    }
}
