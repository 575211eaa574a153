//! Shape casts, shape overlaps and point queries against analytic fractions, points and
//! distances, on a small known scene:
//!
//! ```text
//!   y = 5.5  ┌─┐ block (dynamic, half 0.5, at (0, 5))
//!            └─┘
//!   y = 2.5   ○  disk (dynamic, r 0.5, at (0, 2))      ○ tagged disk (category 2, at (3, 2))
//!   y = 0   ═════════ ground (static, top at y = 0, |x| ≤ 10)
//! ```

mod common;

use common::{add_ground, world_with};
use prism::{
    BodyDef, BodyId, CastControl, Circle, Filter, PrismError, QueryFilter, Rot, Shape, ShapeDef,
    ShapeId, ShapeProxy, SolverKind, Transform, Vec2, World, make_box, make_square,
};

struct Scene {
    world: World,
    ground: ShapeId,
    disk: ShapeId,
    block: ShapeId,
    tagged: ShapeId,
    disk_body: BodyId,
}

fn scene() -> Scene {
    let mut world = world_with(SolverKind::SoftStep);
    let ground_body = add_ground(&mut world, 10.0);
    let ground = world.body_shapes(ground_body).unwrap()[0];
    let circle = Circle {
        center: Vec2::ZERO,
        radius: 0.5,
    };
    let add = |world: &mut World, at: Vec2, def: &ShapeDef, shape: Shape| {
        let body = world.create_body(&BodyDef::dynamic_at(at)).unwrap();
        let id = match shape {
            Shape::Circle(c) => world.create_circle_shape(body, def, &c).unwrap(),
            Shape::Polygon(p) => world.create_polygon_shape(body, def, &p).unwrap(),
            _ => unreachable!(),
        };
        (body, id)
    };
    let plain = ShapeDef::default();
    let (disk_body, disk) = add(
        &mut world,
        Vec2::new(0.0, 2.0),
        &plain,
        Shape::Circle(circle),
    );
    let block_shape = Shape::Polygon(make_box(0.5, 0.5).unwrap());
    let (_, block) = add(&mut world, Vec2::new(0.0, 5.0), &plain, block_shape);
    let tag = ShapeDef {
        filter: Filter {
            category_bits: 2,
            ..Filter::default()
        },
        ..ShapeDef::default()
    };
    let (_, tagged) = add(&mut world, Vec2::new(3.0, 2.0), &tag, Shape::Circle(circle));
    Scene {
        world,
        ground,
        disk,
        block,
        tagged,
        disk_body,
    }
}

fn circle_at(center: Vec2, radius: f32) -> ShapeProxy {
    ShapeProxy::new(&[center], radius).unwrap()
}

#[track_caller]
fn close(actual: f32, expected: f32, tolerance: f32) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "{actual} vs {expected}"
    );
}

#[track_caller]
fn close_vec(actual: Vec2, expected: Vec2, tolerance: f32) {
    assert!(
        (actual - expected).length() <= tolerance,
        "{actual:?} vs {expected:?}"
    );
}

#[test]
fn a_falling_circle_lands_on_the_block_top() {
    let s = scene();
    // Radius 0.25 from y = 10 down 20 m: its bottom meets the block's top (5.5) when its
    // centre is at 5.75, after (10 − 5.75)/20 of the way.
    let hit = s
        .world
        .cast_shape_closest(
            &circle_at(Vec2::new(0.0, 10.0), 0.25),
            Vec2::new(0.0, -20.0),
            QueryFilter::default(),
        )
        .unwrap()
        .unwrap();
    assert_eq!((hit.shape, hit.initial_overlap), (s.block, false));
    assert_eq!(hit.body, s.world.shape_body(s.block).unwrap());
    close(hit.fraction, 0.2125, 1e-5);
    close_vec(hit.point, Vec2::new(0.0, 5.5), 1e-4);
    close_vec(hit.normal, Vec2::Y, 1e-4);
}

