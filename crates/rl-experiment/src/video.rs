//! Episode videos as animated GIFs: [`GifWriter`] encodes frames with a fixed palette,
//! [`GifFiles`] is the [`VideoSink`] that writes one GIF per recorded episode (for
//! [`RecordVideo`]), [`record_episode`] runs one episode of a registered id with an
//! untrained agent's actions and writes its video (`rl render --episode`), and
//! [`record_saved_run`] does the same with the trained agent of a run saved by `rl run`
//! (`rl render --episode --run FILE`).
//!
//! # The trained agent of a saved run
//!
//! A run file (`run-NNN.json`) holds the run's configuration, seeds and results, not the
//! agent's learned parameters. Runs are deterministic (see [`seeds`](crate::seeds)), so
//! [`record_saved_run`] trains the agent again: run `NNN` of the recorded configuration,
//! with its recorded seeds, on the same environment (`catalog::make_for_experiment`, actions
//! discretised as the run's `action_bins` says), which gives the same agent bit for bit. It
//! checks that the retrained run's results equal the saved ones (timings aside) and
//! refuses the file otherwise (edited, or written by other code or agents), then records one
//! episode with the agent acting greedily, as at the run's policy checks. This works for
//! every agent, a user's registered one included, with no parameter format to define and
//! version per agent; it costs the run's training time again (seconds for the built-in
//! domains' default budgets).
//!
//! After the first frame, each frame stores only the rectangle that changed since the one before
//! (the smallest rectangle around every pixel whose palette index changed), drawn over the
//! previous picture (disposal "keep"): a grid world where one agent moves stores a few cells
//! per step instead of the whole grid, so the same episode takes a fraction of the bytes, and a
//! decoder that composes frames (every viewer does) shows the same pictures.
//!
//! GIF keeps at most 256 colours per frame. The palette is fixed, so encoding is one table
//! look-up per pixel and needs no colour quantiser: the 216 colours of the 6 x 6 x 6 cube
//! (levels 0, 51, ..., 255) and 40 greys; a pixel whose channels differ by at most 8 takes
//! the nearest grey, any other the nearest cube colour. Every colour of the built-in
//! pictures lands within 26 levels of itself per channel.

use std::io::Write;
use std::path::{Path, PathBuf};

use rand::SeedableRng;
use rand_pcg::Pcg64;
use rl_core::{BoxedFrameEnvironment, CoreError, Environment, Frame, Mode};
use rl_wrappers::pictures::{RecordVideo, VideoSink};
use serde_json::Value as JsonValue;

use crate::agent::{Agent, AgentContext, build_agent};
use crate::{ExperimentError, RunResult};

/// The number of greys after the 216 cube colours.
const GREYS: usize = 40;
/// The largest channel spread of a pixel drawn with a grey.
const GREY_SPREAD: u8 = 8;

/// The fixed palette: `[r, g, b]` for each of the 256 indices.
fn palette() -> Vec<u8> {
    let mut palette = Vec::with_capacity(256 * 3);
    for red in 0..6u8 {
        for green in 0..6u8 {
            for blue in 0..6u8 {
                palette.extend_from_slice(&[red * 51, green * 51, blue * 51]);
            }
        }
    }
    for grey in 0..GREYS {
        let level = (grey * 255 + (GREYS - 1) / 2) / (GREYS - 1);
        let level = level as u8;
        palette.extend_from_slice(&[level, level, level]);
    }
    palette
}

/// The palette index of a colour.
fn palette_index(rgb: &[u8]) -> u8 {
    let (red, green, blue) = (rgb[0], rgb[1], rgb[2]);
    let spread = red.max(green).max(blue) - red.min(green).min(blue);
    if spread <= GREY_SPREAD {
        let mean = (u32::from(red) + u32::from(green) + u32::from(blue)) / 3;
        let grey = (mean * (GREYS as u32 - 1) + 127) / 255;
        return 216 + grey as u8;
    }
    let level = |value: u8| (u32::from(value) * 5 + 127) / 255;
    (level(red) * 36 + level(green) * 6 + level(blue)) as u8
}

