//! Box2D v3's benchmark scenes without joints, exactly as shared/BENCHMARKS.md gives them.
//! Units are metres, kilograms and seconds; every shape uses the default material (density 1,
//! friction 0.6, restitution 0) unless the scene says otherwise.

use crate::Probes;
use prism::{
    BodyDef, BodyId, Polygon, PrismError, Rot, Segment, ShapeDef, Vec2, World, make_box,
    make_offset_box, make_polygon, make_square,
};

/// A static body at `position` holding one box.
fn static_box(world: &mut World, position: Vec2, half: Vec2) -> Result<BodyId, PrismError> {
    let ground = world.create_body(&BodyDef::fixed_at(position))?;
    world.create_polygon_shape(ground, &ShapeDef::default(), &make_box(half.x, half.y))?;
    Ok(ground)
}

/// A dynamic body at `position` holding `polygon` with `def`.
fn dynamic_polygon(
    world: &mut World,
    position: Vec2,
    polygon: &Polygon,
    def: &ShapeDef,
) -> Result<BodyId, PrismError> {
    let body = world.create_body(&BodyDef::dynamic_at(position))?;
    world.create_polygon_shape(body, def, polygon)?;
    Ok(body)
}

/// large_pyramid: 5,050 boxes of half extent 0.5 in a 100-box-wide pyramid on a static ground
/// box of half extents (100, 1) at (0, −1).
pub fn large_pyramid(world: &mut World) -> Result<Probes, PrismError> {
    static_box(world, Vec2::new(0.0, -1.0), Vec2::new(100.0, 1.0))?;
    let (a, base) = (0.5, 100);
    let square = make_square(a);
    let mut probes = Probes::default();
    for i in 0..base {
        let y = (2 * i + 1) as f32 * a;
        for j in i..base {
            let x = (i + 1) as f32 * a + 2.0 * (j - i) as f32 * a - a * base as f32;
            let body = dynamic_polygon(world, Vec2::new(x, y), &square, &ShapeDef::default())?;
            if i == base - 1 {
                probes.pyramid_tops.push((body, y));
            }
        }
    }
    Ok(probes)
}

/// many_pyramids: 20 × 20 pyramids of base 10 (22,000 boxes) on 20 ground segments 11 m apart.
pub fn many_pyramids(world: &mut World) -> Result<Probes, PrismError> {
    let (extent, base, rows, columns) = (0.5f32, 10, 20, 20);
    let ground_delta_y = 2.0 * extent * (base + 1) as f32;
    let ground_width = 2.0 * extent * columns as f32 * (base + 1) as f32;
    let ground = world.create_body(&BodyDef::fixed_at(Vec2::ZERO))?;
    for i in 0..rows {
        let y = ground_delta_y * i as f32;
        let segment = Segment {
            point1: Vec2::new(-0.5 * ground_width, y),
            point2: Vec2::new(0.5 * ground_width, y),
        };
        world.create_segment_shape(ground, &ShapeDef::default(), &segment)?;
    }
    let square = make_square(extent);
    let mut probes = Probes::default();
    for row in 0..rows {
        for column in 0..columns {
            let base_y = ground_delta_y * row as f32;
            let center_x = -0.5 * ground_width + (column * (base + 1)) as f32 * 2.0 * extent + 1.0;
            small_pyramid(world, &square, base, extent, center_x, base_y, &mut probes)?;
        }
    }
    Ok(probes)
}

fn small_pyramid(
    world: &mut World,
    square: &Polygon,
    base: i32,
    extent: f32,
    center_x: f32,
    base_y: f32,
    probes: &mut Probes,
) -> Result<(), PrismError> {
    for i in 0..base {
        let y = (2 * i + 1) as f32 * extent + base_y;
        for j in i..base {
            let x = (i + 1) as f32 * extent + 2.0 * (j - i) as f32 * extent + center_x - 0.5;
            let body = dynamic_polygon(world, Vec2::new(x, y), square, &ShapeDef::default())?;
            if i == base - 1 {
                probes.pyramid_tops.push((body, y));
            }
        }
    }
    Ok(())
}

/// smash: zero gravity; a dense 8 × 8 m box at 40 m/s into a 120 × 80 block of 0.4 m squares.
/// Box2D creates the targets asleep; until Prism sleeps they start awake (and at rest).
pub fn smash(world: &mut World) -> Result<Probes, PrismError> {
    world.set_gravity(Vec2::ZERO)?;
    let smasher = world.create_body(&BodyDef {
        linear_velocity: Vec2::new(40.0, 0.0),
        ..BodyDef::dynamic_at(Vec2::new(-20.0, 0.0))
    })?;
    let heavy = ShapeDef {
        density: 8.0,
        ..ShapeDef::default()
    };
    world.create_polygon_shape(smasher, &heavy, &make_box(4.0, 4.0))?;

    let d = 0.4;
    let square = make_square(0.5 * d);
    let (columns, rows) = (120, 80);
    for i in 0..columns {
        for j in 0..rows {
            let position = Vec2::new(30.0 + d * i as f32, d * (j - rows / 2) as f32);
            let target = world.create_body(&BodyDef::dynamic_at(position))?;
            world.create_polygon_shape(target, &ShapeDef::default(), &square)?;
        }
    }
    Ok(Probes {
        subjects: vec![smasher],
        ..Probes::default()
    })
}

/// compounds: 3,000 bodies each made of two triangles, falling into a walled trough.
pub fn compounds(world: &mut World) -> Result<Probes, PrismError> {
    compounds_ground(world)?;
    let def = ShapeDef {
        friction: 0.5,
        ..ShapeDef::default()
    };
    let left = triangle([(-1.0, 0.0), (0.5, 1.0), (0.0, 2.0)])?;
    let right = triangle([(1.0, 0.0), (-0.5, 1.0), (0.0, 2.0)])?;
    let mut side = 0.25f32;
    for i in 0..20 {
        for j in 0..150 {
            let position = Vec2::new(2.0 * i as f32 - 19.0 + side, j as f32 * 2.25 + 0.575 + 5.0);
            let body = world.create_body(&BodyDef::dynamic_at(position))?;
            world.create_polygon_shape(body, &def, &left)?;
            world.create_polygon_shape(body, &def, &right)?;
            side = -side;
        }
    }
    Ok(Probes::default())
}

fn triangle(points: [(f32, f32); 3]) -> Result<Polygon, PrismError> {
    let points = points.map(|(x, y)| Vec2::new(x, y));
    Ok(make_polygon(&points, 0.0)?)
}

/// The compounds trough: 81 floor boxes, two walls of 100 boxes and a long segment far below.
fn compounds_ground(world: &mut World) -> Result<(), PrismError> {
    let ground = world.create_body(&BodyDef::fixed_at(Vec2::ZERO))?;
    let def = ShapeDef::default();
    for i in 0..81 {
        let center = Vec2::new(-40.0 + i as f32, 0.0);
        world.create_polygon_shape(
            ground,
            &def,
            &make_offset_box(0.55, 0.5, center, Rot::IDENTITY),
        )?;
    }
    for i in 0..100 {
        for x in [-40.0, 40.0] {
            let center = Vec2::new(x, 1.0 + i as f32);
            let wall = make_offset_box(0.5, 0.55, center, Rot::IDENTITY);
            world.create_polygon_shape(ground, &def, &wall)?;
        }
    }
    let floor = Segment {
        point1: Vec2::new(-800.0, -80.0),
        point2: Vec2::new(800.0, -80.0),
    };
    world.create_segment_shape(ground, &def, &floor)?;
    Ok(())
}
