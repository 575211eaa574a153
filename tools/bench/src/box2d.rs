//! The Box2D v3 backend, through the raw C API of `boxdd-sys` (Box2D's own C source, built
//! with its AVX2 SIMD path).
//!
//! **Threads.** Box2D v3 (this revision) ships its own task scheduler: with
//! `b2WorldDef::workerCount > 1` and no user task callbacks it starts `workerCount − 1`
//! threads that sleep on a semaphore between tasks, and the calling thread works too. We use
//! that built-in scheduler rather than a hand-written one: it is what Box2D's authors tune
//! and measure, so it is the fairest opponent, and it keeps this file free of task-system
//! `unsafe`.
//!
//! **Settings.** Box2D's world defaults are the benchmark's (contact hertz 30, damping ratio
//! 10, push speed 3 m/s, joint hertz 60, joint damping ratio 2, slop 0.005, restitution
//! threshold 1 m/s, maximum linear speed 400 m/s; friction mixed as `sqrt(f1·f2)`,
//! restitution as `max`). We change only gravity, sleeping (per scene) and continuous
//! collision, which is **off** unless `--continuous` is given (in every engine alike).
//! Contact recycling stays on (its default) unless `--no-recycling` is given: then the
//! world's recycle distance is set to 0 (`b2World_SetContactRecycleDistance`, Box2D's
//! world-wide switch; `b2BodyDef::enableContactRecycling` is the per-body one).
//!
//! **Joints.** A revolute joint's second frame is turned by the bodies' relative angle at
//! creation, so the joint angle starts at zero (as in the description and in Prism). A
//! distance joint is rigid unless it has a spring (Box2D's `enableSpring = false` ignores
//! limits and motor).
//!
//! **Memory.** Box2D allocates through its own `b2Alloc`, which keeps one process-wide count
//! of the bytes requested and not yet freed (`b2GetByteCount()`; `b2World_GetCounters` copies
//! the same number into `byteCount`, so it is not a per-world figure). It covers every array,
//! pool, tree, the step's arena and the task scheduler's state; it leaves out the `b2World`
//! record itself, which lives in Box2D's static table of worlds, and the worker threads'
//! stacks. prism-bench runs one Box2D world at a time, so the count now less the count just
//! before this world was created is this world's bytes. Box2D's allocations do not go through
//! Rust's allocator, so prism-bench's counting allocator never sees them.
//!
//! **Size limit.** Box2D's solver cuts each per-body stage into at most four blocks per worker,
//! and a block's item count is a 16-bit number: a step with more than `4 · workers · 65,535`
//! awake bodies fails an assertion inside Box2D and aborts the whole process. The backend
//! refuses, with an error naming the worker count needed, to build a scene with more dynamic
//! bodies than that (all of them may be awake at once): a million bodies need 4 workers.
//!
//! **Safety.** Every Box2D call is an `unsafe` FFI call. The invariants that make them sound
//! are few and local: the world id is created in [`create`] and destroyed only in `Drop`;
//! body and joint ids are stored only in a group's record from creation until
//! [`Engine::remove_group`] destroys them and drops the record; definitions and shape
//! structs passed by pointer are locals that outlive the call; the contact buffer is sized
//! to the capacity Box2D reports before Box2D writes into it.

// Unsafe code is confined here: Box2D is called through its C interface; every block has its `//
// SAFETY:` argument.
#![allow(unsafe_code)]

use boxdd_sys::ffi as b2;

use crate::engine::{
    BenchError, BodyContacts, BodySample, Counters, Engine, Memory, WorldSettings,
};
use scenes::description::{
    BodyDesc, BodyGroup, BodyKind, DistanceDesc, Geometry, JointDesc, RevoluteDesc, SUBSTEPS,
    ShapeDesc, TIME_STEP, Vec2,
};
use std::collections::HashMap;

/// The bodies and joints Box2D created for one group.
struct GroupRecord {
    bodies: Vec<b2::b2BodyId>,
    /// Bodies that can touch something and move: the ones whose contacts are sampled.
    dynamic_bodies: Vec<b2::b2BodyId>,
    joints: Vec<JointRecord>,
}

