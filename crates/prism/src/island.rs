//! Islands: which dynamic bodies are coupled, so that they may sleep and wake together.
//!
//! An island is a connected component of the graph whose vertices are the dynamic bodies and
//! whose edges are the touching contacts (and, once the world has them, the joints) between two
//! dynamic bodies. Static and kinematic bodies are not vertices: a box resting on the ground must
//! not join every other box on the ground into one island, and the solver never moves them, so
//! they cannot carry motion from one island to another.
//!
//! The bookkeeping itself — merge on link, deferred split, sleep records, sleeping set ids — is
//! the `island` crate's [`IslandGraph`] and [`SolverSets`]; this module is the World's side:
//!
//! ```text
//!   create a dynamic body            create_island_for_body    graph.add_body   (own island)
//!   contact begins touching          link_contact              wake both; graph.link (union)
//!   contact stops touching/destroyed unlink_contact            graph.unlink  (split candidate)
//!   destroy a dynamic body           remove_body_from_island   graph.remove_body
//! ```
//!
//! Bodies and contacts are named by their stable arena indices, so a body keeps its island
//! record while its sim moves between the awake set and a sleeping set (`solver_set.rs`), and a
//! contact keeps its link while its sim moves between the contact stores.
//!
//! Linking wakes: a contact that begins touching between an awake body and a sleeping one joins
//! the two islands, and a merged island must be awake (Box2D's rule: touching wakes). Unlinking
//! requires an awake island too; the callers guarantee it (a contact stops touching only in the
//! narrowphase, which sees awake contacts only, and a destroyed contact is brought back to the
//! awake store first).
//!
//! The state kept here, [`Islands`], also holds everything sleeping needs: the sleeping sets'
//! contact stores, the parked contacts, the cached body extents for the sleep timer, and the
//! body events. The `validate` feature checks it all against a brute-force recomputation
//! ([`World::validate_islands`]).

use crate::body::AWAKE_SET;
use crate::contact::ContactSim;
use crate::sleep::BodyEventBuffers;
use crate::world::World;
use collision::geometry::compute_aabb;
use core_soa::math::hypot;
use core_soa::{BodyType, Transform};
use island::{ConstraintKey, IslandGraph, IslandId, SolverSets};

/// The World's island and sleep state.
#[derive(Clone, Debug, Default)]
pub(crate) struct Islands {
    /// Every dynamic body's island, and the constraints linked in each.
    pub(crate) graph: IslandGraph,
    /// Which island sleeps in which sleeping solver set.
    pub(crate) sets: SolverSets,
    /// The contacts of each sleeping set, by `set index − FIRST_SLEEPING_SET` (see
    /// `solver_set.rs`): every contact of the island's bodies that was touching when it fell
    /// asleep, with its manifold and accumulated impulses.
    pub(crate) sleeping_contacts: Vec<Vec<ContactSim>>,
    /// Non-touching contacts none of whose bodies is awake (between a sleeping body and a static
    /// body, or two sleeping bodies): nobody needs them until one of their bodies wakes.
    pub(crate) parked_contacts: Vec<ContactSim>,
    /// By body arena index: the largest distance from the centre of mass to the body's shapes
    /// (m), which turns an angular speed into a point speed for the sleep timer.
    pub(crate) max_extents: Vec<f32>,
    /// Sleep and wake events.
    pub(crate) events: BodyEventBuffers,
}

impl World {
    /// Gives a new dynamic body an island of its own (no-op for other bodies).
    pub(crate) fn create_island_for_body(&mut self, body_index: u32) {
        let dynamic = self
            .bodies
            .get_by_index(body_index)
            .is_some_and(|body| body.body_type == BodyType::Dynamic);
        if dynamic {
            let added = self.islands.graph.add_body(body_index);
            debug_assert!(added.is_ok(), "island for body {body_index}: {added:?}");
        }
    }

    /// Takes a body whose contacts are all destroyed out of its island (no-op for bodies that
    /// have none). Its island is awake: destroying a body wakes it first.
    pub(crate) fn remove_body_from_island(&mut self, body_index: u32) {
        if self.islands.graph.island_of(body_index).is_some() {
            let removed = self.islands.graph.remove_body(body_index);
            debug_assert!(removed.is_ok(), "remove body {body_index}: {removed:?}");
        }
    }

    /// Links touching contact `contact_index` (arena index, in the awake store) into the
    /// islands: wakes any sleeping body it touches, and if both bodies are dynamic joins their
    /// islands. A no-op for a contact that is not touching or is already linked.
    pub(crate) fn link_contact(&mut self, contact_index: u32) {
        let Some(sim) = self.contact_sim(contact_index) else {
            return;
        };
        let (body_a, body_b, touching) = (sim.body_a, sim.body_b, sim.touching);
        if !touching {
            return;
        }
        self.wake_island_of(body_a);
        self.wake_island_of(body_b);
        let key = ConstraintKey::contact(contact_index);
        let graph = &mut self.islands.graph;
        let both_in_islands =
            graph.island_of(body_a).is_some() && graph.island_of(body_b).is_some();
        if both_in_islands && graph.island_of_constraint(key).is_none() {
            let linked = graph.link(key, body_a, body_b);
            debug_assert!(linked.is_ok(), "link contact {contact_index}: {linked:?}");
        }
    }

    /// Unlinks contact `contact_index` (arena index) if it is linked; its island becomes a
    /// split candidate. The island must be awake.
    pub(crate) fn unlink_contact(&mut self, contact_index: u32) {
        let key = ConstraintKey::contact(contact_index);
        if self.islands.graph.island_of_constraint(key).is_some() {
            let unlinked = self.islands.graph.unlink(key);
            debug_assert!(
                unlinked.is_ok(),
                "unlink contact {contact_index}: {unlinked:?}"
            );
        }
    }

