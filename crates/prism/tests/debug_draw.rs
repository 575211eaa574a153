//! `World::draw`: a recording drawer counts the calls of each kind against what the scene
//! holds, reads the colours of the shapes by their bodies' states, and checks the view box and
//! the option switches.

mod common;

use common::{DT, SUBSTEPS, add_ground};
use prism::{
    Aabb, BodyDef, BodyId, BodyType, Capsule, Circle, Color, DebugDraw, DrawOptions, PrismError,
    PrismaticJointDef, RevoluteJointDef, Segment, Shape, ShapeDef, Transform, Vec2, World,
    WorldDef, make_box, make_square,
};

/// The kinds of primitive a drawer receives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Polygon,
    Circle,
    Capsule,
    Segment,
    Point,
    Transform,
    Aabb,
}

/// One call: its kind, a representative point (a polygon's vertex mean, a circle's centre, a
/// capsule's or segment's midpoint, a box's centre) and its colour (none for transforms).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Call {
    kind: Kind,
    at: Vec2,
    color: Option<Color>,
}

#[derive(Default)]
struct Recorder {
    calls: Vec<Call>,
}

impl Recorder {
    fn push(&mut self, kind: Kind, at: Vec2, color: Option<Color>) {
        self.calls.push(Call { kind, at, color });
    }

    fn count(&self, kind: Kind) -> usize {
        self.calls.iter().filter(|c| c.kind == kind).count()
    }

    fn count_colored(&self, kind: Kind, color: Color) -> usize {
        let same = |c: &&Call| c.kind == kind && c.color == Some(color);
        self.calls.iter().filter(same).count()
    }
}

impl DebugDraw for Recorder {
    fn draw_solid_polygon(&mut self, vertices: &[Vec2], _radius: f32, color: Color) {
        let sum = vertices.iter().fold(Vec2::ZERO, |sum, &v| sum + v);
        self.push(Kind::Polygon, sum / vertices.len() as f32, Some(color));
    }

    fn draw_solid_circle(&mut self, transform: Transform, _radius: f32, color: Color) {
        self.push(Kind::Circle, transform.p, Some(color));
    }

    fn draw_solid_capsule(&mut self, p1: Vec2, p2: Vec2, _radius: f32, color: Color) {
        self.push(Kind::Capsule, 0.5 * (p1 + p2), Some(color));
    }

    fn draw_segment(&mut self, p1: Vec2, p2: Vec2, color: Color) {
        self.push(Kind::Segment, 0.5 * (p1 + p2), Some(color));
    }

    fn draw_point(&mut self, p: Vec2, _size: f32, color: Color) {
        self.push(Kind::Point, p, Some(color));
    }

    fn draw_transform(&mut self, transform: Transform) {
        self.push(Kind::Transform, transform.p, None);
    }

    fn draw_aabb(&mut self, aabb: Aabb, color: Color) {
        self.push(Kind::Aabb, aabb.center(), Some(color));
    }
}

/// The bodies of the scene, one per drawing state.
struct Scene {
    world: World,
    ground: BodyId,
    asleep: BodyId,
    awake: BodyId,
    kinematic: BodyId,
    sensor: BodyId,
    disabled: BodyId,
}

