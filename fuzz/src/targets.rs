//! The fuzz targets: one per entry point that takes outside input. Each writes a description
//! of its input (enough to reproduce it by hand) before running it, and returns `Err` when an
//! invariant the library documents does not hold; panics are caught by the driver.

use std::fmt::Write as _;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use rand::RngExt;
use rl_core::NumpyGenerator;
use rl_core::{BoxedEnvironment, Environment, Mode};
use rl_domains::cartpole::{CartPole, CartPoleParams};
use rl_domains::gridworld::{GridMap, GridWorld, GridWorldParams};
use rl_domains::mountain_car::MountainCarParams;
use rl_domains::mountain_car_continuous::MountainCarContinuousParams;
use rl_domains::registry;
use rl_experiment::{ExperimentConfig, Silent};
use rl_reference as reference;
use rl_spaces::{AnyElement, AnySpace, FlattenSpace, JsonSpace, Space, TrySampleSpace};
use rl_wrappers::vector::{
    Autoreset, EnvironmentVector, KernelVector, VectorOptions, make_async_vector,
};
use serde_json::{Value, json};

use crate::generate::{
    any_element, interesting_f64, interesting_i64, interesting_u64, json_number, json_value,
    map_text, mutate_text, mutate_value, pick, short_string, shorten_lists, space_definition,
    space_document,
};

/// What a target returns: `Err` names a broken invariant.
pub(crate) type Verdict = Result<(), String>;

/// One fuzz target.
pub(crate) struct Target {
    /// The name given to `--target`.
    pub(crate) name: &'static str,
    /// What it feeds and to which entry point.
    pub(crate) description: &'static str,
    /// Generates one input from the generator, describes it in the string, and runs it.
    pub(crate) run: fn(&mut NumpyGenerator, &Context, &mut String) -> Verdict,
}

/// Every target, in the order `--target all` runs them.
pub(crate) const TARGETS: [Target; 11] = [
    Target {
        name: "space-json",
        description: "space definition documents: AnySpace::from_definition_str, then sample, flatten, round-trip",
        run: space_json,
    },
    Target {
        name: "element-json",
        description: "element batches per space: JsonSpace::batch_from_jsonable",
        run: element_json,
    },
    Target {
        name: "gridworld-map",
        description: "GridWorld map text: GridMap::parse, then GridWorld::new and a few steps",
        run: gridworld_map,
    },
    Target {
        name: "trace",
        description: "reference trace files: rl_reference::parse_reference, then replay",
        run: trace,
    },
    Target {
        name: "registry-params",
        description: "registry parameters on every id: registry::make(id, Some(&json)), then an episode",
        run: registry_params,
    },
    Target {
        name: "step",
        description: "single environments stepped with arbitrary AnyElement actions",
        run: single_step,
    },
    Target {
        name: "vector-step",
        description: "vector environments (from_environments over registry ids, from_kernel over CartPole) stepped with arbitrary actions",
        run: vector_step,
    },
    Target {
        name: "async-vector",
        description: "asynchronous vectors by id (make_async_vector): send with arbitrary actions and ids, recv, async_reset, send_reset of arbitrary ids, seed",
        run: async_vector,
    },
    Target {
        name: "cli",
        description: "`rl` arguments, in process: rl_experiment::cli::main_with_args (list, run, render, check, replay, sweep, status, summarize)",
        run: cli,
    },
    Target {
        name: "experiment",
        description: "experiment files: ExperimentConfig JSON and run result files read on resume",
        run: experiment,
    },
    Target {
        name: "sweep-file",
        description: "sweep files: SweepFile::parse, then expand (every domain built, every agent tried) and shard assignment",
        run: sweep_file,
    },
];

/// Inputs shared by all the inputs of a process: corpora read once, a scratch directory.
pub(crate) struct Context {
    /// A directory this process may write in (removed at exit).
    pub(crate) scratch: PathBuf,
    /// The reference traces of `testdata/reference`, as (file name, shortened JSON), read
    /// by the first target that needs them.
    traces: OnceLock<Vec<(String, Value)>>,
    /// A valid run result file, written by a tiny experiment when first needed.
    run_file: OnceLock<Option<String>>,
    /// The registry ids.
    ids: Vec<String>,
    /// The parameter names of the built-in domains.
    parameter_names: Vec<String>,
}

