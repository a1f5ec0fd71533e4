//! What a sweep's results directory holds (finished, claimed and missing runs per setting) and
//! its summaries: per setting as `rl run` writes them, an overlay of settings per domain, and
//! one line per setting in `settings.csv`.

use std::path::{Path, PathBuf};

use crate::cli::annotate_log;
use crate::plot::{Curve, CurvePoint, learning_curve_svg, learning_curves_svg};
use crate::results::{SummaryRow, run_path, summarize, summary_csv, write_atomically};
use crate::sweep::file::SweepPlan;
use crate::sweep::runner::{Claim, PLAN_FILE, read_claim, read_plan, read_setting_runs};
use crate::{ExperimentError, RunResult, catalog};

/// The runs of one setting, by state.
#[derive(Debug, Clone, PartialEq)]
pub struct SettingStatus {
    /// The setting's directory name.
    pub name: String,
    /// Runs whose file exists.
    pub finished: Vec<u64>,
    /// Runs without a file whose claim exists and whose claiming process runs, or cannot be
    /// checked (a claim made on another machine).
    pub claimed: Vec<(u64, Claim)>,
    /// Runs without a file whose claim was made on this machine by a process that is gone
    /// (its shard was killed: a rerun of that shard takes them over).
    pub abandoned: Vec<(u64, Claim)>,
    /// Runs with neither.
    pub missing: Vec<u64>,
}

/// The state of every run of a sweep, per setting in order.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepStatus {
    /// The results directory.
    pub directory: PathBuf,
    /// Runs per setting.
    pub runs: u64,
    /// Every setting's runs.
    pub settings: Vec<SettingStatus>,
}

impl SweepStatus {
    /// The number of runs of the sweep.
    pub fn total(&self) -> u64 {
        self.runs * self.settings.len() as u64
    }

    /// The number of finished runs.
    pub fn finished(&self) -> u64 {
        self.settings.iter().map(|s| s.finished.len() as u64).sum()
    }

    /// The number of claimed but unfinished runs whose process runs or cannot be checked.
    pub fn claimed(&self) -> u64 {
        self.settings.iter().map(|s| s.claimed.len() as u64).sum()
    }

    /// The number of claimed but unfinished runs whose process is gone.
    pub fn abandoned(&self) -> u64 {
        self.settings.iter().map(|s| s.abandoned.len() as u64).sum()
    }

    /// The number of runs neither finished nor claimed.
    pub fn missing(&self) -> u64 {
        self.settings.iter().map(|s| s.missing.len() as u64).sum()
    }

    /// The status as text: one line per setting (`finished F/R, running C, abandoned A,
    /// missing M` with the run numbers that are not finished and who claimed them), then a
    /// total line.
    pub fn report(&self) -> String {
        let width = self
            .settings
            .iter()
            .map(|s| s.name.len())
            .max()
            .unwrap_or(0);
        let mut text = String::new();
        for setting in &self.settings {
            text.push_str(&format!(
                "{:<width$}  finished {:>4}/{}  running {:>4}  abandoned {:>4}  missing {:>4}",
                setting.name,
                setting.finished.len(),
                self.runs,
                setting.claimed.len(),
                setting.abandoned.len(),
                setting.missing.len()
            ));
            for (label, claims) in [
                ("running", &setting.claimed),
                ("abandoned", &setting.abandoned),
            ] {
                if claims.is_empty() {
                    continue;
                }
                let runs: Vec<u64> = claims.iter().map(|(run, _)| *run).collect();
                let owners: Vec<String> = claims.iter().map(|(_, claim)| claim.to_string()).fold(
                    Vec::new(),
                    |mut owners, owner| {
                        if !owners.contains(&owner) {
                            owners.push(owner);
                        }
                        owners
                    },
                );
                text.push_str(&format!(
                    "  {label}: runs {} by {}",
                    ranges(&runs),
                    owners.join(", ")
                ));
            }
            if !setting.missing.is_empty() {
                text.push_str(&format!("  missing: runs {}", ranges(&setting.missing)));
            }
            text.push('\n');
        }
        text.push_str(&format!(
            "{} settings x {} runs: {} finished, {} running (or killed on another machine), {} abandoned (their process is gone: rerun their shard), {} missing\n",
            self.settings.len(),
            self.runs,
            self.finished(),
            self.claimed(),
            self.abandoned(),
            self.missing()
        ));
        text
    }
}

