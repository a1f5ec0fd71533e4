//! [`EnvironmentStates`]: copies of an environment as the episodes of a vector's batch, each
//! stepped through its own [`Environment::step`].

use std::fmt;
use std::ops::Range;

use rl_core::{
    BatchStates, CoreError, Environment, Info, Mode, NumpyGenerator, PartStates, Parts,
    RandomState, RunParts, Seed, SplitStates, check_parts,
};
use rl_spaces::{FlatScalar, FlattenSpace, Space};

use crate::vector::outputs::put;

/// Copies of an environment as the states of a vector's episodes (what
/// [`VectorEnvironment::from_environments`](crate::vector::VectorEnvironment::from_environments)
/// steps, in the one storage of every vector): each environment keeps its own generator,
/// seeded through [`Environment::seed`] (a seed of 2^64 or more through
/// [`Environment::set_random_state`]), its own time limits
/// (an episode its step truncates ends), its own reset infos ([`Environment::reset_info`]),
/// and each observation is flattened into the episode's row with the observation space's
/// [`FlattenSpace::flatten_into`]. The generators the batch passes are not used.
pub struct EnvironmentStates<E: Environment> {
    action_space: E::ActionSpace,
    environments: Vec<E>,
    /// Whether each environment's last step was truncated, which the batch reads after the
    /// step ([`BatchStates::time_limit_reached`]); cleared by a reset.
    truncated: Vec<bool>,
}

impl<E: Environment> EnvironmentStates<E> {
    /// The environments of a batch, whose action space is `action_space`.
    pub(crate) fn new(environments: Vec<E>, action_space: E::ActionSpace) -> Self {
        EnvironmentStates {
            action_space,
            truncated: vec![false; environments.len()],
            environments,
        }
    }
}

impl<E: Environment + fmt::Debug> fmt::Debug for EnvironmentStates<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EnvironmentStates")
            .field("environments", &self.environments)
            .field("truncated", &self.truncated)
            .finish()
    }
}

/// Steps each environment (those not marked in `discarded`, if given) with its action and
/// writes its results (its info into `infos`, if given, where it or the one it replaces
/// has entries); stops at the first that fails (those before it have stepped).
///
/// # Panics
///
/// When a slice does not have one entry (or row) per environment: a bug of the caller, as
/// for [`BatchStates::step`].
#[allow(clippy::too_many_arguments)]
fn step_each<E, T>(
    environments: &mut [E],
    truncated: &mut [bool],
    actions: &[E::Action],
    discarded: Option<&[bool]>,
    rewards: &mut [f64],
    terminated: &mut [bool],
    observations: &mut [T],
    mut infos: Option<&mut [Info]>,
) -> Result<(), (usize, CoreError)>
where
    E: Environment,
    E::ObservationSpace: FlattenSpace,
    T: FlatScalar,
{
    let len = environments.len();
    let dim = environments
        .first()
        .map_or(0, |env| env.observation_space().flat_dim());
    rl_core::check_batch_lengths(
        len,
        actions.len(),
        None,
        rewards.len(),
        terminated.len(),
        observations.len(),
        dim,
    );
    assert!(
        discarded.is_none_or(|discarded| discarded.len() == len)
            && infos.as_ref().is_none_or(|infos| infos.len() == len),
        "a batch step needs one discarded flag and one info per environment ({len})"
    );
    let episodes = environments.iter_mut().zip(truncated);
    for (i, ((env, truncated), action)) in episodes.zip(actions).enumerate() {
        if discarded.is_some_and(|discarded| discarded[i]) {
            continue;
        }
        // The last info goes first, its memory back to `Info`'s pool for the new one.
        if let Some(infos) = infos.as_deref_mut()
            && !infos[i].is_empty()
        {
            infos[i] = Info::new();
        }
        let outcome = env.step(action).map_err(|error| (i, error))?;
        env.observation_space()
            .flatten_into(
                &outcome.observation,
                &mut observations[i * dim..(i + 1) * dim],
            )
            .map_err(|error| (i, error.into()))?;
        rewards[i] = outcome.reward();
        terminated[i] = outcome.terminated;
        *truncated = outcome.truncated;
        if let Some(infos) = infos.as_deref_mut() {
            put(&mut infos[i], outcome.info);
        }
    }
    Ok(())
}

/// Environment `i` of `environments`, or an error naming an index out of range.
fn environment<E>(environments: &mut [E], i: usize) -> Result<&mut E, CoreError> {
    let len = environments.len();
    environments.get_mut(i).ok_or_else(|| {
        CoreError::invalid_parameter("index", format!("{i} is not one of {len} environments"))
    })
}

/// The error of an environment that cannot take `seed` (of 2^64 or more), refused with
/// `error` when its generator was set.
fn large_seed_refused(seed: &Seed, error: CoreError) -> CoreError {
    CoreError::invalid_parameter(
        "seed",
        format!(
            "{seed} is 2^64 or more, which this environment cannot take: a seed that large \
             sets its generator (random_state and set_random_state), and it refused ({error}); \
             seeds below 2^64 go to Environment::seed"
        ),
    )
}

/// A part of an [`EnvironmentStates`] ([`SplitStates::with_parts`]): some of its
/// environments, a batch of their own.
struct CopiesPart<'a, E: Environment> {
    /// At least one ([`check_parts`]).
    environments: &'a mut [E],
    truncated: &'a mut [bool],
}

impl<E: Environment> EnvironmentStates<E> {
    /// The action space every environment shares.
    fn space(&self) -> &E::ActionSpace {
        &self.action_space
    }
}

