//! The capability through which a domain steps a whole batch of states at once, in
//! structure-of-arrays storage: [`BatchStep`], [`StateColumns`] and [`ColumnChunk`].

use rand_pcg::Pcg64;
use rl_core::{Domain, Mode};
use rl_spaces::FlatScalar;

/// A mutable view of a contiguous run of states inside [`StateColumns`], one slice per state
/// variable. Chunks split in two so that threads can step disjoint parts of a batch.
pub trait ColumnChunk: Send + Sized {
    /// The number of states in the chunk.
    fn len(&self) -> usize;

    /// Whether the chunk holds no state.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Splits into the states `0..mid` and `mid..len`. `mid` is at most `len`.
    fn split_at(self, mid: usize) -> (Self, Self);
}

/// Structure-of-arrays storage of a batch of states: one column per state variable.
pub trait StateColumns: Send {
    /// The state of one environment.
    type State;
    /// A mutable view of a run of states.
    type Chunk<'a>: ColumnChunk
    where
        Self: 'a;

    /// Storage for `len` states, each set to `initial`.
    fn filled(len: usize, initial: &Self::State) -> Self;

    /// The number of states.
    fn len(&self) -> usize;

    /// Whether there is no state.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The state at `index` (`index < len`).
    fn get(&self, index: usize) -> Self::State;

    /// Overwrites the state at `index` (`index < len`).
    fn set(&mut self, index: usize, state: &Self::State);

    /// A view of every state, to be split and stepped.
    fn as_chunk(&mut self) -> Self::Chunk<'_>;
}

/// A domain that can step a batch of states at once (a structure-of-arrays kernel). A vector
/// environment built on such a domain calls [`step_batch`](Self::step_batch) instead of
/// stepping copies of the domain one by one.
///
/// The kernel must give, for every index, exactly what [`Domain::step`] and
/// [`Domain::observe`] followed by flattening would give: the same next state, reward bits,
/// termination flag and observation, drawing the same numbers from the index's generator.
/// Vector environments test this.
///
/// # How the vector environment uses it
///
/// [`VectorEnvironment::from_kernel`](crate::vector::VectorEnvironment::from_kernel) owns the
/// columns (built with [`StateColumns::filled`] from a placeholder state, then
/// [`set`](StateColumns::set) at each reset), one `Pcg64` per episode, the step counts and
/// the episode cap; it calls `step_batch` once per step per thread, on a contiguous run of
/// that thread's own columns (each thread's share of the batch is stored apart, with room for
/// a few of its neighbours' environments: on several threads the shares' boundaries move with
/// the threads' speeds, and an environment that changes share is moved with
/// [`get`](StateColumns::get) and [`set`](StateColumns::set)). The chunk is
/// [`as_chunk`](StateColumns::as_chunk) of the column set, split with
/// [`split_at`](ColumnChunk::split_at): its first state need not be the column set's first.
///
/// Every state of the chunk is stepped, including the states of episodes that ended on the
/// previous step and are about to be reset (with next-step autoreset): the vector environment
/// then discards that step's results and restores the episode's generator. So the kernel may
/// be given any state it produced (a terminal one included) and must not panic on it.
///
/// # Example
///
/// A walk on a line whose position moves by the action plus noise, ending beyond ±1:
///
/// ```
/// use rand::{Rng, RngExt};
/// use rand_pcg::Pcg64;
/// use rl_core::{Domain, Mode, TransitionOutcome, Value};
/// use rl_spaces::{ArrayBox, Discrete, FlatScalar};
/// use rl_wrappers::vector::{BatchStep, ColumnChunk, StateColumns};
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
/// /// The positions of a batch: one column.
/// struct Positions(Vec<f64>);
/// /// A run of positions.
/// struct PositionChunk<'a>(&'a mut [f64]);
///
/// impl ColumnChunk for PositionChunk<'_> {
///     fn len(&self) -> usize { self.0.len() }
///     fn split_at(self, mid: usize) -> (Self, Self) {
///         let (a, b) = self.0.split_at_mut(mid.min(self.0.len()));
///         (PositionChunk(a), PositionChunk(b))
///     }
/// }
///
/// impl StateColumns for Positions {
///     type State = f64;
///     type Chunk<'a> = PositionChunk<'a>;
///     fn filled(len: usize, initial: &f64) -> Self { Positions(vec![*initial; len]) }
///     fn len(&self) -> usize { self.0.len() }
///     fn get(&self, index: usize) -> f64 { self.0.get(index).copied().unwrap_or_default() }
///     fn set(&mut self, index: usize, state: &f64) {
///         if let Some(s) = self.0.get_mut(index) { *s = *state; }
///     }
///     fn as_chunk(&mut self) -> PositionChunk<'_> { PositionChunk(&mut self.0) }
/// }
///
/// impl BatchStep for Walk {
///     type Columns = Positions;
///     fn step_batch<T: FlatScalar>(
///         &self,
///         states: PositionChunk<'_>,
///         actions: &[i64],
///         _mode: Mode,
///         rngs: &mut [Pcg64],
///         rewards: &mut [f64],
///         terminated: &mut [bool],
///         observations: &mut [T],
///     ) {
///         let outputs = rewards.iter_mut().zip(terminated.iter_mut()).zip(observations.iter_mut());
///         let inputs = states.0.iter_mut().zip(actions).zip(rngs.iter_mut());
///         for (((position, action), rng), ((reward, done), observation)) in inputs.zip(outputs) {
///             let (next, r, t) = Walk::next(*position, *action, rng);
///             *position = next;
///             (*reward, *done, *observation) = (r, t, T::from_f64(next));
///         }
///     }
/// }
///
/// use std::num::NonZeroUsize;
/// use rl_wrappers::vector::{KernelVector, VectorOptions};
///
/// let walk = Walk { actions: Discrete::new(3)?, observations: ArrayBox::new([-2.0], [2.0])? };
/// let count = NonZeroUsize::new(8).expect("non-zero");
/// let mut vector = KernelVector::<_, f32>::from_kernel(walk, count, 1, VectorOptions::new())?;
/// vector.reset(Mode::Training)?;
/// vector.step(&[2; 8])?;
/// assert_eq!(vector.observations().shape(), &[8, 1]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait BatchStep: Domain + Sync {
    /// The storage of a batch of states.
    type Columns: StateColumns<State = Self::State>;

    /// Steps every state of `states` with the action of the same index, drawing randomness
    /// (if any) from the generator of the same index, and writes each result at that index:
    /// the reward, whether the state reached is terminal, and the flattened observation of
    /// the state reached (`observations` holds one row of the observation space's flat
    /// dimension per state). The states are replaced by the states reached.
    ///
    /// All slices have the chunk's length (in rows, for `observations`). Every action is an
    /// element of the action space (the caller checked).
    #[allow(clippy::too_many_arguments)]
    fn step_batch<T: FlatScalar>(
        &self,
        states: <Self::Columns as StateColumns>::Chunk<'_>,
        actions: &[Self::Action],
        mode: Mode,
        rngs: &mut [Pcg64],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
    );
}
