//! [`BlockStep`]: a structure-of-arrays kernel written as the step of one block of states, and
//! the scaffold every such kernel shares: the [`BatchStep`] it gets (the processor dispatch,
//! the blocks, loading and storing the states, the results and the observation rows, small
//! batches stepped state by state) and [`check_block_kernel`], which compares the kernel
//! compiled for every instruction set the processor has with [`Domain::step`].

use rl_spaces::{FlatScalar, FlattenSpace};

use crate::{
    BatchStep, DeterministicTransitions, Domain, Info, KernelScratch, Mode, NumpyGenerator,
};

/// The number of states a block kernel steps together: its lanes. A block's arrays fit the
/// processor's first-level cache with room to spare.
pub const BLOCK: usize = 64;

/// Below this many states a batch is stepped state by state
/// ([`DeterministicTransitions::next`]): too few for a block to pay for setting it up.
const SMALL_BATCH: usize = 8;

/// What the step of a block writes for each lane besides its state: the reward and whether
/// the state reached is terminal.
#[derive(Debug, Clone)]
pub struct LaneResults {
    /// Each lane's reward.
    pub rewards: [f64; BLOCK],
    /// Whether each lane's state reached is terminal.
    pub terminated: [bool; BLOCK],
}

impl Default for LaneResults {
    fn default() -> Self {
        LaneResults {
            rewards: [0.0; BLOCK],
            terminated: [false; BLOCK],
        }
    }
}

