//! joint_grid: a 100 × 100 grid of circles hinged to their neighbours, hanging from seven
//! static anchors in the middle of its top row.

use super::joint::RevoluteDesc;
use super::model::{BodyDesc, BodyGroup, BodyKind, Filter, Geometry, ShapeDesc};
use prism::Vec2;

pub(super) fn joint_grid() -> BodyGroup {
    const N: usize = 100;
    let circle_filter = Filter {
        category: 2,
        mask: !2,
        group: 0,
    };
    let circle = ShapeDesc::new(Geometry::Circle {
        center: Vec2::ZERO,
        radius: 0.4,
    })
    .filter(circle_filter);
    let mut group = BodyGroup::default();
    for k in 0..N {
        for i in 0..N {
            let is_anchor = (N / 2 - 3..=N / 2 + 3).contains(&k) && i == 0;
            let kind = if is_anchor {
                BodyKind::Static
            } else {
                BodyKind::Dynamic
            };
            let index = group.bodies.len();
            let body = BodyDesc::new(kind, Vec2::new(k as f32, -(i as f32)));
            group.bodies.push(body.with_shape(circle.clone()));
            if i > 0 {
                let (above, below) = (Vec2::new(0.0, -0.5), Vec2::new(0.0, 0.5));
                let hinge = RevoluteDesc::hinge(index - 1, index, above, below);
                group.joints.push(hinge.into());
            }
            if k > 0 {
                let (left, right) = (Vec2::new(0.5, 0.0), Vec2::new(-0.5, 0.0));
                let hinge = RevoluteDesc::hinge(index - N, index, left, right);
                group.joints.push(hinge.into());
            }
        }
    }
    group
}
