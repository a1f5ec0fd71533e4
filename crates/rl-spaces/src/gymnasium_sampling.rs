//! Gymnasium's sampling, draw for draw: masks and probabilities for every space
//! ([`SampleMask`]), [`AnySpace::sample_masked`], and the seeded sampler [`SeededSampler`],
//! which reproduces `space.seed(s)` followed by `space.sample(...)` calls.
//!
//! Gymnasium gives every space its own generator: `space.seed(s)` seeds a leaf space with
//! `np.random.default_rng(s)`, and a composite with it too, after which the composite draws
//! one seed per child from it (`integers(2^31 - 1)` each: Tuple, Dict, OneOf, Sequence and
//! Graph), and seeds each child with its seed; OneOf, Sequence and Graph then seed themselves
//! again with `s`. [`SeededSampler`] holds that tree of generators. [`AnySpace::sample_masked`]
//! runs the same algorithms with one generator shared by every space of the tree.
//!
//! The algorithms (Gymnasium 1.4.0 over numpy 2.x):
//!
//! | space | draws |
//! |---|---|
//! | Discrete | `integers(n)`; a mask: `integers(k)` among the `k` allowed; probabilities: numpy's `choice` (one `random()`) |
//! | Box | by side, all entries of a kind before the next: normal (unbounded), exponential (bounded below), exponential (bounded above), then `uniform(low, high)` (bounded; `high + 1` and a floor for integers) |
//! | MultiDiscrete | `random()` per entry, times `nvec`, truncated; masks and probabilities entry by entry as Discrete |
//! | MultiBinary | `integers(0, 2, size, int8)` (bytes of 32-bit draws); a mask draws them all and keeps those where it is 2; probabilities: `random() <= p` per entry |
//! | Text | the length `integers(min, max + 1)` unless given, then one `choice` per character |
//! | Tuple, Dict | each child in order (Dict in sorted key order) |
//! | OneOf | `integers(len)` for the index, then that space |
//! | Sequence | the length `geometric(0.25)` unless given (or `choice` among given lengths), then each item |
//! | Graph | `integers(n (n - 1))` edges unless given (with `n > 1` nodes), the nodes and edges as batches of their spaces (drawn from a copy of the node and edge generators, each then advanced by one `random()`), then the links with `integers(0, n)` |
//!
//! Differences, each documented where it applies: an all-zero Discrete mask (or one entry's
//! mask of a MultiDiscrete) gives `None` instead of Gymnasium's `start`, drawing what
//! Gymnasium draws so that later draws agree; an integer Box whose range does not fit
//! float64's 53-bit mantissa draws exact integers (`integers(low, high + 1)` per entry), where
//! Gymnasium's float arithmetic is inexact or overflows. A Box's half-bounded and unbounded
//! sides and a Sequence's length draw numpy's ziggurat exponential and normal variates
//! ([`numpy_random::standard_normal`]), as Gymnasium does.

use std::collections::BTreeMap;

use ndarray::{ArrayD, IxDyn};
use rand::{Rng, SeedableRng};

use crate::graph::stack;
use crate::mask::{check_probabilities, check_probability_entries, check_sum_close_to_one};
use crate::numpy_random::{
    self, choice, choice_weighted, geometric, int8_bits, integers, random, uniform,
};
use crate::scalar::BoxScalar;
use crate::text::CharsetWeights;
use crate::{
    AnyArray, AnyBox, AnyElement, AnySpace, BoxSpace, DEFAULT_NUM_NODES, Discrete, GraphInstance,
    GraphSpace, MultiBinary, MultiDiscrete, NumpyGenerator, SequenceSpace, SpaceError,
};