impl Context {
    /// Reads the corpora and makes the scratch directory.
    pub(crate) fn new(scratch: PathBuf) -> Context {
        let _ = std::fs::create_dir_all(&scratch);
        let mut parameter_names = Vec::new();
        for defaults in [
            serde_json::to_value(CartPoleParams::default()),
            serde_json::to_value(MountainCarParams::default()),
            serde_json::to_value(MountainCarContinuousParams::default()),
            serde_json::to_value(GridWorldParams::default()),
        ]
        .into_iter()
        .flatten()
        {
            if let Value::Object(map) = defaults {
                parameter_names.extend(map.keys().cloned());
            }
        }
        parameter_names.push("map".to_owned());
        // MiniGrid's ids (rl-object-grid) join the registry's ids, with their parameters.
        rl_object_grid::register();
        parameter_names.extend(["agent_view_size", "max_steps", "env"].map(str::to_owned));
        Context {
            scratch,
            traces: OnceLock::new(),
            run_file: OnceLock::new(),
            ids: registry::ids(),
            parameter_names,
        }
    }

    /// The reference traces, shortened.
    fn traces(&self) -> &[(String, Value)] {
        self.traces.get_or_init(read_traces)
    }

    /// A valid run file.
    fn run_file(&self) -> Option<&str> {
        self.run_file
            .get_or_init(|| tiny_run_file(&self.scratch.join("seed-run")))
            .as_deref()
    }
}

/// Reads the reference traces of `testdata/reference`, every list cut to six items.
fn read_traces() -> Vec<(String, Value)> {
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/reference");
    let mut traces = Vec::new();
    {
        if let Ok(entries) = std::fs::read_dir(&reference) {
            let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
            paths.sort();
            for path in paths {
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                if !name.ends_with(".json") || name == "gymnasium_spaces.json" {
                    continue;
                }
                let value = std::fs::read_to_string(&path)
                    .ok()
                    .and_then(|text| serde_json::from_str::<Value>(&text).ok());
                if let Some(mut value) = value {
                    shorten_lists(&mut value, 6);
                    traces.push((name, value));
                }
            }
        }
    }
    traces
}

/// Runs a tiny experiment and returns its run file, the corpus of the experiment target.
fn tiny_run_file(directory: &Path) -> Option<String> {
    let config = ExperimentConfig {
        runs: 1,
        num_policy_checks: 1,
        checks_per_policy: 1,
        ..ExperimentConfig::new("GridWorld-4x5", "q-learning", 20)
    };
    let make = || rl_experiment::catalog::make("GridWorld-4x5", None);
    rl_experiment::run_experiment(
        &config,
        directory,
        &make,
        NonZeroUsize::MIN,
        &|| false,
        &Silent,
    )
    .ok()?;
    std::fs::read_to_string(rl_experiment::results::run_path(directory, 0)).ok()
}

/// Spaces with more flat entries than this are built but not sampled: sampling and writing
/// 2^24 entries is correct but would make each input take seconds.
const EXERCISED_FLAT_LEN: usize = 1 << 16;

/// Checks that the definition a space writes reads back equal; samples, flattens and writes
/// a batch of it.
fn exercise_space(space: &AnySpace, rng: &mut NumpyGenerator) -> Verdict {
    if counted_entries(space) > EXERCISED_FLAT_LEN {
        return Ok(());
    }
    let text = space.to_definition_string();
    let back = AnySpace::from_definition_str(&text)
        .map_err(|e| format!("the written definition does not read back: {e}"))?;
    if &back != space && !contains_nan_or_signed_zero(&text) {
        return Err(format!("definition round trip changed the space: {text}"));
    }
    let mut samples = Vec::new();
    for _ in 0..3 {
        if let Some(x) = space.try_sample(rng) {
            if !space.contains(&x) {
                return Err(format!("sample {x} is not in its space"));
            }
            let _ = space
                .flatten::<f64>(&x)
                .and_then(|flat| space.unflatten(&flat));
            samples.push(x);
        }
    }
    // Gymnasium's algorithms, with one generator and with seeded per-space generators.
    let mut seeded = rl_spaces::SeededSampler::new(space.clone(), rng.random());
    for x in [space.sample_masked(None, rng), seeded.sample(None)] {
        match x {
            Ok(Some(x)) if !space.contains(&x) => {
                return Err(format!("Gymnasium's sample {x} is not in its space"));
            }
            Ok(None) if !space.is_empty() => {
                return Err("no Gymnasium sample from a non-empty space without a mask".to_owned());
            }
            Err(e) => return Err(format!("sampling without a mask failed: {e}")),
            _ => {}
        }
    }
    if let Ok(json) = space.batch_to_jsonable(&samples) {
        match space.batch_from_jsonable(&json) {
            Ok(back) if back == samples => {}
            Ok(_) => return Err("batch JSON round trip changed the samples".to_owned()),
            Err(e) => return Err(format!("written batch does not read back: {e}")),
        }
    }
    Ok(())
}

