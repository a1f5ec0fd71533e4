//! Wrappers over any vector of environments: the [`VectorEnv`] trait every vector implements
//! ([`VectorEnvironment`](crate::vector::VectorEnvironment), from copies or a kernel, and each
//! wrapper), and one file per wrapper: episode statistics, observation and reward
//! normalisation, action clipping, rescaling and discretising, and history stacking.
//!
//! They wrap a vector built by id ([`make_vector`](crate::vector::make_vector), whose action
//! space is an [`AnySpace`](rl_spaces::AnySpace) and whose actions are
//! [`AnyElement`](rl_spaces::AnyElement)s) as they wrap a typed vector: the action transforms
//! take an `AnySpace` that holds a Box of `f32` or `f64` ([`FloatBox`](crate::stateless::FloatBox))
//! and map its numbers as they map the typed Box's, so the results are the same bit for bit
//! (`tests/wrappers_by_id.rs` compares them), and refuse any other space when built.
//!
//! Wrappers nest like single-environment wrappers: each owns the vector it wraps (`inner()`,
//! `inner_mut()`, `into_inner()`), reads its buffers after each call and writes its own, so
//! nothing allocates per step after the first reset, and each result depends only on the
//! inner vector's results (never on the number of threads).
//!
//! ```
//! use std::num::NonZeroUsize;
//! use rl_core::corridor::{Corridor, RIGHT};
//! use rl_core::{Mode, Simulator};
//! use rl_wrappers::vector::{
//!     EnvironmentVector, VectorEnv, VectorEpisodeStatistics, VectorNormalizeObservation,
//!     VectorOptions,
//! };
//!
//! let count = NonZeroUsize::new(4).expect("non-zero");
//! let vector = EnvironmentVector::<_, f32>::from_environments(count, 7, VectorOptions::new(), |_| {
//!     Simulator::new(Corridor::new(3, 0.0).expect("valid"), 0)
//! })?;
//! let mut env = VectorEpisodeStatistics::new(VectorNormalizeObservation::new(vector)?);
//! env.reset(Mode::Training)?;
//! env.step(&[RIGHT; 4])?;
//! env.step(&[RIGHT; 4])?;
//! // Every corridor ended on the second step: return -2 over 2 steps.
//! assert_eq!(env.episode_ended(), &[true; 4]);
//! assert_eq!(env.episode_returns(), &[-2.0; 4]);
//! assert_eq!(env.episode_lengths(), &[2; 4]);
//! assert_eq!(env.observations().shape(), &[4, 3]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod actions;
mod episode_statistics;
mod history;
mod normalize;

pub(crate) use actions::discrete_table;
pub use actions::{
    MAX_DISCRETE_ACTIONS, VectorClipAction, VectorDiscretizeAction, VectorRescaleAction,
};
pub use episode_statistics::VectorEpisodeStatistics;
pub use history::VectorHistoryStack;
pub use normalize::{VectorNormalizeObservation, VectorNormalizeReward};

use std::any::Any;

use ndarray::Array2;
use rl_core::{Info, Mode, Seed, SplitStates};
use rl_spaces::{FiniteSpace, FlatScalar, Space};

use crate::error::VectorError;
use crate::vector::{Autoreset, VectorEnvironment};

/// What every vector of environments offers, so that wrappers apply to any of them: the
/// lifecycle (`reset`, `step`, `seed`, `reset_ended`) and the structure-of-arrays buffers it
/// writes (observations as an `N × flat dimension` array, rewards, flags, and with
/// [`Autoreset::SameStep`] the final observations and their mask), and what only
/// the vector at the bottom of a stack knows (the environments' states, action masks), passed
/// up by the wrappers that keep it true.
///
/// The trait is dyn-compatible: a stack of wrappers chosen at run time is a
/// `Box<dyn VectorEnv<...>>`, itself a `VectorEnv` ([`DynVector`](crate::vector::DynVector)),
/// at the cost of one dynamic call per call of the trait, never one per environment.
///
/// The buffers are read after each call; see
/// [`VectorEnvironment`](crate::vector::VectorEnvironment) for their meaning in each
/// [`Autoreset`] mode.
pub trait VectorEnv {
    /// An action of one environment.
    type Action;
    /// The action space of one environment.
    type ActionSpace: Space<Element = Self::Action>;
    /// The numbers of the observation buffers.
    type Scalar: FlatScalar;

