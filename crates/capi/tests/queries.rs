//! Ray casts and box overlaps through the C interface, against hits computed by hand.
//!
//! The scene (no gravity, so nothing moves): the ground, a static box 40 m wide whose top face
//! is at y = 0; a static 1 m box centred at (0, 2), spanning y 1.5 to 2.5; a static circle of
//! radius 0.5 at (3, 1), in category 2.

#![allow(unsafe_code, reason = "these tests call the C interface as C would")]

mod common;

use common::*;
use prism_capi::*;
use std::ptr;

struct Scene {
    world: TestWorld,
    ground: PrismShapeId,
    crate_box: PrismShapeId,
    crate_body: PrismBodyId,
    ball: PrismShapeId,
}

fn scene() -> Scene {
    let world = TestWorld::new(vec2(0.0, 0.0));
    let (_, ground) = world.ground();
    let crate_body = world.body(PRISM_BODY_TYPE_STATIC, vec2(0.0, 2.0));
    let crate_box = world.add_box(crate_body, 0.5, 0.5, &prism_default_shape_def());
    let ball_body = world.body(PRISM_BODY_TYPE_STATIC, vec2(3.0, 1.0));
    let def = PrismShapeDef {
        filter: PrismFilter {
            category_bits: 2,
            ..prism_default_filter()
        },
        ..prism_default_shape_def()
    };
    let circle = PrismCircle {
        center: vec2(0.0, 0.0),
        radius: 0.5,
    };
    let mut ball = PrismShapeId::default();
    // SAFETY: a live world; live definition, circle and output.
    ok(unsafe { prism_shape_create_circle(world.ptr, ball_body, &def, &circle, &mut ball) });
    world.step(1);
    Scene {
        world,
        ground,
        crate_box,
        crate_body,
        ball,
    }
}

fn closest(scene: &Scene, origin: PrismVec2, translation: PrismVec2) -> PrismRayResult {
    closest_filtered(scene, origin, translation, prism_default_query_filter())
}

fn closest_filtered(
    scene: &Scene,
    origin: PrismVec2,
    translation: PrismVec2,
    filter: PrismQueryFilter,
) -> PrismRayResult {
    let mut result = PrismRayResult {
        shape: PrismShapeId { bits: 99 },
        body: PrismBodyId { bits: 99 },
        point: vec2(9.0, 9.0),
        normal: vec2(9.0, 9.0),
        fraction: 9.0,
        hit: true,
    };
    // SAFETY: a live world and output.
    ok(unsafe {
        prism_world_cast_ray_closest(scene.world.ptr, origin, translation, filter, &mut result)
    });
    result
}

fn assert_near(actual: PrismVec2, expected: PrismVec2) {
    assert!(
        (actual.x - expected.x).abs() < 1e-5 && (actual.y - expected.y).abs() < 1e-5,
        "{actual:?} != {expected:?}"
    );
}

#[test]
fn the_closest_hit_is_the_first_surface_along_the_ray() {
    let scene = scene();
    // Straight down from (0, 10) over 20 m: the box's top face at y = 2.5 comes first, at
    // fraction (10 − 2.5)/20.
    let hit = closest(&scene, vec2(0.0, 10.0), vec2(0.0, -20.0));
    assert!(hit.hit);
    assert_eq!(hit.shape, scene.crate_box);
    assert_eq!(hit.body, scene.crate_body);
    assert_near(hit.point, vec2(0.0, 2.5));
    assert_near(hit.normal, vec2(0.0, 1.0));
    assert!((hit.fraction - 0.375).abs() < 1e-6, "{}", hit.fraction);

    // Sideways at y = 1, below the box: the circle's left side, x = 2.5, fraction 2.5/10.
    let hit = closest(&scene, vec2(0.0, 1.0), vec2(10.0, 0.0));
    assert_eq!(hit.shape, scene.ball);
    assert_near(hit.point, vec2(2.5, 1.0));
    assert_near(hit.normal, vec2(-1.0, 0.0));
    assert!((hit.fraction - 0.25).abs() < 1e-6);

    // A ray above everything misses, and a miss is all zeros.
    let miss = closest(&scene, vec2(-10.0, 5.0), vec2(20.0, 0.0));
    assert!(!miss.hit);
    assert_eq!(miss.shape, PrismShapeId::default());
    assert_eq!(miss.body, PrismBodyId::default());
    assert_eq!(
        (miss.point, miss.normal, miss.fraction),
        (vec2(0.0, 0.0), vec2(0.0, 0.0), 0.0)
    );
}

