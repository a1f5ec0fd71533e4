//! [`value_iteration`]: exact optimal values and policy of a domain with enumerable
//! transitions.

use rl_core::{EnumerableTransitions, Mode};

use crate::ExperimentError;

/// One outcome of a transition: probability, reward, index of the state reached, terminal.
type Outcome = (f64, f64, usize, bool);

/// The result of [`value_iteration`], indexed by the state list and action list given to it.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueIterationResult {
    /// The optimal value of each state (0 for terminal states).
    pub values: Vec<f64>,
    /// The optimal action values `Q*(s, a)` of each state (`NEG_INFINITY` for inapplicable
    /// actions; empty for terminal states).
    pub action_values: Vec<Vec<f64>>,
    /// For each state, the actions whose value is within the tolerance of the best (empty for
    /// terminal states): the optimal policy, ties included.
    pub optimal_actions: Vec<Vec<usize>>,
    /// The number of sweeps made.
    pub sweeps: usize,
}

/// Computes optimal values by value iteration (RLPy's `ValueIteration`): sweeps
/// `V(s) = max_a Σ p (r + γ V(s'))` over `states` (with `V = 0` at terminal states and only
/// applicable actions in the max) until no value changes by more than `tolerance`.
///
/// `states` lists every state reachable in the domain and `index_of` numbers them; `actions`
/// lists the actions. Errors if a transition reaches a state outside the list or the sweeps do
/// not converge within `max_sweeps`.
///
/// ```
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_experiment::agent::value_iteration;
///
/// let corridor = Corridor::new(4, 0.1)?;
/// let states: Vec<i64> = (0..4).collect();
/// let result = value_iteration(&corridor, &states, |s| usize::try_from(*s).ok(), &[0, 1], 1e-12, 10_000)?;
/// // Walking right is optimal everywhere before the goal.
/// assert!(result.optimal_actions[..3].iter().all(|a| a == &[RIGHT as usize]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn value_iteration<D>(
    domain: &D,
    states: &[D::State],
    index_of: impl Fn(&D::State) -> Option<usize>,
    actions: &[D::Action],
    tolerance: f64,
    max_sweeps: usize,
) -> Result<ValueIterationResult, ExperimentError>
where
    D: EnumerableTransitions,
{
    if tolerance.is_nan() || tolerance <= 0.0 {
        return Err(ExperimentError::invalid("tolerance", "must be positive"));
    }
    let discount = domain.discount();
    let model = tabulate(domain, states, &index_of, actions)?;
    let backup = |values: &[f64], outcomes: &[Outcome]| -> f64 {
        outcomes
            .iter()
            .map(|(p, r, next, terminal)| {
                p * (r + if *terminal {
                    0.0
                } else {
                    discount * values[*next]
                })
            })
            .sum()
    };
    let mut values = vec![0.0; states.len()];
    let mut sweeps = 0;
    loop {
        if sweeps >= max_sweeps {
            return Err(ExperimentError::invalid(
                "max_sweeps",
                format!("value iteration did not converge within {max_sweeps} sweeps"),
            ));
        }
        sweeps += 1;
        let mut change: f64 = 0.0;
        for s in 0..states.len() {
            let best = model[s]
                .iter()
                .flatten()
                .map(|outcomes| backup(&values, outcomes))
                .fold(f64::NEG_INFINITY, f64::max);
            let new = if best == f64::NEG_INFINITY { 0.0 } else { best };
            change = change.max((new - values[s]).abs());
            values[s] = new;
        }
        if change <= tolerance {
            break;
        }
    }
    let action_values: Vec<Vec<f64>> = model
        .iter()
        .map(|per_action| {
            per_action
                .iter()
                .map(|o| {
                    o.as_ref()
                        .map_or(f64::NEG_INFINITY, |outcomes| backup(&values, outcomes))
                })
                .collect()
        })
        .collect();
    let optimal_actions = action_values
        .iter()
        .map(|q| {
            let best = q.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            (0..q.len())
                .filter(|a| q[*a] > f64::NEG_INFINITY && best - q[*a] <= 10.0 * tolerance)
                .collect()
        })
        .collect();
    Ok(ValueIterationResult {
        values,
        action_values,
        optimal_actions,
        sweeps,
    })
}

