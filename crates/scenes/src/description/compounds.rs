//! compounds: 3,000 bodies of two triangles each falling into an open box.

use super::model::{BodyDesc, BodyGroup, BodyKind, Geometry, ShapeDesc, offset_box};
use prism::Vec2;

pub(super) fn compounds() -> BodyGroup {
    let mut ground = BodyDesc::new(BodyKind::Static, Vec2::ZERO);
    for i in 0..81 {
        let floor = offset_box(0.55, 0.5, Vec2::new(-40.0 + i as f32, 0.0));
        ground.shapes.push(ShapeDesc::new(floor));
    }
    for side in [-40.0, 40.0] {
        for i in 0..100 {
            let wall = offset_box(0.5, 0.55, Vec2::new(side, 1.0 + i as f32));
            ground.shapes.push(ShapeDesc::new(wall));
        }
    }
    let floor = Geometry::Segment {
        point1: Vec2::new(-800.0, -80.0),
        point2: Vec2::new(800.0, -80.0),
    };
    ground.shapes.push(ShapeDesc::new(floor));
    let mut bodies = vec![ground];
    let triangle = |points: [(f32, f32); 3]| {
        let points = points.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
        ShapeDesc::new(Geometry::Hull {
            points,
            radius: 0.0,
        })
        .friction(0.5)
    };
    let left = triangle([(-1.0, 0.0), (0.5, 1.0), (0.0, 2.0)]);
    let right = triangle([(1.0, 0.0), (-0.5, 1.0), (0.0, 2.0)]);
    let mut side = 0.25;
    for i in 0..20 {
        for j in 0..150 {
            let x = 2.0 * i as f32 - 19.0 + side;
            let y = j as f32 * 2.25 + 0.575 + 5.0;
            let body = BodyDesc::new(BodyKind::Dynamic, Vec2::new(x, y))
                .with_shape(left.clone())
                .with_shape(right.clone());
            bodies.push(body);
            side = -side;
        }
    }
    BodyGroup {
        bodies,
        joints: Vec::new(),
    }
}
