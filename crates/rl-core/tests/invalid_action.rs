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

/// A batch built by id with integer actions (`discrete_batch_states`) reads in-range actions
/// as the typed batch's own (no conversion) and steps them as the typed states do; an action
/// outside the space is refused naming its index, with nothing stepped (the observations,
/// rewards and flags as they were).
#[test]
fn integer_batches_by_id_step_in_range_actions_and_refuse_the_others() {
    use rand::SeedableRng;
    use rl_core::corridor::{LEFT, RIGHT};
    use rl_core::registry::{self, Registration};
    use rl_core::{BatchStates, NumpyGenerator, SteppedStates};

    #[derive(Debug, Clone, Default, serde::Deserialize)]
    #[serde(default, deny_unknown_fields)]
    struct NoParams {}
    let _ = Registration::new("Corridor-integers-v0", "integer actions", |_: NoParams| {
        Corridor::new(6, 0.2)
    })
    .register();
    let domain = registry::build("Corridor-integers-v0", None).expect("builds");
    let count = 4;
    let mut by_id = domain
        .discrete_batch_states(count)
        .expect("Discrete actions");
    let mut typed: SteppedStates<Corridor> = SteppedStates::new(
        std::sync::Arc::new(Corridor::new(6, 0.2).expect("valid")),
        count,
    );
    let seeded = || -> Vec<NumpyGenerator> {
        (0..count)
            .map(|i| NumpyGenerator::seed_from_u64(3 + i as u64))
            .collect()
    };
    let (mut rngs, mut typed_rngs) = (seeded(), seeded());
    let (mut rows, mut typed_rows) = (vec![0.0f32; count * 6], vec![0.0f32; count * 6]);
    let (mut rewards, mut typed_rewards) = (vec![0.0; count], vec![0.0; count]);
    let (mut ended, mut typed_ended) = (vec![true; count], vec![true; count]);
    for t in 0..60 {
        for i in 0..count {
            if ended[i] {
                let row = &mut rows[i * 6..(i + 1) * 6];
                by_id
                    .reset_at(i, Mode::Training, &mut rngs[i], row)
                    .unwrap();
                let row = &mut typed_rows[i * 6..(i + 1) * 6];
                typed
                    .reset_at(i, Mode::Training, &mut typed_rngs[i], row)
                    .unwrap();
            }
        }
        let actions: Vec<i64> = (0..count)
            .map(|i| if (t + i) % 3 == 2 { LEFT } else { RIGHT })
            .collect();
        by_id
            .step(
                &actions,
                Mode::Training,
                &mut rngs,
                &mut rewards,
                &mut ended,
                &mut rows,
            )
            .unwrap();
        typed
            .step(
                &actions,
                Mode::Training,
                &mut typed_rngs,
                &mut typed_rewards,
                &mut typed_ended,
                &mut typed_rows,
            )
            .unwrap();
        assert_eq!(
            (&rows, &rewards, &ended),
            (&typed_rows, &typed_rewards, &typed_ended)
        );
    }
    let before = (rows.clone(), rewards.clone(), ended.clone());
    let (index, error) = by_id
        .step(
            &[RIGHT, LEFT, 7, RIGHT],
            Mode::Training,
            &mut rngs,
            &mut rewards,
            &mut ended,
            &mut rows,
        )
        .expect_err("7 is not a corridor action");
    assert_eq!(index, 2);
    assert!(
        matches!(&error, CoreError::InvalidAction { action, .. } if action == "7"),
        "{error:?}"
    );
    assert_eq!((rows, rewards, ended), before);
}
