//! A vector of environments of a registered id behind Python: `rlrs._core.Vector`, which the
//! pure-Python `rlrs.RustVectorEnv` (a `gymnasium.vector.VectorEnv`) drives.
//!
//! The outputs live in one NumPy byte buffer allocated once, at construction, which Python
//! reads through typed views of it (the observations, rewards, flags and episode statistics);
//! every reset and step copies the Rust buffers into it with slice copies under one checked
//! borrow (no per-environment Python work), the step itself running with the interpreter
//! released.

use std::num::NonZeroUsize;
use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};

use numpy::{
    PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1, PyReadwriteArray1,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rl_core::registry::RegisteredDomain;
use rl_core::{ErasedAction, Frame, InfoValue, Mode};
use rl_spaces::{
    AnyElement, AnySpace, Column, ColumnKey, ColumnKind, Columns, DType, FlatScalar, RowLayout,
};
use rl_wrappers::VectorError;
use rl_wrappers::vector::{
    Autoreset, RegisteredVector, StackedVector, VectorEnv, VectorOptions, fits_u8_rows,
    make_vector, needs_f64_rows, stack,
};

use crate::convert::{
    ArrayNumber, array_action_form, element_from_python, readonly_array, with_array_number,
    write_action_row,
};
use crate::parse_params;

/// The vector of an id as [`stack`] wraps it with actions of type `A`, its observation rows
/// of `f32`, of `f64` for an observation space with a float64 Box ([`needs_f64_rows`]:
/// Gymnasium's MuJoCo ids, whose observations `f32` would round), or of `u8` where every row
/// entry is a byte ([`fits_u8_rows`]: MiniGrid's and BabyAI's ids, their pictures written as
/// bytes from the drawing to NumPy), chosen at construction.
enum ByScalar<A: ErasedAction> {
    /// Rows of `f32` (every other id: its observations are exact in them).
    F32(StackedVector<A, f32>),
    /// Rows of `f64`.
    F64(StackedVector<A, f64>),
    /// Rows of `u8`.
    U8(StackedVector<A, u8>),
}

impl<A: ErasedAction> ByScalar<A> {
    /// The stacked vector of `id` ([`make_vector`]) with rows of `f64` when `f64_rows`, of
    /// `u8` when `u8_rows`, of `f32` otherwise.
    fn make(
        id: &str,
        params: Option<&serde_json::Value>,
        count: NonZeroUsize,
        seed: u64,
        options: VectorOptions,
        f64_rows: bool,
        u8_rows: bool,
    ) -> PyResult<Self> {
        Ok(if f64_rows {
            ByScalar::F64(stacked(make_vector::<A, f64>(
                id, params, count, seed, options,
            ))?)
        } else if u8_rows {
            ByScalar::U8(stacked(make_vector::<A, u8>(
                id, params, count, seed, options,
            ))?)
        } else {
            ByScalar::F32(stacked(make_vector::<A, f32>(
                id, params, count, seed, options,
            ))?)
        })
    }
}

/// The vector of an id ([`ByScalar`]), and the actions of the next step (reused from step to
/// step): integer actions for a `Discrete` action space (`make_vector::<i64, f32>`, no
/// `AnyElement` per action), `AnyElement`s for the others. Which wrappers the stack holds is
/// `stack`'s business: this binding reaches them through the `VectorEnv` trait.
enum Stepper {
    /// A `Discrete` action space.
    Discrete {
        vector: ByScalar<i64>,
        actions: Vec<i64>,
    },
    /// Any other action space.
    Any {
        vector: ByScalar<AnyElement>,
        actions: Vec<AnyElement>,
    },
    /// Closed: the environments are dropped (their threads stopped); every call is an error.
    Closed,
}

/// Runs the same expression on the vector of a [`Stepper`], whichever its actions and rows
/// (`$vector` bound to it, and `$actions` to the action buffer where named).
macro_rules! with_vector {
    ($stepper:expr, $vector:ident => $body:expr) => {
        with_vector!($stepper, $vector, _actions => $body)
    };
    ($stepper:expr, $vector:ident, $actions:ident => $body:expr) => {
        match $stepper {
            Stepper::Discrete {
                vector: ByScalar::F32($vector),
                actions: $actions,
            } => $body,
            Stepper::Discrete {
                vector: ByScalar::F64($vector),
                actions: $actions,
            } => $body,
            Stepper::Discrete {
                vector: ByScalar::U8($vector),
                actions: $actions,
            } => $body,
            Stepper::Any {
                vector: ByScalar::F32($vector),
                actions: $actions,
            } => $body,
            Stepper::Any {
                vector: ByScalar::F64($vector),
                actions: $actions,
            } => $body,
            Stepper::Any {
                vector: ByScalar::U8($vector),
                actions: $actions,
            } => $body,
            Stepper::Closed => return Err(closed_error()),
        }
    };
}

/// The numeric type of a vector's observation rows (`f32`, `f64` or `u8`), with the
/// conversions of a row entry into each dtype of the typed columns (Rust's `as`: exact for the
/// rows' values, indices and a Box's own values).
trait RowScalar: FlatScalar + bytemuck::Pod {
    /// NumPy's name of the type, and its bytes.
    const DTYPE: (&'static str, usize);
    /// The rows' own column dtype.
    const COLUMN: DType;
    /// The entry as an `f32`.
    fn to_f32(self) -> f32;
    /// The entry as an `i64` (truncated).
    fn to_i64(self) -> i64;
    /// The entry as a `u8` (saturated).
    fn to_u8(self) -> u8;
    /// The entry as a `u16` (saturated).
    fn to_u16(self) -> u16;
    /// The entry as a `u32` (saturated).
    fn to_u32(self) -> u32;
    /// The entry as a `u64` (saturated).
    fn to_u64(self) -> u64;
}

/// Implements [`RowScalar`] for a row type.
macro_rules! row_scalar {
    ($type:ty, $name:literal, $column:expr) => {
        impl RowScalar for $type {
            const DTYPE: (&'static str, usize) = ($name, std::mem::size_of::<$type>());
            const COLUMN: DType = $column;
            #[inline]
            fn to_f32(self) -> f32 {
                self as f32
            }
            #[inline]
            fn to_i64(self) -> i64 {
                self as i64
            }
            #[inline]
            fn to_u8(self) -> u8 {
                self as u8
            }
            #[inline]
            fn to_u16(self) -> u16 {
                self as u16
            }
            #[inline]
            fn to_u32(self) -> u32 {
                self as u32
            }
            #[inline]
            fn to_u64(self) -> u64 {
                self as u64
            }
        }
    };
}

row_scalar!(f32, "float32", DType::F32);
row_scalar!(f64, "float64", DType::F64);
row_scalar!(u8, "uint8", DType::U8);

/// The error of a call on a closed vector.
pub(crate) fn closed_error() -> PyErr {
    PyRuntimeError::new_err("the vector is closed; make a new one")
}

/// Locks a vector's `mutex` without waiting (whether or not a call panicked while holding it),
/// or a `RuntimeError` that says `busy` if another Python thread holds it: a call that runs
/// with the interpreter released holds the lock, so waiting for it while holding the
/// interpreter could deadlock.
pub(crate) fn try_lock_vector<'a, T>(
    mutex: &'a Mutex<T>,
    busy: &str,
) -> PyResult<MutexGuard<'a, T>> {
    match mutex.try_lock() {
        Ok(guard) => Ok(guard),
        Err(TryLockError::Poisoned(poisoned)) => Ok(PoisonError::into_inner(poisoned)),
        Err(TryLockError::WouldBlock) => Err(PyRuntimeError::new_err(format!(
            "the vector is being used by another thread; {busy}"
        ))),
    }
}

/// The observation rows' layout of `space` as `rlrs.RustVectorEnv` reads them: batched, with a
/// typed column per leaf ([`Columns::of`]), where the space has columns; flat rows, read back in
/// Python, for the others (FiniteSet, OneOf).
pub(crate) fn row_layout(space: &AnySpace) -> (RowLayout, Vec<Column>) {
    match Columns::of(space) {
        Ok(columns) => (RowLayout::Batched, columns.columns().to_vec()),
        Err(_) => (RowLayout::Flat, Vec::new()),
    }
}

/// A failure to build a vector as a Python exception: registry errors as
/// [`core_error`](crate::core_error) maps them, the others as [`vector_error`].
pub(crate) fn built_error(error: VectorError) -> PyErr {
    match error {
        VectorError::Registry(error) => crate::core_error(error),
        other => vector_error(other),
    }
}

/// The stack ([`stack`]) over the vector `made` by `make_vector`
/// (or their `f64` forms): what `rlrs.RustVectorEnv` steps (and the benchmarks' driver).
pub(crate) fn stacked<A: ErasedAction, T: FlatScalar>(
    made: Result<RegisteredVector<A, T>, VectorError>,
) -> PyResult<StackedVector<A, T>> {
    stack(made.map_err(built_error)?).map_err(built_error)
}

/// The Rust side of the vector: the stepper, the spaces of one environment, the indices
/// of the episode statistics written into the NumPy buffers by the last call, the domain
/// (which draws the environments' states) and the frame it draws into, made on the first
/// `render_rgb`.
struct Inner {
    stepper: Stepper,
    written: Vec<usize>,
    action_space: AnySpace,
    observation_space: AnySpace,
    domain: Box<dyn RegisteredDomain>,
    frame: Option<Frame>,
}

/// A section of the output buffer [`Buffers::storage`]: one value, or one observation row of
/// `flat_dim` entries, per environment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Rewards,
    EpisodeReturns,
    EpisodeLengths,
    EpisodeTimes,
    Observations,
    FinalObservations,
    Terminated,
    Truncated,
    FinalMask,
    EpisodeMask,
}

