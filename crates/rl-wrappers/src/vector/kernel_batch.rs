//! [`KernelBatch`]: the states of a batch in structure-of-arrays columns, stepped all at once
//! by a domain's [`BatchStep`] kernel.

use std::fmt;
use std::num::NonZeroU64;
use std::sync::Arc;

use rand::SeedableRng;
use rand_pcg::Pcg64;
use rl_core::{CoreError, Mode};
use rl_spaces::{FlatScalar, FlattenSpace};

use crate::derive_seed;
use crate::vector::batch::{Failure, sealed};
use crate::vector::outputs::{Rows, set};
use crate::vector::{Autoreset, BatchStep, StateColumns};

/// The states of a batch of episodes of a [`BatchStep`] domain, in its structure-of-arrays
/// columns, with a `Pcg64` and a step count per episode (the storage of
/// [`VectorEnvironment::from_kernel`](crate::vector::VectorEnvironment::from_kernel)).
///
/// It does what a [`Simulator`](rl_core::Simulator) does for each episode, for the whole batch
/// at once: environment `i`'s generator is `Pcg64::seed_from_u64(derive_seed(seed, i))`,
/// resets draw [`Domain::initial_state`](rl_core::Domain::initial_state) from it, and an episode is truncated when its step
/// count reaches [`Domain::episode_cap`](rl_core::Domain::episode_cap). So a kernel batch gives, bit for bit, what copies of
/// `Simulator::new(domain, derive_seed(seed, i))` give.
pub struct KernelBatch<D: BatchStep, T> {
    domain: Arc<D>,
    columns: D::Columns,
    generators: Vec<Pcg64>,
    saved_generators: Vec<Pcg64>,
    steps: Vec<u64>,
    ended: Vec<bool>,
    episode_cap: Option<NonZeroU64>,
    first: usize,
    marker: std::marker::PhantomData<fn() -> T>,
}

impl<D: BatchStep, T> KernelBatch<D, T> {
    /// The episodes `first..first + len` of a vector environment of `domain`. The columns
    /// start filled with a placeholder state (drawn from a generator of its own), replaced by
    /// the first reset.
    pub(crate) fn new(domain: Arc<D>, first: usize, len: usize) -> Self {
        let placeholder = domain.initial_state(Mode::Training, &mut Pcg64::seed_from_u64(0));
        let generator = Pcg64::seed_from_u64(0);
        KernelBatch {
            columns: D::Columns::filled(len, &placeholder),
            episode_cap: domain.episode_cap().and_then(NonZeroU64::new),
            domain,
            generators: vec![generator.clone(); len],
            saved_generators: vec![generator; len],
            steps: vec![0; len],
            ended: vec![false; len],
            first,
            marker: std::marker::PhantomData,
        }
    }

    /// The domain.
    pub(crate) fn domain(&self) -> &D {
        &self.domain
    }

    /// Resets episode `i`: a new initial state from its generator, its observation in row `i`.
    fn reset_one(&mut self, i: usize, mode: Mode, rows: &mut Rows<'_, T>) -> Result<(), CoreError>
    where
        D::ObservationSpace: FlattenSpace,
        T: FlatScalar,
    {
        let Some(generator) = self.generators.get_mut(i) else {
            return Ok(());
        };
        let state = self.domain.initial_state(mode, generator);
        self.columns.set(i, &state);
        let observation = self.domain.observe(&state);
        self.domain
            .observation_space()
            .flatten_into(&observation, rows.observation(i))?;
        set(&mut self.steps, i, 0);
        set(&mut self.ended, i, false);
        Ok(())
    }
}

impl<D: BatchStep + fmt::Debug, T> fmt::Debug for KernelBatch<D, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KernelBatch")
            .field("domain", &self.domain)
            .field("first", &self.first)
            .field("len", &self.steps.len())
            .field("steps", &self.steps)
            .field("ended", &self.ended)
            .finish_non_exhaustive()
    }
}

impl<D, T> sealed::Sealed for KernelBatch<D, T>
where
    D: BatchStep,
    D::ObservationSpace: FlattenSpace,
    T: FlatScalar,
{
    type Action = D::Action;
    type ActionSpace = D::ActionSpace;
    type Scalar = T;

    fn len(&self) -> usize {
        self.steps.len()
    }

    fn action_space(&self) -> &D::ActionSpace {
        self.domain.action_space()
    }

    fn seed(&mut self, seed: u64) {
        for (i, generator) in self.generators.iter_mut().enumerate() {
            *generator = Pcg64::seed_from_u64(derive_seed(seed, (self.first + i) as u64));
        }
    }

    fn reset(
        &mut self,
        mode: Mode,
        only_ended: bool,
        mut rows: Rows<'_, T>,
    ) -> Result<(), Failure> {
        let mut failure = None;
        for i in 0..self.len() {
            if only_ended && !self.ended.get(i).copied().unwrap_or(false) {
                set(rows.final_mask, i, false);
                continue;
            }
            match self.reset_one(i, mode, &mut rows) {
                Ok(()) => rows.mark_reset(i),
                Err(e) => failure = failure.or(Some((self.first + i, e))),
            }
        }
        failure.map_or(Ok(()), Err)
    }

    fn step(
        &mut self,
        actions: &[D::Action],
        mode: Mode,
        autoreset: Autoreset,
        mut rows: Rows<'_, T>,
    ) -> Result<(), Failure> {
        // With next-step autoreset, the episodes that ended on the last call are reset now,
        // not stepped. The kernel steps every state, so save their generators and restore
        // them afterwards: the discarded step must leave no trace in the random sequence.
        let next_step = autoreset == Autoreset::NextStep;
        if next_step {
            let pending = self.ended.iter().zip(&self.generators);
            for (saved, (ended, generator)) in self.saved_generators.iter_mut().zip(pending) {
                if *ended {
                    saved.clone_from(generator);
                }
            }
        }
        self.domain.step_batch(
            self.columns.as_chunk(),
            actions,
            mode,
            &mut self.generators,
            rows.rewards,
            rows.terminated,
            rows.observations,
        );
        let mut failure = None;
        for i in 0..self.len() {
            if next_step && self.ended.get(i).copied().unwrap_or(false) {
                if let (Some(generator), Some(saved)) =
                    (self.generators.get_mut(i), self.saved_generators.get(i))
                {
                    generator.clone_from(saved);
                }
                match self.reset_one(i, mode, &mut rows) {
                    Ok(()) => rows.mark_reset(i),
                    Err(e) => failure = failure.or(Some((self.first + i, e))),
                }
                continue;
            }
            let steps = self.steps.get(i).copied().unwrap_or(0) + 1;
            set(&mut self.steps, i, steps);
            let truncated = self.episode_cap.is_some_and(|cap| steps >= cap.get());
            set(rows.truncated, i, truncated);
            set(rows.final_mask, i, false);
            let done = truncated || rows.terminated.get(i).copied().unwrap_or(false);
            if done && autoreset == Autoreset::SameStep {
                rows.keep_final_observation(i);
                set(rows.final_mask, i, true);
                if let Err(e) = self.reset_one(i, mode, &mut rows) {
                    failure = failure.or(Some((self.first + i, e)));
                }
            } else {
                set(&mut self.ended, i, done);
            }
        }
        failure.map_or(Ok(()), Err)
    }
}
