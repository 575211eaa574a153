//! `prism-bench`: Box2D v3's large benchmark scenes, run on Prism and — side by side, in the
//! same process — on Box2D v3 and Rapier; and small validation scenes whose quality figures
//! compare the engines.
//!
//! ```text
//! prism-bench --scene large_pyramid                 # full step count, readable table
//! prism-bench --scene a,b | all | validation  --threads 1,2  --steps N  --repeats R
//!             --engine prism,box2d,rapier  --no-recycling  --json  --csv DIR  --list
//! ```
//!
//! **Benchmark scenes** (`all`): for every scene and thread count, each repeat runs every
//! requested engine once, one after the other (A, B, C, A, B, C, …), so machine noise falls
//! on all engines alike and the ratio to Box2D is measured side by side. Reported time is the
//! median over the repeats of the summed wall time of the timed steps (see [`runner`] for
//! exactly what is timed).
//!
//! **Validation scenes** (`validation`: columns, boards, a card house, heavy-on-light,
//! pendulums): every engine runs the scene once per thread count, untimed, and a table per
//! scene puts the engines' quality figures side by side (see [`validation`] and
//! `scenes::figures`). They are not part of `all`, so timing runs stay as they were.
//!
//! Box2D and Rapier are compiled in by cargo feature `compare`; the Prism backend always. Arguments are parsed by hand and JSON is written by hand, to keep the default
//! build free of dependencies.

mod engine;
#[cfg(all(test, feature = "compare"))]
mod engine_tests;
#[cfg_attr(not(feature = "compare"), allow(dead_code))]
mod group_bits;
mod report;
mod runner;
mod validation;
mod validation_report;

#[cfg(feature = "compare")]
mod box2d;
mod prism_engine;
#[cfg(feature = "compare")]
mod rapier;

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use engine::{BenchError, EngineFactory, EngineOptions, engine_factory};
use report::Row;
use runner::{PreparedScene, RunConfig, RunResult, median, run_once};
use scenes::description::{SCENES, SUBSTEPS, SceneSpec, TIME_STEP, VALIDATION_SCENES, find_scene};
use validation_report::ValidationRow;

const USAGE: &str = "\
usage: prism-bench [options]
  --scene LIST     scenes to run, comma-separated; `all` is the benchmark scenes,
                   `validation` the validation scenes (default: all)
  --engine LIST    engines: prism, box2d, rapier (default: prism)
  --threads LIST   worker thread counts, comma-separated (default: 1)
  --steps N        steps per run, at least 2 (default: each scene's own count)
  --repeats R      runs per (scene, engine, threads); the median is reported (default: 1)
  --continuous     turn on continuous collision in every engine (default: off)
  --no-recycling   turn off contact recycling in every engine (default: on)
  --json           print one JSON object per line instead of the table
  --stages         under each table row, the engine's mean ms/step per phase and solver
                   stage (Prism's StepProfile, Box2D's b2Profile; table output only)
  --csv DIR        also write DIR/<engine>/<scene>.csv with `threads,ms` lines
  --list           list the scenes and exit
  --help           print this help";

/// The parsed command line.
#[derive(Clone, Debug, PartialEq)]
struct Options {
    scenes: Vec<SceneSpec>,
    engines: Vec<String>,
    threads: Vec<usize>,
    steps: Option<usize>,
    repeats: usize,
    engine: EngineOptions,
    json: bool,
    stages: bool,
    csv_dir: Option<PathBuf>,
    list: bool,
    help: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            scenes: SCENES.to_vec(),
            engines: vec!["prism".to_string()],
            threads: vec![1],
            steps: None,
            repeats: 1,
            engine: EngineOptions::default(),
            json: false,
            stages: false,
            csv_dir: None,
            list: false,
            help: false,
        }
    }
}

