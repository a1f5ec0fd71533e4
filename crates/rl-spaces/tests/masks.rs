//! Masks and probabilities on every space (Gymnasium's `sample(mask=..., probability=...)`),
//! and the seeded sampler: validation names the space and the problem, masked samples obey
//! their masks, and the same seed gives the same samples.

use std::collections::BTreeMap;

use rand::SeedableRng;
use rl_spaces::testing::example_spaces;
use rl_spaces::{
    AnySpace, BoxSpace, DictSpace, Discrete, GraphSpace, MultiBinary, MultiDiscrete,
    NumpyGenerator, OneOfSpace, SampleMask, SeededSampler, SequenceLength, SequenceSpace, Space,
    SpaceError, Text, TupleSpace,
};

fn error_text(space: AnySpace, mask: SampleMask) -> String {
    let mut rng = NumpyGenerator::seed_from_u64(0);
    let untouched = rng.clone();
    let error = space
        .sample_masked(Some(&mask), &mut rng)
        .expect_err("the mask is invalid");
    assert!(matches!(error, SpaceError::InvalidMask { .. }), "{error:?}");
    assert_eq!(rng, untouched, "an invalid mask must draw nothing");
    error.to_string()
}

#[test]
fn invalid_masks_name_the_space_and_the_problem() {
    let discrete = AnySpace::from(Discrete::new(3).unwrap());
    assert_eq!(
        error_text(discrete.clone(), SampleMask::Discrete(vec![1, 0])),
        "invalid mask for Discrete(3): the mask has 2 entries, expected 3"
    );
    assert_eq!(
        error_text(discrete.clone(), SampleMask::Discrete(vec![1, 0, 2])),
        "invalid mask for Discrete(3): the mask entry 2 is 2; entries must be 0 or 1"
    );
    assert!(
        error_text(
            discrete.clone(),
            SampleMask::DiscreteProbability(vec![0.5, 0.6, 0.0])
        )
        .contains("sum to 1.1")
    );
    assert!(
        error_text(
            discrete,
            SampleMask::DiscreteProbability(vec![1.5, -0.5, 0.0])
        )
        .contains("probability 0 is 1.5")
    );
    let boxed = AnySpace::from(BoxSpace::uniform(&[2], -1.0f32, 1.0).unwrap());
    assert!(
        error_text(boxed, SampleMask::Discrete(vec![1, 1]))
            .contains("Box.sample cannot be provided a mask")
    );
    let binary = AnySpace::from(MultiBinary::new(&[2]).unwrap());
    assert!(
        error_text(binary, SampleMask::MultiBinary(vec![0, 3]))
            .contains("mask entry 1 is 3; entries must be 0, 1 or 2")
    );
    let multi = AnySpace::from(MultiDiscrete::from_vec(vec![2, 3]).unwrap());
    let text = error_text(
        multi,
        SampleMask::MultiDiscreteProbability(vec![vec![0.5, 0.5], vec![0.5, 0.2, 0.2]]),
    );
    assert!(
        text.contains("entry 1: the probabilities sum to 0.8999999999999999, not 1"),
        "{text}"
    );
    let text = AnySpace::from(Text::new(1, 3, "ab").unwrap());
    assert!(
        error_text(
            text.clone(),
            SampleMask::Text {
                length: Some(4),
                charset: None
            }
        )
        .contains("the length 4 is not between min_length 1 and max_length 3")
    );
    assert!(
        error_text(
            text,
            SampleMask::Text {
                length: None,
                charset: Some(vec![0, 0])
            }
        )
        .contains("allows no character but min_length is 1")
    );
    let dict = AnySpace::from(DictSpace::new([("a", Discrete::new(2).unwrap().into())]).unwrap());
    assert!(
        error_text(
            dict,
            SampleMask::Dict(BTreeMap::from([("b".to_owned(), None)]))
        )
        .contains("masks for the keys [\"b\"], expected exactly the keys [\"a\"]")
    );
    let tuple = AnySpace::from(TupleSpace::new(vec![Discrete::new(2).unwrap().into()]).unwrap());
    // A child's problem is named with the child.
    assert_eq!(
        error_text(
            tuple,
            SampleMask::Tuple(vec![Some(SampleMask::Discrete(vec![1]))])
        ),
        "invalid mask for Discrete(2): the mask has 1 entries, expected 2"
    );
    let graph = AnySpace::from(GraphSpace::new(Discrete::new(2).unwrap().into(), None).unwrap());
    assert!(
        error_text(
            graph.clone(),
            SampleMask::Graph {
                num_nodes: Some(0),
                num_edges: None,
                nodes: None,
                edges: None
            }
        )
        .contains("at least 1")
    );
    // Untrusted sizes are checked against the crate's limit before anything is drawn.
    let error = graph
        .sample_masked(
            Some(&SampleMask::Graph {
                num_nodes: Some(1 << 40),
                num_edges: None,
                nodes: None,
                edges: None,
            }),
            &mut NumpyGenerator::seed_from_u64(0),
        )
        .unwrap_err();
    assert!(matches!(error, SpaceError::TooLarge { .. }), "{error}");
    let sequence =
        AnySpace::from(SequenceSpace::new(Discrete::new(2).unwrap().into(), false).unwrap());
    let error = sequence
        .sample_masked(
            Some(&SampleMask::Sequence {
                length: SequenceLength::Exactly(usize::MAX),
                feature: None,
            }),
            &mut NumpyGenerator::seed_from_u64(0),
        )
        .unwrap_err();
    assert!(matches!(error, SpaceError::TooLarge { .. }), "{error}");
    let one_of = AnySpace::from(OneOfSpace::new(vec![Discrete::new(2).unwrap().into()]).unwrap());
    assert!(
        error_text(one_of, SampleMask::Discrete(vec![1, 1]))
            .contains("does not apply to a OneOf space")
    );
}

