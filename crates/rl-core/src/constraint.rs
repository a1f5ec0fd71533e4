//! Constraints on transitions (scikit-decide's `Constraint`, `ImplicitConstraint`,
//! `BoundConstraint`), the [`Memory`] they read, a domain's [`ConstraintSet`], and the
//! [`Violations`] a step reports.

use std::collections::VecDeque;
use std::fmt;
use std::num::NonZeroUsize;
use std::sync::Arc;

use serde_json::Value as JsonValue;

use crate::{ConstrainedDomain, CoreError, Info};

/// The key of the info entry that lists the constraints a step violated, in what is built by
/// id.
///
/// # Violations of environments built by id
///
/// A [`Simulator`](crate::Simulator) reports a step's violations in
/// [`StepOutcome::violations`](crate::StepOutcome::violations), by index in the domain's list
/// ([`Environment::constraint_name`](crate::Environment::constraint_name) names them). What is
/// built by id from a registration that declared constraints
/// ([`Registration::with_constraints`](crate::registry::Registration::with_constraints))
/// reports them the same way and, for consumers that read infos (vectors, Python), also in the
/// step's info under [`VIOLATIONS_INFO_KEY`] (`"violations"`): the names of the violated
/// constraints, in index order, as a JSON array of strings, present only on steps that
/// violated at least one. A vector lays it out as every info entry (Gymnasium's
/// `info["violations"]` over the batch with its mask `info["_violations"]`).
pub const VIOLATIONS_INFO_KEY: &str = "violations";

/// The recent states a constraint may look at: the current state, and optionally a bounded
/// history before it (newest last).
#[derive(Debug, Clone)]
pub struct Memory<S> {
    states: VecDeque<S>,
    capacity: NonZeroUsize,
}

impl<S> Memory<S> {
    /// An empty memory that keeps the last `capacity` states.
    pub fn new(capacity: NonZeroUsize) -> Self {
        Memory {
            states: VecDeque::with_capacity(capacity.get()),
            capacity,
        }
    }

    /// A memory holding just `state`.
    pub fn of(state: S) -> Self {
        let mut memory = Memory::new(NonZeroUsize::MIN);
        memory.push(state);
        memory
    }

    /// Adds the newest state, forgetting the oldest one if the memory is full. Never allocates
    /// once the memory is full.
    pub fn push(&mut self, state: S) {
        if self.states.len() == self.capacity.get() {
            self.states.pop_front();
        }
        self.states.push_back(state);
    }

    /// Forgets every state.
    pub fn clear(&mut self) {
        self.states.clear();
    }

    /// The newest state (the current one).
    pub fn current(&self) -> Option<&S> {
        self.states.back()
    }

    /// The states, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &S> {
        self.states.iter()
    }

    /// The number of states held.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether no state is held.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The most states the memory keeps.
    pub fn capacity(&self) -> NonZeroUsize {
        self.capacity
    }
}

/// A condition on a transition: the memory before it, the action, and (for constraints that
/// depend on it) the state reached.
pub trait Constraint<S, A> {
    /// A short name for reports.
    fn name(&self) -> &str;

    /// Whether the constraint holds. `next_state` is `Some` exactly when
    /// [`depends_on_next_state`](Self::depends_on_next_state) is true.
    fn check(&self, memory: &Memory<S>, action: &A, next_state: Option<&S>) -> bool;

    /// Whether [`check`](Self::check) needs the state reached. The answer is fixed when the
    /// constraint is built (cached), so callers may ask it on every step.
    fn depends_on_next_state(&self) -> bool;
}

/// A constraint behind a box, as a domain declares it (sendable between threads, so that a
/// simulator with constraints can move to a worker thread).
pub type BoxedConstraint<S, A> = Box<dyn Constraint<S, A> + Send + Sync>;

