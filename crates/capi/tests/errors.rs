//! Bad input through the C interface: every failure returns the right status, leaves a message
//! naming the function, the field or argument and the value, and changes nothing.

#![allow(unsafe_code, reason = "these tests call the C interface as C would")]

mod common;

use common::*;
use prism_capi::*;
use std::ptr;

#[test]
fn bad_body_definitions_are_named_and_create_nothing() {
    let world = TestWorld::new(vec2(0.0, -10.0));
    let mut id = PrismBodyId::default();
    let mut create = |def: PrismBodyDef| {
        // SAFETY: a live world; `def` and `id` are live locals.
        unsafe { prism_body_create(world.ptr, &def, &mut id) }
    };
    let good = PrismBodyDef {
        body_type: PRISM_BODY_TYPE_DYNAMIC,
        ..prism_default_body_def()
    };

    let status = create(PrismBodyDef {
        position: vec2(0.0, f32::NAN),
        ..good
    });
    fails(status, PrismStatus::NonFinite, &[]);
    assert_eq!(
        last_error(),
        "prism_body_create: `BodyDef::position` must be finite, got NaN"
    );

    let status = create(PrismBodyDef {
        body_type: 7,
        ..good
    });
    fails(
        status,
        PrismStatus::InvalidEnum,
        &[
            "prism_body_create",
            "`PrismBodyDef::body_type`",
            "PRISM_BODY_TYPE_DYNAMIC (2)",
            "got 7",
        ],
    );

    let status = create(PrismBodyDef {
        linear_damping: -1.0,
        ..good
    });
    fails(
        status,
        PrismStatus::OutOfRange,
        &["`BodyDef::linear_damping` must be at least 0, got -1"],
    );

    let status = create(PrismBodyDef {
        rotation: PrismRot { c: 2.0, s: 0.0 },
        ..good
    });
    fails(
        status,
        PrismStatus::OutOfRange,
        &["`BodyDef::rotation`", "got 2"],
    );

    let status = create(PrismBodyDef {
        internal_value: 0,
        ..good
    });
    fails(
        status,
        PrismStatus::UninitializedDef,
        &["`PrismBodyDef`", "prism_default_body_def()"],
    );

    assert_eq!(id, PrismBodyId::default(), "no id was handed out");
    assert_eq!(world.counters().bodies, 0, "no body was half-created");
}

#[test]
fn bad_world_definitions_and_step_arguments_are_named() {
    let mut world = ptr::null_mut();
    let def = PrismWorldDef {
        worker_count: 0,
        ..prism_default_world_def()
    };
    // SAFETY: `def` and `world` are live locals.
    let status = unsafe { prism_world_create(&def, &mut world) };
    fails(
        status,
        PrismStatus::InvalidCount,
        &["prism_world_create: `WorldDef::worker_count` must be at least 1, got 0"],
    );
    assert!(world.is_null(), "no world on failure");

    let def = PrismWorldDef {
        solver_kind: 5,
        ..prism_default_world_def()
    };
    // SAFETY: as above.
    let status = unsafe { prism_world_create(&def, &mut world) };
    fails(
        status,
        PrismStatus::InvalidEnum,
        &[
            "`PrismWorldDef::solver_kind`",
            "PRISM_SOLVER_SOFT_STEP (0)",
            "got 5",
        ],
    );

    let world = TestWorld::new(vec2(0.0, -10.0));
    let step = |dt: f32, substeps: u32| {
        // SAFETY: a live world used by this thread alone.
        unsafe { prism_world_step(world.ptr, dt, substeps) }
    };
    // A zero step is a pause, not an error.
    assert_eq!(step(0.0, 4), PrismStatus::Ok);
    fails(
        step(-0.5, 4),
        PrismStatus::OutOfRange,
        &["prism_world_step: `dt` must be at least 0, got -0.5"],
    );
    fails(
        step(f32::INFINITY, 4),
        PrismStatus::NonFinite,
        &["`dt`", "inf"],
    );
    fails(
        step(1.0 / 60.0, 0),
        PrismStatus::InvalidCount,
        &["`substeps` must be at least 1, got 0"],
    );
}