/// The keyword arguments of one Gymnasium `sample(...)` call below a space: a mask or
/// probabilities for its kind of space, nested like the space (`None` for a child sampled
/// without), and for a Graph the numbers of nodes and edges.
///
/// Gymnasium takes `mask=` or `probability=` for a whole call; here each leaf says which it
/// holds, so a composite may mix them (a superset of Gymnasium's calls). Every mask is checked
/// against its space before anything is drawn, with an error naming the space and the problem
/// ([`SpaceError::InvalidMask`]).
///
/// ```
/// use rand::SeedableRng;
/// use rl_spaces::{AnySpace, Discrete, NumpyGenerator, SampleMask, TupleSpace, MultiBinary};
///
/// let space = AnySpace::from(TupleSpace::new(vec![
///     Discrete::new(3)?.into(),
///     MultiBinary::new(&[3])?.into(),
/// ])?);
/// // Only action 2, and the flags 1, either, 0 (MultiBinary's 2 means "either").
/// let mask = SampleMask::Tuple(vec![
///     Some(SampleMask::Discrete(vec![0, 0, 1])),
///     Some(SampleMask::MultiBinary(vec![1, 2, 0])),
/// ]);
/// let mut rng = NumpyGenerator::seed_from_u64(0);
/// let sample = space.sample_masked(Some(&mask), &mut rng)?.expect("an action is allowed");
/// let parts = sample.as_tuple().unwrap();
/// assert_eq!(parts[0].as_int(), Some(2));
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SampleMask {
    /// A Discrete's `int8` mask: 1 for an allowed value, 0 for a forbidden one, one per value.
    Discrete(Vec<i8>),
    /// A Discrete's probability of each value (non-negative, summing to 1).
    DiscreteProbability(Vec<f64>),
    /// A MultiDiscrete's mask of each entry, in row-major order (entry `i` has `nvec[i]`
    /// values).
    MultiDiscrete(Vec<Vec<i8>>),
    /// A MultiDiscrete's probabilities of each entry, in row-major order.
    MultiDiscreteProbability(Vec<Vec<f64>>),
    /// A MultiBinary's mask, in row-major order: 0 or 1 forces the value, 2 draws it.
    MultiBinary(Vec<i8>),
    /// A MultiBinary's probability that each entry is 1, in row-major order.
    MultiBinaryProbability(Vec<f64>),
    /// A Text's length (drawn if `None`) and charset mask (all allowed if `None`).
    Text {
        /// The number of characters, between `min_length` and `max_length`.
        length: Option<usize>,
        /// 1 for an allowed character, 0 for a forbidden one, one per character.
        charset: Option<Vec<i8>>,
    },
    /// A Text's length (drawn if `None`) and the probability of each character.
    TextProbability {
        /// The number of characters, between `min_length` and `max_length`.
        length: Option<usize>,
        /// The probability of each character of the charset (summing to 1).
        charset: Option<Vec<f64>>,
    },
    /// A Tuple's masks, one per child.
    Tuple(Vec<Option<SampleMask>>),
    /// A Dict's masks, one per key (every key present).
    Dict(BTreeMap<String, Option<SampleMask>>),
    /// A OneOf's masks, one per space; the drawn space's applies.
    OneOf(Vec<Option<SampleMask>>),
    /// A Sequence's length and the mask of every item.
    Sequence {
        /// How the length is chosen.
        length: SequenceLength,
        /// The mask of every item.
        feature: Option<Box<SampleMask>>,
    },
    /// A Graph's numbers of nodes and edges and the masks of every node and every edge.
    Graph {
        /// The number of nodes (Gymnasium's default is [`DEFAULT_NUM_NODES`]); at least 1.
        num_nodes: Option<usize>,
        /// The number of edges, drawn if `None` (none for a single node).
        num_edges: Option<usize>,
        /// The mask of every node (a Discrete's; Box refuses masks).
        nodes: Option<Box<SampleMask>>,
        /// The mask of every edge.
        edges: Option<Box<SampleMask>>,
    },
}

/// How a Sequence's length is chosen (the first entry of Gymnasium's Sequence mask).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum SequenceLength {
    /// `geometric(0.25)`, Gymnasium's default.
    #[default]
    Geometric,
    /// This length.
    Exactly(usize),
    /// One of these lengths, chosen with numpy's `choice`.
    ChooseFrom(Vec<usize>),
}

/// The generators of a space's tree: its own and its children's.
pub(crate) trait Generators {
    /// The generator type.
    type Rng: Rng + Clone;
    /// The space's own generator.
    fn own(&mut self) -> &mut Self::Rng;
    /// Child `index`'s generators.
    fn child(&mut self, index: usize) -> &mut Self;
    /// Whether every space has a generator of its own (Gymnasium's seeded spaces), rather
    /// than one generator shared by all.
    fn per_space(&self) -> bool;
}

/// One generator for the whole tree.
pub(crate) struct Shared<'a, R>(pub &'a mut R);

impl<R: Rng + Clone> Generators for Shared<'_, R> {
    type Rng = R;

    fn own(&mut self) -> &mut R {
        self.0
    }

    fn child(&mut self, _index: usize) -> &mut Self {
        self
    }

    fn per_space(&self) -> bool {
        false
    }
}

/// Gymnasium's generators of a seeded space: the space's own and each child's, in the order
/// Gymnasium seeds them (Tuple and OneOf children in order, Dict children in key order, a
/// Sequence's feature space, a Graph's node then edge space).
#[derive(Debug, Clone, PartialEq)]
struct GeneratorTree {
    own: NumpyGenerator,
    children: Vec<GeneratorTree>,
}

impl Generators for GeneratorTree {
    type Rng = NumpyGenerator;

    fn own(&mut self) -> &mut NumpyGenerator {
        &mut self.own
    }

    fn child(&mut self, index: usize) -> &mut Self {
        if index < self.children.len() {
            &mut self.children[index]
        } else {
            // The tree mirrors its space, so every child index exists.
            self
        }
    }

    fn per_space(&self) -> bool {
        true
    }
}

/// The largest child seed Gymnasium draws, exclusive: `np.iinfo(np.int32).max`.
const CHILD_SEED_BOUND: i64 = i32::MAX as i64;

