//! The sweep file (domains, agents, grids of their parameters, seeds, budgets, checks) and its
//! expansion into a [`SweepPlan`]: the ordered list of settings, each an
//! [`ExperimentConfig`].

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as JsonValue};

use crate::{
    CHECKS_PER_POLICY_LIMIT, ExperimentConfig, ExperimentError, MAX_STEPS_LIMIT,
    POLICY_CHECKS_LIMIT, RUNS_LIMIT, catalog,
};

/// The largest sweep file read, in bytes (1 MiB): checked before the file is read.
pub const SWEEP_FILE_SIZE_LIMIT: u64 = 1 << 20;
/// The most settings a sweep expands into: checked, with overflow-free arithmetic, before any
/// setting is built.
pub const SETTINGS_LIMIT: u64 = 10_000;
/// The most runs of a sweep, settings times runs per setting (each run writes two files).
pub const SWEEP_RUNS_LIMIT: u64 = 1_000_000;
/// The most characters of a setting's directory name (the number and a readable description,
/// cut short past this).
const NAME_LIMIT: usize = 100;

/// The `format` of a sweep's plan, `sweep.json` in its results directory.
pub const PLAN_FORMAT: &str = "rl-experiment/sweep-plan";

/// A sweep file as written: what to run. [`SweepFile::expand`] checks it and turns it into
/// the [`SweepPlan`]; the [module documentation](super) describes every field.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SweepFile {
    /// The domains, in order: each a registry id, or an object with the id, fixed parameters,
    /// a grid of parameters and a step budget.
    pub domains: Vec<DomainEntry>,
    /// The agents, in order; when absent, each domain's usual agent (as `rl run` chooses it).
    #[serde(default)]
    pub agents: Option<Vec<AgentEntry>>,
    /// The learning budget in steps per run; when absent, each domain's (as `rl run`).
    #[serde(default)]
    pub max_steps: Option<u64>,
    /// Policy checks after step 0 (default 10).
    #[serde(default = "default_checks")]
    pub checks: u64,
    /// Evaluation episodes per check (default 10).
    #[serde(default = "default_checks")]
    pub checks_per_policy: u64,
    /// The most steps of an evaluation episode (default 10 000).
    #[serde(default = "default_evaluation_step_limit")]
    pub evaluation_step_limit: u64,
    /// Runs per setting (default 8): runs `0..runs`, each with its own derived seeds.
    #[serde(default = "default_runs")]
    pub runs: u64,
    /// The master seed (default 1), or a list of master seeds, each a setting of its own.
    #[serde(default)]
    pub seed: Seeds,
}

fn default_checks() -> u64 {
    10
}

fn default_evaluation_step_limit() -> u64 {
    10_000
}

fn default_runs() -> u64 {
    8
}

/// One domain of a sweep file: `"GridWorld-4x5"`, or
/// `{"id": "GridWorld-4x5", "params": {...}, "grid": {"noise": [0.0, 0.1]}, "max_steps": 5000}`.
#[derive(Debug, Clone, PartialEq)]
pub struct DomainEntry {
    /// The registry id (see `rl list`).
    pub id: String,
    /// Parameters every setting of this entry gets (a JSON object).
    pub params: Option<JsonValue>,
    /// Parameters to sweep: each key's list of values, every combination a setting.
    pub grid: BTreeMap<String, Vec<JsonValue>>,
    /// This domain's step budget per run, over the file's `max_steps`.
    pub max_steps: Option<u64>,
}

/// One agent of a sweep file: `"q-learning"`, or
/// `{"name": "q-learning", "params": {...}, "grid": {"learning_rate": [0.1, 0.5]}}`.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentEntry {
    /// The agent's name (see `rl list`).
    pub name: String,
    /// Parameters every setting of this entry gets (a JSON object), over the registration's
    /// defaults for the domain.
    pub params: Option<JsonValue>,
    /// Parameters to sweep: each key's list of values, every combination a setting.
    pub grid: BTreeMap<String, Vec<JsonValue>>,
}

/// The master seeds of a sweep file: one (`"seed": 1`) or a list (`"seed": [1, 2]`), each
/// a setting of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seeds {
    /// One master seed for every setting.
    One(u64),
    /// A list of master seeds: every setting once per seed, in this order.
    List(Vec<u64>),
}

