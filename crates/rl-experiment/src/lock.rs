//! The lock that keeps two `rl run` out of one output directory, and whether the process that
//! wrote a file is still running.
//!
//! # The lock file
//!
//! While [`run_experiment`](crate::run_experiment) (and so `rl run`) works in a directory, it
//! holds the directory's lock file, [`LOCK_FILE`] (`.rl-run.lock`): one JSON line naming the
//! holder (host, process id, the process's start time where the system gives it). The file is
//! created whole and exclusively (a temporary file hard-linked to the lock's name, which fails
//! when the name exists), so of two processes starting together exactly one gets it, and the
//! other refuses at once with [`ExperimentError::AlreadyRunning`]; so does a second call in
//! the same process. The holder removes the file when it ends, by error, interruption
//! (Ctrl-C) or success.
//!
//! A holder killed outright (`SIGKILL`, a power loss) leaves the file behind. The next
//! `rl run` on this machine sees that its process is gone (Linux: no `/proc/PID`, or a process
//! of that id that started at another time, its id reused) and takes the lock over. A lock
//! held by another machine (on a shared file system), or on a system without `/proc`, cannot
//! be checked: it is refused with a message that says so and names the file to remove when
//! no `rl run` is using the directory.
//!
//! Taking over a stale lock renames it to a private name first, so two processes taking it
//! over together cannot both win; in one narrow case they can (a third process starts in the
//! instant between one taker renaming a lock that a second taker had just created and putting
//! it back), which needs three `rl run` started within microseconds on a directory whose
//! previous holder was killed.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::ExperimentError;
use crate::results::{
    create_exclusively, create_output_directory, read_regular_file, remove_if_unchanged,
};

/// The name of the lock file in an `rl run` output directory.
pub const LOCK_FILE: &str = ".rl-run.lock";

/// How many times acquiring tries again when the lock file changes under it (its holder ended,
/// or a stale lock was taken over) before giving up.
const ACQUIRE_ATTEMPTS: usize = 16;

/// The machine's name (from `/proc/sys/kernel/hostname`, `HOSTNAME` or `COMPUTERNAME`), for
/// locks and sweep claims: `"unknown"` when none is set.
pub(crate) fn host_name() -> String {
    fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "unknown".to_owned())
}

/// Whether process `pid` of this machine is running: `Some` where the system can tell (Linux
/// with `/proc` mounted: whether `/proc/PID` exists), `None` elsewhere. A zombie (ended, not
/// yet reaped) counts as running, as does an id that is a running thread's.
pub(crate) fn process_is_running(pid: u32) -> Option<bool> {
    if cfg!(target_os = "linux") && Path::new("/proc/self").exists() {
        Some(Path::new("/proc").join(pid.to_string()).exists())
    } else {
        None
    }
}

/// When process `pid` started, in clock ticks since the machine booted (field 22 of Linux's
/// `/proc/PID/stat`): `None` when the system does not say.
fn process_start_time(pid: u32) -> Option<u64> {
    let stat = fs::read_to_string(Path::new("/proc").join(pid.to_string()).join("stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces and parentheses itself.
    let (_, after_name) = stat.rsplit_once(')')?;
    after_name.split_whitespace().nth(19)?.parse().ok()
}

/// Who holds a lock: the contents of the lock file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Holder {
    /// The machine's name.
    host: String,
    /// The process id.
    pid: u32,
    /// When the process started ([`process_start_time`]), to tell a reused process id.
    started: Option<u64>,
    /// A number of this acquisition, so that a holder removes only its own lock.
    token: u64,
}

impl Holder {
    /// This process, for a new acquisition.
    fn this_process() -> Holder {
        static ACQUISITIONS: AtomicU64 = AtomicU64::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos() as u64);
        let pid = std::process::id();
        Holder {
            host: host_name(),
            pid,
            started: process_start_time(pid),
            token: nanos
                ^ ACQUISITIONS
                    .fetch_add(1, Ordering::Relaxed)
                    .rotate_right(17),
        }
    }

    /// Whether the holder still runs: `Some(false)` when it is known to be gone (same machine,
    /// and no such process, or one of that id that started at another time), `None` when this
    /// machine cannot tell.
    fn is_running(&self) -> Option<bool> {
        if self.host != host_name() {
            return None;
        }
        match process_is_running(self.pid)? {
            false => Some(false),
            true => match (self.started, process_start_time(self.pid)) {
                (Some(recorded), Some(now)) if recorded != now => Some(false),
                _ => Some(true),
            },
        }
    }
}

