//! Results on disk: atomic writes, the experiment directory, run files, and the summary CSV.
//!
//! An output directory holds:
//!
//! | file | content |
//! |---|---|
//! | `experiment.json` | the configuration (`{"format": "rl-experiment/experiment", "version": 1, "config": ...}`) |
//! | `run-NNN.json` | one [`RunResult`] per finished run |
//! | `run-NNN.log` | the human-readable log of that run |
//! | `summary.csv` | per check, the mean and standard deviation over runs ([`SUMMARY_HEADER`]; [`read_summary`] reads it back, for `rl plot`) |
//! | `learning_curve.svg` | the mean evaluation return ± one standard deviation against learning steps |
//!
//! Every file is written atomically (a temporary file in the same directory, flushed, then
//! renamed), so a crash never leaves a half-written file: a run file exists only for a finished
//! run, which is what lets an interrupted experiment resume.
//!
//! # Durability
//!
//! [`write_atomically`] syncs the file's contents to disk before the rename and, on Unix, the
//! directory after it (`fsync` of the directory), so once it returns the file survives a power
//! loss or an operating-system crash, not only the end of the process: a finished run stays
//! finished. A crash before it returns leaves either the old file (or none) or the new one,
//! never a mix, plus at most a hidden temporary file (`.NAME.tmp-...`) that readers ignore. On
//! other systems the directory is not synced, and a power loss right after the rename may lose
//! the file (never half of it). The guarantee holds on local file systems and on NFS, whose
//! close-to-open consistency makes a file synced by one machine whole for every other.
//!
//! The directories themselves are created by [`create_dir_all_durably`], which syncs the
//! parent of every directory it creates (each missing component of the path, outermost
//! first), so the guarantee also holds for the first run written into a new directory, or a
//! new tree of them.
//!
//! # Reading
//!
//! Files of a results directory are read only when they are regular files: a named pipe, a
//! socket or a device in place of `run-003.json` is an error naming the path, never a read
//! that waits forever for a writer. (The check comes just before the file is opened; a
//! named pipe put there in between is not caught.)
//!
//! # Two writers
//!
//! Two `rl run` (two [`run_experiment`](crate::run_experiment) calls, in one process or in
//! two) never share an output directory: each holds the directory's lock file
//! ([`RunLock`](crate::lock::RunLock)) while it runs, and the second refuses at once. At
//! start-up, [`prepare_directory`] removes the temporary files of writers that are gone,
//! never those of a process that is still running (see [`crate::lock`]).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value as JsonValue, json};

use crate::experiment::{ExperimentConfig, RUN_FORMAT, RunResult};
use crate::{ExperimentError, POLICY_CHECKS_LIMIT};

/// The `format` of `experiment.json`.
pub const EXPERIMENT_FORMAT: &str = "rl-experiment/experiment";

/// Writes `contents` to `path` atomically and durably: into a temporary file next to it whose
/// name no other writer uses (`.NAME.tmp-PID-N-NANOS`), synced to disk, renamed over `path`,
/// and then, on Unix, the directory synced (see [Durability](self#durability)). Several
/// processes, on one machine or several sharing the file system, may write the same path at
/// once: each rename is whole, and the last one wins.
///
/// Only a regular file is ever replaced ([`check_replaceable`]): an existing `path` that is a
/// symbolic link, a named pipe, a socket, a device or a directory is refused, both before the
/// temporary file is written and again just before the rename.
pub fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), ExperimentError> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(contents)
        .map_err(|error| ExperimentError::io(path, &error))?;
    file.commit()
}

/// Checks that writing `path` may replace what is there: nothing, or a regular file. Every
/// command that writes a file follows this one rule: an existing `path` that is a **symbolic
/// link** is refused (never followed, never replaced: name the file it points to instead), and
/// so is a named pipe, a socket, a device or a directory, with an error of kind
/// [`InvalidInput`](std::io::ErrorKind::InvalidInput) that says what it is. Only the last
/// component is looked at: directories above it may be links.
pub fn check_replaceable(path: &Path) -> std::io::Result<()> {
    let metadata = match fs::symlink_metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(error) => return Err(error),
    };
    let file_type = metadata.file_type();
    if file_type.is_file() {
        return Ok(());
    }
    let (what, advice) = if file_type.is_symlink() {
        let what = match fs::read_link(path) {
            Ok(target) => format!("a symbolic link to {}", target.display()),
            Err(_) => "a symbolic link".to_owned(),
        };
        (what, "name the file it points to instead")
    } else {
        (describe_file_type(file_type).to_owned(), "name a new file")
    };
    Err(std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!(
            "exists and is {what}, not a regular file; rl replaces only regular files, never \
             a link, pipe, device or directory ({advice})"
        ),
    ))
}

