//! `prism-bench plot`: the result CSVs as an SVG bar chart of milliseconds per step.
//!
//! ```text
//! prism-bench plot --csv benches/results/amd-epyc-2core --out docs/images/benchmarks.svg
//! ```
//!
//! The input is what `--csv DIR` writes: `DIR/<engine>/<scene>.csv`, each `threads,ms` lines
//! under a header, `ms` the median summed wall time of the timed steps — every step but the
//! first. So a step's time is `ms / (steps − 1)`, with the scene's own step count (`--list`),
//! or `--steps N` for results made with `--steps N`.
//!
//! The chart has one panel per thread count (1 and 2 in the committed results), each with a
//! group of bars per scene (in the benchmark's scene order) and a bar per engine (Prism,
//! Box2D, Rapier, then any other, by name), every bar labelled with its value, on a linear
//! axis from 0. The SVG is written by hand: rectangles, lines and text, nothing else.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use scenes::description::{SCENES, find_scene};

use crate::engine::BenchError;

const USAGE: &str = "\
usage: prism-bench plot --csv DIR --out FILE.svg [--steps N]
  --csv DIR    results written by `prism-bench --csv DIR`: DIR/<engine>/<scene>.csv
  --out FILE   the SVG to write
  --steps N    the step count the results were run with (default: each scene's own)";

/// One bar: an engine on a scene at a thread count.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// The engine's directory name (`prism`, `box2d`, `rapier`).
    pub engine: String,
    /// The scene's file name without `.csv`.
    pub scene: String,
    /// Worker threads of the run.
    pub threads: usize,
    /// Milliseconds per timed step.
    pub ms_per_step: f64,
}

/// What `plot` was asked to do.
#[derive(Clone, Debug, PartialEq)]
struct PlotOptions {
    csv: PathBuf,
    out: PathBuf,
    steps: Option<usize>,
}

fn parse(args: &[String]) -> Result<PlotOptions, BenchError> {
    let (mut csv, mut out, mut steps) = (None, None, None);
    let mut pairs = args.iter();
    while let Some(flag) = pairs.next() {
        if flag == "--help" || flag == "-h" {
            return Err(BenchError::new(USAGE));
        }
        let value = pairs
            .next()
            .ok_or_else(|| BenchError::new(format!("plot: {flag} expects a value\n{USAGE}")))?;
        match flag.as_str() {
            "--csv" => csv = Some(PathBuf::from(value)),
            "--out" => out = Some(PathBuf::from(value)),
            "--steps" => steps = Some(crate::parse_count("--steps", value, 2)?),
            other => {
                return Err(BenchError::new(format!(
                    "plot: unknown option `{other}`\n{USAGE}"
                )));
            }
        }
    }
    match (csv, out) {
        (Some(csv), Some(out)) => Ok(PlotOptions { csv, out, steps }),
        _ => Err(BenchError::new(format!(
            "plot needs --csv DIR and --out FILE\n{USAGE}"
        ))),
    }
}

/// `prism-bench plot ARGS`: reads the CSVs, writes the SVG, returns a one-line summary.
pub fn run(args: &[String]) -> Result<String, BenchError> {
    let options = parse(args)?;
    let bars = read_results(&options.csv, options.steps)?;
    let svg = chart(&bars, &file_stem(&options.csv));
    std::fs::write(&options.out, &svg)
        .map_err(|e| BenchError::new(format!("cannot write {}: {e}", options.out.display())))?;
    Ok(format!(
        "{}: {} bars from {}",
        options.out.display(),
        bars.len(),
        options.csv.display()
    ))
}

/// Every `DIR/<engine>/<scene>.csv` as bars.
fn read_results(dir: &Path, steps: Option<usize>) -> Result<Vec<Bar>, BenchError> {
    let io = |path: &Path, e: std::io::Error| {
        BenchError::new(format!("cannot read {}: {e}", path.display()))
    };
    let mut bars = Vec::new();
    let mut engines: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| io(dir, e))?
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.is_dir())
        .collect();
    engines.sort();
    for engine_dir in engines {
        let engine = file_stem(&engine_dir);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&engine_dir)
            .map_err(|e| io(&engine_dir, e))?
            .filter_map(|entry| Some(entry.ok()?.path()))
            .filter(|path| path.extension().is_some_and(|e| e == "csv"))
            .collect();
        files.sort();
        for file in files {
            let scene = file_stem(&file);
            let text = std::fs::read_to_string(&file).map_err(|e| io(&file, e))?;
            let steps = match steps.or_else(|| find_scene(&scene).map(|s| s.steps)) {
                Some(steps) => steps,
                None => {
                    return Err(BenchError::new(format!(
                        "{}: unknown scene `{scene}`: give its step count with --steps",
                        file.display()
                    )));
                }
            };
            for (threads, ms) in parse_csv(&text)
                .map_err(|e| BenchError::new(format!("{}: {}", file.display(), e.0)))?
            {
                let ms_per_step = ms / (steps - 1) as f64;
                let (engine, scene) = (engine.clone(), scene.clone());
                bars.push(Bar {
                    engine,
                    scene,
                    threads,
                    ms_per_step,
                });
            }
        }
    }
    if bars.is_empty() {
        return Err(BenchError::new(format!(
            "no results under {} (expected <engine>/<scene>.csv files)",
            dir.display()
        )));
    }
    Ok(bars)
}

