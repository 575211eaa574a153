//! Everything a user can read from a world, gathered to compare before and after a call.
//!
//! A refused call must leave no trace: the fingerprint before it and after it are equal. Floats
//! are kept as bits, so that `-0.0` against `0.0` or a NaN counts as a change. The same data,
//! hashed, is the determinism trace: two worlds fed the same calls must hash alike after every
//! step whatever their worker counts.

use prism::{
    Aabb, BodyEvents, BodyId, BodyType, ContactEvents, Counters, Filter, JointBreakEvent, JointDef,
    JointId, JointKind, Shape, ShapeId, World,
};

#[derive(Clone, Debug, PartialEq)]
pub struct BodyPrint {
    pub id: BodyId,
    pub body_type: BodyType,
    /// Pose, velocity, mass properties, sleep threshold and time, inertia scale, as bits.
    pub bits: [u32; 14],
    pub awake: bool,
    pub sleep_enabled: bool,
    pub user_data: u64,
    pub shapes: Vec<ShapeId>,
    pub joints: Vec<JointId>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ShapePrint {
    pub id: ShapeId,
    pub body: BodyId,
    pub geometry: Shape,
    pub material: [u32; 3],
    pub filter: Filter,
    pub user_data: u64,
    pub aabb: Aabb,
}

#[derive(Clone, Debug, PartialEq)]
pub struct JointPrint {
    pub id: JointId,
    pub def: JointDef,
    pub settings: JointKind,
    pub reaction: [u32; 3],
}

#[derive(Clone, Debug, PartialEq)]
pub struct Fingerprint {
    pub counters: Counters,
    pub gravity: [u32; 2],
    pub sleep_enabled: bool,
    pub bodies: Vec<BodyPrint>,
    pub shapes: Vec<ShapePrint>,
    pub joints: Vec<JointPrint>,
    pub contact_events: ContactEvents,
    pub body_events: BodyEvents,
    pub joint_breaks: Vec<JointBreakEvent>,
}

impl Fingerprint {
    pub fn of(world: &World) -> Fingerprint {
        let gravity = world.gravity();
        Fingerprint {
            counters: world.counters(),
            gravity: [gravity.x.to_bits(), gravity.y.to_bits()],
            sleep_enabled: world.is_sleep_enabled(),
            bodies: world
                .body_ids()
                .into_iter()
                .map(|id| body(world, id))
                .collect(),
            shapes: shapes(world),
            joints: world
                .joint_ids()
                .into_iter()
                .map(|id| joint(world, id))
                .collect(),
            contact_events: world.contact_events().clone(),
            body_events: world.body_events().clone(),
            joint_breaks: world.joint_events().breaks.to_vec(),
        }
    }

    /// The fingerprint without the event lists (a paused step clears them, and must change
    /// nothing else).
    pub fn without_events(mut self) -> Fingerprint {
        self.contact_events = ContactEvents::default();
        self.body_events = BodyEvents::default();
        self.joint_breaks.clear();
        self
    }

    /// The first difference, for a failure message.
    pub fn difference(&self, other: &Fingerprint) -> String {
        if self.counters != other.counters {
            return format!("counters {:?} → {:?}", self.counters, other.counters);
        }
        if self.bodies.len() != other.bodies.len() {
            return format!("{} → {} bodies", self.bodies.len(), other.bodies.len());
        }
        for (a, b) in self.bodies.iter().zip(&other.bodies) {
            if a != b {
                return format!("body {a:?} → {b:?}");
            }
        }
        for (a, b) in self.shapes.iter().zip(&other.shapes) {
            if a != b {
                return format!("shape {a:?} → {b:?}");
            }
        }
        for (a, b) in self.joints.iter().zip(&other.joints) {
            if a != b {
                return format!("joint {a:?} → {b:?}");
            }
        }
        if self.contact_events != other.contact_events {
            return "contact events changed".into();
        }
        if self.body_events != other.body_events {
            return "body events changed".into();
        }
        format!(
            "gravity, sleep flag, counts or joint events changed: {:?} {} → {:?} {}",
            self.gravity, self.sleep_enabled, other.gravity, other.sleep_enabled
        )
    }

    /// A 64-bit FNV-1a hash of the bodies' ids, poses and velocities, for the determinism
    /// trace.
    pub fn body_hash(world: &World) -> u64 {
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        let mut eat = |word: u64| {
            for byte in word.to_le_bytes() {
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        };
        for id in world.body_ids() {
            eat(u64::from(id.index()) << 32 | u64::from(id.generation()));
            let (Ok(t), Ok(v), Ok(w)) = (
                world.transform(id),
                world.linear_velocity(id),
                world.angular_velocity(id),
            ) else {
                continue;
            };
            for value in [t.p.x, t.p.y, t.q.c, t.q.s, v.x, v.y, w] {
                eat(u64::from(value.to_bits()));
            }
            eat(u64::from(world.is_awake(id).unwrap_or(false)));
        }
        hash
    }
}

fn body(world: &World, id: BodyId) -> BodyPrint {
    let t = world.transform(id).expect("live body");
    let v = world.linear_velocity(id).expect("live body");
    let w = world.angular_velocity(id).expect("live body");
    let m = world.mass_data(id).expect("live body");
    let values = [
        t.p.x,
        t.p.y,
        t.q.c,
        t.q.s,
        v.x,
        v.y,
        w,
        m.mass,
        m.center.x,
        m.center.y,
        m.rotational_inertia,
        world.sleep_threshold(id).expect("live body"),
        world.sleep_time(id).expect("live body"),
        world.inertia_scale(id).expect("live body"),
    ];
    BodyPrint {
        id,
        body_type: world.body_type(id).expect("live body"),
        bits: values.map(f32::to_bits),
        awake: world.is_awake(id).expect("live body"),
        sleep_enabled: world.is_body_sleep_enabled(id).expect("live body"),
        user_data: world.body_user_data(id).expect("live body"),
        shapes: world.body_shapes(id).expect("live body").to_vec(),
        joints: world.body_joints(id).expect("live body"),
    }
}

fn shapes(world: &World) -> Vec<ShapePrint> {
    let mut prints = Vec::new();
    for body in world.body_ids() {
        for &id in world.body_shapes(body).expect("live body") {
            prints.push(ShapePrint {
                id,
                body: world.shape_body(id).expect("live shape"),
                geometry: world.shape_geometry(id).expect("live shape"),
                material: [
                    world.shape_density(id).expect("live shape").to_bits(),
                    world.shape_friction(id).expect("live shape").to_bits(),
                    world.shape_restitution(id).expect("live shape").to_bits(),
                ],
                filter: world.shape_filter(id).expect("live shape"),
                user_data: world.shape_user_data(id).expect("live shape"),
                aabb: world.shape_aabb(id).expect("live shape"),
            });
        }
    }
    prints
}

fn joint(world: &World, id: JointId) -> JointPrint {
    let (force, torque) = world.joint_reaction(id).expect("live joint");
    JointPrint {
        id,
        def: world.joint_def(id).expect("live joint"),
        settings: world.joint_settings(id).expect("live joint"),
        reaction: [force.x.to_bits(), force.y.to_bits(), torque.to_bits()],
    }
}