/// The smallest rectangle `(left, top, right, bottom)`, inclusive, around every position where
/// `before` and `after` (rows of `width` palette indices) differ, or `None` when they are equal.
fn changed_rectangle(
    before: &[u8],
    after: &[u8],
    width: usize,
) -> Option<(usize, usize, usize, usize)> {
    let mut rectangle: Option<(usize, usize, usize, usize)> = None;
    for (row, (old, new)) in before
        .chunks_exact(width)
        .zip(after.chunks_exact(width))
        .enumerate()
    {
        let Some(first) = old.iter().zip(new).position(|(a, b)| a != b) else {
            continue;
        };
        let last = old
            .iter()
            .zip(new)
            .rposition(|(a, b)| a != b)
            .unwrap_or(first);
        rectangle = Some(match rectangle {
            None => (first, row, last, row),
            Some((left, top, right, _)) => (left.min(first), top, right.max(last), row),
        });
    }
    rectangle
}

/// The error of a GIF that cannot be written.
fn output_error(target: &str, error: impl std::fmt::Display) -> CoreError {
    CoreError::Output {
        target: target.to_owned(),
        reason: error.to_string(),
    }
}

/// [`output_error`] for an error of writing the file `path`, without naming the path twice.
fn file_error(path: &Path, error: ExperimentError) -> CoreError {
    match error {
        ExperimentError::Io { message, .. } => output_error(&path.display().to_string(), message),
        other => output_error(&path.display().to_string(), other),
    }
}

/// Encodes frames of one size as an animated GIF that loops forever, at a fixed frame rate.
///
/// ```
/// use rl_core::Frame;
/// use rl_experiment::video::GifWriter;
///
/// let mut gif = GifWriter::new(Vec::new(), 4, 2, 25)?;
/// let mut frame = Frame::new(4, 2)?;
/// gif.add_frame(&frame)?;
/// frame.pixels_mut().fill(255);
/// gif.add_frame(&frame)?;
/// let bytes = gif.finish()?;
/// assert!(bytes.starts_with(b"GIF89a"));
/// # Ok::<(), rl_core::CoreError>(())
/// ```
pub struct GifWriter<W: Write> {
    encoder: gif::Encoder<W>,
    width: u16,
    height: u16,
    delay: u16,
    indices: Vec<u8>,
    previous: Vec<u8>,
    changed: Vec<u8>,
    frames: u64,
}

impl<W: Write> std::fmt::Debug for GifWriter<W> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("GifWriter")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("frames", &self.frames)
            .finish_non_exhaustive()
    }
}

impl<W: Write> GifWriter<W> {
    /// A GIF of `width` by `height` frames shown `frames_per_second` a second (GIF counts in
    /// hundredths of a second, so 50 and more play at 50). Fails for a size above 65535 or
    /// zero, a frame rate of zero, or a writer that fails.
    pub fn new(
        writer: W,
        width: u32,
        height: u32,
        frames_per_second: u32,
    ) -> Result<Self, CoreError> {
        let side = |value: u32| u16::try_from(value).ok().filter(|side| *side > 0);
        let (Some(gif_width), Some(gif_height)) = (side(width), side(height)) else {
            return Err(CoreError::invalid_parameter(
                "frame size",
                format!("{width} x {height}: a GIF's sides are between 1 and 65535 pixels"),
            ));
        };
        if frames_per_second == 0 {
            return Err(CoreError::invalid_parameter(
                "frames per second",
                "must be at least 1",
            ));
        }
        let delay = (100 / frames_per_second).clamp(2, u32::from(u16::MAX)) as u16;
        let mut encoder = gif::Encoder::new(writer, gif_width, gif_height, &palette())
            .map_err(|error| output_error("the GIF header", error))?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(|error| output_error("the GIF header", error))?;
        Ok(GifWriter {
            encoder,
            width: gif_width,
            height: gif_height,
            delay,
            indices: Vec::new(),
            previous: Vec::new(),
            changed: Vec::new(),
            frames: 0,
        })
    }

