//! [`NChain`]: a chain of states where a patient agent earns more than a greedy one (Strens,
//! 2000), the domain this example exposes to Python.
//!
//! # Description
//!
//! The agent walks along states `0..length`, starting at state 0. Moving forward goes one state
//! up the chain (and stays in the last state, where it pays the large reward); going back
//! returns to state 0 and pays the small reward. Each action is swapped for the other with
//! probability `slip`. The greedy policy (always back) earns `small` per step; the optimal one
//! walks to the end of the chain and stays there.
//!
//! # Action space
//!
//! `Discrete(2)`: [`FORWARD`] = 0, [`BACK`] = 1.
//!
//! # Observation space
//!
//! `Discrete(length)`: the agent's state.
//!
//! # Rewards
//!
//! `large` for a forward move in the last state, `small` for a move back, 0 otherwise (after
//! the slip: the reward is that of the move made, not of the move chosen).
//!
//! # Starting state
//!
//! State 0, always.
//!
//! # Episode end
//!
//! - Termination: never.
//! - Truncation: `episode_cap` steps (1000 by default, as Gym's `NChain-v0`).
//!
//! # Constraints
//!
//! One declared constraint, "keeps its progress": the next state is not below the current one
//! (violated by every move back from a state above 0, slipped or chosen). Registered with
//! `with_constraints()`, its violations reach Python in the step's info: `info["violations"]`,
//! the list of the violated constraints' names, on the steps that violate one.
//!
//! # Parameters
//!
//! `length` (5), `slip` (0.2), `small` (2.0), `large` (10.0), `episode_cap` (1000), all
//! validated by [`NChain::new`].
//!
//! # Reference
//!
//! M. Strens, "A Bayesian framework for reinforcement learning", ICML 2000; Gym's `NChain-v0`.

use rl_core::rand::{Rng, RngExt};
use rl_core::{
    BoundConstraint, BoxedConstraint, ConstrainedDomain, CoreError, Domain, EnumerableTransitions,
    Inequality, Memory, Mode, Render, Transition, TransitionOutcome, Value,
};
use rl_spaces::Discrete;
use serde::Deserialize;

/// The action that moves one state up the chain.
pub const FORWARD: i64 = 0;
/// The action that returns to state 0.
pub const BACK: i64 = 1;

/// The parameters of [`NChain`], read from JSON (Python keyword arguments) over the defaults.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NChainParams {
    /// The number of states, at least 2.
    pub length: u32,
    /// The probability that the action chosen is swapped for the other, in `[0, 1]`.
    pub slip: f64,
    /// The reward of a move back to state 0.
    pub small: f64,
    /// The reward of a forward move in the last state.
    pub large: f64,
    /// The number of steps after which an episode is truncated, at least 1.
    pub episode_cap: u64,
}

impl Default for NChainParams {
    fn default() -> Self {
        NChainParams {
            length: 5,
            slip: 0.2,
            small: 2.0,
            large: 10.0,
            episode_cap: 1000,
        }
    }
}

/// A slippery chain; see the [module documentation](self).
#[derive(Debug, Clone, PartialEq)]
pub struct NChain {
    last: i64,
    slip: f64,
    small: f64,
    large: f64,
    episode_cap: u64,
    observation_space: Discrete,
    action_space: Discrete,
}

impl NChain {
    /// The chain described by `params`; fails with an error naming the parameter that is out of
    /// range (a chain shorter than 2, a slip outside `[0, 1]`, a reward that is not finite, an
    /// episode cap of 0).
    pub fn new(params: NChainParams) -> Result<Self, CoreError> {
        if params.length < 2 {
            return Err(CoreError::invalid_parameter(
                "length",
                format!("{}; a chain needs at least 2 states", params.length),
            ));
        }
        if !(0.0..=1.0).contains(&params.slip) {
            return Err(CoreError::invalid_parameter(
                "slip",
                format!("{} is not a probability in [0, 1]", params.slip),
            ));
        }
        for (name, reward) in [("small", params.small), ("large", params.large)] {
            if !reward.is_finite() {
                return Err(CoreError::invalid_parameter(
                    name,
                    format!("{reward} is not a finite reward"),
                ));
            }
        }
        if params.episode_cap == 0 {
            return Err(CoreError::invalid_parameter(
                "episode_cap",
                "0; an episode needs at least one step",
            ));
        }
        Ok(NChain {
            last: i64::from(params.length) - 1,
            slip: params.slip,
            small: params.small,
            large: params.large,
            episode_cap: params.episode_cap,
            observation_space: Discrete::new(u64::from(params.length))?,
            action_space: Discrete::new(2)?,
        })
    }

