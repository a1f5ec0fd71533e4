//! [`VectorHistoryStack`]: each environment's last observations of a vector, stacked into one
//! row (Gymnasium's `FrameStackObservation` over a batch; deer's histories).

use std::num::NonZeroUsize;

use ndarray::Array2;
use rl_core::Mode;
use rl_spaces::FlatScalar;

use crate::error::VectorError;
use crate::stateful::{History, Padding};
use crate::vector::Autoreset;
use crate::vector::wrappers::{VectorEnv, episode_starts, forward_vector, vector_accessors};

/// Stacks the last `length` observations of every environment of a vector, oldest first, into
/// rows of `length × flat dimension` numbers. At the start of each episode (every
/// environment after `reset`, and each environment that autoreset or `reset_ended` restarted)
/// the missing frames are [`Padding`]: copies of the first observation (Gymnasium's default)
/// or zeros. With [`Autoreset::SameStep`] the final observation of an ended episode is
/// stacked onto that episode's history in [`final_observations`](VectorEnv::final_observations).
///
/// ```
/// use std::num::NonZeroUsize;
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_core::{Mode, Simulator};
/// use rl_wrappers::stateful::Padding;
/// use rl_wrappers::vector::{EnvironmentVector, VectorEnv, VectorHistoryStack, VectorOptions};
///
/// let count = NonZeroUsize::new(2).expect("non-zero");
/// let vector = EnvironmentVector::<_, f32>::from_environments(count, 0, VectorOptions::new(), |_| {
///     Simulator::new(Corridor::new(3, 0.0).expect("valid"), 0)
/// })?;
/// let two = NonZeroUsize::new(2).expect("non-zero");
/// let mut env = VectorHistoryStack::new(vector, two, Padding::Zeros)?;
/// env.reset(Mode::Training)?;
/// assert_eq!(env.observations().row(0).to_vec(), [0.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
/// env.step(&[RIGHT, RIGHT])?;
/// assert_eq!(env.observations().row(0).to_vec(), [1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct VectorHistoryStack<V: VectorEnv> {
    inner: V,
    histories: Vec<History<V::Scalar>>,
    observations: Array2<V::Scalar>,
    final_observations: Array2<V::Scalar>,
    previously_ended: Vec<bool>,
    starts: Vec<bool>,
}

impl<V: VectorEnv> VectorHistoryStack<V> {
    /// Stacks the last `length` observations of `inner`, padded with `padding`. Errors, before
    /// anything is allocated, if the histories and stacked rows of every environment (three
    /// times `length` frames each) cannot be allocated.
    pub fn new(inner: V, length: NonZeroUsize, padding: Padding) -> Result<Self, VectorError> {
        let (len, dim) = (inner.len(), inner.flat_dim());
        let row = length.get().checked_mul(dim);
        let bytes = row
            .and_then(|row| row.checked_mul(len))
            .and_then(|entries| entries.checked_mul(3 * std::mem::size_of::<V::Scalar>()))
            .filter(|bytes| *bytes <= isize::MAX as usize);
        let (Some(row), true) = (
            row,
            bytes.is_some_and(|bytes| Vec::<u8>::new().try_reserve_exact(bytes).is_ok()),
        ) else {
            return Err(VectorError::invalid_parameter(
                "length",
                format!(
                    "histories of {length} observations of {dim} entries for {len} environments \
                     cannot be allocated"
                ),
            ));
        };
        let histories = (0..len)
            .map(|_| History::new(length, &[dim], padding))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|source| VectorError::invalid_parameter("length", source.to_string()))?;
        Ok(VectorHistoryStack {
            inner,
            histories,
            observations: Array2::from_elem((len, row), V::Scalar::from_f64(0.0)),
            final_observations: Array2::from_elem((len, row), V::Scalar::from_f64(0.0)),
            previously_ended: vec![false; len],
            starts: vec![false; len],
        })
    }

    vector_accessors!();

    /// Restarts the histories in `self.starts` from the inner observations and writes their
    /// stacked rows; the others are left as they are (a reset of some environments changed
    /// only theirs).
    fn record_starts(&mut self) -> Result<(), VectorError> {
        let failure = |index: usize| move |source| VectorError::Environment { index, source };
        for (index, history) in self.histories.iter_mut().enumerate() {
            if !self.starts[index] {
                continue;
            }
            history
                .reset(inner_row(self.inner.observations(), index)?)
                .map_err(failure(index))?;
            history
                .write_stacked(own_row(&mut self.observations, index))
                .map_err(failure(index))?;
        }
        Ok(())
    }

    /// Feeds the inner observations of the last call to the histories (restarting those in
    /// `self.starts`) and writes the stacked rows.
    fn record(&mut self) -> Result<(), VectorError> {
        let same_step = self.inner.autoreset() == Autoreset::SameStep;
        let failure = |index: usize| move |source| VectorError::Environment { index, source };
        for (index, history) in self.histories.iter_mut().enumerate() {
            let row = inner_row(self.inner.observations(), index)?;
            if self.starts[index] {
                if same_step && self.inner.final_mask()[index] {
                    let last = inner_row(self.inner.final_observations(), index)?;
                    history.push(last).map_err(failure(index))?;
                    history
                        .write_stacked(own_row(&mut self.final_observations, index))
                        .map_err(failure(index))?;
                }
                history.reset(row).map_err(failure(index))?;
            } else {
                history.push(row).map_err(failure(index))?;
            }
            history
                .write_stacked(own_row(&mut self.observations, index))
                .map_err(failure(index))?;
        }
        Ok(())
    }
}

