//! The `seeded_space_samples` reference file (`testdata/reference/README.md`, "Seeded data"):
//! Gymnasium's `space.seed(s)` then `space.sample(...)` calls, replayed through
//! [`SeededSampler`] draw by draw, with the recorded masks, probabilities and Graph sizes.

use rl_spaces::{
    AnyArray, AnyElement, AnySpace, BoxSpace, DictSpace, Discrete, GraphInstance, GraphSpace,
    MultiBinary, MultiDiscrete, OneOfSpace, SampleMask, SeededSampler, SequenceLength,
    SequenceSpace, Text, TupleSpace,
};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::replay::{Checker, MismatchLocation, ReplayMode};

/// One seeded space and its recorded draws.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SpaceSampleCase {
    /// The case's name.
    pub name: String,
    /// The space in the reference files' neutral description.
    pub space: Value,
    /// The seed given once to `space.seed`.
    pub seed: u64,
    /// The `space.sample(**kwargs)` calls in order, with what they returned.
    pub draws: Vec<SpaceDraw>,
}

/// One recorded `space.sample(**kwargs)` call.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SpaceDraw {
    /// The keyword arguments: `mask`, `probability`, and a Graph's `num_nodes` and `num_edges`.
    pub kwargs: Map<String, Value>,
    /// What Gymnasium returned (arrays as `{dtype, shape, data}`).
    pub value: Value,
}

/// Replays one case: a [`SeededSampler`] seeded with the case's seed, sampled with each
/// draw's arguments, compared with the recorded value. Each draw counts as one checked step.
pub(crate) fn replay_space_case(checker: &mut Checker, case: &SpaceSampleCase) {
    let location = MismatchLocation::Trace {
        trace: case.name.clone(),
    };
    let space = match space_from_description(&case.space) {
        Ok(space) => space,
        Err(error) => {
            checker.fail(&location, "space", case.space.to_string(), error);
            return;
        }
    };
    let mut sampler = SeededSampler::new(space.clone(), case.seed);
    for (index, draw) in case.draws.iter().enumerate() {
        let location = MismatchLocation::Step {
            trace: case.name.clone(),
            t: index,
            mode: ReplayMode::SeededSpace,
        };
        checker.count_step();
        let mask = match mask_from_kwargs(&space, &draw.kwargs) {
            Ok(mask) => mask,
            Err(error) => {
                checker.fail(
                    &location,
                    "kwargs",
                    Value::Object(draw.kwargs.clone()).to_string(),
                    error,
                );
                continue;
            }
        };
        let actual = match sampler.sample(mask.as_ref()) {
            Ok(Some(element)) => element_to_reference(&space, &element),
            // A Discrete mask with no valid action: Gymnasium gives `start`, this crate `None`
            // (the file's one documented difference), both drawing nothing.
            Ok(None) => match no_valid_action_value(&space, mask.as_ref()) {
                Some(start) => start,
                None => Value::Null,
            },
            Err(error) => Value::String(format!("error: {error}")),
        };
        checker.equal(&location, "value", &draw.value, &actual);
    }
}

/// What Gymnasium returns where this crate returns `None`: `start` for a Discrete whose mask
/// is all zero.
fn no_valid_action_value(space: &AnySpace, mask: Option<&SampleMask>) -> Option<Value> {
    match (space, mask) {
        (AnySpace::Discrete(d), Some(SampleMask::Discrete(m))) if m.iter().all(|v| *v == 0) => {
            Some(Value::from(d.start()))
        }
        _ => None,
    }
}