/// The entries of a space as its size limit counts them (a zero dimension counted as one, so
/// that `[2^24, 0]` counts 2^24: its JSON elements hold 2^24 empty lists).
fn counted_entries(space: &AnySpace) -> usize {
    let shape_entries = |shape: &[usize]| {
        shape
            .iter()
            .fold(1usize, |product, d| product.saturating_mul((*d).max(1)))
    };
    match space {
        AnySpace::Box(b) => shape_entries(b.shape()),
        AnySpace::MultiBinary(s) => shape_entries(s.shape()),
        AnySpace::MultiDiscrete(s) => s.flat_dim(),
        AnySpace::Tuple(t) => t.spaces().iter().map(counted_entries).sum(),
        AnySpace::Dict(d) => d.spaces().values().map(counted_entries).sum(),
        AnySpace::OneOf(o) => o.spaces().iter().map(counted_entries).max().unwrap_or(0),
        AnySpace::Text(t) => t.max_length(),
        // A few items or a default graph's ten nodes and up to ninety edges.
        AnySpace::Sequence(s) => counted_entries(s.feature_space()).saturating_mul(8),
        AnySpace::Graph(g) => counted_entries(g.node_space())
            .saturating_add(g.edge_space().map_or(0, counted_entries))
            .saturating_mul(100),
        other => other.flat_dim(),
    }
}

/// Whether the text holds a value whose equality is not the identity (a NaN can never equal
/// itself, and `-0.0 == 0.0` while both are kept).
fn contains_nan_or_signed_zero(text: &str) -> bool {
    text.contains("nan") || text.contains("-0.0")
}

fn space_json(rng: &mut NumpyGenerator, _: &Context, input: &mut String) -> Verdict {
    let document = space_document(rng);
    let text = if rng.random_bool(0.15) {
        mutate_text(rng, &document.to_string())
    } else {
        document.to_string()
    };
    input.push_str(&text);
    match AnySpace::from_definition_str(&text) {
        Ok(space) => exercise_space(&space, rng),
        Err(error) => {
            let message = error.to_string();
            if message.is_empty() {
                return Err("an empty error message".to_owned());
            }
            Ok(())
        }
    }
}

/// A valid space for element tests: a generated definition that reads, or Discrete(3).
fn some_space(rng: &mut NumpyGenerator) -> AnySpace {
    for _ in 0..20 {
        let definition = space_definition(rng, 2);
        if let Ok(space) = AnySpace::from_definition(&definition) {
            if counted_entries(&space) <= 4096 {
                return space;
            }
        }
    }
    AnySpace::from(rl_spaces::Discrete::new(3).expect("3 is a valid size"))
}

fn element_json(rng: &mut NumpyGenerator, _: &Context, input: &mut String) -> Verdict {
    let space = some_space(rng);
    let samples: Vec<AnyElement> = (0..rng.random_range(0..4))
        .filter_map(|_| space.try_sample(rng))
        .collect();
    let mut batch = match space.batch_to_jsonable(&samples) {
        Ok(json) if rng.random_bool(0.8) => json,
        _ => json_value(rng, 3),
    };
    if rng.random_bool(0.7) {
        mutate_value(rng, &mut batch);
    }
    let _ = write!(
        input,
        "space: {}\nbatch: {batch}",
        space.to_definition_string()
    );
    if let Ok(elements) = space.batch_from_jsonable(&batch) {
        for element in &elements {
            if !space.contains(element) {
                return Err(format!("read element {element} is not in the space"));
            }
            space
                .element_to_json(element)
                .map_err(|e| format!("read element {element} cannot be written: {e}"))?;
        }
    }
    // One element at a time too.
    let _ = space.element_from_json(&batch);
    Ok(())
}

/// Resets and steps `env` a few times with sampled actions; checks that observations stay in
/// the observation space.
fn short_episode(env: &mut BoxedEnvironment, rng: &mut NumpyGenerator, steps: usize) -> Verdict {
    let observation = env
        .reset(Mode::Training)
        .map_err(|e| format!("reset failed: {e}"))?;
    if !env.observation_space().contains(&observation) {
        return Err(format!(
            "initial observation {observation} outside {}",
            env.observation_space()
        ));
    }
    for _ in 0..steps {
        let Some(action) = env.action_space().try_sample(rng) else {
            return Ok(());
        };
        let outcome = env
            .step(&action)
            .map_err(|e| format!("a sampled action {action} was refused: {e}"))?;
        if !env.observation_space().contains(&outcome.observation) {
            return Err(format!(
                "observation {} outside {}",
                outcome.observation,
                env.observation_space()
            ));
        }
        if outcome.terminated || outcome.truncated {
            break;
        }
    }
    Ok(())
}

fn gridworld_map(rng: &mut NumpyGenerator, _: &Context, input: &mut String) -> Verdict {
    let text = map_text(rng);
    let _ = write!(input, "{text:?}");
    let Ok(map) = GridMap::parse(&text) else {
        return Ok(());
    };
    if GridMap::parse(&map.to_string()).ok().as_ref() != Some(&map) {
        return Err("the written map does not read back equal".to_owned());
    }
    let params = GridWorldParams {
        noise: [0.0, 0.1, 1.0][rng.random_range(0..3)],
        ..GridWorldParams::default()
    };
    if let Ok(domain) = GridWorld::new(map, params) {
        let mut env = rl_core::DynamicEnvironment::new(rl_core::Simulator::new(domain, 0)).boxed();
        short_episode(&mut env, rng, 20)?;
    }
    Ok(())
}

