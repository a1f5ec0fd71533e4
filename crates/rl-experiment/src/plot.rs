//! SVG plots written directly: the learning curve (mean ± standard deviation of the evaluation
//! return against learning steps).
//!
//! A plotting crate (plotters) would bring a font stack and dozens of dependencies for one
//! line chart; this writer is about a hundred lines and its output is plain, checkable SVG.

use std::fmt::Write as _;

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

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 440.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 30.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 60.0;

/// Escapes text for an SVG text node or attribute.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
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

    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = write!(
        svg,
        r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#
    );
    let _ = write!(
        svg,
        r#"<text class="title" x="{}" y="28" text-anchor="middle" font-size="16">{}</text>"#,
        WIDTH / 2.0,
        escape(title)
    );
    let y_ticks = ticks(y_low, y_high);
    for (t, text) in y_ticks.iter().copied().zip(labels(&y_ticks)) {
        let _ = write!(
            svg,
            r##"<line class="grid" x1="{LEFT}" y1="{0:.2}" x2="{1}" y2="{0:.2}" stroke="#e0e0e0"/><text class="tick" x="{2}" y="{3:.2}" text-anchor="end">{4}</text>"##,
            y(t),
            WIDTH - RIGHT,
            LEFT - 6.0,
            y(t) + 4.0,
            text
        );
    }
    let x_ticks = ticks(x_low, x_high);
    for (t, text) in x_ticks.iter().copied().zip(labels(&x_ticks)) {
        let _ = write!(
            svg,
            r#"<text class="tick" x="{:.2}" y="{}" text-anchor="middle">{}</text>"#,
            x(t),
            HEIGHT - BOTTOM + 18.0,
            text
        );
    }
    let _ = write!(
        svg,
        r##"<line class="axis" x1="{LEFT}" y1="{0}" x2="{1}" y2="{0}" stroke="#333"/><line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{0}" stroke="#333"/>"##,
        HEIGHT - BOTTOM,
        WIDTH - RIGHT
    );
    let _ = write!(
        svg,
        r#"<text class="label" x="{}" y="{}" text-anchor="middle">learning steps</text>"#,
        WIDTH / 2.0,
        HEIGHT - 15.0
    );
    let _ = write!(
        svg,
        r#"<text class="label" x="20" y="{0}" text-anchor="middle" transform="rotate(-90 20 {0})">evaluation return (mean ± std over runs)</text>"#,
        HEIGHT / 2.0
    );
    if !finite.is_empty() {
        let upper: Vec<String> = finite
            .iter()
            .map(|p| format!("{:.2},{:.2}", x(p.steps), y(p.mean + p.std)))
            .collect();
        let lower: Vec<String> = finite
            .iter()
            .rev()
            .map(|p| format!("{:.2},{:.2}", x(p.steps), y(p.mean - p.std)))
            .collect();
        let _ = write!(
            svg,
            r##"<polygon class="band" points="{} {}" fill="#386cb0" fill-opacity="0.2"/>"##,
            upper.join(" "),
            lower.join(" ")
        );
        let line: Vec<String> = finite
            .iter()
            .map(|p| format!("{:.2},{:.2}", x(p.steps), y(p.mean)))
            .collect();
        let _ = write!(
            svg,
            r##"<polyline class="mean" points="{}" fill="none" stroke="#386cb0" stroke-width="2"/>"##,
            line.join(" ")
        );
        for p in &finite {
            let _ = write!(
                svg,
                r##"<circle class="check" cx="{:.2}" cy="{:.2}" r="3" fill="#386cb0"/>"##,
                x(p.steps),
                y(p.mean)
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
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
        assert!(svg.contains("Q-learning on &lt;GridWorld&gt;"));
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
