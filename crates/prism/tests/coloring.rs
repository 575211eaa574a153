//! The constraint graph seen through the counters: which colours the touching contacts take,
//! when they overflow, and that the coloured (wide, parallel) and the overflow (scalar,
//! serial) solver paths give the same physics.

mod common;

use common::{DT, SUBSTEPS, add_ground, add_pyramid, run};
use prism::{
    BodyDef, BodyId, Counters, GRAPH_COLOR_COUNT, ShapeDef, Vec2, World, WorldDef, make_box,
    make_square,
};

/// Contacts in colours plus those in the overflow set.
fn graph_size(counters: &Counters) -> usize {
    counters.color_contacts.iter().sum::<usize>() + counters.overflow_contacts
}

fn pyramid_world(rows: usize, force_overflow: bool) -> (World, Vec<BodyId>) {
    let mut world = World::new(WorldDef {
        force_overflow,
        enable_sleep: false,
        ..WorldDef::default()
    })
    .unwrap();
    add_ground(&mut world, 40.0);
    let boxes = add_pyramid(&mut world, rows);
    (world, boxes)
}

#[test]
fn a_pyramid_fills_six_box_colours_and_one_ground_colour() {
    let (mut world, _) = pyramid_world(20, false);
    run(&mut world, 30);
    let counters = world.counters();
    // 20 rows: 190 side-by-side pairs, 2 × 190 box-on-box pairs, 20 boxes on the ground.
    assert_eq!(counters.touching_contacts, 190 + 380 + 20);
    assert_eq!(graph_size(&counters), counters.touching_contacts);
    assert_eq!(counters.overflow_contacts, 0);
    // An interior box touches six boxes, so its contacts need six colours; the ground
    // contacts search from the back and all fit in the last colour.
    let used: Vec<usize> = (0..GRAPH_COLOR_COUNT)
        .filter(|&c| counters.color_contacts[c] > 0)
        .collect();
    assert_eq!(used, [0, 1, 2, 3, 4, 5, GRAPH_COLOR_COUNT - 1]);
    assert_eq!(counters.colors, 7);
    assert_eq!(counters.color_contacts[GRAPH_COLOR_COUNT - 1], 20);
}

#[test]
fn force_overflow_puts_every_contact_in_the_overflow_set() {
    let (mut world, _) = pyramid_world(20, true);
    run(&mut world, 30);
    let counters = world.counters();
    assert_eq!(counters.colors, 0);
    assert_eq!(counters.color_contacts, [0; GRAPH_COLOR_COUNT]);
    assert_eq!(counters.overflow_contacts, counters.touching_contacts);
    assert_eq!(counters.touching_contacts, 590);
}

/// The two paths solve the same contacts in a different order (colour by colour versus one at
/// a time), so they agree to the solver's tolerance, not bitwise. A 20-row pyramid settles
/// under its own weight: every layer of contacts sinks to its rest penetration (a few
/// millimetres), so the upper rows drop by about 3 cm — in both worlds alike, since both
/// solve the same contact equations: each box's height agrees within 5 mm between the paths.
/// Sideways, the serial sweep in contact order (left to right) leans the pyramid by a centimetre
/// or two; the colour order is nearly symmetric and must stay within 5 mm of the built layout.
#[test]
fn coloured_and_overflow_paths_agree() {
    let (mut coloured, coloured_boxes) = pyramid_world(20, false);
    let (mut overflow, overflow_boxes) = pyramid_world(20, true);
    let built: Vec<Vec2> = coloured_boxes
        .iter()
        .map(|&b| coloured.position(b).unwrap())
        .collect();
    run(&mut coloured, 120);
    run(&mut overflow, 120);
    let (mut height_gap, mut sag) = (0.0f32, 0.0f32);
    let (mut coloured_lean, mut overflow_lean) = (0.0f32, 0.0f32);
    for ((&a, &b), home) in coloured_boxes.iter().zip(&overflow_boxes).zip(&built) {
        let (pa, pb) = (coloured.position(a).unwrap(), overflow.position(b).unwrap());
        height_gap = height_gap.max((pa.y - pb.y).abs());
        sag = sag.max(home.y - pa.y).max(home.y - pb.y);
        coloured_lean = coloured_lean.max((pa.x - home.x).abs());
        overflow_lean = overflow_lean.max((pb.x - home.x).abs());
    }
    assert!(
        height_gap < 0.005,
        "the paths' heights differ by {height_gap} m"
    );
    assert!(sag > 0.01 && sag < 0.04, "the pyramid sagged {sag} m");
    assert!(
        coloured_lean < 0.005,
        "the coloured path leans {coloured_lean} m"
    );
    assert!(
        overflow_lean < 0.025,
        "the overflow path leans {overflow_lean} m"
    );
    // The paths did differ: colour order is not contact order.
    assert!(height_gap > 0.0);
}