    /// The island of a body, if it is dynamic (arena index).
    pub(crate) fn island_of_body(&self, body_index: u32) -> Option<IslandId> {
        self.islands.graph.island_of(body_index)
    }

    /// Recomputes a body's extent from its shapes (see [`Islands::max_extents`]). Each shape's
    /// box in the body frame bounds the shape, so the farthest box corner from the centre of
    /// mass bounds the farthest point: an upper bound, exact for boxes, at most √2 too large for
    /// a circle. Too large only makes the angular test stricter.
    pub(crate) fn update_body_extent(&mut self, body_index: u32) {
        let Some(body) = self.bodies.get_by_index(body_index) else {
            return;
        };
        let Some((sim, _)) = self.solver_sets[body.set_index as usize].get(body.local_index) else {
            return;
        };
        let center = sim.local_center;
        let extent = body
            .shapes
            .iter()
            .filter_map(|&id| self.shapes.get(id))
            .map(|shape| {
                let local = compute_aabb(&shape.geometry, Transform::IDENTITY);
                let far_x = (local.min.x - center.x)
                    .abs()
                    .max((local.max.x - center.x).abs());
                let far_y = (local.min.y - center.y)
                    .abs()
                    .max((local.max.y - center.y).abs());
                hypot(far_x, far_y)
            })
            .fold(0.0f32, f32::max);
        let extents = &mut self.islands.max_extents;
        if extents.len() <= body_index as usize {
            extents.resize(body_index as usize + 1, 0.0);
        }
        extents[body_index as usize] = extent;
    }

    /// A body's extent (0 for bodies never measured).
    pub(crate) fn body_extent(&self, body_index: u32) -> f32 {
        self.islands
            .max_extents
            .get(body_index as usize)
            .copied()
            .unwrap_or(0.0)
    }

    /// Whether body `body_index` is in the awake set.
    pub(crate) fn is_body_index_awake(&self, body_index: u32) -> bool {
        self.bodies
            .get_by_index(body_index)
            .is_some_and(|body| body.set_index == AWAKE_SET)
    }
}

#[cfg(feature = "validate")]
mod checks {
    //! The `validate` feature's island checks: the island graph against the touching contacts
    //! (the constraint graph, recomputed by brute force), and every body's solver set against
    //! its island's sleep state.

    use crate::body::{AWAKE_SET, STATIC_SET};
    use crate::world::World;
    use core_soa::BodyType;
    use island::ConstraintKey;

    impl World {
        /// Island membership equals the connected components of the touching contacts between
        /// dynamic bodies (a brute-force search in the island crate); every linked constraint's
        /// bodies are in its island; each body's solver set matches its island's state; the
        /// contact stores are consistent.
        pub(crate) fn validate_islands(&self) -> Result<(), String> {
            let dynamic: Vec<u32> = self
                .bodies
                .iter()
                .filter(|(_, body)| body.body_type == BodyType::Dynamic)
                .map(|(id, _)| id.index())
                .collect();
            let linked = self.touching_dynamic_pairs();
            self.islands
                .graph
                .validate(&dynamic, &linked)
                .map_err(|e| format!("islands: {e}"))?;
            self.islands
                .sets
                .validate(&self.islands.graph)
                .map_err(|e| format!("solver sets: {e}"))?;
            self.validate_body_sets()?;
            self.validate_contact_stores()
        }

        /// The edges of the island graph, recomputed: every touching contact between two dynamic
        /// bodies, wherever it is stored, and every joint between two dynamic bodies.
        fn touching_dynamic_pairs(&self) -> Vec<(ConstraintKey, u32, u32)> {
            let is_dynamic = |body: u32| {
                self.bodies
                    .get_by_index(body)
                    .is_some_and(|b| b.body_type == BodyType::Dynamic)
            };
            let contacts = self
                .all_contact_sims()
                .filter(|sim| sim.touching && is_dynamic(sim.body_a) && is_dynamic(sim.body_b))
                .map(|sim| (ConstraintKey::contact(sim.contact), sim.body_a, sim.body_b));
            let joints = self.joints.arena.iter().filter_map(|(id, joint)| {
                let (a, b) = (joint.base.body_a.index(), joint.base.body_b.index());
                (is_dynamic(a) && is_dynamic(b)).then_some((ConstraintKey::joint(id.index()), a, b))
            });
            contacts.chain(joints).collect()
        }

        /// Static bodies in the static set, kinematic bodies awake, dynamic bodies in the set of
        /// their island.
        fn validate_body_sets(&self) -> Result<(), String> {
            for (id, body) in self.bodies.iter() {
                let expected = match body.body_type {
                    BodyType::Static => STATIC_SET,
                    BodyType::Kinematic => AWAKE_SET,
                    BodyType::Dynamic => {
                        let island = self
                            .island_of_body(id.index())
                            .ok_or(format!("dynamic body {id:?} has no island"))?;
                        match self.islands.sets.sleeping_set_of(island) {
                            Some(set) => crate::solver_set::world_set_index(set),
                            None => AWAKE_SET,
                        }
                    }
                };
                if body.set_index != expected {
                    return Err(format!(
                        "body {id:?} is in set {} but belongs in {expected}",
                        body.set_index
                    ));
                }
            }
            for (set, island) in self.islands.sets.sleeping_sets() {
                let index = crate::solver_set::world_set_index(set) as usize;
                let held = self.solver_sets.get(index).map_or(0, |bodies| bodies.len());
                let members = self.islands.graph.bodies(island).map_or(0, <[u32]>::len);
                if held != members {
                    return Err(format!(
                        "{set:?} holds {held} bodies, its island {island:?} has {members}"
                    ));
                }
            }
            Ok(())
        }
    }
}
