//! The seeded driver: generates a case from a seed, runs it against a world and the model, and
//! checks every call.
//!
//! For each op the driver asks the model for a verdict, takes a [`Fingerprint`] of the world
//! if the call may fail, makes the call, and checks the outcome: a call that must succeed
//! succeeded, one that must fail failed, and a failed call changed nothing the user can read.
//! Then the model is updated with what the call created or destroyed, and the world's counts
//! and every id's validity and attachments are compared with it. After every step (with the
//! `validate` feature the step itself checks every structure) the bodies must be finite,
//! broken joints must be gone, a paused step must change nothing, and the bodies' state is
//! hashed into the case's trace, which two runs of the same case with different worker counts
//! must share exactly.

use crate::fingerprint::Fingerprint;
use crate::model::{
    JointEntry, KindTag, Model, doubtful_geometry, kind_parts, rotation, tag_of,
    verdict_positive_doubtful, verdict_settings, verdict_shape_def, verdict_threshold,
};
use crate::ops::{self, BodyEdit, Call, Damage, JointEdit, JointSpec, Op, PolygonSpec, Query};
use crate::values::{
    Source, Verdict, extreme, extreme_vec, finite, finite_vec, non_negative, positive,
};
use arbitrary::Unstructured;
use collision::raycast::{RayCastInput, ray_cast_shape};
use prism::{
    Aabb, BodyDef, BodyType, Capsule, Circle, DistanceJointDef, Filter, IdKind, JointDef,
    LINEAR_SLOP, MIN_HALF_EXTENT, MassRatioWarning, MotorJointDef, Polygon, PrismError,
    PrismaticJointDef, QueryFilter, RayResult, RevoluteJointDef, Segment, ShapeDef, ShapeId,
    SolverKind, TargetJointDef, Vec2, WeldJointDef, WheelJointDef, World, WorldDef, make_box,
    make_offset_box, make_polygon, make_rounded_box,
};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The world settings a case runs with (the worker count is chosen per run).
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub solver_kind: SolverKind,
    pub warm_starting: bool,
    pub recycling: bool,
    pub force_overflow: bool,
    pub sleep: bool,
}

/// A generated case: settings and the op sequence.
#[derive(Clone, Debug)]
pub struct Case {
    pub seed: u64,
    pub settings: Settings,
    pub ops: Vec<Call>,
}

/// A check that failed, at op `op` of the case.
#[derive(Clone, Debug)]
pub struct Failure {
    pub op: usize,
    pub message: String,
}

impl Failure {
    /// The message up to its first number or bracket: what kind of failure it is, without
    /// the ids and values, so that shrinking keeps to the same kind.
    pub fn class(&self) -> &str {
        let end = self
            .message
            .find(|c: char| c.is_ascii_digit() || "([{".contains(c))
            .unwrap_or(self.message.len());
        self.message[..end].trim()
    }
}

/// What a run observed.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub calls: u64,
    pub steps: u64,
    pub paused_steps: u64,
    pub diverged_steps: u64,
    /// Diverged steps in worlds that had not accepted an extreme value.
    pub clean_diverged_steps: u64,
    /// Steps after which a body of such a world was beyond 10⁶ m or m/s.
    pub clean_runaways: u64,
    /// The first seed with either.
    pub clean_divergence_seed: Option<u64>,
    /// Cases whose world accepted an extreme value.
    pub tainted_cases: u64,
    pub accepted: u64,
    pub refused: u64,
    pub doubtful_accepted: u64,
    pub doubtful_refused: u64,
    pub most_bodies: usize,
    pub most_shapes: usize,
    pub most_joints: usize,
    pub most_contacts: usize,
    pub most_sleeping_sets: usize,
    pub joint_breaks: u64,
}

impl Stats {
    pub fn add(&mut self, other: &Stats) {
        self.calls += other.calls;
        self.steps += other.steps;
        self.paused_steps += other.paused_steps;
        self.diverged_steps += other.diverged_steps;
        self.clean_diverged_steps += other.clean_diverged_steps;
        self.clean_runaways += other.clean_runaways;
        if self.clean_divergence_seed.is_none() {
            self.clean_divergence_seed = other.clean_divergence_seed;
        }
        self.tainted_cases += other.tainted_cases;
        self.accepted += other.accepted;
        self.refused += other.refused;
        self.doubtful_accepted += other.doubtful_accepted;
        self.doubtful_refused += other.doubtful_refused;
        self.most_bodies = self.most_bodies.max(other.most_bodies);
        self.most_shapes = self.most_shapes.max(other.most_shapes);
        self.most_joints = self.most_joints.max(other.most_joints);
        self.most_contacts = self.most_contacts.max(other.most_contacts);
        self.most_sleeping_sets = self.most_sleeping_sets.max(other.most_sleeping_sets);
        self.joint_breaks += other.joint_breaks;
    }
}

/// A run's outcome: its statistics and its determinism trace.
pub struct Report {
    pub stats: Stats,
    pub trace: Vec<u64>,
}

