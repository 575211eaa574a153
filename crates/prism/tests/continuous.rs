//! Continuous collision: fast bodies do not pass through thin obstacles.
//!
//! A body stopped by continuous collision is moved back along its motion to the time of
//! impact, where the time-of-impact search leaves the cores of the two shapes between the
//! target and the target plus a quarter slop apart: a linear slop between sharp shapes, a slop
//! of overlap for rounded ones (a circle against a box: its centre `r − slop` from the face).
//! The checks below use those windows; after the impact the contact solver takes over, and the
//! checks are that the body stays on the near side.

mod common;

use common::{DT, SUBSTEPS, world_hash};
use prism::{
    BodyDef, BodyId, Capsule, Circle, LINEAR_SLOP, Rot, ShapeDef, Transform, Vec2, World, WorldDef,
    make_box, make_square,
};

/// How far above the target a time of impact may stop the shapes.
const TOI_TOLERANCE: f32 = 0.25 * LINEAR_SLOP;

fn world(enable_continuous: bool, gravity: Vec2) -> World {
    World::new(WorldDef {
        gravity,
        enable_continuous,
        ..WorldDef::default()
    })
    .unwrap()
}

/// A static box of half extents `half` at `position`.
fn static_box(world: &mut World, position: Vec2, half: Vec2) -> BodyId {
    let body = world.create_body(&BodyDef::fixed_at(position)).unwrap();
    world
        .create_polygon_shape(
            body,
            &ShapeDef::default(),
            &make_box(half.x, half.y).unwrap(),
        )
        .unwrap();
    body
}

/// A dynamic circle of radius `radius` at `position` moving at `velocity`.
fn ball(world: &mut World, position: Vec2, velocity: Vec2, radius: f32, bullet: bool) -> BodyId {
    let def = BodyDef {
        linear_velocity: velocity,
        is_bullet: bullet,
        ..BodyDef::dynamic_at(position)
    };
    let body = world.create_body(&def).unwrap();
    let circle = Circle {
        center: Vec2::ZERO,
        radius,
    };
    world
        .create_circle_shape(body, &ShapeDef::default(), &circle)
        .unwrap();
    body
}

/// The wall: 2 cm thick, 2 m tall, its near face at x = 1.99.
const WALL_FACE: f32 = 1.99;
const RADIUS: f32 = 0.05;

/// A 5 cm ball at 200 m/s (3.3 m per 60 Hz step) toward a 2 cm static wall 2 m away.
fn ball_and_wall(enable_continuous: bool) -> (World, BodyId) {
    let mut world = world(enable_continuous, Vec2::ZERO);
    static_box(&mut world, Vec2::new(2.0, 0.0), Vec2::new(0.01, 1.0));
    let ball = ball(&mut world, Vec2::ZERO, Vec2::new(200.0, 0.0), RADIUS, false);
    (world, ball)
}

#[test]
fn a_fast_ball_stops_at_a_thin_wall() {
    let (mut world, ball) = ball_and_wall(true);
    world.step(DT, SUBSTEPS).unwrap();
    // Moved back to the impact: the centre `r − slop` from the face, within the tolerance.
    let stop = WALL_FACE - (RADIUS - LINEAR_SLOP);
    let x = world.position(ball).unwrap().x;
    assert!(
        x >= stop - TOI_TOLERANCE - 1e-5 && x <= stop + 1e-5,
        "x = {x}, stop = {stop}"
    );
    // The velocity is the solver's; continuous collision only moves the body.
    assert_eq!(world.linear_velocity(ball).unwrap(), Vec2::new(200.0, 0.0));
    assert!(world.profile().continuous >= 0.0);
    // The contact then stops it on the near side: the centre never crosses the face, and the
    // ball comes to rest against the wall (no restitution), pushed out to at most a slop of
    // overlap.
    for step in 0..120 {
        world.step(DT, SUBSTEPS).unwrap();
        let x = world.position(ball).unwrap().x;
        assert!(x < WALL_FACE, "step {step}: x = {x}");
    }
    let x = world.position(ball).unwrap().x;
    let resting = WALL_FACE - RADIUS;
    assert!(
        x > resting - 1e-3 && x < resting + LINEAR_SLOP,
        "x = {x}, touching at {resting}"
    );
    assert!(world.linear_velocity(ball).unwrap().length() < 1e-2);
}

