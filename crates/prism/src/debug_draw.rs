//! Debug drawing: the world handed to a renderer as coloured primitives.
//!
//! [`World::draw`] walks the world once and calls a [`DebugDraw`] implementation with solid
//! polygons, circles and capsules, segments, points, transforms and boxes, in world
//! coordinates (metres). The renderer decides what a primitive looks like on its canvas; the
//! world decides what is drawn and in which colour, so every renderer shows the same states
//! the same way. This is the arrangement of Box2D v3's debug draw (a table of callbacks and a
//! set of switches); Prism's is a trait with empty default methods, so a renderer implements
//! only the primitives it can show.
//!
//! **What is drawn, and in what order.** [`DrawOptions`] switches each kind on or off:
//!
//! ```text
//!   kind              primitive                     order          in view when
//!   shapes            solid polygon / circle /      shape slots    its tight box overlaps
//!                     capsule, segment (segments
//!                     and chain links)
//!   joints            segments: origin A → anchor   joint slots    the box of those points
//!                     A → anchor B → origin B; the                 overlaps
//!                     axis of a prismatic or wheel
//!                     joint through anchor A
//!   aabbs             box: the broadphase fat box   shape slots    the box overlaps
//!   centers_of_mass   transform at the centre of    body slots     the centre is inside
//!                     mass (enabled dynamic bodies)
//!   contacts          point per manifold point      contact slots  the point is inside
//!   contact_normals   segment from each point
//!                     along the normal
//! ```
//!
//! Every walk is in slot order, so two draws of the same world make the same calls in the same
//! order (Box2D walks its trees, whose order changes as bodies move, which makes overlapping
//! shapes flicker). The view box ([`DrawOptions::view`]) culls each primitive by the test in
//! the last column; without one everything is drawn.
//!
//! **Colours by state.** A shape's colour comes from its body's state, the first that applies:
//! disabled, sensor (the shape), static, kinematic, awake, asleep ([`DrawState`]). The colours
//! are in [`DrawColors`]; the defaults are Box2D's (slate grey, wheat, pale green, royal blue,
//! pink, grey). Contact points are coloured by their story: speculative (separated by more
//! than the linear slop), new this step, or persisted from the last step.
//!
//! Contact points are drawn where the bodies are now: a manifold point's anchor on body B is
//! stored relative to B's centre of mass at the last collide, and the point drawn is B's
//! current centre plus that anchor, so the points ride with the bodies through the solve.
//! Disabled bodies' shapes are drawn (in the disabled colour) but they have no broadphase box,
//! no contacts and no solved joints, so nothing else of them is drawn; joints with a disabled
//! body are skipped, as in Box2D.

use crate::error::{PrismError, finite_vec, non_negative};
use crate::shape::ShapeRecord;
use crate::solver_set::{AWAKE_SET, DISABLED_SET, STATIC_SET};
use crate::world::World;
use collision::{Aabb, LINEAR_SLOP, MAX_POLYGON_VERTICES, Shape, compute_aabb};
use core_soa::{BodyType, Transform, Vec2};
use solver_simd::joint::JointKind;

/// A colour as `0xRRGGBB`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Color(pub u32);

impl Color {
    /// Red, green and blue, each 0–255.
    pub const fn rgb(self) -> [u8; 3] {
        [(self.0 >> 16) as u8, (self.0 >> 8) as u8, self.0 as u8]
    }
}

/// What decides a shape's colour (see the module notes for the order of precedence).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawState {
    /// The body is disabled ([`World::disable_body`]).
    Disabled,
    /// The shape is a sensor.
    Sensor,
    /// A static body.
    Static,
    /// A kinematic body.
    Kinematic,
    /// A dynamic body in the awake set.
    Awake,
    /// A dynamic body whose island sleeps.
    Asleep,
}