/// A ground box with a resting box that has fallen asleep; then a falling circle, a kinematic
/// capsule, a static sensor circle, a disabled box, a static segment, a three-link chain, and
/// two boxes hung from a shapeless pivot by a revolute and a prismatic joint; one more step.
fn scene() -> Scene {
    let mut world = World::new(WorldDef::default()).unwrap();
    let ground = add_ground(&mut world, 20.0);
    let asleep = add_box(&mut world, Vec2::new(-10.0, 0.5), 0.5);
    for _ in 0..120 {
        world.step(DT, SUBSTEPS).unwrap();
    }
    assert!(!world.is_awake(asleep).unwrap(), "the resting box sleeps");

    let def = ShapeDef::default();
    let awake = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(-5.0, 3.0)))
        .unwrap();
    world
        .create_circle_shape(awake, &def, &circle(0.5))
        .unwrap();
    let kinematic = world
        .create_body(&BodyDef::kinematic_at(Vec2::new(5.0, 5.0)))
        .unwrap();
    let capsule = Capsule {
        center1: Vec2::new(-0.5, 0.0),
        center2: Vec2::new(0.5, 0.0),
        radius: 0.25,
    };
    world
        .create_capsule_shape(kinematic, &def, &capsule)
        .unwrap();
    let sensor = world
        .create_body(&BodyDef::fixed_at(Vec2::new(10.0, 2.0)))
        .unwrap();
    let sensor_def = ShapeDef {
        is_sensor: true,
        ..ShapeDef::default()
    };
    world
        .create_circle_shape(sensor, &sensor_def, &circle(1.0))
        .unwrap();
    let disabled = add_box(&mut world, Vec2::new(15.0, 5.0), 0.5);
    world.disable_body(disabled).unwrap();

    let wall = world
        .create_body(&BodyDef::fixed_at(Vec2::new(0.0, 8.0)))
        .unwrap();
    let segment = Segment {
        point1: Vec2::new(-1.0, 0.0),
        point2: Vec2::new(1.0, 0.0),
    };
    world.create_segment_shape(wall, &def, &segment).unwrap();
    let points = [(-3.0, 12.0), (-1.0, 12.0), (1.0, 12.0), (3.0, 12.0)];
    let points: Vec<Vec2> = points.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
    world.create_chain(wall, &def, &points, false).unwrap();

    let pivot = world
        .create_body(&BodyDef::fixed_at(Vec2::new(-15.0, 8.0)))
        .unwrap();
    let swinging = add_box(&mut world, Vec2::new(-14.0, 8.0), 0.25);
    let sliding = add_box(&mut world, Vec2::new(-16.0, 8.0), 0.25);
    let anchor = Vec2::new(-15.0, 8.0);
    let base = world.anchored_joint_def(pivot, swinging, anchor).unwrap();
    world
        .create_revolute_joint(&RevoluteJointDef::new(base))
        .unwrap();
    let base = world.anchored_joint_def(pivot, sliding, anchor).unwrap();
    world
        .create_prismatic_joint(&PrismaticJointDef::new(base))
        .unwrap();

    world.step(DT, SUBSTEPS).unwrap();
    assert!(
        !world.is_awake(asleep).unwrap(),
        "nothing touched the sleeping box"
    );
    Scene {
        world,
        ground,
        asleep,
        awake,
        kinematic,
        sensor,
        disabled,
    }
}

fn circle(radius: f32) -> Circle {
    Circle {
        center: Vec2::ZERO,
        radius,
    }
}

fn add_box(world: &mut World, position: Vec2, half: f32) -> BodyId {
    let body = world.create_body(&BodyDef::dynamic_at(position)).unwrap();
    let square = make_square(half).unwrap();
    world
        .create_polygon_shape(body, &ShapeDef::default(), &square)
        .unwrap();
    body
}

fn record(world: &World, options: &DrawOptions) -> Recorder {
    let mut recorder = Recorder::default();
    world.draw(&mut recorder, options).unwrap();
    recorder
}

/// Every shape of the world with its body.
fn shapes(world: &World) -> Vec<(BodyId, Shape)> {
    let mut shapes = Vec::new();
    for body in world.body_ids() {
        for &shape in world.body_shapes(body).unwrap() {
            shapes.push((body, world.shape_geometry(shape).unwrap()));
        }
    }
    shapes
}

/// The number of manifold points of the touching contacts.
fn contact_points(world: &World) -> usize {
    world.contact_data().map(|c| c.manifold.point_count).sum()
}

