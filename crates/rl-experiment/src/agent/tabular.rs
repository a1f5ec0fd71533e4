//! [`TabularTd`]: tabular Q-learning and SARSA with ε-greedy exploration.

use std::collections::HashMap;

use rand::Rng;
use rl_spaces::{AnyElement, AnySpace, Discrete, FiniteSpace, FlattenSpace, Space};
use serde::{Deserialize, Serialize};

use super::{Agent, Experience, action_index, discrete_actions, epsilon_greedy, max_allowed};
use crate::ExperimentError;

/// The value a temporal-difference learner bootstraps from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TdTarget {
    /// Off-policy: the best applicable action's value in the state reached.
    QLearning,
    /// On-policy: the value of the action the agent chose for the state reached.
    Sarsa,
}

impl TdTarget {
    /// The name of the tabular agent with this target ([`TabularTd`]): `q-learning` or
    /// `sarsa`, as registered and as [`Agent::name`] gives it.
    pub const fn tabular_name(self) -> &'static str {
        match self {
            TdTarget::QLearning => "q-learning",
            TdTarget::Sarsa => "sarsa",
        }
    }

    /// The name of the tile-coded agent with this target
    /// ([`LinearTd`](super::LinearTd)): `linear-q` or `linear-sarsa`.
    pub const fn linear_name(self) -> &'static str {
        match self {
            TdTarget::QLearning => "linear-q",
            TdTarget::Sarsa => "linear-sarsa",
        }
    }
}

/// Parameters of [`TabularTd`] (every field optional in JSON).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TabularTdParams {
    /// The step size α, in `(0, 1]` (default 0.1).
    pub learning_rate: f64,
    /// The exploration rate ε, in `[0, 1]` (default 0.1).
    pub epsilon: f64,
    /// The initial value of every Q(s, a) (default 0).
    pub initial_value: f64,
    /// The discount factor of the temporal-difference target, in `[0, 1]`; by default
    /// (`None`) the environment's. An undiscounted episodic task whose reward comes only at
    /// the goal (FrozenLake) learns a greedy policy that heads there with one below 1.
    pub discount: Option<f64>,
}

impl Default for TabularTdParams {
    fn default() -> Self {
        TabularTdParams {
            learning_rate: 0.1,
            epsilon: 0.1,
            initial_value: 0.0,
            discount: None,
        }
    }
}

/// The most states a Q table over a finite observation space may have.
const MAX_STATES: usize = 10_000_000;

/// The most distinct observations a Q table keyed by observation may hold (each keeps its
/// key, about a byte per flat entry: some 200 MB for MiniGrid's observations at the limit).
pub const MAX_SEEN_OBSERVATIONS: usize = 1 << 20;

/// How a [`TabularTd`] numbers observations.
#[derive(Debug, Clone)]
enum Numbering {
    /// By their index in the finite observation space.
    Finite,
    /// In the order first seen, keyed by their flat form (an observation space too large to
    /// enumerate, such as MiniGrid's image, direction and mission).
    Seen(HashMap<Box<[u8]>, usize>),
}

/// Whether every value of the space's elements is discrete (integers and text, no floats),
/// so that equal observations are the same state: what a table keyed by observation needs.
fn discrete_valued(space: &AnySpace) -> bool {
    match space {
        AnySpace::Box(space) => !space.dtype().is_float(),
        AnySpace::Tuple(tuple) => tuple.spaces().iter().all(discrete_valued),
        AnySpace::Dict(dict) => dict.spaces().values().all(discrete_valued),
        AnySpace::Discrete(_)
        | AnySpace::MultiDiscrete(_)
        | AnySpace::MultiBinary(_)
        | AnySpace::Text(_) => true,
        _ => false,
    }
}

/// The key of an observation in a table keyed by observation: its flat entries, each an
/// integer from 0 to 254 as one byte, anything else as the byte 255 and its eight bytes
/// (a code no two different flat vectors share).
fn observation_key(flat: &[f64], key: &mut Vec<u8>) {
    key.clear();
    for &value in flat {
        if value.fract() == 0.0 && (0.0..255.0).contains(&value) {
            key.push(value as u8);
        } else {
            key.push(u8::MAX);
            key.extend_from_slice(&value.to_bits().to_le_bytes());
        }
    }
}

