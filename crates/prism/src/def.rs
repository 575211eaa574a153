//! Definitions: the plain structs a user fills in to create a world, a body or a shape.
//!
//! A definition is data, not a builder: every field is public, `Default` gives Box2D's defaults,
//! and struct-update syntax (`BodyDef { linear_damping: 0.5, ..BodyDef::dynamic_at(position) }`)
//! sets the few that matter. The world validates a definition as a whole before creating
//! anything, so a bad field produces a [`PrismError`] naming that field and leaves the world
//! untouched.
//!
//! Collision filtering follows Box2D. Each shape has a [`Filter`]:
//!
//! * two shapes with the same non-zero `group_index` always collide if the group is positive
//!   and never collide if it is negative (a ragdoll's limbs share a negative group);
//! * otherwise they collide only if each one's `category_bits` intersect the other's
//!   `mask_bits` — the test is made in both directions, so either shape can veto the pair.

use crate::error::{PrismError, finite, finite_vec, non_negative, positive};
use core_soa::{BodyType, Rot, Vec2};
use solver_simd::SolverKind;

/// The world's settings. Defaults are Box2D v3's, except the joint damping ratio.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WorldDef {
    /// Gravitational acceleration (m/s²).
    pub gravity: Vec2,
    /// Contact stiffness (Hz); the solver caps it at a quarter of the substep rate. Contacts
    /// against static and kinematic bodies use twice this frequency; contacts between dynamic
    /// bodies of different masses are stiffened by their mass ratio (see `solver-simd`'s
    /// `contact_constraint`).
    pub contact_hertz: f32,
    /// Contact damping ratio (non-dimensional), for every contact.
    pub contact_damping_ratio: f32,
    /// The largest speed (m/s) at which the solver pushes overlapping shapes apart.
    pub max_contact_push_speed: f32,
    /// Stiffness (Hz) of the joints' rigid rows in the biased pass; capped, like the contacts',
    /// at a quarter of the substep rate.
    pub joint_hertz: f32,
    /// Damping ratio (non-dimensional) of the joints' rigid rows in the biased pass. The default
    /// is 0.5, not Box2D's 2: a soft joint row stretches a little under load, and its damping
    /// turns every change of load into lost energy. Measured on a 1 m pendulum released at 150°,
    /// over ten periods: a rigid distance joint loses 0.6 % of its amplitude at 2 and 0.17 % at
    /// 0.5; a revolute-pinned rod loses 2.4 % at 2 and 0.5 % at 0.5 (Box2D loses the same as
    /// Prism at 2). Lower still (0) loses least but lets a falling arm overshoot its limit.
    pub joint_damping_ratio: f32,
    /// Closing speed (m/s) below which restitution is ignored (prevents jitter at rest).
    pub restitution_threshold: f32,
    /// Speed limit for every body (m/s).
    pub max_linear_speed: f32,
    /// Overlap (m) the solver tolerates between touching shapes.
    pub linear_slop: f32,
    /// Baumgarte factor of the sequential-impulses solver (ignored by the soft-step solver).
    pub baumgarte: f32,
    /// Which contact solver runs.
    pub solver_kind: SolverKind,
    /// Whether accumulated impulses from the previous step seed the solver.
    pub enable_warm_starting: bool,
    /// Whether a pair whose relative pose has moved less than ten linear slops (and neither body
    /// turned more than 11.5°) since its manifold was computed keeps that manifold — normal and
    /// anchors as computed, separations updated from the motion — instead of re-colliding, as
    /// Box2D and Rapier do (see `recycle.rs` for what this changes for tall stacks).
    pub enable_contact_recycling: bool,
    /// Sends every contact to the constraint graph's overflow set, solved one contact at a time
    /// by the scalar path, instead of colouring them for the wide parallel path. For debugging
    /// and for comparing the two paths; slower.
    pub force_overflow: bool,
    /// Threads the step uses (≥ 1): the calling thread and `worker_count − 1` helper threads
    /// the world starts and keeps; with more than one, the parallel phases split their work
    /// across them. Results are bitwise identical for any worker count.
    pub worker_count: u32,
    /// Whether resting islands fall asleep (see [`crate::World::set_sleep_enabled`]).
    pub enable_sleep: bool,
    /// Whether fast dynamic bodies are swept against static shapes (and bullets against every
    /// body) at the end of each step and moved back to their time of impact, so they cannot
    /// pass through thin obstacles (see `continuous.rs`). On by default, as in Box2D; off, a
    /// body relies on speculative contacts only, which a body moving more than a few
    /// centimetres beyond a contact's reach in one step can skip past.
    pub enable_continuous: bool,
    /// Approach speed (m/s, finite, ≥ 0) above which a contact of a shape with
    /// [`ShapeDef::enable_hit_events`] reports a hit (see [`crate::ContactHitEvent`]).
    pub hit_event_threshold: f32,
}

