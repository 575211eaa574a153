//! `prism-bench`: Box2D v3's large benchmark scenes, run on Prism and — side by side, in the
//! same process — on Box2D v3 and Rapier; and small validation scenes whose quality figures
//! compare the engines.
//!
//! ```text
//! prism-bench --scene large_pyramid                 # full step count, readable table
//! prism-bench --scene a,b | all | validation | scale  --threads 1,2  --steps N  --repeats R
//!             --engine prism,box2d,rapier  --no-recycling  --json  --csv DIR  --list
//! prism-bench --scene scale --engine prism,box2d --threads 1,2 --curve scale.csv
//! prism-bench --soak 1000000                        # churn run, memory and slots
//! prism-bench --scene tumbler --render tumbler.gif   # a picture: PNG or animated GIF
//! prism-bench plot --csv DIR --out chart.svg         # the CSVs as a bar chart
//! prism-bench --scene cloth --threads 1,2 --solver global|pgs|compare
//! ```
//!
//! **Benchmark scenes** (`all`): for every scene, each repeat runs every requested engine at
//! every thread count once, one after the other, and every second repeat in the reverse order
//! (1·A, 1·B, 2·A, 2·B, 2·B, 2·A, 1·B, 1·A, …), so machine noise falls alike on the engines
//! (the ratio to Box2D is measured side by side) and on the thread counts (each engine's
//! speed-up is too). Reported time is the median over the repeats of the summed wall time of
//! the timed steps (see [`runner`] for exactly what is timed).
//!
//! Every row also reports the bytes the engine held for the scene after the run (the `MB`
//! column, `"bytes"` in JSON): Prism's and Rapier's through a counting global allocator
//! installed here ([`alloc_count`]), Box2D's through its own count (see [`runner`] for the
//! measured window and what is kept out of it).
//!
//! **Validation scenes** (`validation`: columns, boards, a card house, heavy-on-light,
//! pendulums): every engine runs the scene once per thread count, untimed, and a table per
//! scene puts the engines' quality figures side by side (see [`validation`] and
//! `scenes::figures`). They are not part of `all`, so timing runs stay as they were.
//!
//! **Scale scenes** (`scale`: bins of falling boxes at 10 thousand, 100 thousand and a million
//! bodies) are timed like the benchmark scenes but not part of `all`; `--curve FILE` prints
//! the curve of step time and bytes per body against the body count ([`curve`]) and writes it
//! as CSV.
//!
//! **Cloth** (`--scene cloth`): a 128 × 128 cloth falling onto a box and circles, in Prism
//! only (particle systems have no counterpart in the other engines, which print "n/a"); one
//! row per run with ms/step, particle and constraint counts, CG iterations per step and the
//! largest constraint error; `--solver compare` sets the global solve against PGS at equal
//! solve time ([`cloth`]).
//!
//! **Soak** (`--soak STEPS`): a Prism world churning bodies, shapes and joints for that many
//! steps, sampling its bytes and counters, and saying whether they stop growing after the
//! warm-up ([`soak`](mod@soak), [`soak_report`]); it exits with failure if they do not.
//!
//! **Pictures** (`--render FILE`): one scene run on Prism and drawn through its debug draw
//! into a PNG or an animated GIF ([`render`](mod@render)). **Plots** (`plot`): the CSVs that `--csv`
//! wrote, as an SVG bar chart of milliseconds per step ([`plot`]).
//!
//! On a terminal a progress bar (scene, engine, threads, repeat) runs on standard error during
//! long runs; with `--json`, or with output redirected, nothing but the results is written
//! ([`progress`]).
//!
//! Box2D and Rapier are compiled in by cargo feature `compare`; the Prism backend always.
//! Arguments are parsed and JSON and SVG written by hand, to keep the dependencies few: the
//! default build adds only a progress bar (indicatif), a rasteriser with PNG output
//! (tiny-skia) and a GIF encoder (gif).

mod alloc_count;
mod census;
mod cloth;
mod curve;
mod engine;
#[cfg(all(test, feature = "compare"))]
mod engine_tests;
mod gif_palette;
#[cfg_attr(not(feature = "compare"), allow(dead_code))]
mod group_bits;
mod plot;
mod progress;
mod report;
mod runner;
mod soak;
mod soak_report;
mod validation;
mod validation_report;

