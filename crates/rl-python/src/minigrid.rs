//! What the Python package's MiniGrid environment object (`rlrs.minigrid.MiniGridEnv`) reads
//! from the Rust state of an `rlrs._core.Environment` built from a MiniGrid id: the grid's
//! cells, the agent, the frames of minigrid's `get_frame` and the view of its `gen_obs_grid`.
//! Each is read on demand (nothing is computed per step unless Python asks).

use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rl_object_grid::image::MAX_TILE_SIZE;
use rl_object_grid::{MiniGrid, MiniGridState};

use crate::build_domain;
use crate::single::PyEnvironment;
use crate::vector::PyVector;

/// Calls `read` with the MiniGrid domain and current state (`None` before the first reset) of
/// `env`; a `TypeError` when `env` is not a MiniGrid environment.
fn with_minigrid<R>(
    env: &PyEnvironment,
    read: impl FnOnce(&MiniGrid, Option<&MiniGridState>) -> PyResult<R>,
) -> PyResult<R> {
    let inner = env.lock()?;
    let domain = inner
        .environment
        .domain_any()
        .and_then(|domain| domain.downcast_ref::<MiniGrid>())
        .ok_or_else(|| {
            PyTypeError::new_err(format!("{} is not a MiniGrid environment", env.id()))
        })?;
    let state = inner
        .environment
        .state_any()
        .and_then(|state| state.downcast_ref::<MiniGridState>());
    read(domain, state)
}

/// The state of a MiniGrid episode, or a `RuntimeError` before the first reset.
fn started(state: Option<&MiniGridState>) -> PyResult<&MiniGridState> {
    state.ok_or_else(|| {
        PyRuntimeError::new_err("the environment has no state yet: call reset() first")
    })
}

/// Whether the domain registered under `id` (with its default parameters) is a MiniGrid
/// domain, whose environments `rlrs` gives minigrid's attributes.
#[pyfunction]
fn is_minigrid(id: &str) -> PyResult<bool> {
    Ok(build_domain(id, None)?
        .as_any()
        .downcast_ref::<MiniGrid>()
        .is_some())
}

/// The fixed attributes of `env`'s MiniGrid domain: a dict of `width`, `height`,
/// `agent_view_size`, `see_through_walls`, `max_steps`, `highlight`, `tile_size`, `agent_pov`,
/// `image` (the image kind's name), `image_tile_size` and `missions` (every mission, indexed as
/// the state's `mission` index).
#[pyfunction]
fn minigrid_domain<'py>(
    py: Python<'py>,
    env: &Bound<'py, PyEnvironment>,
) -> PyResult<Bound<'py, PyDict>> {
    let env = env.borrow();
    with_minigrid(&env, |domain, _| {
        let params = domain.params();
        let (width, height) = domain.grid_size();
        let dict = PyDict::new(py);
        dict.set_item("width", width)?;
        dict.set_item("height", height)?;
        dict.set_item("agent_view_size", domain.view_size())?;
        dict.set_item("see_through_walls", domain.see_through_walls())?;
        dict.set_item("max_steps", domain.max_steps())?;
        dict.set_item("highlight", params.highlight)?;
        dict.set_item("tile_size", params.tile_size)?;
        dict.set_item("agent_pov", params.agent_pov)?;
        let image = serde_json::to_value(params.image)
            .ok()
            .and_then(|value| value.as_str().map(str::to_owned))
            .unwrap_or_default();
        dict.set_item("image", image)?;
        dict.set_item("image_tile_size", params.image_tile_size)?;
        let missions: Vec<&str> = domain.missions().iter().map(|m| &**m).collect();
        dict.set_item("missions", missions)?;
        Ok(dict)
    })
}

/// The current state of `env`'s episode, `None` before the first reset: `(cells, agent_x,
/// agent_y, agent_dir, carrying, step_count, mission, terminated)`, `cells` a `(height, width,
/// 4)` `uint8` array (each cell's kind, colour and state as minigrid encodes them, then the box
/// contents `kind * 8 + colour` in the low 7 bits of the fourth byte), `carrying` the four
/// bytes of the carried object or `None`.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn minigrid_state<'py>(
    py: Python<'py>,
    env: &Bound<'py, PyEnvironment>,
) -> PyResult<
    Option<(
        Bound<'py, PyArray3<u8>>,
        i32,
        i32,
        u8,
        Option<[u8; 4]>,
        u64,
        usize,
        bool,
    )>,
