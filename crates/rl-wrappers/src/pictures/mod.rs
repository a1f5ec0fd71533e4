//! Pictures of environments: [`RecordVideo`] records chosen episodes through a
//! [`VideoSink`] (Gymnasium's `RecordVideo`), and [`PixelObservation`] makes the frame the
//! observation (for agents that learn from pixels). Both read frames through
//! [`FrameEnvironment`]; this module also passes that capability through the wrappers that
//! keep the inner state's picture meaningful (`TimeLimit`, `EpisodeStatistics`,
//! `DiscretizeAction`).

mod pixel_observation;
mod record_video;

pub use pixel_observation::PixelObservation;
pub use record_video::{RecordVideo, VideoSink, capped_cubic_schedule};

use rl_core::{CoreError, Frame, FrameEnvironment};

use crate::stateful::{EpisodeStatistics, TimeLimit};
use crate::stateless::{DiscretizeAction, FloatBox};

impl<E: FrameEnvironment> FrameEnvironment for TimeLimit<E> {
    fn frame_size(&self) -> (u32, u32) {
        self.inner().frame_size()
    }

    fn render_frame(&self, frame: &mut Frame) -> Result<(), CoreError> {
        self.inner().render_frame(frame)
    }
}

impl<E: FrameEnvironment> FrameEnvironment for EpisodeStatistics<E> {
    fn frame_size(&self) -> (u32, u32) {
        self.inner().frame_size()
    }

    fn render_frame(&self, frame: &mut Frame) -> Result<(), CoreError> {
        self.inner().render_frame(frame)
    }
}

/// Only the actions change; the state drawn is the inner environment's.
impl<E> FrameEnvironment for DiscretizeAction<E>
where
    E: FrameEnvironment,
    E::ActionSpace: FloatBox,
{
    fn frame_size(&self) -> (u32, u32) {
        self.inner().frame_size()
    }

    fn render_frame(&self, frame: &mut Frame) -> Result<(), CoreError> {
        self.inner().render_frame(frame)
    }
}
