//! Macros writing the [`Environment`](rl_core::Environment) methods a wrapper passes on to
//! its inner environment unchanged (each wrapper lists which ones it passes on).

/// The methods about the episode's mode, discount, declared constraints, reset info and
/// lifecycle: `mode`, `discount`, `constraint_name`, `reset_info` and `close`, each calling the
/// same method of `self.inner`.
macro_rules! forward_lifecycle {
    () => {
        fn reset_info(&self) -> rl_core::Info {
            self.inner.reset_info()
        }

        fn constraint_name(&self, index: usize) -> Option<&str> {
            self.inner.constraint_name(index)
        }

        fn mode(&self) -> rl_core::Mode {
            self.inner.mode()
        }

        fn discount(&self) -> f64 {
            self.inner.discount()
        }

        fn close(&mut self) {
            self.inner.close();
        }
    };
}

/// The methods about randomness: `seed`, `random_state` and `set_random_state`, each calling
/// the same method of `self.inner` (for wrappers that draw no randomness of their own).
macro_rules! forward_randomness {
    () => {
        fn seed(&mut self, seed: u64) {
            self.inner.seed(seed);
        }

        fn random_state(&self) -> Result<rl_core::RandomState, rl_core::CoreError> {
            self.inner.random_state()
        }

        fn set_random_state(
            &mut self,
            state: rl_core::RandomState,
        ) -> Result<(), rl_core::CoreError> {
            self.inner.set_random_state(state)
        }
    };
}

/// The methods about randomness of a wrapper with running statistics (`NormalizeObservation`,
/// `NormalizeReward`): `seed` calls `self.inner.seed`; `random_state` and `set_random_state`
/// are unsupported, since the statistics change what an episode gives and are not part of a
/// [`RandomState`](rl_core::RandomState).
macro_rules! randomness_beside_statistics {
    () => {
        fn seed(&mut self, seed: u64) {
            self.inner.seed(seed);
        }

        /// Unsupported: the running statistics change what an episode gives and are not part of
        /// a [`RandomState`](rl_core::RandomState); checkpoint them with `statistics` and
        /// `set_statistics`, and the inner environment's random state through `inner`.
        fn random_state(&self) -> Result<rl_core::RandomState, rl_core::CoreError> {
            Err(rl_core::CoreError::Unsupported {
                operation: "random_state",
            })
        }

        /// Unsupported; see `random_state`.
        fn set_random_state(
            &mut self,
            state: rl_core::RandomState,
        ) -> Result<(), rl_core::CoreError> {
            let _ = state;
            Err(rl_core::CoreError::Unsupported {
                operation: "set_random_state",
            })
        }
    };
}

/// What a wrapper that keeps the actions of its inner environment (of type `$inner`) writes:
/// the types `Action` and `ActionSpace`, and `action_space`, `accepts_action` and
/// `is_applicable`, each calling the same method of `self.inner`.
macro_rules! forward_actions {
    ($inner:ident) => {
        type Action = $inner::Action;
        type ActionSpace = $inner::ActionSpace;

        fn action_space(&self) -> &Self::ActionSpace {
            self.inner.action_space()
        }

        fn accepts_action(&self, action: &Self::Action) -> bool {
            self.inner.accepts_action(action)
        }

        fn is_applicable(&self, action: &Self::Action) -> bool {
            self.inner.is_applicable(action)
        }
    };
}

/// What a wrapper that keeps the observations of its inner environment (of type `$inner`)
/// writes: the types `Observation` and `ObservationSpace`, and `observation_space`, calling the
/// same method of `self.inner`.
macro_rules! forward_observations {
    ($inner:ident) => {
        type Observation = $inner::Observation;
        type ObservationSpace = $inner::ObservationSpace;

        fn observation_space(&self) -> &Self::ObservationSpace {
            self.inner.observation_space()
        }
    };
}

/// The accessors every wrapper has: `inner`, `inner_mut` and `into_inner`, for a wrapper
/// struct whose wrapped environment is the field `inner` of type `$inner`.
macro_rules! inner_accessors {
    ($inner:ty) => {
        /// The wrapped environment.
        pub fn inner(&self) -> &$inner {
            &self.inner
        }

        /// The wrapped environment, mutably.
        pub fn inner_mut(&mut self) -> &mut $inner {
            &mut self.inner
        }

        /// Unwraps the environment.
        pub fn into_inner(self) -> $inner {
            self.inner
        }
    };
}

pub(crate) use {
    forward_actions, forward_lifecycle, forward_observations, forward_randomness, inner_accessors,
    randomness_beside_statistics,
};
