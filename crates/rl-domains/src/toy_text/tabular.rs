//! What the tabular toy-text domains (FrozenLake, CliffWalking, Taxi) share: Gymnasium's
//! transition table `P` ([`TransitionTable`], sampled as Gymnasium samples it) and the grid
//! picture of their SVG renders.

use rand::Rng;
use rl_core::{Transition, TransitionOutcome, Value, numpy_random};
use serde::{Deserialize, Serialize};

use crate::svg::{Svg, number};

/// One entry of a toy-text transition table: Gymnasium's `(probability, next state, reward,
/// terminated)`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TableEntry {
    /// The probability of the entry, computed as Gymnasium computes it.
    pub probability: f64,
    /// The state reached.
    pub next_state: i64,
    /// The reward.
    pub reward: f64,
    /// Whether the state reached ends the episode.
    pub terminated: bool,
}

/// Gymnasium's transition table `P` of a tabular toy-text domain: for each state and action,
/// the list `P[state][action]` of [`TableEntry`] in Gymnasium's order, duplicates kept
/// (two entries may reach the same state).
///
/// The lists are stored one after the other in one vector, so that a step reads one short
/// contiguous slice, with each entry's running sum of probabilities beside it: a step then
/// draws and counts the sums at or below the draw, with no data-dependent branch.
#[derive(Debug, Clone, PartialEq)]
pub struct TransitionTable {
    /// Every list, one after the other, state-major then action.
    entries: Vec<TableEntry>,
    /// For each entry, the sum (float64, in list order, from 0) of the probabilities of its
    /// list up to and including it: `np.cumsum(prob_n)` as `categorical_sample` computes it.
    cumulative: Vec<f64>,
    /// `offsets[pair]..offsets[pair + 1]` is the list of `pair = state * actions + action`.
    offsets: Vec<usize>,
    /// The number of states.
    states: usize,
    /// The number of actions.
    actions: usize,
}

impl TransitionTable {
    /// The table of `states` states and `actions` actions whose list for each pair is what
    /// `fill(state, action, list)` pushes onto the empty `list`, pairs in ascending order.
    pub(crate) fn build(
        states: usize,
        actions: usize,
        mut fill: impl FnMut(usize, usize, &mut Vec<TableEntry>),
    ) -> TransitionTable {
        let pairs = states * actions;
        let mut entries = Vec::with_capacity(pairs * 3);
        let mut offsets = Vec::with_capacity(pairs + 1);
        offsets.push(0);
        let mut cumulative = Vec::with_capacity(pairs * 3);
        for state in 0..states {
            for action in 0..actions {
                let start = entries.len();
                fill(state, action, &mut entries);
                let mut sum = 0.0;
                for entry in &entries[start..] {
                    // Probabilities are numbers in [0, 1], computed from validated parameters:
                    // the running sums never decrease, which the step's count relies on.
                    assert!(
                        (0.0..=1.0).contains(&entry.probability),
                        "a transition table's probability is {} (state {state}, action {action})",
                        entry.probability
                    );
                    sum += entry.probability;
                    cumulative.push(sum);
                }
                offsets.push(entries.len());
            }
        }
        TransitionTable {
            entries,
            cumulative,
            offsets,
            states,
            actions,
        }
    }

    /// The number of states.
    pub fn state_count(&self) -> usize {
        self.states
    }

    /// The number of actions.
    pub fn action_count(&self) -> usize {
        self.actions
    }

    /// Gymnasium's `P[state][action]`, or `None` for a state or action outside the table.
    #[inline]
    pub fn outcomes(&self, state: i64, action: i64) -> Option<&[TableEntry]> {
        self.entries.get(self.range(state, action)?)
    }

    /// The range of `P[state][action]` in `entries` (and `cumulative`), or `None` for a state
    /// or action outside the table.
    #[inline]
    fn range(&self, state: i64, action: i64) -> Option<std::ops::Range<usize>> {
        let state = usize::try_from(state).ok().filter(|&s| s < self.states)?;
        let action = usize::try_from(action).ok().filter(|&a| a < self.actions)?;
        let pair = state * self.actions + action;
        Some(self.offsets[pair]..self.offsets[pair + 1])
    }

