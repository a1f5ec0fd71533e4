//! Outer environments and representations: identity, flatten, one-hot, scaled and custom
//! representations, state representations, spaces that contain what is given, and buffers
//! that are reused but never overwritten while held.

use crate::common;

use rl_core::corridor::{Corridor, RIGHT};
use rl_core::{CoreError, Domain, Environment, Mode, Simulator};
use rl_spaces::{
    AnyBox, AnyElement, AnySpace, BoxSpace, DictSpace, Discrete, FlatScalar, FlattenSpace,
    MultiBinary, Space,
};
use rl_wrappers::{
    Flatten, Identity, NumericForm, NumericLayout, NumericObservation, OneHot, OuterEnvironment,
    Representation, ScaleRange, Scaled,
};

use common::{Drift, corridor};

#[test]
fn identity_gives_the_inner_observation_as_numbers() {
    let mut twin = Simulator::new(Drift::new(30, 0.05), 4);
    let mut env = OuterEnvironment::<_, _, f64>::identity(Simulator::new(Drift::new(30, 0.05), 4))
        .expect("numeric");
    let first = env.reset(Mode::Training).expect("reset");
    let expected = twin.reset(Mode::Training).expect("reset");
    assert_eq!(first.as_slice(), expected.map(f64::from));
    assert!(env.observation_space().contains(&first));
    for i in 0..200 {
        let action = (i % 3) as i64;
        let outcome = env.step(&action).expect("step");
        let expected = twin.step(&action).expect("step");
        assert_eq!(
            outcome.observation.as_slice(),
            expected.observation.map(f64::from)
        );
        assert_eq!(outcome.reward().to_bits(), expected.reward().to_bits());
        assert_eq!(
            (outcome.terminated, outcome.truncated),
            (expected.terminated, expected.truncated)
        );
        assert!(env.observation_space().contains(&outcome.observation));
        if outcome.is_done() {
            env.reset(Mode::Training).expect("reset");
            twin.reset(Mode::Training).expect("reset");
        }
    }
}

#[test]
fn scaled_observations_lie_in_the_interval() {
    let domain = Drift::new(100, 0.05);
    let space = *domain.observation_space();
    for range in [ScaleRange::Unit, ScaleRange::Symmetric] {
        let representation = Scaled::new(space, range).expect("bounded");
        let mut env =
            OuterEnvironment::<_, _, f32>::new(Simulator::new(domain.clone(), 1), representation);
        let (low, high) = range.bounds();
        let mut observation = env.reset(Mode::Training).expect("reset");
        for i in 0..300 {
            assert!(
                env.observation_space().contains(&observation),
                "{observation:?}"
            );
            assert!(
                observation
                    .as_slice()
                    .iter()
                    .all(|x| f64::from(*x) >= low && f64::from(*x) <= high)
            );
            let outcome = env.step(&((i % 3) as i64)).expect("step");
            observation = if outcome.is_done() {
                env.reset(Mode::Training).expect("reset")
            } else {
                outcome.observation
            };
        }
    }
    // The bounds [-3, 3] × [-2, 2] map 0 to the middle.
    let representation = Scaled::new(space, ScaleRange::Unit).expect("bounded");
    let mut out = [0.0f64; 2];
    representation.write(&[0.0, 2.0], &mut out).expect("write");
    assert_eq!(out, [0.5, 1.0]);
}

#[test]
fn one_hot_and_state_representations() {
    let simulator = Simulator::new(corridor(4, 0.0), 0);
    let env = OuterEnvironment::<_, _, f32>::new(
        simulator,
        OneHot::new(Discrete::new(4).expect("valid")).expect("finite"),
    );
    assert!(env.state().is_none(), "no state representation");
    let mut env = OuterEnvironment::<_, _, f32>::new(
        env.into_inner(),
        OneHot::new(Discrete::new(4).expect("valid")).expect("finite"),
    )
    .with_state_representation(Identity::new(Discrete::new(4).expect("valid")).expect("numeric"));
    assert!(env.state().is_none(), "no state before the first reset");
    assert_eq!(env.state_layout().map(NumericLayout::flat_dim), Some(4));
    env.reset(Mode::Training).expect("reset");
    env.step(&RIGHT).expect("step");
    let outcome = env.step(&RIGHT).expect("step");
    assert_eq!(outcome.observation.as_slice(), &[0.0, 0.0, 1.0, 0.0]);
    let state = env.state().expect("a state");
    assert_eq!(state.as_slice(), &[0.0, 0.0, 1.0, 0.0]);
    assert_eq!(
        state.get("observation").map(|a| a.shape().to_vec()),
        Some(vec![4])
    );
}

