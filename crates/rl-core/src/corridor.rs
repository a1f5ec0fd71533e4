//! [`Corridor`]: a small, complete domain (slippery walk to a goal) used in examples, in the
//! tests of this crate and of the crates above it, and as a model for domain authors.
//!
//! # Description
//!
//! An agent walks along cells `0..length`, starting at cell 0, toward the goal in the last
//! cell. Each move goes the intended way, except that with probability `slip` it goes the other
//! way. Walls stop the agent at both ends.
//!
//! # Action space
//!
//! `Discrete(2)`: [`LEFT`] = 0, [`RIGHT`] = 1. Moving left is not applicable in cell 0.
//!
//! # Observation space
//!
//! `Discrete(length)`: the agent's cell (the state itself).
//!
//! # Rewards
//!
//! -1 for every step, including the one that reaches the goal.
//!
//! # Starting state
//!
//! Cell 0, always.
//!
//! # Episode end
//!
//! - Termination: the agent reaches the goal cell.
//! - Truncation: 100 steps (the episode cap).
//!
//! # Constraints
//!
//! One declared constraint, "moves toward the goal": the next cell is greater than the current
//! one (violated by slips and by walking into the left wall).

use rand::{Rng, RngExt};
use rl_spaces::Discrete;

use crate::{
    BoundConstraint, BoxedConstraint, ConstrainedDomain, CoreError, Domain, EnumerableTransitions,
    Frame, Inequality, Memory, Mode, Render, RenderFrame, Transition, TransitionOutcome, Value,
};

/// The side of a cell in a corridor's frames, in pixels.
pub const CORRIDOR_CELL_PIXELS: u32 = 8;

/// The action that moves toward cell 0.
pub const LEFT: i64 = 0;
/// The action that moves toward the goal.
pub const RIGHT: i64 = 1;

/// A slippery corridor; see the [module documentation](self).
///
/// ```
/// use rl_core::corridor::Corridor;
/// use rl_core::{check_domain, CheckConfig};
///
/// let report = check_domain(&Corridor::new(6, 0.2)?, &CheckConfig::default());
/// assert!(report.is_ok(), "{report}");
/// # Ok::<(), rl_core::CoreError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Corridor {
    length: i64,
    slip: f64,
    observation_space: Discrete,
    action_space: Discrete,
}

impl Corridor {
    /// The number of steps after which an episode is truncated.
    pub const EPISODE_CAP: u64 = 100;

    /// A corridor of `length` cells (at least 2) with slip probability `slip` in `[0, 1]`.
    pub fn new(length: u32, slip: f64) -> Result<Self, CoreError> {
        if length < 2 {
            return Err(CoreError::invalid_parameter(
                "length",
                format!("{length}; a corridor needs at least 2 cells"),
            ));
        }
        if !(0.0..=1.0).contains(&slip) {
            return Err(CoreError::invalid_parameter(
                "slip",
                format!("{slip} is not a probability in [0, 1]"),
            ));
        }
        Ok(Corridor {
            length: i64::from(length),
            slip,
            observation_space: Discrete::new(u64::from(length))?,
            action_space: Discrete::new(2)?,
        })
    }

    /// The goal cell.
    pub fn goal(&self) -> i64 {
        self.length - 1
    }

    /// The cell reached from `cell` moving in `direction` (-1 or +1), walls included.
    fn moved(&self, cell: i64, direction: i64) -> i64 {
        (cell + direction).clamp(0, self.goal())
    }

    fn outcome(&self, next: i64) -> TransitionOutcome<i64> {
        TransitionOutcome::new(next, Value::from_reward(-1.0), next == self.goal())
    }
}

impl Domain for Corridor {
    type State = i64;
    type Observation = i64;
    type Action = i64;
    type ObservationSpace = Discrete;
    type ActionSpace = Discrete;

    fn observation_space(&self) -> &Discrete {
        &self.observation_space
    }

    fn action_space(&self) -> &Discrete {
        &self.action_space
    }

    fn initial_state<R: Rng + ?Sized>(&self, _mode: Mode, _rng: &mut R) -> i64 {
        0
    }