    /// Gymnasium's step draw: one `random()` and the entry of `P[state][action]` that
    /// `categorical_sample` picks; `None`, with nothing drawn, for a state or action outside
    /// the table.
    #[inline]
    pub fn sample<R: Rng + ?Sized>(
        &self,
        state: i64,
        action: i64,
        rng: &mut R,
    ) -> Option<TableEntry> {
        let range = self.range(state, action)?;
        let draw = numpy_random::random(rng);
        // `categorical_sample`'s pick: the first entry whose running sum exceeds the draw is
        // the number of sums at or below it (the sums never decrease); none exceeds it: 0.
        // A list of one entry (every deterministic move) gives 0 either way.
        let cumulative = self.cumulative.get(range.clone())?;
        let index = match cumulative {
            [_] => 0,
            _ => {
                let below = cumulative.iter().filter(|&&sum| sum <= draw).count();
                if below == cumulative.len() { 0 } else { below }
            }
        };
        self.entries.get(range.start + index).copied()
    }

    /// The domain step of a tabular toy-text domain: [`TransitionTable::sample`], with the
    /// entry's probability as `info["prob"]` (Gymnasium's info). Outside the table the state
    /// stays, with reward 0, not terminated, `prob` 1 and nothing drawn.
    #[inline]
    pub(crate) fn step<R: Rng + ?Sized>(
        &self,
        state: i64,
        action: i64,
        rng: &mut R,
    ) -> TransitionOutcome<i64> {
        let entry = self.sample(state, action, rng).unwrap_or(TableEntry {
            probability: 1.0,
            next_state: state,
            reward: 0.0,
            terminated: false,
        });
        let mut outcome = TransitionOutcome::new(
            entry.next_state,
            Value::from_reward(entry.reward),
            entry.terminated,
        );
        outcome.info.insert_static("prob", entry.probability);
        outcome
    }

    /// `P[state][action]` as transitions, in Gymnasium's order with duplicates kept; outside
    /// the table, the one outcome of [`TransitionTable::step`] there.
    pub(crate) fn transitions(&self, state: i64, action: i64) -> Vec<Transition<i64>> {
        let stay = [TableEntry {
            probability: 1.0,
            next_state: state,
            reward: 0.0,
            terminated: false,
        }];
        self.outcomes(state, action)
            .unwrap_or(&stay)
            .iter()
            .map(|entry| Transition {
                probability: entry.probability,
                next_state: entry.next_state,
                value: Value::from_reward(entry.reward),
                terminated: entry.terminated,
            })
            .collect()
    }
}

/// The [`Domain`](rl_core::Domain) methods a tabular toy-text domain whose states, observations
/// and actions are the indices of Gymnasium's table (FrozenLake, CliffWalking) has in common,
/// written inside its `impl Domain` from its fields `table` ([`TransitionTable`]),
/// `initial_distribution` (Gymnasium's `initial_state_distrib`), `observation_space` and
/// `action_space`: the types, the spaces, the reset, the step, the observation (the state) and
/// the number of states (the table's), and Gymnasium's reset info (`{"prob": 1}`). The domain
/// writes `is_terminal` and `episode_cap`.
macro_rules! tabular_domain_methods {
    () => {
        type State = i64;
        type Observation = i64;
        type Action = i64;
        type ObservationSpace = rl_spaces::Discrete;
        type ActionSpace = rl_spaces::Discrete;

        fn observation_space(&self) -> &rl_spaces::Discrete {
            &self.observation_space
        }

        fn action_space(&self) -> &rl_spaces::Discrete {
            &self.action_space
        }

        /// Gymnasium's reset: `categorical_sample(initial_state_distrib)`, one `random()`.
        fn initial_state<R: rand::Rng + ?Sized>(&self, _mode: rl_core::Mode, rng: &mut R) -> i64 {
            $crate::toy_text::categorical_sample(self.initial_distribution.iter().copied(), rng)
                as i64
        }

        /// Gymnasium's step
        /// ([`TransitionTable::sample`](crate::toy_text::tabular::TransitionTable::sample)),
        /// with `info["prob"]`. A state or an action outside the table (which the simulator
        /// never passes) leaves the state in place with reward 0 and draws nothing.
        #[inline]
        fn step<R: rand::Rng + ?Sized>(
            &self,
            state: &i64,
            action: &i64,
            _mode: rl_core::Mode,
            rng: &mut R,
        ) -> rl_core::TransitionOutcome<i64> {
            self.table.step(*state, *action, rng)
        }

        #[inline]
        fn observe(&self, state: &i64) -> i64 {
            *state
        }

        /// Gymnasium's reset info, `{"prob": 1}` (inline: no allocation).
        fn reset_info(&self, _state: &i64) -> rl_core::Info {
            let mut info = rl_core::Info::new();
            info.insert_static("prob", 1);
            info
        }

        fn state_count(&self) -> Option<usize> {
            Some(self.table.state_count())
        }
    };
}