/// SplitMix64: the byte stream a seed stands for.
fn bytes_of(seed: u64, count: usize) -> Vec<u8> {
    let mut state = seed;
    let mut bytes = Vec::with_capacity(count + 8);
    while bytes.len() < count {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        bytes.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    bytes
}

/// Whether a seed's case is clean: no dirty op at all, so its world never sees an extreme
/// value and every check holds at full strength to the end. One case in four, spread over
/// every worker count (`workers_of` uses `seed % 4`).
pub fn is_clean(seed: u64) -> bool {
    (seed / 4).is_multiple_of(4)
}

/// The case a seed stands for: `op_count` ops after the ground.
pub fn generate(seed: u64, op_count: usize) -> Case {
    let bytes = bytes_of(seed, 128 * op_count + 64);
    let mut u = Unstructured::new(&bytes);
    let mut s = Source {
        u: &mut u,
        dirty: false,
        extreme: false,
    };
    let settings = Settings {
        solver_kind: if s.chance(1, 5).unwrap_or(false) {
            SolverKind::SequentialImpulses
        } else {
            SolverKind::SoftStep
        },
        warm_starting: s.chance(9, 10).unwrap_or(true),
        recycling: s.chance(7, 10).unwrap_or(true),
        force_overflow: s.chance(1, 10).unwrap_or(false),
        sleep: s.chance(4, 5).unwrap_or(true),
    };
    let mut all: Vec<Call> = ops::ground()
        .into_iter()
        .map(|op| Call { op, extreme: false })
        .collect();
    let clean = is_clean(seed);
    while all.len() < op_count + 2 {
        match ops::call(&mut s, clean) {
            Ok(call) => all.push(call),
            Err(_) => break,
        }
    }
    Case {
        seed,
        settings,
        ops: all,
    }
}

/// Runs `case` on a world with `workers` threads. Panics inside the engine are failures.
pub fn run(case: &Case, workers: u32) -> Result<Report, Failure> {
    let def = WorldDef {
        solver_kind: case.settings.solver_kind,
        enable_warm_starting: case.settings.warm_starting,
        enable_contact_recycling: case.settings.recycling,
        force_overflow: case.settings.force_overflow,
        enable_sleep: case.settings.sleep,
        worker_count: workers,
        ..WorldDef::default()
    };
    let world = World::new(def).map_err(|error| Failure {
        op: 0,
        message: format!("world creation: {error}"),
    })?;
    let mut runner = Runner {
        world,
        model: Model::default(),
        trace: Vec::new(),
        stats: Stats::default(),
        extreme_bodies: Vec::new(),
        tainted: false,
        extreme_op: false,
        seed: case.seed,
    };
    let verbose = std::env::var_os("PRISM_FUZZ_VERBOSE").is_some();
    for (index, call) in case.ops.iter().enumerate() {
        if verbose {
            eprintln!("{index:4}: {call:?}");
        }
        runner.extreme_op = call.extreme;
        let outcome = catch_unwind(AssertUnwindSafe(|| runner.apply(&call.op)));
        let message = match outcome {
            Ok(Ok(())) => continue,
            Ok(Err(message)) => message,
            Err(payload) => format!("panic: {}", panic_text(&payload)),
        };
        return Err(Failure { op: index, message });
    }
    runner.stats.tainted_cases = u64::from(runner.tainted);
    Ok(Report {
        stats: runner.stats,
        trace: runner.trace,
    })
}

pub fn panic_text(payload: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "(no message)".into()
    }
}

struct Runner {
    world: World,
    model: Model,
    trace: Vec<u64>,
    stats: Stats,
    /// Bodies given an extreme pose, velocity or mass property, or holding a shape whose size,
    /// offset or density was extreme: further changes to them may overflow, so the model only
    /// doubts them.
    extreme_bodies: Vec<prism::BodyId>,
    /// Whether the world accepted an extreme value: until then no step may diverge.
    tainted: bool,
    /// Whether the current op holds an extreme value: if any of its calls succeeds (or it
    /// steps), the world is tainted.
    extreme_op: bool,
    seed: u64,
}

type Checked<T> = Result<T, String>;

impl Runner {
    fn apply(&mut self, op: &Op) -> Checked<()> {
        match op {
            Op::CreateBody(spec) => self.create_body(spec)?,
            Op::DestroyBody(pick) => {
                let body = self.model.body(*pick);
                let verdict = Verdict::Accept.unless(!body.live);
                if self.call(verdict, |w| w.destroy_body(body.id))?.is_some() {
                    self.model.remove_body(body.id);
                }
            }
            Op::Circle { .. } | Op::Capsule { .. } | Op::Segment { .. } => {
                self.create_round_shape(op)?
            }
            Op::Polygon { body, def, polygon } => self.create_polygon(*body, def, polygon)?,
            Op::Chain {
                body,
                def,
                points,
                closed,
            } => self.create_chain(*body, def, points, *closed)?,
            Op::DestroyShape(pick) => {
                let shape = self.model.shape(*pick);
                let verdict = Verdict::Accept.unless(!shape.live);
                if self.call(verdict, |w| w.destroy_shape(shape.id))?.is_some() {
                    self.model.remove_shape(shape.id);
                }
            }
            Op::Joint(spec) => self.create_joint(spec)?,
            Op::DestroyJoint(pick) => {
                let joint = self.model.joint(*pick);
                let verdict = Verdict::Accept.unless(!joint.live);
                if self.call(verdict, |w| w.destroy_joint(joint.id))?.is_some() {
                    self.model.remove_joint(joint.id);
                }
            }
            Op::EditBody(pick, edit) => self.edit_body(*pick, edit)?,
            Op::EditJoint(pick, edit) => self.edit_joint(*pick, edit)?,
            Op::Gravity(g) => {
                self.call(finite_vec(*g), |w| w.set_gravity(*g))?;
            }
            Op::WorldSleep(enabled) => {
                self.world.set_sleep_enabled(*enabled);
                self.stats.calls += 1;
            }
            Op::Query(query) => self.query(query)?,
            Op::Read { body, shape, joint } => self.read(*body, *shape, *joint)?,
            Op::Step {
                dt,
                substeps,
                repeat,
            } => self.step(*dt, *substeps, *repeat)?,
            Op::Snapshot { dt } => self.snapshot_round_trip(*dt)?,
        }
        self.check_model()
    }

    /// Makes a call with a verdict and checks its outcome (see the module notes).
    fn call<T>(
        &mut self,
        verdict: Verdict,
        f: impl FnOnce(&mut World) -> Result<T, PrismError>,
    ) -> Checked<Option<T>> {
        self.stats.calls += 1;
        let before = (verdict != Verdict::Accept).then(|| Fingerprint::of(&self.world));
        let result = f(&mut self.world);
        self.trace.push(u64::from(result.is_ok()));
        match (verdict, result) {
            (Verdict::Refuse, Ok(_)) => Err("accepted a call that must be refused".into()),
            (Verdict::Accept, Err(error)) => Err(format!("refused a valid call: {error}")),
            (verdict, Ok(value)) => {
                self.tainted |= self.extreme_op;
                if verdict == Verdict::Accept {
                    self.stats.accepted += 1;
                } else {
                    self.stats.doubtful_accepted += 1;
                }
                Ok(Some(value))
            }
            (verdict, Err(error)) => {
                if error.to_string().is_empty() {
                    return Err(format!("error {error:?} has an empty message"));
                }
                if matches!(error, PrismError::Corrupted { .. }) {
                    return Err(format!("a call outside a step reported {error}"));
                }
                let after = Fingerprint::of(&self.world);
                let before = before.expect("taken for every call that may fail");
                if before != after {
                    return Err(format!(
                        "refused call ({error}) left a trace: {}",
                        before.difference(&after)
                    ));
                }
                if verdict == Verdict::Refuse {
                    self.stats.refused += 1;
                } else {
                    self.stats.doubtful_refused += 1;
                }
                Ok(None)
            }
        }
    }

