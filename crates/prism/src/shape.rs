//! Shapes: geometry attached to a body, with a material, a filter and a broadphase proxy.
//!
//! A shape is stored in its body's local frame (relative to the body origin). Creating one
//! validates the geometry and the definition first, then records it, gives it a proxy in the
//! static tree (static bodies) or the moving tree (dynamic and kinematic bodies) and puts the
//! proxy in the move buffer, so the next step's pair update finds what it overlaps. Finally the
//! body's mass is recomputed from all its shapes.
//!
//! Geometry checks: every coordinate finite; circle and capsule radii positive; segments longer
//! than the linear slop. A capsule whose two centres are closer than the linear slop is stored as
//! a circle, as Box2D does: the two are the same set of points, and the circle's manifolds are
//! better conditioned. Polygons must be what [`crate::make_polygon`] and the box helpers build —
//! 3 to 8 finite vertices, convex and counter-clockwise, edges and corners not degenerate,
//! outward unit normals, the area centroid, a finite non-negative radius — which
//! [`crate::check_polygon`] verifies for any polygon, however it was made. Finally the shape's
//! mass properties, and its body's with it, must fit in `f32` (`mass_limits.rs`), and so must
//! its bounding box where its body stands (`finite_effects.rs`).
//!
//! Chains: [`World::create_chain`] returns the ids of its links (one chain-segment shape per
//! link, in point order). There is no separate chain object: destroy a chain by destroying its
//! shapes. Every link of one chain carries the same chain id inside its geometry.

use crate::body_enable::proxy_tree;
use crate::broadphase::{TreeKind, fat_margin, proxy_box};
use crate::def::{Filter, ShapeDef};
use crate::error::{IdKind, PrismError, finite_vec, positive};
use crate::finite_effects::{box_out_of_range, shape_box_fits};
use crate::mass_limits::position_field;
use crate::solver_set::DISABLED_SET;
use crate::world::World;
use collision::chain::make_chain;
use collision::geometry::{compute_aabb, shape_extent};
use collision::hull::check_polygon;
use collision::tree::NULL_PROXY;
use collision::{Aabb, Capsule, Circle, LINEAR_SLOP, Polygon, Segment, Shape};
use core_soa::{BodyId, ShapeId, Vec2};

/// Everything the world keeps about one shape.
#[derive(Clone, Debug)]
pub(crate) struct ShapeRecord {
    pub(crate) body: BodyId,
    pub(crate) geometry: Shape,
    pub(crate) density: f32,
    pub(crate) friction: f32,
    pub(crate) restitution: f32,
    pub(crate) filter: Filter,
    pub(crate) enable_contact_events: bool,
    pub(crate) user_data: u64,
    /// The event and hook flags of its definition (see `ShapeDef`).
    pub(crate) is_sensor: bool,
    pub(crate) enable_sensor_events: bool,
    pub(crate) enable_hit_events: bool,
    pub(crate) enable_custom_filtering: bool,
    pub(crate) enable_pre_solve_events: bool,
    /// Which broadphase tree holds the proxy.
    pub(crate) tree: TreeKind,
    /// The proxy, or `NULL_PROXY` while the body is disabled.
    pub(crate) proxy: u32,
    /// The proxy's fat box (its `broadphase::proxy_box` grown by `broadphase::fat_margin` when
    /// last re-inserted).
    pub(crate) fat_aabb: Aabb,
    /// Sizes of `geometry` that the hot passes need (not written to snapshots: decoding
    /// computes them again).
    pub(crate) sizes: ShapeSizes,
}

/// Sizes derived from a shape's geometry, which never changes: computed once when the shape
/// is created (or decoded) rather than for every escape and every full collide.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ShapeSizes {
    /// The fat margin in the moving and sleeping trees (`broadphase::fat_margin`).
    moving_margin: f32,
    /// The distance from the body origin to the shape's farthest point
    /// (`collision::shape_extent` about the origin), which contact recycling bounds turns by.
    pub(crate) origin_extent: f32,
}

