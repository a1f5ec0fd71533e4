//! Regression test (issue 17): an invalid action given to a dynamic environment is shown as a
//! user writes it (`[NaN]`), not as ndarray's internal `Debug` (`Array(F32([NaN], shape=[1],
//! strides=[1], layout=CFcf (0xf), dynamic ndim=1))`).

use ndarray::{ArrayD, IxDyn};
use rl_core::corridor::Corridor;
use rl_core::{CoreError, DynamicEnvironment, Environment, Mode, Simulator};
use rl_spaces::AnyElement;

#[test]
fn invalid_actions_are_printed_as_written() {
    let mut env = DynamicEnvironment::new(Simulator::new(
        Corridor::new(4, 0.0).expect("valid corridor"),
        0,
    ));
    env.reset(Mode::Training).expect("reset");
    let action = AnyElement::from(ArrayD::from_elem(IxDyn(&[1]), f32::NAN));
    let error = env
        .step(&action)
        .expect_err("an array is not a corridor action");
    assert!(
        matches!(&error, CoreError::InvalidAction { action, .. } if action == "[NaN]"),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "invalid action [NaN]: not an element of the action space Discrete(2)"
    );
    let nested = AnyElement::Tuple(vec![AnyElement::Int(1), AnyElement::Int(-3)]);
    let error = env
        .step(&nested)
        .expect_err("a tuple is not a corridor action");
    assert!(
        error.to_string().contains("invalid action (1, -3)"),
        "{error}"
    );
}
