//! [`RecordVideo`]: records chosen episodes of an environment with frames as videos
//! (Gymnasium's `RecordVideo`), through a [`VideoSink`] that encodes and stores them.

use rl_core::{CoreError, Environment, Frame, FrameEnvironment, Mode, StepOutcome};

use crate::forward::{forward_actions, forward_observations, forward_randomness, inner_accessors};

/// Where [`RecordVideo`] sends the frames of a recorded episode: an encoder and its storage
/// (`rl-experiment`'s `GifFolder` writes one GIF per episode; a test may keep them in memory).
pub trait VideoSink {
    /// Starts the video of episode `episode` (counted from 0), whose frames are `width` by
    /// `height` pixels.
    fn start(&mut self, episode: u64, width: u32, height: u32) -> Result<(), CoreError>;

    /// Adds one frame to the video started last.
    fn frame(&mut self, frame: &Frame) -> Result<(), CoreError>;

    /// Ends the video started last (the episode ended, the next reset came, or the recorder
    /// closed).
    fn finish(&mut self) -> Result<(), CoreError>;
}

/// Gymnasium's default choice of episodes to record: the perfect cubes below 1000 (0, 1, 8,
/// 27, ...), then every thousandth episode.
///
/// ```
/// use rl_wrappers::pictures::capped_cubic_schedule;
///
/// let chosen: Vec<u64> = (0..2001).filter(|&e| capped_cubic_schedule(e)).collect();
/// assert_eq!(chosen, [0, 1, 8, 27, 64, 125, 216, 343, 512, 729, 1000, 2000]);
/// ```
pub fn capped_cubic_schedule(episode: u64) -> bool {
    if episode < 1000 {
        let root = (episode as f64).cbrt().round() as u64;
        root * root * root == episode
    } else {
        episode % 1000 == 0
    }
}

/// Records the episodes that `trigger` chooses (by episode number, counted from 0 at the first
/// reset) as videos: the first frame after the reset, one after every step, handed to a
/// [`VideoSink`]. A video ends when its episode ends (terminated or truncated), at the next
/// reset, or at [`close`](Environment::close).
///
/// The frames come from the environment itself ([`FrameEnvironment`]); a black-box
/// environment implements that trait's two methods to be recorded. Frames are drawn at
/// the environment's [`frame_size`](FrameEnvironment::frame_size) unless
/// [`with_frame_size`](Self::with_frame_size) says otherwise.
///
/// An episode that is not recorded costs one branch per step: nothing is drawn and nothing is
/// allocated (the one frame buffer is allocated at the first recorded reset and reused).
///
/// ```
/// use rl_core::{CoreError, Environment, Frame, Mode, Simulator};
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_wrappers::pictures::{RecordVideo, VideoSink};
///
/// /// Counts the frames of each video.
/// #[derive(Default)]
/// struct Counter(Vec<(u64, usize)>);
///
/// impl VideoSink for Counter {
///     fn start(&mut self, episode: u64, _: u32, _: u32) -> Result<(), CoreError> {
///         self.0.push((episode, 0));
///         Ok(())
///     }
///     fn frame(&mut self, _: &Frame) -> Result<(), CoreError> {
///         self.0.last_mut().expect("started").1 += 1;
///         Ok(())
///     }
///     fn finish(&mut self) -> Result<(), CoreError> { Ok(()) }
/// }
///
/// let env = Simulator::new(Corridor::new(4, 0.0)?, 0);
/// let mut env = RecordVideo::new(env, Counter::default(), |episode| episode % 2 == 0);
/// for _ in 0..3 {
///     env.reset(Mode::Training)?;
///     while !env.step(&RIGHT)?.is_done() {}
/// }
/// // Episodes 0 and 2: the first frame and one per step of the three steps.
/// assert_eq!(env.sink().0, [(0, 4), (2, 4)]);
/// # Ok::<(), rl_core::CoreError>(())
/// ```
#[derive(Debug)]
pub struct RecordVideo<E, S, T> {
    inner: E,
    sink: S,
    trigger: T,
    frame_size: Option<(u32, u32)>,
    frame: Option<Frame>,
    /// The number of resets so far.
    episodes: u64,
    recording: bool,
}

