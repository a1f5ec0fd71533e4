//! [`Batch`]: the storage a vector environment steps, one implementation per construction
//! path ([`EnvironmentBatch`](crate::vector::EnvironmentBatch) and
//! [`KernelBatch`](crate::vector::KernelBatch)), and the commands it runs.

use std::fmt;

use rl_core::{CoreError, Mode, Seed};
use rl_spaces::{FiniteSpace, FlatScalar, Space};

use crate::vector::Autoreset;
use crate::vector::outputs::Rows;

/// The environments of a vector environment, or a share of them: copies of an environment
/// ([`EnvironmentBatch`](crate::vector::EnvironmentBatch)) or the columns of a
/// structure-of-arrays kernel ([`KernelBatch`](crate::vector::KernelBatch)).
///
/// This trait is sealed: it names the two storages in
/// [`VectorEnvironment`](crate::vector::VectorEnvironment)'s type, and its associated types
/// (`Action`, `ActionSpace`, `Scalar`: the action and action space of one environment and the
/// observations' numeric type) come from the sealed supertrait.
pub trait Batch: sealed::Sealed {}

impl<B: sealed::Sealed> Batch for B {}

/// An environment of the batch failed: its global index and the error.
pub(crate) type Failure = (usize, CoreError);

pub(crate) mod sealed {
    use super::{
        Autoreset, CoreError, Failure, FiniteSpace, FlatScalar, Mode, Resets, Rows, Seed, Space,
        fmt,
    };

    /// The types and operations of a batch (of each thread's share).
    pub trait Sealed {
        /// The action of one environment (`Send + Sync`: the threads of a vector environment
        /// read the caller's actions in place).
        type Action: Clone + fmt::Debug + Send + Sync;
        /// The action space of one environment.
        type ActionSpace: Space<Element = Self::Action>;
        /// The numeric type of the observations (`f32` or `f64`).
        type Scalar: FlatScalar;

        /// The number of environments.
        fn len(&self) -> usize;

        /// The global index (in the vector environment) of the first environment.
        fn first(&self) -> usize;

        /// The action space every environment shares.
        fn action_space(&self) -> &Self::ActionSpace;

        /// Whether the environments step with `action` rather than refusing it: by default the
        /// actions of the action space; a domain may accept more (`Domain::accepts_action`).
        fn accepts_action(&self, action: &Self::Action) -> bool {
            self.action_space().contains(action)
        }

        /// Whether every environment can take its entry of `seeds` (a [`Command::CheckSeeds`],
        /// run before a [`Command::Seed`] so that a seed one environment refuses reseeds
        /// none), changing nothing; by default every environment takes any seed.
        fn check_seeds(&mut self, seeds: &[Option<Seed>]) -> Result<(), Failure> {
            let _ = seeds;
            Ok(())
        }

        /// Seeds environment `i` (global index `first + i`) with `seeds[i]`, as
        /// `Environment::seed` does (numpy's generator of the seed, of any size); an
        /// environment whose entry is `None` keeps its generator. An error for an environment
        /// that cannot take its seed (see [`check_seeds`](Self::check_seeds)).
        fn seed(&mut self, seeds: &[Option<Seed>]) -> Result<(), Failure>;

        /// Resets the environments `which` names in `mode`, writing their first
        /// observations; `selected` holds this batch's entries of the selection of
        /// [`Resets::Selected`] (empty otherwise). An environment left as it is keeps its
        /// results, its final-observation mask cleared.
        fn reset(
            &mut self,
            mode: Mode,
            which: Resets,
            selected: &[bool],
            rows: Rows<'_, Self::Scalar>,
        ) -> Result<(), Failure>;

        /// Writes the action mask of environment `i` (local index) into `row`, one entry per
        /// action of the finite action space.
        fn action_mask(&self, i: usize, row: &mut [bool]) -> Result<(), CoreError>
        where
            Self::ActionSpace: FiniteSpace;

        /// Writes the action mask of the state environment `i`'s episode ended in, kept by
        /// the last same-step autoreset, into `row`; `Unsupported` where the batch keeps no
        /// such masks (by default).
        fn final_action_mask(&self, i: usize, row: &mut [bool]) -> Result<(), CoreError>
        where
            Self::ActionSpace: FiniteSpace,
        {
            let _ = (i, row);
            Err(CoreError::Unsupported {
                operation: "final action masks",
            })
        }

        /// Whether the environments may report infos: true unless the batch knows they are
        /// always empty (a structure-of-arrays kernel's).
        fn reports_infos(&self) -> bool {
            true
        }

        /// Environment `i`'s current state (local index), where the batch hands its states
        /// out; `None` by default.
        fn state_any(&self, i: usize) -> Option<&dyn std::any::Any> {
            let _ = i;
            None
        }

        /// Steps every environment with the action of the same index.
        fn step(
            &mut self,
            actions: &[Self::Action],
            mode: Mode,
            autoreset: Autoreset,
            rows: Rows<'_, Self::Scalar>,
        ) -> Result<(), Failure>;
    }
}

/// Which environments a [`Command::Reset`] resets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resets {
    /// Every environment.
    All,
    /// Those whose episode ended and were not reset since.
    Ended,
    /// Those whose entry of the call's selection is `true` (Gymnasium's `reset_mask`).
    Selected,
}

impl Resets {
    /// Whether environment `i` of a batch stays as it is: `ended` says whether its episode
    /// ended, `selected` is the batch's entries of the selection.
    pub(crate) fn skips(self, i: usize, ended: bool, selected: &[bool]) -> bool {
        match self {
            Resets::All => false,
            Resets::Ended => !ended,
            Resets::Selected => !selected[i],
        }
    }
}

/// A request to a batch (run on every thread's share).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Command {
    /// Check that every environment takes its entry of the call's seeds, changing nothing.
    CheckSeeds,
    /// Seed every environment with its entry of the call's seeds.
    Seed,
    /// Reset the environments `which` names (with the call's selection for
    /// [`Resets::Selected`]).
    Reset {
        mode: Mode,
        which: Resets,
    },
    Step {
        mode: Mode,
        autoreset: Autoreset,
    },
}

/// Runs `command` on `batch`, with `actions` for a step, `seeds` for a seeding and `selected`
/// for a reset of selected environments (each the batch's entries).
pub(crate) fn execute<B: Batch>(
    batch: &mut B,
    command: Command,
    actions: &[B::Action],
    seeds: &[Option<Seed>],
    selected: &[bool],
    rows: Rows<'_, B::Scalar>,
) -> Result<(), Failure> {
    match command {
        Command::CheckSeeds => batch.check_seeds(seeds),
        Command::Seed => batch.seed(seeds),
        Command::Reset { mode, which } => batch.reset(mode, which, selected, rows),
        Command::Step { mode, autoreset } => batch.step(actions, mode, autoreset, rows),
    }
}
