//! [`Mode`]: what an episode is for (training or one of the evaluation modes).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::CoreError;

/// What an episode is for, chosen at each reset and held until the next one (deer's modes).
///
/// Training is the reserved default. Evaluation modes are numbered by the user (for example
/// `Evaluation(0)` for validation, `Evaluation(1)` for test). A domain or wrapper may change
/// its dynamics or rewards by mode, say by switching noise off when evaluating.
///
/// deer numbers modes as integers with `-1` for training; [`Mode::to_deer`] and
/// [`Mode::from_deer`] convert.
///
/// ```
/// use rl_core::Mode;
///
/// assert_eq!(Mode::default(), Mode::Training);
/// assert_eq!(Mode::Training.to_deer(), -1);
/// assert_eq!(Mode::from_deer(2)?, Mode::Evaluation(2));
/// assert!(Mode::from_deer(-5).is_err());
/// # Ok::<(), rl_core::CoreError>(())
/// ```
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Learning: exploration and the training dynamics (the default).
    #[default]
    Training,
    /// An evaluation mode, numbered by the user.
    Evaluation(u32),
}

impl Mode {
    /// The first evaluation mode, `Evaluation(0)`.
    pub const EVALUATION: Mode = Mode::Evaluation(0);

    /// Whether this is the training mode.
    #[inline]
    pub fn is_training(self) -> bool {
        self == Mode::Training
    }

    /// deer's integer for the mode: `-1` for training, `k` for `Evaluation(k)`.
    pub fn to_deer(self) -> i64 {
        match self {
            Mode::Training => -1,
            Mode::Evaluation(k) => i64::from(k),
        }
    }

    /// The mode of a deer integer: `-1` is training, `k >= 0` is `Evaluation(k)`.
    pub fn from_deer(mode: i64) -> Result<Mode, CoreError> {
        match mode {
            -1 => Ok(Mode::Training),
            k => u32::try_from(k).map(Mode::Evaluation).map_err(|_| {
                CoreError::invalid_parameter(
                    "mode",
                    format!("{k} is neither -1 (training) nor an evaluation mode 0..=2^32-1"),
                )
            }),
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mode::Training => write!(f, "training"),
            Mode::Evaluation(k) => write!(f, "evaluation {k}"),
        }
    }
}
