//! User hooks: a custom filter that decides which new shape pairs get a contact, and a
//! pre-solve hook that decides, every step, which touching contacts are solved.
//!
//! Both are the world's, set with [`World::set_custom_filter`] and [`World::set_pre_solve`],
//! and both are consulted only for shapes that asked for them
//! (`ShapeDef::enable_custom_filtering`, `ShapeDef::enable_pre_solve_events`; either shape of
//! a pair is enough), so a world pays nothing for a hook its shapes do not use.
//!
//! ```text
//!   custom filter   pair update (step phase 1), for a new overlapping pair that passed
//!                   the shapes' filters; false → no contact (asked again when a fat box
//!                   moves); the sensor pass asks it too, for a sensor and a candidate visitor
//!   pre-solve       narrowphase (step phase 2), for a contact whose manifold has points;
//!                   false → the contact counts as not touching this step: no solve, no
//!                   begin event (or an end event if it touched), and its manifold is
//!                   computed afresh next step
//! ```
//!
//! **Threads.** Both phases run in parallel, so a hook is called from several of the world's
//! workers at once, in no particular order; that is why it must be `Fn + Send + Sync`. It must
//! not panic, and it cannot reach the world (the step holds it).
//!
//! **Determinism.** The world stays bitwise deterministic for any worker count as long as each
//! hook is a pure function of its argument: same pair (or contact), same answer, whatever was
//! asked before. A hook that counts calls or reads a clock breaks that promise.
//!
//! A one-way platform is the classic pre-solve hook: solve the contact only while the normal
//! from the platform to the other shape points up and the shapes are not deeply overlapped
//! (a body jumping up through the platform overlaps it deeply before its centre passes the
//! platform's middle and the normal flips).

use crate::contact::ContactSim;
use crate::shape::ShapeRecord;
use crate::world::World;
use collision::Manifold;
use core_soa::{Arena, BodyId, ShapeId, Vec2};

/// The two shapes a hook decides about, with what identifies them to the caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapePair {
    /// The first shape of the pair (the contact normal points from A to B).
    pub shape_a: ShapeId,
    /// The second shape of the pair.
    pub shape_b: ShapeId,
    /// The body of `shape_a`.
    pub body_a: BodyId,
    /// The body of `shape_b`.
    pub body_b: BodyId,
    /// The shapes' `ShapeDef::user_data`.
    pub user_data_a: u64,
    /// The user data of `shape_b` (`user_data_a` is shape A's).
    pub user_data_b: u64,
}

/// A touching contact the pre-solve hook decides about.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PreSolveContact {
    /// The two shapes and their bodies.
    pub shapes: ShapePair,
    /// The deepest manifold point, in world coordinates (midway between the surfaces).
    pub point: Vec2,
    /// The manifold's unit normal, from shape A to shape B.
    pub normal: Vec2,
    /// The deepest point's separation (m), negative when the shapes overlap.
    pub separation: f32,
}

/// The custom filter's type: true lets the pair have a contact.
pub(crate) type CustomFilterFn = dyn Fn(&ShapePair) -> bool + Send + Sync;

/// The pre-solve hook's type: true solves the contact this step.
pub(crate) type PreSolveFn = dyn Fn(&PreSolveContact) -> bool + Send + Sync;

/// The world's hooks (none by default).
#[derive(Default)]
pub(crate) struct Hooks {
    pub(crate) custom_filter: Option<Box<CustomFilterFn>>,
    pub(crate) pre_solve: Option<Box<PreSolveFn>>,
}

impl ShapePair {
    /// The pair of live shapes at arena indices `a` and `b`.
    fn of(shapes: &Arena<ShapeRecord, ShapeId>, a: u32, b: u32) -> Option<ShapePair> {
        let (shape_a, shape_b) = (shapes.key_at(a)?, shapes.key_at(b)?);
        let (record_a, record_b) = (shapes.get(shape_a)?, shapes.get(shape_b)?);
        Some(ShapePair {
            shape_a,
            shape_b,
            body_a: record_a.body,
            body_b: record_b.body,
            user_data_a: record_a.user_data,
            user_data_b: record_b.user_data,
        })
    }
}

