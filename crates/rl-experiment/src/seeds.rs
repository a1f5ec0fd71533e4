//! Seed derivation: every random stream of an experiment comes from one master seed, by the
//! workspace's one rule, [`derive_seed`] (rl-core).
//!
//! A run's seed is `derive_seed(master_seed, run_id)`, and its streams are derived from it:
//!
//! | stream | seed |
//! |---|---|
//! | the learning environment | `derive_seed(run_seed, 0)` |
//! | the evaluation environment | `derive_seed(run_seed, 1)` |
//! | the agent while learning | `derive_seed(run_seed, 2)` |
//! | the agent while evaluating | `derive_seed(run_seed, 3)` |
//!
//! where `derive_seed(seed, index)` is the `(index + 1)`-th output of a SplitMix64 generator
//! started at `seed`. Runs therefore do not depend on each other, on the order they run in, or
//! on the number of threads.

use rl_core::derive_seed;
use serde::{Deserialize, Serialize};

/// The seeds of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSeeds {
    /// The run's own seed, `derive_seed(master_seed, run_id)`.
    pub run: u64,
    /// The learning environment's seed.
    pub environment: u64,
    /// The evaluation environment's seed.
    pub evaluation: u64,
    /// The agent's generator while learning.
    pub agent: u64,
    /// The agent's generator while evaluating.
    pub evaluation_agent: u64,
}

impl RunSeeds {
    /// The seeds of run `run_id` of an experiment with `master_seed`.
    pub fn new(master_seed: u64, run_id: u64) -> Self {
        let run = derive_seed(master_seed, run_id);
        RunSeeds {
            run,
            environment: derive_seed(run, 0),
            evaluation: derive_seed(run, 1),
            agent: derive_seed(run, 2),
            evaluation_agent: derive_seed(run, 3),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_seeds_follow_the_workspace_rule() {
        let seeds = RunSeeds::new(7, 3);
        assert_eq!(seeds.run, derive_seed(7, 3));
        assert_eq!(
            [
                seeds.environment,
                seeds.evaluation,
                seeds.agent,
                seeds.evaluation_agent
            ],
            [0, 1, 2, 3].map(|stream| derive_seed(seeds.run, stream))
        );
        // Master seed 0, run 0: the first output of SplitMix64 started at 0.
        assert_eq!(RunSeeds::new(0, 0).run, 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn streams_are_distinct_and_stable() {
        let a = RunSeeds::new(7, 0);
        let b = RunSeeds::new(7, 1);
        assert_ne!(a, b);
        let all = [
            a.environment,
            a.evaluation,
            a.agent,
            a.evaluation_agent,
            b.environment,
        ];
        for (i, x) in all.iter().enumerate() {
            for y in &all[i + 1..] {
                assert_ne!(x, y);
            }
        }
        assert_eq!(RunSeeds::new(7, 0), a);
    }
}
