//! Property tests: random JSON, random bounds and random flat vectors fed to every constructor
//! and reader give errors, never a panic; whatever is accepted is valid.

use proptest::prelude::*;
use rand::SeedableRng;
use rl_spaces::testing::{any_json, any_space};
use rl_spaces::{
    AnyElement, AnySpace, BoxSpace, Discrete, DiscreteDistribution, FlattenSpace, JsonSpace,
    MultiBinary, MultiDiscrete, SampleSpace, Space,
};

fn any_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => -1e3..1e3f64,
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
        1 => any::<f64>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_json_definitions_never_panic(value in any_json()) {
        if let Ok(space) = AnySpace::from_definition(&value) {
            // Whatever is accepted writes back to an equal definition.
            prop_assert_eq!(AnySpace::from_definition(&space.to_definition()).ok(), Some(space));
        }
    }

    #[test]
    fn random_text_never_panics(text in "\\PC{0,80}") {
        let _ = AnySpace::from_definition_str(&text);
    }

    #[test]
    fn random_json_elements_never_panic(space in any_space(), value in any_json()) {
        if let Ok(x) = space.element_from_json(&value) {
            prop_assert!(space.contains(&x));
        }
        if let Ok(batch) = space.batch_from_jsonable(&value) {
            prop_assert!(batch.iter().all(|x| space.contains(x)));
        }
    }

    #[test]
    fn random_flat_vectors_never_panic(space in any_space(), flat in prop::collection::vec(any_f64(), 0..24)) {
        if let Ok(x) = space.unflatten(&flat) {
            prop_assert!(space.contains(&x));
        }
        let flat32: Vec<f32> = flat.iter().map(|v| *v as f32).collect();
        if let Ok(x) = space.unflatten(&flat32) {
            prop_assert!(space.contains(&x));
        }
    }

    #[test]
    fn batch_membership_agrees_with_one_element_at_a_time(
        n in prop_oneof![1..8u64, any::<u64>().prop_map(|n| n.max(1))],
        start in prop_oneof![-8..8i64, any::<i64>()],
        near in prop::collection::vec(-10..10i64, 0..40),
        far in prop::collection::vec(any::<i64>(), 0..3),
    ) {
        if let Ok(space) = Discrete::with_start(n, start) {
            // Elements around the start (mostly inside for small spaces), then any values.
            let batch: Vec<i64> = near
                .iter()
                .map(|offset| start.wrapping_add(*offset))
                .chain(far)
                .collect();
            let expected = batch.iter().position(|x| !space.contains(x));
            prop_assert_eq!(space.first_outside(&batch), expected);
        }
    }

    #[test]
    fn box_batch_membership_agrees_with_one_element_at_a_time(
        bounds in prop::collection::vec((-4.0..4.0f32, 0.0..4.0f32), 1..4),
        values in prop::collection::vec((any_f64(), 0..6u8), 0..24),
    ) {
        let low: Vec<f32> = bounds.iter().map(|(l, _)| *l).collect();
        let high: Vec<f32> = bounds.iter().map(|(l, w)| *l + *w).collect();
        let width = low.len();
        let space = BoxSpace::from_vecs(low, high).expect("low <= high");
        // Each element from one number: the space's shape filled with it, or (by the second
        // number) another shape, the space's shape with a NaN last, float64 entries (another
        // dtype for the AnySpace), or a non-array element; then every 1-D one as a strided
        // (non-contiguous) array.
        let typed: Vec<ndarray::ArrayD<f32>> = values
            .iter()
            .map(|(v, kind)| {
                let v = *v as f32;
                match kind {
                    1 => ndarray::ArrayD::from_elem(vec![width + 1], v),
                    2 => ndarray::ArrayD::from_elem(vec![1, width], v),
                    3 => {
                        let mut x = ndarray::ArrayD::from_elem(vec![width], v);
                        x[[width - 1]] = f32::NAN;
                        x
                    }
                    _ => ndarray::ArrayD::from_elem(vec![width], v),
                }
            })
            .collect();
        let expected = typed.iter().position(|x| !space.contains(x));
        prop_assert_eq!(space.first_outside(&typed), expected);
        let strided: Vec<ndarray::ArrayD<f32>> = typed
            .iter()
            .map(|x| {
                let doubled = ndarray::concatenate(ndarray::Axis(0), &[x.view(), x.view()]);
                match doubled {
                    Ok(d) if x.ndim() == 1 => d.slice_move(ndarray::s![..;2]).into_dyn(),
                    _ => x.clone(),
                }
            })
            .collect();
        prop_assert_eq!(
            space.first_outside(&strided),
            strided.iter().position(|x| !space.contains(x))
        );
        let any = AnySpace::from(space.clone());
        let elements: Vec<AnyElement> = typed
            .iter()
            .zip(&values)
            .map(|(x, (v, kind))| match kind {
                4 => AnyElement::from(x.mapv(f64::from)),
                5 => AnyElement::Int(*v as i64),
                _ => AnyElement::from(x.clone()),
            })
            .collect();
        prop_assert_eq!(
            any.first_outside(&elements),
            elements.iter().position(|x| !any.contains(x))
        );
    }

    #[test]
    fn random_box_bounds_never_panic(
        low in prop::collection::vec(any_f64(), 0..5),
        high in prop::collection::vec(any_f64(), 0..5),
        seed in any::<u64>(),
    ) {
        if let Ok(space) = BoxSpace::from_vecs(low.clone(), high.clone()) {
            let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
            prop_assert!(space.contains(&space.sample(&mut rng)));
        }
        let low32: Vec<f32> = low.iter().map(|v| *v as f32).collect();
        let high32: Vec<f32> = high.iter().map(|v| *v as f32).collect();
        if let Ok(space) = BoxSpace::from_vecs(low32, high32) {
            let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
            prop_assert!(space.contains(&space.sample(&mut rng)));
        }
    }

    #[test]
    fn random_integer_parameters_never_panic(
        n in any::<u64>(),
        start in any::<i64>(),
        nvec in prop::collection::vec(any::<i64>(), 0..4),
        shape in prop::collection::vec(0usize..5, 0..3),
        low in any::<i64>(),
        high in any::<i64>(),
        seed in any::<u64>(),
    ) {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        if let Ok(space) = Discrete::with_start(n, start) {
            prop_assert!(space.contains(&space.sample(&mut rng)));
        }
        if let Ok(space) = MultiDiscrete::from_vec(nvec) {
            prop_assert!(space.contains(&space.sample(&mut rng)));
        }
        if let Ok(space) = MultiBinary::new(&shape) {
            prop_assert!(space.contains(&space.sample(&mut rng)));
        }
        if let Ok(space) = BoxSpace::uniform(&[2], low, high) {
            prop_assert!(space.contains(&space.sample(&mut rng)));
        }
    }

    #[test]
    fn random_masks_and_weights_never_panic(
        n in 1u64..6,
        mask in prop::collection::vec(any::<bool>(), 0..7),
        weights in prop::collection::vec(any_f64(), 0..7),
        seed in any::<u64>(),
    ) {
        let space = Discrete::new(n).expect("n >= 1");
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        if let Ok(Some(x)) = space.sample_masked(&mask, &mut rng) {
            prop_assert!(mask[x as usize]);
        }
        if let Ok(Some(x)) = space.sample_weighted(&weights, &mut rng) {
            prop_assert!(weights[x as usize] > 0.0);
        }
        if let Ok(d) = DiscreteDistribution::new(weights.iter().copied().enumerate()) {
            let sum: f64 = d.probabilities().iter().sum();
            prop_assert!((sum - 1.0).abs() < 1e-9);
        }
    }
}