#[test]
fn without_continuous_the_ball_passes_through() {
    let (mut world, ball) = ball_and_wall(false);
    world.step(DT, SUBSTEPS).unwrap();
    // No contact could exist before the step, so it flies on: 200 m/s · 1/60 s.
    let x = world.position(ball).unwrap().x;
    assert!((x - 200.0 * DT).abs() < 1e-4, "x = {x}");
    assert!(x - RADIUS > WALL_FACE + 0.02);
    for _ in 0..10 {
        world.step(DT, SUBSTEPS).unwrap();
    }
    assert_eq!(world.linear_velocity(ball).unwrap(), Vec2::new(200.0, 0.0));
}

/// A 2 m × 2 cm bar spinning at 50 rad/s (0.83 rad per step), 0.5 m above a 2 cm static floor
/// whose top is y = 0, without gravity: within the first step its tip would sweep 24 cm below
/// the floor's top, through the floor.
fn spinning_bar(enable_continuous: bool) -> (World, BodyId) {
    let mut world = world(enable_continuous, Vec2::ZERO);
    static_box(&mut world, Vec2::new(0.0, -0.01), Vec2::new(20.0, 0.01));
    let def = BodyDef {
        angular_velocity: 50.0,
        ..BodyDef::dynamic_at(Vec2::new(0.0, 0.5))
    };
    let bar = world.create_body(&def).unwrap();
    world
        .create_polygon_shape(bar, &ShapeDef::default(), &make_box(1.0, 0.01).unwrap())
        .unwrap();
    (world, bar)
}

/// The bar's lowest corner (world).
fn lowest_corner_point(world: &World, bar: BodyId, half_length: f32, half_width: f32) -> Vec2 {
    let transform: Transform = world.transform(bar).unwrap();
    [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)]
        .map(|(sx, sy)| transform.apply(Vec2::new(sx * half_length, sy * half_width)))
        .into_iter()
        .fold(Vec2::new(0.0, f32::INFINITY), |low, p| {
            if p.y < low.y { p } else { low }
        })
}

#[test]
fn a_spinning_bar_does_not_pass_through_a_thin_floor() {
    let (half_length, half_width) = (1.0, 0.01);
    let (mut world, bar) = spinning_bar(true);
    let mass = world.mass_data(bar).unwrap();
    world.step(DT, SUBSTEPS).unwrap();
    // Stopped where its lowest corner is a slop (up to the tolerance) above the floor.
    let impact = lowest_corner_point(&world, bar, half_length, half_width);
    assert!(
        impact.y >= LINEAR_SLOP - 1e-5 && impact.y <= LINEAR_SLOP + TOI_TOLERANCE + 1e-5,
        "lowest corner {impact:?}"
    );
    // Then the corner strikes the floor and the bar flies off, never through the floor (its
    // bottom is y = −0.02), nor into it by more than the slop the solver allows.
    for step in 0..60 {
        world.step(DT, SUBSTEPS).unwrap();
        let corner = lowest_corner_point(&world, bar, half_length, half_width).y;
        assert!(corner > -LINEAR_SLOP, "step {step}: lowest corner {corner}");
    }
    // Only the floor's impulses at the struck corner acted on the bar, so its angular
    // momentum about that point, I·ω + m·(c − P) × v, is what it was before: I·50.
    let center = world.world_center_of_mass(bar).unwrap();
    let velocity = world.linear_velocity(bar).unwrap();
    let spin = world.angular_velocity(bar).unwrap();
    let arm = center - impact;
    let momentum =
        mass.rotational_inertia * spin + mass.mass * (arm.x * velocity.y - arm.y * velocity.x);
    let before = mass.rotational_inertia * 50.0;
    assert!(
        (momentum - before).abs() < 0.02 * before,
        "angular momentum about the corner {momentum}, before {before}"
    );
    assert!(velocity.y > 0.0, "bounced off: {velocity:?}");
}