/// The colours [`World::draw`] uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawColors {
    /// Shapes of disabled bodies.
    pub disabled: Color,
    /// Sensor shapes.
    pub sensor: Color,
    /// Shapes of static bodies.
    pub static_body: Color,
    /// Shapes of kinematic bodies.
    pub kinematic: Color,
    /// Shapes of awake dynamic bodies.
    pub awake: Color,
    /// Shapes of sleeping dynamic bodies.
    pub asleep: Color,
    /// Joint lines.
    pub joint: Color,
    /// The axis of a prismatic or wheel joint.
    pub joint_axis: Color,
    /// Broadphase boxes.
    pub aabb: Color,
    /// Contact points separated by more than the linear slop.
    pub contact_speculative: Color,
    /// Contact points new this step.
    pub contact_added: Color,
    /// Contact points that persisted from the last step.
    pub contact_persisted: Color,
    /// Contact normals.
    pub contact_normal: Color,
}

impl DrawColors {
    /// The colour of a shape in `state`.
    pub fn of_state(&self, state: DrawState) -> Color {
        match state {
            DrawState::Disabled => self.disabled,
            DrawState::Sensor => self.sensor,
            DrawState::Static => self.static_body,
            DrawState::Kinematic => self.kinematic,
            DrawState::Awake => self.awake,
            DrawState::Asleep => self.asleep,
        }
    }
}

impl Default for DrawColors {
    /// Box2D's debug-draw colours.
    fn default() -> Self {
        DrawColors {
            disabled: Color(0x708090),
            sensor: Color(0xF5DEB3),
            static_body: Color(0x98FB98),
            kinematic: Color(0x4169E1),
            awake: Color(0xFFC0CB),
            asleep: Color(0x808080),
            joint: Color(0x8FBC8F),
            joint_axis: Color(0xFFA500),
            aabb: Color(0xFFD700),
            contact_speculative: Color(0xDCDCDC),
            contact_added: Color(0x008000),
            contact_persisted: Color(0x0000FF),
            contact_normal: Color(0x696969),
        }
    }
}

/// What [`World::draw`] draws (see the module notes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawOptions {
    /// Draw only what lies in this box (world metres); `None` draws everything.
    pub view: Option<Aabb>,
    /// Shapes, coloured by state (default on).
    pub shapes: bool,
    /// Joints (default on).
    pub joints: bool,
    /// The broadphase's fat box of every shape (default off).
    pub aabbs: bool,
    /// A transform at every dynamic body's centre of mass (default off).
    pub centers_of_mass: bool,
    /// A point per contact manifold point (default off).
    pub contacts: bool,
    /// A segment along the normal from every contact point (default off).
    pub contact_normals: bool,
    /// Length (m) of a drawn contact normal (default 0.3).
    pub normal_length: f32,
    /// Size of a drawn contact point, in the renderer's units (pixels; default 5).
    pub point_size: f32,
    /// The colours of everything drawn (default: Box2D's).
    pub colors: DrawColors,
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions {
            view: None,
            shapes: true,
            joints: true,
            aabbs: false,
            centers_of_mass: false,
            contacts: false,
            contact_normals: false,
            normal_length: 0.3,
            point_size: 5.0,
            colors: DrawColors::default(),
        }
    }
}

impl DrawOptions {
    /// Every kind on.
    pub fn everything() -> Self {
        DrawOptions {
            aabbs: true,
            centers_of_mass: true,
            contacts: true,
            contact_normals: true,
            ..DrawOptions::default()
        }
    }

    /// The view box must be finite with `min ≤ max`; the lengths finite and ≥ 0.
    fn validate(&self) -> Result<(), PrismError> {
        if let Some(view) = self.view {
            finite_vec("DrawOptions::view.min", view.min)?;
            finite_vec("DrawOptions::view.max", view.max)?;
            if view.min.x > view.max.x || view.min.y > view.max.y {
                return Err(PrismError::OutOfRange {
                    field: "DrawOptions::view",
                    // The negative extent: width or height, whichever is smaller.
                    value: (view.max.x - view.min.x).min(view.max.y - view.min.y),
                    requirement: "a box with min ≤ max on both axes (width and height ≥ 0)",
                });
            }
        }
        non_negative("DrawOptions::normal_length", self.normal_length)?;
        non_negative("DrawOptions::point_size", self.point_size)?;
        Ok(())
    }

    fn sees_box(&self, aabb: &Aabb) -> bool {
        self.view.is_none_or(|view| view.overlaps(aabb))
    }

    fn sees_point(&self, p: Vec2) -> bool {
        self.sees_box(&Aabb::new(p, p))
    }
}

