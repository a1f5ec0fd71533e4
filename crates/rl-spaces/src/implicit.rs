//! [`ImplicitSpace`]: a set defined by a membership predicate.

use std::fmt;
use std::marker::PhantomData;

use crate::space::Space;

/// The elements of `T` for which a predicate holds (scikit-decide's `ImplicitSpace`).
///
/// It can only test membership: it cannot sample, enumerate, flatten or be written to JSON,
/// and it is not an [`AnySpace`](crate::AnySpace).
///
/// ```
/// use rl_spaces::{ImplicitSpace, Space};
///
/// let even = ImplicitSpace::new("even integers", |x: &i64| x % 2 == 0);
/// assert!(even.contains(&4));
/// assert!(!even.contains(&3));
/// assert_eq!(even.to_string(), "ImplicitSpace(even integers)");
/// ```
pub struct ImplicitSpace<T, F> {
    description: String,
    predicate: F,
    element: PhantomData<fn(&T) -> bool>,
}

impl<T, F: Fn(&T) -> bool> ImplicitSpace<T, F> {
    /// The elements for which `predicate` returns true; `description` names the set in messages.
    pub fn new(description: impl Into<String>, predicate: F) -> Self {
        ImplicitSpace {
            description: description.into(),
            predicate,
            element: PhantomData,
        }
    }

    /// The description given at construction.
    pub fn description(&self) -> &str {
        &self.description
    }
}

impl<T, F: Clone> Clone for ImplicitSpace<T, F> {
    fn clone(&self) -> Self {
        ImplicitSpace {
            description: self.description.clone(),
            predicate: self.predicate.clone(),
            element: PhantomData,
        }
    }
}

impl<T, F> fmt::Debug for ImplicitSpace<T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImplicitSpace")
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

impl<T, F> fmt::Display for ImplicitSpace<T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ImplicitSpace({})", self.description)
    }
}

impl<T, F> Space for ImplicitSpace<T, F>
where
    T: Clone + fmt::Debug + PartialEq,
    F: Fn(&T) -> bool,
{
    type Element = T;

    fn contains(&self, x: &T) -> bool {
        (self.predicate)(x)
    }
}
