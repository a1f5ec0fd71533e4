//! CliffWalking: Gymnasium 1.4.0's `CliffWalking-v1` and `CliffWalkingSlippery-v1`, as the
//! domain [`CliffWalking`] and its parameters ([`CliffWalkingParams`],
//! [`CliffWalkingSlipperyParams`]).
//!
//! [`CliffWalking`] is documented in the crate's domain template. Its transition table is
//! Gymnasium's `P` in a [`TransitionTable`], built in Gymnasium's order with Gymnasium's
//! probabilities (`1 / 1` or `1 / 3`), and sampled with Gymnasium's `categorical_sample`, so
//! that a seeded reset gives Gymnasium's trajectory (`testdata/reference/toy_text_tables.json`
//! and `seeded_toy_text.json` pin both).
//!
//! # Reference
//!
//! Gymnasium 1.4.0, `gymnasium/envs/toy_text/cliffwalking.py` and `utils.py`; the ids in
//! `gymnasium/envs/__init__.py`.

use rl_core::{Domain, EnumerableTransitions, Mode, Render, Transition};
use rl_spaces::Discrete;
use serde::{Deserialize, Deserializer, Serialize};

use super::tabular::{CellStyle, TableEntry, TransitionTable, grid_svg, tabular_domain_methods};
use crate::error::Error;
use crate::parameter_checks;

/// Gymnasium's action 0: move up.
pub const UP: i64 = 0;
/// Gymnasium's action 1: move right.
pub const RIGHT: i64 = 1;
/// Gymnasium's action 2: move down.
pub const DOWN: i64 = 2;
/// Gymnasium's action 3: move left.
pub const LEFT: i64 = 3;

/// The number of rows of the grid.
pub const ROWS: usize = 4;
/// The number of columns of the grid.
pub const COLS: usize = 12;
/// The start, row 3 and column 0: state `3 * 12 + 0 = 36`.
pub const START_STATE: i64 = 36;
/// The goal, row 3 and column 11: state 47.
pub const GOAL_STATE: i64 = 47;
/// The reward of every step that does not fall off the cliff.
pub const STEP_REWARD: f64 = -1.0;
/// The reward of a step into the cliff (which sends the agent back to the start).
pub const CLIFF_REWARD: f64 = -100.0;

/// The number of states.
const STATES: usize = ROWS * COLS;
/// The number of actions.
const ACTIONS: usize = 4;

/// Whether the cell at `row`, `col` is part of the cliff: row 3, columns 1 to 10.
pub fn is_cliff(row: usize, col: usize) -> bool {
    row == ROWS - 1 && (1..COLS - 1).contains(&col)
}

/// The parameters of CliffWalking, named as Gymnasium's keyword arguments; [`Default`] gives
/// Gymnasium 1.4.0's `CliffWalking-v1`, [`CliffWalkingParams::slippery`] its
/// `CliffWalkingSlippery-v1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CliffWalkingParams {
    /// Whether the agent may slip (`false`): with probability 1/3 each, it moves in the
    /// intended direction or in either perpendicular one.
    pub is_slippery: bool,
    /// The time limit of an episode, in steps, or `None` for none (`None`: Gymnasium
    /// registers both ids without `max_episode_steps`).
    pub max_episode_steps: Option<u64>,
}

impl CliffWalkingParams {
    /// Gymnasium's `CliffWalkingSlippery-v1`: `is_slippery` set, the rest as [`Default`].
    pub fn slippery() -> CliffWalkingParams {
        CliffWalkingParams {
            is_slippery: true,
            ..CliffWalkingParams::default()
        }
    }

    /// Checks that a time limit, if any, is at least 1.
    pub fn validate(&self) -> Result<(), Error> {
        match self.max_episode_steps {
            Some(steps) => parameter_checks::nonzero_steps("max_episode_steps", steps),
            None => Ok(()),
        }
    }
}

/// The parameters of `CliffWalkingSlippery-v1`: [`CliffWalkingParams`] whose defaults are
/// [`CliffWalkingParams::slippery`]. Read from JSON (or any serde format), every field left
/// out takes its slippery default, and an unknown field is an error, so that a registration
/// reading its parameters over `Default` gives Gymnasium's `CliffWalkingSlippery-v1`:
///
/// ```
/// use rl_domains::toy_text::cliff_walking::{CliffWalking, CliffWalkingSlipperyParams};
///
/// let params: CliffWalkingSlipperyParams = serde_json::from_str(r#"{"max_episode_steps": 50}"#)?;
/// assert!(params.0.is_slippery);
/// let domain = CliffWalking::new(params.into())?;
/// assert!(domain.params().is_slippery);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct CliffWalkingSlipperyParams(pub CliffWalkingParams);

