//! FrozenLake: Gymnasium 1.4.0's `FrozenLake-v1` and `FrozenLake8x8-v1`, as the domain
//! [`FrozenLake`], its parameters ([`FrozenLakeParams`], [`FrozenLake8x8Params`]), Gymnasium's
//! maps and its random map generator ([`generate_random_map`]).
//!
//! [`FrozenLake`] is documented in the crate's domain template. This module also holds what
//! the tabular toy-text domains share: Gymnasium's transition table `P` stored flat
//! ([`TransitionTable`], [`TableEntry`]), which [`CliffWalking`](super::cliff_walking) uses too.
//!
//! # Exactness
//!
//! The table is built as Gymnasium builds it: the same entries in the same order (duplicates
//! kept), the probabilities computed by the same float64 operations (`success_rate` and
//! `(1.0 - success_rate) / 2.0`), so that they are Gymnasium's bit for bit. A reset and a step
//! each draw one `random()` and pick an entry with Gymnasium's `categorical_sample`
//! ([`categorical_sample`](super::categorical_sample)); a seeded reset therefore gives
//! Gymnasium's trajectory.
//! `testdata/reference/toy_text_tables.json` and `seeded_toy_text.json` pin both.
//!
//! # Reference
//!
//! Gymnasium 1.4.0, `gymnasium/envs/toy_text/frozen_lake.py` and `utils.py`; the ids in
//! `gymnasium/envs/__init__.py`.

use rand::SeedableRng;
use rl_core::numpy_random::choice_weighted;
use rl_core::{Domain, EnumerableTransitions, Mode, NumpyGenerator, Render, Transition};
use rl_spaces::Discrete;
use serde::{Deserialize, Deserializer, Serialize};

use super::tabular::{CellStyle, TableEntry, TransitionTable, grid_svg, tabular_domain_methods};
use crate::error::{Error, escape_invisible};
use crate::parameter_checks;

/// Gymnasium's action 0: move left.
pub const LEFT: i64 = 0;
/// Gymnasium's action 1: move down.
pub const DOWN: i64 = 1;
/// Gymnasium's action 2: move right.
pub const RIGHT: i64 = 2;
/// Gymnasium's action 3: move up.
pub const UP: i64 = 3;

/// Gymnasium's map `"4x4"` (`MAPS["4x4"]`), the map of `FrozenLake-v1`.
pub const MAP_4X4: [&str; 4] = ["SFFF", "FHFH", "FFFH", "HFFG"];

/// Gymnasium's map `"8x8"` (`MAPS["8x8"]`), the map of `FrozenLake8x8-v1`.
pub const MAP_8X8: [&str; 8] = [
    "SFFFFFFF", "FFFFFFFF", "FFFHFFFF", "FFFFFHFF", "FFFHFFFF", "FHHFFFHF", "FHFFHFHF", "FFFHFFFG",
];

/// The most cells a map may have (65 536, a 256 by 256 lake): a custom `desc` or a random map
/// larger than this is refused before its transition table (about 150 bytes per cell) is
/// allocated.
pub const MAX_CELLS: usize = 1 << 16;

/// The number of actions of FrozenLake (and of CliffWalking).
const ACTIONS: usize = 4;

/// A tile of the lake, as a letter of Gymnasium's `desc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tile {
    /// `S`: a start tile (frozen); the episode starts on one of them, uniformly.
    Start,
    /// `F`: frozen ice.
    Frozen,
    /// `H`: a hole; entering it ends the episode.
    Hole,
    /// `G`: the goal; entering it ends the episode with the goal reward.
    Goal,
}

impl Tile {
    /// The tile of a letter of `desc` (`S`, `F`, `H` or `G`), or `None`.
    pub fn from_letter(letter: char) -> Option<Tile> {
        match letter {
            'S' => Some(Tile::Start),
            'F' => Some(Tile::Frozen),
            'H' => Some(Tile::Hole),
            'G' => Some(Tile::Goal),
            _ => None,
        }
    }

    /// The letter of the tile in `desc`.
    pub fn letter(self) -> char {
        match self {
            Tile::Start => 'S',
            Tile::Frozen => 'F',
            Tile::Hole => 'H',
            Tile::Goal => 'G',
        }
    }

    /// Whether entering the tile ends the episode (a hole or the goal).
    pub fn is_terminal(self) -> bool {
        matches!(self, Tile::Hole | Tile::Goal)
    }
}

/// The parameters of FrozenLake, named as Gymnasium's keyword arguments; [`Default`] gives
/// Gymnasium 1.4.0's `FrozenLake-v1`, [`FrozenLakeParams::eight_by_eight`] its
/// `FrozenLake8x8-v1`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FrozenLakeParams {
    /// A custom map, one string per row of tile letters (`S` start, `F` frozen, `H` hole,
    /// `G` goal), all rows of the same length, at least one `S`, at most [`MAX_CELLS`] tiles;
    /// `None` (the default) uses the map named by `map_name`. [`generate_random_map`] makes
    /// Gymnasium's random maps.
    pub desc: Option<Vec<String>>,
    /// The built-in map used when `desc` is `None`: `"4x4"` ([`MAP_4X4`], the default) or
    /// `"8x8"` ([`MAP_8X8`]). Ignored when `desc` is given, as in Gymnasium.
    pub map_name: String,
    /// Whether the ice is slippery (`true`): the agent moves in the intended direction with
    /// probability `success_rate` and in each perpendicular direction with probability
    /// `(1 - success_rate) / 2`.
    pub is_slippery: bool,
    /// The probability of moving in the intended direction on slippery ice, in `[0, 1]`
    /// (`1.0 / 3.0`); unused when `is_slippery` is `false`.
    pub success_rate: f64,
    /// The rewards for entering the goal, a hole and any other tile, in that order
    /// (`[1, 0, 0]`).
    pub reward_schedule: [f64; 3],
    /// The time limit of an episode, in steps: 100 for `FrozenLake-v1`, 200 for
    /// `FrozenLake8x8-v1` (Gymnasium's `max_episode_steps`).
    pub max_episode_steps: u64,
}

