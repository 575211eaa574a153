//! Cloth: a grid of particles held together by structural, shear and bend links.
//!
//! In the plane a cloth is a net: particle `(column, row)` starts at
//! `origin + spacing · (column, −row)`, so row 0 is the top edge. Three families of links
//! (Provot, "Deformation constraints in a mass-spring model to describe rigid cloth
//! behavior"; Baraff and Witkin, "Large steps in cloth simulation") give it its behaviour:
//!
//! ```text
//!   structural  (c, r)–(c+1, r), (c, r)–(c, r+1)      resists stretch
//!   shear       (c, r)–(c+1, r+1), (c+1, r)–(c, r+1)  resists shearing of each square
//!   bend        (c, r)–(c+2, r), (c, r)–(c, r+2)      resists folding
//! ```
//!
//! Each family is a [`Link`]: absent, a hard rod (an implicit constraint of the global solve
//! or PGS), or a damped spring (explicit, or implicit with [`crate::Integrator::ImplicitEuler`]).
//! The usual choice is rods for the structural links — the cloth does not stretch — and
//! springs for shear and bend, which must stay soft: rods on every family would over-constrain
//! the net (more rows than degrees of freedom), which the regularised global solve tolerates
//! but does not need. Any particle can be pinned to a point or to an anchor.

use crate::constraint::ConstraintDef;
use crate::error::{ParticleError, finite_vec, non_negative, positive};
use crate::force::{SpringDef, SpringEnd};
use crate::ids::{AnchorId, ConstraintId, ParticleId, SpringId};
use crate::storage::ParticleDef;
use crate::system::ParticleSystem;
use core_soa::Vec2;

/// How one family of cloth links is made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Link {
    /// No links of this family.
    None,
    /// Hard rods (implicit constraints).
    Rod,
    /// Damped springs of `stiffness` (N/m) and `damping` (N·s/m).
    Spring {
        /// Stiffness `k`.
        stiffness: f32,
        /// Damping `c` along the spring.
        damping: f32,
    },
}

/// How to create a cloth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClothDef {
    /// Position of particle `(0, 0)`, the top-left corner (m).
    pub origin: Vec2,
    /// Particles per row (at least 2).
    pub columns: u32,
    /// Rows of particles (at least 2).
    pub rows: u32,
    /// Distance between neighbours (m).
    pub spacing: f32,
    /// Mass of each particle (kg).
    pub particle_mass: f32,
    /// Initial velocity of every particle (m/s).
    pub velocity: Vec2,
    /// Structural links.
    pub structural: Link,
    /// Shear links.
    pub shear: Link,
    /// Bend links.
    pub bend: Link,
}

impl Default for ClothDef {
    /// A 16 × 16 net of 5 cm squares, 2 g per particle, structural rods, and shear and bend
    /// springs soft enough for explicit integration at 60 Hz (a particle with four of each
    /// has `h √(2 Σk / m)` ≈ 0.9, where 2 is the limit).
    fn default() -> Self {
        ClothDef {
            origin: Vec2::ZERO,
            columns: 16,
            rows: 16,
            spacing: 0.05,
            particle_mass: 0.002,
            velocity: Vec2::ZERO,
            structural: Link::Rod,
            shear: Link::Spring {
                stiffness: 0.5,
                damping: 0.005,
            },
            bend: Link::Spring {
                stiffness: 0.25,
                damping: 0.002,
            },
        }
    }
}

impl ClothDef {
    /// Checks every field.
    pub fn validate(&self) -> Result<(), ParticleError> {
        finite_vec("ClothDef::origin", self.origin)?;
        finite_vec("ClothDef::velocity", self.velocity)?;
        for (field, count) in [
            ("ClothDef::columns", self.columns),
            ("ClothDef::rows", self.rows),
        ] {
            if !(2..=4096).contains(&count) {
                return Err(ParticleError::InvalidCount {
                    field,
                    value: count,
                    requirement: "between 2 and 4096",
                });
            }
        }
        positive("ClothDef::spacing", self.spacing)?;
        positive("ClothDef::particle_mass", self.particle_mass)?;
        for (stiffness, damping, link) in [
            (
                "ClothDef::structural::stiffness",
                "ClothDef::structural::damping",
                self.structural,
            ),
            (
                "ClothDef::shear::stiffness",
                "ClothDef::shear::damping",
                self.shear,
            ),
            (
                "ClothDef::bend::stiffness",
                "ClothDef::bend::damping",
                self.bend,
            ),
        ] {
            if let Link::Spring {
                stiffness: k,
                damping: c,
            } = link
            {
                non_negative(stiffness, k)?;
                non_negative(damping, c)?;
            }
        }
        Ok(())
    }
}

/// A cloth created in a system: its particles (row-major) and links.
#[derive(Clone, Debug)]
pub struct Cloth {
    columns: u32,
    rows: u32,
    particles: Vec<ParticleId>,
    constraints: Vec<ConstraintId>,
    springs: Vec<SpringId>,
}

