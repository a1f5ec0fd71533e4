//! [`OneHotAction`]: a finite action space taken as one-hot vectors, and [`OneHotSpace`], the
//! space of one-hot vectors (index ⇄ one-hot).

use std::fmt;
use std::marker::PhantomData;

use rand::{Rng, RngExt};
use rl_core::{CoreError, Environment, InvalidExamples, Mode, StepOutcome};
use rl_spaces::{FiniteSpace, FlatScalar, FlattenSpace, SampleSpace, Space, SpaceError};

use crate::forward::{
    forward_lifecycle, forward_observations, forward_randomness, inner_accessors,
};
use crate::numeric::check_one_hot_length;

/// The one-hot vectors of length `n`: exactly one entry is 1, every other is 0 (AiDotNet's
/// action encoding). [`encode_into`](Self::encode_into) and [`decode`](Self::decode) convert
/// between an index and its vector.
///
/// ```
/// use rl_spaces::Space;
/// use rl_wrappers::stateless::OneHotSpace;
///
/// let space = OneHotSpace::<f32>::new(3)?;
/// let mut vector = [0.0; 3];
/// space.encode_into(2, &mut vector)?;
/// assert_eq!(vector, [0.0, 0.0, 1.0]);
/// assert_eq!(space.decode(&vector), Some(2));
/// assert_eq!(space.decode(&[0.5, 0.5, 0.0]), None);
/// assert!(space.contains(&vec![0.0, 1.0, 0.0]));
/// # Ok::<(), rl_core::CoreError>(())
/// ```
pub struct OneHotSpace<T> {
    len: usize,
    marker: PhantomData<fn() -> T>,
}

impl<T: FlatScalar> OneHotSpace<T> {
    /// The one-hot vectors of length `len`. Errors if `len` is 0 or above
    /// [`MAX_ONE_HOT`](crate::MAX_ONE_HOT).
    pub fn new(len: usize) -> Result<Self, CoreError> {
        if len == 0 {
            return Err(CoreError::invalid_parameter(
                "len",
                "a one-hot vector needs an entry",
            ));
        }
        check_one_hot_length(len)?;
        Ok(OneHotSpace {
            len,
            marker: PhantomData,
        })
    }

    /// The length of the vectors (the number of elements).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: there is at least one element.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Writes the one-hot vector of `index` into `out`. Errors if `index` is out of range or
    /// `out` has another length.
    pub fn encode_into(&self, index: usize, out: &mut [T]) -> Result<(), CoreError> {
        if out.len() != self.len {
            return Err(CoreError::Space(SpaceError::LengthMismatch {
                what: "one-hot vector",
                expected: self.len,
                found: out.len(),
            }));
        }
        out.fill(T::ZERO);
        let hot = out.get_mut(index).ok_or_else(|| {
            CoreError::invalid_parameter("index", format!("{index} is not below {}", self.len))
        })?;
        *hot = T::ONE;
        Ok(())
    }

    /// The one-hot vector of `index`, if it is in range.
    pub fn encode(&self, index: usize) -> Option<Vec<T>> {
        let mut out = vec![T::ZERO; self.len];
        self.encode_into(index, &mut out).ok().map(|()| out)
    }

    /// The index of a one-hot vector, or `None` if `vector` has another length or is not
    /// one-hot (a single 1, every other entry 0).
    pub fn decode(&self, vector: &[T]) -> Option<usize> {
        if vector.len() != self.len {
            return None;
        }
        let mut hot = None;
        for (i, v) in vector.iter().enumerate() {
            if *v == T::ONE && hot.is_none() {
                hot = Some(i);
            } else if *v != T::ZERO {
                return None;
            }
        }
        hot
    }
}

impl<T> Clone for OneHotSpace<T> {
    fn clone(&self) -> Self {
        OneHotSpace {
            len: self.len,
            marker: PhantomData,
        }
    }
}

impl<T> PartialEq for OneHotSpace<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len
    }
}

impl<T> fmt::Debug for OneHotSpace<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OneHotSpace")
            .field("len", &self.len)
            .finish()
    }
}

impl<T> fmt::Display for OneHotSpace<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OneHot({})", self.len)
    }
}

impl<T: FlatScalar> Space for OneHotSpace<T> {
    type Element = Vec<T>;

    fn contains(&self, x: &Vec<T>) -> bool {
        self.decode(x).is_some()
    }
}

impl<T: FlatScalar> SampleSpace for OneHotSpace<T> {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Vec<T> {
        let index = rng.random_range(0..self.len);
        self.encode(index).unwrap_or_default()
    }
}

impl<T: FlatScalar> FiniteSpace for OneHotSpace<T> {
    fn cardinality(&self) -> Option<usize> {
        Some(self.len)
    }

    fn element_at(&self, index: usize) -> Option<Vec<T>> {
        self.encode(index)
    }

    fn index_of(&self, x: &Vec<T>) -> Option<usize> {
        self.decode(x)
    }
}

impl<T: FlatScalar> FlattenSpace for OneHotSpace<T> {
    fn flat_dim(&self) -> usize {
        self.len
    }