impl<E: Environment> CopiesPart<'_, E> {
    /// The action space every environment shares: the first's (checked equal to the others'
    /// when the vector was built).
    fn space(&self) -> &E::ActionSpace {
        self.environments[0].action_space()
    }
}

/// Implements [`BatchStates`] for [`EnvironmentStates`] and [`CopiesPart`] with one body
/// (their fields differ only in owning or borrowing).
macro_rules! copies_batch_states {
    ($ty:ty, [$($generics:tt)*]) => {
        impl<$($generics)*, T> BatchStates<T> for $ty
        where
            E: Environment + Send,
            E::Action: Send + Sync,
            E::ActionSpace: Send,
            E::ObservationSpace: FlattenSpace,
            T: FlatScalar,
        {
    type Action = E::Action;
    type ActionSpace = E::ActionSpace;

    fn action_space(&self) -> &E::ActionSpace {
        self.space()
    }

    /// None: each environment keeps its own time limits.
    fn episode_cap(&self) -> Option<u64> {
        None
    }

    fn has_episode_time_limits(&self) -> bool {
        true
    }

    /// Whether environment `i`'s last step was truncated.
    fn time_limit_reached(&self, i: usize) -> bool {
        self.truncated.get(i).copied().unwrap_or(false)
    }

    fn len(&self) -> usize {
        self.environments.len()
    }

    /// Resets environment `i` (drawing from its own generator, not `rng`).
    fn reset_at(
        &mut self,
        i: usize,
        mode: Mode,
        _rng: &mut NumpyGenerator,
        observation: &mut [T],
    ) -> Result<(), CoreError> {
        let env = environment(&mut self.environments, i)?;
        let first = env.reset(mode)?;
        env.observation_space().flatten_into(&first, observation)?;
        self.truncated[i] = false;
        Ok(())
    }

    fn reset_info(&self, i: usize) -> Info {
        self.environments
            .get(i)
            .map_or_else(Info::new, Environment::reset_info)
    }

    /// A seed below 2^64 goes to [`Environment::seed`]; a larger one is set as the
    /// environment's generator (numpy's generator of the seed,
    /// [`Environment::set_random_state`]), which an environment that cannot save and restore
    /// its generator refuses.
    fn seed_at(&mut self, i: usize, seed: &Seed) -> Result<(), CoreError> {
        let env = environment(&mut self.environments, i)?;
        match seed.to_u64() {
            Some(small) => {
                env.seed(small);
                Ok(())
            }
            None => env
                .set_random_state(RandomState::new(seed.generator()))
                .map_err(|error| large_seed_refused(seed, error)),
        }
    }

    fn check_seed_at(&mut self, i: usize, seed: &Seed) -> Result<(), CoreError> {
        let env = environment(&mut self.environments, i)?;
        if seed.to_u64().is_some() {
            return Ok(());
        }
        // Restoring the state it has changes nothing where it succeeds.
        env.random_state()
            .and_then(|state| env.set_random_state(state))
            .map_err(|error| large_seed_refused(seed, error))
    }

    fn step(
        &mut self,
        actions: &[E::Action],
        _mode: Mode,
        _rngs: &mut [NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
    ) -> Result<(), (usize, CoreError)> {
        step_each(&mut self.environments, &mut self.truncated, actions, None, rewards, terminated, observations, None)
    }

    fn step_with_infos(
        &mut self,
        actions: &[E::Action],
        discarded: &[bool],
        _mode: Mode,
        _rngs: &mut [NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
        infos: &mut [Info],
    ) -> Result<(), (usize, CoreError)> {
        let infos = Some(infos);
        step_each(
            &mut self.environments,
            &mut self.truncated,
            actions,
            Some(discarded),
            rewards,
            terminated,
            observations,
            infos,
        )
    }

    fn reports_infos(&self) -> bool {
        true
    }

    fn episode_bytes(&self) -> usize {
        std::mem::size_of::<E>() + std::mem::size_of::<bool>()
    }

    fn is_applicable(&self, i: usize, action: &E::Action) -> bool {
        self.environments
            .get(i)
            .is_some_and(|env| env.is_applicable(action))
    }

    fn accepts_action(&self, action: &E::Action) -> bool {
        self.environments.first().map_or_else(
            || self.space().contains(action),
            |env| env.accepts_action(action),
        )
    }
}
    };
}

copies_batch_states!(EnvironmentStates<E>, [E]);
copies_batch_states!(CopiesPart<'_, E>, [E]);

impl<E, T> SplitStates<T> for EnvironmentStates<E>
where
    E: Environment + Send,
    E::Action: Send + Sync,
    E::ActionSpace: Send,
    E::ObservationSpace: FlattenSpace,
    T: FlatScalar,
{
    fn with_parts(
        &mut self,
        ranges: &[Range<usize>],
        run: &mut RunParts<'_, T, E::Action, E::ActionSpace>,
    ) {
        check_parts(ranges, self.environments.len());
        let (mut environments, mut truncated) =
            (&mut self.environments[..], &mut self.truncated[..]);
        let mut parts: Parts<CopiesPart<'_, E>> = Parts::new();
        for range in ranges {
            let (these, rest) = std::mem::take(&mut environments).split_at_mut(range.len());
            let (flags, more) = std::mem::take(&mut truncated).split_at_mut(range.len());
            (environments, truncated) = (rest, more);
            parts.push(CopiesPart {
                environments: these,
                truncated: flags,
            });
        }
        let mut lent: Parts<&mut PartStates<'_, T, E::Action, E::ActionSpace>> = parts
            .iter_mut()
            .map(|part| part as &mut PartStates<'_, T, E::Action, E::ActionSpace>)
            .collect();
        run(&mut lent);
    }
}