    /// Appends `frame`, which must have the GIF's size.
    pub fn add_frame(&mut self, frame: &Frame) -> Result<(), CoreError> {
        if (frame.width(), frame.height()) != (u32::from(self.width), u32::from(self.height)) {
            return Err(CoreError::invalid_parameter(
                "frame",
                format!(
                    "is {} x {} pixels; the GIF's frames are {} x {}",
                    frame.width(),
                    frame.height(),
                    self.width,
                    self.height
                ),
            ));
        }
        self.indices.clear();
        self.indices
            .extend(frame.pixels().chunks_exact(3).map(palette_index));
        let width = usize::from(self.width);
        // The rectangle that changed since the previous frame (all of the first frame); a frame
        // equal to the one before stores its top-left pixel again, so that it still lasts its
        // delay.
        let (left, top, right, bottom) = if self.frames == 0 {
            (0, 0, width - 1, usize::from(self.height) - 1)
        } else {
            changed_rectangle(&self.previous, &self.indices, width).unwrap_or((0, 0, 0, 0))
        };
        self.changed.clear();
        for row in top..=bottom {
            self.changed
                .extend_from_slice(&self.indices[row * width + left..=row * width + right]);
        }
        let side = |value: usize| u16::try_from(value).expect("within the GIF's u16 sides");
        let gif_frame = gif::Frame {
            left: side(left),
            top: side(top),
            width: side(right - left + 1),
            height: side(bottom - top + 1),
            delay: self.delay,
            dispose: gif::DisposalMethod::Keep,
            buffer: std::borrow::Cow::Borrowed(&self.changed),
            ..gif::Frame::default()
        };
        self.encoder
            .write_frame(&gif_frame)
            .map_err(|error| output_error(&format!("GIF frame {}", self.frames), error))?;
        std::mem::swap(&mut self.previous, &mut self.indices);
        self.frames += 1;
        Ok(())
    }

    /// The number of frames written.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// Writes the GIF's trailer and gives the writer back.
    pub fn finish(self) -> Result<W, CoreError> {
        self.encoder
            .into_inner()
            .map_err(|error| output_error("the GIF trailer", error))
    }
}

/// A [`VideoSink`] writing each recorded episode to its own GIF file: in a folder as
/// `<prefix>-episode-<n>.gif` ([`in_folder`](Self::in_folder)), or every video to one path
/// ([`to_file`](Self::to_file), for one episode). Each file is written whole, as
/// [`AtomicFile`](crate::results::AtomicFile) writes it: into a temporary file renamed over the
/// target when the episode's video finishes, so that a symbolic link, named pipe or device at
/// the target is refused and never written through or replaced.
pub struct GifFiles {
    path_of: Box<dyn FnMut(u64) -> PathBuf + Send>,
    frames_per_second: u32,
    current: Option<(PathBuf, GifWriter<crate::results::AtomicFile>)>,
    written: Vec<(PathBuf, u64)>,
}

impl std::fmt::Debug for GifFiles {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("GifFiles")
            .field("frames_per_second", &self.frames_per_second)
            .field("written", &self.written)
            .finish_non_exhaustive()
    }
}

impl GifFiles {
    /// Writes episode `n` to `folder/<prefix>-episode-<n>.gif` (the folder is created when
    /// the first video starts).
    pub fn in_folder(folder: impl Into<PathBuf>, prefix: &str, frames_per_second: u32) -> Self {
        let folder = folder.into();
        let prefix = prefix.to_owned();
        GifFiles {
            path_of: Box::new(move |episode| {
                folder.join(format!("{prefix}-episode-{episode}.gif"))
            }),
            frames_per_second,
            current: None,
            written: Vec::new(),
        }
    }

