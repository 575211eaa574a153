//! Contact and joint events through the C interface: when a falling box begins touching the
//! ground, what the begin event carries, the end event a destruction delivers with the next
//! step, the events flag, and a joint that breaks.

#![allow(unsafe_code, reason = "these tests call the C interface as C would")]

mod common;

use common::*;
use prism_capi::*;

const GRAVITY: f32 = 10.0;
const DT: f32 = 1.0 / 60.0;
const SUBSTEPS: usize = 4;
/// Points are kept up to this separation (Box2D's speculative distance, four linear slops).
const SPECULATIVE_DISTANCE: f32 = 4.0 * 0.005;

/// The gap under a box released at rest with its bottom `gap0` above the ground, after
/// `steps` steps of free fall: each substep of length `h` adds `g·h` to the speed and then moves
/// by it, so after `k` substeps the box has fallen `g·h²·k(k+1)/2`.
fn free_fall_gap(gap0: f32, steps: usize) -> f32 {
    let h = DT / SUBSTEPS as f32;
    let k = (steps * SUBSTEPS) as f32;
    gap0 - GRAVITY * h * h * k * (k + 1.0) / 2.0
}

#[test]
fn a_landing_box_begins_touching_once_with_the_ground_normal() {
    let world = TestWorld::new(vec2(0.0, -GRAVITY));
    let (_, ground_shape) = world.ground();
    let body = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(0.0, 1.0));
    let box_shape = world.add_box(body, 0.5, 0.5, &prism_default_shape_def());

    // The narrowphase of step n sees the poses after n − 1 steps; the pair touches in the
    // first step whose starting gap is within the speculative distance.
    let expected_step = (0..100)
        .find(|&n| free_fall_gap(0.5, n) < SPECULATIVE_DISTANCE)
        .expect("the box reaches the ground")
        + 1;

    let mut begins = Vec::new();
    for step in 1..=120usize {
        world.step(1);
        let (begin, end) = world.contact_event_lists();
        assert!(end.is_empty(), "no end event while resting (step {step})");
        begins.extend(begin.into_iter().map(|event| (step, event)));
    }
    assert_eq!(begins.len(), 1, "exactly one begin event: {begins:?}");
    let (step, event) = begins[0];
    assert!(
        step.abs_diff(expected_step) <= 1,
        "began touching in step {step}, free fall predicts step {expected_step}"
    );

    let pair = [event.shape_a, event.shape_b];
    assert!(
        pair.contains(&ground_shape) && pair.contains(&box_shape),
        "{pair:?}"
    );
    // The normal points from shape A to shape B: up if A is the ground.
    let up = if event.shape_a == ground_shape {
        1.0
    } else {
        -1.0
    };
    let manifold = event.manifold;
    assert!((manifold.normal.x).abs() < 1e-4 && (manifold.normal.y - up).abs() < 1e-4);
    assert_eq!(manifold.point_count, 2, "a face lands on a face");
    for point in &manifold.points[..2] {
        assert!(point.separation < SPECULATIVE_DISTANCE, "{point:?}");
        assert!(point.point.y.abs() < SPECULATIVE_DISTANCE, "{point:?}");
        assert!(point.point.x.abs() <= 0.5 + 1e-3, "{point:?}");
    }
    assert!((world.position(body).y - 0.5).abs() < 0.01);
    assert_eq!(world.counters().touching_contacts, 1);

    // Destroying the box ends the contact; the end event comes with the next step.
    // SAFETY: a live world used by this thread alone.
    ok(unsafe { prism_body_destroy(world.ptr, body) });
    world.step(1);
    let (begin, end) = world.contact_event_lists();
    assert!(begin.is_empty());
    assert_eq!(end.len(), 1);
    let ended = [end[0].shape_a, end[0].shape_b];
    assert!(
        ended.contains(&ground_shape) && ended.contains(&box_shape),
        "{ended:?}"
    );
    world.step(1);
    assert_eq!(
        world.contact_event_lists().1.len(),
        0,
        "each end is reported once"
    );
}

