//! CartPole's frame, after Gymnasium 1.4.0's `CartPoleEnv.render`: the track, the black cart,
//! the brown pole rotated by the angle and its blue axle, 600 by 400 pixels for a track of
//! `[-x_threshold, x_threshold]`.

use rl_core::{Frame, RenderFrame};

use super::canvas::{self, Rgb, YAxis};
use crate::cartpole::{CartPole, CartPoleState};
use crate::cartpole_fast::{FastCartPole, FastCartPoleState};

/// Gymnasium's frame width, in pixels.
pub const CARTPOLE_FRAME_WIDTH: u32 = 600;
/// Gymnasium's frame height, in pixels.
pub const CARTPOLE_FRAME_HEIGHT: u32 = 400;

/// The background's colour.
pub const BACKGROUND: Rgb = [255, 255, 255];
/// The cart's (and the track's) colour.
pub const CART: Rgb = [0, 0, 0];
/// The pole's colour.
pub const POLE: Rgb = [202, 152, 101];
/// The axle's colour.
pub const AXLE: Rgb = [129, 132, 203];

const CART_WIDTH: f64 = 50.0;
const CART_HEIGHT: f64 = 30.0;
const POLE_WIDTH: f64 = 10.0;
/// The height of the cart's middle (Gymnasium's "top of cart") and of the track.
const CART_Y: f64 = 100.0;

/// Where CartPole's frame puts things, in Gymnasium's 600 by 400 pixels with y up.
struct Layout {
    cart_x: f64,
    pole_length: f64,
}

fn layout(domain: &CartPole, state: &CartPoleState) -> Layout {
    let width = f64::from(CARTPOLE_FRAME_WIDTH);
    let scale = width / (2.0 * domain.params().x_threshold);
    Layout {
        cart_x: state.x * scale + width / 2.0,
        pole_length: scale * 2.0 * domain.params().length,
    }
}

/// The centre of the cart in a `width` by `height` frame of `state`, in pixels from the
/// top-left corner (for tests and overlays).
pub fn cart_centre(
    domain: &CartPole,
    state: &CartPoleState,
    width: u32,
    height: u32,
) -> (f64, f64) {
    let design = (
        f64::from(CARTPOLE_FRAME_WIDTH),
        f64::from(CARTPOLE_FRAME_HEIGHT),
    );
    canvas::frame_point(
        (layout(domain, state).cart_x, CART_Y),
        design,
        (width, height),
    )
}

impl RenderFrame for FastCartPole {
    /// Gymnasium's 600 by 400, as [`CartPole`].
    fn frame_size(&self) -> (u32, u32) {
        self.exact().frame_size()
    }

    /// As [`CartPole`] draws the same state in float64.
    fn draw_frame(&self, state: &FastCartPoleState, frame: &mut Frame) {
        self.exact().draw_frame(&state.to_exact(), frame);
    }
}

impl RenderFrame for CartPole {
    /// Gymnasium's 600 by 400.
    fn frame_size(&self) -> (u32, u32) {
        (CARTPOLE_FRAME_WIDTH, CARTPOLE_FRAME_HEIGHT)
    }

    fn draw_frame(&self, state: &CartPoleState, frame: &mut Frame) {
        let Layout {
            cart_x,
            pole_length,
        } = layout(self, state);
        let (width, height) = (
            f64::from(CARTPOLE_FRAME_WIDTH),
            f64::from(CARTPOLE_FRAME_HEIGHT),
        );
        canvas::draw(frame, width, height, YAxis::Up, |painter| {
            painter.clear(BACKGROUND);
            let (left, right) = (cart_x - CART_WIDTH / 2.0, cart_x + CART_WIDTH / 2.0);
            let (bottom, top) = (CART_Y - CART_HEIGHT / 2.0, CART_Y + CART_HEIGHT / 2.0);
            painter.polygon(
                &[(left, bottom), (left, top), (right, top), (right, bottom)],
                CART,
            );
            // The pole, rotated clockwise by the angle about the axle.
            let axle_y = CART_Y + CART_HEIGHT / 4.0;
            let (sin, cos) = (-state.theta).sin_cos();
            let corner = |x: f64, y: f64| (x * cos - y * sin + cart_x, x * sin + y * cos + axle_y);
            let (l, r) = (-POLE_WIDTH / 2.0, POLE_WIDTH / 2.0);
            let (b, t) = (-POLE_WIDTH / 2.0, pole_length - POLE_WIDTH / 2.0);
            painter.polygon(
                &[corner(l, b), corner(l, t), corner(r, t), corner(r, b)],
                POLE,
            );
            // Gymnasium draws the axle at whole pixels.
            painter.disc(
                cart_x.trunc(),
                axle_y.trunc(),
                (POLE_WIDTH / 2.0).trunc(),
                AXLE,
            );
            painter.polyline(&[(0.0, CART_Y), (width, CART_Y)], CART);
        });
    }
}