/// Whether the custom filter lets shapes `a` and `b` (arena indices, A first) meet: true
/// without a hook or when neither shape enabled custom filtering.
pub(crate) fn custom_filter_accepts(
    hook: Option<&CustomFilterFn>,
    shapes: &Arena<ShapeRecord, ShapeId>,
    (a, record_a): (u32, &ShapeRecord),
    (b, record_b): (u32, &ShapeRecord),
) -> bool {
    match hook {
        Some(filter) if record_a.enable_custom_filtering || record_b.enable_custom_filtering => {
            ShapePair::of(shapes, a, b).is_none_or(|pair| filter(&pair))
        }
        _ => true,
    }
}

/// Whether the pre-solve hook keeps contact `sim`'s new `manifold` (which has points, anchors
/// relative to the centres of mass; `center_a` is body A's centre of mass).
pub(crate) fn pre_solve_keeps(
    hook: &PreSolveFn,
    shapes: &Arena<ShapeRecord, ShapeId>,
    sim: &ContactSim,
    manifold: &Manifold,
    center_a: Vec2,
) -> bool {
    let Some(shapes) = ShapePair::of(shapes, sim.shape_a, sim.shape_b) else {
        return true;
    };
    let Some(deepest) = manifold.points().iter().reduce(|best, p| {
        if p.separation < best.separation {
            p
        } else {
            best
        }
    }) else {
        return true;
    };
    hook(&PreSolveContact {
        shapes,
        point: center_a + deepest.anchor_a,
        normal: manifold.normal,
        separation: deepest.separation,
    })
}

impl World {
    /// Sets the custom filter: for every new pair of overlapping shapes that pass their
    /// [`crate::Filter`]s, where either shape has `ShapeDef::enable_custom_filtering`, the
    /// pair gets a contact only if `filter` returns true; sensors ask it too before reporting a
    /// visitor. Contacts that exist already are kept.
    ///
    /// `filter` is called from several worker threads at once during the step; it must be a
    /// pure function of its argument for the world to stay deterministic (see the module
    /// notes), and must not panic.
    pub fn set_custom_filter(
        &mut self,
        filter: impl Fn(&ShapePair) -> bool + Send + Sync + 'static,
    ) {
        self.hooks.custom_filter = Some(Box::new(filter));
    }

    /// Removes the custom filter: every pair that passes its filters gets a contact.
    pub fn clear_custom_filter(&mut self) {
        self.hooks.custom_filter = None;
    }

    /// Sets the pre-solve hook: every step, for every awake touching contact where either shape
    /// has `ShapeDef::enable_pre_solve_events`, the contact is solved only if `hook` returns
    /// true; otherwise it counts as not touching for that step (a one-way platform refuses
    /// contacts whose normal points the wrong way).
    ///
    /// `hook` is called from several worker threads at once during the narrowphase; it must be
    /// a pure function of its argument for the world to stay deterministic (see the module
    /// notes), and must not panic.
    pub fn set_pre_solve(
        &mut self,
        hook: impl Fn(&PreSolveContact) -> bool + Send + Sync + 'static,
    ) {
        self.hooks.pre_solve = Some(Box::new(hook));
    }

    /// Removes the pre-solve hook: every touching contact is solved.
    pub fn clear_pre_solve(&mut self) {
        self.hooks.pre_solve = None;
    }
}

impl World {
    /// Every contact's hit-event and pre-solve flags are its shapes' (either shape enabling).
    pub(crate) fn validate_contact_flags(&self) -> Result<(), String> {
        for (id, contact) in self.contacts.iter() {
            let (Some(a), Some(b)) = (
                self.shapes.get(contact.shape_a),
                self.shapes.get(contact.shape_b),
            ) else {
                return Err(format!("contact {id:?}: dead shape"));
            };
            let sim = self
                .contact_sim(id.index())
                .ok_or(format!("contact {id:?}: no sim"))?;
            let hit = a.enable_hit_events || b.enable_hit_events;
            let pre_solve = a.enable_pre_solve_events || b.enable_pre_solve_events;
            if (sim.enable_hit_events, sim.enable_pre_solve) != (hit, pre_solve) {
                return Err(format!(
                    "contact {id:?}: event flags differ from its shapes'"
                ));
            }
        }
        Ok(())
    }
}
