//! Sweeps on disk: shards run in any order, interrupted and killed in between, leave the same
//! files as one process (timings aside); no two shards ever run the same run, overlapping
//! shard processes included; a claim by a running process (or another machine's other split)
//! is left alone and a gone process's taken over; a one-setting sweep writes what `rl run`
//! writes; and the command line's sweep errors are one line.

use std::collections::BTreeMap;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rl_experiment::sweep::{
    Claim, Shard, SweepFile, SweepPlan, claim_path, run_sweep, summarize_sweep, sweep_status,
};
use rl_experiment::{ExperimentError, Progress, RunResult, Silent};

/// Two noise levels times two agents: four settings of three runs, tiny budgets.
const SWEEP: &str = r#"{
    "domains": [{"id": "GridWorld-4x5", "grid": {"noise": [0.0, 0.1]}}],
    "agents": ["q-learning", {"name": "sarsa", "params": {"learning_rate": 0.5}}],
    "max_steps": 300, "checks": 2, "checks_per_policy": 2, "runs": 3, "seed": 4
}"#;

fn plan() -> SweepPlan {
    SweepFile::parse(SWEEP, "sweep.json")
        .and_then(|file| file.expand("sweep.json"))
        .expect("the sweep file is valid")
}

fn fresh_directory(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rl-sweep-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn threads(n: usize) -> NonZeroUsize {
    NonZeroUsize::new(n).expect("positive")
}

fn shard(index: u64, count: u64) -> Shard {
    Shard::new(index, count).expect("a valid shard")
}

/// `"learning_time": <seconds>` with the seconds replaced by 0: the one field that differs
/// between identical runs.
fn without_timings(text: &str) -> String {
    let mut result = String::with_capacity(text.len());
    let mut rest = text;
    let key = "\"learning_time\": ";
    while let Some(at) = rest.find(key) {
        result.push_str(&rest[..at + key.len()]);
        rest = &rest[at + key.len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || ".eE-+".contains(c)))
            .unwrap_or(rest.len());
        result.push('0');
        rest = &rest[end..];
    }
    result.push_str(rest);
    result
}

/// Every file under `root` (hidden ones too) by relative path, with its contents, timings
/// masked in run files.
fn tree(root: &Path) -> BTreeMap<String, String> {
    fn walk(root: &Path, directory: &Path, files: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(directory).expect("readable directory") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(root, &path, files);
            } else {
                let relative = path
                    .strip_prefix(root)
                    .expect("under the root")
                    .display()
                    .to_string();
                let text = std::fs::read_to_string(&path).expect("a text file");
                files.insert(relative, without_timings(&text));
            }
        }
    }
    let mut files = BTreeMap::new();
    walk(root, root, &mut files);
    files
}

fn assert_same_tree(expected: &Path, actual: &Path) {
    let (a, b) = (tree(expected), tree(actual));
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the same files"
    );
    for (name, text) in &a {
        assert!(b[name] == *text, "{name} differs");
    }
}

/// Progress that asks the sweep to stop after `limit` finished runs, and counts them.
struct StopAfter {
    limit: u64,
    finished: AtomicU64,
    stop: AtomicBool,
}

impl StopAfter {
    fn new(limit: u64) -> Self {
        StopAfter {
            limit,
            finished: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        }
    }
}

impl Progress for StopAfter {
    fn run_finished(&self, _: &RunResult) {
        if self.finished.fetch_add(1, Ordering::SeqCst) + 1 >= self.limit {
            self.stop.store(true, Ordering::SeqCst);
        }
    }
}

