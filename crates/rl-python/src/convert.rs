//! Conversions between Python objects and [`AnyElement`]s: observations become NumPy arrays of
//! the dtype their space declares, actions are read from anything NumPy can convert.

use std::collections::BTreeMap;

use ndarray::ArrayD;
use numpy::{Element, PyArray, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use rl_spaces::{AnyArray, AnyElement, AnySpace, DType};

/// An owned NumPy array of `array`'s entries.
fn numpy_array<'py, T: Element + Clone>(py: Python<'py>, array: &ArrayD<T>) -> Bound<'py, PyAny> {
    PyArray::from_owned_array(py, array.clone()).into_any()
}

/// The Python value of an element: `int` for Discrete, a NumPy array of the element's dtype
/// for Box, MultiDiscrete and MultiBinary, a `tuple` for Tuple, a `dict` for Dict, and the
/// JSON value (through Python's `json`) for a finite set, a `str` for Text, a `tuple` of items
/// for Sequence (`rlrs.spaces.observation_converter` stacks them for a stacked Sequence), a
/// `gymnasium.spaces.GraphInstance` for Graph and `(index, element)` for OneOf.
pub(crate) fn element_to_python<'py>(
    py: Python<'py>,
    element: &rl_spaces::AnyElement,
) -> PyResult<Bound<'py, PyAny>> {
    use rl_spaces::AnyElement;
    Ok(match element {
        AnyElement::Int(value) => value.into_pyobject(py)?.into_any(),
        AnyElement::Array(array) => match &**array {
            AnyArray::F32(a) => numpy_array(py, a),
            AnyArray::F64(a) => numpy_array(py, a),
            AnyArray::I8(a) => numpy_array(py, a),
            AnyArray::I16(a) => numpy_array(py, a),
            AnyArray::I32(a) => numpy_array(py, a),
            AnyArray::I64(a) => numpy_array(py, a),
            AnyArray::U8(a) => numpy_array(py, a),
            AnyArray::U16(a) => numpy_array(py, a),
            AnyArray::U32(a) => numpy_array(py, a),
            AnyArray::U64(a) => numpy_array(py, a),
        },
        AnyElement::Tuple(children) => {
            let children = children
                .iter()
                .map(|child| element_to_python(py, child))
                .collect::<PyResult<Vec<_>>>()?;
            PyTuple::new(py, children)?.into_any()
        }
        AnyElement::Dict(entries) => {
            let dict = PyDict::new(py);
            for (key, child) in entries {
                dict.set_item(key, element_to_python(py, child)?)?;
            }
            dict.into_any()
        }
        AnyElement::Value(value) => json_to_python(py, value)?,
        AnyElement::Text(text) => text.into_pyobject(py)?.into_any(),
        AnyElement::Sequence(items) => {
            let items = items
                .iter()
                .map(|item| element_to_python(py, item))
                .collect::<PyResult<Vec<_>>>()?;
            PyTuple::new(py, items)?.into_any()
        }
        AnyElement::Graph(graph) => {
            let array = |array: &AnyArray| element_to_python(py, &AnyElement::from(array.clone()));
            let nodes = array(&graph.nodes)?;
            let edges = match &graph.edges {
                Some(edges) => array(edges)?,
                None => py.None().into_bound(py),
            };
            let links = match &graph.edge_links {
                Some(links) => {
                    // Gymnasium's edge links are int32; node indices are below 2^24.
                    let values: Vec<i32> = links.iter().flatten().map(|v| *v as i32).collect();
                    let array = ArrayD::from_shape_vec(vec![links.len(), 2], values)
                        .map_err(|error| PyValueError::new_err(error.to_string()))?;
                    numpy_array(py, &array)
                }
                None => py.None().into_bound(py),
            };
            py.import("gymnasium.spaces")?
                .getattr("GraphInstance")?
                .call1((nodes, edges, links))?
        }
        AnyElement::OneOf(index, item) => PyTuple::new(
            py,
            [
                index.into_pyobject(py)?.into_any(),
                element_to_python(py, item)?,
            ],
        )?
        .into_any(),
    })
}

/// The entries of `object` as an array of `T`, converted by `numpy.require` (C-contiguous and
/// aligned: reading an unaligned array panicked) with
/// the dtype `name`.
/// The most dimensions of an array the package reads (rust-numpy's limit; NumPy 2's is 64).
const MAX_DIMENSIONS: usize = 32;