    fn step<R: Rng + ?Sized>(
        &self,
        state: &i64,
        action: &i64,
        _mode: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<i64> {
        let intended = if *action == RIGHT { 1 } else { -1 };
        // Always draw, so that the generator advances the same way whatever the slip.
        let slipped = rng.random::<f64>() < self.slip;
        let direction = if slipped { -intended } else { intended };
        self.outcome(self.moved(*state, direction))
    }

    fn observe(&self, state: &i64) -> i64 {
        *state
    }

    fn is_terminal(&self, state: &i64) -> bool {
        *state == self.goal()
    }

    fn discount(&self) -> f64 {
        0.95
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(Self::EPISODE_CAP)
    }

    fn is_applicable(&self, state: &i64, action: &i64) -> bool {
        !(*state == 0 && *action == LEFT)
    }

    fn state_space_limits(&self) -> Option<Vec<[f64; 2]>> {
        Some(vec![[0.0, self.goal() as f64]])
    }

    fn state_count(&self) -> Option<usize> {
        usize::try_from(self.length).ok()
    }
}

impl EnumerableTransitions for Corridor {
    fn transitions(&self, state: &i64, action: &i64, _mode: Mode) -> Vec<Transition<i64>> {
        let intended = if *action == RIGHT { 1 } else { -1 };
        [(intended, 1.0 - self.slip), (-intended, self.slip)]
            .into_iter()
            .map(|(direction, probability)| {
                let outcome = self.outcome(self.moved(*state, direction));
                Transition {
                    probability,
                    next_state: outcome.next_state,
                    value: outcome.value,
                    terminated: outcome.terminated,
                }
            })
            .collect()
    }
}

impl ConstrainedDomain for Corridor {
    fn constraints(&self) -> Vec<BoxedConstraint<i64, i64>> {
        let toward_goal = BoundConstraint::new(
            "moves toward the goal",
            true,
            |memory: &Memory<i64>, _: &i64, next: Option<&i64>| match (memory.current(), next) {
                (Some(current), Some(next)) => (next - current) as f64,
                _ => f64::NAN,
            },
            Inequality::Greater,
            0.0,
        );
        toward_goal
            .map(|c| vec![Box::new(c) as BoxedConstraint<i64, i64>])
            .unwrap_or_default()
    }
}

/// One square per cell, [`CORRIDOR_CELL_PIXELS`] wide: the agent's cell black, the goal (the
/// last cell) grey, the others white. The frames of a hand-filled buffer, with no rasteriser.
impl RenderFrame for Corridor {
    fn frame_size(&self) -> (u32, u32) {
        let cells = u32::try_from(self.length).unwrap_or(u32::MAX);
        (
            cells
                .saturating_mul(CORRIDOR_CELL_PIXELS)
                .min(crate::MAX_FRAME_SIDE),
            CORRIDOR_CELL_PIXELS,
        )
    }

    fn draw_frame(&self, state: &i64, frame: &mut Frame) {
        let width = frame.width() as usize;
        let length = self.length as usize;
        let pixels = frame.pixels_mut();
        for (index, pixel) in pixels.chunks_exact_mut(3).enumerate() {
            let cell = (index % width) * length / width;
            let colour = if cell as i64 == *state {
                [0, 0, 0]
            } else if cell + 1 == length {
                [128, 128, 128]
            } else {
                [255, 255, 255]
            };
            pixel.copy_from_slice(&colour);
        }
    }
}

impl Render for Corridor {
    fn render_text(&self, state: &i64) -> String {
        (0..self.length)
            .map(|cell| match cell {
                c if c == *state => 'A',
                c if c == self.goal() => 'G',
                _ => '.',
            })
            .collect()
    }

    fn render_svg(&self, state: &i64) -> String {
        let cell = 40;
        let mut svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{cell}" viewBox="0 0 {} {cell}">"#,
            cell * self.length,
            cell * self.length
        );
        for c in 0..self.length {
            let fill = if c == self.goal() {
                "#7fc97f"
            } else {
                "#f0f0f0"
            };
            svg.push_str(&format!(
                r##"<rect x="{}" y="0" width="{cell}" height="{cell}" fill="{fill}" stroke="#333"/>"##,
                c * cell
            ));
        }
        svg.push_str(&format!(
            r##"<circle class="agent" cx="{}" cy="{}" r="{}" fill="#386cb0"/></svg>"##,
            state * cell + cell / 2,
            cell / 2,
            cell / 3
        ));
        svg
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_validated() {
        assert!(Corridor::new(1, 0.0).is_err());
        assert!(Corridor::new(3, 1.5).is_err());
        assert!(Corridor::new(3, f64::NAN).is_err());
    }

    #[test]
    fn walls_stop_the_agent() {
        let corridor = Corridor::new(3, 0.0).unwrap();
        assert_eq!(corridor.moved(0, -1), 0);
        assert_eq!(corridor.moved(2, 1), 2);
        assert_eq!(corridor.render_text(&1), ".AG");
    }
}