#[test]
fn dict_observations_keep_their_keys() {
    let space = DictSpace::new([
        (
            "position",
            AnySpace::from(BoxSpace::uniform(&[2, 2], -1.0f32, 1.0).expect("valid")),
        ),
        ("heading", AnySpace::from(Discrete::new(3).expect("valid"))),
    ])
    .expect("valid");
    let identity = Identity::new(space.clone()).expect("numeric");
    let flatten = Flatten::new(space.clone()).expect("numeric");
    let element: std::collections::BTreeMap<String, AnyElement> = [
        ("heading".to_owned(), AnyElement::Int(2)),
        (
            "position".to_owned(),
            AnyElement::from(
                ndarray::ArrayD::from_shape_vec(
                    ndarray::IxDyn(&[2, 2]),
                    vec![0.1f32, 0.2, 0.3, 0.4],
                )
                .expect("shape"),
            ),
        ),
    ]
    .into_iter()
    .collect();
    let mut by_identity = vec![0.0f32; 7];
    let mut by_flatten = vec![0.0f32; 7];
    identity.write(&element, &mut by_identity).expect("write");
    flatten.write(&element, &mut by_flatten).expect("write");
    assert_eq!(
        by_identity, by_flatten,
        "the same numbers, differently named"
    );
    assert_eq!(by_identity, [0.0, 0.0, 1.0, 0.1, 0.2, 0.3, 0.4]);
    let names: Vec<&str> = identity
        .layout()
        .components()
        .iter()
        .map(|c| c.name())
        .collect();
    assert_eq!(names, ["heading", "position"]);
    assert_eq!(flatten.layout().components().len(), 1);
    assert_eq!(space.flat_box().expect("flat").shape(), &[7]);
}

#[test]
fn held_observations_are_never_overwritten_and_released_buffers_are_reused() {
    let mut env =
        OuterEnvironment::<_, _, f64>::identity(Simulator::new(Drift::new(1000, 0.05), 2))
            .expect("numeric");
    let first = env.reset(Mode::Training).expect("reset");
    let kept = first.as_slice().to_vec();
    let held: Vec<NumericObservation<f64>> = (0..10)
        .map(|i| env.step(&((i % 3) as i64)).expect("step").observation)
        .collect();
    assert_eq!(
        first.as_slice(),
        kept,
        "later steps never write into a held observation"
    );
    assert!(held.windows(2).all(|w| w[0] != w[1]));
    drop((first, held));
    let a = env.step(&1).expect("step").observation.as_slice().as_ptr();
    let b = env.step(&1).expect("step").observation.as_slice().as_ptr();
    assert_eq!(a, b, "a released buffer is written again");
}

#[test]
fn numeric_spaces_round_trip_through_flat_vectors() {
    let env = OuterEnvironment::<_, _, f32>::identity(Simulator::new(Drift::new(10, 0.0), 0))
        .expect("numeric");
    let space = env.observation_space();
    let observation = space.unflatten(&[0.5f64, -0.25]).expect("inside");
    assert_eq!(
        space.flatten::<f64>(&observation).expect("flatten"),
        vec![0.5, -0.25]
    );
    assert!(space.unflatten(&[9.0f64, 0.0]).is_err(), "out of bounds");
    assert!(space.unflatten(&[0.0f64]).is_err(), "wrong length");
    assert_eq!(space.layout().to_any_space().expect("a dict").flat_dim(), 2);
    assert!(
        space
            .to_string()
            .starts_with("Numeric({\"observation\": Box("),
        "{space}"
    );
}

/// Splits a drift observation into two named components.
#[derive(Debug)]
struct PositionAndVelocity {
    layout: NumericLayout,
}

