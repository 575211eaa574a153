//! Where the solver's time goes.
//!
//! [`SolverProfile`] holds milliseconds per stage of the last step. The thread that
//! orchestrates the step reads the clock once at each boundary between stage entries (see
//! [`crate::executor`]) and adds the time since the previous boundary to the field of the
//! entry's stage, so a stage that runs once per substep and per colour reports its sum over
//! all of them. Reading the clock costs tens of nanoseconds; a step has a few hundred entries,
//! so collecting the profile always costs a few microseconds.
//!
//! With the `profile` feature the solver also shows in Tracy, under the names prism-bench's
//! `--stages` prints (so a capture and a benchmark table read alike):
//!
//! ```text
//!   zone                      thread                 what
//!   prepare, integrate_velocities, warm_start, solve_impulses, integrate_positions,
//!   relax_impulses, restitution, store_impulses
//!                             orchestrating thread   one stage entry (a stage of one colour)
//!   <stage> block             every worker           one block of that entry's work
//!   begin_step                orchestrating thread   the step's start on the bodies (an entry)
//!   begin_step block          every worker           one block of its bodies
//!   finalize_poses            orchestrating thread   the step's end on the bodies
//!   finalize_poses chunk      every worker           one chunk of its bodies
//! ```
//!
//! [`StageZone`] opens the stage zones, [`block_zone`] the block zones, and the crate's
//! `zone!` macro the others. Without the feature they are empty types and macros that expand
//! to nothing, so they cost nothing.

use crate::stages::Stage;
use std::time::{Duration, Instant};

/// Opens a Tracy zone named `$name` that lasts until the end of the enclosing block (feature
/// `profile`); expands to nothing without the feature.
#[cfg(feature = "profile")]
macro_rules! zone {
    ($name:literal) => {
        let _zone = tracy_client::Client::running()
            .map(|client| client.span(tracy_client::span_location!($name), 0));
    };
}

#[cfg(not(feature = "profile"))]
macro_rules! zone {
    ($name:literal) => {};
}

pub(crate) use zone;

/// Milliseconds per stage of the last solve.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolverProfile {
    /// Ordering contacts (with several workers), preparing contacts and joints.
    pub prepare: f32,
    /// Starting the step on the bodies (their velocity terms, displacements cleared) and
    /// applying gravity, forces and damping to velocities, over all substeps.
    pub integrate_velocities: f32,
    /// Applying the last step's impulses, over all substeps.
    pub warm_start: f32,
    /// The biased solve pass (with position correction), over all substeps and colours.
    pub solve: f32,
    /// Moving bodies by their velocities, over all substeps.
    pub integrate_positions: f32,
    /// The relax pass (no bias), over all substeps and colours.
    pub relax: f32,
    /// Restitution after the substeps.
    pub restitution: f32,
    /// Writing the accumulated impulses back into the contact and joint records.
    pub store_impulses: f32,
    /// Writing final poses, clearing forces and checking for blow-ups after the stages.
    pub finalize: f32,
    /// The whole solver step, from begin to finalize.
    pub total: f32,
}

impl SolverProfile {
    /// Adds `elapsed` to the field of `stage`.
    pub fn add_stage(&mut self, stage: Stage, elapsed: Duration) {
        let ms = duration_ms(elapsed);
        let field = match stage {
            Stage::OrderContacts | Stage::PrepareContacts | Stage::PrepareJoints => {
                &mut self.prepare
            }
            Stage::BeginStep | Stage::IntegrateVelocities => &mut self.integrate_velocities,
            Stage::WarmStart => &mut self.warm_start,
            Stage::Solve => &mut self.solve,
            Stage::IntegratePositions => &mut self.integrate_positions,
            Stage::Relax => &mut self.relax,
            Stage::Restitution => &mut self.restitution,
            Stage::StoreImpulses => &mut self.store_impulses,
        };
        *field += ms;
    }