#[test]
fn shapes_without_the_events_flag_report_nothing() {
    let world = TestWorld::new(vec2(0.0, -GRAVITY));
    let quiet = PrismShapeDef {
        enable_contact_events: false,
        ..prism_default_shape_def()
    };
    let ground = world.body(PRISM_BODY_TYPE_STATIC, vec2(0.0, -1.0));
    world.add_box(ground, 20.0, 1.0, &quiet);
    let body = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(0.0, 1.0));
    world.add_box(body, 0.5, 0.5, &quiet);
    for _ in 0..60 {
        world.step(1);
        let events = world.contact_events();
        assert_eq!((events.begin_count, events.end_count), (0, 0));
        assert!(events.begin_events.is_null() && events.end_events.is_null());
    }
    assert_eq!(world.counters().touching_contacts, 1, "the box did land");
}

#[test]
fn event_arrays_stay_put_until_the_next_step() {
    let world = TestWorld::new(vec2(0.0, -GRAVITY));
    world.ground();
    let body = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(0.0, 0.51));
    world.add_box(body, 0.5, 0.5, &prism_default_shape_def());
    world.step(1);
    let first = world.contact_events();
    assert_eq!(
        first.begin_count, 1,
        "a box released on the ground touches at once"
    );
    // Calls that change the world between steps leave the arrays alone.
    // SAFETY: a live world used by this thread alone.
    ok(unsafe { prism_body_set_linear_velocity(world.ptr, body, vec2(1.0, 0.0)) });
    let again = world.contact_events();
    assert_eq!(first, again);
    // SAFETY: the world owns the array until its next step, which has not happened.
    let copied = unsafe { copy_array(again.begin_events, again.begin_count) };
    assert_eq!(copied[0].manifold.point_count, 2);
}

#[test]
fn an_overloaded_joint_breaks_and_is_reported() {
    let world = TestWorld::new(vec2(0.0, -GRAVITY));
    let anchor = world.body(PRISM_BODY_TYPE_STATIC, vec2(0.0, 5.0));
    let weight = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(0.0, 4.0));
    world.add_box(weight, 0.25, 0.25, &prism_default_shape_def());
    let mut mass = 0.0;
    // SAFETY: a live world and output.
    ok(unsafe { prism_body_get_mass(world.ptr, weight, &mut mass) });
    assert!(
        (mass - 0.25).abs() < 1e-6,
        "0.5 m square at density 1: {mass}"
    );

    // A rod holding the weight carries its weight, m·g = 2.5 N; it breaks above 1 N.
    let mut def = prism_default_distance_joint_def();
    def.base.body_a = anchor;
    def.base.body_b = weight;
    def.base.break_force = 1.0;
    def.base.user_data = 77;
    def.length = 1.0;
    let mut joint = PrismJointId::default();
    // SAFETY: a live world; live definition and output.
    ok(unsafe { prism_joint_create_distance(world.ptr, &def, &mut joint) });
    world.step(1);

    let mut events = PrismJointEvents {
        break_events: std::ptr::null(),
        break_count: 0,
    };
    // SAFETY: a live world and output.
    ok(unsafe { prism_world_get_joint_events(world.ptr, &mut events) });
    // SAFETY: the world owns the array until its next step.
    let breaks = unsafe { copy_array(events.break_events, events.break_count) };
    assert_eq!(breaks.len(), 1);
    let event = breaks[0];
    assert_eq!(
        (event.joint, event.body_a, event.body_b),
        (joint, anchor, weight)
    );
    assert_eq!(event.user_data, 77);
    assert!(length(event.force) > 1.0, "{event:?}");
    // SAFETY: a live world.
    assert!(!unsafe { prism_joint_is_valid(world.ptr, joint) });
}