    /// The number of environments.
    fn len(&self) -> usize;

    /// Whether there is no environment (never, for a built vector).
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The action space of one environment.
    fn action_space(&self) -> &Self::ActionSpace;

    /// The number of entries of one observation row.
    fn flat_dim(&self) -> usize;

    /// How ended environments are reset.
    fn autoreset(&self) -> Autoreset;

    /// The mode of the last reset.
    fn mode(&self) -> Mode;

    /// Resets every environment in `mode`.
    fn reset(&mut self, mode: Mode) -> Result<(), VectorError>;

    /// Resets the environments whose episode ended (with [`Autoreset::Disabled`]).
    fn reset_ended(&mut self) -> Result<(), VectorError>;

    /// Resets the environments whose entry of `selected` is `true` (Gymnasium's
    /// `reset(options={"reset_mask": selected})`), the others left as they are; see
    /// [`VectorEnvironment::reset_selected`].
    fn reset_selected(&mut self, selected: &[bool]) -> Result<(), VectorError>;

    /// Reseeds environment `i` with `seed + i`; resets never reseed.
    fn seed(&mut self, seed: u64) -> Result<(), VectorError> {
        self.seed_from(&Seed::from(seed))
    }

    /// Reseeds environment `i` with `seed + i`, for a [`Seed`] of any size (see
    /// [`VectorEnvironment::seed_from`]).
    fn seed_from(&mut self, seed: &Seed) -> Result<(), VectorError>;

    /// Reseeds environment `i` with `seeds[i]` where it is `Some` (one entry per environment;
    /// a `u64` seed is `Seed::from(s)`).
    fn seed_each(&mut self, seeds: &[Option<Seed>]) -> Result<(), VectorError>;

    /// Steps every environment with its action.
    fn step(&mut self, actions: &[Self::Action]) -> Result<(), VectorError>;

    /// The observations, one row per environment.
    fn observations(&self) -> &Array2<Self::Scalar>;

    /// The rewards of the last step.
    fn rewards(&self) -> &[f64];

    /// Which environments terminated on the last step.
    fn terminated(&self) -> &[bool];

    /// Which environments were truncated on the last step.
    fn truncated(&self) -> &[bool];

    /// With [`Autoreset::SameStep`], the final observations of the episodes that ended on the
    /// last step (rows marked in [`final_mask`](Self::final_mask)).
    fn final_observations(&self) -> &Array2<Self::Scalar>;

    /// Which rows of [`final_observations`](Self::final_observations) hold a final observation.
    fn final_mask(&self) -> &[bool];

    /// The infos of the last call, one per environment (empty for a domain that reports none:
    /// a kernel's never do).
    fn infos(&self) -> &[Info];

    /// With [`Autoreset::SameStep`], the infos of the steps that ended episodes on the last
    /// call (entries marked in [`final_mask`](Self::final_mask)).
    fn final_infos(&self) -> &[Info];

    /// Whether [`infos`](Self::infos) and [`final_infos`](Self::final_infos) may hold
    /// anything: true unless the vector knows they are always empty (a structure-of-arrays
    /// kernel's), so that a consumer can skip looking at them.
    fn reports_infos(&self) -> bool {
        true
    }

    /// Environment `i`'s current state, for a consumer that knows its type (a registered
    /// domain draws it:
    /// [`RegisteredDomain::draw_state`](rl_core::registry::RegisteredDomain::draw_state));
    /// `None` for an index out of range or a vector that does not hand its states out (by
    /// default).
    fn state_any(&self, i: usize) -> Option<&dyn Any> {
        let _ = i;
        None
    }

    /// Writes the action mask of every environment's current state into its row of `masks`
    /// (one column per action of the finite action space), as
    /// [`VectorEnvironment::action_masks`] does. By default, and under a wrapper that changes
    /// the actions, [`VectorError::Unsupported`].
    fn action_masks(&self, masks: &mut Array2<bool>) -> Result<(), VectorError>
    where
        Self::ActionSpace: FiniteSpace,
    {
        let _ = masks;
        Err(VectorError::Unsupported {
            operation: "action masks",
        })
    }

