//! Explosions against the falloff formula: a shape at surface distance `d` from a blast of
//! radius `R` and falloff `F` gets the impulse `j·w·s` along the line from the blast to its
//! closest point, `w` its width seen from the blast and `s = 1` inside `R`, `(R + F − d)/F`
//! across the falloff band, nothing beyond.

use prism::{
    BodyDef, BodyId, Circle, ExplosionDef, Filter, PrismError, ShapeDef, Vec2, World, WorldDef,
    make_box,
};
use std::f32::consts::PI;

const RADIUS: f32 = 2.0;
const FALLOFF: f32 = 2.0;
const IMPULSE: f32 = 3.0;

fn world() -> World {
    World::new(WorldDef {
        gravity: Vec2::ZERO,
        ..WorldDef::default()
    })
    .unwrap()
}

/// A dynamic disk of radius 0.5 and density 1 (mass π/4) at `at`.
fn disk(world: &mut World, at: Vec2, def: &ShapeDef) -> BodyId {
    let body = world.create_body(&BodyDef::dynamic_at(at)).unwrap();
    let circle = Circle {
        center: Vec2::ZERO,
        radius: 0.5,
    };
    world.create_circle_shape(body, def, &circle).unwrap();
    body
}

fn blast(at: Vec2) -> ExplosionDef {
    ExplosionDef {
        position: at,
        radius: RADIUS,
        falloff: FALLOFF,
        impulse_per_length: IMPULSE,
        ..ExplosionDef::default()
    }
}

#[test]
fn disks_get_the_falloff_impulse_radially() {
    let mut world = world();
    let mass = PI * 0.25;
    // Surface distances 1 (inside R), 2.5 (s = 0.75), 3.5 (s = 0.25) and 4.5 (beyond R + F).
    let near = disk(&mut world, Vec2::new(1.5, 0.0), &ShapeDef::default());
    let band = disk(&mut world, Vec2::new(0.0, 3.0), &ShapeDef::default());
    let edge = disk(
        &mut world,
        Vec2::new(-4.0 * 0.6, -4.0 * 0.8),
        &ShapeDef::default(),
    );
    let far = disk(&mut world, Vec2::new(-5.0, 0.0), &ShapeDef::default());
    world.explode(&blast(Vec2::ZERO)).unwrap();
    // A disk presents its diameter, 1 m, to the blast.
    for (body, scale, direction) in [
        (near, 1.0, Vec2::X),
        (band, 0.75, Vec2::Y),
        (edge, 0.25, Vec2::new(-0.6, -0.8)),
        (far, 0.0, Vec2::ZERO),
    ] {
        let expected = IMPULSE * 1.0 * scale / mass * direction;
        let v = world.linear_velocity(body).unwrap();
        assert!((v - expected).length() < 1e-4, "{v:?} vs {expected:?}");
        // Through the centre: no spin.
        assert!(world.angular_velocity(body).unwrap().abs() < 1e-5);
    }
}

/// A unit box beside the blast, 0.3 m above its centre line: the closest point is on its
/// left face at that height, the width it presents is its height (1 m), and the impulse at
/// the point off the centre also spins it: `Δω = (r × J)/I` with `r = (−0.5, 0.3)`,
/// `I = m/6`.
#[test]
fn a_box_is_pushed_and_spun_at_its_closest_point() {
    let mut world = world();
    let body = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(3.0, 0.0)))
        .unwrap();
    world
        .create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap())
        .unwrap();
    // The left face is 1.5 m away from the blast: inside the radius, the full impulse.
    world.explode(&blast(Vec2::new(1.0, 0.3))).unwrap();
    let (mass, inertia) = (1.0, 1.0 / 6.0);
    let impulse = IMPULSE * 1.0;
    let v = world.linear_velocity(body).unwrap();
    assert!(
        (v - Vec2::new(impulse / mass, 0.0)).length() < 1e-4,
        "{v:?}"
    );
    let spin = -0.3 * impulse / inertia;
    let w = world.angular_velocity(body).unwrap();
    assert!((w - spin).abs() < 1e-3, "{w} vs {spin}");
}

/// Sleeping bodies are woken and pushed; static bodies and masked-out categories are not;
/// a blast inside a shape pushes it from its centroid outwards; bad definitions are refused.
#[test]
fn explosions_wake_filter_and_validate() {
    let mut world = world();
    let sleeper = disk(&mut world, Vec2::new(0.0, 1.5), &ShapeDef::default());
    let tagged = ShapeDef {
        filter: Filter {
            category_bits: 2,
            ..Filter::default()
        },
        ..ShapeDef::default()
    };
    let shy = disk(&mut world, Vec2::new(0.0, -1.5), &tagged);
    let wall = world
        .create_body(&BodyDef::fixed_at(Vec2::new(1.5, 0.0)))
        .unwrap();
    world
        .create_polygon_shape(wall, &ShapeDef::default(), &make_box(0.2, 0.2).unwrap())
        .unwrap();
    world.set_awake(sleeper, false).unwrap();
    assert!(!world.is_awake(sleeper).unwrap());
    let only_ones = ExplosionDef {
        mask_bits: 1,
        ..blast(Vec2::ZERO)
    };
    world.explode(&only_ones).unwrap();
    assert!(world.is_awake(sleeper).unwrap());
    assert!(world.linear_velocity(sleeper).unwrap().y > 0.0);
    assert_eq!(world.linear_velocity(shy).unwrap(), Vec2::ZERO);
    assert_eq!(world.linear_velocity(wall).unwrap(), Vec2::ZERO);

    // A blast inside a disk, 0.2 m below its centre: distance 0, so the full impulse, along
    // the line from the blast to the centroid (+y).
    let mut world = self::world();
    let body = disk(&mut world, Vec2::new(10.0, 0.0), &ShapeDef::default());
    world.explode(&blast(Vec2::new(10.0, -0.2))).unwrap();
    let v = world.linear_velocity(body).unwrap();
    let expected = IMPULSE / (PI * 0.25) * Vec2::Y;
    assert!((v - expected).length() < 1e-4, "{v:?}");

    let bad = ExplosionDef {
        falloff: -1.0,
        ..blast(Vec2::ZERO)
    };
    let err = world.explode(&bad).unwrap_err();
    assert!(matches!(
        err,
        PrismError::OutOfRange {
            field: "ExplosionDef::falloff",
            ..
        }
    ));
    let bad = ExplosionDef {
        position: Vec2::new(f32::NAN, 0.0),
        ..blast(Vec2::ZERO)
    };
    assert!(matches!(
        world.explode(&bad).unwrap_err(),
        PrismError::NonFinite {
            field: "ExplosionDef::position",
            ..
        }
    ));
    assert_eq!(
        world.linear_velocity(body).unwrap(),
        v,
        "nothing pushed on error"
    );
}
