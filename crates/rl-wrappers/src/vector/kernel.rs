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
/// termination flag and observation. Vector environments test this.
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
