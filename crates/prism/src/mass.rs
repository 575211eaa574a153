//! Mass: from the shapes, or set by the user; the body's extent; inertia scaling.
//!
//! Each shape `i` gives a mass `mᵢ`, a centroid `cᵢ` (body frame) and an inertia `Iᵢ` about its
//! centroid. The body's mass is `m = Σ mᵢ`, its centre `c = Σ mᵢ cᵢ / m`, and its inertia about
//! that centre follows from the parallel-axis theorem applied twice — shift every shape's
//! inertia to the body origin, sum, then shift the sum to the centre:
//!
//! ```text
//!   I_origin = Σ (Iᵢ + mᵢ |cᵢ|²)          I_center = I_origin − m |c|²
//! ```
//!
//! A dynamic body whose shapes have no mass gets mass 1 (and no rotational inertia), as in
//! Box2D, so it still falls and can be pushed. A fixed-rotation body gets zero inverse inertia.
//! The inertia scale (`BodyDef::inertia_scale`, 1 by default) multiplies the shapes' inertia:
//! the remedy the mass-ratio report suggests for light links in a heavy chain. Moving the
//! centre of mass keeps the body origin where it is, so the centre's velocity changes by
//! `ω × (c_new − c_old)` — the same rigid motion, described about a different point.
//!
//! Contacts and joints carry their bodies' inverse masses and centre-relative anchors, so a
//! mass change is pushed into them at once (`relocate.rs`).
//!
//! **Extent.** A body's extent is the largest distance from its centre of mass to a point of
//! its shapes; it turns an angular speed into a point speed for the sleep timer. Each shape's
//! box in the body frame bounds the shape, so the farthest box corner from the centre bounds
//! the farthest point: exact for boxes, at most √2 too large for a circle (which only makes the
//! sleep test stricter). Its counterpart, the *min extent*, is the smallest of the shapes'
//! inner radii (`collision::shape_inner_radius`: the distance from a shape's centroid to its
//! nearest face, 0 for segments), as Box2D keeps it: a body that moves more than half of it in
//! a step may have passed through something thin, and is swept (`continuous.rs`).

use crate::error::{PrismError, finite_vec, non_negative, positive};
use crate::world::World;
use collision::geometry::{compute_aabb, shape_inner_radius};
use collision::mass::{MassData, compute_mass};
use core_soa::math::hypot;
use core_soa::{BodyId, BodySim, BodyState, BodyType, ShapeId, Transform, Vec2, cross_sv};

impl World {
    /// Mass (kg), centre of mass (body frame) and rotational inertia about it (kg·m²).
    pub fn mass_data(&self, id: BodyId) -> Result<MassData, PrismError> {
        let sim = self.sim(id)?;
        Ok(MassData {
            mass: sim.mass,
            center: sim.local_center,
            rotational_inertia: sim.inertia,
        })
    }

    /// Overrides the mass properties of a dynamic body (no effect on others). Adding or removing
    /// a shape later recomputes them from the shapes. A zero mass becomes 1, as for a body
    /// without massive shapes. A positive mass or inertia must have a finite inverse (be at
    /// least `1/f32::MAX`).
    pub fn set_mass_data(&mut self, id: BodyId, mass_data: MassData) -> Result<(), PrismError> {
        non_negative("MassData::mass", mass_data.mass)?;
        finite_vec("MassData::center", mass_data.center)?;
        non_negative("MassData::rotational_inertia", mass_data.rotational_inertia)?;
        crate::mass_limits::check_mass_override(&mass_data)?;
        let center = mass_data.center;
        let size = center.x.abs().max(center.y.abs());
        self.refuse_infinite_effect(id, "MassData::center", size, true, |sim, state| {
            // As `apply_mass` moves the centre and corrects the velocity.
            let new_center = sim.transform.apply(center);
            let velocity =
                state.linear_velocity + cross_sv(state.angular_velocity, new_center - sim.center);
            new_center.is_finite() && velocity.is_finite()
        })?;
        let body = self.body(id)?;
        let (dynamic, fixed_rotation) = (body.body_type == BodyType::Dynamic, body.fixed_rotation);
        let (sim, state) = self.sim_state_mut(id)?;
        if dynamic {
            apply_mass(sim, state, mass_data, fixed_rotation);
        }
        self.mass_changed(id.index());
        Ok(())
    }

