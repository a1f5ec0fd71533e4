//! [`NumericForm`]: how the elements of a space look as numbers: the Box of their flat vectors
//! (Gymnasium's `flatten_space`) and a natural layout of named arrays.

use ndarray::IxDyn;
use rl_core::CoreError;
use rl_spaces::{
    AnyBox, AnySpace, BoxScalar, BoxSpace, DType, DynamicSpace, FlattenSpace, SpaceError,
};

use crate::numeric::NumericLayout;
use crate::numeric::layout::{BoxMap, map_box};

/// The name of the one component of a representation that has a single array.
pub const DEFAULT_NAME: &str = "observation";

/// A space whose elements have a numeric form: the Box their flat vectors lie in, and a
/// natural [`NumericLayout`].
///
/// Every space of `rl-spaces` has it, and so does [`NumericSpace`](crate::NumericSpace), through
/// [`DynamicSpace`].
///
/// - [`flat_box`](Self::flat_box) is Gymnasium's `flatten_space`: a one-dimensional Box whose
///   bounds are those of the flat vector's entries. One-hot blocks (Discrete, MultiDiscrete,
///   finite sets) lie in `[0, 1]` as `int64` (MultiBinary as `int8`), a Text's character
///   indices in `[0, len(charset)]` as `int32`, Box entries keep their
///   bounds. The dtype is the leaves' common dtype, or `float64` when they differ (or when a
///   bound cannot be written in the common dtype).
/// - [`natural_layout`](Self::natural_layout) keeps what structure a flat vector loses: a Box
///   keeps its shape, a Dict gives one component per key (a Box child keeps its shape, any
///   other child is flattened), and anything else is one flat component named
///   [`DEFAULT_NAME`]. Its flat vector is the space's flat vector, entry for entry.
///
/// ```
/// use rl_spaces::{BoxSpace, DictSpace, Discrete, AnySpace};
/// use rl_wrappers::NumericForm;
///
/// let space = AnySpace::from(DictSpace::new([
///     ("heading", Discrete::new(4)?.into()),
///     ("image", BoxSpace::uniform(&[2, 2], 0u8, 255)?.into()),
/// ])?);
/// let layout = space.natural_layout()?;
/// assert_eq!(layout.component("image").map(|c| c.shape().to_vec()), Some(vec![2, 2]));
/// assert_eq!(layout.component("heading").map(|c| c.range()), Some(0..4));
/// let flat = space.flat_box()?;
/// assert_eq!(flat.shape(), &[8]);
/// assert_eq!(flat.high_f64()[4..], [255.0; 4]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait NumericForm: FlattenSpace {
    /// The one-dimensional Box every flat vector of the space lies in (Gymnasium's
    /// `flatten_space`).
    fn flat_box(&self) -> Result<AnyBox, CoreError>;

    /// The natural layout of the space's flat vectors as named arrays.
    fn natural_layout(&self) -> Result<NumericLayout, CoreError>;
}

impl<S: DynamicSpace + FlattenSpace> NumericForm for S {
    fn flat_box(&self) -> Result<AnyBox, CoreError> {
        flat_box_of(&self.to_any_space())
    }

    fn natural_layout(&self) -> Result<NumericLayout, CoreError> {
        natural_layout_of(&self.to_any_space())
    }
}

/// Gymnasium's `flatten_space` of any space.
fn flat_box_of(space: &AnySpace) -> Result<AnyBox, CoreError> {
    match space {
        AnySpace::Box(b) => {
            let len = b.shape().iter().product();
            Ok(map_box(b, &Reshape(len))?)
        }
        other => {
            let mut bounds = FlatBounds::default();
            bounds.collect(other)?;
            bounds.into_box()
        }
    }
}

/// The natural layout of any space (see [`NumericForm::natural_layout`]).
fn natural_layout_of(space: &AnySpace) -> Result<NumericLayout, CoreError> {
    match space {
        AnySpace::Box(b) => NumericLayout::single(DEFAULT_NAME, b.clone()),
        AnySpace::Dict(dict) => {
            let components = dict
                .spaces()
                .iter()
                .map(|(key, child)| {
                    let space = match child {
                        AnySpace::Box(b) => b.clone(),
                        other => flat_box_of(other)?,
                    };
                    Ok((key.clone(), space))
                })
                .collect::<Result<Vec<_>, CoreError>>()?;
            NumericLayout::new(components)
        }
        other => NumericLayout::single(DEFAULT_NAME, flat_box_of(other)?),
    }
}

/// The same Box reshaped to one dimension of `len` entries, in row-major order.
struct Reshape(usize);

impl BoxMap for Reshape {
    fn apply<U: BoxScalar>(&self, space: &BoxSpace<U>) -> Result<BoxSpace<U>, SpaceError> {
        let low: Vec<U> = space.low().iter().copied().collect();
        let high: Vec<U> = space.high().iter().copied().collect();
        if low.len() != self.0 {
            return Err(SpaceError::LengthMismatch {
                what: "box",
                expected: self.0,
                found: low.len(),
            });
        }
        BoxSpace::from_vecs(low, high)
    }
}

