//! Shape setters mid-simulation: friction and restitution reach the existing contacts,
//! density recomputes the mass, a filter change re-filters contacts, the event flag reaches
//! the existing contacts.

mod common;

use common::{DT, SUBSTEPS, add_ground, run, world_with};
use prism::{
    BodyDef, BodyId, Circle, Filter, PrismError, QueryFilter, Rot, ShapeDef, ShapeId, SolverKind,
    Vec2, World, make_box, make_offset_box,
};

/// A unit box resting on the ground (after half a second), and its shape.
fn resting_box(world: &mut World) -> (BodyId, ShapeId) {
    let body = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 0.5)))
        .unwrap();
    let shape = world
        .create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap())
        .unwrap();
    run(world, 30);
    (body, shape)
}

#[test]
fn friction_reaches_a_sliding_contact() {
    let mut world = world_with(SolverKind::SoftStep);
    world.set_sleep_enabled(false);
    add_ground(&mut world, 50.0);
    let (body, shape) = resting_box(&mut world);
    world
        .set_linear_velocity(body, Vec2::new(2.0, 0.0))
        .unwrap();
    // Frictionless, the box keeps its speed.
    world.set_shape_friction(shape, 0.0).unwrap();
    assert_eq!(world.shape_friction(shape).unwrap(), 0.0);
    run(&mut world, 30);
    let v = world.linear_velocity(body).unwrap().x;
    assert!((v - 2.0).abs() < 1e-3, "{v}");
    // Friction back at 0.6 against the ground's 0.6: μ = √(0.6·0.6), a deceleration of
    // μ·g = 6 m/s², so 10 steps (1/6 s) take 1 m/s off.
    world.set_shape_friction(shape, 0.6).unwrap();
    run(&mut world, 10);
    let v = world.linear_velocity(body).unwrap().x;
    assert!((v - 1.0).abs() < 0.05, "{v}");
    let err = world.set_shape_friction(shape, -0.1).unwrap_err();
    assert!(
        matches!(err, PrismError::OutOfRange { field: "friction", value, .. } if value == -0.1)
    );
    assert_eq!(
        world.shape_friction(shape).unwrap(),
        0.6,
        "unchanged on error"
    );
}

/// A ball made bouncy after its contact with the ground exists (speculatively, before the
/// impact) rebounds with the new restitution. No gravity: it approaches at 1.1 m/s (above the
/// 1 m/s restitution threshold, and under the 2 cm speculative distance per step, so the
/// contact exists a step before the impact) and leaves at e·1.1 m/s.
#[test]
fn restitution_reaches_an_existing_contact() {
    let (radius, speed) = (0.25, 1.1);
    let mut world = world_with(SolverKind::SoftStep);
    world.set_gravity(Vec2::ZERO).unwrap();
    add_ground(&mut world, 10.0);
    let ball = world
        .create_body(&BodyDef {
            linear_velocity: Vec2::new(0.0, -speed),
            ..BodyDef::dynamic_at(Vec2::new(0.0, 0.3 + radius))
        })
        .unwrap();
    let circle = Circle {
        center: Vec2::ZERO,
        radius,
    };
    let shape = world
        .create_circle_shape(ball, &ShapeDef::default(), &circle)
        .unwrap();
    let mut steps = 0;
    while world.counters().contacts == 0 {
        world.step(DT, SUBSTEPS).unwrap();
        steps += 1;
        assert!(steps < 100, "no contact before the impact");
    }
    let vy = world.linear_velocity(ball).unwrap().y;
    assert!((vy + speed).abs() < 1e-5, "not yet bounced: {vy}");
    let restitution = 0.8;
    world.set_shape_restitution(shape, restitution).unwrap();
    assert_eq!(world.shape_restitution(shape).unwrap(), restitution);
    run(&mut world, 30);
    let vy = world.linear_velocity(ball).unwrap().y;
    let expected = restitution * speed;
    assert!(
        (vy - expected).abs() < 0.03 * expected,
        "rebound at {vy} m/s, expected {expected} m/s"
    );
}