/// Scene names and the group names `all` and `validation`, in the order given.
fn parse_scenes(value: &str) -> Result<Vec<SceneSpec>, BenchError> {
    let mut scenes = Vec::new();
    for name in split_list(value) {
        match name {
            "all" => scenes.extend(SCENES),
            "validation" => scenes.extend(VALIDATION_SCENES),
            _ => scenes.push(find_scene(name).ok_or_else(|| {
                let known: Vec<&str> = SCENES
                    .iter()
                    .chain(&VALIDATION_SCENES)
                    .map(|s| s.name)
                    .collect();
                BenchError::new(format!(
                    "unknown scene `{name}` (known: {}, all, validation)",
                    known.join(", ")
                ))
            })?),
        }
    }
    Ok(scenes)
}

fn split_list(value: &str) -> impl Iterator<Item = &str> {
    value.split(',').map(str::trim).filter(|s| !s.is_empty())
}

/// Parses a positive integer option value (`at_least` is its smallest allowed value).
fn parse_count(option: &str, value: &str, at_least: usize) -> Result<usize, BenchError> {
    match value.parse::<usize>() {
        Ok(n) if n >= at_least => Ok(n),
        _ => Err(BenchError::new(format!(
            "{option} expects an integer ≥ {at_least}, got `{value}`"
        ))),
    }
}

fn parse_args(args: &[String]) -> Result<Options, BenchError> {
    let mut options = Options::default();
    let mut i = 0;
    while i < args.len() {
        let (flag, inline_value) = match args[i].split_once('=') {
            Some((flag, value)) => (flag, Some(value.to_string())),
            None => (args[i].as_str(), None),
        };
        let takes_value = matches!(
            flag,
            "--scene" | "--engine" | "--threads" | "--steps" | "--repeats" | "--csv"
        );
        let value = if !takes_value {
            if inline_value.is_some() {
                return Err(BenchError::new(format!("{flag} takes no value")));
            }
            String::new()
        } else if let Some(value) = inline_value {
            value
        } else {
            i += 1;
            args.get(i)
                .cloned()
                .ok_or_else(|| BenchError::new(format!("{flag} expects a value")))?
        };
        apply_flag(&mut options, flag, &value)?;
        i += 1;
    }
    if options.engines.is_empty() || options.threads.is_empty() || options.scenes.is_empty() {
        return Err(BenchError::new(
            "--scene, --engine and --threads need at least one item",
        ));
    }
    Ok(options)
}

fn apply_flag(options: &mut Options, flag: &str, value: &str) -> Result<(), BenchError> {
    match flag {
        "--scene" => options.scenes = parse_scenes(value)?,
        "--engine" => {
            options.engines = split_list(value).map(str::to_string).collect();
        }
        "--threads" => {
            options.threads = split_list(value)
                .map(|t| parse_count("--threads", t, 1))
                .collect::<Result<_, _>>()?;
        }
        "--steps" => options.steps = Some(parse_count("--steps", value, 2)?),
        "--repeats" => options.repeats = parse_count("--repeats", value, 1)?,
        "--csv" => options.csv_dir = Some(PathBuf::from(value)),
        "--json" => options.json = true,
        "--stages" => options.stages = true,
        "--continuous" => options.engine.continuous = true,
        "--no-recycling" => options.engine.contact_recycling = false,
        "--list" => options.list = true,
        "--help" | "-h" => options.help = true,
        other => {
            return Err(BenchError::new(format!(
                "unknown option `{other}`\n{USAGE}"
            )));
        }
    }
    Ok(())
}

/// Writes one line to standard output. Unlike `println!`, a closed pipe (`| head`) is an
/// error to report, not a panic.
fn emit(line: &str) -> Result<(), BenchError> {
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{line}")
        .and_then(|()| stdout.flush())
        .map_err(|e| BenchError::new(format!("cannot write to standard output: {e}")))
}

