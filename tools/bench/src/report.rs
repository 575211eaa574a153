//! Output of the measurements: a readable table, JSON lines, and Box2D-style CSV files.
//!
//! One [`Row`] per (scene, engine, thread count). The table shows the median time, the time
//! per timed step, the counters, the memory the engine held after the run (MB = 10⁶ bytes, see
//! `runner` for how it is measured), the quality figures and the ratio to Box2D's median when
//! Box2D ran the same scene and thread count in the same process. JSON is written by hand
//! (one object per line, keys in a fixed order, the memory as `"bytes"`, and with `--stages`
//! the phases as `"phases"`); non-finite numbers become `null`. CSV follows Box2D's results format: `DIR/<engine>/<scene>.csv` holding a
//! `threads,ms` header and one `threads,ms` line per thread count (that format has no place
//! for the bytes).

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use crate::engine::{BenchError, Counters};
use crate::runner::Quality;

/// The summary of the repeats of one (scene, engine, threads).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub scene: &'static str,
    pub engine: String,
    pub threads: usize,
    pub steps: usize,
    pub repeats: usize,
    /// Median over the repeats of the timed steps' total, milliseconds.
    pub median_ms: f64,
    pub counters: Counters,
    pub quality: Quality,
    /// Mean milliseconds per timed step of each reported phase, of the repeat whose time is
    /// the median (`runner::median_phases`).
    pub phases: Vec<(&'static str, f64)>,
    /// Bytes the engine held for the scene after the run (last repeat).
    pub bytes: u64,
}

impl Row {
    /// Milliseconds per timed step (all steps but the untimed first).
    pub fn ms_per_step(&self) -> f64 {
        self.median_ms / (self.steps.saturating_sub(1).max(1)) as f64
    }
}

/// A JSON number, or `null` when not finite.
pub(crate) fn json_number(value: f64) -> String {
    if value.is_finite() {
        format!("{value}")
    } else {
        "null".to_string()
    }
}

/// A JSON number from an `f32`, printed at `f32` precision (shortest round-trip form), or
/// `null` when not finite.
pub(crate) fn json_f32(value: f32) -> String {
    if value.is_finite() {
        format!("{value}")
    } else {
        "null".to_string()
    }
}

/// The quality object: penetration always, the other figures where the scene has them.
fn quality_json(quality: &Quality) -> String {
    let mut fields = vec![format!(
        "\"max_penetration_m\":{}",
        json_f32(quality.max_penetration_m)
    )];
    let optional = [
        ("top_drop_m", quality.top_drop_m),
        ("max_joint_error_m", quality.max_joint_error_m),
        ("motor_speed_rad_s", quality.motor_speed_rad_s),
    ];
    for (key, value) in optional {
        if let Some(value) = value {
            fields.push(format!("\"{key}\":{}", json_f32(value)));
        }
    }
    format!("{{{}}}", fields.join(","))
}

/// One JSON object (no trailing newline), keys in the documented order; with `stages`, a last
/// key `phases` holds what the table's `--stages` line shows (see [`phases_json`]).
pub fn json_line(row: &Row, stages: bool) -> String {
    let phases = if stages && !row.phases.is_empty() {
        format!(",\"phases\":{}", phases_json(&row.phases))
    } else {
        String::new()
    };
    format!(
        "{{\"scene\":{},\"engine\":{},\"threads\":{},\"steps\":{},\"repeats\":{},\
         \"median_ms\":{},\"ms_per_step\":{},\"bodies\":{},\"contacts\":{},\"bytes\":{},\
         \"quality\":{}{phases}}}",
        json_string(row.scene),
        json_string(&row.engine),
        row.threads,
        row.steps,
        row.repeats,
        json_number(row.median_ms),
        json_number(row.ms_per_step()),
        row.counters.bodies,
        row.counters.contacts,
        row.bytes,
        quality_json(&row.quality),
    )
}