/// Tabular Q-learning or SARSA (RLPy's `Q_Learning` and `SARSA` with a tabular
/// representation): one value per (observation index, action), where the observation index is
/// the observation's number in its finite space (for GridWorld, RLPy's state index).
///
/// An observation space that is not finite but flattens (MiniGrid's image, direction and
/// mission, or any space too large to enumerate) is keyed by observation instead: each
/// distinct observation gets the next index when first seen, up to
/// [`MAX_SEEN_OBSERVATIONS`] (an error beyond). Such a table has no
/// [`state_values`](Agent::state_values), since its indices are not the space's.
///
/// The update is `Q(s, a) += α (r + γ F - Q(s, a))` with `F = 0` when the state reached is
/// terminal, and otherwise the best applicable value there (Q-learning) or the value of the
/// next chosen action (SARSA). A truncated, non-terminal step bootstraps as usual.
#[derive(Debug, Clone)]
pub struct TabularTd {
    target: TdTarget,
    params: TabularTdParams,
    observation_space: AnySpace,
    numbering: Numbering,
    /// The flat form and key of the last observation keyed (reused buffers).
    flat: Vec<f64>,
    key: Vec<u8>,
    actions: Discrete,
    action_count: usize,
    discount: f64,
    q: Vec<f64>,
    /// Whether each (state, action) was ever applicable when the agent acted or learned there.
    applicable: Vec<bool>,
}

impl TabularTd {
    /// A learner for these spaces, with every Q value at `params.initial_value`.
    pub fn new(
        target: TdTarget,
        params: TabularTdParams,
        observation_space: &AnySpace,
        action_space: &AnySpace,
        discount: f64,
    ) -> Result<Self, ExperimentError> {
        let name = target.tabular_name();
        if !(params.learning_rate > 0.0 && params.learning_rate <= 1.0) {
            return Err(ExperimentError::invalid(
                "agent parameters",
                format!("learning_rate {} is not in (0, 1]", params.learning_rate),
            ));
        }
        if !(0.0..=1.0).contains(&params.epsilon) {
            return Err(ExperimentError::invalid(
                "agent parameters",
                format!("epsilon {} is not in [0, 1]", params.epsilon),
            ));
        }
        if !params.initial_value.is_finite() {
            return Err(ExperimentError::invalid(
                "agent parameters",
                "initial_value is not finite",
            ));
        }
        if let Some(discount) = params.discount
            && !(0.0..=1.0).contains(&discount)
        {
            return Err(ExperimentError::invalid(
                "agent parameters",
                format!("discount {discount} is not in [0, 1]"),
            ));
        }
        let discount = params.discount.unwrap_or(discount);
        let actions = discrete_actions(name, action_space)?;
        let (states, numbering) = match observation_space.cardinality() {
            Some(states) if states <= MAX_STATES => (states, Numbering::Finite),
            _ if discrete_valued(observation_space) => (0, Numbering::Seen(HashMap::new())),
            _ => {
                return Err(ExperimentError::IncompatibleAgent {
                    agent: name,
                    reason: format!(
                        "it needs a finite observation space of at most {MAX_STATES} elements \
                         or one without floats to key by observation, not {observation_space}"
                    ),
                });
            }
        };
        let action_count = actions.n() as usize;
        Ok(TabularTd {
            target,
            params: params.clone(),
            observation_space: observation_space.clone(),
            numbering,
            flat: Vec::new(),
            key: Vec::new(),
            actions,
            action_count,
            discount,
            q: vec![params.initial_value; states * action_count],
            applicable: vec![false; states * action_count],
        })
    }

