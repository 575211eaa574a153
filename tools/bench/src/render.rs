//! `--render FILE`: a scene run on Prism and drawn into a PNG (the last step) or an animated
//! GIF (every `--frame-stride`-th step), through Prism's debug draw.
//!
//! ```text
//! prism-bench --scene tumbler --render tumbler.gif --steps 180 --frame-stride 2 --size 320
//! prism-bench --scene large_pyramid --render pyramid.png --size 480x260
//! ```
//!
//! The scene is built and scripted exactly as the benchmark runs it (same settings, same
//! script), on Prism alone. Each frame is `World::draw` into a [`Canvas`], which implements
//! `prism::DebugDraw` on a tiny-skia pixmap: solid shapes filled at half opacity with a full
//! colour outline (Box2D's testbed look), on a dark background, anti-aliased.
//!
//! **The view.** The world box shown is `--view x0,y0,x1,y1` (metres), or fitted to the
//! scene when the run starts: the union, over the non-static bodies (all bodies if none move),
//! of the disc around each body's origin that holds its shapes' boxes — the disc rather than
//! the box, so a body that turns (the tumbler's drum) stays in the picture — grown by 5 %.
//! The view stays fixed for the whole animation. [`Viewport`] maps it into the image keeping
//! the aspect ratio (metres are square), centred, y up.
//!
//! **GIF.** One global palette for all frames: the background and blends of the drawing
//! colours ([`crate::gif_palette`]); the frame delay is the simulated time between frames, in the format's
//! hundredths of a second (at least 2: viewers slow shorter delays down), looping forever.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use prism::{Aabb, BodyType, DebugDraw, DrawOptions, Transform, Vec2, World, WorldDef};
use scenes::description::{GroupAction, MAIN_SLOT, SUBSTEPS, SceneSpec, TIME_STEP};
use scenes::prism_build::{self, BuiltGroup};
use tiny_skia::{FillRule, LineCap, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform as Affine};

use crate::engine::{BenchError, EngineOptions};
use crate::gif_palette::Palette;

/// The background colour (`0xRRGGBB`).
pub const BACKGROUND: u32 = 0x1E1E23;

/// What `--render` asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderOptions {
    /// `.png` (one frame, the last step) or `.gif` (an animation).
    pub path: PathBuf,
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// A GIF frame every this many steps.
    pub frame_stride: usize,
    /// The world box to show, or `None` to fit the scene.
    pub view: Option<Aabb>,
}

/// What a render wrote.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderSummary {
    /// Frames written (1 for a PNG).
    pub frames: usize,
    /// Size of the file written.
    pub bytes: u64,
    /// The world box the run showed (given or fitted).
    pub view: Aabb,
}

/// The output format, from the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Png,
    Gif,
}

fn format_of(path: &Path) -> Result<Format, BenchError> {
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match extension.to_ascii_lowercase().as_str() {
        "png" => Ok(Format::Png),
        "gif" => Ok(Format::Gif),
        _ => Err(BenchError::new(format!(
            "--render expects a .png or .gif file, got `{}`",
            path.display()
        ))),
    }
}

/// Parses `--size`: `N` (square) or `WxH`, each 16 to 4096 pixels.
pub fn parse_size(value: &str) -> Result<(u32, u32), BenchError> {
    let (w, h) = value.split_once(['x', 'X']).unwrap_or((value, value));
    let side = |text: &str| match text.trim().parse::<u32>() {
        Ok(n) if (16..=4096).contains(&n) => Ok(n),
        _ => Err(BenchError::new(format!(
            "--size expects N or WxH with each side 16 to 4096 pixels, got `{value}`"
        ))),
    };
    Ok((side(w)?, side(h)?))
}

/// Parses `--view x0,y0,x1,y1` (metres): finite, x0 < x1 and y0 < y1.
pub fn parse_view(value: &str) -> Result<Aabb, BenchError> {
    let numbers: Vec<f32> = value
        .split(',')
        .map(|n| n.trim().parse::<f32>())
        .collect::<Result<_, _>>()
        .unwrap_or_default();
    match numbers[..] {
        [x0, y0, x1, y1] if numbers.iter().all(|n| n.is_finite()) && x0 < x1 && y0 < y1 => {
            Ok(Aabb::new(Vec2::new(x0, y0), Vec2::new(x1, y1)))
        }
        _ => Err(BenchError::new(format!(
            "--view expects x0,y0,x1,y1 (metres) with x0 < x1 and y0 < y1, got `{value}`"
        ))),
    }
}

