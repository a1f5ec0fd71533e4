//! The BabyAI bot for Python: `BabyAiBot(env)`, minigrid 3.2.0's `BabyAIBot` over the Rust
//! state of an `rlrs._core.Environment` built from a `BabyAI-*` id
//! (`rl_object_grid::babyai::bot`), which `rlrs.BabyAIBot` wraps with minigrid's API.

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyAssertionError, PyAttributeError, PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use rl_object_grid::babyai::bot::{BabyAiBot, BotError};
use rl_object_grid::babyai::{BabyAi, BabyAiState};

use crate::single::PyEnvironment;

pyo3::create_exception!(
    _core,
    DisappearedBoxError,
    pyo3::exceptions::PyException,
    "A box was opened: minigrid's bot assumes it cannot solve the mission then (minigrid's \
     `DisappearedBoxError`)."
);

/// Calls `read` with the BabyAI domain and current state of `env`; a `TypeError` when `env`
/// is not a BabyAI environment, a `RuntimeError` before its first reset.
fn with_babyai<R>(
    env: &PyEnvironment,
    read: impl FnOnce(&BabyAi, &BabyAiState) -> PyResult<R>,
) -> PyResult<R> {
    let inner = env.lock()?;
    let domain = inner
        .environment
        .domain_any()
        .and_then(|domain| domain.downcast_ref::<BabyAi>())
        .ok_or_else(|| PyTypeError::new_err(format!("{} is not a BabyAI environment", env.id())))?;
    let state = inner
        .environment
        .state_any()
        .and_then(|state| state.downcast_ref::<BabyAiState>())
        .ok_or_else(|| {
            PyRuntimeError::new_err("the environment has no state yet: call reset() first")
        })?;
    read(domain, state)
}

/// A bot error as the exception minigrid's bot raises there.
fn bot_error(error: BotError) -> PyErr {
    let message = error.to_string();
    match error {
        BotError::Assertion(_) => PyAssertionError::new_err(message),
        BotError::DisappearedBox => DisappearedBoxError::new_err(message),
        BotError::MissingMemory(_) => PyAttributeError::new_err(message),
        BotError::NoPosition => PyTypeError::new_err(message),
        _ => PyRuntimeError::new_err(message),
    }
}

/// minigrid's `BabyAIBot` for the current episode of `env` (an `rlrs._core.Environment` of a
/// `BabyAI-*` id, reset): `replan(action_taken=None)` returns the action minigrid's bot
/// returns from the same state and history.
#[pyclass(module = "rlrs._core", name = "BabyAiBot")]
pub struct PyBabyAiBot {
    env: Py<PyEnvironment>,
    bot: BabyAiBot,
}

#[pymethods]
impl PyBabyAiBot {
    #[new]
    fn new(env: Bound<'_, PyEnvironment>) -> PyResult<Self> {
        let bot = with_babyai(&env.borrow(), |domain, state| {
            Ok(BabyAiBot::new(domain, state))
        })?;
        Ok(PyBabyAiBot {
            env: env.unbind(),
            bot,
        })
    }

    /// The suggested action from the environment's current state, after adjusting the plan
    /// to `action_taken` (the action taken since the last call; `None` at the first).
    /// Raises what minigrid's bot raises (`AssertionError`, `DisappearedBoxError`, ...), and
    /// `RuntimeError` where minigrid's would replan forever.
    #[pyo3(signature = (action_taken=None))]
    fn replan(&mut self, py: Python<'_>, action_taken: Option<i64>) -> PyResult<i64> {
        let env = self.env.bind(py).borrow();
        let bot = &mut self.bot;
        with_babyai(&env, |_, state| {
            bot.replan(state, action_taken).map_err(bot_error)
        })
    }

    /// The cells seen so far (minigrid's `vis_mask`): a `(width, height)` `bool` array
    /// indexed `[x, y]`.
    #[getter]
    fn vis_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let (width, height) = self.bot.grid_size();
        let seen = self.bot.seen();
        let by_column: Vec<bool> = (0..width)
            .flat_map(|x| (0..height).map(move |y| seen[y * width + x]))
            .collect();
        PyArray1::from_vec(py, by_column).reshape([width, height])
    }

    /// How many breadth-first searches the bot made (minigrid's `bfs_counter`).
    #[getter]
    fn bfs_counter(&self) -> u64 {
        self.bot.bfs_count()
    }

    /// How many cells they visited (minigrid's `bfs_step_counter`).
    #[getter]
    fn bfs_step_counter(&self) -> u64 {
        self.bot.bfs_steps()
    }

    /// The plan, bottom first, one string per subgoal (for debugging).
    #[getter]
    fn plan(&self) -> Vec<String> {
        self.bot.plan()
    }
}

/// Adds the class and its exception to `module`.
pub(crate) fn add_to_module(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<PyBabyAiBot>()?;
    module.add(
        "DisappearedBoxError",
        module.py().get_type::<DisappearedBoxError>(),
    )?;
    Ok(())
}