impl GeneratorTree {
    /// Gymnasium's `space.seed(seed)` for an integer seed.
    fn seeded(space: &AnySpace, seed: u64) -> Self {
        let mut own = NumpyGenerator::seed_from_u64(seed);
        let children: Vec<&AnySpace> = match space {
            AnySpace::Tuple(s) => s.spaces().iter().collect(),
            AnySpace::Dict(s) => s.spaces().values().collect(),
            AnySpace::OneOf(s) => s.spaces().iter().collect(),
            AnySpace::Sequence(s) => vec![s.feature_space()],
            AnySpace::Graph(s) => std::iter::once(s.node_space())
                .chain(s.edge_space())
                .collect(),
            _ => Vec::new(),
        };
        let seeds: Vec<u64> = children
            .iter()
            .map(|_| integers(&mut own, 0, CHILD_SEED_BOUND).unwrap_or(0) as u64)
            .collect();
        if matches!(
            space,
            AnySpace::OneOf(_) | AnySpace::Sequence(_) | AnySpace::Graph(_)
        ) {
            // These seed themselves again so that an integer and a tuple seed agree.
            own = NumpyGenerator::seed_from_u64(seed);
        }
        GeneratorTree {
            own,
            children: children
                .into_iter()
                .zip(seeds)
                .map(|(child, seed)| GeneratorTree::seeded(child, seed))
                .collect(),
        }
    }
}

/// A space with Gymnasium's generators, seeded as `space.seed(seed)` seeds them: each
/// [`sample`](Self::sample) is Gymnasium's `space.sample(...)`, draw for draw.
///
/// Beside the space's `sample(&mut rng)` (which stays, with its own pinned sequence), this is
/// the sampler whose samples equal Gymnasium's for the same seed, so a random policy seeded in
/// Rust and in Python gives the same actions. Gymnasium's algorithms are followed draw for
/// draw (Box: all unbounded entries first, then those bounded below, above, and on both
/// sides; MultiBinary: bytes of 32-bit draws; a Graph's nodes and edges from copies of their
/// spaces' generators, as Gymnasium's `batch_space` copies them), with these differences:
///
/// - an all-zero Discrete mask (or one entry's mask of a MultiDiscrete) gives `None`, not
///   Gymnasium's `start`, after drawing what Gymnasium draws, so later draws agree;
/// - an integer Box whose bounds or range exceed 2^53 draws exact integers
///   (`integers(low, high + 1)` per entry), where Gymnasium's float64 arithmetic is inexact
///   or overflows (its samples may then leave the Box); an integer rounded up to `high + 1`
///   stays at `high`;
/// - a Discrete of more than 2^63 values (one with a negative `start`) samples, where numpy's
///   `integers(n)` refuses `n` beyond int64.
///
/// ```
/// use rl_spaces::{AnySpace, Discrete, SeededSampler};
///
/// // gymnasium: space = Discrete(7, start=-2); space.seed(1000); space.sample() -> -1
/// let mut sampler = SeededSampler::new(Discrete::with_start(7, -2)?.into(), 1000);
/// assert_eq!(sampler.sample(None)?.and_then(|x| x.as_int()), Some(-1));
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SeededSampler {
    space: AnySpace,
    generators: GeneratorTree,
}

impl SeededSampler {
    /// The space seeded as Gymnasium's `space.seed(seed)`.
    pub fn new(space: AnySpace, seed: u64) -> Self {
        let generators = GeneratorTree::seeded(&space, seed);
        SeededSampler { space, generators }
    }

    /// Seeds again, as another `space.seed(seed)` call.
    pub fn seed(&mut self, seed: u64) {
        self.generators = GeneratorTree::seeded(&self.space, seed);
    }

    /// The space.
    pub fn space(&self) -> &AnySpace {
        &self.space
    }

    /// Gymnasium's `space.sample(...)` with these keyword arguments (`None`: none).
    ///
    /// `Ok(None)` when a Discrete mask (or a MultiDiscrete entry's) allows nothing, where
    /// Gymnasium gives `start`, or when the space is empty; an error for a mask that does not
    /// fit the space (nothing is drawn then).
    pub fn sample(&mut self, mask: Option<&SampleMask>) -> Result<Option<AnyElement>, SpaceError> {
        validate(&self.space, mask)?;
        Ok(draw(&self.space, mask, &mut self.generators))
    }
}

impl AnySpace {
    /// Draws with Gymnasium's algorithms, and a mask or probabilities (see [`SampleMask`]),
    /// from one generator shared by the space and its children (a [`SeededSampler`] gives each
    /// space its own, as Gymnasium does).
    ///
    /// `Ok(None)` when a Discrete mask (or a MultiDiscrete entry's) allows nothing (Gymnasium
    /// gives `start`) or the space is empty; an error naming the space and the problem when
    /// the mask does not fit (checked before anything is drawn).
    pub fn sample_masked<R: Rng + Clone>(
        &self,
        mask: Option<&SampleMask>,
        rng: &mut R,
    ) -> Result<Option<AnyElement>, SpaceError> {
        validate(self, mask)?;
        Ok(draw(self, mask, &mut Shared(rng)))
    }
}

/// An [`SpaceError::InvalidMask`] for `space`.
fn invalid(space: &impl std::fmt::Display, reason: impl Into<String>) -> SpaceError {
    SpaceError::InvalidMask {
        space: space.to_string(),
        reason: reason.into(),
    }
}

