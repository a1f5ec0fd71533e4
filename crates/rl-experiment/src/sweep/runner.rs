//! Running a shard of a sweep into a shared results directory: the plan file, the settings'
//! directories, claims, and the runs themselves.

use std::fs;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use crate::experiment::{ExperimentConfig, LogController, RunResult, run_once};
use crate::lock::{host_name, process_is_running};
use crate::results::{
    config_differences, create_dir_all_durably, create_exclusively, is_temporary_of,
    prepare_shared_directory, read_regular_file, read_run, remove_if_unchanged, run_path,
    temporary_writer_is_gone, write_atomically, write_run,
};
use crate::sweep::file::{SweepPlan, SweepRun};
use crate::sweep::shard::Shard;
use crate::sweep::status::{SweepSummary, is_complete, summarize_sweep};
use crate::{ExperimentError, Progress, catalog};

/// The name of a sweep's plan file in its results directory.
pub const PLAN_FILE: &str = "sweep.json";

/// Who claimed a run: written to `run-NNN.claim` while the run is in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// The claiming shard's index.
    pub shard: u64,
    /// The number of shards it was one of.
    pub shards: u64,
    /// The machine's name (from `/proc/sys/kernel/hostname` or `HOSTNAME`): for people, and
    /// to tell a claim made on this machine, whose process can be checked.
    pub host: String,
    /// The process id: for people, and to tell whether the claim's maker still runs.
    pub pid: u32,
}

impl Claim {
    /// This process's claim as shard `shard`.
    fn of(shard: Shard) -> Claim {
        Claim {
            shard: shard.index(),
            shards: shard.count(),
            host: host_name(),
            pid: std::process::id(),
        }
    }

    /// Whether the claim was made by the same shard of the same split.
    fn is_by(&self, shard: Shard) -> bool {
        self.shard == shard.index() && self.shards == shard.count()
    }

    /// Whether the claim was made on this machine by a process that is no longer running (its
    /// shard was killed). `false` when that cannot be checked (another machine, no `/proc`).
    pub fn is_gone(&self) -> bool {
        self.host == host_name() && process_is_running(self.pid) == Some(false)
    }

    /// Whether shard `shard` may take this claim over, its maker being gone: on this machine,
    /// when its process is not running (Linux's `/proc`), or, where the system cannot tell,
    /// when it is the same shard of the same split in another process (its earlier attempt);
    /// on another machine, which cannot be checked, when it is the same shard of the same split
    /// (a requeued task: schedulers run a task once at a time). A claim by a process that is
    /// running, this one included, is never taken over.
    fn is_stale_for(&self, shard: Shard) -> bool {
        if self.host == host_name() {
            match process_is_running(self.pid) {
                Some(running) => !running,
                None => self.is_by(shard) && self.pid != std::process::id(),
            }
        } else {
            self.is_by(shard)
        }
    }
}

impl std::fmt::Display for Claim {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            formatter,
            "shard {}/{} (host {}, process {})",
            self.shard, self.shards, self.host, self.pid
        )
    }
}

/// The claim file of run `run` in a setting's directory.
pub fn claim_path(directory: &Path, run: u64) -> PathBuf {
    directory.join(format!("run-{run:03}.claim"))
}

/// Reads a claim file: `None` when there is none, or when it does not parse (a claim is
/// always written whole, so that only happens to a file someone else put there).
pub fn read_claim(directory: &Path, run: u64) -> Option<Claim> {
    read_regular_file(&claim_path(directory, run))
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
}

/// The outcome of trying to claim a run.
enum Claimed {
    /// This process holds the claim (new, or taken over from a maker that is gone).
    Ours,
    /// Another process that is running (or that cannot be checked) holds it.
    Theirs(Claim),
    /// Another process finished the run before this one got the claim.
    Finished,
}

/// How many times [`claim`] tries again when the claim file changes under it (its maker
/// finished, or a stale claim was taken over) before giving up.
const CLAIM_ATTEMPTS: usize = 16;

