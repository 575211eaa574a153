//! Scripts: what a scene asks of an engine between steps, for scenes that change while they
//! run. An action names a group by its *slot* in the engine, so a script can remove and
//! recreate one group without knowing the engine's own ids.

use super::model::BodyGroup;
use super::rain::RainScript;

/// What a script asks of an engine before a step.
#[derive(Clone, Debug, PartialEq)]
pub enum GroupAction {
    /// Create `group` in slot `slot` (which must be empty).
    Insert {
        /// The slot to fill.
        slot: usize,
        /// The bodies and joints to create.
        group: BodyGroup,
    },
    /// Destroy the group in slot `slot` with all its bodies and joints.
    Remove {
        /// The slot to empty.
        slot: usize,
    },
}

/// A scene's per-step behaviour beyond stepping the world.
#[derive(Clone, Debug, PartialEq)]
pub enum SceneScript {
    /// A scene that only steps.
    None,
    /// Rain: creates and destroys groups of humans as it runs.
    Rain(RainScript),
}

impl SceneScript {
    /// The group changes to apply before step `step` (0-based).
    pub fn actions(&mut self, step: usize) -> Vec<GroupAction> {
        match self {
            SceneScript::None => Vec::new(),
            SceneScript::Rain(rain) => rain.actions(step),
        }
    }
}
