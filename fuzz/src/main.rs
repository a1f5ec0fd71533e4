//! rl-fuzz: a structure-aware fuzzing harness for every entry point of the workspace that takes
//! outside input (see `README.md` and `docs/fuzzing.md`).
//!
//! The parent process runs each target in a child process of this same binary, so that an
//! abort, a stack overflow or the out-of-memory killer is a finding rather than the end of the
//! run. The child runs the inputs one by one under `catch_unwind` (a panic is a finding), with
//! a watchdog thread that ends it when one input runs longer than `--timeout` (a hang is a
//! finding), under an address-space limit (`ulimit -v`, `--memory-mb`) so that an absurd
//! allocation fails at once instead of swapping. Before each input, the child records the
//! input's index in a progress file; the parent reads it to name the input that killed the
//! child, records the finding and starts a new child after it.

mod generate;
mod targets;

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rl_core::NumpyGenerator;

use crate::targets::{Context, TARGETS, Target};

const USAGE: &str = "\
usage: rl-fuzz [--target NAME|all] [--inputs N] [--first I] [--seconds S] [--seed S]
               [--timeout SECONDS] [--memory-mb MB] [--jobs J] [--index I]

  --target NAME   one of the targets below, or `all` (the default)
  --inputs N      inputs per target (default 1000): inputs 0 to N-1
  --first I       start at input I instead of 0, so that processes can share a run
                  (`--first 0 --inputs 500000` and `--first 500000 --inputs 1000000`)
  --seconds S     stop each target after S seconds, whatever --inputs says (smoke runs)
  --seed S        the master seed (default 1); input I of target T is reproducible from S
  --timeout T     the longest one input may run before it is a hang (default 10 seconds)
  --memory-mb MB  the address-space limit of the child processes (default 4096)
  --jobs J        run J targets at once, each in its own child processes (default 1); the
                  lines are printed in the targets' order, and an input gives the same
                  result for any J (with --seconds, a busier machine reaches fewer inputs)
  --index I       run only input I of the target, in this process, printing the input
                  (the reproduction of a finding)

Exit status: 0 without findings, 1 with findings, 2 for bad arguments.";

/// Exit status of a child whose watchdog found a hang.
const HANG_STATUS: i32 = 3;

/// The command line.
struct Options {
    targets: Vec<&'static Target>,
    inputs: u64,
    seconds: Option<f64>,
    seed: u64,
    timeout: Duration,
    memory_mb: u64,
    /// How many targets run at once (at least 1).
    jobs: usize,
    index: Option<u64>,
    /// Internal: run as a child over `first..inputs`, recording progress and findings.
    child: Option<ChildFiles>,
    first: u64,
}

/// The files through which a child reports to its parent.
struct ChildFiles {
    progress: PathBuf,
    findings: PathBuf,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        targets: TARGETS.iter().collect(),
        inputs: 1000,
        seconds: None,
        seed: 1,
        timeout: Duration::from_secs(10),
        memory_mb: 4096,
        jobs: 1,
        index: None,
        child: None,
        first: 0,
    };
    let mut progress = None;
    let mut findings = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--help" || flag == "-h" {
            return Err(String::new());
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{flag}: `{value}` is not a whole number"))
        };
        match flag.as_str() {
            "--target" => {
                options.targets = if value == "all" {
                    TARGETS.iter().collect()
                } else {
                    vec![
                        TARGETS
                            .iter()
                            .find(|t| t.name == value)
                            .ok_or_else(|| format!("no target named `{value}`"))?,
                    ]
                }
            }
            "--inputs" => options.inputs = number()?,
            "--seed" => options.seed = number()?,
            "--index" => options.index = Some(number()?),
            "--first" => options.first = number()?,
            "--memory-mb" => options.memory_mb = number()?,
            "--jobs" => {
                options.jobs = usize::try_from(number()?)
                    .ok()
                    .filter(|jobs| (1..=256).contains(jobs))
                    .ok_or_else(|| format!("--jobs: `{value}` is not from 1 to 256"))?
            }
            "--timeout" => options.timeout = Duration::from_secs(number()?.max(1)),
            "--seconds" => {
                options.seconds = Some(
                    value
                        .parse::<f64>()
                        .ok()
                        .filter(|s| *s > 0.0)
                        .ok_or_else(|| format!("--seconds: `{value}` is not a positive number"))?,
                )
            }
            "--child-progress" => progress = Some(PathBuf::from(value)),
            "--child-findings" => findings = Some(PathBuf::from(value)),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    if let (Some(progress), Some(findings)) = (progress, findings) {
        options.child = Some(ChildFiles { progress, findings });
    }
    Ok(options)
}

