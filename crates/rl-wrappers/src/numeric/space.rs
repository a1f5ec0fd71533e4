//! [`NumericSpace`]: the space of the [`NumericObservation`]s of one [`NumericLayout`].

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use rl_spaces::{FlatScalar, FlattenSpace, Space, SpaceError};

use crate::numeric::{NumericLayout, NumericObservation};

/// The numeric data of one [`NumericLayout`] stored as `T`: the observation space of an outer
/// environment and of the wrappers above it.
///
/// Membership checks the layout, the bounds of every entry (rounded to `T`, so that data
/// rounded from a wider type still belongs) and whole numbers in integer components. It
/// flattens by copying (converting to the flat vector's type), so vector environments and
/// [`FlattenObservation`](crate::stateless::FlattenObservation) take numeric observations like
/// any other.
///
/// ```
/// use rl_spaces::{AnyBox, BoxSpace, FlattenSpace, Space};
/// use rl_wrappers::{NumericLayout, NumericObservation, NumericSpace};
///
/// let layout = NumericLayout::single("x", AnyBox::from(BoxSpace::uniform(&[2], 0.0f32, 1.0)?))?;
/// let space = NumericSpace::<f32>::new(layout);
/// let inside = NumericObservation::from_vec(&space, vec![0.5, 1.0])?;
/// let outside = NumericObservation::from_vec(&space, vec![0.5, 2.0])?;
/// assert!(space.contains(&inside) && !space.contains(&outside));
/// assert_eq!(space.flatten::<f64>(&inside)?, vec![0.5, 1.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct NumericSpace<T> {
    layout: Arc<NumericLayout>,
    marker: PhantomData<fn() -> T>,
}

impl<T: FlatScalar> NumericSpace<T> {
    /// The space of `layout`'s data stored as `T`.
    pub fn new(layout: NumericLayout) -> Self {
        NumericSpace::from_shared(Arc::new(layout))
    }

    pub(crate) fn from_shared(layout: Arc<NumericLayout>) -> Self {
        NumericSpace {
            layout,
            marker: PhantomData,
        }
    }

    /// The layout of the data.
    pub fn layout(&self) -> &NumericLayout {
        &self.layout
    }

    pub(crate) fn shared_layout(&self) -> &Arc<NumericLayout> {
        &self.layout
    }

    fn has_layout(&self, x: &NumericObservation<T>) -> bool {
        Arc::ptr_eq(&self.layout, x.shared_layout()) || *self.layout == *x.layout()
    }
}

impl<T> Clone for NumericSpace<T> {
    fn clone(&self) -> Self {
        NumericSpace {
            layout: Arc::clone(&self.layout),
            marker: PhantomData,
        }
    }
}

impl<T> PartialEq for NumericSpace<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.layout, &other.layout) || self.layout == other.layout
    }
}

impl<T> fmt::Debug for NumericSpace<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NumericSpace")
            .field("layout", &self.layout)
            .field("type", &std::any::type_name::<T>())
            .finish()
    }
}

impl<T> fmt::Display for NumericSpace<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Numeric({}, {})",
            self.layout,
            std::any::type_name::<T>()
        )
    }
}

impl<T: FlatScalar> Space for NumericSpace<T> {
    type Element = NumericObservation<T>;

    fn contains(&self, x: &NumericObservation<T>) -> bool {
        self.has_layout(x) && self.layout.contains_flat(x.as_slice())
    }
}

impl<T: FlatScalar> FlattenSpace for NumericSpace<T> {
    fn flat_dim(&self) -> usize {
        self.layout.flat_dim()
    }

    fn flatten_into<F: FlatScalar>(
        &self,
        x: &NumericObservation<T>,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        if !self.has_layout(x) {
            return Err(SpaceError::NotInSpace {
                element: format!("{x:?}"),
                space: self.to_string(),
            });
        }
        if out.len() != self.flat_dim() || x.as_slice().len() != out.len() {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: self.flat_dim(),
                found: out.len(),
            });
        }
        for (o, v) in out.iter_mut().zip(x.as_slice()) {
            *o = F::from_f64(v.to_f64());
        }
        Ok(())
    }

    fn unflatten<F: FlatScalar>(&self, flat: &[F]) -> Result<NumericObservation<T>, SpaceError> {
        if flat.len() != self.flat_dim() {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: self.flat_dim(),
                found: flat.len(),
            });
        }
        let data: Vec<T> = flat.iter().map(|v| T::from_f64(v.to_f64())).collect();
        let x = NumericObservation::from_shared(Arc::clone(&self.layout), data.into());
        if !self.contains(&x) {
            return Err(SpaceError::NotInSpace {
                element: format!("{x:?}"),
                space: self.to_string(),
            });
        }
        Ok(x)
    }
}
