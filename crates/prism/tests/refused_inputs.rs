//! The inputs that used to slip through: boxes with non-positive extents, hand-built polygons
//! that are not convex or have wrong normals, geometry whose mass overflows `f32`, a zero time
//! step, and a mass-ratio report nobody asked for. Each is refused with an error naming the
//! field (or, for `dt = 0`, is a pause), and the world is left exactly as it was.

mod common;

use common::{DT, SUBSTEPS, add_ground, run, world_with};
use prism::{
    BodyDef, BodyId, Circle, HullError, JointDef, MassData, MassRatioWarning, Polygon, PrismError,
    RevoluteJointDef, Rot, ShapeDef, SolverKind, Vec2, World, make_box, make_offset_box,
    make_polygon, make_rounded_box, make_square,
};

fn world_with_a_box() -> (World, BodyId) {
    let mut world = world_with(SolverKind::SoftStep);
    add_ground(&mut world, 10.0);
    let body = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 1.0)))
        .unwrap();
    world
        .create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap())
        .unwrap();
    (world, body)
}

/// The field an error names, for the variants that name one.
fn field_of(error: &PrismError) -> &'static str {
    match error {
        PrismError::OutOfRange { field, .. } | PrismError::NonFinite { field, .. } => field,
        PrismError::DegeneratePolygon(HullError::InvalidArgument { field, .. }) => field,
        other => panic!("no field in {other:?}"),
    }
}

/// Everything a failed call must leave alone: the counts, and the body's pose, velocity and
/// mass, bit for bit.
fn state(world: &World, body: BodyId) -> (prism::Counters, [u32; 8]) {
    let t = world.transform(body).unwrap();
    let v = world.linear_velocity(body).unwrap();
    let m = world.mass_data(body).unwrap();
    let bits = [
        t.p.x.to_bits(),
        t.p.y.to_bits(),
        t.q.s.to_bits(),
        v.x.to_bits(),
        v.y.to_bits(),
        m.mass.to_bits(),
        m.center.x.to_bits(),
        m.rotational_inertia.to_bits(),
    ];
    (world.counters(), bits)
}

#[test]
fn box_helpers_refuse_bad_extents() {
    let err: PrismError = make_box(-0.5, -0.5).unwrap_err().into();
    assert_eq!(field_of(&err), "half_width");
    assert!(err.to_string().contains("-0.5"), "{err}");
    let cases = [
        (make_box(0.5, 0.0), "half_height"),
        (make_box(f32::NAN, 1.0), "half_width"),
        (make_square(f32::INFINITY), "half_width"),
        (
            make_offset_box(1.0, -1.0, Vec2::ZERO, Rot::IDENTITY),
            "half_height",
        ),
        (
            make_offset_box(1.0, 1.0, Vec2::new(f32::NAN, 0.0), Rot::IDENTITY),
            "center",
        ),
        (make_rounded_box(0.0, 1.0, 0.1), "half_width"),
    ];
    for (result, field) in cases {
        let err: PrismError = result.unwrap_err().into();
        assert_eq!(field_of(&err), field, "{err}");
    }
    assert_eq!(
        make_rounded_box(1.0, 1.0, -0.1),
        Err(HullError::InvalidRadius { radius: -0.1 })
    );
    // The smallest box allowed is half a slop wide, and it makes a valid shape.
    let (mut world, body) = world_with_a_box();
    let tiny = make_box(prism::MIN_HALF_EXTENT, prism::MIN_HALF_EXTENT).unwrap();
    world
        .create_polygon_shape(body, &ShapeDef::default(), &tiny)
        .unwrap();
}

/// What a refused polygon's error must be.
type Expected = fn(&HullError) -> bool;