fn trace(rng: &mut NumpyGenerator, context: &Context, input: &mut String) -> Verdict {
    let traces = context.traces();
    let text = if traces.is_empty() || rng.random_bool(0.05) {
        json_value(rng, 4).to_string()
    } else {
        let (_, value) = &traces[rng.random_range(0..traces.len())];
        let mut value = value.clone();
        for _ in 0..rng.random_range(0..4) {
            mutate_value(rng, &mut value);
        }
        let text = value.to_string();
        if rng.random_bool(0.1) {
            mutate_text(rng, &text)
        } else {
            text
        }
    };
    input.push_str(&text);
    if let Ok(file) = reference::parse_reference(&text, "fuzz.json") {
        let _ = reference::replay(&file);
    }
    Ok(())
}

/// A parameter object: known names with edge values, unknown names, wrong types.
fn parameter_object(rng: &mut NumpyGenerator, context: &Context) -> Value {
    let mut map = serde_json::Map::new();
    for _ in 0..rng.random_range(0..4) {
        let name = if rng.random_bool(0.9) && !context.parameter_names.is_empty() {
            context.parameter_names[rng.random_range(0..context.parameter_names.len())].clone()
        } else {
            short_string(rng)
        };
        let value = match rng.random_range(0..6) {
            0 => json!(interesting_f64(rng)).clone(),
            1 => json!(rng.random::<f64>() * [1.0, 10.0, 0.1][rng.random_range(0..3)]),
            2 => json_number(rng),
            3 if name == "map" => Value::String(if rng.random_bool(0.5) {
                map_text(rng)
            } else {
                pick(rng, &["4x5", "1x2", "nope", "4x5.txt", ""]).to_owned()
            }),
            4 => json!(pick(
                rng,
                &["euler", "semi_implicit", "rlpy", "corrected", "x"]
            )),
            _ => json_value(rng, 2),
        };
        map.insert(name, value);
    }
    Value::Object(map)
}

fn registry_params(rng: &mut NumpyGenerator, context: &Context, input: &mut String) -> Verdict {
    let id = context.ids[rng.random_range(0..context.ids.len())].clone();
    let params = parameter_object(rng, context);
    let _ = write!(input, "id: {id}\nparams: {params}");
    match registry::make(&id, Some(&params)) {
        Ok(mut env) => {
            env.seed(rng.random());
            short_episode(&mut env, rng, 200)
        }
        Err(error) => {
            if error.to_string().is_empty() {
                return Err("an empty error message".to_owned());
            }
            Ok(())
        }
    }
}

/// An action: a sample of the action space, a mutation of one, or anything.
fn arbitrary_action(rng: &mut NumpyGenerator, space: &AnySpace) -> AnyElement {
    match rng.random_range(0..3) {
        0 => space.try_sample(rng).unwrap_or_else(|| any_element(rng, 2)),
        1 => match space.try_sample(rng) {
            Some(AnyElement::Int(x)) => AnyElement::Int(x.wrapping_add(interesting_i64(rng))),
            _ => any_element(rng, 2),
        },
        _ => any_element(rng, 2),
    }
}

fn single_step(rng: &mut NumpyGenerator, context: &Context, input: &mut String) -> Verdict {
    let id = context.ids[rng.random_range(0..context.ids.len())].clone();
    let Ok(mut env) = registry::make(&id, None) else {
        return Err(format!(
            "the registered id {id} does not build with defaults"
        ));
    };
    env.seed(rng.random());
    let _ = write!(input, "id: {id}\nactions:");
    if rng.random_bool(0.9) {
        let _ = env.reset(if rng.random_bool(0.9) {
            Mode::Training
        } else {
            Mode::Evaluation(rng.random())
        });
    }
    for _ in 0..rng.random_range(1..30) {
        let action = arbitrary_action(rng, env.action_space());
        let _ = write!(input, " {action}");
        match env.step(&action) {
            Ok(outcome) => {
                if !env.accepts_action(&action) {
                    return Err(format!(
                        "the action {action}, which the environment does not accept, was stepped"
                    ));
                }
                if !env.observation_space().contains(&outcome.observation) {
                    return Err(format!("observation {} outside", outcome.observation));
                }
            }
            Err(error) => {
                let message = error.to_string();
                if message.contains("shape=[") || message.contains("strides=") {
                    return Err(format!("an error shows ndarray's Debug: {message}"));
                }
                if rng.random_bool(0.5) {
                    let _ = env.reset(Mode::Training);
                }
            }
        }
    }
    Ok(())
}

