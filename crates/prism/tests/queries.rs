//! Ray casts (closest, all, and with a callback steering the search) and box overlaps on a
//! small known scene.
//!
//! ```text
//!   y = 5.5  ┌─┐ box (dynamic, half 0.5, at (0, 5))
//!            └─┘
//!   y = 2.5   ○  disk (dynamic, r 0.5, at (0, 2))      ○ tagged disk (category 2, at (3, 2))
//!   y = 0   ═════════ ground (static, top at y = 0)
//! ```

mod common;

use common::{add_ground, world_with};
use prism::{
    Aabb, BodyDef, CastControl, Circle, Filter, QueryFilter, RayResult, ShapeDef, ShapeId,
    SolverKind, Vec2, World, make_box,
};

struct Scene {
    world: World,
    ground: ShapeId,
    disk: ShapeId,
    block: ShapeId,
    tagged: ShapeId,
}

fn scene() -> Scene {
    let mut world = world_with(SolverKind::SoftStep);
    let ground_body = add_ground(&mut world, 10.0);
    let ground = world.body_shapes(ground_body).unwrap()[0];
    let circle = Circle {
        center: Vec2::ZERO,
        radius: 0.5,
    };
    let body = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 2.0)))
        .unwrap();
    let disk = world
        .create_circle_shape(body, &ShapeDef::default(), &circle)
        .unwrap();
    let body = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 5.0)))
        .unwrap();
    let block = world
        .create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap())
        .unwrap();
    let body = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(3.0, 2.0)))
        .unwrap();
    let tag = ShapeDef {
        filter: Filter {
            category_bits: 2,
            ..Filter::default()
        },
        ..ShapeDef::default()
    };
    let tagged = world.create_circle_shape(body, &tag, &circle).unwrap();
    Scene {
        world,
        ground,
        disk,
        block,
        tagged,
    }
}

const DOWN_FROM_10: (Vec2, Vec2) = (Vec2::new(0.0, 10.0), Vec2::new(0.0, -20.0));

#[test]
fn closest_hit_is_the_top_box() {
    let s = scene();
    let (origin, translation) = DOWN_FROM_10;
    let hit = s
        .world
        .cast_ray_closest(origin, translation, QueryFilter::default())
        .unwrap()
        .unwrap();
    assert_eq!(hit.shape, s.block);
    // Entering the box's top face at y = 5.5: (10 − 5.5) / 20.
    assert!(
        (hit.fraction - 0.225).abs() < 1e-5,
        "fraction {}",
        hit.fraction
    );
    assert!((hit.point - Vec2::new(0.0, 5.5)).length() < 1e-4);
    assert!((hit.normal - Vec2::Y).length() < 1e-4);
}

#[test]
fn all_hits_come_nearest_first_with_exact_fractions() {
    let s = scene();
    let (origin, translation) = DOWN_FROM_10;
    let hits = s
        .world
        .cast_ray_all(origin, translation, QueryFilter::default())
        .unwrap();
    let shapes: Vec<ShapeId> = hits.iter().map(|h| h.shape).collect();
    assert_eq!(shapes, vec![s.block, s.disk, s.ground]);
    // Box top 5.5, disk top 2.5, ground top 0: fractions (10 − y) / 20.
    for (hit, expected) in hits.iter().zip([0.225, 0.375, 0.5]) {
        assert!(
            (hit.fraction - expected).abs() < 1e-5,
            "{hit:?} vs {expected}"
        );
    }
}

#[test]
fn query_filter_selects_categories() {
    let s = scene();
    let only_two = QueryFilter {
        category_bits: 1,
        mask_bits: 2,
    };
    let across = (Vec2::new(-5.0, 2.0), Vec2::new(10.0, 0.0));
    let hits = s.world.cast_ray_all(across.0, across.1, only_two).unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].shape, s.tagged);
    // The tagged disk's left edge is at x = 2.5: (2.5 + 5) / 10.
    assert!((hits[0].fraction - 0.75).abs() < 1e-5);
    let hits = s
        .world
        .cast_ray_all(across.0, across.1, QueryFilter::default())
        .unwrap();
    let shapes: Vec<ShapeId> = hits.iter().map(|h| h.shape).collect();
    assert_eq!(shapes, vec![s.disk, s.tagged]);
    let (origin, translation) = DOWN_FROM_10;
    let miss = s
        .world
        .cast_ray_closest(
            origin,
            translation,
            QueryFilter {
                category_bits: 1,
                mask_bits: 4,
            },
        )
        .unwrap();
    assert!(miss.is_none());
}

#[test]
fn ray_that_misses_everything_finds_nothing() {
    let s = scene();
    let hit = s
        .world
        .cast_ray_closest(
            Vec2::new(-20.0, 3.0),
            Vec2::new(0.0, 10.0),
            QueryFilter::default(),
        )
        .unwrap();
    assert!(hit.is_none());
    let err = s
        .world
        .cast_ray_closest(Vec2::new(f32::NAN, 0.0), Vec2::X, QueryFilter::default());
    assert!(err.is_err());
}

