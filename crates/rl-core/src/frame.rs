//! RGB frames (Gymnasium's `render_mode="rgb_array"`): the [`Frame`] buffer, the
//! [`RenderFrame`] capability of a domain that fills one, and the [`FrameEnvironment`]
//! capability of an environment that draws its current state into one.
//!
//! This crate only says "fill this buffer": it draws nothing itself and depends on no
//! rasteriser. `rl-domains` draws its domains with tiny-skia; a user's domain may fill the
//! bytes however it likes.

use ndarray::{Array3, ArrayView3};
use rl_spaces::{AnyElement, AnySpace, DynamicSpace};

use crate::{CoreError, Domain, DynamicEnvironment, Environment, ResetReason, Simulator};

/// The largest width or height of a frame, in pixels.
pub const MAX_FRAME_SIDE: u32 = 16_384;

/// An RGB image of `height` rows of `width` pixels, 3 bytes per pixel (red, green, blue), rows
/// top to bottom: Gymnasium's `H x W x 3` `uint8` `rgb_array` in row-major order.
///
/// ```
/// use rl_core::Frame;
///
/// let mut frame = Frame::new(4, 2)?;
/// frame.pixels_mut()[3 * (1 * 4 + 2)] = 255; // the red byte of row 1, column 2
/// assert_eq!(frame.pixel(2, 1), Some([255, 0, 0]));
/// assert_eq!(frame.as_array().shape(), &[2, 4, 3]);
/// assert_eq!(frame.pixel(4, 0), None);
/// # Ok::<(), rl_core::CoreError>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Frame {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl std::fmt::Debug for Frame {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Frame")
            .field("width", &self.width)
            .field("height", &self.height)
            .finish_non_exhaustive()
    }
}

/// Checks a frame size.
fn check_size(width: u32, height: u32) -> Result<(), CoreError> {
    let valid = 1..=MAX_FRAME_SIDE;
    if valid.contains(&width) && valid.contains(&height) {
        Ok(())
    } else {
        Err(CoreError::invalid_parameter(
            "frame size",
            format!(
                "{width} x {height} pixels: the width and the height must be between 1 and \
                 {MAX_FRAME_SIDE}"
            ),
        ))
    }
}

impl Frame {
    /// A black frame of `width` by `height` pixels. Fails when a side is 0 or larger than
    /// [`MAX_FRAME_SIDE`].
    pub fn new(width: u32, height: u32) -> Result<Frame, CoreError> {
        check_size(width, height)?;
        Ok(Frame {
            width,
            height,
            pixels: vec![0; width as usize * height as usize * 3],
        })
    }

    /// The width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The bytes, `height * width * 3` of them: row by row from the top, pixel by pixel from
    /// the left, red, green, blue.
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// The bytes, mutably (their number never changes).
    pub fn pixels_mut(&mut self) -> &mut [u8] {
        &mut self.pixels
    }

    /// The colour of the pixel in column `x` and row `y` (row 0 at the top), or `None`
    /// outside the frame.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 3]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let start = 3 * (y as usize * self.width as usize + x as usize);
        let bytes = &self.pixels[start..start + 3];
        Some([bytes[0], bytes[1], bytes[2]])
    }

    /// Changes the size to `width` by `height`, keeping the allocation when it is large
    /// enough; the pixels are left black. Fails as [`new`](Self::new) does.
    pub fn resize(&mut self, width: u32, height: u32) -> Result<(), CoreError> {
        check_size(width, height)?;
        self.width = width;
        self.height = height;
        self.pixels.clear();
        self.pixels.resize(width as usize * height as usize * 3, 0);
        Ok(())
    }

    /// The frame as an `H x W x 3` array view.
    pub fn as_array(&self) -> ArrayView3<'_, u8> {
        ArrayView3::from_shape((self.height as usize, self.width as usize, 3), &self.pixels)
            .expect("a frame holds height * width * 3 bytes")
    }

    /// The frame as an owned `H x W x 3` array.
    pub fn to_array(&self) -> Array3<u8> {
        self.as_array().to_owned()
    }

    /// The bytes, consuming the frame.
    pub fn into_pixels(self) -> Vec<u8> {
        self.pixels
    }
}