impl Default for Seeds {
    fn default() -> Self {
        Seeds::One(1)
    }
}

/// A string, or an object deserialised into `T`: the two ways a domain or agent is written.
fn string_or_object<'de, D, T>(
    deserializer: D,
    expecting: &'static str,
    from_string: fn(String) -> T,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: StructFromMap<'de>,
{
    struct Either<T> {
        expecting: &'static str,
        from_string: fn(String) -> T,
    }
    impl<'de, T: StructFromMap<'de>> Visitor<'de> for Either<T> {
        type Value = T;
        fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
            formatter.write_str(self.expecting)
        }
        fn visit_str<E: de::Error>(self, value: &str) -> Result<T, E> {
            Ok((self.from_string)(value.to_owned()))
        }
        fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<T, M::Error> {
            T::from_map(de::value::MapAccessDeserializer::new(map))
        }
    }
    deserializer.deserialize_any(Either {
        expecting,
        from_string,
    })
}

/// The object form of a domain or agent entry, read by its derived implementation.
trait StructFromMap<'de>: Sized {
    fn from_map<M: MapAccess<'de>>(
        map: de::value::MapAccessDeserializer<M>,
    ) -> Result<Self, M::Error>;
}

/// The object form of [`DomainEntry`], with the derived reader.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, remote = "DomainEntry")]
struct DomainObject {
    id: String,
    #[serde(default)]
    params: Option<JsonValue>,
    #[serde(default)]
    grid: BTreeMap<String, Vec<JsonValue>>,
    #[serde(default)]
    max_steps: Option<u64>,
}

/// The object form of [`AgentEntry`], with the derived reader.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, remote = "AgentEntry")]
struct AgentObject {
    name: String,
    #[serde(default)]
    params: Option<JsonValue>,
    #[serde(default)]
    grid: BTreeMap<String, Vec<JsonValue>>,
}

impl<'de> StructFromMap<'de> for DomainEntry {
    fn from_map<M: MapAccess<'de>>(
        map: de::value::MapAccessDeserializer<M>,
    ) -> Result<Self, M::Error> {
        DomainObject::deserialize(map)
    }
}

impl<'de> StructFromMap<'de> for AgentEntry {
    fn from_map<M: MapAccess<'de>>(
        map: de::value::MapAccessDeserializer<M>,
    ) -> Result<Self, M::Error> {
        AgentObject::deserialize(map)
    }
}

/// Reads a domain entry from either form (the derived `Deserialize` of [`DomainEntry`] reads
/// only the object).
fn domain_entry<'de, D: Deserializer<'de>>(deserializer: D) -> Result<DomainEntry, D::Error> {
    string_or_object(
        deserializer,
        "a domain id such as \"GridWorld-4x5\", or an object with \"id\" and optionally \"params\", \"grid\", \"max_steps\"",
        |id| DomainEntry {
            id,
            params: None,
            grid: BTreeMap::new(),
            max_steps: None,
        },
    )
}

/// Reads an agent entry from either form.
fn agent_entry<'de, D: Deserializer<'de>>(deserializer: D) -> Result<AgentEntry, D::Error> {
    string_or_object(
        deserializer,
        "an agent name such as \"q-learning\", or an object with \"name\" and optionally \"params\", \"grid\"",
        |name| AgentEntry {
            name,
            params: None,
            grid: BTreeMap::new(),
        },
    )
}

impl<'de> Deserialize<'de> for DomainEntry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        domain_entry(deserializer)
    }
}

impl<'de> Deserialize<'de> for AgentEntry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        agent_entry(deserializer)
    }
}

impl<'de> Deserialize<'de> for Seeds {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SeedsVisitor;
        impl<'de> Visitor<'de> for SeedsVisitor {
            type Value = Seeds;
            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str(
                    "a master seed (a whole number from 0 to 2^64 - 1) or a list of them",
                )
            }
            fn visit_u64<E: de::Error>(self, value: u64) -> Result<Seeds, E> {
                Ok(Seeds::One(value))
            }
            fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Seeds, S::Error> {
                let mut seeds = Vec::new();
                while let Some(seed) = seq.next_element::<u64>()? {
                    seeds.push(seed);
                }
                Ok(Seeds::List(seeds))
            }
        }
        deserializer.deserialize_any(SeedsVisitor)
    }
}

