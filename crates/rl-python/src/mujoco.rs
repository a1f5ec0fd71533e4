//! What the Python package's MuJoCo frames (`rlrs.mujoco`) need from the Rust core: the ids,
//! an id's model file and time step, the library's version, and the copy of an environment's
//! state into a `mujoco.MjData` of the Python bindings, which Gymnasium's own renderer
//! (`MujocoRenderer`) then draws. Rust itself draws no MuJoCo frames.
//!
//! The copy is `mj_copyData` of the very library both sides loaded (the package points
//! `RL_MUJOCO_LIBRARY` at the `mujoco` package's file): this file holds the crate's one
//! `unsafe` block (ARCHITECTURE.md, "Unsafe code").

use std::any::Any;
use std::ffi::c_void;
use std::ptr::NonNull;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use rl_mujoco::{Data, ModelSource};

use crate::build_domain;
use crate::single::PyEnvironment;
use crate::vector::PyVector;

/// Gymnasium's MuJoCo v5 ids that this module's registry holds (all 11 in `rlrs._core`; none
/// in a domain author's module that does not register them), in registration order.
#[pyfunction]
fn mujoco_ids() -> Vec<&'static str> {
    rl_mujoco::registry::IDS
        .into_iter()
        .filter(|id| rl_core::registry::contains(id))
        .collect()
}

/// The MuJoCo library the Rust core opened: `(path, version)` (`"4.0.0"`), or a
/// `RuntimeError` saying how to get one.
#[pyfunction]
fn mujoco_library() -> PyResult<(String, String)> {
    let library = rl_mujoco::library::library()
        .map_err(|error| PyRuntimeError::new_err(error.to_string()))?;
    Ok((library.path().display().to_string(), library.version_text()))
}

/// The NumPy operation named `name`: `"dot"` or `"einsum"` (`rl_mujoco::NumpyOperation`).
fn numpy_operation(name: &str) -> PyResult<rl_mujoco::NumpyOperation> {
    match name {
        "dot" => Ok(rl_mujoco::NumpyOperation::Dot),
        "einsum" => Ok(rl_mujoco::NumpyOperation::Einsum),
        other => Err(PyValueError::new_err(format!(
            "the NumPy operation is \"dot\" or \"einsum\", not {other:?}"
        ))),
    }
}

/// How the MuJoCo tasks accumulate the sums of products of the NumPy operation `operation`
/// (`"dot"`, behind `np.linalg.norm`, or `"einsum"`, Humanoid's centre of mass): `"fused"` or
/// `"separate"` (`rl_mujoco::NumpyOperation`).
#[pyfunction]
fn mujoco_accumulation(operation: &str) -> PyResult<&'static str> {
    Ok(match rl_mujoco::accumulation(numpy_operation(operation)?) {
        rl_mujoco::Accumulation::Fused => "fused",
        rl_mujoco::Accumulation::Separate => "separate",
    })
}

/// Sets how the MuJoCo tasks accumulate the sums of products of the NumPy operation
/// `operation` (`"dot"` or `"einsum"`), `"fused"` or `"separate"`, for every environment of the
/// process from its next step on; the package sets both from what NumPy itself does
/// (`rlrs.mujoco.match_numpys_arithmetic`, when its first MuJoCo environment or vector is
/// made). A `ValueError` for another word.
#[pyfunction]
fn set_mujoco_accumulation(operation: &str, way: &str) -> PyResult<()> {
    let operation = numpy_operation(operation)?;
    let way = match way {
        "fused" => rl_mujoco::Accumulation::Fused,
        "separate" => rl_mujoco::Accumulation::Separate,
        other => {
            return Err(PyValueError::new_err(format!(
                "the accumulation is \"fused\" or \"separate\", not {other:?}"
            )));
        }
    };
    rl_mujoco::set_accumulation(operation, way);
    Ok(())
}

