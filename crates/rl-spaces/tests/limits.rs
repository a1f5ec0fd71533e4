//! Regression tests for the size limits (issue 17): every definition that asked for an
//! enormous allocation, or made ndarray or `flatten` panic, is now refused at construction
//! with [`SpaceError::TooLarge`] naming the limit and the offending size.

use ndarray::{ArrayD, IxDyn};
use rand::SeedableRng;
use rl_spaces::{
    AnyElement, AnySpace, BoxSpace, DictSpace, Discrete, FiniteSet, FlattenSpace, JsonSpace,
    MAX_FLAT_LEN, MultiBinary, MultiDiscrete, SampleSpace, Space, SpaceError, TrySampleSpace,
    TupleSpace,
};
use serde_json::json;

/// The size a `TooLarge` error reports, or a failure naming what came instead.
fn too_large_size(result: Result<impl std::fmt::Debug, SpaceError>) -> u128 {
    match result {
        Err(SpaceError::TooLarge {
            size,
            limit,
            limit_name,
            ..
        }) => {
            assert_eq!(limit, MAX_FLAT_LEN);
            assert_eq!(limit_name, "rl_spaces::MAX_FLAT_LEN");
            size
        }
        other => panic!("expected a TooLarge error, got {other:?}"),
    }
}

/// Reads a definition document whose `space` is `space`.
fn read(space: serde_json::Value) -> Result<AnySpace, SpaceError> {
    let document = json!({"format": "rl-spaces/space", "version": 1, "space": space});
    AnySpace::from_definition_str(&document.to_string())
}

#[test]
fn the_limit_is_two_to_the_twenty_fourth() {
    assert_eq!(MAX_FLAT_LEN, 16_777_216);
}

#[test]
fn a_terabyte_multi_binary_is_refused_before_sampling() {
    // Issue 17: this definition was accepted and sampling it aborted on a 1 TB allocation.
    let error = read(json!({"type": "MultiBinary", "shape": [1_000_000_000_000u64]})).unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid JSON at $.space.shape: MultiBinary space too large: 1000000000000 entries, more \
         than the limit of 16777216 (rl_spaces::MAX_FLAT_LEN)"
    );
    assert_eq!(
        too_large_size(MultiBinary::new(&[1_000_000, 1_000_000])),
        1_000_000_000_000
    );
    // The limit itself is accepted, and such a space samples.
    let space = MultiBinary::new(&[1 << 12, 1 << 12]).unwrap();
    let sample = space.sample(&mut rand_pcg::Pcg64::seed_from_u64(0));
    assert_eq!(sample.len(), MAX_FLAT_LEN);
}

#[test]
fn a_discrete_too_large_to_flatten_samples_but_never_flattens_or_enumerates() {
    // Issue 17: Discrete(2^63) was accepted, then `flatten` panicked with "capacity overflow"
    // (and 2^40 aborted on memory). Since issue 34 any n is a space, as Gymnasium's
    // Discrete(2**40) is (sampled, checked, written to JSON), but one above MAX_FLAT_LEN is
    // neither flattened nor enumerated: an error or `None`, never an allocation of n.
    // Since issue 40, n above i64::MAX is refused, as Gymnasium's np.int64(n) refuses it.
    assert!(Discrete::new(1 << 63).is_err());
    assert!(Discrete::with_start(u64::MAX, i64::MIN).is_err());
    let mut rng = rand_pcg::Pcg64::seed_from_u64(0);
    for space in [
        Discrete::new(i64::MAX as u64).unwrap(),
        Discrete::new(1 << 40).unwrap(),
        Discrete::with_start(i64::MAX as u64, i64::MIN).unwrap(),
        Discrete::new(MAX_FLAT_LEN as u64 + 1).unwrap(),
    ] {
        assert!(!space.is_flattenable(), "{space}");
        assert_eq!(space.flat_dim(), 0, "{space}");
        assert_eq!(rl_spaces::FiniteSpace::cardinality(&space), None, "{space}");
        let x = space.sample(&mut rng);
        assert!(space.contains(&x));
        let error = space.flatten::<f32>(&x).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("cannot be flattened: its one-hot vector would have"),
            "{error}"
        );
        assert!(space.unflatten::<f32>(&[]).is_err());
        assert_eq!(
            space
                .element_from_json(&space.element_to_json(&x).unwrap())
                .unwrap(),
            x
        );
        // In a composite too: not flattenable, flattening an error.
        let tuple = TupleSpace::new(vec![space.into(), Discrete::new(3).unwrap().into()]).unwrap();
        assert!(!tuple.is_flattenable());
        assert!(
            tuple
                .flatten::<f32>(&vec![AnyElement::Int(x), AnyElement::Int(1)])
                .is_err()
        );
    }
    // Gymnasium's seeded sampling of them (rl-fuzz's space-json input 703 of seed 1 was 2^63
    // values from -2^62, refused since issue 40 as Gymnasium refuses it; one fewer is a space).
    let error =
        read(json!({"type": "Discrete", "n": 1u64 << 63, "start": -(1i64 << 62)})).unwrap_err();
    assert!(error.to_string().contains("does not fit in i64"), "{error}");
    let space =
        read(json!({"type": "Discrete", "n": (1u64 << 63) - 1, "start": -(1i64 << 62)})).unwrap();
    let mut sampler = rl_spaces::SeededSampler::new(space.clone(), 1);
    let x = sampler.sample(None).unwrap().expect("a sample");
    assert!(space.contains(&x), "{x:?}");
    // What cannot be a Discrete at all: start + n - 1 beyond i64.
    assert!(Discrete::with_start(u64::MAX, 0).is_err());
    let error = read(json!({"type": "Discrete", "n": u64::MAX})).unwrap_err();
    assert!(error.to_string().contains("does not fit in i64"), "{error}");
    // From JSON as Gymnasium writes it.
    let space = read(json!({"type": "Discrete", "n": 1u64 << 40})).unwrap();
    assert!(!space.is_flattenable());
    // The largest flattenable Discrete flattens.
    let space = Discrete::new(MAX_FLAT_LEN as u64).unwrap();
    assert!(space.is_flattenable());
    let flat: Vec<f32> = space.flatten(&3).unwrap();
    assert_eq!(flat.len(), MAX_FLAT_LEN);
    assert_eq!(flat[3], 1.0);
}