/// The C-contiguous, aligned NumPy array of `T` (NumPy's dtype `name`) that `numpy.require`
/// makes of `object` (`object` itself when it already is one: no copy), borrowed for reading.
pub(crate) fn readonly_array<'py, T: Element>(
    object: &Bound<'py, PyAny>,
    name: &str,
) -> PyResult<PyReadonlyArrayDyn<'py, T>> {
    let py = object.py();
    let converted = py
        .import("numpy")?
        .call_method1("require", (object, name, "CA"))?;
    let array = converted.cast_into::<PyArrayDyn<T>>()?;
    // NumPy 2 makes arrays of up to 64 dimensions; rust-numpy panics reading more than 32.
    let dimensions = numpy::PyUntypedArrayMethods::ndim(&array);
    if dimensions > MAX_DIMENSIONS {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "an array of {dimensions} dimensions; arrays of more than {MAX_DIMENSIONS} are not read"
        )));
    }
    array.try_readonly().map_err(|error| {
        pyo3::exceptions::PyValueError::new_err(format!("the array cannot be read: {error}"))
    })
}

fn read_array<T: Element + Clone>(object: &Bound<'_, PyAny>, name: &str) -> PyResult<ArrayD<T>> {
    Ok(readonly_array::<T>(object, name)?.as_array().to_owned())
}

/// The numbers of an [`AnyArray`] (a Box's, MultiDiscrete's or MultiBinary's element, an
/// action array of a vector): NumPy's element type, with the variant that holds them.
pub(crate) trait ArrayNumber: Element + Copy {
    /// `array` as an [`AnyArray`].
    fn wrap(array: ArrayD<Self>) -> AnyArray;
    /// The array of `array`, when it holds numbers of this type.
    fn kept(array: &mut AnyArray) -> Option<&mut ArrayD<Self>>;
}

macro_rules! array_numbers {
    ($($type:ty => $variant:ident),*) => {$(
        impl ArrayNumber for $type {
            fn wrap(array: ArrayD<Self>) -> AnyArray {
                AnyArray::$variant(array)
            }

            fn kept(array: &mut AnyArray) -> Option<&mut ArrayD<Self>> {
                match array {
                    AnyArray::$variant(kept) => Some(kept),
                    _ => None,
                }
            }
        }
    )*};
}

array_numbers!(
    f32 => F32, f64 => F64, i8 => I8, i16 => I16, i32 => I32, i64 => I64,
    u8 => U8, u16 => U16, u32 => U32, u64 => U64
);

/// Runs `$body` with `$number` the [`ArrayNumber`] of the dtype `$dtype` (an expression of
/// [`PyResult`]), or returns a `TypeError` for a dtype the package does not read.
macro_rules! with_array_number {
    ($dtype:expr, $number:ident => $body:expr) => {
        with_array_number!(@each $dtype, $number, $body, F32 f32, F64 f64, I8 i8, I16 i16,
            I32 i32, I64 i64, U8 u8, U16 u16, U32 u32, U64 u64)
    };
    (@each $dtype:expr, $number:ident, $body:expr, $($variant:ident $type:ty),*) => {
        match $dtype {
            $(rl_spaces::DType::$variant => { type $number = $type; $body })*
            other => Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "arrays of dtype {} are not supported by the Python package",
                other.name()
            ))),
        }
    };
}
pub(crate) use with_array_number;

/// The element dtype and shape of an array action space (Box, MultiDiscrete, MultiBinary),
/// borrowed from the space (nothing allocated per step), or a `TypeError` naming `method`,
/// which takes only those.
pub(crate) fn array_action_form<'a>(
    space: &'a AnySpace,
    method: &str,
) -> PyResult<(DType, &'a [usize])> {
    match space {
        AnySpace::Box(space) => Ok((space.dtype(), space.shape())),
        AnySpace::MultiDiscrete(space) => Ok((DType::I64, space.shape())),
        AnySpace::MultiBinary(space) => Ok((DType::I8, space.shape())),
        other => Err(PyTypeError::new_err(format!(
            "{method} needs a Box, MultiDiscrete or MultiBinary action space, not {other}"
        ))),
    }
}

/// Writes `row`, the numbers of one action of shape `shape` in row-major order (as many as
/// the shape holds: the caller checked), into the action slot `slot`: in place when it
/// already holds an array of this type and shape (the environment's last action), so that a
/// vector's array actions allocate nothing from step to step.
pub(crate) fn write_action_row<T: ArrayNumber>(row: &[T], shape: &[usize], slot: &mut AnyElement) {
    if let AnyElement::Array(array) = slot {
        if let Some(kept) = T::kept(array) {
            if kept.shape() == shape {
                if let Some(entries) = kept.as_slice_mut() {
                    entries.copy_from_slice(row);
                    return;
                }
            }
        }
    }
    let array = ArrayD::from_shape_vec(ndarray::IxDyn(shape), row.to_vec())
        .expect("the caller checked that the row holds the shape's entries");
    *slot = AnyElement::from(T::wrap(array));
}