fn file_stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The `threads,ms` rows of one CSV (header first; blank lines skipped).
pub fn parse_csv(text: &str) -> Result<Vec<(usize, f64)>, BenchError> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    if lines.next().map(str::trim) != Some("threads,ms") {
        return Err(BenchError::new("expected the header `threads,ms`"));
    }
    lines
        .map(|line| {
            let bad = || BenchError::new(format!("bad line `{line}`: expected threads,ms"));
            let (threads, ms) = line.split_once(',').ok_or_else(bad)?;
            let threads = threads.trim().parse::<usize>().map_err(|_| bad())?;
            let ms = ms.trim().parse::<f64>().map_err(|_| bad())?;
            if threads == 0 || !ms.is_finite() || ms < 0.0 {
                return Err(bad());
            }
            Ok((threads, ms))
        })
        .collect()
}

/// Engines in the chart's order: Prism, Box2D, Rapier, then the rest by name.
fn engine_order(bars: &[Bar]) -> Vec<String> {
    let rank = |name: &str| match name {
        "prism" => 0,
        "box2d" => 1,
        "rapier" => 2,
        _ => 3,
    };
    let mut engines: Vec<String> = bars.iter().map(|b| b.engine.clone()).collect();
    engines.sort_by(|a, b| (rank(a), a).cmp(&(rank(b), b)));
    engines.dedup();
    engines
}

/// Scenes in the benchmark's order, then any other by name.
fn scene_order(bars: &[Bar]) -> Vec<String> {
    let rank = |name: &str| {
        SCENES
            .iter()
            .position(|s| s.name == name)
            .unwrap_or(usize::MAX)
    };
    let mut scenes: Vec<String> = bars.iter().map(|b| b.scene.clone()).collect();
    scenes.sort_by(|a, b| (rank(a), a).cmp(&(rank(b), b)));
    scenes.dedup();
    scenes
}

/// Bar colours by engine position: Prism teal, Box2D orange, Rapier blue, then greys.
const ENGINE_COLORS: [&str; 4] = ["#1b9e77", "#d95f02", "#7570b3", "#888888"];

/// Geometry of the chart, in SVG user units (pixels).
const BAR_W: f64 = 18.0;
const GROUP_GAP: f64 = 18.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const PANEL_H: f64 = 220.0;
const PANEL_TOP: f64 = 60.0;
const PANEL_GAP: f64 = 110.0;

/// The SVG chart of `bars` (see the module notes), captioned with the results' name.
pub fn chart(bars: &[Bar], source: &str) -> String {
    let engines = engine_order(bars);
    let scenes = scene_order(bars);
    let mut thread_counts: Vec<usize> = bars.iter().map(|b| b.threads).collect();
    thread_counts.sort_unstable();
    thread_counts.dedup();
    let group_w = BAR_W * engines.len() as f64 + GROUP_GAP;
    let width = LEFT + group_w * scenes.len() as f64 + RIGHT;
    let height = PANEL_TOP + (PANEL_H + PANEL_GAP) * thread_counts.len() as f64 + 24.0;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(
        svg,
        r##"<rect width="100%" height="100%" fill="#ffffff"/>
<text x="{LEFT}" y="22" font-size="15" font-weight="bold">Milliseconds per step (lower is better)</text>"##
    );
    legend(&mut svg, &engines, LEFT, 42.0);
    let index: BTreeMap<(&str, &str, usize), f64> = bars
        .iter()
        .map(|b| {
            (
                (b.engine.as_str(), b.scene.as_str(), b.threads),
                b.ms_per_step,
            )
        })
        .collect();
    for (panel, &threads) in thread_counts.iter().enumerate() {
        let top = PANEL_TOP + 20.0 + (PANEL_H + PANEL_GAP) * panel as f64;
        let values: Vec<f64> = bars
            .iter()
            .filter(|b| b.threads == threads)
            .map(|b| b.ms_per_step)
            .collect();
        let axis = Axis::new(values.iter().copied().fold(0.0, f64::max), top, PANEL_H);
        let plural = if threads == 1 { "" } else { "s" };
        let _ = writeln!(
            svg,
            r#"<text x="{LEFT}" y="{:.1}" font-size="13" font-weight="bold">{threads} thread{plural}</text>"#,
            top - 8.0
        );
        axis.draw(&mut svg, width);
        for (g, scene) in scenes.iter().enumerate() {
            let x0 = LEFT + GROUP_GAP / 2.0 + group_w * g as f64;
            for (e, engine) in engines.iter().enumerate() {
                let Some(&value) = index.get(&(engine.as_str(), scene.as_str(), threads)) else {
                    continue;
                };
                let color = ENGINE_COLORS[e.min(ENGINE_COLORS.len() - 1)];
                bar(
                    &mut svg,
                    x0 + BAR_W * e as f64,
                    &axis,
                    value,
                    color,
                    engine,
                    scene,
                );
            }
            let label_x = x0 + BAR_W * engines.len() as f64 / 2.0;
            let label_y = top + PANEL_H + 14.0;
            let _ = writeln!(
                svg,
                r#"<text x="{label_x:.1}" y="{label_y:.1}" text-anchor="end" transform="rotate(-30 {label_x:.1} {label_y:.1})">{}</text>"#,
                escape(scene)
            );
        }
    }
    let _ = writeln!(
        svg,
        r##"<text x="{LEFT}" y="{:.1}" fill="#555555">Results: {}. A step's time is the run's median timed milliseconds over (steps − 1).</text>"##,
        height - 12.0,
        escape(source)
    );
    svg.push_str("</svg>\n");
    svg
}

