//! The engine-neutral model of a scene's contents: geometry, shapes with their material and
//! collision filter, bodies, and groups of bodies created and destroyed together.
//!
//! Everything is plain data in SI units (metres, kilograms, seconds, radians). Defaults follow
//! Box2D v3: density 1, friction 0.6, restitution 0, collision category 1, mask all, no group.
//! A body's mass and inertia come from its shapes' densities, as in every engine we build.

use super::joint::JointDesc;
use prism::Vec2;

/// The geometry of one shape, in its body's local frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Geometry {
    /// A box with the given half extents centred at `center`, rounded by `radius` (0 = sharp).
    Box {
        half_extents: Vec2,
        center: Vec2,
        radius: f32,
    },
    /// The convex hull of `points`, rounded by `radius`.
    Hull {
        points: Vec<Vec2>,
        radius: f32,
    },
    Circle {
        center: Vec2,
        radius: f32,
    },
    Capsule {
        center1: Vec2,
        center2: Vec2,
        radius: f32,
    },
    Segment {
        point1: Vec2,
        point2: Vec2,
    },
    /// A closed loop of one-sided segments through `points` (Box2D's chain shape). Each
    /// segment collides only from its right-hand side, so a clockwise loop is solid outside
    /// and open inside.
    ChainLoop {
        points: Vec<Vec2>,
    },
}

/// Box2D's collision filter: shapes A and B collide when `A.category & B.mask != 0` and
/// `B.category & A.mask != 0`, except that two shapes with the same non-zero group never
/// collide when the group is negative (and always collide when it is positive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filter {
    pub category: u64,
    pub mask: u64,
    pub group: i32,
}

impl Filter {
    pub const DEFAULT: Filter = Filter {
        category: 1,
        mask: u64::MAX,
        group: 0,
    };

    /// Whether two shapes with these filters collide, by Box2D's rule.
    pub fn collides_with(&self, other: &Filter) -> bool {
        if self.group == other.group && self.group != 0 {
            return self.group > 0;
        }
        self.category & other.mask != 0 && other.category & self.mask != 0
    }
}

/// One shape and its material.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeDesc {
    pub geometry: Geometry,
    pub density: f32,
    pub friction: f32,
    pub restitution: f32,
    pub filter: Filter,
}

impl ShapeDesc {
    /// A shape with Box2D's default material and filter.
    pub fn new(geometry: Geometry) -> Self {
        Self {
            geometry,
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
            filter: Filter::DEFAULT,
        }
    }

    pub fn density(mut self, density: f32) -> Self {
        self.density = density;
        self
    }

    pub fn friction(mut self, friction: f32) -> Self {
        self.friction = friction;
        self
    }

    pub fn restitution(mut self, restitution: f32) -> Self {
        self.restitution = restitution;
        self
    }

    pub fn filter(mut self, filter: Filter) -> Self {
        self.filter = filter;
        self
    }
}

/// A sharp box centred on its body.
pub fn square_box(half_x: f32, half_y: f32) -> Geometry {
    offset_box(half_x, half_y, Vec2::ZERO)
}

/// A sharp box centred at `center` in its body's frame.
pub fn offset_box(half_x: f32, half_y: f32, center: Vec2) -> Geometry {
    Geometry::Box {
        half_extents: Vec2::new(half_x, half_y),
        center,
        radius: 0.0,
    }
}

/// How a body moves: never (static) or under forces and contacts (dynamic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    Static,
    Dynamic,
}

/// One rigid body: where it starts, how it moves, and its shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDesc {
    pub kind: BodyKind,
    /// World position of the body's origin (m).
    pub position: Vec2,
    /// Initial rotation (rad, counter-clockwise); 0 for every benchmark scene.
    pub angle: f32,
    pub linear_velocity: Vec2,
    pub linear_damping: f32,
    /// Created asleep (smash's targets).
    pub starts_asleep: bool,
    /// May this body ever sleep (false for spinner's spinner)?
    pub can_sleep: bool,
    /// Box2D's per-body sleep speed threshold, m/s (Box2D's default 0.05).
    pub sleep_threshold: f32,
    pub shapes: Vec<ShapeDesc>,
}

impl BodyDesc {
    /// A body at `position`, not rotated, at rest, with Box2D's default sleep settings and no
    /// shapes yet.
    pub fn new(kind: BodyKind, position: Vec2) -> Self {
        Self {
            kind,
            position,
            angle: 0.0,
            linear_velocity: Vec2::ZERO,
            linear_damping: 0.0,
            starts_asleep: false,
            can_sleep: true,
            sleep_threshold: 0.05,
            shapes: Vec::new(),
        }
    }

    /// The body with `shape` added.
    pub fn with_shape(mut self, shape: ShapeDesc) -> Self {
        self.shapes.push(shape);
        self
    }

    /// The body rotated to `angle` (rad).
    pub fn rotated(mut self, angle: f32) -> Self {
        self.angle = angle;
        self
    }
}

/// A wide static box whose top face is the line y = 0, the ground of the validation scenes
/// (40 m wide, 2 m deep).
pub fn flat_ground() -> BodyDesc {
    BodyDesc::new(BodyKind::Static, Vec2::new(0.0, -1.0))
        .with_shape(ShapeDesc::new(square_box(20.0, 1.0)))
}

/// Bodies and the joints between them, created and destroyed together.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BodyGroup {
    pub bodies: Vec<BodyDesc>,
    pub joints: Vec<JointDesc>,
}

impl BodyGroup {
    /// The number of shapes over all bodies (a chain loop counts as one).
    pub fn shape_count(&self) -> usize {
        self.bodies.iter().map(|b| b.shapes.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box2d_filter_rule() {
        let bone = |g: i32| Filter {
            category: 2,
            mask: 3,
            group: -g,
        };
        let foot = |g: i32| Filter {
            category: 2,
            mask: 1,
            group: -g,
        };
        assert!(!bone(1).collides_with(&bone(1)));
        assert!(bone(1).collides_with(&bone(2)));
        assert!(!foot(1).collides_with(&bone(2)));
        assert!(foot(1).collides_with(&Filter::DEFAULT));
        let circle = Filter {
            category: 2,
            mask: !2,
            group: 0,
        };
        assert!(!circle.collides_with(&circle));
    }
}
