//! Stateful wrappers: those that remember something between steps (a step count, past
//! observations, running statistics, episode records, a mode, a generator).
//!
//! | wrapper | remembers | Gymnasium / deer |
//! |---|---|---|
//! | [`TimeLimit`] | the step count | `TimeLimit` |
//! | [`HistoryStack`] | the last observations ([`History`]) | deer's `inputDimensions`, `FrameStackObservation` |
//! | [`NormalizeObservation`] | running mean and variance ([`RunningMeanVariance`]) | `NormalizeObservation` |
//! | [`NormalizeReward`] | a discounted return and its variance | `NormalizeReward` |
//! | [`EpisodeStatistics`] | returns, lengths, wall times | `RecordEpisodeStatistics` |
//! | [`ModeSwitch`] | the mode of the episode ([`ByMode`]) | deer's modes |
//! | [`StickyAction`] | the previous action and a generator | `StickyAction` |

mod episode_statistics;
mod history;
mod history_stack;
mod mode_switch;
mod normalize_observation;
mod normalize_reward;
mod running_statistics;
mod sticky_action;
mod time_limit;

pub use episode_statistics::EpisodeStatistics;
pub use history::{History, Padding};
pub use history_stack::HistoryStack;
pub use mode_switch::{ByMode, ModeSwitch};
pub use normalize_observation::NormalizeObservation;
pub use normalize_reward::NormalizeReward;
pub use running_statistics::RunningMeanVariance;
pub use sticky_action::StickyAction;
pub use time_limit::TimeLimit;
