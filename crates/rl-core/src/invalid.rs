//! [`InvalidExamples`]: values of a space's element type that are not in the space, for checking
//! that environments reject them.

use ndarray::{ArrayD, IxDyn};
use rl_spaces::{
    AnyElement, AnySpace, ArrayBox, BoxScalar, BoxSpace, DictSpace, Discrete, FiniteSet,
    MultiBinary, MultiDiscrete, OneOfSpace, SequenceSpace, Space, Text, TupleSpace,
};
use serde_json::Value as JsonValue;

/// A space that can name values of its element type lying outside it (out of range, NaN, wrong
/// shape), so the conformance checker can verify that an environment rejects such actions.
///
/// Every returned value must not be contained; an empty list means the element type has no
/// such value (a [`FiniteSet`] of every variant of an enum).
pub trait InvalidExamples: Space {
    /// Values of the element type that are not elements of the space.
    fn invalid_examples(&self) -> Vec<Self::Element>;
}

/// Keeps the candidates that really lie outside the space.
fn outside<S: Space>(
    space: &S,
    candidates: impl IntoIterator<Item = Option<S::Element>>,
) -> Vec<S::Element> {
    candidates
        .into_iter()
        .flatten()
        .filter(|x| !space.contains(x))
        .collect()
}

/// A value below `low` and one above `high`, where the type has them; NaN for floats.
fn scalar_outside<T: BoxScalar>(low: T, high: T) -> Vec<T> {
    let below = T::from_f64(low.to_f64() - (1.0 + low.to_f64().abs()));
    let above = T::from_f64(high.to_f64() + (1.0 + high.to_f64().abs()));
    let nan = T::from_f64(f64::NAN);
    [below, above, nan]
        .into_iter()
        .flatten()
        .filter(|v| v.is_nan() || *v < low || *v > high)
        .collect()
}

impl InvalidExamples for Discrete {
    fn invalid_examples(&self) -> Vec<i64> {
        let past_end = i64::try_from(i128::from(self.start()) + i128::from(self.n())).ok();
        outside(self, [self.start().checked_sub(1), past_end])
    }
}

impl<T: BoxScalar, const N: usize> InvalidExamples for ArrayBox<T, N> {
    fn invalid_examples(&self) -> Vec<[T; N]> {
        if N == 0 {
            return Vec::new();
        }
        let candidates = scalar_outside(self.low()[0], self.high()[0])
            .into_iter()
            .map(|v| {
                let mut x = *self.low();
                x[0] = v;
                Some(x)
            });
        outside(self, candidates)
    }
}

impl<T: BoxScalar> InvalidExamples for BoxSpace<T> {
    fn invalid_examples(&self) -> Vec<ArrayD<T>> {
        let mut candidates = vec![Some(ArrayD::from_elem(
            IxDyn(&[self.low().len() + 1]),
            T::LOWEST,
        ))];
        if let (Some(low), Some(high)) = (self.low().iter().next(), self.high().iter().next()) {
            for v in scalar_outside(*low, *high) {
                let mut x = self.low().clone();
                if let Some(first) = x.iter_mut().next() {
                    *first = v;
                }
                candidates.push(Some(x));
            }
        }
        outside(self, candidates)
    }
}

impl InvalidExamples for MultiDiscrete {
    fn invalid_examples(&self) -> Vec<ArrayD<i64>> {
        let mut below = self.start().clone();
        let mut valid = true;
        if let Some(first) = below.iter_mut().next() {
            match first.checked_sub(1) {
                Some(v) => *first = v,
                None => valid = false,
            }
        }
        let wrong_shape = ArrayD::zeros(IxDyn(&[self.nvec().len() + 1]));
        outside(self, [valid.then_some(below), Some(wrong_shape)])
    }
}

impl InvalidExamples for MultiBinary {
    fn invalid_examples(&self) -> Vec<ArrayD<i8>> {
        let mut two = ArrayD::zeros(IxDyn(self.shape()));
        if let Some(first) = two.iter_mut().next() {
            *first = 2;
        }
        outside(
            self,
            [Some(two), Some(ArrayD::zeros(IxDyn(&[self.len() + 1])))],
        )
    }
}

impl<T: Clone + std::fmt::Debug + PartialEq> InvalidExamples for FiniteSet<T> {
    /// None: a generic finite set cannot invent a value of its element type.
    fn invalid_examples(&self) -> Vec<T> {
        Vec::new()
    }
}

impl InvalidExamples for Text {
    /// A string one character too long, one too short (when `min_length > 0`) and one with a
    /// character outside the charset.
    fn invalid_examples(&self) -> Vec<String> {
        let first = self.charset().first().copied().unwrap_or('a');
        let foreign = ['\u{0}', '?', 'a', '\u{10FFFF}']
            .into_iter()
            .find(|c| self.character_index(*c).is_none());
        outside(
            self,
            [
                Some(std::iter::repeat_n(first, self.max_length() + 1).collect()),
                self.min_length()
                    .checked_sub(1)
                    .map(|n| std::iter::repeat_n(first, n).collect()),
                foreign.map(|c| std::iter::repeat_n(c, self.min_length().max(1)).collect()),
            ],
        )
    }
}

