//! Contacts between particles and the world's surfaces, with Coulomb friction and reaction.
//!
//! The particle system does not know the world's shapes. It asks a [`ParticleCollider`] — the
//! World implements one over its broadphase and shapes; `test_collider.rs` implements one over
//! planes, boxes and circles — for the surfaces near each particle, once per step, with a
//! margin that covers the particle's travel during the step. Each answer is a *contact plane*:
//! a point on the surface, the normal pointing from the surface to the particle, the gap
//! between the particle's circle and the surface, the surface's velocity, its friction, and an
//! opaque handle of the body it belongs to.
//!
//! Within the step the plane is taken to move with the surface velocity, so a contact is the
//! inequality row
//!
//! ```text
//!   C(x, t) = s₀ + n·(x − x₀) − (n·v_s) t ≥ 0,    J = n,   Ċ = n·(v − v_s)
//! ```
//!
//! (`s₀` the gap reported at the queried position `x₀`). The constraint solvers treat these
//! rows like any other with two differences: their multiplier may only push (`λ ≥ 0`), and
//! they ask for the velocity that just closes the gap within the step (speculative contact:
//! `Ċ' ≥ −C/h` while `C > 0`) or pushes an overlap out softly (`Ċ' ≥ bias_rate·(−C)`, capped
//! at `max_push_velocity`, with Prism's contact stiffness), so a particle lands on a surface
//! instead of bouncing off it or sinking in.
//!
//! Friction is Coulomb's: the tangential impulse that would stop the sliding, clamped to
//! `μ P_n` where `P_n` is the normal impulse of the same substep and `μ = √(μ_p μ_s)`. Every
//! impulse the particle receives is summed per contact over the step, and at the end of the
//! step its opposite is handed to the collider's [`ParticleCollider::apply_impulse`], in
//! contact order, so the body feels the particles' weight and impacts: two-way coupling. The
//! body is treated as infinitely heavy *within* the particle step (its surface velocity is
//! fixed) and responds between steps — stable as long as the body is much heavier than the
//! particles resting on one of its contact points.

use crate::parallel::{CHUNK, PARALLEL_MIN, map_chunks};
use core_soa::Vec2;
use glam::DVec2;

/// An opaque handle to the body a contact surface belongs to (the collider's own numbering).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BodyHandle(pub u64);

/// A surface near a particle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParticleContact {
    /// The closest point of the surface (m).
    pub point: Vec2,
    /// Unit normal, from the surface towards the particle.
    pub normal: Vec2,
    /// Gap between the particle's circle and the surface along `normal` (m); negative when
    /// they overlap (the penetration depth, negated).
    pub separation: f32,
    /// Velocity of the surface at `point` (m/s).
    pub surface_velocity: Vec2,
    /// Friction coefficient of the surface.
    pub friction: f32,
    /// The body the surface belongs to.
    pub body: BodyHandle,
}

/// The world as particles see it. `query` is called from several threads at once;
/// `apply_impulse` once per touching contact at the end of each step, in a fixed order.
pub trait ParticleCollider: Sync {
    /// Appends to `out` every surface whose gap to the circle of `radius` at `position` is at
    /// most `margin`.
    fn query(&self, position: Vec2, radius: f32, margin: f32, out: &mut Vec<ParticleContact>);

    /// Applies the particles' reaction `impulse` (N·s) to `body` at `point`.
    fn apply_impulse(&mut self, body: BodyHandle, point: Vec2, impulse: Vec2);
}

/// A world with nothing to collide with.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoCollider;

impl ParticleCollider for NoCollider {
    fn query(&self, _: Vec2, _: f32, _: f32, _: &mut Vec<ParticleContact>) {}
    fn apply_impulse(&mut self, _: BodyHandle, _: Vec2, _: Vec2) {}
}

