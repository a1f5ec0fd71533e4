//! RGB frames of every domain (Gymnasium's `render_mode="rgb_array"`): each domain implements
//! [`RenderFrame`](rl_core::RenderFrame), drawn with tiny-skia after Gymnasium 1.4.0's
//! classic-control pictures (colours and geometry, 600 by 400 for CartPole and the two
//! MountainCars, 500 by 500 for Acrobot and Pendulum) and, for GridWorld, the colours of its
//! SVG picture.
//!
//! One file per domain; a new domain adds one file with its `impl RenderFrame` and one
//! `.with_frames()` on its registration (`registry.rs`). Frames are drawn at any size: the
//! design coordinates are stretched over the frame. Drawing reuses one pixmap per thread, so
//! frame after frame of one size allocates nothing.
//!
//! ```
//! use rl_core::{Frame, RenderFrame};
//! use rl_domains::cartpole::{CartPole, CartPoleParams, CartPoleState};
//! use rl_domains::frames::cartpole::{CART, cart_centre};
//!
//! let domain = CartPole::new(CartPoleParams::default())?;
//! let state = CartPoleState::from_array([0.5, 0.0, 0.1, 0.0]);
//! let frame = domain.frame(&state);
//! assert_eq!(frame.as_array().shape(), &[400, 600, 3]);
//! let (x, y) = cart_centre(&domain, &state, 600, 400);
//! assert_eq!(frame.pixel(x as u32, y as u32 + 10), Some(CART));
//!
//! // Any size: a small frame for a pixel-based agent.
//! let mut small = Frame::new(84, 84)?;
//! domain.draw_frame(&state, &mut small);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod acrobot;
mod canvas;
pub mod cartpole;
pub mod font;
pub mod gridworld;
pub mod mountain_car;
pub mod pendulum;
pub mod toy_text;
