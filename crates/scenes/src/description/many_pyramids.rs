//! many_pyramids: 400 pyramids of 55 boxes (10 at the base) on 20 rows of ground segments.

use super::large_pyramid::push_pyramid;
use super::model::{BodyDesc, BodyGroup, BodyKind, Geometry, ShapeDesc};
use super::probes::Probes;
use prism::Vec2;

pub(super) fn many_pyramids() -> (BodyGroup, Probes) {
    let (base, a, rows, columns) = (10usize, 0.5f32, 20usize, 20usize);
    let ground_delta_y = 2.0 * a * (base as f32 + 1.0);
    let ground_width = 2.0 * a * columns as f32 * (base as f32 + 1.0);
    let mut ground = BodyDesc::new(BodyKind::Static, Vec2::ZERO);
    for i in 0..rows {
        let y = ground_delta_y * i as f32;
        let segment = Geometry::Segment {
            point1: Vec2::new(-0.5 * ground_width, y),
            point2: Vec2::new(0.5 * ground_width, y),
        };
        ground.shapes.push(ShapeDesc::new(segment));
    }
    let mut bodies = vec![ground];
    let mut top_boxes = Vec::new();
    for row in 0..rows {
        let base_y = ground_delta_y * row as f32;
        for column in 0..columns {
            let center_x = -0.5 * ground_width + column as f32 * (base as f32 + 1.0) + 1.0;
            top_boxes.push(push_pyramid(&mut bodies, base, a, center_x - a, base_y));
        }
    }
    let probes = Probes {
        top_boxes,
        motor_body: None,
        ..Probes::default()
    };
    (
        BodyGroup {
            bodies,
            joints: Vec::new(),
        },
        probes,
    )
}
