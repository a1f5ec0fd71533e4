//! Structure-aware generators: JSON values, space definitions, elements, texts and their
//! mutations, all drawn from a seeded generator so that every input can be reproduced.

use std::collections::BTreeMap;

use ndarray::{ArrayD, IxDyn};
use rand::{Rng, RngExt};
use rl_core::NumpyGenerator;
use rl_spaces::AnyElement;
use serde_json::{Map, Value, json};

/// Integers at the edges that parsers and size checks get wrong.
pub(crate) fn interesting_u64(rng: &mut NumpyGenerator) -> u64 {
    const VALUES: [u64; 20] = [
        0,
        1,
        2,
        3,
        4,
        7,
        255,
        256,
        65_535,
        1 << 20,
        (1 << 20) + 1,
        1 << 24,
        (1 << 24) + 1,
        1 << 31,
        1 << 32,
        1 << 40,
        1_000_000_000_000,
        1 << 62,
        1 << 63,
        u64::MAX,
    ];
    if rng.random_bool(0.2) {
        rng.random::<u64>() >> rng.random_range(0..64)
    } else {
        VALUES[rng.random_range(0..VALUES.len())]
    }
}

/// A signed integer at an edge, or a small one.
pub(crate) fn interesting_i64(rng: &mut NumpyGenerator) -> i64 {
    match rng.random_range(0..6) {
        0 => i64::MIN,
        1 => i64::MAX,
        2 => (interesting_u64(rng) as i64).wrapping_neg(),
        3 => interesting_u64(rng) as i64,
        _ => rng.random_range(-5..6),
    }
}

/// A float at an edge (NaN, infinities, subnormals, the largest `f32`) or an ordinary one.
pub(crate) fn interesting_f64(rng: &mut NumpyGenerator) -> f64 {
    const VALUES: [f64; 16] = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        0.37,
        1e-310,
        f64::MIN_POSITIVE,
        3.4028234663852886e38,
        3.5e38,
        1e300,
        -1e300,
        f64::MAX,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    if rng.random_bool(0.5) {
        VALUES[rng.random_range(0..VALUES.len())]
    } else {
        let magnitude = 10f64.powi(rng.random_range(-6..7));
        (rng.random::<f64>() * 2.0 - 1.0) * magnitude
    }
}

/// A JSON number from the interesting values (non-finite floats become strings, as JSON has
/// no literal for them).
pub(crate) fn json_number(rng: &mut NumpyGenerator) -> Value {
    match rng.random_range(0..3) {
        0 => json!(interesting_u64(rng)),
        1 => json!(interesting_i64(rng)),
        _ => {
            let x = interesting_f64(rng);
            if x.is_finite() {
                json!(x)
            } else if x.is_nan() {
                json!("nan")
            } else if x > 0.0 {
                json!("inf")
            } else {
                json!("-inf")
            }
        }
    }
}

/// Characters that are easy to miss: invisible, control, combining, right-to-left, wide.
const TRICKY_CHARACTERS: [char; 14] = [
    '\u{feff}', '\u{a0}', '\u{200b}', '\u{7}', '\0', '\t', '\r', '\n', '\u{301}', '\u{202e}',
    '\u{fffd}', 'é', '日', '"',
];

/// A short string, sometimes with tricky characters.
pub(crate) fn short_string(rng: &mut NumpyGenerator) -> String {
    const WORDS: [&str; 12] = [
        "", "a", "x", "inf", "-inf", "nan", "Box", "Discrete", "float32", "noise", "map", "4x5",
    ];
    let mut text = WORDS[rng.random_range(0..WORDS.len())].to_owned();
    for _ in 0..rng.random_range(0..3) {
        let position = text
            .char_indices()
            .map(|(i, _)| i)
            .nth(rng.random_range(0..=text.chars().count()))
            .unwrap_or(text.len());
        text.insert(
            position,
            TRICKY_CHARACTERS[rng.random_range(0..TRICKY_CHARACTERS.len())],
        );
    }
    text
}

/// Keys that the readers know, so that random objects often reach deep code.
const KEYS: [&str; 24] = [
    "type",
    "n",
    "start",
    "shape",
    "low",
    "high",
    "dtype",
    "nvec",
    "spaces",
    "elements",
    "format",
    "version",
    "space",
    "noise",
    "tau",
    "map",
    "force_mag",
    "gravity",
    "episode_cap",
    "max_episode_steps",
    "x_threshold",
    "power",
    "seed",
    "a",
];

