//! Pictures of environments: `RecordVideo` records the chosen episodes frame by frame and
//! ends each video at the episode's end, the next reset or close; `PixelObservation` observes
//! the frames, in colour and grey, alone and under the vector environment.

use std::num::{NonZeroU64, NonZeroUsize};

use rl_core::corridor::{CORRIDOR_CELL_PIXELS, Corridor, LEFT, RIGHT};
use rl_core::{CoreError, Environment, Frame, FrameEnvironment, Mode, Simulator};
use rl_spaces::Space;
use rl_wrappers::pictures::{PixelObservation, RecordVideo, VideoSink, capped_cubic_schedule};
use rl_wrappers::stateful::TimeLimit;
use rl_wrappers::vector::{Autoreset, EnvironmentVector, VectorOptions};

/// One video kept in memory: the episode, the size, the frames, and whether it finished.
type Video = (u64, (u32, u32), Vec<Frame>, bool);

/// Keeps every video in memory.
#[derive(Debug, Default)]
struct Videos {
    videos: Vec<Video>,
}

impl VideoSink for Videos {
    fn start(&mut self, episode: u64, width: u32, height: u32) -> Result<(), CoreError> {
        self.videos
            .push((episode, (width, height), Vec::new(), false));
        Ok(())
    }

    fn frame(&mut self, frame: &Frame) -> Result<(), CoreError> {
        let video = self.videos.last_mut().expect("a video was started");
        assert!(!video.3, "a frame after the video finished");
        assert_eq!((frame.width(), frame.height()), video.1);
        video.2.push(frame.clone());
        Ok(())
    }

    fn finish(&mut self) -> Result<(), CoreError> {
        let video = self.videos.last_mut().expect("a video was started");
        assert!(!video.3, "finished twice");
        video.3 = true;
        Ok(())
    }
}

fn corridor(length: u32) -> Simulator<Corridor> {
    Simulator::new(Corridor::new(length, 0.0).expect("a valid corridor"), 0)
}

/// The column of the agent's cell in a corridor frame (its black pixels).
fn agent_cell(frame: &Frame) -> Option<u32> {
    (0..frame.width())
        .find(|&x| frame.pixel(x, 0) == Some([0, 0, 0]))
        .map(|x| x / CORRIDOR_CELL_PIXELS)
}

#[test]
fn record_video_records_the_chosen_episodes_frame_by_frame() {
    let mut env = RecordVideo::new(corridor(4), Videos::default(), |episode| episode != 1);
    for _ in 0..3 {
        env.reset(Mode::Training).expect("reset");
        loop {
            let outcome = env.step(&RIGHT).expect("step");
            if outcome.is_done() {
                assert!(!env.is_recording());
                break;
            }
        }
    }
    assert_eq!(env.episodes(), 3);
    let videos = &env.sink().videos;
    assert_eq!(
        videos.iter().map(|video| video.0).collect::<Vec<_>>(),
        [0, 2]
    );
    for (_, size, frames, finished) in videos {
        assert_eq!(*size, (4 * CORRIDOR_CELL_PIXELS, CORRIDOR_CELL_PIXELS));
        assert!(finished);
        // The reset's frame, then one per step: the agent walks from cell 0 to cell 3.
        let cells: Vec<Option<u32>> = frames.iter().map(agent_cell).collect();
        assert_eq!(cells, [Some(0), Some(1), Some(2), Some(3)]);
    }
}

#[test]
fn a_video_ends_at_the_next_reset_or_at_close() {
    let mut env = RecordVideo::new(corridor(6), Videos::default(), |_| true)
        .with_frame_size(12, 3)
        .expect("a valid size");
    env.reset(Mode::Training).expect("reset");
    env.step(&RIGHT).expect("step");
    env.reset(Mode::Training).expect("reset");
    env.step(&LEFT).expect("step");
    env.step(&RIGHT).expect("step");
    env.close();
    let videos = &env.sink().videos;
    assert_eq!(videos.len(), 2);
    assert_eq!(
        videos
            .iter()
            .map(|video| (video.0, video.1, video.2.len(), video.3))
            .collect::<Vec<_>>(),
        [(0, (12, 3), 2, true), (1, (12, 3), 3, true)]
    );
    assert!(
        RecordVideo::new(corridor(2), Videos::default(), |_| true)
            .with_frame_size(0, 3)
            .is_err()
    );
}