#[test]
fn shards_in_any_order_with_kills_between_leave_the_files_of_one_process() {
    let plan = plan();
    assert_eq!((plan.settings.len(), plan.run_count()), (4, 12));
    let whole = fresh_directory("whole");
    let outcome =
        run_sweep(&plan, &whole, Shard::WHOLE, threads(2), &|| false, &Silent).expect("sweep");
    assert_eq!(outcome.ran.len(), 12);
    assert!(outcome.summary.is_some(), "one process summarises");
    assert!(whole.join("overlay-GridWorld-4x5.svg").exists());
    assert!(whole.join("settings.csv").exists());

    let sharded = fresh_directory("sharded");
    let mut ran = 0;
    // Shard 2 of 3 starts first and is interrupted after its first run.
    let interrupted = StopAfter::new(1);
    let stop = || interrupted.stop.load(Ordering::SeqCst);
    let result = run_sweep(
        &plan,
        &sharded,
        shard(2, 3),
        threads(1),
        &stop,
        &interrupted,
    );
    assert_eq!(result.map(|_| ()), Err(ExperimentError::Interrupted));
    ran += interrupted.finished.load(Ordering::SeqCst);
    let status = sweep_status(&sharded).expect("status");
    assert_eq!(
        (status.finished(), status.claimed()),
        (1, 0),
        "an interrupted shard keeps its finished run and gives up its claims"
    );

    // Shard 0 was killed in the middle of its first run (index 0: run 0 of setting 0): its
    // claim and a half-written temporary file are left behind.
    let first = sharded.join(&plan.settings[0].name);
    let stale = Claim {
        shard: 0,
        shards: 3,
        host: "elsewhere".to_owned(),
        pid: 1,
    };
    std::fs::write(
        claim_path(&first, 0),
        serde_json::to_string(&stale).expect("json"),
    )
    .expect("stale claim");
    std::fs::write(
        first.join(".run-000.json.tmp-1-0-0"),
        "{\"format\": \"rl-exp",
    )
    .expect("half");

    // Shard 1 runs all of its share; the sweep is not complete, so it does not summarise.
    let outcome =
        run_sweep(&plan, &sharded, shard(1, 3), threads(2), &|| false, &Silent).expect("shard 1");
    assert_eq!(outcome.ran.len(), 4);
    assert!(outcome.summary.is_none());
    assert!(outcome.ran.iter().all(|run| run.index % 3 == 1));
    ran += outcome.ran.len() as u64;
    let status = sweep_status(&sharded).expect("status");
    assert_eq!(status.settings[0].claimed, vec![(0, stale.clone())]);
    assert_eq!((status.finished(), status.claimed()), (5, 1));
    let error = summarize_sweep(&sharded).expect_err("incomplete");
    assert!(
        error.to_string().contains("7 of 12 runs are not finished"),
        "{error}"
    );
    assert!(!sharded.join("settings.csv").exists(), "nothing is written");

    // Shard 0 reruns: it takes over its own claim and removes the leftover.
    let outcome =
        run_sweep(&plan, &sharded, shard(0, 3), threads(2), &|| false, &Silent).expect("shard 0");
    assert_eq!((outcome.ran.len(), outcome.already_finished), (4, 0));
    assert!(outcome.claimed_elsewhere.is_empty());
    assert!(outcome.summary.is_none());
    ran += outcome.ran.len() as u64;

    // Shard 2 reruns last: it resumes and, finishing the sweep, summarises.
    let outcome =
        run_sweep(&plan, &sharded, shard(2, 3), threads(1), &|| false, &Silent).expect("shard 2");
    assert_eq!((outcome.ran.len(), outcome.already_finished), (3, 1));
    assert!(outcome.summary.is_some(), "the last shard summarises");
    ran += outcome.ran.len() as u64;
    assert_eq!(ran, 12, "every run ran exactly once");

    assert_same_tree(&whole, &sharded);
    // Summarising again rewrites the same files.
    summarize_sweep(&sharded).expect("summary");
    assert_same_tree(&whole, &sharded);
    std::fs::remove_dir_all(&whole).expect("cleanup");
    std::fs::remove_dir_all(&sharded).expect("cleanup");
}