#[test]
fn aabb_overlap_uses_tight_boxes_of_both_trees() {
    let s = scene();
    let around_disk = Aabb::new(Vec2::new(-0.2, 1.8), Vec2::new(0.2, 2.2));
    assert_eq!(
        s.world
            .overlap_aabb(around_disk, QueryFilter::default())
            .unwrap(),
        vec![s.disk]
    );
    let everything = Aabb::new(Vec2::new(-20.0, -5.0), Vec2::new(20.0, 20.0));
    let mut all = vec![s.ground, s.disk, s.block, s.tagged];
    all.sort_by_key(|id| id.index());
    assert_eq!(
        s.world
            .overlap_aabb(everything, QueryFilter::default())
            .unwrap(),
        all
    );
    let only_two = QueryFilter {
        category_bits: 1,
        mask_bits: 2,
    };
    assert_eq!(
        s.world.overlap_aabb(everything, only_two).unwrap(),
        vec![s.tagged]
    );
    // Just above the ground's top face and below the disk's bottom (y = 1.5): nothing. The disk's
    // fat box reaches lower (margin 0.1), so this also checks that tight boxes are used.
    let gap = Aabb::new(Vec2::new(-1.0, 0.05), Vec2::new(1.0, 1.45));
    assert!(
        s.world
            .overlap_aabb(gap, QueryFilter::default())
            .unwrap()
            .is_empty()
    );
    let inverted = Aabb::new(Vec2::ONE, Vec2::ZERO);
    assert!(
        s.world
            .overlap_aabb(inverted, QueryFilter::default())
            .is_err()
    );
}

/// The fractions of the scene's three hits straight down from y = 10: box top 5.5, disk top
/// 2.5, ground top 0, at `(10 − y) / 20`.
const DOWN_HITS: [f32; 3] = [0.225, 0.375, 0.5];

/// Every hit a callback sees, in the order it sees them, when it answers each with `control`.
fn seen(world: &World, control: impl Fn(&RayResult) -> CastControl) -> Vec<RayResult> {
    let (origin, translation) = DOWN_FROM_10;
    let mut hits = Vec::new();
    world
        .cast_ray(origin, translation, QueryFilter::default(), |hit| {
            hits.push(hit);
            control(&hit)
        })
        .unwrap();
    hits
}

#[test]
fn callback_continue_sees_every_hit_with_its_body() {
    let s = scene();
    let hits = seen(&s.world, |_| CastControl::Continue);
    let mut shapes: Vec<ShapeId> = hits.iter().map(|h| h.shape).collect();
    shapes.sort_by_key(|id| id.index());
    let mut expected = vec![s.block, s.disk, s.ground];
    expected.sort_by_key(|id| id.index());
    assert_eq!(shapes, expected);
    for hit in &hits {
        assert_eq!(hit.body, s.world.shape_body(hit.shape).unwrap());
        let expected = if hit.shape == s.block {
            DOWN_HITS[0]
        } else if hit.shape == s.disk {
            DOWN_HITS[1]
        } else {
            DOWN_HITS[2]
        };
        assert!((hit.fraction - expected).abs() < 1e-5, "{hit:?}");
        // The point is where the ray is at that fraction: x = 0, y = 10 − 20·fraction.
        assert!((hit.point - Vec2::new(0.0, 10.0 - 20.0 * hit.fraction)).length() < 1e-4);
    }
}

#[test]
fn callback_clip_only_lets_nearer_hits_through() {
    let s = scene();
    let hits = seen(&s.world, |_| CastControl::Clip);
    // The static tree is walked first: the ground (0.5) is seen, and clips the ray; after
    // that, no hit may be farther than the nearest seen so far, and the last is the box.
    assert_eq!(hits[0].shape, s.ground);
    for pair in hits.windows(2) {
        assert!(pair[1].fraction <= pair[0].fraction, "{pair:?}");
    }
    assert_eq!(hits.last().unwrap().shape, s.block);
    assert!(hits.len() <= 3);

    // Clipping at every hit but the box's finds the nearest shape other than the box.
    let hits = seen(&s.world, |hit| {
        if hit.shape == s.block {
            CastControl::Continue
        } else {
            CastControl::Clip
        }
    });
    let nearest_other = hits
        .iter()
        .filter(|h| h.shape != s.block)
        .min_by(|a, b| a.fraction.total_cmp(&b.fraction))
        .unwrap();
    assert_eq!(nearest_other.shape, s.disk);
    assert!((nearest_other.fraction - DOWN_HITS[1]).abs() < 1e-5);
    // Once the disk clipped the ray at 0.375, the ground (0.5) could not be seen after it.
    let disk_at = hits.iter().position(|h| h.shape == s.disk).unwrap();
    assert!(hits[disk_at..].iter().all(|h| h.shape != s.ground));
}

#[test]
fn callback_stop_ends_the_search_at_the_first_hit() {
    let s = scene();
    let hits = seen(&s.world, |_| CastControl::Stop);
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].shape, s.ground, "the static tree is walked first");
}
