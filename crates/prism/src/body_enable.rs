//! Disabling and enabling bodies: taking a body out of the simulation and bringing it back
//! intact.
//!
//! A disabled body is not stepped, collided, queried or solved, but keeps everything that
//! makes it what it is — pose, velocity, mass, shapes, joints, user data — in the **disabled
//! set** (solver set 1, which otherwise holds the parked contacts: `solver_set.rs`), as in
//! Box2D:
//!
//! ```text
//!   disable                                      enable
//!   its contacts destroyed (end events;          its sim back to the static or the awake
//!     the bodies they touched wake)                set, with the velocity it had
//!   its joints unlinked and parked in the        a proxy per shape, buffered: the next pair
//!     disabled set (their other bodies woken)      update finds what it touches
//!   its shapes' proxies destroyed                a dynamic body gets an island of its own
//!   a dynamic body leaves its island             each parked joint whose other body is
//!   its sim moves to the disabled set              enabled returns to the awake world
//! ```
//!
//! A joint is parked while *either* of its bodies is disabled: it is neither solved nor part
//! of an island, and a kinematic or dynamic body at its other end moves freely. A joint made
//! to a disabled body is parked at once.
//!
//! While disabled, a body can still be read and edited (pose, velocity, mass, type, shapes,
//! joints): the edits are kept for when it returns. A shape added to it gets no proxy until
//! then.

use crate::broadphase::{TreeKind, proxy_box};
use crate::error::PrismError;
use crate::solver_set::{AWAKE_SET, DISABLED_SET, STATIC_SET};
use crate::world::World;
use collision::compute_aabb;
use collision::tree::NULL_PROXY;
use core_soa::{BodyId, BodyType};

impl World {
    /// Whether the body takes part in the simulation (see the module notes).
    pub fn is_body_enabled(&self, id: BodyId) -> Result<bool, PrismError> {
        Ok(self.body(id)?.set_index != DISABLED_SET)
    }

    /// Takes the body out of the simulation (see the module notes). Nothing changes if it is
    /// disabled already.
    pub fn disable_body(&mut self, id: BodyId) -> Result<(), PrismError> {
        if !self.is_body_enabled(id)? {
            return Ok(());
        }
        let index = id.index();
        self.wake_body(index);
        self.destroy_body_contacts(index);
        self.hold_body_joints(index, DISABLED_SET);
        self.remove_body_proxies(index);
        self.remove_body_from_island(index);
        self.move_body_keeping_velocity(index, DISABLED_SET);
        Ok(())
    }

    /// Brings a disabled body back into the simulation where it was, with the velocity it had
    /// (see the module notes). Nothing changes if it is enabled.
    pub fn enable_body(&mut self, id: BodyId) -> Result<(), PrismError> {
        if self.is_body_enabled(id)? {
            return Ok(());
        }
        let index = id.index();
        let to = if self.body(id)?.body_type == BodyType::Static {
            STATIC_SET
        } else {
            AWAKE_SET
        };
        self.move_body_keeping_velocity(index, to);
        self.wake_body(index);
        self.create_body_proxies(index);
        self.create_island_for_body(index);
        let parked: Vec<u32> = self
            .joints_of_body(index)
            .into_iter()
            .filter(|&joint| self.joint_ends_enabled(joint))
            .collect();
        for &joint in &parked {
            if let Some(record) = self.joints.arena.get_by_index(joint) {
                let ends = [record.edges[0].body, record.edges[1].body];
                for body in ends {
                    self.wake_body(body);
                }
            }
        }
        self.release_joints(&parked);
        Ok(())
    }

    /// Whether neither body of joint `index` is disabled.
    fn joint_ends_enabled(&self, index: u32) -> bool {
        self.joints.arena.get_by_index(index).is_some_and(|joint| {
            joint
                .edges
                .iter()
                .all(|edge| !self.is_body_index_disabled(edge.body))
        })
    }

    /// Destroys the proxies of a body's shapes (a shape without a proxy holds `NULL_PROXY`).
    pub(crate) fn remove_body_proxies(&mut self, body_index: u32) {
        let Some(body) = self.bodies.get_by_index(body_index) else {
            return;
        };
        for &shape_id in &body.shapes {
            let Some(shape) = self.shapes.get_mut(shape_id) else {
                continue;
            };
            if shape.proxy != NULL_PROXY {
                let proxy = std::mem::replace(&mut shape.proxy, NULL_PROXY);
                self.broadphase
                    .destroy_proxy(shape.tree, proxy, shape_id.index());
            }
        }
    }

    /// Gives each shape of the body a proxy in the tree its body's type asks for, at its
    /// current box, buffered for the next pair update.
    pub(crate) fn create_body_proxies(&mut self, body_index: u32) {
        let Some(body) = self.bodies.get_by_index(body_index) else {
            return;
        };
        let tree = proxy_tree(body.body_type);
        let Some(transform) = self.body_sim(body_index).map(|sim| sim.transform) else {
            return;
        };
        for &shape_id in &body.shapes {
            let Some(shape) = self.shapes.get_mut(shape_id) else {
                continue;
            };
            let aabb = proxy_box(tree, compute_aabb(&shape.geometry, transform));
            let margin = shape.fat_margin(tree);
            let category_bits = shape.filter.category_bits;
            shape.tree = tree;
            shape.proxy =
                self.broadphase
                    .create_proxy(tree, aabb, margin, category_bits, shape_id.index());
            shape.fat_aabb = self.broadphase.tree(tree).fat_aabb(shape.proxy);
        }
        self.forget_fat_slack(body_index);
    }
}

/// The tree an enabled body's proxies go to.
pub(crate) fn proxy_tree(body_type: BodyType) -> TreeKind {
    if body_type == BodyType::Static {
        TreeKind::Static
    } else {
        TreeKind::Moving
    }
}
