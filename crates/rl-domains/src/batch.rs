//! Structure-of-arrays batches of states for the vector kernels ([`BatchStep`]) of CartPole,
//! MountainCar and MountainCarContinuous: [`FloatColumns`], one `f64` column per state
//! variable, and its mutable view [`FloatColumnChunk`].
//!
//! [`BatchStep`]: rl_wrappers::vector::BatchStep

use std::fmt;
use std::marker::PhantomData;

use rl_spaces::FlatScalar;
use rl_wrappers::vector::{ColumnChunk, StateColumns};

/// A state that is `N` `f64` numbers, so that a batch of them can be stored as `N` columns.
pub trait ColumnState<const N: usize>: Copy + Default + Send {
    /// The state's numbers, in column order.
    fn to_columns(&self) -> [f64; N];

    /// The state of the numbers in column order (the inverse of
    /// [`to_columns`](Self::to_columns)).
    fn from_columns(columns: [f64; N]) -> Self;
}

/// A batch of `N`-number states stored as `N` columns of `f64`.
///
/// An index out of range (which [`StateColumns`] forbids) reads as the default state and is
/// not written, so that no call panics.
pub struct FloatColumns<S, const N: usize> {
    columns: [Vec<f64>; N],
    state: PhantomData<fn() -> S>,
}

impl<S, const N: usize> fmt::Debug for FloatColumns<S, N> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("FloatColumns")
            .field("columns", &self.columns)
            .finish()
    }
}

impl<S, const N: usize> Clone for FloatColumns<S, N> {
    fn clone(&self) -> Self {
        FloatColumns {
            columns: self.columns.clone(),
            state: PhantomData,
        }
    }
}

impl<S, const N: usize> FloatColumns<S, N> {
    /// The columns, one per state variable.
    pub fn columns(&self) -> &[Vec<f64>; N] {
        &self.columns
    }
}

impl<S: ColumnState<N>, const N: usize> StateColumns for FloatColumns<S, N> {
    type State = S;
    type Chunk<'a>
        = FloatColumnChunk<'a, N>
    where
        Self: 'a;

    fn filled(len: usize, initial: &S) -> Self {
        let values = initial.to_columns();
        FloatColumns {
            columns: values.map(|value| vec![value; len]),
            state: PhantomData,
        }
    }

    fn len(&self) -> usize {
        self.columns.first().map_or(0, Vec::len)
    }

    fn get(&self, index: usize) -> S {
        if index >= self.len() {
            return S::default();
        }
        S::from_columns(std::array::from_fn(|column| {
            self.columns[column].get(index).copied().unwrap_or_default()
        }))
    }

    fn set(&mut self, index: usize, state: &S) {
        for (column, value) in self.columns.iter_mut().zip(state.to_columns()) {
            if let Some(slot) = column.get_mut(index) {
                *slot = value;
            }
        }
    }

    fn as_chunk(&mut self) -> FloatColumnChunk<'_, N> {
        let mut columns = self
            .columns
            .each_mut()
            .map(|column| Some(column.as_mut_slice()));
        FloatColumnChunk {
            columns: std::array::from_fn(|index| columns[index].take().unwrap_or_default()),
        }
    }
}

/// A mutable view of a run of states of [`FloatColumns`]: one slice per column.
#[derive(Debug)]
pub struct FloatColumnChunk<'a, const N: usize> {
    columns: [&'a mut [f64]; N],
}

impl<const N: usize> ColumnChunk for FloatColumnChunk<'_, N> {
    fn len(&self) -> usize {
        self.columns.first().map_or(0, |column| column.len())
    }

    /// Splits every column at `mid` (clamped to the length).
    fn split_at(self, mid: usize) -> (Self, Self) {
        let mid = mid.min(self.len());
        let mut halves = self.columns.map(|column| {
            let (left, right) = column.split_at_mut(mid.min(column.len()));
            (Some(left), Some(right))
        });
        let left = std::array::from_fn(|index| halves[index].0.take().unwrap_or_default());
        let right = std::array::from_fn(|index| halves[index].1.take().unwrap_or_default());
        (
            FloatColumnChunk { columns: left },
            FloatColumnChunk { columns: right },
        )
    }
}

