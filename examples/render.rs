//! Writes pictures of the `rl-domains` domains as SVG files: a GridWorld with its agent,
//! the same GridWorld's values and greedy actions after value iteration, a CartPole frame
//! and a MountainCar frame.
//!
//! ```text
//! cargo run --example render -- [DIRECTORY]    # default: target/render/
//! ```

use std::error::Error;
use std::path::PathBuf;

use rl_core::{Domain, EnumerableTransitions, Mode, Render};
use rl_domains::cartpole::{CartPole, CartPoleParams, CartPoleState};
use rl_domains::gridworld::{GridAction, GridWorld, GridWorldParams};
use rl_domains::mountain_car::{MountainCar, MountainCarParams, MountainCarState};

/// Value iteration on the enumerable transitions: the optimal values and greedy actions of
/// every cell, by state index (terminal and blocked cells get value 0 and no action).
fn value_iteration(domain: &GridWorld) -> (Vec<f64>, Vec<Option<GridAction>>) {
    let count = domain.map().cell_count();
    let discount = domain.discount();
    let mut values = vec![0.0; count];
    let mut greedy = vec![None; count];
    for _ in 0..1000 {
        let mut change: f64 = 0.0;
        for index in 0..count {
            let Some(cell) = domain.cell_of_index(index) else {
                continue;
            };
            if domain.is_terminal(&cell) || domain.possible_actions(cell).is_empty() {
                continue;
            }
            let mut best: Option<(f64, GridAction)> = None;
            for action in GridAction::ALL {
                let value: f64 = domain
                    .transitions(&cell, &i64::from(action), Mode::Training)
                    .iter()
                    .map(|outcome| {
                        let next = domain
                            .state_index(outcome.next_state)
                            .map_or(0.0, |i| values[i]);
                        let future = if outcome.terminated {
                            0.0
                        } else {
                            discount * next
                        };
                        outcome.probability * (outcome.value.reward() + future)
                    })
                    .sum();
                if best.is_none_or(|(best_value, _)| value > best_value) {
                    best = Some((value, action));
                }
            }
            if let Some((value, action)) = best {
                change = change.max((value - values[index]).abs());
                values[index] = value;
                greedy[index] = Some(action);
            }
        }
        if change < 1e-10 {
            break;
        }
    }
    (values, greedy)
}

fn main() -> Result<(), Box<dyn Error>> {
    let directory = std::env::args()
        .nth(1)
        .map_or_else(|| PathBuf::from("target/render"), PathBuf::from);
    std::fs::create_dir_all(&directory)?;
    let mut written = Vec::new();
    let mut write = |name: &str, svg: String| -> std::io::Result<()> {
        let path = directory.join(name);
        std::fs::write(&path, svg)?;
        written.push(path);
        Ok(())
    };

    let gridworld = GridWorld::builtin("4x5", GridWorldParams::default())?;
    let start = gridworld.map().start();
    println!(
        "GridWorld 4x5 (A is the agent):\n{}",
        gridworld.render_text(&start)
    );
    write("gridworld_4x5.svg", gridworld.render_svg(&start))?;
    let (values, greedy) = value_iteration(&gridworld);
    println!(
        "Optimal values and greedy actions:\n{}",
        gridworld.render_values_text(&values, &greedy)?
    );
    write(
        "gridworld_4x5_values.svg",
        gridworld.render_values_svg(&values, &greedy)?,
    )?;

    let rooms = GridWorld::builtin("11x11-Rooms", GridWorldParams::default())?;
    let (values, greedy) = value_iteration(&rooms);
    write(
        "gridworld_11x11-Rooms.svg",
        rooms.render_svg(&rooms.map().start()),
    )?;
    write(
        "gridworld_11x11-Rooms_values.svg",
        rooms.render_values_svg(&values, &greedy)?,
    )?;

    let cartpole = CartPole::new(CartPoleParams::default())?;
    let state = CartPoleState::from_array([0.6, 0.2, 0.12, -0.3]);
    println!("CartPole:\n{}", cartpole.render_text(&state));
    write("cartpole.svg", cartpole.render_svg(&state))?;

    let mountain_car = MountainCar::new(MountainCarParams::default())?;
    let state = MountainCarState {
        position: -0.9,
        velocity: -0.02,
    };
    println!("MountainCar:\n{}", mountain_car.render_text(&state));
    write("mountain_car.svg", mountain_car.render_svg(&state))?;

    for path in &written {
        println!("wrote {}", path.display());
    }
    Ok(())
}
