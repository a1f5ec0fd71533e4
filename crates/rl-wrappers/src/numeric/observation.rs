//! [`NumericObservation`], the shared, immutable numeric data an outer environment gives, and
//! [`NumericView`], a borrowed view of numeric data with the same accessors.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use ndarray::{ArrayD, ArrayViewD, IxDyn};
use rl_core::CoreError;
use rl_spaces::{FlatScalar, SpaceError};

use crate::numeric::{NumericLayout, NumericSpace};

/// Borrowed numeric data: a flat vector and the [`NumericLayout`] naming its parts.
///
/// ```
/// use rl_spaces::{AnyBox, BoxSpace};
/// use rl_wrappers::{NumericLayout, NumericView};
///
/// let layout = NumericLayout::new([
///     ("a", AnyBox::from(BoxSpace::uniform(&[2, 2], 0.0f32, 1.0)?)),
///     ("b", AnyBox::from(BoxSpace::uniform(&[1], 0.0f32, 1.0)?)),
/// ])?;
/// let data = [0.1f32, 0.2, 0.3, 0.4, 0.5];
/// let view = NumericView::new(&layout, &data)?;
/// assert_eq!(view.get("a").map(|a| a[[1, 0]]), Some(0.3));
/// assert_eq!(view.as_slice().len(), 5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct NumericView<'a, T> {
    layout: &'a NumericLayout,
    data: &'a [T],
}

impl<'a, T: FlatScalar> NumericView<'a, T> {
    /// A view of `data` laid out as `layout`. Errors if the length is not the layout's flat
    /// dimension.
    pub fn new(layout: &'a NumericLayout, data: &'a [T]) -> Result<Self, CoreError> {
        check_length(layout, data.len())?;
        Ok(NumericView { layout, data })
    }

    /// The layout naming the parts of the data.
    pub fn layout(&self) -> &'a NumericLayout {
        self.layout
    }

    /// The flat vector (the components one after another, in name order).
    pub fn as_slice(&self) -> &'a [T] {
        self.data
    }

    /// The array named `name`, with its shape. Views of arrays of up to four dimensions do
    /// not allocate.
    pub fn get(&self, name: &str) -> Option<ArrayViewD<'a, T>> {
        let component = self.layout.component(name)?;
        let values = self.data.get(component.range())?;
        ArrayViewD::from_shape(IxDyn(component.shape()), values).ok()
    }

    /// Every array with its name, in name order.
    pub fn arrays(&self) -> impl Iterator<Item = (&'a str, ArrayViewD<'a, T>)> + use<'a, T> {
        let data = self.data;
        self.layout.components().iter().filter_map(move |c| {
            let values = data.get(c.range())?;
            let view = ArrayViewD::from_shape(IxDyn(c.shape()), values).ok()?;
            Some((c.name(), view))
        })
    }

    /// Copies every array into a map keyed by name (allocates; the views do not).
    pub fn to_arrays(&self) -> BTreeMap<String, ArrayD<T>> {
        self.arrays()
            .map(|(name, view)| (name.to_owned(), view.to_owned()))
            .collect()
    }
}

impl<T: FlatScalar> fmt::Debug for NumericView<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let data = self.data;
        f.debug_map()
            .entries(
                self.layout
                    .components()
                    .iter()
                    .map(|c| (c.name(), data.get(c.range()).unwrap_or(&[]))),
            )
            .finish()
    }
}

/// Numeric data given by an outer environment: a flat vector of `T` (`f32` or `f64`) and the
/// [`NumericLayout`] that names its parts, as a dict of arrays.
///
/// The data is shared and immutable: cloning is a reference-count increment. An environment
/// writes each new observation into a buffer that no caller holds any more, so a training loop
/// that keeps a few observations alive allocates nothing per step (see
/// [`OuterEnvironment`](crate::OuterEnvironment)).
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_core::corridor::Corridor;
/// use rl_wrappers::{OneHot, OuterEnvironment};
///
/// let domain = Corridor::new(3, 0.0)?;
/// let representation = OneHot::new(*rl_core::Domain::observation_space(&domain))?;
/// let mut env = OuterEnvironment::<_, _, f32>::new(Simulator::new(domain, 0), representation);
/// let observation = env.reset(Mode::Training)?;
/// assert_eq!(observation.as_slice(), &[1.0, 0.0, 0.0]);
/// let array = observation.get("observation").expect("the one component");
/// assert_eq!(array.shape(), &[3]);
/// # Ok::<(), rl_core::CoreError>(())
/// ```
#[derive(Clone)]
pub struct NumericObservation<T> {
    layout: Arc<NumericLayout>,
    data: Arc<[T]>,
}

impl<T: FlatScalar> NumericObservation<T> {
    /// Numeric data of `space`'s layout. Errors if the length is not the space's flat
    /// dimension (whether the values lie in the space is the space's business:
    /// [`Space::contains`](rl_spaces::Space::contains)).
    pub fn from_vec(space: &NumericSpace<T>, data: Vec<T>) -> Result<Self, CoreError> {
        check_length(space.layout(), data.len())?;
        Ok(NumericObservation {
            layout: Arc::clone(space.shared_layout()),
            data: data.into(),
        })
    }

    /// Wraps shared data already checked to have the layout's length.
    pub(crate) fn from_shared(layout: Arc<NumericLayout>, data: Arc<[T]>) -> Self {
        NumericObservation { layout, data }
    }

    /// The layout naming the parts of the data.
    pub fn layout(&self) -> &NumericLayout {
        &self.layout
    }

    pub(crate) fn shared_layout(&self) -> &Arc<NumericLayout> {
        &self.layout
    }

    /// The flat vector, for a neural network's input.
    pub fn as_slice(&self) -> &[T] {
        &self.data
    }

    /// A borrowed view with the same accessors.
    pub fn view(&self) -> NumericView<'_, T> {
        NumericView {
            layout: &self.layout,
            data: &self.data,
        }
    }

    /// The array named `name`, with its shape.
    pub fn get(&self, name: &str) -> Option<ArrayViewD<'_, T>> {
        self.view().get(name)
    }

    /// Every array with its name, in name order.
    pub fn arrays(&self) -> impl Iterator<Item = (&str, ArrayViewD<'_, T>)> {
        self.view().arrays()
    }

    /// Copies every array into a map keyed by name.
    pub fn to_arrays(&self) -> BTreeMap<String, ArrayD<T>> {
        self.view().to_arrays()
    }
}

impl<T: FlatScalar> PartialEq for NumericObservation<T> {
    fn eq(&self, other: &Self) -> bool {
        (Arc::ptr_eq(&self.layout, &other.layout) || self.layout == other.layout)
            && self.data[..] == other.data[..]
    }
}

impl<T: FlatScalar> fmt::Debug for NumericObservation<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.view(), f)
    }
}

pub(crate) fn check_length(layout: &NumericLayout, found: usize) -> Result<(), CoreError> {
    if found == layout.flat_dim() {
        Ok(())
    } else {
        Err(CoreError::Space(SpaceError::LengthMismatch {
            what: "numeric data",
            expected: layout.flat_dim(),
            found,
        }))
    }
}