impl Default for CliffWalkingSlipperyParams {
    fn default() -> Self {
        CliffWalkingSlipperyParams(CliffWalkingParams::slippery())
    }
}

impl From<CliffWalkingSlipperyParams> for CliffWalkingParams {
    fn from(params: CliffWalkingSlipperyParams) -> CliffWalkingParams {
        params.0
    }
}

impl<'de> Deserialize<'de> for CliffWalkingSlipperyParams {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        SlipperyFields::deserialize(deserializer).map(CliffWalkingSlipperyParams)
    }
}

/// The fields of [`CliffWalkingParams`] read over [`CliffWalkingParams::slippery`] (serde's
/// remote derivation: the compiler checks that the fields are exactly those of
/// [`CliffWalkingParams`]).
#[derive(Deserialize)]
#[serde(
    remote = "CliffWalkingParams",
    default = "CliffWalkingParams::slippery",
    deny_unknown_fields
)]
struct SlipperyFields {
    is_slippery: bool,
    max_episode_steps: Option<u64>,
}

/// CliffWalking: Gymnasium 1.4.0's `CliffWalking-v1` and `CliffWalkingSlippery-v1` as a
/// [`Domain`] (Sutton and Barto's Example 6.6).
///
#[doc = include_str!("cliff_walking.md")]
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_domains::toy_text::cliff_walking::{CliffWalking, CliffWalkingParams, RIGHT, START_STATE};
///
/// let mut env = Simulator::new(CliffWalking::new(CliffWalkingParams::default())?, 0);
/// env.seed(7);
/// assert_eq!(env.reset(Mode::Training)?, START_STATE);
/// // Right from the start is the cliff: back to the start, -100, the episode goes on.
/// let step = env.step(&RIGHT)?;
/// assert_eq!((step.observation, step.reward()), (START_STATE, -100.0));
/// assert!(!step.is_done());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct CliffWalking {
    params: CliffWalkingParams,
    table: TransitionTable,
    initial_distribution: Vec<f64>,
    observation_space: Discrete,
    action_space: Discrete,
}

