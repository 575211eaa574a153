//! Mass limits: refusing geometry, densities and mass overrides whose mass properties do not
//! fit in `f32`.
//!
//! Every coordinate and density can be finite while the mass properties built from them are
//! not: a disk's inertia grows as `r⁴` (`½ρπr⁴`), so a circle of radius 10²⁰ has an infinite
//! inertia, a 10³⁰ m box an infinite area, and a shape 10²⁰ m from its body origin an infinite
//! parallel-axis term `m|c|²`. The step would then divide by them: an infinite mass gives a zero
//! inverse mass and a NaN centre (`∞/∞`), a subnormal mass an infinite inverse mass. So every
//! call that sets mass properties computes them first and refuses the ones that do not fit,
//! naming the field at fault, before anything changes:
//!
//! 1. the shape at density 1 — its area and polar second moment — must be finite, else the
//!    geometry is too large (`Circle::radius`, `Capsule::radius` or `Capsule length`,
//!    `Polygon::vertices`). This holds for every shape with an area, massless or not, on any
//!    body: a disk whose `r²` overflows cannot be ray cast or collided either;
//! 2. the shape at its density must have a finite mass and inertia, else `ShapeDef::density`
//!    is too large;
//! 3. the body's total (a dynamic body: every shape, about the new centre of mass, times the
//!    inertia scale) must be finite, else the shape lies too far from the body origin (or the
//!    shapes together are too heavy: `ShapeDef::density`);
//! 4. the inverses the solver uses, `1/m` and `1/I` (when positive), must be finite, else the
//!    density is too small (a subnormal mass).
//!
//! [`World::set_mass_data`] and [`World::set_inertia_scale`] apply rule 4 (and 3, for the
//! scale) to what they would install.

use crate::def::ShapeDef;
use crate::error::PrismError;
use crate::mass::sum_mass_parts;
use crate::world::World;
use collision::mass::{MassData, compute_mass};
use collision::{Circle, Shape};
use core_soa::{BodyId, BodyType};

/// What a shape's or a body's mass properties fail, if anything.
#[derive(Clone, Copy, Debug, PartialEq)]
enum MassFault {
    /// A mass or inertia that is not finite.
    Overflow,
    /// A positive mass or inertia whose inverse is not finite.
    Underflow,
}

impl World {
    /// Rules 1–4 of the module notes for a new shape on `body` (a live body).
    pub(crate) fn check_shape_mass(
        &self,
        body: BodyId,
        def: &ShapeDef,
        geometry: &Shape,
    ) -> Result<(), PrismError> {
        if overflows(&compute_mass(geometry, 1.0)) {
            let (field, value) = size_field(geometry);
            return Err(out_of_range(
                field,
                value,
                "small enough that the shape's area and rotational inertia are finite f32 values",
            ));
        }
        if def.density == 0.0 {
            return Ok(());
        }
        if overflows(&compute_mass(geometry, def.density)) {
            return Err(out_of_range(
                "ShapeDef::density",
                def.density,
                "small enough that the shape's mass and rotational inertia are finite f32 values",
            ));
        }
        let record = self.body(body)?;
        if record.body_type != BodyType::Dynamic {
            return Ok(());
        }
        let part = compute_mass(geometry, def.density);
        let parts = self
            .shape_mass_parts(&record.shapes)
            .chain((part.mass != 0.0).then_some(part));
        let (total, origin_inertia) = sum_checked(parts);
        let scale = record.inertia_scale;
        let fault = if origin_inertia.is_finite() {
            body_mass_fault(total, scale, record.fixed_rotation)
        } else {
            Some(MassFault::Overflow)
        };
        match fault {
            None => Ok(()),
            Some(MassFault::Overflow) if !total.mass.is_finite() => Err(out_of_range(
                "ShapeDef::density",
                def.density,
                "small enough that the body's total mass is a finite f32",
            )),
            Some(MassFault::Overflow) => {
                let (field, value) = position_field(geometry);
                Err(out_of_range(
                    field,
                    value,
                    "near enough to the body origin that the body's rotational inertia is a \
                     finite f32",
                ))
            }
            Some(MassFault::Underflow) => Err(out_of_range(
                "ShapeDef::density",
                def.density,
                "0, or large enough that the body's inverse mass and inverse rotational inertia \
                 are finite",
            )),
        }
    }

