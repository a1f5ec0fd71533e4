//! [`LinearTd`]: linear Q-learning and SARSA on tile-coded features.

use rand::Rng;
use rl_spaces::{AnyElement, AnySpace, Discrete, FiniteSpace, FlattenSpace};
use serde::{Deserialize, Serialize};

use super::{
    Agent, Experience, TdTarget, TileCoder, action_index, discrete_actions, epsilon_greedy,
    max_allowed,
};
use crate::ExperimentError;

/// Parameters of [`LinearTd`] (every field optional in JSON).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LinearTdParams {
    /// The step size before division by the number of tilings (default 0.5: α = 0.5 / 8).
    pub learning_rate: f64,
    /// The exploration rate ε (default 0.05).
    pub epsilon: f64,
    /// The number of tilings (default 8).
    pub tilings: usize,
    /// Tiles per dimension (default 8).
    pub tiles: usize,
    /// Bounds `[low, high]` per observation dimension for the tile coder; by default the
    /// observation space's bounds, which must then be finite and below 10^6 in magnitude.
    pub bounds: Option<Vec<[f64; 2]>>,
    /// The initial weight (default 0: optimistic for domains with negative rewards).
    pub initial_weight: f64,
    /// The discount factor of the temporal-difference target, in `[0, 1]`; by default (`None`)
    /// the environment's. A task that never terminates and is only cut by a time limit, such
    /// as Pendulum (discount 1), learns better with one below 1, which keeps its values
    /// bounded.
    pub discount: Option<f64>,
}

impl Default for LinearTdParams {
    fn default() -> Self {
        LinearTdParams {
            learning_rate: 0.5,
            epsilon: 0.05,
            tilings: 8,
            tiles: 8,
            bounds: None,
            initial_weight: 0.0,
            discount: None,
        }
    }
}

/// Linear Q-learning or SARSA with a tile-coding representation (RLPy's agents with
/// `TileCoding`): `Q(s, a) = Σ w[a][f]` over the active features `f` of the flattened
/// observation; the temporal-difference error updates the active weights with step size
/// `learning_rate / tilings`. Termination and truncation are treated as in
/// [`TabularTd`](super::TabularTd).
#[derive(Debug, Clone)]
pub struct LinearTd {
    target: TdTarget,
    params: LinearTdParams,
    observation_space: AnySpace,
    actions: Discrete,
    discount: f64,
    coder: TileCoder,
    weights: Vec<f64>,
    point: Vec<f64>,
    active: Vec<usize>,
    values: Vec<f64>,
}