#[test]
fn hand_built_polygons_are_checked_in_full() {
    let (mut world, body) = world_with_a_box();
    let before = state(&world, body);
    let square = make_box(1.0, 1.0).unwrap();
    let mut dented = make_polygon(
        &[
            Vec2::new(-1.0, -1.0),
            Vec2::new(1.0, -1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 1.5),
            Vec2::new(-1.0, 1.0),
        ],
        0.0,
    )
    .unwrap();
    dented.vertices[3] = Vec2::new(0.0, 0.2);
    let mut zero_normals = square;
    zero_normals.normals = [Vec2::ZERO; 8];
    let mut clockwise = square;
    clockwise.vertices[..4].reverse();
    let mut inward = square;
    for normal in &mut inward.normals[..4] {
        *normal = -*normal;
    }
    let mut off_centre = square;
    off_centre.centroid = Vec2::new(0.9, 0.9);
    let mut sliver = square;
    sliver.vertices[1] = Vec2::new(-0.999, -1.0);
    let cases: [(&str, Polygon, Expected); 6] = [
        ("dented", dented, |e| {
            matches!(e, HullError::NotConvex { .. })
        }),
        ("zero normals", zero_normals, |e| {
            matches!(e, HullError::WrongNormal { index: 0, .. })
        }),
        ("clockwise", clockwise, |e| {
            matches!(e, HullError::NotConvex { .. })
        }),
        ("inward normals", inward, |e| {
            matches!(e, HullError::WrongNormal { .. })
        }),
        ("off-centre", off_centre, |e| {
            matches!(e, HullError::WrongCentroid { .. })
        }),
        ("short edge", sliver, |e| {
            matches!(e, HullError::ShortEdge { index: 0, .. })
        }),
    ];
    for (name, polygon, expected) in cases {
        let err = world
            .create_polygon_shape(body, &ShapeDef::default(), &polygon)
            .unwrap_err();
        let PrismError::DegeneratePolygon(hull_error) = &err else {
            panic!("{name}: {err:?}");
        };
        assert!(expected(hull_error), "{name}: {hull_error:?}");
        assert!(!err.to_string().is_empty());
    }
    assert_eq!(state(&world, body), before, "nothing changed");
    run(&mut world, 60);
    assert!((world.position(body).unwrap().y - 0.5).abs() < 0.01);
}

#[test]
fn geometry_whose_mass_overflows_is_refused_by_field() {
    let (mut world, body) = world_with_a_box();
    let before = state(&world, body);
    let huge_circle = Circle {
        center: Vec2::ZERO,
        radius: 1e20,
    };
    let err = world
        .create_circle_shape(body, &ShapeDef::default(), &huge_circle)
        .unwrap_err();
    assert_eq!(field_of(&err), "Circle::radius", "{err}");
    assert!(err.to_string().contains("Circle::radius"), "{err}");

    // A 10³⁰ m box is a valid polygon, but its area (4·10⁶⁰) is not an f32, on any body.
    let huge_box = make_box(1e30, 1e30).unwrap();
    let err = world
        .create_polygon_shape(body, &ShapeDef::default(), &huge_box)
        .unwrap_err();
    assert_eq!(field_of(&err), "Polygon::vertices", "{err}");
    let ground = world.create_body(&BodyDef::default()).unwrap();
    let err = world
        .create_polygon_shape(ground, &ShapeDef::default(), &huge_box)
        .unwrap_err();
    assert_eq!(field_of(&err), "Polygon::vertices", "{err}");

    // A unit circle 10²⁰ m from the body origin: its own mass is fine, the body's inertia
    // about the common centre (m·|c|² = π·10⁴⁰) is not.
    let far = Circle {
        center: Vec2::new(1e20, 0.0),
        radius: 1.0,
    };
    let err = world
        .create_circle_shape(body, &ShapeDef::default(), &far)
        .unwrap_err();
    assert_eq!(field_of(&err), "Circle::center", "{err}");

    let unit = Circle {
        center: Vec2::ZERO,
        radius: 1.0,
    };
    // Too heavy for f32 (π·f32::MAX), and, alone on a body, too light (a subnormal mass,
    // whose inverse is infinite).
    let bare = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(3.0, 3.0)))
        .unwrap();
    for (target, density) in [(body, f32::MAX), (bare, 1e-44)] {
        let def = ShapeDef {
            density,
            ..ShapeDef::default()
        };
        let err = world.create_circle_shape(target, &def, &unit).unwrap_err();
        assert_eq!(field_of(&err), "ShapeDef::density", "{density}: {err}");
    }
    world.destroy_body(bare).unwrap();
    world.destroy_body(ground).unwrap();
    assert_eq!(state(&world, body), before, "nothing changed");

    // Mass overrides and inertia scales whose inverse or product is not finite.
    let subnormal = MassData {
        mass: 1e-40,
        center: Vec2::ZERO,
        rotational_inertia: 1.0,
    };
    let err = world.set_mass_data(body, subnormal).unwrap_err();
    assert_eq!(field_of(&err), "MassData::mass", "{err}");
    let err = world.set_inertia_scale(body, 1e-40).unwrap_err();
    assert_eq!(field_of(&err), "inertia_scale", "{err}");
    assert_eq!(state(&world, body), before, "nothing changed");
    run(&mut world, 60);
    let position = world.position(body).unwrap();
    assert!((position.y - 0.5).abs() < 0.01, "{position:?}");
}