#[test]
fn two_shards_never_run_the_same_run() {
    let plan = plan();
    for count in 1..=5 {
        for run in plan.runs() {
            let owners = (0..count)
                .filter(|&index| shard(index, count).owns(run.index))
                .count();
            assert_eq!(owners, 1, "{run:?} with {count} shards");
        }
    }
    // Two shards at once in one directory: disjoint shares that cover the sweep.
    let directory = fresh_directory("concurrent");
    let outcomes: Mutex<Vec<Vec<u64>>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for index in 0..2 {
            let (plan, directory, outcomes) = (&plan, &directory, &outcomes);
            scope.spawn(move || {
                let outcome = run_sweep(
                    plan,
                    directory,
                    shard(index, 2),
                    threads(1),
                    &|| false,
                    &Silent,
                )
                .expect("shard");
                let ran: Vec<u64> = outcome.ran.iter().map(|run| run.index).collect();
                outcomes.lock().expect("lock").push(ran);
            });
        }
    });
    let outcomes = outcomes.into_inner().expect("lock");
    let mut all: Vec<u64> = outcomes.iter().flatten().copied().collect();
    all.sort_unstable();
    assert_eq!(
        all,
        (0..12).collect::<Vec<_>>(),
        "each run once: {outcomes:?}"
    );
    let status = sweep_status(&directory).expect("status");
    assert_eq!((status.finished(), status.claimed()), (12, 0));
    // Whichever shard finished last summarised; the summary is there.
    assert!(directory.join("settings.csv").exists());
    std::fs::remove_dir_all(&directory).expect("cleanup");
}

#[test]
fn a_claim_by_another_split_is_left_alone() {
    let plan = plan();
    let directory = fresh_directory("foreign-claim");
    let setting = directory.join(&plan.settings[1].name);
    std::fs::create_dir_all(&setting).expect("directory");
    let theirs = Claim {
        shard: 1,
        shards: 2,
        host: "node-7".to_owned(),
        pid: 4242,
    };
    std::fs::write(
        claim_path(&setting, 2),
        serde_json::to_string(&theirs).expect("json"),
    )
    .expect("claim");
    let outcome = run_sweep(
        &plan,
        &directory,
        Shard::WHOLE,
        threads(2),
        &|| false,
        &Silent,
    )
    .expect("sweep");
    assert_eq!(outcome.ran.len(), 11);
    assert_eq!(outcome.claimed_elsewhere.len(), 1);
    let (run, claim) = &outcome.claimed_elsewhere[0];
    assert_eq!((run.setting, run.run, claim), (1, 2, &theirs));
    assert!(outcome.summary.is_none());
    let report = sweep_status(&directory).expect("status").report();
    assert!(
        report.contains("running: runs 2 by shard 1/2 (host node-7, process 4242)"),
        "{report}"
    );
    // Once that process is known to be gone, its claim is removed and the run is done.
    std::fs::remove_file(claim_path(&setting, 2)).expect("remove the claim");
    let outcome = run_sweep(
        &plan,
        &directory,
        Shard::WHOLE,
        threads(2),
        &|| false,
        &Silent,
    )
    .expect("sweep");
    assert_eq!((outcome.ran.len(), outcome.already_finished), (1, 11));
    assert!(outcome.summary.is_some());
    std::fs::remove_dir_all(&directory).expect("cleanup");
}

#[test]
fn a_directory_of_another_sweep_is_refused() {
    let plan = plan();
    let directory = fresh_directory("other-sweep");
    rl_experiment::sweep::prepare_sweep_directory(&directory, &plan).expect("prepare");
    let other = SweepFile::parse(&SWEEP.replace("\"seed\": 4", "\"seed\": 5"), "other.json")
        .and_then(|file| file.expand("other.json"))
        .expect("valid");
    let error = run_sweep(
        &other,
        &directory,
        Shard::WHOLE,
        threads(1),
        &|| false,
        &Silent,
    )
    .expect_err("another sweep");
    assert!(error.to_string().contains("seed was 4, now 5"), "{error}");
    std::fs::remove_dir_all(&directory).expect("cleanup");
}