/// The contacts of one step, grouped by particle (particle order, then the collider's order).
#[derive(Clone, Debug, Default)]
pub(crate) struct ContactSet {
    pub particle: Vec<u32>,
    pub contact: Vec<ParticleContact>,
    pub normal: Vec<DVec2>,
    /// `s₀ − n·x₀`, so that `C(x, t) = offset + n·x − normal_speed·t`.
    pub offset: Vec<f64>,
    /// `n·v_s`.
    pub normal_speed: Vec<f64>,
    pub surface_velocity: Vec<DVec2>,
    /// Mixed friction coefficient.
    pub friction: Vec<f64>,
    /// Particle → its contacts: `start[i]..start[i + 1]`.
    pub start: Vec<u32>,
    /// Normal impulse of the current substep (N·s, along `n`).
    pub normal_impulse: Vec<f64>,
    /// Impulse received by the particle over the whole step (N·s).
    pub step_impulse: Vec<DVec2>,
    /// Counts the gathers, so solvers can tell a new contact set from the last one.
    pub generation: u64,
}

/// What contact gathering needs to know about the particles.
pub(crate) struct QueryInputs<'a> {
    pub x: &'a [Vec2],
    pub v: &'a [Vec2],
    pub skip: &'a [bool],
    pub radius: f32,
    pub margin: f32,
    pub dt: f32,
    pub gravity: f32,
    pub particle_friction: f32,
}

impl ContactSet {
    /// The number of contacts.
    pub fn len(&self) -> usize {
        self.particle.len()
    }

    /// Queries `collider` for every particle not in `skip`, in parallel chunks, keeping
    /// particle order.
    pub fn gather(&mut self, collider: &dyn ParticleCollider, inputs: &QueryInputs<'_>) {
        let n = inputs.x.len();
        let chunks = map_chunks(n, |range| {
            let mut found: Vec<(u32, ParticleContact)> = Vec::new();
            let mut scratch = Vec::new();
            for i in range {
                if inputs.skip[i] {
                    continue;
                }
                let travel =
                    inputs.v[i].length() * inputs.dt + inputs.gravity * inputs.dt * inputs.dt;
                scratch.clear();
                collider.query(
                    inputs.x[i],
                    inputs.radius,
                    inputs.margin + travel,
                    &mut scratch,
                );
                found.extend(scratch.iter().filter_map(sanitize).map(|c| (i as u32, c)));
            }
            found
        });
        self.clear(n);
        self.generation += 1;
        for (i, contact) in chunks.into_iter().flatten() {
            self.push(i, contact, inputs);
        }
        for i in 0..n {
            self.start[i + 1] += self.start[i];
        }
        self.normal_impulse.resize(self.len(), 0.0);
        self.step_impulse.resize(self.len(), DVec2::ZERO);
    }

    fn clear(&mut self, particles: usize) {
        self.particle.clear();
        self.contact.clear();
        self.normal.clear();
        self.offset.clear();
        self.normal_speed.clear();
        self.surface_velocity.clear();
        self.friction.clear();
        self.normal_impulse.clear();
        self.step_impulse.clear();
        self.start.clear();
        self.start.resize(particles + 1, 0);
    }

    fn push(&mut self, i: u32, contact: ParticleContact, inputs: &QueryInputs<'_>) {
        let n = contact.normal.as_dvec2();
        let x0 = inputs.x[i as usize].as_dvec2();
        let vs = contact.surface_velocity.as_dvec2();
        self.particle.push(i);
        self.normal.push(n);
        self.offset.push(f64::from(contact.separation) - n.dot(x0));
        self.normal_speed.push(n.dot(vs));
        self.surface_velocity.push(vs);
        self.friction.push(f64::from(
            (inputs.particle_friction * contact.friction)
                .max(0.0)
                .sqrt(),
        ));
        self.contact.push(contact);
        self.start[i as usize + 1] += 1;
    }

    /// `C` of contact `k` for a particle at `x`, `t` seconds into the step.
    pub fn separation(&self, k: usize, x: Vec2, t: f64) -> f64 {
        self.offset[k] + self.normal[k].dot(x.as_dvec2()) - self.normal_speed[k] * t
    }

    /// Adds the substep's normal impulses to the step totals (friction adds its own).
    pub fn accumulate_normal_impulses(&mut self) {
        for k in 0..self.len() {
            self.step_impulse[k] += self.normal_impulse[k] * self.normal[k];
        }
    }

    /// Hands the opposite of each contact's step impulse to the collider.
    pub fn apply_reactions(&self, collider: &mut dyn ParticleCollider) {
        for k in 0..self.len() {
            let impulse = self.step_impulse[k];
            if impulse != DVec2::ZERO {
                let contact = &self.contact[k];
                collider.apply_impulse(contact.body, contact.point, -impulse.as_vec2());
            }
        }
    }

