//! Property tests: random action sequences, in and out of the action space, with random resets
//! and modes, never panic the simulator, and a fixed seed gives a fixed trajectory.

use proptest::prelude::*;
use rl_core::corridor::Corridor;
use rl_core::{CoreError, Environment, Mode, Simulator};

#[derive(Debug, Clone)]
enum Command {
    Reset(Mode),
    Step(i64),
    Seed(u64),
}

fn command() -> impl Strategy<Value = Command> {
    prop_oneof![
        1 => prop_oneof![Just(Mode::Training), (0u32..3).prop_map(Mode::Evaluation)].prop_map(Command::Reset),
        8 => prop_oneof![4 => 0i64..2, 1 => any::<i64>()].prop_map(Command::Step),
        1 => any::<u64>().prop_map(Command::Seed),
    ]
}

fn run(
    seed: u64,
    length: u32,
    slip: f64,
    commands: &[Command],
) -> Vec<Result<(i64, u64, bool, bool), CoreError>> {
    let mut env = Simulator::with_constraints(Corridor::new(length, slip).expect("valid"), seed)
        .expect("constraints");
    commands
        .iter()
        .map(|c| match c {
            Command::Reset(mode) => env.reset(*mode).map(|o| (o, 0, false, false)),
            Command::Step(a) => env.step(a).map(|o| {
                (
                    o.observation,
                    o.value.reward().to_bits(),
                    o.terminated,
                    o.truncated,
                )
            }),
            Command::Seed(s) => {
                env.seed(*s);
                Ok((-1, 0, false, false))
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_commands_never_panic_and_are_reproducible(
        seed in any::<u64>(),
        length in 2u32..8,
        slip in 0.0..=1.0f64,
        commands in prop::collection::vec(command(), 0..200),
    ) {
        let first = run(seed, length, slip, &commands);
        let second = run(seed, length, slip, &commands);
        prop_assert_eq!(&first, &second);
        for (command, result) in commands.iter().zip(&first) {
            if let (Command::Step(a), Ok(_)) = (command, result) {
                prop_assert!((0..2).contains(a), "the out-of-space action {} was accepted", a);
            }
            if let (Command::Step(a), Err(CoreError::InvalidAction { .. })) = (command, result) {
                prop_assert!(!(0..2).contains(a));
            }
        }
    }
}
