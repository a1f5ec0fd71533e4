//! What the batch kernels ([`BatchStep`](rl_core::BatchStep)) of CartPole, MountainCar and
//! MountainCarContinuous share: cutting their arguments to one length ([`KernelSlices`]), the
//! one-state-at-a-time loop ([`step_each`]), writing an observation row, and (in tests) the
//! check that every instruction set's version of a kernel gives `Domain::step`'s bits.

use rl_spaces::FlatScalar;

/// The arguments of a kernel call, checked to be of one length
/// ([`rl_core::check_batch_lengths`]: a call with slices of different lengths panics, as
/// [`BatchStep`](rl_core::BatchStep)'s contract says) and re-sliced to it: the states, the
/// actions, the rewards, the termination flags and the observation rows (`len ×
/// observation_size` numbers). Each kernel starts from it, so that its loops run over slices
/// the compiler knows to be of one length, without bounds checks.
pub(crate) struct KernelSlices<'a, S, A, T> {
    pub(crate) states: &'a mut [S],
    pub(crate) actions: &'a [A],
    pub(crate) rewards: &'a mut [f64],
    pub(crate) terminated: &'a mut [bool],
    pub(crate) observations: &'a mut [T],
}

impl<'a, S, A, T> KernelSlices<'a, S, A, T> {
    /// Checks that every argument has the states' length (panicking otherwise) and re-slices
    /// them to it.
    #[inline(always)]
    pub(crate) fn cut(
        states: &'a mut [S],
        actions: &'a [A],
        rewards: &'a mut [f64],
        terminated: &'a mut [bool],
        observations: &'a mut [T],
        observation_size: usize,
    ) -> Self {
        rl_core::check_batch_lengths(
            states.len(),
            actions.len(),
            None,
            rewards.len(),
            terminated.len(),
            observations.len(),
            observation_size,
        );
        let size = observation_size.max(1);
        let len = states.len();
        KernelSlices {
            states: prefix(states, len),
            actions: actions.get(..len).unwrap_or_default(),
            rewards: prefix(rewards, len),
            terminated: prefix(terminated, len),
            observations: prefix(observations, len * size),
        }
    }
}

/// Steps every state of `states` with `step` and writes the results, the way the kernels
/// without blocks do: the state reached replaces the state, `step`'s reward and
/// termination flag go to `rewards` and `terminated`, and `observe` writes the flattened
/// observation into the state's row of `observations` (rows of `observation_size`).
///
/// Slices of different lengths panic ([`KernelSlices`]).
///
/// The loop is written for speed: every slice is cut to the common length first
/// ([`KernelSlices`]), so that the compiler can drop the bounds checks, and `step` and
/// `observe` are inlined into it.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn step_each<S, A, T>(
    states: &mut [S],
    actions: &[A],
    rewards: &mut [f64],
    terminated: &mut [bool],
    observations: &mut [T],
    observation_size: usize,
    mut step: impl FnMut(&S, &A) -> (S, f64, bool),
    mut observe: impl FnMut(&S, &mut [T]),
) where
    T: FlatScalar,
{
    let size = observation_size.max(1);
    let KernelSlices {
        states,
        actions,
        rewards,
        terminated,
        observations,
    } = KernelSlices::cut(states, actions, rewards, terminated, observations, size);
    for ((((state, action), reward), done), row) in states
        .iter_mut()
        .zip(actions)
        .zip(rewards.iter_mut())
        .zip(terminated.iter_mut())
        .zip(observations.chunks_exact_mut(size))
    {
        let (next, step_reward, step_terminated) = step(state, action);
        *state = next;
        *reward = step_reward;
        *done = step_terminated;
        observe(state, row);
    }
}

/// The first `len` entries of `slice` (which has at least `len`: the lengths are checked
/// first), so that loops over several slices of one length need no bounds checks.
#[inline(always)]
pub(crate) fn prefix<T>(slice: &mut [T], len: usize) -> &mut [T] {
    let len = len.min(slice.len());
    slice.get_mut(..len).unwrap_or_default()
}

/// Writes float32 observation values into a row of flat numbers, as `FlattenSpace` does.
#[inline(always)]
pub(crate) fn write_observation<T: FlatScalar>(observation: &[f32], row: &mut [T]) {
    for (slot, value) in row.iter_mut().zip(observation) {
        *slot = T::from_f64(f64::from(*value));
    }
}

/// The check the kernels' unit tests share: every version of a kernel compiled for another
/// instruction set gives the bits of `Domain::step`.
#[cfg(test)]
pub(crate) mod instruction_sets {
    use rand::SeedableRng;
    use rl_core::NumpyGenerator;
    use rl_core::{Domain, Mode};

    use super::KernelSlices;

    /// A version of a kernel: it steps the slices with one instruction set's code.
    pub(crate) type Version<'f, S> = &'f dyn Fn(KernelSlices<'_, S, i64, f32>);

    /// The bits of everything one batch step of `states` writes (states through `state_bits`,
    /// rewards, flags, observation rows of `width`): by `version`, or by `Domain::step` and
    /// `Domain::observe` state by state when `version` is `None`.
    fn step_bits<D, O>(
        domain: &D,
        states: &[D::State],
        actions: &[i64],
        width: usize,
        state_bits: &dyn Fn(&D::State) -> Vec<u64>,
        version: Option<Version<'_, D::State>>,
    ) -> Vec<u64>
    where
        D: Domain<Action = i64, Observation = O>,
        O: AsRef<[f32]>,
    {
        let len = states.len();
        let mut states = states.to_vec();
        let (mut rewards, mut terminated) = (vec![0.0; len], vec![false; len]);
        let mut observations = vec![0.0f32; width * len];
        match version {
            None => {
                let mut rng = NumpyGenerator::seed_from_u64(0);
                let rows = observations.chunks_exact_mut(width);
                let outputs = rewards.iter_mut().zip(terminated.iter_mut()).zip(rows);
                for ((state, action), ((reward, done), row)) in
                    states.iter_mut().zip(actions).zip(outputs)
                {
                    let outcome = domain.step(state, action, Mode::Training, &mut rng);
                    *state = outcome.next_state;
                    (*reward, *done) = (outcome.value.reward(), outcome.terminated);
                    row.copy_from_slice(domain.observe(state).as_ref());
                }
            }
            Some(version) => version(KernelSlices::cut(
                &mut states,
                actions,
                &mut rewards,
                &mut terminated,
                &mut observations,
                width,
            )),
        }
        let states = states.iter().flat_map(state_bits);
        let rewards = rewards.iter().map(|r| r.to_bits());
        let terminated = terminated.iter().map(|t| u64::from(*t));
        let observations = observations.iter().map(|o| u64::from(o.to_bits()));
        states
            .chain(rewards)
            .chain(terminated)
            .chain(observations)
            .collect()
    }

    /// Asserts that every one of `versions` (named) gives, on `states` and `actions`, the bits
    /// of `Domain::step`.
    pub(crate) fn assert_same_bits<D, O>(
        domain: &D,
        states: &[D::State],
        actions: &[i64],
        width: usize,
        state_bits: &dyn Fn(&D::State) -> Vec<u64>,
        versions: &[(&str, Version<'_, D::State>)],
    ) where
        D: Domain<Action = i64, Observation = O>,
        O: AsRef<[f32]>,
    {
        let expected = step_bits(domain, states, actions, width, state_bits, None);
        for (name, version) in versions {
            let bits = step_bits(domain, states, actions, width, state_bits, Some(*version));
            assert!(bits == expected, "the {name} version differs");
        }
    }
}