    /// With [`Autoreset::SameStep`], writes the action masks of the states the episodes marked
    /// in [`final_mask`](Self::final_mask) ended in, as
    /// [`VectorEnvironment::final_action_masks`] does. By default, and under a wrapper that
    /// changes the actions, [`VectorError::Unsupported`].
    fn final_action_masks(&self, masks: &mut Array2<bool>) -> Result<(), VectorError>
    where
        Self::ActionSpace: FiniteSpace,
    {
        let _ = masks;
        Err(VectorError::Unsupported {
            operation: "final action masks",
        })
    }
}

impl<S: SplitStates<T>, T: FlatScalar> VectorEnv for VectorEnvironment<S, T> {
    type Action = S::Action;
    type ActionSpace = S::ActionSpace;
    type Scalar = T;

    fn len(&self) -> usize {
        VectorEnvironment::len(self)
    }

    fn action_space(&self) -> &S::ActionSpace {
        VectorEnvironment::action_space(self)
    }

    fn flat_dim(&self) -> usize {
        VectorEnvironment::flat_dim(self)
    }

    fn autoreset(&self) -> Autoreset {
        self.options().autoreset()
    }

    fn mode(&self) -> Mode {
        VectorEnvironment::mode(self)
    }

    fn reset(&mut self, mode: Mode) -> Result<(), VectorError> {
        VectorEnvironment::reset(self, mode)
    }

    fn reset_ended(&mut self) -> Result<(), VectorError> {
        VectorEnvironment::reset_ended(self)
    }

    fn reset_selected(&mut self, selected: &[bool]) -> Result<(), VectorError> {
        VectorEnvironment::reset_selected(self, selected)
    }

    fn seed(&mut self, seed: u64) -> Result<(), VectorError> {
        VectorEnvironment::seed(self, seed)
    }

    fn seed_from(&mut self, seed: &Seed) -> Result<(), VectorError> {
        VectorEnvironment::seed_from(self, seed)
    }

    fn seed_each(&mut self, seeds: &[Option<Seed>]) -> Result<(), VectorError> {
        VectorEnvironment::seed_each(self, seeds)
    }

    fn step(&mut self, actions: &[S::Action]) -> Result<(), VectorError> {
        VectorEnvironment::step(self, actions)
    }

    fn observations(&self) -> &Array2<T> {
        VectorEnvironment::observations(self)
    }

    fn rewards(&self) -> &[f64] {
        VectorEnvironment::rewards(self)
    }

    fn terminated(&self) -> &[bool] {
        VectorEnvironment::terminated(self)
    }

    fn truncated(&self) -> &[bool] {
        VectorEnvironment::truncated(self)
    }

    fn final_observations(&self) -> &Array2<T> {
        VectorEnvironment::final_observations(self)
    }

    fn final_mask(&self) -> &[bool] {
        VectorEnvironment::final_mask(self)
    }

    fn infos(&self) -> &[Info] {
        VectorEnvironment::infos(self)
    }

    fn final_infos(&self) -> &[Info] {
        VectorEnvironment::final_infos(self)
    }

    fn reports_infos(&self) -> bool {
        VectorEnvironment::reports_infos(self)
    }

    fn state_any(&self, i: usize) -> Option<&dyn Any> {
        VectorEnvironment::state_any(self, i)
    }

    fn action_masks(&self, masks: &mut Array2<bool>) -> Result<(), VectorError>
    where
        S::ActionSpace: FiniteSpace,
    {
        VectorEnvironment::action_masks(self, masks)
    }

    fn final_action_masks(&self, masks: &mut Array2<bool>) -> Result<(), VectorError>
    where
        S::ActionSpace: FiniteSpace,
    {
        VectorEnvironment::final_action_masks(self, masks)
    }
}

/// A boxed vector (a stack of wrappers chosen at run time,
/// [`DynVector`](crate::vector::DynVector)) is a vector: every call goes to the box's contents,
/// one dynamic call each.
impl<V: VectorEnv + ?Sized> VectorEnv for Box<V> {
    type Action = V::Action;
    type ActionSpace = V::ActionSpace;
    type Scalar = V::Scalar;

    fn len(&self) -> usize {
        (**self).len()
    }

