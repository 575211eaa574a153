//! Chains: polylines of one-sided segments for static terrain and containers.
//!
//! A chain is built from a list of points, either **open** (`n ≥ 2` points give `n − 1` links)
//! or **closed** (`n ≥ 3` points give `n` links, the last one joining the last point back to the
//! first). Each link is a [`ChainSegment`] that remembers its neighbours' far vertices as
//! *ghosts*: `ghost1` is the point before `point1`, `ghost2` the point after `point2`. The
//! collision code uses the ghosts to decide whether a contact at a shared vertex belongs to
//! this link or to its neighbour, so a box sliding along a flat chain does not catch on the
//! joints between links (the classic "internal edge" problem).
//!
//! **Sidedness.** Links are one-sided: they collide only on their *right* side, whose outward
//! normal is the right perpendicular of `point1 → point2`, `(d.y, −d.x)/|d|`
//! ([`ChainSegment::normal`]). Walking along the chain, solid matter is on the left and free
//! space on the right. Hence:
//!
//! - a closed loop listed **clockwise** keeps bodies *inside* it (the right of each link faces
//!   the centre) — this is how a container such as the spinner scene's drum is built;
//! - a closed loop listed **counter-clockwise** is a solid island that keeps bodies *outside*;
//! - ground listed from left to right (increasing x) has its free side facing **down**, so
//!   terrain with bodies resting on top is listed from right to left.
//!
//! **Open ends.** At the two free ends of an open chain there is no neighbour and no join to
//! smooth, so the ghost continues the link's own direction by one link length
//! (`ghost1 = point1 − d`, `ghost2 = point2 + d`). The end vertex then looks like a flat
//! continuation rather than a corner, so the link keeps its own face normal right up to its
//! end, like the end of a plain one-sided segment.
//!
//! Links shorter than the linear slop are rejected (their normal would be noise), as are
//! non-finite points. A closed chain must not repeat its first point at the end: that would be
//! a zero-length link and is reported as such.

use core::fmt;

use core_soa::Vec2;
use core_soa::math::right_perp;

use crate::manifold::LINEAR_SLOP;
use crate::shapes::{ChainSegment, Segment};

/// Why a list of points does not make a chain.
#[derive(Debug, Clone, PartialEq)]
pub enum ChainError {
    /// Too few points: `min` is 2 for an open chain and 3 for a closed one.
    TooFewPoints {
        /// How many points were given.
        count: usize,
        /// The fewest points this kind of chain needs.
        min: usize,
    },
    /// The point at `index` has a NaN or infinite coordinate.
    NonFinite {
        /// Index of the offending point in the list given.
        index: usize,
    },
    /// The link starting at point `index` is shorter than the linear slop.
    DegenerateSegment {
        /// Index of the link's first point in the list given.
        index: usize,
    },
}

impl fmt::Display for ChainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChainError::TooFewPoints { count, min } => {
                write!(f, "chain needs at least {min} points, got {count}")
            }
            ChainError::NonFinite { index } => {
                write!(f, "chain point {index} has a non-finite coordinate")
            }
            ChainError::DegenerateSegment { index } => write!(
                f,
                "chain link {index} (from point {index} to the next) is shorter than \
                 {LINEAR_SLOP} m"
            ),
        }
    }
}

impl std::error::Error for ChainError {}

impl ChainSegment {
    /// The unit normal of the colliding (right) side: the right perpendicular of
    /// `point1 → point2`. Zero for a zero-length segment (which [`make_chain`] never builds).
    pub fn normal(&self) -> Vec2 {
        right_perp(self.segment.point2 - self.segment.point1).normalize_or_zero()
    }
}