/// The mapping from world metres to pixels: the view fitted into the image, aspect kept,
/// centred, y up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// Pixels per metre.
    pub scale: f32,
    /// The world point at the image's centre.
    pub center: Vec2,
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
}

impl Viewport {
    /// The largest scale at which `view` fits in `width × height`.
    pub fn fit(view: Aabb, width: u32, height: u32) -> Viewport {
        let size = view.max - view.min;
        let scale_x = width as f32 / size.x.max(f32::MIN_POSITIVE);
        let scale_y = height as f32 / size.y.max(f32::MIN_POSITIVE);
        Viewport {
            scale: scale_x.min(scale_y),
            center: view.center(),
            width,
            height,
        }
    }

    /// The pixel position (x right, y down) of world point `p`.
    pub fn pixel_of(&self, p: Vec2) -> (f32, f32) {
        let x = 0.5 * self.width as f32 + (p.x - self.center.x) * self.scale;
        let y = 0.5 * self.height as f32 - (p.y - self.center.y) * self.scale;
        (x, y)
    }

    /// The world box the whole image shows.
    pub fn visible(&self) -> Aabb {
        let half = Vec2::new(self.width as f32, self.height as f32) * (0.5 / self.scale);
        Aabb::new(self.center - half, self.center + half)
    }
}

/// A pixmap that `World::draw` paints into.
pub struct Canvas {
    /// The image, opaque RGBA.
    pub pixmap: Pixmap,
    /// Where the world lands in it.
    pub viewport: Viewport,
}

impl Canvas {
    /// A canvas cleared to [`BACKGROUND`].
    pub fn new(viewport: Viewport) -> Result<Canvas, BenchError> {
        let mut pixmap = Pixmap::new(viewport.width, viewport.height).ok_or_else(|| {
            BenchError::new(format!(
                "cannot make a {}×{} image",
                viewport.width, viewport.height
            ))
        })?;
        let [r, g, b] = prism::Color(BACKGROUND).rgb();
        pixmap.fill(tiny_skia::Color::from_rgba8(r, g, b, 255));
        Ok(Canvas { pixmap, viewport })
    }

    /// The colour of pixel (x, y) as `0xRRGGBB` (the canvas is opaque).
    #[cfg(test)]
    pub fn pixel(&self, x: u32, y: u32) -> Option<u32> {
        let p = self.pixmap.pixel(x, y)?;
        Some((u32::from(p.red()) << 16) | (u32::from(p.green()) << 8) | u32::from(p.blue()))
    }

    fn point(&self, p: Vec2) -> (f32, f32) {
        self.viewport.pixel_of(p)
    }

    fn fill(&mut self, path: &tiny_skia::Path, color: prism::Color, alpha: u8) {
        let paint = paint(color, alpha);
        let identity = Affine::identity();
        self.pixmap
            .fill_path(path, &paint, FillRule::Winding, identity, None);
    }

    fn stroke(&mut self, path: &tiny_skia::Path, color: prism::Color, width: f32, alpha: u8) {
        let stroke = Stroke {
            width,
            line_cap: LineCap::Round,
            line_join: tiny_skia::LineJoin::Round,
            ..Stroke::default()
        };
        let paint = paint(color, alpha);
        let identity = Affine::identity();
        self.pixmap
            .stroke_path(path, &paint, &stroke, identity, None);
    }

    fn line_path(&self, p1: Vec2, p2: Vec2) -> Option<tiny_skia::Path> {
        let ((x1, y1), (x2, y2)) = (self.point(p1), self.point(p2));
        let mut builder = PathBuilder::new();
        builder.move_to(x1, y1);
        builder.line_to(x2, y2);
        builder.finish()
    }

    fn circle_path(&self, center: Vec2, radius_px: f32) -> Option<tiny_skia::Path> {
        let (x, y) = self.point(center);
        PathBuilder::from_circle(x, y, radius_px.max(0.5))
    }
}

fn paint(color: prism::Color, alpha: u8) -> Paint<'static> {
    let [r, g, b] = color.rgb();
    let mut paint = Paint::default();
    paint.set_color_rgba8(r, g, b, alpha);
    paint.anti_alias = true;
    paint
}

/// Fill opacity of solid shapes; outlines are opaque.
const FILL_ALPHA: u8 = 128;
/// Outline and line width in pixels.
const LINE_PX: f32 = 1.0;
/// Length of a drawn frame's axes, in pixels.
const AXIS_PX: f32 = 10.0;

