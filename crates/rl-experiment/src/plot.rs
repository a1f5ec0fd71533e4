//! SVG plots: the learning curve (mean ± standard deviation of the evaluation return against
//! learning steps), drawn with rl-domains' SVG writer.
//!
//! A plotting crate (plotters) would bring a font stack and dozens of dependencies for one
//! line chart; the workspace's one SVG writer ([`rl_domains::svg`]) gives plain, checkable SVG.

use rl_domains::svg::{Svg, number};

/// One point of a learning curve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CurvePoint {
    /// Learning steps.
    pub steps: f64,
    /// Mean evaluation return over runs.
    pub mean: f64,
    /// Standard deviation over runs.
    pub std: f64,
}

/// The picture's width in pixels.
const WIDTH: f64 = 720.0;
/// The picture's height in pixels.
const HEIGHT: f64 = 440.0;
/// The margin left of the plot area, for the tick labels and the vertical axis label.
const LEFT: f64 = 80.0;
/// The margin right of the plot area.
const RIGHT: f64 = 30.0;
/// The margin above the plot area, for the title.
const TOP: f64 = 50.0;
/// The margin below the plot area, for the tick labels and the horizontal axis label.
const BOTTOM: f64 = 60.0;
/// The colour of the mean line, its band and its markers.
const CURVE_COLOUR: &str = "#386cb0";