    /// Writes every video to `path` (each replacing the last): for one recorded episode.
    pub fn to_file(path: impl Into<PathBuf>, frames_per_second: u32) -> Self {
        let path = path.into();
        GifFiles {
            path_of: Box::new(move |_| path.clone()),
            frames_per_second,
            current: None,
            written: Vec::new(),
        }
    }

    /// The files finished so far, each with its number of frames.
    pub fn written(&self) -> &[(PathBuf, u64)] {
        &self.written
    }
}

impl VideoSink for GifFiles {
    fn start(&mut self, episode: u64, width: u32, height: u32) -> Result<(), CoreError> {
        self.finish()?;
        let path = (self.path_of)(episode);
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .map_err(|error| output_error(&parent.display().to_string(), error))?;
        }
        let file =
            crate::results::AtomicFile::create(&path).map_err(|error| file_error(&path, error))?;
        let writer = GifWriter::new(file, width, height, self.frames_per_second)?;
        self.current = Some((path, writer));
        Ok(())
    }

    fn frame(&mut self, frame: &Frame) -> Result<(), CoreError> {
        match &mut self.current {
            Some((_, writer)) => writer.add_frame(frame),
            None => Err(CoreError::Unsupported {
                operation: "a video frame before the video started",
            }),
        }
    }

    fn finish(&mut self) -> Result<(), CoreError> {
        if let Some((path, writer)) = self.current.take() {
            let frames = writer.frames();
            let file = writer.finish()?;
            file.commit().map_err(|error| file_error(&path, error))?;
            self.written.push((path, frames));
        }
        Ok(())
    }
}

/// What [`record_episode`] records.
#[derive(Debug, Clone, PartialEq)]
pub struct EpisodeVideo {
    /// The registered id.
    pub domain: String,
    /// JSON parameters over the domain's defaults.
    pub params: Option<JsonValue>,
    /// The agent whose actions are recorded (see `rl list`), untrained: `random` draws
    /// uniform applicable actions; a learner acts as it would on its first episode, exploring.
    pub agent: String,
    /// JSON parameters over the agent's defaults.
    pub agent_params: Option<JsonValue>,
    /// The seed of the environment; the agent's generator is seeded with `seed + 1`.
    pub seed: u64,
    /// The most steps to record (`None`: until the episode ends; every registered domain has
    /// an episode cap).
    pub max_steps: Option<u64>,
    /// The frame size (`None`: the domain's own, 600 by 400 for CartPole).
    pub frame_size: Option<(u32, u32)>,
    /// Frames per second of the GIF.
    pub frames_per_second: u32,
}

impl EpisodeVideo {
    /// Gymnasium's 50 frames per second, the domain's frame size, the random agent, seed 0.
    pub fn new(domain: impl Into<String>) -> Self {
        EpisodeVideo {
            domain: domain.into(),
            params: None,
            agent: "random".to_owned(),
            agent_params: None,
            seed: 0,
            max_steps: None,
            frame_size: None,
            frames_per_second: 50,
        }
    }
}

/// What [`record_episode`] wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedEpisode {
    /// The number of steps taken.
    pub steps: u64,
    /// The sum of the rewards.
    pub episode_return: f64,
    /// The number of frames in the GIF: one after the reset and one per step.
    pub frames: u64,
}

/// Runs one episode of `video.domain` with the agent's actions and writes it to `path` as an
/// animated GIF.
pub fn record_episode(
    video: &EpisodeVideo,
    path: &Path,
) -> Result<RecordedEpisode, ExperimentError> {
    let env = frame_environment(&video.domain, video.params.as_ref(), video.seed)?;
    let mut agent = build_agent(
        &video.agent,
        &AgentContext::new(
            env.observation_space(),
            env.action_space(),
            env.discount(),
            video.agent_params.as_ref(),
        )
        .with_domain(&video.domain, env.domain_any()),
    )?;
    let recording = Recording {
        seed: video.seed,
        max_steps: video.max_steps,
        frame_size: video.frame_size,
        frames_per_second: video.frames_per_second,
    };
    record_with(env, agent.as_mut(), true, &recording, path)
}

