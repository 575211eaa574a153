//! Every shape kind through the C interface: the mass it gives its body (density × area, the
//! centre at the area's centroid), its box, and its material and filter read back.

#![allow(unsafe_code, reason = "these tests call the C interface as C would")]

mod common;

use common::*;
use prism_capi::*;
use std::f32::consts::PI;

fn mass_data(world: &TestWorld, body: PrismBodyId) -> PrismMassData {
    let mut data = PrismMassData {
        mass: 0.0,
        center: vec2(0.0, 0.0),
        rotational_inertia: 0.0,
    };
    // SAFETY: a live world and output.
    ok(unsafe { prism_body_get_mass_data(world.ptr, body, &mut data) });
    data
}

fn dynamic_body(world: &TestWorld) -> PrismBodyId {
    world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(0.0, 0.0))
}

#[test]
fn a_circle_weighs_density_times_pi_r_squared() {
    let world = TestWorld::new(vec2(0.0, 0.0));
    let body = dynamic_body(&world);
    let def = PrismShapeDef {
        density: 2.0,
        ..prism_default_shape_def()
    };
    let circle = PrismCircle {
        center: vec2(0.5, 0.0),
        radius: 0.5,
    };
    let mut shape = PrismShapeId::default();
    // SAFETY: a live world; live definition, circle and output.
    ok(unsafe { prism_shape_create_circle(world.ptr, body, &def, &circle, &mut shape) });
    let data = mass_data(&world, body);
    // m = 2·π·0.25; I about the centre = m·r²/2.
    assert!((data.mass - PI / 2.0).abs() < 1e-5, "{data:?}");
    assert!((data.center.x - 0.5).abs() < 1e-6 && data.center.y.abs() < 1e-6);
    assert!(
        (data.rotational_inertia - data.mass * 0.125).abs() < 1e-5,
        "{data:?}"
    );

    let mut aabb = PrismAabb {
        lower: vec2(0.0, 0.0),
        upper: vec2(0.0, 0.0),
    };
    // SAFETY: a live world and output.
    ok(unsafe { prism_shape_get_aabb(world.ptr, shape, &mut aabb) });
    assert_eq!((aabb.lower, aabb.upper), (vec2(0.0, -0.5), vec2(1.0, 0.5)));
}

#[test]
fn a_capsule_weighs_its_disc_plus_its_rectangle() {
    let world = TestWorld::new(vec2(0.0, 0.0));
    let body = dynamic_body(&world);
    let capsule = PrismCapsule {
        center1: vec2(-0.5, 0.0),
        center2: vec2(0.5, 0.0),
        radius: 0.25,
    };
    let mut shape = PrismShapeId::default();
    let def = prism_default_shape_def();
    // SAFETY: a live world; live definition, capsule and output.
    ok(unsafe { prism_shape_create_capsule(world.ptr, body, &def, &capsule, &mut shape) });
    // Two half discs make one disc, π·0.25², plus the 1 m × 0.5 m rectangle between them.
    let expected = PI * 0.0625 + 0.5;
    let data = mass_data(&world, body);
    assert!(
        (data.mass - expected).abs() < 1e-5,
        "{data:?} vs {expected}"
    );
    assert!(length(data.center) < 1e-6);
}

#[test]
fn a_hull_polygon_weighs_its_area_at_its_centroid() {
    let world = TestWorld::new(vec2(0.0, 0.0));
    let body = dynamic_body(&world);
    // The hull of a right triangle's corners and an interior point: area 2, centroid (2/3, 2/3).
    let points = [
        vec2(0.0, 0.0),
        vec2(2.0, 0.0),
        vec2(0.5, 0.5),
        vec2(0.0, 2.0),
    ];
    let mut polygon = make_box(1.0, 1.0);
    // SAFETY: `points` holds 4 points; the output is a live polygon.
    ok(unsafe { prism_make_polygon(points.as_ptr(), points.len(), 0.0, &mut polygon) });
    assert_eq!(polygon.count, 3, "the interior point is dropped");
    let mut shape = PrismShapeId::default();
    let def = prism_default_shape_def();
    // SAFETY: a live world; live definition, polygon and output.
    ok(unsafe { prism_shape_create_polygon(world.ptr, body, &def, &polygon, &mut shape) });
    let data = mass_data(&world, body);
    assert!((data.mass - 2.0).abs() < 1e-5, "{data:?}");
    let third = 2.0 / 3.0;
    assert!((data.center.x - third).abs() < 1e-5 && (data.center.y - third).abs() < 1e-5);
}

#[test]
fn a_segment_has_no_mass_so_its_body_gets_one_kilogram() {
    let world = TestWorld::new(vec2(0.0, 0.0));
    let body = dynamic_body(&world);
    let segment = PrismSegment {
        point1: vec2(-1.0, 0.0),
        point2: vec2(1.0, 0.0),
    };
    let mut shape = PrismShapeId::default();
    let def = prism_default_shape_def();
    // SAFETY: a live world; live definition, segment and output.
    ok(unsafe { prism_shape_create_segment(world.ptr, body, &def, &segment, &mut shape) });
    assert_eq!(mass_data(&world, body).mass, 1.0);
    // SAFETY: a live world used by this thread alone.
    ok(unsafe { prism_shape_destroy(world.ptr, shape) });
    // SAFETY: a live world.
    assert!(!unsafe { prism_shape_is_valid(world.ptr, shape) });
    assert_eq!(world.counters().shapes, 0);
}

#[test]
fn material_filter_and_owner_read_back() {
    let world = TestWorld::new(vec2(0.0, 0.0));
    let body = dynamic_body(&world);
    let def = PrismShapeDef {
        density: 3.0,
        friction: 0.25,
        restitution: 0.5,
        filter: PrismFilter {
            category_bits: 4,
            mask_bits: !2,
            group_index: -3,
        },
        user_data: 42,
        ..prism_default_shape_def()
    };
    let shape = world.add_box(body, 0.5, 0.5, &def);
    let read =
        |get: unsafe extern "C" fn(*const PrismWorld, PrismShapeId, *mut f32) -> PrismStatus| {
            let mut value = 0.0;
            // SAFETY: a live world and output.
            ok(unsafe { get(world.ptr, shape, &mut value) });
            value
        };
    assert_eq!(read(prism_shape_get_density), 3.0);
    assert_eq!(read(prism_shape_get_friction), 0.25);
    assert_eq!(read(prism_shape_get_restitution), 0.5);
    let mut filter = prism_default_filter();
    // SAFETY: a live world and output.
    ok(unsafe { prism_shape_get_filter(world.ptr, shape, &mut filter) });
    assert_eq!(filter, def.filter);
    let mut user_data = 0;
    // SAFETY: a live world and output.
    ok(unsafe { prism_shape_get_user_data(world.ptr, shape, &mut user_data) });
    assert_eq!(user_data, 42);
    let mut owner = PrismBodyId::default();
    // SAFETY: a live world and output.
    ok(unsafe { prism_shape_get_body(world.ptr, shape, &mut owner) });
    assert_eq!(owner, body);
}