impl<V: VectorEnv> VectorEnv for VectorHistoryStack<V> {
    type Scalar = V::Scalar;

    forward_vector!(actions);
    forward_vector!(lifecycle);
    forward_vector!(rewards);

    fn flat_dim(&self) -> usize {
        self.observations.ncols()
    }

    fn reset(&mut self, mode: Mode) -> Result<(), VectorError> {
        self.inner.reset(mode)?;
        episode_starts(
            &self.inner,
            false,
            &mut self.previously_ended,
            &mut self.starts,
        );
        self.record()
    }

    fn reset_ended(&mut self) -> Result<(), VectorError> {
        self.inner.reset_ended()?;
        for (start, ended) in self.starts.iter_mut().zip(&mut self.previously_ended) {
            *start = std::mem::take(ended);
        }
        self.record_starts()
    }

    fn reset_selected(&mut self, selected: &[bool]) -> Result<(), VectorError> {
        self.inner.reset_selected(selected)?;
        for ((start, ended), selected) in self
            .starts
            .iter_mut()
            .zip(&mut self.previously_ended)
            .zip(selected)
        {
            *start = *selected;
            if *selected {
                *ended = false;
            }
        }
        self.record_starts()
    }

    fn step(&mut self, actions: &[V::Action]) -> Result<(), VectorError> {
        self.inner.step(actions)?;
        episode_starts(
            &self.inner,
            true,
            &mut self.previously_ended,
            &mut self.starts,
        );
        self.record()
    }

    fn observations(&self) -> &Array2<V::Scalar> {
        &self.observations
    }

    fn final_observations(&self) -> &Array2<V::Scalar> {
        &self.final_observations
    }

    fn final_mask(&self) -> &[bool] {
        self.inner.final_mask()
    }
}

/// Row `index` of the inner vector's observations: an error, naming the environment, for rows
/// that are not contiguous (a vector of one's own in another layout).
fn inner_row<X>(rows: &Array2<X>, index: usize) -> Result<&[X], VectorError> {
    rows.row(index).to_slice().ok_or_else(|| {
        VectorError::invalid_parameter(
            "inner",
            format!("observation row {index} is not contiguous"),
        )
    })
}

/// Row `index` of one of this wrapper's own arrays, built in standard layout (another layout
/// is a bug, which panics).
fn own_row<X>(rows: &mut Array2<X>, index: usize) -> &mut [X] {
    rows.row_mut(index)
        .into_slice()
        .expect("the stacked rows are built in standard layout")
}