/// The space of a neutral description (`gymnasium_spaces.json`'s, extended with Text,
/// Sequence, Graph and OneOf).
pub fn space_from_description(description: &Value) -> Result<AnySpace, String> {
    let kind = description["type"]
        .as_str()
        .ok_or("a space without a type")?;
    let error = |e: rl_spaces::SpaceError| e.to_string();
    let integers = |key: &str| -> Result<Vec<i64>, String> {
        let mut out = Vec::new();
        flatten_numbers(&description[key], &mut out)?;
        Ok(out.into_iter().map(|v| v as i64).collect())
    };
    Ok(match kind {
        "Discrete" => Discrete::with_start(
            description["n"].as_u64().ok_or("n")?,
            description["start"].as_i64().unwrap_or(0),
        )
        .map_err(error)?
        .into(),
        "Box" => box_from_description(description)?,
        "MultiDiscrete" => {
            let shape = nested_shape(&description["nvec"]);
            let array = |values: Vec<i64>| {
                ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&shape), values)
                    .map_err(|e| e.to_string())
            };
            MultiDiscrete::with_start(array(integers("nvec")?)?, array(integers("start")?)?)
                .map_err(error)?
                .into()
        }
        "MultiBinary" => {
            let shape: Vec<usize> = integers("shape")?.into_iter().map(|v| v as usize).collect();
            MultiBinary::new(&shape).map_err(error)?.into()
        }
        "Text" => Text::new(
            description["min_length"].as_u64().ok_or("min_length")? as usize,
            description["max_length"].as_u64().ok_or("max_length")? as usize,
            description["charset"].as_str().ok_or("charset")?,
        )
        .map_err(error)?
        .into(),
        "Tuple" => TupleSpace::new(children(&description["spaces"])?)
            .map_err(error)?
            .into(),
        "OneOf" => OneOfSpace::new(children(&description["spaces"])?)
            .map_err(error)?
            .into(),
        "Dict" => {
            let spaces = description["spaces"].as_object().ok_or("spaces")?;
            DictSpace::new(
                spaces
                    .iter()
                    .map(|(k, v)| space_from_description(v).map(|s| (k.clone(), s)))
                    .collect::<Result<Vec<_>, _>>()?,
            )
            .map_err(error)?
            .into()
        }
        "Sequence" => SequenceSpace::new(
            space_from_description(&description["feature_space"])?,
            description["stack"].as_bool().unwrap_or(false),
        )
        .map_err(error)?
        .into(),
        "Graph" => GraphSpace::new(
            space_from_description(&description["node_space"])?,
            match &description["edge_space"] {
                Value::Null => None,
                edge => Some(space_from_description(edge)?),
            },
        )
        .map_err(error)?
        .into(),
        other => return Err(format!("unknown space type {other}")),
    })
}

fn children(value: &Value) -> Result<Vec<AnySpace>, String> {
    value
        .as_array()
        .ok_or("spaces")?
        .iter()
        .map(space_from_description)
        .collect()
}

fn flatten_numbers(value: &Value, out: &mut Vec<f64>) -> Result<(), String> {
    match value {
        Value::Array(items) => items.iter().try_for_each(|v| flatten_numbers(v, out)),
        other => {
            out.push(
                other
                    .as_f64()
                    .ok_or_else(|| format!("expected a number, found {other}"))?,
            );
            Ok(())
        }
    }
}

fn nested_shape(value: &Value) -> Vec<usize> {
    match value {
        Value::Array(items) => {
            let mut shape = vec![items.len()];
            if let Some(first) = items.first() {
                shape.extend(nested_shape(first));
            }
            shape
        }
        _ => vec![],
    }
}

