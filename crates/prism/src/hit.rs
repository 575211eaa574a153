//! Hit events: contacts whose shapes struck each other faster than a threshold.
//!
//! The solver already measures what a hit needs. When it prepares a contact it records each
//! point's relative normal velocity `vn = n·(v_B + ω_B×r_B − v_A − ω_A×r_A)` at the start of
//! the step, before any impulse (`ManifoldPoint::normal_velocity`; negative when the shapes
//! approach), and while it solves it records the largest accumulated normal impulse the point
//! held (`ManifoldPoint::max_normal_impulse`). So, as Box2D does, right after the solve:
//!
//! ```text
//!   for each solved contact (graph colours, overflow last) with hit events enabled:
//!       among its points with  −vn > hit_event_threshold  and  max_normal_impulse > 0,
//!       the fastest one is the hit: point, normal (A → B), approach speed −vn
//! ```
//!
//! The impulse test matters: a speculative point (the shapes still apart, closing) has an
//! approach speed from the first step it exists, but it only becomes a hit in the step in which
//! the solver had to push, that is, when the shapes actually meet. The step after, the shapes
//! have stopped approaching (or bounce apart), so one impact gives one event; a contact that
//! keeps touching reports again only if it is struck again.
//!
//! The point is rebuilt from a centre of mass and the point's anchor: body B's if B is static
//! and A is not (a static body has not moved, so a fast body striking the world gets the
//! exact point), else body A's.
//!
//! The scan runs over the colours' contacts in fixed chunks across the world's workers, each chunk
//! listing its hits; the lists are sorted by contact id, so the events are in contact order
//! for any worker count. A world in which no shape ever enabled hit events skips the scan.

use crate::contact::ContactSim;
use crate::profile::zone;
use crate::shape::ShapeRecord;
use crate::solver_set::{STATIC_SET, SolverSet};
use crate::world::World;
use core_soa::{Arena, ShapeId, Vec2};
use graph_coloring::{ColorIndex, GRAPH_COLOR_COUNT};

/// Contacts per parallel task of the scan.
const HIT_CHUNK: usize = 256;

/// Two shapes struck each other faster than `WorldDef::hit_event_threshold`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactHitEvent {
    /// The first shape (the normal points from A to B).
    pub shape_a: ShapeId,
    /// The second shape.
    pub shape_b: ShapeId,
    /// Where the shapes struck, in world coordinates, midway between the surfaces (it may be
    /// a speculative point: the shapes met during the step).
    pub point: Vec2,
    /// Unit normal from shape A to shape B.
    pub normal: Vec2,
    /// How fast the shapes approached along the normal (m/s, positive).
    pub approach_speed: f32,
}

/// What the scan reads.
struct HitView<'a> {
    shapes: &'a Arena<ShapeRecord, ShapeId>,
    sets: &'a [SolverSet],
    threshold: f32,
}

impl World {
    /// Lists this step's hits in the contact events (see the module notes); call right after
    /// the solve, while the solved contacts and their bodies are where the solver left them.
    pub(crate) fn report_hits(&mut self) {
        zone!("events_hits");
        if !self.events.hit_shapes {
            return;
        }
        let view = HitView {
            shapes: &self.shapes,
            sets: &self.solver_sets,
            threshold: self.def.hit_event_threshold,
        };
        let colors = (0..GRAPH_COLOR_COUNT).filter_map(ColorIndex::new);
        let chunks: Vec<&[ContactSim]> = colors
            .chain([ColorIndex::OVERFLOW])
            .flat_map(|color| self.graph.contacts(color).chunks(HIT_CHUNK))
            .collect();
        let scan = |chunk: &[ContactSim]| -> Vec<(u32, ContactHitEvent)> {
            zone!("events_hits chunk");
            chunk.iter().filter_map(|sim| hit_of(sim, &view)).collect()
        };
        let mut hits: Vec<(u32, ContactHitEvent)> = if self.parallel_step {
            let scanned = workers::map(chunks.len(), |chunk| scan(chunks[chunk]));
            scanned.into_iter().flatten().collect()
        } else {
            chunks.into_iter().flat_map(scan).collect()
        };
        hits.sort_unstable_by_key(|&(contact, _)| contact);
        let events = hits.into_iter().map(|(_, event)| event);
        self.events.current.hit.extend(events);
    }
}

/// Contact `sim`'s hit this step, with its contact id, if it has one.
fn hit_of(sim: &ContactSim, view: &HitView<'_>) -> Option<(u32, ContactHitEvent)> {
    if !sim.enable_hit_events {
        return None;
    }
    let manifold = &sim.solver.manifold;
    let fastest = manifold
        .points()
        .iter()
        .filter(|p| -p.normal_velocity > view.threshold && p.max_normal_impulse > 0.0)
        .reduce(|best, p| {
            if p.normal_velocity < best.normal_velocity {
                p
            } else {
                best
            }
        })?;
    let center = |side: usize| {
        let place = sim.bodies[side];
        let set = view.sets.get(place.set as usize)?;
        Some(set.bodies.sims().get(place.local as usize)?.center)
    };
    let static_b = sim.bodies[0].set != STATIC_SET && sim.bodies[1].set == STATIC_SET;
    let point = if static_b {
        center(1)? + fastest.anchor_b
    } else {
        center(0)? + fastest.anchor_a
    };
    let event = ContactHitEvent {
        shape_a: view.shapes.key_at(sim.shape_a)?,
        shape_b: view.shapes.key_at(sim.shape_b)?,
        point,
        normal: manifold.normal,
        approach_speed: -fastest.normal_velocity,
    };
    Some((sim.contact, event))
}

#[cfg(feature = "validate")]
impl World {
    /// Every hit names live shapes of a pair that asked for hit events, with a unit normal and
    /// an approach speed above the threshold.
    pub(crate) fn validate_hit_events(&self) -> Result<(), String> {
        for hit in &self.events.current.hit {
            let (a, b) = (self.shapes.get(hit.shape_a), self.shapes.get(hit.shape_b));
            let (Some(a), Some(b)) = (a, b) else {
                return Err(format!("hit of dead shapes {hit:?}"));
            };
            if !(a.enable_hit_events || b.enable_hit_events) {
                return Err(format!("hit of shapes without hit events {hit:?}"));
            }
            let unit = (hit.normal.length() - 1.0).abs() < 1.0e-4;
            // Written as a comparison that holds, so that a NaN speed fails it.
            let above_threshold = hit.approach_speed > self.def.hit_event_threshold;
            if !unit || !above_threshold {
                return Err(format!("hit with a bad normal or speed {hit:?}"));
            }
        }
        Ok(())
    }
}