/// Claims run `run` in `directory` for `shard`: creates `run-NNN.claim` exclusively (a whole
/// temporary file hard-linked to the claim's name, which fails when the name exists, so two
/// processes can never both create it and no one ever reads half a claim). A claim already
/// there whose maker is gone ([`Claim::is_stale_for`]) is taken over (removed, if no one else
/// took it over meanwhile, and created anew); one whose maker runs is left alone; one that
/// vanishes while it is read (its maker finished) is tried again. Once the claim is this
/// process's, the run's file is looked for again: when another process finished the run
/// meanwhile, the claim is given back and the run is not redone.
fn claim(
    directory: &Path,
    run: u64,
    shard: Shard,
    config: &ExperimentConfig,
) -> Result<Claimed, ExperimentError> {
    let path = claim_path(directory, run);
    let text = serde_json::to_string(&Claim::of(shard))
        .map_err(|e| ExperimentError::invalid("claim", e.to_string()))?
        + "\n";
    for _ in 0..CLAIM_ATTEMPTS {
        match create_exclusively(&path, text.as_bytes()) {
            Ok(()) => {
                return match read_run(directory, run, config) {
                    Ok(None) => Ok(Claimed::Ours),
                    finished_or_error => {
                        let _ = fs::remove_file(&path);
                        finished_or_error.map(|_| Claimed::Finished)
                    }
                };
            }
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(error) => return Err(ExperimentError::io(&path, &error)),
        }
        let existing_text = match read_regular_file(&path) {
            Ok(existing_text) => existing_text,
            // Its maker removed it between our attempt and the read: try again.
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => continue,
            Err(error) => return Err(ExperimentError::io(&path, &error)),
        };
        let existing: Claim =
            serde_json::from_str(&existing_text).map_err(|e| ExperimentError::CorruptResults {
                path: path.clone(),
                reason: format!(
                    "a claim file that does not parse ({e}); remove it if no process is running this run"
                ),
            })?;
        if !existing.is_stale_for(shard) {
            return Ok(Claimed::Theirs(existing));
        }
        remove_if_unchanged(&path, &existing_text)
            .map_err(|error| ExperimentError::io(&path, &error))?;
    }
    Err(ExperimentError::Io {
        path,
        message: format!(
            "the claim changed {CLAIM_ATTEMPTS} times while this shard tried to take it; are \
             many processes running this sweep's shards at once?"
        ),
    })
}

/// Removes the temporary files of run `run` left by an earlier attempt (called by the run's
/// claimant, the only writer of the run's files): every temporary file of `run-NNN.json` and
/// `run-NNN.log`, and those of `run-NNN.claim` whose writer is gone (other processes write
/// theirs while they try to claim the run, before they find it taken).
fn remove_leftovers(directory: &Path, run: u64) {
    let run_files = [format!("run-{run:03}.json"), format!("run-{run:03}.log")];
    let claim = format!("run-{run:03}.claim");
    if let Ok(entries) = fs::read_dir(directory) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let leftover = run_files
                .iter()
                .any(|target| is_temporary_of(&name, target))
                || (is_temporary_of(&name, &claim) && temporary_writer_is_gone(&name));
            if leftover {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}

/// The largest `sweep.json` read back (64 MiB, room for [`SETTINGS_LIMIT`] settings with
/// large parameter objects): checked before the file is read.
///
/// [`SETTINGS_LIMIT`]: crate::sweep::SETTINGS_LIMIT
pub const PLAN_FILE_SIZE_LIMIT: u64 = 64 << 20;

/// Reads the plan in `directory`'s `sweep.json`: `None` when there is none. A file larger than
/// [`PLAN_FILE_SIZE_LIMIT`], or one that does not hold a valid plan, is an error.
pub fn read_plan(directory: &Path) -> Result<Option<SweepPlan>, ExperimentError> {
    let path = directory.join(PLAN_FILE);
    let size = fs::metadata(&path).map_or(0, |metadata| metadata.len());
    if size > PLAN_FILE_SIZE_LIMIT {
        return Err(ExperimentError::CorruptResults {
            path,
            reason: format!(
                "{size} bytes, more than a sweep's plan can hold ({PLAN_FILE_SIZE_LIMIT})"
            ),
        });
    }
    let text = match read_regular_file(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(ExperimentError::io(&path, &e)),
    };
    let file = path.display().to_string();
    let mut deserializer = serde_json::Deserializer::from_str(&text);
    let plan: SweepPlan = serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
        ExperimentError::InvalidSweep {
            file: file.clone(),
            location: e.path().to_string(),
            reason: e.into_inner().to_string(),
        }
    })?;
    plan.validate(&file)?;
    Ok(Some(plan))
}

/// The plan's text as `sweep.json` holds it.
fn plan_text(plan: &SweepPlan) -> Result<String, ExperimentError> {
    serde_json::to_string_pretty(plan)
        .map(|text| text + "\n")
        .map_err(|e| ExperimentError::invalid("plan", e.to_string()))
}

/// Describes the first difference between two plans.
fn plan_difference(existing: &SweepPlan, wanted: &SweepPlan) -> Option<String> {
    if existing.runs != wanted.runs {
        return Some(format!("runs was {}, now {}", existing.runs, wanted.runs));
    }
    if existing.settings.len() != wanted.settings.len() {
        return Some(format!(
            "{} settings, now {}",
            existing.settings.len(),
            wanted.settings.len()
        ));
    }
    existing
        .settings
        .iter()
        .zip(&wanted.settings)
        .find(|(a, b)| a != b)
        .map(|(a, b)| match config_differences(&a.config, &b.config) {
            Some(differences) => format!("setting {}: {differences}", a.name),
            None => format!("setting {} is now {}", a.name, b.name),
        })
}