/// The arguments of a kernel call with every slice cut to the number of states they all
/// cover: the state columns, the actions, the rewards, the termination flags and the
/// observation rows (`len × observation_size` numbers). Each kernel starts from it, so that
/// its loops run over slices of one length, without bounds checks, and a call with slices of
/// different lengths (which the vector environment never makes) leaves the states past the
/// shortest alone instead of panicking.
pub(crate) struct KernelSlices<'a, A, T, const N: usize> {
    /// One column per state variable.
    pub(crate) columns: [&'a mut [f64]; N],
    pub(crate) actions: &'a [A],
    pub(crate) rewards: &'a mut [f64],
    pub(crate) terminated: &'a mut [bool],
    pub(crate) observations: &'a mut [T],
}

impl<'a, A, T, const N: usize> KernelSlices<'a, A, T, N> {
    /// Cuts every argument to the common length.
    #[inline(always)]
    pub(crate) fn cut(
        states: FloatColumnChunk<'a, N>,
        actions: &'a [A],
        rewards: &'a mut [f64],
        terminated: &'a mut [bool],
        observations: &'a mut [T],
        observation_size: usize,
    ) -> Self {
        let size = observation_size.max(1);
        let len = states
            .len()
            .min(actions.len())
            .min(rewards.len())
            .min(terminated.len())
            .min(observations.len() / size);
        KernelSlices {
            columns: states.columns.map(|column| prefix(column, len)),
            actions: actions.get(..len).unwrap_or_default(),
            rewards: prefix(rewards, len),
            terminated: prefix(terminated, len),
            observations: prefix(observations, len * size),
        }
    }
}

/// Steps every state of `states` with `step` and writes the results, the way the kernels
/// without blocks do: the state reached replaces the state, `step`'s reward and
/// termination flag go to `rewards` and `terminated`, and `observe` writes the flattened
/// observation into the state's row of `observations` (rows of `observation_size`).
///
/// Indices past the shortest slice are left alone, so that no call panics.
///
/// The loop is written for speed: every slice is cut to the common length first
/// ([`KernelSlices`]), so that the compiler can drop the bounds checks, and `step` and
/// `observe` are inlined into it.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn step_each<S, A, T, const N: usize>(
    states: FloatColumnChunk<'_, N>,
    actions: &[A],
    rewards: &mut [f64],
    terminated: &mut [bool],
    observations: &mut [T],
    observation_size: usize,
    mut step: impl FnMut(&S, &A) -> (S, f64, bool),
    mut observe: impl FnMut(&S, &mut [T]),
) where
    S: ColumnState<N>,
    T: FlatScalar,
{
    let size = observation_size.max(1);
    let KernelSlices {
        mut columns,
        actions,
        rewards,
        terminated,
        observations,
        ..
    } = KernelSlices::cut(states, actions, rewards, terminated, observations, size);
    for (index, (((action, reward), done), row)) in actions
        .iter()
        .zip(rewards.iter_mut())
        .zip(terminated.iter_mut())
        .zip(observations.chunks_exact_mut(size))
        .enumerate()
    {
        let state = S::from_columns(std::array::from_fn(|column| {
            columns[column].get(index).copied().unwrap_or_default()
        }));
        let (next, step_reward, step_terminated) = step(&state, action);
        for (column, value) in columns.iter_mut().zip(next.to_columns()) {
            if let Some(slot) = column.get_mut(index) {
                *slot = value;
            }
        }
        *reward = step_reward;
        *done = step_terminated;
        observe(&next, row);
    }
}

/// The first `len` entries of `slice` (all of it if shorter), so that loops over several
/// slices cut to one length need no bounds checks.
#[inline(always)]
pub(crate) fn prefix<T>(slice: &mut [T], len: usize) -> &mut [T] {
    let len = len.min(slice.len());
    slice.get_mut(..len).unwrap_or_default()
}

/// Writes float32 observation values into a row of flat numbers, as `FlattenSpace` does.
#[inline(always)]
pub(crate) fn write_observation<T: FlatScalar>(observation: &[f32], row: &mut [T]) {
    for (slot, value) in row.iter_mut().zip(observation) {
        *slot = T::from_f64(f64::from(*value));
    }
}