#[test]
fn every_kind_is_drawn_once_per_thing_of_that_kind() {
    let Scene { world, .. } = scene();
    let options = DrawOptions::everything();
    let colors = options.colors;
    let drawn = record(&world, &options);

    let shapes = shapes(&world);
    let of_kind = |test: fn(&Shape) -> bool| shapes.iter().filter(|(_, s)| test(s)).count();
    let polygons = of_kind(|s| matches!(s, Shape::Polygon(_)));
    let circles = of_kind(|s| matches!(s, Shape::Circle(_)));
    let capsules = of_kind(|s| matches!(s, Shape::Capsule(_)));
    let lines = of_kind(|s| matches!(s, Shape::Segment(_) | Shape::ChainSegment(_)));
    assert_eq!((polygons, circles, capsules, lines), (5, 2, 1, 4));
    assert_eq!(drawn.count(Kind::Polygon), polygons);
    assert_eq!(drawn.count(Kind::Circle), circles);
    assert_eq!(drawn.count(Kind::Capsule), capsules);
    // The segment and the chain links are static, drawn in the static colour.
    assert_eq!(
        drawn.count_colored(Kind::Segment, colors.static_body),
        lines
    );

    // Three lines per joint, and the prismatic joint's axis.
    assert_eq!(world.joint_ids().len(), 2);
    assert_eq!(drawn.count_colored(Kind::Segment, colors.joint), 3 * 2);
    assert_eq!(drawn.count_colored(Kind::Segment, colors.joint_axis), 1);

    // A broadphase box per shape of an enabled body; a frame per enabled dynamic body.
    let enabled = |body: &BodyId| world.is_body_enabled(*body).unwrap();
    let boxed = shapes.iter().filter(|(body, _)| enabled(body)).count();
    assert_eq!(drawn.count(Kind::Aabb), boxed);
    assert_eq!(
        boxed,
        shapes.len() - 1,
        "the disabled box has no broadphase box"
    );
    let dynamic = world.body_ids().into_iter().filter(|b| enabled(b));
    let dynamic = dynamic.filter(|&b| world.body_type(b).unwrap() == BodyType::Dynamic);
    assert_eq!(drawn.count(Kind::Transform), dynamic.count());
    assert_eq!(drawn.count(Kind::Transform), 4);

    // A point and a normal per manifold point: the sleeping box rests on two.
    let points = contact_points(&world);
    assert!(points >= 2, "{points}");
    assert_eq!(drawn.count(Kind::Point), points);
    assert_eq!(
        drawn.count_colored(Kind::Segment, colors.contact_normal),
        points
    );

    let total = polygons + circles + capsules + lines + 7 + boxed + 4 + 2 * points;
    assert_eq!(drawn.calls.len(), total, "no other calls");
}

#[test]
fn shapes_are_coloured_by_their_bodies_state() {
    let scene = scene();
    let world = &scene.world;
    let options = DrawOptions::default();
    let colors = options.colors;
    let drawn = record(world, &options);
    let expected = [
        (scene.ground, colors.static_body),
        (scene.asleep, colors.asleep),
        (scene.awake, colors.awake),
        (scene.kinematic, colors.kinematic),
        (scene.sensor, colors.sensor),
        (scene.disabled, colors.disabled),
    ];
    let distinct: std::collections::HashSet<Color> = expected.iter().map(|e| e.1).collect();
    assert_eq!(distinct.len(), expected.len(), "six different colours");
    for (body, color) in expected {
        let position = world.position(body).unwrap();
        let shape = drawn
            .calls
            .iter()
            .find(|c| c.kind != Kind::Segment && c.at.distance(position) < 1e-3)
            .unwrap_or_else(|| panic!("no shape drawn at {position:?}"));
        assert_eq!(shape.color, Some(color), "body at {position:?}");
    }
    // Sleep changes the colour: wake the sleeping box and it is drawn awake.
    let mut world = scene.world;
    world
        .set_linear_velocity(scene.asleep, Vec2::new(0.0, 1.0))
        .unwrap();
    let drawn = record(&world, &options);
    let position = world.position(scene.asleep).unwrap();
    let shape = drawn.calls.iter().find(|c| c.at.distance(position) < 1e-3);
    assert_eq!(shape.unwrap().color, Some(colors.awake));
}

#[test]
fn the_view_box_culls_what_lies_outside_it() {
    let Scene { world, .. } = scene();
    // Around the sleeping box and the falling circle; the ground crosses it.
    let view = Aabb::new(Vec2::new(-12.0, -2.0), Vec2::new(-4.0, 4.0));
    let options = DrawOptions {
        view: Some(view),
        ..DrawOptions::everything()
    };
    let drawn = record(&world, &options);

    let mut inside = 0;
    for body in world.body_ids() {
        for &shape in world.body_shapes(body).unwrap() {
            inside += usize::from(world.shape_aabb(shape).unwrap().overlaps(&view));
        }
    }
    let shape_calls = drawn.count(Kind::Polygon) + drawn.count(Kind::Circle);
    let shape_calls = shape_calls + drawn.count(Kind::Capsule);
    let static_lines = drawn.count_colored(Kind::Segment, options.colors.static_body);
    assert_eq!(inside, 3, "ground, sleeping box, circle");
    assert_eq!(shape_calls + static_lines, inside);
    assert_eq!(drawn.count_colored(Kind::Segment, options.colors.joint), 0);
    assert_eq!(drawn.count(Kind::Transform), 2, "sleeping box and circle");
    // The contact points are all in view, and every one in view is drawn.
    let points: Vec<Vec2> = drawn
        .calls
        .iter()
        .filter(|c| c.kind == Kind::Point)
        .map(|c| c.at)
        .collect();
    assert_eq!(points.len(), contact_points(&world));
    assert!(points.iter().all(|&p| view.overlaps(&Aabb::new(p, p))));

    // A view where nothing is draws nothing.
    let empty = Aabb::new(Vec2::new(100.0, 100.0), Vec2::new(101.0, 101.0));
    let options = DrawOptions {
        view: Some(empty),
        ..DrawOptions::everything()
    };
    assert!(record(&world, &options).calls.is_empty());
}

