//! The drawing surface of every frame: a tiny-skia pixmap kept per thread and reused between
//! frames of the same size, a painter in a domain's own design coordinates (Gymnasium's
//! pixels, y up, or a grid's, y down), and the copy into the RGB [`Frame`].

use std::cell::RefCell;

use rl_core::Frame;
use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Stroke, Transform};

/// An opaque colour, red, green and blue.
pub(crate) type Rgb = [u8; 3];

thread_local! {
    /// The pixmap of this thread's last frame, reused while the size stays the same, so that
    /// drawing frame after frame of one size allocates once.
    static PIXMAP: RefCell<Option<Pixmap>> = const { RefCell::new(None) };
}

/// Which way the design coordinates' y axis points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum YAxis {
    /// Up, from the bottom edge (Gymnasium's classic-control drawings, flipped before
    /// returning).
    Up,
    /// Down, from the top edge.
    Down,
}

/// Where the point `(x, y)` of a `design_width` by `design_height` drawing with the y axis
/// up lands in a `width` by `height` frame, in pixels from the top-left corner.
pub(crate) fn frame_point(
    (x, y): (f64, f64),
    (design_width, design_height): (f64, f64),
    (width, height): (u32, u32),
) -> (f64, f64) {
    let scale_x = f64::from(width) / design_width;
    let scale_y = f64::from(height) / design_height;
    (scale_x * (x + 0.5), f64::from(height) - scale_y * (y + 0.5))
}

/// Draws on a frame in design coordinates: a `design_width` by `design_height` rectangle
/// stretched over the whole frame.
pub(crate) struct Painter<'a> {
    pixmap: &'a mut Pixmap,
    transform: Transform,
    scale: f32,
}

impl Painter<'_> {
    /// Fills the whole frame with `colour`.
    pub(crate) fn clear(&mut self, colour: Rgb) {
        self.pixmap.fill(color(colour));
    }

    /// Fills the polygon through `points` (design coordinates), anti-aliased.
    pub(crate) fn polygon(&mut self, points: &[(f64, f64)], colour: Rgb) {
        let mut builder = PathBuilder::new();
        for (index, &(x, y)) in points.iter().enumerate() {
            if index == 0 {
                builder.move_to(x as f32, y as f32);
            } else {
                builder.line_to(x as f32, y as f32);
            }
        }
        builder.close();
        if let Some(path) = builder.finish() {
            self.pixmap.fill_path(
                &path,
                &paint(colour),
                FillRule::Winding,
                self.transform,
                None,
            );
        }
    }

    /// Fills the axis-aligned rectangle from `(left, top)` to `(right, bottom)` without
    /// anti-aliasing (cells of a grid meet without seams).
    pub(crate) fn rectangle(&mut self, left: f64, top: f64, right: f64, bottom: f64, colour: Rgb) {
        let rectangle = tiny_skia::Rect::from_ltrb(
            left.min(right) as f32,
            top.min(bottom) as f32,
            left.max(right) as f32,
            top.max(bottom) as f32,
        );
        let Some(rectangle) = rectangle else {
            return;
        };
        let mut paint = paint(colour);
        paint.anti_alias = false;
        // A scale and a translation (every transform here) map the rectangle onto another:
        // mapped here, it is filled with the identity, tiny-skia's path without allocation
        // (a transformed rectangle becomes a path, a few allocations each).
        let Transform {
            sx,
            kx,
            ky,
            sy,
            tx,
            ty,
        } = self.transform;
        let mapped = (kx == 0.0 && ky == 0.0)
            .then(|| {
                let (x0, x1) = (sx * rectangle.left() + tx, sx * rectangle.right() + tx);
                let (y0, y1) = (sy * rectangle.top() + ty, sy * rectangle.bottom() + ty);
                tiny_skia::Rect::from_ltrb(x0.min(x1), y0.min(y1), x0.max(x1), y0.max(y1))
            })
            .flatten();
        match mapped {
            Some(mapped) => self
                .pixmap
                .fill_rect(mapped, &paint, Transform::identity(), None),
            None => self
                .pixmap
                .fill_rect(rectangle, &paint, self.transform, None),
        }
    }

    /// Draws the horizontal or vertical line from `(x0, y0)` to `(x1, y1)` (design
    /// coordinates) one frame pixel wide at any scale, as a rectangle without anti-aliasing:
    /// unlike [`polyline`](Self::polyline), it builds no path, so it allocates nothing (the
    /// lines of the grid pictures).
    pub(crate) fn hairline(&mut self, (x0, y0): (f64, f64), (x1, y1): (f64, f64), colour: Rgb) {
        let half = 0.5 / f64::from(self.scale);
        let (left, right) = (x0.min(x1) - half, x0.max(x1) + half);
        let (top, bottom) = (y0.min(y1) - half, y0.max(y1) + half);
        self.rectangle(left, top, right, bottom, colour);
    }

    /// Fills the disc of `radius` around `(x, y)` (design coordinates), anti-aliased.
    pub(crate) fn disc(&mut self, x: f64, y: f64, radius: f64, colour: Rgb) {
        if let Some(path) = PathBuilder::from_circle(x as f32, y as f32, radius as f32) {
            self.pixmap.fill_path(
                &path,
                &paint(colour),
                FillRule::Winding,
                self.transform,
                None,
            );
        }
    }

    /// Draws the line through `points` (design coordinates), one frame pixel wide at any
    /// scale, anti-aliased.
    pub(crate) fn polyline(&mut self, points: &[(f64, f64)], colour: Rgb) {
        let mut builder = PathBuilder::new();
        for (index, &(x, y)) in points.iter().enumerate() {
            if index == 0 {
                builder.move_to(x as f32, y as f32);
            } else {
                builder.line_to(x as f32, y as f32);
            }
        }
        if let Some(path) = builder.finish() {
            let stroke = Stroke {
                width: 1.0 / self.scale,
                ..Stroke::default()
            };
            self.pixmap
                .stroke_path(&path, &paint(colour), &stroke, self.transform, None);
        }
    }
}