impl DebugDraw for Canvas {
    fn draw_solid_polygon(&mut self, vertices: &[Vec2], radius: f32, color: prism::Color) {
        let mut builder = PathBuilder::new();
        for (i, &v) in vertices.iter().enumerate() {
            let (x, y) = self.point(v);
            if i == 0 {
                builder.move_to(x, y);
            } else {
                builder.line_to(x, y);
            }
        }
        builder.close();
        let Some(path) = builder.finish() else { return };
        self.fill(&path, color, FILL_ALPHA);
        // A rounded polygon is the polygon grown by a disc: its outline stroked 2r wide.
        let width = (2.0 * radius * self.viewport.scale).max(LINE_PX);
        self.stroke(&path, color, width, 255);
    }

    fn draw_solid_circle(&mut self, transform: Transform, radius: f32, color: prism::Color) {
        let radius_px = radius * self.viewport.scale;
        if let Some(path) = self.circle_path(transform.p, radius_px) {
            self.fill(&path, color, FILL_ALPHA);
            self.stroke(&path, color, LINE_PX, 255);
        }
        let rim = transform.p + radius * transform.q.x_axis();
        if let Some(path) = self.line_path(transform.p, rim) {
            self.stroke(&path, color, LINE_PX, 255);
        }
    }

    fn draw_solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: prism::Color) {
        let Some(path) = self.line_path(p1, p2) else {
            return;
        };
        let width = 2.0 * radius * self.viewport.scale;
        // The outline, then the inside a line narrower.
        self.stroke(&path, color, width.max(LINE_PX), 255);
        let inner = paint(prism::Color(BACKGROUND), 255);
        let stroke = Stroke {
            width: (width - 2.0 * LINE_PX).max(0.0),
            line_cap: LineCap::Round,
            ..Stroke::default()
        };
        if stroke.width > 0.0 {
            let identity = Affine::identity();
            self.pixmap
                .stroke_path(&path, &inner, &stroke, identity, None);
            self.stroke(&path, color, stroke.width, FILL_ALPHA);
        }
    }

    fn draw_segment(&mut self, p1: Vec2, p2: Vec2, color: prism::Color) {
        if let Some(path) = self.line_path(p1, p2) {
            self.stroke(&path, color, LINE_PX, 255);
        }
    }

    fn draw_point(&mut self, p: Vec2, size: f32, color: prism::Color) {
        if let Some(path) = self.circle_path(p, 0.5 * size) {
            self.fill(&path, color, 255);
        }
    }

    fn draw_transform(&mut self, transform: Transform) {
        let length = AXIS_PX / self.viewport.scale;
        let axes = [
            (transform.q.x_axis(), prism::Color(0xFF0000)),
            (transform.q.y_axis(), prism::Color(0x00FF00)),
        ];
        for (axis, color) in axes {
            self.draw_segment(transform.p, transform.p + length * axis, color);
        }
    }

    fn draw_aabb(&mut self, aabb: Aabb, color: prism::Color) {
        let (x0, y0) = self.point(Vec2::new(aabb.min.x, aabb.max.y));
        let (x1, y1) = self.point(Vec2::new(aabb.max.x, aabb.min.y));
        if let Some(rect) = Rect::from_ltrb(x0, y0, x1.max(x0 + 1.0), y1.max(y0 + 1.0)) {
            let path = PathBuilder::from_rect(rect);
            self.stroke(&path, color, LINE_PX, 255);
        }
    }
}

/// Draws `world` as the viewport shows it.
pub fn render_frame(world: &World, viewport: Viewport) -> Result<Canvas, BenchError> {
    let mut canvas = Canvas::new(viewport)?;
    let options = DrawOptions {
        view: Some(viewport.visible()),
        ..DrawOptions::default()
    };
    world
        .draw(&mut canvas, &options)
        .map_err(|e| BenchError::new(format!("prism: {e}")))?;
    Ok(canvas)
}

