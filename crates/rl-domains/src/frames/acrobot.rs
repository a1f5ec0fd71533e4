//! Acrobot's frame, after Gymnasium 1.4.0's `AcrobotEnv.render`: the black goal line at
//! height 1 that the tip must pass, the two blue-green links and their yellow joints (the
//! pivot and the elbow), 500 by 500 pixels around the pivot for a picture of half-width
//! `LINK_LENGTH_1 + LINK_LENGTH_2 + 0.2`.

use rl_core::{Frame, RenderFrame};

use super::canvas::{self, Rgb, YAxis};
use crate::acrobot::{Acrobot, AcrobotState, LINK_LENGTH_1, LINK_LENGTH_2};

/// Gymnasium's frame width (`SCREEN_DIM`), in pixels.
pub const ACROBOT_FRAME_WIDTH: u32 = 500;
/// Gymnasium's frame height (`SCREEN_DIM`), in pixels.
pub const ACROBOT_FRAME_HEIGHT: u32 = 500;

/// The background's colour.
pub const BACKGROUND: Rgb = [255, 255, 255];
/// The goal line's colour.
pub const GOAL_LINE: Rgb = [0, 0, 0];
/// The links' colour.
pub const LINK: Rgb = [0, 204, 204];
/// The joints' colour (the pivot and the elbow).
pub const JOINT: Rgb = [204, 204, 0];

/// Gymnasium's frame size as floats.
const DESIGN: (f64, f64) = (ACROBOT_FRAME_WIDTH as f64, ACROBOT_FRAME_HEIGHT as f64);
/// The half-width of the picture in world units (Gymnasium's `bound`).
const BOUND: f64 = LINK_LENGTH_1 + LINK_LENGTH_2 + 0.2;
/// The height of the goal line above the pivot in world units (Gymnasium's literal 1).
const GOAL_HEIGHT: f64 = 1.0;

/// Pixels per world unit.
fn scale() -> f64 {
    f64::from(ACROBOT_FRAME_WIDTH) / (2.0 * BOUND)
}

/// The pivot's position in Gymnasium's pixels with y up (`SCREEN_DIM / 2`, both ways).
fn pivot() -> (f64, f64) {
    (DESIGN.0 / 2.0, DESIGN.1 / 2.0)
}

/// The elbow and the tip in Gymnasium's pixels with y up: the first link hangs straight
/// down at `theta1 = 0`, and the second continues it at `theta2 = 0`.
fn joints(state: &AcrobotState) -> [(f64, f64); 2] {
    let scale = scale();
    let (x, y) = pivot();
    let (sin1, cos1) = state.theta1.sin_cos();
    let elbow = (
        x + LINK_LENGTH_1 * sin1 * scale,
        y - LINK_LENGTH_1 * cos1 * scale,
    );
    let (sin12, cos12) = (state.theta1 + state.theta2).sin_cos();
    let tip = (
        elbow.0 + LINK_LENGTH_2 * sin12 * scale,
        elbow.1 - LINK_LENGTH_2 * cos12 * scale,
    );
    [elbow, tip]
}

/// The point `distance` link lengths along the chain from the pivot (0 the pivot, 1 the
/// elbow, 2 the tip; the links are both 1 long) in a `width` by `height` frame of `state`, in
/// pixels from the top-left corner (for tests and overlays). A distance past either end
/// follows the nearer link's line.
pub fn chain_point(state: &AcrobotState, distance: f64, width: u32, height: u32) -> (f64, f64) {
    let [elbow, tip] = joints(state);
    let point = if distance <= 1.0 {
        let (x, y) = pivot();
        (x + (elbow.0 - x) * distance, y + (elbow.1 - y) * distance)
    } else {
        let along = distance - 1.0;
        (
            elbow.0 + (tip.0 - elbow.0) * along,
            elbow.1 + (tip.1 - elbow.1) * along,
        )
    };
    canvas::frame_point(point, DESIGN, (width, height))
}

/// The row of the goal line in a frame `height` pixels tall, from the top (for tests and
/// overlays): the line covers the pixel row that contains this height.
pub fn goal_line_row(height: u32) -> f64 {
    canvas::frame_point((0.0, goal_line_y()), DESIGN, (ACROBOT_FRAME_WIDTH, height)).1
}

/// The goal line's height in Gymnasium's pixels with y up, at a whole pixel as pygame draws
/// it.
fn goal_line_y() -> f64 {
    (pivot().1 + GOAL_HEIGHT * scale()).trunc()
}

impl RenderFrame for Acrobot {
    /// Gymnasium's 500 by 500.
    fn frame_size(&self) -> (u32, u32) {
        (ACROBOT_FRAME_WIDTH, ACROBOT_FRAME_HEIGHT)
    }

    fn draw_frame(&self, state: &AcrobotState, frame: &mut Frame) {
        let scale = scale();
        let [elbow, _] = joints(state);
        canvas::draw(frame, DESIGN.0, DESIGN.1, YAxis::Up, |painter| {
            painter.clear(BACKGROUND);
            let goal_y = goal_line_y();
            painter.polyline(&[(0.0, goal_y), (DESIGN.0, goal_y)], GOAL_LINE);
            // Each link is a rectangle 0.2 wide from its joint, rotated to point along the
            // link, then its joint's disc over it (Gymnasium's order: link 1, the pivot,
            // link 2, the elbow).
            let half_width = 0.1 * scale;
            let links = [
                (pivot(), state.theta1, LINK_LENGTH_1),
                (elbow, state.theta1 + state.theta2, LINK_LENGTH_2),
            ];
            for ((x, y), angle, length) in links {
                // Gymnasium rotates by `angle - pi / 2`: the link points along
                // (sin angle, -cos angle).
                let (sin, cos) = angle.sin_cos();
                let (along_x, along_y) = (sin, -cos);
                let (across_x, across_y) = (cos, sin);
                let length = length * scale;
                let corner = |a: f64, c: f64| {
                    (
                        x + a * along_x + c * across_x,
                        y + a * along_y + c * across_y,
                    )
                };
                painter.polygon(
                    &[
                        corner(0.0, -half_width),
                        corner(0.0, half_width),
                        corner(length, half_width),
                        corner(length, -half_width),
                    ],
                    LINK,
                );
                // Gymnasium draws the joints at whole pixels.
                painter.disc(x.trunc(), y.trunc(), half_width.trunc(), JOINT);
            }
        });
    }
}
