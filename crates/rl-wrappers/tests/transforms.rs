//! Stateless transforms: reward scaling and clipping, one-hot actions, action clipping and
//! rescaling, flattening and casting observations.

use crate::common;

use ndarray::{ArrayD, IxDyn};
use rl_core::corridor::{LEFT, RIGHT};
use rl_core::{CoreError, Environment, Mode, Simulator};
use rl_spaces::{FiniteSpace, FlattenSpace, Space};
use rl_wrappers::OuterEnvironment;
use rl_wrappers::stateless::{
    CastObservation, ClipAction, ClipReward, FlattenObservation, OneHotAction, OneHotSpace,
    RescaleAction, ScaleReward,
};

use common::{Push, PushArray, corridor};

#[test]
fn rewards_are_scaled_and_clipped() {
    let mut scaled = ScaleReward::new(Simulator::new(corridor(5, 0.0), 0), -3.0).expect("finite");
    scaled.reset(Mode::Training).expect("reset");
    assert_eq!(scaled.step(&RIGHT).expect("step").reward(), 3.0);
    assert_eq!(scaled.factor(), -3.0);
    assert!(ScaleReward::new(Simulator::new(corridor(5, 0.0), 0), f64::INFINITY).is_err());

    let mut clipped = ClipReward::new(scaled, 0.0, 2.0).expect("interval");
    clipped.reset(Mode::Training).expect("reset");
    assert_eq!(clipped.step(&RIGHT).expect("step").reward(), 2.0);
    assert_eq!((clipped.min(), clipped.max()), (0.0, 2.0));
    assert!(ClipReward::new(Simulator::new(corridor(5, 0.0), 0), 1.0, 0.0).is_err());
    assert!(ClipReward::new(Simulator::new(corridor(5, 0.0), 0), f64::NAN, 0.0).is_err());
}

#[test]
fn one_hot_vectors_drive_a_finite_action_space() {
    let mut env = OneHotAction::<_, f64>::new(Simulator::new(corridor(4, 0.0), 0)).expect("finite");
    assert_eq!(env.action_space().cardinality(), Some(2));
    assert_eq!(env.encode(&LEFT), Some(vec![1.0, 0.0]));
    assert_eq!(env.decode(&[0.0, 1.0]), Some(RIGHT));
    assert_eq!(env.decode(&[0.0, 0.0]), None);
    env.reset(Mode::Training).expect("reset");
    let mut mask = [true; 2];
    env.action_mask(&mut mask).expect("finite");
    assert_eq!(
        mask,
        [false, true],
        "the inner environment's applicability, by index"
    );
    assert_eq!(env.step(&vec![0.0, 1.0]).expect("step").observation, 1);
    for invalid in [
        vec![1.0, 1.0],
        vec![0.0, 0.0],
        vec![0.5, 0.5],
        vec![0.0, 1.0, 0.0],
    ] {
        assert!(
            matches!(env.step(&invalid), Err(CoreError::InvalidAction { .. })),
            "{invalid:?}"
        );
    }
    assert_eq!(env.step(&vec![1.0, 0.0]).expect("step").observation, 0);
}

#[test]
fn one_hot_spaces_encode_decode_and_flatten() {
    let space = OneHotSpace::<f32>::new(4).expect("valid");
    assert!(OneHotSpace::<f32>::new(0).is_err());
    for index in 0..4 {
        let vector = space.element_at(index).expect("in range");
        assert_eq!(space.index_of(&vector), Some(index));
        assert_eq!(
            space
                .flatten::<f64>(&vector)
                .expect("flatten")
                .iter()
                .sum::<f64>(),
            1.0
        );
        assert_eq!(
            space
                .unflatten(&space.flatten::<f64>(&vector).expect("flatten"))
                .expect("back"),
            vector
        );
    }
    assert!(space.encode(4).is_none());
    assert!(space.unflatten(&[1.0f64, 1.0, 0.0, 0.0]).is_err());
    assert_eq!(space.to_string(), "OneHot(4)");
    let invalid = rl_core::InvalidExamples::invalid_examples(&space);
    assert!(!invalid.is_empty() && invalid.iter().all(|x| !space.contains(x)));
}

