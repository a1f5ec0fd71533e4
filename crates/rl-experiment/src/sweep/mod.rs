//! Sweeps: grids of experiment settings from one file, run by one process or split into
//! shards over the tasks of an array job (Slurm, Kubernetes Indexed Jobs, or any scheduler
//! that numbers its tasks), all writing one results tree on a shared file system, with
//! results identical to one process's.
//!
//! The command line is `rl sweep FILE --out DIR [--shard K/N]`, `rl status DIR` and
//! `rl summarize DIR`; `docs/sweeps.md` is the user's guide, with a Slurm template and a
//! Kubernetes example.
//!
//! # The sweep file
//!
//! A JSON object ([`SweepFile`]); every field but `domains` is optional:
//!
//! ```json
//! {
//!   "domains": ["GridWorld-4x5", {"id": "GridWorld-3x3", "params": {"noise": 0.1}, "grid": {"episode_cap": [20, 50]}, "max_steps": 3000}],
//!   "agents": ["q-learning", {"name": "sarsa", "grid": {"learning_rate": [0.1, 0.5]}}],
//!   "max_steps": 2000, "checks": 10, "checks_per_policy": 10, "evaluation_step_limit": 10000,
//!   "runs": 8, "seed": 1
//! }
//! ```
//!
//! | field | meaning | default |
//! |---|---|---|
//! | `domains` | registry ids (`rl list`), or objects with `id`, fixed `params` (an object), a `grid` (each key's list of values) and a `max_steps` of their own | required, at least one |
//! | `agents` | agent names, or objects with `name`, fixed `params` and a `grid` | each domain's usual agent, as `rl run` picks it |
//! | `max_steps` | learning steps per run | each domain's budget, as `rl run` |
//! | `checks`, `checks_per_policy`, `evaluation_step_limit` | the policy checks, as `rl run`'s flags | 10, 10, 10 000 |
//! | `runs` | runs per setting (run numbers `0..runs`) | 8 |
//! | `seed` | the master seed, or a list of master seeds (each a setting of its own) | 1 |
//!
//! Agent parameters are the registration's defaults for the domain (those `rl run` uses,
//! such as CartPole's tile-coder ranges), overridden by the entry's `params`, overridden by
//! the grid point's values; an entry with neither gets exactly `rl run`'s. Domain parameters
//! are the entry's `params` with the grid point's values (the domain's own defaults fill the
//! rest). A key may not be both fixed and swept. Continuous actions are discretised as `rl
//! run` does. Unknown fields are errors, and every error is one line naming the file, the
//! JSON path of the bad value (`domains[1].grid.noise`) and what is wrong. Counts are checked
//! against the crate's limits ([`MAX_STEPS_LIMIT`](crate::MAX_STEPS_LIMIT),
//! [`RUNS_LIMIT`](crate::RUNS_LIMIT), ...), the number of settings against
//! [`SETTINGS_LIMIT`] and of runs against [`SWEEP_RUNS_LIMIT`] before anything is built; the
//! file itself is at most [`SWEEP_FILE_SIZE_LIMIT`] bytes. Every domain is built and every
//! agent tried on it before anything runs.
//!
//! # Settings and runs, in order
//!
//! The settings are, in this nesting (outermost first): each domain entry in file order;
//! each point of its grid; each agent entry in file order; each point of its grid; each
//! master seed in list order. A grid's points take its keys in alphabetical order, the last
//! key varying fastest, each key's values in the order given. Setting number `s` (from 0)
//! gets the directory `DIR/NNN-DOMAIN-AGENT[-key=value...]` ([`Setting::name`]: the number
//! zero-padded to at least three digits, then the swept values, with characters other than
//! ASCII letters, digits and `._=+,-` as `_`), which holds exactly what `rl run` writes for
//! that configuration (the GridWorld analysis included).
//!
//! The run list has `settings x runs` entries: entry `i` is run `i % runs` of setting
//! `i / runs` ([`SweepPlan::run`]). Run `r` of a setting with master seed `m` uses the seeds
//! of [`seeds`](crate::seeds): run seed `rl_core::derive_seed(m, r)` and its four streams,
//! exactly as `rl run --seed m` does, so settings that differ only in a parameter see the
//! same random streams (common random numbers), and a one-setting sweep is `rl run`.
//!
//! # Sharding
//!
//! Shard `K` of `N` ([`Shard`], `--shard K/N`) owns the runs whose place `i` in the run list
//! has `i % N == K`: a fixed, round-robin assignment in which every run has exactly one owner.
//! Every shard writes `DIR/sweep.json` (the expanded [`SweepPlan`]; a shard that finds a
//! different plan there stops with an error) and each setting's `experiment.json`, all with
//! the same contents whoever writes them; a run's files are written only by its owner. For
//! each run it owns, in run-list order, a shard:
//!
//! 1. skips it if `run-NNN.json` exists (checked against the setting; a file of another
//!    configuration is an error, never silently redone);
//! 2. claims it: creates `run-NNN.claim` (its shard, host and process) exclusively, and skips
//!    the run after all if another process finished it meanwhile; a claim already there whose
//!    process is gone (on this machine: no such process; on another machine, which cannot be
//!    checked: the same `K/N`, a requeued attempt) is taken over, with that attempt's
//!    temporary files removed; a claim whose process runs is left alone and reported, since
//!    that process runs the run (if it ends without finishing, rerun the shard; a claim of
//!    another split made on another machine must then be removed by hand);
//! 3. runs it, writes `run-NNN.log` then `run-NNN.json` atomically and durably, and removes
//!    the claim.
//!
//! So a shard killed at any moment and started again resumes its own runs: finished runs are
//! kept, the runs it was in the middle of are redone from their start (a learner is not saved
//! mid-run), with the same results. Shards that overlap on one machine (another split of the
//! same sweep, or one shard started twice) all finish, each run run once by whichever claims
//! it first. Across machines, at most one process should run a given `K/N` at a time
//! (schedulers run each array task once; a requeued task's earlier process is dead). When a
//! shard ends with every run of the sweep finished, it writes the summaries
//! ([`summarize_sweep`]): the last shard to finish summarises, and `rl summarize DIR` does
//! the same at any time, naming the missing runs when there are any. [`sweep_status`] (`rl
//! status DIR`) lists finished, claimed ("running"; "abandoned" when the claim's process is gone
//! on this machine) and missing runs per setting.
//!
//! The files a sweep leaves are the same, byte for byte, however it was split and in
//! whatever order or with whatever interruptions its shards ran, except the `learning_time`
//! of each check in the run files (wall time): claims are removed, and temporary files are
//! hidden (`.NAME.tmp-...`) and removed by the owner's next attempt.
//!
//! # Durability
//!
//! Every file is written through [`write_atomically`](crate::results::write_atomically): the
//! contents synced, renamed into place, and the directory synced (on Unix), and every
//! directory created through
//! [`create_dir_all_durably`](crate::results::create_dir_all_durably), which syncs the parent
//! of each new directory, so a finished run survives a power loss, not only a killed process,
//! in a new directory too (see [`results`](crate::results#durability)).

mod command;
mod file;
mod runner;
mod shard;
mod status;

pub(crate) use command::{StatusArgs, SummarizeArgs, SweepArgs};
pub use file::{
    AgentEntry, DomainEntry, PLAN_FORMAT, SETTINGS_LIMIT, SWEEP_FILE_SIZE_LIMIT, SWEEP_RUNS_LIMIT,
    Seeds, Setting, SweepFile, SweepPlan, SweepRun,
};
pub use runner::{
    Claim, PLAN_FILE, PLAN_FILE_SIZE_LIMIT, SweepOutcome, claim_path, prepare_sweep_directory,
    read_claim, read_plan, run_sweep,
};
pub use shard::{SHARDS_LIMIT, Shard, ShardSource, resolve_shard};
pub use status::{
    SETTINGS_HEADER, SettingStatus, SettingSummary, SweepStatus, SweepSummary, overlay_file_name,
    summarize_sweep, sweep_status,
};