fn vector_step(rng: &mut NumpyGenerator, context: &Context, input: &mut String) -> Verdict {
    let count = NonZeroUsize::new(rng.random_range(1..5)).unwrap_or(NonZeroUsize::MIN);
    let threads = NonZeroUsize::new(rng.random_range(1..3)).unwrap_or(NonZeroUsize::MIN);
    let autoreset = [
        Autoreset::NextStep,
        Autoreset::SameStep,
        Autoreset::Disabled,
    ][rng.random_range(0..3)];
    let options = VectorOptions::new()
        .with_threads(threads)
        .with_autoreset(autoreset);
    let seed = rng.random();
    if rng.random_bool(0.5) {
        let id = context.ids[rng.random_range(0..context.ids.len())].clone();
        let _ = write!(
            input,
            "from_environments {id} x{count} threads {threads} {autoreset:?} seed {seed}\nactions:"
        );
        let factory_id = id.clone();
        let vector = EnvironmentVector::<BoxedEnvironment, f32>::from_environments(
            count,
            seed,
            options,
            move |_| registry::make(&factory_id, None).expect("registered ids build"),
        );
        let Ok(mut vector) = vector else {
            return Ok(());
        };
        let space = registry::make(&id, None)
            .map(|env| env.action_space().clone())
            .map_err(|e| e.to_string())?;
        if rng.random_bool(0.9) {
            let _ = vector.reset(Mode::Training);
        }
        for _ in 0..rng.random_range(1..10) {
            let len = if rng.random_bool(0.9) {
                count.get()
            } else {
                rng.random_range(0..6)
            };
            let actions: Vec<AnyElement> =
                (0..len).map(|_| arbitrary_action(rng, &space)).collect();
            let shown: Vec<String> = actions.iter().map(ToString::to_string).collect();
            let _ = write!(input, " [{}]", shown.join(", "));
            if vector.step(&actions).is_err() && rng.random_bool(0.3) {
                let _ = vector.reset(Mode::Training);
            }
        }
    } else {
        let params = CartPoleParams {
            tau: [0.02, 0.37, 1e-6][rng.random_range(0..3)],
            ..CartPoleParams::default()
        };
        let _ = write!(
            input,
            "from_kernel CartPole tau {} x{count} threads {threads} {autoreset:?} seed {seed}\nactions:",
            params.tau
        );
        let domain = CartPole::new(params).map_err(|e| e.to_string())?;
        let Ok(mut vector) =
            KernelVector::<CartPole, f32>::from_kernel(domain, count, seed, options)
        else {
            return Ok(());
        };
        if rng.random_bool(0.9) {
            let _ = vector.reset(Mode::Training);
        }
        for _ in 0..rng.random_range(1..20) {
            let len = if rng.random_bool(0.9) {
                count.get()
            } else {
                rng.random_range(0..6)
            };
            let actions: Vec<i64> = (0..len)
                .map(|_| {
                    if rng.random_bool(0.8) {
                        rng.random_range(0..2)
                    } else {
                        interesting_i64(rng)
                    }
                })
                .collect();
            let _ = write!(input, " {actions:?}");
            if vector.step(&actions).is_err() && rng.random_bool(0.3) {
                let _ = vector.reset(Mode::Training);
            }
        }
    }
    Ok(())
}