/// The model of the MuJoCo id `id` built with the JSON parameters `params_json`:
/// `(xml_file, frame_skip, dt, kind, source)`, where `kind` is `"text"` (one of Gymnasium's
/// model files, carried by the core: `source` is its MJCF text) or `"path"` (a file of the
/// user's: `source` is its path, `~` expanded). A `ValueError` for another id or invalid
/// parameters.
#[pyfunction]
fn mujoco_model(
    id: &str,
    params_json: Option<&str>,
) -> PyResult<(String, u32, f64, &'static str, String)> {
    let domain = build_domain(id, params_json)?;
    let setup = rl_mujoco::registry::setup_of(domain.as_any())
        .ok_or_else(|| PyValueError::new_err(format!("{id} is not a MuJoCo id")))?;
    let (kind, source) =
        match ModelSource::from_xml_file(setup.xml_file()).map_err(PyValueError::new_err)? {
            ModelSource::Asset(_, text) => ("text", text.to_owned()),
            ModelSource::Path(path) => ("path", path.display().to_string()),
        };
    Ok((
        setup.xml_file().to_owned(),
        setup.frame_skip(),
        setup.dt(),
        kind,
        source,
    ))
}

/// The address of `data`, which must be a `mujoco.MjData` (exactly that class) of the
/// Python bindings; a `TypeError` otherwise.
fn mjdata_address(data: &Bound<'_, PyAny>) -> PyResult<NonNull<c_void>> {
    let class = data.py().import("mujoco")?.getattr("MjData")?;
    if !data.get_type().is(&class) {
        return Err(PyTypeError::new_err(format!(
            "expected a mujoco.MjData, got {}",
            data.get_type().name()?
        )));
    }
    let address: usize = data.getattr("_address")?.extract()?;
    NonNull::new(address as *mut c_void)
        .ok_or_else(|| PyValueError::new_err("the mujoco.MjData has a null address"))
}

/// Copies `state` (a MuJoCo environment's state, or `None` before its first reset) into
/// `data`; false, copying nothing, without a state.
fn copy_state(state: Option<&dyn Any>, data: &Bound<'_, PyAny>, what: &str) -> PyResult<bool> {
    let Some(state) = state else {
        return Ok(false);
    };
    let state = state
        .downcast_ref::<Data>()
        .ok_or_else(|| PyTypeError::new_err(format!("{what} is not a MuJoCo environment")))?;
    let destination = mjdata_address(data)?;
    // SAFETY: `destination` is the mjData of a live `mujoco.MjData` (its exact class, checked
    // above, which `data` keeps alive during the call), made by the Python bindings' libmujoco:
    // the file the core opened too (`rlrs.mujoco` checks that the two versions agree before it
    // makes the MjData; `copy_into_raw` refuses an mjData of other sizes). The GIL is held, and
    // the MjData is the private one of `rlrs.mujoco`'s renderer, which no other thread uses.
    #[allow(unsafe_code)]
    unsafe { state.copy_into_raw(destination) }
        .map_err(|error| PyValueError::new_err(error.to_string()))?;
    Ok(true)
}

/// Copies the current state of `env`, a MuJoCo environment, into `data`, a `mujoco.MjData`
/// made for the same model (everything: the kinematics of the last step, the contacts, which
/// Gymnasium's renderer reads). Returns false, copying nothing, before the first reset.
#[pyfunction]
fn mujoco_copy_state(env: &Bound<'_, PyEnvironment>, data: &Bound<'_, PyAny>) -> PyResult<bool> {
    let env = env.borrow();
    let inner = env.lock()?;
    copy_state(inner.environment.state_any(), data, env.id())
}

/// Copies environment `index`'s current state of `vector`, a vector of a MuJoCo id, into
/// `data`, as [`mujoco_copy_state`] does; false before the first reset.
#[pyfunction]
fn mujoco_copy_vector_state(
    vector: &Bound<'_, PyVector>,
    index: usize,
    data: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    vector
        .borrow()
        .with_state(index, |state| copy_state(state, data, "the vector"))
}

/// Adds the MuJoCo functions to `module`.
pub(crate) fn add_to_module(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(mujoco_ids, module)?)?;
    module.add_function(wrap_pyfunction!(mujoco_library, module)?)?;
    module.add_function(wrap_pyfunction!(mujoco_model, module)?)?;
    module.add_function(wrap_pyfunction!(mujoco_accumulation, module)?)?;
    module.add_function(wrap_pyfunction!(set_mujoco_accumulation, module)?)?;
    module.add_function(wrap_pyfunction!(mujoco_copy_state, module)?)?;
    module.add_function(wrap_pyfunction!(mujoco_copy_vector_state, module)?)?;
    Ok(())
}