    fn create_body(&mut self, spec: &ops::BodySpec) -> Checked<()> {
        let (rot, rotation_verdict) = rotation(spec.rotation);
        let verdict = finite_vec(spec.position)
            .and(rotation_verdict)
            .and(finite_vec(spec.linear_velocity))
            .and(finite(spec.angular_velocity))
            .and(non_negative(spec.linear_damping))
            .and(non_negative(spec.angular_damping))
            .and(finite(spec.gravity_scale))
            .and(non_negative(spec.sleep_threshold))
            .and(positive(spec.inertia_scale));
        let def = BodyDef {
            body_type: spec.body_type,
            position: spec.position,
            rotation: rot,
            linear_velocity: spec.linear_velocity,
            angular_velocity: spec.angular_velocity,
            linear_damping: spec.linear_damping,
            angular_damping: spec.angular_damping,
            gravity_scale: spec.gravity_scale,
            fixed_rotation: spec.fixed_rotation,
            is_bullet: spec.is_bullet,
            user_data: 7,
            enable_sleep: spec.enable_sleep,
            sleep_threshold: spec.sleep_threshold,
            inertia_scale: spec.inertia_scale,
        };
        if let Some(id) = self.call(verdict, |w| w.create_body(&def))? {
            if self.model.body_entry(id).is_some() || self.model.stale_bodies.contains(&id) {
                return Err(format!("create_body reissued the id {id:?}"));
            }
            self.model.add_body(id, spec.body_type);
            let extreme_spec = extreme_vec(spec.position)
                || extreme_vec(spec.linear_velocity)
                || extreme(spec.angular_velocity)
                || extreme(spec.inertia_scale);
            if extreme_spec {
                self.extreme_bodies.push(id);
            }
        }
        Ok(())
    }

    /// The verdict for a new shape on `body` with `def`, given the geometry's own verdict and
    /// whether its numbers are extreme.
    fn shape_verdict(
        &self,
        body: crate::model::Resolved<prism::BodyId>,
        def: &ops::ShapeSpec,
        geometry: Verdict,
        doubtful: bool,
    ) -> Verdict {
        let on_extreme_body = self.is_extreme_body(body.id);
        geometry
            .and(verdict_shape_def(
                def.density,
                def.friction,
                def.restitution,
            ))
            .doubt(doubtful || on_extreme_body)
            .unless(!body.live)
    }

    /// Whether a body was given extreme values, or now holds them (a step with an extreme
    /// time step can carry a kinematic body 10³⁸ m away).
    fn is_extreme_body(&self, id: prism::BodyId) -> bool {
        let now_extreme = || {
            let pose = self.world.transform(id).ok()?;
            let velocity = self.world.linear_velocity(id).ok()?;
            let spin = self.world.angular_velocity(id).ok()?;
            let mass = self.world.mass_data(id).ok()?;
            Some(
                extreme_vec(pose.p)
                    || extreme_vec(velocity)
                    || extreme(spin)
                    || extreme(mass.mass)
                    || extreme(mass.rotational_inertia)
                    || extreme_vec(mass.center),
            )
        };
        self.extreme_bodies.contains(&id) || now_extreme().unwrap_or(false)
    }

    fn shape_added(&mut self, body: prism::BodyId, id: ShapeId, doubtful: bool) -> Checked<()> {
        if self.model.all_shapes().any(|(s, _)| s == id) || self.model.stale_shapes.contains(&id) {
            return Err(format!("a shape id was reissued: {id:?}"));
        }
        self.model.add_shape(body, id);
        if doubtful && !self.extreme_bodies.contains(&body) {
            self.extreme_bodies.push(body);
        }
        Ok(())
    }

    fn create_round_shape(&mut self, op: &Op) -> Checked<()> {
        let (pick, def, geometry, verdict, doubtful) = match *op {
            Op::Circle {
                body,
                def,
                center,
                radius,
            } => (
                body,
                def,
                prism::Shape::Circle(Circle { center, radius }),
                finite_vec(center).and(positive(radius)),
                doubtful_geometry(&[radius], &[center]),
            ),
            Op::Capsule {
                body,
                def,
                center1,
                center2,
                radius,
            } => (
                body,
                def,
                prism::Shape::Capsule(Capsule {
                    center1,
                    center2,
                    radius,
                }),
                finite_vec(center1)
                    .and(finite_vec(center2))
                    .and(positive(radius)),
                doubtful_geometry(&[radius], &[center1, center2]),
            ),
            Op::Segment {
                body,
                def,
                point1,
                point2,
            } => {
                let length = point1.distance(point2);
                let verdict = finite_vec(point1)
                    .and(finite_vec(point2))
                    .unless(point1.is_finite() && point2.is_finite() && length <= LINEAR_SLOP)
                    .doubt((length - LINEAR_SLOP).abs() < 1e-4);
                (
                    body,
                    def,
                    prism::Shape::Segment(Segment { point1, point2 }),
                    verdict,
                    doubtful_geometry(&[], &[point1, point2]),
                )
            }
            _ => unreachable!("round shapes only"),
        };
        let body = self.model.body(pick);
        let verdict = self.shape_verdict(body, &def, verdict, doubtful);
        let shape_def = shape_def(&def);
        let created = self.call(verdict, |w| match geometry {
            prism::Shape::Circle(c) => w.create_circle_shape(body.id, &shape_def, &c),
            prism::Shape::Capsule(c) => w.create_capsule_shape(body.id, &shape_def, &c),
            prism::Shape::Segment(s) => w.create_segment_shape(body.id, &shape_def, &s),
            _ => unreachable!("round shapes only"),
        })?;
        if let Some(id) = created {
            self.shape_added(body.id, id, doubtful || extreme(def.density))?;
        }
        Ok(())
    }

    fn create_polygon(
        &mut self,
        pick: ops::Pick,
        def: &ops::ShapeSpec,
        spec: &PolygonSpec,
    ) -> Checked<()> {
        self.stats.calls += 1;
        let (made, constructor_verdict, broken) = make(spec);
        let polygon = match (made, constructor_verdict) {
            (Ok(_), Verdict::Refuse) => {
                return Err(format!("constructor accepted bad arguments: {spec:?}"));
            }
            (Err(error), Verdict::Accept) => {
                return Err(format!("constructor refused {spec:?}: {error:?}"));
            }
            (Err(_), _) => return Ok(()),
            (Ok(polygon), _) => polygon,
        };
        let body = self.model.body(pick);
        let used = polygon.count.min(polygon.vertices.len());
        let extremes: Vec<f32> = polygon.vertices[..used]
            .iter()
            .flat_map(|v| [v.x, v.y])
            .chain([polygon.radius])
            .collect();
        let doubtful = doubtful_geometry(&extremes, &[]);
        let geometry = Verdict::Accept.unless(broken);
        let verdict = self.shape_verdict(body, def, geometry, doubtful);
        let shape_def = shape_def(def);
        let created = self.call(verdict, |w| {
            w.create_polygon_shape(body.id, &shape_def, &polygon)
        })?;
        if let Some(id) = created {
            self.shape_added(body.id, id, doubtful || extreme(def.density))?;
        }
        Ok(())
    }