/// The bounds of a flat vector collected leaf by leaf, with the leaves' common dtype.
#[derive(Default)]
struct FlatBounds {
    low: Vec<f64>,
    high: Vec<f64>,
    dtype: Option<DType>,
    mixed: bool,
}

impl FlatBounds {
    fn add(&mut self, dtype: DType, low: &[f64], high: &[f64]) {
        match self.dtype {
            None => self.dtype = Some(dtype),
            Some(d) if d != dtype => self.mixed = true,
            Some(_) => {}
        }
        self.low.extend_from_slice(low);
        self.high.extend_from_slice(high);
    }

    fn one_hot(&mut self, dtype: DType, len: usize) -> Result<(), CoreError> {
        check_one_hot_length(len)?;
        self.add(dtype, &vec![0.0; len], &vec![1.0; len]);
        Ok(())
    }

    fn collect(&mut self, space: &AnySpace) -> Result<(), CoreError> {
        match space {
            AnySpace::Discrete(d) if !d.is_flattenable() => Err(CoreError::invalid_parameter(
                "space",
                format!(
                    "{space} has no flat Box: its one-hot vector would have {} entries, more \
                     than rl_spaces::MAX_FLAT_LEN",
                    d.n()
                ),
            )),
            AnySpace::Discrete(_) | AnySpace::MultiDiscrete(_) | AnySpace::FiniteSet(_) => {
                self.one_hot(DType::I64, space.flat_dim())
            }
            AnySpace::MultiBinary(_) => self.one_hot(DType::I8, space.flat_dim()),
            AnySpace::Box(b) => {
                self.add(b.dtype(), &b.low_f64(), &b.high_f64());
                Ok(())
            }
            AnySpace::Tuple(t) => t.spaces().iter().try_for_each(|child| self.collect(child)),
            AnySpace::Dict(d) => d
                .spaces()
                .values()
                .try_for_each(|child| self.collect(child)),
            AnySpace::Empty(_) => Ok(()),
            AnySpace::Text(text) => {
                // Gymnasium's `flatten_space` of a Text: `Box(0, len(charset), (max_length,),
                // int32)`, the charset's length being the padding.
                let len = text.max_length();
                check_one_hot_length(len)?;
                let padding = text.charset().len() as f64;
                self.add(DType::I32, &vec![0.0; len], &vec![padding; len]);
                Ok(())
            }
            AnySpace::OneOf(one_of) => {
                // Gymnasium's `flatten_space` of a OneOf: the index in `[0, len - 1]`, then the
                // widest child's length of entries between the lowest and highest bound of all
                // children.
                let mut low = f64::INFINITY;
                let mut high = f64::NEG_INFINITY;
                let mut widest = 0;
                for child in one_of.spaces() {
                    let mut bounds = FlatBounds::default();
                    bounds.collect(child)?;
                    widest = widest.max(bounds.low.len());
                    low = bounds.low.iter().copied().fold(low, f64::min);
                    high = bounds.high.iter().copied().fold(high, f64::max);
                    match (self.dtype, bounds.dtype) {
                        (_, None) => {}
                        (None, Some(d)) => self.dtype = Some(d),
                        (Some(a), Some(b)) if a != b || bounds.mixed => self.mixed = true,
                        _ => {}
                    }
                }
                check_one_hot_length(widest)?;
                self.low.push(0.0);
                self.high.push((one_of.len() - 1) as f64);
                self.low.extend(std::iter::repeat_n(low, widest));
                self.high.extend(std::iter::repeat_n(high, widest));
                Ok(())
            }
            AnySpace::Sequence(_) | AnySpace::Graph(_) => Err(CoreError::invalid_parameter(
                "space",
                format!(
                    "{space} has no flat Box: its elements vary in size (Gymnasium's \
                     flatten_space refuses it too)"
                ),
            )),
        }
    }

    fn into_box(self) -> Result<AnyBox, CoreError> {
        let dtype = match self.dtype {
            Some(d) if !self.mixed => d,
            _ => DType::F64,
        };
        let typed = match dtype {
            DType::F32 => typed_box::<f32>(&self.low, &self.high),
            DType::I8 => typed_box::<i8>(&self.low, &self.high),
            DType::I16 => typed_box::<i16>(&self.low, &self.high),
            DType::I32 => typed_box::<i32>(&self.low, &self.high),
            DType::I64 => typed_box::<i64>(&self.low, &self.high),
            DType::U8 => typed_box::<u8>(&self.low, &self.high),
            DType::U16 => typed_box::<u16>(&self.low, &self.high),
            DType::U32 => typed_box::<u32>(&self.low, &self.high),
            DType::U64 => typed_box::<u64>(&self.low, &self.high),
            _ => None,
        };
        match typed {
            Some(result) => Ok(result?),
            None => Ok(AnyBox::from(BoxSpace::new(
                ndarray::ArrayD::from_shape_vec(IxDyn(&[self.low.len()]), self.low).map_err(
                    |e| SpaceError::InvalidSpace {
                        space: "Box",
                        reason: e.to_string(),
                    },
                )?,
                ndarray::ArrayD::from_shape_vec(IxDyn(&[self.high.len()]), self.high).map_err(
                    |e| SpaceError::InvalidSpace {
                        space: "Box",
                        reason: e.to_string(),
                    },
                )?,
            )?)),
        }
    }
}

