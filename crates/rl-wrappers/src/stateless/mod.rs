//! Stateless wrappers: each step is transformed on its own, with no memory of earlier steps
//! (scratch buffers aside).
//!
//! | wrapper | transforms | Gymnasium / AiDotNet |
//! |---|---|---|
//! | [`ScaleReward`] | the reward, times a factor | `TransformReward` |
//! | [`ClipReward`] | the reward, clipped | `ClipReward` |
//! | [`OneHotAction`] | one-hot vectors to a finite space's actions ([`OneHotSpace`]) | AiDotNet's index ⇄ one-hot |
//! | [`ClipAction`] | any real action, clipped to a Box ([`FloatBox`]) | `ClipAction` |
//! | [`RescaleAction`] | actions in `[-1, 1]`, mapped to a Box's bounds | `RescaleAction` |
//! | [`DiscretizeAction`] | one `Discrete` index to evenly spaced actions of a Box | `DiscretizeAction` |
//! | [`FlattenObservation`] | observations, flattened | `FlattenObservation` |
//! | [`CastObservation`] | numeric observations, converted to `f32` or `f64` | `DtypeObservation` |
//!
//! Observations turned into numeric data in general are the business of
//! [`OuterEnvironment`](crate::OuterEnvironment) and its
//! [representations](crate::representation).

mod clip_action;
mod clip_reward;
mod discretize_action;
mod float_box;
mod observation;
mod one_hot_action;
mod rescale_action;
mod scale_reward;

pub use clip_action::ClipAction;
pub use clip_reward::ClipReward;
pub use discretize_action::DiscretizeAction;
pub use float_box::FloatBox;
pub use observation::{CastObservation, FlattenObservation};
pub use one_hot_action::{OneHotAction, OneHotSpace};
pub use rescale_action::RescaleAction;
pub use scale_reward::ScaleReward;