/// Checks a 0/1 mask of `n` entries.
fn check_binary_mask(
    space: &impl std::fmt::Display,
    what: &str,
    mask: &[i8],
    n: usize,
) -> Result<(), SpaceError> {
    if mask.len() != n {
        return Err(invalid(
            space,
            format!("{what} has {} entries, expected {n}", mask.len()),
        ));
    }
    if let Some((i, v)) = mask.iter().enumerate().find(|(_, v)| !matches!(**v, 0 | 1)) {
        return Err(invalid(
            space,
            format!("{what} entry {i} is {v}; entries must be 0 or 1"),
        ));
    }
    Ok(())
}

/// Checks a Discrete's mask or probabilities.
fn check_discrete(
    space: &impl std::fmt::Display,
    n: usize,
    mask: &SampleMask,
    what: &str,
) -> Result<(), SpaceError> {
    match mask {
        SampleMask::Discrete(m) => check_binary_mask(space, what, m, n),
        SampleMask::DiscreteProbability(p) => {
            if p.len() != n {
                return Err(invalid(
                    space,
                    format!("{what} has {} probabilities, expected {n}", p.len()),
                ));
            }
            check_probabilities(p).map_err(|reason| invalid(space, format!("{what}: {reason}")))
        }
        other => Err(invalid(
            space,
            format!(
                "expected a Discrete mask or probabilities, found {}",
                mask_kind(other)
            ),
        )),
    }
}

/// The name of a mask's kind, for errors.
fn mask_kind(mask: &SampleMask) -> &'static str {
    match mask {
        SampleMask::Discrete(_) => "a Discrete mask",
        SampleMask::DiscreteProbability(_) => "Discrete probabilities",
        SampleMask::MultiDiscrete(_) => "a MultiDiscrete mask",
        SampleMask::MultiDiscreteProbability(_) => "MultiDiscrete probabilities",
        SampleMask::MultiBinary(_) => "a MultiBinary mask",
        SampleMask::MultiBinaryProbability(_) => "MultiBinary probabilities",
        SampleMask::Text { .. } => "a Text mask",
        SampleMask::TextProbability { .. } => "Text probabilities",
        SampleMask::Tuple(_) => "a Tuple of masks",
        SampleMask::Dict(_) => "a Dict of masks",
        SampleMask::OneOf(_) => "a OneOf of masks",
        SampleMask::Sequence { .. } => "a Sequence mask",
        SampleMask::Graph { .. } => "a Graph mask",
    }
}

