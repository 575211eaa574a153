//! Scripts: what a scene asks of an engine between steps, for scenes that change while they
//! run. An action names a group by its *slot* in the engine, so a script can remove and
//! recreate one group without knowing the engine's own ids.

use super::model::BodyGroup;
use super::rain::RainScript;

/// What a script asks of an engine before a step.
#[derive(Clone, Debug, PartialEq)]
pub enum GroupAction {
    Insert { slot: usize, group: BodyGroup },
    Remove { slot: usize },
}

/// A scene's per-step behaviour beyond stepping the world.
#[derive(Clone, Debug, PartialEq)]
pub enum SceneScript {
    None,
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
