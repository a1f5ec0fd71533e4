//! RGB frames of the tile-renderer kind (minigrid's `render_mode="rgb_array"`): every cell a
//! tile of 32 pixels drawn from shapes tested at 3 by 3 sample points per pixel and averaged
//! (minigrid's supersampling), the grid lines, the objects in their colours and states, the
//! agent as a red triangle pointing its way, and the cells the agent sees lightened.
//!
//! The shapes, their sizes and colours and the order they are drawn in are minigrid 3.2.0's
//! (`minigrid/core/world_object.py`, `Grid.render_tile`), and the arithmetic of the sample
//! points, the blending and the averaging follows numpy's, so that a frame at the natural size
//! is minigrid's `env.render()` (the Python tests compare them).

use std::cell::RefCell;
use std::collections::HashMap;

use rl_core::{Frame, RenderFrame};

use crate::MiniGrid;
use crate::object::{Cell, Color, DoorState, ObjectKind};
use crate::state::MiniGridState;
use crate::view::for_each_visible;

/// minigrid's `TILE_PIXELS`: the side of a tile at the natural size.
pub const TILE_PIXELS: u32 = 32;

/// Sample points per pixel along each axis (minigrid's `subdivs`).
const SUBDIVISIONS: usize = 3;

/// A colour as minigrid computes it before it lands in a `uint8` image (a floor is half its
/// colour, 127.5 for 255), red, green, blue.
type Colour = [f64; 3];

/// minigrid's `COLORS`.
fn colour(color: Color) -> Colour {
    match color {
        Color::Red => [255.0, 0.0, 0.0],
        Color::Green => [0.0, 255.0, 0.0],
        Color::Blue => [0.0, 0.0, 255.0],
        Color::Purple => [112.0, 39.0, 195.0],
        Color::Yellow => [255.0, 255.0, 0.0],
        Color::Grey => [100.0, 100.0, 100.0],
    }
}

const BLACK: Colour = [0.0, 0.0, 0.0];
const GRID_LINE: Colour = [100.0, 100.0, 100.0];
const LAVA: Colour = [255.0, 128.0, 0.0];
const AGENT: Colour = [255.0, 0.0, 0.0];

/// A shape in tile coordinates (0 to 1, y down), tested at a point.
#[derive(Debug, Clone, Copy)]
enum Shape {
    /// `point_in_rect(xmin, xmax, ymin, ymax)`, edges included.
    Rect(f64, f64, f64, f64),
    /// `point_in_circle(cx, cy, r)`.
    Circle(f64, f64, f64),
    /// `point_in_line(x0, y0, x1, y1, r)`: within `r` of the segment.
    Line(f64, f64, f64, f64, f64),
}