    /// A body's inertia scale (1 unless set).
    pub fn inertia_scale(&self, id: BodyId) -> Result<f32, PrismError> {
        Ok(self.body(id)?.inertia_scale)
    }

    /// Multiplies the rotational inertia a dynamic body gets from its shapes by `scale`
    /// (finite, > 0, and such that the scaled inertia and its inverse are finite) from now on,
    /// and recomputes its mass. Wakes the body.
    pub fn set_inertia_scale(&mut self, id: BodyId, scale: f32) -> Result<(), PrismError> {
        positive("inertia_scale", scale)?;
        self.check_inertia_scale(id, scale)?;
        self.body_mut(id)?.inertia_scale = scale;
        self.wake_body(id.index());
        self.update_body_mass(id.index());
        Ok(())
    }

    /// Whether the body's rotation is locked.
    pub fn is_fixed_rotation(&self, id: BodyId) -> Result<bool, PrismError> {
        Ok(self.body(id)?.fixed_rotation)
    }

    /// Locks or unlocks the body's rotation and recomputes its mass: a locked body has no
    /// rotational inertia (zero inverse inertia, so no torque or contact turns it) and stops
    /// turning at once. Wakes the body.
    pub fn set_fixed_rotation(&mut self, id: BodyId, fixed: bool) -> Result<(), PrismError> {
        let body = self.body_mut(id)?;
        if body.fixed_rotation == fixed {
            return Ok(());
        }
        body.fixed_rotation = fixed;
        let flags = body.state_flags();
        self.wake_body(id.index());
        if let Some((_, state)) = self.body_sim_state_mut(id.index()) {
            state.flags = flags;
            if fixed {
                state.angular_velocity = 0.0;
            }
        }
        self.update_body_mass(id.index());
        Ok(())
    }

    /// Recomputes a body's mass properties from its shapes (see the module notes).
    pub(crate) fn update_body_mass(&mut self, body_index: u32) {
        let Some(body) = self.bodies.get_by_index(body_index) else {
            return;
        };
        let fixed_rotation = body.fixed_rotation;
        let mass_data = (body.body_type == BodyType::Dynamic).then(|| {
            let mut mass_data = self.mass_from_shapes(&body.shapes);
            mass_data.rotational_inertia *= body.inertia_scale;
            mass_data
        });
        let Some((sim, state)) = self.body_sim_state_mut(body_index) else {
            return;
        };
        match mass_data {
            Some(mass_data) => apply_mass(sim, state, mass_data, fixed_rotation),
            None => clear_mass(sim),
        }
        self.mass_changed(body_index);
    }

    /// After a body's mass or centre changed: its extent, and its constraints' copies.
    fn mass_changed(&mut self, body_index: u32) {
        self.update_body_extent(body_index);
        self.refresh_constraints_of(body_index, true);
    }

    /// Sums the shapes' mass properties about the body's centre of mass.
    pub(crate) fn mass_from_shapes(&self, shapes: &[ShapeId]) -> MassData {
        sum_mass_parts(self.shape_mass_parts(shapes))
    }

