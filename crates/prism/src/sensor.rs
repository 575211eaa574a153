//! Sensors: shapes that report what overlaps them and touch nothing.
//!
//! A shape made with `ShapeDef::is_sensor` keeps its broadphase proxy (so sensors and queries
//! find it) but never gets a contact: the pair update skips every pair with a sensor in it
//! (`broadphase.rs`), so the narrowphase and the solver never see one. Instead, at the end of
//! each step, when every body is where the step left it, each sensor asks the broadphase which
//! shapes overlap it:
//!
//! ```text
//!   for each sensor (in shape-index order, in parallel chunks of SENSOR_CHUNK):
//!       query the static, moving and sleeping trees with the sensor's tight box
//!       keep a candidate V unless: V is the sensor; V is a sensor (sensors never detect
//!       sensors); V has enable_sensor_events off; V is on the sensor's body; the filters
//!       refuse (as for contacts); the custom filter refuses (if either asked for it)
//!       keep V only if the two shapes really overlap (GJK distance ≤ sum of radii; touching
//!       counts; a chain segment counts as a two-sided segment)
//!       sort the visitors by shape id; compare with last step's list:
//!       in the new list only → begin event;  in the old list only → end event
//! ```
//!
//! A sensor on any body works the same way: static (a trigger zone), kinematic (a moving
//! detector) or dynamic (a character's foot sensor); its visitors may be static, moving or
//! asleep. A sensor whose own `enable_sensor_events` is off reports nothing and, when turned
//! off, ends what it had.
//!
//! **Order.** The sensors are kept sorted by shape index and each sensor's visitors by shape id
//! (index, then generation). Each chunk of sensors returns its begin and end events and the
//! chunks' lists are concatenated in chunk order, so the events are ordered by sensor and then
//! by visitor, for any worker count. Every per-sensor result depends only on the world as the
//! step left it.
//!
//! **Destruction.** A visitor destroyed between steps (its shape or its body) is simply not
//! found by the next pass: the sensor reports its end, naming the dead visitor's id. A sensor
//! destroyed between steps ends all its overlaps at once; those end events are held and
//! delivered first among the next step's end events, as destroyed contacts' are. A shape id
//! in an end event may therefore be stale (`World::is_shape_valid`). A slot reused by a new
//! shape gets a new generation, so the old visitor ends and the new one begins.
//!
//! Sensor overlaps are computed once per step, so a shape that crosses a sensor entirely
//! within one step is not seen (sensors have no continuous collision, as in Box2D).

use crate::body::Body;
use crate::broadphase::query_mask;
use crate::error::PrismError;
use crate::hooks::{CustomFilterFn, custom_filter_accepts};
use crate::profile::zone;
use crate::shape::ShapeRecord;
use crate::solver_set::SolverSet;
use crate::world::World;
use collision::geometry::compute_aabb;
use collision::overlap::shapes_overlap;
use collision::tree::DynamicTree;
use core_soa::{Arena, BodyId, ShapeId, Transform};
use std::cmp::Ordering;

/// Sensors per parallel task: a sensor's work is a few tree queries and exact tests.
const SENSOR_CHUNK: usize = 16;

/// A shape began overlapping a sensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SensorBeginTouchEvent {
    /// The sensor shape.
    pub sensor_shape: ShapeId,
    /// The shape that began to overlap it.
    pub visitor_shape: ShapeId,
}

/// A shape stopped overlapping a sensor, or one of the two (or its body) was destroyed: either
/// id may be stale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SensorEndTouchEvent {
    /// The sensor shape (may be stale).
    pub sensor_shape: ShapeId,
    /// The shape that stopped overlapping it (may be stale).
    pub visitor_shape: ShapeId,
}

/// The sensor events of the last step, ordered by sensor shape index, then by visitor (end
/// events of sensors destroyed before the step come first).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SensorEvents {
    /// Shapes that began to overlap a sensor.
    pub begin: Vec<SensorBeginTouchEvent>,
    /// Shapes that stopped overlapping a sensor.
    pub end: Vec<SensorEndTouchEvent>,
}

