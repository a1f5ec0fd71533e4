//! Spaces, distributions and their JSON forms for reinforcement-learning environments.
//!
//! A *space* is a set of values an environment observes or acts with: [`Discrete`],
//! [`BoxSpace`] (and its allocation-free form [`ArrayBox`]), [`MultiDiscrete`],
//! [`MultiBinary`], [`Text`], the composites [`TupleSpace`], [`DictSpace`], [`SequenceSpace`],
//! [`GraphSpace`] and [`OneOfSpace`], [`FiniteSet`],
//! [`ImplicitSpace`] and [`EmptySpace`]. Their semantics follow Gymnasium's `spaces` module;
//! what each space can do is a trait it implements:
//!
//! | trait | capability |
//! |---|---|
//! | [`Space`] | membership (`contains`) |
//! | [`SampleSpace`] / [`TrySampleSpace`] | sampling with a generator passed in |
//! | [`FiniteSpace`] | counting, listing and numbering the elements |
//! | [`FlattenSpace`] | Gymnasium's `flatten` / `unflatten` into `f32` or `f64` buffers |
//! | [`JsonSpace`] | elements to and from JSON, batches in Gymnasium's `to_jsonable` layout |
//! | [`DynamicSpace`] | conversion to the dynamic [`AnySpace`] / [`AnyElement`] |
//!
//! Every [`AnySpace`] has a versioned JSON definition (see [`definition`]). Distributions
//! ([`DiscreteDistribution`], [`SingleValueDistribution`], [`ImplicitDistribution`]) follow
//! rand's idiom. Nothing here panics on bad input: constructors and readers return
//! [`SpaceError`].
//!
//! # Quick start
//!
//! ```
//! use rand::SeedableRng;
//! use rl_spaces::{AnySpace, BoxSpace, DictSpace, Discrete, JsonSpace, TrySampleSpace};
//!
//! // An observation space: a position in [-1, 1]^2 and one of four headings.
//! let space = AnySpace::from(DictSpace::new([
//!     ("position", BoxSpace::uniform(&[2], -1.0f32, 1.0)?.into()),
//!     ("heading", Discrete::new(4)?.into()),
//! ])?);
//!
//! // Its definition round-trips through JSON.
//! let definition = space.to_definition_string();
//! assert_eq!(AnySpace::from_definition_str(&definition)?, space);
//!
//! // Sampling is reproducible: the generator is passed in.
//! let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
//! let batch: Vec<_> = (0..3).filter_map(|_| space.try_sample(&mut rng)).collect();
//!
//! // A batch is written in Gymnasium's column-wise `to_jsonable` layout and read back.
//! let json = space.batch_to_jsonable(&batch)?;
//! assert_eq!(json["heading"].as_array().map(Vec::len), Some(3));
//! assert_eq!(space.batch_from_jsonable(&json)?, batch);
//! # Ok::<(), rl_spaces::SpaceError>(())
//! ```
//!
//! # Resource limits
//!
//! Space definitions may come from outside (a JSON file, a command line), so every space
//! obeys documented size limits, checked by its constructor before anything proportional to
//! the size is allocated; a space over a limit is [`SpaceError::TooLarge`]:
//!
//! | constant | limit |
//! |---|---|
//! | [`MAX_FLAT_LEN`] | 2^24 numbers in a space's flat vector (so at most 2^24 entries per element, `Discrete` `n` at most 2^24, `Tuple` and `Dict` at most 2^24 in all) |
//! | [`definition::MAX_BROADCAST_ENTRIES`] | 2^24 entries for one bound value broadcast over a Box shape in a definition |
//! | [`MAX_SEQUENCE_NESTING`] | Sequences nested at most 6 deep (a sample's expected size is `4^depth` items; this one is [`SpaceError::InvalidSpace`]) |
//!
//! Reading a batch of elements from JSON allocates in proportion to the document, which the
//! caller already holds, and each element is checked against its (bounded) space.
//!
//! # Randomness
//!
//! Every sampling function takes `rng: &mut R` with `R: rand::Rng + ?Sized`; there is no
//! hidden global generator. The value-stability test pins the samples a seeded
//! `rand_pcg::Pcg64` gives for every space, so a change of sampling order is caught.
//!
//! # Gymnasium's samples, masks and probabilities
//!
//! [`SeededSampler`] is a space seeded as Gymnasium's `space.seed(seed)` seeds it (composite
//! spaces seeding their children from their own generator, as Gymnasium does), whose
//! [`sample`](SeededSampler::sample) is Gymnasium's `space.sample(...)`, draw for draw, with
//! numpy's generator ([`NumpyGenerator`]). Every space takes Gymnasium's masks and
//! probabilities ([`SampleMask`]: Discrete, MultiDiscrete, MultiBinary with `2` for "either",
//! Text's length and charset, Sequence's length and item mask, through Tuple, Dict, OneOf and
//! Graph; Box refuses them, as in Gymnasium), each checked against its space with an error
//! naming the space and the problem; [`AnySpace::sample_masked`] draws with them from one
//! generator. Where Gymnasium returns `start` for a Discrete mask that allows nothing, this
//! crate returns `None`. `testdata/reference/seeded_space_samples.json` (Gymnasium 1.4.0)
//! is replayed by `rl-reference` with 0 mismatches; the differences beyond it are listed in
//! [`SeededSampler`]'s documentation.
//!
//! ```
//! use rl_spaces::{AnySpace, DictSpace, Discrete, SampleMask, SeededSampler, Text};
//! use std::collections::BTreeMap;
//!
//! let space = AnySpace::from(DictSpace::new([
//!     ("action", Discrete::new(4)?.into()),
//!     ("mission", Text::new(1, 6, "abc")?.into()),
//! ])?);
//! // gymnasium: space.seed(3); space.sample(mask={"action": np.array([0, 1, 1, 0], np.int8),
//! //                                              "mission": None})
//! let mut sampler = SeededSampler::new(space.clone(), 3);
//! let mask = SampleMask::Dict(BTreeMap::from([
//!     ("action".to_owned(), Some(SampleMask::Discrete(vec![0, 1, 1, 0]))),
//!     ("mission".to_owned(), None),
//! ]));
//! let sample = sampler.sample(Some(&mask))?.expect("two actions are allowed");
//! assert!(space.contains(&sample));
//! # use rl_spaces::Space;
//! # Ok::<(), rl_spaces::SpaceError>(())
//! ```
//!
//! # Features
//!
//! - `testing`: the conformance harness [`testing`], with [`testing::check_space`] and
//!   proptest strategies, for authors of their own spaces.