/// `dt = 0` pauses: nothing moves, the step's event lists are empty, and end events of calls
/// made before it are delivered by the next step that runs.
#[test]
fn zero_step_is_a_pause() {
    let mut world = world_with(SolverKind::SoftStep);
    let ground = add_ground(&mut world, 10.0);
    let falling = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 0.51)))
        .unwrap();
    let shape = world
        .create_polygon_shape(falling, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap())
        .unwrap();
    world.step(DT, SUBSTEPS).unwrap();
    assert_eq!(world.contact_events().begin.len(), 1, "the box lands");
    let before = state(&world, falling);
    let velocity = world.linear_velocity(falling).unwrap();
    assert!(velocity.y < 0.0, "falling at {velocity:?}");

    world.step(0.0, SUBSTEPS).unwrap();
    assert!(world.contact_events().begin.is_empty());
    assert!(world.contact_events().end.is_empty());
    assert!(world.body_events().sleep.is_empty() && world.body_events().wake.is_empty());
    assert!(world.joint_events().breaks.is_empty());
    assert_eq!(state(&world, falling), before, "nothing moved");
    assert_eq!(world.profile().total, 0.0);

    // An end event made between steps survives a pause and comes with the next real step.
    world.destroy_shape(shape).unwrap();
    world.step(0.0, SUBSTEPS).unwrap();
    assert!(world.contact_events().end.is_empty());
    world.step(DT, SUBSTEPS).unwrap();
    let ends = &world.contact_events().end;
    assert_eq!(ends.len(), 1, "{ends:?}");
    assert!(ends[0].shape_a == shape || ends[0].shape_b == shape);
    assert!(world.is_body_valid(ground));

    // Negative or non-finite steps are still errors; so is a pause with no substeps.
    assert!(matches!(
        world.step(-DT, SUBSTEPS),
        Err(PrismError::OutOfRange { field: "dt", .. })
    ));
    assert!(world.step(0.0, 0).is_err());
}

/// The report without a threshold flags a heavy block hung on a light thin link (effective-mass
/// ratio about 800) and not a link between equal boxes (ratio 1).
#[test]
fn mass_ratio_warnings_use_the_default_threshold() {
    assert_eq!(MassRatioWarning::DEFAULT_THRESHOLD, 10.0);
    let mut world = world_with(SolverKind::SoftStep);
    let ground = world.create_body(&BodyDef::fixed_at(Vec2::ZERO)).unwrap();
    let light = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, -1.0)))
        .unwrap();
    world
        .create_polygon_shape(light, &ShapeDef::default(), &make_box(0.05, 0.5).unwrap())
        .unwrap();
    let heavy = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, -2.5)))
        .unwrap();
    let dense = ShapeDef {
        density: 100.0,
        ..ShapeDef::default()
    };
    world
        .create_polygon_shape(heavy, &dense, &make_box(0.5, 0.5).unwrap())
        .unwrap();
    let hinge = |a, b, anchor_a: Vec2, anchor_b: Vec2| {
        RevoluteJointDef::new(JointDef {
            local_anchor_a: anchor_a,
            local_anchor_b: anchor_b,
            ..JointDef::new(a, b)
        })
    };
    world
        .create_revolute_joint(&hinge(ground, light, Vec2::ZERO, Vec2::new(0.0, 0.5)))
        .unwrap();
    let link = world
        .create_revolute_joint(&hinge(
            light,
            heavy,
            Vec2::new(0.0, -0.5),
            Vec2::new(0.0, 0.5),
        ))
        .unwrap();
    let twin = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(5.0, -1.0)))
        .unwrap();
    world
        .create_polygon_shape(twin, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap())
        .unwrap();
    let twin_b = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(6.0, -1.0)))
        .unwrap();
    world
        .create_polygon_shape(twin_b, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap())
        .unwrap();
    world
        .create_revolute_joint(&hinge(
            twin,
            twin_b,
            Vec2::new(0.5, 0.0),
            Vec2::new(-0.5, 0.0),
        ))
        .unwrap();
    for _ in 0..3 {
        let warnings = world.mass_ratio_warnings();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!(warnings[0].joint, link);
        assert!(warnings[0].ratio > 500.0, "{}", warnings[0].ratio);
        // The old call with the same threshold gives the same list.
        assert_eq!(world.mass_ratio_report(10.0).unwrap(), warnings);
        world.step(DT, SUBSTEPS).unwrap();
    }
}
