//! [`SteppedStates`]: the batch of states of any domain, each stepped by [`Domain::step`] in
//! turn, with its infos: the batched vector path of every domain without a structure-of-arrays
//! kernel of its own.

use std::fmt;
use std::sync::Arc;

use rl_spaces::{FlatScalar, FlattenSpace};

use crate::batch::{placeholder_states, reset_state};
use crate::{
    BatchStates, CoreError, Domain, Info, Mode, NumpyGenerator, TransitionOutcome,
    check_batch_lengths,
};

/// The states of a batch of episodes of any [`Domain`], in one `Vec`, each stepped with
/// [`Domain::step`] and observed with [`Domain::observe`], its observation flattened straight
/// into its row of the caller's buffer and its info
/// ([`TransitionOutcome::info`]) written into the caller's slot: the [`BatchStates`] that a
/// registration without a kernel of its own gives a vector built by id
/// ([`RegisteredDomain::batch_states`](crate::registry::RegisteredDomain::batch_states)), so
/// that registering a domain is all it takes to be batched. [`BatchStep`](crate::BatchStep) is
/// written only for structure-of-arrays kernels ([`DomainStates`](crate::DomainStates)).
///
/// Each episode draws from its own generator exactly what a
/// [`Simulator`](crate::Simulator) of the domain draws, so a vector of these states gives,
/// bit for bit, what copies of `Simulator::new(domain, seed + i)` give, infos included. The
/// episodes marked discarded in [`step_with_infos`](BatchStates::step_with_infos) (those a
/// vector resets instead) are not stepped at all, as a simulator whose episode ended is not.
/// Stepping allocates nothing when the domain's `step` and `observe` allocate nothing (a state
/// and an observation of plain values, an info with at most one inline entry,
/// [`Info::insert_static`]).
///
/// ```
/// use std::sync::Arc;
/// use rand::SeedableRng;
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_core::{BatchStates, Environment, Info, Mode, NumpyGenerator, Simulator, SteppedStates};
///
/// let corridor = Corridor::new(4, 0.2)?;
/// let mut batch = SteppedStates::new(Arc::new(corridor.clone()), 2);
/// let mut rngs = vec![NumpyGenerator::seed_from_u64(7), NumpyGenerator::seed_from_u64(8)];
/// let mut observations = [0.0f32; 8]; // Discrete(4) flattens one-hot: rows of 4
/// for (i, rng) in rngs.iter_mut().enumerate() {
///     batch.reset_at(i, Mode::Training, rng, &mut observations[i * 4..(i + 1) * 4])?;
/// }
/// let (mut rewards, mut terminated, mut infos) = ([0.0; 2], [false; 2], [Info::new(), Info::new()]);
/// batch.step_with_infos(
///     &[RIGHT, RIGHT], &[false, false], Mode::Training, &mut rngs,
///     &mut rewards, &mut terminated, &mut observations, &mut infos,
/// ).map_err(|(_, error)| error)?;
/// // The same as a simulator seeded alike.
/// let mut simulator = Simulator::new(corridor, 8);
/// simulator.reset(Mode::Training)?;
/// let outcome = simulator.step(&RIGHT)?;
/// assert_eq!(observations[4 + outcome.observation as usize], 1.0);
/// assert_eq!(rewards[1].to_bits(), outcome.reward().to_bits());
/// # Ok::<(), rl_core::CoreError>(())
/// ```
pub struct SteppedStates<D: Domain> {
    domain: Arc<D>,
    states: Vec<D::State>,
}

impl<D: Domain> SteppedStates<D> {
    /// `len` states of `domain`, each a placeholder initial state (drawn in training mode from
    /// a generator seeded with 0) until its first reset.
    pub fn new(domain: Arc<D>, len: usize) -> Self {
        SteppedStates {
            states: placeholder_states(&*domain, len),
            domain,
        }
    }

    /// The domain.
    pub fn domain(&self) -> &D {
        &self.domain
    }

    /// The current state of every episode, in order.
    pub fn states(&self) -> &[D::State] {
        &self.states
    }
}

impl<D: Domain + fmt::Debug> fmt::Debug for SteppedStates<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SteppedStates")
            .field("domain", &self.domain)
            .field("states", &self.states)
            .finish()
    }
}

impl<D: Domain> Clone for SteppedStates<D> {
    fn clone(&self) -> Self {
        SteppedStates {
            domain: Arc::clone(&self.domain),
            states: self.states.clone(),
        }
    }
}

