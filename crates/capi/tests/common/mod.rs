//! What the tests share: a world that destroys itself, and checked wrappers around the
//! C functions the scenes are built with. Every call goes through the exported `extern "C"`
//! functions, as a C program's would.

#![allow(
    dead_code,
    reason = "each test file uses a different subset of these functions"
)]

use prism_capi::*;
use std::ffi::CStr;
use std::ptr;

/// The message of the last failed call on this thread.
pub fn last_error() -> String {
    // SAFETY: `prism_last_error` returns a NUL-terminated buffer owned by this thread, which
    // only a later failing call on this thread replaces.
    unsafe { CStr::from_ptr(prism_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// Panics with the last error unless `status` is success.
#[track_caller]
pub fn ok(status: PrismStatus) {
    assert_eq!(status, PrismStatus::Ok, "{}", last_error());
}

/// Asserts that `status` is `expected` and that the last error contains every fragment.
#[track_caller]
pub fn fails(status: PrismStatus, expected: PrismStatus, fragments: &[&str]) {
    assert_eq!(status, expected, "{}", last_error());
    let message = last_error();
    for fragment in fragments {
        assert!(message.contains(fragment), "`{message}` lacks `{fragment}`");
    }
}

/// A world created through the C interface and destroyed when dropped.
pub struct TestWorld {
    pub ptr: *mut PrismWorld,
}

impl TestWorld {
    /// A world with the default settings and the given gravity.
    pub fn new(gravity: PrismVec2) -> TestWorld {
        let def = PrismWorldDef {
            gravity,
            ..prism_default_world_def()
        };
        TestWorld::with_def(&def)
    }

    pub fn with_def(def: &PrismWorldDef) -> TestWorld {
        let mut ptr = ptr::null_mut();
        // SAFETY: `def` and `ptr` are live locals of the types the function takes.
        ok(unsafe { prism_world_create(def, &mut ptr) });
        TestWorld { ptr }
    }

    pub fn step(&self, steps: usize) {
        for _ in 0..steps {
            // SAFETY: a live world, used by this thread alone.
            ok(unsafe { prism_world_step(self.ptr, 1.0 / 60.0, 4) });
        }
    }

    pub fn body(&self, body_type: PrismBodyType, position: PrismVec2) -> PrismBodyId {
        let def = PrismBodyDef {
            body_type,
            position,
            ..prism_default_body_def()
        };
        let mut id = PrismBodyId::default();
        // SAFETY: a live world; `def` and `id` are live locals.
        ok(unsafe { prism_body_create(self.ptr, &def, &mut id) });
        id
    }

    /// Attaches a box with the given half extents and shape definition.
    pub fn add_box(
        &self,
        body: PrismBodyId,
        half_width: f32,
        half_height: f32,
        def: &PrismShapeDef,
    ) -> PrismShapeId {
        let polygon = make_box(half_width, half_height);
        let mut id = PrismShapeId::default();
        // SAFETY: a live world; `def`, `polygon` and `id` are live values.
        ok(unsafe { prism_shape_create_polygon(self.ptr, body, def, &polygon, &mut id) });
        id
    }

    /// The static ground: a 40 m × 2 m box whose top face is at y = 0.
    pub fn ground(&self) -> (PrismBodyId, PrismShapeId) {
        let body = self.body(PRISM_BODY_TYPE_STATIC, vec2(0.0, -1.0));
        let shape = self.add_box(body, 20.0, 1.0, &prism_default_shape_def());
        (body, shape)
    }

    pub fn position(&self, body: PrismBodyId) -> PrismVec2 {
        let mut out = PrismVec2::default();
        // SAFETY: a live world and a live output.
        ok(unsafe { prism_body_get_position(self.ptr, body, &mut out) });
        out
    }

    pub fn angle(&self, body: PrismBodyId) -> f32 {
        let mut out = 0.0;
        // SAFETY: a live world and a live output.
        ok(unsafe { prism_body_get_angle(self.ptr, body, &mut out) });
        out
    }

    pub fn velocity(&self, body: PrismBodyId) -> PrismVec2 {
        let mut out = PrismVec2::default();
        // SAFETY: a live world and a live output.
        ok(unsafe { prism_body_get_linear_velocity(self.ptr, body, &mut out) });
        out
    }

    pub fn angular_velocity(&self, body: PrismBodyId) -> f32 {
        let mut out = 0.0;
        // SAFETY: a live world and a live output.
        ok(unsafe { prism_body_get_angular_velocity(self.ptr, body, &mut out) });
        out
    }

    pub fn counters(&self) -> PrismCounters {
        let mut out = PrismCounters::default();
        // SAFETY: a live world and a live output.
        ok(unsafe { prism_world_get_counters(self.ptr, &mut out) });
        out
    }

    pub fn contact_events(&self) -> PrismContactEvents {
        let mut out = PrismContactEvents {
            begin_events: ptr::null(),
            begin_count: 0,
            end_events: ptr::null(),
            end_count: 0,
        };
        // SAFETY: a live world and a live output.
        ok(unsafe { prism_world_get_contact_events(self.ptr, &mut out) });
        out
    }

    /// Copies of the last step's begin and end events.
    pub fn contact_event_lists(
        &self,
    ) -> (
        Vec<PrismContactBeginTouchEvent>,
        Vec<PrismContactEndTouchEvent>,
    ) {
        let events = self.contact_events();
        (
            // SAFETY: the world owns these arrays of the given counts until its next step.
            unsafe { copy_array(events.begin_events, events.begin_count) },
            // SAFETY: as above.
            unsafe { copy_array(events.end_events, events.end_count) },
        )
    }
}

impl Drop for TestWorld {
    fn drop(&mut self) {
        // SAFETY: the world is live and never used again.
        let status = unsafe { prism_world_destroy(self.ptr) };
        if !std::thread::panicking() {
            ok(status);
        }
    }
}

/// Copies `count` values from an array the interface handed out (NULL when empty).
///
/// # Safety
///
/// `start` is NULL with `count == 0`, or points to `count` live values.
pub unsafe fn copy_array<T: Copy>(start: *const T, count: usize) -> Vec<T> {
    if count == 0 {
        assert!(start.is_null(), "an empty array is handed out as NULL");
        return Vec::new();
    }
    // SAFETY: the caller's contract.
    unsafe { std::slice::from_raw_parts(start, count) }.to_vec()
}

pub fn vec2(x: f32, y: f32) -> PrismVec2 {
    PrismVec2 { x, y }
}

pub fn length(v: PrismVec2) -> f32 {
    v.x.hypot(v.y)
}

/// A box polygon from `prism_make_box`.
pub fn make_box(half_width: f32, half_height: f32) -> PrismPolygon {
    let mut polygon = std::mem::MaybeUninit::<PrismPolygon>::uninit();
    // SAFETY: `polygon` is writable memory for one polygon; on success it is initialised.
    ok(unsafe { prism_make_box(half_width, half_height, polygon.as_mut_ptr()) });
    // SAFETY: `prism_make_box` returned success, so it wrote the polygon.
    unsafe { polygon.assume_init() }
}