fn rl(args: &[&str], directory: &Path, environment: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rl"));
    command.args(args).current_dir(directory);
    for name in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_COUNT",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_MAX",
        "JOB_COMPLETION_INDEX",
    ] {
        command.env_remove(name);
    }
    command.envs(environment.iter().copied());
    command.output().expect("the rl binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_command_line_shards_by_the_schedulers_variables() {
    let directory = fresh_directory("command-line");
    std::fs::create_dir_all(&directory).expect("directory");
    std::fs::write(directory.join("sweep.json"), SWEEP).expect("sweep file");
    let whole = rl(&["sweep", "sweep.json", "--out", "whole"], &directory, &[]);
    assert!(whole.status.success(), "{}", text(&whole.stderr));
    assert!(
        text(&whole.stdout).starts_with(
            "sweep sweep.json: 4 settings x 3 runs = 12 runs; one shard runs it all (results in whole)"
        ),
        "{}",
        text(&whole.stdout)
    );
    // A Kubernetes Indexed Job's pod 1 of 2, then a Slurm array's task 0 of 2.
    let second = rl(
        &[
            "sweep",
            "sweep.json",
            "--out",
            "sharded",
            "--shard-count",
            "2",
        ],
        &directory,
        &[("JOB_COMPLETION_INDEX", "1")],
    );
    let stdout = text(&second.stdout);
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert!(
        stdout.contains("shard 1/2 (from JOB_COMPLETION_INDEX) owns 6 of them")
            && stdout.contains("6 of 12 runs of the sweep are not finished yet"),
        "{stdout}"
    );
    let status = rl(&["status", "sharded"], &directory, &[]);
    assert!(
        text(&status.stdout).ends_with(
            "4 settings x 3 runs: 6 finished, 0 running (or killed on another machine), 0 abandoned (their process is gone: rerun their shard), 6 missing\n"
        ),
        "{}",
        text(&status.stdout)
    );
    let summarize = rl(&["summarize", "sharded"], &directory, &[]);
    assert_eq!(summarize.status.code(), Some(1));
    let stderr = text(&summarize.stderr);
    assert!(
        stderr.starts_with("rl: error: sharded: 6 of 12 runs are not finished (000-GridWorld-4x5-q-learning-noise=0.0: runs 0, 2;")
            && stderr.lines().count() == 1,
        "{stderr}"
    );
    let first = rl(
        &["sweep", "sweep.json", "--out", "sharded"],
        &directory,
        &[
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
        ],
    );
    let stdout = text(&first.stdout);
    assert!(
        stdout.contains("shard 0/2 (from SLURM_ARRAY_TASK_ID) owns 6 of them")
            && stdout.contains("wrote sharded/overlay-GridWorld-4x5.svg, sharded/settings.csv"),
        "{stdout}"
    );
    assert_same_tree(&directory.join("whole"), &directory.join("sharded"));
    let summarize = rl(&["summarize", "sharded"], &directory, &[]);
    assert!(summarize.status.success(), "{}", text(&summarize.stderr));
    assert_same_tree(&directory.join("whole"), &directory.join("sharded"));
    std::fs::remove_dir_all(&directory).expect("cleanup");
}

