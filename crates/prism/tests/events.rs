//! Contact begin/end events: exactly the pairs and counts the scene implies.

mod common;

use common::{DT, SUBSTEPS, add_ground, world_with};
use prism::{
    BodyDef, BodyId, ContactEvents, Rot, ShapeDef, ShapeId, SolverKind, Vec2, World, make_box,
};

/// A pair as an unordered key, so tests do not depend on which shape is A.
fn pair(a: ShapeId, b: ShapeId) -> (ShapeId, ShapeId) {
    if a.index() < b.index() {
        (a, b)
    } else {
        (b, a)
    }
}

fn begins(events: &ContactEvents) -> Pairs {
    events
        .begin
        .iter()
        .map(|e| pair(e.shape_a, e.shape_b))
        .collect()
}

fn ends(events: &ContactEvents) -> Pairs {
    events
        .end
        .iter()
        .map(|e| pair(e.shape_a, e.shape_b))
        .collect()
}

/// Shape pairs, each as [`pair`] orders it.
type Pairs = Vec<(ShapeId, ShapeId)>;

/// Steps `count` times and collects every begin and end event.
fn collect(world: &mut World, count: usize) -> (Pairs, Pairs) {
    let (mut all_begins, mut all_ends) = (Vec::new(), Vec::new());
    for _ in 0..count {
        world.step(DT, SUBSTEPS).unwrap();
        all_begins.extend(begins(world.contact_events()));
        all_ends.extend(ends(world.contact_events()));
    }
    (all_begins, all_ends)
}

struct Scene {
    world: World,
    ground_shape: ShapeId,
    left: BodyId,
    left_shape: ShapeId,
    right: BodyId,
    right_shape: ShapeId,
}

/// Two boxes 3 m apart dropped onto the ground from different heights.
fn scene() -> Scene {
    let mut world = world_with(SolverKind::SoftStep);
    let ground = add_ground(&mut world, 20.0);
    let ground_shape = world.body_shapes(ground).unwrap()[0];
    let mut drop = |x: f32, y: f32| {
        let body = world
            .create_body(&BodyDef::dynamic_at(Vec2::new(x, y)))
            .unwrap();
        let shape = world
            .create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap())
            .unwrap();
        (body, shape)
    };
    let (left, left_shape) = drop(-1.5, 1.0);
    let (right, right_shape) = drop(1.5, 2.5);
    Scene {
        world,
        ground_shape,
        left,
        left_shape,
        right,
        right_shape,
    }
}

#[test]
fn each_landing_begins_one_contact_and_resting_ends_none() {
    let mut s = scene();
    let (begun, ended) = collect(&mut s.world, 120);
    let mut expected = vec![
        pair(s.ground_shape, s.left_shape),
        pair(s.ground_shape, s.right_shape),
    ];
    expected.sort_by_key(|p| (p.0.index(), p.1.index()));
    let mut sorted = begun.clone();
    sorted.sort_by_key(|p| (p.0.index(), p.1.index()));
    assert_eq!(sorted, expected, "begin events");
    assert!(ended.is_empty(), "unexpected end events {ended:?}");
    // The lower box lands first.
    assert_eq!(begun[0], pair(s.ground_shape, s.left_shape));
    let touching = s.world.counters().touching_contacts;
    assert_eq!(touching, 2);
}

#[test]
fn lifting_a_box_away_ends_its_contact_and_dropping_it_begins_it_again() {
    let mut s = scene();
    collect(&mut s.world, 120);
    s.world
        .set_transform(s.left, Vec2::new(-1.5, 6.0), Rot::IDENTITY)
        .unwrap();
    s.world.set_linear_velocity(s.left, Vec2::ZERO).unwrap();
    let (begun, ended) = collect(&mut s.world, 1);
    assert!(begun.is_empty(), "{begun:?}");
    assert_eq!(ended, vec![pair(s.ground_shape, s.left_shape)]);
    assert_eq!(
        s.world.counters().contacts,
        1,
        "the lifted box's contact is destroyed"
    );
    // It falls 5.5 m: about 1.05 s.
    let (begun, ended) = collect(&mut s.world, 120);
    assert_eq!(begun, vec![pair(s.ground_shape, s.left_shape)]);
    assert!(ended.is_empty(), "{ended:?}");
}

#[test]
fn destroying_a_body_ends_its_touching_contacts() {
    let mut s = scene();
    collect(&mut s.world, 120);
    s.world.destroy_body(s.right).unwrap();
    assert_eq!(s.world.counters().contacts, 1);
    let (begun, ended) = collect(&mut s.world, 1);
    assert!(begun.is_empty());
    assert_eq!(ended, vec![pair(s.ground_shape, s.right_shape)]);
    // Delivered once only.
    let (_, ended) = collect(&mut s.world, 1);
    assert!(ended.is_empty());
}