mod any;
mod array_box;
mod box_space;
mod columns;
mod composite;
pub mod definition;
mod dict;
mod discrete;
pub mod distribution;
mod empty;
mod error;
mod finite_set;
mod graph;
mod gymnasium_sampling;
mod implicit;
mod json;
mod limits;
mod mask;
mod multi_binary;
mod multi_discrete;
pub mod numpy_random;
mod one_of;
mod sampling;
mod scalar;
mod sequence;
mod space;
#[cfg(feature = "testing")]
pub mod testing;
mod text;
mod tuple;

pub use any::{AnyArray, AnyBox, AnyElement, AnySpace, DynamicSpace};
pub use array_box::ArrayBox;
pub use box_space::BoxSpace;
pub use columns::{Column, ColumnKey, ColumnKind, Columns};
pub use definition::parse_strict;
pub use dict::DictSpace;
pub use discrete::Discrete;
pub use distribution::{
    DiscreteDistribution, Distribution, ImplicitDistribution, SingleValueDistribution,
};
pub use empty::EmptySpace;
pub use error::SpaceError;
pub use finite_set::FiniteSet;
pub use graph::{DEFAULT_NUM_NODES, GraphInstance, GraphSpace};
pub use gymnasium_sampling::{SampleMask, SeededSampler, SequenceLength};
pub use implicit::ImplicitSpace;
pub use limits::MAX_FLAT_LEN;
pub use multi_binary::MultiBinary;
pub use multi_discrete::MultiDiscrete;
pub use numpy_random::{NumpyGenerator, SeedSequence};
pub use one_of::OneOfSpace;
pub use scalar::{BoxScalar, DType};
pub use sequence::{MAX_SEQUENCE_NESTING, SequenceSpace};
pub use space::{
    Elements, FiniteSpace, FlatScalar, FlattenSpace, JsonSpace, RowLayout, SampleSpace, Space,
    TrySampleSpace,
};
pub use text::{ALPHANUMERIC, Text};
pub use tuple::TupleSpace;