#[test]
fn a_one_setting_sweep_writes_what_rl_run_writes() {
    let directory = fresh_directory("one-setting");
    std::fs::create_dir_all(&directory).expect("directory");
    std::fs::write(
        directory.join("one.json"),
        r#"{"domains": ["GridWorld-4x5"], "agents": ["q-learning"], "max_steps": 400, "checks": 2, "checks_per_policy": 3, "runs": 2, "seed": 9}"#,
    )
    .expect("sweep file");
    let run = rl(
        &[
            "run",
            "--domain",
            "GridWorld-4x5",
            "--agent",
            "q-learning",
            "--max-steps",
            "400",
            "--checks",
            "2",
            "--checks-per-policy",
            "3",
            "--runs",
            "2",
            "--seed",
            "9",
            "--out",
            "run",
        ],
        &directory,
        &[],
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    let sweep = rl(&["sweep", "one.json", "--out", "sweep"], &directory, &[]);
    assert!(sweep.status.success(), "{}", text(&sweep.stderr));
    let (from_run, from_sweep) = (
        tree(&directory.join("run")),
        tree(&directory.join("sweep/000-GridWorld-4x5-q-learning")),
    );
    assert_eq!(
        from_run.keys().collect::<Vec<_>>(),
        from_sweep.keys().collect::<Vec<_>>()
    );
    for (name, text) in &from_run {
        assert!(from_sweep[name] == *text, "{name} differs");
    }
    assert!(from_sweep["run-000.log"].contains("compared with value iteration:"));
    std::fs::remove_dir_all(&directory).expect("cleanup");
}

#[test]
fn sweep_errors_are_one_line_and_write_nothing() {
    let directory = fresh_directory("errors");
    std::fs::create_dir_all(&directory).expect("directory");
    for (file, contents, expected) in [
        (
            "grid.json",
            r#"{"domains": [{"id": "GridWorld-4x5", "grid": {"noise": 0.1}}]}"#,
            "rl: error: grid.json: domains[0].grid.noise: invalid type: floating point `0.1`, expected a sequence",
        ),
        (
            "agent.json",
            r#"{"domains": ["GridWorld-4x5"], "agents": ["q-learning", {"name": "sarsa", "params": {"learning_rat": 0.1}}]}"#,
            "rl: error: agent.json: domains[0] agents[1]: ",
        ),
        (
            "budget.json",
            r#"{"domains": ["GridWorld-4x5"], "max_steps": 1000000000000000}"#,
            "rl: error: budget.json: max_steps: 1000000000000000 steps; give a whole number from 1 to 1000000000000",
        ),
    ] {
        std::fs::write(directory.join(file), contents).expect("sweep file");
        let output = rl(&["sweep", file, "--out", "out"], &directory, &[]);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.starts_with(expected) && stderr.lines().count() == 1,
            "{file}: {stderr}"
        );
        assert!(
            !directory.join("out").exists(),
            "nothing written for {file}"
        );
    }
    let output = rl(&["sweep", "missing.json", "--out", "out"], &directory, &[]);
    assert!(
        text(&output.stderr).starts_with("rl: error: missing.json: No such file"),
        "{}",
        text(&output.stderr)
    );
    let output = rl(
        &["sweep", "grid.json", "--out", "out", "--shard", "2/2"],
        &directory,
        &[],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("shard index 2 of 2 shards; the index counts from 0 to 1"),
        "{}",
        text(&output.stderr)
    );
    let output = rl(&["status", "nowhere"], &directory, &[]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stderr),
        "rl: error: nowhere: no such directory\n"
    );
    std::fs::remove_dir_all(&directory).expect("cleanup");
}

#[test]
fn a_shard_killed_mid_run_resumes_its_own_runs() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let directory = fresh_directory("killed");
    std::fs::create_dir_all(&directory).expect("directory");
    let longer = SWEEP.replace("\"max_steps\": 300", "\"max_steps\": 6000");
    std::fs::write(directory.join("sweep.json"), &longer).expect("sweep file");
    let whole = rl(&["sweep", "sweep.json", "--out", "whole"], &directory, &[]);
    assert!(whole.status.success(), "{}", text(&whole.stderr));

    // Shard 0 of 2 is killed (SIGKILL, no chance to clean up) once its first run is saved,
    // while it is in the middle of another.
    let mut child = Command::new(env!("CARGO_BIN_EXE_rl"))
        .args(["sweep", "sweep.json", "--out", "sharded", "--shard", "0/2"])
        .args(["--threads", "1"])
        .current_dir(&directory)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the rl binary starts");
    let stderr = child.stderr.take().expect("piped");
    let first = BufReader::new(stderr)
        .lines()
        .map_while(Result::ok)
        .find(|line| line.contains("finished ("));
    assert!(first.is_some(), "shard 0 saved a run");
    child.kill().expect("kill");
    child.wait().expect("the killed shard ends");
    let killed = sweep_status(&directory.join("sharded")).expect("status");
    assert!(
        killed.finished() >= 1 && killed.finished() < 12,
        "{}",
        killed.report()
    );

    let second = rl(
        &["sweep", "sweep.json", "--out", "sharded", "--shard", "1/2"],
        &directory,
        &[],
    );
    assert!(second.status.success(), "{}", text(&second.stderr));
    let rerun = rl(
        &["sweep", "sweep.json", "--out", "sharded", "--shard", "0/2"],
        &directory,
        &[],
    );
    let stdout = text(&rerun.stdout);
    assert!(rerun.status.success(), "{}", text(&rerun.stderr));
    assert!(
        stdout.contains("wrote sharded/overlay-GridWorld-4x5.svg"),
        "{stdout}"
    );
    assert_same_tree(&directory.join("whole"), &directory.join("sharded"));
    std::fs::remove_dir_all(&directory).expect("cleanup");
}