#[test]
fn a_box_swept_sideways_meets_each_disk_in_turn() {
    let s = scene();
    // A 1 × 0.5 box centred at (−5, 2) moving 10 m right: its right face (x = −4.5 + 10t)
    // meets the disk's leftmost point (−0.5, 2) at t = 0.4, the tagged disk's (2.5, 2) at 0.7.
    let box_proxy = ShapeProxy::from_placed_shape(
        &Shape::Polygon(make_box(0.5, 0.25).unwrap()),
        Transform::new(Vec2::new(-5.0, 2.0), Rot::IDENTITY),
    );
    let hits = s
        .world
        .cast_shape_all(&box_proxy, Vec2::new(10.0, 0.0), QueryFilter::default())
        .unwrap();
    let shapes: Vec<ShapeId> = hits.iter().map(|h| h.shape).collect();
    assert_eq!(shapes, [s.disk, s.tagged]);
    for (hit, (fraction, x)) in hits.iter().zip([(0.4, -0.5), (0.7, 2.5)]) {
        close(hit.fraction, fraction, 1e-5);
        close_vec(hit.point, Vec2::new(x, 2.0), 1e-4);
        close_vec(hit.normal, -Vec2::X, 1e-4);
    }
    // The query filter leaves out the tagged disk.
    let untagged = QueryFilter {
        category_bits: 1,
        mask_bits: 1,
    };
    let hits = s
        .world
        .cast_shape_all(&box_proxy, Vec2::new(10.0, 0.0), untagged)
        .unwrap();
    assert_eq!(hits.iter().map(|h| h.shape).collect::<Vec<_>>(), [s.disk]);
}

#[test]
fn a_diamond_lands_on_its_corner() {
    let s = scene();
    // A unit square turned 45° reaches 0.5·√2 below its centre; from (5, 3) moving down 5 m
    // its corner meets the ground (y = 0) at t = (3 − 0.5·√2)/5, at (5, 0).
    let diamond = ShapeProxy::from_placed_shape(
        &Shape::Polygon(make_square(0.5).unwrap()),
        Transform::new(
            Vec2::new(5.0, 3.0),
            Rot::from_angle(std::f32::consts::FRAC_PI_4),
        ),
    );
    let hit = s
        .world
        .cast_shape_closest(&diamond, Vec2::new(0.0, -5.0), QueryFilter::default())
        .unwrap()
        .unwrap();
    assert_eq!(hit.shape, s.ground);
    close(hit.fraction, (3.0 - 0.5 * 2f32.sqrt()) / 5.0, 1e-5);
    close_vec(hit.point, Vec2::new(5.0, 0.0), 1e-4);
    close_vec(hit.normal, Vec2::Y, 1e-4);
}

#[test]
fn a_cast_that_starts_inside_hits_at_zero_and_callbacks_steer_it() {
    let s = scene();
    // Starting 0.1 m inside the disk (centres 0.65 apart, radii 0.75): an initial overlap at
    // fraction 0.
    let inside = circle_at(Vec2::new(0.0, 2.65), 0.25);
    let hit = s
        .world
        .cast_shape_closest(&inside, Vec2::new(0.0, 5.0), QueryFilter::default())
        .unwrap()
        .unwrap();
    assert_eq!(
        (hit.shape, hit.fraction, hit.initial_overlap),
        (s.disk, 0.0, true)
    );
    // Skipping the overlap with the callback and clipping on the rest finds the block above:
    // the circle's top (2.9 + 5t) meets the block's bottom (4.5) at t = 0.32.
    let mut nearest = None;
    s.world
        .cast_shape(
            &inside,
            Vec2::new(0.0, 5.0),
            QueryFilter::default(),
            |hit| {
                if hit.initial_overlap {
                    return CastControl::Continue;
                }
                nearest = Some(hit);
                CastControl::Clip
            },
        )
        .unwrap();
    let nearest = nearest.unwrap();
    assert_eq!(nearest.shape, s.block);
    close(nearest.fraction, 0.32, 1e-5);
    close_vec(nearest.normal, -Vec2::Y, 1e-4);
}

#[test]
fn shape_overlap_is_exact_not_by_boxes() {
    let s = scene();
    let filter = QueryFilter::default();
    // A circle above the disk, centres 0.9 apart: they touch at a radius of 0.4.
    let near = |r| circle_at(Vec2::new(0.0, 2.9), r);
    assert!(
        s.world
            .overlap_shape(&near(0.39), filter)
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        s.world.overlap_shape(&near(0.41), filter).unwrap(),
        [s.disk]
    );
    // Off the block's corner (0.5, 5.5) by (0.3, 0.3), 0.424 away: the boxes overlap for a
    // radius of 0.4 but the shapes do not; at 0.43 they do.
    let corner = |r| circle_at(Vec2::new(0.8, 5.8), r);
    assert!(
        s.world
            .overlap_shape(&corner(0.4), filter)
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        s.world.overlap_shape(&corner(0.43), filter).unwrap(),
        [s.block]
    );
    // A tall box through everything at x = 0 finds ground, disk and block, in index order.
    let pillar = ShapeProxy::from_placed_shape(
        &Shape::Polygon(make_box(0.1, 4.0).unwrap()),
        Transform::new(Vec2::new(0.0, 3.0), Rot::IDENTITY),
    );
    let mut expected = vec![s.ground, s.disk, s.block];
    expected.sort_by_key(|id| id.index());
    assert_eq!(s.world.overlap_shape(&pillar, filter).unwrap(), expected);
}