/// A domain that draws its states as RGB frames (Gymnasium's `rgb_array`).
///
/// [`draw_frame`](Self::draw_frame) draws at the frame's size, whatever it is; the domain's
/// own size ([`frame_size`](Self::frame_size), Gymnasium's where there is one) is what
/// callers use when they have no preference. Drawing is a pure function of the state: the
/// same state gives the same bytes.
pub trait RenderFrame: Domain {
    /// The natural size of the domain's frames, `(width, height)` in pixels (Gymnasium's 600
    /// by 400 for CartPole and MountainCar).
    fn frame_size(&self) -> (u32, u32);

    /// Draws `state` over the whole of `frame`, scaled to its size.
    fn draw_frame(&self, state: &Self::State, frame: &mut Frame);

    /// Draws `state` as an episode shows it after `last_action` (`None` right after a reset):
    /// for domains whose frames show the last action as well as the state, as Gymnasium's
    /// Pendulum draws its last torque (`last_u`). By default the state alone
    /// ([`draw_frame`](Self::draw_frame)). Environments with frames built by id
    /// ([`RegisteredDomain::frame_environment`](crate::registry::RegisteredDomain::frame_environment))
    /// draw with it.
    fn draw_frame_after(
        &self,
        state: &Self::State,
        last_action: Option<&Self::Action>,
        frame: &mut Frame,
    ) {
        let _ = last_action;
        self.draw_frame(state, frame);
    }

    /// A new frame of [`frame_size`](Self::frame_size) showing `state`.
    fn frame(&self, state: &Self::State) -> Frame {
        let (width, height) = self.frame_size();
        let mut frame = Frame::new(
            width.clamp(1, MAX_FRAME_SIDE),
            height.clamp(1, MAX_FRAME_SIDE),
        )
        .expect("a clamped size is valid");
        self.draw_frame(state, &mut frame);
        frame
    }
}

/// An environment that draws its current state as an RGB frame (Gymnasium's
/// `env.render()` with `render_mode="rgb_array"`).
///
/// [`Simulator`] implements it for a domain with [`RenderFrame`], [`DynamicEnvironment`] and
/// `Box` pass it on, and environments built by id with frames
/// ([`RegisteredDomain::frame_environment`](crate::registry::RegisteredDomain::frame_environment))
/// are [`BoxedFrameEnvironment`]s. Wrappers in `rl-wrappers` that keep the inner state's
/// picture meaningful pass it on too.
pub trait FrameEnvironment: Environment {
    /// The natural size of the frames, `(width, height)` in pixels.
    fn frame_size(&self) -> (u32, u32);

    /// Draws the current state (the last one after an episode ended) over the whole of
    /// `frame`, at the frame's size. Fails with [`CoreError::NeedsReset`] before the first
    /// reset.
    fn render_frame(&self, frame: &mut Frame) -> Result<(), CoreError>;
}

/// An environment with frames whose observations and actions are [`AnyElement`]s: what an id
/// built with frames gives.
pub type BoxedFrameEnvironment = Box<
    dyn FrameEnvironment<
            Observation = AnyElement,
            Action = AnyElement,
            ObservationSpace = AnySpace,
            ActionSpace = AnySpace,
        > + Send,
>;

impl<D: RenderFrame> FrameEnvironment for Simulator<D> {
    fn frame_size(&self) -> (u32, u32) {
        self.domain().frame_size()
    }

    fn render_frame(&self, frame: &mut Frame) -> Result<(), CoreError> {
        let state = self
            .state()
            .ok_or(CoreError::NeedsReset(ResetReason::NotStarted))?;
        self.domain().draw_frame(state, frame);
        Ok(())
    }
}

impl<E> FrameEnvironment for DynamicEnvironment<E>
where
    E: FrameEnvironment,
    E::ObservationSpace: DynamicSpace,
    E::ActionSpace: DynamicSpace,
{
    fn frame_size(&self) -> (u32, u32) {
        self.inner().frame_size()
    }

    fn render_frame(&self, frame: &mut Frame) -> Result<(), CoreError> {
        self.inner().render_frame(frame)
    }
}

impl<E: FrameEnvironment + ?Sized> FrameEnvironment for Box<E> {
    fn frame_size(&self) -> (u32, u32) {
        (**self).frame_size()
    }

    fn render_frame(&self, frame: &mut Frame) -> Result<(), CoreError> {
        (**self).render_frame(frame)
    }
}