> {
    let env = env.borrow();
    with_minigrid(&env, |_, state| {
        let Some(state) = state else {
            return Ok(None);
        };
        let grid = state.grid();
        let bytes: Vec<u8> = grid.cells().iter().flat_map(|c| c.to_bytes()).collect();
        let cells = PyArray1::from_vec(py, bytes).reshape([grid.height(), grid.width(), 4])?;
        let agent = state.agent_position();
        Ok(Some((
            cells,
            agent.x,
            agent.y,
            state.direction().index(),
            state.carrying().map(|cell| cell.to_bytes()),
            state.step_count(),
            state.mission_index(),
            state.is_terminated(),
        )))
    })
}

/// Whether the reset of the episode of `state` (a MiniGrid or BabyAI state) drew the agent's
/// direction (`MiniGridState::direction_is_drawn`); `None` for another state or none.
fn direction_drawn_of(state: Option<&dyn std::any::Any>) -> Option<bool> {
    state
        .and_then(|state| state.downcast_ref::<MiniGridState>())
        .or_else(|| {
            state
                .and_then(|state| state.downcast_ref::<rl_object_grid::babyai::BabyAiState>())
                .map(rl_object_grid::babyai::BabyAiState::world)
        })
        .map(MiniGridState::direction_is_drawn)
}

/// Whether the reset of `env`'s episode drew the agent's direction (`None` before the first
/// reset): minigrid's `agent_dir` is then a NumPy `int64`, else a Python `int`
/// (`MiniGridState::direction_is_drawn`). For a MiniGrid or a BabyAI environment; a
/// `TypeError` for another.
#[pyfunction]
fn minigrid_direction_drawn(env: &Bound<'_, PyEnvironment>) -> PyResult<Option<bool>> {
    let env = env.borrow();
    let inner = env.lock()?;
    let environment = &inner.environment;
    let domain = environment.domain_any();
    let is_minigrid = domain.is_some_and(|domain| domain.is::<MiniGrid>());
    let is_babyai = domain.is_some_and(|domain| domain.is::<rl_object_grid::babyai::BabyAi>());
    if !is_minigrid && !is_babyai {
        return Err(PyTypeError::new_err(format!(
            "{} is not a MiniGrid or BabyAI environment",
            env.id()
        )));
    }
    Ok(direction_drawn_of(environment.state_any()))
}

/// [`minigrid_direction_drawn`] for environment `index` of a vector of a MiniGrid or BabyAI
/// id (`None` for another id, an index beyond the vector, or before the first reset). Every
/// episode of an environment draws its direction or sets it as its generation code says (the
/// id's and parameters': `place_agent` with `rand_dir`, or a start direction), so after a
/// same-step autoreset the new episode's answer is the ended one's.
#[pyfunction]
fn minigrid_vector_direction_drawn(
    vector: &Bound<'_, PyVector>,
    index: usize,
) -> PyResult<Option<bool>> {
    vector
        .borrow()
        .with_state(index, |state| Ok(direction_drawn_of(state)))
}

/// minigrid's `get_frame(highlight, tile_size, agent_pov)` of `env`'s current state: a new
/// `(height, width, 3)` `uint8` array drawn by the tile renderer (the agent's view from its
/// point of view with `agent_pov`, else the whole grid, the cells it sees lightened when
/// `highlight`). A `ValueError` for a tile size outside 1 to 128 or a frame over 16 MiB, a
/// `RuntimeError` before the first reset.
#[pyfunction]
#[pyo3(signature = (env, tile_size, highlight = true, agent_pov = false))]
fn minigrid_frame<'py>(
    py: Python<'py>,
    env: &Bound<'py, PyEnvironment>,
    tile_size: i64,
    highlight: bool,
    agent_pov: bool,
) -> PyResult<Bound<'py, PyArray3<u8>>> {
    let tile = usize::try_from(tile_size)
        .ok()
        .filter(|tile| (1..=MAX_TILE_SIZE).contains(tile))
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "tile_size is {tile_size}; rlrs draws tiles of 1 to {MAX_TILE_SIZE} pixels"
            ))
        })?;
    let env = env.borrow();
    let (pixels, rows, columns) = with_minigrid(&env, |domain, state| {
        let state = started(state)?;
        let (width, height) = if agent_pov {
            (domain.view_size(), domain.view_size())
        } else {
            domain.grid_size()
        };
        let (rows, columns) = (height * tile, width * tile);
        let len = rows * columns * 3;
        if len > rl_object_grid::image::MAX_IMAGE_BYTES {
            return Err(PyValueError::new_err(format!(
                "a frame of {rows} by {columns} pixels takes {len} bytes, more than rlrs draws \
                 ({} bytes)",
                rl_object_grid::image::MAX_IMAGE_BYTES
            )));
        }
        let mut pixels = vec![0_u8; len];
        if agent_pov {
            domain.write_pov_frame(state, tile, &mut pixels, |byte| byte);
        } else {
            domain.write_full_frame(state, tile, highlight, &mut pixels, |byte| byte);
        }
        Ok((pixels, rows, columns))
    })?;
    PyArray1::from_vec(py, pixels).reshape([rows, columns, 3])
}

