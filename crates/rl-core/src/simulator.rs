//! [`Simulator`]: the adapter that runs episodes of any [`Domain`] as an [`Environment`].

use std::fmt;
use std::num::NonZeroU64;

use crate::NumpyGenerator;
use rand::SeedableRng;

use crate::constraint::{ConstraintSet, Memory, Violations};
use crate::error::ResetReason;
use crate::{
    ConstrainedDomain, CoreError, Domain, Environment, Mode, RandomState, StepOutcome,
    TransitionOutcome,
};

/// Where the simulator is in its episode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    NotStarted,
    Running,
    Ended,
}

/// Runs episodes of a [`Domain`]: owns the state, the random generator, the step count and the
/// episode cap, validates every action, and implements [`Environment`].
///
/// - **Seeding.** The generator is numpy's, [`NumpyGenerator`](crate::NumpyGenerator):
///   [`seed`](Environment::seed)`(s)` makes `NumpyGenerator::seed_from_u64(s)`, numpy's
///   `Generator(PCG64(SeedSequence(s)))`, which is what Gymnasium's `reset(seed=s)` makes, and
///   [`reset`](Environment::reset) never reseeds: it continues the stream, as Gymnasium's
///   `reset()` does. So `seed(s)` then `reset` gives, for a domain that draws as its reference
///   does, the reference's first observation, and later resets follow its stream. The
///   generator's state (its 32-bit buffer included) can be saved and restored.
/// - **Validation.** An action the domain does not accept
///   ([`Domain::accepts_action`](crate::Domain::accepts_action): by default, one outside the
///   action space) is [`CoreError::InvalidAction`], naming the action and the space; the
///   domain never sees it.
/// - **Episode end.** A step that terminates or reaches the episode cap ends the episode;
///   stepping again before a reset is [`CoreError::NeedsReset`]. The step count includes the
///   current step: with a cap of 500, the 500th step is truncated, as with Gymnasium's
///   `TimeLimit`. A step that both terminates and reaches the cap reports both flags
///   (termination wins; see [`StepOutcome::should_bootstrap`]).
/// - **Constraints.** Built with [`with_constraints`](Self::with_constraints), the simulator
///   evaluates the domain's declared constraints on every step and reports the violated ones
///   in [`StepOutcome::violations`].
/// - **No allocation per step** when the domain's state, observation and action are plain
///   values (a counting-allocator test proves it).
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_core::corridor::{Corridor, RIGHT};
///
/// let mut env = Simulator::new(Corridor::new(5, 0.0)?, 42);
/// let first = env.reset(Mode::Training)?;
/// assert_eq!(first, 0);
/// let outcome = env.step(&RIGHT)?;
/// assert_eq!(outcome.observation, 1);
/// assert!(!outcome.is_done());
/// # Ok::<(), rl_core::CoreError>(())
/// ```
pub struct Simulator<D: Domain> {
    domain: D,
    rng: NumpyGenerator,
    state: Option<D::State>,
    status: Status,
    mode: Mode,
    steps: u64,
    episode_cap: Option<NonZeroU64>,
    constraints: Option<ConstraintSet<D::State, D::Action>>,
    memory: Option<Memory<D::State>>,
}

impl<D: Domain> Simulator<D> {
    /// A simulator of `domain` whose generator is seeded with `seed`, truncating episodes at
    /// the domain's episode cap (if any). It ignores declared constraints; see
    /// [`with_constraints`](Self::with_constraints).
    pub fn new(domain: D, seed: u64) -> Self {
        let episode_cap = domain.episode_cap().and_then(NonZeroU64::new);
        Simulator {
            domain,
            rng: NumpyGenerator::seed_from_u64(seed),
            state: None,
            status: Status::NotStarted,
            mode: Mode::Training,
            steps: 0,
            episode_cap,
            constraints: None,
            memory: None,
        }
    }

    /// A simulator that also evaluates the domain's declared constraints on every step.
    /// Errors if the domain declares more than [`Violations::MAX_CONSTRAINTS`].
    pub fn with_constraints(domain: D, seed: u64) -> Result<Self, CoreError>
    where
        D: ConstrainedDomain,
    {
        let constraints = ConstraintSet::of(&domain)?;
        Ok(Simulator::with_constraint_set(domain, seed, constraints))
    }