    fn state_index(&mut self, observation: &AnyElement) -> Result<usize, ExperimentError> {
        let not_in_space = || {
            ExperimentError::Space(rl_spaces::SpaceError::NotInSpace {
                element: format!("{observation:?}"),
                space: self.observation_space.to_string(),
            })
        };
        let Numbering::Seen(seen) = &mut self.numbering else {
            return self
                .observation_space
                .index_of(observation)
                .ok_or_else(not_in_space);
        };
        if !self.observation_space.contains(observation) {
            return Err(not_in_space());
        }
        self.flat.resize(self.observation_space.flat_dim(), 0.0);
        self.observation_space
            .flatten_into(observation, &mut self.flat)
            .map_err(ExperimentError::Space)?;
        observation_key(&self.flat, &mut self.key);
        if let Some(&index) = seen.get(self.key.as_slice()) {
            return Ok(index);
        }
        if seen.len() >= MAX_SEEN_OBSERVATIONS {
            return Err(ExperimentError::invalid(
                "observations",
                format!(
                    "more than {MAX_SEEN_OBSERVATIONS} distinct observations for a table keyed \
                     by observation"
                ),
            ));
        }
        let index = seen.len();
        seen.insert(self.key.clone().into_boxed_slice(), index);
        self.q.extend(std::iter::repeat_n(
            self.params.initial_value,
            self.action_count,
        ));
        self.applicable
            .extend(std::iter::repeat_n(false, self.action_count));
        Ok(index)
    }

    /// Remembers which actions are applicable in `state`.
    fn note_applicable(&mut self, state: usize, mask: Option<&[bool]>) {
        let row = &mut self.applicable[state * self.action_count..(state + 1) * self.action_count];
        for (a, slot) in row.iter_mut().enumerate() {
            *slot |= mask.is_none_or(|m| m.get(a).copied().unwrap_or(false));
        }
    }

    fn row(&self, state: usize) -> &[f64] {
        &self.q[state * self.action_count..(state + 1) * self.action_count]
    }

    /// The Q values, row-major by observation index then action index.
    pub fn q_values(&self) -> &[f64] {
        &self.q
    }
}