#[test]
fn multi_discrete_sizes_are_bounded() {
    // One huge entry: the one-hot flat vector would have 2^40 entries.
    let huge = MultiDiscrete::from_vec(vec![1 << 40]);
    assert_eq!(too_large_size(huge), 1 << 40);
    // Many moderate entries whose one-hot blocks add up past the limit.
    let many = MultiDiscrete::from_vec(vec![1 << 20; 17]);
    assert_eq!(too_large_size(many), 17 << 20);
    let error =
        read(json!({"type": "MultiDiscrete", "nvec": 2, "shape": [1u64 << 40]})).unwrap_err();
    // The shape is at fault, not `nvec` read after it.
    assert!(
        error
            .to_string()
            .contains("at $.space.shape: MultiDiscrete space too large"),
        "{error}"
    );
    assert!(
        error.to_string().contains("1099511627776 entries"),
        "{error}"
    );
    let error = read(json!({"type": "MultiDiscrete", "nvec": [i64::MAX]})).unwrap_err();
    assert!(error.to_string().contains("more than the limit"), "{error}");
}

#[test]
fn box_shapes_are_checked_before_ndarray_sees_them() {
    // Issue 17: `BoxSpace::uniform` with shape [2^62, 4] panicked inside ndarray.
    assert_eq!(
        too_large_size(BoxSpace::uniform(&[1 << 62, 4], 0.0f32, 1.0)),
        1 << 64
    );
    // A zero dimension does not make the other dimensions' product acceptable to ndarray.
    assert!(BoxSpace::uniform(&[0, 1 << 62, 4], 0.0f32, 1.0).is_err());
    assert!(BoxSpace::uniform(&[usize::MAX; 4], 0u8, 1).is_err());
    assert!(BoxSpace::uniform(&[0, 3], 0.0f64, 1.0).is_ok());
    // `new` refuses arrays over the limit too, even though the caller already allocated them.
    let big = ArrayD::<u8>::zeros(IxDyn(&[MAX_FLAT_LEN + 1]));
    assert_eq!(
        too_large_size(BoxSpace::new(big.clone(), big)),
        MAX_FLAT_LEN as u128 + 1
    );
    let error = read(
        json!({"type": "Box", "dtype": "float32", "shape": [1u64 << 62, 4], "low": 0, "high": 1}),
    )
    .unwrap_err();
    // The shape is at fault, not the bounds read after it.
    assert!(
        error
            .to_string()
            .contains("at $.space.shape: Box space too large"),
        "{error}"
    );
}

#[test]
fn composites_are_bounded_by_their_total_flat_length() {
    let half = || AnySpace::from(Discrete::new(1 << 23).unwrap());
    assert!(TupleSpace::new(vec![half(), half()]).is_ok());
    assert_eq!(
        too_large_size(TupleSpace::new(vec![half(), half(), half()])),
        3 << 23
    );
    assert_eq!(
        too_large_size(DictSpace::new([
            ("a", half()),
            ("b", half()),
            ("c", half())
        ])),
        3 << 23
    );
    let child = json!({"type": "MultiBinary", "shape": [1 << 23]});
    let error = read(json!({"type": "Tuple", "spaces": [child, child, child]})).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("Tuple space too large: 25165824"),
        "{error}"
    );
}

