//! [`Outputs`]: the structure-of-arrays buffers of a batch's results, and [`Rows`], a mutable
//! view of a run of them.

use std::ops::Range;

use ndarray::Array2;
use rl_core::Info;
use rl_spaces::FlatScalar;

/// The results of the last call, one entry (or one row) per environment.
#[derive(Debug)]
pub(crate) struct Outputs<T> {
    pub(crate) observations: Array2<T>,
    pub(crate) rewards: Vec<f64>,
    pub(crate) terminated: Vec<bool>,
    pub(crate) truncated: Vec<bool>,
    pub(crate) infos: Vec<Info>,
    /// `len × dim` with same-step autoreset, `0 × dim` otherwise.
    pub(crate) final_observations: Array2<T>,
    pub(crate) final_mask: Vec<bool>,
    pub(crate) final_infos: Vec<Info>,
}

/// Mutable views of the results of a run of environments, indexed from 0.
pub struct Rows<'a, T> {
    dim: usize,
    pub(crate) observations: &'a mut [T],
    pub(crate) rewards: &'a mut [f64],
    pub(crate) terminated: &'a mut [bool],
    pub(crate) truncated: &'a mut [bool],
    pub(crate) infos: &'a mut [Info],
    pub(crate) final_observations: &'a mut [T],
    pub(crate) final_mask: &'a mut [bool],
    pub(crate) final_infos: &'a mut [Info],
}

/// The entries of a standard-layout array as one slice. Every array here is built in standard
/// layout and never reshaped: another layout is a bug, which panics.
fn entries<T>(array: &mut Array2<T>) -> &mut [T] {
    array
        .as_slice_mut()
        .expect("the output buffers are built in standard layout")
}

/// The run `range` of `slice`. The callers' ranges lie within their buffers (the environments
/// of a share, rows of the buffers' own width): one that does not is a bug, which panics.
fn part<X>(slice: &mut [X], range: Range<usize>) -> &mut [X] {
    &mut slice[range]
}

impl<T: FlatScalar> Outputs<T> {
    /// Buffers for `len` environments with observations of `dim` entries, with the final
    /// observation buffer only if `keep_final`.
    pub(crate) fn new(len: usize, dim: usize, keep_final: bool) -> Self {
        Outputs {
            observations: Array2::from_elem((len, dim), T::ZERO),
            rewards: vec![0.0; len],
            terminated: vec![false; len],
            truncated: vec![false; len],
            infos: vec![Info::new(); len],
            final_observations: Array2::from_elem((if keep_final { len } else { 0 }, dim), T::ZERO),
            final_mask: vec![false; len],
            final_infos: vec![Info::new(); len],
        }
    }

    fn dim(&self) -> usize {
        self.observations.ncols()
    }

    /// The views of the environments in `range`.
    pub(crate) fn rows(&mut self, range: Range<usize>) -> Rows<'_, T> {
        let dim = self.dim();
        let entries_range = range.start * dim..range.end * dim;
        let final_range = if self.final_observations.nrows() == 0 {
            0..0
        } else {
            entries_range.clone()
        };
        Rows {
            dim,
            observations: part(entries(&mut self.observations), entries_range),
            rewards: part(&mut self.rewards, range.clone()),
            terminated: part(&mut self.terminated, range.clone()),
            truncated: part(&mut self.truncated, range.clone()),
            infos: part(&mut self.infos, range.clone()),
            final_observations: part(entries(&mut self.final_observations), final_range),
            final_mask: part(&mut self.final_mask, range.clone()),
            final_infos: part(&mut self.final_infos, range),
        }
    }

    /// The views of every environment.
    pub(crate) fn all_rows(&mut self) -> Rows<'_, T> {
        let len = self.rewards.len();
        self.rows(0..len)
    }
}

impl<'a, T> Rows<'a, T> {
    /// The views of a run of environments, from one slice per buffer (`final_observations`
    /// empty when the final observations are not kept).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        dim: usize,
        observations: &'a mut [T],
        rewards: &'a mut [f64],
        terminated: &'a mut [bool],
        truncated: &'a mut [bool],
        infos: &'a mut [Info],
        final_observations: &'a mut [T],
        final_mask: &'a mut [bool],
        final_infos: &'a mut [Info],
    ) -> Self {
        Rows {
            dim,
            observations,
            rewards,
            terminated,
            truncated,
            infos,
            final_observations,
            final_mask,
            final_infos,
        }
    }
}