#[test]
fn destroying_a_shape_ends_its_touching_contact() {
    let mut s = scene();
    collect(&mut s.world, 120);
    s.world.destroy_shape(s.left_shape).unwrap();
    let (_, ended) = collect(&mut s.world, 1);
    assert_eq!(ended, vec![pair(s.ground_shape, s.left_shape)]);
    assert!(s.world.is_body_valid(s.left), "the body survives its shape");
}

#[test]
fn shapes_without_events_report_nothing() {
    let mut world = world_with(SolverKind::SoftStep);
    let quiet = ShapeDef {
        enable_contact_events: false,
        ..ShapeDef::default()
    };
    let ground = world
        .create_body(&BodyDef::fixed_at(Vec2::new(0.0, -1.0)))
        .unwrap();
    world
        .create_polygon_shape(ground, &quiet, &make_box(20.0, 1.0).unwrap())
        .unwrap();
    let body = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 1.0)))
        .unwrap();
    world
        .create_polygon_shape(body, &quiet, &make_box(0.5, 0.5).unwrap())
        .unwrap();
    let (begun, _) = collect(&mut world, 60);
    assert!(begun.is_empty());
    assert_eq!(
        world.counters().touching_contacts,
        1,
        "the contact exists, silently"
    );
}

#[test]
fn begin_event_carries_the_manifold() {
    let mut s = scene();
    for _ in 0..120 {
        s.world.step(DT, SUBSTEPS).unwrap();
        if let Some(event) = s.world.contact_events().begin.first() {
            assert!(
                event.manifold.point_count == 2,
                "box on ground touches at two corners"
            );
            let normal = if event.shape_a == s.ground_shape {
                event.manifold.normal
            } else {
                -event.manifold.normal
            };
            assert!(
                (normal - Vec2::Y).length() < 1e-4,
                "normal {normal:?} points up from the ground"
            );
            return;
        }
    }
    panic!("no begin event");
}

#[test]
fn resting_contacts_carry_the_weight() {
    let mut s = scene();
    collect(&mut s.world, 120);
    let contacts: Vec<_> = s.world.contact_data().collect();
    assert_eq!(contacts.len(), 2);
    let under_left = s.world.body_contact_data(s.left).unwrap();
    assert_eq!(under_left.len(), 1);
    assert_eq!(
        pair(under_left[0].shape_a, under_left[0].shape_b),
        pair(s.ground_shape, s.left_shape)
    );
    // At rest the soft-step solver's impulse over one substep h = dt/4 balances gravity:
    // m·g·h = 1 kg · 10 m/s² · (1/240) s.
    let impulse: f32 = under_left[0]
        .manifold
        .points()
        .iter()
        .map(|p| p.normal_impulse)
        .sum();
    let weight_impulse = 1.0 * 10.0 * DT / SUBSTEPS as f32;
    assert!(
        (impulse - weight_impulse).abs() < 0.01 * weight_impulse,
        "impulse {impulse} vs {weight_impulse}"
    );
}

/// A contact exists from when two fat boxes overlap, touching or not. Unit boxes (half
/// extent 0.5, radius √0.5 ≈ 0.71 m) have the capped fat margin of 5 cm, and each box's proxy
/// stands for its box grown by the speculative distance (2 cm): the fat boxes of two boxes
/// side by side overlap while the gap between them is under 2 · (0.02 + 0.05) = 0.14 m, and
/// the boxes touch (their manifold has points) only within the speculative distance, 0.02 m.
/// So at a gap of 0.06 m the pair has a contact that does not touch, and at 0.2 m none.
#[test]
fn body_contact_count_includes_contacts_that_do_not_touch() {
    let mut world = World::new(prism::WorldDef {
        gravity: Vec2::ZERO,
        ..prism::WorldDef::default()
    })
    .unwrap();
    let mut place = |x: f32| {
        let body = world
            .create_body(&BodyDef::dynamic_at(Vec2::new(x, 0.0)))
            .unwrap();
        let shape = &make_box(0.5, 0.5).unwrap();
        world
            .create_polygon_shape(body, &ShapeDef::default(), shape)
            .unwrap();
        body
    };
    let a = place(0.0);
    let b = place(1.06);
    let c = place(2.26);
    world.step(DT, SUBSTEPS).unwrap();
    assert_eq!(world.body_contact_count(a).unwrap(), 1);
    assert_eq!(world.body_contact_count(b).unwrap(), 1);
    assert_eq!(world.body_contact_count(c).unwrap(), 0);
    assert!(world.body_contact_data(a).unwrap().is_empty());
    assert_eq!(world.counters().touching_contacts, 0);
    world.destroy_body(a).unwrap();
    assert!(world.body_contact_count(a).is_err());
    assert_eq!(world.body_contact_count(b).unwrap(), 0);
}