#[test]
fn without_continuous_the_spinning_bar_crosses_the_floor() {
    let (mut world, bar) = spinning_bar(false);
    world.step(DT, SUBSTEPS).unwrap();
    // Nothing touched it during the step: it turned freely and its tip is below the floor's
    // bottom face (y = −0.02).
    let corner = lowest_corner_point(&world, bar, 1.0, 0.01).y;
    assert!(corner < -0.2, "lowest corner {corner}");
}

/// A 2 cm plate, 4 m tall, moving at 30 m/s toward a 5 cm ball fired at it at 200 m/s: both
/// are fast (the plate moves half a metre per step), and they cross within the first step.
fn ball_and_plate(bullet: bool) -> (World, BodyId, BodyId) {
    let mut world = world(true, Vec2::ZERO);
    let plate_def = BodyDef {
        linear_velocity: Vec2::new(-30.0, 0.0),
        ..BodyDef::dynamic_at(Vec2::new(2.0, 0.0))
    };
    let plate = world.create_body(&plate_def).unwrap();
    world
        .create_polygon_shape(plate, &ShapeDef::default(), &make_box(0.01, 2.0).unwrap())
        .unwrap();
    let ball = ball(
        &mut world,
        Vec2::ZERO,
        Vec2::new(200.0, 0.0),
        RADIUS,
        bullet,
    );
    (world, ball, plate)
}

/// The ball's centre in the plate's frame (the plate's near face is x = −0.01).
fn ball_seen_from_plate(world: &World, ball: BodyId, plate: BodyId) -> Vec2 {
    let plate_pose = world.transform(plate).unwrap();
    plate_pose.inv_apply(world.position(ball).unwrap())
}

#[test]
fn a_bullet_does_not_pass_through_a_fast_dynamic_body() {
    let (mut world, ball, plate) = ball_and_plate(true);
    assert!(world.is_bullet(ball).unwrap() && !world.is_bullet(plate).unwrap());
    let ball_mass = world.mass_data(ball).unwrap().mass;
    let plate_mass = world.mass_data(plate).unwrap().mass;
    world.step(DT, SUBSTEPS).unwrap();
    // Swept against the plate where the plate ended the step (x = 1.5): stopped at its face.
    let plate_x = world.position(plate).unwrap().x;
    assert!(
        (plate_x - (2.0 - 30.0 * DT)).abs() < 1e-5,
        "plate at {plate_x}"
    );
    let stop = plate_x - 0.01 - (RADIUS - LINEAR_SLOP);
    let x = world.position(ball).unwrap().x;
    assert!(
        x >= stop - TOI_TOLERANCE - 1e-5 && x <= stop + 1e-5,
        "x = {x}, stop = {stop}"
    );
    // Then the two collide and move on together, the ball's centre in front of the plate's
    // near face (the soft contact lets it sink about a centimetre at this speed, then pushes
    // it out to touching), with the momentum along x kept: m_b·200 − m_p·30 (no restitution).
    for step in 0..60 {
        world.step(DT, SUBSTEPS).unwrap();
        let seen = ball_seen_from_plate(&world, ball, plate);
        assert!(seen.x < -0.01 - 0.5 * RADIUS, "step {step}: {seen:?}");
    }
    let seen = ball_seen_from_plate(&world, ball, plate);
    assert!((seen.x + 0.01 + RADIUS).abs() < LINEAR_SLOP, "{seen:?}");
    let momentum = ball_mass * 200.0 - plate_mass * 30.0;
    let together = momentum / (ball_mass + plate_mass);
    for body in [ball, plate] {
        let velocity = world.linear_velocity(body).unwrap();
        assert!(
            (velocity.x - together).abs() < 1e-3 * together.abs() && velocity.y.abs() < 1e-3,
            "{velocity:?}, expected {together}"
        );
    }
}

