//! Property tests: random commands (resets in random modes, valid and invalid actions, seeds)
//! through every wrapper and through vector environments never panic, and a fixed seed gives
//! a fixed trajectory.

use crate::common;

use std::fmt::Debug;
use std::num::{NonZeroU64, NonZeroUsize};

use proptest::prelude::*;
use rl_core::{CoreError, Environment, Mode, Simulator};
use rl_wrappers::stateful::{
    ByMode, EpisodeStatistics, HistoryStack, ModeSwitch, NormalizeObservation, NormalizeReward,
    Padding, StickyAction, TimeLimit,
};
use rl_wrappers::stateless::{ClipAction, ClipReward, OneHotAction, RescaleAction, ScaleReward};
use rl_wrappers::vector::{
    Autoreset, EnvironmentVector, KernelVector, VectorEnvironment, VectorOptions,
};
use rl_wrappers::{OuterEnvironment, VectorError};

use common::{Drift, Push};

#[derive(Debug, Clone)]
enum Command {
    Reset(Mode),
    /// An action: the integer for discrete action spaces, the float for continuous ones.
    Step(i64, f64),
    Seed(u64),
}

fn mode() -> impl Strategy<Value = Mode> {
    prop_oneof![Just(Mode::Training), (0u32..3).prop_map(Mode::Evaluation)]
}

fn command() -> impl Strategy<Value = Command> {
    let float = prop_oneof![4 => -2.0..2.0f64, 1 => any::<f64>()];
    prop_oneof![
        1 => mode().prop_map(Command::Reset),
        8 => (prop_oneof![4 => 0i64..3, 1 => any::<i64>()], float).prop_map(|(i, f)| Command::Step(i, f)),
        1 => any::<u64>().prop_map(Command::Seed),
    ]
}

/// Runs `commands` on `env`, with actions made by `action`, and records every result.
fn run<E: Environment>(
    mut env: E,
    commands: &[Command],
    action: impl Fn(i64, f64) -> E::Action,
) -> Vec<String>
where
    E::Observation: Debug,
{
    commands
        .iter()
        .map(|c| match c {
            Command::Reset(mode) => format!("{:?}", env.reset(*mode)),
            Command::Step(i, f) => format!("{:?}", env.step(&action(*i, *f))),
            Command::Seed(s) => {
                env.seed(*s);
                String::new()
            }
        })
        .collect()
}

fn drift() -> Simulator<Drift> {
    Simulator::new(Drift::new(20, 0.1), 7)
}

fn discrete(i: i64, _: f64) -> i64 {
    i
}

fn one_hot(i: i64, f: f64) -> Vec<f32> {
    match i {
        0..=2 => (0..3).map(|k| if k == i { 1.0 } else { 0.0 }).collect(),
        _ => vec![f as f32; (i.rem_euclid(5)) as usize],
    }
}

fn continuous(i: i64, f: f64) -> [f32; 2] {
    [f as f32, (i % 3) as f32 * 0.5]
}

/// Every wrapper's trajectory under `commands`.
fn all(seed: u64, commands: &[Command]) -> Vec<Vec<String>> {
    let outer = || OuterEnvironment::<_, _, f32>::identity(drift()).expect("numeric");
    let limit = NonZeroU64::new(5).expect("non-zero");
    vec![
        run(outer(), commands, discrete),
        run(
            HistoryStack::uniform(
                outer(),
                NonZeroUsize::new(3).expect("non-zero"),
                Padding::Zeros,
            )
            .expect("valid"),
            commands,
            discrete,
        ),
        run(
            NormalizeObservation::new(outer()).expect("numeric"),
            commands,
            discrete,
        ),
        run(TimeLimit::new(drift(), limit), commands, discrete),
        run(
            NormalizeReward::new(drift(), 0.9).expect("discount"),
            commands,
            discrete,
        ),
        run(
            ScaleReward::new(drift(), 0.5).expect("finite"),
            commands,
            discrete,
        ),
        run(
            ClipReward::new(drift(), -0.1, 0.1).expect("interval"),
            commands,
            discrete,
        ),
        run(
            EpisodeStatistics::new(drift()).with_info(true),
            commands,
            discrete,
        ),
        run(
            StickyAction::new(drift(), ByMode::new(0.5, 0.0), seed).expect("probabilities"),
            commands,
            discrete,
        ),
        run(
            ModeSwitch::new(
                TimeLimit::new(drift(), limit),
                ByMode::new(limit, NonZeroU64::MIN),
                |e: &mut TimeLimit<_>, l: &NonZeroU64| e.set_max_steps(*l),
            ),
            commands,
            discrete,
        ),
        run(
            OneHotAction::<_, f32>::new(drift()).expect("finite"),
            commands,
            one_hot,
        ),
        run(
            ClipAction::new(Simulator::new(Push::new(), 0)).expect("a float box"),
            commands,
            continuous,
        ),
        run(
            RescaleAction::new(Simulator::new(Push::new(), 0)).expect("bounded"),
            commands,
            continuous,
        ),
    ]
}

