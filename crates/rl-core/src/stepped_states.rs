//! [`SteppedStates`]: the batch of states of any domain, each stepped in place by
//! [`Domain::step_in_place`] in turn, with its infos: the batched vector path of every domain without a structure-of-arrays
//! kernel of its own.

use std::fmt;
use std::sync::Arc;

use rl_spaces::{FlatScalar, FlattenSpace, RowLayout};

use crate::batch::{placeholder_states, reset_state};
use crate::{
    BatchStates, ConstraintSet, CoreError, Domain, Info, Memory, Mode, NumpyGenerator,
    check_batch_lengths,
};

/// The states of a batch of episodes of any [`Domain`], in one `Vec`, each stepped in place
/// with [`Domain::step_in_place`] (by default [`Domain::step`]) and its observation written
/// flattened straight into its row of the caller's buffer with
/// [`Domain::observe_flat_into`] (by default [`Domain::observe`], then flattened), restarted
/// with [`Domain::initial_state_into`], and its info
/// ([`TransitionOutcome::info`](crate::TransitionOutcome::info)) written into the caller's
/// slot: the [`BatchStates`] that a registration without a kernel of its own gives a vector
/// built by id
/// ([`RegisteredDomain::batch_states`](crate::registry::RegisteredDomain::batch_states)), so
/// that registering a domain is all it takes to be batched. [`BatchStep`](crate::BatchStep) is
/// written only for structure-of-arrays kernels ([`DomainStates`](crate::DomainStates)).
///
/// Each episode draws from its own generator exactly what a
/// [`Simulator`](crate::Simulator) of the domain draws, so a vector of these states gives,
/// bit for bit, what copies of `Simulator::new(domain, seed + i)` give, infos included. The
/// episodes marked discarded in [`step_with_infos`](BatchStates::step_with_infos) (those a
/// vector resets instead) are not stepped at all, as a simulator whose episode ended is not.
/// Stepping allocates nothing when the domain's `step_in_place` and `observe_flat_into`
/// allocate nothing (by default: a state and an observation of plain values; a domain whose
/// state or observation owns memory overrides them, as MiniGrid does) and its info holds at
/// most one inline entry ([`Info::insert_static`]).
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
    layout: RowLayout,
    constraints: Option<Constrained<D>>,
}

/// Declared constraints with each episode's memory of its states.
struct Constrained<D: Domain> {
    set: ConstraintSet<D::State, D::Action>,
    memories: Vec<Memory<D::State>>,
}

impl<D: Domain> Clone for Constrained<D> {
    fn clone(&self) -> Self {
        Constrained {
            set: self.set.clone(),
            memories: self.memories.clone(),
        }
    }
}

impl<D: Domain> SteppedStates<D> {
    /// `len` states of `domain`, each a placeholder initial state (drawn in training mode from
    /// a generator seeded with 0) until its first reset.
    pub fn new(domain: Arc<D>, len: usize) -> Self {
        SteppedStates {
            states: placeholder_states(&*domain, len),
            domain,
            layout: RowLayout::Flat,
            constraints: None,
        }
    }

    /// The same states, their observations written in `layout`
    /// ([`Domain::observe_row_into`]) rather than flattened: rows of the observation space's
    /// [`row_dim`](FlattenSpace::row_dim) for `layout`.
    pub fn with_layout(mut self, layout: RowLayout) -> Self {
        self.layout = layout;
        self
    }