pub(crate) use tabular_domain_methods;

/// How a cell of a grid picture looks: its kind (a class after `cell`), fill colour and label.
pub(crate) struct CellStyle {
    kind: &'static str,
    fill: &'static str,
    label: &'static str,
}

impl CellStyle {
    /// A cell of kind `kind`, filled with `fill`, labelled `label` (empty: no label).
    pub(crate) fn new(kind: &'static str, fill: &'static str, label: &'static str) -> CellStyle {
        CellStyle { kind, fill, label }
    }
}

/// The side of a cell in the grid pictures, in pixels.
const CELL: f64 = 48.0;
/// The margin around the grid in the grid pictures, in pixels.
const MARGIN: f64 = 8.0;

/// The SVG picture of a grid of `rows` by `cols` cells whose cell `index` (row-major) looks as
/// `style(index)` says, with the agent as a circle on cell `agent` (none outside the grid):
/// the pictures of the tabular toy-text domains.
pub(crate) fn grid_svg(
    title: &str,
    rows: usize,
    cols: usize,
    style: impl Fn(usize) -> CellStyle,
    agent: Option<usize>,
) -> String {
    let width = 2.0 * MARGIN + CELL * cols as f64;
    let height = 2.0 * MARGIN + CELL * rows as f64;
    let origin = |index: usize| {
        (
            MARGIN + CELL * (index % cols) as f64,
            MARGIN + CELL * (index / cols) as f64,
        )
    };
    let mut svg = Svg::new(width, height, title);
    svg.open_group("cells");
    for index in 0..rows * cols {
        let CellStyle { kind, fill, .. } = style(index);
        let (x, y) = origin(index);
        svg.element(
            "rect",
            &format!("cell {kind}"),
            &[
                ("x", number(x)),
                ("y", number(y)),
                ("width", number(CELL)),
                ("height", number(CELL)),
                ("data-row", (index / cols).to_string()),
                ("data-col", (index % cols).to_string()),
                ("fill", fill.to_owned()),
                ("stroke", "#555555".to_owned()),
            ],
        );
    }
    svg.close_group();
    svg.open_group("labels");
    for index in 0..rows * cols {
        let CellStyle { kind, label, .. } = style(index);
        if label.is_empty() {
            continue;
        }
        let (x, y) = origin(index);
        svg.text(
            &format!("label {kind}"),
            &[
                ("x", number(x + 4.0)),
                ("y", number(y + 14.0)),
                ("font-size", "12".to_owned()),
            ],
            label,
        );
    }
    svg.close_group();
    if let Some(agent) = agent.filter(|&index| index < rows * cols) {
        let (x, y) = origin(agent);
        svg.element(
            "circle",
            "agent",
            &[
                ("cx", number(x + CELL / 2.0)),
                ("cy", number(y + CELL / 2.0)),
                ("r", number(CELL / 3.0)),
                ("data-row", (agent / cols).to_string()),
                ("data-col", (agent % cols).to_string()),
                ("fill", "#d62728".to_owned()),
            ],
        );
    }
    svg.finish()
}