fn async_vector(rng: &mut NumpyGenerator, context: &Context, input: &mut String) -> Verdict {
    let count = rng.random_range(1..6usize);
    let batch_size = rng.random_range(1..count + 2);
    let threads = rng.random_range(1..4usize);
    let seed = rng.random();
    let id = context.ids[rng.random_range(0..context.ids.len())].clone();
    let _ = write!(
        input,
        "make_async_vector {id} x{count} batch {batch_size} threads {threads} seed {seed}\ncalls:"
    );
    let (Some(count), Some(batch), Some(threads)) = (
        NonZeroUsize::new(count),
        NonZeroUsize::new(batch_size),
        NonZeroUsize::new(threads),
    ) else {
        return Ok(());
    };
    let options = VectorOptions::new().with_threads(threads);
    let Ok(mut vector) =
        make_async_vector::<AnyElement, f32>(&id, None, count, seed, options, batch)
    else {
        return Ok(());
    };
    let space = registry::make(&id, None)
        .map(|env| env.action_space().clone())
        .map_err(|e| e.to_string())?;
    if rng.random_bool(0.9) {
        let _ = vector.async_reset(Mode::Training);
        let _ = write!(input, " async_reset");
    }
    for _ in 0..rng.random_range(1..16) {
        match rng.random_range(0..10) {
            0..=2 if !vector.env_ids().is_empty() => {
                // The environments just received, with actions of the space: mostly accepted.
                let ids = vector.env_ids().to_vec();
                let actions: Vec<AnyElement> = ids
                    .iter()
                    .map(|_| space.try_sample(rng).unwrap_or_else(|| any_element(rng, 2)))
                    .collect();
                let shown: Vec<String> = actions.iter().map(ToString::to_string).collect();
                let _ = write!(input, " send({ids:?}, [{}])", shown.join(", "));
                let _ = vector.send(&actions, &ids);
            }
            0..=4 => {
                let ids = arbitrary_env_ids(rng, count.get());
                let len = if rng.random_bool(0.9) {
                    ids.len()
                } else {
                    rng.random_range(0..6)
                };
                let actions: Vec<AnyElement> =
                    (0..len).map(|_| arbitrary_action(rng, &space)).collect();
                let shown: Vec<String> = actions.iter().map(ToString::to_string).collect();
                let _ = write!(input, " send({ids:?}, [{}])", shown.join(", "));
                let in_flight = vector.in_flight();
                if vector.send(&actions, &ids).is_err() && vector.in_flight() != in_flight {
                    return Err(format!(
                        "a refused send changed what is in flight: {in_flight} then {}",
                        vector.in_flight()
                    ));
                }
            }
            5..=7 => {
                let _ = write!(input, " recv");
                // Waits only for jobs sent: a recv that cannot be served is an error at once.
                // (With every environment per batch, EnvPool's synchronous mode: every one in
                // flight, however few.)
                let in_flight = vector.in_flight();
                if vector.recv().is_ok() {
                    let mut ids = vector.env_ids().to_vec();
                    ids.sort_unstable();
                    ids.dedup();
                    let expected = if batch_size == count.get() {
                        in_flight
                    } else {
                        batch_size
                    };
                    if ids.len() != expected
                        || vector.env_ids().len() != expected
                        || ids.iter().any(|&id| id >= count.get())
                    {
                        return Err(format!(
                            "recv gave the ids {:?} for a batch of {batch_size} of {count} \
                             ({in_flight} in flight)",
                            vector.env_ids()
                        ));
                    }
                }
            }
            8 if rng.random_bool(0.5) => {
                let _ = write!(input, " async_reset");
                let _ = vector.async_reset(Mode::Training);
            }
            8 => {
                let ids = arbitrary_env_ids(rng, count.get());
                let _ = write!(input, " send_reset({ids:?})");
                let in_flight = vector.in_flight();
                if vector.send_reset(&ids).is_err() && vector.in_flight() != in_flight {
                    return Err(format!(
                        "a refused send_reset changed what is in flight: {in_flight} then {}",
                        vector.in_flight()
                    ));
                }
            }
            _ => {
                let seed = rng.random();
                let _ = write!(input, " seed({seed})");
                let _ = vector.seed(seed);
            }
        }
    }
    Ok(())
}

/// Environment ids for an asynchronous vector of `count`: up to `count + 1` of them, mostly in
/// range (so repeated and in flight ones too), sometimes huge.
fn arbitrary_env_ids(rng: &mut NumpyGenerator, count: usize) -> Vec<usize> {
    (0..rng.random_range(0..count + 2))
        .map(|_| {
            if rng.random_bool(0.9) {
                rng.random_range(0..count)
            } else {
                interesting_u64(rng) as usize
            }
        })
        .collect()
}

/// A number argument: usually small and valid, sometimes zero, negative, huge or not a number.
fn number_argument(rng: &mut NumpyGenerator, small: u64) -> String {
    match rng.random_range(0..10) {
        0 => "0".to_owned(),
        1 => "-1".to_owned(),
        2 => short_string(rng),
        3 => "18446744073709551616".to_owned(),
        4 => interesting_u64(rng).min(small.max(1) * 4).to_string(),
        _ => rng.random_range(1..=small.max(1)).to_string(),
    }
}