/// One setting of a sweep: a named experiment configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setting {
    /// The name of the setting's results directory: its number, the domain, the agent and
    /// the swept values (`003-GridWorld-4x5-q-learning-learning_rate=0.5`).
    pub name: String,
    /// Where in the sweep file it comes from (`domains[0] agents[1]`).
    pub origin: String,
    /// What it runs.
    pub config: ExperimentConfig,
}

/// A sweep expanded: every setting in order, each with the same number of runs. Written to
/// the results directory as `sweep.json`; see the [module documentation](super) for the run
/// order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SweepPlan {
    /// [`PLAN_FORMAT`].
    pub format: String,
    /// The format version, 1.
    pub version: u64,
    /// Runs per setting.
    pub runs: u64,
    /// The settings, in order.
    pub settings: Vec<Setting>,
}

/// One run of a sweep: which setting, which run of it, and its place in the sweep's run list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SweepRun {
    /// The run's place in the run list: `setting * runs + run`.
    pub index: u64,
    /// The setting's number (its place in [`SweepPlan::settings`]).
    pub setting: usize,
    /// The run's number within the setting.
    pub run: u64,
}

impl SweepPlan {
    /// How many runs the sweep has: settings times runs per setting.
    pub fn run_count(&self) -> u64 {
        self.settings.len() as u64 * self.runs
    }

    /// Run `index` of the run list (`None` past its end): setting `index / runs`, run
    /// `index % runs` of it.
    pub fn run(&self, index: u64) -> Option<SweepRun> {
        (index < self.run_count()).then(|| SweepRun {
            index,
            setting: (index / self.runs) as usize,
            run: index % self.runs,
        })
    }

    /// Every run, in the run list's order.
    pub fn runs(&self) -> impl Iterator<Item = SweepRun> + '_ {
        (0..self.run_count()).filter_map(|index| self.run(index))
    }

    /// Checks a plan read back from disk: its format, and counts within the limits (so that
    /// nothing proportional to a number in the file is allocated before it is checked).
    pub(crate) fn validate(&self, file: &str) -> Result<(), ExperimentError> {
        let invalid = |location: &str, reason: String| ExperimentError::InvalidSweep {
            file: file.to_owned(),
            location: location.to_owned(),
            reason,
        };
        if self.format != PLAN_FORMAT || self.version != 1 {
            return Err(invalid(
                "format",
                format!(
                    "format {:?} version {}, expected {PLAN_FORMAT:?} version 1",
                    self.format, self.version
                ),
            ));
        }
        if self.settings.is_empty() || self.settings.len() as u64 > SETTINGS_LIMIT {
            return Err(invalid(
                "settings",
                format!(
                    "{} settings; a sweep has 1 to {SETTINGS_LIMIT}",
                    self.settings.len()
                ),
            ));
        }
        if !(1..=RUNS_LIMIT).contains(&self.runs) || self.run_count() > SWEEP_RUNS_LIMIT {
            return Err(invalid(
                "runs",
                format!("{} runs per setting is out of range", self.runs),
            ));
        }
        for (index, setting) in self.settings.iter().enumerate() {
            if setting.config.runs != self.runs || !is_safe_name(&setting.name) {
                return Err(invalid(
                    &format!("settings[{index}]"),
                    "its name or runs do not match the plan".to_owned(),
                ));
            }
            setting
                .config
                .validate()
                .map_err(|e| invalid(&format!("settings[{index}].config"), e.to_string()))?;
        }
        Ok(())
    }
}

/// Whether a setting name is a plain directory name (what [`SweepFile::expand`] makes).
fn is_safe_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name.len() <= 2 * NAME_LIMIT
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-=+,".contains(c))
}

impl SweepFile {
    /// Reads the sweep file at `path`: at most [`SWEEP_FILE_SIZE_LIMIT`] bytes of JSON. Every
    /// error names the file, the JSON path of the bad value and what is wrong, on one line.
    pub fn read(path: &Path) -> Result<SweepFile, ExperimentError> {
        let file = path.display().to_string();
        let invalid = |reason: String| ExperimentError::InvalidSweep {
            file: file.clone(),
            location: String::new(),
            reason,
        };
        let metadata = std::fs::metadata(path).map_err(|e| invalid(e.to_string()))?;
        if !metadata.is_file() {
            return Err(invalid("is not a file".to_owned()));
        }
        if metadata.len() > SWEEP_FILE_SIZE_LIMIT {
            return Err(invalid(format!(
                "{} bytes; a sweep file has at most {SWEEP_FILE_SIZE_LIMIT}",
                metadata.len()
            )));
        }
        let text = std::fs::read_to_string(path).map_err(|e| invalid(e.to_string()))?;
        SweepFile::parse(&text, &file)
    }