    /// A simulator that evaluates `constraints` on every step: the domain's
    /// [`ConstraintSet`], built once and shared by many simulators (what environments built
    /// by id do). [`with_constraints`](Self::with_constraints) builds the set itself.
    pub fn with_constraint_set(
        domain: D,
        seed: u64,
        constraints: ConstraintSet<D::State, D::Action>,
    ) -> Self {
        let memory = constraints.memory();
        let mut simulator = Simulator::new(domain, seed);
        simulator.constraints = Some(constraints);
        simulator.memory = Some(memory);
        simulator
    }

    /// The constraints the simulator evaluates (`None` without
    /// [`with_constraints`](Self::with_constraints)).
    pub fn constraint_set(&self) -> Option<&ConstraintSet<D::State, D::Action>> {
        self.constraints.as_ref()
    }

    /// Replaces the episode cap (`None`: never truncate).
    pub fn with_episode_cap(mut self, cap: Option<NonZeroU64>) -> Self {
        self.episode_cap = cap;
        self
    }

    /// The domain.
    pub fn domain(&self) -> &D {
        &self.domain
    }

    /// The current state (`None` before the first reset).
    pub fn state(&self) -> Option<&D::State> {
        self.state.as_ref()
    }

    /// The number of steps taken in the current episode.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The episode cap.
    pub fn episode_cap(&self) -> Option<NonZeroU64> {
        self.episode_cap
    }

    /// Whether an episode is running (reset and not yet ended).
    pub fn is_running(&self) -> bool {
        self.status == Status::Running
    }

    /// The names of the declared constraints, in index order (empty without
    /// [`with_constraints`](Self::with_constraints)).
    pub fn constraint_names(&self) -> Vec<&str> {
        self.constraints
            .iter()
            .flat_map(|constraints| constraints.names())
            .collect()
    }

    /// Starts an episode from a given state instead of an initial state (for planners, tests
    /// and replays), and returns its observation. The step count starts at the steps the state
    /// records as taken ([`Domain::steps_taken`]: 0 for most domains, minigrid's `step_count`),
    /// so the episode cap counts from there; the generator is not touched.
    pub fn reset_to(&mut self, state: D::State, mode: Mode) -> D::Observation {
        let observation = self.domain.observe(&state);
        let steps = self.domain.steps_taken(&state);
        self.start(state, mode);
        self.steps = steps;
        observation
    }

    fn start(&mut self, state: D::State, mode: Mode) {
        if let Some(memory) = self.memory.as_mut() {
            memory.clear();
            memory.push(state.clone());
        }
        self.state = Some(state);
        self.mode = mode;
        self.steps = 0;
        self.status = Status::Running;
    }

    /// Unwraps the domain.
    pub fn into_domain(self) -> D {
        self.domain
    }

    /// Where the episode stands, for a snapshot: `None` before the first reset, else whether
    /// it has ended and its step count.
    pub(crate) fn progress(&self) -> Option<(bool, u64)> {
        match self.status {
            Status::NotStarted => None,
            Status::Running => Some((false, self.steps)),
            Status::Ended => Some((true, self.steps)),
        }
    }

    /// Forgets the episode, as before the first reset (a snapshot taken then).
    pub(crate) fn unstart(&mut self, mode: Mode) {
        if let Some(memory) = self.memory.as_mut() {
            memory.clear();
        }
        self.state = None;
        self.mode = mode;
        self.steps = 0;
        self.status = Status::NotStarted;
    }

    /// Resumes a snapshot's episode: in `state`, `steps` steps in, ended or running (the
    /// generator is set apart, with [`Environment::set_random_state`]). The constraints'
    /// memory restarts from `state`.
    pub(crate) fn resume(&mut self, state: D::State, mode: Mode, steps: u64, ended: bool) {
        self.start(state, mode);
        self.steps = steps;
        if ended {
            self.status = Status::Ended;
        }
    }
}

impl<D: Domain> fmt::Debug for Simulator<D>
where
    D: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Simulator")
            .field("domain", &self.domain)
            .field("state", &self.state)
            .field("status", &self.status)
            .field("mode", &self.mode)
            .field("steps", &self.steps)
            .field("episode_cap", &self.episode_cap)
            .field("constraints", &self.constraints)
            .finish_non_exhaustive()
    }
}

impl<D: Domain + Clone> Clone for Simulator<D>
where
    D::State: Clone,
{
    /// Clones the domain, state, generator and the constraints' memory; the declared
    /// constraints themselves are shared.
    fn clone(&self) -> Self {
        Simulator {
            domain: self.domain.clone(),
            rng: self.rng.clone(),
            state: self.state.clone(),
            status: self.status,
            mode: self.mode,
            steps: self.steps,
            episode_cap: self.episode_cap,
            constraints: self.constraints.clone(),
            memory: self.memory.clone(),
        }
    }
}