/// Every transition of `states` under `actions` as (probability, reward, next index, terminal):
/// per state, per action, the outcomes (`None` for an inapplicable action; no actions at all
/// for a terminal state).
fn tabulate<D>(
    domain: &D,
    states: &[D::State],
    index_of: &impl Fn(&D::State) -> Option<usize>,
    actions: &[D::Action],
) -> Result<Vec<Vec<Option<Vec<Outcome>>>>, ExperimentError>
where
    D: EnumerableTransitions,
{
    let mut model: Vec<Vec<Option<Vec<Outcome>>>> = Vec::with_capacity(states.len());
    for state in states {
        if domain.is_terminal(state) {
            model.push(Vec::new());
            continue;
        }
        let mut per_action = Vec::with_capacity(actions.len());
        for action in actions {
            if !domain.is_applicable(state, action) {
                per_action.push(None);
                continue;
            }
            let outcomes = domain
                .transitions(state, action, Mode::Training)
                .into_iter()
                .map(|t| {
                    index_of(&t.next_state)
                        .filter(|i| *i < states.len())
                        .map(|i| (t.probability, t.value.reward(), i, t.terminated))
                        .ok_or_else(|| ExperimentError::invalid("states", format!("the transition from {state:?} reaches {:?}, which is not listed", t.next_state)))
                })
                .collect::<Result<Vec<_>, _>>()?;
            per_action.push(Some(outcomes));
        }
        model.push(per_action);
    }
    Ok(model)
}

/// The most steps [`optimal_return_within`] plans over: 10⁷ (`rl run`'s evaluation episodes
/// last at most 10⁴ steps).
pub const HORIZON_LIMIT: u64 = 10_000_000;

