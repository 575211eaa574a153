//! A stable fingerprint of scene descriptions, for tests that a scene still builds exactly the
//! same bodies after its code moved or the model grew.
//!
//! The fingerprint is FNV-1a (64 bit) over a canonical encoding: every field in a fixed order,
//! floats by their bit patterns, lengths before lists, a tag before each variant. Fields added
//! to the model later are encoded only when they differ from their default, so a scene that
//! does not use them keeps its fingerprint.

use crate::description::{
    BodyDesc, BodyGroup, BodyKind, DistanceDesc, Filter, Geometry, GroupAction, JointDesc, Probes,
    RevoluteDesc, ShapeDesc, Vec2,
};

/// FNV-1a, 64 bit (Fowler, Noll and Vo's hash): xor each byte in, multiply by the prime.
pub(crate) struct Fnv(u64);

impl Fnv {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    /// Marks a field or variant added to the model after the first fingerprints were taken.
    const ADDED_FIELD: u64 = u64::MAX;

    pub(crate) fn new() -> Self {
        Self(Self::OFFSET)
    }

    pub(crate) fn finish(&self) -> u64 {
        self.0
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(Self::PRIME);
        }
    }

    fn u64(&mut self, value: u64) {
        self.bytes(&value.to_le_bytes());
    }

    fn usize(&mut self, value: usize) {
        self.u64(value as u64);
    }

    fn f32(&mut self, value: f32) {
        self.bytes(&value.to_bits().to_le_bytes());
    }

    fn vec2(&mut self, v: Vec2) {
        self.f32(v.x);
        self.f32(v.y);
    }

    fn points(&mut self, points: &[Vec2]) {
        self.usize(points.len());
        for &p in points {
            self.vec2(p);
        }
    }

    fn geometry(&mut self, geometry: &Geometry) {
        match geometry {
            Geometry::Box {
                half_extents,
                center,
                radius,
            } => {
                self.u64(0);
                self.vec2(*half_extents);
                self.vec2(*center);
                self.f32(*radius);
            }
            Geometry::Hull { points, radius } => {
                self.u64(1);
                self.points(points);
                self.f32(*radius);
            }
            Geometry::Circle { center, radius } => {
                self.u64(2);
                self.vec2(*center);
                self.f32(*radius);
            }
            Geometry::Capsule {
                center1,
                center2,
                radius,
            } => {
                self.u64(3);
                self.vec2(*center1);
                self.vec2(*center2);
                self.f32(*radius);
            }
            Geometry::Segment { point1, point2 } => {
                self.u64(4);
                self.vec2(*point1);
                self.vec2(*point2);
            }
            Geometry::ChainLoop { points } => {
                self.u64(5);
                self.points(points);
            }
        }
    }

    fn filter(&mut self, filter: &Filter) {
        self.u64(filter.category);
        self.u64(filter.mask);
        self.u64(filter.group as i64 as u64);
    }

    fn shape(&mut self, shape: &ShapeDesc) {
        self.geometry(&shape.geometry);
        self.f32(shape.density);
        self.f32(shape.friction);
        self.f32(shape.restitution);
        self.filter(&shape.filter);
    }

    fn body(&mut self, body: &BodyDesc) {
        self.u64(match body.kind {
            BodyKind::Static => 0,
            BodyKind::Dynamic => 1,
        });
        self.vec2(body.position);
        if body.angle != 0.0 {
            self.u64(Self::ADDED_FIELD);
            self.f32(body.angle);
        }
        self.vec2(body.linear_velocity);
        self.f32(body.linear_damping);
        self.u64(u64::from(body.starts_asleep));
        self.u64(u64::from(body.can_sleep));
        self.f32(body.sleep_threshold);
        self.usize(body.shapes.len());
        for shape in &body.shapes {
            self.shape(shape);
        }
    }

    fn revolute(&mut self, joint: &RevoluteDesc) {
        self.usize(joint.body_a);
        self.usize(joint.body_b);
        self.vec2(joint.local_anchor_a);
        self.vec2(joint.local_anchor_b);
        match joint.limits {
            Some([lower, upper]) => {
                self.u64(1);
                self.f32(lower);
                self.f32(upper);
            }
            None => self.u64(0),
        }
        match joint.spring {
            Some(spring) => {
                self.u64(1);
                self.f32(spring.hertz);
                self.f32(spring.damping_ratio);
            }
            None => self.u64(0),
        }
        match joint.motor {
            Some(motor) => {
                self.u64(1);
                self.f32(motor.speed);
                self.f32(motor.max_torque);
            }
            None => self.u64(0),
        }
    }

    fn distance(&mut self, joint: &DistanceDesc) {
        self.u64(Self::ADDED_FIELD);
        self.usize(joint.body_a);
        self.usize(joint.body_b);
        self.vec2(joint.local_anchor_a);
        self.vec2(joint.local_anchor_b);
        self.f32(joint.length);
        match joint.spring {
            Some(spring) => {
                self.u64(1);
                self.f32(spring.hertz);
                self.f32(spring.damping_ratio);
            }
            None => self.u64(0),
        }
        match joint.limits {
            Some([lower, upper]) => {
                self.u64(1);
                self.f32(lower);
                self.f32(upper);
            }
            None => self.u64(0),
        }
    }

    /// A revolute joint is encoded as before distance joints existed, without a tag.
    fn joint(&mut self, joint: &JointDesc) {
        match joint {
            JointDesc::Revolute(revolute) => self.revolute(revolute),
            JointDesc::Distance(distance) => self.distance(distance),
        }
    }

    pub(crate) fn group(&mut self, group: &BodyGroup) {
        self.usize(group.bodies.len());
        for body in &group.bodies {
            self.body(body);
        }
        self.usize(group.joints.len());
        for joint in &group.joints {
            self.joint(joint);
        }
    }

    pub(crate) fn probes(&mut self, probes: &Probes) {
        self.usize(probes.top_boxes.len());
        for &i in &probes.top_boxes {
            self.usize(i);
        }
        match probes.motor_body {
            Some(i) => {
                self.u64(1);
                self.usize(i);
            }
            None => self.u64(0),
        }
        if !probes.subjects.is_empty() {
            self.u64(Self::ADDED_FIELD);
            self.usize(probes.subjects.len());
            for &i in &probes.subjects {
                self.usize(i);
            }
        }
    }

    pub(crate) fn action(&mut self, action: &GroupAction) {
        match action {
            GroupAction::Insert { slot, group } => {
                self.u64(0);
                self.usize(*slot);
                self.group(group);
            }
            GroupAction::Remove { slot } => {
                self.u64(1);
                self.usize(*slot);
            }
        }
    }
}