/// A constraint given by a predicate (scikit-decide's `ImplicitConstraint`).
///
/// ```
/// use rl_core::{Constraint, ImplicitConstraint, Memory};
///
/// // Never move right from position 0.
/// let c = ImplicitConstraint::new("no right at 0", false, |m: &Memory<i32>, a: &i64, _: Option<&i32>| {
///     !(m.current() == Some(&0) && *a == 1)
/// });
/// assert!(!c.check(&Memory::of(0), &1, None));
/// assert!(c.check(&Memory::of(3), &1, None));
/// ```
pub struct ImplicitConstraint<F> {
    name: String,
    predicate: F,
    depends_on_next_state: bool,
}

impl<F> ImplicitConstraint<F> {
    /// The constraint that holds when `predicate(memory, action, next_state)` is true.
    pub fn new(name: impl Into<String>, depends_on_next_state: bool, predicate: F) -> Self {
        ImplicitConstraint {
            name: name.into(),
            predicate,
            depends_on_next_state,
        }
    }
}

impl<F> fmt::Debug for ImplicitConstraint<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImplicitConstraint")
            .field("name", &self.name)
            .field("depends_on_next_state", &self.depends_on_next_state)
            .finish_non_exhaustive()
    }
}

impl<S, A, F> Constraint<S, A> for ImplicitConstraint<F>
where
    F: Fn(&Memory<S>, &A, Option<&S>) -> bool,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn check(&self, memory: &Memory<S>, action: &A, next_state: Option<&S>) -> bool {
        (self.predicate)(memory, action, next_state)
    }

    fn depends_on_next_state(&self) -> bool {
        self.depends_on_next_state
    }
}

/// The comparison of a [`BoundConstraint`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Inequality {
    /// `value < bound`
    Less,
    /// `value <= bound`
    LessOrEqual,
    /// `value > bound`
    Greater,
    /// `value >= bound`
    GreaterOrEqual,
}

impl Inequality {
    /// Whether `value` compares to `bound` this way (false when either is NaN).
    pub fn holds(self, value: f64, bound: f64) -> bool {
        match self {
            Inequality::Less => value < bound,
            Inequality::LessOrEqual => value <= bound,
            Inequality::Greater => value > bound,
            Inequality::GreaterOrEqual => value >= bound,
        }
    }

    /// The symbol, such as `"<="`.
    pub fn symbol(self) -> &'static str {
        match self {
            Inequality::Less => "<",
            Inequality::LessOrEqual => "<=",
            Inequality::Greater => ">",
            Inequality::GreaterOrEqual => ">=",
        }
    }
}

/// A constraint `evaluate(memory, action, next_state) ⋚ bound` (scikit-decide's
/// `BoundConstraint`). A NaN evaluation violates it.
///
/// ```
/// use rl_core::{BoundConstraint, Constraint, Inequality, Memory};
///
/// // The next position stays at most 3.
/// let c = BoundConstraint::new("position <= 3", true, |_: &Memory<f64>, _: &i64, next: Option<&f64>| {
///     next.copied().unwrap_or(f64::NAN)
/// }, Inequality::LessOrEqual, 3.0)?;
/// assert!(c.check(&Memory::of(0.0), &0, Some(&2.5)));
/// assert!(!c.check(&Memory::of(0.0), &0, Some(&3.5)));
/// # Ok::<(), rl_core::CoreError>(())
/// ```
pub struct BoundConstraint<F> {
    name: String,
    evaluate: F,
    inequality: Inequality,
    bound: f64,
    depends_on_next_state: bool,
}

impl<F> BoundConstraint<F> {
    /// The constraint `evaluate(...) inequality bound`. Errors if `bound` is NaN.
    pub fn new(
        name: impl Into<String>,
        depends_on_next_state: bool,
        evaluate: F,
        inequality: Inequality,
        bound: f64,
    ) -> Result<Self, CoreError> {
        if bound.is_nan() {
            return Err(CoreError::invalid_parameter("bound", "the bound is NaN"));
        }
        Ok(BoundConstraint {
            name: name.into(),
            evaluate,
            inequality,
            bound,
            depends_on_next_state,
        })
    }