impl Cloth {
    /// Creates the particles and links of `def` in `system`.
    pub fn create(system: &mut ParticleSystem, def: &ClothDef) -> Result<Cloth, ParticleError> {
        def.validate()?;
        let mut cloth = Cloth {
            columns: def.columns,
            rows: def.rows,
            particles: Vec::with_capacity((def.columns * def.rows) as usize),
            constraints: Vec::new(),
            springs: Vec::new(),
        };
        for row in 0..def.rows {
            for column in 0..def.columns {
                let offset = Vec2::new(column as f32, -(row as f32)) * def.spacing;
                let particle = ParticleDef::new(def.origin + offset, def.particle_mass)
                    .with_velocity(def.velocity);
                cloth.particles.push(system.create_particle(&particle)?);
            }
        }
        let families = [
            (def.structural, [(1, 0), (0, 1)]),
            (def.shear, [(1, 1), (-1, 1)]),
            (def.bend, [(2, 0), (0, 2)]),
        ];
        for (link, steps) in families {
            for (dc, dr) in steps {
                cloth.link_all(system, link, dc, dr, def.spacing)?;
            }
        }
        Ok(cloth)
    }

    /// Links every particle `(c, r)` to `(c + dc, r + dr)` where that exists.
    fn link_all(
        &mut self,
        system: &mut ParticleSystem,
        link: Link,
        dc: i64,
        dr: i64,
        spacing: f32,
    ) -> Result<(), ParticleError> {
        let length = spacing * ((dc * dc + dr * dr) as f32).sqrt();
        for row in 0..i64::from(self.rows) {
            for column in 0..i64::from(self.columns) {
                let (Some(a), Some(b)) = (self.at(column, row), self.at(column + dc, row + dr))
                else {
                    continue;
                };
                match link {
                    Link::None => {}
                    Link::Rod => self
                        .constraints
                        .push(system.create_constraint(&ConstraintDef::Rod { a, b, length })?),
                    Link::Spring { stiffness, damping } => {
                        self.springs.push(system.create_spring(&SpringDef {
                            a,
                            b: SpringEnd::Particle(b),
                            rest_length: length,
                            stiffness,
                            damping,
                        })?)
                    }
                }
            }
        }
        Ok(())
    }

    fn at(&self, column: i64, row: i64) -> Option<ParticleId> {
        let inside = (0..i64::from(self.columns)).contains(&column)
            && (0..i64::from(self.rows)).contains(&row);
        inside.then(|| self.particles[(row * i64::from(self.columns) + column) as usize])
    }

    /// The particle at `(column, row)`, if inside the grid.
    pub fn particle(&self, column: u32, row: u32) -> Option<ParticleId> {
        self.at(i64::from(column), i64::from(row))
    }

    fn existing(&self, column: u32, row: u32) -> Result<ParticleId, ParticleError> {
        if column >= self.columns {
            return Err(ParticleError::InvalidCount {
                field: "column",
                value: column,
                requirement: "less than the cloth's columns",
            });
        }
        self.particle(column, row)
            .ok_or(ParticleError::InvalidCount {
                field: "row",
                value: row,
                requirement: "less than the cloth's rows",
            })
    }

    /// Pins particle `(column, row)` to a fixed point.
    pub fn pin(
        &self,
        system: &mut ParticleSystem,
        column: u32,
        row: u32,
        point: Vec2,
    ) -> Result<ConstraintId, ParticleError> {
        let particle = self.existing(column, row)?;
        system.create_constraint(&ConstraintDef::Pin { particle, point })
    }

    /// Pins particle `(column, row)` where it is now.
    pub fn pin_in_place(
        &self,
        system: &mut ParticleSystem,
        column: u32,
        row: u32,
    ) -> Result<ConstraintId, ParticleError> {
        let point = system.position(self.existing(column, row)?)?;
        self.pin(system, column, row, point)
    }

    /// Pins particle `(column, row)` to an anchor (a point the caller moves, e.g. on a body).
    pub fn pin_to_anchor(
        &self,
        system: &mut ParticleSystem,
        column: u32,
        row: u32,
        anchor: AnchorId,
    ) -> Result<ConstraintId, ParticleError> {
        let particle = self.existing(column, row)?;
        system.create_constraint(&ConstraintDef::PinToAnchor { particle, anchor })
    }

    /// Particles per row.
    pub fn columns(&self) -> u32 {
        self.columns
    }

    /// Rows of particles.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Every particle, row by row from the top.
    pub fn particles(&self) -> &[ParticleId] {
        &self.particles
    }

    /// The rods created for the links.
    pub fn constraints(&self) -> &[ConstraintId] {
        &self.constraints
    }

    /// The springs created for the links.
    pub fn springs(&self) -> &[SpringId] {
        &self.springs
    }
}
