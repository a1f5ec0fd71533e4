//! Gymnasium 1.4.0's toy-text environments, exact seed for seed: FrozenLake, CliffWalking,
//! Taxi and Blackjack (issue 28).
//!
//! Every draw is numpy's, in Gymnasium's order, from the environment's
//! [`NumpyGenerator`](rl_core::NumpyGenerator): a seeded reset gives Gymnasium's trajectory.
//! The tabular ones (FrozenLake, CliffWalking, Taxi) keep Gymnasium's transition table `P`
//! (`P[state][action]` a list of `(probability, next state, reward, terminated)`, duplicates
//! kept) and sample it as Gymnasium's `categorical_sample` does ([`categorical_sample`]).
//! `testdata/reference/seeded_toy_text.json` (seeded trajectories, with each step's `prob`)
//! and `toy_text_tables.json` (the tables) pin them.

use rand::Rng;
use rl_core::numpy_random;

pub mod blackjack;
pub mod cliff_walking;
pub mod frozen_lake;
pub mod tabular;
pub mod taxi;

/// Gymnasium's `categorical_sample(prob_n, np_random)`: `argmax(cumsum(prob_n) >
/// np_random.random())`, the index of the first entry whose running sum (float64, in order)
/// exceeds one `random()` draw; `0` when none does (NumPy's `argmax` of an all-false array),
/// as Gymnasium returns then. Draws exactly one `random()`.
pub fn categorical_sample<R: Rng + ?Sized>(
    probabilities: impl IntoIterator<Item = f64>,
    rng: &mut R,
) -> usize {
    let draw = numpy_random::random(rng);
    let mut sum = 0.0;
    for (index, probability) in probabilities.into_iter().enumerate() {
        sum += probability;
        if sum > draw {
            return index;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rl_core::NumpyGenerator;

    #[test]
    fn categorical_sample_is_gymnasiums() {
        // numpy: default_rng(0).random() = 0.6369616873214543.
        let mut rng = NumpyGenerator::seed_from_u64(0);
        assert_eq!(categorical_sample([0.25, 0.25, 0.5], &mut rng), 2);
        // No running sum above the draw (rounding): index 0, as np.argmax of all-false.
        let mut rng = NumpyGenerator::seed_from_u64(0);
        assert_eq!(categorical_sample([0.1, 0.2], &mut rng), 0);
        // The first strictly greater sum wins; equal is not greater.
        let mut rng = NumpyGenerator::seed_from_u64(0);
        assert_eq!(categorical_sample([0.6369616873214543, 0.1], &mut rng), 1);
    }
}