/// The longest one-hot block a numeric form writes out (`2^24` entries): a longer one would
/// need gigabytes for its bounds alone.
pub const MAX_ONE_HOT: usize = 1 << 24;

/// Errors if a one-hot block of `len` entries is longer than [`MAX_ONE_HOT`].
pub(crate) fn check_one_hot_length(len: usize) -> Result<(), CoreError> {
    if len > MAX_ONE_HOT {
        return Err(CoreError::invalid_parameter(
            "space",
            format!("a one-hot block of {len} entries is longer than the limit of {MAX_ONE_HOT}"),
        ));
    }
    Ok(())
}

/// The Box of element type `U` with these bounds, or `None` if a bound is not a `U`.
fn typed_box<U: BoxScalar>(low: &[f64], high: &[f64]) -> Option<Result<AnyBox, SpaceError>> {
    let low: Vec<U> = low.iter().map(|v| U::from_f64(*v)).collect::<Option<_>>()?;
    let high: Vec<U> = high
        .iter()
        .map(|v| U::from_f64(*v))
        .collect::<Option<_>>()?;
    Some(BoxSpace::from_vecs(low, high).map(AnyBox::from))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rl_spaces::{ArrayBox, DictSpace, Discrete, MultiBinary, MultiDiscrete, TupleSpace};

    #[test]
    fn discrete_flattens_to_an_int64_unit_box() {
        let flat = Discrete::new(3).expect("valid").flat_box().expect("flat");
        assert_eq!(flat.to_string(), "Box(0, 1, (3,), int64)");
    }

    #[test]
    fn boxes_keep_dtype_and_bounds() {
        let space = ArrayBox::new([-1.0f32, 0.0], [1.0, f32::INFINITY]).expect("valid");
        assert_eq!(
            space.flat_box().expect("flat").to_string(),
            "Box([-1.0, 0.0], [1.0, inf], (2,), float32)"
        );
        let image = BoxSpace::uniform(&[2, 3], 0u8, 9).expect("valid");
        assert_eq!(image.flat_box().expect("flat").shape(), &[6]);
        assert_eq!(
            image.natural_layout().expect("layout").components()[0].shape(),
            &[2, 3]
        );
    }

    #[test]
    fn mixed_composites_become_float64() {
        let space = AnySpace::from(
            TupleSpace::new(vec![
                Discrete::new(2).expect("valid").into(),
                BoxSpace::uniform(&[1], -2.0f32, 2.0).expect("valid").into(),
                MultiBinary::new(&[2]).expect("valid").into(),
            ])
            .expect("valid"),
        );
        let flat = space.flat_box().expect("flat");
        assert_eq!(flat.dtype(), DType::F64);
        assert_eq!(flat.low_f64(), vec![0.0, 0.0, -2.0, 0.0, 0.0]);
        assert_eq!(flat.high_f64(), vec![1.0, 1.0, 2.0, 1.0, 1.0]);
        assert_eq!(space.natural_layout().expect("layout").flat_dim(), 5);
    }

    #[test]
    fn same_dtype_composites_keep_it() {
        let space = AnySpace::from(
            TupleSpace::new(vec![
                Discrete::new(2).expect("valid").into(),
                MultiDiscrete::from_vec(vec![2, 3]).expect("valid").into(),
            ])
            .expect("valid"),
        );
        assert_eq!(
            space.flat_box().expect("flat").to_string(),
            "Box(0, 1, (7,), int64)"
        );
    }

    #[test]
    fn huge_one_hot_blocks_are_refused() {
        // rl-spaces flattens no space whose flat vector is longer than this limit (both are
        // 2^24): a Discrete of more values has no flat Box, and the block check is tested on
        // its own.
        let error = Discrete::new(1 << 40)
            .expect("valid")
            .flat_box()
            .unwrap_err();
        assert!(error.to_string().contains("has no flat Box"), "{error}");
        assert!(check_one_hot_length(MAX_ONE_HOT).is_ok());
        assert!(check_one_hot_length(MAX_ONE_HOT + 1).is_err());
    }

    #[test]
    fn dict_keys_become_components() {
        let space = DictSpace::new([
            (
                "b",
                AnySpace::from(BoxSpace::uniform(&[2, 2], 0.0f64, 1.0).expect("valid")),
            ),
            ("a", AnySpace::from(Discrete::new(3).expect("valid"))),
        ])
        .expect("valid");
        let layout = space.natural_layout().expect("layout");
        let names: Vec<&str> = layout.components().iter().map(|c| c.name()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(layout.flat_dim(), space.flat_dim());
    }
}