/// The fingerprint of a scene: its initial group, its probes, and the script's actions over
/// its first `script_steps` steps.
pub(crate) fn scene_fingerprint(name: &str, script_steps: usize) -> Option<u64> {
    let spec = crate::description::find_scene(name)?;
    let (group, probes) = spec.build();
    let mut hash = Fnv::new();
    hash.group(&group);
    hash.probes(&probes);
    let mut script = spec.script();
    for step in 0..script_steps {
        for action in script.actions(step) {
            hash.action(&action);
        }
    }
    Some(hash.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FNV-1a's published test vectors: the empty input and "a".
    #[test]
    fn fnv_matches_its_reference_values() {
        assert_eq!(Fnv::new().finish(), 0xcbf2_9ce4_8422_2325);
        let mut hash = Fnv::new();
        hash.bytes(b"a");
        assert_eq!(hash.finish(), 0xaf63_dc4c_8601_ec8c);
    }

    /// The benchmark scenes build exactly what they built before their code was split into one
    /// file per scene (fingerprints taken from the single-file description). Rain's script is
    /// followed for 400 steps: 40 columns filled, then 10 columns destroyed and recreated.
    #[test]
    fn benchmark_scenes_build_what_they_built_before_the_split() {
        let expected: [(&str, u64); 10] = [
            ("large_pyramid", 0x9fe3f9305f8862f9),
            ("many_pyramids", 0x1f21465649894e7e),
            ("joint_grid", 0xd34584d2c6b4cf78),
            ("rain", 0xbbe91aa312930537),
            ("smash", 0x068af7a3cf9d378e),
            ("spinner", 0xc2d64cb11836c8ae),
            ("tumbler", 0x56e3910a75bdadac),
            ("compounds", 0x8754417831e66bfe),
            ("sleeping_field", 0x9ab6b31271fbb1ad),
            ("sleeping_field_baseline", 0x21ac87e47744dd88),
        ];
        let actual: Vec<(&str, u64)> = expected
            .iter()
            .map(|&(name, _)| (name, scene_fingerprint(name, 400).expect("known scene")))
            .collect();
        assert_eq!(actual, expected);
    }
}