    /// The state reached and the reward earned by the move `made` (after the slip) in `state`.
    fn moved(&self, state: i64, made: i64) -> (i64, f64) {
        if made == BACK {
            (0, self.small)
        } else if state == self.last {
            (state, self.large)
        } else {
            (state + 1, 0.0)
        }
    }

    /// The other action.
    fn swapped(action: i64) -> i64 {
        if action == FORWARD { BACK } else { FORWARD }
    }
}

/// The chain's one constraint, "keeps its progress" (see the module documentation).
impl ConstrainedDomain for NChain {
    fn constraints(&self) -> Vec<BoxedConstraint<i64, i64>> {
        let keeps_progress = BoundConstraint::new(
            "keeps its progress",
            true,
            |memory: &Memory<i64>, _: &i64, next: Option<&i64>| match (memory.current(), next) {
                (Some(current), Some(next)) => (next - current) as f64,
                _ => f64::NAN,
            },
            Inequality::GreaterOrEqual,
            0.0,
        );
        keeps_progress
            .map(|c| vec![Box::new(c) as BoxedConstraint<i64, i64>])
            .unwrap_or_default()
    }
}

impl Domain for NChain {
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
        // Always draw, so that the generator advances the same way whatever the slip.
        let slipped = rng.random::<f64>() < self.slip;
        let made = if slipped {
            Self::swapped(*action)
        } else {
            *action
        };
        let (next, reward) = self.moved(*state, made);
        let mut outcome = TransitionOutcome::new(next, Value::from_reward(reward), false);
        // The step's info: whether the action slipped. It reaches Python as `info["slipped"]`
        // (single environments) and `info["slipped"]`, `info["_slipped"]` (vectors), with no
        // code outside this domain. (An info with entries costs an allocation per step.)
        outcome.info.insert("slipped", slipped);
        outcome
    }

    fn observe(&self, state: &i64) -> i64 {
        *state
    }

    fn is_terminal(&self, _state: &i64) -> bool {
        false
    }

    fn discount(&self) -> f64 {
        0.95
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(self.episode_cap)
    }

    fn state_space_limits(&self) -> Option<Vec<[f64; 2]>> {
        Some(vec![[0.0, self.last as f64]])
    }

    fn state_count(&self) -> Option<usize> {
        usize::try_from(self.last + 1).ok()
    }
}

impl EnumerableTransitions for NChain {
    fn transitions(&self, state: &i64, action: &i64, _mode: Mode) -> Vec<Transition<i64>> {
        [
            (*action, 1.0 - self.slip),
            (Self::swapped(*action), self.slip),
        ]
        .into_iter()
        .map(|(made, probability)| {
            let (next_state, reward) = self.moved(*state, made);
            Transition {
                probability,
                next_state,
                value: Value::from_reward(reward),
                terminated: false,
            }
        })
        .collect()
    }
}

impl Render for NChain {
    fn render_text(&self, state: &i64) -> String {
        (0..=self.last)
            .map(|s| if s == *state { 'A' } else { '.' })
            .collect()
    }

    fn render_svg(&self, state: &i64) -> String {
        let cell = 40;
        let width = cell * (self.last + 1);
        let mut svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{cell}" viewBox="0 0 {width} {cell}">"#
        );
        for s in 0..=self.last {
            svg.push_str(&format!(
                r##"<rect x="{}" y="0" width="{cell}" height="{cell}" fill="#f0f0f0" stroke="#333"/>"##,
                s * cell
            ));
        }
        svg.push_str(&format!(
            r##"<circle cx="{}" cy="{}" r="{}" fill="#386cb0"/></svg>"##,
            state * cell + cell / 2,
            cell / 2,
            cell / 3
        ));
        svg
    }
}
