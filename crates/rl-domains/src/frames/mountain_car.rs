//! MountainCar's and MountainCarContinuous's frames, after Gymnasium 1.4.0's
//! `MountainCarEnv.render`: the hill `0.45 sin(3x) + 0.55`, the black car tilted along it with
//! two grey wheels, and the yellow flag at the goal, 600 by 400 pixels.

use rl_core::{Frame, RenderFrame};

use super::canvas::{self, Rgb, YAxis};
use crate::mountain_car::{MountainCar, MountainCarState};
use crate::mountain_car_continuous::{MountainCarContinuous, MountainCarContinuousState};

/// Gymnasium's frame width, in pixels.
pub const MOUNTAIN_CAR_FRAME_WIDTH: u32 = 600;
/// Gymnasium's frame height, in pixels.
pub const MOUNTAIN_CAR_FRAME_HEIGHT: u32 = 400;

/// The background's colour.
pub const BACKGROUND: Rgb = [255, 255, 255];
/// The car's, the hill's and the flagpole's colour.
pub const CAR: Rgb = [0, 0, 0];
/// The wheels' colour.
pub const WHEEL: Rgb = [128, 128, 128];
/// The flag's colour.
pub const FLAG: Rgb = [204, 204, 0];

/// Gymnasium's frame size as floats.
const DESIGN: (f64, f64) = (
    MOUNTAIN_CAR_FRAME_WIDTH as f64,
    MOUNTAIN_CAR_FRAME_HEIGHT as f64,
);
const CAR_WIDTH: f64 = 40.0;
const CAR_HEIGHT: f64 = 20.0;
const CLEARANCE: f64 = 10.0;
/// The number of points of the hill's line (Gymnasium's `np.linspace(..., 100)`).
const HILL_POINTS: usize = 100;

/// The hill's height at `position`, in world units.
fn hill(position: f64) -> f64 {
    (3.0 * position).sin() * 0.45 + 0.55
}

/// The track of a MountainCar frame: its ends and the goal.
#[derive(Debug, Clone, Copy)]
struct Track {
    min_position: f64,
    max_position: f64,
    goal_position: f64,
}

impl Track {
    fn scale(self) -> f64 {
        f64::from(MOUNTAIN_CAR_FRAME_WIDTH) / (self.max_position - self.min_position)
    }
}

/// The tip of the flag (its rightmost corner) in a `width` by `height` frame, in pixels from
/// the top-left corner, for a track from `min_position` to `max_position` with the goal at
/// `goal_position` (for tests and overlays).
pub fn flag_tip(
    min_position: f64,
    max_position: f64,
    goal_position: f64,
    width: u32,
    height: u32,
) -> (f64, f64) {
    let track = Track {
        min_position,
        max_position,
        goal_position,
    };
    canvas::frame_point(flag_corners(track)[2], DESIGN, (width, height))
}

/// The middle of the car at `position` in a `width` by `height` frame, in pixels from the
/// top-left corner, for a track from `min_position` to `max_position` (for tests and
/// overlays).
pub fn car_centre(
    min_position: f64,
    max_position: f64,
    position: f64,
    width: u32,
    height: u32,
) -> (f64, f64) {
    let scale = f64::from(MOUNTAIN_CAR_FRAME_WIDTH) / (max_position - min_position);
    let (sin, cos) = (3.0 * position).cos().sin_cos();
    let half = CAR_HEIGHT / 2.0;
    let x = -half * sin + (position - min_position) * scale;
    let y = half * cos + CLEARANCE + hill(position) * scale;
    canvas::frame_point((x, y), DESIGN, (width, height))
}

/// The flag's base on the hill, top of its pole and triangle, at whole pixels as Gymnasium
/// draws them.
fn flag_corners(track: Track) -> [(f64, f64); 5] {
    let scale = track.scale();
    let flag_x = ((track.goal_position - track.min_position) * scale).trunc();
    let flag_bottom = (hill(track.goal_position) * scale).trunc();
    let flag_top = flag_bottom + 50.0;
    [
        (flag_x, flag_top),
        (flag_x, flag_top - 10.0),
        (flag_x + 25.0, flag_top - 5.0),
        (flag_x, flag_bottom),
        (flag_x, flag_top),
    ]
}

/// Draws the hill, the car at `position` and the flag.
fn draw_hill_frame(track: Track, position: f64, frame: &mut Frame) {
    let width = f64::from(MOUNTAIN_CAR_FRAME_WIDTH);
    let height = f64::from(MOUNTAIN_CAR_FRAME_HEIGHT);
    let scale = track.scale();
    canvas::draw(frame, width, height, YAxis::Up, |painter| {
        painter.clear(BACKGROUND);
        let mut hill_line = [(0.0, 0.0); HILL_POINTS];
        let span = track.max_position - track.min_position;
        for (index, point) in hill_line.iter_mut().enumerate() {
            let x = track.min_position + span * index as f64 / (HILL_POINTS - 1) as f64;
            *point = ((x - track.min_position) * scale, hill(x) * scale);
        }
        painter.polyline(&hill_line, CAR);

        // The car, rotated by Gymnasium's angle cos(3 x) about its bottom middle.
        let (sin, cos) = (3.0 * position).cos().sin_cos();
        let base_x = (position - track.min_position) * scale;
        let base_y = CLEARANCE + hill(position) * scale;
        let place = |x: f64, y: f64| (x * cos - y * sin + base_x, x * sin + y * cos + base_y);
        let (l, r, t, b) = (-CAR_WIDTH / 2.0, CAR_WIDTH / 2.0, CAR_HEIGHT, 0.0);
        painter.polygon(&[place(l, b), place(l, t), place(r, t), place(r, b)], CAR);
        for offset in [CAR_WIDTH / 4.0, -CAR_WIDTH / 4.0] {
            let (x, y) = place(offset, 0.0);
            painter.disc(x.trunc(), y.trunc(), (CAR_HEIGHT / 2.5).trunc(), WHEEL);
        }

        let [top, notch, tip, bottom, pole_top] = flag_corners(track);
        painter.polyline(&[bottom, pole_top], CAR);
        painter.polygon(&[top, notch, tip], FLAG);
    });
}

impl RenderFrame for MountainCar {
    /// Gymnasium's 600 by 400.
    fn frame_size(&self) -> (u32, u32) {
        (MOUNTAIN_CAR_FRAME_WIDTH, MOUNTAIN_CAR_FRAME_HEIGHT)
    }

    fn draw_frame(&self, state: &MountainCarState, frame: &mut Frame) {
        let params = self.params();
        let track = Track {
            min_position: params.min_position,
            max_position: params.max_position,
            goal_position: params.goal_position,
        };
        draw_hill_frame(track, state.position, frame);
    }
}

impl RenderFrame for MountainCarContinuous {
    /// Gymnasium's 600 by 400.
    fn frame_size(&self) -> (u32, u32) {
        (MOUNTAIN_CAR_FRAME_WIDTH, MOUNTAIN_CAR_FRAME_HEIGHT)
    }

    fn draw_frame(&self, state: &MountainCarContinuousState, frame: &mut Frame) {
        let params = self.params();
        let track = Track {
            min_position: params.min_position,
            max_position: params.max_position,
            goal_position: params.goal_position,
        };
        draw_hill_frame(track, state.position, frame);
    }
}
