//! Bad input: each class returns the right error, nothing is half-created, and the world keeps
//! working.

mod common;

use common::{DT, SUBSTEPS, add_ground, run, world_with};
use prism::{
    BodyDef, Capsule, Circle, HullError, IdKind, MassData, Polygon, PrismError, Segment, ShapeDef,
    SolverKind, Vec2, World, WorldDef, make_box, make_polygon,
};

fn world_with_a_box() -> (World, prism::BodyId) {
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

/// The world still steps and the box still lands.
fn assert_usable(world: &mut World, body: prism::BodyId) {
    run(world, 90);
    let y = world.position(body).unwrap().y;
    assert!((y - 0.5).abs() < 0.01, "box at y = {y}");
}

#[test]
fn nan_position_is_rejected() {
    let (mut world, body) = world_with_a_box();
    let before = world.counters();
    let def = BodyDef::dynamic_at(Vec2::new(f32::NAN, 0.0));
    let err = world.create_body(&def).unwrap_err();
    assert!(
        matches!(err, PrismError::NonFinite { field: "BodyDef::position", value } if value.is_nan())
    );
    assert!(err.to_string().contains("BodyDef::position"), "{err}");
    assert_eq!(world.counters(), before, "nothing created");
    let err = world
        .set_transform(body, Vec2::new(0.0, f32::INFINITY), prism::Rot::IDENTITY)
        .unwrap_err();
    assert!(
        matches!(err, PrismError::NonFinite { field: "position", value } if value == f32::INFINITY)
    );
    let err = world
        .apply_force_to_center(body, Vec2::new(f32::NAN, 0.0))
        .unwrap_err();
    assert!(matches!(err, PrismError::NonFinite { field: "force", .. }));
    let err = world
        .set_linear_velocity(body, Vec2::new(0.0, f32::NEG_INFINITY))
        .unwrap_err();
    assert!(matches!(
        err,
        PrismError::NonFinite {
            field: "velocity",
            ..
        }
    ));
    assert_usable(&mut world, body);
}

#[test]
fn bad_density_friction_and_dimensions_are_rejected() {
    let (mut world, body) = world_with_a_box();
    let before = world.counters();
    let square = make_box(0.5, 0.5).unwrap();
    let cases = [
        (
            ShapeDef {
                density: -1.0,
                ..ShapeDef::default()
            },
            "ShapeDef::density",
        ),
        (
            ShapeDef {
                density: f32::NAN,
                ..ShapeDef::default()
            },
            "ShapeDef::density",
        ),
        (
            ShapeDef {
                friction: -0.1,
                ..ShapeDef::default()
            },
            "ShapeDef::friction",
        ),
        (
            ShapeDef {
                restitution: f32::NAN,
                ..ShapeDef::default()
            },
            "ShapeDef::restitution",
        ),
    ];
    for (def, field) in cases {
        let err = world.create_polygon_shape(body, &def, &square).unwrap_err();
        let named = match err {
            PrismError::OutOfRange { field, .. } | PrismError::NonFinite { field, .. } => field,
            other => panic!("unexpected {other:?}"),
        };
        assert_eq!(named, field);
    }
    let err = world
        .create_circle_shape(
            body,
            &ShapeDef::default(),
            &Circle {
                center: Vec2::ZERO,
                radius: -1.0,
            },
        )
        .unwrap_err();
    assert!(
        matches!(err, PrismError::OutOfRange { field: "Circle::radius", value, .. } if value == -1.0)
    );
    let capsule = Capsule {
        center1: Vec2::ZERO,
        center2: Vec2::X,
        radius: f32::INFINITY,
    };
    let err = world
        .create_capsule_shape(body, &ShapeDef::default(), &capsule)
        .unwrap_err();
    assert!(matches!(
        err,
        PrismError::NonFinite {
            field: "Capsule::radius",
            ..
        }
    ));
    let segment = Segment {
        point1: Vec2::ONE,
        point2: Vec2::ONE,
    };
    let err = world
        .create_segment_shape(body, &ShapeDef::default(), &segment)
        .unwrap_err();
    assert!(matches!(
        err,
        PrismError::OutOfRange {
            field: "Segment length",
            ..
        }
    ));
    assert_eq!(world.counters(), before, "nothing created");
    assert_eq!(world.mass_data(body).unwrap().mass, 1.0, "mass untouched");
    assert_usable(&mut world, body);
}

#[test]
fn zero_density_is_allowed_and_gives_the_default_mass() {
    let mut world = world_with(SolverKind::SoftStep);
    let body = world.create_body(&BodyDef::dynamic_at(Vec2::ZERO)).unwrap();
    let massless = ShapeDef {
        density: 0.0,
        ..ShapeDef::default()
    };
    world
        .create_polygon_shape(body, &massless, &make_box(1.0, 1.0).unwrap())
        .unwrap();
    let mass = world.mass_data(body).unwrap();
    assert_eq!((mass.mass, mass.rotational_inertia), (1.0, 0.0));
}

#[test]
fn degenerate_polygons_are_rejected() {
    let (mut world, body) = world_with_a_box();
    let before = world.counters();
    let collinear = [
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(2.0, 0.0),
    ];
    let err: PrismError = make_polygon(&collinear, 0.0).unwrap_err().into();
    assert_eq!(err, PrismError::DegeneratePolygon(HullError::Collinear));

    let two_vertices = Polygon {
        count: 2,
        ..make_box(1.0, 1.0).unwrap()
    };
    let err = world
        .create_polygon_shape(body, &ShapeDef::default(), &two_vertices)
        .unwrap_err();
    assert_eq!(
        err,
        PrismError::DegeneratePolygon(HullError::TooFewPoints { distinct: 2 })
    );

    let mut flattened = make_box(1.0, 1.0).unwrap();
    for v in &mut flattened.vertices[..4] {
        v.y = 0.0;
    }
    let err = world
        .create_polygon_shape(body, &ShapeDef::default(), &flattened)
        .unwrap_err();
    assert_eq!(err, PrismError::DegeneratePolygon(HullError::Collinear));

    let mut poisoned = make_box(1.0, 1.0).unwrap();
    poisoned.vertices[2].x = f32::NAN;
    let err = world
        .create_polygon_shape(body, &ShapeDef::default(), &poisoned)
        .unwrap_err();
    assert_eq!(
        err,
        PrismError::DegeneratePolygon(HullError::NonFinite { index: 2 })
    );
    assert_eq!(world.counters(), before);
    assert_usable(&mut world, body);
}

#[test]
fn bad_chains_are_rejected() {
    let (mut world, body) = world_with_a_box();
    let err = world
        .create_chain(body, &ShapeDef::default(), &[Vec2::ZERO, Vec2::X], true)
        .unwrap_err();
    assert!(matches!(
        err,
        PrismError::InvalidChain(prism::ChainError::TooFewPoints { count: 2, min: 3 })
    ));
    let links = world
        .create_chain(
            body,
            &ShapeDef::default(),
            &[Vec2::ZERO, Vec2::X, Vec2::ONE],
            false,
        )
        .unwrap();
    assert_eq!(links.len(), 2);
}

#[test]
fn stale_ids_are_rejected_after_destroy() {
    let (mut world, body) = world_with_a_box();
    let doomed = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(3.0, 1.0)))
        .unwrap();
    let doomed_shape = world
        .create_circle_shape(
            doomed,
            &ShapeDef::default(),
            &Circle {
                center: Vec2::ZERO,
                radius: 0.5,
            },
        )
        .unwrap();
    run(&mut world, 10);
    world.destroy_body(doomed).unwrap();
    let expected = PrismError::InvalidId {
        kind: IdKind::Body,
        index: doomed.index(),
        generation: doomed.generation(),
    };
    assert_eq!(world.position(doomed).unwrap_err(), expected);
    assert_eq!(world.destroy_body(doomed).unwrap_err(), expected);
    assert_eq!(world.apply_torque(doomed, 1.0).unwrap_err(), expected);
    assert!(matches!(
        world.shape_body(doomed_shape),
        Err(PrismError::InvalidId {
            kind: IdKind::Shape,
            ..
        })
    ));
    // The slot is reused by the next body, and the old id still does not reach it.
    let newcomer = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(3.0, 1.0)))
        .unwrap();
    assert_eq!(newcomer.index(), doomed.index());
    assert_ne!(newcomer.generation(), doomed.generation());
    assert!(world.position(doomed).is_err());
    assert_usable(&mut world, body);
}

