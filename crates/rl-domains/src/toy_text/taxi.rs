//! Taxi: Gymnasium 1.4.0's `Taxi-v4` (with its `is_rainy` and `fickle_passenger` variants),
//! as the domain [`Taxi`], its state [`TaxiState`] and Gymnasium's transition table `P`
//! ([`Taxi::table`], the [`TransitionTable`] shared by the tabular toy-text domains).
//!
//! [`Taxi`] is documented in the crate's domain template. This page adds how the table and
//! the draws reproduce Gymnasium.
//!
//! # Exactness
//!
//! [`Taxi::new`] builds `P` as `TaxiEnv.__init__` does: for every encoded state (Gymnasium's
//! loops over `row`, `col`, `passenger` and `destination` visit them in ascending order) and
//! action, the same entries in the same order (three per move when rainy, duplicates kept),
//! and the probabilities computed by the same float64 operations (`rainy_probability` and `(1.0 - rainy_probability) / 2.0`). The
//! initial-state distribution is `1.0` on each of the 300 starting states divided by their
//! sum, as `initial_state_distrib /= initial_state_distrib.sum()` computes it.
//!
//! A reset draws one `random()` for Gymnasium's `categorical_sample` over that distribution,
//! then, only with `fickle_passenger`, one more `random()` compared with
//! `fickle_probability`. A step draws one `random()` for `categorical_sample` over
//! `P[s][a]`, then, only when the fickle passenger changes their mind, one
//! `integers(0, 3)` (numpy's `choice` over the three other destinations). The tables of
//! `testdata/reference/toy_text_tables.json` and the seeded traces of
//! `seeded_toy_text.json` (observations, rewards, flags, `prob` and `action_mask`) replay
//! bit for bit.
//!
//! # Reference
//!
//! Gymnasium 1.4.0, `gymnasium/envs/toy_text/taxi.py` and `utils.py`; `Taxi-v4` is
//! registered in `gymnasium/envs/__init__.py` with `max_episode_steps=200`.

use std::fmt::Write as _;
use std::sync::Arc;

use rand::Rng;
use rl_core::numpy_random::{choice, random};
use rl_core::{
    Domain, EnumerableTransitions, Info, Mode, Render, Transition, TransitionOutcome, Value,
};
use rl_spaces::Discrete;
use serde::{Deserialize, Serialize};

use super::categorical_sample;
use super::tabular::{TableEntry, TransitionTable};
use crate::error::Error;
use crate::parameter_checks;
use crate::svg::{Svg, number};

/// Gymnasium's action 0: move south (down).
pub const SOUTH: i64 = 0;
/// Gymnasium's action 1: move north (up).
pub const NORTH: i64 = 1;
/// Gymnasium's action 2: move east (right).
pub const EAST: i64 = 2;
/// Gymnasium's action 3: move west (left).
pub const WEST: i64 = 3;
/// Gymnasium's action 4: pick the passenger up.
pub const PICKUP: i64 = 4;
/// Gymnasium's action 5: drop the passenger off.
pub const DROPOFF: i64 = 5;

/// The number of encoded states (Gymnasium's `Discrete(500)`).
pub const TAXI_STATE_COUNT: usize = 500;
/// The number of actions (Gymnasium's `Discrete(6)`).
pub const TAXI_ACTION_COUNT: usize = 6;
/// The number of rows and of columns of the grid.
pub const TAXI_GRID_SIZE: usize = 5;
/// The passenger location that means "in the taxi".
pub const IN_TAXI: usize = 4;

/// Gymnasium's `MAP`: the grid with its walls (`|`) and open sides (`:`); the taxi's cell
/// `(row, col)` is the character at line `1 + row`, column `2 * col + 1`.
pub const TAXI_MAP: [&str; 7] = [
    "+---------+",
    "|R: | : :G|",
    "| : | : : |",
    "| : : : : |",
    "| | : | : |",
    "|Y| : |B: |",
    "+---------+",
];

/// Gymnasium's `locs`: the cells `(row, col)` of the four pick-up and drop-off locations,
/// Red, Green, Yellow and Blue, indexed as passenger locations and destinations.
pub const TAXI_LOCATIONS: [(usize, usize); 4] = [(0, 0), (0, 4), (4, 0), (4, 3)];

/// The names of the actions in Gymnasium's text rendering, indexed by action.
pub const TAXI_ACTION_NAMES: [&str; TAXI_ACTION_COUNT] =
    ["South", "North", "East", "West", "Pickup", "Dropoff"];

/// The highest row and column index.
const MAX_INDEX: i64 = TAXI_GRID_SIZE as i64 - 1;

/// The character of Gymnasium's `desc[line, column]`, or a space outside the map.
fn map_char(line: i64, column: i64) -> u8 {
    let (Ok(line), Ok(column)) = (usize::try_from(line), usize::try_from(column)) else {
        return b' ';
    };
    TAXI_MAP
        .get(line)
        .and_then(|text| text.as_bytes().get(column))
        .copied()
        .unwrap_or(b' ')
}

/// Whether the taxi at `(row, col)` may move east: Gymnasium's
/// `desc[1 + row, 2 * col + 2] == b":"`.
fn open_to_the_east(row: i64, col: i64) -> bool {
    map_char(1 + row, 2 * col + 2) == b':'
}

/// Whether the taxi at `(row, col)` may move west: Gymnasium's
/// `desc[1 + row, 2 * col] == b":"`.
fn open_to_the_west(row: i64, col: i64) -> bool {
    map_char(1 + row, 2 * col) == b':'
}

/// The parameters of Taxi; [`Default`] gives Gymnasium 1.4.0's `Taxi-v4`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TaxiParams {
    /// Whether a move goes in the intended direction with probability `rainy_probability`
    /// and to either side with `(1 - rainy_probability) / 2` each (false).
    pub is_rainy: bool,
    /// Whether the passenger may change destination on the first move after the first
    /// pickup, with probability `fickle_probability` drawn at reset (false).
    pub fickle_passenger: bool,
    /// With `is_rainy`, the probability of moving in the intended direction (0.8).
    pub rainy_probability: f64,
    /// With `fickle_passenger`, the probability that the passenger is fickle (0.3).
    pub fickle_probability: f64,
    /// The time limit of an episode, in steps (200, `Taxi-v4`'s `max_episode_steps`).
    pub max_episode_steps: u64,
}

