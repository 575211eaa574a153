//! Probes: which bodies of a scene's main group the quality figures look at, and for a
//! validation scene what its figures measure.

use crate::figures::Check;

/// The bodies the quality figures look at, as indices into the main group.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Probes {
    /// The top box of each pyramid (its drop is reported).
    pub top_boxes: Vec<usize>,
    /// The body driven by the scene's motor (its angular speed is reported).
    pub motor_body: Option<usize>,
    /// The bodies a validation scene is about, in the order its check reads them (a stack from
    /// bottom to top; the light box then the heavy one; the swinging body).
    pub subjects: Vec<usize>,
    /// What a validation scene measures about its subjects.
    pub check: Option<Check>,
}