impl Shape {
    fn contains(self, x: f64, y: f64) -> bool {
        match self {
            Shape::Rect(xmin, xmax, ymin, ymax) => x >= xmin && x <= xmax && y >= ymin && y <= ymax,
            Shape::Circle(cx, cy, r) => (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r,
            Shape::Line(x0, y0, x1, y1, r) => in_line(x0, y0, x1, y1, r, x, y),
        }
    }
}

/// Whether `(x, y)` is within `r` of the segment from `(x0, y0)` to `(x1, y1)`, with the
/// segment's ends and direction in float32 as minigrid keeps them.
fn in_line(x0: f64, y0: f64, x1: f64, y1: f64, r: f64, x: f64, y: f64) -> bool {
    if x < x0.min(x1) - r || x > x0.max(x1) + r || y < y0.min(y1) - r || y > y0.max(y1) + r {
        return false;
    }
    let (p0x, p0y) = (x0 as f32, y0 as f32);
    let (dx, dy) = (x1 as f32 - p0x, y1 as f32 - p0y);
    let length = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = (f64::from(dx / length), f64::from(dy / length));
    let (p0x, p0y) = (f64::from(p0x), f64::from(p0y));
    let along = ((x - p0x) * ux + (y - p0y) * uy).clamp(0.0, f64::from(length));
    let (px, py) = (p0x + along * ux, p0y + along * uy);
    let (qx, qy) = (x - px, y - py);
    (qx * qx + qy * qy).sqrt() <= r
}

/// Whether `(x, y)` is inside the agent's triangle turned to `direction` (minigrid's
/// `point_in_triangle` under `rotate_fn`, its corners in float32).
fn in_agent(direction: u8, x: f64, y: f64) -> bool {
    let theta = 0.5 * std::f64::consts::PI * f64::from(direction);
    let (x, y) = (x - 0.5, y - 0.5);
    let x2 = 0.5 + x * (-theta).cos() - y * (-theta).sin();
    let y2 = 0.5 + y * (-theta).cos() + x * (-theta).sin();
    let a = [0.12_f32, 0.19];
    let b = [0.87_f32, 0.50];
    let c = [0.12_f32, 0.81];
    let v0 = [c[0] - a[0], c[1] - a[1]];
    let v1 = [b[0] - a[0], b[1] - a[1]];
    let v2 = [x2 - f64::from(a[0]), y2 - f64::from(a[1])];
    let dot00 = v0[0] * v0[0] + v0[1] * v0[1];
    let dot01 = v0[0] * v1[0] + v0[1] * v1[1];
    let dot11 = v1[0] * v1[0] + v1[1] * v1[1];
    let dot02 = f64::from(v0[0]) * v2[0] + f64::from(v0[1]) * v2[1];
    let dot12 = f64::from(v1[0]) * v2[0] + f64::from(v1[1]) * v2[1];
    let inverse = 1.0 / (dot00 * dot11 - dot01 * dot01);
    let u = (f64::from(dot11) * dot02 - f64::from(dot01) * dot12) * f64::from(inverse);
    let v = (f64::from(dot00) * dot12 - f64::from(dot01) * dot02) * f64::from(inverse);
    u >= 0.0 && v >= 0.0 && u + v < 1.0
}

/// The colour of `cell` at the tile point `(x, y)`, over `below` (what the tile shows there
/// without the object), in minigrid's drawing order.
fn object_colour(cell: Cell, x: f64, y: f64, below: Colour) -> Colour {
    let mut out = below;
    let mut fill = |shape: Shape, colour: Colour| {
        if shape.contains(x, y) {
            out = colour;
        }
    };
    let c = colour(cell.color());
    match cell.kind() {
        ObjectKind::Wall | ObjectKind::Goal => fill(Shape::Rect(0.0, 1.0, 0.0, 1.0), c),
        ObjectKind::Floor => fill(
            Shape::Rect(0.031, 1.0, 0.031, 1.0),
            [c[0] / 2.0, c[1] / 2.0, c[2] / 2.0],
        ),
        ObjectKind::Lava => {
            fill(Shape::Rect(0.0, 1.0, 0.0, 1.0), LAVA);
            for i in 0..3 {
                let low = 0.3 + 0.2 * f64::from(i);
                let high = 0.4 + 0.2 * f64::from(i);
                fill(Shape::Line(0.1, low, 0.3, high, 0.03), BLACK);
                fill(Shape::Line(0.3, high, 0.5, low, 0.03), BLACK);
                fill(Shape::Line(0.5, low, 0.7, high, 0.03), BLACK);
                fill(Shape::Line(0.7, high, 0.9, low, 0.03), BLACK);
            }
        }
        ObjectKind::Door => match cell.door_state() {
            Some(DoorState::Open) => {
                fill(Shape::Rect(0.88, 1.00, 0.00, 1.00), c);
                fill(Shape::Rect(0.92, 0.96, 0.04, 0.96), BLACK);
            }
            Some(DoorState::Locked) => {
                fill(Shape::Rect(0.00, 1.00, 0.00, 1.00), c);
                fill(
                    Shape::Rect(0.06, 0.94, 0.06, 0.94),
                    [0.45 * c[0], 0.45 * c[1], 0.45 * c[2]],
                );
                fill(Shape::Rect(0.52, 0.75, 0.50, 0.56), c);
            }
            _ => {
                fill(Shape::Rect(0.00, 1.00, 0.00, 1.00), c);
                fill(Shape::Rect(0.04, 0.96, 0.04, 0.96), BLACK);
                fill(Shape::Rect(0.08, 0.92, 0.08, 0.92), c);
                fill(Shape::Rect(0.12, 0.88, 0.12, 0.88), BLACK);
                fill(Shape::Circle(0.75, 0.50, 0.08), c);
            }
        },
        ObjectKind::Key => {
            fill(Shape::Rect(0.50, 0.63, 0.31, 0.88), c);
            fill(Shape::Rect(0.38, 0.50, 0.59, 0.66), c);
            fill(Shape::Rect(0.38, 0.50, 0.81, 0.88), c);
            fill(Shape::Circle(0.56, 0.28, 0.190), c);
            fill(Shape::Circle(0.56, 0.28, 0.064), BLACK);
        }
        ObjectKind::Ball => fill(Shape::Circle(0.5, 0.5, 0.31), c),
        ObjectKind::Box => {
            fill(Shape::Rect(0.12, 0.88, 0.12, 0.88), c);
            fill(Shape::Rect(0.18, 0.82, 0.18, 0.82), BLACK);
            fill(Shape::Rect(0.16, 0.84, 0.47, 0.53), c);
        }
        _ => {}
    }
    out
}

/// The byte a sample of a tile holds at `(x, y)`: grid lines, the object, the agent, then the
/// highlight (minigrid's `highlight_img`: 30% of the way to white), each channel truncated
/// to a byte as numpy stores it.
fn sample(cell: Cell, agent: Option<u8>, highlight: bool, x: f64, y: f64) -> [u8; 3] {
    let mut colour = BLACK;
    if Shape::Rect(0.0, 0.031, 0.0, 1.0).contains(x, y)
        || Shape::Rect(0.0, 1.0, 0.0, 0.031).contains(x, y)
    {
        colour = GRID_LINE;
    }
    colour = object_colour(cell, x, y, colour);
    if let Some(direction) = agent
        && in_agent(direction, x, y)
    {
        colour = AGENT;
    }
    colour.map(|channel| {
        let byte = channel as u8;
        if highlight {
            let value = f64::from(byte);
            (value + 0.3 * (255.0 - value)).clamp(0.0, 255.0) as u8
        } else {
            byte
        }
    })
}

/// What a tile shows: the cell's encoding, the agent's direction if it stands there, and
/// whether the agent sees the cell.
pub(crate) type TileKey = ([u8; 3], Option<u8>, bool);

/// The number of distinct tiles a grid can show (11 kinds, 6 colours, 3 states, the agent
/// absent or facing one of 4 ways, highlighted or not): the length of a [`TileSet`].
const TILE_KINDS: usize = 11 * 6 * 3 * 5 * 2;

/// The index of a tile in a [`TileSet`], or `None` for an encoding no cell has.
#[inline]
fn tile_index(key: TileKey) -> Option<usize> {
    let ([kind, color, state], agent, highlight) = key;
    if kind > 10 || color > 5 || state > 2 {
        return None;
    }
    let agent = agent.map_or(0, |direction| usize::from(direction % 4) + 1);
    Some(
        (((usize::from(kind) * 6 + usize::from(color)) * 3 + usize::from(state)) * 5 + agent) * 2
            + usize::from(highlight),
    )
}

/// The tiles of one size drawn so far, indexed by [`tile_index`], as minigrid caches them: a
/// frame after the first mostly copies tiles.
type TileSet = Vec<Option<Box<[u8]>>>;

/// The most tile sizes [`TILES`] keeps before it starts again.
const MAX_CACHED_SIZES: usize = 16;

thread_local! {
    /// The tiles drawn, by their width and height in pixels.
    static TILES: RefCell<HashMap<(usize, usize), TileSet>> = RefCell::new(HashMap::new());
}

/// The largest tiles (in pixels) drawn all at once when a thread first draws a picture of
/// their size: 16 by 16, observation pictures' sizes (minigrid's wrappers take 8), 1,980
/// tiles of at most 768 bytes. Larger tiles (frames for people: minigrid's `render` takes 32)
/// are drawn the first time each is shown.
const DRAWN_AT_ONCE_PIXELS: usize = 16 * 16;

/// The tile set of a size new to a thread: every tile drawn for sizes up to
/// [`DRAWN_AT_ONCE_PIXELS`], so that a vector's pictures allocate nothing after each thread's
/// first one (a tile first shown mid-episode, a key carried or a door opened, would
/// otherwise allocate then); none yet for larger ones.
fn new_tile_set(tile_width: usize, tile_height: usize) -> TileSet {
    let mut tiles: TileSet = vec![None; TILE_KINDS];
    if tile_width * tile_height <= DRAWN_AT_ONCE_PIXELS {
        for kind in 0..=10u8 {
            for color in 0..=5u8 {
                for state in 0..=2u8 {
                    for agent in [None, Some(0), Some(1), Some(2), Some(3)] {
                        for highlight in [false, true] {
                            let key = ([kind, color, state], agent, highlight);
                            with_tile(&mut tiles, key, tile_width, tile_height, |_| ());
                        }
                    }
                }
            }
        }
        debug_assert!(tiles.iter().all(Option::is_some), "every index drawn");
    }
    tiles
}

/// Calls `with` with the tile of `key` drawn `tile_width` by `tile_height` pixels (row by
/// row, 3 bytes a pixel), drawn once per thread and size and copied after.
fn with_tile<R>(
    tiles: &mut TileSet,
    key: TileKey,
    tile_width: usize,
    tile_height: usize,
    with: impl FnOnce(&[u8]) -> R,
) -> R {
    let draw = || {
        let mut tile = vec![0; tile_width * tile_height * 3];
        for y in 0..tile_height {
            for x in 0..tile_width {
                let at = 3 * (y * tile_width + x);
                tile[at..at + 3].copy_from_slice(&tile_pixel(
                    key,
                    x as f64,
                    y as f64,
                    tile_width as f64,
                    tile_height as f64,
                ));
            }
        }
        tile.into_boxed_slice()
    };
    match tile_index(key) {
        Some(index) => with(tiles[index].get_or_insert_with(draw)),
        None => with(&draw()),
    }
}

/// Draws a picture of `columns` by `rows` tiles of `tile_width` by `tile_height` pixels into
/// `out` (`rows * tile_height` by `columns * tile_width` pixels, row by row, 3 entries a
/// pixel, each byte as `from_byte` converts it), tile `(column, row)` showing `key(column,
/// row)`. Tiles come from the thread's cache ([`TILES`]): after the thread's first picture of
/// a size up to [`DRAWN_AT_ONCE_PIXELS`], drawing allocates nothing; larger tiles are drawn
/// (and allocated) the first time each is shown.
///
/// The caller passes `out` of the picture's length.
pub(crate) fn draw_tiles<T: Copy>(
    columns: usize,
    rows: usize,
    tile_width: usize,
    tile_height: usize,
    mut key: impl FnMut(usize, usize) -> TileKey,
    out: &mut [T],
    from_byte: impl Fn(u8) -> T,
) {
    let width = columns * tile_width;
    TILES.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.len() >= MAX_CACHED_SIZES && !cache.contains_key(&(tile_width, tile_height)) {
            cache.clear();
        }
        let tiles = cache
            .entry((tile_width, tile_height))
            .or_insert_with(|| new_tile_set(tile_width, tile_height));
        for row in 0..rows {
            for column in 0..columns {
                with_tile(tiles, key(column, row), tile_width, tile_height, |tile| {
                    for y in 0..tile_height {
                        let from = 3 * y * tile_width;
                        let to = 3 * ((row * tile_height + y) * width + column * tile_width);
                        copy_row(
                            &mut out[to..to + 3 * tile_width],
                            &tile[from..from + 3 * tile_width],
                            &from_byte,
                        );
                    }
                });
            }
        }
    });
}

