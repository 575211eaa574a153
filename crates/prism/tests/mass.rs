//! Body mass from shapes: sums, centre of mass, parallel-axis inertia, overrides.

mod common;

use common::world_with;
use prism::{
    BodyDef, BodyType, Circle, MassData, ShapeDef, SolverKind, Vec2, make_box, make_offset_box,
};
use std::f32::consts::PI;

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-4 * b.abs().max(1.0)
}

#[test]
fn single_box_has_rectangle_mass_and_inertia() {
    let mut world = world_with(SolverKind::SoftStep);
    let body = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(3.0, 4.0)))
        .unwrap();
    let dense = ShapeDef {
        density: 2.0,
        ..ShapeDef::default()
    };
    world
        .create_polygon_shape(body, &dense, &make_box(1.0, 0.5).unwrap())
        .unwrap();
    let m = world.mass_data(body).unwrap();
    // 2 m × 1 m at density 2: m = 4, I = m(w² + h²)/12 = 4·5/12.
    assert!(close(m.mass, 4.0), "{m:?}");
    assert!(close(m.rotational_inertia, 4.0 * 5.0 / 12.0), "{m:?}");
    assert!(m.center.length() < 1e-6);
    assert!((world.world_center_of_mass(body).unwrap() - Vec2::new(3.0, 4.0)).length() < 1e-6);
}

#[test]
fn two_offset_shapes_combine_by_the_parallel_axis_theorem() {
    let mut world = world_with(SolverKind::SoftStep);
    let body = world.create_body(&BodyDef::dynamic_at(Vec2::ZERO)).unwrap();
    let def = ShapeDef::default();
    world
        .create_polygon_shape(
            body,
            &def,
            &make_offset_box(0.5, 0.5, Vec2::new(1.0, 0.0), prism::Rot::IDENTITY).unwrap(),
        )
        .unwrap();
    world
        .create_circle_shape(
            body,
            &def,
            &Circle {
                center: Vec2::new(-2.0, 0.0),
                radius: 1.0,
            },
        )
        .unwrap();
    let m = world.mass_data(body).unwrap();
    let (m_box, m_disk) = (1.0, PI);
    let total = m_box + m_disk;
    let center = (m_box * 1.0 + m_disk * -2.0) / total;
    // Each part's own inertia plus its mass times its squared distance from the common centre.
    let inertia = m_box / 6.0
        + m_box * (1.0 - center).powi(2)
        + 0.5 * m_disk
        + m_disk * (-2.0 - center).powi(2);
    assert!(close(m.mass, total), "{m:?}");
    assert!(
        close(m.center.x, center) && m.center.y.abs() < 1e-6,
        "{m:?}"
    );
    assert!(close(m.rotational_inertia, inertia), "{m:?} vs {inertia}");
}

#[test]
fn destroying_a_shape_recomputes_the_mass() {
    let mut world = world_with(SolverKind::SoftStep);
    let body = world.create_body(&BodyDef::dynamic_at(Vec2::ZERO)).unwrap();
    let def = ShapeDef::default();
    let right = world
        .create_polygon_shape(
            body,
            &def,
            &make_offset_box(0.5, 0.5, Vec2::new(1.0, 0.0), prism::Rot::IDENTITY).unwrap(),
        )
        .unwrap();
    world
        .create_polygon_shape(
            body,
            &def,
            &make_offset_box(0.5, 0.5, Vec2::new(-1.0, 0.0), prism::Rot::IDENTITY).unwrap(),
        )
        .unwrap();
    assert!(close(
        world.mass_data(body).unwrap().rotational_inertia,
        2.0 * (1.0 / 6.0 + 1.0)
    ));
    world.destroy_shape(right).unwrap();
    let m = world.mass_data(body).unwrap();
    assert!(
        close(m.mass, 1.0) && close(m.center.x, -1.0) && close(m.rotational_inertia, 1.0 / 6.0),
        "{m:?}"
    );
    assert_eq!(world.body_shapes(body).unwrap().len(), 1);
}

#[test]
fn fixed_rotation_static_kinematic_and_overrides() {
    let mut world = world_with(SolverKind::SoftStep);
    let def = ShapeDef::default();
    let fixed = world
        .create_body(&BodyDef {
            fixed_rotation: true,
            ..BodyDef::dynamic_at(Vec2::ZERO)
        })
        .unwrap();
    world
        .create_polygon_shape(fixed, &def, &make_box(0.5, 0.5).unwrap())
        .unwrap();
    let m = world.mass_data(fixed).unwrap();
    assert_eq!((m.mass, m.rotational_inertia), (1.0, 0.0));
    world.apply_angular_impulse(fixed, 5.0).unwrap();
    assert_eq!(world.angular_velocity(fixed).unwrap(), 0.0);

    let kinematic = world
        .create_body(&BodyDef::kinematic_at(Vec2::ZERO))
        .unwrap();
    world
        .create_polygon_shape(kinematic, &def, &make_box(0.5, 0.5).unwrap())
        .unwrap();
    assert_eq!(world.mass_data(kinematic).unwrap().mass, 0.0);
    assert_eq!(world.body_type(kinematic).unwrap(), BodyType::Kinematic);

    let body = world.create_body(&BodyDef::dynamic_at(Vec2::ZERO)).unwrap();
    world
        .create_polygon_shape(body, &def, &make_box(0.5, 0.5).unwrap())
        .unwrap();
    let custom = MassData {
        mass: 7.0,
        center: Vec2::new(0.25, 0.0),
        rotational_inertia: 2.0,
    };
    world.set_mass_data(body, custom).unwrap();
    assert_eq!(world.mass_data(body).unwrap(), custom);
    assert!((world.world_center_of_mass(body).unwrap() - Vec2::new(0.25, 0.0)).length() < 1e-6);
    // An impulse of 7 N·s at the centre changes the velocity by 1 m/s.
    world
        .apply_linear_impulse_to_center(body, Vec2::new(7.0, 0.0))
        .unwrap();
    assert!(close(world.linear_velocity(body).unwrap().x, 1.0));
}

#[test]
fn kinematic_body_moves_at_its_velocity_and_ignores_gravity() {
    let mut world = world_with(SolverKind::SoftStep);
    let def = BodyDef {
        linear_velocity: Vec2::new(2.0, 0.0),
        angular_velocity: 1.0,
        ..BodyDef::kinematic_at(Vec2::ZERO)
    };
    let body = world.create_body(&def).unwrap();
    world
        .create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap())
        .unwrap();
    for _ in 0..60 {
        world.step(1.0 / 60.0, 4).unwrap();
    }
    let p = world.position(body).unwrap();
    assert!((p - Vec2::new(2.0, 0.0)).length() < 1e-3, "{p:?}");
    assert!((world.rotation(body).unwrap().angle() - 1.0).abs() < 1e-3);
}