impl Default for WorldDef {
    fn default() -> Self {
        WorldDef {
            gravity: Vec2::new(0.0, -10.0),
            contact_hertz: 30.0,
            contact_damping_ratio: 10.0,
            max_contact_push_speed: 3.0,
            joint_hertz: 60.0,
            joint_damping_ratio: 0.5,
            restitution_threshold: 1.0,
            max_linear_speed: 400.0,
            linear_slop: 0.005,
            baumgarte: 0.2,
            solver_kind: SolverKind::SoftStep,
            enable_warm_starting: true,
            enable_contact_recycling: true,
            force_overflow: false,
            worker_count: 1,
            enable_sleep: true,
            enable_continuous: true,
            hit_event_threshold: 1.0,
        }
    }
}

impl WorldDef {
    pub(crate) fn validate(&self) -> Result<(), PrismError> {
        finite_vec("WorldDef::gravity", self.gravity)?;
        positive("WorldDef::contact_hertz", self.contact_hertz)?;
        non_negative(
            "WorldDef::contact_damping_ratio",
            self.contact_damping_ratio,
        )?;
        non_negative(
            "WorldDef::max_contact_push_speed",
            self.max_contact_push_speed,
        )?;
        positive("WorldDef::joint_hertz", self.joint_hertz)?;
        non_negative("WorldDef::joint_damping_ratio", self.joint_damping_ratio)?;
        non_negative(
            "WorldDef::restitution_threshold",
            self.restitution_threshold,
        )?;
        positive("WorldDef::max_linear_speed", self.max_linear_speed)?;
        non_negative("WorldDef::linear_slop", self.linear_slop)?;
        non_negative("WorldDef::baumgarte", self.baumgarte)?;
        non_negative("WorldDef::hit_event_threshold", self.hit_event_threshold)?;
        if self.worker_count == 0 {
            return Err(PrismError::InvalidCount {
                field: "WorldDef::worker_count",
                value: 0,
                requirement: "at least 1",
            });
        }
        Ok(())
    }
}

/// How to create a body. `Default` is a static body at the origin.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyDef {
    /// Static, kinematic or dynamic.
    pub body_type: BodyType,
    /// World position of the body origin (m).
    pub position: Vec2,
    /// Orientation; must be a unit rotation (use [`Rot::from_angle`]).
    pub rotation: Rot,
    /// Initial velocity of the centre of mass (m/s).
    pub linear_velocity: Vec2,
    /// Initial angular velocity (rad/s).
    pub angular_velocity: f32,
    /// Linear damping (1/s), ≥ 0: `v ← v / (1 + h·damping)` per substep.
    pub linear_damping: f32,
    /// Angular damping (1/s), ≥ 0.
    pub angular_damping: f32,
    /// Multiplies the world's gravity for this body.
    pub gravity_scale: f32,
    /// Locks the rotation (zero inverse inertia).
    pub fixed_rotation: bool,
    /// Opaque value for the user.
    pub user_data: u64,
    /// Whether this body may sleep; if not, its island never sleeps.
    pub enable_sleep: bool,
    /// Speed (m/s) below which the body counts as resting: its fastest point's speed
    /// `|v| + extent·|ω|`, and half the average speed of its motion over the step, are compared
    /// with it (see [`crate::World::set_sleep_threshold`]).
    pub sleep_threshold: f32,
    /// Multiplies the rotational inertia the body gets from its shapes (finite, > 0; default 1).
    /// Raising it 2–4× on light links of a chain helps the solver with large mass ratios.
    pub inertia_scale: f32,
    /// Whether a fast dynamic body is also swept against other dynamic and kinematic bodies,
    /// not only static ones, so it cannot pass through a moving body (see
    /// [`crate::World::set_bullet`]). For small, fast projectiles; costlier than the default.
    /// Ignored for static and kinematic bodies.
    pub is_bullet: bool,
}

impl Default for BodyDef {
    fn default() -> Self {
        BodyDef {
            body_type: BodyType::Static,
            position: Vec2::ZERO,
            rotation: Rot::IDENTITY,
            linear_velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            fixed_rotation: false,
            user_data: 0,
            enable_sleep: true,
            sleep_threshold: core_soa::BodySim::DEFAULT_SLEEP_THRESHOLD,
            inertia_scale: 1.0,
            is_bullet: false,
        }
    }
}

