//! Topology: who is connected to whom, resolved to dense indices once per change.
//!
//! Springs, constraints and beads name particles by id, which survives swap-removes but costs
//! an arena lookup. Every structural change (a particle, spring, constraint or bead created or
//! destroyed) marks the topology dirty; the next step rebuilds, in one serial pass in id
//! order, everything the parallel passes index by:
//!
//! * the springs with dense ends, and each particle's incident springs (CSR), so the force
//!   pass can *gather* instead of scatter;
//! * the constraint rows (a pin is two rows) with dense particles, and each particle's
//!   incident rows (CSR, entries `row << 1 | slot`), for the `Jᵀ λ` gather of the global solve;
//! * a greedy colouring of the rows for the PGS path (rows of one colour share no particle).
//!
//! The build is `O(particles + springs + rows)` and deterministic (arena index order).

use crate::constraint::{Constraint, ConstraintDef, NO_PARTICLE, RowTemplate};
use crate::force::{DenseSpring, SpringDef, SpringEnd};
use crate::ids::{ConstraintId, SpringId};
use crate::parametric::Bead;
use crate::storage::Particles;
use core_soa::Arena;
use glam::DVec2;

/// Everything the step indexes by, rebuilt when the structure changes.
#[derive(Clone, Default)]
pub(crate) struct Topology {
    pub springs: Vec<DenseSpring>,
    pub spring_start: Vec<u32>,
    pub spring_incidence: Vec<(u32, f64)>,
    /// Springs whose second end is an anchor.
    pub anchored_springs: Vec<u32>,
    pub rows: Vec<RowTemplate>,
    pub row_particles: Vec<[u32; 2]>,
    /// `‖∂J/∂x‖` of each row (`geometric.rs`).
    pub row_curvature: Vec<f64>,
    /// Row → index into `constraint_ids`.
    pub row_owner: Vec<u32>,
    pub constraint_ids: Vec<ConstraintId>,
    /// Particle → incident rows: `row_incidence[row_start[i]..row_start[i + 1]]`.
    pub row_start: Vec<u32>,
    pub row_incidence: Vec<u32>,
    /// `(row, anchor slot, axis)` of every anchor-pin row.
    pub anchor_rows: Vec<(u32, u32, usize)>,
    /// Dense particle index of each bead (in the system's bead order).
    pub bead_particle: Vec<u32>,
    /// Whether each dense particle is a bead.
    pub is_bead: Vec<bool>,
    /// Rows grouped by colour for PGS.
    pub coloring: Coloring,
}

/// Constraint rows ordered by colour: `order[color_start[c]..color_start[c + 1]]` share no
/// particle. Rows that found no colour (a particle in more than 64 rows) come last, in
/// `order[overflow..]`, and are solved one at a time.
#[derive(Clone, Debug, Default)]
pub(crate) struct Coloring {
    pub order: Vec<u32>,
    pub color_start: Vec<u32>,
    pub overflow: usize,
}

/// What a topology is built from.
pub(crate) struct Structure<'a> {
    pub particles: &'a Particles,
    pub springs: &'a Arena<SpringDef, SpringId>,
    pub constraints: &'a Arena<Constraint, ConstraintId>,
    pub beads: &'a [Bead],
}

impl Topology {
    /// Builds the topology (every id in `structure` is known to be live).
    pub fn build(structure: &Structure<'_>) -> Topology {
        let n = structure.particles.len();
        let mut topology = Topology::default();
        topology.build_springs(structure, n);
        topology.build_rows(structure, n);
        topology.is_bead = vec![false; n];
        for bead in structure.beads {
            let dense = dense(structure.particles, bead.particle);
            topology.bead_particle.push(dense);
            topology.is_bead[dense as usize] = true;
        }
        topology.coloring = color_rows(&topology.row_particles, n);
        topology
    }

    fn build_springs(&mut self, structure: &Structure<'_>, n: usize) {
        let particles = structure.particles;
        for (_, def) in structure.springs.iter() {
            let a = dense(particles, def.a);
            let (b, b_is_anchor) = match def.b {
                SpringEnd::Particle(id) => (dense(particles, id), false),
                SpringEnd::Anchor(id) => (id.index(), true),
            };
            if b_is_anchor {
                self.anchored_springs.push(self.springs.len() as u32);
            }
            self.springs.push(DenseSpring {
                a,
                b,
                b_is_anchor,
                rest_length: f64::from(def.rest_length),
                stiffness: f64::from(def.stiffness),
                damping: f64::from(def.damping),
            });
        }
        let ends = self.springs.iter().enumerate().flat_map(|(s, spring)| {
            let a = (spring.a, (s as u32, 1.0));
            let b = (!spring.b_is_anchor).then_some((spring.b, (s as u32, -1.0)));
            std::iter::once(a).chain(b)
        });
        (self.spring_start, self.spring_incidence) = csr(n, ends);
    }

    fn build_rows(&mut self, structure: &Structure<'_>, n: usize) {
        for (id, constraint) in structure.constraints.iter() {
            let owner = self.constraint_ids.len() as u32;
            self.constraint_ids.push(id);
            for template in row_templates(structure.particles, constraint) {
                if let RowTemplate::AnchorAxis { anchor, axis, .. } = template {
                    self.anchor_rows
                        .push((self.rows.len() as u32, anchor, axis));
                }
                self.row_particles.push(template.particles());
                self.row_curvature.push(template.curvature());
                self.row_owner.push(owner);
                self.rows.push(template);
            }
        }
        let ends = self.row_particles.iter().enumerate().flat_map(|(r, pair)| {
            let first = (pair[0], (r as u32) << 1);
            let second = (pair[1] != NO_PARTICLE).then_some((pair[1], ((r as u32) << 1) | 1));
            std::iter::once(first).chain(second)
        });
        (self.row_start, self.row_incidence) = csr(n, ends);
    }
}

