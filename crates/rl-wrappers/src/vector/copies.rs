//! [`EnvironmentBatch`]: a batch of copies of an environment, stepped one by one.

use std::fmt;
use std::marker::PhantomData;

use rl_core::{CoreError, Environment, Info, Mode, RandomState, Seed};
use rl_spaces::{FlatScalar, FlattenSpace};

use crate::vector::Autoreset;
use crate::vector::batch::{Failure, Resets, sealed};
use crate::vector::outputs::Rows;

/// Copies of an environment, each stepped through its own [`Environment::step`] (the storage
/// of [`VectorEnvironment::from_environments`](crate::vector::VectorEnvironment::from_environments)).
/// Each reset's info ([`Environment::reset_info`]) is reported as `SyncVectorEnv` reports
/// reset infos: in the vector's infos after a reset, and in the step's infos for an autoreset
/// (next-step, or same-step beside the ended episode's final info).
/// Observations are flattened into the vector environment's rows with the observation
/// space's [`FlattenSpace::flatten_into`].
pub struct EnvironmentBatch<E: Environment, T> {
    action_space: E::ActionSpace,
    environments: Vec<E>,
    ended: Vec<bool>,
    first: usize,
    marker: PhantomData<fn() -> T>,
}

impl<E: Environment, T> EnvironmentBatch<E, T> {
    /// The environments `first..first + environments.len()` of a vector environment, whose
    /// action space is `action_space`.
    pub(crate) fn new(environments: Vec<E>, first: usize, action_space: E::ActionSpace) -> Self {
        EnvironmentBatch {
            action_space,
            ended: vec![false; environments.len()],
            environments,
            first,
            marker: PhantomData,
        }
    }
}

impl<E: Environment + fmt::Debug, T> fmt::Debug for EnvironmentBatch<E, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EnvironmentBatch")
            .field("first", &self.first)
            .field("environments", &self.environments)
            .field("ended", &self.ended)
            .finish()
    }
}

/// The error of an environment that cannot take `seed` (of 2^64 or more), refused with
/// `error` when its generator was set.
fn large_seed_refused(seed: Option<&Seed>, error: CoreError) -> CoreError {
    let seed = seed.map_or_else(String::new, |seed| format!("{seed} "));
    CoreError::invalid_parameter(
        "seed",
        format!(
            "{seed}is 2^64 or more, which this environment cannot take: a seed that large \
             sets its generator (random_state and set_random_state), and it refused ({error}); \
             seeds below 2^64 go to Environment::seed"
        ),
    )
}

/// Resets `env` and writes its first observation into row `i`.
fn reset_one<E, T>(
    env: &mut E,
    mode: Mode,
    rows: &mut Rows<'_, T>,
    i: usize,
) -> Result<(), rl_core::CoreError>
where
    E: Environment,
    E::ObservationSpace: FlattenSpace,
    T: FlatScalar,
{
    let observation = env.reset(mode)?;
    env.observation_space()
        .flatten_into(&observation, rows.observation(i))?;
    Ok(())
}