/// A linear value axis from 0 to a round maximum.
struct Axis {
    max: f64,
    step: f64,
    top: f64,
    height: f64,
}

impl Axis {
    /// Ticks at 1, 2 or 5 × 10ⁿ, about five of them, the top tick at or above `largest`.
    fn new(largest: f64, top: f64, height: f64) -> Axis {
        let largest = if largest > 0.0 { largest } else { 1.0 };
        let rough = largest / 5.0;
        let power = 10f64.powf(rough.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * power)
            .find(|&s| s >= rough)
            .unwrap_or(10.0 * power);
        let max = (largest / step).ceil() * step;
        Axis {
            max,
            step,
            top,
            height,
        }
    }

    /// The y coordinate of `value`.
    fn y(&self, value: f64) -> f64 {
        self.top + self.height * (1.0 - value / self.max)
    }

    /// A tick's label, with as many decimals as the tick step needs.
    fn label(&self, value: f64) -> String {
        let decimals = (-self.step.log10().floor()).max(0.0) as usize;
        format!("{value:.decimals$}")
    }

    fn draw(&self, svg: &mut String, width: f64) {
        let ticks = (self.max / self.step).round() as usize;
        for i in 0..=ticks {
            let value = self.step * i as f64;
            let y = self.y(value);
            let _ = writeln!(
                svg,
                r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#dddddd"/>
<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
                width - RIGHT,
                LEFT - 6.0,
                y + 4.0,
                self.label(value)
            );
        }
        let _ = writeln!(
            svg,
            r##"<text x="14" y="{:.1}" transform="rotate(-90 14 {:.1})" text-anchor="middle">ms/step</text>"##,
            self.top + self.height / 2.0,
            self.top + self.height / 2.0
        );
    }
}

/// One bar with its value above it and a tooltip.
fn bar(svg: &mut String, x: f64, axis: &Axis, value: f64, color: &str, engine: &str, scene: &str) {
    let y = axis.y(value);
    let h = axis.top + axis.height - y;
    let _ = writeln!(
        svg,
        r#"<rect class="bar" x="{x:.1}" y="{y:.1}" width="{:.1}" height="{h:.1}" fill="{color}"><title>{} {}: {} ms/step</title></rect>"#,
        BAR_W - 2.0,
        escape(engine),
        escape(scene),
        number(value)
    );
    let (tx, ty) = (x + BAR_W / 2.0 + 3.0, y - 3.0);
    let _ = writeln!(
        svg,
        r#"<text x="{tx:.1}" y="{ty:.1}" font-size="9" transform="rotate(-90 {tx:.1} {ty:.1})">{}</text>"#,
        number(value)
    );
}

fn legend(svg: &mut String, engines: &[String], x: f64, y: f64) {
    for (e, engine) in engines.iter().enumerate() {
        let color = ENGINE_COLORS[e.min(ENGINE_COLORS.len() - 1)];
        let x = x + 110.0 * e as f64;
        let _ = writeln!(
            svg,
            r#"<rect x="{x:.1}" y="{:.1}" width="12" height="12" fill="{color}"/><text x="{:.1}" y="{y:.1}">{}</text>"#,
            y - 10.0,
            x + 17.0,
            escape(&display_name(engine))
        );
    }
}

fn display_name(engine: &str) -> String {
    match engine {
        "prism" => "Prism".into(),
        "box2d" => "Box2D v3".into(),
        "rapier" => "Rapier".into(),
        other => other.into(),
    }
}