/// Checks that `mask` fits `space`, everywhere, before anything is drawn.
fn validate(space: &AnySpace, mask: Option<&SampleMask>) -> Result<(), SpaceError> {
    let Some(mask) = mask else {
        // Without a mask every space draws a bounded element (a Graph its default 10 nodes).
        return Ok(());
    };
    let wrong = || {
        invalid(
            space,
            format!(
                "{} does not apply to a {} space",
                mask_kind(mask),
                space.kind()
            ),
        )
    };
    match (space, mask) {
        (AnySpace::Discrete(d), m) => check_discrete(d, d.n() as usize, m, "the mask"),
        (AnySpace::Box(b), _) => Err(invalid(
            b,
            "Box.sample cannot be provided a mask or probabilities (as in Gymnasium)",
        )),
        (AnySpace::MultiDiscrete(s), SampleMask::MultiDiscrete(masks)) => {
            check_entry_count(s, masks.len())?;
            for (i, (m, n)) in masks.iter().zip(s.nvec().iter()).enumerate() {
                check_binary_mask(s, &format!("the mask of entry {i}"), m, *n as usize)?;
            }
            Ok(())
        }
        (AnySpace::MultiDiscrete(s), SampleMask::MultiDiscreteProbability(ps)) => {
            check_entry_count(s, ps.len())?;
            for (i, (p, n)) in ps.iter().zip(s.nvec().iter()).enumerate() {
                if p.len() != *n as usize {
                    return Err(invalid(
                        s,
                        format!(
                            "the probabilities of entry {i} are {}, expected {n}",
                            p.len()
                        ),
                    ));
                }
                check_probability_entries(p)
                    .and_then(|()| check_sum_close_to_one(p).map(|_| ()))
                    .map_err(|reason| invalid(s, format!("entry {i}: {reason}")))?;
            }
            Ok(())
        }
        (AnySpace::MultiBinary(s), SampleMask::MultiBinary(m)) => {
            if m.len() != s.len() {
                return Err(invalid(
                    s,
                    format!("the mask has {} entries, expected {}", m.len(), s.len()),
                ));
            }
            match m.iter().enumerate().find(|(_, v)| !matches!(**v, 0..=2)) {
                Some((i, v)) => Err(invalid(
                    s,
                    format!("mask entry {i} is {v}; entries must be 0, 1 or 2"),
                )),
                None => Ok(()),
            }
        }
        (AnySpace::MultiBinary(s), SampleMask::MultiBinaryProbability(p)) => {
            if p.len() != s.len() {
                return Err(invalid(
                    s,
                    format!("{} probabilities, expected {}", p.len(), s.len()),
                ));
            }
            check_probability_entries(p).map_err(|reason| invalid(s, reason))
        }
        (AnySpace::Text(t), SampleMask::Text { length, charset }) => {
            // The text's own sampler checks the same; checking here draws nothing.
            t.check_weights(
                *length,
                charset
                    .as_deref()
                    .map_or(CharsetWeights::Uniform, CharsetWeights::Mask),
            )
        }
        (AnySpace::Text(t), SampleMask::TextProbability { length, charset }) => t.check_weights(
            *length,
            charset
                .as_deref()
                .map_or(CharsetWeights::Uniform, CharsetWeights::Probability),
        ),
        (AnySpace::Tuple(s), SampleMask::Tuple(masks)) => {
            if masks.len() != s.len() {
                return Err(invalid(
                    s,
                    format!(
                        "{} masks, expected one per child ({})",
                        masks.len(),
                        s.len()
                    ),
                ));
            }
            s.spaces()
                .iter()
                .zip(masks)
                .try_for_each(|(c, m)| validate(c, m.as_ref()))
        }
        (AnySpace::Dict(s), SampleMask::Dict(masks)) => {
            if !masks.keys().eq(s.spaces().keys()) {
                return Err(invalid(
                    s,
                    format!(
                        "masks for the keys {:?}, expected exactly the keys {:?}",
                        masks.keys().collect::<Vec<_>>(),
                        s.spaces().keys().collect::<Vec<_>>()
                    ),
                ));
            }
            s.spaces()
                .values()
                .zip(masks.values())
                .try_for_each(|(c, m)| validate(c, m.as_ref()))
        }
        (AnySpace::OneOf(s), SampleMask::OneOf(masks)) => {
            if masks.len() != s.len() {
                return Err(invalid(
                    s,
                    format!(
                        "{} masks, expected one per space ({})",
                        masks.len(),
                        s.len()
                    ),
                ));
            }
            s.spaces()
                .iter()
                .zip(masks)
                .try_for_each(|(c, m)| validate(c, m.as_ref()))
        }
        (AnySpace::Sequence(s), SampleMask::Sequence { length, feature }) => {
            match length {
                SequenceLength::Geometric => {}
                SequenceLength::Exactly(n) => {
                    s.check_length(*n as u128)?;
                }
                SequenceLength::ChooseFrom(lengths) => {
                    if lengths.is_empty() {
                        return Err(invalid(s, "the list of lengths to choose from is empty"));
                    }
                    for n in lengths {
                        s.check_length(*n as u128)?;
                    }
                }
            }
            validate(s.feature_space(), feature.as_deref())
        }
        (
            AnySpace::Graph(g),
            SampleMask::Graph {
                num_nodes,
                num_edges,
                nodes,
                edges,
            },
        ) => {
            let n = num_nodes.unwrap_or(DEFAULT_NUM_NODES);
            if n == 0 {
                return Err(invalid(g, "the number of nodes must be at least 1"));
            }
            // The most edges drawn when they are not given: n (n - 1) - 1.
            let m = num_edges.map_or((n as u128) * (n as u128 - 1), |m| m as u128);
            g.check_size(n as u128, m)?;
            if let Some(nodes) = nodes {
                validate(g.node_space(), Some(nodes))?;
            }
            match (g.edge_space(), edges) {
                (_, None) => Ok(()),
                (Some(edge_space), Some(edges)) => validate(edge_space, Some(edges)),
                (None, Some(_)) => Err(invalid(
                    g,
                    "an edge mask was given but the graph has no edge space",
                )),
            }
        }
        _ => Err(wrong()),
    }
}

fn check_entry_count(space: &MultiDiscrete, found: usize) -> Result<(), SpaceError> {
    if found != space.nvec().len() {
        return Err(invalid(
            space,
            format!(
                "{found} entry masks, expected one per entry ({})",
                space.nvec().len()
            ),
        ));
    }
    Ok(())
}