    /// The mass properties of each shape that has mass. Massless parts (zero density,
    /// segments, chain links) add nothing, and are skipped rather than added as zeros: the
    /// parallel-axis term `0·|c|²` of a segment 10²⁰ m from the origin is `0·∞ = NaN`.
    pub(crate) fn shape_mass_parts<'a>(
        &'a self,
        shapes: &'a [ShapeId],
    ) -> impl Iterator<Item = MassData> + 'a {
        shapes
            .iter()
            .filter_map(|&id| self.shapes.get(id))
            .filter(|shape| shape.density != 0.0)
            .map(|shape| compute_mass(&shape.geometry, shape.density))
            .filter(|part| part.mass != 0.0)
    }

    /// Recomputes a body's extents from its shapes (see the module notes).
    pub(crate) fn update_body_extent(&mut self, body_index: u32) {
        let Some(body) = self.bodies.get_by_index(body_index) else {
            return;
        };
        let Some(center) = self.body_sim(body_index).map(|sim| sim.local_center) else {
            return;
        };
        let extent = body
            .shapes
            .iter()
            .filter_map(|&id| self.shapes.get(id))
            .map(|shape| {
                let local = compute_aabb(&shape.geometry, Transform::IDENTITY);
                let far_x = (local.min.x - center.x)
                    .abs()
                    .max((local.max.x - center.x).abs());
                let far_y = (local.min.y - center.y)
                    .abs()
                    .max((local.max.y - center.y).abs());
                hypot(far_x, far_y)
            })
            .fold(0.0f32, f32::max);
        let min_extent = body
            .shapes
            .iter()
            .filter_map(|&id| self.shapes.get(id))
            .map(|shape| shape_inner_radius(&shape.geometry))
            .fold(BodySim::NO_EXTENT, f32::min);
        if let Some((sim, _)) = self.body_sim_state_mut(body_index) {
            sim.max_extent = extent;
            sim.min_extent = min_extent;
        }
    }
}

/// Sums mass properties given about each part's own centre into the body's: total mass, centre
/// of mass, and inertia about that centre (the parallel-axis theorem twice; module notes).
pub(crate) fn sum_mass_parts(parts: impl Iterator<Item = MassData>) -> MassData {
    let (mut mass, mut moment, mut inertia_about_origin) = (0.0, Vec2::ZERO, 0.0);
    for part in parts {
        mass += part.mass;
        moment += part.mass * part.center;
        inertia_about_origin += part.rotational_inertia + part.mass * part.center.length_squared();
    }
    let center = if mass > 0.0 {
        moment / mass
    } else {
        Vec2::ZERO
    };
    let inertia = (inertia_about_origin - mass * center.length_squared()).max(0.0);
    MassData {
        mass,
        center,
        rotational_inertia: inertia,
    }
}

/// Installs mass properties on a dynamic body (see the module notes).
fn apply_mass(sim: &mut BodySim, state: &mut BodyState, mass_data: MassData, fixed_rotation: bool) {
    let mass = if mass_data.mass > 0.0 {
        mass_data.mass
    } else {
        1.0
    };
    sim.mass = mass;
    sim.inv_mass = 1.0 / mass;
    let rotates = mass_data.rotational_inertia > 0.0 && !fixed_rotation;
    sim.inertia = if rotates {
        mass_data.rotational_inertia
    } else {
        0.0
    };
    sim.inv_inertia = if rotates { 1.0 / sim.inertia } else { 0.0 };
    let old_center = sim.center;
    sim.local_center = mass_data.center;
    sim.center = sim.transform.apply(mass_data.center);
    sim.center0 = sim.center;
    // The shapes' extent was measured from the old centre.
    sim.fat_slack = 0.0;
    state.linear_velocity += cross_sv(state.angular_velocity, sim.center - old_center);
}

/// Static and kinematic bodies: no mass, infinite inertia, centre at the body origin.
fn clear_mass(sim: &mut BodySim) {
    sim.mass = 0.0;
    sim.inv_mass = 0.0;
    sim.inertia = 0.0;
    sim.inv_inertia = 0.0;
    sim.local_center = Vec2::ZERO;
    sim.center = sim.transform.p;
    sim.center0 = sim.transform.p;
    sim.fat_slack = 0.0;
}
