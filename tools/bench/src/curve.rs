//! The scale curve: how step time and memory grow with the body count, from the rows of a run
//! (`prism-bench --scene scale --curve FILE`).
//!
//! For each engine and thread count the rows are ordered by body count, and each point gives
//! the time per step, the time per body and step (µs), how that compares with the smallest
//! scene's (the *growth*: 1.00 means step time grew exactly in proportion to the body count,
//! 2.00 that each body costs twice what it did in the smallest scene) and with the previous
//! point's (*step growth*, the same ratio for one step up the curve), the bytes held and the
//! bytes per body. A world that outgrows the processor's caches between two points pays more
//! per body for memory traffic alone, so a step growth above 1 is not by itself a quadratic
//! pass: the step growth between two sizes that both far exceed the caches is the test. Bodies are all the world's bodies (the bins' static containers included:
//! one in 10,001).
//!
//! The CSV (`FILE`) has one line per point, engines and thread counts together:
//! `scene,bodies,engine,threads,ms_per_step,us_per_body_step,growth,step_growth,bytes,
//! bytes_per_body` (`step_growth` empty for the smallest scene).

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use crate::engine::BenchError;
use crate::report::{Row, json_number, megabytes};

/// One point of the curve.
#[derive(Clone, Debug, PartialEq)]
pub struct CurvePoint {
    pub scene: &'static str,
    pub engine: String,
    pub threads: usize,
    pub bodies: usize,
    pub ms_per_step: f64,
    pub bytes: u64,
    /// Time per body and step over the smallest scene's, same engine and threads.
    pub growth: f64,
    /// Time per body and step over the previous (smaller) point's; `None` for the smallest.
    pub step_growth: Option<f64>,
}

impl CurvePoint {
    /// Microseconds per body and step.
    pub fn us_per_body_step(&self) -> f64 {
        1000.0 * self.ms_per_step / self.bodies.max(1) as f64
    }

    pub fn bytes_per_body(&self) -> f64 {
        self.bytes as f64 / self.bodies.max(1) as f64
    }
}

/// The curve of `rows`: grouped by engine and threads (in the order they first appear),
/// each group ordered by body count.
pub fn curve(rows: &[Row]) -> Vec<CurvePoint> {
    let mut groups: Vec<(&str, usize)> = Vec::new();
    for row in rows {
        if !groups.contains(&(row.engine.as_str(), row.threads)) {
            groups.push((row.engine.as_str(), row.threads));
        }
    }
    let mut points = Vec::new();
    for (engine, threads) in groups {
        let mut group: Vec<&Row> = rows
            .iter()
            .filter(|r| r.engine == engine && r.threads == threads)
            .collect();
        group.sort_by_key(|r| r.counters.bodies);
        let Some(smallest) = group.first() else {
            continue;
        };
        let cost = |row: &Row| row.ms_per_step() / row.counters.bodies.max(1) as f64;
        let base = cost(smallest);
        let mut previous: Option<f64> = None;
        for row in group {
            let per_body = cost(row);
            let step_growth = previous.map(|p| per_body / p);
            previous = Some(per_body);
            points.push(CurvePoint {
                scene: row.scene,
                engine: row.engine.clone(),
                threads: row.threads,
                bodies: row.counters.bodies,
                ms_per_step: row.ms_per_step(),
                bytes: row.bytes,
                growth: per_body / base,
                step_growth,
            });
        }
    }
    points
}

/// The curve as a readable table.
pub fn table(points: &[CurvePoint]) -> String {
    let mut text = format!(
        "{:<12} {:>9} {:<7} {:>3} {:>10} {:>12} {:>7} {:>7} {:>10} {:>10}\n",
        "scene",
        "bodies",
        "engine",
        "thr",
        "ms/step",
        "µs/body·step",
        "growth",
        "step",
        "MB",
        "bytes/body"
    );
    for p in points {
        let step = p
            .step_growth
            .map_or_else(|| "-".to_string(), |g| format!("{g:.2}"));
        let _ = writeln!(
            text,
            "{:<12} {:>9} {:<7} {:>3} {:>10.3} {:>12.4} {:>7.2} {:>7} {:>10.1} {:>10.0}",
            p.scene,
            p.bodies,
            p.engine,
            p.threads,
            p.ms_per_step,
            p.us_per_body_step(),
            p.growth,
            step,
            megabytes(p.bytes),
            p.bytes_per_body()
        );
    }
    text
}