    /// Reads a sweep file's text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<SweepFile, ExperimentError> {
        if text.len() as u64 > SWEEP_FILE_SIZE_LIMIT {
            return Err(ExperimentError::InvalidSweep {
                file: file.to_owned(),
                location: String::new(),
                reason: format!("a sweep file has at most {SWEEP_FILE_SIZE_LIMIT} bytes"),
            });
        }
        let error = |location: String, reason: String| ExperimentError::InvalidSweep {
            file: file.to_owned(),
            location,
            reason,
        };
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let sweep: SweepFile =
            serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
                let path = e.path().to_string();
                error(
                    if path == "." || path == "?" {
                        String::new()
                    } else {
                        path
                    },
                    e.into_inner().to_string(),
                )
            })?;
        deserializer
            .end()
            .map_err(|e| error(String::new(), e.to_string()))?;
        Ok(sweep)
    }

    /// Checks the sweep and expands it into its settings, in the documented order (see the
    /// [module documentation](super)). Every count is checked against its limit, and the
    /// number of settings against [`SETTINGS_LIMIT`] (and of runs against
    /// [`SWEEP_RUNS_LIMIT`]) before any setting is built; then every domain is built and every
    /// agent tried on it, so that an unknown id, a bad parameter or an agent that cannot run
    /// there is reported, with its place in the file, before anything runs. `file` names the
    /// file in errors.
    pub fn expand(&self, file: &str) -> Result<SweepPlan, ExperimentError> {
        let invalid = |location: &str, reason: String| ExperimentError::InvalidSweep {
            file: file.to_owned(),
            location: location.to_owned(),
            reason,
        };
        let within = |location: &str, value: u64, limit: u64, what: &str| {
            if (1..=limit).contains(&value) {
                Ok(())
            } else {
                Err(invalid(
                    location,
                    format!("{value} {what}; give a whole number from 1 to {limit}"),
                ))
            }
        };
        within("runs", self.runs, RUNS_LIMIT, "runs")?;
        within("checks", self.checks, POLICY_CHECKS_LIMIT, "policy checks")?;
        within(
            "checks_per_policy",
            self.checks_per_policy,
            CHECKS_PER_POLICY_LIMIT,
            "evaluation episodes per check",
        )?;
        within(
            "evaluation_step_limit",
            self.evaluation_step_limit,
            MAX_STEPS_LIMIT,
            "evaluation steps",
        )?;
        if let Some(steps) = self.max_steps {
            within("max_steps", steps, MAX_STEPS_LIMIT, "steps")?;
        }
        if self.domains.is_empty() {
            return Err(invalid(
                "domains",
                "no domain; give at least one registry id (see `rl list`)".to_owned(),
            ));
        }
        if self.agents.as_ref().is_some_and(|agents| agents.is_empty()) {
            return Err(invalid(
                "agents",
                "no agent; give at least one name (see `rl list`), or leave the field out for each domain's usual agent".to_owned(),
            ));
        }
        let agents: &[AgentEntry] = self.agents.as_deref().unwrap_or_default();
        let seeds: Vec<u64> = match &self.seed {
            Seeds::One(seed) => vec![*seed],
            Seeds::List(seeds) if seeds.is_empty() => {
                return Err(invalid(
                    "seed",
                    "an empty list of seeds gives no setting; give at least one".to_owned(),
                ));
            }
            Seeds::List(seeds) => seeds.clone(),
        };

        // Count the settings before building any: overflow-free, each factor checked.
        let too_many = || {
            invalid(
                "",
                format!("the sweep expands into more than {SETTINGS_LIMIT} settings"),
            )
        };
        let mut agent_points = 0u64;
        for (index, agent) in agents.iter().enumerate() {
            let location = format!("agents[{index}]");
            check_object(&agent.params, &format!("{location}.params"), &invalid)?;
            let points = grid_size(&agent.grid, &agent.params, &location, &invalid)?;
            agent_points = agent_points.checked_add(points).ok_or_else(too_many)?;
        }
        let agent_points = agent_points.max(1);
        let mut settings_count = 0u64;
        for (index, domain) in self.domains.iter().enumerate() {
            let location = format!("domains[{index}]");
            check_object(&domain.params, &format!("{location}.params"), &invalid)?;
            if let Some(steps) = domain.max_steps {
                within(
                    &format!("{location}.max_steps"),
                    steps,
                    MAX_STEPS_LIMIT,
                    "steps",
                )?;
            }
            let points = grid_size(&domain.grid, &domain.params, &location, &invalid)?;
            let count = points
                .checked_mul(agent_points)
                .and_then(|count| count.checked_mul(seeds.len() as u64))
                .ok_or_else(too_many)?;
            settings_count = settings_count.checked_add(count).ok_or_else(too_many)?;
            if settings_count > SETTINGS_LIMIT {
                return Err(too_many());
            }
        }
        if settings_count.saturating_mul(self.runs) > SWEEP_RUNS_LIMIT {
            return Err(invalid(
                "runs",
                format!(
                    "{settings_count} settings of {} runs are more than {SWEEP_RUNS_LIMIT} runs",
                    self.runs
                ),
            ));
        }

        let width = (settings_count.saturating_sub(1)).to_string().len().max(3);
        let mut settings = Vec::with_capacity(settings_count as usize);
        for (domain_index, domain) in self.domains.iter().enumerate() {
            let domain_location = format!("domains[{domain_index}]");
            for domain_point in grid_points(&domain.grid) {
                let domain_params = merge(None, domain.params.as_ref(), &domain_point);
                // The domain must build before agents are tried on it.
                let probe = catalog::make(&domain.id, domain_params.as_ref())
                    .map_err(|e| invalid(&domain_location, e.to_string()))?;
                let max_steps = domain
                    .max_steps
                    .or(self.max_steps)
                    .unwrap_or_else(|| catalog::default_max_steps(&domain.id));
                if self.checks > max_steps {
                    return Err(invalid(
                        "checks",
                        format!(
                            "{} policy checks for {max_steps} steps of {}; give at most one check per step",
                            self.checks, domain.id
                        ),
                    ));
                }
                let default_entry;
                let entries: Vec<(String, &AgentEntry)> = if agents.is_empty() {
                    default_entry = AgentEntry {
                        name: catalog::default_agent(&domain.id),
                        params: None,
                        grid: BTreeMap::new(),
                    };
                    vec![(String::new(), &default_entry)]
                } else {
                    agents
                        .iter()
                        .enumerate()
                        .map(|(index, agent)| (format!(" agents[{index}]"), agent))
                        .collect()
                };
                for (agent_location, agent) in entries {
                    for agent_point in grid_points(&agent.grid) {
                        let defaults = catalog::default_agent_params(&domain.id, &agent.name);
                        let agent_params = if agent.params.is_none() && agent_point.is_empty() {
                            defaults
                        } else {
                            merge(defaults.as_ref(), agent.params.as_ref(), &agent_point)
                        };
                        let action_bins = catalog::default_action_bins(
                            &domain.id,
                            domain_params.as_ref(),
                            &agent.name,
                            agent_params.as_ref(),
                        );
                        for &seed in &seeds {
                            let config = ExperimentConfig {
                                domain: domain.id.clone(),
                                domain_params: domain_params.clone(),
                                agent: agent.name.clone(),
                                agent_params: agent_params.clone(),
                                max_steps,
                                num_policy_checks: self.checks,
                                checks_per_policy: self.checks_per_policy,
                                runs: self.runs,
                                seed,
                                evaluation_step_limit: self.evaluation_step_limit,
                                action_bins,
                            };
                            let origin = format!("{domain_location}{agent_location}");
                            config
                                .validate()
                                .map_err(|e| invalid(&origin, e.to_string()))?;
                            let environment = match action_bins {
                                None => None,
                                Some(_) => Some(
                                    catalog::make_for_experiment(&config)
                                        .map_err(|e| invalid(&domain_location, e.to_string()))?,
                                ),
                            };
                            let env = environment.as_ref().unwrap_or(&probe);
                            crate::agent::make_agent_for(
                                &config.agent,
                                config.agent_params.as_ref(),
                                env,
                                &config.domain,
                            )
                            .map_err(|e| {
                                let location = if agent_location.is_empty() {
                                    domain_location.clone()
                                } else {
                                    origin.clone()
                                };
                                invalid(&location, e.to_string())
                            })?;
                            let mut swept: Vec<String> = domain_point
                                .iter()
                                .chain(&agent_point)
                                .map(|(key, value)| format!("{key}={}", compact(value)))
                                .collect();
                            if let Seeds::List(_) = self.seed {
                                swept.push(format!("seed={seed}"));
                            }
                            let name = setting_name(
                                settings.len(),
                                width,
                                &domain.id,
                                &agent.name,
                                &swept,
                            );
                            settings.push(Setting {
                                name,
                                origin,
                                config,
                            });
                        }
                    }
                }
            }
        }
        Ok(SweepPlan {
            format: PLAN_FORMAT.to_owned(),
            version: 1,
            runs: self.runs,
            settings,
        })
    }
}

