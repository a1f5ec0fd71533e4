//! [`VectorOptions`]: how a vector environment resets and how many threads step it.

use std::num::NonZeroUsize;

use crate::vector::Autoreset;

/// How a [`VectorEnvironment`](crate::vector::VectorEnvironment) resets ended environments
/// and how many threads step it (default: [`Autoreset::NextStep`], one thread).
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
}

impl VectorOptions {
    /// The defaults: [`Autoreset::NextStep`] and one thread.
    pub fn new() -> Self {
        VectorOptions {
            autoreset: Autoreset::NextStep,
            threads: NonZeroUsize::MIN,
        }
    }

    /// The same options with another autoreset mode.
    pub fn with_autoreset(mut self, autoreset: Autoreset) -> Self {
        self.autoreset = autoreset;
        self
    }

    /// The same options with `threads` threads (the calling thread and `threads - 1` workers
    /// started with the vector environment). At most the number of environments.
    pub fn with_threads(mut self, threads: NonZeroUsize) -> Self {
        self.threads = threads;
        self
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
