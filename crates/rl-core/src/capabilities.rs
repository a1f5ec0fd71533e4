//! Capability traits a domain may add to [`Domain`]: deterministic transitions, enumerable
//! transitions, declared constraints and rendering. A planner or agent asks only for what it
//! needs.

use rl_spaces::{DiscreteDistribution, SpaceError};

use crate::{BoxedConstraint, Domain, Mode, Transition, TransitionOutcome};

/// A domain whose transitions need no randomness.
pub trait DeterministicTransitions: Domain {
    /// The one transition from `state` under `action`.
    fn next(
        &self,
        state: &Self::State,
        action: &Self::Action,
        mode: Mode,
    ) -> TransitionOutcome<Self::State>;
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