/// A file being written whole: bytes go to a temporary file beside the target
/// (`.NAME.tmp-PID-N-NANOS`), and [`commit`](AtomicFile::commit) syncs it, checks the target
/// again ([`check_replaceable`]), renames it over the target and syncs the directory, as
/// [`write_atomically`] does (which uses it). Dropped without a commit, the temporary file is
/// removed and the target is untouched. For outputs written piece by piece, such as GIFs.
#[derive(Debug)]
pub struct AtomicFile {
    path: PathBuf,
    temporary: PathBuf,
    file: Option<std::io::BufWriter<fs::File>>,
}

impl AtomicFile {
    /// Starts writing `path`: refuses a target that is not a regular file
    /// ([`check_replaceable`]) and creates the temporary file.
    pub fn create(path: &Path) -> Result<AtomicFile, ExperimentError> {
        static WRITES: AtomicU64 = AtomicU64::new(0);
        check_replaceable(path).map_err(|error| ExperimentError::io(path, &error))?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| {
                ExperimentError::invalid("path", format!("{} has no file name", path.display()))
            })?;
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.subsec_nanos());
        let temporary = directory_of(path).join(format!(
            ".{name}.tmp-{}-{}-{nanos}",
            std::process::id(),
            WRITES.fetch_add(1, Ordering::Relaxed)
        ));
        let file = fs::File::create(&temporary).map_err(|e| ExperimentError::io(path, &e))?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            temporary,
            file: Some(std::io::BufWriter::new(file)),
        })
    }

    /// The file this writes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Finishes: flushes and syncs the temporary file, checks the target once more, renames
    /// the temporary file over it and syncs the directory.
    pub fn commit(mut self) -> Result<(), ExperimentError> {
        let Some(writer) = self.file.take() else {
            return Ok(());
        };
        let result = (|| {
            let file = writer.into_inner().map_err(|error| error.into_error())?;
            file.sync_all()?;
            drop(file);
            check_replaceable(&self.path)?;
            fs::rename(&self.temporary, &self.path)?;
            sync_directory(directory_of(&self.path))
        })();
        result.map_err(|error| {
            let _ = fs::remove_file(&self.temporary);
            ExperimentError::io(&self.path, &error)
        })
    }
}

impl Write for AtomicFile {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match &mut self.file {
            Some(file) => file.write(bytes),
            None => Err(std::io::Error::other("the file was already committed")),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.file {
            Some(file) => file.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.temporary);
        }
    }
}

/// A new name for a temporary file of this process beside `path`: `.NAME.tmp-PID-N` (`NAME`
/// without its leading dots), which no other writer uses and which [`prepare_directory`]
/// removes once this process is gone.
fn temporary_path(path: &Path) -> PathBuf {
    static NAMES: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let directory = path.parent().unwrap_or(Path::new(""));
    directory.join(format!(
        ".{}.tmp-{}-{}",
        name.trim_start_matches('.'),
        std::process::id(),
        NAMES.fetch_add(1, Ordering::Relaxed)
    ))
}

/// The directory `path` is in (`.` for a bare name).
fn directory_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Creates `path` with `contents`, whole and exclusively: a synced temporary file hard-linked
/// to `path`, which fails with [`AlreadyExists`](std::io::ErrorKind::AlreadyExists) when
/// `path` exists, so that of several processes creating it at once exactly one succeeds, and
/// no reader ever sees part of it; then the directory is synced. For lock and claim files.
pub(crate) fn create_exclusively(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let temporary = temporary_path(path);
    let linked = (|| {
        let mut file = fs::File::create(&temporary)?;
        file.write_all(contents)?;
        file.sync_all()?;
        fs::hard_link(&temporary, path)
    })();
    let _ = fs::remove_file(&temporary);
    linked?;
    sync_directory(directory_of(path))
}

/// Removes `path` if it still holds exactly `expected` (a lock or claim judged stale from that
/// text), and tells whether it did. The file is first renamed to a private name, which only one
/// process can do to a given file; if what was renamed is no longer `expected` (another process
/// replaced the stale file meanwhile), it is put back under `path` (unless yet another file
/// took that name in between, which then stands). A missing `path` is `Ok(false)`.
pub(crate) fn remove_if_unchanged(path: &Path, expected: &str) -> std::io::Result<bool> {
    let private = temporary_path(path);
    match fs::rename(path, &private) {
        Ok(()) => {}
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(error) => return Err(error),
    }
    let unchanged = read_regular_file(&private).is_ok_and(|text| text == expected);
    if !unchanged {
        let _ = fs::hard_link(&private, path);
    }
    fs::remove_file(&private)?;
    Ok(unchanged)
}

/// Syncs `directory` itself (its list of names) to disk, so that a rename or a new file in it
/// survives a power loss: `fsync` of the directory on Unix, nothing elsewhere (Windows cannot
/// open a directory as a file). A file system that cannot sync a directory (it answers that
/// the operation is invalid or unsupported), or a directory that may be written but not read,
/// is not an error: the rename stands, only without that guarantee.
pub fn sync_directory(directory: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::io::ErrorKind;
        match fs::File::open(directory).and_then(|handle| handle.sync_all()) {
            Err(error)
                if matches!(
                    error.kind(),
                    ErrorKind::InvalidInput | ErrorKind::Unsupported | ErrorKind::PermissionDenied
                ) =>
            {
                Ok(())
            }
            other => other,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = directory;
        Ok(())
    }
}