/// A renderer of the world's primitives, all in world coordinates (metres). Every method does
/// nothing unless implemented, so a renderer implements what it can show.
pub trait DebugDraw {
    /// A filled convex polygon, counter-clockwise, grown by `radius` (a rounded polygon).
    fn draw_solid_polygon(&mut self, vertices: &[Vec2], radius: f32, color: Color) {
        let _ = (vertices, radius, color);
    }

    /// A filled circle: centre `transform.p`; `transform.q` is its body's rotation (draw a
    /// radius along `q.x_axis()` to show it turn).
    fn draw_solid_circle(&mut self, transform: Transform, radius: f32, color: Color) {
        let _ = (transform, radius, color);
    }

    /// A filled capsule: the segment `p1`–`p2` grown by `radius`.
    fn draw_solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: Color) {
        let _ = (p1, p2, radius, color);
    }

    /// A line segment.
    fn draw_segment(&mut self, p1: Vec2, p2: Vec2, color: Color) {
        let _ = (p1, p2, color);
    }

    /// A point of `size` in the renderer's units (pixels), whatever the zoom.
    fn draw_point(&mut self, p: Vec2, size: f32, color: Color) {
        let _ = (p, size, color);
    }

    /// A frame: its origin and axes (choose a length).
    fn draw_transform(&mut self, transform: Transform) {
        let _ = transform;
    }

    /// An axis-aligned box, outlined.
    fn draw_aabb(&mut self, aabb: Aabb, color: Color) {
        let _ = (aabb, color);
    }
}

impl World {
    /// Draws the world into `drawer` as `options` say (see the module notes). Read-only.
    ///
    /// Errors: a view box that is not finite or has `min > max`, a negative or non-finite
    /// normal length or point size (nothing is drawn).
    pub fn draw(
        &self,
        drawer: &mut dyn DebugDraw,
        options: &DrawOptions,
    ) -> Result<(), PrismError> {
        options.validate()?;
        if options.shapes || options.aabbs {
            self.draw_shapes(drawer, options);
        }
        if options.joints {
            self.draw_joints(drawer, options);
        }
        if options.centers_of_mass {
            self.draw_centers_of_mass(drawer, options);
        }
        if options.contacts || options.contact_normals {
            self.draw_contacts(drawer, options);
        }
        Ok(())
    }

    /// The state that colours shape `shape` (see [`DrawState`]).
    fn draw_state(&self, shape: &ShapeRecord) -> DrawState {
        let Some(body) = self.bodies.get(shape.body) else {
            return DrawState::Disabled;
        };
        match (body.set_index, body.body_type) {
            (DISABLED_SET, _) => DrawState::Disabled,
            _ if shape.is_sensor => DrawState::Sensor,
            (STATIC_SET, _) | (_, BodyType::Static) => DrawState::Static,
            (_, BodyType::Kinematic) => DrawState::Kinematic,
            (AWAKE_SET, _) => DrawState::Awake,
            _ => DrawState::Asleep,
        }
    }

    fn draw_shapes(&self, drawer: &mut dyn DebugDraw, options: &DrawOptions) {
        for (_, shape) in self.shapes.iter() {
            let Some(sim) = self.body_sim(shape.body.index()) else {
                continue;
            };
            if options.shapes && options.sees_box(&compute_aabb(&shape.geometry, sim.transform)) {
                let color = options.colors.of_state(self.draw_state(shape));
                draw_geometry(drawer, &shape.geometry, sim.transform, color);
            }
            let has_box = self
                .bodies
                .get(shape.body)
                .is_some_and(|b| b.set_index != DISABLED_SET);
            if options.aabbs && has_box && options.sees_box(&shape.fat_aabb) {
                drawer.draw_aabb(shape.fat_aabb, options.colors.aabb);
            }
        }
    }