/// A structure-of-arrays kernel of a deterministic domain, written as the step of one block of
/// at most [`BLOCK`] states held in the kernel's own local arrays (its [`Lanes`](Self::Lanes)),
/// a loop without calls or aliasing that the compiler turns into vector instructions.
///
/// That is all a kernel writes: every `BlockStep` is a [`BatchStep`] through one scaffold,
/// which cuts the batch into blocks, [`load`](Self::load)s each state and action into its lane,
/// steps the block, [`store`](Self::store)s each lane's state back, writes the rewards and flags
/// and each observation row (the observation's float32 values, which is how a Box of float32
/// flattens), steps batches of fewer than 8 states one by one with
/// [`DeterministicTransitions::next`], and compiles the block loop for AVX-512, AVX2 and the
/// default target, picking the widest the processor has at run time (the `multiversion`
/// crate). Vector instructions round each lane as scalar ones do and Rust never
/// fuses a multiplication and an addition, so every version gives the same bits when the block
/// step performs the step's operations in the step's order. [`check_block_kernel`] checks
/// that, for every version the processor has.
///
/// The observations are arrays of float32 values (a Box of float32).
///
/// # Example
///
/// A walk on a line whose position moves by the action, ending beyond ±1:
///
/// ```
/// use rand::Rng;
/// use rl_core::{BLOCK, BlockStep, DeterministicTransitions, Domain, LaneResults, Mode};
/// use rl_core::{TransitionOutcome, Value, check_block_kernel};
/// use rl_spaces::{ArrayBox, Discrete};
///
/// #[derive(Debug, Clone)]
/// struct Walk { actions: Discrete, observations: ArrayBox<f32, 1> }
///
/// /// The one definition of a move, which the step and the kernel share.
/// fn walk(position: f64, action: i64) -> (f64, f64, bool) {
///     let next = position + 0.25 * (action as f64 - 1.0);
///     (next, -next.abs(), next.abs() > 1.0)
/// }
///
/// impl Domain for Walk {
///     type State = f64;
///     type Observation = [f32; 1];
///     type Action = i64;
///     type ObservationSpace = ArrayBox<f32, 1>;
///     type ActionSpace = Discrete;
///     fn observation_space(&self) -> &ArrayBox<f32, 1> { &self.observations }
///     fn action_space(&self) -> &Discrete { &self.actions }
///     fn initial_state<R: Rng + ?Sized>(&self, _: Mode, _: &mut R) -> f64 { 0.0 }
///     fn step<R: Rng + ?Sized>(&self, s: &f64, a: &i64, _: Mode, _: &mut R) -> TransitionOutcome<f64> {
///         let (next, reward, terminated) = walk(*s, *a);
///         TransitionOutcome::new(next, Value::from_reward(reward), terminated)
///     }
///     fn observe(&self, s: &f64) -> [f32; 1] { [*s as f32] }
///     fn is_terminal(&self, s: &f64) -> bool { s.abs() > 1.0 }
/// }
///
/// impl DeterministicTransitions for Walk {}
///
/// /// A block of positions and actions.
/// struct Lanes { positions: [f64; BLOCK], actions: [i64; BLOCK] }
///
/// impl Default for Lanes {
///     fn default() -> Self { Lanes { positions: [0.0; BLOCK], actions: [0; BLOCK] } }
/// }
///
/// impl BlockStep for Walk {
///     type Lanes = Lanes;
///     fn load(&self, lanes: &mut Lanes, lane: usize, state: &f64, action: &i64) {
///         (lanes.positions[lane], lanes.actions[lane]) = (*state, *action);
///     }
///     fn step_block(&self, lanes: &mut Lanes, len: usize, _: Mode, results: &mut LaneResults) {
///         for lane in 0..len.min(BLOCK) {
///             let (next, reward, terminated) = walk(lanes.positions[lane], lanes.actions[lane]);
///             lanes.positions[lane] = next;
///             (results.rewards[lane], results.terminated[lane]) = (reward, terminated);
///         }
///     }
///     fn store(&self, lanes: &Lanes, lane: usize) -> f64 {
///         lanes.positions[lane]
///     }
/// }
///
/// let walk = Walk { actions: Discrete::new(3)?, observations: ArrayBox::new([-2.0], [2.0])? };
/// // Two blocks and a partial one, compared with the step on every instruction set.
/// let states: Vec<f64> = (0..150).map(|i| f64::from(i) / 100.0 - 0.75).collect();
/// let actions: Vec<i64> = (0..150).map(|i| i % 3).collect();
/// assert_eq!(check_block_kernel(&walk, &states, &actions), Ok(()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait BlockStep:
    DeterministicTransitions<ObservationSpace: FlattenSpace, Observation: AsRef<[f32]>> + Sync
{
    /// A block of [`BLOCK`] states in local arrays (columns of the states' fields, the lanes'
    /// actions and any intermediate values), which nothing else can point into. A caller that
    /// steps a batch again and again keeps them between calls
    /// ([`BatchStep::step_batch_with`]), so that they are made (zeroed) once rather than at every
    /// call; a lane beyond a partial block's length may hold any earlier block's values, which
    /// the scaffold discards.
    type Lanes: Default + Send + 'static;

    /// Puts `state` and `action` into lane `lane` (below [`BLOCK`]) of `lanes`.
    fn load(
        &self,
        lanes: &mut Self::Lanes,
        lane: usize,
        state: &Self::State,
        action: &Self::Action,
    );

    /// Steps the first `len` lanes (at most [`BLOCK`]) in place as [`Domain::step`] in `mode`
    /// steps their states, writing each lane's reward and termination flag into `results`.
    fn step_block(
        &self,
        lanes: &mut Self::Lanes,
        len: usize,
        mode: Mode,
        results: &mut LaneResults,
    );

    /// The state of lane `lane` (below [`BLOCK`]).
    fn store(&self, lanes: &Self::Lanes, lane: usize) -> Self::State;

    /// [`BatchStep::writes_infos`] of this kernel: `false` by default.
    #[inline]
    fn writes_infos(&self) -> bool {
        false
    }

    /// [`BatchStep::write_infos`] of this kernel: the default writes nothing.
    #[inline]
    fn write_infos(&self, states: &[Self::State], actions: &[Self::Action], infos: &mut [Info]) {
        let _ = (states, actions, infos);
    }
}

/// A block kernel's lanes and their results: its scratch space ([`KernelScratch`]).
#[derive(Default)]
struct Lanes<L> {
    lanes: L,
    results: LaneResults,
}

