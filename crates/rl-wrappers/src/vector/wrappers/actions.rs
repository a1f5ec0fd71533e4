//! Action transforms over a vector of environments with continuous actions:
//! [`VectorClipAction`] (clip into the bounds), [`VectorRescaleAction`] (a linear map from
//! chosen bounds) and [`VectorDiscretizeAction`] (evenly spaced actions per dimension, as one
//! `Discrete` index), over float Box action spaces ([`FloatBox`]).

use std::cell::Cell;

use rl_core::CoreError;
use rl_spaces::{Discrete, Space};

use crate::arithmetic;
use crate::error::VectorError;
use crate::stateless::FloatBox;
use crate::vector::wrappers::{VectorEnv, forward_vector, vector_accessors};

fn invalid(name: &'static str) -> impl Fn(CoreError) -> VectorError {
    move |source| VectorError::InvalidParameter {
        name,
        reason: source.to_string(),
    }
}

/// Checks the count of `actions` and that each is in `space`.
fn check_actions<S: Space>(
    space: &S,
    actions: &[S::Element],
    expected: usize,
) -> Result<(), VectorError>
where
    S::Element: std::fmt::Debug,
{
    if actions.len() != expected {
        return Err(VectorError::ActionCount {
            expected,
            found: actions.len(),
        });
    }
    match space.first_outside(actions) {
        None => Ok(()),
        Some(index) => Err(VectorError::InvalidAction {
            index,
            action: format!("{:?}", actions[index]),
            space: space.to_string(),
        }),
    }
}

/// Checks `actions` against the wrapper's `space`, then writes each mapped by `map(value, low,
/// high)` (with `inner_space`'s bounds) into `buffer`: the step of the clip and rescale wrappers.
fn map_actions<S>(
    space: &S,
    inner_space: &S,
    actions: &[S::Element],
    buffer: &mut [S::Element],
    map: impl Fn(f64, f64, f64) -> f64 + Copy,
) -> Result<(), VectorError>
where
    S: FloatBox,
    S::Element: std::fmt::Debug,
{
    check_actions(space, actions, buffer.len())?;
    for (index, (target, action)) in buffer.iter_mut().zip(actions).enumerate() {
        inner_space
            .map_into(action, target, map)
            .map_err(|source| VectorError::Environment { index, source })?;
    }
    Ok(())
}

/// Writes the [`VectorEnv`] implementation of an action transform over a float Box
/// (`$wrapper<V>`, with its action space in the field `space` and its method `map_actions`
/// writing the inner actions): the same actions' types as the inner vector, everything else
/// passed through.
macro_rules! float_box_vector_env {
    ($wrapper:ident) => {
        impl<V> VectorEnv for $wrapper<V>
        where
            V: VectorEnv,
            V::ActionSpace: FloatBox,
            V::Action: std::fmt::Debug,
        {
            type Action = V::Action;
            type ActionSpace = V::ActionSpace;

            forward_vector!(lifecycle);
            forward_vector!(observations);
            forward_vector!(rewards);
            forward_vector!(resets);
            forward_vector!(mapped_actions);

            fn action_space(&self) -> &V::ActionSpace {
                &self.space
            }
        }
    };
}

/// Clips every number of every action into the inner action space's bounds before stepping
/// (Gymnasium 1.x's `ClipAction`): the wrapper's action space is the unbounded Box of the same
/// shape, so it accepts any numbers but NaN.
///
/// ```
/// use std::num::NonZeroUsize;
/// use rl_wrappers::vector::{VectorClipAction, VectorEnv, VectorOptions, EnvironmentVector};
/// # use rl_core::{Domain, Mode, Simulator, TransitionOutcome, Value};
/// # use rl_core::rand::Rng;
/// # use rl_spaces::ArrayBox;
/// # #[derive(Debug, Clone)]
/// # struct Push { actions: ArrayBox<f32, 1>, observations: ArrayBox<f32, 1> }
/// # impl Domain for Push {
/// #     type State = f32; type Observation = [f32; 1]; type Action = [f32; 1];
/// #     type ObservationSpace = ArrayBox<f32, 1>; type ActionSpace = ArrayBox<f32, 1>;
/// #     fn observation_space(&self) -> &ArrayBox<f32, 1> { &self.observations }
/// #     fn action_space(&self) -> &ArrayBox<f32, 1> { &self.actions }
/// #     fn initial_state<R: Rng + ?Sized>(&self, _: Mode, _: &mut R) -> f32 { 0.0 }
/// #     fn step<R: Rng + ?Sized>(&self, _: &f32, a: &[f32; 1], _: Mode, _: &mut R) -> TransitionOutcome<f32> {
/// #         TransitionOutcome::new(a[0], Value::from_reward(a[0] as f64), false)
/// #     }
/// #     fn observe(&self, s: &f32) -> [f32; 1] { [*s] }
/// #     fn is_terminal(&self, _: &f32) -> bool { false }
/// # }
/// # let push = Push { actions: ArrayBox::new([-1.0], [1.0])?, observations: ArrayBox::new([-1.0], [1.0])? };
/// // `push` is a domain whose reward is its action, in [-1, 1].
/// let count = NonZeroUsize::new(2).expect("non-zero");
/// let vector = EnvironmentVector::<_, f32>::from_environments(count, 0, VectorOptions::new(), |_| {
///     Simulator::new(push.clone(), 0)
/// })?;
/// let mut env = VectorClipAction::new(vector)?;
/// env.reset(Mode::Training)?;
/// env.step(&[[5.0], [-0.5]])?;
/// assert_eq!(env.rewards(), &[1.0, -0.5]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct VectorClipAction<V: VectorEnv> {
    inner: V,
    space: V::ActionSpace,
    actions: Vec<V::Action>,
}