/// Draws an element of `space` with a mask already validated. `None` when a Discrete mask
/// allows nothing (after drawing what Gymnasium draws) or the space is empty.
pub(crate) fn draw<G: Generators>(
    space: &AnySpace,
    mask: Option<&SampleMask>,
    g: &mut G,
) -> Option<AnyElement> {
    match space {
        AnySpace::Discrete(d) => discrete(d, mask, g.own()).map(AnyElement::Int),
        AnySpace::Box(b) => Some(AnyElement::from(box_sample(b, 1, g.own()))),
        AnySpace::MultiDiscrete(s) => multi_discrete(s, mask, g.own()).map(AnyElement::from),
        AnySpace::MultiBinary(s) => Some(AnyElement::from(multi_binary(s, mask, g.own()))),
        AnySpace::Text(t) => {
            let (length, weights) = match mask {
                Some(SampleMask::Text { length, charset }) => (
                    *length,
                    charset
                        .as_deref()
                        .map_or(CharsetWeights::Uniform, CharsetWeights::Mask),
                ),
                Some(SampleMask::TextProbability { length, charset }) => (
                    *length,
                    charset
                        .as_deref()
                        .map_or(CharsetWeights::Uniform, CharsetWeights::Probability),
                ),
                _ => (None, CharsetWeights::Uniform),
            };
            t.sample_with(length, weights, g.own())
                .ok()
                .map(AnyElement::Text)
        }
        AnySpace::Tuple(s) => {
            let masks = match mask {
                Some(SampleMask::Tuple(masks)) => Some(masks),
                _ => None,
            };
            let items: Vec<Option<AnyElement>> = s
                .spaces()
                .iter()
                .enumerate()
                .map(|(i, child)| {
                    let m = masks.and_then(|m| m.get(i)).and_then(Option::as_ref);
                    draw(child, m, g.child(i))
                })
                .collect();
            items
                .into_iter()
                .collect::<Option<Vec<_>>>()
                .map(AnyElement::Tuple)
        }
        AnySpace::Dict(s) => {
            let masks = match mask {
                Some(SampleMask::Dict(masks)) => Some(masks),
                _ => None,
            };
            let items: Vec<(String, Option<AnyElement>)> = s
                .spaces()
                .iter()
                .enumerate()
                .map(|(i, (key, child))| {
                    let m = masks.and_then(|m| m.get(key)).and_then(Option::as_ref);
                    (key.clone(), draw(child, m, g.child(i)))
                })
                .collect();
            items
                .into_iter()
                .map(|(k, v)| v.map(|v| (k, v)))
                .collect::<Option<BTreeMap<_, _>>>()
                .map(AnyElement::Dict)
        }
        AnySpace::OneOf(s) => {
            let index = choice(g.own(), s.len()).unwrap_or(0);
            let m = match mask {
                Some(SampleMask::OneOf(masks)) => masks.get(index).and_then(Option::as_ref),
                _ => None,
            };
            draw(&s.spaces()[index], m, g.child(index))
                .map(|x| AnyElement::OneOf(index, Box::new(x)))
        }
        AnySpace::Sequence(s) => sequence(s, mask, g),
        AnySpace::Graph(s) => graph(s, mask, g).map(|x| AnyElement::Graph(Box::new(x))),
        AnySpace::FiniteSet(s) => {
            choice(g.own(), s.len()).map(|i| AnyElement::Value(s.as_slice()[i].clone()))
        }
        AnySpace::Empty(_) => None,
    }
}

/// Gymnasium's `Discrete.sample`: `None` for an all-zero mask, with nothing drawn.
fn discrete<R: Rng + ?Sized>(d: &Discrete, mask: Option<&SampleMask>, rng: &mut R) -> Option<i64> {
    let offset = match mask {
        Some(SampleMask::Discrete(m)) => {
            let allowed: Vec<usize> = m
                .iter()
                .enumerate()
                .filter(|(_, v)| **v == 1)
                .map(|(i, _)| i)
                .collect();
            allowed.get(choice(rng, allowed.len())?).copied()?
        }
        Some(SampleMask::DiscreteProbability(p)) => choice_weighted(rng, p)?,
        // numpy's integers(n): integers(0, n), one bounded draw of at most n - 1, for any n
        // (numpy refuses n above 2^63, which only a Discrete with a negative start has).
        _ => return d.element_at_offset(numpy_random::bounded_u64(rng, d.n() - 1)),
    };
    d.element_at_offset(offset as u64)
}

/// Gymnasium's `MultiDiscrete.sample`: `None` when an entry's mask allows nothing (after the
/// other entries are drawn, as Gymnasium draws them).
fn multi_discrete<R: Rng + ?Sized>(
    s: &MultiDiscrete,
    mask: Option<&SampleMask>,
    rng: &mut R,
) -> Option<ArrayD<i64>> {
    let mut allowed_everywhere = true;
    let values: Vec<i64> = match mask {
        Some(SampleMask::MultiDiscrete(masks)) => masks
            .iter()
            .zip(s.start().iter())
            .map(|(m, start)| {
                let allowed: Vec<usize> = m
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| **v == 1)
                    .map(|(i, _)| i)
                    .collect();
                match choice(rng, allowed.len()) {
                    Some(pick) => start + allowed[pick] as i64,
                    None => {
                        allowed_everywhere = false;
                        *start
                    }
                }
            })
            .collect(),
        Some(SampleMask::MultiDiscreteProbability(ps)) => ps
            .iter()
            .zip(s.start().iter())
            .map(|(p, start)| {
                // Gymnasium normalises by numpy's sum, then chooses among the positive entries.
                let sum = crate::mask::numpy_sum(p);
                let valid: Vec<usize> = p
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| **v > 0.0)
                    .map(|(i, _)| i)
                    .collect();
                let normalised: Vec<f64> = valid.iter().map(|i| p[*i] / sum).collect();
                start + choice_weighted(rng, &normalised).map_or(0, |k| valid[k] as i64)
            })
            .collect(),
        _ => s
            .nvec()
            .iter()
            .zip(s.start().iter())
            .map(|(n, start)| (random(rng) * *n as f64) as i64 + start)
            .collect(),
    };
    if !allowed_everywhere {
        return None;
    }
    ArrayD::from_shape_vec(IxDyn(s.shape()), values).ok()
}