/// A tiny-skia colour from bytes.
fn color(colour: Rgb) -> Color {
    Color::from_rgba8(colour[0], colour[1], colour[2], 255)
}

/// A solid, anti-aliased paint.
fn paint(colour: Rgb) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color(color(colour));
    paint.anti_alias = true;
    paint
}

/// Draws over the whole of `frame` with `draw`, given a painter whose design coordinates span
/// `design_width` by `design_height` with the y axis as `y_axis` says.
///
/// Every drawing starts by clearing, so the frame's old content never shows through. A frame
/// too large for tiny-skia's pixmap (past its `i32` byte offsets) is left mid-grey.
pub(crate) fn draw(
    frame: &mut Frame,
    design_width: f64,
    design_height: f64,
    y_axis: YAxis,
    draw: impl FnOnce(&mut Painter<'_>),
) {
    let (width, height) = (frame.width(), frame.height());
    PIXMAP.with(|cell| {
        let mut slot = cell.borrow_mut();
        let reusable = slot
            .as_ref()
            .is_some_and(|pixmap| pixmap.width() == width && pixmap.height() == height);
        if !reusable {
            *slot = Pixmap::new(width, height);
        }
        let Some(pixmap) = slot.as_mut() else {
            frame.pixels_mut().fill(128);
            return;
        };
        let scale_x = width as f32 / design_width as f32;
        let scale_y = height as f32 / design_height as f32;
        let transform = match y_axis {
            // Gymnasium's coordinates name whole pixels (pygame's), whose centres are half a
            // pixel further; then the picture is flipped upside down.
            YAxis::Up => Transform::from_row(
                scale_x,
                0.0,
                0.0,
                -scale_y,
                0.5 * scale_x,
                height as f32 - 0.5 * scale_y,
            ),
            YAxis::Down => Transform::from_scale(scale_x, scale_y),
        };
        let mut painter = Painter {
            pixmap,
            transform,
            scale: scale_x.min(scale_y),
        };
        draw(&mut painter);
        // Every pixel is opaque (the drawing starts by clearing with an opaque colour), so the
        // premultiplied RGBA bytes are the straight ones.
        for (rgb, rgba) in frame
            .pixels_mut()
            .chunks_exact_mut(3)
            .zip(pixmap.data().chunks_exact(4))
        {
            rgb.copy_from_slice(&rgba[..3]);
        }
    });
}