/// The environment with frames of `domain` built by id, seeded with `seed`.
fn frame_environment(
    domain: &str,
    params: Option<&JsonValue>,
    seed: u64,
) -> Result<BoxedFrameEnvironment, ExperimentError> {
    crate::builtins::register_builtins();
    let registered = rl_core::registry::build(domain, params)
        .map_err(|error| ExperimentError::Domain(error.to_string()))?;
    registered.frame_environment(seed).map_err(|_| {
        ExperimentError::Domain(format!(
            "`{domain}` draws no frames (its registration has no with_frames())"
        ))
    })
}

/// What to record, whatever the agent: the seeds, the length and the picture.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Recording {
    seed: u64,
    max_steps: Option<u64>,
    frame_size: Option<(u32, u32)>,
    frames_per_second: u32,
}

/// Records one episode of `env` with `agent`'s actions (exploring or greedy) to `path`.
fn record_with(
    env: BoxedFrameEnvironment,
    agent: &mut dyn Agent,
    explore: bool,
    recording: &Recording,
    path: &Path,
) -> Result<RecordedEpisode, ExperimentError> {
    let mut env = RecordVideo::new(
        env,
        GifFiles::to_file(path, recording.frames_per_second),
        |episode| episode == 0,
    );
    if let Some((width, height)) = recording.frame_size {
        env = env.with_frame_size(width, height)?;
    }
    let mut rng = Pcg64::seed_from_u64(recording.seed.wrapping_add(1));
    let mut mask = rl_spaces::FiniteSpace::cardinality(env.action_space())
        .filter(|count| *count <= 1 << 16)
        .map(|count| vec![true; count]);
    let reads_state = agent.reads_state();
    let mut observation = env.reset(Mode::Training)?;
    let mut steps = 0;
    let mut episode_return = 0.0;
    while recording.max_steps.is_none_or(|max| steps < max) {
        if let Some(mask) = mask.as_mut() {
            env.action_mask(mask)?;
        }
        let action = crate::experiment::choose_action(
            agent,
            reads_state,
            &env,
            steps,
            &observation,
            mask.as_deref(),
            explore,
            &mut rng,
        )?;
        let outcome = env.step(&action)?;
        steps += 1;
        episode_return += outcome.reward();
        if outcome.is_done() {
            break;
        }
        observation = outcome.observation;
    }
    let (_, sink) = env.into_parts()?;
    let frames = sink.written().last().map_or(0, |(_, frames)| *frames);
    Ok(RecordedEpisode {
        steps,
        episode_return,
        frames,
    })
}

/// What [`record_saved_run`] records: the trained agent of a saved run, acting greedily.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedRunVideo {
    /// The seed of the recorded episode's environment; the agent's generator (for greedy
    /// ties, if the agent draws any) is seeded with `seed + 1`.
    pub seed: u64,
    /// The most steps to record (`None`: until the episode ends).
    pub max_steps: Option<u64>,
    /// The frame size (`None`: the domain's own).
    pub frame_size: Option<(u32, u32)>,
    /// Frames per second of the GIF.
    pub frames_per_second: u32,
}

impl Default for SavedRunVideo {
    /// Seed 0, a whole episode, the domain's frame size, Gymnasium's 50 frames per second.
    fn default() -> Self {
        SavedRunVideo {
            seed: 0,
            max_steps: None,
            frame_size: None,
            frames_per_second: 50,
        }
    }
}

