//! Shape proxies: any convex shape as a handful of points and a radius.
//!
//! The distance, shape-cast, overlap and time-of-impact routines never look at a shape's kind.
//! They only ask one question of it, "which of your points lies farthest along this
//! direction?" (the *support* point), and every shape Prism has answers it from at most
//! [`MAX_POLYGON_VERTICES`] points:
//!
//! ```text
//!   circle         1 point  (centre)            + radius
//!   capsule        2 points (core segment)      + radius
//!   polygon        its vertices                 + its rounding radius
//!   segment        2 points                     + 0
//!   chain segment  its own 2 points (no ghosts) + 0
//! ```
//!
//! A proxy stands for the convex hull of its points grown by `radius` (the Minkowski sum of
//! the hull and a disk). The points need not be in any order and need not be the hull's
//! vertices: a point inside the hull is simply never the support point. The routines work
//! on the *core* (the hull) and add the radii at the end, which keeps the iteration on finite
//! point sets where it terminates exactly.
//!
//! A proxy lives on the stack (eight points, a count and a radius: 72 bytes), so building one
//! per query costs no allocation. A chain segment's proxy is its bare segment: one-sidedness
//! is a property of how a query treats the segment, not of its geometry, and the shape-level
//! entry points ([`crate::shape_cast::shape_cast`], [`crate::toi::shape_time_of_impact`])
//! apply it.

use core::fmt;

use core_soa::{Transform, Vec2};

use crate::shapes::{MAX_POLYGON_VERTICES, Shape};

/// A convex shape as at most [`MAX_POLYGON_VERTICES`] points and a radius: the convex hull of
/// the points grown by the radius. Built by [`ShapeProxy::new`] (checked) or
/// [`ShapeProxy::from_shape`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeProxy {
    points: [Vec2; MAX_POLYGON_VERTICES],
    count: usize,
    radius: f32,
}

/// Why a list of points and a radius does not make a [`ShapeProxy`].
#[derive(Clone, Debug, PartialEq)]
pub enum ProxyError {
    /// `points` is empty.
    NoPoints,
    /// `points` has more than [`MAX_POLYGON_VERTICES`] entries.
    TooManyPoints {
        /// How many points were given.
        count: usize,
    },
    /// `points[index]` has a NaN or infinite coordinate.
    NonFinitePoint {
        /// The position of the bad point in `points`.
        index: usize,
    },
    /// `radius` is negative, NaN or infinite.
    BadRadius {
        /// The radius given.
        radius: f32,
    },
}

impl fmt::Display for ProxyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProxyError::NoPoints => write!(f, "shape proxy points: at least one point is needed"),
            ProxyError::TooManyPoints { count } => write!(
                f,
                "shape proxy points: {count} given, at most {MAX_POLYGON_VERTICES} allowed"
            ),
            ProxyError::NonFinitePoint { index } => {
                write!(f, "shape proxy points[{index}] has a non-finite coordinate")
            }
            ProxyError::BadRadius { radius } => write!(
                f,
                "shape proxy radius is {radius}; it must be finite and non-negative"
            ),
        }
    }
}

impl std::error::Error for ProxyError {}