impl CliffWalking {
    /// The domain with `params`, after [`CliffWalkingParams::validate`]: builds Gymnasium's
    /// table `P` and initial-state distribution.
    pub fn new(params: CliffWalkingParams) -> Result<CliffWalking, Error> {
        params.validate()?;
        let mut initial_distribution = vec![0.0; STATES];
        initial_distribution[START_STATE as usize] = 1.0;
        Ok(CliffWalking {
            params,
            table: cliff_table(params.is_slippery),
            initial_distribution,
            observation_space: Discrete::new(STATES as u64)?,
            action_space: Discrete::new(ACTIONS as u64)?,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &CliffWalkingParams {
        &self.params
    }

    /// Gymnasium's transition table `P`.
    pub fn table(&self) -> &TransitionTable {
        &self.table
    }

    /// Gymnasium's `initial_state_distrib`: 1 on the start (36), 0 elsewhere.
    pub fn initial_state_distribution(&self) -> &[f64] {
        &self.initial_distribution
    }
}

/// Gymnasium's `P`: `_calculate_transition_prob` for every state, then every move in the
/// order up, right, down, left.
fn cliff_table(is_slippery: bool) -> TransitionTable {
    // Gymnasium's `POSITION_MAPPING`: (row change, column change) of each action.
    const DELTAS: [(isize, isize); ACTIONS] = [(-1, 0), (0, 1), (1, 0), (0, -1)];
    TransitionTable::build(STATES, ACTIONS, |state, action, list| {
        let (row, col) = (state / COLS, state % COLS);
        let moves = if is_slippery {
            vec![(action + 3) % 4, action, (action + 1) % 4]
        } else {
            vec![action]
        };
        // Gymnasium's `1 / len(deltas)`.
        let probability = 1.0 / moves.len() as f64;
        for direction in moves {
            let (row_change, col_change) = DELTAS[direction];
            let row = row.saturating_add_signed(row_change).min(ROWS - 1);
            let col = col.saturating_add_signed(col_change).min(COLS - 1);
            list.push(if is_cliff(row, col) {
                TableEntry {
                    probability,
                    next_state: START_STATE,
                    reward: CLIFF_REWARD,
                    terminated: false,
                }
            } else {
                let next_state = (row * COLS + col) as i64;
                TableEntry {
                    probability,
                    next_state,
                    reward: STEP_REWARD,
                    terminated: next_state == GOAL_STATE,
                }
            });
        }
    })
}

impl Domain for CliffWalking {
    tabular_domain_methods!();

    /// The goal (47).
    fn is_terminal(&self, state: &i64) -> bool {
        *state == GOAL_STATE
    }

    fn episode_cap(&self) -> Option<u64> {
        self.params.max_episode_steps
    }
}

impl EnumerableTransitions for CliffWalking {
    /// Gymnasium's `P[state][action]` as listed: its order, duplicates kept (outcomes reaching
    /// the same cell appear separately), probabilities bit for bit. They are the distribution
    /// of [`Domain::step`] except for the rounding of their sum: when the running sum of the
    /// three thirds stays below a draw, `categorical_sample` picks the first entry.
    fn transitions(&self, state: &i64, action: &i64, _mode: Mode) -> Vec<Transition<i64>> {
        self.table.transitions(*state, *action)
    }
}

impl Render for CliffWalking {
    /// Gymnasium's `ansi` picture: one line per row, `x` for the agent, `T` for the goal, `C`
    /// for the cliff and `o` elsewhere, separated by two blanks, then an empty line.
    fn render_text(&self, state: &i64) -> String {
        let mut text = String::with_capacity(STATES * 3 + ROWS + 1);
        for index in 0..STATES {
            let (row, col) = (index / COLS, index % COLS);
            let symbol = if index as i64 == *state {
                'x'
            } else if index as i64 == GOAL_STATE {
                'T'
            } else if is_cliff(row, col) {
                'C'
            } else {
                'o'
            };
            if col > 0 {
                text.push_str("  ");
            }
            text.push(symbol);
            if col == COLS - 1 {
                text.push('\n');
            }
        }
        text.push('\n');
        text
    }

    /// One square per cell (class `cell` and the kind: `ground`, `cliff`, `start` or `goal`,
    /// with `data-row` and `data-col`), the letters `S` and `G`, and the agent as a circle
    /// (class `agent`) unless `state` lies outside the grid.
    fn render_svg(&self, state: &i64) -> String {
        let title = if self.params.is_slippery {
            "CliffWalking (slippery)"
        } else {
            "CliffWalking"
        };
        grid_svg(
            title,
            ROWS,
            COLS,
            |index| {
                if index as i64 == START_STATE {
                    CellStyle::new("start", "#e8dcc0", "S")
                } else if index as i64 == GOAL_STATE {
                    CellStyle::new("goal", "#2ca02c", "G")
                } else if is_cliff(index / COLS, index % COLS) {
                    CellStyle::new("cliff", "#6b4226", "")
                } else {
                    CellStyle::new("ground", "#e8dcc0", "")
                }
            },
            usize::try_from(*state).ok(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy_text::frozen_lake::tests::{check_tables, replay_traces};
    use rand::SeedableRng;
    use rl_core::{CheckConfig, NumpyGenerator, check_domain, check_transitions};
    use serde_json::{Value as Json, json};

    /// The params of a CliffWalking id with `kwargs` over the id's defaults, or `None` for
    /// another id.
    fn params_of(env_id: &str, kwargs: &Json) -> Option<CliffWalkingParams> {
        match env_id {
            "CliffWalking-v1" => Some(serde_json::from_value(kwargs.clone()).expect("params")),
            "CliffWalkingSlippery-v1" => Some(
                serde_json::from_value::<CliffWalkingSlipperyParams>(kwargs.clone())
                    .expect("params")
                    .into(),
            ),
            _ => None,
        }
    }

    #[test]
    fn tables_are_gymnasiums_bit_for_bit() {
        let (tables, entries, outcomes) = check_tables(|env_id, kwargs| {
            let domain = CliffWalking::new(params_of(env_id, kwargs)?).expect("valid");
            Some((
                domain.table().clone(),
                domain.initial_state_distribution().to_vec(),
            ))
        });
        assert_eq!(tables, 2, "CliffWalking-v1: default and slippery");
        println!("CliffWalking tables: {tables} tables, {entries} entries, {outcomes} outcomes");
        assert_eq!(entries, 2 * 134);
    }

    #[test]
    fn seeded_traces_replay_exactly() {
        let counts = replay_traces(|env_id, kwargs| {
            params_of(env_id, kwargs).map(|params| CliffWalking::new(params).expect("valid"))
        });
        println!("CliffWalking traces replayed: {counts:?}");
        for id in ["CliffWalking-v1", "CliffWalkingSlippery-v1"] {
            assert!(
                counts.get(id).is_some_and(|&(_, steps)| steps > 0),
                "{id}: {counts:?}"
            );
        }
    }

    #[test]
    fn the_checker_passes() {
        for params in [
            CliffWalkingParams::default(),
            CliffWalkingParams::slippery(),
            CliffWalkingParams {
                max_episode_steps: Some(50),
                ..CliffWalkingParams::slippery()
            },
        ] {
            let domain = CliffWalking::new(params).expect("valid");
            let config = CheckConfig::default();
            let report = check_domain(&domain, &config);
            assert!(report.is_ok(), "{params:?}: {report}");
            let report = check_transitions(&domain, &config);
            assert!(report.is_ok(), "{params:?}: {report}");
        }
    }

    #[test]
    fn defaults_and_ids() {
        let plain = CliffWalking::new(CliffWalkingParams::default()).expect("valid");
        assert!(!plain.params().is_slippery);
        assert_eq!(plain.episode_cap(), None);
        assert_eq!(plain.observation_space().to_string(), "Discrete(48)");
        let slippery =
            CliffWalking::new(CliffWalkingSlipperyParams::default().into()).expect("valid");
        assert!(slippery.params().is_slippery);
        assert_eq!(slippery.episode_cap(), None);
        let read: CliffWalkingSlipperyParams =
            serde_json::from_value(json!({"max_episode_steps": 10})).expect("valid");
        assert_eq!(
            read.0,
            CliffWalkingParams {
                is_slippery: true,
                max_episode_steps: Some(10),
            }
        );
        let read: CliffWalkingParams = serde_json::from_value(json!({})).expect("valid");
        assert_eq!(read, CliffWalkingParams::default());
        for parse in [
            serde_json::from_value::<CliffWalkingParams>(json!({"slippery": true})).err(),
            serde_json::from_value::<CliffWalkingSlipperyParams>(json!({"slippery": true})).err(),
        ] {
            assert!(parse.is_some_and(|e| e.to_string().contains("unknown field")));
        }
    }

    #[test]
    fn bad_parameters_are_errors_naming_the_field() {
        let params = CliffWalkingParams {
            max_episode_steps: Some(0),
            ..CliffWalkingParams::default()
        };
        assert!(params.validate().is_err());
        match CliffWalking::new(params) {
            Err(Error::InvalidParameter { parameter, .. }) => {
                assert_eq!(parameter, "max_episode_steps")
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn the_cliff_sends_back_to_the_start_and_only_the_goal_terminates() {
        let domain = CliffWalking::new(CliffWalkingParams::default()).expect("valid");
        let mut rng = NumpyGenerator::seed_from_u64(0);
        let outcome = domain.step(&START_STATE, &RIGHT, Mode::Training, &mut rng);
        assert_eq!(outcome.next_state, START_STATE);
        assert_eq!(outcome.value.reward(), CLIFF_REWARD);
        assert!(!outcome.terminated);
        let outcome = domain.step(&35, &DOWN, Mode::Training, &mut rng);
        assert_eq!(outcome.next_state, GOAL_STATE);
        assert_eq!(outcome.value.reward(), STEP_REWARD);
        assert!(outcome.terminated && domain.is_terminal(&GOAL_STATE));
        assert!(!domain.is_terminal(&START_STATE));
        // Into the border: stay, -1.
        let outcome = domain.step(&0, &UP, Mode::Training, &mut rng);
        assert_eq!(
            (outcome.next_state, outcome.value.reward()),
            (0, STEP_REWARD)
        );
        assert_eq!(domain.initial_state(Mode::Training, &mut rng), START_STATE);
        // Outside the table: stay, draw nothing.
        let before = rng.clone();
        let outcome = domain.step(&48, &UP, Mode::Training, &mut rng);
        assert_eq!((outcome.next_state, outcome.terminated), (48, false));
        assert_eq!(rng, before);
    }

    #[test]
    fn text_picture_is_gymnasiums_ansi() {
        let domain = CliffWalking::new(CliffWalkingParams::default()).expect("valid");
        // Gymnasium 1.4.0's `render()` in `ansi` mode after `reset(seed=0)`.
        let row = "o  o  o  o  o  o  o  o  o  o  o  o\n";
        let start = format!("{row}{row}{row}x  C  C  C  C  C  C  C  C  C  C  T\n\n");
        assert_eq!(domain.render_text(&START_STATE), start);
        let text = domain.render_text(&13);
        assert!(text.starts_with(&format!("{row}o  x  o")), "{text}");
        assert!(
            text.ends_with("o  C  C  C  C  C  C  C  C  C  C  T\n\n"),
            "{text}"
        );
    }

    #[test]
    fn svg_picture_shows_the_cliff_and_the_agent() {
        let domain = CliffWalking::new(CliffWalkingParams::slippery()).expect("valid");
        let svg = domain.render_svg(&START_STATE);
        assert_eq!(svg.matches(r#"class="cell "#).count(), 48);
        assert_eq!(svg.matches(r#"class="cell cliff""#).count(), 10);
        assert_eq!(svg.matches(r#"class="cell goal""#).count(), 1);
        assert_eq!(svg.matches(r#"class="agent""#).count(), 1);
        assert!(svg.contains("slippery"));
    }
}
