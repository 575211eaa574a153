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
        /// Half width and half height (m).
        half_extents: Vec2,
        /// The box's centre in the body's frame (m).
        center: Vec2,
        /// Rounding radius (m).
        radius: f32,
    },
    /// The convex hull of `points`, rounded by `radius`.
    Hull {
        /// The points in the body's frame (m), in any order.
        points: Vec<Vec2>,
        /// Rounding radius (m).
        radius: f32,
    },
    /// A solid disk.
    Circle {
        /// Centre in the body's frame (m).
        center: Vec2,
        /// Radius (m).
        radius: f32,
    },
    /// A solid capsule around the segment `center1`–`center2`.
    Capsule {
        /// One end of the core segment, in the body's frame (m).
        center1: Vec2,
        /// The other end of the core segment (m).
        center2: Vec2,
        /// Radius (m): half the capsule's thickness.
        radius: f32,
    },
    /// A two-sided segment (static bodies only in these scenes: it has no mass).
    Segment {
        /// First end, in the body's frame (m).
        point1: Vec2,
        /// Second end (m).
        point2: Vec2,
    },
    /// A closed loop of one-sided segments through `points` (Box2D's chain shape). Each
    /// segment collides only from its right-hand side, so a clockwise loop is solid outside
    /// and open inside.
    ChainLoop {
        /// The loop's vertices in the body's frame (m); the last joins the first.
        points: Vec<Vec2>,
    },
}

/// Box2D's collision filter: shapes A and B collide when `A.category & B.mask != 0` and
/// `B.category & A.mask != 0`, except that two shapes with the same non-zero group never
/// collide when the group is negative (and always collide when it is positive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filter {
    /// The categories the shape belongs to (bits).
    pub category: u64,
    /// The categories the shape collides with (bits).
    pub mask: u64,
    /// Collision group: shapes sharing a non-zero group always (positive) or never (negative)
    /// collide.
    pub group: i32,
}

impl Filter {
    /// Category 1, every mask bit, no group: collides with everything (Box2D's default).
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
    /// The shape's geometry in its body's frame.
    pub geometry: Geometry,
    /// Density (kg/m²); 1 by default.
    pub density: f32,
    /// Coulomb friction coefficient; 0.6 by default.
    pub friction: f32,
    /// Coefficient of restitution (0 = no bounce); 0 by default.
    pub restitution: f32,
    /// Which other shapes it collides with.
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

    /// The shape with density `density` (kg/m²).
    pub fn density(mut self, density: f32) -> Self {
        self.density = density;
        self
    }

    /// The shape with friction coefficient `friction`.
    pub fn friction(mut self, friction: f32) -> Self {
        self.friction = friction;
        self
    }

    /// The shape with restitution `restitution`.
    pub fn restitution(mut self, restitution: f32) -> Self {
        self.restitution = restitution;
        self
    }

    /// The shape with collision filter `filter`.
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
    /// Never moves; infinite mass.
    Static,
    /// Moves under gravity, contacts and joints; mass from its shapes.
    Dynamic,
}

/// One rigid body: where it starts, how it moves, and its shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDesc {
    /// Static or dynamic.
    pub kind: BodyKind,
    /// World position of the body's origin (m).
    pub position: Vec2,
    /// Initial rotation (rad, counter-clockwise); 0 for every benchmark scene.
    pub angle: f32,
    /// Initial velocity of the body's origin (m/s).
    pub linear_velocity: Vec2,
    /// Linear damping (1/s); 0 unless the scene sets it (rain's humans).
    pub linear_damping: f32,
    /// Created asleep (smash's targets).
    pub starts_asleep: bool,
    /// May this body ever sleep (false for spinner's spinner)?
    pub can_sleep: bool,
    /// Box2D's per-body sleep speed threshold, m/s (Box2D's default 0.05).
    pub sleep_threshold: f32,
    /// The body's shapes; its mass and inertia come from their densities.
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
    /// The group's bodies; joints refer to them by index.
    pub bodies: Vec<BodyDesc>,
    /// The joints between bodies of this group.
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