impl<K: BlockStep> BatchStep for K {
    /// The block kernel's steps: states in blocks of [`BLOCK`] by the widest instruction set
    /// the processor has, batches of fewer than 8 states one by one
    /// ([`DeterministicTransitions::next`]). Draws nothing from `rngs`, whose length is not
    /// checked.
    #[inline]
    fn step_batch<T: FlatScalar>(
        &self,
        states: &mut [K::State],
        actions: &[K::Action],
        mode: Mode,
        _rngs: &mut [NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
    ) {
        let batch = Batch::cut(
            self,
            states,
            actions,
            mode,
            rewards,
            terminated,
            observations,
        );
        // Lanes of this call only (on the stack: no allocation).
        batch.step(self, None);
    }

    /// Makes the lanes in `scratch` ([`BatchStep::prepare_scratch`]).
    fn prepare_scratch(&self, scratch: &mut KernelScratch) {
        scratch.get_or_default::<Lanes<K::Lanes>>();
    }

    /// As [`step_batch`](BatchStep::step_batch), with the lanes kept in `scratch`.
    #[inline]
    fn step_batch_with<T: FlatScalar>(
        &self,
        scratch: &mut KernelScratch,
        states: &mut [K::State],
        actions: &[K::Action],
        mode: Mode,
        _rngs: &mut [NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
    ) {
        let batch = Batch::cut(
            self,
            states,
            actions,
            mode,
            rewards,
            terminated,
            observations,
        );
        batch.step(self, Some(scratch));
    }

    #[inline]
    fn writes_infos(&self) -> bool {
        BlockStep::writes_infos(self)
    }

    #[inline]
    fn write_infos(&self, states: &[K::State], actions: &[K::Action], infos: &mut [Info]) {
        BlockStep::write_infos(self, states, actions, infos);
    }
}

/// The slices of one kernel call, checked to be of one length ([`check_batch_lengths`](crate::check_batch_lengths)),
/// with the mode and the observation rows' width.
pub(crate) struct Batch<'a, K: Domain, T> {
    states: &'a mut [K::State],
    actions: &'a [K::Action],
    mode: Mode,
    rewards: &'a mut [f64],
    terminated: &'a mut [bool],
    observations: &'a mut [T],
    /// The observation space's flat dimension: the length of each row.
    width: usize,
}

impl<'a, K, T> Batch<'a, K, T>
where
    K: BlockStep,
    T: FlatScalar,
{
    /// The slices of a call of `kernel`'s step.
    ///
    /// # Panics
    ///
    /// When a slice's length differs from the states' (rows, for `observations`): a bug of the
    /// caller ([`BatchStep`]'s contract), reported with every length.
    #[inline]
    fn cut(
        kernel: &K,
        states: &'a mut [K::State],
        actions: &'a [K::Action],
        mode: Mode,
        rewards: &'a mut [f64],
        terminated: &'a mut [bool],
        observations: &'a mut [T],
    ) -> Self {
        let width = kernel.observation_space().flat_dim();
        crate::check_batch_lengths(
            states.len(),
            actions.len(),
            None,
            rewards.len(),
            terminated.len(),
            observations.len(),
            width,
        );
        Batch {
            states,
            actions,
            mode,
            rewards,
            terminated,
            observations,
            width,
        }
    }

    /// Steps the states: one by one below [`SMALL_BATCH`], else in blocks, with the lanes kept
    /// in `scratch` if there is one, else with lanes of this call only.
    #[inline]
    fn step(self, kernel: &K, scratch: Option<&mut KernelScratch>) {
        if self.states.len() < SMALL_BATCH {
            self.step_each(kernel);
        } else if let Some(scratch) = scratch {
            step_blocks(kernel, self, scratch.get_or_default::<Lanes<K::Lanes>>());
        } else {
            step_blocks(kernel, self, &mut Lanes::default());
        }
    }

    /// Steps every state on its own ([`DeterministicTransitions::next`]).
    fn step_each(self, kernel: &K) {
        let width = self.width;
        for (i, (state, action)) in self.states.iter_mut().zip(self.actions).enumerate() {
            let outcome = kernel.next(state, action, self.mode);
            *state = outcome.next_state;
            self.rewards[i] = outcome.value.reward();
            self.terminated[i] = outcome.terminated;
            write_row(
                kernel,
                state,
                &mut self.observations[i * width..(i + 1) * width],
            );
        }
    }

    /// Steps the states a block at a time: the lanes loaded, stepped, stored back and their
    /// results and rows written. Inlined into each instruction set's version of
    /// [`step_blocks`], so that each compiles the whole of it, the kernel's block step
    /// included, for its own instructions.
    #[inline(always)]
    fn step_blocks_inline(self, kernel: &K, lanes: &mut Lanes<K::Lanes>) {
        if self.width == 0 {
            // No rows to cut the observations into: nothing for blocks to gain either.
            return self.step_each(kernel);
        }
        let Batch {
            states,
            actions,
            mode,
            rewards,
            terminated,
            observations,
            width,
        } = self;
        let Lanes { lanes, results } = lanes;
        let blocks = states
            .chunks_mut(BLOCK)
            .zip(actions.chunks(BLOCK))
            .zip(rewards.chunks_mut(BLOCK))
            .zip(terminated.chunks_mut(BLOCK))
            .zip(observations.chunks_mut(width * BLOCK));
        for ((((states, actions), rewards), terminated), rows) in blocks {
            for (lane, (state, action)) in states.iter().zip(actions).enumerate() {
                kernel.load(lanes, lane, state, action);
            }
            kernel.step_block(lanes, states.len(), mode, results);
            // One loop per output, each simple enough to be vectorised; the rows are written
            // from the states stored a whole block earlier, not from ones just stored (which a
            // load would have to wait on).
            for (lane, state) in states.iter_mut().enumerate() {
                *state = kernel.store(lanes, lane);
            }
            let len = states.len();
            rewards.copy_from_slice(&results.rewards[..len]);
            terminated.copy_from_slice(&results.terminated[..len]);
            for (state, row) in states.iter().zip(rows.chunks_exact_mut(width)) {
                write_row(kernel, state, row);
            }
        }
    }
}

/// Writes `state`'s observation, float32 values, into `row` (of the observation space's flat
/// dimension), each converted to `T`: its flattened form, which for a Box of float32 is the
/// values themselves ([`check_block_kernel`] compares it with
/// [`Domain::observe_flat_into`]). Written here rather than through the space's
/// `flatten_into`, which the compiler does not always inline into the blocks' loop (a third
/// slower for CartPole built by id).
///
/// # Panics
///
/// When the observation has not as many values as `row` (a kernel whose observations are not
/// a Box of float32), rather than leaving entries unwritten.
#[inline(always)]
fn write_row<K: BlockStep, T: FlatScalar>(kernel: &K, state: &K::State, row: &mut [T]) {
    let observation = kernel.observe(state);
    let values = observation.as_ref();
    if values.len() != row.len() {
        wrong_row_length(values.len(), row.len());
    }
    for (slot, value) in row.iter_mut().zip(values) {
        *slot = T::from_f64(f64::from(*value));
    }
}

/// Reports an observation of `values` values for a row of `row`, out of the way of
/// [`write_row`]'s loop.
#[cold]
#[inline(never)]
fn wrong_row_length(values: usize, row: usize) -> ! {
    panic!(
        "a block kernel's observation must be a row of its observation space's flat dimension: \
         {values} values for a row of {row}"
    )
}

/// [`Batch::step_blocks_inline`] compiled for AVX-512, AVX2 and the default target; the widest
/// the processor has is picked at run time (by the `multiversion` crate, which checks the
/// processor's features before it calls a version built for them).
#[multiversion::multiversion(targets("x86_64+avx512f", "x86_64+avx2"))]
fn step_blocks<K: BlockStep, T: FlatScalar>(
    kernel: &K,
    batch: Batch<'_, K, T>,
    lanes: &mut Lanes<K::Lanes>,
) {
    batch.step_blocks_inline(kernel, lanes);
}

/// [`Batch::step_blocks_inline`] compiled for AVX2 where the processor has it (for the default
/// target elsewhere), for [`check_block_kernel`].
#[multiversion::multiversion(targets("x86_64+avx2"))]
fn step_blocks_avx2<K: BlockStep, T: FlatScalar>(
    kernel: &K,
    batch: Batch<'_, K, T>,
    lanes: &mut Lanes<K::Lanes>,
) {
    batch.step_blocks_inline(kernel, lanes);
}

/// [`Batch::step_blocks_inline`] compiled for AVX-512 where the processor has it (for the
/// default target elsewhere), for [`check_block_kernel`].
#[multiversion::multiversion(targets("x86_64+avx512f"))]
fn step_blocks_avx512<K: BlockStep, T: FlatScalar>(
    kernel: &K,
    batch: Batch<'_, K, T>,
    lanes: &mut Lanes<K::Lanes>,
) {
    batch.step_blocks_inline(kernel, lanes);
}

/// [`Batch::step_blocks_inline`] compiled for the default target only, for
/// [`check_block_kernel`].
fn step_blocks_default<K: BlockStep, T: FlatScalar>(
    kernel: &K,
    batch: Batch<'_, K, T>,
    lanes: &mut Lanes<K::Lanes>,
) {
    batch.step_blocks_inline(kernel, lanes);
}

/// The instruction sets [`check_block_kernel`] compiles a kernel for (each where the processor
/// has it, the default target's code elsewhere), then the version picked at run time.
const VERSIONS: [&str; 4] = ["default", "AVX2", "AVX-512", "dispatched"];

/// Checks `kernel`'s block step against its domain's step: steps `states` with `actions` (of
/// one length) by every version of the block loop, compiled for the default target, for AVX2
/// and for AVX-512 (each where the processor has it, the default target's code elsewhere) and
/// picked at run time, in blocks of [`BLOCK`] and a partial one, and compares everything each
/// writes with [`DeterministicTransitions::next`] and the flattened observation, bit for bit:
/// the states (through their debug text, which tells every float apart but NaN payloads),
/// the rewards, the termination flags and the `f32` observation rows.
///
/// Returns the first difference, naming the version, the state's index and what differs. The
/// unit test of every kernel (rl-domains' CartPole, MountainCar and fast CartPole) is this
/// call on states that reach every branch.
///
/// # Panics
///
/// When `actions` is not as long as `states`.
pub fn check_block_kernel<K>(
    kernel: &K,
    states: &[K::State],
    actions: &[K::Action],
) -> Result<(), String>
where
    K: BlockStep,
{
    assert_eq!(
        states.len(),
        actions.len(),
        "one action per state, {} states and {} actions",
        states.len(),
        actions.len()
    );
    let width = kernel.observation_space().flat_dim();
    let expected = Written::by_step(kernel, states, actions, width);
    for (index, name) in VERSIONS.into_iter().enumerate() {
        let mut written = Written::new(states, width);
        let batch = Batch::cut(
            kernel,
            &mut written.states,
            actions,
            Mode::Training,
            &mut written.rewards,
            &mut written.terminated,
            &mut written.observations,
        );
        let lanes = &mut Lanes::default();
        match index {
            0 => step_blocks_default(kernel, batch, lanes),
            1 => step_blocks_avx2(kernel, batch, lanes),
            2 => step_blocks_avx512(kernel, batch, lanes),
            _ => step_blocks(kernel, batch, lanes),
        }
        written.compare(&expected, width).map_err(|difference| {
            format!("the {name} version of the block kernel differs from the step: {difference}")
        })?;
    }
    Ok(())
}

/// Everything a batch step writes, for [`check_block_kernel`].
struct Written<S> {
    states: Vec<S>,
    rewards: Vec<f64>,
    terminated: Vec<bool>,
    observations: Vec<f32>,
}

impl<S: Clone + std::fmt::Debug> Written<S> {
    /// Buffers for stepping `states`, with rewards and flags that a lane left unwritten shows.
    fn new(states: &[S], width: usize) -> Self {
        Written {
            states: states.to_vec(),
            rewards: vec![f64::NAN; states.len()],
            terminated: vec![false; states.len()],
            observations: vec![f32::NAN; states.len() * width],
        }
    }