    fn create_chain(
        &mut self,
        pick: ops::Pick,
        def: &ops::ShapeSpec,
        points: &[Vec2],
        closed: bool,
    ) -> Checked<()> {
        let body = self.model.body(pick);
        let n = points.len();
        let links = if closed { n } else { n.saturating_sub(1) };
        let all_finite = points.iter().all(|p| p.is_finite());
        let lengths: Vec<f32> = (0..links)
            .map(|i| points[i].distance(points[(i + 1) % n]))
            .collect();
        let verdict = Verdict::Accept
            .unless(n < if closed { 3 } else { 2 })
            .unless(!all_finite)
            .unless(all_finite && lengths.iter().any(|&l| l < LINEAR_SLOP))
            .doubt(lengths.iter().any(|&l| (l - LINEAR_SLOP).abs() < 1e-4));
        let doubtful = doubtful_geometry(&[], points);
        let verdict = self.shape_verdict(body, def, verdict, doubtful);
        let shape_def = shape_def(def);
        let created = self.call(verdict, |w| {
            w.create_chain(body.id, &shape_def, points, closed)
        })?;
        if let Some(ids) = created {
            if ids.len() != links {
                return Err(format!("{} links for {n} points", ids.len()));
            }
            for id in ids {
                self.shape_added(body.id, id, doubtful)?;
            }
        }
        Ok(())
    }

    fn create_joint(&mut self, spec: &JointSpec) -> Checked<()> {
        let a = self.model.body(spec.body_a);
        let b = self.model.body(spec.body_b);
        let (kind, tag, def_verdict) = kind_parts(&spec.kind);
        let both_static = [a.id, b.id].iter().all(|&id| {
            self.model
                .body_entry(id)
                .is_some_and(|e| e.body_type == BodyType::Static)
        });
        let verdict = def_verdict
            .and(verdict_settings(&kind))
            .and(finite_vec(spec.anchor_a))
            .and(finite_vec(spec.anchor_b))
            .and(verdict_threshold(spec.break_force))
            .and(verdict_threshold(spec.break_torque))
            .unless(!a.live || !b.live || a.id == b.id || both_static);
        let base = JointDef {
            local_anchor_a: spec.anchor_a,
            local_anchor_b: spec.anchor_b,
            collide_connected: spec.collide_connected,
            break_force: spec.break_force,
            break_torque: spec.break_torque,
            user_data: 3,
            ..JointDef::new(a.id, b.id)
        };
        let kind_spec = spec.kind;
        let created = self.call(verdict, |w| create_joint_of(w, base, kind_spec))?;
        if let Some(id) = created {
            if self.model.joint_entry(id).is_some() || self.model.stale_joints.contains(&id) {
                return Err(format!("a joint id was reissued: {id:?}"));
            }
            self.model.add_joint(JointEntry {
                id,
                body_a: a.id,
                body_b: b.id,
                kind: tag,
            });
        }
        Ok(())
    }

    fn edit_body(&mut self, pick: ops::Pick, edit: &BodyEdit) -> Checked<()> {
        let body = self.model.body(pick);
        let id = body.id;
        let on_extreme = self.is_extreme_body(id);
        // Forces and impulses may be refused when their effect overflows: possible only with
        // extreme arguments, or on a body with extreme mass properties.
        let effect = |extreme_args: bool| Verdict::Accept.doubt(extreme_args || on_extreme);
        let verdict = match *edit {
            BodyEdit::Transform(p, r) => {
                finite_vec(p).and(rotation(r).1).and(effect(extreme_vec(p)))
            }
            BodyEdit::LinearVelocity(v) => finite_vec(v),
            BodyEdit::AngularVelocity(x) => finite(x),
            BodyEdit::ForceToCenter(v) | BodyEdit::ImpulseToCenter(v) => {
                finite_vec(v).and(effect(extreme_vec(v)))
            }
            BodyEdit::Torque(x) | BodyEdit::AngularImpulse(x) => finite(x).and(effect(extreme(x))),
            BodyEdit::Force(f, p) | BodyEdit::Impulse(f, p) => finite_vec(f)
                .and(finite_vec(p))
                .and(effect(extreme_vec(f) || extreme_vec(p))),
            BodyEdit::Mass(m) => {
                let inverse_fails = |x: f32| x > 0.0 && !(1.0 / x).is_finite();
                non_negative(m.mass)
                    .and(finite_vec(m.center))
                    .and(non_negative(m.rotational_inertia))
                    .unless(inverse_fails(m.mass) || inverse_fails(m.rotational_inertia))
                    .and(effect(extreme_vec(m.center)))
            }
            BodyEdit::InertiaScale(s) => verdict_positive_doubtful(s).doubt(on_extreme),
            BodyEdit::SleepThreshold(t) => non_negative(t),
            BodyEdit::Awake(_) | BodyEdit::SleepEnabled(_) | BodyEdit::UserData(_) => {
                Verdict::Accept
            }
        }
        .unless(!body.live);
        let edit = *edit;
        self.call(verdict, |w| match edit {
            BodyEdit::Transform(p, r) => w.set_transform(id, p, rotation(r).0),
            BodyEdit::LinearVelocity(v) => w.set_linear_velocity(id, v),
            BodyEdit::AngularVelocity(x) => w.set_angular_velocity(id, x),
            BodyEdit::Force(f, p) => w.apply_force(id, f, p),
            BodyEdit::ForceToCenter(f) => w.apply_force_to_center(id, f),
            BodyEdit::Torque(t) => w.apply_torque(id, t),
            BodyEdit::Impulse(i, p) => w.apply_linear_impulse(id, i, p),
            BodyEdit::ImpulseToCenter(i) => w.apply_linear_impulse_to_center(id, i),
            BodyEdit::AngularImpulse(i) => w.apply_angular_impulse(id, i),
            BodyEdit::Mass(m) => w.set_mass_data(id, m),
            BodyEdit::InertiaScale(s) => w.set_inertia_scale(id, s),
            BodyEdit::Awake(awake) => w.set_awake(id, awake),
            BodyEdit::SleepEnabled(enabled) => w.set_body_sleep_enabled(id, enabled),
            BodyEdit::SleepThreshold(t) => w.set_sleep_threshold(id, t),
            BodyEdit::UserData(data) => w.set_body_user_data(id, data),
        })?;
        let extreme_mass = match edit {
            BodyEdit::InertiaScale(s) => extreme(s),
            BodyEdit::Transform(p, _) => extreme_vec(p),
            BodyEdit::LinearVelocity(v) => extreme_vec(v),
            BodyEdit::AngularVelocity(w) => extreme(w),
            BodyEdit::Mass(m) => {
                extreme(m.mass) || extreme(m.rotational_inertia) || extreme_vec(m.center)
            }
            _ => false,
        };
        if extreme_mass && !on_extreme {
            self.extreme_bodies.push(id);
        }
        Ok(())
    }