fn list_scenes() -> Result<(), BenchError> {
    emit(&format!(
        "every scene steps at {:.0} Hz with {SUBSTEPS} substeps",
        1.0 / TIME_STEP
    ))?;
    emit(&format!("{:<24} {:>6}  sleep  group", "scene", "steps"))?;
    for (scenes, group) in [(&SCENES[..], "all"), (&VALIDATION_SCENES[..], "validation")] {
        for scene in scenes {
            let sleep = if scene.sleep_enabled { "on" } else { "off" };
            emit(&format!(
                "{:<24} {:>6}  {sleep:<5}  {group}",
                scene.name, scene.steps
            ))?;
        }
    }
    Ok(())
}

/// Runs every engine on one scene and thread count, alternating engines within each
/// repeat, and returns one row per engine.
fn measure(
    scene: &PreparedScene,
    engines: &[(String, EngineFactory)],
    threads: usize,
    options: &Options,
) -> Result<Vec<Row>, BenchError> {
    let steps = options.steps.unwrap_or(scene.spec.steps);
    let config = RunConfig {
        threads,
        steps,
        engine: options.engine,
    };
    let mut runs: Vec<Vec<RunResult>> = vec![Vec::new(); engines.len()];
    for _ in 0..options.repeats {
        for (runs, (_, factory)) in runs.iter_mut().zip(engines) {
            runs.push(run_once(*factory, scene, config)?);
        }
    }
    let rows = engines.iter().zip(runs).map(|((name, _), runs)| {
        let times: Vec<f64> = runs.iter().map(|r| r.timed_ms).collect();
        let last = runs.last().cloned();
        Row {
            scene: scene.spec.name,
            engine: name.clone(),
            threads,
            steps,
            repeats: options.repeats,
            median_ms: median(&times).unwrap_or(f64::NAN),
            counters: last.as_ref().map(|r| r.counters).unwrap_or_default(),
            quality: last.as_ref().map(|r| r.quality).unwrap_or_default(),
            phases: last.map(|r| r.phases).unwrap_or_default(),
        }
    });
    Ok(rows.collect())
}

fn print_rows(rows: &[Row], json: bool, stages: bool) -> Result<(), BenchError> {
    let box2d_ms = rows
        .iter()
        .find(|r| r.engine == "box2d")
        .map(|r| r.median_ms);
    for row in rows {
        if json {
            emit(&report::json_line(row))?;
        } else {
            emit(&report::table_line(row, box2d_ms))?;
        }
        if stages && !json && !row.phases.is_empty() {
            emit(&report::phases_line(row))?;
        }
    }
    Ok(())
}

/// Runs every engine once on one validation scene and thread count and returns one row per
/// engine.
fn validate(
    scene: &PreparedScene,
    engines: &[(String, EngineFactory)],
    threads: usize,
    options: &Options,
) -> Result<Vec<ValidationRow>, BenchError> {
    let steps = options.steps.unwrap_or(scene.spec.steps);
    let config = RunConfig {
        threads,
        steps,
        engine: options.engine,
    };
    engines
        .iter()
        .map(|(name, factory)| {
            let figures = validation::run_validation(*factory, scene, config)?;
            Ok(ValidationRow {
                scene: scene.spec.name,
                engine: name.clone(),
                threads,
                steps,
                contact_recycling: options.engine.contact_recycling,
                figures,
            })
        })
        .collect()
}

fn print_validation(rows: &[ValidationRow], json: bool) -> Result<(), BenchError> {
    if json {
        for row in rows {
            emit(&validation_report::json_line(row))?;
        }
        Ok(())
    } else {
        emit(&validation_report::table(rows))
    }
}

