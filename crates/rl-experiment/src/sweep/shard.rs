//! Shards: which runs of a sweep one process runs (`--shard K/N`), and how a shard is read
//! from the flags or from an array-job scheduler's environment variables.

use std::fmt;
use std::str::FromStr;

use crate::ExperimentError;
use crate::sweep::file::SWEEP_RUNS_LIMIT;

/// The most shards a sweep can be split into (one per run at most is useful; more are
/// allowed and run nothing).
pub const SHARDS_LIMIT: u64 = SWEEP_RUNS_LIMIT;

/// One share of a sweep's run list: shard `index` of `count` owns the runs whose place in the
/// run list is `index` modulo `count` (round robin, so every shard gets a mix of settings).
/// Every run has exactly one owner for a given `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u64,
    count: u64,
}

impl Shard {
    /// The whole sweep: shard 0 of 1.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` (0-based) of `count`: `count` from 1 to [`SHARDS_LIMIT`], `index` below
    /// `count`.
    pub fn new(index: u64, count: u64) -> Result<Shard, ExperimentError> {
        if !(1..=SHARDS_LIMIT).contains(&count) {
            return Err(ExperimentError::invalid(
                "shard",
                format!("{count} shards; give a whole number from 1 to {SHARDS_LIMIT}"),
            ));
        }
        if index >= count {
            return Err(ExperimentError::invalid(
                "shard",
                format!(
                    "shard index {index} of {count} shards; the index counts from 0 to {}",
                    count - 1
                ),
            ));
        }
        Ok(Shard { index, count })
    }

    /// The shard's index, from 0 to `count - 1`.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The number of shards.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Whether this shard owns the run at place `run_index` of the run list.
    pub fn owns(&self, run_index: u64) -> bool {
        run_index % self.count == self.index
    }
}

impl fmt::Display for Shard {
    /// `K/N`, as `--shard` takes it.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ExperimentError;

    /// Reads `K/N`: shard `K` (from 0) of `N`.
    fn from_str(text: &str) -> Result<Shard, ExperimentError> {
        let bad = || {
            ExperimentError::invalid(
                "shard",
                format!("{text:?}; give K/N, shard K (from 0 to N - 1) of N, such as 0/4"),
            )
        };
        let (index, count) = text.trim().split_once('/').ok_or_else(bad)?;
        let index: u64 = index.trim().parse().map_err(|_| bad())?;
        let count: u64 = count.trim().parse().map_err(|_| bad())?;
        Shard::new(index, count)
    }
}

/// Where a shard came from, for the line `rl sweep` prints first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShardSource {
    /// No shard was given: the whole sweep.
    Whole,
    /// `--shard`, or `--shard-index` with `--shard-count`.
    Flags,
    /// The named environment variables (Slurm's or Kubernetes') gave the index, the count,
    /// or both.
    Environment(String),
}

impl fmt::Display for ShardSource {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardSource::Whole => formatter.write_str("the whole sweep"),
            ShardSource::Flags => formatter.write_str("from the flags"),
            ShardSource::Environment(names) => write!(formatter, "from {names}"),
        }
    }
}

/// Reads a whole number from an environment variable, or says which one is wrong.
fn variable(
    lookup: &dyn Fn(&str) -> Option<String>,
    name: &'static str,
) -> Result<Option<u64>, ExperimentError> {
    match lookup(name) {
        None => Ok(None),
        Some(text) if text.trim().is_empty() => Ok(None),
        Some(text) => text.trim().parse().map(Some).map_err(|_| {
            ExperimentError::invalid(
                "shard",
                format!("the environment variable {name}={text:?} is not a whole number"),
            )
        }),
    }
}