    /// The same states, each episode's steps also checked against `constraints` as a
    /// [`Simulator::with_constraint_set`](crate::Simulator::with_constraint_set) checks them;
    /// a step that violates some lists their names in its info under
    /// [`VIOLATIONS_INFO_KEY`](crate::VIOLATIONS_INFO_KEY) (what a vector built by id from a
    /// registration with constraints steps). The states' memories are kept from
    /// [`step`](BatchStates::step) too, whose infos are dropped. Checking allocates nothing
    /// once each memory is full (for plain-value states); a violating step's info entry, a
    /// list of names, is one allocation, on violating steps only.
    pub fn with_constraints(mut self, constraints: ConstraintSet<D::State, D::Action>) -> Self {
        let memories = self.states.iter().map(|_| constraints.memory()).collect();
        self.constraints = Some(Constrained {
            set: constraints,
            memories,
        });
        self
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
            layout: self.layout,
            constraints: self.constraints.clone(),
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
    D::State: Send + 'static,
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
        reset_state(
            &*self.domain,
            &mut self.states,
            i,
            mode,
            rng,
            self.layout,
            observation,
        )?;
        if let Some(constraints) = self.constraints.as_mut() {
            let memory = &mut constraints.memories[i];
            memory.clear();
            memory.push(self.states[i].clone());
        }
        Ok(())
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
        let outputs = Outputs {
            rewards,
            terminated,
            observations,
            infos: None,
        };
        self.step_each(actions, None, mode, rngs, outputs)
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
        let outputs = Outputs {
            rewards,
            terminated,
            observations,
            infos: Some(infos),
        };
        self.step_each(actions, Some(discarded), mode, rngs, outputs)
    }

    fn reports_infos(&self) -> bool {
        true
    }

    fn episode_bytes(&self) -> usize {
        std::mem::size_of::<D::State>() + self.domain.state_heap_bytes()
    }

    fn is_applicable(&self, i: usize, action: &D::Action) -> bool {
        self.states
            .get(i)
            .is_some_and(|state| self.domain.is_applicable(state, action))
    }

    fn state_any(&self, i: usize) -> Option<&dyn std::any::Any> {
        self.states.get(i).map(|state| state as &dyn std::any::Any)
    }

    fn action_mask_into(&self, i: usize, mask: &mut [bool]) -> bool {
        self.states
            .get(i)
            .is_some_and(|state| self.domain.action_mask_into(state, mask))
    }

    fn accepts_action(&self, action: &D::Action) -> bool {
        self.domain.accepts_action(action)
    }
}

/// The slices a step writes, one entry (or row) per episode; `infos` where they are kept.
struct Outputs<'a, T> {
    rewards: &'a mut [f64],
    terminated: &'a mut [bool],
    observations: &'a mut [T],
    infos: Option<&'a mut [Info]>,
}

impl<D: Domain> SteppedStates<D>
where
    D::ObservationSpace: FlattenSpace,
{
    /// Steps every episode not marked in `discarded` (all of them without it) with its action
    /// and generator, writing its results at its index of `outputs`.
    ///
    /// # Panics
    ///
    /// When a slice's length is not the batch's (a bug of the caller), with the lengths.
    fn step_each<T: FlatScalar>(
        &mut self,
        actions: &[D::Action],
        discarded: Option<&[bool]>,
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        outputs: Outputs<'_, T>,
    ) -> Result<(), (usize, CoreError)> {
        let Outputs {
            rewards,
            terminated,
            observations,
            mut infos,
        } = outputs;
        let domain = &*self.domain;
        let layout = self.layout;
        let dim = domain.observation_space().row_dim(layout);
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
        let (discarded_len, infos_len) = (
            discarded.map_or(len, <[bool]>::len),
            infos.as_ref().map_or(len, |infos| infos.len()),
        );
        assert!(
            discarded_len == len && infos_len == len,
            "a batch step needs slices of one length: {len} states, {discarded_len} discarded \
             flags and {infos_len} infos"
        );
        for (i, (state, action)) in self.states.iter_mut().zip(actions).enumerate() {
            if discarded.is_some_and(|discarded| discarded[i]) {
                continue;
            }
            let outcome = domain.step_in_place(state, action, mode, &mut rngs[i]);
            if let Some(infos) = infos.as_deref_mut() {
                put(&mut infos[i], outcome.info);
            }
            if let Some(Constrained { set, memories }) = self.constraints.as_mut() {
                let violations = set.check(&mut memories[i], action, state);
                if let Some(infos) = infos.as_deref_mut() {
                    set.write_info(violations, &mut infos[i]);
                }
            }
            rewards[i] = outcome.value.reward();
            terminated[i] = outcome.terminated;
            let row = &mut observations[i * dim..(i + 1) * dim];
            domain
                .observe_row_into(state, layout, row)
                .map_err(|error| (i, error.into()))?;
        }
        Ok(())
    }
}
