//! [`PixelObservation`]: the observation is the environment's frame (Gymnasium's
//! `AddRenderObservation` with `render_only=True`, resized and optionally grey), with its
//! `Box(0, 255, [H, W, C], uint8)` space.

use ndarray::{ArrayD, IxDyn};

use crate::forward::{forward_actions, forward_lifecycle, forward_randomness, inner_accessors};
use rl_core::{CoreError, Environment, Frame, FrameEnvironment, Mode, StepOutcome};
use rl_spaces::BoxSpace;

/// Gymnasium's `GrayscaleObservation` weights of red, green and blue.
const GREY_WEIGHTS: [f32; 3] = [0.2125, 0.7154, 0.0721];

/// Replaces an environment's observations by its frames: `[height, width, 3]` `u8` arrays, or
/// `[height, width, 1]` in grey (Gymnasium's luminance weights, truncated as its
/// `GrayscaleObservation` does). The frames are drawn at the chosen size (no resampling: the
/// domain draws at any size).
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_wrappers::pictures::PixelObservation;
///
/// let env = Simulator::new(Corridor::new(4, 0.0)?, 0);
/// let mut env = PixelObservation::new(env, Some((8, 2)), true)?;
/// assert_eq!(env.observation_space().shape(), &[2, 8, 1]);
/// let first = env.reset(Mode::Training)?;
/// assert_eq!(first[[0, 0, 0]], 0); // the agent, black, in the first cell
/// let next = env.step(&RIGHT)?.observation;
/// assert!(next[[0, 0, 0]] > 250 && next[[0, 2, 0]] == 0); // white, then the agent
/// # Ok::<(), rl_core::CoreError>(())
/// ```
#[derive(Debug, Clone)]
pub struct PixelObservation<E> {
    inner: E,
    frame: Frame,
    grey: bool,
    observation_space: BoxSpace<u8>,
}

impl<E: FrameEnvironment> PixelObservation<E> {
    /// Observes `inner`'s frames at `size` (`(width, height)`; `None`: the environment's own
    /// size), in grey if `grey`. Fails for a size [`Frame::new`] rejects.
    pub fn new(inner: E, size: Option<(u32, u32)>, grey: bool) -> Result<Self, CoreError> {
        let (width, height) = size.unwrap_or_else(|| inner.frame_size());
        let frame = Frame::new(width, height)?;
        let channels = if grey { 1 } else { 3 };
        let observation_space =
            BoxSpace::uniform(&[height as usize, width as usize, channels], 0, 255)?;
        Ok(PixelObservation {
            inner,
            frame,
            grey,
            observation_space,
        })
    }

    inner_accessors!(E);

    /// The current frame as an observation.
    fn observe(&mut self) -> Result<ArrayD<u8>, CoreError> {
        self.inner.render_frame(&mut self.frame)?;
        let (width, height) = (self.frame.width() as usize, self.frame.height() as usize);
        if self.grey {
            let grey = self
                .frame
                .pixels()
                .chunks_exact(3)
                .map(|rgb| {
                    let luminance = GREY_WEIGHTS[0] * f32::from(rgb[0])
                        + GREY_WEIGHTS[1] * f32::from(rgb[1])
                        + GREY_WEIGHTS[2] * f32::from(rgb[2]);
                    luminance as u8
                })
                .collect();
            Ok(ArrayD::from_shape_vec(IxDyn(&[height, width, 1]), grey)
                .map_err(|error| CoreError::invalid_parameter("frame", error.to_string()))?)
        } else {
            ArrayD::from_shape_vec(IxDyn(&[height, width, 3]), self.frame.pixels().to_vec())
                .map_err(|error| CoreError::invalid_parameter("frame", error.to_string()))
        }
    }
}

impl<E: FrameEnvironment> Environment for PixelObservation<E> {
    type Observation = ArrayD<u8>;
    type ObservationSpace = BoxSpace<u8>;

    forward_actions!(E);
    forward_lifecycle!();
    forward_randomness!();

    fn observation_space(&self) -> &BoxSpace<u8> {
        &self.observation_space
    }

    fn reset(&mut self, mode: Mode) -> Result<ArrayD<u8>, CoreError> {
        self.inner.reset(mode)?;
        self.observe()
    }

    fn step(&mut self, action: &E::Action) -> Result<StepOutcome<ArrayD<u8>>, CoreError> {
        let outcome = self.inner.step(action)?;
        let observation = self.observe()?;
        Ok(outcome.map_observation(|_| observation))
    }
}

impl<E: FrameEnvironment> FrameEnvironment for PixelObservation<E> {
    fn frame_size(&self) -> (u32, u32) {
        self.inner.frame_size()
    }

    fn render_frame(&self, frame: &mut Frame) -> Result<(), CoreError> {
        self.inner.render_frame(frame)
    }
}