/// The view that fits the scene (see the module notes); `None` for a world without shapes.
pub fn fit_view(world: &World) -> Option<Aabb> {
    let bodies = world.body_ids();
    let moving = |b: &&prism::BodyId| world.body_type(**b).is_ok_and(|t| t != BodyType::Static);
    let any_moving = bodies.iter().any(|b| moving(&b));
    let mut view: Option<Aabb> = None;
    for body in bodies.iter().filter(|b| !any_moving || moving(b)) {
        let (Ok(origin), Ok(shapes)) = (world.position(*body), world.body_shapes(*body)) else {
            continue;
        };
        let mut reach: f32 = 0.0;
        for &shape in shapes {
            let Ok(aabb) = world.shape_aabb(shape) else {
                continue;
            };
            for corner in [aabb.min, aabb.max, Vec2::new(aabb.min.x, aabb.max.y)] {
                reach = reach.max(corner.distance(origin));
            }
            reach = reach.max(Vec2::new(aabb.max.x, aabb.min.y).distance(origin));
        }
        if shapes.is_empty() {
            continue;
        }
        let disc = Aabb::new(
            origin - Vec2::new(reach, reach),
            origin + Vec2::new(reach, reach),
        );
        view = Some(view.map_or(disc, |v| v.union(&disc)));
    }
    view.map(|v| v.fattened(0.05 * (v.max - v.min).x.max((v.max - v.min).y)))
}

/// Builds `spec` in a Prism world and steps it `steps` times, drawing frames as
/// `options` say, and writes the file.
pub fn render_scene(
    spec: &SceneSpec,
    steps: usize,
    threads: usize,
    engine: EngineOptions,
    options: &RenderOptions,
) -> Result<RenderSummary, BenchError> {
    let format = format_of(&options.path)?;
    let mut run = SceneRun::new(spec, threads, engine)?;
    let view = match options.view {
        Some(view) => view,
        None => fit_view(&run.world).ok_or_else(|| BenchError::new("the scene has no shapes"))?,
    };
    let viewport = Viewport::fit(view, options.width, options.height);
    let frames = match format {
        Format::Png => {
            run.advance(steps)?;
            let canvas = render_frame(&run.world, viewport)?;
            canvas
                .pixmap
                .save_png(&options.path)
                .map_err(|e| write_error(&options.path, e))?;
            1
        }
        Format::Gif => write_gif(&mut run, steps, viewport, options)?,
    };
    let bytes = std::fs::metadata(&options.path).map_or(0, |m| m.len());
    Ok(RenderSummary {
        frames,
        bytes,
        view,
    })
}

fn write_error(path: &Path, error: impl std::fmt::Display) -> BenchError {
    BenchError::new(format!("cannot write {}: {error}", path.display()))
}

/// Writes the animation: the first frame before any step, then one every `frame_stride`
/// steps. Returns the frame count.
fn write_gif(
    run: &mut SceneRun,
    steps: usize,
    viewport: Viewport,
    options: &RenderOptions,
) -> Result<usize, BenchError> {
    let path = &options.path;
    let mut palette = Palette::new(BACKGROUND, &drawn_colors(&DrawOptions::default().colors))
        .ok_or_else(|| BenchError::new("the drawing colours do not fit a GIF palette"))?;
    let file = File::create(path).map_err(|e| write_error(path, e))?;
    let (width, height) = (viewport.width as u16, viewport.height as u16);
    let mut encoder = gif::Encoder::new(BufWriter::new(file), width, height, &palette.bytes())
        .map_err(|e| write_error(path, e))?;
    encoder
        .set_repeat(gif::Repeat::Infinite)
        .map_err(|e| write_error(path, e))?;
    let seconds = options.frame_stride as f32 * TIME_STEP;
    let delay = ((seconds * 100.0).round() as u16).max(2);
    let mut frames = 0;
    let mut done = 0;
    loop {
        let canvas = render_frame(&run.world, viewport)?;
        let indices = palette.indices(canvas.pixmap.data());
        let mut frame = gif::Frame::from_indexed_pixels(width, height, indices, None);
        frame.delay = delay;
        encoder
            .write_frame(&frame)
            .map_err(|e| write_error(path, e))?;
        frames += 1;
        if done + options.frame_stride > steps {
            return Ok(frames);
        }
        run.advance(options.frame_stride)?;
        done += options.frame_stride;
    }
}

/// The colours the default draw options use: the shape states and the joints.
fn drawn_colors(colors: &prism::DrawColors) -> Vec<u32> {
    let states = [
        colors.disabled,
        colors.sensor,
        colors.static_body,
        colors.kinematic,
        colors.awake,
        colors.asleep,
        colors.joint,
        colors.joint_axis,
    ];
    states.iter().map(|c| c.0).collect()
}

/// A scene in a Prism world, stepped with its script, as the benchmark runs it.
struct SceneRun {
    world: World,
    script: scenes::description::SceneScript,
    groups: Vec<Option<BuiltGroup>>,
    step: usize,
}