/// Run numbers as short text: `0-3, 7, 9-10`.
fn ranges(runs: &[u64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < runs.len() {
        let mut j = i;
        while j + 1 < runs.len() && runs[j + 1] == runs[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            runs[i].to_string()
        } else {
            format!("{}-{}", runs[i], runs[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

/// Reads the plan of a sweep's results directory, or says that it is not one.
fn plan_of(directory: &Path) -> Result<SweepPlan, ExperimentError> {
    if !directory.is_dir() {
        return Err(ExperimentError::Io {
            path: directory.to_path_buf(),
            message: "no such directory".to_owned(),
        });
    }
    read_plan(directory)?.ok_or_else(|| ExperimentError::Io {
        path: directory.to_path_buf(),
        message: format!("no {PLAN_FILE} in this directory (is it one that `rl sweep` wrote?)"),
    })
}

/// The state of every run of the sweep in `directory` (which `rl sweep` wrote): a run is
/// finished when its file exists; claimed when only its claim does, abandoned if that claim
/// was made on this machine by a process that is no longer running; missing otherwise.
pub fn sweep_status(directory: &Path) -> Result<SweepStatus, ExperimentError> {
    let plan = plan_of(directory)?;
    let settings = plan
        .settings
        .iter()
        .map(|setting| {
            let setting_directory = directory.join(&setting.name);
            let mut status = SettingStatus {
                name: setting.name.clone(),
                finished: Vec::new(),
                claimed: Vec::new(),
                abandoned: Vec::new(),
                missing: Vec::new(),
            };
            for run in 0..plan.runs {
                if run_path(&setting_directory, run).exists() {
                    status.finished.push(run);
                } else if let Some(claim) = read_claim(&setting_directory, run) {
                    if claim.is_gone() {
                        status.abandoned.push((run, claim));
                    } else {
                        status.claimed.push((run, claim));
                    }
                } else {
                    status.missing.push(run);
                }
            }
            status
        })
        .collect();
    Ok(SweepStatus {
        directory: directory.to_path_buf(),
        runs: plan.runs,
        settings,
    })
}

/// Whether every run of `plan` has its file in `directory`.
pub(crate) fn is_complete(plan: &SweepPlan, directory: &Path) -> bool {
    plan.settings.iter().all(|setting| {
        let setting_directory = directory.join(&setting.name);
        (0..plan.runs).all(|run| run_path(&setting_directory, run).exists())
    })
}

/// One setting's summary.
#[derive(Debug, Clone, PartialEq)]
pub struct SettingSummary {
    /// The setting's directory name.
    pub name: String,
    /// Its checks averaged over runs (its `summary.csv`).
    pub rows: Vec<SummaryRow>,
}

/// What [`summarize_sweep`] produced.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepSummary {
    /// Every setting's summary, in order.
    pub settings: Vec<SettingSummary>,
    /// The files written, in order.
    pub written: Vec<PathBuf>,
}

/// The file name of a domain's overlay of settings: `overlay-ID.svg`, with characters other
/// than ASCII letters, digits, `.`, `-` and `_` as `_`.
pub fn overlay_file_name(domain: &str) -> String {
    let id: String = domain
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("overlay-{id}.svg")
}

/// The header of a sweep's `settings.csv`.
pub const SETTINGS_HEADER: &str =
    "setting,domain,agent,seed,runs,learning_steps,return_mean,return_std";

/// Builds the summaries of the sweep in `directory` once every run is finished: in each
/// setting's directory `summary.csv` and `learning_curve.svg` exactly as `rl run` writes
/// them (and on GridWorld, as `rl run` does, `value_function.svg` and each run log's
/// comparison with value iteration); in `directory`, `overlay-DOMAIN.svg` for each domain (the learning curves of its
/// settings on shared axes, labelled with the settings' names) and `settings.csv` (per
/// setting, the last check's mean and standard deviation over runs). Every run file is read
/// and checked against its setting first; when some are missing, nothing is written and the
/// error says how many and which ([`ExperimentError::IncompleteSweep`]). The files depend
/// on the runs' results only, so any shard (or several at once) may write them.
pub fn summarize_sweep(directory: &Path) -> Result<SweepSummary, ExperimentError> {
    let plan = plan_of(directory)?;
    if !is_complete(&plan, directory) {
        let status = sweep_status(directory)?;
        let mut detail: Vec<String> = status
            .settings
            .iter()
            .filter(|s| s.finished.len() as u64 != plan.runs)
            .take(3)
            .map(|s| {
                let mut runs: Vec<u64> = s
                    .missing
                    .iter()
                    .copied()
                    .chain(s.claimed.iter().chain(&s.abandoned).map(|(run, _)| *run))
                    .collect();
                runs.sort_unstable();
                format!("{}: runs {}", s.name, ranges(&runs))
            })
            .collect();
        let incomplete = status
            .settings
            .iter()
            .filter(|s| s.finished.len() as u64 != plan.runs)
            .count();
        if incomplete > detail.len() {
            detail.push(format!("{} more settings", incomplete - detail.len()));
        }
        return Err(ExperimentError::IncompleteSweep {
            directory: directory.to_path_buf(),
            missing: status.total() - status.finished(),
            total: status.total(),
            detail: detail.join("; "),
        });
    }
    let mut results: Vec<Vec<RunResult>> = Vec::with_capacity(plan.settings.len());
    for index in 0..plan.settings.len() {
        results.push(read_setting_runs(directory, &plan, index)?);
    }
    let mut written = Vec::new();
    let mut settings = Vec::with_capacity(plan.settings.len());
    let mut csv = String::from(SETTINGS_HEADER);
    csv.push('\n');
    for (setting, runs) in plan.settings.iter().zip(&results) {
        let rows = summarize(runs);
        let setting_directory = directory.join(&setting.name);
        let path = setting_directory.join("summary.csv");
        write_atomically(&path, summary_csv(&rows).as_bytes())?;
        written.push(path);
        let title = format!(
            "{} on {} ({} runs)",
            setting.config.agent,
            setting.config.domain,
            runs.len()
        );
        let path = setting_directory.join("learning_curve.svg");
        write_atomically(&path, learning_curve_svg(&points(&rows), &title).as_bytes())?;
        written.push(path);
        // What `rl run` adds on GridWorld: the learned values and the comparison of each
        // run's greedy policy with value iteration's in the run logs.
        if let Some(analysis) = catalog::analyse(&setting.config, runs)? {
            let path = setting_directory.join("value_function.svg");
            write_atomically(&path, analysis.value_picture.as_bytes())?;
            written.push(path);
            for comparison in &analysis.comparisons {
                annotate_log(&setting_directory, comparison)?;
            }
        }
        if let Some(last) = rows.last() {
            csv.push_str(&format!(
                "{},{},{},{},{},{},{},{}\n",
                setting.name,
                setting.config.domain,
                setting.config.agent,
                setting.config.seed,
                last.runs,
                last.learning_steps,
                last.return_mean,
                last.return_std
            ));
        }
        settings.push(SettingSummary {
            name: setting.name.clone(),
            rows,
        });
    }
    let mut domains: Vec<&str> = Vec::new();
    for setting in &plan.settings {
        if !domains.contains(&setting.config.domain.as_str()) {
            domains.push(&setting.config.domain);
        }
    }
    for domain in domains {
        let series: Vec<(&str, Vec<CurvePoint>)> = plan
            .settings
            .iter()
            .zip(&settings)
            .filter(|(setting, _)| setting.config.domain == domain)
            .map(|(setting, summary)| (setting.name.as_str(), points(&summary.rows)))
            .collect();
        let curves: Vec<Curve<'_>> = series
            .iter()
            .map(|(label, points)| Curve { label, points })
            .collect();
        let path = directory.join(overlay_file_name(domain));
        let svg = learning_curves_svg(&curves, &format!("evaluation return on {domain}"));
        write_atomically(&path, svg.as_bytes())?;
        written.push(path);
    }
    let path = directory.join("settings.csv");
    write_atomically(&path, csv.as_bytes())?;
    written.push(path);
    Ok(SweepSummary { settings, written })
}

/// The learning curve of a summary.
fn points(rows: &[SummaryRow]) -> Vec<CurvePoint> {
    rows.iter()
        .map(|row| CurvePoint {
            steps: row.learning_steps as f64,
            mean: row.return_mean,
            std: row.return_std,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_numbers_are_shown_as_ranges() {
        assert_eq!(ranges(&[0, 1, 2, 3, 7, 9, 10]), "0-3, 7, 9-10");
        assert_eq!(ranges(&[4]), "4");
        assert_eq!(ranges(&[]), "");
    }

    #[test]
    fn overlay_names_are_plain() {
        assert_eq!(
            overlay_file_name("GridWorld-4x5"),
            "overlay-GridWorld-4x5.svg"
        );
        assert_eq!(overlay_file_name("my/env v1"), "overlay-my_env_v1.svg");
    }

    #[test]
    fn claims_of_processes_that_are_gone_are_abandoned_not_running() {
        let host = crate::lock::host_name();
        let mut child = std::process::Command::new("true")
            .spawn()
            .expect("spawn true");
        let dead = child.id();
        child.wait().expect("wait");
        let gone = Claim {
            shard: 1,
            shards: 2,
            host: host.clone(),
            pid: dead,
        };
        let alive = Claim {
            shard: 0,
            shards: 2,
            host,
            pid: std::process::id(),
        };
        let remote = Claim {
            shard: 1,
            shards: 2,
            host: "elsewhere".to_owned(),
            pid: dead,
        };
        if cfg!(target_os = "linux") {
            assert!(gone.is_gone(), "the process {dead} has exited");
        }
        assert!(!alive.is_gone(), "this process runs");
        assert!(
            !remote.is_gone(),
            "another machine's process cannot be checked"
        );

        let status = SweepStatus {
            directory: PathBuf::from("results"),
            runs: 3,
            settings: vec![SettingStatus {
                name: "000-a".to_owned(),
                finished: vec![0],
                claimed: vec![(1, remote)],
                abandoned: vec![(2, gone)],
                missing: Vec::new(),
            }],
        };
        let report = status.report();
        assert!(
            report.contains("running    1  abandoned    1  missing    0")
                && report.contains("running: runs 1 by shard 1/2 (host elsewhere")
                && report.contains(&format!("abandoned: runs 2 by shard 1/2 (host {}, process {dead})", crate::lock::host_name()))
                && report.ends_with("1 settings x 3 runs: 1 finished, 1 running (or killed on another machine), 1 abandoned (their process is gone: rerun their shard), 0 missing\n"),
            "{report}"
        );
    }
}
