//! History stacking: newest last, padding by the first observation or by zeros, per-component
//! history lengths, and stacked spaces that contain the stacked observations.

use crate::common;

use std::num::NonZeroUsize;

use rl_core::{CoreError, Environment, Mode, Simulator};
use rl_spaces::{AnyBox, BoxSpace, FlatScalar, Space};
use rl_wrappers::stateful::{HistoryStack, Padding};
use rl_wrappers::{NumericLayout, OuterEnvironment, Representation};

use common::Drift;

fn length(n: usize) -> NonZeroUsize {
    NonZeroUsize::new(n).expect("non-zero")
}

fn outer(
    seed: u64,
) -> OuterEnvironment<Simulator<Drift>, rl_wrappers::Identity<rl_spaces::ArrayBox<f32, 2>>, f32> {
    OuterEnvironment::identity(Simulator::new(Drift::new(200, 0.05), seed)).expect("numeric")
}

#[test]
fn the_newest_observation_is_last() {
    let mut twin = outer(8);
    let mut env = HistoryStack::uniform(outer(8), length(3), Padding::RepeatFirst).expect("valid");
    let mut seen = vec![
        twin.reset(Mode::Training)
            .expect("reset")
            .as_slice()
            .to_vec(),
    ];
    let first = env.reset(Mode::Training).expect("reset");
    assert_eq!(
        first.as_slice(),
        [seen[0].clone(), seen[0].clone(), seen[0].clone()].concat()
    );
    for i in 0..10 {
        let action = (i % 3) as i64;
        seen.push(
            twin.step(&action)
                .expect("step")
                .observation
                .as_slice()
                .to_vec(),
        );
        let stacked = env.step(&action).expect("step").observation;
        let n = seen.len();
        // The last three observations, the first one repeated while there are fewer.
        let expected: Vec<f32> = (0..3)
            .flat_map(|k| seen[(n + k).saturating_sub(3)].clone())
            .collect();
        assert_eq!(stacked.as_slice(), expected, "after {} steps", i + 1);
        assert_eq!(
            stacked.get("observation").map(|a| a.shape().to_vec()),
            Some(vec![3, 2])
        );
        assert!(env.observation_space().contains(&stacked));
    }
}

#[test]
fn zero_padding_widens_the_bounds_to_contain_zero() {
    // A representation whose only value lies in [1, 2]: padding zeros lie outside it.
    #[derive(Debug)]
    struct Shifted(NumericLayout);
    impl Representation<[f32; 2]> for Shifted {
        fn layout(&self) -> &NumericLayout {
            &self.0
        }
        fn write<T: FlatScalar>(&self, _: &[f32; 2], out: &mut [T]) -> Result<(), CoreError> {
            out.fill(T::from_f64(1.5));
            Ok(())
        }
    }
    let layout = NumericLayout::single(
        "x",
        AnyBox::from(BoxSpace::uniform(&[1], 1.0f32, 2.0).expect("valid")),
    )
    .expect("valid");
    let inner =
        OuterEnvironment::<_, _, f32>::new(Simulator::new(Drift::new(10, 0.0), 0), Shifted(layout));
    let mut env = HistoryStack::uniform(inner, length(2), Padding::Zeros).expect("valid");
    let first = env.reset(Mode::Training).expect("reset");
    assert_eq!(first.as_slice(), &[0.0, 1.5]);
    assert!(env.observation_space().contains(&first));
    let component = &env.observation_space().layout().components()[0];
    assert_eq!(component.space().low_f64(), [0.0, 0.0]);
    assert_eq!(component.space().high_f64(), [2.0, 2.0]);
}

/// Splits a drift observation into a position and a velocity array.
#[derive(Debug)]
struct Split(NumericLayout);

impl Split {
    fn new() -> Self {
        let bounds = |l: f32, h: f32| AnyBox::from(BoxSpace::uniform(&[1], l, h).expect("valid"));
        Split(
            NumericLayout::new([
                ("position", bounds(-3.0, 3.0)),
                ("velocity", bounds(-2.0, 2.0)),
            ])
            .expect("valid"),
        )
    }
}

impl Representation<[f32; 2]> for Split {
    fn layout(&self) -> &NumericLayout {
        &self.0
    }
    fn write<T: FlatScalar>(&self, input: &[f32; 2], out: &mut [T]) -> Result<(), CoreError> {
        for (o, v) in out.iter_mut().zip(input) {
            *o = T::from_f64(f64::from(*v));
        }
        Ok(())
    }
}

#[test]
fn each_component_has_its_own_history_length() {
    let inner =
        OuterEnvironment::<_, _, f64>::new(Simulator::new(Drift::new(100, 0.05), 1), Split::new());
    let mut env = HistoryStack::new(
        inner,
        [("position", length(4)), ("velocity", length(1))],
        Padding::Zeros,
    )
    .expect("valid");
    let first = env.reset(Mode::Training).expect("reset");
    assert_eq!(
        first.get("position").map(|a| a.shape().to_vec()),
        Some(vec![4, 1])
    );
    assert_eq!(
        first.get("velocity").map(|a| a.shape().to_vec()),
        Some(vec![1, 1])
    );
    assert_eq!(first.as_slice().len(), 5);
    assert_eq!(&first.as_slice()[..3], &[0.0, 0.0, 0.0]);
    let lengths: Vec<(String, usize)> = env
        .histories()
        .map(|(n, h)| (n.to_owned(), h.length().get()))
        .collect();
    assert_eq!(
        lengths,
        [("position".to_owned(), 4), ("velocity".to_owned(), 1)]
    );
    let outcome = env.step(&2).expect("step");
    let position = outcome.observation.get("position").expect("position");
    assert_eq!(
        position[[2, 0]],
        first.as_slice()[3],
        "the first position moved one place back"
    );
    assert_eq!(
        env.history("velocity")
            .map(|h| h.frame(0).map(<[f64]>::to_vec)),
        Some(
            outcome
                .observation
                .get("velocity")
                .map(|v| v.iter().copied().collect())
        )
    );
}

#[test]
fn history_lengths_must_name_every_component_and_nothing_else() {
    let make =
        || OuterEnvironment::<_, _, f32>::new(Simulator::new(Drift::new(10, 0.0), 0), Split::new());
    let missing = HistoryStack::new(make(), [("position", length(2))], Padding::Zeros)
        .expect_err("no velocity");
    assert!(missing.to_string().contains("velocity"), "{missing}");
    let unknown = HistoryStack::new(
        make(),
        [
            ("position", length(2)),
            ("velocity", length(2)),
            ("speed", length(2)),
        ],
        Padding::Zeros,
    )
    .expect_err("no speed");
    assert!(unknown.to_string().contains("speed"), "{unknown}");
}

#[test]
fn four_observations_stack_into_one_flat_f32_vector() {
    let mut env = HistoryStack::uniform(outer(3), length(4), Padding::RepeatFirst).expect("valid");
    env.reset(Mode::Training).expect("reset");
    let observation = env.step(&1).expect("step").observation;
    let flat: &[f32] = observation.as_slice();
    assert_eq!(flat.len(), 4 * 2);
    assert_eq!(
        flat[..2],
        flat[2..4],
        "padding repeats the first observation"
    );
    assert_ne!(flat[4..6], flat[6..8], "the newest observation is last");
}