/// Puts `info` into `slot`, skipping the write (and the drop of the old one) when both are
/// empty, as a vector's copies of an environment write their infos.
#[inline]
fn put(slot: &mut Info, info: Info) {
    if !(info.is_empty() && slot.is_empty()) {
        *slot = info;
    }
}

impl<D, T> BatchStates<T> for SteppedStates<D>
where
    D: Domain + Send + Sync,
    D::State: Send,
    D::Action: Send + Sync,
    D::ObservationSpace: FlattenSpace,
    T: FlatScalar,
{
    type Action = D::Action;
    type ActionSpace = D::ActionSpace;

    fn action_space(&self) -> &D::ActionSpace {
        self.domain.action_space()
    }

    fn episode_cap(&self) -> Option<u64> {
        self.domain.episode_cap()
    }

    fn len(&self) -> usize {
        self.states.len()
    }

    fn reset_at(
        &mut self,
        i: usize,
        mode: Mode,
        rng: &mut NumpyGenerator,
        observation: &mut [T],
    ) -> Result<(), CoreError> {
        reset_state(&*self.domain, &mut self.states, i, mode, rng, observation)
    }

    /// Steps every state, writing no info ([`step_with_infos`](Self::step_with_infos) with no
    /// episode discarded, the infos dropped).
    fn step(
        &mut self,
        actions: &[D::Action],
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
    ) -> Result<(), (usize, CoreError)> {
        let domain = &*self.domain;
        let dim = domain.observation_space().flat_dim();
        let len = self.states.len();
        check_batch_lengths(
            len,
            actions.len(),
            Some(rngs.len()),
            rewards.len(),
            terminated.len(),
            observations.len(),
            dim,
        );
        for (i, (state, action)) in self.states.iter_mut().zip(actions).enumerate() {
            let outcome = domain.step(state, action, mode, &mut rngs[i]);
            let row = &mut observations[i * dim..(i + 1) * dim];
            write_outcome(
                domain,
                outcome,
                state,
                &mut rewards[i],
                &mut terminated[i],
                row,
            )
            .map_err(|error| (i, error))?;
        }
        Ok(())
    }

    fn step_with_infos(
        &mut self,
        actions: &[D::Action],
        discarded: &[bool],
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
        infos: &mut [Info],
    ) -> Result<(), (usize, CoreError)> {
        let domain = &*self.domain;
        let dim = domain.observation_space().flat_dim();
        let len = self.states.len();
        check_batch_lengths(
            len,
            actions.len(),
            Some(rngs.len()),
            rewards.len(),
            terminated.len(),
            observations.len(),
            dim,
        );
        assert!(
            discarded.len() == len && infos.len() == len,
            "a batch step needs slices of one length: {len} states, {} discarded flags and {} \
             infos",
            discarded.len(),
            infos.len()
        );
        let episodes = self.states.iter_mut().zip(actions).zip(discarded);
        for (i, ((state, action), skip)) in episodes.enumerate() {
            if *skip {
                continue;
            }
            let mut outcome = domain.step(state, action, mode, &mut rngs[i]);
            put(&mut infos[i], std::mem::take(&mut outcome.info));
            let row = &mut observations[i * dim..(i + 1) * dim];
            write_outcome(
                domain,
                outcome,
                state,
                &mut rewards[i],
                &mut terminated[i],
                row,
            )
            .map_err(|error| (i, error))?;
        }
        Ok(())
    }

    fn reports_infos(&self) -> bool {
        true
    }

    fn episode_bytes(&self) -> usize {
        std::mem::size_of::<D::State>()
    }

    fn is_applicable(&self, i: usize, action: &D::Action) -> bool {
        self.states
            .get(i)
            .is_some_and(|state| self.domain.is_applicable(state, action))
    }

    fn accepts_action(&self, action: &D::Action) -> bool {
        self.domain.accepts_action(action)
    }
}

/// Writes a step's observation (flattened into `row`), reward and termination, and makes its
/// next state the episode's `state`: what a [`Simulator`](crate::Simulator) step gives, in
/// its order (the observation of the next state, then the state stored).
#[inline]
fn write_outcome<D, T>(
    domain: &D,
    outcome: TransitionOutcome<D::State>,
    state: &mut D::State,
    reward: &mut f64,
    done: &mut bool,
    row: &mut [T],
) -> Result<(), CoreError>
where
    D: Domain,
    D::ObservationSpace: FlattenSpace,
    T: FlatScalar,
{
    let observation = domain.observe(&outcome.next_state);
    *state = outcome.next_state;
    *reward = outcome.value.reward();
    *done = outcome.terminated;
    domain.observation_space().flatten_into(&observation, row)?;
    Ok(())
}