/// A joint with its two bodies, local anchors and the distance it keeps, for the joint
/// error figure.
struct JointRecord {
    id: b2::b2JointId,
    body_a: b2::b2BodyId,
    body_b: b2::b2BodyId,
    local_anchor_a: b2::b2Vec2,
    local_anchor_b: b2::b2Vec2,
    /// See `JointDesc::kept_distance`.
    kept_distance: Option<f32>,
}

/// One Box2D world.
pub struct Box2dEngine {
    world: b2::b2WorldId,
    groups: Vec<Option<GroupRecord>>,
    contact_buffer: Vec<b2::b2ContactData>,
    /// Box2D's `b2Profile` of every step, summed field by field (ms).
    phase_totals: Vec<(&'static str, f64)>,
    /// `b2GetByteCount()` just before this world was created.
    bytes_before: i64,
    /// The world's worker count (see the module notes on the size limit).
    workers: usize,
}

/// Largest item count of one of Box2D's solver blocks (a `uint16_t`), and its blocks per
/// worker.
const BLOCK_ITEMS: usize = u16::MAX as usize;
const BLOCKS_PER_WORKER: usize = 4;

/// The most awake bodies Box2D can step with `workers` workers.
fn max_awake_bodies(workers: usize) -> usize {
    BLOCKS_PER_WORKER * workers * BLOCK_ITEMS
}

/// The phases and solver stages of Box2D's `b2Profile` (ms of the last step), under Box2D's
/// own names, in step order; the indented ones are parts of `solve`. Box2D times its solver
/// stages on the calling thread, between the stage boundaries, as Prism's `StepProfile` does.
fn phases(profile: &b2::b2Profile) -> [(&'static str, f32); 17] {
    [
        ("pairs", profile.pairs),
        ("collide", profile.collide),
        ("solve", profile.solve),
        ("  solverSetup", profile.solverSetup),
        ("  prepareConstraints", profile.prepareConstraints),
        ("  integrateVelocities", profile.integrateVelocities),
        ("  warmStart", profile.warmStart),
        ("  solveImpulses", profile.solveImpulses),
        ("  integratePositions", profile.integratePositions),
        ("  relaxImpulses", profile.relaxImpulses),
        ("  applyRestitution", profile.applyRestitution),
        ("  storeImpulses", profile.storeImpulses),
        ("  splitIslands", profile.splitIslands),
        ("  transforms", profile.transforms),
        ("  refit", profile.refit),
        ("sleepIslands", profile.sleepIslands),
        ("total", profile.step),
    ]
}

fn to_b2(v: Vec2) -> b2::b2Vec2 {
    b2::b2Vec2 { x: v.x, y: v.y }
}

const ROT_IDENTITY: b2::b2Rot = b2::b2Rot { c: 1.0, s: 0.0 };

fn rot(angle: f32) -> b2::b2Rot {
    let (s, c) = angle.sin_cos();
    b2::b2Rot { c, s }
}

/// Creates an empty Box2D world for `settings` (the registry's constructor).
pub fn create(settings: &WorldSettings) -> Result<Box<dyn Engine>, BenchError> {
    let workers = i32::try_from(settings.threads)
        .map_err(|_| BenchError::new(format!("too many threads: {}", settings.threads)))?;
    // SAFETY: b2DefaultWorldDef only returns a value.
    let mut def = unsafe { b2::b2DefaultWorldDef() };
    def.gravity = to_b2(settings.gravity);
    def.enableSleep = settings.sleep_enabled;
    def.enableContinuous = settings.continuous;
    def.workerCount = workers;
    // SAFETY: b2GetByteCount only reads an atomic counter.
    let bytes_before = unsafe { b2::b2GetByteCount() };
    // SAFETY: `def` is a valid definition made by b2DefaultWorldDef and lives across the call.
    let world = unsafe { b2::b2CreateWorld(&def) };
    if !settings.contact_recycling {
        // SAFETY: the world was just created and is alive.
        unsafe { b2::b2World_SetContactRecycleDistance(world, 0.0) };
    }
    Ok(Box::new(Box2dEngine {
        world,
        groups: Vec::new(),
        contact_buffer: Vec::new(),
        phase_totals: Vec::new(),
        bytes_before,
        workers: settings.threads,
    }))
}

impl Box2dEngine {
    /// Refuses a group that would take the world past what Box2D can step (see the module
    /// notes).
    fn check_size(&self, group: &BodyGroup) -> Result<(), BenchError> {
        let existing: usize = self
            .groups
            .iter()
            .flatten()
            .map(|g| g.dynamic_bodies.len())
            .sum();
        let added = group
            .bodies
            .iter()
            .filter(|b| b.kind == BodyKind::Dynamic)
            .count();
        let limit = max_awake_bodies(self.workers);
        if existing + added <= limit {
            return Ok(());
        }
        let needed = (existing + added).div_ceil(BLOCKS_PER_WORKER * BLOCK_ITEMS);
        Err(BenchError::new(format!(
            "Box2D steps at most {limit} awake bodies with {} worker(s) (4 blocks a worker of at \
             most 65,535 bodies); this scene has {} dynamic bodies and needs {needed} workers",
            self.workers,
            existing + added
        )))
    }

    fn create_body(&self, desc: &BodyDesc) -> Result<b2::b2BodyId, BenchError> {
        // SAFETY: b2DefaultBodyDef only returns a value.
        let mut def = unsafe { b2::b2DefaultBodyDef() };
        def.type_ = match desc.kind {
            BodyKind::Static => b2::b2BodyType_b2_staticBody,
            BodyKind::Dynamic => b2::b2BodyType_b2_dynamicBody,
        };
        def.position = to_b2(desc.position);
        def.rotation = rot(desc.angle);
        def.linearVelocity = to_b2(desc.linear_velocity);
        def.linearDamping = desc.linear_damping;
        def.isAwake = !desc.starts_asleep;
        def.enableSleep = desc.can_sleep;
        def.sleepThreshold = desc.sleep_threshold;
        // SAFETY: the world is alive (see the module notes) and `def` outlives the call.
        let body = unsafe { b2::b2CreateBody(self.world, &def) };
        for shape in &desc.shapes {
            create_shape(body, shape)?;
        }
        Ok(body)
    }

    fn create_joint(
        &self,
        group: &BodyGroup,
        bodies: &[b2::b2BodyId],
        desc: &JointDesc,
    ) -> JointRecord {
        let (a, b) = desc.bodies();
        let (local_anchor_a, local_anchor_b) = desc.local_anchors();
        // Every kind's default definition starts from the same default base (Box2D's
        // `b2DefaultJointDef`, which is not exported): take the revolute one's.
        // SAFETY: b2DefaultRevoluteJointDef only returns a value.
        let mut base = unsafe { b2::b2DefaultRevoluteJointDef() }.base;
        base.bodyIdA = bodies[a];
        base.bodyIdB = bodies[b];
        base.localFrameA.p = to_b2(local_anchor_a);
        base.localFrameB.p = to_b2(local_anchor_b);
        let id = match desc {
            JointDesc::Revolute(revolute) => {
                let relative = group.bodies[b].angle - group.bodies[a].angle;
                base.localFrameB.q = rot(-relative);
                self.create_revolute(base, revolute)
            }
            JointDesc::Distance(distance) => self.create_distance(base, distance),
        };
        JointRecord {
            id,
            body_a: bodies[a],
            body_b: bodies[b],
            local_anchor_a: base.localFrameA.p,
            local_anchor_b: base.localFrameB.p,
            kept_distance: desc.kept_distance(),
        }
    }

    fn create_revolute(&self, base: b2::b2JointDef, desc: &RevoluteDesc) -> b2::b2JointId {
        // SAFETY: b2DefaultRevoluteJointDef only returns a value.
        let mut def = unsafe { b2::b2DefaultRevoluteJointDef() };
        def.base = base;
        if let Some([lower, upper]) = desc.limits {
            def.enableLimit = true;
            def.lowerAngle = lower;
            def.upperAngle = upper;
        }
        if let Some(spring) = desc.spring {
            def.enableSpring = true;
            def.hertz = spring.hertz;
            def.dampingRatio = spring.damping_ratio;
        }
        if let Some(motor) = desc.motor {
            def.enableMotor = true;
            def.motorSpeed = motor.speed;
            def.maxMotorTorque = motor.max_torque;
        }
        // SAFETY: the world and both bodies are alive (just created in this group), and
        // `def` outlives the call.
        unsafe { b2::b2CreateRevoluteJoint(self.world, &def) }
    }

    fn create_distance(&self, base: b2::b2JointDef, desc: &DistanceDesc) -> b2::b2JointId {
        // SAFETY: b2DefaultDistanceJointDef only returns a value.
        let mut def = unsafe { b2::b2DefaultDistanceJointDef() };
        def.base = base;
        def.length = desc.length;
        if let Some(spring) = desc.spring {
            def.enableSpring = true;
            def.hertz = spring.hertz;
            def.dampingRatio = spring.damping_ratio;
        }
        if let Some([min, max]) = desc.limits {
            def.enableLimit = true;
            def.minLength = min;
            def.maxLength = max;
        }
        // SAFETY: the world and both bodies are alive (just created in this group), and
        // `def` outlives the call.
        unsafe { b2::b2CreateDistanceJoint(self.world, &def) }
    }
}

/// The deepest penetration among the touching contacts of `body`, read through `buffer`
/// (resized to the body's contact capacity).
fn body_penetration(body: b2::b2BodyId, buffer: &mut Vec<b2::b2ContactData>) -> f32 {
    // SAFETY: `body` is a live body of a stored group.
    let capacity = unsafe { b2::b2Body_GetContactCapacity(body) };
    let capacity_len = usize::try_from(capacity).unwrap_or(0);
    if capacity_len == 0 {
        return 0.0;
    }
    // b2ContactData is plain old data (ids, floats, ints): fill with a zeroed template.
    let template = buffer.first().copied().unwrap_or_else(zeroed_contact);
    buffer.resize(capacity_len, template);
    // SAFETY: `body` is live and the buffer holds `capacity` elements, the most Box2D
    // writes.
    let count = unsafe { b2::b2Body_GetContactData(body, buffer.as_mut_ptr(), capacity) };
    let count = usize::try_from(count).unwrap_or(0).min(capacity_len);
    let mut deepest = 0.0f32;
    for contact in &buffer[..count] {
        let manifold = &contact.manifold;
        let points = usize::try_from(manifold.pointCount).unwrap_or(0).min(2);
        for point in &manifold.points[..points] {
            deepest = deepest.max(-point.separation);
        }
    }
    deepest
}

/// A body id as a map key (its index and generation; one world).
fn body_key(body: b2::b2BodyId) -> (i32, u16) {
    (body.index1, body.generation)
}

/// One body's contacts for the census: its count of contacts touching or not, and its
/// touching contacts with the other body placed by `places`.
fn census_of_body(
    body: b2::b2BodyId,
    at: (usize, usize),
    places: &HashMap<(i32, u16), (usize, usize)>,
) -> BodyContacts {
    // SAFETY: `body` is a live body of a stored group; these getters only read it.
    let (capacity, body_type, awake) = unsafe {
        (
            b2::b2Body_GetContactCapacity(body),
            b2::b2Body_GetType(body),
            b2::b2Body_IsAwake(body),
        )
    };
    let capacity_len = usize::try_from(capacity).unwrap_or(0);
    let mut buffer = vec![zeroed_contact(); capacity_len];
    // SAFETY: `body` is live and the buffer holds `capacity` elements, the most Box2D writes.
    let count = unsafe { b2::b2Body_GetContactData(body, buffer.as_mut_ptr(), capacity) };
    let count = usize::try_from(count).unwrap_or(0).min(capacity_len);
    let touching = buffer[..count].iter().filter_map(|contact| {
        // SAFETY: the contact's shapes are live (Box2D just reported them).
        let (body_a, type_a, body_b, type_b) = unsafe {
            (
                b2::b2Shape_GetBody(contact.shapeIdA),
                b2::b2Shape_GetType(contact.shapeIdA),
                b2::b2Shape_GetBody(contact.shapeIdB),
                b2::b2Shape_GetType(contact.shapeIdB),
            )
        };
        let ((_, own_type), (other, _)) = if body_key(body_a) == body_key(body) {
            ((body_a, type_a), (body_b, type_b))
        } else {
            ((body_b, type_b), (body_a, type_a))
        };
        let polygon = own_type == b2::b2ShapeType_b2_polygonShape;
        Some((polygon, *places.get(&body_key(other))?))
    });
    BodyContacts {
        at,
        is_static: body_type == b2::b2BodyType_b2_staticBody,
        awake,
        total: capacity_len,
        touching: touching.collect(),
    }
}

/// An all-zero contact record to size the buffer with before Box2D overwrites it.
fn zeroed_contact() -> b2::b2ContactData {
    let zero = b2::b2Vec2 { x: 0.0, y: 0.0 };
    let point = b2::b2ManifoldPoint {
        anchorA: zero,
        anchorB: zero,
        separation: 0.0,
        baseSeparation: 0.0,
        normalImpulse: 0.0,
        tangentImpulse: 0.0,
        totalNormalImpulse: 0.0,
        normalVelocity: 0.0,
        id: 0,
        persisted: false,
    };
    let shape = b2::b2ShapeId {
        index1: 0,
        world0: 0,
        generation: 0,
    };
    b2::b2ContactData {
        contactId: b2::b2ContactId {
            index1: 0,
            world0: 0,
            padding: 0,
            generation: 0,
        },
        shapeIdA: shape,
        shapeIdB: shape,
        manifold: b2::b2Manifold {
            normal: zero,
            rollingImpulse: 0.0,
            points: [point; 2],
            pointCount: 0,
        },
    }
}

/// Adds one shape to `body`.
fn create_shape(body: b2::b2BodyId, desc: &ShapeDesc) -> Result<(), BenchError> {
    // SAFETY: b2DefaultShapeDef only returns a value.
    let mut def = unsafe { b2::b2DefaultShapeDef() };
    def.density = desc.density;
    def.material.friction = desc.friction;
    def.material.restitution = desc.restitution;
    def.filter = b2::b2Filter {
        categoryBits: desc.filter.category,
        maskBits: desc.filter.mask,
        groupIndex: desc.filter.group,
    };
    match &desc.geometry {
        Geometry::Box {
            half_extents,
            center,
            radius,
        } => {
            let polygon = make_box(*half_extents, *center, *radius);
            // SAFETY: `body` is alive; `def` and `polygon` outlive the call.
            unsafe { b2::b2CreatePolygonShape(body, &def, &polygon) };
        }
        Geometry::Hull { points, radius } => {
            let polygon = make_hull(points, *radius)?;
            // SAFETY: as above.
            unsafe { b2::b2CreatePolygonShape(body, &def, &polygon) };
        }
        Geometry::Circle { center, radius } => {
            let circle = b2::b2Circle {
                center: to_b2(*center),
                radius: *radius,
            };
            // SAFETY: as above.
            unsafe { b2::b2CreateCircleShape(body, &def, &circle) };
        }
        Geometry::Capsule {
            center1,
            center2,
            radius,
        } => {
            let capsule = b2::b2Capsule {
                center1: to_b2(*center1),
                center2: to_b2(*center2),
                radius: *radius,
            };
            // SAFETY: as above.
            unsafe { b2::b2CreateCapsuleShape(body, &def, &capsule) };
        }
        Geometry::Segment { point1, point2 } => {
            let segment = b2::b2Segment {
                point1: to_b2(*point1),
                point2: to_b2(*point2),
            };
            // SAFETY: as above.
            unsafe { b2::b2CreateSegmentShape(body, &def, &segment) };
        }
        Geometry::ChainLoop { points } => create_chain_loop(body, &def, points)?,
    }
    Ok(())
}

fn make_box(half_extents: Vec2, center: Vec2, radius: f32) -> b2::b2Polygon {
    let (hx, hy) = (half_extents.x, half_extents.y);
    let centred = center == Vec2::ZERO;
    // SAFETY: the polygon constructors only compute and return a value.
    unsafe {
        match (centred, radius > 0.0) {
            (true, false) => b2::b2MakeBox(hx, hy),
            (true, true) => b2::b2MakeRoundedBox(hx, hy, radius),
            (false, false) => b2::b2MakeOffsetBox(hx, hy, to_b2(center), ROT_IDENTITY),
            (false, true) => {
                b2::b2MakeOffsetRoundedBox(hx, hy, to_b2(center), ROT_IDENTITY, radius)
            }
        }
    }
}

fn make_hull(points: &[Vec2], radius: f32) -> Result<b2::b2Polygon, BenchError> {
    if !(3..=8).contains(&points.len()) {
        return Err(BenchError::new(format!(
            "a hull needs 3 to 8 points, got {}",
            points.len()
        )));
    }
    let points: Vec<b2::b2Vec2> = points.iter().copied().map(to_b2).collect();
    // SAFETY: `points` holds `len` (≤ 8) initialised vectors for the duration of the call.
    let hull = unsafe { b2::b2ComputeHull(points.as_ptr(), points.len() as i32) };
    if hull.count < 3 {
        return Err(BenchError::new(
            "degenerate hull (collinear or coincident points)",
        ));
    }
    // SAFETY: `hull` is a valid hull just computed by Box2D.
    Ok(unsafe { b2::b2MakePolygon(&hull, radius) })
}

fn create_chain_loop(
    body: b2::b2BodyId,
    shape: &b2::b2ShapeDef,
    points: &[Vec2],
) -> Result<(), BenchError> {
    if points.len() < 4 {
        return Err(BenchError::new("a chain loop needs at least 4 points"));
    }
    let points: Vec<b2::b2Vec2> = points.iter().copied().map(to_b2).collect();
    let material = shape.material;
    // SAFETY: b2DefaultChainDef only returns a value.
    let mut def = unsafe { b2::b2DefaultChainDef() };
    def.points = points.as_ptr();
    def.count = points.len() as i32;
    def.materials = &material;
    def.materialCount = 1;
    def.filter = shape.filter;
    def.isLoop = true;
    // SAFETY: `body` is alive; `points` and `material`, which `def` points into, outlive
    // the call (Box2D copies them).
    unsafe { b2::b2CreateChain(body, &def) };
    Ok(())
}

impl Engine for Box2dEngine {
    fn insert_group(&mut self, slot: usize, group: &BodyGroup) -> Result<(), BenchError> {
        if self.groups.get(slot).is_some_and(Option::is_some) {
            return Err(BenchError::new(format!("group slot {slot} is taken")));
        }
        let bodies = group.bodies.len();
        if let Some(joint) = group.joints.iter().find(|j| {
            let (a, b) = j.bodies();
            a >= bodies || b >= bodies
        }) {
            return Err(BenchError::new(format!(
                "joint names a missing body: {joint:?}"
            )));
        }
        self.check_size(group)?;
        let mut record = GroupRecord {
            bodies: Vec::with_capacity(group.bodies.len()),
            dynamic_bodies: Vec::new(),
            joints: Vec::with_capacity(group.joints.len()),
        };
        for desc in &group.bodies {
            let body = self.create_body(desc)?;
            record.bodies.push(body);
            if desc.kind == BodyKind::Dynamic {
                record.dynamic_bodies.push(body);
            }
        }
        for desc in &group.joints {
            let joint = self.create_joint(group, &record.bodies, desc);
            record.joints.push(joint);
        }
        if self.groups.len() <= slot {
            self.groups.resize_with(slot + 1, || None);
        }
        self.groups[slot] = Some(record);
        Ok(())
    }

    fn remove_group(&mut self, slot: usize) {
        let Some(record) = self.groups.get_mut(slot).and_then(Option::take) else {
            return;
        };
        for joint in &record.joints {
            // SAFETY: the joint is alive until this call; its record is dropped below.
            unsafe { b2::b2DestroyJoint(joint.id, false) };
        }
        for &body in &record.bodies {
            // SAFETY: the body is alive until this call; its record is dropped below.
            unsafe { b2::b2DestroyBody(body) };
        }
    }

    fn step(&mut self) {
        // SAFETY: the world is alive.
        unsafe { b2::b2World_Step(self.world, TIME_STEP, SUBSTEPS as i32) };
        // SAFETY: the world is alive.
        let step = phases(&unsafe { b2::b2World_GetProfile(self.world) });
        if self.phase_totals.is_empty() {
            self.phase_totals = step.iter().map(|&(name, _)| (name, 0.0)).collect();
        }
        for (total, (_, ms)) in self.phase_totals.iter_mut().zip(step) {
            total.1 += f64::from(ms);
        }
    }

    fn phase_totals(&self) -> Vec<(&'static str, f64)> {
        self.phase_totals.clone()
    }

    fn body_contacts(&self) -> Option<Vec<BodyContacts>> {
        let groups = self.groups.iter().enumerate();
        let bodies: Vec<(b2::b2BodyId, (usize, usize))> = groups
            .filter_map(|(slot, group)| Some((slot, group.as_ref()?)))
            .flat_map(|(slot, group)| {
                let bodies = group.bodies.iter().enumerate();
                bodies.map(move |(index, &body)| (body, (slot, index)))
            })
            .collect();
        let places = bodies.iter().map(|&(b, at)| (body_key(b), at)).collect();
        let census = bodies
            .iter()
            .map(|&(body, at)| census_of_body(body, at, &places));
        Some(census.collect())
    }

    /// Box2D's own count (see the module notes), less the count before this world existed.
    fn memory(&self) -> Memory {
        // SAFETY: b2GetByteCount only reads an atomic counter.
        let now = unsafe { b2::b2GetByteCount() };
        Memory::Counted(u64::try_from(now - self.bytes_before).unwrap_or(0))
    }

    fn counters(&self) -> Counters {
        // SAFETY: the world is alive.
        let counters = unsafe { b2::b2World_GetCounters(self.world) };
        let count = |n: i32| usize::try_from(n).unwrap_or(0);
        Counters {
            bodies: count(counters.bodyCount),
            shapes: count(counters.shapeCount),
            contacts: count(counters.contactCount),
            joints: count(counters.jointCount),
        }
    }

    fn deepest_penetration(&mut self) -> f32 {
        let buffer = &mut self.contact_buffer;
        let bodies = self.groups.iter().flatten().flat_map(|g| &g.dynamic_bodies);
        bodies
            .map(|&body| body_penetration(body, buffer))
            .fold(0.0, f32::max)
    }

    fn body_sample(&self, slot: usize, body: usize) -> Option<BodySample> {
        let id = *self.groups.get(slot)?.as_ref()?.bodies.get(body)?;
        // SAFETY: `id` is a live body of a stored group; these getters only read it.
        let (p, q, v, w) = unsafe {
            (
                b2::b2Body_GetPosition(id),
                b2::b2Body_GetRotation(id),
                b2::b2Body_GetLinearVelocity(id),
                b2::b2Body_GetAngularVelocity(id),
            )
        };
        Some(BodySample {
            position: Vec2::new(p.x, p.y),
            angle: q.s.atan2(q.c),
            linear_velocity: Vec2::new(v.x, v.y),
            angular_velocity: w,
        })
    }

    fn max_joint_error(&self) -> f32 {
        let joints = self.groups.iter().flatten().flat_map(|g| g.joints.iter());
        joints
            .filter_map(|joint| {
                let kept = joint.kept_distance?;
                // SAFETY: both bodies are live bodies of the joint's stored group.
                let (a, b) = unsafe {
                    (
                        b2::b2Body_GetWorldPoint(joint.body_a, joint.local_anchor_a),
                        b2::b2Body_GetWorldPoint(joint.body_b, joint.local_anchor_b),
                    )
                };
                Some(((Vec2::new(a.x, a.y) - Vec2::new(b.x, b.y)).length() - kept).abs())
            })
            .fold(0.0, f32::max)
    }
}

impl Drop for Box2dEngine {
    fn drop(&mut self) {
        // SAFETY: the world is alive and is destroyed exactly once, here; it owns every body,
        // shape and joint, so no stored id is used afterwards.
        unsafe { b2::b2DestroyWorld(self.world) };
    }
}