/// One sensor shape and the shapes overlapping it.
#[derive(Clone, Debug)]
struct Sensor {
    shape: ShapeId,
    /// The visitors found by the last pass, sorted by id.
    overlaps: Vec<ShapeId>,
    /// The list before that (kept to reuse its allocation).
    previous: Vec<ShapeId>,
}

/// The world's sensors and their events.
#[derive(Clone, Debug, Default)]
pub(crate) struct Sensors {
    /// Sorted by shape index (indices of live shapes are distinct).
    list: Vec<Sensor>,
    events: SensorEvents,
    /// End events of sensors destroyed since the last step.
    pending_end: Vec<SensorEndTouchEvent>,
}

/// What the pass reads besides the sensors.
struct SensorView<'a> {
    shapes: &'a Arena<ShapeRecord, ShapeId>,
    bodies: &'a Arena<Body, BodyId>,
    sets: &'a [SolverSet],
    trees: [&'a DynamicTree; 3],
    custom_filter: Option<&'a CustomFilterFn>,
}

/// The events one chunk of sensors produced.
#[derive(Default)]
struct SensorChanges {
    begin: Vec<SensorBeginTouchEvent>,
    end: Vec<SensorEndTouchEvent>,
}

impl Sensors {
    /// The number of sensor shapes.
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    /// Registers a new sensor shape.
    pub(crate) fn add(&mut self, shape: ShapeId) {
        let at = self
            .list
            .partition_point(|s| s.shape.index() < shape.index());
        let sensor = Sensor {
            shape,
            overlaps: Vec::new(),
            previous: Vec::new(),
        };
        self.list.insert(at, sensor);
    }

    /// Forgets a destroyed sensor shape; its overlaps end with the next step's events.
    pub(crate) fn remove(&mut self, shape: ShapeId) {
        let Some(at) = self.position(shape) else {
            return;
        };
        let sensor = self.list.remove(at);
        let ends = sensor.overlaps.iter().map(|&visitor| SensorEndTouchEvent {
            sensor_shape: shape,
            visitor_shape: visitor,
        });
        self.pending_end.extend(ends);
    }

    /// A paused step: no events are read; pending end events wait for the next step.
    pub(crate) fn pause(&mut self) {
        self.events.begin.clear();
        self.events.end.clear();
    }

    /// Starts a step's events: clears the last step's and delivers the pending end events.
    pub(crate) fn begin_step(&mut self) {
        self.events.begin.clear();
        self.events.end.clear();
        self.events.end.append(&mut self.pending_end);
    }

    fn position(&self, shape: ShapeId) -> Option<usize> {
        let at = self
            .list
            .binary_search_by_key(&shape.index(), |s| s.shape.index());
        at.ok().filter(|&at| self.list[at].shape == shape)
    }
}

impl World {
    /// The sensor begin and end events of the last step (see `sensor.rs` for their order).
    pub fn sensor_events(&self) -> &SensorEvents {
        &self.sensors.events
    }

    /// The shapes overlapping sensor `shape` at the end of the last step, sorted by id; empty
    /// for a shape that is not a sensor.
    pub fn sensor_overlaps(&self, shape: ShapeId) -> Result<&[ShapeId], PrismError> {
        self.shape(shape)?;
        Ok(self
            .sensors
            .position(shape)
            .map_or(&[], |at| &self.sensors.list[at].overlaps))
    }

    /// Whether the shape is a sensor (`ShapeDef::is_sensor`).
    pub fn is_shape_sensor(&self, shape: ShapeId) -> Result<bool, PrismError> {
        Ok(self.shape(shape)?.is_sensor)
    }

    /// Whether the shape has `ShapeDef::enable_sensor_events`.
    pub fn shape_sensor_events_enabled(&self, shape: ShapeId) -> Result<bool, PrismError> {
        Ok(self.shape(shape)?.enable_sensor_events)
    }