#[test]
fn continuous_actions_are_clipped_to_the_bounds() {
    let mut env = ClipAction::new(Simulator::new(Push::new(), 0)).expect("a float box");
    assert_eq!(
        env.action_space().to_string(),
        "Box(-inf, inf, (2,), float32)"
    );
    env.reset(Mode::Training).expect("reset");
    assert_eq!(
        env.step(&[20.0, -9.0]).expect("step").observation,
        [10.0, -4.0]
    );
    assert_eq!(
        env.step(&[3.5, -1.0]).expect("step").observation,
        [3.5, -1.0]
    );
    assert!(env.step(&[f32::NAN, 0.0]).is_err());
    assert!(env.is_applicable(&[100.0, 100.0]));

    let mut env = ClipAction::new(Simulator::new(PushArray::new(), 0)).expect("a float box");
    env.reset(Mode::Training).expect("reset");
    let action = ArrayD::from_shape_vec(IxDyn(&[2]), vec![-5.0, 5.0]).expect("shape");
    assert_eq!(
        env.step(&action).expect("step").observation.as_slice(),
        Some(&[0.0, 0.0][..])
    );
    let wrong_shape = ArrayD::from_shape_vec(IxDyn(&[3]), vec![0.0; 3]).expect("shape");
    assert!(env.step(&wrong_shape).is_err());
}

#[test]
fn actions_in_the_unit_box_are_rescaled_to_the_bounds() {
    let mut env = RescaleAction::new(Simulator::new(Push::new(), 0)).expect("bounded");
    env.reset(Mode::Training).expect("reset");
    assert_eq!(
        env.step(&[-1.0, -1.0]).expect("step").observation,
        [0.0, -4.0]
    );
    assert_eq!(
        env.step(&[1.0, 1.0]).expect("step").observation,
        [10.0, 0.0]
    );
    assert_eq!(
        env.step(&[0.0, 0.5]).expect("step").observation,
        [5.0, -1.0]
    );
    assert!(matches!(
        env.step(&[1.01, 0.0]),
        Err(CoreError::InvalidAction { .. })
    ));

    let mut env = RescaleAction::new(Simulator::new(PushArray::new(), 0)).expect("bounded");
    env.reset(Mode::Training).expect("reset");
    let action = ArrayD::from_shape_vec(IxDyn(&[2]), vec![0.5, -0.5]).expect("shape");
    assert_eq!(
        env.step(&action).expect("step").observation.as_slice(),
        Some(&[7.5, -3.0][..])
    );
    assert!(env.is_applicable(&action));

    // Every rescaled action lies within the bounds, whatever the rounding.
    let mut env = RescaleAction::new(Simulator::new(Push::new(), 0)).expect("bounded");
    env.reset(Mode::Training).expect("reset");
    for i in 0..=200 {
        let a = -1.0 + f32::from(i as u8) / 100.0;
        let reached = env.step(&[a, -a]).expect("step").observation;
        assert!(
            env.inner().observation_space().contains(&reached),
            "{reached:?}"
        );
        if i % 19 == 18 {
            env.reset(Mode::Training).expect("reset");
        }
    }
}

#[test]
fn unbounded_boxes_cannot_be_rescaled() {
    let clip = ClipAction::new(Simulator::new(Push::new(), 0)).expect("a float box");
    assert!(
        RescaleAction::new(clip).is_err(),
        "the clipped action space is unbounded"
    );
}

#[test]
fn observations_are_flattened_and_cast() {
    let mut flat: FlattenObservation<_, f32> =
        FlattenObservation::flatten(Simulator::new(PushArray::new(), 0)).expect("numeric");
    assert_eq!(flat.observation_space().flat_dim(), 2);
    assert_eq!(
        flat.reset(Mode::Training).expect("reset").as_slice(),
        &[0.0, -4.0]
    );

    let wide = OuterEnvironment::<_, _, f64>::identity(Simulator::new(corridor(3, 0.0), 0))
        .expect("numeric");
    let mut narrow: CastObservation<_, f32> = CastObservation::identity(wide).expect("numeric");
    assert_eq!(
        narrow.reset(Mode::Training).expect("reset").as_slice(),
        &[1.0f32, 0.0, 0.0]
    );
    let names: Vec<String> = narrow
        .observation_space()
        .layout()
        .components()
        .iter()
        .map(|c| c.name().to_owned())
        .collect();
    assert_eq!(names, ["observation"]);
}