    fn flatten_into<F: FlatScalar>(&self, x: &Vec<T>, out: &mut [F]) -> Result<(), SpaceError> {
        let index = self.decode(x).ok_or_else(|| SpaceError::NotInSpace {
            element: format!("{x:?}"),
            space: self.to_string(),
        })?;
        if out.len() != self.len {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: self.len,
                found: out.len(),
            });
        }
        out.fill(F::ZERO);
        if let Some(hot) = out.get_mut(index) {
            *hot = F::ONE;
        }
        Ok(())
    }

    fn unflatten<F: FlatScalar>(&self, flat: &[F]) -> Result<Vec<T>, SpaceError> {
        let vector: Vec<T> = flat.iter().map(|v| T::from_f64(v.to_f64())).collect();
        if self.decode(&vector).is_none() {
            return Err(SpaceError::InvalidFlat {
                reason: format!("{flat:?} is not a one-hot vector of length {}", self.len),
            });
        }
        Ok(vector)
    }
}

impl<T: FlatScalar> InvalidExamples for OneHotSpace<T> {
    fn invalid_examples(&self) -> Vec<Vec<T>> {
        let mut two_hot = vec![T::ONE; self.len.min(2)];
        two_hot.resize(self.len, T::ZERO);
        let mut half = vec![T::ZERO; self.len];
        if let Some(first) = half.first_mut() {
            *first = T::from_f64(0.5);
        }
        [
            vec![T::ZERO; self.len],
            two_hot,
            half,
            vec![T::ONE; self.len + 1],
        ]
        .into_iter()
        .filter(|x| !self.contains(x))
        .collect()
    }
}

/// Takes the actions of a finite action space as one-hot vectors of their index (AiDotNet's
/// discrete action encoding): a policy network's one-hot output drives the environment
/// directly.
///
/// A vector that is not one-hot is an invalid action. Decoding writes nothing: the index is
/// found, and the inner action is [`element_at`](FiniteSpace::element_at) of it (for a
/// Discrete space, a plain number).
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_core::corridor::Corridor;
/// use rl_wrappers::stateless::OneHotAction;
///
/// let mut env = OneHotAction::<_, f32>::new(Simulator::new(Corridor::new(4, 0.0)?, 0))?;
/// env.reset(Mode::Training)?;
/// // Corridor's actions are LEFT = 0 and RIGHT = 1: [0, 1] is RIGHT.
/// assert_eq!(env.step(&vec![0.0, 1.0])?.observation, 1);
/// assert!(env.step(&vec![1.0, 1.0]).is_err());
/// assert_eq!(env.encode(&1), Some(vec![0.0, 1.0]));
/// # Ok::<(), rl_core::CoreError>(())
/// ```
#[derive(Debug, Clone)]
pub struct OneHotAction<E, T> {
    inner: E,
    action_space: OneHotSpace<T>,
}

impl<E, T> OneHotAction<E, T>
where
    E: Environment,
    E::ActionSpace: FiniteSpace,
    T: FlatScalar,
{
    /// Takes the actions of `inner` as one-hot vectors. Errors if its action space is too
    /// large to count or above [`MAX_ONE_HOT`](crate::MAX_ONE_HOT).
    pub fn new(inner: E) -> Result<Self, CoreError> {
        let count = inner.action_space().cardinality().ok_or_else(|| {
            CoreError::invalid_parameter(
                "action_space",
                format!("{} has too many actions to number", inner.action_space()),
            )
        })?;
        Ok(OneHotAction {
            action_space: OneHotSpace::new(count)?,
            inner,
        })
    }

    /// The one-hot vector of an inner action, if it belongs to the inner action space.
    pub fn encode(&self, action: &E::Action) -> Option<Vec<T>> {
        let index = self.inner.action_space().index_of(action)?;
        self.action_space.encode(index)
    }

    /// The inner action of a one-hot vector, if it is one.
    pub fn decode(&self, vector: &[T]) -> Option<E::Action> {
        let index = self.action_space.decode(vector)?;
        self.inner.action_space().element_at(index)
    }

    inner_accessors!(E);
}

impl<E, T> Environment for OneHotAction<E, T>
where
    E: Environment,
    E::ActionSpace: FiniteSpace,
    T: FlatScalar,
{
    type Action = Vec<T>;
    type ActionSpace = OneHotSpace<T>;

    forward_observations!(E);
    forward_lifecycle!();
    forward_randomness!();

    fn action_space(&self) -> &OneHotSpace<T> {
        &self.action_space
    }

    fn reset(&mut self, mode: Mode) -> Result<E::Observation, CoreError> {
        self.inner.reset(mode)
    }

    fn step(&mut self, action: &Vec<T>) -> Result<StepOutcome<E::Observation>, CoreError> {
        let inner_action = self
            .decode(action)
            .ok_or_else(|| CoreError::invalid_action(action, &self.action_space))?;
        self.inner.step(&inner_action)
    }

    fn is_applicable(&self, action: &Vec<T>) -> bool {
        self.decode(action)
            .is_some_and(|inner_action| self.inner.is_applicable(&inner_action))
    }
}