/// Copies the bytes `from` into `to` (of the same length), each converted by `from_byte`. The
/// rows of tiles of minigrid's default sizes (8 pixels, its observation wrappers'; 32, its
/// `render`'s) are copied as arrays of a fixed length, which compile to a few moves into a
/// byte row instead of a call to `memcpy` per row of a tile (a 7 by 7 view at 8 pixels a tile
/// is 392 rows of 24 bytes).
#[inline(always)]
fn copy_row<T: Copy>(to: &mut [T], from: &[u8], from_byte: &impl Fn(u8) -> T) {
    /// The copy for rows of `N` entries; false (nothing copied) for another length.
    #[inline(always)]
    fn fixed<T: Copy, const N: usize>(
        to: &mut [T],
        from: &[u8],
        from_byte: &impl Fn(u8) -> T,
    ) -> bool {
        match (<&mut [T; N]>::try_from(to), <&[u8; N]>::try_from(from)) {
            (Ok(to), Ok(from)) => {
                for (slot, &byte) in to.iter_mut().zip(from) {
                    *slot = from_byte(byte);
                }
                true
            }
            _ => false,
        }
    }
    if fixed::<T, 24>(to, from, from_byte) || fixed::<T, 96>(to, from, from_byte) {
        return;
    }
    for (slot, &byte) in to.iter_mut().zip(from) {
        *slot = from_byte(byte);
    }
}

