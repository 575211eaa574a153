//! The warm body tier and the dense arrays of one solver set.
//!
//! A body is stored in three places, one per access pattern (see the crate essay). Its cold
//! record lives in the world's arena (the engine crate's business); its [`BodySim`] and
//! [`crate::BodyState`] live side by side in a [`BodyArrays`], one per solver set (static,
//! awake, disabled, one per sleeping island), at the same dense index.
//!
//! The dense arrays stay dense by swap-remove: removing index `i` moves the last body into the
//! hole. That body's cold record still says it lives at the old last index, so every removal
//! reports which body moved ([`RemovedBody::moved_body`], read from [`BodySim::body`]) and the
//! caller rewrites the index it keeps.
//!
//! ```text
//!   before   sims: [ a  b  c  d ]     remove 1 (b)
//!   after    sims: [ a  d  c ]        d moved 3 -> 1: its cold record's local index = 1
//! ```

use crate::body_state::{BodyState, body_flags};
use crate::math::{Rot, Transform};
use glam::Vec2;

/// "No index": ends an intrusive list, or marks an absent island or set.
pub const NULL_INDEX: u32 = u32::MAX;

/// How a body moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BodyType {
    /// Never moves; infinite mass. Takes no colour bit and gathers as the identity state.
    #[default]
    Static,
    /// Moves with a velocity set by the user; infinite mass, so constraints never push it.
    Kinematic,
    /// Moves under forces and constraints.
    Dynamic,
}

impl BodyType {
    /// The [`body_flags`] bits a [`BodyState`] of this type carries.
    #[inline]
    pub const fn state_flags(self) -> u32 {
        match self {
            BodyType::Static => 0,
            BodyType::Kinematic => body_flags::KINEMATIC,
            BodyType::Dynamic => body_flags::DYNAMIC,
        }
    }
}

/// The warm tier: what integration, preparation and finalisation read. Stored in a dense array
/// parallel to the hot [`crate::BodyState`] array of the same solver set (same index).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodySim {
    /// Transform of the body origin.
    pub transform: Transform,
    /// World position of the centre of mass.
    pub center: Vec2,
    /// Rotation at the start of the step.
    pub rotation0: Rot,
    /// Centre of mass at the start of the step.
    pub center0: Vec2,
    /// Centre of mass in body-local coordinates.
    pub local_center: Vec2,
    /// Accumulated force (N), cleared after each step.
    pub force: Vec2,
    /// Accumulated torque (N·m), cleared after each step.
    pub torque: f32,
    /// Mass (kg); 0 for static and kinematic bodies.
    pub mass: f32,
    /// `1/mass`, or 0 for a body that does not respond to impulses (static, kinematic).
    pub inv_mass: f32,
    /// Rotational inertia about the centre of mass (kg·m²).
    pub inertia: f32,
    /// `1/inertia`, or 0 for a body that does not turn under impulses (static, kinematic, fixed
    /// rotation).
    pub inv_inertia: f32,
    /// Linear damping (1/s): each substep of `h` scales the linear velocity by `1/(1 +
    /// h·linear_damping)`.
    pub linear_damping: f32,
    /// Angular damping (1/s): each substep of `h` scales the angular velocity by `1/(1 +
    /// h·angular_damping)`.
    pub angular_damping: f32,
    /// Multiplies the world's gravity for this body (1 = normal, 0 = no gravity, negative =
    /// upwards).
    pub gravity_scale: f32,
    /// Arena index of the body's cold record (back-reference, fixed up on swap-remove).
    pub body: u32,
    /// The largest distance (m) of any point of the body's shapes from its centre of mass:
    /// turns an angular speed into a point speed (sleep), bounds how far a turn moves a shape
    /// (contact recycling, continuous collision). Kept by the engine when shapes or the centre
    /// of mass change.
    pub max_extent: f32,
    /// The smallest of the body's shapes' inner radii (m): for each shape, the distance from
    /// its centroid to its nearest face (a circle's or capsule's radius; 0 for segments). A
    /// body that moves more than half of it in a step is swept for continuous collision.
    /// [`BodySim::NO_EXTENT`] for a body without shapes. Kept with `max_extent`.
    pub min_extent: f32,
    /// Speed (m/s) below which the body counts as resting (compared with the sleep speed
    /// `|v| + max_extent·|ω|`, or half the step's average speed if larger).
    pub sleep_threshold: f32,
    /// How long (s) the body has been resting; 0 while it moves or may not sleep.
    pub sleep_time: f32,
    /// Whether the body may fall asleep.
    pub enable_sleep: bool,
    /// How far (m) every point of the body's shapes may still move before one of their tight
    /// boxes can leave its broadphase fat box; 0 or less means "test the boxes" (the World's
    /// finalize phase keeps it, and anything that moves a body or changes its shapes outside
    /// the solver resets it to 0).
    pub fat_slack: f32,
    /// An upper bound (m) on the distance of any point of the body's shapes from its centre
    /// of mass, measured when `fat_slack` was.
    pub fat_extent: f32,
}