#[test]
fn masked_samples_obey_their_masks() {
    let space = AnySpace::from(
        DictSpace::new([
            ("action", Discrete::with_start(4, -1).unwrap().into()),
            ("flags", MultiBinary::new(&[3]).unwrap().into()),
            ("pick", MultiDiscrete::from_vec(vec![3, 2]).unwrap().into()),
            ("word", Text::new(0, 4, "abc").unwrap().into()),
            (
                "path",
                SequenceSpace::new(Discrete::new(5).unwrap().into(), false)
                    .unwrap()
                    .into(),
            ),
        ])
        .unwrap(),
    );
    let mask = SampleMask::Dict(BTreeMap::from([
        (
            "action".to_owned(),
            Some(SampleMask::Discrete(vec![0, 1, 0, 1])),
        ),
        (
            "flags".to_owned(),
            Some(SampleMask::MultiBinary(vec![1, 2, 0])),
        ),
        (
            "pick".to_owned(),
            Some(SampleMask::MultiDiscrete(vec![vec![0, 0, 1], vec![1, 1]])),
        ),
        (
            "word".to_owned(),
            Some(SampleMask::TextProbability {
                length: Some(3),
                charset: Some(vec![0.0, 0.25, 0.75]),
            }),
        ),
        (
            "path".to_owned(),
            Some(SampleMask::Sequence {
                length: SequenceLength::ChooseFrom(vec![2, 4]),
                feature: Some(Box::new(SampleMask::Discrete(vec![0, 0, 0, 1, 0]))),
            }),
        ),
    ]));
    let mut rng = NumpyGenerator::seed_from_u64(3);
    for _ in 0..200 {
        let x = space
            .sample_masked(Some(&mask), &mut rng)
            .unwrap()
            .expect("allowed");
        assert!(space.contains(&x), "{x}");
        let d = x.as_dict().unwrap();
        assert!(matches!(d["action"].as_int(), Some(0 | 2)), "{x}");
        let flags = d["flags"].as_array().unwrap().to_f64_vec();
        assert_eq!((flags[0], flags[2]), (1.0, 0.0), "{x}");
        assert_eq!(d["pick"].as_array().unwrap().to_f64_vec()[0], 2.0, "{x}");
        let word = d["word"].as_text().unwrap();
        assert!(word.chars().count() == 3 && !word.contains('a'), "{x}");
        let AnySpace::Dict(_) = &space else {
            unreachable!()
        };
        match &d["path"] {
            rl_spaces::AnyElement::Sequence(items) => {
                assert!(items.len() == 2 || items.len() == 4, "{x}");
                assert!(items.iter().all(|i| i.as_int() == Some(3)), "{x}");
            }
            other => panic!("{other}"),
        }
    }
    // No valid action: None, where Gymnasium gives `start`.
    let discrete = AnySpace::from(Discrete::new(3).unwrap());
    assert_eq!(
        discrete
            .sample_masked(Some(&SampleMask::Discrete(vec![0, 0, 0])), &mut rng)
            .unwrap(),
        None
    );
}

#[test]
fn probabilities_give_their_frequencies() {
    // A chi-squared test with 3 degrees of freedom at the 0.1% level (critical value 16.27).
    let space = AnySpace::from(Discrete::new(4).unwrap());
    let p = [0.1, 0.2, 0.3, 0.4];
    let mask = SampleMask::DiscreteProbability(p.to_vec());
    let mut rng = NumpyGenerator::seed_from_u64(11);
    let n = 20_000;
    let mut counts = [0f64; 4];
    for _ in 0..n {
        let x = space.sample_masked(Some(&mask), &mut rng).unwrap().unwrap();
        counts[x.as_int().unwrap() as usize] += 1.0;
    }
    let chi2: f64 = counts
        .iter()
        .zip(p)
        .map(|(c, p)| (c - p * n as f64).powi(2) / (p * n as f64))
        .sum();
    assert!(chi2 < 16.27, "chi-squared {chi2} for counts {counts:?}");
}

#[test]
fn every_example_space_samples_without_a_mask_and_seeds_reproducibly() {
    for (name, space) in example_spaces() {
        let mut rng = NumpyGenerator::seed_from_u64(5);
        let samples = |seed| {
            let mut sampler = SeededSampler::new(space.clone(), seed);
            (0..8)
                .map(|_| sampler.sample(None).unwrap())
                .collect::<Vec<_>>()
        };
        let first = samples(17);
        assert_eq!(first, samples(17), "{name}");
        for x in first
            .iter()
            .chain([&space.sample_masked(None, &mut rng).unwrap()])
        {
            match x {
                Some(x) => assert!(space.contains(x), "{name}: {x}"),
                None => assert!(space.is_empty(), "{name}"),
            }
        }
    }
}