impl Default for FrozenLakeParams {
    fn default() -> Self {
        FrozenLakeParams {
            desc: None,
            map_name: "4x4".to_owned(),
            is_slippery: true,
            success_rate: 1.0 / 3.0,
            reward_schedule: [1.0, 0.0, 0.0],
            max_episode_steps: 100,
        }
    }
}

impl FrozenLakeParams {
    /// Gymnasium's `FrozenLake8x8-v1`: the map `"8x8"` and a time limit of 200 steps, the
    /// rest as [`Default`].
    pub fn eight_by_eight() -> FrozenLakeParams {
        FrozenLakeParams {
            map_name: "8x8".to_owned(),
            max_episode_steps: 200,
            ..FrozenLakeParams::default()
        }
    }

    /// Checks the map (see [`FrozenLakeParams::desc`]; `map_name` must be `"4x4"` or `"8x8"`
    /// when `desc` is `None`), that `success_rate` lies in `[0, 1]`, that the rewards are
    /// finite and that the time limit is at least 1.
    pub fn validate(&self) -> Result<(), Error> {
        self.map().map(|_| ())
    }

    /// The map the parameters describe, after checking every parameter.
    fn map(&self) -> Result<LakeMap, Error> {
        parameter_checks::unit_interval("success_rate", self.success_rate)?;
        for reward in self.reward_schedule {
            parameter_checks::finite("reward_schedule", reward)?;
        }
        parameter_checks::nonzero_steps("max_episode_steps", self.max_episode_steps)?;
        match &self.desc {
            Some(desc) => LakeMap::parse(desc),
            None => match self.map_name.as_str() {
                "4x4" => LakeMap::parse(&MAP_4X4),
                "8x8" => LakeMap::parse(&MAP_8X8),
                other => Err(Error::InvalidParameter {
                    parameter: "map_name",
                    reason: format!(
                        "must be \"4x4\" or \"8x8\" (or give `desc`), got \"{}\"",
                        escape_invisible(other)
                    ),
                }),
            },
        }
    }
}

/// The parameters of `FrozenLake8x8-v1`: [`FrozenLakeParams`] whose defaults are
/// [`FrozenLakeParams::eight_by_eight`]. Read from JSON (or any serde format), every field
/// left out takes its 8x8 default, and an unknown field is an error, so that a registration
/// reading its parameters over `Default` gives Gymnasium's `FrozenLake8x8-v1`:
///
/// ```
/// use rl_domains::toy_text::frozen_lake::{FrozenLake, FrozenLake8x8Params, FrozenLakeParams};
///
/// let params: FrozenLake8x8Params = serde_json::from_str(r#"{"is_slippery": false}"#)?;
/// assert_eq!(params.0.map_name, "8x8");
/// assert_eq!(params.0.max_episode_steps, 200);
/// let domain = FrozenLake::new(params.into())?;
/// assert_eq!(domain.rows(), 8);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
pub struct FrozenLake8x8Params(pub FrozenLakeParams);

impl Default for FrozenLake8x8Params {
    fn default() -> Self {
        FrozenLake8x8Params(FrozenLakeParams::eight_by_eight())
    }
}

impl From<FrozenLake8x8Params> for FrozenLakeParams {
    fn from(params: FrozenLake8x8Params) -> FrozenLakeParams {
        params.0
    }
}

impl<'de> Deserialize<'de> for FrozenLake8x8Params {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        EightByEightFields::deserialize(deserializer).map(FrozenLake8x8Params)
    }
}

/// The fields of [`FrozenLakeParams`] read over [`FrozenLakeParams::eight_by_eight`] (serde's
/// remote derivation: the compiler checks that the fields are exactly those of
/// [`FrozenLakeParams`]).
#[derive(Deserialize)]
#[serde(
    remote = "FrozenLakeParams",
    default = "FrozenLakeParams::eight_by_eight",
    deny_unknown_fields
)]
struct EightByEightFields {
    desc: Option<Vec<String>>,
    map_name: String,
    is_slippery: bool,
    success_rate: f64,
    reward_schedule: [f64; 3],
    max_episode_steps: u64,
}

/// A checked map: `rows` by `cols` tiles in row-major order, at least one of them a start.
#[derive(Debug, Clone, PartialEq)]
struct LakeMap {
    rows: usize,
    cols: usize,
    tiles: Vec<Tile>,
}

impl LakeMap {
    /// Reads `desc`, refusing an empty map, ragged rows, unknown letters, more than
    /// [`MAX_CELLS`] tiles (before allocating anything) and a map without a start.
    fn parse<S: AsRef<str>>(desc: &[S]) -> Result<LakeMap, Error> {
        let invalid = |reason: String| Error::InvalidParameter {
            parameter: "desc",
            reason,
        };
        let rows = desc.len();
        let cols = desc.first().map_or(0, |row| row.as_ref().len());
        if rows == 0 || cols == 0 {
            return Err(invalid("must have at least one row of tiles".to_owned()));
        }
        // Every valid letter is one byte, so the byte lengths bound the tile count.
        let bytes = desc
            .iter()
            .try_fold(0usize, |sum, row| sum.checked_add(row.as_ref().len()))
            .unwrap_or(usize::MAX);
        if rows > MAX_CELLS || bytes > MAX_CELLS {
            return Err(invalid(format!(
                "has {rows} rows and {bytes} letters or more, above the limit of {MAX_CELLS} \
                 tiles"
            )));
        }
        let mut tiles = Vec::with_capacity(bytes);
        for (row, line) in desc.iter().enumerate() {
            let mut length = 0;
            for (col, letter) in line.as_ref().chars().enumerate() {
                let tile = Tile::from_letter(letter).ok_or_else(|| {
                    invalid(format!(
                        "row {}, column {}: `{}` is not a tile letter (S start, F frozen, \
                         H hole, G goal)",
                        row + 1,
                        col + 1,
                        escape_invisible(&letter.to_string())
                    ))
                })?;
                tiles.push(tile);
                length += 1;
            }
            if length != cols {
                return Err(invalid(format!(
                    "row {} has {length} tiles but the first row has {cols}",
                    row + 1
                )));
            }
        }
        if !tiles.contains(&Tile::Start) {
            return Err(invalid("has no start tile `S`".to_owned()));
        }
        Ok(LakeMap { rows, cols, tiles })
    }
}