impl Default for TaxiParams {
    fn default() -> Self {
        TaxiParams {
            is_rainy: false,
            fickle_passenger: false,
            rainy_probability: 0.8,
            fickle_probability: 0.3,
            max_episode_steps: 200,
        }
    }
}

impl TaxiParams {
    /// Checks that both probabilities lie in `[0, 1]` and the time limit is at least 1.
    pub fn validate(&self) -> Result<(), Error> {
        parameter_checks::unit_interval("rainy_probability", self.rainy_probability)?;
        parameter_checks::unit_interval("fickle_probability", self.fickle_probability)?;
        parameter_checks::nonzero_steps("max_episode_steps", self.max_episode_steps)
    }
}

/// The four components of an encoded Taxi state (Gymnasium's `decode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TaxiComponents {
    /// The taxi's row, 0 (top) to 4.
    pub taxi_row: usize,
    /// The taxi's column, 0 (left) to 4.
    pub taxi_col: usize,
    /// Where the passenger is: a location of [`TAXI_LOCATIONS`] (0 to 3) or [`IN_TAXI`] (4).
    pub passenger: usize,
    /// The passenger's destination, a location of [`TAXI_LOCATIONS`] (0 to 3).
    pub destination: usize,
}

impl TaxiComponents {
    /// Gymnasium's `decode(index)`, or `None` outside `0..500`.
    pub fn decode(index: i64) -> Option<TaxiComponents> {
        let index = usize::try_from(index)
            .ok()
            .filter(|&index| index < TAXI_STATE_COUNT)?;
        Some(TaxiComponents {
            taxi_row: index / 100,
            taxi_col: index / 20 % 5,
            passenger: index / 4 % 5,
            destination: index % 4,
        })
    }

    /// Gymnasium's `encode(taxi_row, taxi_col, passenger, destination)`:
    /// `((taxi_row * 5 + taxi_col) * 5 + passenger) * 4 + destination`, or `None` when a
    /// component is out of range.
    pub fn encode(&self) -> Option<i64> {
        let in_range = self.taxi_row < TAXI_GRID_SIZE
            && self.taxi_col < TAXI_GRID_SIZE
            && self.passenger <= IN_TAXI
            && self.destination < TAXI_LOCATIONS.len();
        in_range.then(|| {
            let index =
                ((self.taxi_row * 5 + self.taxi_col) * 5 + self.passenger) * 4 + self.destination;
            index as i64
        })
    }

    /// The taxi's cell `(row, col)`.
    pub fn taxi(&self) -> (usize, usize) {
        (self.taxi_row, self.taxi_col)
    }

    /// Whether the passenger is at their destination: a terminal state.
    pub fn is_delivered(&self) -> bool {
        self.passenger == self.destination
    }

    /// Gymnasium's `action_mask(state)`: whether each action changes the state. Moves stay
    /// inside the grid and do not cross a wall; pickup needs the taxi at the waiting
    /// passenger; dropoff needs the passenger in the taxi and the taxi at one of the four
    /// locations.
    pub fn action_mask(&self) -> [bool; TAXI_ACTION_COUNT] {
        let (row, col) = (self.taxi_row as i64, self.taxi_col as i64);
        let taxi = self.taxi();
        [
            row < MAX_INDEX,
            row > 0,
            col < MAX_INDEX && open_to_the_east(row, col),
            col > 0 && open_to_the_west(row, col),
            self.passenger < IN_TAXI && TAXI_LOCATIONS[self.passenger] == taxi,
            self.passenger == IN_TAXI
                && (TAXI_LOCATIONS.get(self.destination) == Some(&taxi)
                    || TAXI_LOCATIONS.contains(&taxi)),
        ]
    }
}

/// The state of Taxi: Gymnasium's encoded state `s` and, for `fickle_passenger`, its
/// `fickle_step` flag (whether the passenger will still change their mind on the first
/// move with them on board).
///
/// It reads and writes as JSON as `{"index": 328, "fickle_step": false}`; reading checks
/// that the index lies in `0..500` (`fickle_step` may be left out, meaning false).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "TaxiStateFields", into = "TaxiStateFields")]
pub struct TaxiState {
    index: u16,
    fickle_step: bool,
}

/// The serde form of [`TaxiState`], checked when read.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TaxiStateFields {
    index: i64,
    #[serde(default)]
    fickle_step: bool,
}

impl TryFrom<TaxiStateFields> for TaxiState {
    type Error = Error;

    fn try_from(fields: TaxiStateFields) -> Result<TaxiState, Error> {
        TaxiState::new(fields.index, fields.fickle_step)
    }
}

impl From<TaxiState> for TaxiStateFields {
    fn from(state: TaxiState) -> TaxiStateFields {
        TaxiStateFields {
            index: state.index(),
            fickle_step: state.fickle_step,
        }
    }
}

impl TaxiState {
    /// The state with Gymnasium's encoded state `index` (in `0..500`) and the flag
    /// `fickle_step`.
    pub fn new(index: i64, fickle_step: bool) -> Result<TaxiState, Error> {
        match u16::try_from(index) {
            Ok(index) if usize::from(index) < TAXI_STATE_COUNT => {
                Ok(TaxiState { index, fickle_step })
            }
            _ => Err(Error::InvalidParameter {
                parameter: "index",
                reason: format!("a Taxi state is encoded in 0..500, got {index}"),
            }),
        }
    }

    /// Gymnasium's encoded state, the observation.
    #[inline]
    pub fn index(&self) -> i64 {
        i64::from(self.index)
    }

    /// Gymnasium's `fickle_step`: whether the passenger will change destination on the
    /// first move with them on board (always false without `fickle_passenger`).
    #[inline]
    pub fn fickle_step(&self) -> bool {
        self.fickle_step
    }

    /// The taxi's cell, the passenger's location and the destination.
    #[inline]
    pub fn components(&self) -> TaxiComponents {
        let index = usize::from(self.index);
        TaxiComponents {
            taxi_row: index / 100,
            taxi_col: index / 20 % 5,
            passenger: index / 4 % 5,
            destination: index % 4,
        }
    }
}

/// Gymnasium's `P` as a [`TransitionTable`]: for each encoded state and action in ascending
/// order (the order of Gymnasium's loops over row, column, passenger and destination), the
/// entries its `_build_dry_transitions` or `_build_rainy_transitions` appends.
fn build_table(params: &TaxiParams) -> TransitionTable {
    TransitionTable::build(
        TAXI_STATE_COUNT,
        TAXI_ACTION_COUNT,
        |state, action, entries| {
            let components = TaxiState {
                index: state as u16,
                fickle_step: false,
            }
            .components();
            if params.is_rainy {
                rainy_outcomes(params, components, action, entries);
            } else {
                entries.push(dry_outcome(components, action));
            }
        },
    )
}