    /// The comparison.
    pub fn inequality(&self) -> Inequality {
        self.inequality
    }

    /// The bound.
    pub fn bound(&self) -> f64 {
        self.bound
    }
}

impl<F> fmt::Debug for BoundConstraint<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BoundConstraint")
            .field("name", &self.name)
            .field("inequality", &self.inequality.symbol())
            .field("bound", &self.bound)
            .finish_non_exhaustive()
    }
}

impl<S, A, F> Constraint<S, A> for BoundConstraint<F>
where
    F: Fn(&Memory<S>, &A, Option<&S>) -> f64,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn check(&self, memory: &Memory<S>, action: &A, next_state: Option<&S>) -> bool {
        self.inequality
            .holds((self.evaluate)(memory, action, next_state), self.bound)
    }

    fn depends_on_next_state(&self) -> bool {
        self.depends_on_next_state
    }
}

/// The set of constraints a step violated, by their index in the domain's list (at most 64
/// constraints). Copying or creating it never allocates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Violations {
    bits: u64,
}

impl Violations {
    /// The most constraints a domain may declare.
    pub const MAX_CONSTRAINTS: usize = 64;

    /// No violation.
    pub const NONE: Violations = Violations { bits: 0 };

    /// Marks constraint `index` as violated (indices of 64 and above are ignored; the
    /// simulator refuses domains with more constraints).
    pub fn insert(&mut self, index: usize) {
        if index < Self::MAX_CONSTRAINTS {
            self.bits |= 1 << index;
        }
    }

    /// Whether constraint `index` was violated.
    pub fn contains(self, index: usize) -> bool {
        index < Self::MAX_CONSTRAINTS && self.bits & (1 << index) != 0
    }

    /// Whether no constraint was violated.
    pub fn is_empty(self) -> bool {
        self.bits == 0
    }

    /// The number of violated constraints.
    pub fn len(self) -> usize {
        self.bits.count_ones() as usize
    }

    /// The indices of the violated constraints, in increasing order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..Self::MAX_CONSTRAINTS).filter(move |i| self.contains(*i))
    }
}

/// A domain's declared constraints with the length of their memory, checked to be at most
/// [`Violations::MAX_CONSTRAINTS`] and shared (cloning it clones a pointer): what a
/// [`Simulator`](crate::Simulator), the batches of a vector built by id
/// ([`SteppedStates::with_constraints`](crate::SteppedStates::with_constraints)) and a
/// registration evaluate, one definition for all of them.
///
/// ```
/// use rl_core::corridor::{Corridor, LEFT};
/// use rl_core::{ConstraintSet, Info, Memory};
///
/// let set = ConstraintSet::of(&Corridor::new(4, 0.0)?)?;
/// assert_eq!(set.names().collect::<Vec<_>>(), ["moves toward the goal"]);
/// let mut memory = set.memory();
/// memory.push(0);
/// let violations = set.check(&mut memory, &LEFT, &0); // into the left wall
/// assert_eq!(violations.iter().collect::<Vec<_>>(), [0]);
/// let mut info = Info::new();
/// set.write_info(violations, &mut info);
/// assert_eq!(info.get("violations"), Some(&rl_core::InfoValue::from(vec!["moves toward the goal"])));
/// # Ok::<(), rl_core::CoreError>(())
/// ```
pub struct ConstraintSet<S, A> {
    constraints: Arc<[BoxedConstraint<S, A>]>,
    memory_length: NonZeroUsize,
}

impl<S, A> Clone for ConstraintSet<S, A> {
    fn clone(&self) -> Self {
        ConstraintSet {
            constraints: Arc::clone(&self.constraints),
            memory_length: self.memory_length,
        }
    }
}

impl<S, A> fmt::Debug for ConstraintSet<S, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConstraintSet")
            .field("names", &self.names().collect::<Vec<_>>())
            .field("memory_length", &self.memory_length)
            .finish()
    }
}

