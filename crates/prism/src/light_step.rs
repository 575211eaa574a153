//! Light steps run serially.
//!
//! With several workers each parallel pass of a step offers its chunks to the helper threads
//! (the `workers` crate): a few list operations per pass, and the wake-up of a helper that
//! has fallen asleep since the last step — a system call that costs the caller several
//! microseconds on a virtual machine — which a step of thousands of awake bodies repays many
//! times over. A world whose bodies are almost all asleep — a settled level, a scene between
//! waves — has steps of a few microseconds, every parallel pass would be one or two chunks,
//! and offering them would cost more than the step itself.
//!
//! So a step whose work is small by every measure the passes chunk by runs serially, as with
//! one worker:
//!
//! ```text
//!   awake bodies          ≤ 128   (finalize and move events chunk by 256)
//!   awake constraints     ≤ 256   (contacts and joints; the narrowphase chunks by 64)
//!   moved proxies         ≤ 64    (the pair queries chunk by 32, each a tree search)
//!   sensors               ≤ 16    (one sensor chunk)
//!   particle systems      none    (their passes are large by themselves)
//! ```
//!
//! Every pass gives the same bits with one worker as with many (the determinism contract), so
//! how a step runs never changes the result: only what it costs.
//! [`World::set_light_steps_on_caller`] turns this off, so that every step of a world with
//! several workers shares its passes: the tests use it to run the parallel passes on small
//! worlds, and a user can use it to measure the helpers.

use crate::solver_set::AWAKE_SET;
use crate::world::World;
use graph_coloring::ConstraintKind;

/// The largest awake body count of a light step.
const LIGHT_AWAKE_BODIES: usize = 128;
/// The largest awake contact and joint count of a light step.
const LIGHT_CONSTRAINTS: usize = 256;
/// The largest count of proxies to query for new pairs in a light step.
const LIGHT_MOVED_PROXIES: usize = 64;
/// The largest sensor count of a light step.
const LIGHT_SENSORS: usize = 16;

impl World {
    /// Whether a light step (see the module notes) runs serially on the caller rather than sharing
    /// its passes with the world's helper threads: on by default. Off, every step of a world with
    /// several workers shares them, however small. The results are the same bits either way. A
    /// world rebuilt from a snapshot starts with the default.
    pub fn set_light_steps_on_caller(&mut self, on: bool) {
        self.light_steps_on_caller = on;
    }

    /// Whether light steps run on the caller ([`World::set_light_steps_on_caller`]).
    pub fn light_steps_on_caller(&self) -> bool {
        self.light_steps_on_caller
    }

    /// Whether the next step is light enough to run on the caller (see the module notes).
    /// Counts only: O(colours).
    pub(crate) fn is_light_step(&self) -> bool {
        let awake = &self.solver_sets[AWAKE_SET as usize];
        let constraints = self.graph.len(ConstraintKind::Contact)
            + self.graph.len(ConstraintKind::Joint)
            + awake.contacts.len()
            + awake.joints.len();
        awake.bodies.len() <= LIGHT_AWAKE_BODIES
            && constraints <= LIGHT_CONSTRAINTS
            && self.broadphase.move_buffer().len() <= LIGHT_MOVED_PROXIES
            && self.sensors.len() <= LIGHT_SENSORS
            && self.particles.system_count() == 0
    }
}