/// Records one episode of the trained agent of `saved` (a run read with
/// [`read_run_file`](crate::results::read_run_file)) to `path` as an animated GIF: trains it
/// again from the run's configuration and seeds, checks that the results are the saved ones,
/// then plays one episode on the run's domain with the agent acting greedily (see the
/// module's "The trained agent of a saved run"). `run_file` names the file in errors.
///
/// Fails with [`ExperimentError::CorruptResults`] when retraining does not reproduce the
/// saved results, and as [`record_episode`] does otherwise.
pub fn record_saved_run(
    saved: &RunResult,
    run_file: &Path,
    video: &SavedRunVideo,
    path: &Path,
) -> Result<RecordedEpisode, ExperimentError> {
    let config = &saved.config;
    crate::builtins::register_builtins();
    let make_env = || crate::catalog::make_for_experiment(config);
    let (retrained, mut agent) = crate::experiment::run_once_with_agent(
        config,
        saved.run,
        &make_env,
        &mut [],
        &|| false,
        &|_| {},
    )?;
    if let Some(difference) = first_difference(saved, &retrained) {
        return Err(ExperimentError::CorruptResults {
            path: run_file.to_path_buf(),
            reason: format!(
                "training run {} again from its configuration and seeds did not reproduce its \
                 saved results ({difference}): the file was edited, or written by other code \
                 or agents",
                saved.run
            ),
        });
    }
    let mut env = frame_environment(&config.domain, config.domain_params.as_ref(), video.seed)?;
    if let Some(bins) = config.action_bins {
        env = crate::continuous_actions::discretize_frames(env, bins)?;
    }
    let recording = Recording {
        seed: video.seed,
        max_steps: video.max_steps,
        frame_size: video.frame_size,
        frames_per_second: video.frames_per_second,
    };
    record_with(env, agent.as_mut(), false, &recording, path)
}

/// The first difference between a saved run and the same run trained again, timings aside.
fn first_difference(saved: &RunResult, retrained: &RunResult) -> Option<String> {
    let (saved, retrained) = (saved.without_timings(), retrained.without_timings());
    if saved == retrained {
        return None;
    }
    if saved.seeds != retrained.seeds {
        return Some("its seeds differ".to_owned());
    }
    let checks = saved.checks.iter().zip(&retrained.checks);
    if let Some((index, _)) = checks.enumerate().find(|(_, (a, b))| a != b) {
        return Some(format!("policy check {index} differs"));
    }
    if saved.checks.len() != retrained.checks.len() {
        return Some("the number of policy checks differs".to_owned());
    }
    if saved.episodes != retrained.episodes {
        return Some("the training episodes differ".to_owned());
    }
    Some("the state values differ".to_owned())
}

/// The flags of `rl render` that record an episode instead of drawing one state.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct EpisodeArgs {
    /// Record one whole episode as an animated GIF (--out FILE.gif) instead of drawing the
    /// initial state as SVG.
    #[arg(long)]
    episode: bool,
    /// With --episode: the agent whose actions are recorded, untrained (see `rl list`;
    /// default `random`: seeded uniform random actions).
    #[arg(long, requires = "episode")]
    agent: Option<String>,
    /// With --episode: record the trained agent of a run saved by `rl run` instead, acting
    /// greedily: a run file (DIR/run-000.json) or a result directory (its run 0). The
    /// domain, its parameters and the agent are the run's; the agent is trained again from
    /// the run's configuration and seeds, which reproduces it exactly (checked against the
    /// saved results).
    #[arg(
        long,
        value_name = "RUN_FILE_OR_DIR",
        requires = "episode",
        conflicts_with_all = ["agent", "agent_params", "domain", "params"]
    )]
    run: Option<PathBuf>,
    /// With --episode: JSON object overriding the agent's parameters.
    #[arg(long, requires = "episode")]
    agent_params: Option<String>,
    /// With --episode: the most steps to record (default: until the episode ends).
    #[arg(long, requires = "episode")]
    max_steps: Option<u64>,
    /// With --episode: the frame size as WIDTHxHEIGHT (default: the domain's, 600x400 for
    /// CartPole).
    #[arg(long, requires = "episode", value_parser = parse_frame_size)]
    size: Option<(u32, u32)>,
    /// With --episode: frames per second of the GIF (default: the id's, its reference's
    /// `render_fps`: 50 for CartPole, 4 for the toy text, 10 for MiniGrid; 50 for an id with
    /// none).
    #[arg(long, requires = "episode")]
    fps: Option<u32>,
}