/// The phases as a JSON object: each label (without the table's indentation) and its ms per
/// timed step, in the engine's order.
fn phases_json(phases: &[(&'static str, f64)]) -> String {
    let fields: Vec<String> = phases
        .iter()
        .map(|(name, ms)| format!("{}:{}", json_string(name.trim_start()), json_number(*ms)))
        .collect();
    format!("{{{}}}", fields.join(","))
}

pub(crate) fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The table header line.
pub fn table_header() -> String {
    format!(
        "{:<14} {:<7} {:>3} {:>5} {:>11} {:>9} {:>7} {:>7} {:>8} {:>6} {:>8} {:>7}  quality",
        "scene",
        "engine",
        "thr",
        "steps",
        "median ms",
        "ms/step",
        "bodies",
        "shapes",
        "contacts",
        "joints",
        "MB",
        "/box2d"
    )
}

/// One table line; `box2d_ms` is Box2D's median for the same scene and threads, if run.
pub fn table_line(row: &Row, box2d_ms: Option<f64>) -> String {
    let ratio = match box2d_ms {
        Some(ms) if ms > 0.0 => format!("{:.2}", row.median_ms / ms),
        _ => "-".to_string(),
    };
    let c = &row.counters;
    format!(
        "{:<14} {:<7} {:>3} {:>5} {:>11.1} {:>9.3} {:>7} {:>7} {:>8} {:>6} {:>8.1} {:>7}  {}",
        row.scene,
        row.engine,
        row.threads,
        row.steps,
        row.median_ms,
        row.ms_per_step(),
        c.bodies,
        c.shapes,
        c.contacts,
        c.joints,
        megabytes(row.bytes),
        ratio,
        quality_text(&row.quality)
    )
}

/// Bytes in MB (10⁶ bytes).
pub fn megabytes(bytes: u64) -> f64 {
    bytes as f64 / 1.0e6
}

fn quality_text(quality: &Quality) -> String {
    let mut text = format!("pen {:.4} m", quality.max_penetration_m);
    if let Some(drop) = quality.top_drop_m {
        let _ = write!(text, ", top drop {drop:.4} m");
    }
    if let Some(error) = quality.max_joint_error_m {
        let _ = write!(text, ", joint err {error:.4} m");
    }
    if let Some(speed) = quality.motor_speed_rad_s {
        let _ = write!(text, ", motor {speed:.3} rad/s");
    }
    text
}

/// The CSV text of one engine and scene: header, then `threads,ms` per row, in row order.
pub fn csv_text(rows: &[&Row]) -> String {
    let mut text = String::from("threads,ms\n");
    for row in rows {
        let _ = writeln!(text, "{},{}", row.threads, json_number(row.median_ms));
    }
    text
}

/// Writes `dir/<engine>/<scene>.csv` for every (engine, scene) among `rows`.
pub fn write_csv(dir: &Path, rows: &[Row]) -> Result<(), BenchError> {
    let mut keys: Vec<(&str, &str)> = rows.iter().map(|r| (r.engine.as_str(), r.scene)).collect();
    keys.sort_unstable();
    keys.dedup();
    for (engine, scene) in keys {
        let selected: Vec<&Row> = rows
            .iter()
            .filter(|r| r.engine == engine && r.scene == scene)
            .collect();
        let engine_dir = dir.join(engine);
        fs::create_dir_all(&engine_dir)
            .map_err(|e| BenchError::new(format!("cannot create {}: {e}", engine_dir.display())))?;
        let path = engine_dir.join(format!("{scene}.csv"));
        fs::write(&path, csv_text(&selected))
            .map_err(|e| BenchError::new(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}

/// The per-phase line printed under a row with `--stages`.
pub fn phases_line(row: &Row) -> String {
    let mut text = String::from("    ms/step:");
    for (name, ms) in &row.phases {
        let _ = write!(text, " {name} {ms:.3}");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(engine: &str, threads: usize, median_ms: f64) -> Row {
        Row {
            scene: "large_pyramid",
            engine: engine.to_string(),
            threads,
            steps: 501,
            repeats: 3,
            median_ms,
            counters: Counters {
                bodies: 5051,
                shapes: 5051,
                contacts: 14950,
                joints: 0,
            },
            quality: Quality {
                max_penetration_m: 0.5,
                top_drop_m: Some(0.25),
                max_joint_error_m: None,
                motor_speed_rad_s: None,
            },
            phases: Vec::new(),
            bytes: 12_345_678,
        }
    }

    #[test]
    fn json_line_has_the_documented_keys_in_order() {
        let line = json_line(&row("box2d", 2, 1000.0), false);
        assert_eq!(
            line,
            "{\"scene\":\"large_pyramid\",\"engine\":\"box2d\",\"threads\":2,\"steps\":501,\
             \"repeats\":3,\"median_ms\":1000,\"ms_per_step\":2,\"bodies\":5051,\
             \"contacts\":14950,\"bytes\":12345678,\"quality\":{\"max_penetration_m\":0.5,\
             \"top_drop_m\":0.25}}"
        );
    }

    /// With `--stages` the JSON object ends with the phases line's figures, under the same
    /// labels less their indentation; without it, or with no phases, there is no such key.
    #[test]
    fn json_line_carries_the_phases_with_stages() {
        let mut with_phases = row("prism", 1, 1000.0);
        with_phases.phases = vec![("solve", 1.5), ("  prepare", 0.25), ("total", 2.0)];
        let line = json_line(&with_phases, true);
        let tail = ",\"phases\":{\"solve\":1.5,\"prepare\":0.25,\"total\":2}}";
        assert!(line.ends_with(tail), "{line}");
        assert!(!json_line(&with_phases, false).contains("phases"));
        assert!(!json_line(&row("prism", 1, 1000.0), true).contains("phases"));
        let phases_line = phases_line(&with_phases);
        assert_eq!(
            phases_line,
            "    ms/step: solve 1.500   prepare 0.250 total 2.000"
        );
    }

    #[test]
    fn json_escapes_and_non_finite_numbers() {
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
        assert_eq!(json_number(f64::NAN), "null");
        assert_eq!(json_number(1.5), "1.5");
        assert_eq!(json_f32(0.436_331_5), "0.4363315");
        assert_eq!(json_f32(f32::INFINITY), "null");
    }

    #[test]
    fn table_ratio_is_relative_to_box2d() {
        let line = table_line(&row("rapier", 1, 300.0), Some(200.0));
        assert!(line.contains(" 1.50 "), "{line}");
        assert!(line.contains("top drop 0.2500 m"), "{line}");
        assert!(line.contains(" 12.3 "), "memory in MB: {line}");
        let line = table_line(&row("rapier", 1, 300.0), None);
        assert!(line.contains(" - "), "{line}");
    }

    #[test]
    fn csv_lists_threads_and_median_ms() {
        let rows = [row("box2d", 1, 2304.5), row("box2d", 2, 1513.0)];
        let refs: Vec<&Row> = rows.iter().collect();
        assert_eq!(csv_text(&refs), "threads,ms\n1,2304.5\n2,1513\n");
    }

    #[test]
    fn write_csv_creates_one_file_per_engine_and_scene() {
        let dir = std::env::temp_dir().join(format!("prism-bench-csv-{}", std::process::id()));
        let rows = [
            row("box2d", 1, 10.0),
            row("rapier", 1, 20.0),
            row("box2d", 2, 6.0),
        ];
        write_csv(&dir, &rows).unwrap();
        let box2d = fs::read_to_string(dir.join("box2d/large_pyramid.csv")).unwrap();
        let rapier = fs::read_to_string(dir.join("rapier/large_pyramid.csv")).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(box2d, "threads,ms\n1,10\n2,6\n");
        assert_eq!(rapier, "threads,ms\n1,20\n");
    }
}
