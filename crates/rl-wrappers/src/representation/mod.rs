//! Representations: how a typed observation (or state) becomes numeric data, as named arrays
//! in one flat vector (gym-gridverse's representations).
//!
//! | representation | input | numeric data |
//! |---|---|---|
//! | [`Identity`] | any flattenable space | the flat vector, with a Box's shape or a Dict's keys kept |
//! | [`Flatten`] | any flattenable space | one flat vector (Gymnasium's `FlattenObservation`) |
//! | [`OneHot`] | any finite space (Discrete, ...) | a one-hot vector of the element's index |
//! | [`Scaled`] | a bounded space | every entry mapped from its bounds to `[0, 1]` or `[-1, 1]` |
//!
//! A domain provides its own by implementing [`Representation`] (GridWorld gives an image: one
//! channel per cell type plus one for the agent).

mod flatten;
mod identity;
mod one_hot;
mod scaled;

pub use flatten::Flatten;
pub use identity::Identity;
pub use one_hot::OneHot;
pub use scaled::{ScaleRange, Scaled};

use rl_core::CoreError;
use rl_spaces::FlatScalar;

use crate::numeric::NumericLayout;

/// Turns a value of type `I` (an observation or a state) into numeric data: the named arrays
/// of [`layout`](Self::layout), written one after another into a flat vector.
///
/// [`write`](Self::write) fills a buffer the caller owns (an outer environment reuses a few),
/// so that representing allocates nothing. It must fill every entry, with values inside the
/// layout's bounds, and give the same numbers for the same input.
///
/// # A representation of one's own
///
/// An image of a corridor with one channel for the goal and one for the agent, the way
/// GridWorld draws its grid:
///
/// ```
/// use rl_core::corridor::Corridor;
/// use rl_core::{CoreError, Environment, Mode, Simulator};
/// use rl_spaces::{AnyBox, BoxSpace, FlatScalar};
/// use rl_wrappers::{NumericLayout, OuterEnvironment, Representation};
///
/// struct CorridorImage {
///     length: usize,
///     layout: NumericLayout,
/// }
///
/// impl CorridorImage {
///     fn new(length: usize) -> Result<Self, CoreError> {
///         let channels = BoxSpace::uniform(&[2, length], 0u8, 1)?;
///         let layout = NumericLayout::single("image", AnyBox::from(channels))?;
///         Ok(CorridorImage { length, layout })
///     }
/// }
///
/// impl Representation<i64> for CorridorImage {
///     fn layout(&self) -> &NumericLayout {
///         &self.layout
///     }
///
///     fn write<T: FlatScalar>(&self, cell: &i64, out: &mut [T]) -> Result<(), CoreError> {
///         out.fill(T::ZERO);
///         // Channel 0: the goal (the last cell). Channel 1: the agent.
///         let agent = usize::try_from(*cell).ok().filter(|c| *c < self.length);
///         let cells = [Some(self.length - 1), agent.map(|c| self.length + c)];
///         for index in cells.into_iter().flatten() {
///             *out.get_mut(index).ok_or(CoreError::Unsupported { operation: "write" })? = T::ONE;
///         }
///         Ok(())
///     }
/// }
///
/// let mut env = OuterEnvironment::<_, _, f32>::new(
///     Simulator::new(Corridor::new(3, 0.0)?, 0),
///     CorridorImage::new(3)?,
/// );
/// let image = env.reset(Mode::Training)?;
/// assert_eq!(image.as_slice(), &[0.0, 0.0, 1.0, 1.0, 0.0, 0.0]);
/// assert_eq!(image.get("image").map(|a| a.shape().to_vec()), Some(vec![2, 3]));
/// # Ok::<(), CoreError>(())
/// ```
pub trait Representation<I: ?Sized> {
    /// The names, shapes and bounds of the arrays written.
    fn layout(&self) -> &NumericLayout;

    /// Writes the numeric data of `input` into `out`, whose length is the layout's flat
    /// dimension. Errors if `out` has another length or `input` cannot be represented (it is
    /// not an element of the space the representation was built for).
    fn write<T: FlatScalar>(&self, input: &I, out: &mut [T]) -> Result<(), CoreError>;
}