/// Gymnasium's `MultiBinary.sample`.
fn multi_binary<R: Rng + ?Sized>(
    s: &MultiBinary,
    mask: Option<&SampleMask>,
    rng: &mut R,
) -> ArrayD<i8> {
    let values: Vec<i8> = match mask {
        Some(SampleMask::MultiBinary(m)) => {
            // Every entry is drawn, then the mask keeps the draws where it is 2.
            let bits = int8_bits(rng, s.len());
            m.iter()
                .zip(bits)
                .map(|(m, bit)| if *m == 2 { bit } else { *m })
                .collect()
        }
        Some(SampleMask::MultiBinaryProbability(p)) => {
            p.iter().map(|p| i8::from(random(rng) <= *p)).collect()
        }
        _ => int8_bits(rng, s.len()),
    };
    ArrayD::from_shape_vec(IxDyn(s.shape()), values).unwrap_or_else(|_| ArrayD::zeros(IxDyn(&[0])))
}

/// Gymnasium's `Sequence.sample`.
fn sequence<G: Generators>(
    s: &SequenceSpace,
    mask: Option<&SampleMask>,
    g: &mut G,
) -> Option<AnyElement> {
    let (length, feature) = match mask {
        Some(SampleMask::Sequence { length, feature }) => (length.clone(), feature.as_deref()),
        _ => (SequenceLength::Geometric, None),
    };
    let length = match length {
        SequenceLength::Exactly(n) => n,
        SequenceLength::ChooseFrom(lengths) => lengths[choice(g.own(), lengths.len())?],
        // A length beyond the limit has probability below 0.75^(2^24): it is cut there.
        SequenceLength::Geometric => {
            geometric(g.own(), 0.25).min(crate::MAX_FLAT_LEN as u64) as usize
        }
    };
    let child = g.child(0);
    let items: Vec<Option<AnyElement>> = (0..length)
        .map(|_| draw(s.feature_space(), feature, child))
        .collect();
    items
        .into_iter()
        .collect::<Option<Vec<_>>>()
        .map(AnyElement::Sequence)
}

/// Gymnasium's `Graph.sample`.
fn graph<G: Generators>(
    s: &GraphSpace,
    mask: Option<&SampleMask>,
    g: &mut G,
) -> Option<GraphInstance> {
    let (num_nodes, num_edges, node_mask, edge_mask) = match mask {
        Some(SampleMask::Graph {
            num_nodes,
            num_edges,
            nodes,
            edges,
        }) => (
            num_nodes.unwrap_or(DEFAULT_NUM_NODES),
            *num_edges,
            nodes.as_deref(),
            edges.as_deref(),
        ),
        _ => (DEFAULT_NUM_NODES, None, None, None),
    };
    let num_edges = match num_edges {
        Some(m) => m,
        None if num_nodes > 1 => {
            integers(g.own(), 0, (num_nodes * (num_nodes - 1)) as i64).unwrap_or(0) as usize
        }
        None => 0,
    };
    let nodes = batch(s.node_space(), num_nodes, node_mask, g.child(0))?;
    let (edges, edge_links) = match s.edge_space() {
        Some(edge_space) if num_edges >= 1 => {
            let edges = batch(edge_space, num_edges, edge_mask, g.child(1))?;
            let links = (0..num_edges)
                .map(|_| {
                    let from = integers(g.own(), 0, num_nodes as i64).unwrap_or(0);
                    let to = integers(g.own(), 0, num_nodes as i64).unwrap_or(0);
                    [from, to]
                })
                .collect();
            (Some(edges), Some(links))
        }
        _ => (None, None),
    };
    Some(GraphInstance {
        nodes,
        edges,
        edge_links,
    })
}

/// `count` elements of a Box or Discrete `space` stacked, drawn as Gymnasium's batched space
/// (`batch_space(space, count)`) draws them: from a copy of the space's generator, which then
/// advances by one `random()` (Gymnasium's `batch_space` deep-copies the generator).
fn batch<G: Generators>(
    space: &AnySpace,
    count: usize,
    mask: Option<&SampleMask>,
    g: &mut G,
) -> Option<AnyArray> {
    let per_space = g.per_space();
    let original = g.own();
    let mut copy = original.clone();
    let rng = if per_space { &mut copy } else { &mut *original };
    let stacked = match space {
        AnySpace::Discrete(d) => {
            // A batch of Discretes is a MultiDiscrete: one `random()` per element, or the
            // mask of every element.
            let values: Option<Vec<i64>> = (0..count)
                .map(|_| match mask {
                    Some(m) => discrete(d, Some(m), rng),
                    None => Some((random(rng) * d.n() as f64) as i64 + d.start()),
                })
                .collect();
            let values = values?;
            ArrayD::from_shape_vec(IxDyn(&[count]), values)
                .ok()
                .map(AnyArray::I64)
        }
        AnySpace::Box(b) => Some(box_sample(b, count, rng)),
        other => {
            let items: Option<Vec<AnyElement>> = (0..count)
                .map(|_| draw(other, mask, &mut Shared(rng)))
                .collect();
            stack(other, &items?)
        }
    };
    if per_space {
        random(g.own());
    }
    stacked
}

