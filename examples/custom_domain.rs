//! A domain written outside the library, registered under an id, then used everywhere an id
//! works: built with JSON parameters, checked, stepped in a vector, and run by the `rl` command
//! line. Run it with `cargo run -p rl-examples --example custom_domain`; docs/custom-domain.md
//! explains each step with a domain of its own, in a crate of its own
//! (examples/custom-domain).

use std::num::NonZeroUsize;
use std::process::ExitCode;

use rl_core::rand::{Rng, RngExt};
use rl_core::registry::{self, PictureFormat, Registration};
use rl_core::{CheckConfig, CoreError, Domain, Mode, Render, TransitionOutcome, Value};
use rl_spaces::{AnyElement, Discrete, SpaceError};
use rl_wrappers::vector::{VectorOptions, make_vector};
use serde::Deserialize;

/// The id the example registers.
pub const CHAIN_ID: &str = "Chain-v0";

/// A chain of cells: the agent starts in the first and moves left (0) or right (1); with
/// probability `slip` it moves the other way. Each step costs -1; reaching the last cell
/// terminates the episode.
#[derive(Debug, Clone)]
pub struct Chain {
    params: ChainParams,
    observation_space: Discrete,
    action_space: Discrete,
}

/// The parameters of [`Chain`], read from JSON over the defaults.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChainParams {
    /// The number of cells (at least 2).
    pub length: u32,
    /// The probability of moving the other way, in [0, 1].
    pub slip: f64,
}

impl Default for ChainParams {
    fn default() -> Self {
        ChainParams {
            length: 5,
            slip: 0.1,
        }
    }
}

/// Why a [`Chain`] cannot be built.
#[derive(Debug)]
pub enum ChainError {
    /// The slip is not a probability.
    Slip(f64),
    /// Fewer than 2 cells.
    Length(u32),
    /// A space cannot be built.
    Space(SpaceError),
}

impl std::fmt::Display for ChainError {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChainError::Slip(slip) => write!(formatter, "invalid `slip` {slip}: not in [0, 1]"),
            ChainError::Length(length) => {
                write!(
                    formatter,
                    "invalid `length` {length}: a chain has at least 2 cells"
                )
            }
            ChainError::Space(error) => write!(formatter, "{error}"),
        }
    }
}

impl Chain {
    /// A chain with `params`, checked.
    pub fn new(params: ChainParams) -> Result<Chain, ChainError> {
        if !(0.0..=1.0).contains(&params.slip) {
            return Err(ChainError::Slip(params.slip));
        }
        if params.length < 2 {
            return Err(ChainError::Length(params.length));
        }
        Ok(Chain {
            observation_space: Discrete::new(u64::from(params.length))
                .map_err(ChainError::Space)?,
            action_space: Discrete::new(2).map_err(ChainError::Space)?,
            params,
        })
    }
}

impl Domain for Chain {
    type State = i64;
    type Observation = i64;
    type Action = i64;
    type ObservationSpace = Discrete;
    type ActionSpace = Discrete;

    fn observation_space(&self) -> &Discrete {
        &self.observation_space
    }

    fn action_space(&self) -> &Discrete {
        &self.action_space
    }

    fn initial_state<R: Rng + ?Sized>(&self, _mode: Mode, _rng: &mut R) -> i64 {
        0
    }

    fn step<R: Rng + ?Sized>(
        &self,
        state: &i64,
        action: &i64,
        _mode: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<i64> {
        let direction = if *action == 1 { 1 } else { -1 };
        let direction = if rng.random::<f64>() < self.params.slip {
            -direction
        } else {
            direction
        };
        let last = i64::from(self.params.length) - 1;
        let next = (state + direction).clamp(0, last);
        TransitionOutcome::new(next, Value::from_reward(-1.0), self.is_terminal(&next))
    }

    fn observe(&self, state: &i64) -> i64 {
        *state
    }

    fn is_terminal(&self, state: &i64) -> bool {
        *state == i64::from(self.params.length) - 1
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(100)
    }
}

impl Render for Chain {
    fn render_text(&self, state: &i64) -> String {
        (0..i64::from(self.params.length))
            .map(|cell| if cell == *state { 'A' } else { '.' })
            .collect()
    }

    fn render_svg(&self, state: &i64) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"20\">\
             <circle cx=\"{}\" cy=\"10\" r=\"8\"/></svg>",
            20 * self.params.length,
            20 * state + 10
        )
    }
}

/// Registers [`Chain`] under [`CHAIN_ID`], with pictures and the settings `rl run` reads.
pub fn register() -> Result<(), CoreError> {
    Registration::new(CHAIN_ID, "a chain walked to its end", Chain::new)
        .with_render()
        .with_settings(serde_json::json!({"agent": "q-learning", "max_steps": 2000}))
        .register()
}

fn main() -> Result<ExitCode, Box<dyn std::error::Error>> {
    register()?;

    // Built by id, with JSON parameters over the defaults.
    let mut env = registry::make(CHAIN_ID, Some(&serde_json::json!({"length": 8})))?;
    env.seed(3);
    println!("observations: {}", env.observation_space());

    // Checked and drawn by id.
    let chain = registry::build(CHAIN_ID, None)?;
    let report = chain.check(&CheckConfig::default());
    println!(
        "checker: {}",
        if report.is_ok() { "passed" } else { "failed" }
    );
    if let Some(picture) = chain.picture(0, PictureFormat::Text) {
        println!("initial state: {picture}");
    }

    // A vector of 4 built from the id, stepped right.
    let count = NonZeroUsize::new(4).ok_or("zero")?;
    let mut vector =
        make_vector::<AnyElement, f32>(CHAIN_ID, None, count, 11, VectorOptions::new())?;
    vector.reset(Mode::Training)?;
    vector.step(&vec![AnyElement::Int(1); 4])?;
    println!("vector rewards after one step: {:?}", vector.rewards());

    // The `rl` command line, with the built-ins and Chain-v0.
    rl_domains::register_builtins();
    Ok(rl_experiment::cli::main_with_args([
        "rl", "check", "--domain", CHAIN_ID,
    ]))
}
