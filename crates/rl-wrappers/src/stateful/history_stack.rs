//! [`HistoryStack`]: the last observations of each numeric component, stacked (deer's
//! `inputDimensions`, Gymnasium's `FrameStackObservation`).

use std::fmt;
use std::num::NonZeroUsize;
use std::ops::Range;
use std::sync::Arc;

use ndarray::{ArrayD, IxDyn};
use rl_core::{CoreError, Environment, Mode, StepOutcome};
use rl_spaces::{BoxScalar, BoxSpace, FlatScalar, SpaceError};

use crate::forward::{forward_actions, forward_lifecycle, forward_randomness};
use crate::numeric::{
    BoxMap, BufferPool, NumericLayout, NumericObservation, NumericSpace, map_box,
};
use crate::stateful::{History, Padding};

/// Observations made of the last observations of a numeric environment: each component keeps
/// a [`History`] of its own length, stacked along a new first axis, **newest last** (deer's
/// `inputDimensions`: per observation a history length and a shape).
///
/// - **Space.** A component of shape `s` with history length `n` becomes shape `(n, s...)`
///   with its bounds repeated; with [`Padding::Zeros`] the bounds are widened to contain zero,
///   so that padded observations belong to the space.
/// - **Episode start.** A reset fills every history with padding ([`Padding`]) and the first
///   observation as the newest frame.
/// - **No allocation per step.** The histories are ring buffers; stacked observations are
///   written into reused buffers as in [`OuterEnvironment`](crate::OuterEnvironment).
///
/// ```
/// use std::num::NonZeroUsize;
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_wrappers::OuterEnvironment;
/// use rl_wrappers::stateful::{HistoryStack, Padding};
///
/// let outer = OuterEnvironment::<_, _, f32>::identity(Simulator::new(Corridor::new(3, 0.0)?, 0))?;
/// let two = NonZeroUsize::new(2).expect("non-zero");
/// let mut env = HistoryStack::uniform(outer, two, Padding::Zeros)?;
/// // Corridor cells are one-hot vectors of length 3; two of them are stacked.
/// assert_eq!(env.reset(Mode::Training)?.as_slice(), &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
/// let outcome = env.step(&RIGHT)?;
/// assert_eq!(outcome.observation.as_slice(), &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
/// assert_eq!(outcome.observation.get("observation").map(|a| a.shape().to_vec()), Some(vec![2, 3]));
/// # Ok::<(), rl_core::CoreError>(())
/// ```
pub struct HistoryStack<E, T> {
    inner: E,
    histories: Vec<History<T>>,
    inner_ranges: Vec<Range<usize>>,
    stacked_ranges: Vec<Range<usize>>,
    names: Vec<String>,
    observation_space: NumericSpace<T>,
    pool: BufferPool<T>,
}

impl<E, T> HistoryStack<E, T>
where
    E: Environment<Observation = NumericObservation<T>, ObservationSpace = NumericSpace<T>>,
    T: FlatScalar,
{
    /// Stacks the last `length` observations of every component of `inner`.
    pub fn uniform(inner: E, length: NonZeroUsize, padding: Padding) -> Result<Self, CoreError> {
        let names: Vec<String> = inner
            .observation_space()
            .layout()
            .components()
            .iter()
            .map(|c| c.name().to_owned())
            .collect();
        HistoryStack::new(inner, names.into_iter().map(|n| (n, length)), padding)
    }

    /// Stacks the last `lengths[name]` observations of each component of `inner`. Errors if a
    /// component has no length, or a name is not a component.
    pub fn new<K: AsRef<str>>(
        inner: E,
        lengths: impl IntoIterator<Item = (K, NonZeroUsize)>,
        padding: Padding,
    ) -> Result<Self, CoreError> {
        let layout = inner.observation_space().layout().clone();
        let mut given: Vec<(String, NonZeroUsize)> = lengths
            .into_iter()
            .map(|(k, n)| (k.as_ref().to_owned(), n))
            .collect();
        if let Some((unknown, _)) = given.iter().find(|(k, _)| layout.component(k).is_none()) {
            return Err(CoreError::invalid_parameter(
                "lengths",
                format!("{unknown:?} is not a component of {layout}"),
            ));
        }
        let mut histories = Vec::new();
        let mut inner_ranges = Vec::new();
        let mut names = Vec::new();
        let mut stacked = Vec::new();
        for component in layout.components() {
            let position = given
                .iter()
                .position(|(k, _)| k == component.name())
                .ok_or_else(|| {
                    CoreError::invalid_parameter(
                        "lengths",
                        format!("no history length for the component {:?}", component.name()),
                    )
                })?;
            let (_, length) = given.swap_remove(position);
            let change = Stack {
                length: length.get(),
                include_zero: padding == Padding::Zeros,
            };
            stacked.push((
                component.name().to_owned(),
                map_box(component.space(), &change)?,
            ));
            histories.push(History::new(length, component.shape(), padding)?);
            inner_ranges.push(component.range());
            names.push(component.name().to_owned());
        }
        let stacked_layout = Arc::new(NumericLayout::new(stacked)?);
        let stacked_ranges = stacked_layout
            .components()
            .iter()
            .map(|c| c.range())
            .collect();
        Ok(HistoryStack {
            inner,
            histories,
            inner_ranges,
            stacked_ranges,
            names,
            observation_space: NumericSpace::from_shared(Arc::clone(&stacked_layout)),
            pool: BufferPool::new(stacked_layout),
        })
    }
}