impl SceneRun {
    fn new(spec: &SceneSpec, threads: usize, engine: EngineOptions) -> Result<Self, BenchError> {
        let worker_count = u32::try_from(threads)
            .map_err(|_| BenchError::new(format!("too many threads: {threads}")))?;
        let def = WorldDef {
            gravity: spec.gravity,
            enable_sleep: spec.sleep_enabled,
            enable_continuous: engine.continuous,
            enable_contact_recycling: engine.contact_recycling,
            worker_count,
            ..WorldDef::default()
        };
        let mut world = World::new(def).map_err(prism_error)?;
        let (group, _) = spec.build();
        let main = prism_build::insert_group(&mut world, &group).map_err(prism_error)?;
        let mut groups = Vec::new();
        groups.resize_with(MAIN_SLOT + 1, || None);
        groups[MAIN_SLOT] = Some(main);
        Ok(SceneRun {
            world,
            script: spec.script(),
            groups,
            step: 0,
        })
    }

    /// Applies the script and steps, `count` times.
    fn advance(&mut self, count: usize) -> Result<(), BenchError> {
        for _ in 0..count {
            for action in self.script.actions(self.step) {
                match action {
                    GroupAction::Insert { slot, group } => {
                        let built = prism_build::insert_group(&mut self.world, &group)
                            .map_err(prism_error)?;
                        if self.groups.len() <= slot {
                            self.groups.resize_with(slot + 1, || None);
                        }
                        self.groups[slot] = Some(built);
                    }
                    GroupAction::Remove { slot } => {
                        if let Some(built) = self.groups.get_mut(slot).and_then(Option::take) {
                            prism_build::remove_group(&mut self.world, &built);
                        }
                    }
                }
            }
            self.world
                .step(TIME_STEP, SUBSTEPS as u32)
                .map_err(prism_error)?;
            self.step += 1;
        }
        Ok(())
    }
}