/// The curve as CSV (see the module notes for the columns).
pub fn csv_text(points: &[CurvePoint]) -> String {
    let mut text = String::from(
        "scene,bodies,engine,threads,ms_per_step,us_per_body_step,growth,step_growth,bytes,\
         bytes_per_body\n",
    );
    for p in points {
        let step_growth = p.step_growth.map(json_number).unwrap_or_default();
        let _ = writeln!(
            text,
            "{},{},{},{},{},{},{},{},{},{}",
            p.scene,
            p.bodies,
            p.engine,
            p.threads,
            json_number(p.ms_per_step),
            json_number(p.us_per_body_step()),
            json_number(p.growth),
            step_growth,
            p.bytes,
            json_number(p.bytes_per_body())
        );
    }
    text
}

/// Writes the curve's CSV to `path`.
pub fn write_csv(path: &Path, points: &[CurvePoint]) -> Result<(), BenchError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)
            .map_err(|e| BenchError::new(format!("cannot create {}: {e}", dir.display())))?;
    }
    fs::write(path, csv_text(points))
        .map_err(|e| BenchError::new(format!("cannot write {}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Counters;
    use crate::runner::Quality;

    /// A row of `bodies` bodies taking `ms_per_step` over 11 steps (10 timed).
    fn row(scene: &'static str, engine: &str, threads: usize, bodies: usize, ms: f64) -> Row {
        Row {
            scene,
            engine: engine.to_string(),
            threads,
            steps: 11,
            repeats: 1,
            median_ms: 10.0 * ms,
            counters: Counters {
                bodies,
                ..Counters::default()
            },
            quality: Quality::default(),
            phases: Vec::new(),
            bytes: 500 * bodies as u64,
        }
    }

    /// Linear time gives growth 1 at every size; time growing as n·log₁₀ n gives growth
    /// log₁₀ n / log₁₀ n₀; points come grouped by engine and threads, ordered by bodies.
    #[test]
    fn growth_compares_time_per_body_with_the_smallest_scene() {
        let rows = [
            row("scale_1m", "prism", 1, 1_000_000, 1000.0),
            row("scale_10k", "prism", 1, 10_000, 10.0),
            row("scale_10k", "box2d", 1, 10_000, 10.0),
            row("scale_100k", "prism", 1, 100_000, 100.0),
            row("scale_1m", "box2d", 1, 1_000_000, 1000.0 * 6.0 / 4.0),
        ];
        let points = curve(&rows);
        let order: Vec<(&str, usize)> = points
            .iter()
            .map(|p| (p.engine.as_str(), p.bodies))
            .collect();
        assert_eq!(
            order,
            [
                ("prism", 10_000),
                ("prism", 100_000),
                ("prism", 1_000_000),
                ("box2d", 10_000),
                ("box2d", 1_000_000)
            ]
        );
        for p in &points[..3] {
            assert!((p.growth - 1.0).abs() < 1e-12, "{p:?}");
            assert!((p.us_per_body_step() - 1.0).abs() < 1e-12, "{p:?}");
            assert_eq!(p.bytes_per_body(), 500.0);
        }
        assert!((points[4].growth - 1.5).abs() < 1e-12);
        assert_eq!(points[3].step_growth, None);
        assert!((points[4].step_growth.unwrap() - 1.5).abs() < 1e-12);
        assert!((points[2].step_growth.unwrap() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn csv_and_table_carry_every_point() {
        let rows = [
            row("scale_10k", "prism", 2, 10_000, 5.0),
            row("scale_100k", "prism", 2, 100_000, 100.0),
        ];
        let points = curve(&rows);
        assert_eq!(
            csv_text(&points),
            "scene,bodies,engine,threads,ms_per_step,us_per_body_step,growth,step_growth,bytes,\
             bytes_per_body\n\
             scale_10k,10000,prism,2,5,0.5,1,,5000000,500\n\
             scale_100k,100000,prism,2,100,1,2,2,50000000,500\n"
        );
        let table = table(&points);
        assert_eq!(table.lines().count(), 3);
        assert!(table.contains("   2.00    2.00 "), "{table}");
    }

    #[test]
    fn write_csv_creates_its_folder() {
        let dir = std::env::temp_dir().join(format!("prism-bench-curve-{}", std::process::id()));
        let path = dir.join("nested/scale.csv");
        write_csv(&path, &curve(&[row("scale_10k", "prism", 1, 10_000, 1.0)])).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        assert!(text.starts_with("scene,bodies") && text.lines().count() == 2);
    }
}
