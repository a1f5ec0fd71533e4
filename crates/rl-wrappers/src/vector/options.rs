//! [`VectorOptions`]: how a vector environment resets, how many threads step it and how its
//! observation rows are laid out.

use std::num::NonZeroUsize;

use rl_spaces::RowLayout;

use crate::vector::Autoreset;

/// How a [`VectorEnvironment`](crate::vector::VectorEnvironment) resets ended environments,
/// how many threads step it and how its observation rows are laid out (default:
/// [`Autoreset::NextStep`], one thread, [`RowLayout::Flat`]).
///
/// ```
/// use std::num::NonZeroUsize;
/// use rl_wrappers::vector::{Autoreset, VectorOptions};
///
/// let options = VectorOptions::new()
///     .with_autoreset(Autoreset::SameStep)
///     .with_threads(NonZeroUsize::new(2).expect("non-zero"));
/// assert_eq!(options.threads().get(), 2);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VectorOptions {
    autoreset: Autoreset,
    threads: NonZeroUsize,
    layout: RowLayout,
}

impl VectorOptions {
    /// The defaults: [`Autoreset::NextStep`] and one thread.
    pub fn new() -> Self {
        VectorOptions {
            autoreset: Autoreset::NextStep,
            threads: NonZeroUsize::MIN,
            layout: RowLayout::Flat,
        }
    }

    /// The same options with another autoreset mode.
    pub fn with_autoreset(mut self, autoreset: Autoreset) -> Self {
        self.autoreset = autoreset;
        self
    }

    /// The same options with `threads` threads (the calling thread and `threads - 1` workers
    /// started with the vector environment). At most the number of environments.
    ///
    /// More threads pay only where the cores are free: each step waits for the slowest share,
    /// and on a 2-core machine with one core busy with other work, two threads stepped a
    /// 1024-environment CartPole vector at about 0.7 times one thread's speed
    /// (docs/PERFORMANCE.md, "The vector runtime").
    pub fn with_threads(mut self, threads: NonZeroUsize) -> Self {
        self.threads = threads;
        self
    }

    /// The same options with observation rows in `layout`: [`RowLayout::Flat`] (Gymnasium's
    /// `flatten`, the default) or [`RowLayout::Batched`] (one entry per `Discrete`, the rows
    /// whose typed columns [`Columns`](rl_spaces::Columns) describes: what the Python package
    /// reads). Vectors built by id ([`make_vector`](crate::vector::make_vector)) take either;
    /// `from_environments` and `from_kernel` write flat rows only, and refuse another layout.
    pub fn with_layout(mut self, layout: RowLayout) -> Self {
        self.layout = layout;
        self
    }

    /// The layout of the observation rows.
    pub fn layout(&self) -> RowLayout {
        self.layout
    }

    /// The autoreset mode.
    pub fn autoreset(&self) -> Autoreset {
        self.autoreset
    }

    /// The number of threads.
    pub fn threads(&self) -> NonZeroUsize {
        self.threads
    }
}

impl Default for VectorOptions {
    fn default() -> Self {
        VectorOptions::new()
    }
}
