//! Stacks the last 4 observations of an environment, through an outer environment, into one
//! flat `f32` vector, and shows them along an episode: `cargo run -p rlrs-wrappers --example
//! stack_observations`.

use std::num::{NonZeroU64, NonZeroUsize};

use rl_core::corridor::{Corridor, LEFT, RIGHT};
use rl_core::{CoreError, Environment, Mode, Simulator};
use rl_wrappers::OuterEnvironment;
use rl_wrappers::stateful::{HistoryStack, Padding, TimeLimit};

fn main() -> Result<(), CoreError> {
    // A slippery corridor of 4 cells: its observation, the cell, is a one-hot vector of 4.
    let simulator = Simulator::new(Corridor::new(4, 0.2)?, 7);
    let outer = OuterEnvironment::<_, _, f32>::identity(simulator)?;
    let four = NonZeroUsize::new(4).expect("4 is not zero");
    let stacked = HistoryStack::uniform(outer, four, Padding::RepeatFirst)?;
    let mut env = TimeLimit::new(stacked, NonZeroU64::new(12).expect("12 is not zero"));

    let space = env.observation_space();
    println!("observation space: {space}");
    println!("flat dimension: {}", space.layout().flat_dim());

    let first = env.reset(Mode::Training)?;
    println!("reset     {:?}", first.as_slice());
    for step in 1.. {
        let action = if step % 4 == 0 { LEFT } else { RIGHT };
        let outcome = env.step(&action)?;
        // The flat vector a network would read: 4 one-hot cells, oldest first, newest last.
        let input: &[f32] = outcome.observation.as_slice();
        println!("step {step:>2}   {input:?}  reward {}", outcome.reward());
        if outcome.is_done() {
            let why = if outcome.terminated {
                "terminated"
            } else {
                "truncated"
            };
            println!("episode {why} after {step} steps");
            break;
        }
    }
    Ok(())
}