    fn action_space(&self) -> &V::ActionSpace {
        (**self).action_space()
    }

    fn flat_dim(&self) -> usize {
        (**self).flat_dim()
    }

    fn autoreset(&self) -> Autoreset {
        (**self).autoreset()
    }

    fn mode(&self) -> Mode {
        (**self).mode()
    }

    fn reset(&mut self, mode: Mode) -> Result<(), VectorError> {
        (**self).reset(mode)
    }

    fn reset_ended(&mut self) -> Result<(), VectorError> {
        (**self).reset_ended()
    }

    fn reset_selected(&mut self, selected: &[bool]) -> Result<(), VectorError> {
        (**self).reset_selected(selected)
    }

    fn seed(&mut self, seed: u64) -> Result<(), VectorError> {
        (**self).seed(seed)
    }

    fn seed_from(&mut self, seed: &Seed) -> Result<(), VectorError> {
        (**self).seed_from(seed)
    }

    fn seed_each(&mut self, seeds: &[Option<Seed>]) -> Result<(), VectorError> {
        (**self).seed_each(seeds)
    }

    fn step(&mut self, actions: &[V::Action]) -> Result<(), VectorError> {
        (**self).step(actions)
    }

    fn observations(&self) -> &Array2<V::Scalar> {
        (**self).observations()
    }

    fn rewards(&self) -> &[f64] {
        (**self).rewards()
    }

    fn terminated(&self) -> &[bool] {
        (**self).terminated()
    }

    fn truncated(&self) -> &[bool] {
        (**self).truncated()
    }

    fn final_observations(&self) -> &Array2<V::Scalar> {
        (**self).final_observations()
    }

    fn final_mask(&self) -> &[bool] {
        (**self).final_mask()
    }

    fn infos(&self) -> &[Info] {
        (**self).infos()
    }

    fn final_infos(&self) -> &[Info] {
        (**self).final_infos()
    }

    fn reports_infos(&self) -> bool {
        (**self).reports_infos()
    }

    fn state_any(&self, i: usize) -> Option<&dyn Any> {
        (**self).state_any(i)
    }

    fn action_masks(&self, masks: &mut Array2<bool>) -> Result<(), VectorError>
    where
        V::ActionSpace: FiniteSpace,
    {
        (**self).action_masks(masks)
    }

    fn final_action_masks(&self, masks: &mut Array2<bool>) -> Result<(), VectorError>
    where
        V::ActionSpace: FiniteSpace,
    {
        (**self).final_action_masks(masks)
    }
}