/// Any JSON value, at most `depth` levels deep.
pub(crate) fn json_value(rng: &mut NumpyGenerator, depth: u32) -> Value {
    let choices = if depth == 0 { 5 } else { 7 };
    match rng.random_range(0..choices) {
        0 => Value::Null,
        1 => Value::Bool(rng.random()),
        2 | 3 => json_number(rng),
        4 => Value::String(short_string(rng)),
        5 => Value::Array(
            (0..rng.random_range(0..5))
                .map(|_| json_value(rng, depth - 1))
                .collect(),
        ),
        _ => {
            let mut map = Map::new();
            for _ in 0..rng.random_range(0..4) {
                let key = if rng.random_bool(0.8) {
                    KEYS[rng.random_range(0..KEYS.len())].to_owned()
                } else {
                    short_string(rng)
                };
                map.insert(key, json_value(rng, depth - 1));
            }
            Value::Object(map)
        }
    }
}

/// A shape: mostly small, sometimes enormous or empty.
fn shape(rng: &mut NumpyGenerator) -> Value {
    let len = rng.random_range(0..4);
    Value::Array(
        (0..len)
            .map(|_| {
                if rng.random_bool(0.85) {
                    json!(rng.random_range(0..5))
                } else {
                    json!(interesting_u64(rng))
                }
            })
            .collect(),
    )
}

/// A per-entry parameter: one value, or a list of some length.
fn entries(
    rng: &mut NumpyGenerator,
    value: &mut impl FnMut(&mut NumpyGenerator) -> Value,
) -> Value {
    if rng.random_bool(0.4) {
        value(rng)
    } else {
        Value::Array((0..rng.random_range(0..7)).map(|_| value(rng)).collect())
    }
}

/// A bound of a Box: a small number, an edge value or the infinity strings.
fn bound(rng: &mut NumpyGenerator) -> Value {
    if rng.random_bool(0.7) {
        json!(rng.random_range(-3..4))
    } else {
        json_number(rng)
    }
}

/// A space definition (without the envelope), mostly well formed, `depth` levels of nesting
/// at most.
pub(crate) fn space_definition(rng: &mut NumpyGenerator, depth: u32) -> Value {
    const DTYPES: [&str; 11] = [
        "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
        "uint64", "float16",
    ];
    let kinds = if depth == 0 { 7 } else { 11 };
    let mut definition = match rng.random_range(0..kinds) {
        0 => {
            let n = if rng.random_bool(0.7) {
                json!(rng.random_range(0..10))
            } else {
                json_number(rng)
            };
            let mut object = json!({"type": "Discrete", "n": n});
            if rng.random_bool(0.4) {
                object["start"] = json!(interesting_i64(rng));
            }
            object
        }
        1 => json!({
            "type": "Box",
            "dtype": DTYPES[rng.random_range(0..DTYPES.len())],
            "shape": shape(rng),
            "low": entries(rng, &mut bound),
            "high": entries(rng, &mut bound),
        }),
        2 => {
            let mut object = json!({
                "type": "MultiDiscrete",
                "nvec": entries(rng, &mut |rng| if rng.random_bool(0.8) { json!(rng.random_range(0..5)) } else { json_number(rng) }),
            });
            if rng.random_bool(0.4) {
                object["shape"] = shape(rng);
            }
            if rng.random_bool(0.3) {
                object["start"] = entries(rng, &mut |rng| json!(interesting_i64(rng)));
            }
            object
        }
        3 => json!({"type": "MultiBinary", "shape": shape(rng)}),
        4 => json!({
            "type": "FiniteSet",
            "elements": (0..rng.random_range(0..5)).map(|_| json_value(rng, 1)).collect::<Vec<_>>(),
        }),
        5 => json!({"type": "Empty"}),
        6 => {
            let length = |rng: &mut NumpyGenerator| {
                if rng.random_bool(0.8) {
                    json!(rng.random_range(0..8))
                } else {
                    json_number(rng)
                }
            };
            let mut object = json!({"type": "Text", "max_length": length(rng)});
            if rng.random_bool(0.5) {
                object["min_length"] = length(rng);
            }
            if rng.random_bool(0.7) {
                object["charset"] = Value::String(short_string(rng));
            }
            object
        }
        7 => json!({
            "type": "Sequence",
            "feature_space": space_definition(rng, depth - 1),
            "stack": rng.random_bool(0.5),
        }),
        8 => json!({
            "type": "Graph",
            "node_space": space_definition(rng, depth - 1),
            "edge_space": if rng.random_bool(0.5) { space_definition(rng, depth - 1) } else { Value::Null },
        }),
        9 => json!({
            "type": "OneOf",
            "spaces": (0..rng.random_range(0..4)).map(|_| space_definition(rng, depth - 1)).collect::<Vec<_>>(),
        }),
        10 => json!({
            "type": "Tuple",
            "spaces": (0..rng.random_range(0..4)).map(|_| space_definition(rng, depth - 1)).collect::<Vec<_>>(),
        }),
        _ => {
            let mut spaces = Map::new();
            for _ in 0..rng.random_range(0..4) {
                spaces.insert(short_string(rng), space_definition(rng, depth - 1));
            }
            json!({"type": "Dict", "spaces": spaces})
        }
    };
    if rng.random_bool(0.1) {
        mutate_value(rng, &mut definition);
    }
    definition
}