/// Prepares the results tree of `plan` in `directory`: creates it, writes `sweep.json` or
/// checks that the one there is the same plan, and prepares each setting's directory (its
/// `experiment.json`) as `rl run` does. Safe to call from every shard at once: every file is
/// the same whoever writes it, and each write is atomic. Nothing is removed.
pub fn prepare_sweep_directory(directory: &Path, plan: &SweepPlan) -> Result<(), ExperimentError> {
    if let Some(file) = directory
        .ancestors()
        .filter(|path| !path.as_os_str().is_empty())
        .find(|path| path.exists() && !path.is_dir())
    {
        return Err(ExperimentError::Io {
            path: file.to_path_buf(),
            message: "is a file, and the output must be a directory; choose another --out"
                .to_owned(),
        });
    }
    create_dir_all_durably(directory).map_err(|e| ExperimentError::Io {
        path: directory.to_path_buf(),
        message: format!("cannot create the output directory: {e}"),
    })?;
    let mismatch = |differences: String| ExperimentError::ConfigMismatch {
        directory: directory.to_path_buf(),
        differences,
    };
    if read_plan(directory)?.is_none() {
        write_atomically(&directory.join(PLAN_FILE), plan_text(plan)?.as_bytes())?;
    }
    // Read back whatever is there now: another shard's identical plan, or, if a different
    // sweep raced this one into the same directory, the difference.
    let existing = read_plan(directory)?.ok_or_else(|| ExperimentError::Io {
        path: directory.join(PLAN_FILE),
        message: "disappeared while the sweep started".to_owned(),
    })?;
    if let Some(difference) = plan_difference(&existing, plan) {
        return Err(mismatch(difference));
    }
    for setting in &plan.settings {
        prepare_shared_directory(&directory.join(&setting.name), &setting.config)?;
    }
    Ok(())
}

/// What one shard's part of a sweep did.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepOutcome {
    /// The shard that ran.
    pub shard: Shard,
    /// The runs this shard owns, in run-list order.
    pub owned: u64,
    /// The runs it ran now, in the order they finished.
    pub ran: Vec<SweepRun>,
    /// The runs it owns that were already finished, or that another process (an overlapping
    /// shard) finished before this one could claim them: skipped.
    pub already_finished: u64,
    /// The runs it owns that another process had claimed (a running one, or one on another
    /// machine that cannot be checked), with that claim: left alone (see the [module
    /// documentation](super) for what to do).
    pub claimed_elsewhere: Vec<(SweepRun, Claim)>,
    /// When every run of the sweep was finished afterwards, the summaries this shard wrote.
    pub summary: Option<SweepSummary>,
}