/// Builds the links of a chain through `points` (see the module notes for sidedness, ghosts
/// and the open-end rule). Every link carries `chain_id`.
pub fn make_chain(
    points: &[Vec2],
    closed: bool,
    chain_id: u32,
) -> Result<Vec<ChainSegment>, ChainError> {
    let min = if closed { 3 } else { 2 };
    if points.len() < min {
        return Err(ChainError::TooFewPoints {
            count: points.len(),
            min,
        });
    }
    if let Some(index) = points.iter().position(|p| !p.is_finite()) {
        return Err(ChainError::NonFinite { index });
    }
    let n = points.len();
    let link_count = if closed { n } else { n - 1 };
    let slop_squared = LINEAR_SLOP * LINEAR_SLOP;
    if let Some(index) =
        (0..link_count).find(|&i| points[i].distance_squared(points[(i + 1) % n]) < slop_squared)
    {
        return Err(ChainError::DegenerateSegment { index });
    }
    let links = (0..link_count)
        .map(|i| {
            let point1 = points[i];
            let point2 = points[(i + 1) % n];
            let direction = point2 - point1;
            let (ghost1, ghost2) = if closed {
                (points[(i + n - 1) % n], points[(i + 2) % n])
            } else {
                let ghost1 = if i == 0 {
                    point1 - direction
                } else {
                    points[i - 1]
                };
                let ghost2 = if i + 2 < n {
                    points[i + 2]
                } else {
                    point2 + direction
                };
                (ghost1, ghost2)
            };
            ChainSegment {
                ghost1,
                segment: Segment { point1, point2 },
                ghost2,
                chain_id,
            }
        })
        .collect();
    Ok(links)
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::f32::consts::TAU;

    #[test]
    fn closed_square_wraps_ghosts() {
        let p = [
            Vec2::new(0.0, 0.0),
            Vec2::new(0.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 0.0),
        ];
        let links = make_chain(&p, true, 7).unwrap();
        assert_eq!(links.len(), 4);
        for (i, link) in links.iter().enumerate() {
            assert_eq!(link.segment.point1, p[i]);
            assert_eq!(link.segment.point2, p[(i + 1) % 4]);
            assert_eq!(link.ghost1, p[(i + 3) % 4]);
            assert_eq!(link.ghost2, p[(i + 2) % 4]);
            assert_eq!(link.chain_id, 7);
        }
        // Listed clockwise, so every normal points into the square.
        let centre = Vec2::splat(0.5);
        for link in &links {
            let midpoint = 0.5 * (link.segment.point1 + link.segment.point2);
            let inward = (centre - midpoint).normalize();
            assert!(
                (link.normal() - inward).length() < 1e-6,
                "{:?}",
                link.normal()
            );
        }
    }

    #[test]
    fn clockwise_ring_holds_bodies_inside() {
        // Points rotating by −2π/n, as the spinner's container.
        let n = 360;
        let radius = 10.0;
        let points: Vec<Vec2> = (0..n)
            .map(|i| {
                let angle = -(i as f32) * TAU / n as f32;
                radius * Vec2::new(angle.cos(), angle.sin())
            })
            .collect();
        let links = make_chain(&points, true, 0).unwrap();
        assert_eq!(links.len(), n);
        for link in &links {
            let midpoint = 0.5 * (link.segment.point1 + link.segment.point2);
            // The normal points towards the centre, to within rounding.
            assert!((link.normal() + midpoint.normalize()).length() < 1e-4);
        }
    }

    #[test]
    fn open_chain_extends_its_ends() {
        let p = [
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(3.0, 1.0),
        ];
        let links = make_chain(&p, false, 0).unwrap();
        assert_eq!(links.len(), 2);
        assert_eq!(links[0].ghost1, Vec2::new(-2.0, 0.0));
        assert_eq!(links[0].ghost2, Vec2::new(3.0, 1.0));
        assert_eq!(links[1].ghost1, Vec2::new(0.0, 0.0));
        assert_eq!(links[1].ghost2, Vec2::new(4.0, 2.0));
        // Listed left to right: the free side of the first link faces down.
        assert_eq!(links[0].normal(), Vec2::new(0.0, -1.0));
        let two = make_chain(&p[..2], false, 3).unwrap();
        assert_eq!(two.len(), 1);
        assert_eq!(
            (two[0].ghost1, two[0].ghost2),
            (Vec2::new(-2.0, 0.0), Vec2::new(4.0, 0.0))
        );
    }

    #[test]
    fn bad_input_is_reported() {
        let p = [Vec2::ZERO, Vec2::X];
        assert_eq!(
            make_chain(&p, true, 0),
            Err(ChainError::TooFewPoints { count: 2, min: 3 })
        );
        assert_eq!(
            make_chain(&p[..1], false, 0),
            Err(ChainError::TooFewPoints { count: 1, min: 2 })
        );
        let nan = [Vec2::ZERO, Vec2::X, Vec2::new(f32::NAN, 0.0)];
        assert_eq!(
            make_chain(&nan, false, 0),
            Err(ChainError::NonFinite { index: 2 })
        );
        let repeated = [Vec2::ZERO, Vec2::X, Vec2::Y, Vec2::new(0.0, 0.001)];
        assert_eq!(
            make_chain(&repeated, true, 0),
            Err(ChainError::DegenerateSegment { index: 3 })
        );
        assert!(make_chain(&repeated, false, 0).is_ok());
        let message = ChainError::TooFewPoints { count: 1, min: 2 }.to_string();
        assert!(message.contains('1') && message.contains('2'), "{message}");
    }
}