#[test]
fn a_fast_body_that_is_not_a_bullet_passes_through_a_fast_dynamic_body() {
    let (mut world, ball, plate) = ball_and_plate(false);
    world.step(DT, SUBSTEPS).unwrap();
    // Swept against static shapes only (there are none), it flies on through the plate:
    // 200 m/s · 1/60 s.
    let x = world.position(ball).unwrap().x;
    assert!((x - 200.0 * DT).abs() < 1e-4, "x = {x}");
    assert!(ball_seen_from_plate(&world, ball, plate).x > 0.01 + RADIUS);
    // Made a bullet before the step, it is stopped on the near side, touching (the same stop
    // as in the bullet test above).
    let (mut world, ball, plate) = ball_and_plate(false);
    world.set_bullet(ball, true).unwrap();
    world.step(DT, SUBSTEPS).unwrap();
    let seen = ball_seen_from_plate(&world, ball, plate);
    assert!(
        (seen.x + 0.01 + RADIUS).abs() < 2.0 * LINEAR_SLOP,
        "{seen:?}"
    );
}

#[test]
fn bullet_flags_are_checked_and_kept() {
    let mut world = world(true, Vec2::ZERO);
    let body = world.create_body(&BodyDef::dynamic_at(Vec2::ZERO)).unwrap();
    assert!(!world.is_bullet(body).unwrap());
    world.set_bullet(body, true).unwrap();
    assert!(world.is_bullet(body).unwrap());
    world.set_bullet(body, false).unwrap();
    assert!(!world.is_bullet(body).unwrap());
    world.destroy_body(body).unwrap();
    let stale = world.set_bullet(body, true).unwrap_err();
    assert!(
        matches!(stale, prism::PrismError::InvalidId { .. }),
        "{stale:?}"
    );
    assert!(world.is_bullet(body).is_err());
}

/// A 12 m closed chain room (clockwise, so its free sides face in) with thin static bars
/// inside, a few slow heavy boxes, and 600 small bodies — circles, boxes and capsules — fired
/// at 40 to 160 m/s in all directions, every fifth a bullet. Returns the bodies.
fn shooting_gallery(world: &mut World) -> Vec<BodyId> {
    let room = world.create_body(&BodyDef::fixed_at(Vec2::ZERO)).unwrap();
    let corners = [
        Vec2::new(-6.0, -6.0),
        Vec2::new(-6.0, 6.0),
        Vec2::new(6.0, 6.0),
        Vec2::new(6.0, -6.0),
    ];
    world
        .create_chain(room, &ShapeDef::default(), &corners, true)
        .unwrap();
    for k in 0..4 {
        let at = Vec2::new(-3.0 + 2.0 * k as f32, 0.5 * k as f32 - 1.0);
        static_box(world, at, Vec2::new(0.01, 1.5));
    }
    let mut bodies = Vec::new();
    for k in 0..4 {
        let at = Vec2::new(-2.0 + 1.5 * k as f32, 3.5);
        let heavy = world.create_body(&BodyDef::dynamic_at(at)).unwrap();
        world
            .create_polygon_shape(heavy, &ShapeDef::default(), &make_square(0.4).unwrap())
            .unwrap();
        bodies.push(heavy);
    }
    for k in 0..600 {
        let at = Vec2::new(-5.0 + 0.4 * (k % 25) as f32, -5.0 + 0.4 * (k / 25) as f32);
        let angle = 0.37 * k as f32;
        let speed = 40.0 + 5.0 * (k % 25) as f32;
        let def = BodyDef {
            linear_velocity: speed * Rot::from_angle(angle).rotate(Vec2::new(1.0, 0.0)),
            angular_velocity: (k % 7) as f32 - 3.0,
            is_bullet: k % 5 == 0,
            ..BodyDef::dynamic_at(at)
        };
        let body = world.create_body(&def).unwrap();
        let shape = ShapeDef::default();
        match k % 3 {
            0 => {
                let circle = Circle {
                    center: Vec2::ZERO,
                    radius: 0.05,
                };
                world.create_circle_shape(body, &shape, &circle).unwrap();
            }
            1 => {
                world
                    .create_polygon_shape(body, &shape, &make_square(0.05).unwrap())
                    .unwrap();
            }
            _ => {
                let capsule = Capsule {
                    center1: Vec2::new(-0.05, 0.0),
                    center2: Vec2::new(0.05, 0.0),
                    radius: 0.03,
                };
                world.create_capsule_shape(body, &shape, &capsule).unwrap();
            }
        }
        bodies.push(body);
    }
    bodies
}

