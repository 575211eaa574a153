//! A synthetic contact scene for tests and benchmarks: a wall of unit boxes on the ground.
//!
//! [`BoxGrid`] stacks `rows` rows of `columns` unit boxes (1 kg, 1 m × 1 m, `I = 1/6`), box
//! `(row, column)` centred at `(column·(1 + gap), row + ½)`. Every box touches the box below
//! (or the static ground, for the bottom row) and its right neighbour:
//!
//! ```text
//!   ┌──┐┌──┐┌──┐      contacts per box: below (normal = up axis of the lower box),
//!   ├──┤├──┤├──┤                        right (normal = right axis of the left box),
//!   ├──┤├──┤├──┤                        ground for the bottom row (normal +y)
//!   ▀▀▀▀▀▀▀▀▀▀▀▀
//! ```
//!
//! so a 100 × 50 wall has 5,000 boxes and 9,950 two-point contacts, the size of Box2D's
//! `large_pyramid` benchmark. [`BoxGrid::collide`] recomputes every manifold from the current
//! poses, exactly for near-aligned boxes (the lower box's face against the upper box's corners,
//! the separation measured along the lower box's axis), and carries the accumulated impulses
//! over by point index, as the contact cache does by feature id. [`BoxGrid::color`] orders the
//! contacts by a greedy first-fit colouring and records the [`ColorRanges`] the solver's input
//! is cut from ([`BoxGrid::step_input`]).

use crate::constraints::{ColorRanges, StepConstraints};
use crate::{AwakeBodies, SolverContact};
use collision::{Manifold, ManifoldPoint};
use core_soa::{BodySim, BodyState, NULL_BODY, Rot, Transform, Vec2, body_flags};

/// Half the side of a box (m).
const HALF: f32 = 0.5;
/// The most colours a colouring can use (bits of a `u32` mask per body).
pub const MAX_GRID_COLORS: usize = 32;

/// Which faces a contact joins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Touch {
    /// The ground's top face under body `b`'s bottom corners.
    Ground,
    /// Body `a`'s top face under body `b`'s bottom corners.
    Below,
    /// Body `a`'s right face against body `b`'s left corners.
    Right,
}

/// A wall of boxes with its contacts, ready to solve.
#[derive(Clone, Debug)]
pub struct BoxGrid {
    /// Boxes per row of the wall.
    pub columns: usize,
    /// Hot state of each box, in body order.
    pub states: Vec<BodyState>,
    /// Solver data of each box, parallel to `states`.
    pub sims: Vec<BodySim>,
    /// The contacts, in colour order after [`BoxGrid::color`].
    pub contacts: Vec<SolverContact>,
    /// Parallel to `contacts`.
    touches: Vec<Touch>,
    layout: ColorRanges,
}

impl BoxGrid {
    /// A wall of `columns × rows` boxes, `gap` metres apart side by side, resting on the
    /// ground, with its manifolds computed and every contact in the overflow set.
    pub fn new(columns: usize, rows: usize, gap: f32) -> BoxGrid {
        let mut grid = BoxGrid {
            columns,
            states: Vec::new(),
            sims: Vec::new(),
            contacts: Vec::new(),
            touches: Vec::new(),
            layout: ColorRanges::default(),
        };
        for row in 0..rows {
            for column in 0..columns {
                let center = Vec2::new(column as f32 * (1.0 + gap), HALF + row as f32);
                grid.add_box(center);
                let this = grid.index(row, column);
                if row == 0 {
                    grid.add_contact(Touch::Ground, NULL_BODY, this);
                } else {
                    grid.add_contact(Touch::Below, grid.index(row - 1, column), this);
                }
                if column > 0 {
                    grid.add_contact(Touch::Right, this - 1, this);
                }
            }
        }
        grid.layout = ColorRanges::overflow_only(grid.contacts.len());
        grid.collide();
        grid
    }