/// Runs shard `shard` of `plan` into `directory` on up to `threads` threads: prepares the
/// results tree ([`prepare_sweep_directory`]), then, for each run the shard owns in run-list
/// order, skips it if its file exists (checking that it belongs to the setting), else claims
/// it, runs it, writes its files atomically and durably, and removes the claim. When all of
/// the sweep's runs are then finished (this shard was the last, or the only one), it writes
/// the summaries and plots ([`summarize_sweep`]).
///
/// `should_stop` interrupts between steps: runs in flight give up their claims (a rerun of
/// the shard redoes them), finished ones stay, and the result is
/// [`ExperimentError::Interrupted`]. A failing run stops the shard with its error.
pub fn run_sweep(
    plan: &SweepPlan,
    directory: &Path,
    shard: Shard,
    threads: NonZeroUsize,
    should_stop: &(dyn Fn() -> bool + Sync),
    progress: &dyn Progress,
) -> Result<SweepOutcome, ExperimentError> {
    prepare_sweep_directory(directory, plan)?;
    let mut already_finished = 0u64;
    let mut pending = Vec::new();
    let mut owned = 0u64;
    for run in plan.runs().filter(|run| shard.owns(run.index)) {
        owned += 1;
        let setting = &plan.settings[run.setting];
        let setting_directory = directory.join(&setting.name);
        match read_run(&setting_directory, run.run, &setting.config)? {
            Some(_) => {
                already_finished += 1;
                // A process killed between writing the run's file and removing its claim left
                // a claim that no longer means anything (one whose maker runs is that maker's
                // to remove).
                let path = claim_path(&setting_directory, run.run);
                if let Ok(text) = read_regular_file(&path) {
                    let stale = serde_json::from_str::<Claim>(&text)
                        .is_ok_and(|claim| claim.is_stale_for(shard));
                    if stale {
                        let _ = remove_if_unchanged(&path, &text);
                    }
                }
            }
            None => pending.push(run),
        }
    }
    let total_steps = pending.iter().fold(0u64, |total, run| {
        total.saturating_add(plan.settings[run.setting].config.max_steps)
    });
    progress.start(total_steps, already_finished);

    let next = AtomicU64::new(0);
    let finished_elsewhere = AtomicU64::new(0);
    let abort = AtomicBool::new(false);
    let first_error: Mutex<Option<ExperimentError>> = Mutex::new(None);
    let ran: Mutex<Vec<SweepRun>> = Mutex::new(Vec::new());
    let elsewhere: Mutex<Vec<(SweepRun, Claim)>> = Mutex::new(Vec::new());
    let stop = || abort.load(Ordering::Relaxed) || should_stop();
    let fail = |error: ExperimentError| {
        abort.store(true, Ordering::Relaxed);
        if let Ok(mut slot) = first_error.lock() {
            // An interruption caused by another run's failure is not the story to tell.
            if slot.is_none() || slot.as_ref() == Some(&ExperimentError::Interrupted) {
                *slot = Some(error);
            }
        }
    };
    let worker = || loop {
        let i = next.fetch_add(1, Ordering::SeqCst) as usize;
        let Some(&run) = pending.get(i) else { break };
        if stop() {
            break;
        }
        let setting = &plan.settings[run.setting];
        let setting_directory = directory.join(&setting.name);
        match claim(&setting_directory, run.run, shard, &setting.config) {
            Ok(Claimed::Ours) => {}
            Ok(Claimed::Finished) => {
                finished_elsewhere.fetch_add(1, Ordering::SeqCst);
                continue;
            }
            Ok(Claimed::Theirs(owner)) => {
                if let Ok(mut list) = elsewhere.lock() {
                    list.push((run, owner));
                }
                continue;
            }
            Err(error) => {
                fail(error);
                break;
            }
        }
        remove_leftovers(&setting_directory, run.run);
        let config = &setting.config;
        let make_env = || catalog::make_for_experiment(config);
        let mut log = LogController::new();
        let outcome = run_once(
            config,
            run.run,
            &make_env,
            &mut [&mut log],
            &stop,
            &|steps| progress.advance(steps),
        )
        .and_then(|result| write_run(&setting_directory, &result, &log.text()).map(|()| result));
        let released = match fs::remove_file(claim_path(&setting_directory, run.run)) {
            // Already removed (by hand, or by a process that took this shard's claim for a
            // killed attempt's): nothing is left to give back.
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
            other => other,
        };
        match (outcome, released) {
            (Ok(result), Ok(())) => {
                progress.run_finished(&result);
                if let Ok(mut list) = ran.lock() {
                    list.push(run);
                }
            }
            (Ok(_), Err(error)) => {
                fail(ExperimentError::io(
                    &claim_path(&setting_directory, run.run),
                    &error,
                ));
                break;
            }
            (Err(error), _) => {
                fail(error);
                break;
            }
        }
    };
    let workers = threads.get().min(pending.len()).max(1);
    std::thread::scope(|scope| {
        for _ in 1..workers {
            scope.spawn(worker);
        }
        worker();
    });
    progress.finish();
    if let Some(error) = first_error.into_inner().ok().flatten() {
        return Err(error);
    }
    let ran = ran.into_inner().unwrap_or_default();
    let already_finished = already_finished + finished_elsewhere.into_inner();
    let mut claimed_elsewhere = elsewhere.into_inner().unwrap_or_default();
    claimed_elsewhere.sort_by_key(|(run, _)| *run);
    if should_stop() && already_finished + (ran.len() as u64) < owned {
        return Err(ExperimentError::Interrupted);
    }
    let summary = if is_complete(plan, directory) {
        Some(summarize_sweep(directory)?)
    } else {
        None
    };
    Ok(SweepOutcome {
        shard,
        owned,
        ran,
        already_finished,
        claimed_elsewhere,
        summary,
    })
}

/// Reads every run of a setting, in order, checking each against the setting.
pub(crate) fn read_setting_runs(
    directory: &Path,
    plan: &SweepPlan,
    setting: usize,
) -> Result<Vec<RunResult>, ExperimentError> {
    let setting = &plan.settings[setting];
    let setting_directory = directory.join(&setting.name);
    (0..plan.runs)
        .map(|run| {
            read_run(&setting_directory, run, &setting.config)?.ok_or_else(|| ExperimentError::Io {
                path: run_path(&setting_directory, run),
                message: "missing".to_owned(),
            })
        })
        .collect()
}
