//! Gymnasium's toy-text internals from the Rust domains, for `rlrs.toy_text`'s attributes
//! (`env.unwrapped.P`, `desc`, `initial_state_distrib`, Taxi's `locs`): the tables the domains
//! already keep, handed to Python only when an attribute is read, so a step costs nothing more.
//!
//! The toy-text attributes are Gymnasium's own, so this module, unlike the rest of the crate,
//! names the four toy-text domain types: it downcasts the id's domain
//! ([`RegisteredDomain::as_any`](rl_core::registry::RegisteredDomain::as_any)) to them.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rl_domains::toy_text::blackjack::Blackjack;
use rl_domains::toy_text::cliff_walking::CliffWalking;
use rl_domains::toy_text::frozen_lake::{FrozenLake, generate_random_map};
use rl_domains::toy_text::tabular::TransitionTable;
use rl_domains::toy_text::taxi::{TAXI_LOCATIONS, TAXI_MAP, Taxi};

use crate::build_domain;

/// One entry of `P[state][action]`: `(probability, next state, reward, terminated)`.
type Entry = (f64, i64, f64, bool);

/// What a tabular toy-text domain holds: its table `P` (state by state, action by action, each
/// list in Gymnasium's order), its initial-state distribution, and its map (`desc`, one string
/// per row; `None` for CliffWalking, which has none in Gymnasium).
type Tabular = (Vec<Vec<Vec<Entry>>>, Vec<f64>, Option<Vec<String>>);

/// The table as nested lists.
fn nested(table: &TransitionTable) -> Vec<Vec<Vec<Entry>>> {
    (0..table.state_count())
        .map(|state| {
            (0..table.action_count())
                .map(|action| {
                    table
                        .outcomes(state as i64, action as i64)
                        .unwrap_or_default()
                        .iter()
                        .map(|entry| {
                            (
                                entry.probability,
                                entry.next_state,
                                entry.reward,
                                entry.terminated,
                            )
                        })
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// The table, initial-state distribution and map of the tabular toy-text domain (FrozenLake,
/// CliffWalking, Taxi) registered under `id` with the JSON parameters `params_json`, or `None`
/// for any other domain.
#[pyfunction]
#[pyo3(signature = (id, params_json = None))]
pub(crate) fn toy_text_tables(id: &str, params_json: Option<&str>) -> PyResult<Option<Tabular>> {
    let domain = build_domain(id, params_json)?;
    let any = domain.as_any();
    if let Some(lake) = any.downcast_ref::<FrozenLake>() {
        return Ok(Some((
            nested(lake.table()),
            lake.initial_state_distribution().to_vec(),
            Some(lake.desc()),
        )));
    }
    if let Some(cliff) = any.downcast_ref::<CliffWalking>() {
        return Ok(Some((
            nested(cliff.table()),
            cliff.initial_state_distribution().to_vec(),
            None,
        )));
    }
    if let Some(taxi) = any.downcast_ref::<Taxi>() {
        return Ok(Some((
            nested(taxi.table()),
            taxi.initial_state_distribution().to_vec(),
            Some(TAXI_MAP.iter().map(|line| (*line).to_owned()).collect()),
        )));
    }
    Ok(None)
}

/// Which of Gymnasium's toy-text environments the domain registered under `id` is:
/// `"frozen_lake"`, `"cliff_walking"`, `"taxi"` or `"blackjack"`, else `None` (its domain
/// built with the default parameters; an id that does not build is a `KeyError` or
/// `ValueError` as for `Environment`).
#[pyfunction]
pub(crate) fn toy_text_kind(id: &str) -> PyResult<Option<&'static str>> {
    let domain = build_domain(id, None)?;
    let any = domain.as_any();
    Ok(if any.is::<FrozenLake>() {
        Some("frozen_lake")
    } else if any.is::<CliffWalking>() {
        Some("cliff_walking")
    } else if any.is::<Taxi>() {
        Some("taxi")
    } else if any.is::<Blackjack>() {
        Some("blackjack")
    } else {
        None
    })
}

/// Taxi's `locs`: the cells `(row, col)` of its four locations, Red, Green, Yellow, Blue.
#[pyfunction]
pub(crate) fn taxi_locations() -> Vec<(usize, usize)> {
    TAXI_LOCATIONS.to_vec()
}

/// Gymnasium's `generate_random_map(size, p, seed)` for FrozenLake (the same map for the same
/// seed, below 2**64): a list of `size` strings of tile letters; a `ValueError` naming the
/// parameter for a size below 2, a map too large or a `p` outside `[0, 1]`.
#[pyfunction]
#[pyo3(signature = (size = 8, p = 0.8, seed = 0))]
pub(crate) fn frozen_lake_random_map(size: usize, p: f64, seed: u64) -> PyResult<Vec<String>> {
    generate_random_map(size, p, seed).map_err(|error| PyValueError::new_err(error.to_string()))
}
