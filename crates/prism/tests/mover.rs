//! The character mover: a capsule sliding along a wall and walking up a slope, checked
//! against the geometry (the plane solver only adds multiples of the planes' normals to the
//! target, so the part of the move along a wall or a slope is the target's, exactly).

mod common;

use common::add_ground;
use prism::{
    BodyDef, Capsule, LINEAR_SLOP, PrismError, QueryFilter, Rot, ShapeDef, ShapeId, Vec2, World,
    WorldDef, make_box,
};

const RADIUS: f32 = 0.3;

/// A static box of half extents `half` at `center`, turned by `angle`.
fn add_static_box(world: &mut World, center: Vec2, half: Vec2, angle: f32) -> ShapeId {
    let body = world
        .create_body(&BodyDef {
            rotation: Rot::from_angle(angle),
            ..BodyDef::fixed_at(center)
        })
        .unwrap();
    world
        .create_polygon_shape(
            body,
            &ShapeDef::default(),
            &make_box(half.x, half.y).unwrap(),
        )
        .unwrap()
}

/// A standing capsule whose lower centre is `bottom`: core 0.8 m tall, radius 0.3.
fn standing(bottom: Vec2) -> Capsule {
    Capsule {
        center1: bottom,
        center2: bottom + Vec2::new(0.0, 0.8),
        radius: RADIUS,
    }
}

fn moved(capsule: &Capsule, by: Vec2) -> Capsule {
    Capsule {
        center1: capsule.center1 + by,
        center2: capsule.center2 + by,
        radius: capsule.radius,
    }
}

#[test]
fn cast_and_collide_report_the_ground() {
    let mut world = World::new(WorldDef::default()).unwrap();
    let ground_body = add_ground(&mut world, 20.0);
    let ground = world.body_shapes(ground_body).unwrap()[0];
    let filter = QueryFilter::default();
    // The capsule's bottom is 0.5 m above the ground: falling 1 m, it stops a linear slop
    // inside it, after (0.5 + slop)/1 of the way.
    let capsule = standing(Vec2::new(0.0, RADIUS + 0.5));
    let fraction = world
        .cast_mover(&capsule, Vec2::new(0.0, -1.0), filter)
        .unwrap();
    assert!((fraction - (0.5 + LINEAR_SLOP)).abs() < 1e-4, "{fraction}");
    assert_eq!(
        world
            .cast_mover(&capsule, Vec2::new(3.0, 0.0), filter)
            .unwrap(),
        1.0
    );
    // Sunk 2 cm: one plane, the ground's, pushing up by 2 cm, touching below the centre.
    let sunk = standing(Vec2::new(1.0, RADIUS - 0.02));
    let planes = world.collide_mover(&sunk, filter).unwrap();
    assert_eq!(planes.len(), 1);
    assert_eq!((planes[0].shape, planes[0].body), (ground, ground_body));
    assert!((planes[0].plane.normal - Vec2::Y).length() < 1e-5);
    assert!((planes[0].plane.offset - 0.02).abs() < 1e-5);
    assert!((planes[0].point - Vec2::new(1.0, 0.0)).length() < 1e-5);
    assert!(world.collide_mover(&capsule, filter).unwrap().is_empty());
    let thin = Capsule {
        radius: 0.005,
        ..capsule
    };
    let err = world.collide_mover(&thin, filter).unwrap_err();
    assert!(
        matches!(err, PrismError::OutOfRange { field: "mover.radius", value, .. } if value == 0.005),
        "{err}"
    );
    let err = world
        .move_character(&capsule, Vec2::new(f32::NAN, 0.0), filter)
        .unwrap_err();
    assert!(
        matches!(
            err,
            PrismError::NonFinite {
                field: "target",
                ..
            }
        ),
        "{err}"
    );
}