/// The frames per second at which `id`'s episodes are shown: its registration's `render_fps`
/// setting, else 50.
fn default_fps(id: &str) -> u32 {
    rl_core::registry::describe(id)
        .ok()
        .and_then(|entry| entry.run_settings().render_fps)
        .unwrap_or(50)
}

/// Reads `WIDTHxHEIGHT`.
fn parse_frame_size(text: &str) -> Result<(u32, u32), String> {
    let invalid = || format!("expected WIDTHxHEIGHT such as 600x400, found {text:?}");
    let (width, height) = text.split_once(['x', 'X']).ok_or_else(invalid)?;
    let width: u32 = width.trim().parse().map_err(|_| invalid())?;
    let height: u32 = height.trim().parse().map_err(|_| invalid())?;
    Frame::new(width, height).map_err(|error| error.to_string())?;
    Ok((width, height))
}

impl EpisodeArgs {
    /// Whether `--episode` was given.
    pub(crate) fn wanted(&self) -> bool {
        self.episode
    }
}

/// `rl render --episode`: records the episode and returns the line to print.
pub(crate) fn render_episode(
    domain: &str,
    params: Option<JsonValue>,
    seed: u64,
    args: &EpisodeArgs,
    path: &Path,
) -> Result<String, ExperimentError> {
    let agent_params = match args.agent_params.as_deref() {
        None => None,
        Some(text) => {
            let value: JsonValue = rl_spaces::parse_strict(text)
                .map_err(|error| ExperimentError::invalid("--agent-params", error.to_string()))?;
            if !value.is_object() {
                return Err(ExperimentError::invalid(
                    "--agent-params",
                    "expected a JSON object such as '{\"epsilon\": 0.1}'",
                ));
            }
            Some(value)
        }
    };
    if args.fps == Some(0) {
        return Err(ExperimentError::invalid("--fps", "must be at least 1"));
    }
    if let Some(run) = args.run.as_deref() {
        let run_file = if run.is_dir() {
            crate::results::run_path(run, 0)
        } else {
            run.to_path_buf()
        };
        let saved = crate::results::read_run_file(&run_file)?;
        let video = SavedRunVideo {
            seed,
            max_steps: args.max_steps,
            frame_size: args.size,
            frames_per_second: args
                .fps
                .unwrap_or_else(|| default_fps(&saved.config.domain)),
        };
        let recorded = record_saved_run(&saved, &run_file, &video, path)?;
        return Ok(format!(
            "wrote {} ({} frames: {} steps of {} with the {} agent trained by {} (run {}), \
             greedy, return {})",
            path.display(),
            recorded.frames,
            recorded.steps,
            saved.config.domain,
            saved.config.agent,
            run_file.display(),
            saved.run,
            recorded.episode_return
        ));
    }
    let video = EpisodeVideo {
        domain: domain.to_owned(),
        params,
        agent: args.agent.clone().unwrap_or_else(|| "random".to_owned()),
        agent_params,
        seed,
        max_steps: args.max_steps,
        frame_size: args.size,
        frames_per_second: args.fps.unwrap_or_else(|| default_fps(domain)),
    };
    let recorded = record_episode(&video, path)?;
    Ok(format!(
        "wrote {} ({} frames: {} steps of {} with the {} agent, return {})",
        path.display(),
        recorded.frames,
        recorded.steps,
        video.domain,
        video.agent,
        recorded.episode_return
    ))
}