/// Gymnasium's `initial_state_distrib`: 1 on each state where the passenger waits at a
/// location other than the destination, divided by the sum (exactly 300, whatever NumPy's
/// summation order).
fn initial_distribution() -> Vec<f64> {
    let mut distribution: Vec<f64> = (0..TAXI_STATE_COUNT as i64)
        .map(|state| match TaxiComponents::decode(state) {
            Some(c) if c.passenger < IN_TAXI && c.passenger != c.destination => 1.0,
            _ => 0.0,
        })
        .collect();
    let total: f64 = distribution.iter().sum();
    for probability in &mut distribution {
        *probability /= total;
    }
    distribution
}

/// Gymnasium's `_pickup`: the passenger's new location and the reward.
fn pickup(taxi: (usize, usize), passenger: usize, reward: f64) -> (usize, f64) {
    if passenger < IN_TAXI && TAXI_LOCATIONS[passenger] == taxi {
        (IN_TAXI, reward)
    } else {
        (passenger, -10.0)
    }
}

/// Gymnasium's `_dropoff`: the passenger's new location, the reward and whether the
/// episode ends.
fn dropoff(
    taxi: (usize, usize),
    passenger: usize,
    destination: usize,
    default_reward: f64,
) -> (usize, f64, bool) {
    if taxi == TAXI_LOCATIONS[destination] && passenger == IN_TAXI {
        (destination, 20.0, true)
    } else if let Some(location) = TAXI_LOCATIONS
        .iter()
        .position(|&location| location == taxi)
        .filter(|_| passenger == IN_TAXI)
    {
        (location, default_reward, false)
    } else {
        (passenger, -10.0, false)
    }
}

/// The encoded state of a cell given as signed row and column (both in range).
fn encode_cell(row: i64, col: i64, passenger: usize, destination: usize) -> i64 {
    ((row * 5 + col) * 5 + passenger as i64) * 4 + destination as i64
}

/// Gymnasium's `_build_dry_transitions`: the one entry of `P[s][a]` without rain.
fn dry_outcome(components: TaxiComponents, action: usize) -> TableEntry {
    let TaxiComponents {
        passenger,
        destination,
        ..
    } = components;
    let (row, col) = (components.taxi_row as i64, components.taxi_col as i64);
    let (mut new_row, mut new_col, mut new_passenger) = (row, col, passenger);
    let mut reward = -1.0;
    let mut terminated = false;
    match action {
        0 => new_row = (row + 1).min(MAX_INDEX),
        1 => new_row = (row - 1).max(0),
        _ => {}
    }
    if action == 2 && open_to_the_east(row, col) {
        new_col = (col + 1).min(MAX_INDEX);
    } else if action == 3 && open_to_the_west(row, col) {
        new_col = (col - 1).max(0);
    } else if action == 4 {
        (new_passenger, reward) = pickup(components.taxi(), new_passenger, reward);
    } else if action == 5 {
        (new_passenger, reward, terminated) =
            dropoff(components.taxi(), new_passenger, destination, reward);
    }
    TableEntry {
        probability: 1.0,
        next_state: encode_cell(new_row, new_col, new_passenger, destination),
        reward,
        terminated,
    }
}

/// The moves `(row change, column change)` of each move action: forward, its left and its
/// right (Gymnasium's `moves` of `_build_rainy_transitions`).
const RAINY_MOVES: [[(i64, i64); 3]; 4] = [
    [(1, 0), (0, 1), (0, -1)],
    [(-1, 0), (0, -1), (0, 1)],
    [(0, 1), (-1, 0), (1, 0)],
    [(0, -1), (1, 0), (-1, 0)],
];

/// Gymnasium's `_calc_new_position`: the cell after `movement`, clamped to the grid, or
/// the same cell when a wall blocks a move east or west.
fn lateral_position(row: i64, col: i64, (row_change, col_change): (i64, i64)) -> (i64, i64) {
    let new_row = (row + row_change).clamp(0, MAX_INDEX);
    let new_col = (col + col_change).clamp(0, MAX_INDEX);
    if col_change == 1 && map_char(1 + new_row, 2 * new_col) != b':' {
        return (row, col);
    }
    if col_change == -1 && map_char(1 + new_row, 2 * new_col + 2) != b':' {
        return (row, col);
    }
    (new_row, new_col)
}

/// Gymnasium's `_build_rainy_transitions`: the entries of `P[s][a]` in the rain, three for
/// a move (intended, left, right), one for pickup and dropoff.
fn rainy_outcomes(
    params: &TaxiParams,
    components: TaxiComponents,
    action: usize,
    outcomes: &mut Vec<TableEntry>,
) {
    let TaxiComponents {
        passenger,
        destination,
        ..
    } = components;
    let (row, col) = (components.taxi_row as i64, components.taxi_col as i64);
    let (mut left, mut right) = ((row, col), (row, col));
    let (mut new_row, mut new_col, mut new_passenger) = (row, col, passenger);
    let mut reward = -1.0;
    let mut terminated = false;
    let primary_possible = (action == 0 && row < MAX_INDEX)
        || (action == 1 && row > 0)
        || (action == 2 && open_to_the_east(row, col))
        || (action == 3 && open_to_the_west(row, col));
    if primary_possible {
        let [forward, to_the_left, to_the_right] = RAINY_MOVES[action];
        new_row = (row + forward.0).clamp(0, MAX_INDEX);
        new_col = (col + forward.1).clamp(0, MAX_INDEX);
        left = lateral_position(row, col, to_the_left);
        right = lateral_position(row, col, to_the_right);
    } else if action == 4 {
        (new_passenger, reward) = pickup(components.taxi(), new_passenger, reward);
    } else if action == 5 {
        (new_passenger, reward, terminated) =
            dropoff(components.taxi(), new_passenger, destination, reward);
    }
    let intended = encode_cell(new_row, new_col, new_passenger, destination);
    if action <= 3 {
        let lateral_probability = (1.0 - params.rainy_probability) / 2.0;
        for (probability, (row, col)) in [
            (params.rainy_probability, (new_row, new_col)),
            (lateral_probability, left),
            (lateral_probability, right),
        ] {
            outcomes.push(TableEntry {
                probability,
                next_state: encode_cell(row, col, new_passenger, destination),
                reward: -1.0,
                terminated,
            });
        }
    } else {
        outcomes.push(TableEntry {
            probability: 1.0,
            next_state: intended,
            reward,
            terminated,
        });
    }
}