impl LinearTd {
    /// A learner for these spaces.
    pub fn new(
        target: TdTarget,
        params: LinearTdParams,
        observation_space: &AnySpace,
        action_space: &AnySpace,
        discount: f64,
    ) -> Result<Self, ExperimentError> {
        let name = target.linear_name();
        if !(params.learning_rate > 0.0 && params.learning_rate.is_finite()) {
            return Err(ExperimentError::invalid(
                "agent parameters",
                format!("learning_rate {} must be positive", params.learning_rate),
            ));
        }
        if !(0.0..=1.0).contains(&params.epsilon) {
            return Err(ExperimentError::invalid(
                "agent parameters",
                format!("epsilon {} is not in [0, 1]", params.epsilon),
            ));
        }
        if !params.initial_weight.is_finite() {
            return Err(ExperimentError::invalid(
                "agent parameters",
                "initial_weight is not finite",
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
        let dimensions = observation_space.flat_dim();
        let (low, high): (Vec<f64>, Vec<f64>) = match (&params.bounds, observation_space) {
            (Some(bounds), _) => {
                if bounds.len() != dimensions {
                    return Err(ExperimentError::invalid(
                        "agent parameters",
                        format!(
                            "bounds has {} entries; the observation has {dimensions} dimensions",
                            bounds.len()
                        ),
                    ));
                }
                bounds.iter().map(|[l, h]| (*l, *h)).unzip()
            }
            (None, AnySpace::Box(b)) => {
                let (low, high) = (b.low_f64(), b.high_f64());
                if let Some(d) =
                    (0..low.len()).find(|d| !(low[*d].abs() < 1e6 && high[*d].abs() < 1e6))
                {
                    return Err(ExperimentError::IncompatibleAgent {
                        agent: name,
                        reason: format!(
                            "observation dimension {d} is unbounded ([{}, {}]); give \"bounds\" in the agent parameters",
                            low[d], high[d]
                        ),
                    });
                }
                (low, high)
            }
            (None, other) => {
                return Err(ExperimentError::IncompatibleAgent {
                    agent: name,
                    reason: format!(
                        "it needs a bounded Box observation space (or \"bounds\"), not {other}"
                    ),
                });
            }
        };
        let coder = TileCoder::new(&low, &high, params.tiles, params.tilings)?;
        let action_count = actions.n() as usize;
        Ok(LinearTd {
            target,
            observation_space: observation_space.clone(),
            actions,
            discount,
            weights: vec![params.initial_weight; coder.feature_count() * action_count],
            point: vec![0.0; dimensions],
            active: vec![0; coder.tilings()],
            values: vec![0.0; action_count],
            coder,
            params,
        })
    }

    /// Computes the active features of `observation` into `self.active` and the value of every
    /// action into `self.values`.
    fn evaluate(&mut self, observation: &AnyElement) -> Result<(), ExperimentError> {
        self.observation_space
            .flatten_into(observation, &mut self.point)?;
        self.coder.active_features(&self.point, &mut self.active);
        let features = self.coder.feature_count();
        for (a, value) in self.values.iter_mut().enumerate() {
            let row = &self.weights[a * features..(a + 1) * features];
            *value = self.active.iter().map(|f| row[*f]).sum();
        }
        Ok(())
    }
}

impl Agent for LinearTd {
    fn name(&self) -> &'static str {
        self.target.linear_name()
    }

    fn act(
        &mut self,
        observation: &AnyElement,
        mask: Option<&[bool]>,
        explore: bool,
        rng: &mut dyn Rng,
    ) -> Result<AnyElement, ExperimentError> {
        self.evaluate(observation)?;
        let index = epsilon_greedy(&self.values, mask, self.params.epsilon, explore, rng)
            .ok_or_else(|| ExperimentError::invalid("action mask", "no action is applicable"))?;
        self.actions
            .element_at(index)
            .map(AnyElement::Int)
            .ok_or_else(|| ExperimentError::invalid("action", "index out of range"))
    }

    fn learn(&mut self, experience: &Experience<'_>) -> Result<(), ExperimentError> {
        let future = if experience.terminated {
            0.0
        } else {
            self.evaluate(experience.next_observation)?;
            match (self.target, experience.next_action) {
                (TdTarget::Sarsa, Some(next_action)) => {
                    self.values[action_index(&self.actions, next_action)?]
                }
                _ => max_allowed(&self.values, experience.next_mask),
            }
        };
        let action = action_index(&self.actions, experience.action)?;
        self.evaluate(experience.observation)?;
        let error = experience.reward + self.discount * future - self.values[action];
        let step = self.params.learning_rate / self.coder.tilings() as f64 * error;
        let features = self.coder.feature_count();
        for f in &self.active {
            self.weights[action * features + f] += step;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rl_spaces::BoxSpace;

    #[test]
    fn unbounded_observations_need_bounds() {
        let observations = AnySpace::from(BoxSpace::uniform(&[2], f32::MIN, f32::MAX).unwrap());
        let actions = AnySpace::from(Discrete::new(2).unwrap());
        let error = LinearTd::new(
            TdTarget::QLearning,
            LinearTdParams::default(),
            &observations,
            &actions,
            1.0,
        )
        .unwrap_err();
        assert!(error.to_string().contains("give \"bounds\""), "{error}");
        let params = LinearTdParams {
            bounds: Some(vec![[-1.0, 1.0], [-2.0, 2.0]]),
            ..LinearTdParams::default()
        };
        assert!(LinearTd::new(TdTarget::QLearning, params, &observations, &actions, 1.0).is_ok());
    }

    #[test]
    fn a_discount_outside_zero_to_one_is_an_error() {
        let observations = AnySpace::from(BoxSpace::uniform(&[1], 0.0f64, 1.0).unwrap());
        let actions = AnySpace::from(Discrete::new(2).unwrap());
        for (discount, valid) in [(Some(1.5), false), (Some(-0.1), false), (Some(0.99), true)] {
            let params = LinearTdParams {
                discount,
                ..LinearTdParams::default()
            };
            let result = LinearTd::new(TdTarget::Sarsa, params, &observations, &actions, 1.0);
            assert_eq!(result.is_ok(), valid, "{discount:?}");
            if let Err(error) = result {
                assert!(error.to_string().contains("discount"), "{error}");
            }
        }
    }

    #[test]
    fn learning_moves_the_value_toward_the_target() {
        let observations = AnySpace::from(BoxSpace::uniform(&[1], 0.0f64, 1.0).unwrap());
        let actions = AnySpace::from(Discrete::new(2).unwrap());
        let params = LinearTdParams {
            learning_rate: 1.0,
            epsilon: 0.0,
            ..LinearTdParams::default()
        };
        let mut agent =
            LinearTd::new(TdTarget::QLearning, params, &observations, &actions, 1.0).unwrap();
        let s = AnyElement::from(ndarray::ArrayD::from_elem(ndarray::IxDyn(&[1]), 0.5f64));
        let a = AnyElement::Int(1);
        let experience = Experience {
            observation: &s,
            action: &a,
            reward: -1.0,
            next_observation: &s,
            next_mask: None,
            next_action: None,
            terminated: true,
            truncated: false,
        };
        agent.learn(&experience).unwrap();
        agent.evaluate(&s).unwrap();
        assert!((agent.values[1] + 1.0).abs() < 1e-12, "{:?}", agent.values);
        assert_eq!(agent.values[0], 0.0);
    }
}