/// The pixel at `(local_x, local_y)` of a `tile_width` by `tile_height` tile (pixels from its
/// top-left corner, fractional where the tiles do not fall on whole pixels): minigrid's
/// average of each sample row, then of the rows, in float64, truncated to bytes.
fn tile_pixel(
    key: TileKey,
    local_x: f64,
    local_y: f64,
    tile_width: f64,
    tile_height: f64,
) -> [u8; 3] {
    let (encoding, agent, highlight) = key;
    let cell = Cell::from_bytes([encoding[0], encoding[1], encoding[2], 0]).unwrap_or(Cell::EMPTY);
    let subdivisions = SUBDIVISIONS as f64;
    let mut sums = [0.0_f64; 3];
    for sy in 0..SUBDIVISIONS {
        let y = (subdivisions * local_y + sy as f64 + 0.5) / (subdivisions * tile_height);
        let mut row_sums = [0.0_f64; 3];
        for sx in 0..SUBDIVISIONS {
            let x = (subdivisions * local_x + sx as f64 + 0.5) / (subdivisions * tile_width);
            let bytes = sample(cell, agent, highlight, x, y);
            for channel in 0..3 {
                row_sums[channel] += f64::from(bytes[channel]);
            }
        }
        for channel in 0..3 {
            sums[channel] += row_sums[channel] / subdivisions;
        }
    }
    sums.map(|sum| (sum / subdivisions) as u8)
}

