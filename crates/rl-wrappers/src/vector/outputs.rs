//! The results of a vector environment's calls, described once: [`Columns`] names every output
//! (the observations, rewards, flags and infos, and the final observations, mask and infos of
//! same-step autoreset), held in one of three [`Form`]s: the buffers a vector owns
//! ([`Outputs`]), mutable slices of a run of environments that a batch writes ([`Rows`]), and
//! the buffers' addresses that the threads' hand-off passes (`threads.rs`). A conversion from one
//! form to another ([`Columns::map`]) is written per form, never per column.

use std::marker::PhantomData;
use std::ops::Range;

use ndarray::Array2;
use rl_core::Info;

/// How a [`Columns`] holds each of its columns (owned buffers, slices or addresses).
pub(crate) trait Form {
    /// A column of one entry per environment.
    type Column<X: 'static>;
    /// A column of one row per environment, row after row (the observations).
    type Table<X: 'static>;
}

/// The buffers a vector environment owns: a `Vec` per column, an [`Array2`] of rows per table.
#[derive(Debug)]
pub(crate) enum Owned {}

impl Form for Owned {
    type Column<X: 'static> = Vec<X>;
    type Table<X: 'static> = Array2<X>;
}

/// Mutable slices of the buffers, for a run of environments.
#[derive(Debug)]
pub(crate) struct Slices<'a>(PhantomData<&'a mut ()>);

impl<'a> Form for Slices<'a> {
    type Column<X: 'static> = &'a mut [X];
    type Table<X: 'static> = &'a mut [X];
}

/// The outputs of a vector environment, one entry (or one row of `dim` entries) per
/// environment, in the form `F`.
pub(crate) struct Columns<F: Form, T: 'static> {
    /// The entries of one observation row.
    pub(crate) dim: usize,
    /// The observations after the call.
    pub(crate) observations: F::Table<T>,
    /// The rewards of the last step.
    pub(crate) rewards: F::Column<f64>,
    /// Whether each episode terminated on the last step.
    pub(crate) terminated: F::Column<bool>,
    /// Whether each episode was truncated on the last step.
    pub(crate) truncated: F::Column<bool>,
    /// The info of each environment's last step.
    pub(crate) infos: F::Column<Info>,
    /// With same-step autoreset, the final observation of each episode that ended on the last
    /// step (rows marked in `final_mask`); no rows otherwise.
    pub(crate) final_observations: F::Table<T>,
    /// Which environments' episodes ended on the last step with same-step autoreset.
    pub(crate) final_mask: F::Column<bool>,
    /// With same-step autoreset, the info of the last step of each episode that ended on it.
    pub(crate) final_infos: F::Column<Info>,
}

/// The results of the last call, in the buffers a vector environment owns.
pub(crate) type Outputs<T> = Columns<Owned, T>;

/// Mutable views of the results of a run of environments, indexed from 0.
pub(crate) type Rows<'a, T> = Columns<Slices<'a>, T>;

/// A conversion of each column of the form `F`, borrowed for `'a`, into the form `G`: what
/// [`Columns::map`] applies to every column.
pub(crate) trait MapColumns<'a, F: Form, G: Form> {
    /// A column of one entry per environment, converted.
    fn column<X: 'static>(&mut self, column: &'a mut F::Column<X>) -> G::Column<X>;
    /// A column of rows of `dim` entries, converted.
    fn table<X: 'static>(&mut self, table: &'a mut F::Table<X>, dim: usize) -> G::Table<X>;
}

impl<F: Form, T: 'static> Columns<F, T> {
    /// Every column converted by `map` (the one place besides the struct that names them all).
    pub(crate) fn map<'a, G: Form>(
        &'a mut self,
        mut map: impl MapColumns<'a, F, G>,
    ) -> Columns<G, T> {
        let dim = self.dim;
        Columns {
            dim,
            observations: map.table(&mut self.observations, dim),
            rewards: map.column(&mut self.rewards),
            terminated: map.column(&mut self.terminated),
            truncated: map.column(&mut self.truncated),
            infos: map.column(&mut self.infos),
            final_observations: map.table(&mut self.final_observations, dim),
            final_mask: map.column(&mut self.final_mask),
            final_infos: map.column(&mut self.final_infos),
        }
    }
}