fn cli(rng: &mut NumpyGenerator, context: &Context, input: &mut String) -> Verdict {
    let directory = context.scratch.join(format!("cli-{}", rng.random::<u32>()));
    let domains: Vec<String> = context
        .ids
        .iter()
        .cloned()
        .chain(["nope".to_owned(), String::new(), short_string(rng)])
        .collect();
    let domain = domains[rng.random_range(0..domains.len())].clone();
    let mut args: Vec<String> = vec!["rl".to_owned()];
    let command = pick(
        rng,
        &[
            "list",
            "run",
            "run",
            "run",
            "render",
            "check",
            "replay",
            "sweep",
            "status",
            "summarize",
            "help",
            "",
            "--version",
        ],
    );
    if !command.is_empty() {
        args.push(command.to_owned());
    }
    let mut flags: Vec<(&str, String)> = Vec::new();
    match command {
        "run" => {
            flags.push(("--out", directory.join("out").display().to_string()));
            flags.push(("--threads", "1".to_owned()));
            flags.push(("--max-steps", number_argument(rng, 60)));
            flags.push(("--checks", number_argument(rng, 3)));
            flags.push(("--checks-per-policy", number_argument(rng, 2)));
            flags.push(("--runs", number_argument(rng, 2)));
            if rng.random_bool(0.5) {
                let agent = pick(rng, &["q-learning", "sarsa", "random", "linear-sarsa", "x"]);
                flags.push(("--agent", agent.to_owned()));
            }
            if rng.random_bool(0.3) {
                flags.push(("--agent-params", json_value(rng, 2).to_string()));
            }
        }
        "render" => {
            flags.push(("--out", directory.join("picture.svg").display().to_string()));
        }
        "replay" => {
            let path = directory.join("trace.json");
            let _ = std::fs::create_dir_all(&directory);
            if let Some((_, value)) = context.traces().first() {
                let mut value = value.clone();
                mutate_value(rng, &mut value);
                let _ = std::fs::write(&path, value.to_string());
            }
            args.push(path.display().to_string());
            if rng.random_bool(0.2) {
                args.push(directory.join("missing.json").display().to_string());
            }
        }
        "sweep" => {
            // A small sweep (its counts bound the work), with a shard that may be damaged.
            let _ = std::fs::create_dir_all(&directory);
            let file = directory.join("sweep.json");
            let sweep = json!({
                "domains": [{"id": pick(rng, &["GridWorld-1x3", "GridWorld-4x5", "nope"]),
                             "grid": {"noise": [0.0, 0.1]}}],
                "agents": [pick(rng, &["q-learning", "sarsa", "random", "x"])],
                "max_steps": rng.random_range(1..60),
                "checks": rng.random_range(1..3),
                "checks_per_policy": rng.random_range(1..3),
                "runs": rng.random_range(1..3),
                "seed": interesting_u64(rng),
            });
            let _ = std::fs::write(&file, sweep.to_string());
            args.push(file.display().to_string());
            flags.push(("--out", directory.join("out").display().to_string()));
            if rng.random_bool(0.5) {
                let shard = pick(
                    rng,
                    &[
                        "0/1",
                        "1/2",
                        "0/2",
                        "2/2",
                        "0/0",
                        "1/x",
                        "-1/3",
                        "18446744073709551615/3",
                    ],
                );
                flags.push(("--shard", shard.to_owned()));
            }
            if rng.random_bool(0.2) {
                args.push("--list".to_owned());
            }
        }
        "status" | "summarize" => {
            // A directory that is missing, empty, or holds a damaged sweep plan.
            let _ = std::fs::create_dir_all(&directory);
            if rng.random_bool(0.5) {
                let text = mutate_text(
                    rng,
                    r#"{"format":"rl-experiment/sweep-plan","version":1,"runs":2,"settings":[]}"#,
                );
                let _ = std::fs::write(directory.join("sweep.json"), text);
            }
            args.push(directory.display().to_string());
        }
        _ => {}
    }
    if matches!(command, "run" | "render" | "check") {
        flags.push(("--domain", domain));
        if rng.random_bool(0.5) {
            flags.push(("--params", parameter_object(rng, context).to_string()));
        }
        if rng.random_bool(0.3) {
            flags.push(("--seed", number_argument(rng, 1000)));
        }
    }
    // Drop or damage a flag now and then, except the counts that bound the work of `run`:
    // without them (or with a damaged value such as 680600) a run is legitimately long, which
    // the watchdog would report as a hang.
    for (flag, value) in flags {
        let bounds_work = matches!(
            flag,
            "--max-steps" | "--checks" | "--checks-per-policy" | "--runs"
        );
        if bounds_work {
            args.push(flag.to_owned());
            args.push(value);
            continue;
        }
        if rng.random_bool(0.03) {
            continue;
        }
        args.push(flag.to_owned());
        if rng.random_bool(0.97) {
            args.push(if rng.random_bool(0.03) {
                mutate_text(rng, &value)
            } else {
                value
            });
        }
    }
    if rng.random_bool(0.05) {
        args.push(short_string(rng));
    }
    let _ = write!(input, "{args:?}");
    let _ = rl_experiment::cli::main_with_args(args);
    let _ = std::fs::remove_dir_all(&directory);
    Ok(())
}