    fn edit_joint(&mut self, pick: ops::Pick, edit: &JointEdit) -> Checked<()> {
        let joint = self.model.joint(pick);
        let id = joint.id;
        let tag = self.model.joint_entry(id).map(|e| e.kind);
        let has = |tags: &[KindTag]| tag.is_some_and(|t| tags.contains(&t));
        let limited = [
            KindTag::Revolute,
            KindTag::Prismatic,
            KindTag::Wheel,
            KindTag::Distance,
        ];
        let range = |lower: f32, upper: f32| {
            finite(lower)
                .and(finite(upper))
                .unless(lower.is_finite() && upper.is_finite() && lower > upper)
        };
        let verdict = match *edit {
            JointEdit::Limits(_, lower, upper) => {
                let distance_floor = if tag == Some(KindTag::Distance) {
                    non_negative(lower)
                } else {
                    Verdict::Accept
                };
                range(lower, upper)
                    .and(distance_floor)
                    .unless(!has(&limited))
            }
            JointEdit::Motor(_, speed, max) => {
                finite(speed).and(non_negative(max)).unless(!has(&limited))
            }
            JointEdit::Spring(_, hertz, damping) => non_negative(hertz)
                .and(non_negative(damping))
                .unless(!has(&limited)),
            JointEdit::Target(target) => finite_vec(target).unless(!has(&[KindTag::Target])),
            JointEdit::MotorOffsets(offset, angle) => finite_vec(offset)
                .and(finite(angle))
                .unless(!has(&[KindTag::Motor])),
            JointEdit::BreakThresholds(force, torque) => {
                verdict_threshold(force).and(verdict_threshold(torque))
            }
            JointEdit::Settings(spec) => {
                let (kind, new_tag, _) = kind_parts(&spec);
                verdict_settings(&kind).unless(tag != Some(new_tag))
            }
            JointEdit::UserData(_) => Verdict::Accept,
        }
        .unless(!joint.live);
        let edit = *edit;
        self.call(verdict, |w| match edit {
            JointEdit::Limits(enable, lower, upper) => w.set_joint_limits(id, enable, lower, upper),
            JointEdit::Motor(enable, speed, max) => w.set_joint_motor(id, enable, speed, max),
            JointEdit::Spring(enable, hertz, damping) => {
                w.set_joint_spring(id, enable, hertz, damping)
            }
            JointEdit::Target(target) => w.set_joint_target(id, target),
            JointEdit::MotorOffsets(offset, angle) => w.set_motor_joint_offsets(id, offset, angle),
            JointEdit::BreakThresholds(force, torque) => {
                w.set_joint_break_thresholds(id, force, torque)
            }
            JointEdit::Settings(spec) => w.set_joint_settings(id, kind_parts(&spec).0),
            JointEdit::UserData(data) => w.set_joint_user_data(id, data),
        })?;
        Ok(())
    }

    fn query(&mut self, query: &Query) -> Checked<()> {
        match *query {
            Query::RayClosest(origin, translation, filter) => {
                let verdict = ray_verdict(origin, translation);
                let found =
                    self.call(verdict, |w| w.cast_ray_closest(origin, translation, filter))?;
                if let Some(found) = found {
                    let expected = self.brute_force_ray(origin, translation, filter);
                    check_hits(found.as_slice())?;
                    let first = expected.first().copied();
                    // Extreme geometry (a segment 10⁹ m long) rounds the exact test of a far-off
                    // point: the brute force is only the reference in worlds without it.
                    if !self.tainted
                        && found.map(|h| (h.shape, h.fraction.to_bits()))
                            != first.map(|h| (h.shape, h.fraction.to_bits()))
                    {
                        return Err(format!("closest ray hit {found:?}, expected {first:?}"));
                    }
                }
            }
            Query::RayAll(origin, translation, filter) => {
                let verdict = ray_verdict(origin, translation);
                let found = self.call(verdict, |w| w.cast_ray_all(origin, translation, filter))?;
                if let Some(found) = found {
                    let expected = self.brute_force_ray(origin, translation, filter);
                    check_hits(&found)?;
                    if !self.tainted && found != expected {
                        return Err(format!("ray hits {found:?}, expected {expected:?}"));
                    }
                }
            }
            Query::Overlap(min, max, filter) => {
                let aabb = Aabb { min, max };
                let verdict = finite_vec(min)
                    .and(finite_vec(max))
                    .unless(min.is_finite() && max.is_finite() && !aabb.is_valid());
                let found = self.call(verdict, |w| w.overlap_aabb(aabb, filter))?;
                if let Some(found) = found {
                    let mut expected: Vec<ShapeId> = self
                        .model
                        .all_shapes()
                        .filter(|&(s, _)| {
                            let accepted =
                                self.world.shape_filter(s).is_ok_and(|f| filter.accepts(&f));
                            let overlaps =
                                self.world.shape_aabb(s).is_ok_and(|b| b.overlaps(&aabb));
                            accepted && overlaps
                        })
                        .map(|(s, _)| s)
                        .collect();
                    expected.sort_by_key(|s| s.index());
                    if !self.tainted && found != expected {
                        return Err(format!("overlap found {found:?}, expected {expected:?}"));
                    }
                }
            }
            Query::MassRatio(threshold) => {
                let limit = threshold.unwrap_or(MassRatioWarning::DEFAULT_THRESHOLD);
                let verdict = threshold.map_or(Verdict::Accept, positive);
                let warnings = self.call(verdict, |w| match threshold {
                    Some(t) => w.mass_ratio_report(t),
                    None => Ok(w.mass_ratio_warnings()),
                })?;
                for warning in warnings.unwrap_or_default() {
                    let above = warning.ratio > limit;
                    if !above || self.model.joint_entry(warning.joint).is_none() {
                        return Err(format!("bad warning {warning:?} for threshold {limit}"));
                    }
                }
            }
            Query::Contacts(pick) => {
                let body = self.model.body(pick);
                let verdict = Verdict::Accept.unless(!body.live);
                let contacts = self.call(verdict, |w| w.body_contact_data(body.id))?;
                let live: Vec<ShapeId> = self.model.all_shapes().map(|(s, _)| s).collect();
                let mut all: Vec<_> = self.world.contact_data().collect();
                all.extend(contacts.unwrap_or_default());
                for contact in all {
                    if !live.contains(&contact.shape_a) || !live.contains(&contact.shape_b) {
                        return Err(format!("contact between dead shapes: {contact:?}"));
                    }
                    let manifold = &contact.manifold;
                    let finite_points = manifold.points().iter().all(|p| {
                        p.point.is_finite()
                            && p.separation.is_finite()
                            && p.normal_impulse.is_finite()
                            && p.tangent_impulse.is_finite()
                    });
                    if !(self.tainted || finite_points && manifold.normal.is_finite()) {
                        return Err(format!("non-finite contact: {contact:?}"));
                    }
                }
            }
        }
        Ok(())
    }