/// The array of `dtype` NumPy makes of `object`.
pub(crate) fn read_any_array(object: &Bound<'_, PyAny>, dtype: DType) -> PyResult<AnyArray> {
    with_array_number!(dtype, X => Ok(X::wrap(read_array::<X>(object, dtype.name())?)))
}

/// The element of `space` that `object` stands for: an integer for Discrete, an array-like
/// for Box, MultiDiscrete and MultiBinary (converted to the space's dtype), a sequence for
/// Tuple, a mapping for Dict, a JSON-able value for a finite set, a `str` for Text, an
/// iterable of items for Sequence (a tuple, or Gymnasium's stacked form), a `GraphInstance` for
/// Graph,
/// `(index, element)` for OneOf. Whether the element lies in
/// the space is the environment's check, not this one's.
pub(crate) fn element_from_python(
    space: &AnySpace,
    object: &Bound<'_, PyAny>,
) -> PyResult<rl_spaces::AnyElement> {
    use rl_spaces::AnyElement;
    Ok(match space {
        AnySpace::Discrete(_) => {
            let value: i64 = object.extract().map_err(|_| {
                // An integer (Python's or numpy's: it has `__index__`) that i64 cannot hold.
                if object.hasattr("__index__").unwrap_or(false) {
                    PyValueError::new_err(format!(
                        "invalid action {}: not an element of the action space {space}",
                        describe(object)
                    ))
                } else {
                    PyTypeError::new_err(format!(
                        "an action of {space} is an integer, found {}",
                        describe(object)
                    ))
                }
            })?;
            AnyElement::Int(value)
        }
        AnySpace::Box(space) => AnyElement::from(read_any_array(object, space.dtype())?),
        AnySpace::MultiDiscrete(_) => AnyElement::from(read_any_array(object, DType::I64)?),
        AnySpace::MultiBinary(_) => AnyElement::from(read_any_array(object, DType::I8)?),
        AnySpace::Tuple(tuple) => {
            let children = tuple.spaces();
            let length = object.len()?;
            if length != children.len() {
                return Err(PyValueError::new_err(format!(
                    "an element of {space} has {} entries, found {length}",
                    children.len()
                )));
            }
            let mut elements = Vec::with_capacity(length);
            for (index, child) in children.iter().enumerate() {
                elements.push(element_from_python(child, &object.get_item(index)?)?);
            }
            AnyElement::Tuple(elements)
        }
        AnySpace::Dict(dict) => {
            let mut elements = BTreeMap::new();
            for (key, child) in dict.spaces() {
                let value = object.get_item(key).map_err(|_| {
                    PyValueError::new_err(format!("an element of {space} has the key {key:?}"))
                })?;
                elements.insert(key.clone(), element_from_python(child, &value)?);
            }
            AnyElement::Dict(elements)
        }
        AnySpace::Text(_) => {
            let text: String = object.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "an element of {space} is a str, found {}",
                    describe(object)
                ))
            })?;
            AnyElement::Text(text)
        }
        AnySpace::Sequence(sequence) => {
            // A tuple of items, or a stacked array read along its first axis; a stacked
            // Sequence of Tuples or Dicts is a Tuple or Dict of stacked arrays, which
            // Gymnasium's own `iterate` splits into items.
            let feature = sequence.feature_space();
            let object =
                if sequence.stack() && matches!(feature, AnySpace::Tuple(_) | AnySpace::Dict(_)) {
                    let py = object.py();
                    let gymnasium_feature = py.import("rlrs.spaces")?.call_method1(
                        "space_from_definition",
                        (feature.to_definition().to_string(),),
                    )?;
                    let utils = py.import("gymnasium.vector.utils")?;
                    let batched = utils.call_method1("batch_space", (gymnasium_feature, 1))?;
                    utils.call_method1("iterate", (batched, object))?
                } else {
                    object.clone()
                };
            let mut items = Vec::new();
            for item in object.try_iter()? {
                items.push(element_from_python(sequence.feature_space(), &item?)?);
            }
            AnyElement::Sequence(items)
        }
        AnySpace::Graph(graph) => {
            let dtype_of = |space: &AnySpace| match space {
                AnySpace::Box(b) => b.dtype(),
                _ => DType::I64,
            };
            let nodes = read_any_array(&object.getattr("nodes")?, dtype_of(graph.node_space()))?;
            let edges = object.getattr("edges")?;
            let links = object.getattr("edge_links")?;
            let (edges, edge_links) = match (graph.edge_space(), edges.is_none(), links.is_none()) {
                (_, true, true) => (None, None),
                (Some(edge_space), false, false) => {
                    let edges = read_any_array(&edges, dtype_of(edge_space))?;
                    let links: ArrayD<i64> = read_array(&links, "int64")?;
                    if links.ndim() != 2 || links.shape()[1] != 2 {
                        return Err(PyValueError::new_err(format!(
                            "the edge links of an element of {space} have the shape (edges, 2), found {:?}",
                            links.shape()
                        )));
                    }
                    let links = links.outer_iter().map(|row| [row[0], row[1]]).collect();
                    (Some(edges), Some(links))
                }
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "an element of {space} has both edges and edge links or neither"
                    )));
                }
            };
            AnyElement::Graph(Box::new(rl_spaces::GraphInstance {
                nodes,
                edges,
                edge_links,
            }))
        }
        AnySpace::OneOf(one_of) => {
            let index: usize = object.get_item(0)?.extract()?;
            let child = one_of.spaces().get(index).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "an element of {space} starts with the index of one of its {} spaces, found {index}",
                    one_of.len()
                ))
            })?;
            AnyElement::OneOf(
                index,
                Box::new(element_from_python(child, &object.get_item(1)?)?),
            )
        }
        AnySpace::FiniteSet(_) | AnySpace::Empty(_) => {
            let py = object.py();
            let text: String = py
                .import("json")?
                .call_method1("dumps", (object,))?
                .extract()?;
            let value = serde_json::from_str(&text)
                .map_err(|error| PyValueError::new_err(format!("{error}")))?;
            AnyElement::Value(value)
        }
    })
}