fn experiment(rng: &mut NumpyGenerator, context: &Context, input: &mut String) -> Verdict {
    let directory = context
        .scratch
        .join(format!("experiment-{}", rng.random::<u32>()));
    let mut config = json!({
        "domain": pick(rng, &["GridWorld-4x5", "CartPole-v1", "MountainCar-v0", "nope"]),
        "agent": pick(rng, &["q-learning", "sarsa", "random", "x"]),
        "max_steps": rng.random_range(0..100),
        "num_policy_checks": rng.random_range(0..4),
        "checks_per_policy": rng.random_range(0..3),
        "runs": rng.random_range(0..3),
        "seed": interesting_u64(rng),
    });
    if rng.random_bool(0.3) {
        config["domain_params"] = parameter_object(rng, context);
    }
    if rng.random_bool(0.5) {
        mutate_value(rng, &mut config);
    }
    let config_text = config.to_string();
    let _ = write!(input, "config: {config_text}");
    let parsed: Result<ExperimentConfig, _> = serde_json::from_str(&config_text);
    let Ok(parsed) = parsed else {
        return Ok(());
    };
    if parsed.validate().is_err() {
        return Ok(());
    }
    // A run file as `rl run` finds it when resuming: valid, damaged or foreign.
    let Some(run_file) = context.run_file() else {
        return Ok(());
    };
    let mut value: Value = serde_json::from_str(run_file).map_err(|e| e.to_string())?;
    for _ in 0..rng.random_range(0..3) {
        mutate_value(rng, &mut value);
    }
    let text = if rng.random_bool(0.1) {
        mutate_text(rng, &value.to_string())
    } else {
        value.to_string()
    };
    let _ = write!(input, "\nrun file: {text}");
    let _ = std::fs::create_dir_all(&directory);
    let path = rl_experiment::results::run_path(&directory, 0);
    if std::fs::write(&path, &text).is_ok() {
        let _ = rl_experiment::results::read_run(&directory, 0, &parsed);
    }
    let _ = std::fs::remove_dir_all(&directory);
    Ok(())
}

/// A sweep file (`rl sweep`): a valid one with grids over domain and agent parameters,
/// damaged as JSON values or as text, parsed and expanded into its run list; the run list's
/// shares of a few shard counts must partition it.
fn sweep_file(rng: &mut NumpyGenerator, context: &Context, input: &mut String) -> Verdict {
    use rl_experiment::sweep::{Shard, SweepFile};
    // Mostly domains and agents that go together (tabular agents on GridWorld, tile coding on
    // the Gymnasium domains), sometimes not, and sometimes unknown names.
    let tabular = rng.random_bool(0.7);
    let domain = if tabular {
        pick(rng, &["GridWorld-4x5", "GridWorld-1x3", "GridWorld-2x3"])
    } else {
        pick(
            rng,
            &["CartPole-v1", "MountainCar-v0", "Acrobot-v1", "nope"],
        )
    };
    let agents: &[&str] = if tabular {
        &["q-learning", "sarsa", "random"]
    } else {
        &["linear-sarsa", "linear-q", "random"]
    };
    let first = if rng.random_bool(0.05) {
        "x"
    } else {
        pick(rng, agents)
    };
    let second = pick(rng, &agents[..2]);
    // A rate in (0, 1], or an edge value now and then.
    let rate = |rng: &mut NumpyGenerator| {
        if rng.random_bool(0.2) {
            interesting_f64(rng)
        } else {
            1.0 - rng.random::<f64>()
        }
    };
    let mut grid = serde_json::Map::new();
    if tabular && rng.random_bool(0.7) {
        grid.insert("noise".to_owned(), json!([0.0, rate(rng), 0.3]));
    }
    let mut file = json!({
        "domains": [{"id": domain, "grid": grid, "max_steps": rng.random_range(1..50)}],
        "agents": [
            first,
            {"name": second, "params": {"learning_rate": rate(rng)},
             "grid": {"epsilon": [0.1, rate(rng)]}},
        ],
        "max_steps": rng.random_range(1..100),
        "checks": rng.random_range(1..4),
        "checks_per_policy": rng.random_range(1..3),
        "runs": rng.random_range(1..5),
        "seed": if rng.random_bool(0.5) { json!(interesting_u64(rng)) } else { json!([1, 2, interesting_u64(rng)]) },
    });
    if rng.random_bool(0.1) {
        file["domains"][0]["params"] = parameter_object(rng, context);
    }
    // Half the files stay valid, so that expansion and sharding are reached.
    if rng.random_bool(0.5) {
        for _ in 0..rng.random_range(1..4) {
            mutate_value(rng, &mut file);
        }
    }
    let text = if rng.random_bool(0.1) {
        mutate_text(rng, &file.to_string())
    } else {
        file.to_string()
    };
    input.push_str(&text);
    let Ok(sweep) = SweepFile::parse(&text, "fuzz.json") else {
        return Ok(());
    };
    let Ok(plan) = sweep.expand("fuzz.json") else {
        return Ok(());
    };
    // Every run belongs to exactly one shard, whatever the shard count.
    let runs = plan.run_count();
    for count in [1, 2, 3, 7] {
        let mut owners = 0u64;
        for index in 0..count {
            let shard = Shard::new(index, count).map_err(|e| e.to_string())?;
            owners += (0..runs).filter(|run| shard.owns(*run)).count() as u64;
        }
        if owners != runs {
            return Err(format!("{count} shards own {owners} of {runs} runs"));
        }
    }
    Ok(())
}