#[test]
fn null_pointers_are_named_and_change_nothing() {
    let world = TestWorld::new(vec2(0.0, -10.0));
    let def = prism_default_body_def();
    let mut id = PrismBodyId::default();

    // SAFETY: a live world; the NULL definition is what is tested.
    let status = unsafe { prism_body_create(world.ptr, ptr::null(), &mut id) };
    fails(
        status,
        PrismStatus::NullPointer,
        &["prism_body_create: `def` is NULL"],
    );

    // SAFETY: a live world and definition; the NULL output is what is tested.
    let status = unsafe { prism_body_create(world.ptr, &def, ptr::null_mut()) };
    fails(status, PrismStatus::NullPointer, &["`out_body` is NULL"]);
    assert_eq!(world.counters().bodies, 0, "a NULL output creates nothing");

    let body = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(0.0, 0.0));
    let mut position = PrismVec2::default();
    // SAFETY: the NULL world is what is tested.
    let status = unsafe { prism_body_get_position(ptr::null(), body, &mut position) };
    fails(status, PrismStatus::NullPointer, &["`world` is NULL"]);
    // SAFETY: a live world; the NULL output is what is tested.
    let status = unsafe { prism_body_get_position(world.ptr, body, ptr::null_mut()) };
    fails(status, PrismStatus::NullPointer, &["`out` is NULL"]);

    let mut count = 0;
    let filter = prism_default_query_filter();
    // SAFETY: a live world and count; a NULL array with a non-zero capacity is what is tested.
    let status = unsafe {
        prism_world_cast_ray_all(
            world.ptr,
            vec2(0.0, 5.0),
            vec2(0.0, -10.0),
            filter,
            ptr::null_mut(),
            3,
            &mut count,
        )
    };
    fails(status, PrismStatus::NullPointer, &["`results` is NULL"]);

    // SAFETY: destroying NULL is allowed and does nothing.
    ok(unsafe { prism_world_destroy(ptr::null_mut()) });
    // SAFETY: a NULL world is allowed here and answers false.
    assert!(!unsafe { prism_body_is_valid(ptr::null(), body) });
}

#[test]
fn bad_shapes_and_polygons_are_named() {
    let world = TestWorld::new(vec2(0.0, -10.0));
    let body = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(0.0, 0.0));
    let mut shape = PrismShapeId::default();

    let def = PrismShapeDef {
        density: -2.0,
        ..prism_default_shape_def()
    };
    let circle = PrismCircle {
        center: vec2(0.0, 0.0),
        radius: 0.5,
    };
    // SAFETY: a live world; live definition, circle and output.
    let status = unsafe { prism_shape_create_circle(world.ptr, body, &def, &circle, &mut shape) };
    fails(
        status,
        PrismStatus::OutOfRange,
        &["prism_shape_create_circle: `ShapeDef::density` must be at least 0, got -2"],
    );

    let flat = PrismCircle {
        radius: 0.0,
        ..circle
    };
    let def = prism_default_shape_def();
    // SAFETY: as above.
    let status = unsafe { prism_shape_create_circle(world.ptr, body, &def, &flat, &mut shape) };
    fails(
        status,
        PrismStatus::OutOfRange,
        &["`Circle::radius`", "got 0"],
    );

    let short = PrismSegment {
        point1: vec2(0.0, 0.0),
        point2: vec2(0.001, 0.0),
    };
    // SAFETY: as above.
    let status = unsafe { prism_shape_create_segment(world.ptr, body, &def, &short, &mut shape) };
    fails(status, PrismStatus::OutOfRange, &["Segment length"]);

    let mut polygon = make_box(0.5, 0.5);
    // SAFETY: the output is a live polygon.
    let status = unsafe { prism_make_box(-1.0, 0.5, &mut polygon) };
    fails(
        status,
        PrismStatus::OutOfRange,
        &["prism_make_box: `half_width` must be greater than 0, got -1"],
    );

    let collinear = [vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(2.0, 0.0)];
    // SAFETY: `collinear` holds three points; the output is a live polygon.
    let status = unsafe { prism_make_polygon(collinear.as_ptr(), 3, 0.0, &mut polygon) };
    fails(status, PrismStatus::DegeneratePolygon, &["collinear"]);

    let mut bent = make_box(0.5, 0.5);
    bent.normals[1] = vec2(1.0, 1.0);
    // SAFETY: a live world; live definition, polygon and output.
    let status = unsafe { prism_shape_create_polygon(world.ptr, body, &def, &bent, &mut shape) };
    fails(
        status,
        PrismStatus::DegeneratePolygon,
        &["`PrismPolygon::normals[1]`", "prism_make_polygon()"],
    );

    assert_eq!(world.counters().shapes, 0, "no shape was half-created");
}

