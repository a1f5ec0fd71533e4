//! Pendulum's frame, after Gymnasium 1.4.0's `PendulumEnv.render`: the red rod from the
//! centre, rotated by the angle (upright being up), with red discs at both ends and the black
//! axle, 500 by 500 pixels for a picture of half-width 2.2.
//!
//! # The torque arrow
//!
//! Gymnasium also draws its `clockwise.png` over the rod, scaled by the last torque
//! (`last_u`, kept by the environment, not in its state) and mirrored for a positive one.
//! [`PendulumState`] holds only the angle and the velocity, and the last torque cannot be
//! recovered from them, so the frame of a state ([`RenderFrame::draw_frame`]) has no arrow.
//! [`draw_frame_with_torque`] draws the same frame with the arrow, given the torque: an arc
//! around the axle with an arrow head, its size proportional to the torque's magnitude,
//! counter-clockwise for a positive torque and clockwise for a negative one.
//!
//! The last torque belongs to the episode, not to the pure model: putting it in
//! [`PendulumState`] would make the state depend on the action history (two equal angles
//! and velocities reached by different torques would differ), change the state's JSON and
//! the reference traces' state comparison, and cost the batch kernel a field. So, like
//! Gymnasium's environment keeps `last_u` beside its `state`, the environments built by id
//! keep the last action beside their simulator, and draw with
//! [`RenderFrame::draw_frame_after`], which Pendulum implements with the arrow of the last
//! torque clipped to `[-MAX_TORQUE, MAX_TORQUE]` (none right after a reset, as Gymnasium's
//! `reset` sets `last_u = None`): `RegisteredDomain::frame_environment` and
//! `registered_environment`, hence `rl render --episode`, the picture wrappers and the
//! Python package's `rgb_array`. Their observations, rewards and flags are the simulator's.
//!
//! ```
//! use rl_core::{Environment, Frame, FrameEnvironment, Mode};
//! use rl_domains::frames::pendulum::{ARROW, arrow_top};
//!
//! let domain = rl_domains::registry::build("Pendulum-v1", None)?;
//! let mut env = domain.frame_environment(0)?;
//! env.reset(Mode::Training)?;
//! let mut frame = Frame::new(500, 500)?;
//! let torque = rl_spaces::AnyElement::from(ndarray::arr1(&[1.5f32]).into_dyn());
//! env.step(&torque)?;
//! env.render_frame(&mut frame)?;
//! let (x, y) = arrow_top(1.5, 500, 500).expect("a non-zero torque has an arrow");
//! assert_eq!(frame.pixel(x as u32, y as u32), Some(ARROW));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::f64::consts::PI;

use rl_core::{Frame, RenderFrame};

use super::canvas::{self, Painter, Rgb, YAxis};
use crate::pendulum::{LENGTH, MAX_TORQUE, Pendulum, PendulumState};

/// Gymnasium's frame width (`screen_dim`), in pixels.
pub const PENDULUM_FRAME_WIDTH: u32 = 500;
/// Gymnasium's frame height (`screen_dim`), in pixels.
pub const PENDULUM_FRAME_HEIGHT: u32 = 500;

/// The background's colour.
pub const BACKGROUND: Rgb = [255, 255, 255];
/// The rod's colour (and its end discs').
pub const ROD: Rgb = [204, 77, 77];
/// The axle's colour.
pub const AXLE: Rgb = [0, 0, 0];
/// The torque arrow's colour.
pub const ARROW: Rgb = [0, 0, 0];

/// Gymnasium's frame size as floats.
const DESIGN: (f64, f64) = (PENDULUM_FRAME_WIDTH as f64, PENDULUM_FRAME_HEIGHT as f64);
/// The half-width of the picture in world units (Gymnasium's `bound`).
const BOUND: f64 = 2.2;
/// The number of straight pieces of the arrow's arc.
const ARC_PIECES: usize = 32;
/// The angle the arrow's arc spans, from its tail to the base of its head (three quarters
/// of a turn, open at the bottom).
const ARC_SPAN: f64 = 1.5 * PI;

/// Pixels per world unit.
fn scale() -> f64 {
    f64::from(PENDULUM_FRAME_WIDTH) / (2.0 * BOUND)
}