impl Agent for TabularTd {
    fn name(&self) -> &'static str {
        self.target.tabular_name()
    }

    fn act(
        &mut self,
        observation: &AnyElement,
        mask: Option<&[bool]>,
        explore: bool,
        rng: &mut dyn Rng,
    ) -> Result<AnyElement, ExperimentError> {
        let state = self.state_index(observation)?;
        self.note_applicable(state, mask);
        let index = epsilon_greedy(self.row(state), mask, self.params.epsilon, explore, rng)
            .ok_or_else(|| ExperimentError::invalid("action mask", "no action is applicable"))?;
        self.actions
            .element_at(index)
            .map(AnyElement::Int)
            .ok_or_else(|| ExperimentError::invalid("action", "index out of range"))
    }

    fn learn(&mut self, experience: &Experience<'_>) -> Result<(), ExperimentError> {
        let state = self.state_index(experience.observation)?;
        let action = action_index(&self.actions, experience.action)?;
        let future = if experience.terminated {
            0.0
        } else {
            let next = self.state_index(experience.next_observation)?;
            match (self.target, experience.next_action) {
                (TdTarget::Sarsa, Some(next_action)) => {
                    self.row(next)[action_index(&self.actions, next_action)?]
                }
                _ => max_allowed(self.row(next), experience.next_mask),
            }
        };
        let target = experience.reward + self.discount * future;
        let cell = &mut self.q[state * self.action_count + action];
        *cell += self.params.learning_rate * (target - *cell);
        Ok(())
    }

    /// The greedy value and action of each state over the actions seen applicable there (all
    /// actions for a state never visited, whose value is then the initial value).
    fn state_values(&self) -> Option<Vec<(f64, Option<usize>)>> {
        if matches!(self.numbering, Numbering::Seen(_)) {
            return None;
        }
        let states = self.q.len() / self.action_count.max(1);
        Some(
            (0..states)
                .map(|s| {
                    let seen = &self.applicable[s * self.action_count..(s + 1) * self.action_count];
                    let any_seen = seen.iter().any(|x| *x);
                    let (best, value) = self
                        .row(s)
                        .iter()
                        .enumerate()
                        .filter(|(a, _)| !any_seen || seen[*a])
                        .fold((None, f64::NEG_INFINITY), |(bi, bv), (i, v)| {
                            if *v > bv { (Some(i), *v) } else { (bi, bv) }
                        });
                    (value, best)
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn spaces() -> (AnySpace, AnySpace) {
        (
            AnySpace::from(Discrete::new(3).unwrap()),
            AnySpace::from(Discrete::new(2).unwrap()),
        )
    }

    #[test]
    fn terminal_steps_do_not_bootstrap_and_truncated_ones_do() {
        let (obs, act) = spaces();
        let params = TabularTdParams {
            learning_rate: 1.0,
            epsilon: 0.0,
            initial_value: 5.0,
            discount: None,
        };
        let mut agent = TabularTd::new(TdTarget::QLearning, params, &obs, &act, 0.5).unwrap();
        let (s, a, s2) = (AnyElement::Int(0), AnyElement::Int(1), AnyElement::Int(1));
        let mut experience = Experience {
            observation: &s,
            action: &a,
            reward: 1.0,
            next_observation: &s2,
            next_mask: None,
            next_action: None,
            terminated: true,
            truncated: true,
        };
        agent.learn(&experience).unwrap();
        assert_eq!(
            agent.q_values()[1],
            1.0,
            "terminal (even if also truncated): no bootstrap"
        );
        experience.terminated = false;
        agent.learn(&experience).unwrap();
        assert_eq!(
            agent.q_values()[1],
            1.0 + 0.5 * 5.0,
            "truncated only: bootstrap from Q(s', .)"
        );
    }

    #[test]
    fn sarsa_bootstraps_from_the_chosen_action() {
        let (obs, act) = spaces();
        let params = TabularTdParams {
            learning_rate: 1.0,
            epsilon: 0.0,
            initial_value: 0.0,
            discount: None,
        };
        let mut agent = TabularTd::new(TdTarget::Sarsa, params, &obs, &act, 1.0).unwrap();
        agent.q[2] = 10.0; // Q(1, 0)
        agent.q[3] = 20.0; // Q(1, 1)
        let (s, a, s2, a2) = (
            AnyElement::Int(0),
            AnyElement::Int(0),
            AnyElement::Int(1),
            AnyElement::Int(0),
        );
        let experience = Experience {
            observation: &s,
            action: &a,
            reward: 0.0,
            next_observation: &s2,
            next_mask: None,
            next_action: Some(&a2),
            terminated: false,
            truncated: false,
        };
        agent.learn(&experience).unwrap();
        assert_eq!(agent.q_values()[0], 10.0);
    }

    #[test]
    fn greedy_actions_respect_the_mask() {
        let (obs, act) = spaces();
        let mut agent = TabularTd::new(
            TdTarget::QLearning,
            TabularTdParams::default(),
            &obs,
            &act,
            1.0,
        )
        .unwrap();
        agent.q[1] = 3.0;
        let mut rng = rand_pcg::Pcg64::seed_from_u64(1);
        let greedy = agent
            .act(&AnyElement::Int(0), None, false, &mut rng)
            .unwrap();
        assert_eq!(greedy, AnyElement::Int(1));
        let masked = agent
            .act(&AnyElement::Int(0), Some(&[true, false]), false, &mut rng)
            .unwrap();
        assert_eq!(masked, AnyElement::Int(0));
        assert!(
            agent
                .act(&AnyElement::Int(7), None, false, &mut rng)
                .is_err()
        );
    }

    #[test]
    fn parameters_are_validated() {
        let (obs, act) = spaces();
        for params in [
            TabularTdParams {
                learning_rate: 0.0,
                ..TabularTdParams::default()
            },
            TabularTdParams {
                epsilon: 1.5,
                ..TabularTdParams::default()
            },
            TabularTdParams {
                initial_value: f64::NAN,
                ..TabularTdParams::default()
            },
        ] {
            assert!(TabularTd::new(TdTarget::QLearning, params, &obs, &act, 1.0).is_err());
        }
        let continuous = AnySpace::from(rl_spaces::BoxSpace::uniform(&[2], 0.0f32, 1.0).unwrap());
        assert!(
            TabularTd::new(
                TdTarget::QLearning,
                TabularTdParams::default(),
                &continuous,
                &act,
                1.0
            )
            .is_err()
        );
    }
}