/// Creates `path` and every missing directory above it, as [`std::fs::create_dir_all`] does,
/// and then syncs the parent of each directory it had to create ([`sync_directory`]), so that
/// the new directories, and the files later written and synced in them, survive a power loss
/// (POSIX makes a new directory entry durable only once its parent is synced). Components that
/// existed before are not synced again; one that another process creates meanwhile is synced
/// all the same. An existing component that is not a directory is an error.
pub fn create_dir_all_durably(path: &Path) -> std::io::Result<()> {
    // The missing directories, innermost first: walk up to the first ancestor that exists.
    let mut missing = Vec::new();
    let mut current = path;
    loop {
        match fs::metadata(current) {
            Ok(metadata) if metadata.is_dir() => break,
            Ok(_) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    format!("{} exists and is not a directory", current.display()),
                ));
            }
            // Not a directory: something above is a file, which the next step up reports.
            Err(error)
                if matches!(
                    error.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                missing.push(current);
                match current.parent() {
                    Some(parent) if !parent.as_os_str().is_empty() => current = parent,
                    _ => break,
                }
            }
            Err(error) => return Err(error),
        }
    }
    for directory in missing.into_iter().rev() {
        match fs::create_dir(directory) {
            Ok(()) => {}
            Err(error)
                if error.kind() == std::io::ErrorKind::AlreadyExists && directory.is_dir() => {}
            Err(error) => return Err(error),
        }
        let parent = directory
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        sync_directory(parent)?;
    }
    Ok(())
}

/// Creates the output directory `directory` durably ([`create_dir_all_durably`]), with a plain
/// message when it, or a directory above it, is a file.
pub(crate) fn create_output_directory(directory: &Path) -> Result<(), ExperimentError> {
    // A file where a directory is wanted (the output path or one of its parents) gets a plain
    // message rather than the operating system's "File exists" or "Not a directory".
    if let Some(file) = directory
        .ancestors()
        .filter(|path| !path.as_os_str().is_empty())
        .find(|path| path.exists() && !path.is_dir())
    {
        return Err(ExperimentError::Io {
            path: file.to_path_buf(),
            message: if file == directory {
                "is a file, and the output must be a directory; choose another --out".to_owned()
            } else {
                format!(
                    "is a file, so the output directory {} cannot be created in it; choose another --out",
                    directory.display()
                )
            },
        });
    }
    create_dir_all_durably(directory).map_err(|e| ExperimentError::Io {
        path: directory.to_path_buf(),
        message: format!("cannot create the output directory: {e}"),
    })
}

/// Reads the whole of `path` as text if it is a regular file (following symbolic links). A
/// named pipe, socket, device or directory is refused before it is opened, with an error of
/// kind [`InvalidInput`](std::io::ErrorKind::InvalidInput) that says what it is, so that a
/// pipe nobody writes to can never block the reader; a missing file is
/// [`NotFound`](std::io::ErrorKind::NotFound), as from [`std::fs::read_to_string`].
pub(crate) fn read_regular_file(path: &Path) -> std::io::Result<String> {
    let file_type = fs::metadata(path)?.file_type();
    if !file_type.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "not a regular file but {}; a results file must be a regular file",
                describe_file_type(file_type)
            ),
        ));
    }
    fs::read_to_string(path)
}