/// minigrid's `gen_obs_grid(size)` of `env`'s current state: `(cells, mask)`, `cells` the
/// view's cells as a `(size, size, 4)` `uint8` array indexed `[row, column]` (row 0 the
/// farthest; the carried object, or an empty cell, at the agent's cell), `mask` the cells the
/// agent sees, `(size, size)` `bool` indexed `[row, column]`. A `ValueError` for a size that is
/// not odd and between 3 and 63, a `RuntimeError` before the first reset.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn minigrid_view<'py>(
    py: Python<'py>,
    env: &Bound<'py, PyEnvironment>,
    size: i64,
) -> PyResult<(Bound<'py, PyArray3<u8>>, Bound<'py, PyArray2<bool>>)> {
    let env = env.borrow();
    let (cells, mask, side) = with_minigrid(&env, |domain, state| {
        let state = started(state)?;
        let side = usize::try_from(size).unwrap_or(0);
        let (cells, mask) = domain.view_grid(state, side).ok_or_else(|| {
            PyValueError::new_err(format!(
                "agent_view_size is {size}; a view is odd and between 3 and 63 cells"
            ))
        })?;
        Ok((cells, mask, side))
    })?;
    let bytes: Vec<u8> = cells.iter().flat_map(|cell| cell.to_bytes()).collect();
    Ok((
        PyArray1::from_vec(py, bytes).reshape([side, side, 4])?,
        PyArray1::from_vec(py, mask).reshape([side, side])?,
    ))
}

/// The generator of `env` (any id): PCG64's `(state, inc, buffered)` as numpy's
/// `bit_generator.state` holds them (`buffered` its `uinteger` when `has_uint32`, else
/// `None`). The MiniGrid environment object hands it out as its `np_random`.
#[pyfunction]
fn generator_state(env: &Bound<'_, PyEnvironment>) -> PyResult<(u128, u128, Option<u32>)> {
    let env = env.borrow();
    let state = env
        .lock()?
        .environment
        .random_state()
        .map_err(crate::core_error)?;
    let generator = state.generator();
    Ok((generator.state(), generator.inc(), generator.buffered_u32()))
}

/// Sets the generator of `env` to PCG64's `(state, inc, buffered)` (see
/// [`generator_state`]).
#[pyfunction]
fn set_generator_state(
    env: &Bound<'_, PyEnvironment>,
    state: u128,
    inc: u128,
    buffered: Option<u32>,
) -> PyResult<()> {
    let env = env.borrow();
    let generator = rl_core::NumpyGenerator::from_state(state, inc, buffered);
    env.lock()?
        .environment
        .set_random_state(rl_core::RandomState::new(generator))
        .map_err(crate::core_error)
}

/// Adds the functions of this module to `module`.
pub(crate) fn add_to_module(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(is_minigrid, module)?)?;
    module.add_function(wrap_pyfunction!(minigrid_domain, module)?)?;
    module.add_function(wrap_pyfunction!(minigrid_state, module)?)?;
    module.add_function(wrap_pyfunction!(minigrid_direction_drawn, module)?)?;
    module.add_function(wrap_pyfunction!(minigrid_vector_direction_drawn, module)?)?;
    module.add_function(wrap_pyfunction!(minigrid_frame, module)?)?;
    module.add_function(wrap_pyfunction!(minigrid_view, module)?)?;
    module.add_function(wrap_pyfunction!(generator_state, module)?)?;
    module.add_function(wrap_pyfunction!(set_generator_state, module)?)?;
    Ok(())
}