/// FrozenLake: Gymnasium 1.4.0's `FrozenLake-v1` and `FrozenLake8x8-v1` as a [`Domain`].
///
#[doc = include_str!("frozen_lake.md")]
///
/// ```
/// use rl_core::{Environment, EnumerableTransitions, Mode, Simulator};
/// use rl_domains::toy_text::frozen_lake::{FrozenLake, FrozenLakeParams, DOWN, RIGHT};
///
/// let domain = FrozenLake::new(FrozenLakeParams::default())?;
/// // Slippery ice: three entries of Gymnasium's table, the intended move in the middle.
/// let outcomes = domain.transitions(&0, &RIGHT, Mode::Training);
/// let next: Vec<i64> = outcomes.iter().map(|t| t.next_state).collect();
/// assert_eq!(next, [4, 1, 0]);
///
/// let mut env = Simulator::new(domain, 0);
/// env.seed(42);
/// assert_eq!(env.reset(Mode::Training)?, 0);
/// let step = env.step(&DOWN)?;
/// assert!((0..16).contains(&step.observation));
/// assert!(step.info.get("prob").is_some());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FrozenLake {
    params: FrozenLakeParams,
    map: LakeMap,
    table: TransitionTable,
    initial_distribution: Vec<f64>,
    observation_space: Discrete,
    action_space: Discrete,
}