/// A process id no Linux system gives (beyond the largest `pid_max`, 2^22).
#[cfg(target_os = "linux")]
const NO_SUCH_PROCESS: u32 = (1 << 22) + 1;

/// The host name claims record (what `rl_experiment` reads for it).
#[cfg(target_os = "linux")]
fn this_host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|name| name.trim().to_owned())
        .expect("Linux gives the host name")
}

/// Issue 33, item 8: a claim of this machine whose process is gone is taken over whatever
/// split made it, and one whose process runs (here this very process) is left alone.
#[cfg(target_os = "linux")]
#[test]
fn claims_are_taken_over_only_from_processes_that_are_gone() {
    let plan = plan();
    let directory = fresh_directory("claims-by-process");
    let setting = directory.join(&plan.settings[1].name);
    std::fs::create_dir_all(&setting).expect("directory");
    let gone = Claim {
        shard: 1,
        shards: 3,
        host: this_host(),
        pid: NO_SUCH_PROCESS,
    };
    let running = Claim {
        shard: 0,
        shards: 1,
        host: this_host(),
        pid: std::process::id(),
    };
    for (run, claim) in [(0, &gone), (2, &running)] {
        std::fs::write(
            claim_path(&setting, run),
            serde_json::to_string(claim).expect("json"),
        )
        .expect("claim");
    }
    let outcome = run_sweep(
        &plan,
        &directory,
        Shard::WHOLE,
        threads(2),
        &|| false,
        &Silent,
    )
    .expect("sweep");
    assert_eq!(outcome.ran.len(), 11, "the gone process's run is redone");
    let claimed: Vec<_> = outcome
        .claimed_elsewhere
        .iter()
        .map(|(run, claim)| (run.setting, run.run, claim.clone()))
        .collect();
    assert_eq!(claimed, [(1, 2, running)], "the running process's is not");
    assert!(!claim_path(&setting, 0).exists());
    std::fs::remove_dir_all(&directory).expect("cleanup");
}

/// The number of runs a `rl sweep` process ran, from its line `shard K/N: ran R runs, ...`.
fn runs_ran(stdout: &str) -> u64 {
    let line = stdout
        .lines()
        .find(|line| line.starts_with("shard ") && line.contains(": ran "))
        .unwrap_or_else(|| panic!("no `ran` line in {stdout}"));
    let (_, after) = line.split_once(": ran ").expect("ran");
    after
        .split(' ')
        .next()
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("no count in {line}"))
}