impl Section {
    /// Every section, in its order in the buffer (the typed observation columns follow).
    const ALL: [Section; 10] = [
        Section::Rewards,
        Section::EpisodeReturns,
        Section::EpisodeLengths,
        Section::EpisodeTimes,
        Section::Observations,
        Section::FinalObservations,
        Section::Terminated,
        Section::Truncated,
        Section::FinalMask,
        Section::EpisodeMask,
    ];

    /// NumPy's name of the section's dtype, and the bytes of one entry, for observation rows
    /// of the dtype `rows` (`float32`, `float64` or `uint8`, with its bytes).
    fn dtype(self, rows: (&'static str, usize)) -> (&'static str, usize) {
        match self {
            Section::Rewards | Section::EpisodeReturns | Section::EpisodeTimes => ("float64", 8),
            Section::EpisodeLengths => ("int64", 8),
            Section::Observations | Section::FinalObservations => rows,
            Section::Terminated
            | Section::Truncated
            | Section::FinalMask
            | Section::EpisodeMask => ("bool", 1),
        }
    }

    /// The shape of the section's array for `count` environments with rows of `flat_dim`.
    fn shape(self, count: usize, flat_dim: usize) -> Vec<usize> {
        match self {
            Section::Observations | Section::FinalObservations => vec![count, flat_dim],
            _ => vec![count],
        }
    }
}

/// Where each output lives in the byte buffer [`Buffers::storage`]: the byte range of each
/// [`Section`] and of each typed column, each starting at a multiple of 8 so that every view is
/// aligned for its dtype.
struct Layout {
    /// The byte range of each section, in the order of [`Section::ALL`].
    sections: [std::ops::Range<usize>; 10],
    /// The byte offset of the typed column of each leaf of the observations ([`Columns`]),
    /// where the rows are not the column themselves (a Box of the rows' dtype).
    columns: Vec<usize>,
    /// The length of the buffer in bytes.
    len: usize,
}

impl Layout {
    /// The layout for `count` environments with observation rows of `flat_dim` numbers of the
    /// dtype `rows` and the typed columns `columns`, or an error if the buffer's size
    /// overflows.
    fn new(
        count: usize,
        flat_dim: usize,
        rows: (&'static str, usize),
        columns: &[Column],
    ) -> PyResult<Self> {
        let overflow = || {
            PyValueError::new_err(format!(
                "{count} environments with observations of {flat_dim} numbers need more memory \
                 than can be addressed"
            ))
        };
        let mut len = 0usize;
        let mut section = |shape: &[usize], size: usize| -> PyResult<std::ops::Range<usize>> {
            let start = len;
            let bytes = shape
                .iter()
                .try_fold(size, |bytes, n| bytes.checked_mul(*n))
                .ok_or_else(overflow)?;
            let end = start.checked_add(bytes).ok_or_else(overflow)?;
            len = end.checked_next_multiple_of(8).ok_or_else(overflow)?;
            Ok(start..end)
        };
        let mut sections: [std::ops::Range<usize>; 10] = Default::default();
        for (range, kind) in sections.iter_mut().zip(Section::ALL) {
            *range = section(&kind.shape(count, flat_dim), kind.dtype(rows).1)?;
        }
        let columns = columns
            .iter()
            .map(|column| {
                let range = section(&[count, column.width], dtype_size(column.dtype))?;
                Ok(range.start)
            })
            .collect::<PyResult<_>>()?;
        Ok(Layout {
            sections,
            columns,
            len,
        })
    }

    /// The byte range of `section`.
    fn range(&self, section: Section) -> std::ops::Range<usize> {
        self.sections[section as usize].clone()
    }

    /// The bytes of each section of the buffer `bytes`, in the order of [`Section::ALL`].
    fn split<'a>(&self, bytes: &'a mut [u8]) -> PyResult<[&'a mut [u8]; 10]> {
        let out_of_bounds = || PyRuntimeError::new_err("output buffer: a section is out of bounds");
        let mut parts: [&'a mut [u8]; 10] = Default::default();
        let (mut rest, mut position) = (bytes, 0);
        for (part, range) in parts.iter_mut().zip(&self.sections) {
            let (_, tail) = std::mem::take(&mut rest)
                .split_at_mut_checked(range.start - position)
                .ok_or_else(out_of_bounds)?;
            let (section, tail) = tail
                .split_at_mut_checked(range.len())
                .ok_or_else(out_of_bounds)?;
            (*part, rest, position) = (section, tail, range.end);
        }
        Ok(parts)
    }
}

/// The outputs as NumPy arrays: one byte buffer, written with one borrow per call (each
/// borrow of a NumPy array from Rust is checked, which costs about as much as copying a
/// thousand rewards), and the typed views of it that Python reads.
struct Buffers {
    storage: Py<PyArray1<u8>>,
    layout: Layout,
    /// The view of each section, in the order of [`Section::ALL`].
    sections: Vec<Py<PyAny>>,
    /// The typed column of each leaf ([`Layout::columns`]), shaped `(count, *leaf_shape)`.
    columns: Vec<Py<PyAny>>,
}

/// The bytes of one number of `dtype`.
fn dtype_size(dtype: DType) -> usize {
    match dtype {
        DType::I8 | DType::U8 => 1,
        DType::I16 | DType::U16 => 2,
        DType::F32 | DType::I32 | DType::U32 => 4,
        _ => 8,
    }
}

impl Buffers {
    /// Zeroed buffers for `count` environments with observation rows of `flat_dim` numbers of
    /// the dtype `rows` and the typed columns `columns`.
    fn new(
        py: Python<'_>,
        count: usize,
        flat_dim: usize,
        rows: (&'static str, usize),
        columns: &[Column],
    ) -> PyResult<Self> {
        let layout = Layout::new(count, flat_dim, rows, columns)?;
        // `numpy.zeros` (not rust-numpy's `PyArray1::zeros`, which panics when NumPy cannot
        // allocate): a size that cannot be allocated is NumPy's own `MemoryError`.
        let numpy = py.import("numpy")?;
        let storage = numpy
            .call_method1("zeros", (layout.len, "uint8"))?
            .cast_into::<PyArray1<u8>>()?;
        let ndarray = numpy.getattr("ndarray")?;
        // `numpy.ndarray(shape, dtype, buffer=storage, offset=...)`: a view of the storage.
        let view = |shape: Vec<usize>, dtype: &str, offset: usize| -> PyResult<Py<PyAny>> {
            let kwargs = PyDict::new(py);
            kwargs.set_item("buffer", &storage)?;
            kwargs.set_item("offset", offset)?;
            Ok(ndarray.call((shape, dtype), Some(&kwargs))?.unbind())
        };
        let sections = Section::ALL
            .iter()
            .map(|section| {
                let offset = layout.range(*section).start;
                view(
                    section.shape(count, flat_dim),
                    section.dtype(rows).0,
                    offset,
                )
            })
            .collect::<PyResult<_>>()?;
        let columns = columns
            .iter()
            .zip(&layout.columns)
            .map(|(column, &offset)| {
                let shape: Vec<usize> = std::iter::once(count)
                    .chain(column.shape.iter().copied())
                    .collect();
                view(shape, column.dtype.name(), offset)
            })
            .collect::<PyResult<_>>()?;
        Ok(Buffers {
            storage: storage.unbind(),
            layout,
            sections,
            columns,
        })
    }

    /// The NumPy array of `section`.
    fn view<'py>(&self, py: Python<'py>, section: Section) -> Bound<'py, PyAny> {
        self.sections[section as usize].bind(py).clone()
    }