impl MiniGrid {
    /// Draws the whole grid of `state` into `frame` at the frame's size, stretching the tiles
    /// (each pixel still averages 3 by 3 sample points), the seen cells lightened as the
    /// parameter `highlight` says.
    fn draw(&self, state: &MiniGridState, frame: &mut Frame) {
        let grid = state.grid();
        let (columns, rows) = (grid.width(), grid.height());
        let mut highlight = vec![false; columns * rows];
        let lighten = self.params().highlight;
        for_each_visible(
            grid,
            state.agent,
            state.direction,
            self.view_size(),
            self.see_through_walls(),
            |position| highlight[position.y as usize * columns + position.x as usize] = lighten,
        );
        let key = |column: usize, row: usize| -> TileKey {
            let index = row * columns + column;
            let here = state.agent == crate::grid::Position::new(column as i32, row as i32);
            (
                grid.cells()[index].encode(),
                here.then(|| state.direction.index()),
                highlight[index],
            )
        };
        let (width, height) = (frame.width() as usize, frame.height() as usize);
        if width % columns == 0 && height % rows == 0 {
            // Whole tiles: each kind of tile drawn once and copied.
            draw_tiles(
                columns,
                rows,
                width / columns,
                height / rows,
                key,
                frame.pixels_mut(),
                |byte| byte,
            );
            return;
        }
        let pixels = frame.pixels_mut();
        let tile_width = width as f64 / columns as f64;
        let tile_height = height as f64 / rows as f64;
        for py in 0..height {
            let row = ((py as f64 / tile_height) as usize).min(rows - 1);
            let local_y = py as f64 - row as f64 * tile_height;
            for px in 0..width {
                let column = ((px as f64 / tile_width) as usize).min(columns - 1);
                let local_x = px as f64 - column as f64 * tile_width;
                let at = 3 * (py * width + px);
                pixels[at..at + 3].copy_from_slice(&tile_pixel(
                    key(column, row),
                    local_x,
                    local_y,
                    tile_width,
                    tile_height,
                ));
            }
        }
    }
}

impl RenderFrame for MiniGrid {
    /// minigrid's `rgb_array` size: `tile_size` pixels a cell (32 by default) of the whole
    /// grid, `(width * tile, height * tile)`, or of the agent's view with `agent_pov`.
    fn frame_size(&self) -> (u32, u32) {
        let tile = self.params().tile_size;
        let (width, height) = if self.params().agent_pov {
            (self.view_size(), self.view_size())
        } else {
            self.grid_size()
        };
        ((width * tile) as u32, (height * tile) as u32)
    }

    /// minigrid's `render()`: `get_frame(highlight, tile_size, agent_pov)` at the natural
    /// size; another size stretches the whole grid's tiles.
    fn draw_frame(&self, state: &MiniGridState, frame: &mut Frame) {
        let natural = self.frame_size();
        if (frame.width(), frame.height()) == natural {
            let tile = self.params().tile_size;
            if self.params().agent_pov {
                self.write_pov_frame(state, tile, frame.pixels_mut(), |byte| byte);
            } else {
                let highlight = self.params().highlight;
                self.write_full_frame(state, tile, highlight, frame.pixels_mut(), |byte| byte);
            }
            return;
        }
        self.draw(state, frame);
    }
}