    /// Every hit of the ray on every live shape the filter accepts, by the collision crate's
    /// own ray cast on each shape in turn, ordered as the world orders them.
    fn brute_force_ray(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: QueryFilter,
    ) -> Vec<RayResult> {
        let input = RayCastInput {
            origin,
            translation,
            max_fraction: 1.0,
        };
        let mut hits: Vec<RayResult> = self
            .model
            .all_shapes()
            .filter_map(|(shape, body)| {
                let accepted = self
                    .world
                    .shape_filter(shape)
                    .is_ok_and(|f| filter.accepts(&f));
                let geometry = self.world.shape_geometry(shape).ok()?;
                let transform = self.world.transform(body).ok()?;
                let hit = ray_cast_shape(&geometry, transform, &input)?;
                accepted.then_some(RayResult {
                    shape,
                    body,
                    point: hit.point,
                    normal: hit.normal,
                    fraction: hit.fraction,
                })
            })
            .collect();
        hits.sort_by(|a, b| {
            a.fraction
                .total_cmp(&b.fraction)
                .then(a.shape.index().cmp(&b.shape.index()))
        });
        hits
    }

    fn read(&mut self, body: ops::Pick, shape: ops::Pick, joint: ops::Pick) -> Checked<()> {
        self.stats.calls += 3;
        let body = self.model.body(body);
        match (self.world.body_type(body.id), body.live) {
            (Ok(found), true) => {
                let entry = self.model.body_entry(body.id).expect("live in the model");
                if found != entry.body_type {
                    return Err(format!("body {:?} is {found:?}", body.id));
                }
                let pose_ok = self.world.transform(body.id).is_ok()
                    && self.world.mass_data(body.id).is_ok()
                    && self.world.body_island(body.id).is_ok()
                    && self.world.sleep_time(body.id).is_ok();
                if !pose_ok {
                    return Err(format!("a getter refused live body {:?}", body.id));
                }
            }
            (Err(PrismError::InvalidId { kind, index, .. }), false)
                if kind == IdKind::Body && index == body.id.index() => {}
            (outcome, live) => {
                return Err(format!("body {:?} (live {live}): {outcome:?}", body.id));
            }
        }
        let shape = self.model.shape(shape);
        match (self.world.shape_body(shape.id), shape.live) {
            (Ok(owner), true) => {
                let expected = self.model.all_shapes().find(|&(s, _)| s == shape.id);
                if expected.map(|(_, b)| b) != Some(owner) {
                    return Err(format!("shape {:?} on {owner:?}", shape.id));
                }
            }
            (
                Err(PrismError::InvalidId {
                    kind: IdKind::Shape,
                    ..
                }),
                false,
            ) => {}
            (outcome, live) => {
                return Err(format!("shape {:?} (live {live}): {outcome:?}", shape.id));
            }
        }
        let joint = self.model.joint(joint);
        match (self.world.joint_settings(joint.id), joint.live) {
            (Ok(settings), true) => {
                let entry = self.model.joint_entry(joint.id).expect("live in the model");
                let bodies = self.world.joint_bodies(joint.id);
                if tag_of(&settings) != entry.kind || bodies != Ok((entry.body_a, entry.body_b)) {
                    return Err(format!("joint {:?}: {settings:?} {bodies:?}", joint.id));
                }
                let anchors = self.world.joint_anchors(joint.id);
                let angle = self.world.joint_angle(joint.id);
                if anchors.is_err()
                    || angle.is_err()
                    || self.world.joint_reaction(joint.id).is_err()
                {
                    return Err(format!("a getter refused live joint {:?}", joint.id));
                }
            }
            (
                Err(PrismError::InvalidId {
                    kind: IdKind::Joint,
                    ..
                }),
                false,
            ) => {}
            (outcome, live) => {
                return Err(format!("joint {:?} (live {live}): {outcome:?}", joint.id));
            }
        }
        Ok(())
    }

    fn step(&mut self, dt: f32, substeps: u32, repeat: u32) -> Checked<()> {
        let verdict = non_negative(dt).unless(substeps == 0);
        if verdict == Verdict::Refuse {
            self.call(verdict, |w| w.step(dt, substeps))?;
            return Ok(());
        }
        for _ in 0..repeat {
            self.stats.calls += 1;
            self.stats.steps += 1;
            let paused = dt == 0.0;
            let before = paused.then(|| Fingerprint::of(&self.world).without_events());
            self.tainted |= self.extreme_op;
            match self.world.step(dt, substeps) {
                Ok(()) if self.world.diverged_bodies().is_empty() => {}
                Ok(()) => {
                    let bodies = self.world.diverged_bodies().to_vec();
                    self.stats.diverged_steps += 1;
                    if let Some(dead) = bodies.iter().find(|b| self.model.body_entry(**b).is_none())
                    {
                        return Err(format!("diverged body {dead:?} is not live"));
                    }
                    // A divergence in a world that never accepted an extreme value is not a
                    // broken contract (the bodies were reset and reported) but a weakness of
                    // the solver: counted, and the seed noted, for the report.
                    if !self.tainted {
                        self.stats.clean_diverged_steps += 1;
                        self.stats.clean_divergence_seed.get_or_insert(self.seed);
                    }
                    self.tainted = true;
                }
                Err(error) => return Err(format!("step failed: {error}")),
            }
            self.after_step(before)?;
        }
        Ok(())
    }