    /// The storage, borrowed for writing, or a `ValueError` saying why it cannot be: NumPy's
    /// borrow checking refuses while a caller's array that is a view of it is borrowed (the
    /// actions of a step, for example, are copied and released first) or when it was made
    /// read-only.
    fn writable<'py>(&self, py: Python<'py>) -> PyResult<PyReadwriteArray1<'py, u8>> {
        self.storage.bind(py).try_readwrite().map_err(|error| {
            PyValueError::new_err(format!(
                "the vector's output arrays cannot be written ({error}): they are views of one \
                 buffer that must stay writeable and not be borrowed by the arguments of the call"
            ))
        })
    }
}

/// The bytes of a section as values of `X` (each section starts at a multiple of 8 in NumPy's
/// aligned allocation).
fn typed<X: bytemuck::Pod>(bytes: &mut [u8]) -> PyResult<&mut [X]> {
    bytemuck::try_cast_slice_mut(bytes)
        .map_err(|error| PyRuntimeError::new_err(format!("output buffer: {error}")))
}

/// Copies the values `source` into the section `bytes`, in native byte order (of the same
/// length: another is an error).
fn fill<T: bytemuck::NoUninit>(bytes: &mut [u8], source: &[T]) -> PyResult<()> {
    let source: &[u8] = bytemuck::cast_slice(source);
    if bytes.len() != source.len() {
        return Err(PyRuntimeError::new_err(format!(
            "output buffer: a section of {} bytes for {} bytes of results",
            bytes.len(),
            source.len()
        )));
    }
    bytes.copy_from_slice(source);
    Ok(())
}

/// Copies the rows of a batch of array actions, `values` of the C-contiguous array of shape
/// `found`, one action of shape `shape` per environment, into the action slots `actions`
/// ([`write_action_row`]: in place, no allocation from step to step). A batch of `count` rows
/// of the shape's size is read row by row whatever the rows' own shape; another is a
/// `ValueError`.
fn copy_rows<X: ArrayNumber>(
    found: &[usize],
    values: &[X],
    count: usize,
    shape: &[usize],
    actions: &mut [AnyElement],
) -> PyResult<()> {
    let width: usize = shape.iter().product();
    if found.first() != Some(&count) || Some(values.len()) != count.checked_mul(width) {
        return Err(PyValueError::new_err(format!(
            "the actions have shape {found:?}; expected {count} rows of shape {shape:?}"
        )));
    }
    for (k, action) in actions.iter_mut().enumerate() {
        write_action_row(&values[k * width..(k + 1) * width], shape, action);
    }
    Ok(())
}

/// `num_envs` environments of a registered id stepped in lockstep:
/// `Vector(id, params_json, num_envs, seed, autoreset, threads)`, with `autoreset` one of
/// `"next_step"`, `"same_step"`, `"disabled"`.
///
/// Observations are rows of `float32` (the id's observation flattened, as
/// `gymnasium.spaces.flatten` does, or in the batched layout), or of `float64` for an
/// observation space with a float64 Box (`needs_f64_rows`: MuJoCo's), so that every value is
/// exact, or of `uint8` where every entry is a byte (`fits_u8_rows`: MiniGrid's and BabyAI's,
/// whose images are then never floats). The output arrays are the attributes `observations`,
/// `rewards`, `terminated`, `truncated`, `final_observations`, `final_mask`, and the episode
/// statistics `episode_mask`, `episode_returns`, `episode_lengths`, `episode_times`; each
/// reset and step overwrites them in place.
#[pyclass(module = "rlrs._core", name = "Vector")]
pub struct PyVector {
    inner: Mutex<Inner>,
    buffers: Buffers,
    count: usize,
    flat_dim: usize,
    /// The observation rows' layout: batched where the observation space has columns
    /// ([`Columns::of`]), flat otherwise.
    layout: RowLayout,
    /// The columns of the batched rows (empty for flat rows).
    columns: Vec<Column>,
    /// Which of `columns` have a typed section of their own (all but those [`in_rows`]: a Box
    /// of the rows' dtype is its part of the rows).
    typed: Vec<Column>,
    /// The rows' dtype (`float32`, `float64` or `uint8`).
    row_column: DType,
    autoreset: &'static str,
    /// Whether the environments may report infos (a domain stepped state by state, not a
    /// structure-of-arrays kernel, whose infos are always empty): only then are the infos
    /// looked at after a call.
    reports_infos: bool,
}

/// The flag of a reset or step after which an episode has ended (`episode_mask` has an entry
/// set).
const ENDED_FLAG: u8 = 1;

/// The flag of a reset or step after which a final observation was kept (`final_mask` has an
/// entry set; same-step autoreset).
const FINAL_FLAG: u8 = 2;

/// The flag of a reset or step after which some environment reported an info (or a final
/// info): `infos` and `final_infos` then have entries.
const INFO_FLAG: u8 = 4;

/// A failure to borrow the NumPy output buffer as a Python exception.
fn buffer_error(error: impl std::fmt::Display) -> PyErr {
    PyRuntimeError::new_err(format!("output buffer: {error}"))
}

/// A vector failure as a Python exception: invalid actions and parameters (seeds among them)
/// are `ValueError`s, the rest `RuntimeError`s.
pub(crate) fn vector_error(error: VectorError) -> PyErr {
    match error {
        VectorError::InvalidAction { .. }
        | VectorError::ActionCount { .. }
        | VectorError::InvalidParameter { .. }
        | VectorError::EnvIdOutOfRange { .. }
        | VectorError::AlreadySent { .. } => PyValueError::new_err(error.to_string()),
        other => PyRuntimeError::new_err(other.to_string()),
    }
}