impl ShapeSizes {
    /// The sizes of `geometry`.
    pub(crate) fn of(geometry: &Shape) -> ShapeSizes {
        ShapeSizes {
            moving_margin: fat_margin(TreeKind::Moving, geometry),
            origin_extent: shape_extent(geometry, Vec2::ZERO),
        }
    }

    /// Whether these are the sizes of `geometry`, to the bit (the whole-structure checks).
    pub(crate) fn agree_with(&self, geometry: &Shape) -> bool {
        let own = ShapeSizes::of(geometry);
        own.moving_margin.to_bits() == self.moving_margin.to_bits()
            && own.origin_extent.to_bits() == self.origin_extent.to_bits()
    }

    /// The fat margin in a tree of kind `kind` (`broadphase::fat_margin`).
    #[inline]
    fn fat_margin(&self, kind: TreeKind) -> f32 {
        match kind {
            TreeKind::Static => 0.0,
            TreeKind::Moving | TreeKind::Sleeping => self.moving_margin,
        }
    }
}

impl ShapeRecord {
    /// The shape's fat margin in a tree of kind `kind` (`broadphase::fat_margin`).
    #[inline]
    pub(crate) fn fat_margin(&self, kind: TreeKind) -> f32 {
        self.sizes.fat_margin(kind)
    }
}