impl<T> Rows<'_, T> {
    /// The observation row of environment `i`.
    pub(crate) fn observation(&mut self, i: usize) -> &mut [T] {
        let dim = self.dim;
        part(self.observations, i * dim..(i + 1) * dim)
    }

    /// Copies the observation row of environment `i` into its final observation row.
    pub(crate) fn keep_final_observation(&mut self, i: usize)
    where
        T: Copy,
    {
        let dim = self.dim;
        let source = &self.observations[i * dim..(i + 1) * dim];
        copy(
            part(self.final_observations, i * dim..(i + 1) * dim),
            source,
        );
    }

    /// Sets the info of environment `i` (skipping the write when both are empty).
    pub(crate) fn put_info(&mut self, i: usize, info: Info) {
        put(self.infos, i, info);
    }

    /// Sets the final info of environment `i` (skipping the write when both are empty).
    pub(crate) fn put_final_info(&mut self, i: usize, info: Info) {
        put(self.final_infos, i, info);
    }

    /// Moves the info of environment `i` into its final info, leaving its info empty
    /// (skipping the writes where both are empty), as same-step autoreset reports an episode's
    /// last step.
    pub(crate) fn move_info_to_final(&mut self, i: usize) {
        if let Some(info) = self.infos.get_mut(i) {
            let info = std::mem::take(info);
            put(self.final_infos, i, info);
        }
    }

    /// Records a reset of environment `i` (its observation row already written): reward 0,
    /// both flags false, no info, no final observation.
    pub(crate) fn mark_reset(&mut self, i: usize) {
        set(self.rewards, i, 0.0);
        set(self.terminated, i, false);
        set(self.truncated, i, false);
        set(self.final_mask, i, false);
        if let Some(info) = self.infos.get_mut(i) {
            if !info.is_empty() {
                *info = Info::new();
            }
        }
    }
}

/// Buffers outside a vector environment (a NumPy array's memory, say) that a step also
/// fills with its observations, rewards and flags: see
/// [`EnvironmentVector::step_mirrored`](crate::vector::EnvironmentVector::step_mirrored).
/// Each thread copies its own environments' results right after stepping them, while they are
/// in its cache, instead of the calling thread copying every row after the step.
#[derive(Debug)]
pub struct Mirror<'a, T> {
    /// One row of [`flat_dim`](crate::vector::EnvironmentVector::flat_dim) entries per
    /// environment, row after row.
    pub observations: &'a mut [T],
    /// One reward per environment.
    pub rewards: &'a mut [f64],
    /// One byte per environment: 1 where its episode terminated, 0 elsewhere (the layout of a
    /// NumPy `bool` array).
    pub terminated: &'a mut [u8],
    /// One byte per environment: 1 where its episode was truncated, 0 elsewhere.
    pub truncated: &'a mut [u8],
}

impl<T: Copy> Rows<'_, T> {
    /// Copies these rows' observations, rewards and flags into `target` (the same run of
    /// environments).
    pub(crate) fn mirror_into(&self, target: Mirror<'_, T>) {
        copy(target.observations, self.observations);
        copy(target.rewards, self.rewards);
        for (byte, flag) in target.terminated.iter_mut().zip(self.terminated.iter()) {
            *byte = u8::from(*flag);
        }
        for (byte, flag) in target.truncated.iter_mut().zip(self.truncated.iter()) {
            *byte = u8::from(*flag);
        }
    }
}

/// Copies `source` into `target`, of the same length (the callers' are: a mirror's lengths
/// are checked when the call starts; a difference is a bug, which panics).
fn copy<X: Copy>(target: &mut [X], source: &[X]) {
    target.copy_from_slice(source);
}

/// Sets `infos[i]` to `info`, skipping the write (and the drop of the old one) when both
/// are empty.
fn put(infos: &mut [Info], i: usize, info: Info) {
    let slot = &mut infos[i];
    if !(info.is_empty() && slot.is_empty()) {
        *slot = info;
    }
}

/// Sets `slice[i]` if it exists.
pub(crate) fn set<X>(slice: &mut [X], i: usize, value: X) {
    if let Some(entry) = slice.get_mut(i) {
        *entry = value;
    }
}