impl<V> VectorClipAction<V>
where
    V: VectorEnv,
    V::ActionSpace: FloatBox,
{
    /// Clips the actions given to `inner`.
    pub fn new(inner: V) -> Result<Self, VectorError> {
        let inner_space = inner.action_space();
        let space = inner_space
            .with_bounds(f64::NEG_INFINITY, f64::INFINITY)
            .map_err(invalid("action_space"))?;
        let actions = (0..inner.len()).map(|_| inner_space.scratch()).collect();
        Ok(VectorClipAction {
            inner,
            space,
            actions,
        })
    }

    vector_accessors!();
}

impl<V> VectorClipAction<V>
where
    V: VectorEnv,
    V::ActionSpace: FloatBox,
    V::Action: std::fmt::Debug,
{
    /// Checks `actions` and writes them clipped into the inner actions.
    fn map_actions(&mut self, actions: &[V::Action]) -> Result<(), VectorError> {
        let inner_space = self.inner.action_space();
        map_actions(
            &self.space,
            inner_space,
            actions,
            &mut self.actions,
            |value, _, _| value,
        )
    }
}

float_box_vector_env!(VectorClipAction);

/// Maps actions from the bounds `[low, high]` (the same for every number) linearly onto the
/// inner action space's bounds before stepping (Gymnasium's `RescaleAction`): `low` goes to
/// the inner lower bound, `high` to the upper one. Actions outside `[low, high]` are refused
/// ([`VectorError::InvalidAction`]).
#[derive(Debug)]
pub struct VectorRescaleAction<V: VectorEnv> {
    inner: V,
    space: V::ActionSpace,
    low: f64,
    high: f64,
    actions: Vec<V::Action>,
}

impl<V> VectorRescaleAction<V>
where
    V: VectorEnv,
    V::ActionSpace: FloatBox,
{
    /// Rescales actions in `[low, high]` onto `inner`'s bounds. Errors if `low < high` does
    /// not hold or the inner bounds are not finite.
    pub fn new(inner: V, low: f64, high: f64) -> Result<Self, VectorError> {
        let (low, high) = arithmetic::check_interval(low, high).map_err(|reason| {
            VectorError::InvalidParameter {
                name: "bounds",
                reason,
            }
        })?;
        let inner_space = inner.action_space();
        inner_space
            .ensure_float_box()
            .map_err(invalid("action_space"))?;
        if !inner_space.is_bounded() {
            return Err(VectorError::InvalidParameter {
                name: "action_space",
                reason: format!("{inner_space} is unbounded; rescaling needs finite bounds"),
            });
        }
        let space = inner_space
            .with_bounds(low, high)
            .map_err(invalid("bounds"))?;
        let actions = (0..inner.len()).map(|_| inner_space.scratch()).collect();
        Ok(VectorRescaleAction {
            inner,
            space,
            low,
            high,
            actions,
        })
    }

    vector_accessors!();
}

impl<V> VectorRescaleAction<V>
where
    V: VectorEnv,
    V::ActionSpace: FloatBox,
    V::Action: std::fmt::Debug,
{
    /// Checks `actions` and writes them rescaled into the inner actions.
    fn map_actions(&mut self, actions: &[V::Action]) -> Result<(), VectorError> {
        let (low, high) = (self.low, self.high);
        let inner_space = self.inner.action_space();
        map_actions(
            &self.space,
            inner_space,
            actions,
            &mut self.actions,
            |value, inner_low, inner_high| {
                arithmetic::rescaled(value, (low, high), (inner_low, inner_high))
            },
        )
    }
}

float_box_vector_env!(VectorRescaleAction);

/// The most actions [`VectorDiscretizeAction`] makes (`bins` to the power of the number of
/// action entries).
pub const MAX_DISCRETE_ACTIONS: u64 = 1 << 16;