impl BodyDef {
    /// A static body at `position`.
    pub fn fixed_at(position: Vec2) -> BodyDef {
        BodyDef {
            position,
            ..BodyDef::default()
        }
    }

    /// A dynamic body at `position`.
    pub fn dynamic_at(position: Vec2) -> BodyDef {
        BodyDef {
            body_type: BodyType::Dynamic,
            position,
            ..BodyDef::default()
        }
    }

    /// A kinematic body at `position`.
    pub fn kinematic_at(position: Vec2) -> BodyDef {
        BodyDef {
            body_type: BodyType::Kinematic,
            position,
            ..BodyDef::default()
        }
    }

    pub(crate) fn validate(&self) -> Result<(), PrismError> {
        finite_vec("BodyDef::position", self.position)?;
        validate_rotation("BodyDef::rotation", self.rotation)?;
        finite_vec("BodyDef::linear_velocity", self.linear_velocity)?;
        finite("BodyDef::angular_velocity", self.angular_velocity)?;
        non_negative("BodyDef::linear_damping", self.linear_damping)?;
        non_negative("BodyDef::angular_damping", self.angular_damping)?;
        finite("BodyDef::gravity_scale", self.gravity_scale)?;
        non_negative("BodyDef::sleep_threshold", self.sleep_threshold)?;
        positive("BodyDef::inertia_scale", self.inertia_scale)?;
        Ok(())
    }
}

/// A rotation must be finite and of unit length (within 10⁻³, `Rot::is_valid`).
pub(crate) fn validate_rotation(field: &'static str, rotation: Rot) -> Result<(), PrismError> {
    finite(field, rotation.c)?;
    finite(field, rotation.s)?;
    let length = (rotation.c * rotation.c + rotation.s * rotation.s).sqrt();
    if rotation.is_valid() {
        Ok(())
    } else {
        Err(PrismError::OutOfRange {
            field,
            value: length,
            requirement: "a unit rotation (|q| = 1)",
        })
    }
}

/// Which shapes may collide with which (Box2D semantics; see the module notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Filter {
    /// The categories this shape belongs to.
    pub category_bits: u64,
    /// The categories this shape accepts contacts with.
    pub mask_bits: u64,
    /// Same non-zero group: positive always collide, negative never.
    pub group_index: i32,
}

impl Default for Filter {
    fn default() -> Self {
        Filter {
            category_bits: 1,
            mask_bits: u64::MAX,
            group_index: 0,
        }
    }
}

impl Filter {
    /// Whether shapes with these two filters may touch.
    pub fn should_collide(&self, other: &Filter) -> bool {
        if self.group_index == other.group_index && self.group_index != 0 {
            return self.group_index > 0;
        }
        (self.mask_bits & other.category_bits) != 0 && (self.category_bits & other.mask_bits) != 0
    }
}

/// Which shapes a query reports: those whose category intersects `mask_bits` and whose mask
/// accepts `category_bits`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct QueryFilter {
    /// The categories the query stands for: a shape is reported only if its `mask_bits`
    /// intersect these.
    pub category_bits: u64,
    /// The categories the query reports: a shape is reported only if its `category_bits`
    /// intersect these.
    pub mask_bits: u64,
}

impl Default for QueryFilter {
    fn default() -> Self {
        QueryFilter {
            category_bits: 1,
            mask_bits: u64::MAX,
        }
    }
}

impl QueryFilter {
    /// Whether a shape with `filter` passes this query filter.
    pub fn accepts(&self, filter: &Filter) -> bool {
        (filter.category_bits & self.mask_bits) != 0 && (filter.mask_bits & self.category_bits) != 0
    }
}