    /// Updates every sensor's overlaps and emits the sensor events (see the module notes); call
    /// at the end of the step, when the bodies and trees are final.
    pub(crate) fn overlap_sensors(&mut self) {
        zone!("sensors");
        if self.sensors.list.is_empty() {
            return;
        }
        let broadphase = &self.broadphase;
        let view = SensorView {
            shapes: &self.shapes,
            bodies: &self.bodies,
            sets: &self.solver_sets,
            trees: [
                &broadphase.static_tree,
                &broadphase.moving_tree,
                &broadphase.sleeping_tree,
            ],
            custom_filter: self.hooks.custom_filter.as_deref(),
        };
        let list = &mut self.sensors.list;
        let update = |sensors: &mut [Sensor]| {
            zone!("sensors chunk");
            update_sensors(sensors, &view)
        };
        let changes: Vec<SensorChanges> = if self.parallel_step {
            let mut chunks: Vec<&mut [Sensor]> = list.chunks_mut(SENSOR_CHUNK).collect();
            workers::map_mut(&mut chunks, |_, sensors| update(sensors))
        } else {
            vec![update(list)]
        };
        let events = &mut self.sensors.events;
        for chunk in changes {
            events.begin.extend(chunk.begin);
            events.end.extend(chunk.end);
        }
    }
}

/// Updates one chunk of sensors in order and returns their events.
fn update_sensors(sensors: &mut [Sensor], view: &SensorView<'_>) -> SensorChanges {
    let mut changes = SensorChanges::default();
    for sensor in sensors {
        std::mem::swap(&mut sensor.overlaps, &mut sensor.previous);
        sensor.overlaps.clear();
        let record = view.shapes.get(sensor.shape);
        if let Some(record) = record.filter(|r| r.enable_sensor_events) {
            find_visitors(sensor.shape, record, view, &mut sensor.overlaps);
            sensor.overlaps.sort_unstable();
            sensor.overlaps.dedup();
        }
        compare(sensor, &mut changes);
    }
    changes
}

/// Appends to `found` every shape overlapping sensor `id` (see the module notes).
fn find_visitors(
    id: ShapeId,
    sensor: &ShapeRecord,
    view: &SensorView<'_>,
    found: &mut Vec<ShapeId>,
) {
    let Some(transform) = body_transform(view, sensor.body) else {
        return;
    };
    let aabb = compute_aabb(&sensor.geometry, transform);
    let mask = query_mask(&sensor.filter);
    let mut visit = |_proxy: u32, user_data: u64| {
        let candidate = user_data as u32;
        if let Some(visitor) = visitor_at(candidate, (id, sensor, transform), view) {
            found.push(visitor);
        }
        true
    };
    for tree in view.trees {
        tree.query(&aabb, mask, &mut visit);
    }
}

/// The shape at arena index `candidate`, if sensor `id` (placed by `transform`) detects it.
fn visitor_at(
    candidate: u32,
    (id, sensor, transform): (ShapeId, &ShapeRecord, Transform),
    view: &SensorView<'_>,
) -> Option<ShapeId> {
    if candidate == id.index() {
        return None;
    }
    let visitor_id = view.shapes.key_at(candidate)?;
    let visitor = view.shapes.get(visitor_id)?;
    let eligible = !visitor.is_sensor
        && visitor.enable_sensor_events
        && visitor.body != sensor.body
        && sensor.filter.should_collide(&visitor.filter)
        && custom_filter_accepts(
            view.custom_filter,
            view.shapes,
            (id.index(), sensor),
            (candidate, visitor),
        );
    if !eligible {
        return None;
    }
    let visitor_transform = body_transform(view, visitor.body)?;
    let overlaps = shapes_overlap(
        &sensor.geometry,
        transform,
        &visitor.geometry,
        visitor_transform,
    );
    overlaps.then_some(visitor_id)
}