#[test]
fn bad_joints_are_named() {
    let world = TestWorld::new(vec2(0.0, -10.0));
    let ground = world.body(PRISM_BODY_TYPE_STATIC, vec2(0.0, 0.0));
    let wall = world.body(PRISM_BODY_TYPE_STATIC, vec2(5.0, 0.0));
    let body = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(1.0, 0.0));
    let mut joint = PrismJointId::default();

    let mut def = prism_default_revolute_joint_def();
    def.base.body_a = body;
    def.base.body_b = body;
    // SAFETY: a live world; live definition and output.
    let status = unsafe { prism_joint_create_revolute(world.ptr, &def, &mut joint) };
    fails(
        status,
        PrismStatus::InvalidJoint,
        &["`JointDef::body_b`", "same body"],
    );

    def.base.body_a = ground;
    def.base.body_b = wall;
    // SAFETY: as above.
    let status = unsafe { prism_joint_create_revolute(world.ptr, &def, &mut joint) };
    fails(status, PrismStatus::InvalidJoint, &["both static"]);

    def.base.body_b = body;
    def.enable_limit = true;
    def.lower_angle = 0.5;
    def.upper_angle = -0.5;
    // SAFETY: as above.
    let status = unsafe { prism_joint_create_revolute(world.ptr, &def, &mut joint) };
    fails(status, PrismStatus::InvalidJoint, &["revolute."]);

    let mut weld = prism_default_weld_joint_def();
    weld.base.body_a = ground;
    weld.base.body_b = body;
    weld.base.break_force = 0.0;
    // SAFETY: as above.
    let status = unsafe { prism_joint_create_weld(world.ptr, &weld, &mut joint) };
    fails(
        status,
        PrismStatus::OutOfRange,
        &["`JointDef::break_force`", "got 0"],
    );

    assert_eq!(joint, PrismJointId::default(), "no joint id was handed out");
}

#[test]
fn the_last_error_belongs_to_the_thread_that_failed() {
    // SAFETY: the NULL output is what is tested.
    let status = unsafe { prism_make_box(1.0, 1.0, ptr::null_mut()) };
    assert_eq!(status, PrismStatus::NullPointer);
    let here = last_error();
    assert_eq!(here, "prism_make_box: `out` is NULL");
    let elsewhere = std::thread::spawn(|| {
        let mut polygon = make_box(1.0, 1.0);
        // SAFETY: the output is a live polygon; the NaN is what is tested.
        let status = unsafe { prism_make_box(f32::NAN, 1.0, &mut polygon) };
        assert_eq!(status, PrismStatus::NonFinite);
        last_error()
    })
    .join()
    .expect("the other thread ran");
    assert_eq!(
        elsewhere,
        "prism_make_box: `half_width` must be finite, got NaN"
    );
    let fresh = std::thread::spawn(last_error).join().expect("ran");
    assert_eq!(fresh, "", "a thread without failures has no message");
    assert_eq!(
        last_error(),
        here,
        "other threads leave this one's message alone"
    );
}