/// The error of a step when no episode is running.
#[cold]
#[inline(never)]
fn not_running(status: Status) -> CoreError {
    match status {
        Status::Ended => CoreError::NeedsReset(ResetReason::EpisodeEnded),
        Status::NotStarted | Status::Running => CoreError::NeedsReset(ResetReason::NotStarted),
    }
}

/// The error of a step with an action outside the action space.
#[cold]
#[inline(never)]
fn invalid_action<A: fmt::Debug, S: fmt::Display>(action: &A, space: &S) -> CoreError {
    CoreError::invalid_action(action, space)
}

/// Evaluates the declared constraints on a step (out of line, so that the step of a
/// simulator without constraints stays small).
#[inline(never)]
fn check<S: Clone, A>(
    constraints: &ConstraintSet<S, A>,
    memory: &mut Memory<S>,
    action: &A,
    next: &S,
) -> Violations {
    constraints.check(memory, action, next)
}

impl<D: Domain> Environment for Simulator<D> {
    type Observation = D::Observation;
    type Action = D::Action;
    type ObservationSpace = D::ObservationSpace;
    type ActionSpace = D::ActionSpace;

    fn observation_space(&self) -> &D::ObservationSpace {
        self.domain.observation_space()
    }

    fn action_space(&self) -> &D::ActionSpace {
        self.domain.action_space()
    }

    fn reset(&mut self, mode: Mode) -> Result<D::Observation, CoreError> {
        let state = self.domain.initial_state(mode, &mut self.rng);
        let observation = self.domain.observe(&state);
        self.start(state, mode);
        Ok(observation)
    }

    /// The hot path is kept small enough to inline into the caller's loop: the error cases
    /// and the evaluation of declared constraints are out-of-line functions.
    #[inline]
    fn step(&mut self, action: &D::Action) -> Result<StepOutcome<D::Observation>, CoreError> {
        let state = match (self.status, self.state.as_mut()) {
            (Status::Running, Some(state)) => state,
            (status, _) => return Err(not_running(status)),
        };
        if !self.domain.accepts_action(action) {
            return Err(invalid_action(action, self.domain.action_space()));
        }
        // The state is stepped where it lies, before the constraints see it, so that it goes
        // straight from registers into place rather than through a copy whose address escapes
        // (and a state owning memory, stepped by a domain's own `step_in_place`, keeps it).
        let TransitionOutcome {
            next_state: (),
            value,
            terminated,
            info,
        } = self
            .domain
            .step_in_place(state, action, self.mode, &mut self.rng);
        let next_state = &*state;
        let observation = self.domain.observe(next_state);
        self.steps += 1;
        let truncated = self.episode_cap.is_some_and(|cap| self.steps >= cap.get())
            || self.domain.time_limit_reached(next_state);
        if terminated || truncated {
            self.status = Status::Ended;
        }
        let violations = match (self.constraints.as_ref(), self.memory.as_mut()) {
            (Some(constraints), Some(memory)) => check(constraints, memory, action, next_state),
            _ => Violations::NONE,
        };
        Ok(StepOutcome {
            observation,
            value,
            terminated,
            truncated,
            info,
            violations,
        })
    }

    fn seed(&mut self, seed: u64) {
        self.rng = NumpyGenerator::seed_from_u64(seed);
    }

    /// [`Domain::reset_info`] of the current state (read right after a reset: the first
    /// state's); empty before the first reset.
    fn reset_info(&self) -> crate::Info {
        self.state()
            .map(|state| self.domain.reset_info(state))
            .unwrap_or_default()
    }

    fn constraint_name(&self, index: usize) -> Option<&str> {
        self.constraints.as_ref()?.name(index)
    }

    fn mode(&self) -> Mode {
        self.mode
    }

    fn discount(&self) -> f64 {
        self.domain.discount()
    }

    fn accepts_action(&self, action: &D::Action) -> bool {
        self.domain.accepts_action(action)
    }

    fn is_applicable(&self, action: &D::Action) -> bool {
        self.state
            .as_ref()
            .is_some_and(|s| self.domain.is_applicable(s, action))
    }

    fn random_state(&self) -> Result<RandomState, CoreError> {
        Ok(RandomState::new(self.rng.clone()))
    }

    fn set_random_state(&mut self, state: RandomState) -> Result<(), CoreError> {
        self.rng = state.into_generator();
        Ok(())
    }
}