/// Exposes a continuous action space as `bins` evenly spaced values per entry, combined into
/// one `Discrete(bins^N)` index (Gymnasium's `DiscretizeAction` in its `Discrete` form):
/// value `k` of an entry with bounds `[low, high]` is `low + k × (high − low) / (bins − 1)`
/// (computed in `f64`, rounded to the element type), and index `i` takes value `i mod bins`
/// for the first entry, `(i / bins) mod bins` for the second, and so on. So the tabular and
/// tile-coding agents can control continuous-action domains.
#[derive(Debug)]
pub struct VectorDiscretizeAction<V: VectorEnv> {
    inner: V,
    space: Discrete,
    table: Vec<V::Action>,
    actions: Vec<V::Action>,
}

impl<V> VectorDiscretizeAction<V>
where
    V: VectorEnv,
    V::ActionSpace: FloatBox,
    V::Action: Clone,
{
    /// `bins` (at least 2) values per entry of `inner`'s actions. Errors for fewer than 2
    /// bins, unbounded actions, or more than [`MAX_DISCRETE_ACTIONS`] actions in all.
    pub fn new(inner: V, bins: u32) -> Result<Self, VectorError> {
        let table = discrete_table(inner.action_space(), bins).map_err(invalid("bins"))?;
        let space =
            Discrete::new(table.len() as u64).map_err(|error| VectorError::InvalidParameter {
                name: "bins",
                reason: error.to_string(),
            })?;
        let actions = (0..inner.len())
            .map(|_| inner.action_space().scratch())
            .collect();
        Ok(VectorDiscretizeAction {
            inner,
            space,
            table,
            actions,
        })
    }

    /// The continuous action of each index.
    pub fn table(&self) -> &[V::Action] {
        &self.table
    }

    vector_accessors!();
}

/// The continuous action of every index of a discretised `space` (see
/// [`VectorDiscretizeAction`]); shared with the single-environment
/// [`DiscretizeAction`](crate::stateless::DiscretizeAction).
pub(crate) fn discrete_table<S: FloatBox>(
    space: &S,
    bins: u32,
) -> Result<Vec<S::Element>, CoreError> {
    space.ensure_float_box()?;
    if bins < 2 {
        return Err(CoreError::invalid_parameter(
            "bins",
            format!("{bins} bins; at least 2 are needed (both bounds)"),
        ));
    }
    if !space.is_bounded() {
        return Err(CoreError::invalid_parameter(
            "action_space",
            format!("{space} is unbounded; discretising needs finite bounds"),
        ));
    }
    // Count the entries by visiting them once.
    let mut scratch = space.scratch();
    let entries = Cell::new(0_u32);
    space.map_into(&scratch.clone(), &mut scratch, |value, _, _| {
        entries.set(entries.get() + 1);
        value
    })?;
    let count = u64::from(bins)
        .checked_pow(entries.get())
        .filter(|count| *count <= MAX_DISCRETE_ACTIONS)
        .ok_or_else(|| {
            CoreError::invalid_parameter(
                "bins",
                format!(
                    "{bins} bins for {} entries is more than {MAX_DISCRETE_ACTIONS} actions",
                    entries.get()
                ),
            )
        })?;
    let bins = u64::from(bins);
    let mut table = Vec::with_capacity(count as usize);
    for index in 0..count {
        let mut action = space.scratch();
        let rest = Cell::new(index);
        space.map_into(&scratch, &mut action, |_, low, high| {
            let k = rest.get() % bins;
            rest.set(rest.get() / bins);
            if k + 1 == bins {
                high
            } else {
                low + k as f64 * (high - low) / (bins - 1) as f64
            }
        })?;
        table.push(action);
    }
    Ok(table)
}

impl<V> VectorDiscretizeAction<V>
where
    V: VectorEnv,
    V::ActionSpace: FloatBox,
    V::Action: Clone,
{
    /// Checks `actions` and writes the continuous action of each index into the inner actions.
    fn map_actions(&mut self, actions: &[i64]) -> Result<(), VectorError> {
        check_actions(&self.space, actions, self.actions.len())?;
        for (target, action) in self.actions.iter_mut().zip(actions) {
            // Checked above: the index is in the table.
            let index = usize::try_from(*action).expect("checked: a Discrete index");
            target.clone_from(&self.table[index]);
        }
        Ok(())
    }
}

impl<V> VectorEnv for VectorDiscretizeAction<V>
where
    V: VectorEnv,
    V::ActionSpace: FloatBox,
    V::Action: Clone,
{
    type Action = i64;
    type ActionSpace = Discrete;

    forward_vector!(lifecycle);
    forward_vector!(observations);
    forward_vector!(rewards);
    forward_vector!(resets);
    forward_vector!(mapped_actions);

    fn action_space(&self) -> &Discrete {
        &self.space
    }
}