impl<E, T: FlatScalar> HistoryStack<E, T> {
    /// The history of the component named `name`.
    pub fn history(&self, name: &str) -> Option<&History<T>> {
        self.names
            .iter()
            .position(|n| n == name)
            .and_then(|i| self.histories.get(i))
    }

    /// The histories with their component names, in name order: deer's `inputDimensions`
    /// (each history's length and frame shape).
    pub fn histories(&self) -> impl Iterator<Item = (&str, &History<T>)> {
        self.names.iter().map(String::as_str).zip(&self.histories)
    }

    /// The wrapped environment.
    pub fn inner(&self) -> &E {
        &self.inner
    }

    /// The wrapped environment, mutably.
    pub fn inner_mut(&mut self) -> &mut E {
        &mut self.inner
    }

    /// Unwraps the environment.
    pub fn into_inner(self) -> E {
        self.inner
    }

    fn record(
        &mut self,
        observation: &NumericObservation<T>,
        first: bool,
    ) -> Result<NumericObservation<T>, CoreError> {
        let data = observation.as_slice();
        for (history, range) in self.histories.iter_mut().zip(&self.inner_ranges) {
            let frame =
                data.get(range.clone())
                    .ok_or(CoreError::Space(SpaceError::LengthMismatch {
                        what: "inner observation",
                        expected: range.end,
                        found: data.len(),
                    }))?;
            if first {
                history.reset(frame)?;
            } else {
                history.push(frame)?;
            }
        }
        let histories = &self.histories;
        let ranges = &self.stacked_ranges;
        self.pool.fill(|out| {
            for (history, range) in histories.iter().zip(ranges) {
                let target = out.get_mut(range.clone()).ok_or(CoreError::Space(
                    SpaceError::LengthMismatch {
                        what: "stacked observation",
                        expected: range.end,
                        found: 0,
                    },
                ))?;
                history.write_stacked(target)?;
            }
            Ok(())
        })
    }
}

/// The Box of `length` stacked frames: a new first axis, the bounds repeated, and (for zero
/// padding) widened to contain zero.
struct Stack {
    length: usize,
    include_zero: bool,
}

impl BoxMap for Stack {
    fn apply<U: BoxScalar>(&self, space: &BoxSpace<U>) -> Result<BoxSpace<U>, SpaceError> {
        let zero = U::from_f64(0.0).ok_or(SpaceError::InvalidSpace {
            space: "Box",
            reason: "the dtype has no zero".to_owned(),
        })?;
        let widen = |v: U, lower: bool| match (self.include_zero, lower) {
            (true, true) if zero < v => zero,
            (true, false) if v < zero => zero,
            _ => v,
        };
        let shape: Vec<usize> = std::iter::once(self.length)
            .chain(space.shape().iter().copied())
            .collect();
        let repeat = |bounds: &ArrayD<U>, lower: bool| -> Vec<U> {
            (0..self.length)
                .flat_map(|_| bounds.iter().map(move |v| widen(*v, lower)))
                .collect()
        };
        let array = |values: Vec<U>| {
            ArrayD::from_shape_vec(IxDyn(&shape), values).map_err(|e| SpaceError::InvalidSpace {
                space: "Box",
                reason: e.to_string(),
            })
        };
        BoxSpace::new(
            array(repeat(space.low(), true))?,
            array(repeat(space.high(), false))?,
        )
    }
}

impl<E: fmt::Debug, T: FlatScalar> fmt::Debug for HistoryStack<E, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HistoryStack")
            .field("inner", &self.inner)
            .field("histories", &self.histories().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl<E, T> Environment for HistoryStack<E, T>
where
    E: Environment<Observation = NumericObservation<T>, ObservationSpace = NumericSpace<T>>,
    T: FlatScalar,
{
    type Observation = NumericObservation<T>;
    type ObservationSpace = NumericSpace<T>;

    fn observation_space(&self) -> &NumericSpace<T> {
        &self.observation_space
    }

    forward_actions!(E);

    fn reset(&mut self, mode: Mode) -> Result<NumericObservation<T>, CoreError> {
        let observation = self.inner.reset(mode)?;
        self.record(&observation, true)
    }

    fn step(
        &mut self,
        action: &E::Action,
    ) -> Result<StepOutcome<NumericObservation<T>>, CoreError> {
        let outcome = self.inner.step(action)?;
        let observation = self.record(&outcome.observation, false)?;
        Ok(outcome.map_observation(|_| observation))
    }

    forward_lifecycle!();
    forward_randomness!();
}