/// The definition wrapped in the versioned document envelope, sometimes damaged.
pub(crate) fn space_document(rng: &mut NumpyGenerator) -> Value {
    let space = space_definition(rng, 3);
    let mut document = json!({"format": "rl-spaces/space", "version": 1, "space": space});
    if rng.random_bool(0.05) {
        document["version"] = json_number(rng);
    }
    if rng.random_bool(0.03) {
        document["format"] = Value::String(short_string(rng));
    }
    document
}

/// Replaces, removes or adds one node somewhere inside `value`.
pub(crate) fn mutate_value(rng: &mut NumpyGenerator, value: &mut Value) {
    // Go down a random path, stopping at a random depth.
    if rng.random_bool(0.7) {
        match value {
            Value::Array(items) if !items.is_empty() => {
                let i = rng.random_range(0..items.len());
                return mutate_value(rng, &mut items[i]);
            }
            Value::Object(map) if !map.is_empty() => {
                let i = rng.random_range(0..map.len());
                if let Some(child) = map.values_mut().nth(i) {
                    return mutate_value(rng, child);
                }
            }
            _ => {}
        }
    }
    match (rng.random_range(0..5), &mut *value) {
        (0, Value::Object(map)) if !map.is_empty() => {
            let i = rng.random_range(0..map.len());
            if let Some(key) = map.keys().nth(i).cloned() {
                map.remove(&key);
            }
        }
        (1, Value::Object(map)) => {
            map.insert(
                KEYS[rng.random_range(0..KEYS.len())].to_owned(),
                json_value(rng, 2),
            );
        }
        (2, Value::Array(items)) if !items.is_empty() => {
            let i = rng.random_range(0..items.len());
            if rng.random_bool(0.5) {
                items.remove(i);
            } else {
                let copy = items[i].clone();
                items.insert(i, copy);
            }
        }
        _ => *value = json_value(rng, 2),
    }
}

/// Damages a text: truncates it, inserts a tricky character, deletes or repeats a slice.
pub(crate) fn mutate_text(rng: &mut NumpyGenerator, text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = chars.clone();
    for _ in 0..rng.random_range(1..4) {
        let len = out.len();
        let at = rng.random_range(0..=len);
        match rng.random_range(0..5) {
            0 => out.truncate(at),
            1 => out.insert(
                at,
                TRICKY_CHARACTERS[rng.random_range(0..TRICKY_CHARACTERS.len())],
            ),
            2 if at < len => {
                let end = (at + rng.random_range(1..8)).min(len);
                out.drain(at..end);
            }
            3 if at < len => {
                let end = (at + rng.random_range(1..16)).min(len);
                let slice: Vec<char> = out[at..end].to_vec();
                let position = rng.random_range(0..=out.len());
                out.splice(position..position, slice);
            }
            _ => {
                let digit = char::from(b'0' + rng.random_range(0..10u8));
                if at < len {
                    out[at] = digit;
                } else {
                    out.push(digit);
                }
            }
        }
    }
    out.into_iter().collect()
}

/// An array element of a random dtype and small random shape, with edge values.
fn any_array(rng: &mut NumpyGenerator) -> AnyElement {
    let dims: Vec<usize> = (0..rng.random_range(0..3))
        .map(|_| rng.random_range(0..4))
        .collect();
    let len: usize = dims.iter().product();
    let shape = IxDyn(&dims);
    macro_rules! array {
        ($t:ty, $value:expr) => {{
            let values: Vec<$t> = (0..len).map(|_| $value).collect();
            match ArrayD::from_shape_vec(shape, values) {
                Ok(array) => AnyElement::from(array),
                Err(_) => AnyElement::Int(0),
            }
        }};
    }
    match rng.random_range(0..6) {
        0 => array!(f32, interesting_f64(rng) as f32),
        1 => array!(f64, interesting_f64(rng)),
        2 => array!(i64, interesting_i64(rng)),
        3 => array!(i8, rng.random_range(-2..3)),
        4 => array!(u8, rng.random()),
        _ => array!(u64, interesting_u64(rng)),
    }
}