/// A Box of the neutral description: `low` and `high` flat, with `low_inf`/`high_inf` flags
/// for infinite bounds (written `null`).
fn box_from_description(description: &Value) -> Result<AnySpace, String> {
    let shape: Vec<usize> = description["shape"]
        .as_array()
        .ok_or("shape")?
        .iter()
        .map(|v| v.as_u64().map(|v| v as usize).ok_or("shape"))
        .collect::<Result<_, _>>()?;
    let bound = |key: &str, flags: &str, infinity: f64| -> Result<Vec<f64>, String> {
        let values = description[key].as_array().ok_or("bounds")?;
        let flags = description[flags].as_array().ok_or("flags")?;
        values
            .iter()
            .zip(flags)
            .map(|(v, inf)| {
                if inf.as_bool() == Some(true) {
                    Ok(infinity)
                } else {
                    v.as_f64().ok_or_else(|| format!("bound {v}"))
                }
            })
            .collect()
    };
    let low = bound("low", "low_inf", f64::NEG_INFINITY)?;
    let high = bound("high", "high_inf", f64::INFINITY)?;
    fn typed<T: rl_spaces::BoxScalar>(
        shape: &[usize],
        low: &[f64],
        high: &[f64],
    ) -> Result<AnySpace, String> {
        let convert = |values: &[f64]| -> Result<ndarray::ArrayD<T>, String> {
            let values = values
                .iter()
                .map(|v| T::from_f64(*v).ok_or_else(|| format!("{v} is not a {}", T::DTYPE.name())))
                .collect::<Result<Vec<T>, _>>()?;
            ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(shape), values)
                .map_err(|e| e.to_string())
        };
        BoxSpace::new(convert(low)?, convert(high)?)
            .map(AnySpace::from)
            .map_err(|e| e.to_string())
    }
    match description["dtype"].as_str().ok_or("dtype")? {
        "float32" => typed::<f32>(&shape, &low, &high),
        "float64" => typed::<f64>(&shape, &low, &high),
        "int8" => typed::<i8>(&shape, &low, &high),
        "int16" => typed::<i16>(&shape, &low, &high),
        "int32" => typed::<i32>(&shape, &low, &high),
        "int64" => typed::<i64>(&shape, &low, &high),
        "uint8" => typed::<u8>(&shape, &low, &high),
        "uint16" => typed::<u16>(&shape, &low, &high),
        "uint32" => typed::<u32>(&shape, &low, &high),
        "uint64" => typed::<u64>(&shape, &low, &high),
        other => Err(format!("unknown dtype {other}")),
    }
}

/// The [`SampleMask`] of a draw's keyword arguments (`mask` or `probability`, nested like the
/// space; Graph's `num_nodes` and `num_edges`).
pub fn mask_from_kwargs(
    space: &AnySpace,
    kwargs: &Map<String, Value>,
) -> Result<Option<SampleMask>, String> {
    let num_nodes = kwargs
        .get("num_nodes")
        .and_then(Value::as_u64)
        .map(|v| v as usize);
    let num_edges = kwargs
        .get("num_edges")
        .and_then(Value::as_u64)
        .map(|v| v as usize);
    let (value, probability) = match (kwargs.get("mask"), kwargs.get("probability")) {
        (Some(mask), None) => (Some(mask), false),
        (None, Some(p)) => (Some(p), true),
        (None, None) => (None, false),
        (Some(_), Some(_)) => return Err("both mask and probability".to_owned()),
    };
    let mask = match value {
        Some(value) => mask_from_value(space, value, probability)?,
        None => None,
    };
    if num_nodes.is_some() || num_edges.is_some() {
        let (nodes, edges) = match mask {
            Some(SampleMask::Graph { nodes, edges, .. }) => (nodes, edges),
            _ => (None, None),
        };
        return Ok(Some(SampleMask::Graph {
            num_nodes,
            num_edges,
            nodes,
            edges,
        }));
    }
    Ok(mask)
}

/// The flat data of an array written `{dtype, shape, data}`.
fn array_data(value: &Value) -> Result<Vec<f64>, String> {
    let mut out = Vec::new();
    flatten_numbers(&value["data"], &mut out)?;
    Ok(out)
}

fn int8s(value: &Value) -> Result<Vec<i8>, String> {
    Ok(array_data(value)?.into_iter().map(|v| v as i8).collect())
}

