//! The learning criterion of an id: what `rl run --domain ID` with its registration's defaults
//! must reach, read from the registration's `learning_threshold` setting ([`criterion`]), and
//! the exact optimum that a relative criterion is measured against
//! ([`optimal_evaluation_return`]).
//!
//! # The setting
//!
//! `learning_threshold` is one of
//!
//! - a number: the final mean evaluation return must be at least that number (CartPole's 475,
//!   Blackjack's -0.10);
//! - `{"fraction_of_optimum": f}` with `f` in `(0, 1]`: the final mean evaluation return must
//!   be at least `optimum - (1 - f) * |optimum|`, where `optimum` is
//!   [`optimal_evaluation_return`], the best expected evaluation return of any policy
//!   (the toy-text ids FrozenLake, Taxi and CliffWalking, with `f = 0.9`);
//! - `null`: no learning claim for the default agent (no row in the learning table).
//!
//! # The rule for "90% of the optimum"
//!
//! For a positive optimum the threshold `optimum - 0.1 * |optimum|` is `0.9 * optimum`, 90% of
//! it. For a negative one (CliffWalking's -13: every step costs 1), "90% of -13" would be
//! -11.7, better than the optimum, which no policy reaches; the rule takes the same distance
//! below the optimum instead, 10% of its magnitude: -13 - 1.3 = -14.3. So the threshold is
//! always 10% of the optimum's magnitude below it, whatever its sign (stricter, for a negative
//! optimum, than the other usual reading, `optimum / 0.9` = -14.44).
//!
//! # The optimum
//!
//! [`optimal_evaluation_return`] computes, from the domain's transition model
//! ([`EnumerableTransitions`]), the best expected return of an evaluation episode as
//! `rl run` evaluates it: from the domain's start distribution, undiscounted (the evaluation's
//! `return_mean` is the plain sum of rewards), ended by termination or after the episode cap
//! or the evaluation's step limit ([`DEFAULT_EVALUATION_STEP_LIMIT`], for a domain without a
//! cap), whichever comes first. It is finite-horizon value iteration
//! ([`optimal_return_within`]): the optimum over every policy, even one that looks at the
//! step count, so no greedy policy's expected return exceeds it. For FrozenLake with its cap
//! of 100 steps it is below the uncapped probability of reaching the goal (about 0.74 against
//! 0.82 on the 4 by 4 map).
//!
//! The domains it knows are the tabular toy-text ones, whose states are Gymnasium's state
//! indices: FrozenLake, CliffWalking (either id) and Taxi (with or without the fickle
//! passenger).

use rl_core::EnumerableTransitions;
use rl_domains::toy_text::cliff_walking::CliffWalking;
use rl_domains::toy_text::frozen_lake::FrozenLake;
use rl_domains::toy_text::taxi::{TAXI_STATE_COUNT, Taxi, TaxiState};
use serde_json::Value as JsonValue;

use crate::ExperimentError;
use crate::agent::optimal_return_within;
use crate::builtins as registry;

/// The most evaluation steps of an episode `rl run` makes when the domain has no episode cap
/// (or a larger one): [`ExperimentConfig::evaluation_step_limit`](crate::ExperimentConfig)'s
/// default.
pub const DEFAULT_EVALUATION_STEP_LIMIT: u64 = 10_000;

/// What `rl run --domain ID` with the registration's defaults must reach (see the
/// [module documentation](self)).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Criterion {
    /// The least final mean evaluation return that passes.
    pub threshold: f64,
    /// For a criterion relative to the optimum, the optimum and the fraction `f` of the
    /// setting; `None` for a fixed threshold.
    pub relative: Option<(f64, f64)>,
}

impl Criterion {
    /// The threshold of the fraction `fraction` of `optimum`: `optimum - (1 - fraction) *
    /// |optimum|` (see the [module documentation](self) for why, for negative optima).
    pub fn of_optimum(optimum: f64, fraction: f64) -> Criterion {
        Criterion {
            threshold: optimum - (1.0 - fraction) * optimum.abs(),
            relative: Some((optimum, fraction)),
        }
    }
}