impl Default for BodySim {
    fn default() -> Self {
        BodySim {
            transform: Transform::IDENTITY,
            center: Vec2::ZERO,
            rotation0: Rot::IDENTITY,
            center0: Vec2::ZERO,
            local_center: Vec2::ZERO,
            force: Vec2::ZERO,
            torque: 0.0,
            mass: 0.0,
            inv_mass: 0.0,
            inertia: 0.0,
            inv_inertia: 0.0,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            body: u32::MAX,
            max_extent: 0.0,
            min_extent: BodySim::NO_EXTENT,
            sleep_threshold: BodySim::DEFAULT_SLEEP_THRESHOLD,
            sleep_time: 0.0,
            enable_sleep: true,
            fat_slack: 0.0,
            fat_extent: 0.0,
        }
    }
}

impl BodySim {
    /// Default resting speed threshold (m/s).
    pub const DEFAULT_SLEEP_THRESHOLD: f32 = 0.05;

    /// The `min_extent` of a body without shapes: larger than any motion, so such a body is
    /// never swept (100 km, Box2D's "huge" length).
    pub const NO_EXTENT: f32 = 100_000.0;
}

/// What [`BodyArrays::swap_remove`] took out, and which body filled the hole.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RemovedBody {
    /// The removed body's solver data.
    pub sim: BodySim,
    /// The removed body's hot state (velocities, pose deltas).
    pub state: BodyState,
    /// The body (its [`BodySim::body`]) that moved from the last index into the removed index,
    /// or `None` if the removed one was last. Its cold record's local index must become the
    /// removed index.
    pub moved_body: Option<u32>,
}

/// One solver set's bodies: the warm and hot tiers side by side, `sims[i]` and `states[i]`
/// belonging to the same body. Dense, with O(1) push and swap-remove.
#[derive(Clone, Debug, Default)]
pub struct BodyArrays {
    sims: Vec<BodySim>,
    states: Vec<BodyState>,
}

impl BodyArrays {
    /// Empty arrays.
    pub fn new() -> Self {
        Self::default()
    }

    /// Empty arrays with room for `capacity` bodies in each tier.
    pub fn with_capacity(capacity: usize) -> Self {
        BodyArrays {
            sims: Vec::with_capacity(capacity),
            states: Vec::with_capacity(capacity),
        }
    }

    /// The number of bodies (the length of both tiers).
    #[inline]
    pub fn len(&self) -> usize {
        self.sims.len()
    }

    /// Whether there are no bodies.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.sims.is_empty()
    }

    /// Cuts both tiers' spare capacity once they are mostly unused ([`crate::release_spare`]).
    pub fn release_spare(&mut self) {
        crate::release_spare(&mut self.sims);
        crate::release_spare(&mut self.states);
    }

    /// Cuts both tiers' capacity to their length.
    pub fn shrink_to_fit(&mut self) {
        self.sims.shrink_to_fit();
        self.states.shrink_to_fit();
    }

    /// Appends a body and returns its local index.
    pub fn push(&mut self, sim: BodySim, state: BodyState) -> u32 {
        let index = self.sims.len() as u32;
        self.sims.push(sim);
        self.states.push(state);
        index
    }

    /// Removes the body at `index` by moving the last body into its place; `None` if `index` is
    /// out of range. The caller must apply [`RemovedBody::moved_body`] (or use one of the
    /// `swap_remove_*` helpers that do).
    pub fn swap_remove(&mut self, index: u32) -> Option<RemovedBody> {
        let i = index as usize;
        if i >= self.sims.len() {
            return None;
        }
        let sim = self.sims.swap_remove(i);
        let state = self.states.swap_remove(i);
        let moved_body = self.sims.get(i).map(|moved| moved.body);
        Some(RemovedBody {
            sim,
            state,
            moved_body,
        })
    }

    /// [`swap_remove`](Self::swap_remove), then calls `fix_moved(moved_body, index)` for the body
    /// that now lives at `index`, so the caller can update its back-reference wherever the cold
    /// records are stored.
    pub fn swap_remove_with(
        &mut self,
        index: u32,
        fix_moved: impl FnOnce(u32, u32),
    ) -> Option<RemovedBody> {
        let removed = self.swap_remove(index)?;
        if let Some(moved_body) = removed.moved_body {
            fix_moved(moved_body, index);
        }
        Some(removed)
    }

    /// The warm records, in local-index order.
    #[inline]
    pub fn sims(&self) -> &[BodySim] {
        &self.sims
    }

    /// The solver data of every body, in index order, for editing in place.
    #[inline]
    pub fn sims_mut(&mut self) -> &mut [BodySim] {
        &mut self.sims
    }

    /// The hot records, in local-index order.
    #[inline]
    pub fn states(&self) -> &[BodyState] {
        &self.states
    }

    /// The hot states of every body, in index order, for editing in place.
    #[inline]
    pub fn states_mut(&mut self) -> &mut [BodyState] {
        &mut self.states
    }

    /// Both tiers at once, mutably (e.g. integrate positions from states into sims).
    #[inline]
    pub fn sims_and_states_mut(&mut self) -> (&mut [BodySim], &mut [BodyState]) {
        (&mut self.sims, &mut self.states)
    }

    /// The body at `index`, both tiers.
    #[inline]
    pub fn get(&self, index: u32) -> Option<(&BodySim, &BodyState)> {
        let i = index as usize;
        Some((self.sims.get(i)?, self.states.get(i)?))
    }

    /// The body at `index`, both tiers, mutably.
    #[inline]
    pub fn get_mut(&mut self, index: u32) -> Option<(&mut BodySim, &mut BodyState)> {
        let i = index as usize;
        Some((self.sims.get_mut(i)?, self.states.get_mut(i)?))
    }

    /// Removes every body, keeping the allocations.
    pub fn clear(&mut self) {
        self.sims.clear();
        self.states.clear();
    }

    /// Makes room for `additional` more bodies in both tiers.
    pub fn reserve(&mut self, additional: usize) {
        self.sims.reserve(additional);
        self.states.reserve(additional);
    }
}