/// The pivot's position in Gymnasium's pixels with y up (`screen_dim // 2`, both ways).
fn pivot() -> (f64, f64) {
    (
        f64::from(PENDULUM_FRAME_WIDTH / 2),
        f64::from(PENDULUM_FRAME_HEIGHT / 2),
    )
}

/// The direction of the rod from the pivot to its end: up at `theta = 0`, turning
/// counter-clockwise as `theta` grows (Gymnasium rotates by `theta + pi / 2`).
fn rod_direction(state: &PendulumState) -> (f64, f64) {
    let (sin, cos) = state.theta.sin_cos();
    (-sin, cos)
}

/// The point `distance` rod lengths from the pivot along the rod (0 the pivot, 1 the rod's
/// end) in a `width` by `height` frame of `state`, in pixels from the top-left corner (for
/// tests and overlays).
pub fn rod_point(state: &PendulumState, distance: f64, width: u32, height: u32) -> (f64, f64) {
    let (x, y) = pivot();
    let (along_x, along_y) = rod_direction(state);
    let length = LENGTH * scale() * distance;
    canvas::frame_point(
        (x + length * along_x, y + length * along_y),
        DESIGN,
        (width, height),
    )
}

/// The arrow of `torque`, in Gymnasium's pixels with y up, or `None` for no arrow (a zero
/// or non-finite torque). The torque is clipped to `[-MAX_TORQUE, MAX_TORQUE]` first, as
/// Gymnasium's `last_u` is.
#[derive(Debug, Clone, Copy)]
struct Arrow {
    /// `1` counter-clockwise (a positive torque), `-1` clockwise.
    turn: f64,
    /// The arc's radius.
    radius: f64,
    /// The arc's thickness.
    thickness: f64,
    /// The angle of the arc's tail, from the x axis counter-clockwise.
    start: f64,
}

impl Arrow {
    fn of(torque: f64) -> Option<Arrow> {
        if !torque.is_finite() || torque == 0.0 {
            return None;
        }
        let torque = torque.clamp(-f64::from(MAX_TORQUE), f64::from(MAX_TORQUE));
        // Gymnasium scales its image to a square of side `scale * |u| / 2` around the axle.
        let side = scale() * torque.abs() / 2.0;
        let turn = torque.signum();
        Some(Arrow {
            turn,
            radius: 0.35 * side,
            thickness: 0.1 * side,
            // The arc is symmetric about the vertical: it starts at the bottom on one side
            // and ends at the bottom on the other, passing over the top.
            start: PI / 2.0 - turn * ARC_SPAN / 2.0,
        })
    }

    /// The point at `angle` on a circle of `radius` around the pivot.
    fn at(radius: f64, angle: f64) -> (f64, f64) {
        let (x, y) = pivot();
        let (sin, cos) = angle.sin_cos();
        (x + radius * cos, y + radius * sin)
    }

    /// The angle of the base of the head.
    fn end(self) -> f64 {
        self.start + self.turn * ARC_SPAN
    }

    /// The head's corners: the two ends of its base, across the arc, and its tip, ahead
    /// along the direction of turning.
    fn head(self) -> [(f64, f64); 3] {
        let end = self.end();
        let half_base = 1.5 * self.thickness;
        let length = 2.0 * self.thickness;
        let (sin, cos) = end.sin_cos();
        let (tangent_x, tangent_y) = (-self.turn * sin, self.turn * cos);
        let (x, y) = Arrow::at(self.radius, end);
        [
            Arrow::at(self.radius + half_base, end),
            Arrow::at(self.radius - half_base, end),
            (x + length * tangent_x, y + length * tangent_y),
        ]
    }

    fn draw(self, painter: &mut Painter<'_>) {
        let mut band = [(0.0, 0.0); 2 * (ARC_PIECES + 1)];
        let (outer, inner) = band.split_at_mut(ARC_PIECES + 1);
        for index in 0..=ARC_PIECES {
            let angle = self.start + self.turn * ARC_SPAN * index as f64 / ARC_PIECES as f64;
            outer[index] = Arrow::at(self.radius + self.thickness / 2.0, angle);
            inner[ARC_PIECES - index] = Arrow::at(self.radius - self.thickness / 2.0, angle);
        }
        painter.polygon(&band, ARROW);
        painter.polygon(&self.head(), ARROW);
    }
}