#[test]
fn record_video_passes_the_episode_through_unchanged() {
    let mut plain = TimeLimit::new(corridor(8), NonZeroU64::new(5).expect("non-zero"));
    let recorded_inner = TimeLimit::new(corridor(8), plain.max_steps());
    let mut recorded = RecordVideo::new(recorded_inner, Videos::default(), capped_cubic_schedule);
    for _ in 0..3 {
        assert_eq!(
            plain.reset(Mode::Training).expect("reset"),
            recorded.reset(Mode::Training).expect("reset")
        );
        for action in [RIGHT, LEFT, RIGHT, RIGHT, RIGHT, RIGHT] {
            let expected = plain.step(&action).expect("step");
            assert_eq!(recorded.step(&action).expect("step"), expected);
            if expected.is_done() {
                break;
            }
        }
    }
    // Episodes 0 and 1 are cubes, episode 2 is not; each was truncated after 5 steps.
    let lengths: Vec<(u64, usize)> = recorded
        .sink()
        .videos
        .iter()
        .map(|video| (video.0, video.2.len()))
        .collect();
    assert_eq!(lengths, [(0, 6), (1, 6)]);
}

#[test]
fn pixel_observations_are_the_frames() {
    let mut env = PixelObservation::new(corridor(5), None, false).expect("a valid size");
    let (width, height) = (5 * CORRIDOR_CELL_PIXELS, CORRIDOR_CELL_PIXELS);
    assert_eq!(env.frame_size(), (width, height));
    assert_eq!(
        env.observation_space().shape(),
        &[height as usize, width as usize, 3]
    );
    let first = env.reset(Mode::Training).expect("reset");
    assert!(env.observation_space().contains(&first));
    let mut frame = Frame::new(width, height).expect("a valid size");
    env.render_frame(&mut frame).expect("a frame");
    assert_eq!(first.as_slice(), Some(frame.pixels()));
    let next = env.step(&RIGHT).expect("step").observation;
    assert_ne!(
        next, first,
        "a different state gives a different observation"
    );
    // The same state gives the same observation.
    let back = env.step(&LEFT).expect("step").observation;
    assert_eq!(back, first);

    let mut grey = PixelObservation::new(corridor(5), Some((10, 4)), true).expect("a valid size");
    assert_eq!(grey.observation_space().shape(), &[4, 10, 1]);
    let observation = grey.reset(Mode::Training).expect("reset");
    assert!(grey.observation_space().contains(&observation));
    // Cell 0 (the agent) is black, the goal grey, the others white.
    assert_eq!(observation[[0, 0, 0]], 0);
    assert!((127..=128).contains(&observation[[0, 9, 0]]));
    assert!(observation[[0, 4, 0]] >= 254);
    assert!(PixelObservation::new(corridor(5), Some((10, 0)), true).is_err());
}

#[test]
fn pixel_observations_work_under_the_vector_environment() {
    let count = NonZeroUsize::new(3).expect("non-zero");
    for threads in [1, 3] {
        let options = VectorOptions::new()
            .with_autoreset(Autoreset::SameStep)
            .with_threads(NonZeroUsize::new(threads).expect("non-zero"));
        let mut vector = EnvironmentVector::<_, f32>::from_environments(count, 7, options, |_| {
            PixelObservation::new(corridor(3), Some((6, 2)), true).expect("a valid size")
        })
        .expect("a vector");
        vector.reset(Mode::Training).expect("reset");
        assert_eq!(vector.observations().shape(), &[3, 12]);
        // Row 0 of every frame: the agent (black) in cell 0, so pixels 0 and 1 are 0.
        for row in vector.observations().rows() {
            assert_eq!((row[0], row[1]), (0.0, 0.0));
            assert!(row[2] > 250.0);
        }
        vector.step(&[RIGHT, LEFT, RIGHT]).expect("step");
        let observations = vector.observations();
        // Environment 0 moved to cell 1, environment 1 stayed against the wall in cell 0.
        assert!(observations[[0, 0]] > 250.0);
        assert_eq!(observations[[0, 2]], 0.0);
        assert_eq!(observations[[1, 0]], 0.0);
        assert!(observations[[1, 2]] > 250.0);
        // Environment 2 moved right too: the same state, the same observation.
        assert_eq!(observations.row(2), observations.row(0));
    }
}