/// Checks that `params`, when given, is a JSON object.
fn check_object(
    params: &Option<JsonValue>,
    location: &str,
    invalid: &dyn Fn(&str, String) -> ExperimentError,
) -> Result<(), ExperimentError> {
    match params {
        Some(value) if !value.is_object() => Err(invalid(
            location,
            format!(
                "expected a JSON object such as {{\"noise\": 0.2}}, found {}",
                compact(value)
            ),
        )),
        _ => Ok(()),
    }
}

/// The number of points of a grid (the product of its lists' lengths, 1 for no grid), each
/// list checked to be non-empty and each key not also a fixed parameter.
fn grid_size(
    grid: &BTreeMap<String, Vec<JsonValue>>,
    params: &Option<JsonValue>,
    location: &str,
    invalid: &dyn Fn(&str, String) -> ExperimentError,
) -> Result<u64, ExperimentError> {
    let mut size = 1u64;
    for (key, values) in grid {
        let here = format!("{location}.grid.{key}");
        if values.is_empty() {
            return Err(invalid(
                &here,
                "an empty list of values gives no setting; give at least one".to_owned(),
            ));
        }
        if params.as_ref().and_then(|p| p.get(key)).is_some() {
            return Err(invalid(
                &here,
                format!("{key} is also in {location}.params; give it in one place"),
            ));
        }
        size = size.checked_mul(values.len() as u64).ok_or_else(|| {
            invalid(
                location,
                format!("the grid has more than {SETTINGS_LIMIT} points"),
            )
        })?;
        if size > SETTINGS_LIMIT {
            return Err(invalid(
                location,
                format!("the grid has more than {SETTINGS_LIMIT} points"),
            ));
        }
    }
    Ok(size)
}