impl World {
    /// Creates a circle (centre finite, radius > 0) on `body`; errors name the bad field.
    pub fn create_circle_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        circle: &Circle,
    ) -> Result<ShapeId, PrismError> {
        finite_vec("Circle::center", circle.center)?;
        positive("Circle::radius", circle.radius)?;
        self.create_shape(body, def, Shape::Circle(*circle))
    }

    /// Creates a capsule; one with coincident centres (within the linear slop) becomes a circle.
    pub fn create_capsule_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        capsule: &Capsule,
    ) -> Result<ShapeId, PrismError> {
        finite_vec("Capsule::center1", capsule.center1)?;
        finite_vec("Capsule::center2", capsule.center2)?;
        positive("Capsule::radius", capsule.radius)?;
        let geometry = if capsule.center1.distance(capsule.center2) <= LINEAR_SLOP {
            let center = 0.5 * (capsule.center1 + capsule.center2);
            Shape::Circle(Circle {
                center,
                radius: capsule.radius,
            })
        } else {
            Shape::Capsule(*capsule)
        };
        self.create_shape(body, def, geometry)
    }

    /// Creates a two-sided segment (finite ends, length above the linear slop) on `body`.
    pub fn create_segment_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        segment: &Segment,
    ) -> Result<ShapeId, PrismError> {
        finite_vec("Segment::point1", segment.point1)?;
        finite_vec("Segment::point2", segment.point2)?;
        let length = segment.point1.distance(segment.point2);
        if length <= LINEAR_SLOP {
            return Err(PrismError::OutOfRange {
                field: "Segment length",
                value: length,
                requirement: "longer than the linear slop (0.005 m)",
            });
        }
        self.create_shape(body, def, Shape::Segment(*segment))
    }

    /// Creates a convex polygon shape (see [`crate::make_polygon`] and the box helpers).
    pub fn create_polygon_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        polygon: &Polygon,
    ) -> Result<ShapeId, PrismError> {
        check_polygon(polygon)?;
        self.create_shape(body, def, Shape::Polygon(*polygon))
    }

    /// Creates a chain through `points` (closed: the last point links back to the first) as one
    /// chain-segment shape per link, and returns their ids in point order. Chain links collide
    /// on their right side only; they have no mass.
    pub fn create_chain(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        points: &[Vec2],
        closed: bool,
    ) -> Result<Vec<ShapeId>, PrismError> {
        self.body(body)?;
        def.validate()?;
        let links = make_chain(points, closed, self.next_chain_id)?;
        let transform = self.body_transform(body)?;
        for link in &links {
            let geometry = Shape::ChainSegment(*link);
            if !shape_box_fits(&geometry, transform) {
                let (field, value) = position_field(&geometry);
                return Err(box_out_of_range(field, value));
            }
        }
        self.next_chain_id = self.next_chain_id.wrapping_add(1);
        let ids = links
            .into_iter()
            .map(|link| self.insert_shape(body, def, Shape::ChainSegment(link)))
            .collect::<Result<Vec<_>, _>>()?;
        self.update_body_mass(body.index());
        Ok(ids)
    }

    /// Destroys a shape and its contacts (touching ones produce end events with the next
    /// step's events), and recomputes its body's mass.
    pub fn destroy_shape(&mut self, id: ShapeId) -> Result<(), PrismError> {
        let body_id = self.shape(id)?.body;
        self.body(body_id)?;
        let contacts: Vec<u32> = self
            .contacts_of_body(body_id.index())
            .into_iter()
            .filter(|&c| {
                self.contacts
                    .get_by_index(c)
                    .is_some_and(|contact| contact.shape_a == id || contact.shape_b == id)
            })
            .collect();
        for contact in contacts {
            if let Some(event) = self.destroy_contact(contact) {
                self.events.pending_end.push(event);
            }
        }
        self.remove_shape_record(id);
        if let Some(body) = self.bodies.get_mut(body_id) {
            body.shapes.retain(|&s| s != id);
        }
        self.update_body_mass(body_id.index());
        self.forget_fat_slack(body_id.index());
        Ok(())
    }

    /// Whether `id` refers to a live shape of this world.
    pub fn is_shape_valid(&self, id: ShapeId) -> bool {
        self.shapes.contains(id)
    }

    /// The body a shape is attached to.
    pub fn shape_body(&self, id: ShapeId) -> Result<BodyId, PrismError> {
        Ok(self.shape(id)?.body)
    }

    /// The shape's geometry in its body's frame.
    pub fn shape_geometry(&self, id: ShapeId) -> Result<Shape, PrismError> {
        Ok(self.shape(id)?.geometry)
    }

    /// The shape's tight world box at its body's current transform (as of the last step, or
    /// the last time the body was placed).
    pub fn shape_aabb(&self, id: ShapeId) -> Result<Aabb, PrismError> {
        Ok(self.tight_aabb(self.shape(id)?))
    }

    /// A shape's tight world box, from its geometry and its body's current transform. The box
    /// is not stored: every awake shape's box changes each step, and only queries read it, so
    /// the step computes it only to test it against the fat box (see `finalize.rs`).
    pub(crate) fn tight_aabb(&self, shape: &ShapeRecord) -> Aabb {
        let transform = self
            .body_sim(shape.body.index())
            .map(|sim| sim.transform)
            .unwrap_or_default();
        compute_aabb(&shape.geometry, transform)
    }

    /// The shape's collision filter.
    pub fn shape_filter(&self, id: ShapeId) -> Result<Filter, PrismError> {
        Ok(self.shape(id)?.filter)
    }

    /// The `user_data` the shape was created with or last set to.
    pub fn shape_user_data(&self, id: ShapeId) -> Result<u64, PrismError> {
        Ok(self.shape(id)?.user_data)
    }

    /// The shape's friction coefficient.
    pub fn shape_friction(&self, id: ShapeId) -> Result<f32, PrismError> {
        Ok(self.shape(id)?.friction)
    }

    /// The shape's coefficient of restitution.
    pub fn shape_restitution(&self, id: ShapeId) -> Result<f32, PrismError> {
        Ok(self.shape(id)?.restitution)
    }

    /// The shape's density (kg/m²).
    pub fn shape_density(&self, id: ShapeId) -> Result<f32, PrismError> {
        Ok(self.shape(id)?.density)
    }

    /// The live shape `id`, or [`PrismError::InvalidId`].
    pub(crate) fn shape(&self, id: ShapeId) -> Result<&ShapeRecord, PrismError> {
        self.shapes.get(id).ok_or(PrismError::InvalidId {
            kind: IdKind::Shape,
            index: id.index(),
            generation: id.generation(),
        })
    }

    /// Validates the body and definition, then inserts the shape and updates the body's mass.
    fn create_shape(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        geometry: Shape,
    ) -> Result<ShapeId, PrismError> {
        self.body(body)?;
        def.validate()?;
        self.check_shape_mass(body, def, &geometry)?;
        if !shape_box_fits(&geometry, self.body_transform(body)?) {
            let (field, value) = position_field(&geometry);
            return Err(box_out_of_range(field, value));
        }
        let id = self.insert_shape(body, def, geometry)?;
        self.update_body_mass(body.index());
        Ok(id)
    }

    /// Records a validated shape on a live body and gives it a broadphase proxy.
    fn insert_shape(
        &mut self,
        body_id: BodyId,
        def: &ShapeDef,
        geometry: Shape,
    ) -> Result<ShapeId, PrismError> {
        let body = self.body(body_id)?;
        let tree = proxy_tree(body.body_type);
        // A disabled body's shapes get their proxies when it is enabled (`body_enable.rs`).
        let disabled = body.set_index == DISABLED_SET;
        let transform = self
            .body_sim(body_id.index())
            .map(|sim| sim.transform)
            .unwrap_or_default();
        let aabb = proxy_box(tree, compute_aabb(&geometry, transform));
        let sizes = ShapeSizes::of(&geometry);
        let margin = sizes.fat_margin(tree);
        let id = self.shapes.insert_with(|id| {
            let category_bits = def.filter.category_bits;
            let proxy = if disabled {
                NULL_PROXY
            } else {
                self.broadphase
                    .create_proxy(tree, aabb, margin, category_bits, id.index())
            };
            ShapeRecord {
                body: body_id,
                geometry,
                density: def.density,
                friction: def.friction,
                restitution: def.restitution,
                filter: def.filter,
                enable_contact_events: def.enable_contact_events,
                user_data: def.user_data,
                is_sensor: def.is_sensor,
                enable_sensor_events: def.enable_sensor_events,
                enable_hit_events: def.enable_hit_events,
                enable_custom_filtering: def.enable_custom_filtering,
                enable_pre_solve_events: def.enable_pre_solve_events,
                tree,
                proxy,
                fat_aabb: aabb,
                sizes,
            }
        });
        if let Some(shape) = self.shapes.get_mut(id)
            && !disabled
        {
            shape.fat_aabb = self.broadphase.tree(tree).fat_aabb(shape.proxy);
        }
        if let Some(body) = self.bodies.get_mut(body_id) {
            body.shapes.push(id);
        }
        if def.is_sensor {
            self.sensors.add(id);
        }
        self.events.note_shape_flags(def);
        self.forget_fat_slack(body_id.index());
        Ok(id)
    }

    /// Removes a shape's record and proxy (its contacts must already be gone); a sensor's
    /// overlaps end (`sensor.rs`).
    pub(crate) fn remove_shape_record(&mut self, id: ShapeId) {
        if let Some(shape) = self.shapes.remove(id) {
            if shape.is_sensor {
                self.sensors.remove(id);
            }
            if shape.proxy == NULL_PROXY {
                return;
            }
            self.broadphase
                .destroy_proxy(shape.tree, shape.proxy, id.index());
        }
    }

    /// Recomputes the tight boxes of a body's shapes from its transform and moves their proxies;
    /// a proxy whose box left its fat box is re-inserted and buffered for the pair update.
    /// `teleported` re-inserts static proxies too (a static body moved by the user).
    pub(crate) fn refresh_body_shapes(&mut self, body_index: u32, teleported: bool) {
        self.forget_fat_slack(body_index);
        let Some(body) = self.bodies.get_by_index(body_index) else {
            return;
        };
        let Some(sim) = self.body_sim(body_index) else {
            return;
        };
        let transform = sim.transform;
        for &shape_id in &body.shapes {
            let Some(shape) = self.shapes.get_mut(shape_id) else {
                continue;
            };
            if (shape.tree == TreeKind::Static && !teleported) || shape.proxy == NULL_PROXY {
                continue;
            }
            let aabb = proxy_box(shape.tree, compute_aabb(&shape.geometry, transform));
            let margin = shape.fat_margin(shape.tree);
            let tree = self.broadphase.tree_mut(shape.tree);
            if tree.move_proxy_with_margin(shape.proxy, aabb, margin) {
                shape.fat_aabb = tree.fat_aabb(shape.proxy);
                self.broadphase.buffer_move(shape_id.index());
            }
        }
    }
}
