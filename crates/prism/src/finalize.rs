//! Step phase 5: after the solver has written the new transforms, every moving body's shapes
//! get new tight boxes. A proxy whose tight box has left its fat box is re-inserted into the
//! moving tree with a fresh fat box and buffered, so the next step's pair update looks for what
//! it now overlaps; a box still inside its fat box costs nothing more (that slack is what the
//! 0.1 m margin buys).

use crate::body::AWAKE_SET;
use crate::profile::zone;
use crate::world::World;

impl World {
    /// New shape boxes and proxies for every awake body.
    pub(crate) fn finalize_bodies(&mut self) {
        zone!("finalize bodies");
        let awake = self.solver_sets[AWAKE_SET as usize].len() as u32;
        for local_index in 0..awake {
            let body = self.solver_sets[AWAKE_SET as usize].sims()[local_index as usize].body;
            self.refresh_body_shapes(body, false);
        }
    }
}