impl<S, A> ConstraintSet<S, A> {
    /// The constraints `domain` declares ([`ConstrainedDomain::constraints`], with its
    /// [`memory_length`](ConstrainedDomain::memory_length)). Errors if it declares more than
    /// [`Violations::MAX_CONSTRAINTS`].
    pub fn of<D>(domain: &D) -> Result<Self, CoreError>
    where
        D: ConstrainedDomain<State = S, Action = A>,
    {
        let constraints = domain.constraints();
        if constraints.len() > Violations::MAX_CONSTRAINTS {
            return Err(CoreError::invalid_parameter(
                "constraints",
                format!(
                    "the domain declares {} constraints; at most {} are supported",
                    constraints.len(),
                    Violations::MAX_CONSTRAINTS
                ),
            ));
        }
        Ok(ConstraintSet {
            constraints: constraints.into(),
            memory_length: domain.memory_length(),
        })
    }

    /// The number of constraints.
    pub fn len(&self) -> usize {
        self.constraints.len()
    }

    /// Whether there is no constraint.
    pub fn is_empty(&self) -> bool {
        self.constraints.is_empty()
    }

    /// The name of constraint `index`.
    pub fn name(&self, index: usize) -> Option<&str> {
        self.constraints.get(index).map(|c| c.name())
    }

    /// The names, in index order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.constraints.iter().map(|c| c.name())
    }

    /// An empty memory of the constraints' length.
    pub fn memory(&self) -> Memory<S> {
        Memory::new(self.memory_length)
    }

    /// Evaluates every constraint on the step from the newest state of `memory` with `action`
    /// to `next`, then remembers `next`; returns the violated ones. Allocates nothing once the
    /// memory is full, when the constraints allocate nothing.
    pub fn check(&self, memory: &mut Memory<S>, action: &A, next: &S) -> Violations
    where
        S: Clone,
    {
        let mut violations = Violations::NONE;
        for (i, constraint) in self.constraints.iter().enumerate() {
            let next = constraint.depends_on_next_state().then_some(next);
            if !constraint.check(memory, action, next) {
                violations.insert(i);
            }
        }
        memory.push(next.clone());
        violations
    }

    /// Writes `violations` into `info` under [`VIOLATIONS_INFO_KEY`] as the list of the
    /// violated constraints' names (in index order); writes nothing when there is none.
    pub fn write_info(&self, violations: Violations, info: &mut Info) {
        if violations.is_empty() {
            return;
        }
        let names = violations
            .iter()
            .filter_map(|i| self.name(i))
            .map(|name| JsonValue::String(name.to_owned()))
            .collect::<Vec<_>>();
        info.insert(VIOLATIONS_INFO_KEY, JsonValue::Array(names));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_keeps_the_newest_states() {
        let mut memory = Memory::new(NonZeroUsize::new(2).unwrap());
        for s in 0..5 {
            memory.push(s);
        }
        assert_eq!(memory.iter().copied().collect::<Vec<_>>(), [3, 4]);
        assert_eq!(memory.current(), Some(&4));
    }

    #[test]
    fn nan_evaluations_violate_bounds() {
        for inequality in [
            Inequality::Less,
            Inequality::LessOrEqual,
            Inequality::Greater,
            Inequality::GreaterOrEqual,
        ] {
            assert!(!inequality.holds(f64::NAN, 0.0));
        }
        assert!(
            BoundConstraint::new(
                "x",
                false,
                |_: &Memory<i32>, _: &i32, _: Option<&i32>| 0.0,
                Inequality::Less,
                f64::NAN
            )
            .is_err()
        );
    }

    #[test]
    fn violations_are_a_set_of_indices() {
        let mut v = Violations::NONE;
        v.insert(3);
        v.insert(63);
        v.insert(64);
        assert_eq!(v.iter().collect::<Vec<_>>(), [3, 63]);
        assert_eq!(v.len(), 2);
        assert!(!v.contains(64));
    }
}