/// Issue 33, item 8: `rl sweep` processes whose shards overlap (a whole sweep beside a split
/// of it, and one shard started twice), all at once in one directory. One of them used to
/// exit 1 (another's temporary claim removed before it was linked, or a claim that vanished
/// read as a corrupt one). Now every process succeeds, every run is run exactly once over all
/// of them, whatever the interleaving, and the tree is one process's.
#[test]
fn overlapping_shard_processes_run_every_run_once() {
    use std::process::Stdio;
    let directory = fresh_directory("overlapping");
    std::fs::create_dir_all(&directory).expect("directory");
    let longer = SWEEP.replace("\"max_steps\": 300", "\"max_steps\": 2000");
    std::fs::write(directory.join("sweep.json"), &longer).expect("sweep file");
    let whole = rl(&["sweep", "sweep.json", "--out", "whole"], &directory, &[]);
    assert!(whole.status.success(), "{}", text(&whole.stderr));

    let children: Vec<_> = ["0/1", "0/2", "1/2", "0/2"]
        .into_iter()
        .map(|shard| {
            Command::new(env!("CARGO_BIN_EXE_rl"))
                .args(["sweep", "sweep.json", "--out", "overlap", "--shard", shard])
                .args(["--threads", "2"])
                .current_dir(&directory)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("the rl binary starts")
        })
        .collect();
    let mut ran = 0;
    for child in children {
        let output = child.wait_with_output().expect("rl ends");
        assert!(output.status.success(), "{}", text(&output.stderr));
        ran += runs_ran(&text(&output.stdout));
    }
    assert_eq!(ran, 12, "each of the 12 runs ran once over all processes");
    assert_same_tree(&directory.join("whole"), &directory.join("overlap"));
    std::fs::remove_dir_all(&directory).expect("cleanup");
}

/// Issue 33, item 8: one shard started twice. The first is stopped (SIGSTOP) while it holds a
/// claim, so that its claim is deterministically that of a running process when the second
/// starts: the second leaves that run alone (it used to take the claim over as its own
/// earlier attempt's and run it too) and runs the rest; the first, continued, finishes; every
/// run ran once and the tree is one process's.
#[cfg(target_os = "linux")]
#[test]
fn a_shard_started_twice_leaves_the_running_ones_claims_alone() {
    use std::process::Stdio;
    let directory = fresh_directory("started-twice");
    std::fs::create_dir_all(&directory).expect("directory");
    let longer = SWEEP.replace("\"max_steps\": 300", "\"max_steps\": 6000");
    std::fs::write(directory.join("sweep.json"), &longer).expect("sweep file");
    let whole = rl(&["sweep", "sweep.json", "--out", "whole"], &directory, &[]);
    assert!(whole.status.success(), "{}", text(&whole.stderr));

    let shard_args = ["sweep", "sweep.json", "--out", "twice", "--shard", "0/2"];
    let first = Command::new(env!("CARGO_BIN_EXE_rl"))
        .args(shard_args)
        .args(["--threads", "1"])
        .current_dir(&directory)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the rl binary starts");
    let pid = first.id();
    let claims = || -> Vec<PathBuf> {
        let Ok(settings) = std::fs::read_dir(directory.join("twice")) else {
            return Vec::new();
        };
        settings
            .flatten()
            .filter_map(|setting| std::fs::read_dir(setting.path()).ok())
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|e| e == "claim"))
            .collect()
    };
    // Wait for the first process's first claim (the poll's bound only keeps a broken build
    // from hanging the test suite; nothing is asserted about time).
    for _ in 0..6000 {
        if !claims().is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let signal = |name: &str| {
        let status = Command::new("kill")
            .args([&format!("-{name}"), &pid.to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -{name}");
    };
    signal("STOP");
    let held = claims();
    let second = rl(&shard_args, &directory, &[]);
    signal("CONT");
    let first = first.wait_with_output().expect("the first process ends");
    assert!(first.status.success(), "{}", text(&first.stderr));
    let second_out = text(&second.stdout);
    assert!(second.status.success(), "{}", text(&second.stderr));
    println!(
        "the first process held {} claims when the second ran",
        held.len()
    );
    if !held.is_empty() {
        assert!(
            second_out.contains("claimed by other processes and left alone")
                && second_out.contains(&format!("process {pid})")),
            "{second_out}"
        );
    }
    let other = rl(
        &["sweep", "sweep.json", "--out", "twice", "--shard", "1/2"],
        &directory,
        &[],
    );
    assert!(other.status.success(), "{}", text(&other.stderr));
    let ran =
        runs_ran(&text(&first.stdout)) + runs_ran(&second_out) + runs_ran(&text(&other.stdout));
    assert_eq!(ran, 12, "each run ran once over the three processes");
    assert_same_tree(&directory.join("whole"), &directory.join("twice"));
    std::fs::remove_dir_all(&directory).expect("cleanup");
}