/// The shard a process runs: the flags when given (`shard` is `--shard K/N`, `index` and
/// `count` are `--shard-index` and `--shard-count`), else the scheduler's environment
/// variables, read with `lookup` (`std::env::var` in `rl`), else the whole sweep.
///
/// | scheduler | index | count |
/// |---|---|---|
/// | Slurm job array (`sbatch --array=0-(N-1)`) | `SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN` | `SLURM_ARRAY_TASK_COUNT`, else `SLURM_ARRAY_TASK_MAX - SLURM_ARRAY_TASK_MIN + 1` |
/// | Kubernetes Indexed Job | `JOB_COMPLETION_INDEX` | `--shard-count` (Kubernetes does not tell it) |
///
/// A flag given wins over a variable (`--shard-count 8` with `JOB_COMPLETION_INDEX`); the
/// index and the count must both be known, or neither. An array with a step
/// (`--array=0-10:2`) gives indices past the count and is refused.
pub fn resolve_shard(
    shard: Option<Shard>,
    index: Option<u64>,
    count: Option<u64>,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<(Shard, ShardSource), ExperimentError> {
    if let Some(shard) = shard {
        if index.is_some() || count.is_some() {
            return Err(ExperimentError::invalid(
                "shard",
                "give --shard K/N or --shard-index with --shard-count, not both",
            ));
        }
        return Ok((shard, ShardSource::Flags));
    }
    if let (Some(index), Some(count)) = (index, count) {
        return Ok((Shard::new(index, count)?, ShardSource::Flags));
    }
    let mut names = Vec::new();
    let slurm_id = variable(lookup, "SLURM_ARRAY_TASK_ID")?;
    let (environment_index, environment_count) = if let Some(id) = slurm_id {
        let minimum = variable(lookup, "SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let count = match variable(lookup, "SLURM_ARRAY_TASK_COUNT")? {
            Some(count) => Some(count),
            None => variable(lookup, "SLURM_ARRAY_TASK_MAX")?
                .map(|maximum| maximum.saturating_sub(minimum).saturating_add(1)),
        };
        let index = id.checked_sub(minimum).ok_or_else(|| {
            ExperimentError::invalid(
                "shard",
                format!("SLURM_ARRAY_TASK_ID {id} is below SLURM_ARRAY_TASK_MIN {minimum}"),
            )
        })?;
        names.push("SLURM_ARRAY_TASK_ID");
        (Some(index), count)
    } else if let Some(index) = variable(lookup, "JOB_COMPLETION_INDEX")? {
        names.push("JOB_COMPLETION_INDEX");
        (Some(index), None)
    } else {
        (None, None)
    };
    let from_environment = |flag: Option<u64>, variable: Option<u64>| match flag {
        Some(value) => Some(value),
        None => variable,
    };
    let index = from_environment(index, environment_index);
    let count = from_environment(count, environment_count);
    match (index, count) {
        (None, None) => Ok((Shard::WHOLE, ShardSource::Whole)),
        (Some(index), Some(count)) => Shard::new(index, count).map(|shard| {
            (
                shard,
                if names.is_empty() {
                    ShardSource::Flags
                } else {
                    ShardSource::Environment(names.join(" and "))
                },
            )
        }),
        (Some(_), None) => Err(ExperimentError::invalid(
            "shard",
            "the shard index is known but not the number of shards; give --shard-count N",
        )),
        (None, Some(_)) => Err(ExperimentError::invalid(
            "shard",
            "the number of shards is known but not this shard's index; give --shard-index K \
             (or run it as a Slurm array task or a Kubernetes Indexed Job)",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn environment(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        }
    }

    #[test]
    fn every_run_has_exactly_one_owner() {
        for count in 1..=7 {
            for run in 0..50 {
                let owners = (0..count)
                    .filter(|&index| Shard::new(index, count).unwrap().owns(run))
                    .count();
                assert_eq!(owners, 1, "run {run} of {count} shards");
            }
        }
    }

    #[test]
    fn shards_read_from_text() {
        assert_eq!("2/4".parse::<Shard>().unwrap(), Shard::new(2, 4).unwrap());
        assert_eq!(Shard::new(2, 4).unwrap().to_string(), "2/4");
        for bad in ["4/4", "1/0", "a/2", "3", "-1/2", "1/2/3"] {
            let error = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(error.starts_with("invalid shard: "), "{bad}: {error}");
        }
    }

    #[test]
    fn the_scheduler_gives_the_shard_when_no_flag_does() {
        let none = environment(&[]);
        assert_eq!(
            resolve_shard(None, None, None, &none).unwrap(),
            (Shard::WHOLE, ShardSource::Whole)
        );
        let slurm = environment(&[
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "4"),
            ("SLURM_ARRAY_TASK_MAX", "7"),
        ]);
        let (shard, source) = resolve_shard(None, None, None, &slurm).unwrap();
        assert_eq!((shard.index(), shard.count()), (1, 4));
        assert_eq!(source.to_string(), "from SLURM_ARRAY_TASK_ID");
        let counted = environment(&[
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ]);
        assert_eq!(
            resolve_shard(None, None, None, &counted).unwrap().0,
            Shard::new(2, 3).unwrap()
        );
        let flags_win = resolve_shard(Some(Shard::new(0, 2).unwrap()), None, None, &counted);
        assert_eq!(flags_win.unwrap().0, Shard::new(0, 2).unwrap());
        let kubernetes = environment(&[("JOB_COMPLETION_INDEX", "3")]);
        assert!(resolve_shard(None, None, None, &kubernetes).is_err());
        let (shard, source) = resolve_shard(None, None, Some(8), &kubernetes).unwrap();
        assert_eq!(shard, Shard::new(3, 8).unwrap());
        assert_eq!(source.to_string(), "from JOB_COMPLETION_INDEX");
        let stepped = environment(&[
            ("SLURM_ARRAY_TASK_ID", "10"),
            ("SLURM_ARRAY_TASK_COUNT", "6"),
        ]);
        assert!(resolve_shard(None, None, None, &stepped).is_err());
        let garbage = environment(&[("SLURM_ARRAY_TASK_ID", "x")]);
        let error = resolve_shard(None, None, None, &garbage).unwrap_err();
        assert!(error.to_string().contains("SLURM_ARRAY_TASK_ID"), "{error}");
        assert!(resolve_shard(None, Some(1), None, &none).is_err());
        assert!(
            resolve_shard(Some(Shard::WHOLE), Some(0), Some(1), &none).is_err(),
            "both forms at once"
        );
    }
}