#[test]
fn bad_step_arguments_are_rejected() {
    let (mut world, body) = world_with_a_box();
    let y0 = world.position(body).unwrap().y;
    assert_eq!(
        world.step(DT, 0).unwrap_err(),
        PrismError::InvalidCount {
            field: "substeps",
            value: 0,
            requirement: "at least 1"
        }
    );
    let err = world.step(f32::NAN, SUBSTEPS).unwrap_err();
    assert!(matches!(err, PrismError::NonFinite { field: "dt", value } if value.is_nan()));
    let err = world.step(-DT, SUBSTEPS).unwrap_err();
    assert!(matches!(err, PrismError::OutOfRange { field: "dt", .. }));
    assert_eq!(world.position(body).unwrap().y, y0, "no step happened");
    assert_usable(&mut world, body);
}

#[test]
fn bad_world_and_mass_definitions_are_rejected() {
    let err = World::new(WorldDef {
        contact_hertz: 0.0,
        ..WorldDef::default()
    })
    .err()
    .unwrap();
    assert!(matches!(
        err,
        PrismError::OutOfRange {
            field: "WorldDef::contact_hertz",
            ..
        }
    ));
    let err = World::new(WorldDef {
        gravity: Vec2::new(0.0, f32::NAN),
        ..WorldDef::default()
    })
    .err()
    .unwrap();
    assert!(matches!(
        err,
        PrismError::NonFinite {
            field: "WorldDef::gravity",
            ..
        }
    ));
    let (mut world, body) = world_with_a_box();
    let bad = MassData {
        mass: -2.0,
        center: Vec2::ZERO,
        rotational_inertia: 1.0,
    };
    let err = world.set_mass_data(body, bad).unwrap_err();
    assert!(matches!(
        err,
        PrismError::OutOfRange {
            field: "MassData::mass",
            ..
        }
    ));
}
