//! [`Autoreset`]: what a vector environment does with an environment whose episode ended.

/// What a [`VectorEnvironment`](crate::vector::VectorEnvironment) does with an environment
/// whose episode ended (terminated or truncated) on a step. Gymnasium's `AutoresetMode`.
///
/// | mode | the step that ends an episode | the next step |
/// |---|---|---|
/// | [`NextStep`](Self::NextStep) | final observation, reward, flags | resets it: its action is ignored, it gives the first observation, reward 0, both flags false |
/// | [`SameStep`](Self::SameStep) | resets it at once: the first observation of the next episode, the step's reward and flags; the final observation (and info) in separate buffers, marked in a mask | steps it normally |
/// | [`Disabled`](Self::Disabled) | final observation, reward, flags | an error, until `reset_ended` or `reset` |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Autoreset {
    /// Reset on the next step, whose action for that environment is ignored (Gymnasium's
    /// default, `AutoresetMode.NEXT_STEP`).
    #[default]
    NextStep,
    /// Reset on the same step, keeping the final observation and info apart
    /// (`AutoresetMode.SAME_STEP`).
    SameStep,
    /// Never reset automatically: stepping an ended environment is
    /// [`VectorError::EpisodeEnded`](crate::VectorError::EpisodeEnded)
    /// (`AutoresetMode.DISABLED`).
    Disabled,
}
