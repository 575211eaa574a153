//! smash: a heavy box thrown at 40 m/s into a wall of 9,600 small boxes created asleep, in
//! zero gravity.

use super::model::{BodyDesc, BodyGroup, BodyKind, ShapeDesc, square_box};
use prism::Vec2;

pub(super) fn smash() -> BodyGroup {
    let mut smasher = BodyDesc::new(BodyKind::Dynamic, Vec2::new(-20.0, 0.0))
        .with_shape(ShapeDesc::new(square_box(4.0, 4.0)).density(8.0));
    smasher.linear_velocity = Vec2::new(40.0, 0.0);
    let mut bodies = vec![smasher];
    let d = 0.4;
    for i in 0..120 {
        for j in 0..80 {
            let position = Vec2::new(30.0 + d * i as f32, d * (j as f32 - 40.0));
            let mut target = BodyDesc::new(BodyKind::Dynamic, position)
                .with_shape(ShapeDesc::new(square_box(0.5 * d, 0.5 * d)));
            target.starts_asleep = true;
            bodies.push(target);
        }
    }
    BodyGroup {
        bodies,
        joints: Vec::new(),
    }
}