#[test]
fn the_query_filter_selects_categories() {
    let scene = scene();
    let only_category_2 = PrismQueryFilter {
        category_bits: 1,
        mask_bits: 2,
    };
    // From (−1, 2.2) through the box (entered at x = −0.5, y = 2.05) to the circle's centre.
    let (origin, translation) = (vec2(-1.0, 2.2), vec2(8.0, -2.4));
    assert_eq!(closest(&scene, origin, translation).shape, scene.crate_box);
    let hit = closest_filtered(&scene, origin, translation, only_category_2);
    assert_eq!(
        hit.shape, scene.ball,
        "with the filter only the circle counts"
    );
    let no_category = PrismQueryFilter {
        category_bits: 1,
        mask_bits: 0,
    };
    assert!(!closest_filtered(&scene, vec2(0.0, 10.0), vec2(0.0, -20.0), no_category).hit);
}

#[test]
fn cast_all_fills_the_array_nearest_first_and_counts_every_hit() {
    let scene = scene();
    let cast = |results: *mut PrismRayResult, capacity: usize| {
        let mut count = usize::MAX;
        // SAFETY: a live world; `results` is NULL or holds `capacity` results.
        ok(unsafe {
            prism_world_cast_ray_all(
                scene.world.ptr,
                vec2(0.0, 10.0),
                vec2(0.0, -20.0),
                prism_default_query_filter(),
                results,
                capacity,
                &mut count,
            )
        });
        count
    };
    assert_eq!(cast(ptr::null_mut(), 0), 2, "the count alone");

    let sentinel = PrismRayResult {
        shape: PrismShapeId { bits: 7 },
        body: PrismBodyId { bits: 7 },
        point: vec2(0.0, 0.0),
        normal: vec2(0.0, 0.0),
        fraction: -1.0,
        hit: false,
    };
    let mut results = [sentinel; 4];
    assert_eq!(cast(results.as_mut_ptr(), 4), 2);
    // The box's top at fraction 0.375, then the ground's top (y = 0) at 10/20.
    assert_eq!(results[0].shape, scene.crate_box);
    assert!((results[0].fraction - 0.375).abs() < 1e-6);
    assert_eq!(results[1].shape, scene.ground);
    assert!((results[1].fraction - 0.5).abs() < 1e-6);
    assert_near(results[1].point, vec2(0.0, 0.0));
    assert!(results[0].hit && results[1].hit);
    assert_eq!(results[2], sentinel, "nothing written past the hits");

    let mut one = [sentinel; 2];
    assert_eq!(
        cast(one.as_mut_ptr(), 1),
        2,
        "the count says more were found"
    );
    assert_eq!(one[0], results[0], "the nearest hit fills a one-slot array");
    assert_eq!(one[1], sentinel, "nothing written past the capacity");
}

#[test]
fn overlap_finds_the_shapes_whose_boxes_meet_the_query_box() {
    let scene = scene();
    let around_ball = PrismAabb {
        lower: vec2(2.0, 0.4),
        upper: vec2(4.0, 1.4),
    };
    let mut found = [PrismShapeId::default(); 4];
    let mut count = 0;
    // SAFETY: a live world; `found` holds 4 ids; `count` is live.
    ok(unsafe {
        prism_world_overlap_aabb(
            scene.world.ptr,
            around_ball,
            prism_default_query_filter(),
            found.as_mut_ptr(),
            found.len(),
            &mut count,
        )
    });
    assert_eq!(count, 1);
    assert_eq!(found[0], scene.ball);

    // A box reaching from the ground's top to the middle of the crate meets both, in shape
    // order (ground first: it was made first).
    let tall = PrismAabb {
        lower: vec2(-0.1, -0.1),
        upper: vec2(0.1, 2.0),
    };
    // SAFETY: as above.
    ok(unsafe {
        prism_world_overlap_aabb(
            scene.world.ptr,
            tall,
            prism_default_query_filter(),
            found.as_mut_ptr(),
            found.len(),
            &mut count,
        )
    });
    assert_eq!(&found[..count], &[scene.ground, scene.crate_box]);
}

#[test]
fn bad_rays_and_boxes_are_named() {
    let scene = scene();
    let mut result = closest(&scene, vec2(0.0, 10.0), vec2(0.0, -20.0));
    // SAFETY: a live world and output; the NaN origin is what is tested.
    let status = unsafe {
        prism_world_cast_ray_closest(
            scene.world.ptr,
            vec2(f32::NAN, 0.0),
            vec2(1.0, 0.0),
            prism_default_query_filter(),
            &mut result,
        )
    };
    fails(
        status,
        PrismStatus::NonFinite,
        &["prism_world_cast_ray_closest: `origin` must be finite"],
    );
    let inverted = PrismAabb {
        lower: vec2(1.0, 1.0),
        upper: vec2(0.0, 2.0),
    };
    let mut count = 0;
    // SAFETY: a live world; no array (capacity 0); live count.
    let status = unsafe {
        prism_world_overlap_aabb(
            scene.world.ptr,
            inverted,
            prism_default_query_filter(),
            ptr::null_mut(),
            0,
            &mut count,
        )
    };
    fails(
        status,
        PrismStatus::OutOfRange,
        &["`aabb` must be a box with min <= max"],
    );
}