/// The seed of input `index` of `target`: the master seed, the target's name and the index
/// mixed by SplitMix64 steps, so that targets and inputs draw unrelated streams.
fn input_seed(seed: u64, target: &str, index: u64) -> u64 {
    fn mix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    let name = target.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    mix(mix(mix(seed) ^ name) ^ index)
}

/// The command that reproduces one input.
fn reproduction(target: &str, seed: u64, index: u64) -> String {
    format!("cargo run --release -p rl-fuzz -- --target {target} --seed {seed} --index {index}")
}

/// The message of a caught panic.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned())
}

/// Runs one input; returns the input's description and the finding, if any.
fn run_input(
    target: &Target,
    context: &Context,
    seed: u64,
    index: u64,
) -> (String, Option<String>) {
    let mut rng = NumpyGenerator::seed_from_u64(input_seed(seed, target.name, index));
    let mut input = String::new();
    let result = catch_unwind(AssertUnwindSafe(|| {
        (target.run)(&mut rng, context, &mut input)
    }));
    let finding = match result {
        Ok(Ok(())) => None,
        Ok(Err(violation)) => Some(format!("invariant: {violation}")),
        Err(payload) => Some(format!("panic: {}", panic_message(payload.as_ref()))),
    };
    (input, finding)
}

/// One finding as the child writes it and the parent prints it.
fn finding_text(target: &str, seed: u64, index: u64, what: &str, input: &str) -> String {
    let mut shown: String = input.chars().take(2000).collect();
    if shown.len() < input.len() {
        shown.push_str(" ...");
    }
    format!(
        "FINDING {target} input {index}: {what}\n  input: {shown}\n  reproduce: {}\n",
        reproduction(target, seed, index)
    )
}

fn append(path: &Path, text: &str) {
    if let Ok(mut file) = OpenOptions::new().create(true).append(true).open(path) {
        let _ = file.write_all(text.as_bytes());
    }
}

/// The child: runs `first..inputs` of one target, reporting through the files.
fn run_child(options: &Options, files: &ChildFiles) -> ExitCode {
    let target = options.targets[0];
    let scratch = std::env::temp_dir().join(format!("rl-fuzz-{}", std::process::id()));
    let context = Context::new(scratch.clone());
    let progress = match File::create(&files.progress) {
        Ok(file) => file,
        Err(_) => return ExitCode::from(2),
    };
    // The panic hook stays silent: panics are reported as findings.
    std::panic::set_hook(Box::new(|_| {}));
    let current = Arc::new(AtomicU64::new(options.first));
    let started = Arc::new(Mutex::new(Instant::now()));
    let running = Arc::new(AtomicBool::new(false));
    {
        let (current, started, running) = (current.clone(), started.clone(), running.clone());
        let (timeout, findings, seed, name) = (
            options.timeout,
            files.findings.clone(),
            options.seed,
            target.name,
        );
        let scratch = scratch.clone();
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(50));
                let elapsed = started.lock().map(|s| s.elapsed()).unwrap_or_default();
                if running.load(Ordering::SeqCst) && elapsed > timeout {
                    let index = current.load(Ordering::SeqCst);
                    let what = format!("hang: still running after {} s", elapsed.as_secs());
                    append(
                        &findings,
                        &finding_text(name, seed, index, &what, "(see reproduce)"),
                    );
                    let _ = std::fs::remove_dir_all(&scratch);
                    std::process::exit(HANG_STATUS);
                }
            }
        });
    }
    let deadline = options
        .seconds
        .map(|s| Instant::now() + Duration::from_secs_f64(s));
    let mut index = options.first;
    while index < options.inputs && deadline.is_none_or(|d| Instant::now() < d) {
        let _ = progress.write_at(&index.to_le_bytes(), 0);
        current.store(index, Ordering::SeqCst);
        if let Ok(mut s) = started.lock() {
            *s = Instant::now();
        }
        running.store(true, Ordering::SeqCst);
        let (input, finding) = run_input(target, &context, options.seed, index);
        running.store(false, Ordering::SeqCst);
        if let Some(what) = finding {
            append(
                &files.findings,
                &finding_text(target.name, options.seed, index, &what, &input),
            );
        }
        index += 1;
    }
    let _ = progress.write_at(&index.to_le_bytes(), 0);
    let _ = std::fs::remove_dir_all(&scratch);
    ExitCode::SUCCESS
}

