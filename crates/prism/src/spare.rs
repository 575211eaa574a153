//! Giving back memory after a burst.
//!
//! The world's stores are `Vec`s that grow as contacts begin and bodies wake, and a `Vec` keeps
//! its largest capacity: a smash whose contacts peak in its first second would hold that
//! peak's bytes for the rest of the run. At the end of each step, a quiet moment when no
//! record is borrowed, [`World::release_spare_capacity`] cuts every store that changes from
//! step to step — the awake and disabled sets, the graph's colours and overflow set, the
//! broadphase's pair set — to twice its length once it uses less than a quarter of its room
//! (`core_soa::spare` for the rule and why its cost is amortised). The solver cuts its own
//! scratch the same way at the end of its step. A sleeping island's set is cut to its exact
//! size when it is filled (`solver_set.rs`): it does not change until it wakes, when it is
//! emptied and freed.
//!
//! Capacity is never read by anything that computes a result, and the pair set is only ever
//! asked for membership, never iterated, so none of this can change a step's outcome.

use crate::solver_set::{AWAKE_SET, DISABLED_SET};
use crate::world::World;
use core_soa::release_spare;
use core_soa::spare::is_sparse;

impl World {
    /// Cuts the spare room of the stores that change from step to step (see the module notes).
    pub(crate) fn release_spare_capacity(&mut self) {
        for set in [AWAKE_SET, DISABLED_SET] {
            if let Some(store) = self.solver_sets.get_mut(set as usize) {
                store.release_spare();
            }
        }
        for (contacts, joints) in self.graph.colors_mut() {
            release_spare(contacts);
            release_spare(joints);
        }
        let events = &mut self.events.current;
        release_spare(&mut events.begin);
        release_spare(&mut events.end);
        release_spare(&mut events.hit);
        let pairs = &mut self.broadphase.pair_set;
        if is_sparse(pairs.len(), pairs.capacity(), size_of::<u64>()) {
            pairs.shrink_to(2 * pairs.len());
        }
    }
}