#[cfg(feature = "compare")]
mod box2d;
mod prism_engine;
#[cfg(feature = "compare")]
mod rapier;
mod render;

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use cloth::ClothSolver;
use engine::{BenchError, EngineFactory, EngineOptions, engine_factory};
use progress::Progress;
use report::Row;
use runner::{PreparedScene, RunConfig, RunResult, median, median_phases, run_once};
use scenes::description::{
    SCALE_SCENES, SCENES, SUBSTEPS, SceneSpec, TIME_STEP, VALIDATION_SCENES, find_scene,
};
use soak::SoakConfig;
use validation_report::ValidationRow;

const USAGE: &str = "\
usage: prism-bench [options]
  --scene LIST     scenes to run, comma-separated; `all` is the benchmark scenes,
                   `validation` the validation scenes, `scale` the scale scenes
                   (10k, 100k and 1M bodies), `cloth` the cloth scene (Prism's
                   particle systems; other engines print n/a) (default: all)
  --solver S       the cloth's constraint solver: global, pgs, or compare (global,
                   then PGS at the same solve time) (default: global)
  --pgs-iterations N  PGS sweeps per substep for --solver pgs (default: 8)
  --engine LIST    engines: prism, box2d, rapier (default: prism)
  --threads LIST   worker thread counts, comma-separated (default: 1)
  --steps N        steps per run, at least 2 (default: each scene's own count)
  --repeats R      runs per (scene, engine, threads); the median is reported (default: 1)
  --continuous     turn on continuous collision in every engine (default: off)
  --no-recycling   turn off contact recycling in every engine (default: on)
  --json           print one JSON object per line instead of the table
  --stages         under each table row, the engine's mean ms/step per phase and solver
                   stage (Prism's StepProfile, Box2D's b2Profile) of the median repeat;
                   with --json, the same as a \"phases\" object
  --csv DIR        also write DIR/<engine>/<scene>.csv with `threads,ms` lines
  --curve FILE     after the timed scenes, print ms/step and bytes per body against the
                   body count (meant for --scene scale) and write that curve to FILE (CSV)
  --soak STEPS     instead of scenes: churn bodies, shapes and joints in a Prism world for
                   STEPS steps (sleep on, once per --threads count) and report whether its
                   memory and slot use stop growing after warm-up (failure if not)
  --render FILE    instead of timing: run one scene on Prism and draw it into FILE, a .png
                   (the last step) or an animated .gif (see --frame-stride); --steps
                   sets the step count, the first --threads value the worker count
  --frame-stride N a GIF frame every N steps (default: 2)
  --size N | WxH   image size in pixels, 16 to 4096 a side (default: 320)
  --view x0,y0,x1,y1  world box to show, metres (default: fitted to the moving bodies)
  --census N       instead of timing: run each scene on each engine (one worker) and
                   every N steps print its contacts by kind: with static bodies or
                   between moving ones, touching or apart, awake or asleep
  --list           list the scenes and exit
  --help           print this help
prism-bench plot --csv DIR --out FILE.svg [--steps N]
                   the CSVs of --csv DIR as an SVG bar chart of ms/step by scene and
                   engine, one panel per thread count";

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
    curve: Option<PathBuf>,
    soak_steps: Option<usize>,
    /// Take a contact census every this many steps instead of timing (`--census`).
    census_every: Option<usize>,
    render: Option<PathBuf>,
    frame_stride: usize,
    size: (u32, u32),
    view: Option<prism::Aabb>,
    /// Run the cloth scene (`--scene cloth`).
    cloth: bool,
    solver: ClothSolver,
    pgs_iterations: u32,
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
            curve: None,
            soak_steps: None,
            census_every: None,
            render: None,
            frame_stride: 2,
            size: (320, 320),
            view: None,
            cloth: false,
            solver: ClothSolver::Global,
            pgs_iterations: 8,
            list: false,
            help: false,
        }
    }
}

