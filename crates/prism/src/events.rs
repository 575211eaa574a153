//! Contact events: which shape pairs began and stopped touching, and which hit hard.
//!
//! A contact *touches* while its manifold has at least one point (points are kept up to the
//! speculative distance, so a pair touches slightly before the shapes meet). The narrowphase
//! flags the transitions and the serial contact-state pass turns them into events, in contact
//! order, so the event lists are deterministic.
//!
//! Events are reported per step: [`crate::World::step`] clears the lists when it starts and fills
//! them as it runs. Destroying a body or a shape between steps ends its touching contacts; those
//! end events are held and delivered with the next step's events, so a caller that reads the
//! events after each step sees every end exactly once, whatever it did in between. A pair is
//! reported only if at least one of its shapes has `enable_contact_events`.
//!
//! Hit events ([`ContactEvents::hit`]) come from the solved contacts, after the solve
//! (`hit.rs`), for pairs where a shape has `enable_hit_events`.

use crate::def::ShapeDef;
use crate::hit::ContactHitEvent;
use collision::Manifold;
use core_soa::ShapeId;

/// Two shapes began touching during the step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactBeginTouchEvent {
    /// The first shape (the manifold's normal points from A to B).
    pub shape_a: ShapeId,
    /// The second shape.
    pub shape_b: ShapeId,
    /// The manifold when touching began (normal from A to B; anchors relative to the bodies'
    /// origins; impulses not yet solved).
    pub manifold: Manifold,
}

/// Two shapes stopped touching, or one of them (or its body) was destroyed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContactEndTouchEvent {
    /// The first shape (ids may be stale if a shape was destroyed).
    pub shape_a: ShapeId,
    /// The second shape.
    pub shape_b: ShapeId,
}

/// The contact events of the last step.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContactEvents {
    /// Pairs that began touching, in contact order.
    pub begin: Vec<ContactBeginTouchEvent>,
    /// Pairs that stopped touching, in contact order (destroyed shapes' pairs first).
    pub end: Vec<ContactEndTouchEvent>,
    /// Contacts that approached faster than `WorldDef::hit_event_threshold`, in contact order.
    pub hit: Vec<ContactHitEvent>,
}

/// The world's event buffers: those of the current step, and end events waiting for the next.
#[derive(Clone, Debug, Default)]
pub(crate) struct EventBuffers {
    pub(crate) current: ContactEvents,
    /// End events from destructions between steps.
    pub(crate) pending_end: Vec<ContactEndTouchEvent>,
    /// Whether a shape with hit events was ever created (until then the hit pass is skipped).
    pub(crate) hit_shapes: bool,
}

impl EventBuffers {
    /// A paused step (`dt == 0`): the last step's events are gone, the pending ends wait for
    /// the next step that runs.
    pub(crate) fn pause(&mut self) {
        self.current.begin.clear();
        self.current.end.clear();
    }

    /// Starts a step's events: clears the last step's and delivers the pending end events.
    pub(crate) fn begin_step(&mut self) {
        self.current.begin.clear();
        self.current.end.clear();
        self.current.hit.clear();
        self.current.end.append(&mut self.pending_end);
    }

    /// Notes the event flags of a new shape.
    pub(crate) fn note_shape_flags(&mut self, def: &ShapeDef) {
        self.hit_shapes |= def.enable_hit_events;
    }
}
