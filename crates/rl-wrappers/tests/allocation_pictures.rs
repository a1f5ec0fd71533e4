//! `RecordVideo` allocates nothing per step: not at all for episodes it does not record, and
//! nothing after its first frame for those it does (the frame buffer is reused); a counting
//! global allocator proves it.

use counting_allocator::thread_allocations as allocations;

use rl_core::corridor::{Corridor, LEFT, RIGHT};
use rl_core::{CoreError, Environment, Frame, Mode, Simulator};
use rl_wrappers::pictures::{RecordVideo, VideoSink};

/// Counts frames and sums a byte of each, allocating nothing.
#[derive(Debug, Default)]
struct Counter {
    frames: u64,
    checksum: u64,
}

impl VideoSink for Counter {
    fn start(&mut self, _: u64, _: u32, _: u32) -> Result<(), CoreError> {
        Ok(())
    }

    fn frame(&mut self, frame: &Frame) -> Result<(), CoreError> {
        self.frames += 1;
        self.checksum += u64::from(frame.pixels()[0]);
        Ok(())
    }

    fn finish(&mut self) -> Result<(), CoreError> {
        Ok(())
    }
}

/// Runs 200 episodes walking the corridor; returns the allocations after the first episode.
fn allocations_of(env: &mut impl Environment<Action = i64>) -> usize {
    let mut before = allocations();
    for episode in 0..200 {
        if episode == 1 {
            before = allocations();
        }
        env.reset(Mode::Training).expect("reset");
        for step in 0.. {
            let action = if step % 3 == 2 { LEFT } else { RIGHT };
            if env.step(&action).expect("step").is_done() {
                break;
            }
        }
    }
    allocations() - before
}

#[test]
fn episodes_not_recorded_allocate_nothing() {
    let env = Simulator::new(Corridor::new(6, 0.0).expect("a corridor"), 0);
    let mut env = RecordVideo::new(env, Counter::default(), |episode| episode == 0);
    assert_eq!(allocations_of(&mut env), 0);
    assert!(env.sink().frames > 1, "episode 0 was recorded");
}

#[test]
fn recorded_episodes_reuse_their_frame() {
    let env = Simulator::new(Corridor::new(6, 0.0).expect("a corridor"), 0);
    let mut env = RecordVideo::new(env, Counter::default(), |_| true);
    assert_eq!(allocations_of(&mut env), 0);
    assert!(env.sink().frames > 200 * 6, "every episode was recorded");
}