/// The learning criterion of `id`, from its registration's `learning_threshold` setting
/// (`None` when it is `null`: no claim). Errors if the id is unknown, has no such setting, the
/// setting is neither a number, `null` nor `{"fraction_of_optimum": f}` with `f` in `(0, 1]`,
/// or the optimum cannot be computed for it.
pub fn criterion(id: &str) -> Result<Option<Criterion>, ExperimentError> {
    registry::register_builtins();
    let entry = rl_core::registry::describe(id)
        .map_err(|error| ExperimentError::Domain(error.to_string()))?;
    let settings = entry.run_settings();
    let setting = settings.learning_threshold.as_ref().ok_or_else(|| {
        ExperimentError::invalid(
            "learning_threshold",
            format!("{id}'s registration has no learning_threshold setting"),
        )
    })?;
    let bad = || {
        ExperimentError::invalid(
            "learning_threshold",
            format!(
                "{id}: {setting} is neither a number, null nor {{\"fraction_of_optimum\": f}} \
                 with f in (0, 1]"
            ),
        )
    };
    match setting {
        JsonValue::Null => Ok(None),
        JsonValue::Number(number) => Ok(Some(Criterion {
            threshold: number.as_f64().ok_or_else(bad)?,
            relative: None,
        })),
        JsonValue::Object(fields) if fields.len() == 1 => {
            let fraction = fields
                .get("fraction_of_optimum")
                .and_then(JsonValue::as_f64)
                .filter(|f| *f > 0.0 && *f <= 1.0)
                .ok_or_else(bad)?;
            let optimum = optimal_evaluation_return(id, None, DEFAULT_EVALUATION_STEP_LIMIT)?
                .ok_or_else(|| {
                    ExperimentError::invalid(
                        "learning_threshold",
                        format!("{id}: the optimum of this domain cannot be computed"),
                    )
                })?;
            Ok(Some(Criterion::of_optimum(optimum, fraction)))
        }
        _ => Err(bad()),
    }
}

/// The best expected undiscounted return of an evaluation episode of `id` built with `params`
/// (see the [module documentation](self)): from the start distribution, within the episode
/// cap and `evaluation_step_limit` steps. `None` for a domain it does not know how to
/// enumerate.
pub fn optimal_evaluation_return(
    id: &str,
    params: Option<&JsonValue>,
    evaluation_step_limit: u64,
) -> Result<Option<f64>, ExperimentError> {
    let domain =
        registry::build(id, params).map_err(|error| ExperimentError::Domain(error.to_string()))?;
    let horizon = domain
        .episode_cap()
        .map_or(evaluation_step_limit, |cap| cap.min(evaluation_step_limit));
    let any = domain.as_any();
    if let Some(lake) = any.downcast_ref::<FrozenLake>() {
        let table = lake.table();
        let initial = lake.initial_state_distribution();
        return indexed_optimum(
            lake,
            table.state_count(),
            table.action_count(),
            initial,
            horizon,
        )
        .map(Some);
    }
    if let Some(cliff) = any.downcast_ref::<CliffWalking>() {
        let table = cliff.table();
        let initial = cliff.initial_state_distribution();
        return indexed_optimum(
            cliff,
            table.state_count(),
            table.action_count(),
            initial,
            horizon,
        )
        .map(Some);
    }
    if let Some(taxi) = any.downcast_ref::<Taxi>() {
        return taxi_optimum(taxi, horizon).map(Some);
    }
    Ok(None)
}

/// The optimum of a domain whose states are the indices `0..states` and actions `0..actions`.
fn indexed_optimum<D>(
    domain: &D,
    states: usize,
    actions: usize,
    initial: &[f64],
    horizon: u64,
) -> Result<f64, ExperimentError>
where
    D: EnumerableTransitions<State = i64, Action = i64>,
{
    let list: Vec<i64> = (0..states as i64).collect();
    let actions: Vec<i64> = (0..actions as i64).collect();
    let initial: Vec<(usize, f64)> = initial
        .iter()
        .enumerate()
        .filter(|(_, p)| **p > 0.0)
        .map(|(s, p)| (s, *p))
        .collect();
    optimal_return_within(
        domain,
        &list,
        |s| usize::try_from(*s).ok(),
        &actions,
        &initial,
        1.0,
        horizon,
    )
}