/// Emits the begin and end events between a sensor's previous and new visitor lists (both
/// sorted): a merge of the two lists.
fn compare(sensor: &Sensor, changes: &mut SensorChanges) {
    let (old, new) = (&sensor.previous, &sensor.overlaps);
    let (mut i, mut j) = (0, 0);
    loop {
        let order = match (old.get(i), new.get(j)) {
            (None, None) => break,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some(a), Some(b)) => a.cmp(b),
        };
        match order {
            Ordering::Less => {
                changes.end.push(SensorEndTouchEvent {
                    sensor_shape: sensor.shape,
                    visitor_shape: old[i],
                });
                i += 1;
            }
            Ordering::Greater => {
                changes.begin.push(SensorBeginTouchEvent {
                    sensor_shape: sensor.shape,
                    visitor_shape: new[j],
                });
                j += 1;
            }
            Ordering::Equal => (i, j) = (i + 1, j + 1),
        }
    }
}

/// The transform of a live body, wherever its sim is.
fn body_transform(view: &SensorView<'_>, body: BodyId) -> Option<Transform> {
    let record = view.bodies.get(body)?;
    let set = view.sets.get(record.set_index as usize)?;
    Some(
        set.bodies
            .sims()
            .get(record.local_index as usize)?
            .transform,
    )
}

impl World {
    /// The sensor list holds exactly the live sensor shapes, in shape-index order; each
    /// sensor's visitors are sorted, live, not sensors and not on its body; no contact has a
    /// sensor shape.
    pub(crate) fn validate_sensors(&self) -> Result<(), String> {
        let list = &self.sensors.list;
        if list
            .windows(2)
            .any(|w| w[0].shape.index() >= w[1].shape.index())
        {
            return Err("sensors not in shape-index order".into());
        }
        let live = self.shapes.values().filter(|s| s.is_sensor).count();
        if live != list.len() {
            return Err(format!("{live} sensor shapes, {} sensors", list.len()));
        }
        for sensor in list {
            let record = self
                .shapes
                .get(sensor.shape)
                .filter(|s| s.is_sensor)
                .ok_or(format!(
                    "sensor {:?}: not a live sensor shape",
                    sensor.shape
                ))?;
            if sensor.overlaps.windows(2).any(|w| w[0] >= w[1]) {
                return Err(format!("sensor {:?}: visitors not sorted", sensor.shape));
            }
            for &visitor in &sensor.overlaps {
                let other = self.shapes.get(visitor);
                if !other.is_some_and(|v| !v.is_sensor && v.body != record.body) {
                    return Err(format!(
                        "sensor {:?}: bad visitor {visitor:?}",
                        sensor.shape
                    ));
                }
            }
        }
        for (id, contact) in self.contacts.iter() {
            let sensor = |shape| self.shapes.get(shape).is_some_and(|s| s.is_sensor);
            if sensor(contact.shape_a) || sensor(contact.shape_b) {
                return Err(format!("contact {id:?} has a sensor shape"));
            }
        }
        Ok(())
    }
}

core_soa::snap_struct!(Sensor {
    shape,
    overlaps,
    previous
});
core_soa::snap_struct!(Sensors {
    list,
    events,
    pending_end
});

#[cfg(test)]
mod tests {
    use super::*;

    fn id(index: u32, generation: u32) -> ShapeId {
        ShapeId::new(index, generation)
    }

    /// The merge reports what left and what came, in id order; a slot reused by a new shape
    /// (same index, newer generation) is an end of the old visitor and a begin of the new one.
    #[test]
    fn compare_reports_departures_arrivals_and_reused_slots() {
        let sensor = Sensor {
            shape: id(0, 1),
            previous: vec![id(2, 1), id(5, 1), id(7, 3)],
            overlaps: vec![id(3, 1), id(5, 1), id(7, 4), id(9, 1)],
        };
        let mut changes = SensorChanges::default();
        compare(&sensor, &mut changes);
        let ends: Vec<ShapeId> = changes.end.iter().map(|e| e.visitor_shape).collect();
        let begins: Vec<ShapeId> = changes.begin.iter().map(|e| e.visitor_shape).collect();
        assert_eq!(ends, [id(2, 1), id(7, 3)]);
        assert_eq!(begins, [id(3, 1), id(7, 4), id(9, 1)]);
        assert!(changes.begin.iter().all(|e| e.sensor_shape == sensor.shape));
    }
}
