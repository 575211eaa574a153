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

use crate::profile::zone;
use crate::solver_set::{AWAKE_SET, DISABLED_SET};
use crate::world::World;
use core_soa::release_spare;
use core_soa::spare::is_sparse;

impl World {
    /// Cuts the spare room of the stores that change from step to step (see the module notes).
    pub(crate) fn release_spare_capacity(&mut self) {
        zone!("release_spare");
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

#[cfg(test)]
mod tests {
    use crate::contact::ContactSim;
    use crate::solver_set::{AWAKE_SET, FIRST_SLEEPING_SET};
    use crate::{BodyDef, BodyId, ShapeDef, Vec2, World, WorldDef, make_box};
    use core_soa::spare::is_sparse;

    const BOXES: usize = 1_000;

    /// A static ground and `BOXES` unit boxes resting on it 2 m apart: one touching contact
    /// each, no box touching another. Returns the world and the boxes.
    fn boxes_on_ground(enable_sleep: bool) -> (World, Vec<BodyId>) {
        let mut world = World::new(WorldDef {
            enable_sleep,
            ..WorldDef::default()
        })
        .unwrap();
        let ground = world.create_body(&BodyDef::fixed_at(Vec2::ZERO)).unwrap();
        let slab = make_box(1_100.0, 0.5).unwrap();
        world
            .create_polygon_shape(ground, &ShapeDef::default(), &slab)
            .unwrap();
        let square = make_box(0.5, 0.5).unwrap();
        let boxes = (0..BOXES)
            .map(|k| {
                let at = Vec2::new(2.0 * k as f32 - 1_000.0, 1.0);
                let body = world.create_body(&BodyDef::dynamic_at(at)).unwrap();
                world
                    .create_polygon_shape(body, &ShapeDef::default(), &square)
                    .unwrap();
                body
            })
            .collect();
        (world, boxes)
    }

    /// The colours' contact stores: (records, room) summed, and whether any is sparse.
    fn colour_stores(world: &mut World) -> (usize, usize, bool) {
        let (mut len, mut capacity, mut sparse) = (0, 0, false);
        for (contacts, _) in world.graph.colors_mut() {
            len += contacts.len();
            capacity += contacts.capacity();
            sparse |= is_sparse(contacts.len(), contacts.capacity(), size_of::<ContactSim>());
        }
        (len, capacity, sparse)
    }

    /// After most of a pile's contacts end, the colours, the begin-event list (which held a
    /// thousand events after the first step) and the awake set give their room back: no store
    /// is left sparse, and the colours hold less than a quarter of their peak room.
    #[test]
    fn a_burst_of_contacts_gives_its_room_back() {
        let (mut world, boxes) = boxes_on_ground(false);
        world.step(1.0 / 60.0, 4).unwrap();
        assert_eq!(world.contact_events().begin.len(), BOXES);
        let (touching, peak_room, _) = colour_stores(&mut world);
        assert_eq!(touching, BOXES);
        for &body in &boxes[50..] {
            world.destroy_body(body).unwrap();
        }
        world.step(1.0 / 60.0, 4).unwrap();
        let (touching, room, sparse) = colour_stores(&mut world);
        assert_eq!(touching, 50);
        assert!(!sparse, "a colour's store is still sparse");
        assert!(4 * room < peak_room, "room {room} of peak {peak_room}");
        let begin = &world.contact_events().begin;
        assert!(begin.is_empty() && begin.capacity() < BOXES / 4);
        let awake = &world.solver_sets[AWAKE_SET as usize];
        let size = size_of::<ContactSim>();
        assert!(!is_sparse(
            awake.contacts.len(),
            awake.contacts.capacity(),
            size
        ));
    }

    /// Each box falls asleep as its own island (the static ground links nothing), and each
    /// sleeping set holds exactly its one body's contact, with no room to spare.
    #[test]
    fn a_sleeping_set_is_cut_to_its_size() {
        let (mut world, _) = boxes_on_ground(true);
        for _ in 0..120 {
            world.step(1.0 / 60.0, 4).unwrap();
        }
        let sleeping = &world.solver_sets[FIRST_SLEEPING_SET as usize..];
        let filled: Vec<_> = sleeping
            .iter()
            .filter(|set| !set.bodies.is_empty())
            .collect();
        assert_eq!(filled.len(), BOXES);
        for set in filled {
            assert_eq!(set.contacts.len(), 1);
            assert_eq!(set.contacts.capacity(), 1);
        }
    }
}
