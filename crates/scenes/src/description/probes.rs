//! Probes: which bodies of a scene's main group the quality figures look at.

/// The bodies the quality figures look at, as indices into the main group.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Probes {
    /// The top box of each pyramid (its drop is reported).
    pub top_boxes: Vec<usize>,
    /// The body driven by the scene's motor (its angular speed is reported).
    pub motor_body: Option<usize>,
}