impl PyVector {
    /// The vector, or an error if another Python thread is using it: the step runs with the
    /// interpreter released, so waiting for the lock while holding the interpreter could
    /// deadlock.
    fn lock(&self) -> PyResult<MutexGuard<'_, Inner>> {
        let guard = try_lock_vector(&self.inner, "a vector is driven by one thread at a time")?;
        if matches!(guard.stepper, Stepper::Closed) {
            return Err(closed_error());
        }
        Ok(guard)
    }

    /// Calls `read` with environment `i`'s current state (`None` where it has none, or
    /// `i` is out of range), the vector locked meanwhile: what code that knows the domain's
    /// state type reads (the MuJoCo frames, `crate::mujoco`).
    pub(crate) fn with_state<R>(
        &self,
        i: usize,
        read: impl FnOnce(Option<&dyn std::any::Any>) -> PyResult<R>,
    ) -> PyResult<R> {
        let inner = self.lock()?;
        let state = if i < self.count {
            with_vector!(&inner.stepper, vector => vector.state_any(i))
        } else {
            None
        };
        read(state)
    }

    /// Runs `call` on the vector with the interpreter released, then copies every output of
    /// that reset or step into the NumPy buffers. The buffers are borrowed before the call
    /// (one borrow: each is checked, at a cost), so that buffers that cannot be written are an
    /// error before anything runs. Returns the call's [flags](ENDED_FLAG).
    fn run_and_write(
        &self,
        py: Python<'_>,
        inner: &mut Inner,
        call: impl FnOnce(&mut Stepper) -> PyResult<()> + Send,
    ) -> PyResult<u8> {
        let mut storage = self.buffers.writable(py)?;
        let stepper = &mut inner.stepper;
        py.detach(|| call(stepper))?;
        let bytes = storage.as_slice_mut().map_err(buffer_error)?;
        let written = &mut inner.written;
        with_vector!(&inner.stepper, vector => self.write_vector(bytes, vector, written))
    }

    /// Copies every output of `vector`'s last reset or step into the NumPy buffers' bytes;
    /// returns the [flags](ENDED_FLAG) of what happened. `written` holds the indices whose
    /// episode statistics the last call wrote, and is replaced by this call's.
    fn write_vector<A: ErasedAction, T: RowScalar>(
        &self,
        bytes: &mut [u8],
        vector: &StackedVector<A, T>,
        written: &mut Vec<usize>,
    ) -> PyResult<u8> {
        let observations = vector.observations();
        let observations = observations
            .as_slice()
            .ok_or_else(|| PyRuntimeError::new_err("the observation rows are not contiguous"))?;
        write_columns(
            bytes,
            observations,
            self.flat_dim,
            &self.typed,
            &self.buffers.layout.columns,
        )?;
        let [
            rewards,
            returns,
            lengths,
            times,
            observations_out,
            finals_out,
            terminated,
            truncated,
            final_mask_out,
            episode_mask,
        ] = self.buffers.layout.split(bytes)?;
        fill(observations_out, observations)?;
        fill(rewards, vector.rewards())?;
        fill(terminated, vector.terminated())?;
        fill(truncated, vector.truncated())?;
        let final_mask = vector.final_mask();
        if let Some(finals) = vector.final_observations().as_slice() {
            // Kept with same-step autoreset only (no rows otherwise).
            if !finals.is_empty() {
                fill(finals_out, finals)?;
            }
        }
        fill(final_mask_out, final_mask)?;
        // The episode statistics: only the entries of the episodes that ended on the last
        // call are cleared and those of this call's set (the others stay 0).
        let (returns, lengths, times) = (
            typed::<f64>(returns)?,
            typed::<i64>(lengths)?,
            typed::<f64>(times)?,
        );
        for &index in written.iter() {
            (
                episode_mask[index],
                returns[index],
                lengths[index],
                times[index],
            ) = (0, 0.0, 0, 0.0);
        }
        let ended_indices = vector.ended_indices();
        for &index in ended_indices {
            episode_mask[index] = 1;
            returns[index] = vector.episode_returns()[index];
            lengths[index] = i64::try_from(vector.episode_lengths()[index]).unwrap_or(i64::MAX);
            // Rounded to microseconds as Gymnasium's RecordEpisodeStatistics rounds them
            // (`np.round(t, 6)`: times 10^6, rounded half to even, divided by 10^6).
            times[index] = (vector.episode_times()[index] * 1e6).round_ties_even() / 1e6;
        }
        written.clear();
        written.extend_from_slice(ended_indices);
        let mut flags = 0;
        if !ended_indices.is_empty() {
            flags |= ENDED_FLAG;
        }
        if any_set(final_mask) {
            flags |= FINAL_FLAG;
        }
        if self.reports_infos
            && (vector.infos().iter().any(|info| !info.is_empty())
                || vector.final_infos().iter().any(|info| !info.is_empty()))
        {
            flags |= INFO_FLAG;
        }
        Ok(flags)
    }

    /// Copies one integer action per environment into the stepper's buffer.
    fn copy_discrete_actions(
        &self,
        inner: &mut Inner,
        actions: &PyReadonlyArray1<'_, i64>,
    ) -> PyResult<()> {
        let actions = actions.as_array();
        if actions.len() != self.count {
            return Err(PyValueError::new_err(format!(
                "{} actions for {} environments",
                actions.len(),
                self.count
            )));
        }
        match &mut inner.stepper {
            // Copied: the step runs with the interpreter released, when another Python thread
            // could write into the NumPy array.
            Stepper::Discrete {
                actions: buffer, ..
            } => match actions.as_slice() {
                Some(slice) => buffer.copy_from_slice(slice),
                None => buffer
                    .iter_mut()
                    .zip(actions.iter())
                    .for_each(|(target, action)| *target = *action),
            },
            Stepper::Any {
                actions: buffer, ..
            } => {
                for (target, action) in buffer.iter_mut().zip(actions.iter()) {
                    // In place when the slot already holds an integer (always, after the
                    // first step).
                    match target {
                        AnyElement::Int(slot) => *slot = *action,
                        other => *other = AnyElement::Int(*action),
                    }
                }
            }
            Stepper::Closed => return Err(closed_error()),
        }
        Ok(())
    }

    /// Steps with the actions already in the stepper's buffer ([`run_and_write`]).
    ///
    /// [`run_and_write`]: Self::run_and_write
    fn step_prepared(&self, py: Python<'_>, inner: &mut Inner) -> PyResult<u8> {
        self.run_and_write(py, inner, |stepper| {
            with_vector!(stepper, vector, actions => vector.step(actions)).map_err(vector_error)
        })
    }

    /// The action masks of the vector's environments (`action_masks`), or with `finals` those
    /// of the states the last step's episodes ended in (`final_action_masks`); `None` for an
    /// action space that is not `Discrete`.
    fn masks<'py>(
        &self,
        py: Python<'py>,
        finals: bool,
    ) -> PyResult<Option<Bound<'py, PyArray2<i8>>>> {
        let inner = self.lock()?;
        let AnySpace::Discrete(space) = &inner.action_space else {
            return Ok(None);
        };
        let actions = usize::try_from(space.n())
            .map_err(|_| PyValueError::new_err(format!("{space} has too many actions to mask")))?;
        let mut masks = ndarray::Array2::from_elem((self.count, actions), false);
        with_vector!(&inner.stepper, vector => if finals {
            vector.final_action_masks(&mut masks)
        } else {
            vector.action_masks(&mut masks)
        })
        .map_err(vector_error)?;
        Ok(Some(PyArray2::from_owned_array(py, masks.mapv(i8::from))))
    }

    /// The element dtype and shape of an array action space (Box, MultiDiscrete, MultiBinary),
    /// borrowed from the space (nothing allocated per step), with the `AnyElement` action
    /// buffer; a `TypeError` for another action space.
    fn array_actions<'a>(
        &self,
        inner: &'a mut Inner,
    ) -> PyResult<(DType, &'a [usize], &'a mut Vec<AnyElement>)> {
        let (dtype, shape) = array_action_form(&inner.action_space, "step_array")?;
        match &mut inner.stepper {
            Stepper::Any { actions, .. } => Ok((dtype, shape, actions)),
            // Never with an array action space (its vector has `AnyElement` actions).
            Stepper::Discrete { .. } => Err(PyTypeError::new_err(format!(
                "the action space is {}: step with step_discrete and one integer per environment",
                inner.action_space
            ))),
            Stepper::Closed => Err(closed_error()),
        }
    }
}