/// Two unit boxes side by side on one body, 2 m apart; the right one made three times as
/// dense: mass 1 + 3, centre (−1·1 + 1·3)/4 = 0.5, inertia Σ mᵢ(1/6 + dᵢ²) with d = 1.5, 0.5.
#[test]
fn density_recomputes_the_mass() {
    let mut world = world_with(SolverKind::SoftStep);
    let body = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 5.0)))
        .unwrap();
    let def = ShapeDef::default();
    let left = make_offset_box(0.5, 0.5, Vec2::new(-1.0, 0.0), Rot::IDENTITY).unwrap();
    let right = make_offset_box(0.5, 0.5, Vec2::new(1.0, 0.0), Rot::IDENTITY).unwrap();
    world.create_polygon_shape(body, &def, &left).unwrap();
    let heavy = world.create_polygon_shape(body, &def, &right).unwrap();
    run(&mut world, 5);
    world.set_shape_density(heavy, 3.0).unwrap();
    assert_eq!(world.shape_density(heavy).unwrap(), 3.0);
    let mass = world.mass_data(body).unwrap();
    assert!((mass.mass - 4.0).abs() < 1e-5, "{mass:?}");
    assert!(
        (mass.center - Vec2::new(0.5, 0.0)).length() < 1e-5,
        "{mass:?}"
    );
    let inertia = (1.0 / 6.0 + 2.25) + 3.0 * (1.0 / 6.0 + 0.25);
    assert!(
        (mass.rotational_inertia - inertia).abs() < 1e-4,
        "{mass:?} vs {inertia}"
    );
    assert!(world.is_awake(body).unwrap());
    // The world steps on with the new mass (the validate build checks every copy of it).
    run(&mut world, 5);
    let err = world.set_shape_density(heavy, f32::NAN).unwrap_err();
    assert!(matches!(
        err,
        PrismError::NonFinite {
            field: "density",
            ..
        }
    ));
}

/// A box resting on the ground: a mask that refuses the ground destroys their contact at once
/// (its end event comes with the next step); restoring the mask lets the next pair update find
/// the pair again, so the box, which has not moved far, still rests.
#[test]
fn a_filter_change_refilters_contacts() {
    let mut world = world_with(SolverKind::SoftStep);
    let ground = add_ground(&mut world, 10.0);
    let ground_shape = world.body_shapes(ground).unwrap()[0];
    let (body, shape) = resting_box(&mut world);
    assert_eq!(world.body_contact_data(body).unwrap().len(), 1);
    let deaf = Filter {
        mask_bits: !1,
        ..Filter::default()
    };
    world.set_shape_filter(shape, deaf).unwrap();
    assert_eq!(world.shape_filter(shape).unwrap(), deaf);
    assert_eq!(world.counters().contacts, 0, "refused contact destroyed");
    world.step(DT, SUBSTEPS).unwrap();
    let ends = &world.contact_events().end;
    assert_eq!(ends.len(), 1);
    let pair = [ends[0].shape_a, ends[0].shape_b];
    assert!(pair.contains(&shape) && pair.contains(&ground_shape));
    assert_eq!(
        world.counters().contacts,
        0,
        "the pair update refuses it too"
    );

    world.set_shape_filter(shape, Filter::default()).unwrap();
    run(&mut world, 60);
    let y = world.position(body).unwrap().y;
    assert!((y - 0.5).abs() < 0.02, "the box fell through: y = {y}");
    assert_eq!(world.body_contact_data(body).unwrap().len(), 1);

    // A new category the ground still accepts keeps the contact (and its warm start), and
    // queries see the new category at once: the tree's pruning bits follow the filter.
    let before = world.body_contact_data(body).unwrap()[0].manifold;
    let recategorised = Filter {
        category_bits: 4,
        ..Filter::default()
    };
    world.set_shape_filter(shape, recategorised).unwrap();
    let kept = world.body_contact_data(body).unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(
        kept[0].manifold, before,
        "the contact keeps its manifold and impulses"
    );
    let fours = QueryFilter {
        category_bits: 1,
        mask_bits: 4,
    };
    let found = world.overlap_point(Vec2::new(0.0, 0.5), fours).unwrap();
    assert_eq!(found, [shape]);
    run(&mut world, 10);
    let y = world.position(body).unwrap().y;
    assert!((y - 0.5).abs() < 0.02, "y = {y}");
}

/// Both shapes start without contact events; enabling them on one shape reaches the contact
/// that already exists: lifting the box away ends it with an event.
#[test]
fn the_event_flag_reaches_existing_contacts() {
    let mut world = world_with(SolverKind::SoftStep);
    let quiet = ShapeDef {
        enable_contact_events: false,
        ..ShapeDef::default()
    };
    let ground = world
        .create_body(&BodyDef::fixed_at(Vec2::new(0.0, -1.0)))
        .unwrap();
    world
        .create_polygon_shape(ground, &quiet, &make_box(10.0, 1.0).unwrap())
        .unwrap();
    let body = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 0.5)))
        .unwrap();
    let shape = world
        .create_polygon_shape(body, &quiet, &make_box(0.5, 0.5).unwrap())
        .unwrap();
    world.step(DT, SUBSTEPS).unwrap();
    assert!(world.contact_events().begin.is_empty(), "events are off");
    assert_eq!(world.counters().touching_contacts, 1);
    world.set_shape_contact_events_enabled(shape, true).unwrap();
    assert!(world.shape_contact_events_enabled(shape).unwrap());
    world
        .set_transform(body, Vec2::new(0.0, 5.0), Rot::IDENTITY)
        .unwrap();
    world.step(DT, SUBSTEPS).unwrap();
    assert_eq!(world.contact_events().end.len(), 1);
}
