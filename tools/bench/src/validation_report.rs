//! Output of the validation scenes: one table per scene, engines side by side, and one JSON
//! object per (scene, engine) with the same figures.
//!
//! The figures come typed from [`scenes::figures`]; this file only decides how each type
//! prints. In the table: lengths in millimetres, durations in seconds, fractions in percent,
//! "never" for a moment that never came, "-" for a figure the run was too short for. In JSON:
//! lengths in metres (keys ending in `_m`), durations in seconds (`_s`), fractions as plain
//! fractions, `null` for never and for missing figures.

use std::fmt::Write as _;

use crate::report::{json_f32, json_number, json_string};
use scenes::figures::{Figure, Figures, Value};

/// The figures of one engine on one validation scene.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidationRow {
    pub scene: &'static str,
    pub engine: String,
    pub threads: usize,
    pub steps: usize,
    pub contact_recycling: bool,
    pub figures: Figures,
}

/// The unit a value's table column is labelled with.
fn unit(value: &Value) -> &'static str {
    match value {
        Value::Metres(_) => " mm",
        Value::Seconds(_) | Value::When(_) => " s",
        Value::Fraction(_) => " %",
        Value::Count(_) | Value::Flag(_) | Value::Missing => "",
    }
}

/// A value as a table cell.
fn cell(value: &Value) -> String {
    match *value {
        Value::Metres(m) => format!("{:.3}", 1000.0 * m),
        Value::Seconds(s) => format!("{s:.5}"),
        Value::When(Some(s)) => format!("{s:.3}"),
        Value::When(None) => "never".to_string(),
        Value::Fraction(f) => format!("{:.3}", 100.0 * f),
        Value::Count(n) => n.to_string(),
        Value::Flag(yes) => if yes { "yes" } else { "no" }.to_string(),
        Value::Missing => "-".to_string(),
    }
}

/// A value as JSON.
fn json_value(value: &Value) -> String {
    match *value {
        Value::Metres(m) => json_f32(m),
        Value::Seconds(s) | Value::Fraction(s) => json_number(s),
        Value::When(Some(s)) => json_f32(s),
        Value::When(None) | Value::Missing => "null".to_string(),
        Value::Count(n) => n.to_string(),
        Value::Flag(yes) => yes.to_string(),
    }
}

/// The table of one scene: a title line, a header, one line per row (all rows of the same
/// scene, so the same figures). Columns are as wide as their widest entry.
pub fn table(rows: &[ValidationRow]) -> String {
    let Some(first) = rows.first() else {
        return String::new();
    };
    let recycling = if first.contact_recycling { "on" } else { "off" };
    let mut text = format!(
        "{} — {} steps, {} thread(s), contact recycling {recycling}\n",
        first.scene, first.steps, first.threads
    );
    let figures = first.figures.list();
    let mut columns: Vec<Vec<String>> = vec![
        std::iter::once("engine".to_string())
            .chain(rows.iter().map(|r| r.engine.clone()))
            .collect(),
    ];
    for (i, figure) in figures.iter().enumerate() {
        let header = format!("{}{}", figure.label, unit(&figure.value));
        let cells = rows.iter().map(|r| cell(&r.figures.list()[i].value));
        columns.push(std::iter::once(header).chain(cells).collect());
    }
    let widths: Vec<usize> = columns
        .iter()
        .map(|c| c.iter().map(|s| s.chars().count()).max().unwrap_or(0))
        .collect();
    for line in 0..=rows.len() {
        let mut cells = Vec::with_capacity(columns.len());
        for (column, &width) in columns.iter().zip(&widths) {
            let text = &column[line];
            let pad = width - text.chars().count();
            cells.push(if cells.is_empty() {
                format!("{text}{}", " ".repeat(pad))
            } else {
                format!("{}{text}", " ".repeat(pad))
            });
        }
        let _ = writeln!(text, "{}", cells.join("  ").trim_end());
    }
    text
}

/// One JSON object (no trailing newline): the run's identity, then the figures by key.
pub fn json_line(row: &ValidationRow) -> String {
    let figures: Vec<String> = row
        .figures
        .list()
        .iter()
        .map(|Figure { key, value, .. }| format!("{}:{}", json_string(key), json_value(value)))
        .collect();
    format!(
        "{{\"scene\":{},\"engine\":{},\"threads\":{},\"steps\":{},\"contact_recycling\":{},\
         \"figures\":{{{}}}}}",
        json_string(row.scene),
        json_string(&row.engine),
        row.threads,
        row.steps,
        row.contact_recycling,
        figures.join(",")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use scenes::figures::StackFigures;

    fn row(engine: &str, drift: f32, time: Option<f32>, stood: bool) -> ValidationRow {
        ValidationRow {
            scene: "column_20",
            engine: engine.to_string(),
            threads: 1,
            steps: 1200,
            contact_recycling: true,
            figures: Figures::Stack(StackFigures {
                max_top_drift: drift,
                final_top_drift: 0.5 * drift,
                drift_time: time,
                top_sink: 0.0125,
                fallen: if stood { 0 } else { 20 },
                stood,
            }),
        }
    }

    #[test]
    fn table_lines_up_engines_under_their_figures() {
        let rows = [
            row("prism", 9.5, Some(1.1), false),
            row("box2d", 0.007, None, true),
        ];
        let text = table(&rows);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(lines[0].starts_with("column_20 — 1200 steps"), "{text}");
        assert!(lines[0].ends_with("contact recycling on"), "{text}");
        assert!(lines[1].starts_with("engine  top drift mm"), "{text}");
        assert!(
            lines[2].contains("9500.000") && lines[2].contains("1.100"),
            "{text}"
        );
        assert!(lines[2].ends_with("20     no"), "{text}");
        assert!(
            lines[3].contains("7.000") && lines[3].contains("never"),
            "{text}"
        );
        assert!(lines[3].ends_with(" 0    yes"), "{text}");
        // Every line is as long as the header: the columns are aligned.
        assert!(
            lines[1..].iter().all(|l| l.len() == lines[1].len()),
            "{text}"
        );
    }

    #[test]
    fn json_has_the_figures_by_key() {
        let line = json_line(&row("box2d", 0.007, None, true));
        assert_eq!(
            line,
            "{\"scene\":\"column_20\",\"engine\":\"box2d\",\"threads\":1,\"steps\":1200,\
             \"contact_recycling\":true,\"figures\":{\"top_max_drift_m\":0.007,\
             \"top_final_drift_m\":0.0035,\"drift_over_1cm_s\":null,\"top_sink_m\":0.0125,\"fallen\":0,\"stood\":true}}"
        );
    }
}