/// The middle of the torque arrow's head in a `width` by `height` frame drawn by
/// [`draw_frame_with_torque`] with `torque`, in pixels from the top-left corner, or `None`
/// when that torque draws no arrow (for tests and overlays).
pub fn arrow_head_centre(torque: f64, width: u32, height: u32) -> Option<(f64, f64)> {
    let [first, second, tip] = Arrow::of(torque)?.head();
    let centre = (
        (first.0 + second.0 + tip.0) / 3.0,
        (first.1 + second.1 + tip.1) / 3.0,
    );
    Some(canvas::frame_point(centre, DESIGN, (width, height)))
}

/// The top of the torque arrow's arc (the middle of its band, straight above the axle) in
/// a `width` by `height` frame drawn by [`draw_frame_with_torque`] with `torque`, in pixels
/// from the top-left corner, or `None` when that torque draws no arrow (for tests and
/// overlays).
pub fn arrow_top(torque: f64, width: u32, height: u32) -> Option<(f64, f64)> {
    let arrow = Arrow::of(torque)?;
    let top = Arrow::at(arrow.radius, PI / 2.0);
    Some(canvas::frame_point(top, DESIGN, (width, height)))
}

/// Draws `state` over the whole of `frame`, with Gymnasium's torque arrow for the last
/// torque `torque` (see the module's "The torque arrow"): an arc around the axle with a head,
/// its size proportional to `|torque|` (clipped to [`MAX_TORQUE`]), counter-clockwise for a
/// positive torque and clockwise for a negative one. A zero or non-finite torque draws no
/// arrow, as [`RenderFrame::draw_frame`] does.
pub fn draw_frame_with_torque(state: &PendulumState, torque: f64, frame: &mut Frame) {
    draw_pendulum(state, Arrow::of(torque), frame);
}

/// Draws the rod, its discs, the arrow if any and the axle, in Gymnasium's order.
fn draw_pendulum(state: &PendulumState, arrow: Option<Arrow>, frame: &mut Frame) {
    let scale = scale();
    let (x, y) = pivot();
    let (along_x, along_y) = rod_direction(state);
    let (across_x, across_y) = (-along_y, along_x);
    let length = LENGTH * scale;
    let half_width = 0.1 * scale;
    canvas::draw(frame, DESIGN.0, DESIGN.1, YAxis::Up, |painter| {
        painter.clear(BACKGROUND);
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
            ROD,
        );
        // Gymnasium draws the discs at whole pixels.
        let radius = half_width.trunc();
        painter.disc(x, y, radius, ROD);
        let (end_x, end_y) = corner(length, 0.0);
        painter.disc(end_x.trunc(), end_y.trunc(), radius, ROD);
        if let Some(arrow) = arrow {
            arrow.draw(painter);
        }
        painter.disc(x, y, (0.05 * scale).trunc(), AXLE);
    });
}

impl RenderFrame for Pendulum {
    /// Gymnasium's 500 by 500.
    fn frame_size(&self) -> (u32, u32) {
        (PENDULUM_FRAME_WIDTH, PENDULUM_FRAME_HEIGHT)
    }

    /// The rod and the axle, without the torque arrow (the state does not hold the last
    /// torque; see the module's "The torque arrow").
    fn draw_frame(&self, state: &PendulumState, frame: &mut Frame) {
        draw_pendulum(state, None, frame);
    }

    /// The frame with the arrow of the last torque, clipped to `[-MAX_TORQUE, MAX_TORQUE]`
    /// as Gymnasium's `last_u` is (no arrow right after a reset).
    fn draw_frame_after(
        &self,
        state: &PendulumState,
        last_action: Option<&[f32; 1]>,
        frame: &mut Frame,
    ) {
        let arrow = last_action
            .and_then(|action| Arrow::of(f64::from(action[0].clamp(-MAX_TORQUE, MAX_TORQUE))));
        draw_pendulum(state, arrow, frame);
    }
}