/// Gymnasium's `Box.sample` of `copies` stacked copies of `b` (one for a Box itself; more for
/// a Graph's batch of node or edge features).
fn box_sample<R: Rng + ?Sized>(b: &AnyBox, copies: usize, rng: &mut R) -> AnyArray {
    match b {
        AnyBox::F32(s) => box_typed(s, copies, rng).into(),
        AnyBox::F64(s) => box_typed(s, copies, rng).into(),
        AnyBox::I8(s) => box_typed(s, copies, rng).into(),
        AnyBox::I16(s) => box_typed(s, copies, rng).into(),
        AnyBox::I32(s) => box_typed(s, copies, rng).into(),
        AnyBox::I64(s) => box_typed(s, copies, rng).into(),
        AnyBox::U8(s) => box_typed(s, copies, rng).into(),
        AnyBox::U16(s) => box_typed(s, copies, rng).into(),
        AnyBox::U32(s) => box_typed(s, copies, rng).into(),
        AnyBox::U64(s) => box_typed(s, copies, rng).into(),
    }
}

/// The most an integer Box's bounds and range may be for Gymnasium's float64 arithmetic to be
/// exact: 2^53.
const EXACT_IN_F64: f64 = 9_007_199_254_740_992.0;

fn box_typed<T: BoxScalar, R: Rng + ?Sized>(
    b: &BoxSpace<T>,
    copies: usize,
    rng: &mut R,
) -> ArrayD<T> {
    let mut shape = Vec::with_capacity(b.shape().len() + 1);
    if copies != 1 {
        shape.push(copies);
    }
    shape.extend_from_slice(b.shape());
    let low: Vec<T> = b.low().iter().copied().collect();
    let high: Vec<T> = b.high().iter().copied().collect();
    let entries = low.len() * copies;
    let is_float = T::DTYPE.is_float();
    let exact_in_f64 = |v: T| v.to_f64().abs() < EXACT_IN_F64;
    if !is_float && !low.iter().chain(&high).all(|v| exact_in_f64(*v)) {
        // Gymnasium's float arithmetic is inexact (or overflows) here: exact integers instead,
        // `integers(low, high + 1)` per entry in row-major order.
        let values: Vec<T> = (0..entries)
            .map(|i| {
                let (l, h) = (low[i % low.len()], high[i % high.len()]);
                let count = T::count_between(l, h).unwrap_or(1);
                let offset = if count <= 1 {
                    0
                } else {
                    u128::from(numpy_random::bounded_u64(rng, (count - 1) as u64))
                };
                T::offset_from(l, offset).unwrap_or(l)
            })
            .collect();
        return ArrayD::from_shape_vec(IxDyn(&shape), values).unwrap_or_else(|_| {
            ArrayD::from_elem(IxDyn(&[0]), low.first().copied().unwrap_or(T::LOWEST))
        });
    }
    let lows: Vec<f64> = (0..entries).map(|i| low[i % low.len()].to_f64()).collect();
    let highs: Vec<f64> = (0..entries)
        .map(|i| high[i % high.len()].to_f64())
        .collect();
    // Integers draw up to `high + 1` and round down.
    let upper: Vec<f64> = highs
        .iter()
        .map(|h| if is_float { *h } else { h + 1.0 })
        .collect();
    let below: Vec<bool> = lows.iter().map(|l| *l > f64::NEG_INFINITY).collect();
    let above: Vec<bool> = highs.iter().map(|h| *h < f64::INFINITY).collect();
    let mut sample = vec![0.0f64; entries];
    for i in 0..entries {
        if !below[i] && !above[i] {
            sample[i] = numpy_random::standard_normal(rng);
        }
    }
    for i in 0..entries {
        if below[i] && !above[i] {
            sample[i] = numpy_random::standard_exponential(rng) + lows[i];
        }
    }
    for i in 0..entries {
        if !below[i] && above[i] {
            sample[i] = -numpy_random::standard_exponential(rng) + upper[i];
        }
    }
    for i in 0..entries {
        if below[i] && above[i] {
            sample[i] = uniform(rng, lows[i], upper[i]);
        }
    }
    let values: Vec<T> = sample
        .iter()
        .enumerate()
        .map(|(i, x)| {
            if is_float {
                T::from_f64_rounded(*x)
            } else {
                // Round down, and stay within the bounds (Gymnasium clips to the dtype's range;
                // the bounds lie within it, and rounding up to `high + 1` is kept out).
                T::from_f64_rounded(x.floor().clamp(lows[i], highs[i]))
            }
        })
        .collect();
    ArrayD::from_shape_vec(IxDyn(&shape), values).unwrap_or_else(|_| {
        ArrayD::from_elem(IxDyn(&[0]), low.first().copied().unwrap_or(T::LOWEST))
    })
}
