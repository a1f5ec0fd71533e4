//! [`BatchStep`]: the capability through which a domain steps a whole batch of states at once,
//! on plain slices of states, actions, generators and results.

use rand_pcg::Pcg64;
use rl_spaces::FlatScalar;

use crate::{Domain, Mode};

/// A domain that can step a batch of states at once. A vector environment built on such a
/// domain (rl-wrappers' `VectorEnvironment::from_kernel`) calls
/// [`step_batch`](Self::step_batch) on each thread's share of the batch instead of stepping
/// the states one by one.
///
/// The kernel must give, for every index, exactly what [`Domain::step`] and
/// [`Domain::observe`] followed by flattening would give: the same next state, reward bits,
/// termination flag and observation, drawing the same numbers from the index's generator.
/// Vector environments test this.
///
/// The caller may pass any state the domain produced, a terminal one included (with
/// next-step autoreset, the states of episodes that ended on the previous step are stepped
/// with the others and their results discarded), so the kernel must not panic on any of them.
///
/// # Example
///
/// A walk on a line whose position moves by the action plus noise, ending beyond ±1; its
/// kernel agrees with its `step` bit for bit:
///
/// ```
/// use rand::{Rng, RngExt, SeedableRng};
/// use rand_pcg::Pcg64;
/// use rl_core::{BatchStep, Domain, Mode, TransitionOutcome, Value};
/// use rl_spaces::{ArrayBox, Discrete, FlatScalar};
///
/// #[derive(Debug, Clone)]
/// struct Walk { actions: Discrete, observations: ArrayBox<f64, 1> }
///
/// impl Walk {
///     /// The one transition both paths share, so that they agree bit for bit.
///     fn next<R: Rng + ?Sized>(position: f64, action: i64, rng: &mut R) -> (f64, f64, bool) {
///         let next = position + 0.1 * (action as f64 - 1.0) + 0.01 * rng.random::<f64>();
///         (next, -next.abs(), next.abs() > 1.0)
///     }
/// }
///
/// impl Domain for Walk {
///     type State = f64;
///     type Observation = [f64; 1];
///     type Action = i64;
///     type ObservationSpace = ArrayBox<f64, 1>;
///     type ActionSpace = Discrete;
///     fn observation_space(&self) -> &ArrayBox<f64, 1> { &self.observations }
///     fn action_space(&self) -> &Discrete { &self.actions }
///     fn initial_state<R: Rng + ?Sized>(&self, _: Mode, rng: &mut R) -> f64 {
///         rng.random::<f64>() - 0.5
///     }
///     fn step<R: Rng + ?Sized>(&self, s: &f64, a: &i64, _: Mode, rng: &mut R) -> TransitionOutcome<f64> {
///         let (next, reward, terminated) = Walk::next(*s, *a, rng);
///         TransitionOutcome::new(next, Value::from_reward(reward), terminated)
///     }
///     fn observe(&self, s: &f64) -> [f64; 1] { [*s] }
///     fn is_terminal(&self, s: &f64) -> bool { s.abs() > 1.0 }
/// }
///
/// impl BatchStep for Walk {
///     fn step_batch<T: FlatScalar>(
///         &self,
///         states: &mut [f64],
///         actions: &[i64],
///         _mode: Mode,
///         rngs: &mut [Pcg64],
///         rewards: &mut [f64],
///         terminated: &mut [bool],
///         observations: &mut [T],
///     ) {
///         let outputs = rewards.iter_mut().zip(terminated.iter_mut()).zip(observations.iter_mut());
///         let inputs = states.iter_mut().zip(actions).zip(rngs.iter_mut());
///         for (((position, action), rng), ((reward, done), observation)) in inputs.zip(outputs) {
///             let (next, r, t) = Walk::next(*position, *action, rng);
///             *position = next;
///             (*reward, *done, *observation) = (r, t, T::from_f64(next));
///         }
///     }
/// }
///
/// let walk = Walk { actions: Discrete::new(3)?, observations: ArrayBox::new([-2.0], [2.0])? };
/// let mut states = [0.0, 0.5, -0.5];
/// let mut rngs: Vec<Pcg64> = (0..3).map(Pcg64::seed_from_u64).collect();
/// let (mut rewards, mut terminated, mut observations) = ([0.0; 3], [false; 3], [0.0f32; 3]);
/// let before = (states, rngs.clone());
/// walk.step_batch(&mut states, &[2, 0, 1], Mode::Training, &mut rngs, &mut rewards, &mut terminated, &mut observations);
/// // The same as stepping each state with its own generator.
/// let (old_states, mut old_rngs) = before;
/// for (i, action) in [2, 0, 1].iter().enumerate() {
///     let outcome = walk.step(&old_states[i], action, Mode::Training, &mut old_rngs[i]);
///     assert_eq!(outcome.next_state.to_bits(), states[i].to_bits());
///     assert_eq!(outcome.value.reward().to_bits(), rewards[i].to_bits());
///     assert_eq!(outcome.terminated, terminated[i]);
///     assert_eq!(observations[i], states[i] as f32);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait BatchStep: Domain + Sync {
    /// Steps every state of `states` with the action of the same index, drawing randomness
    /// (if any) from the generator of the same index, and writes each result at that index:
    /// the reward, whether the state reached is terminal, and the flattened observation of
    /// the state reached (`observations` holds one row of the observation space's flat
    /// dimension per state). The states are replaced by the states reached.
    ///
    /// The caller passes slices of one length (in rows, for `observations`) and actions that
    /// are elements of the action space. Should the lengths differ, the kernel steps only as
    /// many states as every slice covers, and never panics.
    #[allow(clippy::too_many_arguments)]
    fn step_batch<T: FlatScalar>(
        &self,
        states: &mut [Self::State],
        actions: &[Self::Action],
        mode: Mode,
        rngs: &mut [Pcg64],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
    );
}