#[test]
fn point_queries_find_the_shapes_containing_the_point() {
    let s = scene();
    let filter = QueryFilter::default();
    let at = |x, y| s.world.overlap_point(Vec2::new(x, y), filter).unwrap();
    assert_eq!(at(0.0, 2.3), [s.disk]);
    // Inside the disk's box but 0.636 from its centre: outside the disk.
    assert!(at(0.45, 2.45).is_empty());
    assert_eq!(at(0.0, -0.5), [s.ground]);
    // On the boundary counts: the disk's top point and the block's corner.
    assert_eq!(at(0.0, 2.5), [s.disk]);
    assert_eq!(at(0.5, 4.5), [s.block]);
    assert!(at(0.0, 1.0).is_empty());
    assert_eq!(at(3.0, 2.0), [s.tagged]);
    let untagged = QueryFilter {
        category_bits: 1,
        mask_bits: 1,
    };
    assert!(
        s.world
            .overlap_point(Vec2::new(3.0, 2.0), untagged)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn sleeping_shapes_are_found_and_disabled_ones_are_not() {
    let mut s = scene();
    s.world.set_awake(s.disk_body, false).unwrap();
    assert!(!s.world.is_awake(s.disk_body).unwrap());
    let filter = QueryFilter::default();
    assert_eq!(
        s.world.overlap_point(Vec2::new(0.0, 2.0), filter).unwrap(),
        [s.disk]
    );
    // The circle's bottom (3.75 − 4t) meets the disk's top (2.5) at t = 0.3125.
    let down = s
        .world
        .cast_shape_closest(
            &circle_at(Vec2::new(0.0, 4.0), 0.25),
            Vec2::new(0.0, -4.0),
            filter,
        )
        .unwrap()
        .unwrap();
    assert_eq!(down.shape, s.disk);
    close(down.fraction, 0.3125, 1e-5);
    s.world.disable_body(s.disk_body).unwrap();
    assert!(
        s.world
            .overlap_point(Vec2::new(0.0, 2.0), filter)
            .unwrap()
            .is_empty()
    );
    let down = s
        .world
        .cast_shape_closest(
            &circle_at(Vec2::new(0.0, 4.0), 0.25),
            Vec2::new(0.0, -4.0),
            filter,
        )
        .unwrap()
        .unwrap();
    assert_eq!(down.shape, s.ground, "the disabled disk is not in the way");
    close(down.fraction, 0.9375, 1e-5);
}

#[test]
fn bad_query_input_is_named() {
    let s = scene();
    let filter = QueryFilter::default();
    let proxy = circle_at(Vec2::ZERO, 0.5);
    let err = s
        .world
        .cast_shape_closest(&proxy, Vec2::new(f32::INFINITY, 0.0), filter)
        .unwrap_err();
    assert!(
        matches!(
            err,
            PrismError::NonFinite {
                field: "translation",
                ..
            }
        ),
        "{err}"
    );
    // A proxy made from a hand-built shape without checks.
    let broken = ShapeProxy::from_placed_shape(
        &Shape::Circle(Circle {
            center: Vec2::new(f32::NAN, 0.0),
            radius: 0.5,
        }),
        Transform::IDENTITY,
    );
    let err = s.world.overlap_shape(&broken, filter).unwrap_err();
    assert!(
        matches!(
            err,
            PrismError::NonFinite {
                field: "proxy.points",
                ..
            }
        ),
        "{err}"
    );
    let negative = ShapeProxy::from_placed_shape(
        &Shape::Circle(Circle {
            center: Vec2::ZERO,
            radius: -1.0,
        }),
        Transform::IDENTITY,
    );
    let err = s.world.overlap_shape(&negative, filter).unwrap_err();
    assert!(
        matches!(err, PrismError::OutOfRange { field: "proxy.radius", value, .. } if value == -1.0),
        "{err}"
    );
    let err = s
        .world
        .overlap_point(Vec2::new(0.0, f32::NAN), filter)
        .unwrap_err();
    assert!(
        matches!(err, PrismError::NonFinite { field: "point", .. }),
        "{err}"
    );
}
