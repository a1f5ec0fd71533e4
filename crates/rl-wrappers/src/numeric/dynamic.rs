//! [`DynamicSpace`] for [`NumericSpace`]: numeric data as a Dict of Box elements, so that an
//! outer environment can be driven through [`AnySpace`] (a
//! [`DynamicEnvironment`](rl_core::DynamicEnvironment)).

use std::collections::BTreeMap;
use std::sync::Arc;

use ndarray::{ArrayD, IxDyn};
use rl_spaces::{
    AnyArray, AnyElement, AnySpace, BoxScalar, DType, DynamicSpace, EmptySpace, FlatScalar, Space,
    SpaceError,
};

use crate::numeric::{Component, NumericObservation, NumericSpace};

/// The array of `values` with `shape`, converted to `U` (exact for data in the space; values
/// that `U` cannot hold become `U`'s lowest value).
fn array<U: BoxScalar, T: FlatScalar>(shape: &[usize], values: &[T]) -> AnyArray {
    let converted: Vec<U> = values
        .iter()
        .map(|v| U::from_f64(v.to_f64()).unwrap_or(U::LOWEST))
        .collect();
    let array = ArrayD::from_shape_vec(IxDyn(shape), converted)
        .unwrap_or_else(|_| ArrayD::from_elem(IxDyn(&[0]), U::LOWEST));
    U::wrap_array(array)
}

/// The values of `component` in `data` as an array of the component's dtype.
fn component_array<T: FlatScalar>(component: &Component, data: &[T]) -> AnyArray {
    let values = data.get(component.range()).unwrap_or(&[]);
    let shape = component.shape();
    match component.dtype() {
        DType::F32 => array::<f32, T>(shape, values),
        DType::I8 => array::<i8, T>(shape, values),
        DType::I16 => array::<i16, T>(shape, values),
        DType::I32 => array::<i32, T>(shape, values),
        DType::I64 => array::<i64, T>(shape, values),
        DType::U8 => array::<u8, T>(shape, values),
        DType::U16 => array::<u16, T>(shape, values),
        DType::U32 => array::<u32, T>(shape, values),
        DType::U64 => array::<u64, T>(shape, values),
        _ => array::<f64, T>(shape, values),
    }
}

impl<T: FlatScalar> DynamicSpace for NumericSpace<T> {
    /// The Dict of the components' Box spaces (the empty space for a layout with no
    /// component).
    fn to_any_space(&self) -> AnySpace {
        self.layout()
            .to_any_space()
            .unwrap_or_else(|_| AnySpace::Empty(EmptySpace::default()))
    }

    /// The Dict of the components' arrays, each of its component's dtype.
    fn element_to_any(&self, x: &NumericObservation<T>) -> AnyElement {
        let data = x.as_slice();
        AnyElement::Dict(
            self.layout()
                .components()
                .iter()
                .map(|c| {
                    (
                        c.name().to_owned(),
                        AnyElement::from(component_array(c, data)),
                    )
                })
                .collect(),
        )
    }

    fn element_from_any(&self, x: &AnyElement) -> Result<NumericObservation<T>, SpaceError> {
        let not_in_space = || SpaceError::NotInSpace {
            element: format!("{x:?}"),
            space: self.to_string(),
        };
        let entries: &BTreeMap<String, AnyElement> = x.as_dict().ok_or_else(not_in_space)?;
        if entries.len() != self.layout().components().len() {
            return Err(not_in_space());
        }
        let mut data = vec![T::ZERO; self.layout().flat_dim()];
        for component in self.layout().components() {
            let array = entries
                .get(component.name())
                .and_then(AnyElement::as_array)
                .filter(|a| a.dtype() == component.dtype() && a.shape() == component.shape())
                .ok_or_else(not_in_space)?;
            let target = data.get_mut(component.range()).ok_or_else(not_in_space)?;
            for (t, v) in target.iter_mut().zip(array.to_f64_vec()) {
                *t = T::from_f64(v);
            }
        }
        let observation =
            NumericObservation::from_shared(Arc::clone(self.shared_layout()), data.into());
        if self.contains(&observation) {
            Ok(observation)
        } else {
            Err(not_in_space())
        }
    }
}