#[derive(Debug, Clone)]
enum VectorCommand {
    Reset(Mode),
    Step(Vec<i64>),
    ResetEnded,
    Seed(u64),
}

fn vector_command() -> impl Strategy<Value = VectorCommand> {
    let actions = prop::collection::vec(prop_oneof![9 => 0i64..3, 1 => any::<i64>()], 3..6);
    prop_oneof![
        1 => mode().prop_map(VectorCommand::Reset),
        8 => actions.prop_map(VectorCommand::Step),
        1 => Just(VectorCommand::ResetEnded),
        1 => any::<u64>().prop_map(VectorCommand::Seed),
    ]
}

/// Runs `commands` on `vector` and records every result and the buffers after it.
fn run_vector<S: rl_core::SplitStates<T, Action = i64>, T: rl_spaces::FlatScalar>(
    mut vector: VectorEnvironment<S, T>,
    commands: &[VectorCommand],
) -> Vec<String> {
    commands
        .iter()
        .map(|c| {
            let result: Result<(), VectorError> = match c {
                VectorCommand::Reset(mode) => vector.reset(*mode),
                VectorCommand::Step(actions) => vector.step(actions),
                VectorCommand::ResetEnded => vector.reset_ended(),
                VectorCommand::Seed(s) => vector.seed(*s),
            };
            format!(
                "{result:?} {:?} {:?} {:?} {:?} {:?}",
                vector.observations(),
                vector.rewards(),
                vector.terminated(),
                vector.truncated(),
                vector.final_mask()
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_commands_never_panic_a_wrapper_and_are_reproducible(
        seed in any::<u64>(),
        commands in prop::collection::vec(command(), 0..120),
    ) {
        let first = all(seed, &commands);
        let second = all(seed, &commands);
        prop_assert_eq!(&first, &second);
        // Actions outside Discrete(3) never succeed, and only they are called invalid.
        let time_limit = &first[3];
        for (command, result) in commands.iter().zip(time_limit) {
            if let Command::Step(i, _) = command {
                let valid = (0..3).contains(i);
                prop_assert!(valid || result.starts_with("Err("), "{:?} gave {}", command, result);
                prop_assert!(!valid || !result.contains("InvalidAction"), "{:?} gave {}", command, result);
            }
        }
    }

    #[test]
    fn random_commands_never_panic_a_vector_and_are_reproducible(
        seed in any::<u64>(),
        autoreset in prop_oneof![Just(Autoreset::NextStep), Just(Autoreset::SameStep), Just(Autoreset::Disabled)],
        threads in 1usize..5,
        commands in prop::collection::vec(vector_command(), 0..60),
    ) {
        let options = VectorOptions::new().with_autoreset(autoreset).with_threads(NonZeroUsize::new(threads).expect("non-zero"));
        let count = NonZeroUsize::new(4).expect("non-zero");
        let drift = Drift::new(6, 0.1);
        let copies = || EnvironmentVector::<_, f32>::from_environments(count, seed, options, |_| Simulator::new(drift.clone(), 0)).expect("valid");
        let kernel = || KernelVector::<_, f32>::from_kernel(drift.clone(), count, seed, options).expect("valid");
        let first = run_vector(copies(), &commands);
        prop_assert_eq!(&first, &run_vector(copies(), &commands));
        prop_assert_eq!(&first, &run_vector(kernel(), &commands), "the kernel agrees with the copies");
        for (command, record) in commands.iter().zip(&first) {
            if let VectorCommand::Step(actions) = command {
                if actions.len() != 4 {
                    let refused = record.starts_with("Err(ActionCount") || record.starts_with("Err(NotStarted");
                    prop_assert!(refused, "{}", record);
                }
            }
        }
    }
}

#[test]
fn core_errors_name_what_went_wrong() {
    let mut env = TimeLimit::new(drift(), NonZeroU64::MIN);
    env.reset(Mode::Training).expect("reset");
    let error = env.step(&9).expect_err("9 is no action");
    assert_eq!(
        error,
        CoreError::InvalidAction {
            action: "9".to_owned(),
            space: "Discrete(3)".to_owned()
        }
    );
}