/// Taxi: Gymnasium 1.4.0's `Taxi-v4` as a [`Domain`] with enumerable transitions.
///
#[doc = include_str!("taxi.md")]
///
/// ```
/// use rl_core::{Domain, Environment, Mode, Simulator};
/// use rl_domains::toy_text::taxi::{Taxi, TaxiComponents, TaxiParams, PICKUP};
///
/// let mut env = Simulator::new(Taxi::new(TaxiParams::default())?, 7);
/// let first = env.reset(Mode::Training)?;
/// let start = TaxiComponents::decode(first).expect("an encoded state");
/// assert!(start.passenger < 4 && start.passenger != start.destination);
/// // Picking up where there is no passenger costs 10.
/// if !start.action_mask()[PICKUP as usize] {
///     let outcome = env.step(&PICKUP)?;
///     assert_eq!(outcome.reward(), -10.0);
///     assert_eq!(outcome.info.get("prob"), Some(&rl_core::InfoValue::Float(1.0)));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Taxi {
    params: TaxiParams,
    /// Gymnasium's `P`, shared by the clones of the domain (it holds 3,000 to 7,000 entries).
    table: Arc<TransitionTable>,
    /// Gymnasium's `initial_state_distrib`.
    initial_distribution: Arc<[f64]>,
    /// Gymnasium's `action_mask(s)` of every encoded state, computed once: the vectors ask
    /// for every environment's mask at every step.
    masks: Arc<[[bool; TAXI_ACTION_COUNT]]>,
    observation_space: Discrete,
    action_space: Discrete,
}