impl FrozenLake {
    /// The domain with `params`, after [`FrozenLakeParams::validate`]: builds Gymnasium's
    /// table `P` and initial-state distribution.
    pub fn new(params: FrozenLakeParams) -> Result<FrozenLake, Error> {
        let map = params.map()?;
        let table = lake_table(&map, &params);
        // Gymnasium: `(desc == b"S").astype("float64").ravel()`, divided by its sum.
        let starts = map
            .tiles
            .iter()
            .filter(|&&tile| tile == Tile::Start)
            .count();
        let share = 1.0 / starts as f64;
        let initial_distribution = map
            .tiles
            .iter()
            .map(|&tile| if tile == Tile::Start { share } else { 0.0 })
            .collect();
        let observation_space = Discrete::new(map.tiles.len() as u64)?;
        Ok(FrozenLake {
            params,
            map,
            table,
            initial_distribution,
            observation_space,
            action_space: Discrete::new(ACTIONS as u64)?,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &FrozenLakeParams {
        &self.params
    }

    /// The number of rows of the map.
    pub fn rows(&self) -> usize {
        self.map.rows
    }

    /// The number of columns of the map.
    pub fn cols(&self) -> usize {
        self.map.cols
    }

    /// The tile of `state` (`row * cols + col`), or `None` outside the map.
    pub fn tile(&self, state: i64) -> Option<Tile> {
        usize::try_from(state)
            .ok()
            .and_then(|index| self.map.tiles.get(index).copied())
    }

    /// The map as Gymnasium's `desc`: one string of tile letters per row.
    pub fn desc(&self) -> Vec<String> {
        self.map
            .tiles
            .chunks(self.map.cols)
            .map(|row| row.iter().map(|tile| tile.letter()).collect())
            .collect()
    }

    /// Gymnasium's transition table `P`.
    pub fn table(&self) -> &TransitionTable {
        &self.table
    }

    /// Gymnasium's `initial_state_distrib`: `1 / k` on each of the `k` start tiles, 0
    /// elsewhere, one entry per state.
    pub fn initial_state_distribution(&self) -> &[f64] {
        &self.initial_distribution
    }
}

/// Gymnasium's `P` for `map`: `FrozenLakeEnv.__init__`'s loops, in their order.
fn lake_table(map: &LakeMap, params: &FrozenLakeParams) -> TransitionTable {
    let (rows, cols) = (map.rows, map.cols);
    let fail_rate = (1.0 - params.success_rate) / 2.0;
    // Gymnasium's `update_probability_matrix`: the tile reached by moving `direction`
    // (clamped at the border), its reward and whether it ends the episode.
    let entry = |row: usize, col: usize, direction: usize, probability: f64| {
        let (row, col) = match direction {
            0 => (row, col.saturating_sub(1)),
            1 => ((row + 1).min(rows - 1), col),
            2 => (row, (col + 1).min(cols - 1)),
            _ => (row.saturating_sub(1), col),
        };
        let next = row * cols + col;
        let tile = map.tiles[next];
        let reward = match tile {
            Tile::Goal => params.reward_schedule[0],
            Tile::Hole => params.reward_schedule[1],
            Tile::Start | Tile::Frozen => params.reward_schedule[2],
        };
        TableEntry {
            probability,
            next_state: next as i64,
            reward,
            terminated: tile.is_terminal(),
        }
    };
    TransitionTable::build(map.tiles.len(), ACTIONS, |state, action, list| {
        let (row, col) = (state / cols, state % cols);
        if map.tiles[state].is_terminal() {
            list.push(TableEntry {
                probability: 1.0,
                next_state: state as i64,
                reward: 0.0,
                terminated: true,
            });
        } else if params.is_slippery {
            for direction in [(action + 3) % 4, action, (action + 1) % 4] {
                let probability = if direction == action {
                    params.success_rate
                } else {
                    fail_rate
                };
                list.push(entry(row, col, direction, probability));
            }
        } else {
            list.push(entry(row, col, action, 1.0));
        }
    })
}

impl Domain for FrozenLake {
    tabular_domain_methods!();

    /// A hole or the goal.
    fn is_terminal(&self, state: &i64) -> bool {
        self.tile(*state).is_some_and(Tile::is_terminal)
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(self.params.max_episode_steps)
    }
}

impl EnumerableTransitions for FrozenLake {
    /// Gymnasium's `P[state][action]` as listed: its order, duplicates kept (outcomes reaching
    /// the same tile appear separately), probabilities bit for bit. They are the distribution
    /// of [`Domain::step`] except for the rounding of their sum: when the running sum stays
    /// below a draw (within about 1e-16 of 1), `categorical_sample` picks the first entry.
    fn transitions(&self, state: &i64, action: &i64, _mode: Mode) -> Vec<Transition<i64>> {
        self.table.transitions(*state, *action)
    }
}

/// Gymnasium's ANSI highlight of the agent's tile (`utils.colorize(..., "red",
/// highlight=True)`): a red background.
const HIGHLIGHT_START: &str = "\x1b[41m";
/// The end of an ANSI highlight.
const HIGHLIGHT_END: &str = "\x1b[0m";

impl Render for FrozenLake {
    /// Gymnasium's `ansi` picture without its first line: one line of tile letters per row,
    /// the agent's tile on a red background (ANSI escape `ESC[41m`, reset by `ESC[0m`).
    fn render_text(&self, state: &i64) -> String {
        let agent = usize::try_from(*state).ok();
        let mut text = String::with_capacity(self.map.tiles.len() + self.map.rows + 16);
        for (index, tile) in self.map.tiles.iter().enumerate() {
            if Some(index) == agent {
                text.push_str(HIGHLIGHT_START);
                text.push(tile.letter());
                text.push_str(HIGHLIGHT_END);
            } else {
                text.push(tile.letter());
            }
            if index % self.map.cols == self.map.cols - 1 {
                text.push('\n');
            }
        }
        text
    }

    /// One square per tile (class `cell` and the kind: `start`, `frozen`, `hole` or `goal`,
    /// with `data-row` and `data-col`), the letters `S` and `G`, and the agent as a circle
    /// (class `agent`) unless `state` lies outside the map.
    fn render_svg(&self, state: &i64) -> String {
        let title = format!("FrozenLake {}x{}", self.map.rows, self.map.cols);
        grid_svg(
            &title,
            self.map.rows,
            self.map.cols,
            |index| match self.map.tiles[index] {
                Tile::Start => CellStyle::new("start", "#d6ecfa", "S"),
                Tile::Frozen => CellStyle::new("frozen", "#d6ecfa", ""),
                Tile::Hole => CellStyle::new("hole", "#1f3b73", ""),
                Tile::Goal => CellStyle::new("goal", "#2ca02c", "G"),
            },
            usize::try_from(*state).ok(),
        )
    }
}

/// The most `random()` draws [`generate_random_map`] makes before giving up (about 67
/// million, a fraction of a second).
const RANDOM_MAP_DRAW_BUDGET: usize = 1 << 26;

/// Gymnasium's `generate_random_map(size, p, seed)`: a `size` by `size` map whose tiles are
/// frozen with probability `p` and holes otherwise, with the start at the top left and the
/// goal at the bottom right, drawn again until a path of non-hole tiles joins them; the same
/// seed gives Gymnasium's map.
///
/// The draws are numpy's `choice(["F", "H"], (size, size), p=[p, 1 - p])` from
/// `default_rng(seed)`, row by row, repeated until the map is valid.
///
/// Fails, naming the argument, when `size` is below 2 (Gymnasium loops forever), when
/// `size * size` exceeds [`MAX_CELLS`], when `p` lies outside `(0, 1]` (Gymnasium loops
/// forever for 0, takes `min(1, p)` above 1 and fails below 0), or when no valid map turns up
/// within about 67 million draws (a small `p` on a large map; Gymnasium would keep trying).
///
/// ```
/// use rl_domains::toy_text::frozen_lake::{generate_random_map, FrozenLake, FrozenLakeParams};
///
/// let desc = generate_random_map(4, 0.8, 1)?;
/// assert_eq!(desc, ["SHFH", "FFHF", "FFFF", "FFFG"]); // Gymnasium's map for seed 1
/// let domain = FrozenLake::new(FrozenLakeParams { desc: Some(desc), ..Default::default() })?;
/// assert_eq!(domain.rows(), 4);
/// # Ok::<(), rl_domains::Error>(())
/// ```
pub fn generate_random_map(size: usize, p: f64, seed: u64) -> Result<Vec<String>, Error> {
    generate_random_map_within(size, p, seed, RANDOM_MAP_DRAW_BUDGET)
}

/// [`generate_random_map`] giving up after about `budget` draws.
fn generate_random_map_within(
    size: usize,
    p: f64,
    seed: u64,
    budget: usize,
) -> Result<Vec<String>, Error> {
    if size < 2 {
        return Err(Error::InvalidParameter {
            parameter: "size",
            reason: format!("must be at least 2, got {size}"),
        });
    }
    let cells = size.checked_mul(size).filter(|&cells| cells <= MAX_CELLS);
    let Some(cells) = cells else {
        return Err(Error::InvalidParameter {
            parameter: "size",
            reason: format!("{size} by {size} tiles exceed the limit of {MAX_CELLS}"),
        });
    };
    parameter_checks::unit_interval("p", p)?;
    if p == 0.0 {
        return Err(Error::InvalidParameter {
            parameter: "p",
            reason: "must be greater than 0: a map of holes has no path to the goal".to_owned(),
        });
    }
    let weights = [p, 1.0 - p];
    let mut rng = NumpyGenerator::seed_from_u64(seed);
    let mut tiles = vec![Tile::Frozen; cells];
    for _ in 0..(budget / cells).max(1) {
        for tile in &mut tiles {
            *tile = match choice_weighted(&mut rng, &weights) {
                Some(0) => Tile::Frozen,
                _ => Tile::Hole,
            };
        }
        tiles[0] = Tile::Start;
        tiles[cells - 1] = Tile::Goal;
        if goal_is_reachable(&tiles, size) {
            return Ok(tiles
                .chunks(size)
                .map(|row| row.iter().map(|tile| tile.letter()).collect())
                .collect());
        }
    }
    Err(Error::InvalidParameter {
        parameter: "p",
        reason: format!(
            "no {size} by {size} map with frozen tiles of probability {p} had a path to the \
             goal within {budget} draws"
        ),
    })
}

/// Gymnasium's `is_valid`: whether a goal can be reached from the top left tile through
/// tiles that are not holes (up, down, left and right), on a `size` by `size` map.
fn goal_is_reachable(tiles: &[Tile], size: usize) -> bool {
    let mut discovered = vec![false; tiles.len()];
    let mut frontier = vec![0usize];
    while let Some(index) = frontier.pop() {
        if std::mem::replace(&mut discovered[index], true) {
            continue;
        }
        let (row, col) = (index / size, index % size);
        let neighbours = [
            (row + 1 < size).then(|| index + size),
            (col + 1 < size).then(|| index + 1),
            (row > 0).then(|| index - size),
            (col > 0).then(|| index - 1),
        ];
        for next in neighbours.into_iter().flatten() {
            match tiles[next] {
                Tile::Goal => return true,
                Tile::Hole => {}
                Tile::Start | Tile::Frozen => frontier.push(next),
            }
        }
    }
    false
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rl_core::{CheckConfig, Environment, Simulator, check_domain, check_transitions};
    use serde_json::{Value as Json, json};

    /// A reference file of `testdata/reference/`, parsed.
    pub(crate) fn reference(name: &str) -> Json {
        let path = format!(
            "{}/../../testdata/reference/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// A trace's or table's `make_kwargs`: an object, or a JSON string holding one.
    pub(crate) fn make_kwargs(value: &Json) -> Json {
        match value {
            Json::String(text) => serde_json::from_str(text).expect("make_kwargs parses"),
            Json::Null => json!({}),
            other => other.clone(),
        }
    }

    /// Checks every table of `toy_text_tables.json` for which `build(env_id, kwargs)` gives a
    /// table and an initial distribution: sizes, the initial distribution and every listed
    /// entry, bit for bit. Returns the number of tables, `(state, action)` entries and
    /// outcomes checked.
    pub(crate) fn check_tables(
        build: impl Fn(&str, &Json) -> Option<(TransitionTable, Vec<f64>)>,
    ) -> (usize, usize, usize) {
        let file = reference("toy_text_tables.json");
        assert_eq!(file["kind"], "toy_text_tables");
        let (mut tables, mut entries, mut outcomes) = (0, 0, 0);
        for table in file["tables"].as_array().expect("tables") {
            let env_id = table["env_id"].as_str().expect("env_id");
            let kwargs = make_kwargs(&table["make_kwargs"]);
            let Some((ours, initial)) = build(env_id, &kwargs) else {
                continue;
            };
            let context = format!("{env_id} {kwargs}");
            tables += 1;
            assert_eq!(
                ours.state_count() as u64,
                table["num_states"].as_u64().expect("num_states"),
                "{context}"
            );
            assert_eq!(
                ours.action_count() as u64,
                table["num_actions"].as_u64().expect("num_actions"),
                "{context}"
            );
            let reference_initial: Vec<u64> = table["initial_state_distribution"]
                .as_array()
                .expect("initial_state_distribution")
                .iter()
                .map(|p| p.as_f64().expect("a probability").to_bits())
                .collect();
            let initial: Vec<u64> = initial.iter().map(|p| p.to_bits()).collect();
            assert_eq!(
                initial, reference_initial,
                "{context}: initial distribution"
            );
            for entry in table["entries"].as_array().expect("entries") {
                let state = entry["state"].as_i64().expect("state");
                let action = entry["action"].as_i64().expect("action");
                let listed = ours
                    .outcomes(state, action)
                    .unwrap_or_else(|| panic!("{context}: no P[{state}][{action}]"));
                let expected = entry["outcomes"].as_array().expect("outcomes");
                assert_eq!(
                    listed.len(),
                    expected.len(),
                    "{context}: P[{state}][{action}]"
                );
                for (ours, theirs) in listed.iter().zip(expected) {
                    let theirs = TableEntry {
                        probability: theirs["p"].as_f64().expect("p"),
                        next_state: theirs["next_state"].as_i64().expect("next_state"),
                        reward: theirs["reward"].as_f64().expect("reward"),
                        terminated: theirs["terminated"].as_bool().expect("terminated"),
                    };
                    let bits = |e: &TableEntry| {
                        (
                            e.probability.to_bits(),
                            e.next_state,
                            e.reward.to_bits(),
                            e.terminated,
                        )
                    };
                    assert_eq!(
                        bits(ours),
                        bits(&theirs),
                        "{context}: P[{state}][{action}]: {ours:?} but Gymnasium has {theirs:?}"
                    );
                    outcomes += 1;
                }
                entries += 1;
            }
        }
        (tables, entries, outcomes)
    }

    /// Replays every trace of `seeded_toy_text.json` for which `build(env_id, kwargs)` gives a
    /// domain, through a [`Simulator`]: seeds and resets as each segment says, then compares
    /// every step's observation, reward (bits), flags and `info["prob"]` (bits). Returns the
    /// number of traces and steps replayed, per env id.
    pub(crate) fn replay_traces<D>(
        build: impl Fn(&str, &Json) -> Option<D>,
    ) -> std::collections::BTreeMap<String, (usize, usize)>
    where
        D: Domain<Observation = i64, Action = i64>,
    {
        let file = reference("seeded_toy_text.json");
        assert_eq!(file["kind"], "seeded_single");
        let mut counts = std::collections::BTreeMap::new();
        for trace in file["traces"].as_array().expect("traces") {
            let env_id = trace["env_id"].as_str().expect("env_id");
            let kwargs = make_kwargs(&trace["make_kwargs"]);
            let Some(domain) = build(env_id, &kwargs) else {
                continue;
            };
            let name = trace["id"].as_str().unwrap_or(env_id).to_owned();
            let mut env = Simulator::new(domain, 0);
            let mut steps = 0;
            for (s, segment) in trace["segments"]
                .as_array()
                .expect("segments")
                .iter()
                .enumerate()
            {
                if let Some(seed) = segment["reset_seed"].as_u64() {
                    env.seed(seed);
                } else {
                    assert!(s > 0, "{name}: the first reset is seeded");
                }
                let first = env.reset(Mode::Training).expect("reset");
                assert_eq!(
                    first,
                    segment["initial_obs"].as_i64().expect("initial_obs"),
                    "{name}, segment {s}: initial observation"
                );
                let actions = segment["actions"].as_array().expect("actions");
                let expected = segment["steps"].as_array().expect("steps");
                assert_eq!(actions.len(), expected.len(), "{name}, segment {s}");
                for (j, (action, theirs)) in actions.iter().zip(expected).enumerate() {
                    let action = action.as_i64().expect("an integer action");
                    let ours = env.step(&action).expect("step");
                    let at = format!("{name}, segment {s}, step {j} (action {action})");
                    assert_eq!(
                        ours.observation,
                        theirs["obs"].as_i64().expect("obs"),
                        "{at}"
                    );
                    assert_eq!(
                        ours.reward().to_bits(),
                        theirs["reward"].as_f64().expect("reward").to_bits(),
                        "{at}: reward {}",
                        ours.reward()
                    );
                    assert_eq!(ours.terminated, theirs["terminated"] == true, "{at}");
                    assert_eq!(ours.truncated, theirs["truncated"] == true, "{at}");
                    let prob = ours.info.get("prob").and_then(rl_core::InfoValue::as_f64);
                    assert_eq!(
                        prob.map(f64::to_bits),
                        theirs["prob"].as_f64().map(f64::to_bits),
                        "{at}: prob {prob:?}"
                    );
                    steps += 1;
                }
            }
            let count = counts.entry(env_id.to_owned()).or_insert((0, 0));
            count.0 += 1;
            count.1 += steps;
        }
        counts
    }

    /// The params of a FrozenLake id with `kwargs` over the id's defaults, or `None` for
    /// another id.
    fn params_of(env_id: &str, kwargs: &Json) -> Option<FrozenLakeParams> {
        match env_id {
            "FrozenLake-v1" => Some(serde_json::from_value(kwargs.clone()).expect("params")),
            "FrozenLake8x8-v1" => Some(
                serde_json::from_value::<FrozenLake8x8Params>(kwargs.clone())
                    .expect("params")
                    .into(),
            ),
            _ => None,
        }
    }

    #[test]
    fn tables_are_gymnasiums_bit_for_bit() {
        let (tables, entries, outcomes) = check_tables(|env_id, kwargs| {
            let domain = FrozenLake::new(params_of(env_id, kwargs)?).expect("valid");
            Some((
                domain.table().clone(),
                domain.initial_state_distribution().to_vec(),
            ))
        });
        assert_eq!(
            tables, 4,
            "FrozenLake-v1: default, 8x8, not slippery, custom rates"
        );
        println!("FrozenLake tables: {tables} tables, {entries} entries, {outcomes} outcomes");
        assert!(entries >= 45 * 3 + 179);
    }

    #[test]
    fn seeded_traces_replay_exactly() {
        let counts = replay_traces(|env_id, kwargs| {
            params_of(env_id, kwargs).map(|params| FrozenLake::new(params).expect("valid"))
        });
        println!("FrozenLake traces replayed: {counts:?}");
        for id in ["FrozenLake-v1", "FrozenLake8x8-v1"] {
            assert!(
                counts.get(id).is_some_and(|&(_, steps)| steps > 0),
                "{id}: {counts:?}"
            );
        }
    }

    #[test]
    fn the_checker_passes() {
        for params in [
            FrozenLakeParams::default(),
            FrozenLakeParams::eight_by_eight(),
            FrozenLakeParams {
                is_slippery: false,
                ..FrozenLakeParams::default()
            },
            FrozenLakeParams {
                success_rate: 0.5,
                reward_schedule: [2.0, -1.0, 0.0],
                ..FrozenLakeParams::default()
            },
            FrozenLakeParams {
                desc: Some(vec!["SFS".into(), "FHF".into(), "SFG".into()]),
                success_rate: 1.0,
                ..FrozenLakeParams::default()
            },
        ] {
            let domain = FrozenLake::new(params.clone()).expect("valid");
            let config = CheckConfig::default();
            let report = check_domain(&domain, &config);
            assert!(report.is_ok(), "{params:?}: {report}");
            let report = check_transitions(&domain, &config);
            assert!(report.is_ok(), "{params:?}: {report}");
        }
    }

    #[test]
    fn defaults_are_gymnasiums() {
        let params = FrozenLakeParams::default();
        assert_eq!(params.map_name, "4x4");
        assert!(params.is_slippery);
        assert_eq!(params.success_rate.to_bits(), (1.0f64 / 3.0).to_bits());
        assert_eq!(params.max_episode_steps, 100);
        let domain = FrozenLake::new(params).expect("valid");
        assert_eq!(domain.desc(), MAP_4X4);
        assert_eq!(domain.episode_cap(), Some(100));
        assert_eq!(domain.state_count(), Some(16));
        let eight = FrozenLake::new(FrozenLake8x8Params::default().into()).expect("valid");
        assert_eq!(eight.desc(), MAP_8X8);
        assert_eq!(eight.episode_cap(), Some(200));
        assert_eq!(eight.observation_space().to_string(), "Discrete(64)");
        assert!(eight.is_terminal(&63) && eight.is_terminal(&19) && !eight.is_terminal(&0));
    }

    #[test]
    fn params_read_from_json_over_each_ids_defaults() {
        let four: FrozenLakeParams =
            serde_json::from_value(json!({"is_slippery": false})).expect("valid");
        assert_eq!(
            (four.map_name.as_str(), four.max_episode_steps),
            ("4x4", 100)
        );
        let eight: FrozenLake8x8Params =
            serde_json::from_value(json!({"success_rate": 0.5})).expect("valid");
        assert_eq!(eight.0.map_name, "8x8");
        assert_eq!(eight.0.max_episode_steps, 200);
        assert_eq!(eight.0.success_rate, 0.5);
        assert!(eight.0.is_slippery);
        for unknown in [json!({"slippery": true}), json!({"map": "8x8"})] {
            let error = serde_json::from_value::<FrozenLakeParams>(unknown.clone())
                .expect_err("unknown field");
            assert!(error.to_string().contains("unknown field"), "{error}");
            let error =
                serde_json::from_value::<FrozenLake8x8Params>(unknown).expect_err("unknown field");
            assert!(error.to_string().contains("unknown field"), "{error}");
        }
        // Serialised, both are the plain parameters.
        let written = serde_json::to_value(FrozenLake8x8Params::default()).expect("writes");
        assert_eq!(written["map_name"], "8x8");
        let read: FrozenLakeParams = serde_json::from_value(written).expect("reads");
        assert_eq!(read, FrozenLakeParams::eight_by_eight());
    }

    /// The parameter an invalid `params` is refused for, and the reason.
    fn refusal(params: FrozenLakeParams) -> (&'static str, String) {
        match FrozenLake::new(params) {
            Err(Error::InvalidParameter { parameter, reason }) => (parameter, reason),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn bad_parameters_are_errors_naming_the_field() {
        let with_desc = |rows: &[&str]| FrozenLakeParams {
            desc: Some(rows.iter().map(|row| (*row).to_owned()).collect()),
            ..FrozenLakeParams::default()
        };
        let cases = [
            (with_desc(&[]), "desc", "at least one row"),
            (with_desc(&[""]), "desc", "at least one row"),
            (with_desc(&["FFF", "FFG"]), "desc", "no start"),
            (with_desc(&["SFX", "FFG"]), "desc", "row 1, column 3: `X`"),
            (with_desc(&["SF", "FFG"]), "desc", "row 2 has 3 tiles"),
            (with_desc(&["SF", "Fé"]), "desc", "row 2, column 2"),
            (with_desc(&["sFFG"]), "desc", "`s` is not a tile letter"),
            (
                FrozenLakeParams {
                    map_name: "5x5".into(),
                    ..FrozenLakeParams::default()
                },
                "map_name",
                "\"5x5\"",
            ),
            (
                FrozenLakeParams {
                    success_rate: 1.5,
                    ..FrozenLakeParams::default()
                },
                "success_rate",
                "[0, 1]",
            ),
            (
                FrozenLakeParams {
                    success_rate: f64::NAN,
                    ..FrozenLakeParams::default()
                },
                "success_rate",
                "[0, 1]",
            ),
            (
                FrozenLakeParams {
                    reward_schedule: [1.0, f64::INFINITY, 0.0],
                    ..FrozenLakeParams::default()
                },
                "reward_schedule",
                "finite",
            ),
            (
                FrozenLakeParams {
                    max_episode_steps: 0,
                    ..FrozenLakeParams::default()
                },
                "max_episode_steps",
                "at least 1",
            ),
        ];
        for (params, parameter, words) in cases {
            let (named, reason) = refusal(params.clone());
            assert_eq!(named, parameter, "{params:?}: {reason}");
            assert!(reason.contains(words), "{params:?}: {reason}");
            assert!(params.validate().is_err());
        }
        // A huge map is refused before anything is allocated for it.
        let wide = "S".to_owned() + &"F".repeat(MAX_CELLS);
        let (named, reason) = refusal(with_desc(&[&wide]));
        assert_eq!(named, "desc");
        assert!(reason.contains("limit"), "{reason}");
        let tall = vec!["S"; MAX_CELLS + 1];
        assert_eq!(refusal(with_desc(&tall)).0, "desc");
        // `map_name` is ignored when `desc` is given, as in Gymnasium.
        let ignored = FrozenLakeParams {
            map_name: "anything".into(),
            ..with_desc(&["SG"])
        };
        assert!(FrozenLake::new(ignored).is_ok());
    }

    #[test]
    fn several_starts_share_the_initial_distribution() {
        let domain = FrozenLake::new(FrozenLakeParams {
            desc: Some(vec!["SFS".into(), "FHF".into(), "SFG".into()]),
            ..FrozenLakeParams::default()
        })
        .expect("valid");
        let third = 1.0 / 3.0;
        assert_eq!(
            domain.initial_state_distribution(),
            [third, 0.0, third, 0.0, 0.0, 0.0, third, 0.0, 0.0]
        );
        let mut rng = NumpyGenerator::seed_from_u64(3);
        let mut seen = [0usize; 9];
        for _ in 0..300 {
            seen[domain.initial_state(Mode::Training, &mut rng) as usize] += 1;
        }
        assert!(seen[0] > 50 && seen[2] > 50 && seen[6] > 50, "{seen:?}");
        assert_eq!(seen[0] + seen[2] + seen[6], 300);
    }

    #[test]
    fn steps_outside_the_table_stay_and_draw_nothing() {
        let domain = FrozenLake::new(FrozenLakeParams::default()).expect("valid");
        let mut rng = NumpyGenerator::seed_from_u64(0);
        let before = rng.clone();
        for (state, action) in [(16, 0), (-1, 0), (0, 4), (0, -1)] {
            let outcome = domain.step(&state, &action, Mode::Training, &mut rng);
            assert_eq!(outcome.next_state, state);
            assert_eq!(outcome.value.reward(), 0.0);
            assert!(!outcome.terminated);
            assert_eq!(domain.transitions(&state, &action, Mode::Training).len(), 1);
        }
        assert_eq!(rng, before);
        assert!(!domain.is_terminal(&16));
        assert_eq!(domain.tile(-3), None);
    }

    #[test]
    fn random_maps_are_gymnasiums() {
        // Gymnasium 1.4.0's generate_random_map(size, p, seed), run live.
        let cases: [(usize, f64, u64, &[&str]); 6] = [
            (
                8,
                0.8,
                0,
                &[
                    "SFFFHHFF", "FHHFHFFF", "HFFFFFFF", "FFHHFFFF", "FFFFFHHF", "FFFFFHFF",
                    "FHFFHFFF", "FFFFFFFG",
                ],
            ),
            (4, 0.8, 1, &["SHFH", "FFHF", "FFFF", "FFFG"]),
            (5, 0.5, 42, &["SHFHH", "FHFHH", "FHFHH", "FFFFF", "FFFHG"]),
            (3, 0.3, 7, &["SFH", "HFH", "HFG"]),
            (2, 1.0, 3, &["SF", "FG"]),
            (
                10,
                0.9,
                123_456_789,
                &[
                    "SHFFFFFFHH",
                    "FFFFFFFFFF",
                    "FFFHFFFFHH",
                    "FFFFFFFFFH",
                    "FFFFFFHFFF",
                    "FFFHFFFFFF",
                    "FFFFFFFFFF",
                    "FFFFHFFFFF",
                    "FFFFFFFFFF",
                    "FFFFFHFFFG",
                ],
            ),
        ];
        for (size, p, seed, expected) in cases {
            let map = generate_random_map(size, p, seed).expect("a map");
            assert_eq!(map, expected, "size {size}, p {p}, seed {seed}");
        }
    }

    #[test]
    fn random_maps_refuse_what_gymnasium_cannot_finish() {
        let named = |result: Result<Vec<String>, Error>| match result {
            Err(Error::InvalidParameter { parameter, .. }) => parameter,
            other => panic!("expected a refusal, got {other:?}"),
        };
        assert_eq!(named(generate_random_map(1, 0.8, 0)), "size");
        assert_eq!(named(generate_random_map(0, 0.8, 0)), "size");
        assert_eq!(named(generate_random_map(257, 0.8, 0)), "size");
        assert_eq!(named(generate_random_map(usize::MAX, 0.8, 0)), "size");
        assert_eq!(named(generate_random_map(4, 0.0, 0)), "p");
        assert_eq!(named(generate_random_map(4, -0.1, 0)), "p");
        assert_eq!(named(generate_random_map(4, 1.5, 0)), "p");
        assert_eq!(named(generate_random_map(4, f64::NAN, 0)), "p");
        // A map that rarely has a path gives up after the budget.
        assert_eq!(named(generate_random_map_within(30, 0.05, 0, 10_000)), "p");
    }

    #[test]
    fn text_picture_is_gymnasiums_ansi_without_the_action_line() {
        let domain = FrozenLake::new(FrozenLakeParams::default()).expect("valid");
        // Gymnasium 1.4.0 after `reset(seed=0)`: "\n" then this.
        assert_eq!(
            domain.render_text(&0),
            "\x1b[41mS\x1b[0mFFF\nFHFH\nFFFH\nHFFG\n"
        );
        assert_eq!(
            domain.render_text(&11),
            "SFFF\nFHFH\nFFF\x1b[41mH\x1b[0m\nHFFG\n"
        );
        assert_eq!(domain.render_text(&99), "SFFF\nFHFH\nFFFH\nHFFG\n");
    }

    #[test]
    fn svg_picture_shows_every_tile_and_the_agent() {
        let domain = FrozenLake::new(FrozenLakeParams::eight_by_eight()).expect("valid");
        let svg = domain.render_svg(&9);
        assert_eq!(svg.matches(r#"class="cell "#).count(), 64);
        assert_eq!(svg.matches(r#"class="cell hole""#).count(), 10);
        assert_eq!(svg.matches(r#"class="cell goal""#).count(), 1);
        assert_eq!(svg.matches(r#"class="agent""#).count(), 1);
        assert!(svg.contains(r#"class="agent" cx="80" cy="80""#), "{svg}");
        assert!(!domain.render_svg(&64).contains(r#"class="agent""#));
    }
}