/// The type and value of `object`, for error messages.
fn describe(object: &Bound<'_, PyAny>) -> String {
    let type_name = object
        .get_type()
        .name()
        .map(|name| name.to_string())
        .unwrap_or_else(|_| "an unknown type".to_owned());
    let text = object
        .repr()
        .map(|text| text.to_string())
        .unwrap_or_default();
    format!("{text} of type {type_name}")
}

/// A JSON value as the Python value `json.loads` gives (`None`, `bool`, `int`, `float`, `str`,
/// `list`, `dict`), built directly.
pub(crate) fn json_to_python<'py>(
    py: Python<'py>,
    value: &serde_json::Value,
) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::IntoPyObjectExt;
    use serde_json::Value;
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(flag) => flag.into_bound_py_any(py)?,
        Value::Number(number) => match (number.as_i64(), number.as_u64(), number.as_f64()) {
            (Some(integer), _, _) => integer.into_bound_py_any(py)?,
            (None, Some(integer), _) => integer.into_bound_py_any(py)?,
            (None, None, Some(float)) => float.into_bound_py_any(py)?,
            (None, None, None) => py.None().into_bound(py),
        },
        Value::String(text) => text.into_bound_py_any(py)?,
        Value::Array(items) => {
            let items = items
                .iter()
                .map(|item| json_to_python(py, item))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any()
        }
        Value::Object(entries) => {
            let dict = PyDict::new(py);
            for (key, item) in entries {
                dict.set_item(key, json_to_python(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// One info value as a Python value: `bool`, `int`, `float` or a `list` of floats, or, for the
/// rest, what [`json_to_python`] makes.
pub(crate) fn info_value_to_python<'py>(
    py: Python<'py>,
    value: &rl_core::InfoValue,
) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::IntoPyObjectExt;
    use rl_core::InfoValue;
    match value {
        InfoValue::Bool(flag) => flag.into_bound_py_any(py),
        InfoValue::Int(integer) => integer.into_bound_py_any(py),
        InfoValue::Float(float) => float.into_bound_py_any(py),
        InfoValue::Floats(floats) => Ok(PyList::new(py, floats.iter())?.into_any()),
        InfoValue::Json(value) => json_to_python(py, value),
    }
}

/// A step's or a reset's info as a Python `dict` (Gymnasium's `info`), its entries converted
/// by [`info_value_to_python`].
pub(crate) fn info_to_python<'py>(
    py: Python<'py>,
    info: &rl_core::Info,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (key, value) in info.iter() {
        dict.set_item(key, info_value_to_python(py, value)?)?;
    }
    Ok(dict)
}