/// Scene names and the group names `all`, `validation` and `scale`, in the order given.
fn parse_scenes(value: &str) -> Result<Vec<SceneSpec>, BenchError> {
    let mut scenes = Vec::new();
    for name in split_list(value) {
        match name {
            "all" => scenes.extend(SCENES),
            "validation" => scenes.extend(VALIDATION_SCENES),
            "scale" => scenes.extend(SCALE_SCENES),
            _ => scenes.push(find_scene(name).ok_or_else(|| {
                let known: Vec<&str> = SCENES
                    .iter()
                    .chain(&VALIDATION_SCENES)
                    .chain(&SCALE_SCENES)
                    .map(|s| s.name)
                    .collect();
                BenchError::new(format!(
                    "unknown scene `{name}` (known: {}, all, validation, scale)",
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
            "--scene"
                | "--engine"
                | "--threads"
                | "--steps"
                | "--repeats"
                | "--csv"
                | "--curve"
                | "--soak"
                | "--census"
                | "--render"
                | "--frame-stride"
                | "--size"
                | "--view"
                | "--solver"
                | "--pgs-iterations"
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
    if options.engines.is_empty()
        || options.threads.is_empty()
        || (options.scenes.is_empty() && !options.cloth)
    {
        return Err(BenchError::new(
            "--scene, --engine and --threads need at least one item",
        ));
    }
    Ok(options)
}

fn apply_flag(options: &mut Options, flag: &str, value: &str) -> Result<(), BenchError> {
    match flag {
        "--scene" => {
            options.cloth = split_list(value).any(|name| name == "cloth");
            let others: Vec<&str> = split_list(value).filter(|&n| n != "cloth").collect();
            options.scenes = parse_scenes(&others.join(","))?;
        }
        "--solver" => options.solver = ClothSolver::parse(value)?,
        "--pgs-iterations" => {
            let sweeps = parse_count("--pgs-iterations", value, 1)?;
            options.pgs_iterations = u32::try_from(sweeps.min(10_000)).unwrap_or(10_000);
        }
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
        "--curve" => options.curve = Some(PathBuf::from(value)),
        "--soak" => options.soak_steps = Some(parse_count("--soak", value, 2)?),
        "--census" => options.census_every = Some(parse_count("--census", value, 1)?),
        "--render" => options.render = Some(PathBuf::from(value)),
        "--frame-stride" => options.frame_stride = parse_count("--frame-stride", value, 1)?,
        "--size" => options.size = render::parse_size(value)?,
        "--view" => options.view = Some(render::parse_view(value)?),
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
    let groups = [
        (&SCENES[..], "all"),
        (&VALIDATION_SCENES[..], "validation"),
        (&SCALE_SCENES[..], "scale"),
    ];
    for (scenes, group) in groups {
        for scene in scenes {
            let sleep = if scene.sleep_enabled { "on" } else { "off" };
            emit(&format!(
                "{:<24} {:>6}  {sleep:<5}  {group}",
                scene.name, scene.steps
            ))?;
        }
    }
    emit(&format!(
        "{:<24} {:>6}  on     (prism only)",
        "cloth",
        cloth::CLOTH_STEPS
    ))
}

/// Runs every engine at every thread count on one scene and returns, for each thread count in
/// order, one row per engine that ran. Each repeat runs every (thread count, engine) once, one
/// after the other, and every second repeat runs them in the reverse order (1·A, 1·B, 2·A, 2·B,
/// then 2·B, 2·A, 1·B, 1·A, …): the machine's drift falls alike on the engines, whose ratio is
/// measured side by side, and on the thread counts, whose ratio is each engine's speed-up, and
/// no run is always the first after another. An engine that cannot run the scene at a thread
/// count (a backend error: a scene beyond its limits) is dropped from that thread count's
/// remaining repeats and its error added to `failures`; the other runs go on.
fn measure(
    scene: &PreparedScene,
    engines: &[(String, EngineFactory)],
    options: &Options,
    progress: &Progress,
    failures: &mut Vec<BenchError>,
) -> Vec<Vec<Row>> {
    let steps = options.steps.unwrap_or(scene.spec.steps);
    let cells: Vec<(usize, usize)> = (0..options.threads.len())
        .flat_map(|t| (0..engines.len()).map(move |e| (t, e)))
        .collect();
    let mut runs: Vec<Option<Vec<RunResult>>> = vec![Some(Vec::new()); cells.len()];
    for repeat in 1..=options.repeats {
        for cell in repeat_order(cells.len(), repeat) {
            let (t, e) = cells[cell];
            let Some(done) = &mut runs[cell] else {
                continue;
            };
            let (threads, (name, factory)) = (options.threads[t], &engines[e]);
            progress.set_message(|| {
                format!(
                    "{} · {name} · {threads} thr · repeat {repeat}/{}",
                    scene.spec.name, options.repeats
                )
            });
            let config = RunConfig {
                threads,
                steps,
                engine: options.engine,
            };
            match run_once(*factory, scene, config, progress) {
                Ok(result) => done.push(result),
                Err(error) => {
                    let error = BenchError::new(format!(
                        "{name} on {} with {threads} thread(s): {error}",
                        scene.spec.name
                    ));
                    progress.print(|| eprintln!("prism-bench: {error}"));
                    failures.push(error);
                    runs[cell] = None;
                }
            }
        }
    }
    let mut rows: Vec<Vec<Row>> = options.threads.iter().map(|_| Vec::new()).collect();
    for (&(t, e), cell_runs) in cells.iter().zip(runs) {
        if let Some(cell_runs) = cell_runs {
            let row = summarise(
                scene,
                &engines[e].0,
                options.threads[t],
                steps,
                options,
                &cell_runs,
            );
            rows[t].push(row);
        }
    }
    rows
}

/// The order in which repeat `repeat` (from 1) runs `cells` (thread count, engine) cells:
/// forward in odd repeats, backward in even ones.
fn repeat_order(cells: usize, repeat: usize) -> Vec<usize> {
    let forward = 0..cells;
    if repeat % 2 == 1 {
        forward.collect()
    } else {
        forward.rev().collect()
    }
}

/// The row of one (scene, engine, thread count): the median time and phases over its runs,
/// the counters, quality and bytes of the last.
fn summarise(
    scene: &PreparedScene,
    engine: &str,
    threads: usize,
    steps: usize,
    options: &Options,
    runs: &[RunResult],
) -> Row {
    let times: Vec<f64> = runs.iter().map(|r| r.timed_ms).collect();
    let last = runs.last();
    Row {
        scene: scene.spec.name,
        engine: engine.to_string(),
        threads,
        steps,
        repeats: options.repeats,
        median_ms: median(&times).unwrap_or(f64::NAN),
        counters: last.map(|r| r.counters).unwrap_or_default(),
        quality: last.map(|r| r.quality).unwrap_or_default(),
        bytes: last.map(|r| r.bytes).unwrap_or_default(),
        phases: median_phases(runs),
    }
}

fn print_rows(rows: &[Row], json: bool, stages: bool) -> Result<(), BenchError> {
    let box2d_ms = rows
        .iter()
        .find(|r| r.engine == "box2d")
        .map(|r| r.median_ms);
    for row in rows {
        if json {
            emit(&report::json_line(row, stages))?;
        } else {
            emit(&report::table_line(row, box2d_ms))?;
        }
        if stages && !json && !row.phases.is_empty() {
            emit(&report::phases_line(row))?;
        }
    }
    Ok(())
}

/// The steps every timed run of `scenes` will take, for the progress bar.
fn total_steps(scenes: &[SceneSpec], options: &Options) -> u64 {
    let runs = options.threads.len() * options.repeats * options.engines.len();
    let steps: usize = scenes
        .iter()
        .map(|s| options.steps.unwrap_or(s.steps))
        .sum();
    (steps * runs) as u64
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
    let progress = Progress::new(progress::wanted(options.json), total_steps(&timed, options));
    let mut all_rows = Vec::new();
    let mut failures: Vec<BenchError> = Vec::new();
    for spec in timed {
        let scene = PreparedScene::new(spec);
        for rows in measure(&scene, &engines, options, &progress, &mut failures) {
            progress.print(|| print_rows(&rows, options.json, options.stages))?;
            all_rows.extend(rows);
        }
    }
    drop(progress);
    if let Some(dir) = &options.csv_dir {
        report::write_csv(dir, &all_rows)?;
    }
    if let Some(path) = &options.curve {
        let points = curve::curve(&all_rows);
        if !options.json {
            emit(&curve::table(&points))?;
        }
        curve::write_csv(path, &points)?;
    }
    for spec in validation {
        let scene = PreparedScene::new(spec);
        for &threads in &options.threads {
            let rows = validate(&scene, &engines, threads, options)?;
            print_validation(&rows, options.json)?;
        }
    }
    if options.cloth {
        run_cloth_scene(options)?;
    }
    match failures.len() {
        0 => Ok(()),
        n => Err(BenchError::new(format!("{n} run(s) failed (see above)"))),
    }
}

/// The cloth scene on Prism for every thread count; "n/a" for the other engines.
fn run_cloth_scene(options: &Options) -> Result<(), BenchError> {
    let steps = options.steps.unwrap_or(cloth::CLOTH_STEPS);
    for engine in options.engines.iter().filter(|e| e.as_str() != "prism") {
        emit(&format!(
            "cloth: {engine} n/a (particle systems and cloth are Prism's own)"
        ))?;
    }
    if !options.engines.iter().any(|e| e == "prism") {
        return Ok(());
    }
    if !options.json {
        emit("cloth (prism): 128 × 128 cloth onto a box and circles; ms per step, errors in m")?;
        emit(&cloth::table_header())?;
    }
    for &threads in &options.threads {
        let runs = cloth::run_cloth(threads, steps, options.solver, options.pgs_iterations)?;
        for run in &runs {
            if options.json {
                emit(&cloth::json_line(run))?;
            } else {
                emit(&cloth::table_line(run))?;
            }
        }
    }
    Ok(())
}

/// Runs the soak once per thread count; an error if memory or slots kept growing.
fn soak(steps: usize, options: &Options) -> Result<(), BenchError> {
    let mut steady = true;
    for &threads in &options.threads {
        let config = SoakConfig::standard(steps, threads);
        let progress = Progress::new(progress::wanted(options.json), steps as u64);
        progress.set_message(|| format!("soak · prism · {threads} thr"));
        let run = soak::run_soak(config, &progress)?;
        drop(progress);
        if options.json {
            for sample in &run.samples {
                emit(&soak_report::sample_json(sample))?;
            }
            emit(&soak_report::summary_json(&run))?;
        } else {
            emit(&soak_report::table(&run))?;
        }
        steady &= soak_report::steady(&soak_report::growth(&run.samples));
    }
    if steady {
        Ok(())
    } else {
        Err(BenchError::new(
            "soak: memory or slot use kept growing after warm-up",
        ))
    }
}

/// Prints a contact census of every scene on every engine every `every` steps (`--census`).
fn census(every: usize, options: &Options) -> Result<(), BenchError> {
    for &spec in &options.scenes {
        let scene = PreparedScene::new(spec);
        let steps = options.steps.unwrap_or(spec.steps);
        emit(&format!("{} ({steps} steps): contacts by kind", spec.name))?;
        emit(&census::header())?;
        let mut runs = Vec::new();
        for name in &options.engines {
            let factory = engine_factory(name)?;
            let run = census::run_census(factory, &scene, steps, every, options.engine)?;
            for (step, counts) in &run.samples {
                emit(&census::line(name, *step, counts))?;
            }
            if let Some((mean, samples)) = census::late_mean(&run.samples, steps) {
                emit(&format!(
                    "{name}: mean contacts over the second half: {mean:.0} ({samples} samples)"
                ))?;
            }
            runs.push((name.as_str(), run.ages));
        }
        if runs.iter().any(|(_, ages)| !ages.groups.is_empty()) {
            emit("contact ends of a scripted group by its age (steps), mean over the samples")?;
            let profiles: Vec<_> = runs.iter().map(|(name, ages)| (*name, ages)).collect();
            emit(&census::age_table(&profiles))?;
        }
    }
    Ok(())
}

/// Draws one scene into a PNG or GIF (`--render`).
fn render(path: &std::path::Path, options: &Options) -> Result<(), BenchError> {
    let [spec] = options.scenes[..] else {
        return Err(BenchError::new(
            "--render draws one scene: name it with --scene",
        ));
    };
    let render_options = render::RenderOptions {
        path: path.to_path_buf(),
        width: options.size.0,
        height: options.size.1,
        frame_stride: options.frame_stride,
        view: options.view,
    };
    let steps = options.steps.unwrap_or(spec.steps);
    let threads = options.threads[0];
    let summary = render::render_scene(&spec, steps, threads, options.engine, &render_options)?;
    let view = summary.view;
    emit(&format!(
        "{}: {} after {steps} steps, {} frame(s), {}×{} px, {} bytes, view ({:.2}, {:.2})–({:.2}, {:.2}) m",
        spec.name,
        path.display(),
        summary.frames,
        options.size.0,
        options.size.1,
        summary.bytes,
        view.min.x,
        view.min.y,
        view.max.x,
        view.max.y
    ))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "plot") {
        return match plot::run(&args[1..]).and_then(|summary| emit(&summary)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("prism-bench: {error}");
                ExitCode::FAILURE
            }
        };
    }
    let result = parse_args(&args).and_then(|options| {
        if options.help {
            emit(USAGE)
        } else if options.list {
            list_scenes()
        } else if let Some(path) = &options.render {
            render(path, &options)
        } else if let Some(steps) = options.soak_steps {
            soak(steps, &options)
        } else if let Some(every) = options.census_every {
            census(every, &options)
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

    /// Every repeat runs every cell once, and over each pair of repeats every cell has the same
    /// summed position, so no engine or thread count is favoured by always running early or
    /// late.
    #[test]
    fn repeats_run_every_cell_once_in_balanced_order() {
        let cells = 4;
        let mut places = vec![0; cells];
        for repeat in 1..=2 {
            let order = repeat_order(cells, repeat);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..cells).collect::<Vec<_>>());
            for (place, &cell) in order.iter().enumerate() {
                places[cell] += place;
            }
        }
        assert!(places.iter().all(|&p| p == cells - 1), "{places:?}");
        assert_eq!(repeat_order(cells, 1), [0, 1, 2, 3]);
        assert_eq!(repeat_order(cells, 2), [3, 2, 1, 0]);
        assert_eq!(repeat_order(cells, 3), repeat_order(cells, 1));
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
        assert_eq!((options.curve.clone(), options.soak_steps), (None, None));
        let options = parse_args(&args(
            "--scene tumbler --render t.gif --frame-stride 3 --size 200x100 --view=-1,-2,3,4",
        ))
        .unwrap();
        assert_eq!(options.render, Some(PathBuf::from("t.gif")));
        assert_eq!((options.frame_stride, options.size), (3, (200, 100)));
        let view = options.view.unwrap();
        assert_eq!(
            (view.min.x, view.min.y, view.max.x, view.max.y),
            (-1.0, -2.0, 3.0, 4.0)
        );
        let options = parse_args(&args("--soak 1000000 --threads 2 --curve=c.csv")).unwrap();
        assert_eq!(options.soak_steps, Some(1_000_000));
        assert_eq!(options.curve, Some(PathBuf::from("c.csv")));
        assert_eq!(parse_args(&args("--scene all")).unwrap().scenes.len(), 10);
    }

    /// `all` means the benchmark scenes only; `validation` the validation scenes; `scale` the
    /// three scale scenes; groups and names mix in the order given.
    #[test]
    fn scene_groups_expand_in_place() {
        let all = parse_args(&args("--scene all")).unwrap().scenes;
        assert!(all.iter().all(|s| !s.is_validation() && !s.is_scale()));
        let scale = parse_args(&args("--scene scale,smash")).unwrap().scenes;
        let names: Vec<&str> = scale.iter().map(|s| s.name).collect();
        assert_eq!(names, ["scale_10k", "scale_100k", "scale_1m", "smash"]);
        let one = parse_args(&args("--scene scale_1m")).unwrap().scenes;
        assert_eq!(one[0].name, "scale_1m");
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

    /// The progress bar's length is every timed run's steps: scenes × threads × repeats ×
    /// engines, each scene at its own step count unless `--steps` overrides it.
    #[test]
    fn progress_counts_every_timed_step() {
        let options = parse_args(&args(
            "--scene scale_10k,smash --threads 1,2 --repeats 3 --engine prism,box2d",
        ))
        .unwrap();
        let one_run_each: usize = options.scenes.iter().map(|s| s.steps).sum();
        let expected = one_run_each * 2 * 3 * 2;
        assert_eq!(total_steps(&options.scenes, &options), expected as u64);
        let options = parse_args(&args("--scene scale_1m,tumbler --steps 10")).unwrap();
        assert_eq!(total_steps(&options.scenes, &options), 20);
    }

    #[test]
    fn cloth_is_a_scene_of_its_own_with_a_solver_option() {
        let options = parse_args(&args("--scene cloth --solver compare")).unwrap();
        assert!(options.cloth && options.scenes.is_empty());
        assert_eq!(options.solver, ClothSolver::Compare);
        let options = parse_args(&args(
            "--scene smash,cloth --solver pgs --pgs-iterations 20",
        ));
        let options = options.unwrap();
        assert!(options.cloth);
        assert_eq!(options.scenes.len(), 1);
        assert_eq!(
            (options.solver, options.pgs_iterations),
            (ClothSolver::Pgs, 20)
        );
        assert!(!parse_args(&[]).unwrap().cloth);
        let error = parse_args(&args("--solver cg")).unwrap_err();
        assert!(error.0.contains("--solver expects global, pgs or compare"));
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
            ("--soak 1", "--soak expects an integer ≥ 2"),
            ("--curve", "--curve expects a value"),
            ("--frame-stride 0", "--frame-stride expects an integer ≥ 1"),
            ("--size 5", "--size expects N or WxH"),
            ("--view 1,2", "--view expects x0,y0,x1,y1"),
        ];
        for (text, message) in cases {
            let error = parse_args(&args(text)).unwrap_err();
            assert!(error.0.contains(message), "{text}: {error}");
        }
    }
}