/// A list of points for a `points` attribute: `x,y x,y ...`.
fn point_list(points: impl Iterator<Item = (f64, f64)>) -> String {
    points
        .map(|(x, y)| format!("{},{}", number(x), number(y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Round tick values covering `[low, high]`.
fn ticks(low: f64, high: f64) -> Vec<f64> {
    let span = (high - low).max(f64::MIN_POSITIVE);
    let raw = span / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| span / s <= 6.0)
        .unwrap_or(10.0 * magnitude);
    let first = (low / step).ceil() * step;
    (0..=12)
        .map(|i| first + i as f64 * step)
        .filter(|t| *t <= high + step * 1e-9)
        .collect()
}

/// The labels of one axis's ticks, all in one notation: plain decimals with as many decimals
/// as the tick spacing needs, or, when a tick reaches 10⁵ in size, scientific notation with
/// one mantissa decimal for every tick (`0`, `5.0e4`, `1.0e5`, never `80000` beside `1.0e5`).
/// Zero is always `0`, never `-0`.
fn labels(ticks: &[f64]) -> Vec<String> {
    let largest = ticks.iter().fold(0.0f64, |m, t| m.max(t.abs()));
    let spacing = ticks
        .windows(2)
        .map(|pair| (pair[1] - pair[0]).abs())
        .fold(f64::INFINITY, f64::min);
    let scientific = largest >= 1e5 || (largest > 0.0 && largest < 1e-3);
    let decimals = if spacing.is_finite() && spacing > 0.0 {
        (-spacing.log10().floor()).clamp(0.0, 6.0) as usize
    } else {
        0
    };
    ticks
        .iter()
        .map(|&value| {
            if value.abs() < spacing * 1e-9 || value == 0.0 {
                "0".to_owned()
            } else if scientific {
                format!("{value:.1e}")
            } else {
                format!("{value:.decimals$}")
            }
        })
        .collect()
}

/// The learning curve as a standalone SVG document: a shaded band of ± one standard deviation
/// around the mean line, with a marker per check, axes with ticks, a title and axis labels.
pub fn learning_curve_svg(points: &[CurvePoint], title: &str) -> String {
    let finite: Vec<&CurvePoint> = points
        .iter()
        .filter(|p| p.steps.is_finite() && p.mean.is_finite() && p.std.is_finite())
        .collect();
    let (mut x_low, mut x_high) = (0.0f64, 1.0f64);
    let (mut y_low, mut y_high) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in &finite {
        x_low = x_low.min(p.steps);
        x_high = x_high.max(p.steps);
        y_low = y_low.min(p.mean - p.std);
        y_high = y_high.max(p.mean + p.std);
    }
    if !y_low.is_finite() {
        (y_low, y_high) = (0.0, 1.0);
    }
    if y_high - y_low < 1e-12 {
        (y_low, y_high) = (y_low - 1.0, y_high + 1.0);
    }
    let pad = 0.05 * (y_high - y_low);
    let (y_low, y_high) = (y_low - pad, y_high + pad);
    let x = |v: f64| LEFT + (v - x_low) / (x_high - x_low) * (WIDTH - LEFT - RIGHT);
    let y = |v: f64| HEIGHT - BOTTOM - (v - y_low) / (y_high - y_low) * (HEIGHT - TOP - BOTTOM);

    let mut svg = Svg::new(WIDTH, HEIGHT, title);
    svg.open_group_with("plot", &[("font-size", "12".to_owned())]);
    let middle = |anchor: &str| ("text-anchor", anchor.to_owned());
    svg.text(
        "title",
        &[
            ("x", number(WIDTH / 2.0)),
            ("y", "28".to_owned()),
            middle("middle"),
            ("font-size", "16".to_owned()),
        ],
        title,
    );
    let y_ticks = ticks(y_low, y_high);
    for (t, text) in y_ticks.iter().copied().zip(labels(&y_ticks)) {
        svg.element(
            "line",
            "grid",
            &[
                ("x1", number(LEFT)),
                ("y1", number(y(t))),
                ("x2", number(WIDTH - RIGHT)),
                ("y2", number(y(t))),
                ("stroke", "#e0e0e0".to_owned()),
            ],
        );
        svg.text(
            "tick",
            &[
                ("x", number(LEFT - 6.0)),
                ("y", number(y(t) + 4.0)),
                middle("end"),
            ],
            &text,
        );
    }
    let x_ticks = ticks(x_low, x_high);
    for (t, text) in x_ticks.iter().copied().zip(labels(&x_ticks)) {
        svg.text(
            "tick",
            &[
                ("x", number(x(t))),
                ("y", number(HEIGHT - BOTTOM + 18.0)),
                middle("middle"),
            ],
            &text,
        );
    }
    for (x1, y1, x2, y2) in [
        (LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, HEIGHT - BOTTOM),
        (LEFT, TOP, LEFT, HEIGHT - BOTTOM),
    ] {
        svg.element(
            "line",
            "axis",
            &[
                ("x1", number(x1)),
                ("y1", number(y1)),
                ("x2", number(x2)),
                ("y2", number(y2)),
                ("stroke", "#333".to_owned()),
            ],
        );
    }
    svg.text(
        "label",
        &[
            ("x", number(WIDTH / 2.0)),
            ("y", number(HEIGHT - 15.0)),
            middle("middle"),
        ],
        "learning steps",
    );
    let vertical_middle = number(HEIGHT / 2.0);
    svg.text(
        "label",
        &[
            ("x", "20".to_owned()),
            ("y", vertical_middle.clone()),
            middle("middle"),
            ("transform", format!("rotate(-90 20 {vertical_middle})")),
        ],
        "evaluation return (mean ± std over runs)",
    );
    if !finite.is_empty() {
        let upper = point_list(finite.iter().map(|p| (x(p.steps), y(p.mean + p.std))));
        let lower = point_list(finite.iter().rev().map(|p| (x(p.steps), y(p.mean - p.std))));
        svg.element(
            "polygon",
            "band",
            &[
                ("points", format!("{upper} {lower}")),
                ("fill", CURVE_COLOUR.to_owned()),
                ("fill-opacity", "0.2".to_owned()),
            ],
        );
        svg.element(
            "polyline",
            "mean",
            &[
                (
                    "points",
                    point_list(finite.iter().map(|p| (x(p.steps), y(p.mean)))),
                ),
                ("fill", "none".to_owned()),
                ("stroke", CURVE_COLOUR.to_owned()),
                ("stroke-width", "2".to_owned()),
            ],
        );
        for p in &finite {
            svg.element(
                "circle",
                "check",
                &[
                    ("cx", number(x(p.steps))),
                    ("cy", number(y(p.mean))),
                    ("r", "3".to_owned()),
                    ("fill", CURVE_COLOUR.to_owned()),
                ],
            );
        }
    }
    svg.close_group();
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_has_a_band_a_line_and_a_marker_per_check() {
        let points: Vec<CurvePoint> = (0..5)
            .map(|i| CurvePoint {
                steps: i as f64 * 100.0,
                mean: -(5 - i) as f64,
                std: 0.5,
            })
            .collect();
        let svg = learning_curve_svg(&points, "Q-learning on <GridWorld>");
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches(r#"class="check""#).count(), 5);
        assert_eq!(svg.matches(r#"class="band""#).count(), 1);
        assert!(svg.contains(">Q-learning on &lt;GridWorld&gt;</text>"));
        assert!(svg.contains("<title>Q-learning on &lt;GridWorld&gt;</title>"));
    }

    #[test]
    fn degenerate_curves_still_draw() {
        let flat = [CurvePoint {
            steps: 0.0,
            mean: 1.0,
            std: 0.0,
        }];
        assert!(learning_curve_svg(&flat, "flat").contains("class=\"mean\""));
        assert!(learning_curve_svg(&[], "empty").contains("</svg>"));
        let nan = [CurvePoint {
            steps: 0.0,
            mean: f64::NAN,
            std: 0.0,
        }];
        assert!(!learning_curve_svg(&nan, "nan").contains("NaN"));
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(ticks(0.0, 10.0), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
    }

    #[test]
    fn an_axis_uses_one_notation_and_never_shows_negative_zero() {
        let steps = ticks(0.0, 100_000.0);
        assert_eq!(
            labels(&steps),
            ["0", "2.0e4", "4.0e4", "6.0e4", "8.0e4", "1.0e5"]
        );
        assert_eq!(
            labels(&ticks(0.0, 80_000.0)),
            ["0", "20000", "40000", "60000", "80000"]
        );
        assert_eq!(labels(&ticks(-1.0, 0.5)), ["-1.0", "-0.5", "0", "0.5"]);
        assert_eq!(labels(&[-1e-17, 0.5, 1.0]), ["0", "0.5", "1.0"]);
        let svg = learning_curve_svg(
            &[
                CurvePoint {
                    steps: 0.0,
                    mean: -0.2,
                    std: 0.1,
                },
                CurvePoint {
                    steps: 100_000.0,
                    mean: 0.3,
                    std: 0.1,
                },
            ],
            "mixed",
        );
        assert!(!svg.contains(">-0<") && !svg.contains(">-0.0<"), "{svg}");
        assert!(svg.contains(">1.0e5<") && !svg.contains(">80000<"), "{svg}");
    }
}