/// What the parent learned from running one target.
struct TargetReport {
    inputs: u64,
    findings: Vec<String>,
    elapsed: Duration,
}

/// The parent: runs one target in child processes until its inputs (or seconds) are done.
fn run_target(options: &Options, target: &Target, files: &ChildFiles) -> TargetReport {
    let started = Instant::now();
    let mut first = options.first;
    let mut findings = Vec::new();
    let _ = std::fs::remove_file(&files.findings);
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("rl-fuzz"));
    loop {
        let remaining = options.seconds.map(|s| s - started.elapsed().as_secs_f64());
        if remaining.is_some_and(|r| r <= 0.0) || first >= options.inputs {
            break;
        }
        let _ = std::fs::write(&files.progress, first.to_le_bytes());
        let mut child_args: Vec<String> = vec![
            "--target".into(),
            target.name.into(),
            "--inputs".into(),
            options.inputs.to_string(),
            "--first".into(),
            first.to_string(),
            "--seed".into(),
            options.seed.to_string(),
            "--timeout".into(),
            options.timeout.as_secs().to_string(),
            "--child-progress".into(),
            files.progress.display().to_string(),
            "--child-findings".into(),
            files.findings.display().to_string(),
        ];
        if let Some(remaining) = remaining {
            child_args.push("--seconds".into());
            child_args.push(format!("{remaining:.3}"));
        }
        // The address-space limit applies to the child only; `sh` sets it, then becomes the
        // child.
        let status = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v {} 2>/dev/null; exec \"$0\" \"$@\"",
                options.memory_mb * 1024
            ))
            .arg(&exe)
            .args(&child_args)
            // In the parent's scratch directory: a damaged relative path (an `--out` of the
            // `cli` target) writes there, not into the directory the run started in.
            .current_dir(files.progress.parent().unwrap_or(Path::new(".")))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let reached = std::fs::read(&files.progress)
            .ok()
            .and_then(|bytes| bytes.get(..8).and_then(|b| b.try_into().ok()))
            .map(u64::from_le_bytes)
            .unwrap_or(first);
        match status {
            Ok(status) if status.success() => {
                first = reached;
                break;
            }
            Ok(status) if status.code() == Some(HANG_STATUS) => first = reached + 1,
            Ok(status) => {
                let what = format!("crash: the child process ended with {status}");
                append(
                    &files.findings,
                    &finding_text(target.name, options.seed, reached, &what, "(see reproduce)"),
                );
                first = reached + 1;
            }
            Err(error) => {
                findings.push(format!("cannot start a child process: {error}"));
                break;
            }
        }
    }
    if let Ok(text) = std::fs::read_to_string(&files.findings) {
        findings.extend(
            text.split("FINDING ")
                .filter(|f| !f.is_empty())
                .map(|f| format!("FINDING {f}")),
        );
    }
    TargetReport {
        inputs: first.saturating_sub(options.first),
        findings,
        elapsed: started.elapsed(),
    }
}