    /// Saves the world, steps it (checked against the model as any step), rolls it back to the
    /// snapshot and steps again: the second run must end on the first run's bytes. A world
    /// rebuilt from the snapshot must save the same bytes.
    fn snapshot_round_trip(&mut self, dt: f32) -> Checked<()> {
        let saved = self.world.snapshot().unwrap();
        self.stats.calls += 1;
        let rebuilt = World::from_snapshot(&saved)
            .map_err(|error| format!("own snapshot refused: {error}"))?;
        if rebuilt.snapshot().unwrap() != saved {
            return Err("a world rebuilt from a snapshot saves other bytes".into());
        }
        drop(rebuilt);
        self.step(dt, 4, 1)?;
        let first_run = self.world.snapshot().unwrap();
        self.stats.calls += 1;
        self.world
            .restore(&saved)
            .map_err(|error| format!("own snapshot refused by restore: {error}"))?;
        if self.world.snapshot().unwrap() != saved {
            return Err("a restored world saves other bytes".into());
        }
        self.world
            .step(dt, 4)
            .map_err(|error| format!("step after a restore failed: {error}"))?;
        if self.world.snapshot().unwrap() != first_run {
            return Err("the step after a rollback differs from the first run".into());
        }
        Ok(())
    }

    fn after_step(&mut self, paused_from: Option<Fingerprint>) -> Checked<()> {
        let breaks = self.world.joint_events().breaks.to_vec();
        for event in &breaks {
            if self.model.joint_entry(event.joint).is_none() {
                return Err(format!("break of a joint not live: {event:?}"));
            }
            if self.world.is_joint_valid(event.joint) {
                return Err(format!("broken joint still valid: {event:?}"));
            }
            self.model.remove_joint(event.joint);
            self.stats.joint_breaks += 1;
        }
        let live: Vec<ShapeId> = self.model.all_shapes().map(|(s, _)| s).collect();
        for event in &self.world.contact_events().begin {
            if !live.contains(&event.shape_a) || !live.contains(&event.shape_b) {
                return Err(format!("begin event for a dead shape: {event:?}"));
            }
        }
        // A step that ran has reset every body it could not keep finite; a paused one
        // computes nothing, so a body an extreme call left overflowed stays so until the next
        // step that runs (seed 1026526).
        if paused_from.is_none() || !self.tainted {
            for id in self.world.body_ids() {
                self.check_finite_body(id)?;
            }
        }
        for contact in self.world.contact_data() {
            let manifold = &contact.manifold;
            // The cached impulses are always finite (the solver drops non-finite ones); the
            // geometry is finite unless the world holds extreme coordinates (a segment end at
            // 10³⁸ m puts a manifold point there).
            let finite_impulses = manifold.points().iter().all(|p| {
                p.normal_impulse.is_finite()
                    && p.tangent_impulse.is_finite()
                    && p.max_normal_impulse.is_finite()
            });
            let finite_geometry = manifold.normal.is_finite()
                && manifold.points().iter().all(|p| {
                    p.point.is_finite()
                        && p.anchor_a.is_finite()
                        && p.anchor_b.is_finite()
                        && p.separation.is_finite()
                });
            if !finite_impulses || !(finite_geometry || self.tainted) {
                return Err(format!("non-finite contact after a step: {contact:?}"));
            }
        }
        for entry in &self.model.joints {
            let (force, torque) = self
                .world
                .joint_reaction(entry.id)
                .map_err(|e| e.to_string())?;
            if !(force.is_finite() && torque.is_finite()) {
                return Err(format!("joint {:?} reaction {force:?} {torque}", entry.id));
            }
        }
        if let Some(before) = paused_from {
            self.stats.paused_steps += 1;
            let events_empty = self.world.contact_events().begin.is_empty()
                && self.world.contact_events().end.is_empty()
                && self.world.body_events().sleep.is_empty()
                && self.world.body_events().wake.is_empty()
                && breaks.is_empty();
            if !events_empty {
                return Err("a paused step reported events".into());
            }
            let after = Fingerprint::of(&self.world).without_events();
            if before != after {
                return Err(format!(
                    "a paused step changed the world: {}",
                    before.difference(&after)
                ));
            }
        }
        // A body flung beyond 10⁶ m or m/s (a solver blow-up short of overflow) makes the
        // world's numbers extreme from here on, as an accepted extreme value would.
        if !self.tainted {
            let runaway = self.world.body_ids().into_iter().any(|id| {
                let position = self.world.position(id).unwrap_or_default();
                let velocity = self.world.linear_velocity(id).unwrap_or_default();
                extreme_vec(position) || extreme_vec(velocity)
            });
            if runaway {
                self.stats.clean_runaways += 1;
                self.stats.clean_divergence_seed.get_or_insert(self.seed);
                self.tainted = true;
            }
        }
        let counters = self.world.counters();
        self.stats.most_contacts = self.stats.most_contacts.max(counters.contacts);
        self.stats.most_sleeping_sets = self.stats.most_sleeping_sets.max(counters.sleeping_sets);
        self.trace.push(Fingerprint::body_hash(&self.world));
        Ok(())
    }

    /// A live body's pose, velocities and centre of mass are finite.
    fn check_finite_body(&self, id: prism::BodyId) -> Checked<()> {
        let t = self.world.transform(id).map_err(|e| e.to_string())?;
        let v = self.world.linear_velocity(id).map_err(|e| e.to_string())?;
        let w = self.world.angular_velocity(id).map_err(|e| e.to_string())?;
        let c = self
            .world
            .world_center_of_mass(id)
            .map_err(|e| e.to_string())?;
        if t.p.is_finite()
            && t.q.c.is_finite()
            && t.q.s.is_finite()
            && v.is_finite()
            && w.is_finite()
            && c.is_finite()
        {
            Ok(())
        } else {
            Err(format!("body {id:?} not finite: {t:?} {v:?} {w} {c:?}"))
        }
    }

    /// The world's counts, ids and attachments against the model's, and every body finite.
    fn check_model(&mut self) -> Checked<()> {
        let counters = self.world.counters();
        let shape_count = self.model.shape_count();
        let joint_count = self.world.joint_ids().len();
        if counters.bodies != self.model.bodies.len()
            || counters.shapes != shape_count
            || joint_count != self.model.joints.len()
        {
            return Err(format!(
                "counts: world {} bodies, {} shapes, {joint_count} joints; model {}, {}, {}",
                counters.bodies,
                counters.shapes,
                self.model.bodies.len(),
                shape_count,
                self.model.joints.len()
            ));
        }
        self.stats.most_bodies = self.stats.most_bodies.max(counters.bodies);
        self.stats.most_shapes = self.stats.most_shapes.max(shape_count);
        self.stats.most_joints = self.stats.most_joints.max(joint_count);
        for entry in &self.model.bodies {
            // Between steps a world given extreme values may hold a body whose velocity
            // overflowed (an extreme spin when its centre of mass moves): the next step resets
            // it, and `after_step` checks that it did.
            if !self.tainted {
                self.check_finite_body(entry.id)?;
            }
            let shapes = self
                .world
                .body_shapes(entry.id)
                .map_err(|e| e.to_string())?;
            if shapes != entry.shapes.as_slice() {
                return Err(format!(
                    "body {:?} has shapes {shapes:?}, model {:?}",
                    entry.id, entry.shapes
                ));
            }
        }
        for entry in &self.model.joints {
            if self.world.joint_bodies(entry.id) != Ok((entry.body_a, entry.body_b)) {
                return Err(format!("joint {:?} does not match the model", entry.id));
            }
        }
        let stale_valid = self
            .model
            .stale_bodies
            .iter()
            .any(|&b| self.world.is_body_valid(b))
            || self
                .model
                .stale_shapes
                .iter()
                .any(|&s| self.world.is_shape_valid(s))
            || self
                .model
                .stale_joints
                .iter()
                .any(|&j| self.world.is_joint_valid(j));
        if stale_valid {
            return Err("a destroyed id is valid again".into());
        }
        Ok(())
    }
}