    /// The particle chunks paired with the matching ranges of a per-contact array, for
    /// parallel passes that walk particles and write their contacts.
    pub fn split_by_particle_chunks<'a, T: Send, C: Send>(
        &self,
        particles: &'a mut [T],
        per_contact: &'a mut [C],
    ) -> Vec<ParticleChunk<'a, T, C>> {
        let mut pieces = Vec::with_capacity(particles.len().div_ceil(CHUNK));
        let (mut rest_p, mut rest_c) = (particles, per_contact);
        let mut first = 0;
        while !rest_p.is_empty() {
            let count = CHUNK.min(rest_p.len());
            let contact_first = self.start[first] as usize;
            let contact_count = self.start[first + count] as usize - contact_first;
            let (p, next_p) = rest_p.split_at_mut(count);
            let (c, next_c) = rest_c.split_at_mut(contact_count);
            pieces.push(ParticleChunk {
                first,
                contact_first,
                particles: p,
                contacts: c,
            });
            rest_p = next_p;
            rest_c = next_c;
            first += count;
        }
        pieces
    }
}

/// A chunk of particles and the per-contact entries of their contacts.
pub(crate) struct ParticleChunk<'a, T, C> {
    pub first: usize,
    pub contact_first: usize,
    pub particles: &'a mut [T],
    pub contacts: &'a mut [C],
}

/// Runs `body` over the chunks, in parallel when there is more than one.
pub(crate) fn for_particle_chunks<T: Send, C: Send>(
    chunks: Vec<ParticleChunk<'_, T, C>>,
    body: impl Fn(ParticleChunk<'_, T, C>) + Sync + Send,
) {
    if chunks.len() * CHUNK < PARALLEL_MIN {
        chunks.into_iter().for_each(body);
    } else {
        let mut chunks: Vec<_> = chunks.into_iter().map(Some).collect();
        workers::for_each_mut(&mut chunks, |_, chunk| {
            body(chunk.take().expect("each chunk is taken once"))
        });
    }
}

/// Drops a contact with a non-finite field or no usable normal; renormalises the normal.
fn sanitize(contact: &ParticleContact) -> Option<ParticleContact> {
    let finite = contact.point.is_finite()
        && contact.normal.is_finite()
        && contact.separation.is_finite()
        && contact.surface_velocity.is_finite()
        && contact.friction.is_finite();
    let length = contact.normal.length();
    if !finite || length < 1.0e-6 {
        return None;
    }
    Some(ParticleContact {
        normal: contact.normal / length,
        ..*contact
    })
}

/// Coulomb friction after a velocity update: for each contact with a normal impulse this
/// substep, the tangential impulse that stops the sliding, clamped to `μ P_n`.
pub(crate) fn apply_friction(set: &mut ContactSet, v: &mut [Vec2], inverse_mass: &[f32]) {
    if set.len() == 0 {
        return;
    }
    let mut step_impulse = std::mem::take(&mut set.step_impulse);
    let set_ref = &*set;
    let chunks = set_ref.split_by_particle_chunks(v, &mut step_impulse);
    for_particle_chunks(chunks, |chunk| {
        for (k, velocity) in chunk.particles.iter_mut().enumerate() {
            let i = chunk.first + k;
            let w = f64::from(inverse_mass[i]);
            if w == 0.0 {
                continue;
            }
            for c in set_ref.start[i] as usize..set_ref.start[i + 1] as usize {
                let impulse = friction_impulse(set_ref, c, velocity.as_dvec2(), w);
                *velocity += (w * impulse).as_vec2();
                chunk.contacts[c - chunk.contact_first] += impulse;
            }
        }
    });
    set.step_impulse = step_impulse;
}

/// The friction impulse of contact `c` on a particle moving at `v`.
fn friction_impulse(set: &ContactSet, c: usize, v: DVec2, w: f64) -> DVec2 {
    let normal_impulse = set.normal_impulse[c];
    if normal_impulse <= 0.0 {
        return DVec2::ZERO;
    }
    let n = set.normal[c];
    let relative = v - set.surface_velocity[c];
    let sliding = relative - n * n.dot(relative);
    let stop = -sliding / w;
    let limit = set.friction[c] * normal_impulse;
    let length = stop.length();
    if length > limit {
        stop * (limit / length)
    } else {
        stop
    }
}