    fn index(&self, row: usize, column: usize) -> u32 {
        (row * self.columns + column) as u32
    }

    fn add_box(&mut self, center: Vec2) {
        self.states.push(BodyState {
            flags: body_flags::DYNAMIC,
            ..BodyState::IDENTITY
        });
        self.sims.push(BodySim {
            transform: Transform::new(center, Rot::IDENTITY),
            center,
            mass: 1.0,
            inv_mass: 1.0,
            inertia: 1.0 / 6.0,
            inv_inertia: 6.0,
            ..BodySim::default()
        });
    }

    fn add_contact(&mut self, touch: Touch, a: u32, b: u32) {
        let (inv_mass_a, inv_inertia_a) = if a == NULL_BODY {
            (0.0, 0.0)
        } else {
            (1.0, 6.0)
        };
        self.contacts.push(SolverContact {
            body_a: a,
            body_b: b,
            inv_mass_a,
            inv_inertia_a,
            inv_mass_b: 1.0,
            inv_inertia_b: 6.0,
            friction: 0.6,
            restitution: 0.0,
            manifold: Manifold::default(),
        });
        self.touches.push(touch);
    }

    /// The colour layout of `contacts`.
    pub fn layout(&self) -> &ColorRanges {
        &self.layout
    }

    /// The awake bodies and the contacts cut into colours, for one solver step.
    pub fn step_input(&mut self) -> (AwakeBodies<'_>, StepConstraints<'_, SolverContact>) {
        let bodies = AwakeBodies {
            states: &mut self.states,
            sims: &mut self.sims,
        };
        let no_joints = (&ColorRanges::default(), &mut [][..]);
        let constraints = ColorRanges::constraints((&self.layout, &mut self.contacts), no_joints);
        (bodies, constraints)
    }

    /// The awake bodies, for the solver.
    pub fn bodies(&mut self) -> AwakeBodies<'_> {
        AwakeBodies {
            states: &mut self.states,
            sims: &mut self.sims,
        }
    }

    /// Orders the contacts by a greedy first-fit colouring with at most `max_colors` colours
    /// (capped at `MAX_GRID_COLORS`); contacts that find no colour go to the overflow set at
    /// the end. Within a colour the contacts keep their order.
    pub fn color(&mut self, max_colors: usize) {
        let max_colors = max_colors.min(MAX_GRID_COLORS);
        let mut held = vec![0u32; self.states.len()];
        let colors: Vec<usize> = self
            .contacts
            .iter()
            .map(|c| {
                let bodies = [c.body_a, c.body_b].map(|b| held.get(b as usize).map(|_| b));
                let used = bodies
                    .iter()
                    .flatten()
                    .fold(0, |m, &b| m | held[b as usize]);
                let color = (!used).trailing_zeros() as usize;
                if color >= max_colors {
                    return max_colors;
                }
                for b in bodies.into_iter().flatten() {
                    held[b as usize] |= 1 << color;
                }
                color
            })
            .collect();
        self.order_by_colors(&colors, max_colors);
    }

    /// Orders the contacts by `colors[i]`, the colour of contact `i` (`color_count` or more:
    /// overflow), keeping their order within a colour, and sets the layout to match. Trailing
    /// empty colours are dropped from the layout.
    pub fn order_by_colors(&mut self, colors: &[usize], color_count: usize) {
        assert_eq!(colors.len(), self.contacts.len(), "one colour per contact");
        let key = |i: usize| colors[i].min(color_count);
        let mut order: Vec<usize> = (0..self.contacts.len()).collect();
        order.sort_by_key(|&i| key(i));
        self.contacts = order.iter().map(|&i| self.contacts[i]).collect();
        self.touches = order.iter().map(|&i| self.touches[i]).collect();
        let mut color_ranges = Vec::new();
        let mut start = 0;
        for color in 0..color_count {
            let count = (0..colors.len()).filter(|&i| key(i) == color).count();
            color_ranges.push(start..start + count);
            start += count;
        }
        let used = color_ranges.iter().rposition(|r| !r.is_empty());
        color_ranges.truncate(used.map_or(0, |last| last + 1));
        self.layout = ColorRanges {
            colors: color_ranges,
            overflow: start..self.contacts.len(),
        };
    }

    /// Recomputes every manifold from the current poses, keeping the impulses.
    pub fn collide(&mut self) {
        for (contact, &touch) in self.contacts.iter_mut().zip(&self.touches) {
            let a = (contact.body_a != NULL_BODY).then(|| &self.sims[contact.body_a as usize]);
            let b = &self.sims[contact.body_b as usize];
            contact.manifold = box_manifold(touch, a, b, &contact.manifold);
        }
    }
}

