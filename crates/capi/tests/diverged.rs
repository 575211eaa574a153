//! The step's divergence list through the C interface: empty after healthy steps, read with
//! the usual count-then-fill convention. (How bodies come to be listed is tested in the
//! engine, which can inject a NaN mid-step.)

#![allow(unsafe_code, reason = "these tests call the C interface as C would")]

mod common;

use common::*;
use prism_capi::*;
use std::ptr;

#[test]
fn a_healthy_step_lists_no_diverged_bodies() {
    let world = TestWorld::new(vec2(0.0, -10.0));
    world.ground();
    let body = world.body(PRISM_BODY_TYPE_DYNAMIC, vec2(0.0, 2.0));
    world.add_box(body, 0.5, 0.5, &prism_default_shape_def());
    world.step(30);
    let mut count = usize::MAX;
    // SAFETY: a live world; no array (capacity 0); a live count.
    ok(unsafe { prism_world_get_diverged_bodies(world.ptr, ptr::null_mut(), 0, &mut count) });
    assert_eq!(count, 0);
    let mut ids = [PrismBodyId { bits: 5 }; 2];
    // SAFETY: a live world; `ids` holds 2 ids; a live count.
    ok(unsafe { prism_world_get_diverged_bodies(world.ptr, ids.as_mut_ptr(), 2, &mut count) });
    assert_eq!(
        (count, ids),
        (0, [PrismBodyId { bits: 5 }; 2]),
        "nothing written"
    );
    // SAFETY: a live world; a NULL count is refused before anything is read.
    let status =
        unsafe { prism_world_get_diverged_bodies(world.ptr, ptr::null_mut(), 0, ptr::null_mut()) };
    fails(status, PrismStatus::NullPointer, &["out_count"]);
}