/// The best expected return of an episode that starts in a state drawn from `initial` (pairs
/// of a state's index in `states` and its probability) and ends at a terminal transition or
/// after `horizon` steps, whichever comes first, with rewards discounted by `discount` per
/// step (1 for the plain sum of rewards that `rl run`'s evaluation reports).
///
/// This is finite-horizon value iteration (backward induction): `V_0 = 0` and
/// `V_k(s) = max_a Σ p (r + discount · V_{k-1}(s'))` (`V_{k-1}(s') = 0` after a terminal
/// transition, terminal states worth 0, only applicable actions in the max), and the answer
/// is `Σ initial(s) V_horizon(s)`. It is the optimum over every policy, including those that
/// look at the step count, so no policy's expected return within the cap exceeds it: the
/// yardstick of a learned policy evaluated with an episode cap (rl-experiment's learning
/// table). States and actions are as in [`value_iteration`].
///
/// Errors if a transition reaches a state outside the list, an initial index is outside it,
/// the initial probabilities are not a distribution (each in `[0, 1]`, summing to 1 within
/// 10⁻⁹), or `horizon` exceeds [`HORIZON_LIMIT`].
///
/// ```
/// use rl_core::corridor::{Corridor, LEFT, RIGHT};
/// use rl_experiment::agent::optimal_return_within;
///
/// // Four cells, -1 a step, no slip: three steps from cell 0 to the goal at cell 3.
/// let corridor = Corridor::new(4, 0.0)?;
/// let states: Vec<i64> = (0..4).collect();
/// let index_of = |s: &i64| usize::try_from(*s).ok();
/// let best = optimal_return_within(&corridor, &states, index_of, &[LEFT, RIGHT], &[(0, 1.0)], 1.0, 100)?;
/// assert_eq!(best, -3.0);
/// // Cut off after two steps, the episode collects two rewards of -1.
/// let cut = optimal_return_within(&corridor, &states, index_of, &[LEFT, RIGHT], &[(0, 1.0)], 1.0, 2)?;
/// assert_eq!(cut, -2.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn optimal_return_within<D>(
    domain: &D,
    states: &[D::State],
    index_of: impl Fn(&D::State) -> Option<usize>,
    actions: &[D::Action],
    initial: &[(usize, f64)],
    discount: f64,
    horizon: u64,
) -> Result<f64, ExperimentError>
where
    D: EnumerableTransitions,
{
    if horizon > HORIZON_LIMIT {
        return Err(ExperimentError::invalid(
            "horizon",
            format!("{horizon} steps; give at most {HORIZON_LIMIT}"),
        ));
    }
    if !(0.0..=1.0).contains(&discount) {
        return Err(ExperimentError::invalid(
            "discount",
            format!("{discount}; give a number from 0 to 1"),
        ));
    }
    if let Some((index, p)) = initial
        .iter()
        .find(|(index, p)| *index >= states.len() || !(0.0..=1.0).contains(p))
    {
        return Err(ExperimentError::invalid(
            "initial",
            format!(
                "state {index} with probability {p}: the list has {} states and probabilities lie in [0, 1]",
                states.len()
            ),
        ));
    }
    let total: f64 = initial.iter().map(|(_, p)| p).sum();
    if (total - 1.0).abs() > 1e-9 {
        return Err(ExperimentError::invalid(
            "initial",
            format!("the probabilities sum to {total}, not 1"),
        ));
    }
    let model = tabulate(domain, states, &index_of, actions)?;
    let mut values = vec![0.0; states.len()];
    let mut next = vec![0.0; states.len()];
    for _ in 0..horizon {
        for (s, per_action) in model.iter().enumerate() {
            let best = per_action
                .iter()
                .flatten()
                .map(|outcomes| {
                    outcomes
                        .iter()
                        .map(|(p, r, to, terminal)| {
                            p * (r + if *terminal {
                                0.0
                            } else {
                                discount * values[*to]
                            })
                        })
                        .sum::<f64>()
                })
                .fold(f64::NEG_INFINITY, f64::max);
            next[s] = if best == f64::NEG_INFINITY { 0.0 } else { best };
        }
        if next == values {
            // A fixed point: every longer horizon gives the same values.
            break;
        }
        std::mem::swap(&mut values, &mut next);
    }
    Ok(initial.iter().map(|(s, p)| p * values[*s]).sum())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rl_core::corridor::{Corridor, LEFT, RIGHT};

    #[test]
    fn corridor_values_match_the_closed_form() {
        // Without slip, V(s) = -(1 + γ + ... + γ^(k-1)) for k steps to the goal.
        let corridor = Corridor::new(5, 0.0).unwrap();
        let states: Vec<i64> = (0..5).collect();
        let result = value_iteration(
            &corridor,
            &states,
            |s| usize::try_from(*s).ok(),
            &[LEFT, RIGHT],
            1e-13,
            1000,
        )
        .unwrap();
        for (s, v) in result.values.iter().enumerate() {
            let k = 4 - s as i32;
            let expected: f64 = -(0..k).map(|i| 0.95f64.powi(i)).sum::<f64>();
            assert!((v - expected).abs() < 1e-10, "state {s}: {v} vs {expected}");
        }
        assert_eq!(result.optimal_actions[4], Vec::<usize>::new());
        assert_eq!(
            result.action_values[0][0],
            f64::NEG_INFINITY,
            "left is not applicable in cell 0"
        );
    }

    #[test]
    fn unlisted_states_are_errors() {
        let corridor = Corridor::new(5, 0.0).unwrap();
        let states: Vec<i64> = (0..3).collect();
        assert!(
            value_iteration(
                &corridor,
                &states,
                |s| usize::try_from(*s).ok().filter(|i| *i < 3),
                &[LEFT, RIGHT],
                1e-9,
                100
            )
            .is_err()
        );
    }
}