#[test]
fn a_switched_off_kind_draws_nothing_of_that_kind() {
    let Scene { world, .. } = scene();
    let colors = DrawOptions::default().colors;
    let off = |change: fn(&mut DrawOptions)| {
        let mut options = DrawOptions::everything();
        change(&mut options);
        record(&world, &options)
    };

    let drawn = off(|o| o.shapes = false);
    let solids = drawn.count(Kind::Polygon) + drawn.count(Kind::Circle);
    assert_eq!(solids + drawn.count(Kind::Capsule), 0);
    assert_eq!(drawn.count_colored(Kind::Segment, colors.static_body), 0);
    assert!(drawn.count(Kind::Aabb) > 0, "the rest still drawn");

    let drawn = off(|o| o.joints = false);
    assert_eq!(drawn.count_colored(Kind::Segment, colors.joint), 0);
    assert_eq!(drawn.count_colored(Kind::Segment, colors.joint_axis), 0);
    assert!(drawn.count(Kind::Polygon) > 0);

    assert_eq!(off(|o| o.aabbs = false).count(Kind::Aabb), 0);
    assert_eq!(off(|o| o.centers_of_mass = false).count(Kind::Transform), 0);
    assert_eq!(off(|o| o.contacts = false).count(Kind::Point), 0);
    let drawn = off(|o| o.contact_normals = false);
    assert_eq!(drawn.count_colored(Kind::Segment, colors.contact_normal), 0);
    assert_eq!(drawn.count(Kind::Point), contact_points(&world));

    let nothing = off(|o| {
        o.shapes = false;
        o.joints = false;
        o.aabbs = false;
        o.centers_of_mass = false;
        o.contacts = false;
        o.contact_normals = false;
    });
    assert!(nothing.calls.is_empty());

    // The defaults draw shapes and joints only.
    let drawn = record(&world, &DrawOptions::default());
    let kinds = [Kind::Point, Kind::Transform, Kind::Aabb];
    assert!(kinds.iter().all(|&k| drawn.count(k) == 0));
    assert_eq!(drawn.count_colored(Kind::Segment, colors.joint), 6);
}

#[test]
fn two_draws_of_the_same_world_make_the_same_calls() {
    let Scene { world, .. } = scene();
    let options = DrawOptions::everything();
    assert_eq!(
        record(&world, &options).calls,
        record(&world, &options).calls
    );
}

#[test]
fn bad_options_are_refused_and_draw_nothing() {
    let mut world = World::new(WorldDef::default()).unwrap();
    let body = world.create_body(&BodyDef::dynamic_at(Vec2::ZERO)).unwrap();
    let square = make_box(1.0, 1.0).unwrap();
    world
        .create_polygon_shape(body, &ShapeDef::default(), &square)
        .unwrap();
    let cases = [
        (
            Some(Aabb::new(Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0))),
            1.0,
            "DrawOptions::view",
        ),
        (
            Some(Aabb::new(Vec2::new(f32::NAN, 0.0), Vec2::new(1.0, 1.0))),
            1.0,
            "DrawOptions::view.min",
        ),
        (None, -1.0, "DrawOptions::point_size"),
    ];
    for (view, point_size, field) in cases {
        let options = DrawOptions {
            view,
            point_size,
            ..DrawOptions::default()
        };
        let mut recorder = Recorder::default();
        let error = world.draw(&mut recorder, &options).unwrap_err();
        let named = match &error {
            PrismError::NonFinite { field, .. } | PrismError::OutOfRange { field, .. } => *field,
            other => panic!("unexpected error {other:?}"),
        };
        assert_eq!(named, field, "{error}");
        assert!(recorder.calls.is_empty());
    }
}
