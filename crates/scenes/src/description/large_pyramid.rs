//! large_pyramid: one pyramid of 5,050 boxes (100 at the base) on a static ground box.

use super::model::{BodyDesc, BodyGroup, BodyKind, ShapeDesc, square_box};
use super::probes::Probes;
use prism::Vec2;

/// Pushes the boxes of one pyramid and returns the index of its top box. With `base` boxes
/// of half extent `a` at the bottom, row `i` sits at `y = (2i + 1)a + base_y` and its box
/// `j ∈ i..base` at `x = (i + 1)a + 2(j − i)a + left_x`: each row starts half a box further
/// right than the one below, so the boxes stack brick-wise.
pub(super) fn push_pyramid(
    bodies: &mut Vec<BodyDesc>,
    base: usize,
    a: f32,
    left_x: f32,
    base_y: f32,
) -> usize {
    for i in 0..base {
        let y = (2.0 * i as f32 + 1.0) * a + base_y;
        for j in i..base {
            let x = (i as f32 + 1.0) * a + 2.0 * (j - i) as f32 * a + left_x;
            let body = BodyDesc::new(BodyKind::Dynamic, Vec2::new(x, y))
                .with_shape(ShapeDesc::new(square_box(a, a)));
            bodies.push(body);
        }
    }
    bodies.len() - 1
}

pub(super) fn large_pyramid() -> (BodyGroup, Probes) {
    let ground = BodyDesc::new(BodyKind::Static, Vec2::new(0.0, -1.0))
        .with_shape(ShapeDesc::new(square_box(100.0, 1.0)));
    let mut bodies = vec![ground];
    let (base, a) = (100, 0.5);
    let top = push_pyramid(&mut bodies, base, a, -a * base as f32, 0.0);
    let probes = Probes {
        top_boxes: vec![top],
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