impl std::fmt::Display for Holder {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let this = if self.pid == std::process::id() && self.host == host_name() {
            ", this process"
        } else {
            ""
        };
        write!(
            formatter,
            "process {} on host {}{this}",
            self.pid, self.host
        )
    }
}

/// The lock of an `rl run` output directory, held from [`RunLock::acquire`] until dropped (see
/// the [module documentation](self)).
#[derive(Debug)]
pub struct RunLock {
    directory: PathBuf,
    path: PathBuf,
    holder: Holder,
}

impl RunLock {
    /// Creates `directory` if need be (durably, as
    /// [`create_dir_all_durably`](crate::results::create_dir_all_durably)) and takes its lock.
    /// Fails at once with [`ExperimentError::AlreadyRunning`] when another process, or another
    /// call in this one, holds it; a lock whose holder is gone is taken over. A lock file that
    /// does not parse is [`ExperimentError::CorruptResults`], naming it.
    pub fn acquire(directory: &Path) -> Result<RunLock, ExperimentError> {
        create_output_directory(directory)?;
        let path = directory.join(LOCK_FILE);
        let holder = Holder::this_process();
        let text = serde_json::to_string(&holder)
            .map_err(|e| ExperimentError::invalid("lock", e.to_string()))?
            + "\n";
        for _ in 0..ACQUIRE_ATTEMPTS {
            match create_exclusively(&path, text.as_bytes()) {
                Ok(()) => {
                    return Ok(RunLock {
                        directory: directory.to_path_buf(),
                        path,
                        holder,
                    });
                }
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(error) => return Err(ExperimentError::io(&path, &error)),
            }
            let Some((existing, existing_text)) = read_holder(&path)? else {
                // Its holder ended between our attempt and the read: try again.
                continue;
            };
            match existing.is_running() {
                // Remove it (unless another process took it over meanwhile) and try again.
                Some(false) => {
                    remove_if_unchanged(&path, &existing_text)
                        .map_err(|error| ExperimentError::io(&path, &error))?;
                }
                running => {
                    return Err(ExperimentError::AlreadyRunning {
                        directory: directory.to_path_buf(),
                        holder: existing.to_string(),
                        lock: path,
                        checked: running.is_some(),
                    });
                }
            }
        }
        Err(ExperimentError::Io {
            path,
            message: format!(
                "the lock file changed {ACQUIRE_ATTEMPTS} times while this process tried to take it; \
                 are several `rl run` starting on this directory?"
            ),
        })
    }