fn mask_from_value(
    space: &AnySpace,
    value: &Value,
    probability: bool,
) -> Result<Option<SampleMask>, String> {
    if value.is_null() {
        return Ok(None);
    }
    let list = |value: &Value| -> Result<Vec<Value>, String> {
        value
            .as_array()
            .cloned()
            .ok_or_else(|| format!("expected a list, found {value}"))
    };
    Ok(Some(match space {
        AnySpace::Discrete(_) if probability => SampleMask::DiscreteProbability(array_data(value)?),
        AnySpace::Discrete(_) => SampleMask::Discrete(int8s(value)?),
        AnySpace::MultiDiscrete(_) => {
            let entries = list(value)?;
            if probability {
                SampleMask::MultiDiscreteProbability(
                    entries.iter().map(array_data).collect::<Result<_, _>>()?,
                )
            } else {
                SampleMask::MultiDiscrete(entries.iter().map(int8s).collect::<Result<_, _>>()?)
            }
        }
        AnySpace::MultiBinary(_) if probability => {
            SampleMask::MultiBinaryProbability(array_data(value)?)
        }
        AnySpace::MultiBinary(_) => SampleMask::MultiBinary(int8s(value)?),
        AnySpace::Text(_) => {
            let parts = list(value)?;
            let length = parts.first().and_then(Value::as_u64).map(|v| v as usize);
            let charset = parts.get(1).filter(|v| !v.is_null());
            if probability {
                SampleMask::TextProbability {
                    length,
                    charset: charset.map(array_data).transpose()?,
                }
            } else {
                SampleMask::Text {
                    length,
                    charset: charset.map(int8s).transpose()?,
                }
            }
        }
        AnySpace::Sequence(s) => {
            let parts = list(value)?;
            let length = match parts.first() {
                None | Some(Value::Null) => SequenceLength::Geometric,
                Some(Value::Number(n)) => {
                    SequenceLength::Exactly(n.as_u64().ok_or("length")? as usize)
                }
                Some(array) => SequenceLength::ChooseFrom(
                    array_data(array)?.into_iter().map(|v| v as usize).collect(),
                ),
            };
            let feature = match parts.get(1) {
                Some(m) => mask_from_value(s.feature_space(), m, probability)?.map(Box::new),
                None => None,
            };
            SampleMask::Sequence { length, feature }
        }
        AnySpace::Tuple(t) => {
            let parts = list(value)?;
            SampleMask::Tuple(
                t.spaces()
                    .iter()
                    .zip(&parts)
                    .map(|(c, m)| mask_from_value(c, m, probability))
                    .collect::<Result<_, _>>()?,
            )
        }
        AnySpace::OneOf(t) => {
            let parts = list(value)?;
            SampleMask::OneOf(
                t.spaces()
                    .iter()
                    .zip(&parts)
                    .map(|(c, m)| mask_from_value(c, m, probability))
                    .collect::<Result<_, _>>()?,
            )
        }
        AnySpace::Dict(d) => {
            let parts = value.as_object().ok_or("expected an object of masks")?;
            SampleMask::Dict(
                d.spaces()
                    .iter()
                    .map(|(k, c)| {
                        mask_from_value(c, parts.get(k).unwrap_or(&Value::Null), probability)
                            .map(|m| (k.clone(), m))
                    })
                    .collect::<Result<_, _>>()?,
            )
        }
        AnySpace::Graph(g) => {
            let parts = list(value)?;
            let nodes = match parts.first() {
                Some(m) => mask_from_value(g.node_space(), m, probability)?.map(Box::new),
                None => None,
            };
            let edges = match (parts.get(1), g.edge_space()) {
                (Some(m), Some(edge_space)) => {
                    mask_from_value(edge_space, m, probability)?.map(Box::new)
                }
                _ => None,
            };
            SampleMask::Graph {
                num_nodes: None,
                num_edges: None,
                nodes,
                edges,
            }
        }
        other => return Err(format!("no mask for {other}")),
    }))
}