/// Runs the benchmark scenes (timed), then the validation scenes (figures).
fn run(options: &Options) -> Result<(), BenchError> {
    let engines = options
        .engines
        .iter()
        .map(|name| engine_factory(name).map(|factory| (name.clone(), factory)))
        .collect::<Result<Vec<_>, _>>()?;
    let (validation, timed): (Vec<SceneSpec>, Vec<SceneSpec>) =
        options.scenes.iter().partition(|s| s.is_validation());
    if !options.json && !timed.is_empty() {
        emit(&report::table_header())?;
    }
    let mut all_rows = Vec::new();
    for spec in timed {
        let scene = PreparedScene::new(spec);
        for &threads in &options.threads {
            let rows = measure(&scene, &engines, threads, options)?;
            print_rows(&rows, options.json, options.stages)?;
            all_rows.extend(rows);
        }
    }
    if let Some(dir) = &options.csv_dir {
        report::write_csv(dir, &all_rows)?;
    }
    for spec in validation {
        let scene = PreparedScene::new(spec);
        for &threads in &options.threads {
            let rows = validate(&scene, &engines, threads, options)?;
            print_validation(&rows, options.json)?;
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = parse_args(&args).and_then(|options| {
        if options.help {
            emit(USAGE)
        } else if options.list {
            list_scenes()
        } else {
            run(&options)
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("prism-bench: {error}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn defaults_run_every_scene_on_prism_with_one_thread() {
        let options = parse_args(&[]).unwrap();
        // Box2D's eight benchmark scenes, then the sleeping field and its baseline.
        assert_eq!(options.scenes.len(), 10);
        assert_eq!(options.engines, ["prism"]);
        assert_eq!(options.threads, [1]);
        assert_eq!((options.steps, options.repeats), (None, 1));
    }

    #[test]
    fn parses_every_option() {
        let options = parse_args(&args(
            "--scene large_pyramid,rain --engine box2d,rapier --threads 1,2 --steps 60 \
             --repeats=3 --json --csv out --continuous --stages",
        ))
        .unwrap();
        let names: Vec<&str> = options.scenes.iter().map(|s| s.name).collect();
        assert_eq!(names, ["large_pyramid", "rain"]);
        assert_eq!(options.engines, ["box2d", "rapier"]);
        assert_eq!(options.threads, [1, 2]);
        assert_eq!((options.steps, options.repeats), (Some(60), 3));
        assert!(options.json && options.engine.continuous && options.stages);
        assert!(options.engine.contact_recycling);
        assert_eq!(options.csv_dir, Some(PathBuf::from("out")));
        assert_eq!(parse_args(&args("--scene all")).unwrap().scenes.len(), 10);
    }

    /// `all` means the benchmark scenes only; `validation` the validation scenes; groups and
    /// names mix in the order given.
    #[test]
    fn scene_groups_expand_in_place() {
        let all = parse_args(&args("--scene all")).unwrap().scenes;
        assert!(all.iter().all(|s| !s.is_validation()));
        let validation = parse_args(&args("--scene validation")).unwrap().scenes;
        assert_eq!(validation.len(), VALIDATION_SCENES.len());
        assert!(validation.iter().all(|s| s.is_validation()));
        let options = parse_args(&args("--scene column_20,smash,validation --no-recycling"));
        let options = options.unwrap();
        let names: Vec<&str> = options.scenes.iter().map(|s| s.name).collect();
        assert_eq!(&names[..3], ["column_20", "smash", "column_10"]);
        assert_eq!(names.len(), 2 + VALIDATION_SCENES.len());
        assert!(!options.engine.contact_recycling);
    }

    #[test]
    fn rejects_bad_input_with_a_message() {
        let cases = [
            ("--scene nowhere", "unknown scene `nowhere`"),
            ("--threads 0", "--threads expects an integer ≥ 1"),
            ("--steps 1", "--steps expects an integer ≥ 2"),
            ("--repeats x", "--repeats expects"),
            ("--steps", "--steps expects a value"),
            ("--fast", "unknown option `--fast`"),
            ("--json=yes", "--json takes no value"),
        ];
        for (text, message) in cases {
            let error = parse_args(&args(text)).unwrap_err();
            assert!(error.0.contains(message), "{text}: {error}");
        }
    }
}