#[test]
fn finite_sets_are_bounded_and_read_in_linear_time() {
    // A set of 200 000 distinct values: the reader's duplicate check is linear (a quadratic
    // one would compare 2 * 10^10 pairs).
    let elements: Vec<_> = (0..200_000).map(|i| json!(i)).collect();
    let space = read(json!({"type": "FiniteSet", "elements": elements})).unwrap();
    assert!(space.contains(&AnyElement::Value(json!(199_999))));
    let error = read(json!({"type": "FiniteSet", "elements": [1, {"a": [0.0]}, 2, {"a": [-0.0]}]}))
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("$.space.elements: elements 1 and 3"),
        "{error}"
    );
    assert!(FiniteSet::new(vec![0.0, -0.0]).is_err());
}

#[test]
fn element_batches_read_from_json_are_checked_against_the_bounded_space() {
    let space = AnySpace::from(MultiBinary::new(&[2]).unwrap());
    // A batch whose elements claim a larger shape is refused, whatever the claimed size.
    let error = space
        .batch_from_jsonable(&json!([[0, 1], [0, 1, 1]]))
        .unwrap_err();
    assert!(error.to_string().contains("$[1]"), "{error}");
    let sampled: Vec<_> = (0..3)
        .filter_map(|_| space.try_sample(&mut rand_pcg::Pcg64::seed_from_u64(1)))
        .collect();
    let json = space.batch_to_jsonable(&sampled).unwrap();
    assert_eq!(space.batch_from_jsonable(&json).unwrap(), sampled);
}

#[test]
fn elements_are_displayed_as_users_write_them() {
    let action = AnyElement::from(ArrayD::from_elem(IxDyn(&[1]), f32::NAN));
    assert_eq!(action.to_string(), "[NaN]");
    let matrix =
        AnyElement::from(ArrayD::from_shape_vec(IxDyn(&[2, 2]), vec![1i64, 2, 3, 4]).unwrap());
    assert_eq!(matrix.to_string(), "[[1, 2], [3, 4]]");
    let floats = AnyElement::from(
        ArrayD::from_shape_vec(IxDyn(&[3]), vec![0.5f64, f64::INFINITY, -1.0]).unwrap(),
    );
    assert_eq!(floats.to_string(), "[0.5, inf, -1.0]");
    let dict = AnyElement::Dict(
        [
            ("speed".to_owned(), AnyElement::Int(1)),
            ("tag".to_owned(), AnyElement::Value(json!("a"))),
        ]
        .into_iter()
        .collect(),
    );
    assert_eq!(dict.to_string(), r#"{"speed": 1, "tag": "a"}"#);
    let scalar = AnyElement::from(ArrayD::from_elem(IxDyn(&[]), 7u8));
    assert_eq!(scalar.to_string(), "7");
    assert_eq!(
        AnyElement::Tuple(vec![AnyElement::Int(2), action]).to_string(),
        "(2, [NaN])"
    );
}

/// Issue 40 item 2: Sequences nested deeper than `MAX_SEQUENCE_NESTING` (through Tuples too)
/// are refused when built and when read from JSON (sampling one nested 50 deep would need
/// about 4^50 items); at the limit, a space builds and samples.
#[test]
fn deeply_nested_sequences_are_refused_before_sampling() {
    use rl_spaces::{MAX_SEQUENCE_NESTING, SequenceSpace};
    let nest = |depth: usize| -> Result<AnySpace, SpaceError> {
        let mut space = AnySpace::from(Discrete::new(3).unwrap());
        for level in 0..depth {
            let sequence = AnySpace::from(SequenceSpace::new(space, false)?);
            // Every other level inside a Tuple: the nesting is counted through composites.
            space = if level % 2 == 0 {
                AnySpace::from(TupleSpace::new(vec![sequence])?)
            } else {
                sequence
            };
        }
        Ok(space)
    };
    let at_limit = nest(MAX_SEQUENCE_NESTING).expect("the limit itself is allowed");
    let mut rng = rl_spaces::NumpyGenerator::seed_from_u64(7);
    for _ in 0..20 {
        let element = at_limit.try_sample(&mut rng).expect("a sample");
        assert!(at_limit.contains(&element));
    }
    let message = nest(MAX_SEQUENCE_NESTING + 1).unwrap_err().to_string();
    assert!(message.contains("nested 7 deep"), "{message}");

    // The same from a JSON definition nested 50 deep.
    let mut definition = json!({"type": "Discrete", "n": 2});
    for _ in 0..50 {
        definition = json!({"type": "Sequence", "feature_space": definition});
    }
    let error = AnySpace::from_definition(&definition)
        .unwrap_err()
        .to_string();
    assert!(error.contains("at most 6 are allowed"), "{error}");
}