/// The points of a grid in order: keys in alphabetical order, the last key varying fastest,
/// each key's values in the order given. One empty point for an empty grid. Only called after
/// [`grid_size`] checked the number of points.
fn grid_points(grid: &BTreeMap<String, Vec<JsonValue>>) -> Vec<Vec<(String, JsonValue)>> {
    let mut points: Vec<Vec<(String, JsonValue)>> = vec![Vec::new()];
    for (key, values) in grid {
        points = points
            .into_iter()
            .flat_map(|point| {
                values.iter().map(move |value| {
                    let mut next = point.clone();
                    next.push((key.clone(), value.clone()));
                    next
                })
            })
            .collect();
    }
    points
}

/// `defaults`, then `params`, then the grid point's values, merged key by key into one object
/// (`None` when all three are absent or empty and no parameters were given).
fn merge(
    defaults: Option<&JsonValue>,
    params: Option<&JsonValue>,
    point: &[(String, JsonValue)],
) -> Option<JsonValue> {
    if defaults.is_none() && params.is_none() && point.is_empty() {
        return None;
    }
    let mut merged = Map::new();
    for source in [defaults, params].into_iter().flatten() {
        if let Some(object) = source.as_object() {
            merged.extend(object.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
    }
    merged.extend(point.iter().cloned());
    Some(JsonValue::Object(merged))
}

/// A JSON value as short text: strings without their quotes, everything else as compact JSON.
fn compact(value: &JsonValue) -> String {
    match value {
        JsonValue::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// A setting's directory name: its number (zero-padded to `width`), the domain, the agent and
/// the swept values, joined by `-`; characters other than ASCII letters, digits and `._=+,`
/// become `_`, and the description is cut at [`NAME_LIMIT`] characters.
fn setting_name(index: usize, width: usize, domain: &str, agent: &str, swept: &[String]) -> String {
    let mut description = format!("{domain}-{agent}");
    for value in swept {
        description.push('-');
        description.push_str(value);
    }
    let description: String = description
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-=+,".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(NAME_LIMIT)
        .collect();
    format!("{index:0width$}-{description}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(text: &str) -> Result<SweepPlan, ExperimentError> {
        SweepFile::parse(text, "sweep.json")?.expand("sweep.json")
    }

    #[test]
    fn grids_expand_in_the_documented_order() {
        let plan = plan(
            r#"{
                "domains": [{"id": "GridWorld-4x5", "grid": {"noise": [0.0, 0.1]}}, "GridWorld-3x3"],
                "agents": ["sarsa", {"name": "q-learning", "grid": {"learning_rate": [0.1, 0.5], "epsilon": [0.2]}}],
                "max_steps": 100, "checks": 2, "checks_per_policy": 1, "runs": 3, "seed": [7, 9]
            }"#,
        )
        .unwrap();
        let names: Vec<&str> = plan.settings.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names.len(), 2 * 3 * 2 + 3 * 2);
        assert_eq!(
            &names[..6],
            [
                "000-GridWorld-4x5-sarsa-noise=0.0-seed=7",
                "001-GridWorld-4x5-sarsa-noise=0.0-seed=9",
                "002-GridWorld-4x5-q-learning-noise=0.0-epsilon=0.2-learning_rate=0.1-seed=7",
                "003-GridWorld-4x5-q-learning-noise=0.0-epsilon=0.2-learning_rate=0.1-seed=9",
                "004-GridWorld-4x5-q-learning-noise=0.0-epsilon=0.2-learning_rate=0.5-seed=7",
                "005-GridWorld-4x5-q-learning-noise=0.0-epsilon=0.2-learning_rate=0.5-seed=9",
            ]
        );
        assert_eq!(names[6], "006-GridWorld-4x5-sarsa-noise=0.1-seed=7");
        assert_eq!(names[12], "012-GridWorld-3x3-sarsa-seed=7");
        let setting = &plan.settings[4].config;
        assert_eq!(setting.seed, 7);
        assert_eq!(setting.runs, 3);
        assert_eq!(
            setting.agent_params,
            Some(serde_json::json!({"epsilon": 0.2, "learning_rate": 0.5}))
        );
        assert_eq!(
            setting.domain_params,
            Some(serde_json::json!({"noise": 0.0}))
        );
        assert_eq!(plan.settings[4].origin, "domains[0] agents[1]");
        assert_eq!(plan.run_count(), 18 * 3);
        let run = plan.run(14).unwrap();
        assert_eq!((run.setting, run.run), (4, 2));
        assert_eq!(plan.run(plan.run_count()), None);
    }

    #[test]
    fn defaults_are_those_of_rl_run() {
        let plan = plan(r#"{"domains": ["CartPole-v1"], "checks": 2}"#).unwrap();
        let config = &plan.settings[0].config;
        assert_eq!(config.agent, catalog::default_agent("CartPole-v1"));
        assert_eq!(config.max_steps, catalog::default_max_steps("CartPole-v1"));
        assert_eq!(
            config.agent_params,
            catalog::default_agent_params("CartPole-v1", &config.agent)
        );
        assert_eq!(
            (config.runs, config.seed, config.checks_per_policy),
            (8, 1, 10)
        );
        assert_eq!(config.domain_params, None);
    }

    #[test]
    fn errors_name_the_json_path() {
        for (text, expected) in [
            (
                r#"{"domains": ["GridWorld-4x5", {"id": 3}]}"#,
                "sweep.json: domains[1].id: invalid type: integer `3`, expected a string",
            ),
            (
                r#"{"domains": ["GridWorld-4x5"], "runz": 3}"#,
                "sweep.json: runz: unknown field `runz`",
            ),
            (
                r#"{"domains": [{"id": "GridWorld-4x5", "grid": {"noise": 0.1}}]}"#,
                "sweep.json: domains[0].grid.noise: invalid type: floating point `0.1`, expected a sequence",
            ),
            (
                r#"{"domains": ["GridWorld-4x5"], "seed": -1}"#,
                "sweep.json: seed: invalid type: integer `-1`, expected a master seed",
            ),
            (
                r#"{"domains": ["GridWorld-4x5"], "runs": 0}"#,
                "sweep.json: runs: 0 runs; give a whole number from 1 to 10000",
            ),
            (
                r#"{"domains": ["GridWorld-4x5"], "max_steps": 10, "checks": 20}"#,
                "sweep.json: checks: 20 policy checks for 10 steps",
            ),
            (
                r#"{"domains": ["NoSuchDomain-v0"]}"#,
                "sweep.json: domains[0]: unknown id `NoSuchDomain-v0`\nregistered ids, by prefix:\n",
            ),
            (
                r#"{"domains": ["GridWorld-4x5"], "agents": ["q-learning", "no-such-agent"]}"#,
                "sweep.json: domains[0] agents[1]: unknown agent \"no-such-agent\"",
            ),
            (
                r#"{"domains": [{"id": "GridWorld-4x5", "grid": {"noise": []}}]}"#,
                "sweep.json: domains[0].grid.noise: an empty list of values",
            ),
            (
                r#"{"domains": [{"id": "GridWorld-4x5", "params": {"noise": 0.1}, "grid": {"noise": [0.2]}}]}"#,
                "sweep.json: domains[0].grid.noise: noise is also in domains[0].params",
            ),
            (
                r#"{"domains": [{"id": "GridWorld-4x5", "params": [1]}]}"#,
                "sweep.json: domains[0].params: expected a JSON object",
            ),
            (r#"{"domains": []}"#, "sweep.json: domains: no domain"),
            (
                r#"{"domains": ["GridWorld-4x5"]"#,
                "sweep.json: EOF while parsing an object at line 1 column 29",
            ),
            (
                r#"{"domains": ["GridWorld-4x5"]} x"#,
                "sweep.json: trailing characters at line 1 column 32",
            ),
        ] {
            let error = plan(text).unwrap_err().to_string();
            assert!(
                error.starts_with(expected),
                "{text}\ngave {error}\nexpected {expected}"
            );
            // Only an unknown id's message goes on, with the registered ids one per line.
            if error.contains("unknown id") {
                assert!(
                    error.lines().skip(2).all(|line| line.starts_with("  ")),
                    "{error}"
                );
            } else {
                assert!(!error.contains('\n'), "{error}");
            }
        }
    }

    #[test]
    fn huge_grids_are_refused_before_anything_is_built() {
        let values: Vec<String> = (0..200).map(|v| v.to_string()).collect();
        let list = values.join(",");
        let text = format!(
            r#"{{"domains": [{{"id": "GridWorld-4x5", "grid": {{"a": [{list}], "b": [{list}], "c": [{list}], "d": [{list}], "e": [{list}], "f": [{list}], "g": [{list}], "h": [{list}], "i": [{list}]}}}}]}}"#
        );
        let error = plan(&text).unwrap_err().to_string();
        assert!(error.contains("more than 10000 points"), "{error}");
        let error = plan(r#"{"domains": ["GridWorld-4x5"], "seed": [1, 2, 3], "runs": 10000, "agents": [{"name": "q-learning", "grid": {"epsilon": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 0.11, 0.12, 0.13, 0.14, 0.15, 0.16, 0.17, 0.18, 0.19, 0.21, 0.22, 0.23, 0.24, 0.25, 0.26, 0.27, 0.28, 0.29, 0.31, 0.32, 0.33, 0.34, 0.35, 0.36, 0.37, 0.38, 0.39, 0.41, 0.42, 0.43, 0.44, 0.45, 0.46, 0.47, 0.48, 0.49, 0.51, 0.52, 0.53, 0.54]}}]}"#).unwrap_err().to_string();
        assert!(error.contains("more than 1000000 runs"), "{error}");
    }

    #[test]
    fn names_are_plain_directory_names() {
        let name = setting_name(7, 3, "Grid/World", "q learning", &["map=../x".to_owned()]);
        assert_eq!(name, "007-Grid_World-q_learning-map=.._x");
        assert!(is_safe_name(&name));
        let long = setting_name(12, 4, &"x".repeat(300), "a", &[]);
        assert_eq!(long.len(), 5 + NAME_LIMIT);
    }
}