/// Any dynamic element: integers, arrays of every dtype with NaN and infinities, strings,
/// tuples, dicts, sequences, graphs, one-ofs and JSON values.
pub(crate) fn any_element(rng: &mut NumpyGenerator, depth: u32) -> AnyElement {
    let kinds = if depth == 0 { 4 } else { 9 };
    match rng.random_range(0..kinds) {
        0 => AnyElement::Int(interesting_i64(rng)),
        1 => any_array(rng),
        2 => AnyElement::Value(json_value(rng, 1)),
        3 => AnyElement::Text(short_string(rng)),
        5 => AnyElement::Sequence(
            (0..rng.random_range(0..4))
                .map(|_| any_element(rng, depth - 1))
                .collect(),
        ),
        6 => AnyElement::OneOf(
            rng.random_range(0..3),
            Box::new(any_element(rng, depth - 1)),
        ),
        7 => {
            let nodes = match any_array(rng) {
                AnyElement::Array(array) => *array,
                _ => rl_spaces::AnyArray::I64(ndarray::ArrayD::zeros(ndarray::IxDyn(&[0]))),
            };
            let edges = match any_array(rng) {
                AnyElement::Array(array) if rng.random_bool(0.5) => Some(*array),
                _ => None,
            };
            let edge_links = rng.random_bool(0.5).then(|| {
                (0..rng.random_range(0..4))
                    .map(|_| [interesting_i64(rng), rng.random_range(-1..4)])
                    .collect()
            });
            AnyElement::Graph(Box::new(rl_spaces::GraphInstance {
                nodes,
                edges,
                edge_links,
            }))
        }
        4 => AnyElement::Tuple(
            (0..rng.random_range(0..3))
                .map(|_| any_element(rng, depth - 1))
                .collect(),
        ),
        _ => AnyElement::Dict(
            (0..rng.random_range(0..3))
                .map(|_| (short_string(rng), any_element(rng, depth - 1)))
                .collect::<BTreeMap<_, _>>(),
        ),
    }
}

/// Map text: rows of cell codes, sometimes ragged, with junk and tricky characters.
pub(crate) fn map_text(rng: &mut NumpyGenerator) -> String {
    let rows = rng.random_range(0..7);
    let cols = rng.random_range(1..7);
    let mut text = String::new();
    if rng.random_bool(0.05) {
        text.push('\u{feff}');
    }
    for _ in 0..rows {
        let row_len = if rng.random_bool(0.1) {
            rng.random_range(0..8)
        } else {
            cols
        };
        for c in 0..row_len {
            if c > 0 {
                text.push_str(match rng.random_range(0..20) {
                    0 => "\t",
                    1 => "  ",
                    2 => "\u{a0}",
                    _ => " ",
                });
            }
            match rng.random_range(0..30) {
                0 => text.push_str(&interesting_i64(rng).to_string()),
                1 => text.push_str(&short_string(rng)),
                2 => text.push('5'),
                3 => text.push_str("0.0"),
                _ => {
                    let code = *[0, 0, 0, 1, 2, 3, 4]
                        .get(rng.random_range(0..7))
                        .unwrap_or(&0);
                    text.push_str(&code.to_string());
                }
            }
        }
        text.push_str(match rng.random_range(0..10) {
            0 => "\r\n",
            1 => " \n",
            2 => "\n\n",
            _ => "\n",
        });
    }
    if rng.random_bool(0.1) {
        text = mutate_text(rng, &text);
    }
    text
}

/// Shortens every list longer than `keep` to its first `keep` items, recursively: a recorded
/// trace of thousands of steps becomes a small input with the same structure.
pub(crate) fn shorten_lists(value: &mut Value, keep: usize) {
    match value {
        Value::Array(items) => {
            items.truncate(keep);
            for item in items {
                shorten_lists(item, keep);
            }
        }
        Value::Object(map) => {
            for item in map.values_mut() {
                shorten_lists(item, keep);
            }
        }
        _ => {}
    }
}

/// A word drawn from `words`.
pub(crate) fn pick<'a, R: Rng + ?Sized>(rng: &mut R, words: &[&'a str]) -> &'a str {
    words[rng.random_range(0..words.len())]
}