/// In the air, moving right and up into a wall whose face is x = 3: the capsule stops at the
/// wall (its right side within two slops of x = 3, never more than a slop inside) while its
/// upward motion is untouched, frame after frame; against the wall, the velocity's part into
/// it is clipped.
#[test]
fn a_capsule_slides_up_along_a_wall() {
    let mut world = World::new(WorldDef::default()).unwrap();
    let wall = add_static_box(&mut world, Vec2::new(3.5, 10.0), Vec2::new(0.5, 10.0), 0.0);
    let filter = QueryFilter::default();
    let step = Vec2::new(0.2, 0.1);
    let mut capsule = standing(Vec2::new(1.45, 3.0));
    let mut touched = 0;
    for frame in 0..20 {
        let result = world.move_character(&capsule, step, filter).unwrap();
        assert!(result.iterations <= 5);
        assert!(
            (result.translation.y - step.y).abs() < 1e-4,
            "frame {frame}: {:?}",
            result.translation
        );
        capsule = moved(&capsule, result.translation);
        let right = capsule.center1.x + RADIUS;
        assert!(right <= 3.0 + LINEAR_SLOP + 1e-4, "frame {frame}: {right}");
        if right > 3.0 - 2.0 * LINEAR_SLOP {
            touched += 1;
            assert!(
                result.contacts.iter().any(|c| c.shape == wall),
                "frame {frame}"
            );
            let clipped = result.clip_velocity(Vec2::new(2.0, 1.0));
            assert!(
                (clipped - Vec2::new(0.0, 1.0)).length() < 1e-4,
                "{clipped:?}"
            );
        } else {
            // Not there yet: the whole step was free.
            assert!((result.translation - step).length() < 1e-4, "frame {frame}");
        }
    }
    // The capsule's right side starts 1.25 m from the wall: the 7th frame reaches it.
    assert!(touched >= 14, "touched the wall in {touched} frames");
    assert!((capsule.center1.y - (3.0 + 20.0 * step.y)).abs() < 1e-3);
}

/// Walking right with a little gravity in the target, up a 30° slope: the part of each move
/// along the slope is the target's (`target·t`, t the slope's direction), and the capsule's
/// lower sphere stays on the surface, within two slops.
#[test]
fn a_capsule_walks_up_a_slope() {
    let mut world = World::new(WorldDef::default()).unwrap();
    let angle = std::f32::consts::FRAC_PI_6;
    let (tangent, normal) = (
        Vec2::new(angle.cos(), angle.sin()),
        Vec2::new(-angle.sin(), angle.cos()),
    );
    // A 20 m plank turned 30° about the origin, its top face through the origin.
    let slope = add_static_box(&mut world, -0.5 * normal, Vec2::new(10.0, 0.5), angle);
    let filter = QueryFilter::default();
    let height = |capsule: &Capsule| capsule.center1.dot(normal) - RADIUS;
    let mut capsule = standing((RADIUS + 0.5 * LINEAR_SLOP) * normal);
    let target = Vec2::new(0.1, -0.05);
    let frames = 30;
    for frame in 0..frames {
        let result = world.move_character(&capsule, target, filter).unwrap();
        let along = result.translation.dot(tangent);
        assert!(
            (along - target.dot(tangent)).abs() < 1e-4,
            "frame {frame}: {along}"
        );
        capsule = moved(&capsule, result.translation);
        let gap = height(&capsule);
        assert!(gap.abs() <= 2.0 * LINEAR_SLOP, "frame {frame}: {gap}");
        assert!(
            result.contacts.iter().any(|c| c.shape == slope),
            "frame {frame}"
        );
    }
    // 30 frames of 0.1·cos 30° − 0.05·sin 30° = 0.0616 m along the slope: 1.35 m up.
    let climbed = frames as f32 * target.dot(tangent);
    let along = capsule.center1.dot(tangent);
    assert!((along - climbed).abs() < 1e-3, "{along} vs {climbed}");
    assert!(capsule.center1.y > 0.9, "{:?}", capsule.center1);
}