/// What a file that is not a regular file is, for messages.
fn describe_file_type(file_type: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_block_device() || file_type.is_char_device() {
            return "a device";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

/// Whether `name` is a temporary file of [`write_atomically`] for the file `target` (any
/// writer's): `.TARGET.tmp-...`.
pub(crate) fn is_temporary_of(name: &str, target: &str) -> bool {
    name.strip_prefix('.')
        .and_then(|rest| rest.strip_prefix(target))
        .is_some_and(|rest| rest.starts_with(".tmp-"))
}

/// The file of run `run` in `directory`.
pub fn run_path(directory: &Path, run: u64) -> PathBuf {
    directory.join(format!("run-{run:03}.json"))
}

/// The log file of run `run` in `directory`.
pub fn log_path(directory: &Path, run: u64) -> PathBuf {
    directory.join(format!("run-{run:03}.log"))
}

/// Prepares `directory` for `config`: creates it ([`create_dir_all_durably`]), and writes
/// `experiment.json` or checks that the one there describes the same experiment. Removes the
/// temporary files (`.NAME.tmp-PID-...`) left by writers that are gone: those whose process
/// id is not a running process of this machine, or does not parse. Where the system cannot
/// tell whether a process runs (no Linux `/proc`), every temporary file is removed, which is
/// safe when the caller holds the directory's [`RunLock`](crate::lock::RunLock), as
/// [`run_experiment`](crate::run_experiment) does.
pub fn prepare_directory(
    directory: &Path,
    config: &ExperimentConfig,
) -> Result<(), ExperimentError> {
    prepare_shared_directory(directory, config)?;
    if let Ok(entries) = fs::read_dir(directory) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') && name.contains(".tmp-") && temporary_writer_is_gone(&name) {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
    Ok(())
}

/// Whether the process that wrote the temporary file `name` (`.NAME.tmp-PID-...`, the process
/// id right after `.tmp-`) is gone: true when the id does not parse, or is not a running
/// process of this machine, or when the system cannot tell.
pub(crate) fn temporary_writer_is_gone(name: &str) -> bool {
    let writer = name
        .rsplit_once(".tmp-")
        .and_then(|(_, rest)| rest.split('-').next())
        .and_then(|pid| pid.parse::<u32>().ok());
    match writer {
        Some(pid) => crate::lock::process_is_running(pid) != Some(true),
        None => true,
    }
}

/// [`prepare_directory`] without removing temporary files: for a directory that other
/// processes (the shards of a sweep) may be writing into at the same time, whose temporary
/// files are not leftovers.
pub(crate) fn prepare_shared_directory(
    directory: &Path,
    config: &ExperimentConfig,
) -> Result<(), ExperimentError> {
    create_output_directory(directory)?;
    match read_experiment(directory)? {
        Some(existing) => {
            if let Some(differences) = config_differences(&existing, config) {
                return Err(ExperimentError::ConfigMismatch {
                    directory: directory.to_path_buf(),
                    differences,
                });
            }
        }
        None => {
            let document = json!({"format": EXPERIMENT_FORMAT, "version": 1, "config": config});
            let text = serde_json::to_string_pretty(&document)
                .map_err(|e| ExperimentError::invalid("config", e.to_string()))?;
            write_atomically(&directory.join("experiment.json"), (text + "\n").as_bytes())?;
        }
    }
    Ok(())
}

/// Reads the configuration in `directory`'s `experiment.json`: `None` when there is no such
/// file, an error when it exists but is not an experiment file of this format.
pub fn read_experiment(directory: &Path) -> Result<Option<ExperimentConfig>, ExperimentError> {
    let path = directory.join("experiment.json");
    let text = match read_regular_file(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(ExperimentError::io(&path, &e)),
    };
    let corrupt = |reason: String| ExperimentError::CorruptResults {
        path: path.clone(),
        reason,
    };
    let value: JsonValue = serde_json::from_str(&text).map_err(|e| corrupt(e.to_string()))?;
    if value["format"] != EXPERIMENT_FORMAT || value["version"] != 1 {
        return Err(corrupt(format!(
            "format {} version {}",
            value["format"], value["version"]
        )));
    }
    serde_json::from_value(value["config"].clone())
        .map(Some)
        .map_err(|e| corrupt(e.to_string()))
}

/// The fields of an experiment's configuration in the order a difference is reported: what
/// was run first (the domain, then the agent), then the budget and the rest. Fields not named
/// here follow, in alphabetical order.
const DIFFERENCE_ORDER: [&str; 11] = [
    "domain",
    "domain_params",
    "agent",
    "agent_params",
    "action_bins",
    "max_steps",
    "num_policy_checks",
    "checks_per_policy",
    "runs",
    "seed",
    "evaluation_step_limit",
];

/// Describes every field in which two configurations differ (`domain was "GridWorld-4x5", now
/// "CartPole-v1"; agent was ...`), the domain first, in [`DIFFERENCE_ORDER`]; `None` when
/// they are the same. A field that one of them leaves out counts as `null`.
pub(crate) fn config_differences(
    existing: &ExperimentConfig,
    wanted: &ExperimentConfig,
) -> Option<String> {
    let (a, b) = (json!(existing), json!(wanted));
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return Some("unreadable configuration".to_owned());
    };
    let mut fields: Vec<&str> = a.keys().chain(b.keys()).map(String::as_str).collect();
    fields.sort_by_key(|field| {
        let place = DIFFERENCE_ORDER.iter().position(|known| known == field);
        (place.unwrap_or(DIFFERENCE_ORDER.len()), *field)
    });
    fields.dedup();
    let differences: Vec<String> = fields
        .into_iter()
        .filter_map(|field| {
            let was = a.get(field).unwrap_or(&JsonValue::Null);
            let now = b.get(field).unwrap_or(&JsonValue::Null);
            (was != now).then(|| format!("{field} was {was}, now {now}"))
        })
        .collect();
    (!differences.is_empty()).then(|| differences.join("; "))
}

/// Reads a finished run's file, if it exists and belongs to `config`. A file that exists but
/// does not parse, or belongs to another configuration, is an error (never silently redone).
pub fn read_run(
    directory: &Path,
    run: u64,
    config: &ExperimentConfig,
) -> Result<Option<RunResult>, ExperimentError> {
    let path = run_path(directory, run);
    let text = match read_regular_file(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(ExperimentError::io(&path, &e)),
    };
    let result = parse_run(&path, &text)?;
    if result.run != run {
        return Err(ExperimentError::CorruptResults {
            path,
            reason: format!("it holds run {}, not run {run}", result.run),
        });
    }
    if let Some(differences) = config_differences(&result.config, config) {
        return Err(ExperimentError::ConfigMismatch {
            directory: directory.to_path_buf(),
            differences,
        });
    }
    Ok(Some(result))
}

/// Reads one run file (`run-NNN.json`, as [`write_run`] writes it), whatever directory it is
/// in: an error when it cannot be read, does not parse, or is not a run file of this format.
pub fn read_run_file(path: &Path) -> Result<RunResult, ExperimentError> {
    let text = read_regular_file(path).map_err(|e| ExperimentError::io(path, &e))?;
    parse_run(path, &text)
}

/// Parses the text of the run file `path`, checking its format and version.
fn parse_run(path: &Path, text: &str) -> Result<RunResult, ExperimentError> {
    let result: RunResult =
        serde_json::from_str(text).map_err(|e| ExperimentError::CorruptResults {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
    if result.format != RUN_FORMAT || result.version != 1 {
        return Err(ExperimentError::CorruptResults {
            path: path.to_path_buf(),
            reason: format!("format {:?} version {}", result.format, result.version),
        });
    }
    Ok(result)
}

/// Writes a finished run's file and log.
pub fn write_run(directory: &Path, result: &RunResult, log: &str) -> Result<(), ExperimentError> {
    let text = serde_json::to_string_pretty(result)
        .map_err(|e| ExperimentError::invalid("result", e.to_string()))?;
    write_atomically(&log_path(directory, result.run), log.as_bytes())?;
    write_atomically(&run_path(directory, result.run), (text + "\n").as_bytes())
}

/// One row of the summary: a policy check averaged over runs.
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryRow {
    /// The check's number (0 is before learning).
    pub check: usize,
    /// Learning steps before the check.
    pub learning_steps: u64,
    /// The number of runs averaged.
    pub runs: usize,
    /// The mean over runs of the mean evaluation return.
    pub return_mean: f64,
    /// The standard deviation over runs of the mean evaluation return.
    pub return_std: f64,
    /// The mean discounted return.
    pub discounted_return_mean: f64,
    /// The mean episode length.
    pub steps_mean: f64,
    /// The mean fraction of terminated evaluation episodes.
    pub terminated_mean: f64,
    /// The mean fraction of truncated evaluation episodes.
    pub truncated_mean: f64,
}

/// Averages the runs' checks (all runs of one experiment have the same checks).
pub fn summarize(results: &[RunResult]) -> Vec<SummaryRow> {
    let checks = results.iter().map(|r| r.checks.len()).min().unwrap_or(0);
    (0..checks)
        .map(|i| {
            let records: Vec<_> = results.iter().map(|r| &r.checks[i]).collect();
            let n = records.len() as f64;
            let mean = |f: &dyn Fn(&crate::experiment::CheckRecord) -> f64| {
                records.iter().map(|r| f(r)).sum::<f64>() / n
            };
            let return_mean = mean(&|r| r.episode_return);
            let variance = records
                .iter()
                .map(|r| (r.episode_return - return_mean).powi(2))
                .sum::<f64>()
                / n;
            SummaryRow {
                check: i,
                learning_steps: records.first().map_or(0, |r| r.learning_steps),
                runs: records.len(),
                return_mean,
                return_std: variance.sqrt(),
                discounted_return_mean: mean(&|r| r.discounted_return),
                steps_mean: mean(&|r| r.steps),
                terminated_mean: mean(&|r| r.terminated),
                truncated_mean: mean(&|r| r.truncated),
            }
        })
        .collect()
}

/// The violations of one declared constraint over every learning episode of an experiment's
/// runs ([`TrainingEpisode::violations`](crate::TrainingEpisode::violations)), as `rl run`
/// prints them.
#[derive(Debug, Clone, PartialEq)]
pub struct ViolationSummary {
    /// The constraint's name.
    pub name: String,
    /// The learning episodes that violated it at least once.
    pub episodes: u64,
    /// The learning episodes of all runs.
    pub of_episodes: u64,
    /// The steps that violated it, over all those episodes.
    pub count: u64,
    /// The earliest step (counted from 1 in its episode) of a first violation.
    pub earliest_first_step: u64,
    /// The mean over the violating episodes of the step of the first violation.
    pub mean_first_step: f64,
}

/// The violations of each declared constraint over the learning episodes of `results`, in the
/// order the constraints were first met (the domain's order within an episode); empty when no
/// episode violated any.
///
/// ```
/// use rl_experiment::results::violation_summary;
/// assert!(violation_summary(&[]).is_empty());
/// ```
pub fn violation_summary(results: &[RunResult]) -> Vec<ViolationSummary> {
    let of_episodes = results.iter().map(|r| r.episodes.len() as u64).sum();
    let mut rows: Vec<ViolationSummary> = Vec::new();
    let mut first_steps: Vec<u64> = Vec::new();
    for violation in results
        .iter()
        .flat_map(|r| &r.episodes)
        .flat_map(|e| &e.violations)
    {
        let at = match rows.iter().position(|row| row.name == violation.name) {
            Some(at) => at,
            None => {
                rows.push(ViolationSummary {
                    name: violation.name.clone(),
                    episodes: 0,
                    of_episodes,
                    count: 0,
                    earliest_first_step: u64::MAX,
                    mean_first_step: 0.0,
                });
                first_steps.push(0);
                rows.len() - 1
            }
        };
        let row = &mut rows[at];
        row.episodes += 1;
        row.count += violation.count;
        row.earliest_first_step = row.earliest_first_step.min(violation.first_step);
        first_steps[at] += violation.first_step;
    }
    for (row, sum) in rows.iter_mut().zip(first_steps) {
        row.mean_first_step = sum as f64 / row.episodes as f64;
    }
    rows
}

/// The header line of `summary.csv` (without its line end): the fields of [`SummaryRow`] in order.
pub const SUMMARY_HEADER: &str = "check,learning_steps,runs,return_mean,return_std,discounted_return_mean,steps_mean,terminated_mean,truncated_mean";

/// The summary as CSV text, one header line and one line per check.
pub fn summary_csv(rows: &[SummaryRow]) -> String {
    let mut csv = String::from(SUMMARY_HEADER);
    csv.push('\n');
    for r in rows {
        csv.push_str(&format!(
            "{},{},{},{},{},{},{},{},{}\n",
            r.check,
            r.learning_steps,
            r.runs,
            r.return_mean,
            r.return_std,
            r.discounted_return_mean,
            r.steps_mean,
            r.terminated_mean,
            r.truncated_mean
        ));
    }
    csv
}

/// Reads the `summary.csv` of `directory`, as [`summary_csv`] writes it: the header line
/// [`SUMMARY_HEADER`], then one line per check (at most [`POLICY_CHECKS_LIMIT`] + 1 of them,
/// as many as an experiment can have). A missing file, a header that differs, a line with the
/// wrong number of fields or a field that is not a number is an error that names the file and
/// the line (counted from 1, the header being line 1); so is a file with no check at all.
pub fn read_summary(directory: &Path) -> Result<Vec<SummaryRow>, ExperimentError> {
    let missing = |message: &str| ExperimentError::Io {
        path: directory.to_path_buf(),
        message: message.to_owned(),
    };
    if !directory.exists() {
        return Err(missing("no such directory"));
    }
    if !directory.is_dir() {
        return Err(missing("is a file, not a results directory"));
    }
    let path = directory.join("summary.csv");
    let text = match read_regular_file(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(missing(
                "no summary.csv in this directory (is it one that `rl run` wrote?)",
            ));
        }
        Err(e) => return Err(ExperimentError::io(&path, &e)),
    };
    let corrupt = |line: usize, reason: String| ExperimentError::CorruptResults {
        path: path.clone(),
        reason: format!("line {line}: {reason}"),
    };
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line));
    match lines.next() {
        Some((_, header)) if header.trim_end() == SUMMARY_HEADER => {}
        _ => return Err(corrupt(1, format!("expected the header {SUMMARY_HEADER}"))),
    }
    let names: Vec<&str> = SUMMARY_HEADER.split(',').collect();
    let mut rows = Vec::new();
    for (number, line) in lines {
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        if rows.len() as u64 > POLICY_CHECKS_LIMIT {
            return Err(corrupt(
                number,
                format!(
                    "more than {} checks, the most an experiment has",
                    POLICY_CHECKS_LIMIT + 1
                ),
            ));
        }
        let fields: Vec<&str> = line.split(',').collect();
        if fields.len() != names.len() {
            return Err(corrupt(
                number,
                format!(
                    "expected {} comma-separated fields, found {}",
                    names.len(),
                    fields.len()
                ),
            ));
        }
        let whole = |i: usize| {
            fields[i].trim().parse::<u64>().map_err(|_| {
                corrupt(
                    number,
                    format!("{} is not a whole number: {:?}", names[i], fields[i]),
                )
            })
        };
        let real = |i: usize| {
            fields[i].trim().parse::<f64>().map_err(|_| {
                corrupt(
                    number,
                    format!("{} is not a number: {:?}", names[i], fields[i]),
                )
            })
        };
        let count = |i: usize| {
            whole(i).and_then(|value| {
                usize::try_from(value).map_err(|_| {
                    corrupt(number, format!("{} is too large: {}", names[i], fields[i]))
                })
            })
        };
        rows.push(SummaryRow {
            check: count(0)?,
            learning_steps: whole(1)?,
            runs: count(2)?,
            return_mean: real(3)?,
            return_std: real(4)?,
            discounted_return_mean: real(5)?,
            steps_mean: real(6)?,
            terminated_mean: real(7)?,
            truncated_mean: real(8)?,
        });
    }
    if rows.is_empty() {
        return Err(corrupt(
            2,
            "no checks: the experiment has no finished run".to_owned(),
        ));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temporary_directory(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "rl-experiment-results-{name}-{}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn atomic_writes_replace_whole_files_and_leave_no_temporary() {
        let dir = temporary_directory("atomic");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.json");
        write_atomically(&path, b"first").unwrap();
        write_atomically(&path, b"second").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "second");
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
        let missing = dir.join("no-such-directory").join("b.json");
        assert!(matches!(
            write_atomically(&missing, b"x"),
            Err(ExperimentError::Io { .. })
        ));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writers_of_one_path_at_once_never_clash() {
        let dir = temporary_directory("writers");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("shared.csv");
        std::thread::scope(|scope| {
            for writer in 0..4 {
                let path = &path;
                scope.spawn(move || {
                    for round in 0..25 {
                        let text = format!("writer {writer} round {round}");
                        write_atomically(path, text.as_bytes()).unwrap();
                    }
                });
            }
        });
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.ends_with("round 24"), "{text}");
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["shared.csv"], "no temporary file is left");
        assert!(is_temporary_of(".shared.csv.tmp-1-2-3", "shared.csv"));
        assert!(!is_temporary_of(".shared.csv.bak", "shared.csv"));
        assert!(!is_temporary_of(".other.csv.tmp-1", "shared.csv"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_directory_of_another_experiment_is_refused() {
        let dir = temporary_directory("mismatch");
        let config = ExperimentConfig::new("GridWorld-4x5", "q-learning", 100);
        prepare_directory(&dir, &config).unwrap();
        prepare_directory(&dir, &config).unwrap();
        let other = ExperimentConfig { seed: 2, ..config };
        let error = prepare_directory(&dir, &other).unwrap_err();
        assert!(error.to_string().contains("seed was 1, now 2"), "{error}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn every_difference_is_named_the_domain_first() {
        let existing = ExperimentConfig::new("GridWorld-4x5", "q-learning", 100);
        assert_eq!(config_differences(&existing, &existing), None);
        let wanted = ExperimentConfig {
            agent_params: Some(json!({"epsilon": 0.2})),
            runs: 3,
            action_bins: Some(5),
            ..ExperimentConfig::new("CartPole-v1", "linear-sarsa", 100)
        };
        assert_eq!(
            config_differences(&existing, &wanted).as_deref(),
            Some(
                "domain was \"GridWorld-4x5\", now \"CartPole-v1\"; \
                 agent was \"q-learning\", now \"linear-sarsa\"; \
                 agent_params was null, now {\"epsilon\":0.2}; \
                 action_bins was null, now 5; runs was 1, now 3"
            )
        );
        // A field only one of them writes (`action_bins` is left out when unset) is compared
        // both ways round.
        let binned = ExperimentConfig {
            action_bins: Some(5),
            ..existing.clone()
        };
        assert_eq!(
            config_differences(&binned, &existing).as_deref(),
            Some("action_bins was 5, now null")
        );
        assert_eq!(
            config_differences(&existing, &binned).as_deref(),
            Some("action_bins was null, now 5")
        );
    }

    /// A process id no Linux system gives (beyond the largest `pid_max`, 2^22).
    const NO_SUCH_PROCESS: u32 = (1 << 22) + 1;

    #[test]
    fn leftover_temporary_files_are_removed() {
        let dir = temporary_directory("leftover");
        fs::create_dir_all(&dir).unwrap();
        let gone = format!(".run-000.json.tmp-{NO_SUCH_PROCESS}-0-0");
        let unparsable = ".run-001.log.tmp-someone";
        fs::write(dir.join(&gone), b"half").unwrap();
        fs::write(dir.join(unparsable), b"half").unwrap();
        prepare_directory(&dir, &ExperimentConfig::new("d", "a", 10)).unwrap();
        assert!(!dir.join(&gone).exists());
        assert!(!dir.join(unparsable).exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Issue 33, item 7: a second `rl run` starting on a directory removed the first one's
    /// in-flight temporary files. Only a gone writer's are removed (where the system can tell).
    #[cfg(target_os = "linux")]
    #[test]
    fn temporary_files_of_a_running_writer_are_kept() {
        let dir = temporary_directory("running-writer");
        fs::create_dir_all(&dir).unwrap();
        let running = format!(".run-002.json.tmp-{}-7-123", std::process::id());
        fs::write(dir.join(&running), b"in flight").unwrap();
        prepare_directory(&dir, &ExperimentConfig::new("d", "a", 10)).unwrap();
        assert!(
            dir.join(&running).exists(),
            "a running writer's file was removed"
        );
        assert!(!temporary_writer_is_gone(&running));
        assert!(temporary_writer_is_gone(&format!(
            ".summary.csv.tmp-{NO_SUCH_PROCESS}-0-0"
        )));
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Issue 33, item 6: every directory created for results is new in its parent, which must
    /// be synced for the new entry to survive a power loss. A test cannot observe an `fsync`
    /// (only a power cut or `strace` can: docs/sweeps.md quotes one); this checks what can be
    /// seen: nested new directories all exist, an existing tree is accepted as is, and a path
    /// through a file is an error.
    #[test]
    fn nested_new_directories_are_created() {
        let dir = temporary_directory("nested");
        let deep = dir.join("a").join("b").join("c");
        create_dir_all_durably(&deep).unwrap();
        assert!(deep.is_dir());
        create_dir_all_durably(&deep).unwrap();
        create_dir_all_durably(&dir.join("a").join("d")).unwrap();
        assert!(dir.join("a").join("d").is_dir());
        fs::write(dir.join("file"), b"").unwrap();
        let error = create_dir_all_durably(&dir.join("file").join("e")).unwrap_err();
        assert!(error.to_string().contains("is not a directory"), "{error}");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Issue 33, item 9: a named pipe where a results file belongs made readers wait forever
    /// for a writer. It is refused before it is opened.
    #[cfg(unix)]
    #[test]
    fn a_named_pipe_is_not_read() {
        let dir = temporary_directory("pipe");
        fs::create_dir_all(&dir).unwrap();
        let pipe = dir.join("summary.csv");
        match std::process::Command::new("mkfifo").arg(&pipe).status() {
            Ok(status) => assert!(status.success(), "mkfifo failed"),
            Err(error) => {
                println!("skipped: mkfifo cannot run ({error})");
                return;
            }
        }
        let (sender, receiver) = std::sync::mpsc::channel();
        let reader = dir.clone();
        std::thread::spawn(move || {
            let _ = sender.send(read_summary(&reader).map_err(|e| e.to_string()));
        });
        let result = receiver
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("reading a named pipe blocked");
        let error = result.unwrap_err();
        assert_eq!(
            error,
            format!(
                "{}: not a regular file but a named pipe (FIFO); a results file must be a regular file",
                pipe.display()
            )
        );
        let error = read_regular_file(&dir).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
        assert!(error.to_string().contains("but a directory"), "{error}");
        fs::remove_dir_all(&dir).unwrap();
    }

    fn row(check: usize) -> SummaryRow {
        SummaryRow {
            check,
            learning_steps: 100 * check as u64,
            runs: 3,
            return_mean: -1.5 + check as f64,
            return_std: 0.25,
            discounted_return_mean: 0.125,
            steps_mean: 17.0,
            terminated_mean: 1.0,
            truncated_mean: 0.0,
        }
    }

    #[test]
    fn the_summary_reads_back_as_written() {
        let dir = temporary_directory("summary");
        fs::create_dir_all(&dir).unwrap();
        let rows: Vec<SummaryRow> = (0..4).map(row).collect();
        fs::write(dir.join("summary.csv"), summary_csv(&rows)).unwrap();
        assert_eq!(read_summary(&dir).unwrap(), rows);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_bad_summary_names_the_file_and_the_line() {
        let dir = temporary_directory("bad-summary");
        let error = read_summary(&dir).unwrap_err().to_string();
        assert!(error.ends_with("no such directory"), "{error}");
        fs::create_dir_all(&dir).unwrap();
        let error = read_summary(&dir).unwrap_err().to_string();
        assert!(error.contains("no summary.csv"), "{error}");
        let good = summary_csv(&[row(0), row(1)]);
        for (text, expected) in [
            (
                "check,steps\n0,0\n".to_owned(),
                "line 1: expected the header",
            ),
            (
                format!("{good}1,2,3\n"),
                "line 4: expected 9 comma-separated fields, found 3",
            ),
            (
                good.replace("-0.5,", "minus one,"),
                "line 3: return_mean is not a number: \"minus one\"",
            ),
            (
                good.replace("\n1,100,", "\n1,-100,"),
                "line 3: learning_steps is not a whole number",
            ),
            (format!("{SUMMARY_HEADER}\n"), "line 2: no checks"),
            (String::new(), "line 1: expected the header"),
        ] {
            fs::write(dir.join("summary.csv"), &text).unwrap();
            let error = read_summary(&dir).unwrap_err().to_string();
            assert!(
                error.contains("summary.csv: not a valid results file: ")
                    && error.contains(expected),
                "{text:?} gave {error}"
            );
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_experiment_file_reads_back_and_its_absence_is_none() {
        let dir = temporary_directory("read-experiment");
        fs::create_dir_all(&dir).unwrap();
        assert_eq!(read_experiment(&dir).unwrap(), None);
        let config = ExperimentConfig::new("GridWorld-4x5", "q-learning", 100);
        prepare_directory(&dir, &config).unwrap();
        assert_eq!(read_experiment(&dir).unwrap(), Some(config));
        fs::write(dir.join("experiment.json"), "{").unwrap();
        assert!(matches!(
            read_experiment(&dir),
            Err(ExperimentError::CorruptResults { .. })
        ));
        fs::remove_dir_all(&dir).unwrap();
    }
}