/// Writes the [`VectorEnv`] methods a wrapper passes through unchanged, for a wrapper whose
/// inner vector is the field `inner`. Each argument names a group to forward: `actions`
/// (`Action`, `ActionSpace`, `action_space`, and the action masks, true of the inner actions),
/// `lifecycle` (`len`, `autoreset`, `mode`, `seed`, `seed_each`, `state_any`), `resets`
/// (`reset`, `reset_ended`, `reset_selected`), `observations` (`Scalar`, `flat_dim`,
/// `observations`, `final_observations`, `final_mask`), `rewards` (`rewards` and the group
/// `flags`: `terminated`, `truncated`, `infos`, `final_infos`, `reports_infos`), `mapped_actions`
/// (`step` for a wrapper that writes the inner actions into the field `actions` with its method
/// `map_actions` and passes the inner results through).
macro_rules! forward_vector {
    (actions) => {
        type Action = V::Action;
        type ActionSpace = V::ActionSpace;

        fn action_space(&self) -> &V::ActionSpace {
            self.inner.action_space()
        }

        fn action_masks(&self, masks: &mut ndarray::Array2<bool>) -> Result<(), $crate::VectorError>
        where
            V::ActionSpace: rl_spaces::FiniteSpace,
        {
            self.inner.action_masks(masks)
        }

        fn final_action_masks(
            &self,
            masks: &mut ndarray::Array2<bool>,
        ) -> Result<(), $crate::VectorError>
        where
            V::ActionSpace: rl_spaces::FiniteSpace,
        {
            self.inner.final_action_masks(masks)
        }
    };
    (lifecycle) => {
        fn len(&self) -> usize {
            self.inner.len()
        }

        fn autoreset(&self) -> $crate::vector::Autoreset {
            self.inner.autoreset()
        }

        fn mode(&self) -> rl_core::Mode {
            self.inner.mode()
        }

        fn seed(&mut self, seed: u64) -> Result<(), $crate::VectorError> {
            self.inner.seed(seed)
        }

        fn seed_from(&mut self, seed: &rl_core::Seed) -> Result<(), $crate::VectorError> {
            self.inner.seed_from(seed)
        }

        fn seed_each(
            &mut self,
            seeds: &[Option<rl_core::Seed>],
        ) -> Result<(), $crate::VectorError> {
            self.inner.seed_each(seeds)
        }

        fn state_any(&self, i: usize) -> Option<&dyn std::any::Any> {
            self.inner.state_any(i)
        }
    };
    (resets) => {
        fn reset(&mut self, mode: rl_core::Mode) -> Result<(), $crate::VectorError> {
            self.inner.reset(mode)
        }

        fn reset_ended(&mut self) -> Result<(), $crate::VectorError> {
            self.inner.reset_ended()
        }

        fn reset_selected(&mut self, selected: &[bool]) -> Result<(), $crate::VectorError> {
            self.inner.reset_selected(selected)
        }
    };
    (observations) => {
        type Scalar = V::Scalar;

        fn flat_dim(&self) -> usize {
            self.inner.flat_dim()
        }

        fn observations(&self) -> &ndarray::Array2<V::Scalar> {
            self.inner.observations()
        }

        fn final_observations(&self) -> &ndarray::Array2<V::Scalar> {
            self.inner.final_observations()
        }

        fn final_mask(&self) -> &[bool] {
            self.inner.final_mask()
        }
    };
    (mapped_actions) => {
        fn step(&mut self, actions: &[Self::Action]) -> Result<(), $crate::VectorError> {
            self.map_actions(actions)?;
            self.inner.step(&self.actions)
        }
    };
    (rewards) => {
        fn rewards(&self) -> &[f64] {
            self.inner.rewards()
        }

        forward_vector!(flags);
    };
    (flags) => {
        fn terminated(&self) -> &[bool] {
            self.inner.terminated()
        }

        fn truncated(&self) -> &[bool] {
            self.inner.truncated()
        }

        fn infos(&self) -> &[rl_core::Info] {
            self.inner.infos()
        }

        fn final_infos(&self) -> &[rl_core::Info] {
            self.inner.final_infos()
        }

        fn reports_infos(&self) -> bool {
            self.inner.reports_infos()
        }
    };
}
pub(crate) use forward_vector;

/// Writes `inner`, `inner_mut` and `into_inner` for a vector wrapper over `V` in the field
/// `inner`.
macro_rules! vector_accessors {
    () => {
        /// The wrapped vector.
        pub fn inner(&self) -> &V {
            &self.inner
        }

        /// The wrapped vector, mutably. Stepping it directly bypasses this wrapper.
        pub fn inner_mut(&mut self) -> &mut V {
            &mut self.inner
        }

        /// Unwraps the vector.
        pub fn into_inner(self) -> V {
            self.inner
        }
    };
}
pub(crate) use vector_accessors;

/// Which environments begin an episode with the observation of the last call, given the
/// flags of the call and whether it was a step: every one after a reset; with
/// [`Autoreset::NextStep`] those that ended on the step before (`previously_ended`); with
/// [`Autoreset::SameStep`] those that ended on this step. Writes the answer into `starts`
/// and updates `previously_ended`.
pub(crate) fn episode_starts<V: VectorEnv + ?Sized>(
    inner: &V,
    stepped: bool,
    previously_ended: &mut [bool],
    starts: &mut [bool],
) {
    let ended = inner.terminated().iter().zip(inner.truncated());
    for ((start, previous), (terminated, truncated)) in starts
        .iter_mut()
        .zip(previously_ended.iter_mut())
        .zip(ended)
    {
        let done = *terminated || *truncated;
        *start = match (stepped, inner.autoreset()) {
            (false, _) => true,
            (true, Autoreset::NextStep) => *previous,
            (true, Autoreset::SameStep) => done,
            (true, Autoreset::Disabled) => false,
        };
        // After a next-step reset the flags are false, so this clears `previous` too.
        *previous = stepped && done;
    }
}