impl PositionAndVelocity {
    fn new() -> Self {
        let unit =
            |low: f32, high: f32| AnyBox::from(BoxSpace::uniform(&[1], low, high).expect("valid"));
        PositionAndVelocity {
            layout: NumericLayout::new([
                ("position", unit(-3.0, 3.0)),
                ("velocity", unit(-2.0, 2.0)),
            ])
            .expect("valid"),
        }
    }
}

impl Representation<[f32; 2]> for PositionAndVelocity {
    fn layout(&self) -> &NumericLayout {
        &self.layout
    }

    fn write<T: FlatScalar>(&self, input: &[f32; 2], out: &mut [T]) -> Result<(), CoreError> {
        for (o, v) in out.iter_mut().zip(input) {
            *o = T::from_f64(f64::from(*v));
        }
        Ok(())
    }
}

#[test]
fn a_custom_representation_names_its_parts() {
    let mut env = OuterEnvironment::<_, _, f32>::new(
        Simulator::new(Drift::new(10, 0.0), 3),
        PositionAndVelocity::new(),
    );
    let observation = env.reset(Mode::Training).expect("reset");
    let position = observation.get("position").expect("a component")[[0]];
    assert_eq!(observation.as_slice()[0], position);
    assert_eq!(observation.get("velocity").map(|a| a[[0]]), Some(0.0));
    assert!(observation.get("speed").is_none());
    let arrays = observation.to_arrays();
    assert_eq!(arrays.keys().collect::<Vec<_>>(), ["position", "velocity"]);
}

#[test]
fn representations_refuse_what_they_cannot_represent() {
    let one_hot = OneHot::new(Discrete::new(3).expect("valid")).expect("finite");
    assert!(
        one_hot.write(&3, &mut [0.0f32; 3]).is_err(),
        "not an element"
    );
    assert!(one_hot.write(&1, &mut [0.0f32; 2]).is_err(), "wrong length");
    let unbounded = BoxSpace::uniform(&[2], f32::NEG_INFINITY, 0.0).expect("valid");
    assert!(Scaled::new(unbounded, ScaleRange::Unit).is_err());
    // 2^40 elements, although each flattens to only 40 numbers.
    let huge = MultiBinary::new(&[40]).expect("valid");
    assert!(OneHot::new(huge).is_err());
    let continuous = BoxSpace::uniform(&[1], 0.0f64, 1.0).expect("valid");
    assert!(
        OneHot::new(continuous).is_err(),
        "a float Box cannot be counted"
    );
}

#[test]
fn a_corridor_outer_environment_keeps_actions_and_applicability() {
    let env = OuterEnvironment::<_, _, f32>::identity(Simulator::new(
        Corridor::new(3, 0.0).expect("valid"),
        0,
    ))
    .expect("numeric");
    let mut env = env;
    env.reset(Mode::Training).expect("reset");
    let mut mask = [true; 2];
    env.action_mask(&mut mask).expect("two actions");
    assert_eq!(mask, [false, true], "left is not applicable in cell 0");
    assert_eq!(env.discount(), 0.95);
}

#[test]
fn outer_environments_can_be_driven_through_dynamic_spaces() {
    use rl_core::DynamicEnvironment;
    use rl_spaces::{AnyArray, DType, DynamicSpace};

    let outer = OuterEnvironment::<_, _, f64>::identity(Simulator::new(Drift::new(10, 0.0), 0))
        .expect("numeric");
    let space = outer.observation_space().clone();
    let mut boxed = DynamicEnvironment::new(outer).boxed();
    assert_eq!(boxed.observation_space().kind(), "Dict");
    let first = boxed.reset(Mode::Training).expect("reset");
    let array = first
        .as_dict()
        .and_then(|d| d.get("observation"))
        .and_then(AnyElement::as_array)
        .expect("a dict of arrays");
    assert_eq!(
        (array.dtype(), array.shape()),
        (DType::F32, &[2][..]),
        "the component's own dtype"
    );
    assert!(matches!(array, AnyArray::F32(_)));
    assert!(boxed.step(&AnyElement::Int(1)).is_ok());
    assert!(boxed.step(&AnyElement::Int(5)).is_err());
    // Elements convert both ways.
    let typed = space.element_from_any(&first).expect("an element");
    assert_eq!(space.element_to_any(&typed), first);
    assert!(space.element_from_any(&AnyElement::Int(0)).is_err());
}