impl<E, S, T> RecordVideo<E, S, T>
where
    E: FrameEnvironment,
    S: VideoSink,
    T: FnMut(u64) -> bool,
{
    /// Records the episodes of `inner` that `trigger` chooses into `sink` (pass
    /// [`capped_cubic_schedule`] for Gymnasium's default).
    pub fn new(inner: E, sink: S, trigger: T) -> Self {
        RecordVideo {
            inner,
            sink,
            trigger,
            frame_size: None,
            frame: None,
            episodes: 0,
            recording: false,
        }
    }

    /// Draws the frames at `width` by `height` pixels instead of the environment's size.
    /// Fails for a size [`Frame::new`] rejects.
    pub fn with_frame_size(mut self, width: u32, height: u32) -> Result<Self, CoreError> {
        Frame::new(width, height)?;
        self.frame_size = Some((width, height));
        self.frame = None;
        Ok(self)
    }

    /// The sink.
    pub fn sink(&self) -> &S {
        &self.sink
    }

    /// Whether the current episode is being recorded.
    pub fn is_recording(&self) -> bool {
        self.recording
    }

    /// The number of episodes started so far.
    pub fn episodes(&self) -> u64 {
        self.episodes
    }

    /// Ends the video being recorded, if any.
    pub fn stop_recording(&mut self) -> Result<(), CoreError> {
        if self.recording {
            self.recording = false;
            self.sink.finish()?;
        }
        Ok(())
    }

    /// Unwraps the environment and the sink, ending the video being recorded.
    pub fn into_parts(mut self) -> Result<(E, S), CoreError> {
        self.stop_recording()?;
        Ok((self.inner, self.sink))
    }

    inner_accessors!(E);

    /// Draws the current state and hands it to the sink.
    fn record_frame(&mut self) -> Result<(), CoreError> {
        let frame = match &mut self.frame {
            Some(frame) => frame,
            empty => {
                let (width, height) = self.frame_size.unwrap_or_else(|| self.inner.frame_size());
                empty.insert(Frame::new(width, height)?)
            }
        };
        self.inner.render_frame(frame)?;
        self.sink.frame(frame)
    }
}

impl<E, S, T> Environment for RecordVideo<E, S, T>
where
    E: FrameEnvironment,
    S: VideoSink,
    T: FnMut(u64) -> bool,
{
    forward_observations!(E);
    forward_actions!(E);
    forward_randomness!();

    fn reset(&mut self, mode: Mode) -> Result<E::Observation, CoreError> {
        self.stop_recording()?;
        let observation = self.inner.reset(mode)?;
        let episode = self.episodes;
        self.episodes += 1;
        if (self.trigger)(episode) {
            let (width, height) = self.frame_size.unwrap_or_else(|| self.inner.frame_size());
            self.sink.start(episode, width, height)?;
            self.recording = true;
            self.record_frame()?;
        }
        Ok(observation)
    }

    fn step(&mut self, action: &E::Action) -> Result<StepOutcome<E::Observation>, CoreError> {
        let outcome = self.inner.step(action)?;
        if self.recording {
            self.record_frame()?;
            if outcome.is_done() {
                self.stop_recording()?;
            }
        }
        Ok(outcome)
    }

    fn mode(&self) -> Mode {
        self.inner.mode()
    }

    fn reset_info(&self) -> rl_core::Info {
        self.inner.reset_info()
    }

    fn discount(&self) -> f64 {
        self.inner.discount()
    }

    fn constraint_name(&self, index: usize) -> Option<&str> {
        self.inner.constraint_name(index)
    }

    fn state_any(&self) -> Option<&dyn std::any::Any> {
        self.inner.state_any()
    }

    fn domain_any(&self) -> Option<&dyn std::any::Any> {
        self.inner.domain_any()
    }

    fn close(&mut self) {
        // A sink's error here has nowhere to go; `stop_recording` reports it to callers that
        // want it before closing.
        let _ = self.stop_recording();
        self.inner.close();
    }
}

impl<E, S, T> FrameEnvironment for RecordVideo<E, S, T>
where
    E: FrameEnvironment,
    S: VideoSink,
    T: FnMut(u64) -> bool,
{
    fn frame_size(&self) -> (u32, u32) {
        self.inner.frame_size()
    }

    fn render_frame(&self, frame: &mut Frame) -> Result<(), CoreError> {
        self.inner.render_frame(frame)
    }
}