/// The manifold of `touch` between `a` (or the ground) and `b`, impulses carried over from
/// `previous` point by point.
fn box_manifold(touch: Touch, a: Option<&BodySim>, b: &BodySim, previous: &Manifold) -> Manifold {
    let (axis, corners) = match touch {
        Touch::Ground | Touch::Below => {
            (Vec2::Y, [Vec2::new(-HALF, -HALF), Vec2::new(HALF, -HALF)])
        }
        Touch::Right => (Vec2::X, [Vec2::new(-HALF, -HALF), Vec2::new(-HALF, HALF)]),
    };
    let (normal, face_point, center_a) = match a {
        Some(a) => {
            let normal = a.transform.q.rotate(axis);
            (normal, a.center + HALF * normal, a.center)
        }
        None => (Vec2::Y, Vec2::ZERO, Vec2::ZERO),
    };
    let mut manifold = Manifold {
        normal,
        point_count: 2,
        ..Default::default()
    };
    for (i, local) in corners.into_iter().enumerate() {
        let corner = b.center + b.transform.q.rotate(local);
        let separation = normal.dot(corner - face_point);
        let point = corner - 0.5 * separation * normal;
        manifold.points[i] = ManifoldPoint {
            point,
            anchor_a: point - center_a,
            anchor_b: point - b.center,
            separation,
            id: i as u16,
            normal_impulse: previous.points[i].normal_impulse,
            tangent_impulse: previous.points[i].tangent_impulse,
            persisted: previous.point_count == 2,
            ..Default::default()
        };
    }
    manifold
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::ColorChecker;

    #[test]
    fn wall_has_the_expected_contacts_and_geometry() {
        let grid = BoxGrid::new(100, 50, 0.0);
        assert_eq!(grid.states.len(), 5000);
        // Right neighbours 99·50, below 100·49, ground 100.
        assert_eq!(grid.contacts.len(), 99 * 50 + 100 * 49 + 100);
        for c in &grid.contacts {
            assert_eq!(c.manifold.point_count, 2);
            for p in c.manifold.points() {
                assert!(p.separation.abs() < 1e-5, "resting boxes touch exactly");
                assert!((p.anchor_b.length() - HALF * 2f32.sqrt()).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn greedy_coloring_is_valid_and_small() {
        let mut grid = BoxGrid::new(20, 10, 0.0);
        grid.color(24);
        let layout = grid.layout().clone();
        assert!(layout.overflow.is_empty());
        // Each box has at most four neighbours: first-fit needs at most five colours.
        assert!((3..=5).contains(&layout.colors_in_use()), "{layout:?}");
        let mut checker = ColorChecker::default();
        let states = grid.states.clone();
        let (_, constraints) = grid.step_input();
        assert_eq!(checker.check(&constraints, &states), Ok(()));
        // Two colours cannot hold a box's four contacts: the rest overflow.
        grid.color(2);
        assert!(!grid.layout().overflow.is_empty());
        assert_eq!(grid.layout().colors.len(), 2);
        let (_, constraints) = grid.step_input();
        assert_eq!(checker.check(&constraints, &states), Ok(()));
    }
}