/// The optimum of Taxi: its 500 encoded states, each with `fickle_step` false and, with the
/// fickle passenger, true (drawn at reset with probability `fickle_probability`).
fn taxi_optimum(taxi: &Taxi, horizon: u64) -> Result<f64, ExperimentError> {
    let params = taxi.params();
    let flags: &[bool] = if params.fickle_passenger {
        &[false, true]
    } else {
        &[false]
    };
    let invalid = |error: rl_domains::Error| ExperimentError::Domain(error.to_string());
    let mut states = Vec::with_capacity(TAXI_STATE_COUNT * flags.len());
    for &flag in flags {
        for index in 0..TAXI_STATE_COUNT as i64 {
            states.push(TaxiState::new(index, flag).map_err(invalid)?);
        }
    }
    let index_of = |state: &TaxiState| {
        let index = usize::try_from(state.index()).ok()?;
        Some(index + TAXI_STATE_COUNT * usize::from(state.fickle_step()))
    };
    let mut initial = Vec::new();
    for (index, p) in taxi.initial_state_distribution().iter().enumerate() {
        if *p <= 0.0 {
            continue;
        }
        if params.fickle_passenger {
            let fickle = params.fickle_probability;
            initial.push((index, p * (1.0 - fickle)));
            initial.push((index + TAXI_STATE_COUNT, p * fickle));
        } else {
            initial.push((index, *p));
        }
    }
    let actions: Vec<i64> = (0..taxi.table().action_count() as i64).collect();
    optimal_return_within(taxi, &states, index_of, &actions, &initial, 1.0, horizon)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_optima_keep_ten_percent_of_their_magnitude_below() {
        assert_eq!(Criterion::of_optimum(-13.0, 0.9).threshold, -13.0 - 1.3);
        assert!((Criterion::of_optimum(0.5, 0.9).threshold - 0.45).abs() < 1e-15);
        assert_eq!(Criterion::of_optimum(0.0, 0.9).threshold, 0.0);
    }

    #[test]
    fn cliff_walking_s_optimum_is_thirteen_steps() {
        let optimum = optimal_evaluation_return("CliffWalking-v1", None, 10_000)
            .expect("solved")
            .expect("known");
        assert_eq!(optimum, -13.0);
        // Cut at 5 evaluation steps, the episode collects five rewards of -1 at best.
        let cut = optimal_evaluation_return("CliffWalking-v1", None, 5)
            .expect("solved")
            .expect("known");
        assert_eq!(cut, -5.0);
    }

    #[test]
    fn frozen_lake_s_cap_lowers_its_optimum_below_the_uncapped_success_rate() {
        // Deterministic: the 6 steps of the shortest path to the goal.
        let still = serde_json::json!({"is_slippery": false});
        let optimum = optimal_evaluation_return("FrozenLake-v1", Some(&still), 10_000)
            .expect("solved")
            .expect("known");
        assert_eq!(optimum, 1.0);
        let short = optimal_evaluation_return("FrozenLake-v1", Some(&still), 5)
            .expect("solved")
            .expect("known");
        assert_eq!(short, 0.0, "the goal is 6 steps away");
        // Slippery, within its 100 steps: below the uncapped 0.8235 of the literature.
        let slippery = optimal_evaluation_return("FrozenLake-v1", None, 10_000)
            .expect("solved")
            .expect("known");
        assert!(slippery > 0.7 && slippery < 0.8235, "{slippery}");
    }

    #[test]
    fn taxi_s_optimum_is_positive_and_counts_the_fickle_passenger() {
        let optimum = |params: serde_json::Value| {
            optimal_evaluation_return("Taxi-v4", Some(&params), 10_000)
                .expect("solved")
                .expect("known")
        };
        let plain = optimum(serde_json::json!({}));
        // Each delivery earns 20 less a step cost of 1 for each of at most 20 or so moves.
        assert!(plain > 5.0 && plain < 20.0, "{plain}");
        // A passenger who never changes their mind: the same optimum over twice the states.
        let never =
            optimum(serde_json::json!({"fickle_passenger": true, "fickle_probability": 0.0}));
        assert!((never - plain).abs() < 1e-12, "{never} against {plain}");
        // A fickle one changes the optimum (the new destination may be the source, one step
        // away: on the whole it helps).
        let fickle = optimum(serde_json::json!({"fickle_passenger": true}));
        assert!(fickle > 5.0 && fickle < 20.0 && fickle != plain, "{fickle}");
    }

    #[test]
    fn domains_without_a_model_have_no_optimum() {
        assert_eq!(
            optimal_evaluation_return("CartPole-v1", None, 10_000).expect("built"),
            None
        );
    }
}