/// An array as the file writes it: `{dtype, shape, data}`, data flat in C order, float32
/// values as the float64 equal to them.
fn array_value(array: &AnyArray) -> Value {
    let data: Vec<Value> = match array {
        AnyArray::F32(a) => a.iter().map(|v| json!(f64::from(*v))).collect(),
        AnyArray::F64(a) => a.iter().map(|v| json!(*v)).collect(),
        AnyArray::I8(a) => a.iter().map(|v| json!(*v)).collect(),
        AnyArray::I16(a) => a.iter().map(|v| json!(*v)).collect(),
        AnyArray::I32(a) => a.iter().map(|v| json!(*v)).collect(),
        AnyArray::I64(a) => a.iter().map(|v| json!(*v)).collect(),
        AnyArray::U8(a) => a.iter().map(|v| json!(*v)).collect(),
        AnyArray::U16(a) => a.iter().map(|v| json!(*v)).collect(),
        AnyArray::U32(a) => a.iter().map(|v| json!(*v)).collect(),
        AnyArray::U64(a) => a.iter().map(|v| json!(*v)).collect(),
    };
    json!({"dtype": array.dtype().name(), "shape": array.shape(), "data": data})
}

/// An element as the file writes Gymnasium's value.
pub fn element_to_reference(space: &AnySpace, element: &AnyElement) -> Value {
    match (space, element) {
        (_, AnyElement::Int(v)) => json!(v),
        (_, AnyElement::Array(a)) => array_value(a),
        (_, AnyElement::Text(t)) => json!(t),
        (_, AnyElement::Value(v)) => v.clone(),
        (AnySpace::Tuple(t), AnyElement::Tuple(items)) => Value::Array(
            t.spaces()
                .iter()
                .zip(items)
                .map(|(s, x)| element_to_reference(s, x))
                .collect(),
        ),
        (AnySpace::Dict(d), AnyElement::Dict(items)) => Value::Object(
            d.spaces()
                .iter()
                .filter_map(|(k, s)| {
                    items
                        .get(k)
                        .map(|x| (k.clone(), element_to_reference(s, x)))
                })
                .collect(),
        ),
        (AnySpace::OneOf(o), AnyElement::OneOf(index, x)) => match o.spaces().get(*index) {
            Some(s) => json!([index, element_to_reference(s, x)]),
            None => Value::Null,
        },
        (AnySpace::Sequence(s), AnyElement::Sequence(items)) => {
            let stacked = match s.feature_space() {
                feature @ (AnySpace::Box(_) | AnySpace::Discrete(_)) if s.stack() => {
                    stacked_array(feature, items)
                }
                _ => None,
            };
            stacked.unwrap_or_else(|| {
                Value::Array(
                    items
                        .iter()
                        .map(|x| element_to_reference(s.feature_space(), x))
                        .collect(),
                )
            })
        }
        (AnySpace::Graph(_), AnyElement::Graph(graph)) => graph_value(graph),
        _ => Value::Null,
    }
}

/// A stacked sequence of Box or Discrete items as one array.
fn stacked_array(feature: &AnySpace, items: &[AnyElement]) -> Option<Value> {
    let (dtype, shape) = match feature {
        AnySpace::Box(b) => (b.dtype(), b.shape().to_vec()),
        _ => (rl_spaces::DType::I64, Vec::new()),
    };
    let mut data = Vec::new();
    for item in items {
        match element_to_reference(feature, item) {
            Value::Object(array) => data.extend(array.get("data")?.as_array()?.iter().cloned()),
            number => data.push(number),
        }
    }
    let mut full = vec![items.len()];
    full.extend(shape);
    Some(json!({"dtype": dtype.name(), "shape": full, "data": data}))
}

fn graph_value(graph: &GraphInstance) -> Value {
    let links = graph.edge_links.as_ref().map(|links| {
        let data: Vec<i64> = links.iter().flatten().copied().collect();
        json!({"dtype": "int32", "shape": [links.len(), 2], "data": data})
    });
    json!({
        "nodes": array_value(&graph.nodes),
        "edges": graph.edges.as_ref().map(array_value),
        "edge_links": links,
    })
}