/// Whether any flag is set: the flags OR-ed together with no early exit, which compiles to
/// vector instructions, where `contains(&true)` compares one byte at a time (1,024 flags took
/// about 2.4% of a two-thread CartPole-v1 step's samples, on the calling thread alone).
fn any_set(flags: &[bool]) -> bool {
    flags.iter().fold(0u8, |any, &flag| any | u8::from(flag)) != 0
}

/// Whether two info keys are the same; most often they are the same `'static` string, which
/// the pointer comparison settles without comparing bytes.
fn same_key(a: &str, b: &str) -> bool {
    std::ptr::eq(a, b) || a == b
}

/// The values of one column of infos: booleans, integers, floats, or lists of floats, of the
/// kind of the value of the lowest-index environment that has the key, later values cast into
/// it as Gymnasium's `_add_info` casts them (a float into an integer column truncated:
/// FrozenLake's reset `prob` 1 beside a step's 0.333 gives 0, as NumPy assigns it).
enum ColumnValues {
    Bool(Vec<bool>),
    Int(Vec<i64>),
    Float(Vec<f64>),
    /// Lists of floats of one length (the second field), row after row: a `(len, width)`
    /// float64 array, as `_add_info` makes of NumPy arrays of one shape (Humanoid's tendon
    /// lengths, which the registration declares `float64[]`; the Python side takes such a
    /// column only for a key declared so, as a list is otherwise an object in Gymnasium's
    /// layout).
    FloatRows(Vec<f64>, usize),
}

impl ColumnValues {
    /// A column of `len` zeros of the kind of `value`, or `None` for a value that no column
    /// holds (neither a boolean nor a number).
    fn zeros_for(value: &InfoValue, len: usize) -> Option<ColumnValues> {
        if value.as_bool().is_some() {
            Some(ColumnValues::Bool(vec![false; len]))
        } else if value.as_i64().is_some() {
            Some(ColumnValues::Int(vec![0; len]))
        } else if value.as_f64().is_some() {
            // An integer beyond `i64` too, as NumPy makes a float64 column of it.
            Some(ColumnValues::Float(vec![0.0; len]))
        } else if let InfoValue::Floats(floats) = value {
            let width = floats.len();
            Some(ColumnValues::FloatRows(
                vec![0.0; len.checked_mul(width)?],
                width,
            ))
        } else {
            None
        }
    }

    /// Writes `value` at `index`, a float into an integer column truncated toward zero (NumPy's
    /// cast); false when the value does not fit the column (a boolean with numbers, a float
    /// that is not finite or beyond the integers, anything else), which leaves the key to
    /// Gymnasium's own `_add_info`.
    fn put(&mut self, index: usize, value: &InfoValue) -> bool {
        // A boolean goes only into a boolean column, and a boolean column takes nothing else.
        match (&mut *self, value.as_bool()) {
            (ColumnValues::Bool(values), Some(flag)) => values[index] = flag,
            (ColumnValues::Bool(_), None) | (_, Some(_)) => return false,
            (ColumnValues::Int(values), None) => match value.as_i64() {
                Some(integer) => values[index] = integer,
                None => {
                    // 2^63 as a float: the first float beyond the integers.
                    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
                    match value.as_f64().map(f64::trunc) {
                        Some(float) if float.is_finite() && float.abs() < LIMIT => {
                            values[index] = float as i64;
                        }
                        _ => return false,
                    }
                }
            },
            (ColumnValues::Float(values), None) => match value.as_f64() {
                Some(float) => values[index] = float,
                None => return false,
            },
            (ColumnValues::FloatRows(values, width), None) => match value {
                InfoValue::Floats(floats) if floats.len() == *width => {
                    values[index * *width..(index + 1) * *width].copy_from_slice(floats);
                }
                _ => return false,
            },
        }
        true
    }

    /// The column of `len` environments as a NumPy array (the vector becomes the array without
    /// a copy).
    fn into_array(self, py: Python<'_>, len: usize) -> PyResult<Bound<'_, PyAny>> {
        Ok(match self {
            ColumnValues::Bool(values) => PyArray1::from_vec(py, values).into_any(),
            ColumnValues::Int(values) => PyArray1::from_vec(py, values).into_any(),
            ColumnValues::Float(values) => PyArray1::from_vec(py, values).into_any(),
            ColumnValues::FloatRows(values, width) => PyArray1::from_vec(py, values)
                .reshape([len, width])?
                .into_any(),
        })
    }
}

/// The infos as columns (see `PyVector::info_columns`), those outside `only` (where given)
/// counted as empty, or `None` when a value is neither a boolean nor a number, or a key
/// mixes booleans with numbers.
pub(crate) fn info_columns<'py>(
    py: Python<'py>,
    infos: &[rl_core::Info],
    only: Option<&[bool]>,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let len = infos.len();
    // One pass over every entry: the keys in the order first met, environment by
    // environment, each with its values and mask.
    let mut columns: Vec<(&str, ColumnValues, Vec<bool>)> = Vec::new();
    for (index, info) in infos.iter().enumerate() {
        if info.is_empty() || only.is_some_and(|only| !only.get(index).copied().unwrap_or(false)) {
            continue;
        }
        for (key, value) in info.iter() {
            let column = match columns.iter().position(|(known, ..)| same_key(known, key)) {
                Some(column) => column,
                None => {
                    let Some(values) = ColumnValues::zeros_for(value, len) else {
                        return Ok(None);
                    };
                    columns.push((key, values, vec![false; len]));
                    columns.len() - 1
                }
            };
            let (_, values, mask) = &mut columns[column];
            if !values.put(index, value) {
                return Ok(None);
            }
            mask[index] = true;
        }
    }
    let dict = PyDict::new(py);
    for (key, values, mask) in columns {
        dict.set_item(
            key,
            (values.into_array(py, len)?, PyArray1::from_vec(py, mask)),
        )?;
    }
    Ok(Some(dict))
}

/// The infos as `(index, dict)` pairs: those not empty, or, with `mask`, those marked in it.
pub(crate) fn info_pairs<'py>(
    py: Python<'py>,
    infos: &[rl_core::Info],
    mask: Option<&[bool]>,
) -> PyResult<Vec<(usize, Bound<'py, PyDict>)>> {
    infos
        .iter()
        .enumerate()
        .filter(|(index, info)| match mask {
            Some(mask) => mask.get(*index).copied().unwrap_or(false),
            None => !info.is_empty(),
        })
        .map(|(index, info)| Ok((index, crate::convert::info_to_python(py, info)?)))
        .collect()
}