/// How to create a shape. Defaults are Box2D's.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShapeDef {
    /// Mass per area (kg/m²), finite and ≥ 0. Zero makes a massless shape.
    pub density: f32,
    /// Coulomb friction coefficient, ≥ 0. Mixed as `sqrt(f1·f2)`.
    pub friction: f32,
    /// Coefficient of restitution, ≥ 0. Mixed as `max(r1, r2)`.
    pub restitution: f32,
    /// Which other shapes this one collides with (see [`Filter`]).
    pub filter: Filter,
    /// Whether contacts of this shape report begin/end touch events (either shape enabling is
    /// enough).
    pub enable_contact_events: bool,
    /// Opaque value for the user.
    pub user_data: u64,
    /// A sensor detects the shapes overlapping it and reports them as sensor events; it never
    /// makes contacts, so nothing collides with it, and it never detects another sensor. Its
    /// density still counts in its body's mass. See [`crate::SensorEvents`].
    pub is_sensor: bool,
    /// On a sensor: whether it reports events. On any other shape: whether sensors detect it.
    /// Both sides must enable it for a sensor to see a shape. True by default (Box2D's default
    /// is false; as with `enable_contact_events`, Prism reports unless told not to: a world
    /// without sensors pays nothing for it).
    pub enable_sensor_events: bool,
    /// Whether contacts of this shape report hits faster than
    /// [`WorldDef::hit_event_threshold`] (either shape enabling is enough). False by default.
    pub enable_hit_events: bool,
    /// Whether the world's custom filter ([`crate::World::set_custom_filter`]) decides this
    /// shape's new pairs (either shape enabling is enough). False by default.
    pub enable_custom_filtering: bool,
    /// Whether the world's pre-solve hook ([`crate::World::set_pre_solve`]) decides each step
    /// whether this shape's touching contacts are solved (either shape enabling is enough).
    /// False by default.
    pub enable_pre_solve_events: bool,
}

impl Default for ShapeDef {
    fn default() -> Self {
        ShapeDef {
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
            filter: Filter::default(),
            enable_contact_events: true,
            user_data: 0,
            is_sensor: false,
            enable_sensor_events: true,
            enable_hit_events: false,
            enable_custom_filtering: false,
            enable_pre_solve_events: false,
        }
    }
}

impl ShapeDef {
    pub(crate) fn validate(&self) -> Result<(), PrismError> {
        non_negative("ShapeDef::density", self.density)?;
        non_negative("ShapeDef::friction", self.friction)?;
        non_negative("ShapeDef::restitution", self.restitution)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_index_overrides_category_and_mask() {
        let a = Filter {
            category_bits: 1,
            mask_bits: 0,
            group_index: 3,
        };
        let b = Filter {
            category_bits: 2,
            mask_bits: 0,
            group_index: 3,
        };
        assert!(a.should_collide(&b));
        let c = Filter {
            group_index: -3,
            ..Filter::default()
        };
        let d = Filter {
            group_index: -3,
            ..Filter::default()
        };
        assert!(!c.should_collide(&d));
    }

    #[test]
    fn category_and_mask_are_checked_both_ways() {
        let a = Filter {
            category_bits: 2,
            mask_bits: !2,
            group_index: 0,
        };
        let b = Filter {
            category_bits: 2,
            mask_bits: !2,
            group_index: 0,
        };
        let c = Filter::default();
        assert!(!a.should_collide(&b));
        assert!(a.should_collide(&c));
        let deaf = Filter {
            mask_bits: 0,
            ..Filter::default()
        };
        assert!(!deaf.should_collide(&c));
        assert!(!c.should_collide(&deaf));
    }

    #[test]
    fn defaults_are_box2d_values_but_joint_damping() {
        let w = WorldDef::default();
        assert_eq!(w.gravity, Vec2::new(0.0, -10.0));
        assert_eq!((w.contact_hertz, w.contact_damping_ratio), (30.0, 10.0));
        // The one default that is not Box2D's (2): see `WorldDef::joint_damping_ratio`.
        assert_eq!((w.joint_hertz, w.joint_damping_ratio), (60.0, 0.5));
        assert_eq!(
            (w.max_contact_push_speed, w.restitution_threshold),
            (3.0, 1.0)
        );
        assert_eq!((w.max_linear_speed, w.linear_slop), (400.0, 0.005));
        assert_eq!(w.hit_event_threshold, 1.0);
        let s = ShapeDef::default();
        assert_eq!((s.density, s.friction, s.restitution), (1.0, 0.6, 0.0));
        assert_eq!(
            s.filter,
            Filter {
                category_bits: 1,
                mask_bits: u64::MAX,
                group_index: 0
            }
        );
    }

    #[test]
    fn validation_names_the_field() {
        let def = BodyDef {
            position: Vec2::new(0.0, f32::NAN),
            ..BodyDef::default()
        };
        let err = def.validate().unwrap_err();
        assert!(matches!(
            err,
            PrismError::NonFinite {
                field: "BodyDef::position",
                ..
            }
        ));
        let shape = ShapeDef {
            density: -1.0,
            ..ShapeDef::default()
        };
        let err = shape.validate().unwrap_err();
        assert!(
            matches!(err, PrismError::OutOfRange { field: "ShapeDef::density", value, .. } if value == -1.0)
        );
    }
}