impl Taxi {
    /// The domain with `params`, after [`TaxiParams::validate`]; builds Gymnasium's `P`.
    pub fn new(params: TaxiParams) -> Result<Taxi, Error> {
        params.validate()?;
        let table = Arc::new(build_table(&params));
        Ok(Taxi {
            params,
            table,
            initial_distribution: initial_distribution().into(),
            masks: (0..TAXI_STATE_COUNT)
                .map(|index| {
                    let state = TaxiState {
                        index: index as u16,
                        fickle_step: false,
                    };
                    state.components().action_mask()
                })
                .collect(),
            observation_space: Discrete::new(TAXI_STATE_COUNT as u64)?,
            action_space: Discrete::new(TAXI_ACTION_COUNT as u64)?,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &TaxiParams {
        &self.params
    }

    /// Gymnasium's transition table `P`: [`TransitionTable::outcomes`]`(state, action)` is
    /// `P[state][action]` in Gymnasium's order, encoded states as states.
    pub fn table(&self) -> &TransitionTable {
        &self.table
    }

    /// Gymnasium's `initial_state_distrib`: 1/300 on each of the 300 starting states, 0
    /// elsewhere, indexed by encoded state.
    pub fn initial_state_distribution(&self) -> &[f64] {
        &self.initial_distribution
    }

    /// Gymnasium's fickle rule: whether the step from `state` to the entry reaching
    /// `reached` is the one where the passenger changes their mind.
    fn changes_mind(&self, state: &TaxiState, reached: &TaxiComponents) -> bool {
        let before = state.components();
        self.params.fickle_passenger
            && state.fickle_step
            && before.passenger == IN_TAXI
            && reached.taxi() != before.taxi()
    }

    /// The destinations other than `destination`, in ascending order (Gymnasium's
    /// `possible_destinations`).
    fn other_destinations(destination: usize) -> [usize; 3] {
        let mut others = [0; 3];
        let candidates = (0..TAXI_LOCATIONS.len()).filter(|&d| d != destination);
        for (slot, candidate) in others.iter_mut().zip(candidates) {
            *slot = candidate;
        }
        others
    }

    /// The state reached by `outcome` with the destination changed to `destination`.
    fn redirected(reached: TaxiComponents, destination: usize) -> TaxiState {
        let index = TaxiComponents {
            destination,
            ..reached
        }
        .encode()
        .unwrap_or(0);
        TaxiState {
            index: index as u16,
            fickle_step: false,
        }
    }

    /// The state an entry of `P` reaches, keeping `fickle_step`.
    fn reached(state: &TaxiState, outcome: &TableEntry) -> TaxiState {
        TaxiState {
            index: outcome.next_state as u16,
            fickle_step: state.fickle_step,
        }
    }

    /// Gymnasium's `action_mask(s)` of `state`, from the masks computed once.
    #[inline]
    fn mask(&self, state: &TaxiState) -> [bool; TAXI_ACTION_COUNT] {
        self.masks
            .get(usize::from(state.index))
            .copied()
            .unwrap_or_else(|| state.components().action_mask())
    }

    /// The action as an index of `P[s]`, or `None` outside `0..6`.
    fn action_index(action: i64) -> Option<usize> {
        usize::try_from(action)
            .ok()
            .filter(|&a| a < TAXI_ACTION_COUNT)
    }
}

impl Domain for Taxi {
    type State = TaxiState;
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

    /// Gymnasium's `reset`: `categorical_sample(initial_state_distrib)`, then with
    /// `fickle_passenger` one `random() < fickle_probability`.
    fn initial_state<R: Rng + ?Sized>(&self, _mode: Mode, rng: &mut R) -> TaxiState {
        let index = categorical_sample(self.initial_distribution.iter().copied(), rng);
        let fickle_step =
            self.params.fickle_passenger && random(rng) < self.params.fickle_probability;
        TaxiState {
            index: index as u16,
            fickle_step,
        }
    }

    /// Gymnasium's `step`: `categorical_sample(P[s][a])`, then the fickle passenger's
    /// change of destination (one `integers(0, 3)`). `info["prob"]` is the entry's
    /// probability. An action outside `Discrete(6)` (which the simulator never passes)
    /// leaves the state unchanged, with reward 0, not terminated, `prob` 1 and nothing drawn
    /// (as the other tabular toy-text domains outside their tables).
    #[inline]
    fn step<R: Rng + ?Sized>(
        &self,
        state: &TaxiState,
        action: &i64,
        _mode: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<TaxiState> {
        let Some(outcome) = self.table.sample(state.index(), *action, rng) else {
            let mut stay = TransitionOutcome::new(*state, Value::ZERO, false);
            stay.info.insert_static("prob", 1.0);
            return stay;
        };
        let mut next_state = Taxi::reached(state, &outcome);
        let reached = next_state.components();
        if self.changes_mind(state, &reached) {
            let others = Taxi::other_destinations(state.components().destination);
            let pick = choice(rng, others.len()).unwrap_or(0);
            next_state = Taxi::redirected(reached, others[pick]);
        }
        let mut result = TransitionOutcome::new(
            next_state,
            Value::from_reward(outcome.reward),
            outcome.terminated,
        );
        result.info.insert_static("prob", outcome.probability);
        result
    }

    #[inline]
    fn observe(&self, state: &TaxiState) -> i64 {
        state.index()
    }

    /// The passenger is at the destination.
    /// Gymnasium's reset info, `{"prob": 1.0}` (beside the action mask, which the vectors
    /// and the Python package add where asked; inline: no allocation).
    fn reset_info(&self, _state: &TaxiState) -> Info {
        let mut info = Info::new();
        info.insert_static("prob", 1.0);
        info
    }

    fn is_terminal(&self, state: &TaxiState) -> bool {
        state.components().is_delivered()
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(self.params.max_episode_steps)
    }

    /// Gymnasium's `action_mask(state)`.
    fn is_applicable(&self, state: &TaxiState, action: &i64) -> bool {
        Taxi::action_index(*action).is_some_and(|action| self.mask(state)[action])
    }

    /// Gymnasium's `action_mask(state)` in one pass (what `is_applicable` gives action by
    /// action).
    fn action_mask_into(&self, state: &TaxiState, mask: &mut [bool]) -> bool {
        match <&mut [bool; TAXI_ACTION_COUNT]>::try_from(mask) {
            Ok(mask) => {
                *mask = self.mask(state);
                true
            }
            Err(_) => false,
        }
    }

    /// 500 encoded states; 1000 with `fickle_passenger` (each with and without
    /// `fickle_step`).
    fn state_count(&self) -> Option<usize> {
        Some(TAXI_STATE_COUNT * if self.params.fickle_passenger { 2 } else { 1 })
    }
}

impl EnumerableTransitions for Taxi {
    /// The entries of `P[s][a]` in Gymnasium's order (duplicates kept), each reaching its
    /// state with `fickle_step` unchanged; an entry where the fickle passenger changes their
    /// mind becomes three, one per other destination in ascending order, with a third of its
    /// probability each and `fickle_step` cleared.
    fn transitions(
        &self,
        state: &TaxiState,
        action: &i64,
        _mode: Mode,
    ) -> Vec<Transition<TaxiState>> {
        let Some(outcomes) = self.table.outcomes(state.index(), *action) else {
            return vec![Transition {
                probability: 1.0,
                next_state: *state,
                value: Value::ZERO,
                terminated: false,
            }];
        };
        let mut transitions = Vec::with_capacity(3);
        for outcome in outcomes {
            let next_state = Taxi::reached(state, outcome);
            let reached = next_state.components();
            let value = Value::from_reward(outcome.reward);
            if self.changes_mind(state, &reached) {
                let others = Taxi::other_destinations(state.components().destination);
                for destination in others {
                    transitions.push(Transition {
                        probability: outcome.probability / 3.0,
                        next_state: Taxi::redirected(reached, destination),
                        value,
                        terminated: outcome.terminated,
                    });
                }
            } else {
                transitions.push(Transition {
                    probability: outcome.probability,
                    next_state,
                    value,
                    terminated: outcome.terminated,
                });
            }
        }
        transitions
    }
}

/// Gymnasium's `utils.colorize`: `string` between the terminal codes of `color` (30 gray to
/// 38 crimson; plus 10 when highlighted) and bold.
fn colorize(string: &str, color: u8, bold: bool, highlight: bool) -> String {
    let code = if highlight { color + 10 } else { color };
    let bold = if bold { ";1" } else { "" };
    format!("\x1b[{code}{bold}m{string}\x1b[0m")
}

/// The terminal colour codes Gymnasium's Taxi uses.
const GREEN: u8 = 32;
const YELLOW: u8 = 33;
const BLUE: u8 = 34;
const MAGENTA: u8 = 35;

impl Render for Taxi {
    /// Gymnasium's `ansi` rendering, terminal colour codes included: the map with the taxi
    /// highlighted yellow (green with the passenger on board, an empty cell then drawn `_`),
    /// the waiting passenger's location in bold blue and the destination in magenta, then an
    /// empty line (Gymnasium's line after a reset, where no action has been taken).
    fn render_text(&self, state: &TaxiState) -> String {
        let components = state.components();
        let mut cells: Vec<Vec<String>> = TAXI_MAP
            .iter()
            .map(|line| line.chars().map(String::from).collect())
            .collect();
        let (taxi_row, taxi_col) = components.taxi();
        let taxi_cell = &mut cells[1 + taxi_row][2 * taxi_col + 1];
        if components.passenger < IN_TAXI {
            *taxi_cell = colorize(taxi_cell, YELLOW, false, true);
            let (row, col) = TAXI_LOCATIONS[components.passenger];
            let cell = &mut cells[1 + row][2 * col + 1];
            *cell = colorize(cell, BLUE, true, false);
        } else {
            let shown = if taxi_cell == " " {
                "_"
            } else {
                taxi_cell.as_str()
            };
            *taxi_cell = colorize(shown, GREEN, false, true);
        }
        let (row, col) = TAXI_LOCATIONS[components.destination];
        let cell = &mut cells[1 + row][2 * col + 1];
        *cell = colorize(cell, MAGENTA, false, false);
        let mut text = cells
            .iter()
            .map(|line| line.concat())
            .collect::<Vec<_>>()
            .join("\n");
        text.push_str("\n\n");
        text
    }

    /// The grid (`cell`), its walls (`wall`), the four locations with their letters
    /// (`location`, the destination also `destination`), the waiting passenger
    /// (`passenger`) and the taxi (`taxi`, `taxi full` with the passenger on board), with
    /// the encoded state as a caption.
    fn render_svg(&self, state: &TaxiState) -> String {
        const CELL: f64 = 80.0;
        const MARGIN: f64 = 20.0;
        const CAPTION: f64 = 40.0;
        let size = CELL * TAXI_GRID_SIZE as f64;
        let components = state.components();
        let mut svg = Svg::new(size + 2.0 * MARGIN, size + 2.0 * MARGIN + CAPTION, "Taxi");
        let x = |col: usize| MARGIN + CELL * col as f64;
        let y = |row: usize| MARGIN + CELL * row as f64;
        const COLORS: [&str; 4] = ["#e03030", "#30b030", "#d0c020", "#3050e0"];
        const LETTERS: [&str; 4] = ["R", "G", "Y", "B"];
        for row in 0..TAXI_GRID_SIZE {
            for col in 0..TAXI_GRID_SIZE {
                let location = TAXI_LOCATIONS.iter().position(|&l| l == (row, col));
                let (class, fill) = match location {
                    Some(index) if index == components.destination => {
                        ("cell location destination", COLORS[index])
                    }
                    Some(index) => ("cell location", COLORS[index]),
                    None => ("cell", "#f4f4ee"),
                };
                svg.element(
                    "rect",
                    class,
                    &[
                        ("x", number(x(col))),
                        ("y", number(y(row))),
                        ("width", number(CELL)),
                        ("height", number(CELL)),
                        ("fill", fill.to_owned()),
                        ("fill-opacity", "0.35".to_owned()),
                        ("stroke", "#bbbbbb".to_owned()),
                    ],
                );
                if let Some(index) = location {
                    let mut label = LETTERS[index].to_owned();
                    if index == components.destination {
                        label.push_str(" (destination)");
                    }
                    svg.text(
                        "location-label",
                        &[
                            ("x", number(x(col) + 6.0)),
                            ("y", number(y(row) + 16.0)),
                            ("font-size", "13".to_owned()),
                        ],
                        &label,
                    );
                }
            }
        }
        // Walls: a `|` between two cells of a row blocks the move between them.
        for row in 0..TAXI_GRID_SIZE {
            for col in 0..TAXI_GRID_SIZE - 1 {
                if !open_to_the_east(row as i64, col as i64) {
                    svg.element(
                        "line",
                        "wall",
                        &[
                            ("x1", number(x(col + 1))),
                            ("y1", number(y(row))),
                            ("x2", number(x(col + 1))),
                            ("y2", number(y(row + 1))),
                            ("stroke", "#000000".to_owned()),
                            ("stroke-width", "6".to_owned()),
                        ],
                    );
                }
            }
        }
        svg.element(
            "rect",
            "border",
            &[
                ("x", number(MARGIN)),
                ("y", number(MARGIN)),
                ("width", number(size)),
                ("height", number(size)),
                ("fill", "none".to_owned()),
                ("stroke", "#000000".to_owned()),
                ("stroke-width", "6".to_owned()),
            ],
        );
        if components.passenger < IN_TAXI {
            let (row, col) = TAXI_LOCATIONS[components.passenger];
            svg.element(
                "circle",
                "passenger",
                &[
                    ("cx", number(x(col) + CELL * 0.7)),
                    ("cy", number(y(row) + CELL * 0.7)),
                    ("r", number(CELL * 0.15)),
                    ("fill", "#2040c0".to_owned()),
                ],
            );
        }
        let (row, col) = components.taxi();
        let (class, fill) = if components.passenger == IN_TAXI {
            ("taxi full", "#30a030")
        } else {
            ("taxi", "#f0c000")
        };
        svg.element(
            "rect",
            class,
            &[
                ("x", number(x(col) + CELL * 0.2)),
                ("y", number(y(row) + CELL * 0.3)),
                ("width", number(CELL * 0.6)),
                ("height", number(CELL * 0.4)),
                ("rx", number(CELL * 0.08)),
                ("fill", fill.to_owned()),
                ("stroke", "#000000".to_owned()),
            ],
        );
        let mut caption = format!(
            "state {}: taxi at ({row}, {col}), passenger {}, destination {}",
            state.index(),
            if components.passenger == IN_TAXI {
                "in the taxi"
            } else {
                LETTERS[components.passenger]
            },
            LETTERS[components.destination]
        );
        if state.fickle_step {
            let _ = write!(caption, ", fickle");
        }
        svg.text(
            "caption",
            &[
                ("x", number(MARGIN)),
                ("y", number(size + 2.0 * MARGIN + 20.0)),
            ],
            &caption,
        );
        svg.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rl_core::{
        CheckConfig, Environment, NumpyGenerator, Simulator, check_domain, check_transitions,
    };
    use serde_json::Value as Json;

    fn reference(name: &str) -> Json {
        let path = format!(
            "{}/../../testdata/reference/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// The parameters of Gymnasium's `make_kwargs` (an object, or a JSON string of one).
    fn params_of(make_kwargs: &Json) -> TaxiParams {
        let kwargs = match make_kwargs {
            Json::String(text) => serde_json::from_str(text).expect("make_kwargs as JSON"),
            other => other.clone(),
        };
        serde_json::from_value(kwargs).expect("Taxi parameters")
    }

    #[test]
    fn tables_are_gymnasiums_bit_for_bit() {
        let file = reference("toy_text_tables.json");
        let tables = file["tables"].as_array().expect("tables");
        let mut checked_variants = Vec::new();
        let mut checked_entries = 0;
        for table in tables.iter().filter(|t| t["env_id"] == "Taxi-v4") {
            let params = params_of(&table["make_kwargs"]);
            let taxi = Taxi::new(params.clone()).expect("valid");
            assert_eq!(table["num_states"], 500);
            assert_eq!(table["num_actions"], 6);
            let initial = table["initial_state_distribution"]
                .as_array()
                .expect("list");
            assert_eq!(initial.len(), 500);
            for (ours, theirs) in taxi.initial_state_distribution().iter().zip(initial) {
                assert_eq!(ours.to_bits(), theirs.as_f64().expect("float").to_bits());
            }
            for entry in table["entries"].as_array().expect("entries") {
                let state = entry["state"].as_i64().expect("state");
                let action = entry["action"].as_i64().expect("action");
                let ours = taxi.table().outcomes(state, action).expect("in range");
                let theirs = entry["outcomes"].as_array().expect("outcomes");
                assert_eq!(ours.len(), theirs.len(), "P[{state}][{action}]");
                for (ours, theirs) in ours.iter().zip(theirs) {
                    let context = format!("P[{state}][{action}] of {params:?}");
                    assert_eq!(
                        ours.probability.to_bits(),
                        theirs["p"].as_f64().expect("p").to_bits(),
                        "{context}"
                    );
                    assert_eq!(ours.next_state, theirs["next_state"], "{context}");
                    assert_eq!(
                        ours.reward.to_bits(),
                        theirs["reward"].as_f64().expect("reward").to_bits(),
                        "{context}"
                    );
                    assert_eq!(ours.terminated, theirs["terminated"], "{context}");
                }
                checked_entries += 1;
            }
            checked_variants.push((params.is_rainy, params.fickle_passenger));
        }
        checked_variants.sort_unstable();
        assert_eq!(checked_variants, [(false, false), (true, false)]);
        assert!(checked_entries >= 4000, "{checked_entries} entries");
    }

    #[test]
    fn seeded_traces_replay_bit_for_bit() {
        let file = reference("seeded_toy_text.json");
        let mut steps_checked = 0;
        let mut mismatches = Vec::new();
        let mut variants = std::collections::BTreeSet::new();
        for trace in file["traces"].as_array().expect("traces") {
            if trace["env_id"] != "Taxi-v4" {
                continue;
            }
            let params = params_of(&trace["make_kwargs"]);
            variants.insert((params.is_rainy, params.fickle_passenger));
            let taxi = Taxi::new(params).expect("valid");
            let mut env = Simulator::new(taxi.clone(), 0);
            let id = trace["id"].as_str().unwrap_or("?");
            for (s, segment) in trace["segments"]
                .as_array()
                .expect("segments")
                .iter()
                .enumerate()
            {
                if let Some(seed) = segment["reset_seed"].as_u64() {
                    env.seed(seed);
                }
                let first = env.reset(Mode::Training).expect("reset");
                if segment["initial_obs"] != first {
                    mismatches.push(format!("{id} segment {s}: initial {first}"));
                }
                let actions = segment["actions"].as_array().expect("actions");
                let expected = segment["steps"].as_array().expect("steps");
                for (j, (action, step)) in actions.iter().zip(expected).enumerate() {
                    let action = action.as_i64().expect("action");
                    let outcome = env.step(&action).expect("step");
                    let state = *env.state().expect("a state");
                    let mask: Vec<i64> = (0..6)
                        .map(|a| i64::from(taxi.is_applicable(&state, &a)))
                        .collect();
                    let same = step["obs"] == outcome.observation
                        && step["reward"].as_f64().map(f64::to_bits)
                            == Some(outcome.reward().to_bits())
                        && step["terminated"] == outcome.terminated
                        && step["truncated"] == outcome.truncated
                        && step["prob"].as_f64().map(f64::to_bits)
                            == outcome
                                .info
                                .get("prob")
                                .and_then(rl_core::InfoValue::as_f64)
                                .map(f64::to_bits)
                        && step["action_mask"] == serde_json::json!(mask);
                    if !same {
                        mismatches.push(format!(
                            "{id} segment {s} step {j}: expected {step}, got {outcome:?} mask {mask:?}"
                        ));
                    }
                    steps_checked += 1;
                }
            }
        }
        assert!(
            mismatches.is_empty(),
            "{} mismatches: {:#?}",
            mismatches.len(),
            &mismatches[..mismatches.len().min(5)]
        );
        assert_eq!(variants.len(), 3, "{variants:?}");
        assert!(steps_checked >= 3000, "{steps_checked} steps");
        eprintln!("Taxi-v4: {steps_checked} seeded steps replayed bit for bit");
    }

    #[test]
    fn params_validate_and_read_from_json() {
        let defaults = TaxiParams::default();
        assert!(defaults.validate().is_ok());
        assert_eq!(defaults.max_episode_steps, 200);
        assert!(!defaults.is_rainy && !defaults.fickle_passenger);
        for bad in [
            TaxiParams {
                rainy_probability: 1.5,
                ..TaxiParams::default()
            },
            TaxiParams {
                fickle_probability: -0.1,
                ..TaxiParams::default()
            },
            TaxiParams {
                rainy_probability: f64::NAN,
                ..TaxiParams::default()
            },
            TaxiParams {
                max_episode_steps: 0,
                ..TaxiParams::default()
            },
        ] {
            assert!(Taxi::new(bad).is_err());
        }
        let params: TaxiParams =
            serde_json::from_str(r#"{"is_rainy": true, "rainy_probability": 0.6}"#).expect("valid");
        assert!(params.is_rainy && params.rainy_probability == 0.6);
        assert_eq!(params.fickle_probability, 0.3);
        let error = serde_json::from_str::<TaxiParams>(r#"{"rainy": true}"#).expect_err("unknown");
        assert!(error.to_string().contains("rainy"));
    }

    #[test]
    fn states_encode_decode_and_read_from_json() {
        for index in 0..500 {
            let components = TaxiComponents::decode(index).expect("in range");
            assert_eq!(components.encode(), Some(index));
            assert_eq!(
                TaxiState::new(index, false).expect("valid").components(),
                components
            );
        }
        assert_eq!(TaxiComponents::decode(500), None);
        assert_eq!(TaxiComponents::decode(-1), None);
        assert!(TaxiState::new(500, false).is_err());
        let state = TaxiState::new(328, true).expect("valid");
        let json = serde_json::to_value(state).expect("serialise");
        assert_eq!(json, serde_json::json!({"index": 328, "fickle_step": true}));
        assert_eq!(
            serde_json::from_value::<TaxiState>(json).expect("read"),
            state
        );
        let plain: TaxiState = serde_json::from_str(r#"{"index": 17}"#).expect("read");
        assert_eq!((plain.index(), plain.fickle_step()), (17, false));
        assert!(serde_json::from_str::<TaxiState>(r#"{"index": 500}"#).is_err());
        assert!(serde_json::from_str::<TaxiState>(r#"{"index": 5, "extra": 1}"#).is_err());
    }

    #[test]
    fn conformance_checker_passes_for_every_variant() {
        for params in [
            TaxiParams::default(),
            TaxiParams {
                is_rainy: true,
                ..TaxiParams::default()
            },
            TaxiParams {
                fickle_passenger: true,
                fickle_probability: 1.0,
                ..TaxiParams::default()
            },
            TaxiParams {
                is_rainy: true,
                fickle_passenger: true,
                ..TaxiParams::default()
            },
        ] {
            let taxi = Taxi::new(params.clone()).expect("valid");
            let report = check_domain(&taxi, &CheckConfig::default());
            assert!(report.is_ok(), "{params:?}: {report}");
            let report = check_transitions(&taxi, &CheckConfig::default());
            assert!(report.is_ok(), "{params:?}: {report}");
        }
    }

    #[test]
    fn fickle_transitions_split_the_entry_over_the_other_destinations() {
        let params = TaxiParams {
            fickle_passenger: true,
            ..TaxiParams::default()
        };
        let taxi = Taxi::new(params).expect("valid");
        // Taxi at (2, 2) with the passenger on board, going to Red (0), still fickle.
        let index = TaxiComponents {
            taxi_row: 2,
            taxi_col: 2,
            passenger: IN_TAXI,
            destination: 0,
        }
        .encode()
        .expect("in range");
        let state = TaxiState::new(index, true).expect("valid");
        let transitions = taxi.transitions(&state, &SOUTH, Mode::Training);
        let destinations: Vec<usize> = transitions
            .iter()
            .map(|t| t.next_state.components().destination)
            .collect();
        assert_eq!(destinations, [1, 2, 3]);
        assert!(transitions.iter().all(|t| !t.next_state.fickle_step()));
        assert!(
            transitions
                .iter()
                .all(|t| t.next_state.components().taxi() == (3, 2))
        );
        let total: f64 = transitions.iter().map(|t| t.probability).sum();
        assert!((total - 1.0).abs() < 1e-15);
        // A pickup does not move the taxi: no change of mind.
        let transitions = taxi.transitions(&state, &PICKUP, Mode::Training);
        assert_eq!(transitions.len(), 1);
        assert!(transitions[0].next_state.fickle_step());
        // Stepping draws the same way: one random() and one integers(0, 3).
        let mut rng = NumpyGenerator::seed_from_u64(3);
        let outcome = taxi.step(&state, &SOUTH, Mode::Training, &mut rng);
        assert_ne!(outcome.next_state.components().destination, 0);
        assert!(!outcome.next_state.fickle_step());
    }

    #[test]
    fn action_mask_is_gymnasiums() {
        // Taxi at Red (0, 0) with the passenger waiting there: south, east (open side) and pickup.
        let at_red = TaxiComponents {
            taxi_row: 0,
            taxi_col: 0,
            passenger: 0,
            destination: 1,
        };
        assert_eq!(
            at_red.action_mask(),
            [true, false, true, false, true, false]
        );
        // Taxi at (0, 1), a wall to the east; passenger on board, not at a location.
        let walled = TaxiComponents {
            taxi_row: 0,
            taxi_col: 1,
            passenger: IN_TAXI,
            destination: 1,
        };
        assert_eq!(
            walled.action_mask(),
            [true, false, false, true, false, false]
        );
        // At Blue (4, 3) with the passenger on board: dropoff is allowed anywhere on a location.
        let at_blue = TaxiComponents {
            taxi_row: 4,
            taxi_col: 3,
            passenger: IN_TAXI,
            destination: 0,
        };
        assert_eq!(
            at_blue.action_mask(),
            [false, true, true, false, false, true]
        );
    }

    #[test]
    fn the_one_pass_mask_is_is_applicable_action_by_action() {
        let taxi = Taxi::new(TaxiParams::default()).expect("valid");
        for index in 0..TAXI_STATE_COUNT as i64 {
            let state = TaxiState::new(index, false).expect("a state");
            let mut mask = [false; TAXI_ACTION_COUNT];
            assert!(taxi.action_mask_into(&state, &mut mask));
            let by_action: Vec<bool> = (0..TAXI_ACTION_COUNT as i64)
                .map(|action| taxi.is_applicable(&state, &action))
                .collect();
            assert_eq!(mask.to_vec(), by_action, "state {index}");
        }
        // A mask of another length is left alone.
        let state = TaxiState::new(0, false).expect("a state");
        let mut short = [true; 3];
        assert!(!taxi.action_mask_into(&state, &mut short));
        assert_eq!(short, [true; 3]);
    }

    #[test]
    fn text_rendering_is_gymnasiums_ansi_map() {
        let taxi = Taxi::new(TaxiParams::default()).expect("valid");
        // Taxi at (2, 1), passenger at Yellow, destination Green: state 250 + ... from Gymnasium.
        let index = TaxiComponents {
            taxi_row: 2,
            taxi_col: 1,
            passenger: 2,
            destination: 1,
        }
        .encode()
        .expect("in range");
        let text = taxi.render_text(&TaxiState::new(index, false).expect("valid"));
        let expected = "+---------+\n\
                        |R: | : :\x1b[35mG\x1b[0m|\n\
                        | : | : : |\n\
                        | :\x1b[43m \x1b[0m: : : |\n\
                        | | : | : |\n\
                        |\x1b[34;1mY\x1b[0m| : |B: |\n\
                        +---------+\n\n";
        assert_eq!(text, expected);
        // Passenger on board, taxi on the destination Blue.
        let index = TaxiComponents {
            taxi_row: 4,
            taxi_col: 3,
            passenger: IN_TAXI,
            destination: 3,
        }
        .encode()
        .expect("in range");
        let text = taxi.render_text(&TaxiState::new(index, false).expect("valid"));
        assert!(
            text.contains("|Y| : |\x1b[35m\x1b[42mB\x1b[0m\x1b[0m: |"),
            "{text:?}"
        );
        let svg = taxi.render_svg(&TaxiState::new(index, true).expect("valid"));
        assert!(svg.starts_with("<svg") && svg.contains("taxi full") && svg.contains("fickle"));
    }

    #[test]
    fn registrable_with_its_capabilities() {
        use rl_core::registry::Registration;
        // What the registry needs compiles (nothing is entered into the table).
        let _registration = Registration::new("Taxi-v4", "Taxi", Taxi::new)
            .with_render()
            .with_state()
            .with_transitions();
        let taxi = Taxi::new(TaxiParams::default()).expect("valid");
        assert_eq!(taxi.episode_cap(), Some(200));
        assert_eq!(taxi.state_count(), Some(500));
        // An action outside the table (never passed by the simulator) stays and draws nothing.
        let state = TaxiState::new(42, false).expect("valid");
        let mut rng = NumpyGenerator::seed_from_u64(0);
        let before = rng.clone();
        let outcome = taxi.step(&state, &6, Mode::Training, &mut rng);
        assert_eq!((outcome.next_state, outcome.value.reward()), (state, 0.0));
        assert_eq!(rng, before);
    }
}