/// Runs every target of `options`, `options.jobs` at a time, each with its own files under
/// `work`, and prints each one's line (and findings) in the targets' order as soon as it and
/// those before it have finished. Returns every finding.
fn run_targets(options: &Options, work: &Path) -> Vec<String> {
    let targets = &options.targets;
    let next = std::sync::atomic::AtomicUsize::new(0);
    // The reports by target, how many have been printed, and the findings printed so far.
    let done: std::sync::Mutex<(Vec<Option<TargetReport>>, usize, Vec<String>)> =
        std::sync::Mutex::new(((0..targets.len()).map(|_| None).collect(), 0, Vec::new()));
    std::thread::scope(|scope| {
        for _ in 0..options.jobs.min(targets.len()) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(target) = targets.get(index) else {
                        break;
                    };
                    let directory = work.join(target.name);
                    let _ = std::fs::create_dir_all(&directory);
                    let files = ChildFiles {
                        progress: directory.join("progress"),
                        findings: directory.join("findings"),
                    };
                    let report = run_target(options, target, &files);
                    let mut state = done.lock().unwrap_or_else(|poison| poison.into_inner());
                    let (reports, printed, findings) = &mut *state;
                    reports[index] = Some(report);
                    while let Some(Some(report)) = reports.get_mut(*printed) {
                        let seconds = report.elapsed.as_secs_f64();
                        println!(
                            "{:<16} {:>10} {:>9} {:>10.1} {:>12.0}",
                            targets[*printed].name,
                            report.inputs,
                            report.findings.len(),
                            seconds,
                            report.inputs as f64 / seconds.max(1e-9)
                        );
                        *printed += 1;
                        // Findings are printed as each target ends, so a long run shows them
                        // early.
                        for finding in &report.findings {
                            print!("{finding}");
                        }
                        let _ = std::io::stdout().flush();
                        findings.append(&mut report.findings);
                    }
                }
            });
        }
    });
    done.into_inner()
        .unwrap_or_else(|poison| poison.into_inner())
        .2
}

/// Reproduces one input in this process, printing it first.
fn reproduce(options: &Options, index: u64) -> ExitCode {
    let target = options.targets[0];
    let scratch = std::env::temp_dir().join(format!("rl-fuzz-{}", std::process::id()));
    let context = Context::new(scratch.clone());
    let (input, finding) = run_input(target, &context, options.seed, index);
    let _ = std::fs::remove_dir_all(&scratch);
    println!("target {} input {index}:\n{input}", target.name);
    match finding {
        Some(what) => {
            println!("FINDING: {what}");
            ExitCode::from(1)
        }
        None => {
            println!("no finding");
            ExitCode::SUCCESS
        }
    }
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("rl-fuzz: {message}");
            }
            eprintln!("{USAGE}\n\ntargets:");
            for target in &TARGETS {
                eprintln!("  {:<16} {}", target.name, target.description);
            }
            return ExitCode::from(2);
        }
    };
    if let Some(files) = &options.child {
        return run_child(&options, files);
    }
    if options.targets.len() != 1 && options.index.is_some() {
        eprintln!("rl-fuzz: --index needs one --target");
        return ExitCode::from(2);
    }
    if let Some(index) = options.index {
        return reproduce(&options, index);
    }
    let work = std::env::temp_dir().join(format!("rl-fuzz-parent-{}", std::process::id()));
    println!(
        "rl-fuzz: seed {}, {} inputs per target{}, timeout {} s per input, {} MB per process{}",
        options.seed,
        options.inputs,
        options
            .seconds
            .map(|s| format!(" (at most {s} s each)"))
            .unwrap_or_default(),
        options.timeout.as_secs(),
        options.memory_mb,
        if options.jobs > 1 {
            format!(", {} targets at once", options.jobs)
        } else {
            String::new()
        }
    );
    println!(
        "{:<16} {:>10} {:>9} {:>10} {:>12}",
        "target", "inputs", "findings", "seconds", "inputs/s"
    );
    let total_findings = run_targets(&options, &work);
    let _ = std::fs::remove_dir_all(&work);
    if total_findings.is_empty() {
        println!("no findings");
        ExitCode::SUCCESS
    } else {
        println!("{} findings", total_findings.len());
        ExitCode::from(1)
    }
}