/// How many bodies are outside the room (their centre beyond its walls).
fn escaped(world: &World, bodies: &[BodyId]) -> usize {
    bodies
        .iter()
        .filter(|&&body| {
            let p = world.position(body).unwrap();
            p.x.abs() > 6.0 || p.y.abs() > 6.0
        })
        .count()
}

/// Two seconds of the shooting gallery on 1, 2 and 4 workers: bitwise the same bodies after
/// every step, and, with continuous collision, nobody leaves the room through its one-sided
/// walls (without it, many do).
#[test]
fn continuous_collision_is_deterministic_across_worker_counts() {
    let worlds: Vec<(World, Vec<BodyId>)> = [1, 2, 4]
        .iter()
        .map(|&worker_count| {
            let mut world = common::pooled_world(WorldDef {
                worker_count,
                gravity: Vec2::ZERO,
                ..WorldDef::default()
            });
            let bodies = shooting_gallery(&mut world);
            (world, bodies)
        })
        .collect();
    let mut worlds = worlds;
    let mut swept_time = 0.0;
    for step in 0..120 {
        let hashes: Vec<u64> = worlds
            .iter_mut()
            .map(|(world, bodies)| {
                world.step(DT, SUBSTEPS).unwrap();
                world_hash(world, bodies)
            })
            .collect();
        assert!(
            hashes.iter().all(|&hash| hash == hashes[0]),
            "step {step}: {hashes:x?}"
        );
        swept_time += worlds[0].0.profile().continuous;
    }
    let (world, bodies) = &worlds[0];
    assert_eq!(escaped(world, bodies), 0);
    assert!(swept_time > 0.0);

    let mut unswept = World::new(WorldDef {
        gravity: Vec2::ZERO,
        enable_continuous: false,
        ..WorldDef::default()
    })
    .unwrap();
    let bodies = shooting_gallery(&mut unswept);
    for _ in 0..120 {
        unswept.step(DT, SUBSTEPS).unwrap();
    }
    let lost = escaped(&unswept, &bodies);
    assert!(
        lost > 50,
        "{lost} bodies left the room without continuous collision"
    );
}

/// Sensors never stop a fast body, and neither does a wall whose contacts the pre-solve hook
/// decides (a one-way wall: the hook may let the body through, and it cannot be asked about an
/// impact before a contact exists). The same ball and wall as above: after 2 steps the ball
/// is past the wall, at its free-flight position 2 · 3.33 m.
#[test]
fn sensors_and_pre_solve_walls_do_not_stop_a_fast_ball() {
    for wall in ["sensor", "pre-solve"] {
        let mut world = world(true, Vec2::ZERO);
        let body = world
            .create_body(&BodyDef::fixed_at(Vec2::new(2.0, 0.0)))
            .unwrap();
        let def = ShapeDef {
            is_sensor: wall == "sensor",
            enable_pre_solve_events: wall == "pre-solve",
            ..ShapeDef::default()
        };
        world
            .create_polygon_shape(body, &def, &make_box(0.01, 1.0).unwrap())
            .unwrap();
        if wall == "pre-solve" {
            world.set_pre_solve(|_| false);
        }
        let ball = ball(&mut world, Vec2::ZERO, Vec2::new(200.0, 0.0), RADIUS, true);
        world.step(DT, SUBSTEPS).unwrap();
        world.step(DT, SUBSTEPS).unwrap();
        let x = world.position(ball).unwrap().x;
        let free = 2.0 * 200.0 * DT;
        assert!(
            (x - free).abs() < 1e-3,
            "{wall} wall: ball at x = {x}, free flight {free}"
        );
    }
}