    /// Rules 3 and 4 for a new inertia scale on `body` (a live body).
    pub(crate) fn check_inertia_scale(&self, body: BodyId, scale: f32) -> Result<(), PrismError> {
        let record = self.body(body)?;
        if record.body_type != BodyType::Dynamic {
            return Ok(());
        }
        let (total, _) = sum_checked(self.shape_mass_parts(&record.shapes));
        match body_mass_fault(total, scale, record.fixed_rotation) {
            None => Ok(()),
            Some(_) => Err(out_of_range(
                "inertia_scale",
                scale,
                "such that the scaled rotational inertia and its inverse are finite f32 values",
            )),
        }
    }
}

/// Rule 4 for a mass override: a positive mass or inertia must have a finite inverse.
pub(crate) fn check_mass_override(mass_data: &MassData) -> Result<(), PrismError> {
    let requirement = "0, or large enough that its inverse is finite (at least 1/f32::MAX)";
    if mass_data.mass > 0.0 && !(1.0 / mass_data.mass).is_finite() {
        return Err(out_of_range("MassData::mass", mass_data.mass, requirement));
    }
    let inertia = mass_data.rotational_inertia;
    if inertia > 0.0 && !(1.0 / inertia).is_finite() {
        return Err(out_of_range(
            "MassData::rotational_inertia",
            inertia,
            requirement,
        ));
    }
    Ok(())
}

/// The body's mass properties from `parts` (as the body computes them), with the inertia about
/// the body origin, the one intermediate that can overflow while the result does not: the
/// difference `I_origin − m|c|²` of two infinities is NaN, which the clamp at zero would hide.
fn sum_checked(parts: impl Iterator<Item = MassData>) -> (MassData, f32) {
    let parts: Vec<MassData> = parts.collect();
    let origin_inertia: f32 = parts
        .iter()
        .map(|part| part.rotational_inertia + part.mass * part.center.length_squared())
        .sum();
    (sum_mass_parts(parts.into_iter()), origin_inertia)
}

fn overflows(mass_data: &MassData) -> bool {
    !(mass_data.mass.is_finite()
        && mass_data.rotational_inertia.is_finite()
        && mass_data.center.is_finite())
}

/// What installing `total` (inertia times `scale`) on a dynamic body would fail.
fn body_mass_fault(total: MassData, scale: f32, fixed_rotation: bool) -> Option<MassFault> {
    let inertia = total.rotational_inertia * scale;
    if overflows(&total) || !inertia.is_finite() {
        return Some(MassFault::Overflow);
    }
    let mass_inverse_fails = total.mass > 0.0 && !(1.0 / total.mass).is_finite();
    let inertia_inverse_fails = !fixed_rotation && inertia > 0.0 && !(1.0 / inertia).is_finite();
    (mass_inverse_fails || inertia_inverse_fails).then_some(MassFault::Underflow)
}

/// The field that sets a shape's size, and its value.
fn size_field(geometry: &Shape) -> (&'static str, f32) {
    match geometry {
        Shape::Circle(Circle { radius, .. }) => ("Circle::radius", *radius),
        Shape::Capsule(capsule) => {
            let length = capsule.center1.distance(capsule.center2);
            if capsule.radius >= length {
                ("Capsule::radius", capsule.radius)
            } else {
                ("Capsule length", length)
            }
        }
        Shape::Polygon(polygon) => ("Polygon::vertices", largest_coordinate(polygon.verts())),
        Shape::Segment(_) | Shape::ChainSegment(_) => ("Segment length", 0.0),
    }
}

/// The field that places a shape on its body, and its distance from the body origin.
pub(crate) fn position_field(geometry: &Shape) -> (&'static str, f32) {
    match geometry {
        Shape::Circle(circle) => ("Circle::center", circle.center.length()),
        Shape::Capsule(capsule) => (
            "Capsule::center1",
            capsule.center1.length().max(capsule.center2.length()),
        ),
        Shape::Polygon(polygon) => ("Polygon::vertices", largest_coordinate(polygon.verts())),
        Shape::Segment(segment) => (
            "Segment::point1",
            largest_coordinate(&[segment.point1, segment.point2]),
        ),
        Shape::ChainSegment(link) => (
            "points",
            largest_coordinate(&[link.segment.point1, link.segment.point2]),
        ),
    }
}

fn largest_coordinate(points: &[core_soa::Vec2]) -> f32 {
    points
        .iter()
        .map(|p| p.x.abs().max(p.y.abs()))
        .fold(0.0, f32::max)
}

fn out_of_range(field: &'static str, value: f32, requirement: &'static str) -> PrismError {
    PrismError::OutOfRange {
        field,
        value,
        requirement,
    }
}
