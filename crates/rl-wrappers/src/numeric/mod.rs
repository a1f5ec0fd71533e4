//! Numeric data: named arrays in one flat vector ([`NumericLayout`], [`NumericObservation`],
//! [`NumericView`]), their space ([`NumericSpace`]), and the numeric form of any space
//! ([`NumericForm`]).

mod dynamic;
mod form;
mod layout;
mod observation;
mod pool;
mod space;

pub use form::{DEFAULT_NAME, MAX_ONE_HOT, NumericForm};
pub use layout::{Component, NumericLayout};
pub use observation::{NumericObservation, NumericView};
pub use space::NumericSpace;

pub(crate) use form::check_one_hot_length;
pub(crate) use layout::{BoxMap, map_box, real_box};
pub(crate) use observation::check_length;
pub(crate) use pool::BufferPool;