impl<E, T> sealed::Sealed for EnvironmentBatch<E, T>
where
    E: Environment,
    E::Action: Send + Sync,
    E::ObservationSpace: FlattenSpace,
    T: FlatScalar,
{
    type Action = E::Action;
    type ActionSpace = E::ActionSpace;
    type Scalar = T;

    fn len(&self) -> usize {
        self.environments.len()
    }

    fn first(&self) -> usize {
        self.first
    }

    fn action_space(&self) -> &E::ActionSpace {
        &self.action_space
    }

    fn accepts_action(&self, action: &E::Action) -> bool {
        self.environments.first().map_or_else(
            || rl_spaces::Space::contains(&self.action_space, action),
            |env| env.accepts_action(action),
        )
    }

    fn action_mask(&self, i: usize, row: &mut [bool]) -> Result<(), rl_core::CoreError>
    where
        E::ActionSpace: rl_spaces::FiniteSpace,
    {
        self.environments[i].action_mask(row)
    }

    /// A seed of 2^64 or more is set as the environment's generator state
    /// (`Environment::set_random_state` with numpy's generator of the seed), so an environment
    /// that cannot save and restore its generator (`random_state`, `set_random_state`) cannot
    /// take one; a seed below 2^64 goes to `Environment::seed`, as always.
    fn check_seeds(&mut self, seeds: &[Option<Seed>]) -> Result<(), Failure> {
        assert_eq!(seeds.len(), self.environments.len(), "one seed entry each");
        for (i, (env, seed)) in self.environments.iter_mut().zip(seeds).enumerate() {
            if seed.as_ref().is_some_and(|seed| seed.to_u64().is_none()) {
                // Restoring the state it has changes nothing where it succeeds.
                let probe = env
                    .random_state()
                    .and_then(|state| env.set_random_state(state));
                if let Err(error) = probe {
                    return Err((self.first + i, large_seed_refused(seed.as_ref(), error)));
                }
            }
        }
        Ok(())
    }

    fn seed(&mut self, seeds: &[Option<Seed>]) -> Result<(), Failure> {
        assert_eq!(seeds.len(), self.environments.len(), "one seed entry each");
        for (i, (env, seed)) in self.environments.iter_mut().zip(seeds).enumerate() {
            let Some(seed) = seed else { continue };
            match seed.to_u64() {
                Some(seed) => env.seed(seed),
                None => env
                    .set_random_state(RandomState::new(seed.generator()))
                    .map_err(|error| (self.first + i, large_seed_refused(Some(seed), error)))?,
            }
        }
        Ok(())
    }

    fn reset(
        &mut self,
        mode: Mode,
        which: Resets,
        selected: &[bool],
        mut rows: Rows<'_, T>,
    ) -> Result<(), Failure> {
        let mut failure = None;
        for (i, (env, ended)) in self
            .environments
            .iter_mut()
            .zip(&mut self.ended)
            .enumerate()
        {
            if which.skips(i, *ended, selected) {
                rows.final_mask[i] = false;
                continue;
            }
            match reset_one(env, mode, &mut rows, i) {
                Ok(()) => {
                    rows.mark_reset(i);
                    rows.put_info(i, env.reset_info());
                    *ended = false;
                }
                Err(e) => {
                    failure = failure.or(Some((self.first + i, e)));
                }
            }
        }
        failure.map_or(Ok(()), Err)
    }

    fn step(
        &mut self,
        actions: &[E::Action],
        mode: Mode,
        autoreset: Autoreset,
        mut rows: Rows<'_, T>,
    ) -> Result<(), Failure> {
        assert_eq!(actions.len(), self.environments.len(), "one action each");
        let mut failure = None;
        let entries = self
            .environments
            .iter_mut()
            .zip(&mut self.ended)
            .zip(actions);
        for (i, ((env, ended), action)) in entries.enumerate() {
            let result = if *ended && autoreset == Autoreset::NextStep {
                reset_one(env, mode, &mut rows, i).map(|()| {
                    rows.mark_reset(i);
                    rows.put_info(i, env.reset_info());
                    *ended = false;
                })
            } else {
                step_one(env, action, mode, autoreset, &mut rows, i, ended)
            };
            if let Err(e) = result {
                failure = failure.or(Some((self.first + i, e)));
            }
        }
        failure.map_or(Ok(()), Err)
    }
}

/// Steps `env` with `action` and writes the results at row `i`, resetting at once with
/// same-step autoreset.
fn step_one<E, T>(
    env: &mut E,
    action: &E::Action,
    mode: Mode,
    autoreset: Autoreset,
    rows: &mut Rows<'_, T>,
    i: usize,
    ended: &mut bool,
) -> Result<(), rl_core::CoreError>
where
    E: Environment,
    E::ObservationSpace: FlattenSpace,
    T: FlatScalar,
{
    let outcome = env.step(action)?;
    env.observation_space()
        .flatten_into(&outcome.observation, rows.observation(i))?;
    let done = outcome.is_done();
    rows.rewards[i] = outcome.reward();
    rows.terminated[i] = outcome.terminated;
    rows.truncated[i] = outcome.truncated;
    rows.final_mask[i] = false;
    if done && autoreset == Autoreset::SameStep {
        rows.keep_final_observation(i);
        rows.final_mask[i] = true;
        rows.put_final_info(i, outcome.info);
        rows.put_info(i, Info::new());
        reset_one(env, mode, rows, i)?;
        // The reset's info is the step's info, as SyncVectorEnv reports a same-step autoreset.
        rows.put_info(i, env.reset_info());
    } else {
        rows.put_info(i, outcome.info);
        *ended = done;
    }
    Ok(())
}