fn dense(particles: &Particles, id: crate::ids::ParticleId) -> u32 {
    particles.slots.get(id).copied().unwrap_or(NO_PARTICLE)
}

/// The rows of one constraint.
pub(crate) fn row_templates(particles: &Particles, constraint: &Constraint) -> Vec<RowTemplate> {
    match constraint {
        Constraint::Builtin(def) => match *def {
            ConstraintDef::Rod { a, b, length } => vec![RowTemplate::Rod {
                a: dense(particles, a),
                b: dense(particles, b),
                length: f64::from(length),
            }],
            ConstraintDef::Pin { particle, point } => (0..2)
                .map(|axis| RowTemplate::PinAxis {
                    particle: dense(particles, particle),
                    axis,
                    target: f64::from(point[axis]),
                })
                .collect(),
            ConstraintDef::PinToAnchor { particle, anchor } => (0..2)
                .map(|axis| RowTemplate::AnchorAxis {
                    particle: dense(particles, particle),
                    axis,
                    anchor: anchor.index(),
                })
                .collect(),
            ConstraintDef::Circle {
                particle,
                center,
                radius,
            } => vec![RowTemplate::Circle {
                particle: dense(particles, particle),
                center: center.as_dvec2(),
                radius: f64::from(radius),
            }],
            ConstraintDef::Line {
                particle,
                point,
                direction,
            } => {
                let d = direction.as_dvec2().normalize();
                vec![RowTemplate::Line {
                    particle: dense(particles, particle),
                    point: point.as_dvec2(),
                    normal: DVec2::new(-d.y, d.x),
                }]
            }
        },
        Constraint::Custom {
            particles: ids,
            function,
        } => {
            let mut pair = [NO_PARTICLE; 2];
            for (slot, &id) in ids.iter().enumerate() {
                pair[slot] = dense(particles, id);
            }
            vec![RowTemplate::Custom {
                particles: pair,
                function: function.clone(),
            }]
        }
    }
}

/// Compressed incidence lists: for `(owner, entry)` pairs, `start[i]..start[i + 1]` indexes
/// the entries of owner `i` in `entries`, in the order they were produced.
fn csr<T: Copy + Default>(
    owners: usize,
    pairs: impl Iterator<Item = (u32, T)> + Clone,
) -> (Vec<u32>, Vec<T>) {
    let mut start = vec![0u32; owners + 1];
    for (owner, _) in pairs.clone() {
        start[owner as usize + 1] += 1;
    }
    for i in 0..owners {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut entries = vec![T::default(); start[owners] as usize];
    for (owner, entry) in pairs {
        let slot = &mut fill[owner as usize];
        entries[*slot as usize] = entry;
        *slot += 1;
    }
    (start, entries)
}

/// Greedy colouring in row order: each row takes the lowest colour none of its particles has.
fn color_rows(row_particles: &[[u32; 2]], particle_count: usize) -> Coloring {
    const OVERFLOW: u32 = 64;
    let mut used = vec![0u64; particle_count];
    let colors: Vec<u32> = row_particles
        .iter()
        .map(|pair| {
            let mut mask = used[pair[0] as usize];
            if pair[1] != NO_PARTICLE {
                mask |= used[pair[1] as usize];
            }
            let color = mask.trailing_ones();
            if color < OVERFLOW {
                used[pair[0] as usize] |= 1 << color;
                if pair[1] != NO_PARTICLE {
                    used[pair[1] as usize] |= 1 << color;
                }
            }
            color
        })
        .collect();
    let color_count = colors
        .iter()
        .filter(|&&c| c < OVERFLOW)
        .map(|&c| c as usize + 1)
        .max()
        .unwrap_or(0);
    let (color_start, order) = csr(
        color_count + 1,
        colors
            .iter()
            .enumerate()
            .map(|(r, &c)| (c.min(color_count as u32), r as u32)),
    );
    Coloring {
        overflow: color_start[color_count] as usize,
        color_start: color_start[..=color_count].to_vec(),
        order,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colors_share_no_particle_and_cover_every_row_once() {
        // A 10×10 grid's horizontal and vertical links plus a hub linked to 80 particles.
        let mut rows = Vec::new();
        for y in 0..10u32 {
            for x in 0..10u32 {
                let i = y * 10 + x;
                if x + 1 < 10 {
                    rows.push([i, i + 1]);
                }
                if y + 1 < 10 {
                    rows.push([i, i + 10]);
                }
            }
        }
        for i in 0..80 {
            rows.push([100, i]);
        }
        rows.push([5, NO_PARTICLE]);
        let coloring = color_rows(&rows, 101);
        let mut seen = vec![0; rows.len()];
        for c in 0..coloring.color_start.len() - 1 {
            let mut touched = std::collections::HashSet::new();
            let range = coloring.color_start[c] as usize..coloring.color_start[c + 1] as usize;
            for &r in &coloring.order[range] {
                seen[r as usize] += 1;
                for &p in rows[r as usize].iter().filter(|&&p| p != NO_PARTICLE) {
                    assert!(touched.insert(p), "colour {c} touches particle {p} twice");
                }
            }
        }
        for &r in &coloring.order[coloring.overflow..] {
            seen[r as usize] += 1;
        }
        assert!(seen.iter().all(|&s| s == 1));
        // The hub has 80 rows and only 64 colours: at least 16 of its rows overflow, and only
        // its rows do (the grid needs 4 colours, the lone row 1).
        let overflow = &coloring.order[coloring.overflow..];
        assert!(overflow.len() >= 16);
        assert!(overflow.iter().all(|&r| rows[r as usize][0] == 100));
    }
}