fn prism_error(error: prism::PrismError) -> BenchError {
    BenchError::new(format!("prism: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use prism::{BodyDef, ShapeDef, make_square};

    /// A 10 m × 5 m view in a 200 × 100 image: 20 px/m, corners to corners, y flipped.
    #[test]
    fn world_points_map_to_pixels_with_y_up() {
        let view = Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 5.0));
        let viewport = Viewport::fit(view, 200, 100);
        assert_eq!(viewport.scale, 20.0);
        assert_eq!(viewport.pixel_of(Vec2::new(0.0, 0.0)), (0.0, 100.0));
        assert_eq!(viewport.pixel_of(Vec2::new(10.0, 5.0)), (200.0, 0.0));
        assert_eq!(viewport.pixel_of(Vec2::new(5.0, 2.5)), (100.0, 50.0));
        assert_eq!(viewport.visible(), view);
    }

    /// A square view in a wide image: the height decides the scale and the view is centred,
    /// leaving equal bands left and right.
    #[test]
    fn the_view_keeps_its_aspect_and_is_centred() {
        let view = Aabb::new(Vec2::new(-5.0, -5.0), Vec2::new(5.0, 5.0));
        let viewport = Viewport::fit(view, 200, 100);
        assert_eq!(viewport.scale, 10.0);
        assert_eq!(viewport.pixel_of(Vec2::new(-5.0, 5.0)), (50.0, 0.0));
        assert_eq!(viewport.pixel_of(Vec2::new(5.0, -5.0)), (150.0, 100.0));
        let visible = viewport.visible();
        assert_eq!((visible.min.x, visible.max.x), (-10.0, 10.0));
        assert_eq!((visible.min.y, visible.max.y), (-5.0, 5.0));
    }

    /// A 1 m box at (2, 1) in a 10 m view: its pixels are painted, the far corner is not.
    #[test]
    fn a_rendered_frame_shows_the_body_where_it_is() {
        let mut world = World::new(WorldDef::default()).unwrap();
        let body = world
            .create_body(&BodyDef::dynamic_at(Vec2::new(2.0, 1.0)))
            .unwrap();
        let square = make_square(0.5).unwrap();
        world
            .create_polygon_shape(body, &ShapeDef::default(), &square)
            .unwrap();
        let view = Aabb::new(Vec2::new(-5.0, -5.0), Vec2::new(5.0, 5.0));
        let viewport = Viewport::fit(view, 100, 100);
        let canvas = render_frame(&world, viewport).unwrap();
        let (x, y) = viewport.pixel_of(Vec2::new(2.0, 1.0));
        assert_ne!(
            canvas.pixel(x as u32, y as u32),
            Some(BACKGROUND),
            "box centre"
        );
        let (x, y) = viewport.pixel_of(Vec2::new(2.45, 0.55));
        assert_ne!(
            canvas.pixel(x as u32, y as u32),
            Some(BACKGROUND),
            "box corner"
        );
        assert_eq!(canvas.pixel(5, 95), Some(BACKGROUND), "far corner");
        let (x, y) = viewport.pixel_of(Vec2::new(-2.0, -1.0));
        assert_eq!(
            canvas.pixel(x as u32, y as u32),
            Some(BACKGROUND),
            "mirror point"
        );
        // Count the painted pixels: about the box's 10 × 10 px.
        let painted = (0..100)
            .flat_map(|y| (0..100).map(move |x| (x, y)))
            .filter(|&(x, y)| canvas.pixel(x, y) != Some(BACKGROUND))
            .count();
        assert!((90..=150).contains(&painted), "{painted} pixels");
    }

    /// The fitted view holds every moving body's disc and leaves the static ground out.
    #[test]
    fn the_fitted_view_holds_the_moving_bodies() {
        let mut world = World::new(WorldDef::default()).unwrap();
        let ground = world.create_body(&BodyDef::fixed_at(Vec2::ZERO)).unwrap();
        let wide = prism::make_box(100.0, 1.0).unwrap();
        world
            .create_polygon_shape(ground, &ShapeDef::default(), &wide)
            .unwrap();
        let body = world
            .create_body(&BodyDef::dynamic_at(Vec2::new(3.0, 4.0)))
            .unwrap();
        let square = make_square(1.0).unwrap();
        world
            .create_polygon_shape(body, &ShapeDef::default(), &square)
            .unwrap();
        let view = fit_view(&world).unwrap();
        let reach = 2.0f32.sqrt();
        let margin = 0.05 * 2.0 * reach;
        assert!(
            (view.min.x - (3.0 - reach - margin)).abs() < 1e-5,
            "{view:?}"
        );
        assert!(
            (view.max.y - (4.0 + reach + margin)).abs() < 1e-5,
            "{view:?}"
        );
    }

    /// A short run of a ten-box column written as a GIF and read back: a frame before the
    /// first step and after every second of four steps, each in the global palette, showing
    /// more than the background; the PNG of the same run is one frame.
    #[test]
    fn a_scene_renders_to_gif_frames_and_a_png() {
        let spec = scenes::description::find_scene("column_10").unwrap();
        let dir = std::env::temp_dir().join(format!("prism-render-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let options = RenderOptions {
            path: dir.join("column.gif"),
            width: 64,
            height: 48,
            frame_stride: 2,
            view: None,
        };
        let summary = render_scene(&spec, 4, 1, EngineOptions::default(), &options).unwrap();
        assert_eq!(summary.frames, 3);
        let file = File::open(&options.path).unwrap();
        let mut decoder = gif::DecodeOptions::new().read_info(file).unwrap();
        assert_eq!((decoder.width(), decoder.height()), (64, 48));
        let mut frames = 0;
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            assert!(frame.palette.is_none(), "the global palette");
            assert!(
                frame.buffer.iter().any(|&index| index != 0),
                "frame {frames} is empty"
            );
            frames += 1;
        }
        assert_eq!(frames, 3);

        let png = RenderOptions {
            path: dir.join("column.png"),
            ..options
        };
        let summary = render_scene(&spec, 4, 1, EngineOptions::default(), &png).unwrap();
        assert_eq!(summary.frames, 1);
        assert!(summary.bytes > 0);
        let image = Pixmap::load_png(&png.path).unwrap();
        assert_eq!((image.width(), image.height()), (64, 48));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn sizes_views_and_formats_are_checked() {
        assert_eq!(parse_size("320").unwrap(), (320, 320));
        assert_eq!(parse_size("480x260").unwrap(), (480, 260));
        assert!(parse_size("8").is_err() && parse_size("10x").is_err());
        let view = parse_view("-1,0,2,3").unwrap();
        assert_eq!(
            (view.min, view.max),
            (Vec2::new(-1.0, 0.0), Vec2::new(2.0, 3.0))
        );
        assert!(parse_view("1,0,0,3").is_err() && parse_view("0,0,1").is_err());
        assert!(parse_view("0,0,inf,1").is_err());
        assert_eq!(format_of(Path::new("a.GIF")).unwrap(), Format::Gif);
        assert!(format_of(Path::new("a.jpg")).is_err());
    }
}