impl crate::snapshot::Snap for BodyArrays {
    fn put(&self, w: &mut crate::snapshot::Writer) {
        self.sims.put(w);
        self.states.put(w);
    }
    fn get(r: &mut crate::snapshot::Reader<'_>) -> Result<Self, crate::snapshot::SnapshotError> {
        let arrays = BodyArrays {
            sims: r.field("BodyArrays.sims")?,
            states: r.field("BodyArrays.states")?,
        };
        if arrays.sims.len() != arrays.states.len() {
            return Err(r.error("BodyArrays.states", "not one state per sim"));
        }
        Ok(arrays)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::IdPool;
    use crate::test_rng::XorShift64;

    /// A sim/state pair whose payload identifies `body`, so moved records can be recognised.
    fn records_for(body: u32) -> (BodySim, BodyState) {
        let sim = BodySim {
            body,
            mass: body as f32 + 1.0,
            ..BodySim::default()
        };
        let state = BodyState {
            angular_velocity: body as f32,
            ..BodyState::IDENTITY
        };
        (sim, state)
    }

    /// Every live body's back-reference points at its own records, and nothing else is stored.
    fn assert_back_references(arrays: &BodyArrays, locals: &[u32], live: &IdPool) {
        assert_eq!(arrays.len(), live.count());
        for index in live.iter() {
            let (sim, state) = arrays.get(locals[index as usize]).expect("in range");
            assert_eq!(sim.body, index);
            assert_eq!(sim.mass, index as f32 + 1.0);
            assert_eq!(state.angular_velocity, index as f32);
        }
    }

    #[test]
    fn swap_remove_reports_the_moved_body() {
        let mut arrays = BodyArrays::new();
        for body in [10, 11, 12, 13] {
            let (sim, state) = records_for(body);
            arrays.push(sim, state);
        }
        let removed = arrays.swap_remove(1).unwrap();
        assert_eq!(removed.sim.body, 11);
        assert_eq!(removed.state.angular_velocity, 11.0);
        assert_eq!(removed.moved_body, Some(13));
        assert_eq!(
            arrays.sims().iter().map(|s| s.body).collect::<Vec<_>>(),
            [10, 13, 12]
        );
        let last = arrays.swap_remove(2).unwrap();
        assert_eq!((last.sim.body, last.moved_body), (12, None));
        assert_eq!(arrays.swap_remove(2), None, "out of range is not a panic");
        assert_eq!(arrays.len(), 2);
    }

    #[test]
    fn random_add_remove_keeps_every_back_reference_correct() {
        let mut rng = XorShift64::new(0xB0D1E5);
        let mut arrays = BodyArrays::new();
        // By body index: where its records are.
        let mut locals: Vec<u32> = Vec::new();
        let mut live = IdPool::new();
        for _ in 0..10_000 {
            if live.count() == 0 || rng.below(5) < 3 {
                let index = live.alloc();
                if index as usize == locals.len() {
                    locals.push(NULL_INDEX);
                }
                let (sim, state) = records_for(index);
                locals[index as usize] = arrays.push(sim, state);
            } else {
                let victim = live.iter().nth(rng.below(live.count())).unwrap();
                let local = locals[victim as usize];
                let removed = arrays
                    .swap_remove_with(local, |moved, new_index| {
                        locals[moved as usize] = new_index;
                    })
                    .unwrap();
                assert_eq!(removed.sim.body, victim);
                locals[victim as usize] = NULL_INDEX;
                live.free(victim);
            }
            assert_back_references(&arrays, &locals, &live);
        }
    }

    #[test]
    fn state_flags_follow_the_type() {
        assert_eq!(BodyType::Dynamic.state_flags(), body_flags::DYNAMIC);
        assert_eq!(BodyType::Kinematic.state_flags(), body_flags::KINEMATIC);
        assert_eq!(BodyType::Static.state_flags(), 0);
    }
}