#[pymethods]
impl PyVector {
    /// Builds `num_envs` environments of `id` with the JSON parameters `params_json`,
    /// environment `i` seeded with `seed + i` (Gymnasium's rule), with the autoreset mode `autoreset` and
    /// `threads` worker threads.
    #[new]
    #[pyo3(signature = (id, params_json = None, num_envs = 1, seed = 0, autoreset = "next_step", threads = 1))]
    fn new(
        py: Python<'_>,
        id: &str,
        params_json: Option<&str>,
        num_envs: usize,
        seed: u64,
        autoreset: &str,
        threads: usize,
    ) -> PyResult<Self> {
        let (mode, autoreset) = match autoreset {
            "next_step" => (Autoreset::NextStep, "next_step"),
            "same_step" => (Autoreset::SameStep, "same_step"),
            "disabled" => (Autoreset::Disabled, "disabled"),
            other => {
                return Err(PyValueError::new_err(format!(
                    "autoreset is {other:?}; expected \"next_step\", \"same_step\" or \"disabled\""
                )));
            }
        };
        let count = NonZeroUsize::new(num_envs)
            .ok_or_else(|| PyValueError::new_err("num_envs is 0; a vector needs at least 1"))?;
        let threads = NonZeroUsize::new(threads)
            .ok_or_else(|| PyValueError::new_err("threads is 0; at least 1 is needed"))?;
        let params = parse_params(params_json)?;
        // The domain (it draws the frames), and one environment of it, for its spaces.
        let domain = crate::build_domain(id, params_json)?;
        let mut probe = domain.environment(0);
        let observation_space = rl_core::Environment::observation_space(&probe).clone();
        let action_space = rl_core::Environment::action_space(&probe).clone();
        rl_core::Environment::close(&mut probe);
        let (layout, columns) = row_layout(&observation_space);
        // Rows of f64 where f32 would round an observation (a float64 Box: MuJoCo's), of u8
        // where every entry is a byte (MiniGrid's, its pictures included), of f32 otherwise.
        let f64_rows = needs_f64_rows(&observation_space);
        let u8_rows = !f64_rows && fits_u8_rows(&observation_space, layout);
        let (row_dtype, row_column) = if f64_rows {
            (f64::DTYPE, f64::COLUMN)
        } else if u8_rows {
            (u8::DTYPE, u8::COLUMN)
        } else {
            (f32::DTYPE, f32::COLUMN)
        };
        // The columns that need a section of their own: not those whose entries are already
        // their values in the rows (a Box of the rows' dtype: MuJoCo's whole row, MiniGrid's
        // image in u8 rows), which Python reads as views of `observations`.
        let typed: Vec<Column> = columns
            .iter()
            .filter(|column| !in_rows(column, row_column))
            .cloned()
            .collect();
        let options = VectorOptions::new()
            .with_autoreset(mode)
            .with_threads(threads)
            .with_layout(layout);
        let params = params.as_ref();
        let stepper = if let AnySpace::Discrete(space) = &action_space {
            Stepper::Discrete {
                vector: ByScalar::make(id, params, count, seed, options, f64_rows, u8_rows)?,
                actions: vec![space.start(); num_envs],
            }
        } else {
            Stepper::Any {
                vector: ByScalar::make(id, params, count, seed, options, f64_rows, u8_rows)?,
                actions: vec![AnyElement::Int(0); num_envs],
            }
        };
        let flat_dim = with_vector!(&stepper, vector => vector.flat_dim());
        let reports_infos = with_vector!(&stepper, vector => vector.reports_infos());
        let buffers = Buffers::new(py, num_envs, flat_dim, row_dtype, &typed)?;
        Ok(PyVector {
            inner: Mutex::new(Inner {
                stepper,
                written: Vec::with_capacity(num_envs),
                action_space,
                observation_space,
                domain,
                frame: None,
            }),
            buffers,
            count: num_envs,
            flat_dim,
            layout,
            columns,
            typed,
            row_column,
            autoreset,
            reports_infos,
        })
    }

    /// The number of environments.
    #[getter]
    fn num_envs(&self) -> usize {
        self.count
    }

    /// The length of an observation row.
    #[getter]
    fn flat_dim(&self) -> usize {
        self.flat_dim
    }

    /// Whether the observation rows are in the batched layout (one entry per `Discrete`,
    /// described by `columns`) rather than flat (`gymnasium.spaces.flatten`).
    #[getter]
    fn batched(&self) -> bool {
        self.layout == RowLayout::Batched
    }