/// A plank resting on 30 separate boxes: its 30 contacts all share the plank, so at most 24 of
/// them find a colour and the rest overflow. The mixed step (wide colours, then the scalar
/// overflow stage) still holds the plank level on the boxes.
#[test]
fn a_body_touching_more_bodies_than_colours_overflows_and_still_rests() {
    let mut world = World::new(WorldDef {
        enable_sleep: false,
        ..WorldDef::default()
    })
    .unwrap();
    add_ground(&mut world, 40.0);
    let half = 0.25;
    let posts: Vec<BodyId> = (0..30)
        .map(|i| {
            let x = -14.5 + i as f32;
            let body = world
                .create_body(&BodyDef::dynamic_at(Vec2::new(x, half)))
                .unwrap();
            world
                .create_polygon_shape(body, &ShapeDef::default(), &make_square(half).unwrap())
                .unwrap();
            body
        })
        .collect();
    let plank = world
        .create_body(&BodyDef::dynamic_at(Vec2::new(0.0, 2.0 * half + half)))
        .unwrap();
    world
        .create_polygon_shape(plank, &ShapeDef::default(), &make_box(15.0, half).unwrap())
        .unwrap();
    run(&mut world, 120);
    let counters = world.counters();
    // 30 posts on the ground, 30 posts under the plank; no post touches another.
    assert_eq!(counters.touching_contacts, 60);
    assert_eq!(graph_size(&counters), 60);
    assert!(
        counters.overflow_contacts >= 30 - GRAPH_COLOR_COUNT,
        "{counters:?}"
    );
    let plank_pose = world.transform(plank).unwrap();
    assert!((plank_pose.p.y - 3.0 * half).abs() < 0.01, "{plank_pose:?}");
    assert!(
        plank_pose.q.s.abs() < 1e-3,
        "the plank tilted: {plank_pose:?}"
    );
    for post in posts {
        assert!(world.linear_velocity(post).unwrap().length() < 0.01);
    }
}

/// Contacts begin and end touching every step of a collapse, and bodies are destroyed mid-run:
/// the graph always holds exactly the touching contacts (every body is awake).
#[test]
fn the_graph_follows_touching_and_destruction() {
    let (mut world, boxes) = pyramid_world(12, false);
    // Knock the pyramid over with a fast box from the side.
    let ram = world
        .create_body(&BodyDef {
            linear_velocity: Vec2::new(30.0, 0.0),
            ..BodyDef::dynamic_at(Vec2::new(-15.0, 1.0))
        })
        .unwrap();
    world
        .create_polygon_shape(ram, &ShapeDef::default(), &make_box(1.0, 1.0).unwrap())
        .unwrap();
    let mut changes = 0;
    for step in 0..180 {
        world.step(DT, SUBSTEPS).unwrap();
        if step % 30 == 10 {
            world.destroy_body(boxes[step / 3]).unwrap();
        }
        let events = world.contact_events();
        changes += events.begin.len() + events.end.len();
        let counters = world.counters();
        assert_eq!(
            graph_size(&counters),
            counters.touching_contacts,
            "step {step}"
        );
    }
    assert!(changes > 50, "only {changes} touching changes");
}
