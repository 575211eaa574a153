//! Particles as structure of arrays, named by generational ids.
//!
//! The state every pass touches lives in dense arrays indexed by a *dense index*: position,
//! velocity, inverse mass and the external-force accumulator. Users hold a [`ParticleId`]; an
//! arena maps it to the dense index, and `ids` maps back. Destroying a particle swap-removes it
//! (the last particle moves into the hole and its arena entry is rewritten), so the arrays stay
//! dense and every loop is a straight walk. Springs and constraints refer to particles by id;
//! the system's topology resolves those ids to dense indices once per change (`topology.rs`).

use crate::error::{ParticleError, finite_vec, non_negative};
use crate::ids::ParticleId;
use core_soa::{Arena, Vec2};

/// How to create a particle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParticleDef {
    /// Initial position (m).
    pub position: Vec2,
    /// Initial velocity (m/s).
    pub velocity: Vec2,
    /// `1/mass` (1/kg); 0 makes the particle immovable by forces (it still moves with its
    /// velocity, like a kinematic body).
    pub inverse_mass: f32,
}

impl Default for ParticleDef {
    fn default() -> Self {
        ParticleDef {
            position: Vec2::ZERO,
            velocity: Vec2::ZERO,
            inverse_mass: 1.0,
        }
    }
}

impl ParticleDef {
    /// A particle of `mass` kg at rest at `position`.
    pub fn new(position: Vec2, mass: f32) -> ParticleDef {
        ParticleDef {
            position,
            velocity: Vec2::ZERO,
            inverse_mass: 1.0 / mass,
        }
    }

    /// An immovable particle at `position` (inverse mass 0).
    pub fn fixed(position: Vec2) -> ParticleDef {
        ParticleDef {
            position,
            velocity: Vec2::ZERO,
            inverse_mass: 0.0,
        }
    }

    /// The same particle moving at `velocity`.
    pub fn with_velocity(self, velocity: Vec2) -> ParticleDef {
        ParticleDef { velocity, ..self }
    }

    /// Checks every field.
    pub fn validate(&self) -> Result<(), ParticleError> {
        finite_vec("ParticleDef::position", self.position)?;
        finite_vec("ParticleDef::velocity", self.velocity)?;
        non_negative("ParticleDef::inverse_mass", self.inverse_mass)?;
        Ok(())
    }
}

/// The dense particle arrays and the id map.
#[derive(Clone, Debug, Default)]
pub(crate) struct Particles {
    /// Id → dense index.
    pub slots: Arena<u32, ParticleId>,
    /// Dense index → id.
    pub ids: Vec<ParticleId>,
    pub position: Vec<Vec2>,
    pub velocity: Vec<Vec2>,
    pub inverse_mass: Vec<f32>,
    /// External force applied by the user, cleared after every step (N).
    pub force: Vec<Vec2>,
}

impl Particles {
    /// The number of particles.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Appends a particle (already validated) and returns its id.
    pub fn insert(&mut self, def: &ParticleDef) -> ParticleId {
        let dense = self.ids.len() as u32;
        let id = self.slots.insert(dense);
        self.ids.push(id);
        self.position.push(def.position);
        self.velocity.push(def.velocity);
        self.inverse_mass.push(def.inverse_mass);
        self.force.push(Vec2::ZERO);
        id
    }

    /// The dense index of `id`, or an error naming it.
    pub fn dense(&self, id: ParticleId) -> Result<usize, ParticleError> {
        self.slots
            .get(id)
            .map(|&dense| dense as usize)
            .ok_or(ParticleError::InvalidId {
                kind: crate::error::IdKind::Particle,
                index: id.index(),
                generation: id.generation(),
            })
    }

    /// Removes `id` by swap-remove. Returns whether it was live.
    pub fn remove(&mut self, id: ParticleId) -> bool {
        let Some(dense) = self.slots.remove(id) else {
            return false;
        };
        let dense = dense as usize;
        self.ids.swap_remove(dense);
        self.position.swap_remove(dense);
        self.velocity.swap_remove(dense);
        self.inverse_mass.swap_remove(dense);
        self.force.swap_remove(dense);
        if dense < self.ids.len() {
            let moved = self.ids[dense];
            if let Some(slot) = self.slots.get_mut(moved) {
                *slot = dense as u32;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swap_remove_keeps_ids_and_dense_indices_consistent() {
        let mut particles = Particles::default();
        let ids: Vec<ParticleId> = (0..5)
            .map(|i| particles.insert(&ParticleDef::new(Vec2::new(i as f32, 0.0), 1.0)))
            .collect();
        assert!(particles.remove(ids[1]));
        assert!(!particles.remove(ids[1]), "stale id");
        assert_eq!(particles.len(), 4);
        for &id in [ids[0], ids[2], ids[3], ids[4]].iter() {
            let dense = particles.dense(id).unwrap();
            assert_eq!(particles.ids[dense], id);
            assert_eq!(particles.position[dense].x, id.index() as f32);
        }
        assert!(matches!(
            particles.dense(ids[1]),
            Err(ParticleError::InvalidId { index: 1, .. })
        ));
    }
}