/// A ray's points finite, with finite squared lengths.
fn ray_verdict(origin: Vec2, translation: Vec2) -> Verdict {
    let squares_fit =
        origin.length_squared().is_finite() && translation.length_squared().is_finite();
    finite_vec(origin)
        .and(finite_vec(translation))
        .unless(origin.is_finite() && translation.is_finite() && !squares_fit)
}

/// Every hit is finite, with a fraction in [0, 1] and a unit normal.
fn check_hits(hits: &[RayResult]) -> Checked<()> {
    for hit in hits {
        let unit = (hit.normal.length() - 1.0).abs() < 1e-3;
        if !(hit.point.is_finite() && unit && (0.0..=1.0).contains(&hit.fraction)) {
            return Err(format!("bad ray hit {hit:?}"));
        }
    }
    Ok(())
}

fn shape_def(spec: &ops::ShapeSpec) -> ShapeDef {
    ShapeDef {
        density: spec.density,
        friction: spec.friction,
        restitution: spec.restitution,
        filter: Filter {
            category_bits: spec.category,
            mask_bits: spec.mask,
            group_index: spec.group,
        },
        enable_contact_events: spec.events,
        user_data: 5,
        ..ShapeDef::default()
    }
}

/// Builds a polygon argument: the constructor's result, what the constructor must do, and
/// whether the polygon was broken by hand (the world must refuse it).
fn make(spec: &PolygonSpec) -> (Result<Polygon, prism::HullError>, Verdict, bool) {
    let extent = |v: f32| Verdict::Accept.unless(!(v.is_finite() && v >= MIN_HALF_EXTENT));
    match spec {
        PolygonSpec::Hull { points, radius } => {
            let bad =
                !(points.iter().all(|p| p.is_finite()) && radius.is_finite() && *radius >= 0.0);
            let verdict = Verdict::Either.unless(bad);
            (make_polygon(points, *radius), verdict, false)
        }
        PolygonSpec::Box {
            half_width,
            half_height,
        } => (
            make_box(*half_width, *half_height),
            extent(*half_width).and(extent(*half_height)),
            false,
        ),
        PolygonSpec::OffsetBox {
            half_width,
            half_height,
            center,
            rotation: spec,
        } => {
            let (rot, rotation_verdict) = rotation(*spec);
            let verdict = extent(*half_width)
                .and(extent(*half_height))
                .and(finite_vec(*center))
                .and(rotation_verdict);
            (
                make_offset_box(*half_width, *half_height, *center, rot),
                verdict,
                false,
            )
        }
        PolygonSpec::Rounded {
            half_width,
            half_height,
            radius,
        } => (
            make_rounded_box(*half_width, *half_height, *radius),
            extent(*half_width)
                .and(extent(*half_height))
                .and(non_negative(*radius)),
            false,
        ),
        PolygonSpec::Broken { hexagon, how } => (Ok(broken(*hexagon, *how)), Verdict::Accept, true),
    }
}

/// A valid unit box or regular hexagon, damaged as `how` says.
fn broken(hexagon: bool, how: Damage) -> Polygon {
    let mut polygon = if hexagon {
        let ring: Vec<Vec2> = (0..6)
            .map(|i| {
                let angle = i as f32 * std::f32::consts::TAU / 6.0;
                Vec2::new(angle.cos(), angle.sin())
            })
            .collect();
        make_polygon(&ring, 0.0).expect("a regular hexagon")
    } else {
        make_box(0.5, 0.5).expect("a unit box")
    };
    let n = polygon.count;
    let at = |corner: u8| corner as usize % n;
    match how {
        Damage::Clockwise => polygon.vertices[..n].reverse(),
        Damage::ZeroNormal(c) => polygon.normals[at(c)] = Vec2::ZERO,
        Damage::FlippedNormal(c) => polygon.normals[at(c)] = -polygon.normals[at(c)],
        Damage::Dent(c) => polygon.vertices[at(c)] = 0.4 * polygon.vertices[at(c)],
        Damage::NanVertex(c) => polygon.vertices[at(c)].x = f32::NAN,
        Damage::Count(count) => polygon.count = usize::from(count),
        Damage::NegativeRadius => polygon.radius = -0.1,
        Damage::CentroidOutside => polygon.centroid = Vec2::new(5.0, 5.0),
        Damage::RepeatedVertex(c) => polygon.vertices[(at(c) + 1) % n] = polygon.vertices[at(c)],
    }
    polygon
}

/// Calls the creation function of the spec's kind.
fn create_joint_of(
    world: &mut World,
    base: JointDef,
    spec: ops::KindSpec,
) -> Result<prism::JointId, PrismError> {
    match spec {
        ops::KindSpec::Distance(settings) => {
            world.create_distance_joint(&DistanceJointDef { base, settings })
        }
        ops::KindSpec::Revolute {
            reference_angle,
            settings,
        } => world.create_revolute_joint(&RevoluteJointDef {
            base,
            reference_angle,
            settings,
        }),
        ops::KindSpec::Prismatic {
            axis,
            reference_angle,
            settings,
        } => world.create_prismatic_joint(&PrismaticJointDef {
            base,
            local_axis_a: axis,
            reference_angle,
            settings,
        }),
        ops::KindSpec::Weld {
            reference_angle,
            settings,
        } => world.create_weld_joint(&WeldJointDef {
            base,
            reference_angle,
            settings,
        }),
        ops::KindSpec::Wheel { axis, settings } => world.create_wheel_joint(&WheelJointDef {
            base,
            local_axis_a: axis,
            settings,
        }),
        ops::KindSpec::Motor(settings) => {
            world.create_motor_joint(&MotorJointDef { base, settings })
        }
        ops::KindSpec::Target(settings) => {
            world.create_target_joint(&TargetJointDef { base, settings })
        }
    }
}