    fn draw_joints(&self, drawer: &mut dyn DebugDraw, options: &DrawOptions) {
        for (id, record) in self.joints.arena.iter() {
            let body_a = self.bodies.get(record.base.body_a);
            let body_b = self.bodies.get(record.base.body_b);
            let (Some(body_a), Some(body_b)) = (body_a, body_b) else {
                continue;
            };
            if body_a.set_index == DISABLED_SET || body_b.set_index == DISABLED_SET {
                continue;
            }
            let (Some(sim_a), Some(sim_b)) = (
                self.body_sim(record.base.body_a.index()),
                self.body_sim(record.base.body_b.index()),
            ) else {
                continue;
            };
            let frame_a = sim_a.transform.mul(record.frame_a);
            let frame_b = sim_b.transform.mul(record.frame_b);
            let (origin_a, origin_b) = (sim_a.transform.p, sim_b.transform.p);
            let reach = Aabb::new(origin_a, origin_a)
                .union(&Aabb::new(origin_b, origin_b))
                .union(&Aabb::new(frame_a.p, frame_a.p))
                .union(&Aabb::new(frame_b.p, frame_b.p));
            if !options.sees_box(&reach) {
                continue;
            }
            let color = options.colors.joint;
            drawer.draw_segment(origin_a, frame_a.p, color);
            drawer.draw_segment(frame_a.p, frame_b.p, color);
            drawer.draw_segment(origin_b, frame_b.p, color);
            let kind = self.joint_sim(id.index()).map(|sim| sim.kind);
            if matches!(kind, Some(JointKind::Prismatic(_) | JointKind::Wheel(_))) {
                let half_axis = 0.5 * frame_a.q.x_axis();
                let axis_color = options.colors.joint_axis;
                drawer.draw_segment(frame_a.p - half_axis, frame_a.p + half_axis, axis_color);
            }
        }
    }

    fn draw_centers_of_mass(&self, drawer: &mut dyn DebugDraw, options: &DrawOptions) {
        for (id, body) in self.bodies.iter() {
            if body.body_type != BodyType::Dynamic || body.set_index == DISABLED_SET {
                continue;
            }
            let Some(sim) = self.body_sim(id.index()) else {
                continue;
            };
            if options.sees_point(sim.center) {
                drawer.draw_transform(Transform::new(sim.center, sim.transform.q));
            }
        }
    }

    fn draw_contacts(&self, drawer: &mut dyn DebugDraw, options: &DrawOptions) {
        for (id, contact) in self.contacts.iter() {
            let Some(sim) = self.contact_sim(id.index()) else {
                continue;
            };
            let Some(body_b) = self.body_sim(contact.edges[1].body) else {
                continue;
            };
            let manifold = &sim.solver.manifold;
            for point in &manifold.points[..manifold.point_count] {
                let p = body_b.center + point.anchor_b;
                if !options.sees_point(p) {
                    continue;
                }
                if options.contacts {
                    drawer.draw_point(p, options.point_size, contact_color(options, point));
                }
                if options.contact_normals {
                    let end = p + options.normal_length * manifold.normal;
                    drawer.draw_segment(p, end, options.colors.contact_normal);
                }
            }
        }
    }
}

/// A contact point's colour: speculative, new or persisted.
fn contact_color(options: &DrawOptions, point: &collision::ManifoldPoint) -> Color {
    let colors = &options.colors;
    if point.separation > LINEAR_SLOP {
        colors.contact_speculative
    } else if point.persisted {
        colors.contact_persisted
    } else {
        colors.contact_added
    }
}

/// One shape's primitive at `transform`.
fn draw_geometry(drawer: &mut dyn DebugDraw, geometry: &Shape, transform: Transform, color: Color) {
    match geometry {
        Shape::Circle(circle) => {
            let center = Transform::new(transform.apply(circle.center), transform.q);
            drawer.draw_solid_circle(center, circle.radius, color);
        }
        Shape::Capsule(capsule) => {
            let p1 = transform.apply(capsule.center1);
            let p2 = transform.apply(capsule.center2);
            drawer.draw_solid_capsule(p1, p2, capsule.radius, color);
        }
        Shape::Polygon(polygon) => {
            let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
            for (world, &local) in vertices.iter_mut().zip(polygon.verts()) {
                *world = transform.apply(local);
            }
            drawer.draw_solid_polygon(&vertices[..polygon.count], polygon.radius, color);
        }
        Shape::Segment(segment) => {
            let p1 = transform.apply(segment.point1);
            drawer.draw_segment(p1, transform.apply(segment.point2), color);
        }
        Shape::ChainSegment(chain) => {
            let p1 = transform.apply(chain.segment.point1);
            drawer.draw_segment(p1, transform.apply(chain.segment.point2), color);
        }
    }
}
