//! Observation transforms as outer environments: [`FlattenObservation`] and
//! [`CastObservation`].

use rl_core::Environment;

use crate::OuterEnvironment;
use crate::representation::{Flatten, Identity};

/// Observations flattened into one vector of `T` (Gymnasium's `FlattenObservation`): an
/// [`OuterEnvironment`] with the [`Flatten`] representation, built with
/// [`OuterEnvironment::flatten`].
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_core::corridor::Corridor;
/// use rl_wrappers::stateless::FlattenObservation;
///
/// let mut env: FlattenObservation<_, f32> =
///     FlattenObservation::flatten(Simulator::new(Corridor::new(3, 0.0)?, 0))?;
/// assert_eq!(env.reset(Mode::Training)?.as_slice(), &[1.0, 0.0, 0.0]);
/// # Ok::<(), rl_core::CoreError>(())
/// ```
pub type FlattenObservation<E, T> =
    OuterEnvironment<E, Flatten<<E as Environment>::ObservationSpace>, T>;

/// Observations as they are, converted to `T`: over numeric observations of another type
/// (say `f64` data wanted as `f32`), a cast that keeps the names and shapes. An
/// [`OuterEnvironment`] with the [`Identity`] representation, built with
/// [`OuterEnvironment::identity`].
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_core::corridor::Corridor;
/// use rl_wrappers::OuterEnvironment;
/// use rl_wrappers::stateless::CastObservation;
///
/// let wide = OuterEnvironment::<_, _, f64>::identity(Simulator::new(Corridor::new(3, 0.0)?, 0))?;
/// let mut narrow: CastObservation<_, f32> = CastObservation::identity(wide)?;
/// let observation: Vec<f32> = narrow.reset(Mode::Training)?.as_slice().to_vec();
/// assert_eq!(observation, [1.0, 0.0, 0.0]);
/// # Ok::<(), rl_core::CoreError>(())
/// ```
pub type CastObservation<E, T> =
    OuterEnvironment<E, Identity<<E as Environment>::ObservationSpace>, T>;