impl InvalidExamples for SequenceSpace {
    /// A sequence of one invalid item of the feature space.
    fn invalid_examples(&self) -> Vec<Vec<AnyElement>> {
        outside(
            self,
            self.feature_space()
                .invalid_examples()
                .into_iter()
                .map(|item| Some(vec![item])),
        )
    }
}

impl InvalidExamples for OneOfSpace {
    /// The index past the last space, and an invalid element of the first space.
    fn invalid_examples(&self) -> Vec<(usize, AnyElement)> {
        let first_invalid = self
            .spaces()
            .first()
            .and_then(|space| space.invalid_examples().into_iter().next());
        outside(
            self,
            [
                Some((self.len(), AnyElement::Int(0))),
                first_invalid.map(|x| (0, x)),
            ],
        )
    }
}

impl InvalidExamples for TupleSpace {
    fn invalid_examples(&self) -> Vec<Vec<AnyElement>> {
        outside(self, [Some(Vec::new())])
    }
}

impl InvalidExamples for DictSpace {
    fn invalid_examples(&self) -> Vec<std::collections::BTreeMap<String, AnyElement>> {
        outside(self, [Some(std::collections::BTreeMap::new())])
    }
}

impl InvalidExamples for AnySpace {
    fn invalid_examples(&self) -> Vec<AnyElement> {
        let mut candidates: Vec<Option<AnyElement>> = match self {
            AnySpace::Discrete(d) => d
                .invalid_examples()
                .into_iter()
                .map(|x| Some(AnyElement::Int(x)))
                .collect(),
            AnySpace::MultiDiscrete(m) => m
                .invalid_examples()
                .into_iter()
                .map(|x| Some(x.into()))
                .collect(),
            AnySpace::MultiBinary(m) => m
                .invalid_examples()
                .into_iter()
                .map(|x| Some(x.into()))
                .collect(),
            AnySpace::Text(t) => t
                .invalid_examples()
                .into_iter()
                .map(|x| Some(AnyElement::Text(x)))
                .collect(),
            AnySpace::Sequence(s) => s
                .invalid_examples()
                .into_iter()
                .map(|x| Some(AnyElement::Sequence(x)))
                .collect(),
            AnySpace::OneOf(o) => o
                .invalid_examples()
                .into_iter()
                .map(|(i, x)| Some(AnyElement::OneOf(i, Box::new(x))))
                .collect(),
            _ => Vec::new(),
        };
        candidates.push(Some(AnyElement::Value(JsonValue::Null)));
        candidates.push(Some(AnyElement::Int(i64::MIN)));
        candidates.push(Some(AnyElement::Tuple(Vec::new())));
        outside(self, candidates)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_sequence_and_one_of_have_invalid_examples() {
        let text = Text::new(1, 3, "ab").unwrap();
        let examples = text.invalid_examples();
        assert_eq!(examples, ["aaaa", "", "\0"]);
        let sequence = SequenceSpace::new(Discrete::new(2).unwrap().into(), false).unwrap();
        // One sequence per invalid item: Discrete's two and the three of any dynamic space.
        assert_eq!(sequence.invalid_examples().len(), 5);
        let one_of = OneOfSpace::new(vec![Discrete::new(2).unwrap().into()]).unwrap();
        assert_eq!(one_of.invalid_examples().len(), 2);
        for space in [
            AnySpace::from(text),
            AnySpace::from(sequence),
            AnySpace::from(one_of),
        ] {
            let examples = space.invalid_examples();
            assert!(examples.len() >= 4, "{space}: {examples:?}");
            assert!(examples.iter().all(|x| !space.contains(x)), "{space}");
        }
    }

    #[test]
    fn every_example_lies_outside_and_there_is_one() {
        let discrete = Discrete::with_start(3, -1).unwrap();
        assert_eq!(discrete.invalid_examples(), vec![-2, 2]);
        let array_box = ArrayBox::new([-1.0f32, 0.0], [1.0, 1.0]).unwrap();
        let examples = array_box.invalid_examples();
        assert_eq!(examples.len(), 3);
        assert!(examples.iter().all(|x| !array_box.contains(x)));
        let int_box = BoxSpace::uniform(&[2], i8::MIN, i8::MAX).unwrap();
        assert!(!int_box.invalid_examples().is_empty());
        let md = MultiDiscrete::from_vec(vec![2, 3]).unwrap();
        assert_eq!(md.invalid_examples().len(), 2);
        let mb = MultiBinary::new(&[2]).unwrap();
        assert_eq!(mb.invalid_examples().len(), 2);
        let any = AnySpace::from(discrete);
        assert!(any.invalid_examples().len() >= 3);
    }
}