    /// What [`DeterministicTransitions::next`] and the flattened observation give, state by
    /// state.
    fn by_step<K>(kernel: &K, states: &[S], actions: &[K::Action], width: usize) -> Self
    where
        K: BlockStep<State = S>,
    {
        let mut written = Written::new(states, width);
        let rows = written.observations.chunks_exact_mut(width.max(1));
        let outputs = written
            .rewards
            .iter_mut()
            .zip(&mut written.terminated)
            .zip(rows);
        for ((state, action), ((reward, done), row)) in
            written.states.iter_mut().zip(actions).zip(outputs)
        {
            let outcome = kernel.next(state, action, Mode::Training);
            *state = outcome.next_state;
            (*reward, *done) = (outcome.value.reward(), outcome.terminated);
            if let Err(error) = kernel.observe_flat_into(state, &mut row[..width]) {
                panic!("an observation of the kernel's domain does not flatten: {error}");
            }
        }
        written
    }

    /// The first difference from `expected`, in words.
    fn compare(&self, expected: &Self, width: usize) -> Result<(), String> {
        for index in 0..self.states.len() {
            let (state, expected_state) = (&self.states[index], &expected.states[index]);
            if format!("{state:?}") != format!("{expected_state:?}") {
                return Err(format!(
                    "state {index} reached {state:?}, not {expected_state:?}"
                ));
            }
            let (reward, expected_reward) = (self.rewards[index], expected.rewards[index]);
            if reward.to_bits() != expected_reward.to_bits() {
                return Err(format!(
                    "state {index} was rewarded {reward:?}, not {expected_reward:?}"
                ));
            }
            if self.terminated[index] != expected.terminated[index] {
                return Err(format!(
                    "state {index} terminated {}, not {}",
                    self.terminated[index], expected.terminated[index]
                ));
            }
            let range = index * width..(index + 1) * width;
            let (row, expected_row) = (
                &self.observations[range.clone()],
                &expected.observations[range],
            );
            let bits = |row: &[f32]| row.iter().map(|value| value.to_bits()).collect::<Vec<_>>();
            if bits(row) != bits(expected_row) {
                return Err(format!(
                    "state {index} was observed as {row:?}, not {expected_row:?}"
                ));
            }
        }
        Ok(())
    }
}