impl ShapeProxy {
    /// The proxy of the convex hull of `points` grown by `radius`. Errors name the first bad
    /// field: no points, more than [`MAX_POLYGON_VERTICES`], a non-finite point, or a radius
    /// that is negative or not finite.
    pub fn new(points: &[Vec2], radius: f32) -> Result<ShapeProxy, ProxyError> {
        if points.is_empty() {
            return Err(ProxyError::NoPoints);
        }
        if points.len() > MAX_POLYGON_VERTICES {
            return Err(ProxyError::TooManyPoints {
                count: points.len(),
            });
        }
        if let Some(index) = points.iter().position(|p| !p.is_finite()) {
            return Err(ProxyError::NonFinitePoint { index });
        }
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(ProxyError::BadRadius { radius });
        }
        Ok(ShapeProxy::from_points(points, radius))
    }

    /// The proxy of `shape` in the shape's own (body-local) frame (see the module table).
    ///
    /// Shapes come from validated constructors; a hand-built polygon whose `count` lies
    /// outside `1..=MAX_POLYGON_VERTICES` is read as its first `count` vertices clamped to
    /// that range, so this never indexes out of bounds.
    pub fn from_shape(shape: &Shape) -> ShapeProxy {
        match shape {
            Shape::Circle(circle) => ShapeProxy::from_points(&[circle.center], circle.radius),
            Shape::Capsule(capsule) => {
                ShapeProxy::from_points(&[capsule.center1, capsule.center2], capsule.radius)
            }
            Shape::Segment(segment) => {
                ShapeProxy::from_points(&[segment.point1, segment.point2], 0.0)
            }
            Shape::ChainSegment(chain) => {
                ShapeProxy::from_points(&[chain.segment.point1, chain.segment.point2], 0.0)
            }
            Shape::Polygon(polygon) => {
                let count = polygon.count.clamp(1, MAX_POLYGON_VERTICES);
                ShapeProxy::from_points(&polygon.vertices[..count], polygon.radius)
            }
        }
    }

    /// The proxy of `shape` placed by `xf` (its points in world coordinates).
    pub fn from_placed_shape(shape: &Shape, xf: Transform) -> ShapeProxy {
        ShapeProxy::from_shape(shape).transformed(xf)
    }

    /// This proxy with every point mapped by `xf` (the radius is unchanged).
    pub fn transformed(&self, xf: Transform) -> ShapeProxy {
        let mut moved = *self;
        for point in &mut moved.points[..self.count] {
            *point = xf.apply(*point);
        }
        moved
    }

    /// This proxy with every point mapped by the inverse of `xf` (world to `xf`'s frame).
    pub fn inv_transformed(&self, xf: Transform) -> ShapeProxy {
        let mut moved = *self;
        for point in &mut moved.points[..self.count] {
            *point = xf.inv_apply(*point);
        }
        moved
    }

    /// The points in use (never empty).
    #[inline]
    pub fn points(&self) -> &[Vec2] {
        &self.points[..self.count]
    }

    /// The radius the hull is grown by.
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The mean of the points: inside the core, and the centre of a circle, capsule or
    /// centrally symmetric polygon. Used to tell which side of a one-sided segment a proxy is on.
    pub fn mean_point(&self) -> Vec2 {
        let sum = self.points().iter().fold(Vec2::ZERO, |sum, &p| sum + p);
        sum / self.count as f32
    }

    /// The index of the point farthest along `direction` (the first on ties).
    #[inline]
    pub(crate) fn support(&self, direction: Vec2) -> usize {
        let mut best = 0;
        let mut best_value = self.points[0].dot(direction);
        for (i, point) in self.points().iter().enumerate().skip(1) {
            let value = point.dot(direction);
            if value > best_value {
                best = i;
                best_value = value;
            }
        }
        best
    }

    /// The point at `index` (callers pass indices below the count).
    #[inline]
    pub(crate) fn point(&self, index: usize) -> Vec2 {
        self.points[index]
    }

    /// The largest distance from `center` to a point of the core (the radius not included).
    pub(crate) fn core_extent(&self, center: Vec2) -> f32 {
        self.points()
            .iter()
            .map(|p| p.distance(center))
            .fold(0.0, f32::max)
    }

    /// A copy with every point moved by `offset`.
    #[inline]
    pub(crate) fn translated(&self, offset: Vec2) -> ShapeProxy {
        let mut moved = *self;
        for point in &mut moved.points[..self.count] {
            *point += offset;
        }
        moved
    }

    /// The unchecked constructor: `points` holds 1 to 8 entries.
    fn from_points(points: &[Vec2], radius: f32) -> ShapeProxy {
        let mut stored = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        stored[..points.len()].copy_from_slice(points);
        ShapeProxy {
            points: stored,
            count: points.len(),
            radius,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hull::make_rounded_box;
    use crate::shapes::{Capsule, ChainSegment, Circle, Polygon, Segment};
    use core_soa::Rot;

    #[test]
    fn proxies_of_every_shape() {
        let circle = Shape::Circle(Circle {
            center: Vec2::new(1.0, 2.0),
            radius: 0.5,
        });
        let proxy = ShapeProxy::from_shape(&circle);
        assert_eq!(proxy.points(), &[Vec2::new(1.0, 2.0)]);
        assert_eq!(proxy.radius(), 0.5);

        let capsule = Shape::Capsule(Capsule {
            center1: Vec2::new(-1.0, 0.0),
            center2: Vec2::new(1.0, 0.0),
            radius: 0.25,
        });
        let proxy = ShapeProxy::from_shape(&capsule);
        assert_eq!(proxy.points().len(), 2);
        assert_eq!(proxy.radius(), 0.25);

        let rounded = Shape::Polygon(make_rounded_box(2.0, 1.0, 0.1).unwrap());
        let proxy = ShapeProxy::from_shape(&rounded);
        assert_eq!(proxy.points().len(), 4);
        assert_eq!(proxy.radius(), 0.1);
        // The support along (1, 1) is the corner (2, 1).
        assert_eq!(proxy.point(proxy.support(Vec2::ONE)), Vec2::new(2.0, 1.0));

        let segment = Segment {
            point1: Vec2::ZERO,
            point2: Vec2::X,
        };
        let chain = Shape::ChainSegment(ChainSegment {
            ghost1: Vec2::splat(-5.0),
            segment,
            ghost2: Vec2::splat(5.0),
            chain_id: 0,
        });
        assert_eq!(
            ShapeProxy::from_shape(&chain).points(),
            &[Vec2::ZERO, Vec2::X]
        );
        assert_eq!(ShapeProxy::from_shape(&chain).radius(), 0.0);
    }

    #[test]
    fn placed_proxy_matches_transformed_points() {
        let shape = Shape::Capsule(Capsule {
            center1: Vec2::new(1.0, 0.0),
            center2: Vec2::new(2.0, 0.0),
            radius: 0.1,
        });
        let xf = Transform::new(
            Vec2::new(3.0, 4.0),
            Rot::from_angle(core::f32::consts::FRAC_PI_2),
        );
        let placed = ShapeProxy::from_placed_shape(&shape, xf);
        assert!((placed.points()[0] - Vec2::new(3.0, 5.0)).length() < 1e-6);
        assert!((placed.points()[1] - Vec2::new(3.0, 6.0)).length() < 1e-6);
        let back = placed.inv_transformed(xf);
        assert!((back.points()[1] - Vec2::new(2.0, 0.0)).length() < 1e-6);
        assert!((placed.mean_point() - Vec2::new(3.0, 5.5)).length() < 1e-6);
    }

    #[test]
    fn bad_input_is_named() {
        assert_eq!(ShapeProxy::new(&[], 0.0), Err(ProxyError::NoPoints));
        assert_eq!(
            ShapeProxy::new(&[Vec2::ZERO; 9], 0.0),
            Err(ProxyError::TooManyPoints { count: 9 })
        );
        assert_eq!(
            ShapeProxy::new(&[Vec2::ZERO, Vec2::new(0.0, f32::INFINITY)], 0.0),
            Err(ProxyError::NonFinitePoint { index: 1 })
        );
        assert_eq!(
            ShapeProxy::new(&[Vec2::ZERO], -1.0),
            Err(ProxyError::BadRadius { radius: -1.0 })
        );
        let message = ProxyError::BadRadius { radius: -1.0 }.to_string();
        assert!(
            message.contains("radius") && message.contains("-1"),
            "{message}"
        );
        assert!(ShapeProxy::new(&[Vec2::ZERO; 8], 0.5).is_ok());
    }

    #[test]
    fn hand_built_polygon_counts_are_clamped() {
        let mut polygon: Polygon = make_rounded_box(1.0, 1.0, 0.0).unwrap();
        polygon.count = 40;
        assert_eq!(
            ShapeProxy::from_shape(&Shape::Polygon(polygon))
                .points()
                .len(),
            MAX_POLYGON_VERTICES
        );
        polygon.count = 0;
        assert_eq!(
            ShapeProxy::from_shape(&Shape::Polygon(polygon))
                .points()
                .len(),
            1
        );
    }
}