    /// The sum of the per-stage fields (everything but `total`).
    pub fn stage_sum(&self) -> f32 {
        self.prepare
            + self.integrate_velocities
            + self.warm_start
            + self.solve
            + self.integrate_positions
            + self.relax
            + self.restitution
            + self.store_impulses
            + self.finalize
    }
}

/// Milliseconds in `elapsed`.
#[inline]
pub fn duration_ms(elapsed: Duration) -> f32 {
    (elapsed.as_secs_f64() * 1000.0) as f32
}

/// Milliseconds since `start`.
#[inline]
pub fn ms_since(start: Instant) -> f32 {
    duration_ms(start.elapsed())
}

/// A Tracy zone around the running stage entry (nothing without the `profile` feature).
#[derive(Default)]
pub struct StageZone {
    #[cfg(feature = "profile")]
    span: Option<tracy_client::Span>,
}

impl StageZone {
    /// Opens the zone of `stage` (closing the previous one).
    #[inline]
    pub fn enter(&mut self, stage: Stage) {
        #[cfg(feature = "profile")]
        {
            self.span = None;
            self.span = stage_span(stage);
        }
        #[cfg(not(feature = "profile"))]
        let _ = stage;
    }

    /// Closes the open zone.
    #[inline]
    pub fn exit(&mut self) {
        #[cfg(feature = "profile")]
        {
            self.span = None;
        }
    }
}

/// A zone named after `stage`, if a Tracy client is running. Both preparation stages are
/// `prepare`, as in [`SolverProfile`].
#[cfg(feature = "profile")]
fn stage_span(stage: Stage) -> Option<tracy_client::Span> {
    use tracy_client::span_location;
    let client = tracy_client::Client::running()?;
    let location = match stage {
        Stage::OrderContacts | Stage::PrepareContacts | Stage::PrepareJoints => {
            span_location!("prepare")
        }
        Stage::BeginStep => span_location!("begin_step"),
        Stage::IntegrateVelocities => span_location!("integrate_velocities"),
        Stage::WarmStart => span_location!("warm_start"),
        Stage::Solve => span_location!("solve_impulses"),
        Stage::IntegratePositions => span_location!("integrate_positions"),
        Stage::Relax => span_location!("relax_impulses"),
        Stage::Restitution => span_location!("restitution"),
        Stage::StoreImpulses => span_location!("store_impulses"),
    };
    Some(client.span(location, 0))
}

/// A Tracy zone around one block of a stage entry, on the thread that runs it: dropping it
/// closes the zone (nothing without the `profile` feature).
pub(crate) struct BlockZone {
    #[cfg(feature = "profile")]
    _span: Option<tracy_client::Span>,
}

/// Opens the zone of one block of `stage`, named `<stage> block` (see the module notes).
#[inline]
pub(crate) fn block_zone(stage: Stage) -> BlockZone {
    #[cfg(feature = "profile")]
    {
        BlockZone {
            _span: block_span(stage),
        }
    }
    #[cfg(not(feature = "profile"))]
    {
        let _ = stage;
        BlockZone {}
    }
}

/// A zone named after a block of `stage`, if a Tracy client is running.
#[cfg(feature = "profile")]
fn block_span(stage: Stage) -> Option<tracy_client::Span> {
    use tracy_client::span_location;
    let client = tracy_client::Client::running()?;
    let location = match stage {
        Stage::OrderContacts | Stage::PrepareContacts | Stage::PrepareJoints => {
            span_location!("prepare block")
        }
        Stage::BeginStep => span_location!("begin_step block"),
        Stage::IntegrateVelocities => span_location!("integrate_velocities block"),
        Stage::WarmStart => span_location!("warm_start block"),
        Stage::Solve => span_location!("solve_impulses block"),
        Stage::IntegratePositions => span_location!("integrate_positions block"),
        Stage::Relax => span_location!("relax_impulses block"),
        Stage::Restitution => span_location!("restitution block"),
        Stage::StoreImpulses => span_location!("store_impulses block"),
    };
    Some(client.span(location, 0))
}