/// The entries of a standard-layout array as one slice. Every array here is built in standard
/// layout and never reshaped: another layout is a bug, which panics.
fn entries<X>(array: &mut Array2<X>) -> &mut [X] {
    array
        .as_slice_mut()
        .expect("the output buffers are built in standard layout")
}

/// The slices of the environments in a range of the owned buffers ([`Outputs::rows`]). The
/// range lies within the buffers (the environments of a share): one that does not is a bug,
/// which panics.
struct RangeOf(Range<usize>);

impl<'a> MapColumns<'a, Owned, Slices<'a>> for RangeOf {
    fn column<X: 'static>(&mut self, column: &'a mut Vec<X>) -> &'a mut [X] {
        &mut column[self.0.clone()]
    }

    fn table<X: 'static>(&mut self, table: &'a mut Array2<X>, dim: usize) -> &'a mut [X] {
        // A table of no rows holds nothing to view: the final observations, when they are not
        // kept (a batch writes them only with same-step autoreset, which keeps them).
        if table.nrows() == 0 {
            return &mut [];
        }
        &mut entries(table)[self.0.start * dim..self.0.end * dim]
    }
}

impl<T: rl_spaces::FlatScalar> Outputs<T> {
    /// Buffers for `len` environments with observations of `dim` entries, with the final
    /// observation buffer only if `keep_final`.
    pub(crate) fn new(len: usize, dim: usize, keep_final: bool) -> Self {
        Outputs {
            dim,
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

    /// The views of the environments in `range`.
    pub(crate) fn rows(&mut self, range: Range<usize>) -> Rows<'_, T> {
        self.map(RangeOf(range))
    }

    /// The views of every environment.
    pub(crate) fn all_rows(&mut self) -> Rows<'_, T> {
        let len = self.rewards.len();
        self.rows(0..len)
    }
}

impl<T: 'static> Rows<'_, T> {
    /// The observation row of environment `i`.
    pub(crate) fn observation(&mut self, i: usize) -> &mut [T] {
        let dim = self.dim;
        &mut self.observations[i * dim..(i + 1) * dim]
    }

    /// Copies the observation row of environment `i` into its final observation row (kept:
    /// same-step autoreset).
    pub(crate) fn keep_final_observation(&mut self, i: usize)
    where
        T: Copy,
    {
        let row = i * self.dim..(i + 1) * self.dim;
        self.final_observations[row.clone()].copy_from_slice(&self.observations[row]);
    }

    /// Sets the info of environment `i` (skipping the write when both are empty).
    pub(crate) fn put_info(&mut self, i: usize, info: Info) {
        put(&mut self.infos[i], info);
    }

    /// Moves the info of environment `i` into its final info, leaving its info empty
    /// (skipping the writes where both are empty), as same-step autoreset reports an episode's
    /// last step.
    pub(crate) fn move_info_to_final(&mut self, i: usize) {
        let info = std::mem::take(&mut self.infos[i]);
        put(&mut self.final_infos[i], info);
    }

    /// Records a reset of environment `i` (its observation row already written): reward 0,
    /// both flags false, no info, no final observation.
    pub(crate) fn mark_reset(&mut self, i: usize) {
        self.rewards[i] = 0.0;
        self.terminated[i] = false;
        self.truncated[i] = false;
        self.final_mask[i] = false;
        let info = &mut self.infos[i];
        if !info.is_empty() {
            *info = Info::new();
        }
    }
}

/// Sets `slot` to `info`, skipping the write (and the drop of the old one) when both are
/// empty.
pub(crate) fn put(slot: &mut Info, info: Info) {
    if !(info.is_empty() && slot.is_empty()) {
        *slot = info;
    }
}