    /// The columns of the batched observation rows, one per leaf of the observation space in
    /// row order: dicts with `path` (the Dict keys and Tuple indices from the root), `offset`
    /// and `width` (its entries in a row), `dtype` (NumPy's name), `shape` (one element's),
    /// `offsets` (added to each entry: a Discrete's start; empty for 0), `charset` (a Text's
    /// characters, else `None`) and `array` (its typed `(num_envs, *shape)` array, written by
    /// every reset and step; `None` for a Box of the rows' dtype, whose values are its part of
    /// `observations`: `observations[:, offset:offset + width]`).
    fn columns<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let mut typed = self.buffers.columns.iter();
        self.columns
            .iter()
            .map(|column| {
                let entry = PyDict::new(py);
                let path = PyList::empty(py);
                for key in &column.path {
                    match key {
                        ColumnKey::Key(key) => path.append(key)?,
                        ColumnKey::Index(index) => path.append(index)?,
                    }
                }
                entry.set_item("path", path)?;
                entry.set_item("offset", column.offset)?;
                entry.set_item("width", column.width)?;
                entry.set_item("dtype", column.dtype.name())?;
                entry.set_item("shape", pyo3::types::PyTuple::new(py, &column.shape)?)?;
                match &column.kind {
                    ColumnKind::Numbers { offsets } => {
                        entry.set_item("offsets", offsets.clone())?;
                        entry.set_item("charset", py.None())?;
                    }
                    ColumnKind::Text { charset } => {
                        entry.set_item("offsets", Vec::<i64>::new())?;
                        entry.set_item("charset", charset.iter().collect::<String>())?;
                    }
                }
                let array = if in_rows(column, self.row_column) {
                    None
                } else {
                    typed.next().map(|array| array.clone_ref(py))
                };
                entry.set_item("array", array)?;
                Ok(entry)
            })
            .collect()
    }

    /// The autoreset mode: `"next_step"`, `"same_step"` or `"disabled"`.
    #[getter]
    fn autoreset(&self) -> &'static str {
        self.autoreset
    }

    /// One environment's observation space, as a JSON definition string.
    fn observation_space_json(&self) -> PyResult<String> {
        Ok(self.lock()?.observation_space.to_definition().to_string())
    }

    /// One environment's action space, as a JSON definition string.
    fn action_space_json(&self) -> PyResult<String> {
        Ok(self.lock()?.action_space.to_definition().to_string())
    }

    /// The observations, one row per environment, of `float32`, of `float64` for an
    /// observation space with a float64 Box, or of `uint8` where every entry is a byte.
    #[getter]
    fn observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.buffers.view(py, Section::Observations)
    }

    /// The rewards of the last step.
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.buffers.view(py, Section::Rewards)
    }

    /// The terminated flags of the last step.
    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.buffers.view(py, Section::Terminated)
    }

    /// The truncated flags of the last step.
    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.buffers.view(py, Section::Truncated)
    }

    /// The final observations of the environments reset on the last step (same-step
    /// autoreset), valid where `final_mask` is set.
    #[getter]
    fn final_observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.buffers.view(py, Section::FinalObservations)
    }

    /// Which rows of `final_observations` are valid.
    #[getter]
    fn final_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.buffers.view(py, Section::FinalMask)
    }

    /// The environments whose episode ended on the last step.
    #[getter]
    fn episode_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.buffers.view(py, Section::EpisodeMask)
    }

    /// The return of the episode that ended, where `episode_mask` is set (0 elsewhere).
    #[getter]
    fn episode_returns<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.buffers.view(py, Section::EpisodeReturns)
    }

    /// The length of the episode that ended, where `episode_mask` is set (0 elsewhere).
    #[getter]
    fn episode_lengths<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.buffers.view(py, Section::EpisodeLengths)
    }

    /// The wall time in seconds of the episode that ended, rounded to microseconds, where
    /// `episode_mask` is set (0 elsewhere).
    #[getter]
    fn episode_times<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.buffers.view(py, Section::EpisodeTimes)
    }

    /// The infos of the last call that are not empty, as `(index, dict)` pairs in index order
    /// (the domain's JSON entries as Python values); empty unless the call returned the
    /// info flag (4). With `selected` (one flag per environment), only those of the selected
    /// environments: after `reset_selected`, the others' infos are their last step's.
    #[pyo3(signature = (selected = None))]
    fn infos<'py>(
        &self,
        py: Python<'py>,
        selected: Option<Vec<bool>>,
    ) -> PyResult<Vec<(usize, Bound<'py, PyDict>)>> {
        let inner = self.lock()?;
        let pairs = with_vector!(&inner.stepper, vector => info_pairs(py, vector.infos(), None))?;
        Ok(pairs
            .into_iter()
            .filter(|(index, _)| {
                selected
                    .as_ref()
                    .is_none_or(|selected| selected.get(*index).copied().unwrap_or(false))
            })
            .collect())
    }

    /// The action masks of the environments' current states for a `Discrete` action space: an
    /// `int8` array of shape `(num_envs, n)`, 1 where the action is applicable
    /// (`Domain::is_applicable`, Taxi's `action_mask`); `None` for another action space.
    fn action_masks<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyArray2<i8>>>> {
        self.masks(py, false)
    }

    /// The action masks of the states the episodes ended in on the last step (same-step
    /// autoreset), as [`action_masks`](Self::action_masks) gave them before the autoreset
    /// replaced those states: rows where `final_mask` is set, 0 elsewhere; `None` for an
    /// action space that is not `Discrete`. Kept once `action_masks` was called (Taxi's
    /// `final_info["action_mask"]`).
    fn final_action_masks<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<Bound<'py, PyArray2<i8>>>> {
        self.masks(py, true)
    }

    /// The infos of the last call as columns, Gymnasium's batched layout built in Rust: a
    /// dict from each key (in the order first met, environment by environment) to `(values,
    /// mask)`, NumPy arrays over the batch (`bool`, `int64` or `float64`; 0 where the mask is
    /// unset); `None` when some value is not a boolean or a number (then `infos` gives the
    /// dicts). `final` reads the final infos of same-step autoreset instead. With `selected`
    /// (one flag per environment), only the selected environments' infos count (after
    /// `reset_selected`, the others' are their last step's).
    #[pyo3(signature = (r#final = false, selected = None))]
    fn info_columns<'py>(
        &self,
        py: Python<'py>,
        r#final: bool,
        selected: Option<Vec<bool>>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let inner = self.lock()?;
        with_vector!(&inner.stepper, vector => {
            if r#final {
                // Only the environments whose episode ended on this call: the others' final
                // infos are those of earlier calls.
                info_columns(py, vector.final_infos(), Some(vector.final_mask()))
            } else {
                info_columns(py, vector.infos(), selected.as_deref())
            }
        })
    }

    /// The final infos of the episodes that ended on the last call (same-step autoreset), as
    /// `(index, dict)` pairs for every environment whose final observation was kept (empty
    /// dicts included, as `SyncVectorEnv` reports them).
    fn final_infos<'py>(&self, py: Python<'py>) -> PyResult<Vec<(usize, Bound<'py, PyDict>)>> {
        let inner = self.lock()?;
        with_vector!(&inner.stepper, vector => {
            info_pairs(py, vector.final_infos(), Some(vector.final_mask()))
        })
    }

    /// Drops the environments at once (their worker threads stop), whatever references to
    /// this object remain; every later call but `close` is a `RuntimeError`. Idempotent.
    fn close(&self) -> PyResult<()> {
        let mut guard = try_lock_vector(&self.inner, "close it when that call returns")?;
        let stepper = std::mem::replace(&mut guard.stepper, Stepper::Closed);
        drop(guard);
        drop(stepper);
        Ok(())
    }

    /// Reseeds the environments as Gymnasium's `reset(seed=seed)`: environment `i` with
    /// `seed + i` (past 2^64 where `seed + i` is: numpy's generator of the larger integer).
    fn seed(&self, seed: u64) -> PyResult<()> {
        let mut inner = self.lock()?;
        with_vector!(&mut inner.stepper, vector => vector.seed(seed)).map_err(vector_error)
    }

    /// [`seed`](Self::seed) with the non-negative integer of any size whose 32-bit words,
    /// least significant first, are `words` (numpy's `SeedSequence` of a Python integer).
    fn seed_words(&self, words: Vec<u32>) -> PyResult<()> {
        let seed = rl_core::Seed::from_words(&words);
        let mut inner = self.lock()?;
        with_vector!(&mut inner.stepper, vector => vector.seed_from(&seed)).map_err(vector_error)
    }

    /// Reseeds environment `i` with `seeds[i]` where it is not `None`, leaving the others'
    /// streams as they are (Gymnasium's `reset(seed=[s0, None, ...])`); each seed is the 32-bit
    /// words of a non-negative integer of any size, least significant first. A `ValueError`,
    /// with nothing reseeded, unless there is one entry per environment.
    fn seed_each(&self, seeds: Vec<Option<Vec<u32>>>) -> PyResult<()> {
        let seeds: Vec<Option<rl_core::Seed>> = seeds
            .iter()
            .map(|words| words.as_deref().map(rl_core::Seed::from_words))
            .collect();
        let mut inner = self.lock()?;
        with_vector!(&mut inner.stepper, vector => vector.seed_each(&seeds)).map_err(vector_error)
    }

    /// Resets every environment and writes the first observations; returns the flags as
    /// [`step_discrete`](Self::step_discrete) does.
    fn reset(&self, py: Python<'_>) -> PyResult<u8> {
        let mut inner = self.lock()?;
        self.run_and_write(py, &mut inner, |stepper| {
            with_vector!(stepper, vector => vector.reset(Mode::Training)).map_err(vector_error)
        })
    }

    /// The natural size `(width, height)` of the id's RGB frames, `None` when it draws none.
    fn frame_size(&self) -> PyResult<Option<(u32, u32)>> {
        Ok(self.lock()?.domain.frame_size())
    }

    /// Every environment's current state drawn as an RGB frame: a list of new `uint8` arrays
    /// of shape `(height, width, 3)`, in environment order (Gymnasium's vector `render()`
    /// with `render_mode="rgb_array"`). A `ValueError` when the id draws no frames.
    fn render_rgb<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyArray3<u8>>>> {
        let mut guard = self.lock()?;
        let inner = &mut *guard;
        let Some((width, height)) = inner.domain.frame_size() else {
            return Err(PyValueError::new_err(format!(
                "{} draws no RGB frames",
                inner.domain.id()
            )));
        };
        let frame = match &mut inner.frame {
            Some(frame) => frame,
            empty => empty.insert(Frame::new(width, height).map_err(crate::core_error)?),
        };
        let mut frames = Vec::with_capacity(self.count);
        for i in 0..self.count {
            let state = with_vector!(&inner.stepper, vector => vector.state_any(i))
                .ok_or_else(|| PyRuntimeError::new_err(format!("no state for environment {i}")))?;
            inner
                .domain
                .draw_state(state, frame)
                .map_err(crate::core_error)?;
            frames.push(PyArray3::from_array(py, &frame.as_array()));
        }
        Ok(frames)
    }

    /// Resets the environments whose entry of `selected` is true, the others left as they are
    /// (Gymnasium's `reset(options={"reset_mask": selected})`); returns the flags as
    /// [`step_discrete`](Self::step_discrete) does. A `ValueError` unless there is one entry
    /// per environment and at least one is true.
    fn reset_selected(&self, py: Python<'_>, selected: Vec<bool>) -> PyResult<u8> {
        let mut inner = self.lock()?;
        self.run_and_write(py, &mut inner, |stepper| {
            with_vector!(stepper, vector => vector.reset_selected(&selected)).map_err(vector_error)
        })
    }

    /// Resets the environments whose episode ended (disabled autoreset); returns the flags as
    /// [`step_discrete`](Self::step_discrete) does.
    fn reset_ended(&self, py: Python<'_>) -> PyResult<u8> {
        let mut inner = self.lock()?;
        self.run_and_write(py, &mut inner, |stepper| {
            with_vector!(stepper, vector => vector.reset_ended()).map_err(vector_error)
        })
    }

    /// Steps with one integer action per environment (Discrete action spaces): `actions` is a
    /// one-dimensional `int64` array (any strides). Returns the step's flags: bit 0 (1) set
    /// when an episode ended, bit 1 (2) when a final observation was kept (same-step
    /// autoreset), so that Python builds `info` only when there is something in it.
    fn step_discrete(&self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<u8> {
        let mut inner = self.lock()?;
        self.copy_discrete_actions(&mut inner, &actions)?;
        // The actions are copied: their borrow ends before the output buffer is borrowed for
        // writing (the actions may be a view of it, as `info["episode"]["l"]` is with
        // copy=False).
        drop(actions);
        self.step_prepared(py, &mut inner)
    }

    /// Steps with one row of a batch array per environment (Box, MultiDiscrete and
    /// MultiBinary action spaces): `actions` has shape `(num_envs, *action_shape)`. Returns the
    /// flags as [`step_discrete`](Self::step_discrete) does.
    fn step_array(&self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<u8> {
        let mut inner = self.lock()?;
        let count = self.count;
        let (dtype, shape, targets) = self.array_actions(&mut inner)?;
        with_array_number!(dtype, X => {
            let batch = readonly_array::<X>(actions, dtype.name())?;
            copy_rows(batch.shape(), batch.as_slice()?, count, shape, targets)
        })?;
        self.step_prepared(py, &mut inner)
    }

    /// Steps with a list of one action per environment, each converted as a single
    /// environment's action is (any action space). Returns the flags as
    /// [`step_discrete`](Self::step_discrete) does.
    fn step_elements(&self, py: Python<'_>, actions: &Bound<'_, PyList>) -> PyResult<u8> {
        let mut inner = self.lock()?;
        if actions.len() != self.count {
            return Err(PyValueError::new_err(format!(
                "{} actions for {} environments",
                actions.len(),
                self.count
            )));
        }
        let Inner {
            stepper,
            action_space,
            ..
        } = &mut *inner;
        match stepper {
            Stepper::Discrete {
                actions: targets, ..
            } => {
                for (target, action) in targets.iter_mut().zip(actions.iter()) {
                    let element = element_from_python(action_space, &action)?;
                    *target = element.as_int().ok_or_else(|| {
                        PyValueError::new_err(format!("{element} is not an integer action"))
                    })?;
                }
            }
            Stepper::Any {
                actions: targets, ..
            } => {
                for (target, action) in targets.iter_mut().zip(actions.iter()) {
                    *target = element_from_python(action_space, &action)?;
                }
            }
            Stepper::Closed => return Err(closed_error()),
        }
        self.step_prepared(py, &mut inner)
    }
}

/// Whether the values of `column` are its entries in rows of the dtype `rows` as they are (a
/// Box of that dtype), so that it needs no section of its own: Python reads it as a view of
/// the observations.
fn in_rows(column: &Column, rows: DType) -> bool {
    let nothing_added = match &column.kind {
        ColumnKind::Numbers { offsets } => offsets.iter().all(|offset| *offset == 0),
        ColumnKind::Text { .. } => false,
    };
    column.dtype == rows && nothing_added
}

/// Writes the typed columns of the observation rows `rows` (of `dim` entries each) into their
/// sections of the output buffer `bytes`: each leaf's entries plus its offsets (a Discrete's
/// start), converted to its dtype (exact: the rows hold indices below 2^24 and the Box's own
/// values).
fn write_columns<T: RowScalar>(
    bytes: &mut [u8],
    rows: &[T],
    dim: usize,
    columns: &[Column],
    sections: &[usize],
) -> PyResult<()> {
    let out_of_bounds = || PyRuntimeError::new_err("output buffer: a column is out of bounds");
    let count = rows.len().checked_div(dim).unwrap_or(0);
    for (column, &start) in columns.iter().zip(sections) {
        let width = column.width;
        let size = dtype_size(column.dtype);
        let section = bytes
            .get_mut(start..start + count * width * size)
            .ok_or_else(out_of_bounds)?;
        let offsets: &[i64] = match &column.kind {
            ColumnKind::Numbers { offsets } => offsets,
            _ => &[],
        };
        macro_rules! fill {
            ($type:ty, $convert:expr) => {{
                let typed: &mut [$type] = bytemuck::try_cast_slice_mut(section)
                    .map_err(|error| PyRuntimeError::new_err(format!("output buffer: {error}")))?;
                let convert = $convert;
                for (out, row) in typed
                    .chunks_exact_mut(width.max(1))
                    .zip(rows.chunks_exact(dim))
                {
                    let entries = row
                        .get(column.offset..column.offset + width)
                        .ok_or_else(out_of_bounds)?;
                    for (j, (slot, &entry)) in out.iter_mut().zip(entries).enumerate() {
                        let offset = offsets.get(j).copied().unwrap_or(0);
                        *slot = convert(entry, offset);
                    }
                }
            }};
        }
        if width == 0 || dim == 0 {
            continue;
        }
        match column.dtype {
            DType::F32 => fill!(f32, |x: T, _: i64| x.to_f32()),
            DType::F64 => fill!(f64, |x: T, _: i64| x.to_f64()),
            DType::I8 => fill!(i8, |x: T, o: i64| (x.to_i64() + o) as i8),
            DType::I16 => fill!(i16, |x: T, o: i64| (x.to_i64() + o) as i16),
            DType::I32 => fill!(i32, |x: T, o: i64| (x.to_i64() + o) as i32),
            DType::I64 => fill!(i64, |x: T, o: i64| x.to_i64() + o),
            DType::U8 => fill!(u8, |x: T, _: i64| x.to_u8()),
            DType::U16 => fill!(u16, |x: T, _: i64| x.to_u16()),
            DType::U32 => fill!(u32, |x: T, _: i64| x.to_u32()),
            DType::U64 => fill!(u64, |x: T, _: i64| x.to_u64()),
            other => {
                return Err(PyRuntimeError::new_err(format!(
                    "no column of dtype {}",
                    other.name()
                )));
            }
        }
    }
    Ok(())
}
