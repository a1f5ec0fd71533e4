//! Capability traits a domain may add to [`Domain`]: deterministic transitions, enumerable
//! transitions, declared constraints and rendering. A planner or agent asks only for what it
//! needs.

use std::convert::Infallible;

use rand::TryRng;
use rl_spaces::{DiscreteDistribution, SpaceError};

use crate::{BoxedConstraint, Domain, Mode, Transition, TransitionOutcome};

/// A domain whose transitions need no randomness: its [`Domain::step`] draws nothing from the
/// generator it is handed, so a state and an action have one outcome.
///
/// A domain says so once, with an empty impl; its step is then also its one transition,
/// [`next`](Self::next), which needs no generator:
///
/// ```
/// use rand::Rng;
/// use rl_core::{DeterministicTransitions, Domain, Mode, TransitionOutcome, Value};
/// use rl_spaces::Discrete;
///
/// /// A counter from 0 to 9 that each action moves up by the action's value.
/// #[derive(Debug, Clone)]
/// struct Counter { cells: Discrete, moves: Discrete }
///
/// impl Domain for Counter {
///     type State = i64;
///     type Observation = i64;
///     type Action = i64;
///     type ObservationSpace = Discrete;
///     type ActionSpace = Discrete;
///     fn observation_space(&self) -> &Discrete { &self.cells }
///     fn action_space(&self) -> &Discrete { &self.moves }
///     fn initial_state<R: Rng + ?Sized>(&self, _: Mode, _: &mut R) -> i64 { 0 }
///     fn step<R: Rng + ?Sized>(&self, s: &i64, a: &i64, _: Mode, _: &mut R) -> TransitionOutcome<i64> {
///         let next = (s + a).min(9);
///         TransitionOutcome::new(next, Value::from_reward(-1.0), next == 9)
///     }
///     fn observe(&self, s: &i64) -> i64 { *s }
///     fn is_terminal(&self, s: &i64) -> bool { *s == 9 }
/// }
///
/// // Its step draws nothing: it says so once.
/// impl DeterministicTransitions for Counter {}
///
/// let counter = Counter { cells: Discrete::new(10)?, moves: Discrete::new(3)? };
/// let outcome = counter.next(&8, &2, Mode::Training);
/// assert_eq!((outcome.next_state, outcome.terminated), (9, true));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait DeterministicTransitions: Domain {
    /// The one transition from `state` under `action`: [`Domain::step`], handed a generator
    /// that nothing draws from.
    ///
    /// # Panics
    ///
    /// When the step draws a random number: a domain whose step draws is not deterministic,
    /// and implementing this trait for it is a bug of the domain, reported with its type's
    /// name.
    #[inline]
    fn next(
        &self,
        state: &Self::State,
        action: &Self::Action,
        mode: Mode,
    ) -> TransitionOutcome<Self::State> {
        self.step(
            state,
            action,
            mode,
            &mut NoRandomness(std::any::type_name::<Self>()),
        )
    }
}

/// The generator [`DeterministicTransitions::next`] hands to a step: a deterministic domain
/// draws nothing from it, and a draw panics, naming the domain type (its field).
pub(crate) struct NoRandomness(pub(crate) &'static str);

impl NoRandomness {
    /// Reports a draw from a domain that declared its transitions deterministic.
    #[cold]
    fn drawn(&self) -> ! {
        panic!(
            "{} implements DeterministicTransitions, yet its step drew a random number",
            self.0
        )
    }
}

impl TryRng for NoRandomness {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        self.drawn()
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        self.drawn()
    }

    fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Infallible> {
        self.drawn()
    }
}

/// A domain that can list every outcome of a transition with its probability (RLPy's
/// `expectedStep`), for planning and for exact value iteration.
///
/// The outcomes must be the exact distribution of [`Domain::step`]: probabilities in `[0, 1]`
/// summing to one. The conformance checker verifies both the sum and the agreement with
/// sampled frequencies.
pub trait EnumerableTransitions: Domain {
    /// Every outcome of the transition from `state` under `action`, with its probability.
    fn transitions(
        &self,
        state: &Self::State,
        action: &Self::Action,
        mode: Mode,
    ) -> Vec<Transition<Self::State>>;

    /// The distribution of the next state (outcomes listed separately even if they reach the
    /// same state; [`DiscreteDistribution::probability_of`] adds them up).
    fn next_state_distribution(
        &self,
        state: &Self::State,
        action: &Self::Action,
        mode: Mode,
    ) -> Result<DiscreteDistribution<Self::State>, SpaceError> {
        DiscreteDistribution::new(
            self.transitions(state, action, mode)
                .into_iter()
                .map(|t| (t.next_state, t.probability)),
        )
    }
}

/// A domain that declares constraints on its transitions (scikit-decide's constrained
/// domains). The [`Simulator`](crate::Simulator) evaluates them on every step and reports the
/// violated ones in [`StepOutcome::violations`](crate::StepOutcome::violations).
pub trait ConstrainedDomain: Domain {
    /// The constraints, in a fixed order (their index is how violations name them).
    fn constraints(&self) -> Vec<BoxedConstraint<Self::State, Self::Action>>;

    /// How many recent states the constraints' memory keeps (at least 1: the current state).
    fn memory_length(&self) -> std::num::NonZeroUsize {
        std::num::NonZeroUsize::MIN
    }
}

/// A domain that can draw its states (RLPy's `showDomain`).
pub trait Render: Domain {
    /// A text picture of `state`, one line per row where that makes sense.
    fn render_text(&self, state: &Self::State) -> String;

    /// A self-contained SVG picture of `state`.
    fn render_svg(&self, state: &Self::State) -> String;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corridor::{Corridor, RIGHT};

    /// The corridor draws on every step (whether it slips), so declaring it deterministic is a
    /// bug of the declaration, which `next` reports.
    impl DeterministicTransitions for Corridor {}

    #[test]
    fn a_step_that_draws_under_next_panics_naming_the_domain() {
        let corridor = Corridor::new(4, 0.0).expect("valid");
        let payload = std::panic::catch_unwind(|| corridor.next(&0, &RIGHT, Mode::Training))
            .expect_err("the corridor's step draws");
        let message = payload
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default();
        assert!(
            message.contains("Corridor implements DeterministicTransitions, yet its step drew"),
            "{message}"
        );
    }
}