/// A value with three significant figures (at least two decimals below 10).
fn number(value: f64) -> String {
    if value >= 100.0 {
        format!("{value:.0}")
    } else if value >= 10.0 {
        format!("{value:.1}")
    } else if value >= 0.1 || value == 0.0 {
        format!("{value:.2}")
    } else {
        format!("{value:.3}")
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bars_of(engine: &str, scene: &str, csv: &str, steps: usize) -> Vec<Bar> {
        parse_csv(csv)
            .unwrap()
            .into_iter()
            .map(|(threads, ms)| Bar {
                engine: engine.into(),
                scene: scene.into(),
                threads,
                ms_per_step: ms / (steps - 1) as f64,
            })
            .collect()
    }

    #[test]
    fn a_csv_parses_into_thread_rows() {
        let rows = parse_csv("threads,ms\n1,998.0\n2,499.5\n\n").unwrap();
        assert_eq!(rows, [(1, 998.0), (2, 499.5)]);
        assert!(parse_csv("ms\n1,2").is_err());
        assert!(parse_csv("threads,ms\n1;2").is_err());
        assert!(parse_csv("threads,ms\n0,2").is_err());
        assert!(parse_csv("threads,ms\n1,NaN").is_err());
    }

    /// Two engines, one scene, two thread counts: four bars, each as tall as its value on
    /// its panel's axis, with its value written.
    #[test]
    fn the_chart_has_a_bar_per_engine_scene_and_thread_count() {
        let mut bars = bars_of("prism", "large_pyramid", "threads,ms\n1,998\n2,499", 500);
        bars.extend(bars_of(
            "box2d",
            "large_pyramid",
            "threads,ms\n1,1497\n2,998",
            500,
        ));
        assert_eq!(bars[0].ms_per_step, 2.0);
        let svg = chart(&bars, "test");
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        let rects: Vec<&str> = svg
            .lines()
            .filter(|l| l.contains(r#"class="bar""#))
            .collect();
        assert_eq!(rects.len(), 4);
        assert_eq!(svg.matches(">1 thread<").count(), 1);
        assert_eq!(svg.matches(">2 threads<").count(), 1);
        // 1 thread: Prism 2.0, Box2D 3.0 ms/step; the axis tops out at 3 (ticks of 1).
        let height = |line: &str| -> f64 {
            let start = line.find("height=\"").unwrap() + 8;
            let end = start + line[start..].find('"').unwrap();
            line[start..end].parse().unwrap()
        };
        assert!(
            rects[0].contains("prism large_pyramid: 2.00 ms/step"),
            "{}",
            rects[0]
        );
        assert!((height(rects[0]) - PANEL_H * 2.0 / 3.0).abs() < 0.1);
        assert!(
            rects[1].contains("box2d large_pyramid: 3.00 ms/step"),
            "{}",
            rects[1]
        );
        assert!((height(rects[1]) - PANEL_H).abs() < 0.1);
        // Prism comes first and is drawn in its colour; the legend names both engines.
        assert!(rects[0].contains(ENGINE_COLORS[0]) && rects[1].contains(ENGINE_COLORS[1]));
        assert!(svg.contains(">Prism<") && svg.contains(">Box2D v3<"));
    }

    #[test]
    fn axis_ticks_are_round() {
        let axis = Axis::new(12.3, 0.0, 100.0);
        assert_eq!((axis.step, axis.max), (5.0, 15.0));
        let axis = Axis::new(0.0093, 0.0, 100.0);
        assert!((axis.step - 0.002).abs() < 1e-15 && (axis.max - 0.01).abs() < 1e-15);
        assert_eq!(Axis::new(3.0, 0.0, 100.0).max, 3.0);
        assert_eq!(
            (axis.label(0.0), axis.label(0.004)),
            ("0.000".into(), "0.004".into())
        );
        assert_eq!(Axis::new(40.0, 0.0, 1.0).label(30.0), "30");
    }

    #[test]
    fn plot_arguments_are_checked() {
        let args =
            |text: &str| -> Vec<String> { text.split_whitespace().map(String::from).collect() };
        let options = parse(&args("--csv r --out c.svg --steps 100")).unwrap();
        assert_eq!(options.csv, PathBuf::from("r"));
        assert_eq!(
            (options.out, options.steps),
            (PathBuf::from("c.svg"), Some(100))
        );
        assert!(
            parse(&args("--csv r"))
                .unwrap_err()
                .0
                .contains("needs --csv DIR and --out")
        );
        assert!(
            parse(&args("--csv"))
                .unwrap_err()
                .0
                .contains("--csv expects a value")
        );
        assert!(
            parse(&args("--bars 3"))
                .unwrap_err()
                .0
                .contains("unknown option `--bars`")
        );
    }
}