    /// The locked directory.
    pub fn directory(&self) -> &Path {
        &self.directory
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for RunLock {
    /// Removes the lock file if it is still this lock's (it always is, unless someone removed
    /// it by hand and another process took the directory).
    fn drop(&mut self) {
        if let Ok(Some((current, _))) = read_holder(&self.path) {
            if current == self.holder {
                let _ = fs::remove_file(&self.path);
            }
        }
    }
}

/// Reads the holder in the lock file `path`, with the file's text: `None` when there is no
/// such file.
fn read_holder(path: &Path) -> Result<Option<(Holder, String)>, ExperimentError> {
    let text = match read_regular_file(path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(ExperimentError::io(path, &error)),
    };
    serde_json::from_str(&text)
        .map(|holder| Some((holder, text)))
        .map_err(|error| ExperimentError::CorruptResults {
            path: path.to_path_buf(),
            reason: format!(
                "not a lock file of `rl run` ({error}); remove it if no `rl run` is using this directory"
            ),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A process id no Linux system gives (beyond the largest `pid_max`, 2^22).
    const NO_SUCH_PROCESS: u32 = (1 << 22) + 1;

    fn fresh_directory(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("rl-experiment-lock-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_second_lock_on_one_directory_is_refused_until_the_first_is_dropped() {
        let dir = fresh_directory("twice");
        let first = RunLock::acquire(&dir).expect("the first lock");
        assert!(first.path().is_file());
        let error = RunLock::acquire(&dir).expect_err("a second lock");
        let message = error.to_string();
        assert!(
            matches!(error, ExperimentError::AlreadyRunning { .. })
                && message.contains("already running")
                && message.contains(&format!("process {}", std::process::id()))
                && message.contains(&dir.display().to_string()),
            "{message}"
        );
        drop(first);
        assert!(!dir.join(LOCK_FILE).exists(), "dropping removes the lock");
        let again = RunLock::acquire(&dir).expect("the lock, free again");
        drop(again);
        let names: Vec<_> = fs::read_dir(&dir).expect("directory").collect();
        assert!(names.is_empty(), "no temporary file is left: {names:?}");
        fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn threads_racing_for_one_lock_get_it_one_at_a_time() {
        let dir = fresh_directory("race");
        fs::create_dir_all(&dir).expect("directory");
        let winners = std::sync::atomic::AtomicUsize::new(0);
        let barrier = std::sync::Barrier::new(8);
        std::thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| {
                    barrier.wait();
                    let lock = RunLock::acquire(&dir);
                    // Every thread waits here holding whatever it got, so no one can take the
                    // lock after its first holder let it go.
                    let won = lock.is_ok();
                    if won {
                        winners.fetch_add(1, Ordering::SeqCst);
                    } else {
                        let error = lock.as_ref().expect_err("refused").to_string();
                        assert!(error.contains("already running"), "{error}");
                    }
                    barrier.wait();
                    drop(lock);
                });
            }
        });
        assert_eq!(winners.load(Ordering::SeqCst), 1);
        fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_lock_whose_process_is_gone_is_taken_over() {
        let dir = fresh_directory("stale");
        fs::create_dir_all(&dir).expect("directory");
        let gone = Holder {
            pid: NO_SUCH_PROCESS,
            ..Holder::this_process()
        };
        let path = dir.join(LOCK_FILE);
        fs::write(&path, serde_json::to_string(&gone).expect("json")).expect("stale lock");
        let lock = RunLock::acquire(&dir).expect("the stale lock is taken over");
        assert_eq!(
            read_holder(&path).expect("lock").map(|(holder, _)| holder),
            Some(lock.holder.clone())
        );
        drop(lock);

        // This process, but with another start time: its id was reused.
        let reused = Holder {
            started: Holder::this_process().started.map(|started| started + 1),
            ..Holder::this_process()
        };
        assert!(reused.started.is_some(), "Linux gives start times");
        fs::write(&path, serde_json::to_string(&reused).expect("json")).expect("reused lock");
        drop(RunLock::acquire(&dir).expect("a reused process id's lock is taken over"));
        assert!(!path.exists());
        fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn a_lock_this_machine_cannot_check_is_refused_with_what_to_do() {
        let dir = fresh_directory("elsewhere");
        fs::create_dir_all(&dir).expect("directory");
        let elsewhere = Holder {
            host: format!("not-{}", host_name()),
            pid: NO_SUCH_PROCESS,
            ..Holder::this_process()
        };
        let path = dir.join(LOCK_FILE);
        fs::write(&path, serde_json::to_string(&elsewhere).expect("json")).expect("lock");
        let error = RunLock::acquire(&dir).expect_err("another machine's lock");
        let message = error.to_string();
        assert!(
            message.contains("already running")
                && message.contains(&format!("host not-{}", host_name()))
                && message.contains("cannot check")
                && message.contains(&path.display().to_string()),
            "{message}"
        );
        assert!(path.exists(), "another machine's lock is left alone");

        fs::write(&path, "{\"pid\": 12").expect("torn lock");
        let message = RunLock::acquire(&dir).expect_err("a bad lock").to_string();
        assert!(
            message.contains(LOCK_FILE) && message.contains("not a lock file of `rl run`"),
            "{message}"
        );
        fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn start_times_come_from_proc_where_there_is_one() {
        let started = process_start_time(std::process::id());
        assert_eq!(started.is_some(), cfg!(target_os = "linux"));
        assert_eq!(process_start_time(NO_SUCH_PROCESS), None);
        if cfg!(target_os = "linux") {
            assert_eq!(process_is_running(std::process::id()), Some(true));
            assert_eq!(process_is_running(NO_SUCH_PROCESS), Some(false));
        }
    }
}
