//! SVG plots: learning curves (mean ± standard deviation of the evaluation return against
//! learning steps), drawn with rl-domains' SVG writer.
//!
//! One function, [`learning_curves_svg`], draws any number of labelled curves on shared axes:
//! [`learning_curve_svg`] is its one-curve case (the `learning_curve.svg` of `rl run`), and
//! [`overlay_directories`] (what `rl plot` calls) reads several result directories and draws
//! one curve each, with a legend.
//!
//! A plotting crate (plotters) would bring a font stack and dozens of dependencies for one
//! line chart; the workspace's one SVG writer ([`rl_domains::svg`]) gives plain, checkable SVG.

use std::path::{Path, PathBuf};

use rl_domains::svg::{Svg, number};

use crate::ExperimentError;
use crate::results::{read_experiment, read_summary, write_atomically};

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

/// One labelled curve of a plot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Curve<'a> {
    /// The curve's text in the legend; a plot whose labels are all empty has no legend.
    pub label: &'a str,
    /// The points, in order of learning steps.
    pub points: &'a [CurvePoint],
}

/// The colours of the curves, in order: the first curve (the only one of `rl run`'s plot) is
/// blue. More curves than colours reuse them from the start.
pub const CURVE_COLOURS: [&str; 16] = [
    "#386cb0", "#e6550d", "#31a354", "#d62728", "#756bb1", "#8c564b", "#e377c2", "#17becf",
    "#bcbd22", "#636363", "#9ecae1", "#fdae6b", "#a1d99b", "#ff9896", "#bcbddc", "#000000",
];

/// The most result directories [`overlay_directories`] (and `rl plot`) draws in one picture:
/// one per colour of [`CURVE_COLOURS`], so that every curve has its own colour.
pub const PLOT_DIRECTORIES_LIMIT: usize = CURVE_COLOURS.len();

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
/// The gap between the plot area and the legend on its right.
const LEGEND_GAP: f64 = 20.0;
/// The height of one legend entry.
const LEGEND_LINE: f64 = 20.0;
/// The width of a legend entry's colour sample and the space after it.
const LEGEND_SAMPLE: f64 = 32.0;
/// The width allowed per character of a legend label (12-pixel sans-serif averages less).
const LEGEND_CHARACTER: f64 = 7.0;

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
/// This is [`learning_curves_svg`] with one unlabelled curve.
pub fn learning_curve_svg(points: &[CurvePoint], title: &str) -> String {
    learning_curves_svg(&[Curve { label: "", points }], title)
}

/// Several learning curves on shared axes as one standalone SVG document. Each curve, in its
/// colour of [`CURVE_COLOURS`], has a shaded band of ± one standard deviation around its mean
/// line and a marker per check (a `<g class="series">` group holds its line and markers; the
/// bands, drawn first so that no band hides a line, are in `<g class="bands">`). The axes cover
/// every curve's finite points; their ticks are labelled in one notation per axis. When a
/// label is not empty, a legend right of the plot area (which widens the picture, so that it
/// never covers a curve) names each curve beside its colour.
pub fn learning_curves_svg(curves: &[Curve<'_>], title: &str) -> String {
    let finite: Vec<Vec<&CurvePoint>> = curves
        .iter()
        .map(|curve| {
            curve
                .points
                .iter()
                .filter(|p| p.steps.is_finite() && p.mean.is_finite() && p.std.is_finite())
                .collect()
        })
        .collect();
    let (mut x_low, mut x_high) = (0.0f64, 1.0f64);
    let (mut y_low, mut y_high) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in finite.iter().flatten() {
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
    let legend = curves.iter().any(|curve| !curve.label.is_empty());
    let legend_width = if legend {
        let longest = curves
            .iter()
            .map(|curve| curve.label.chars().count())
            .max()
            .unwrap_or(0);
        LEGEND_GAP + LEGEND_SAMPLE + LEGEND_CHARACTER * longest as f64
    } else {
        0.0
    };
    let width = WIDTH + legend_width;
    let legend_height = if legend {
        LEGEND_LINE * curves.len() as f64
    } else {
        0.0
    };
    let height = HEIGHT.max(TOP + legend_height + BOTTOM);
    let x = |v: f64| LEFT + (v - x_low) / (x_high - x_low) * (WIDTH - LEFT - RIGHT);
    let y = |v: f64| height - BOTTOM - (v - y_low) / (y_high - y_low) * (height - TOP - BOTTOM);

    let mut svg = Svg::new(width, height, title);
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
                ("y", number(height - BOTTOM + 18.0)),
                middle("middle"),
            ],
            &text,
        );
    }
    for (x1, y1, x2, y2) in [
        (LEFT, height - BOTTOM, WIDTH - RIGHT, height - BOTTOM),
        (LEFT, TOP, LEFT, height - BOTTOM),
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
            ("y", number(height - 15.0)),
            middle("middle"),
        ],
        "learning steps",
    );
    let vertical_middle = number(height / 2.0);
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
    let colour = |index: usize| CURVE_COLOURS[index % CURVE_COLOURS.len()].to_owned();
    svg.open_group("bands");
    for (index, points) in finite.iter().enumerate() {
        if points.is_empty() {
            continue;
        }
        let upper = point_list(points.iter().map(|p| (x(p.steps), y(p.mean + p.std))));
        let lower = point_list(points.iter().rev().map(|p| (x(p.steps), y(p.mean - p.std))));
        svg.element(
            "polygon",
            "band",
            &[
                ("points", format!("{upper} {lower}")),
                ("fill", colour(index)),
                ("fill-opacity", "0.2".to_owned()),
            ],
        );
    }
    svg.close_group();
    for (index, points) in finite.iter().enumerate() {
        svg.open_group("series");
        if !points.is_empty() {
            svg.element(
                "polyline",
                "mean",
                &[
                    (
                        "points",
                        point_list(points.iter().map(|p| (x(p.steps), y(p.mean)))),
                    ),
                    ("fill", "none".to_owned()),
                    ("stroke", colour(index)),
                    ("stroke-width", "2".to_owned()),
                ],
            );
        }
        for p in points {
            svg.element(
                "circle",
                "check",
                &[
                    ("cx", number(x(p.steps))),
                    ("cy", number(y(p.mean))),
                    ("r", "3".to_owned()),
                    ("fill", colour(index)),
                ],
            );
        }
        svg.close_group();
    }
    if legend {
        svg.open_group("legend");
        let left = WIDTH - RIGHT + LEGEND_GAP;
        for (index, curve) in curves.iter().enumerate() {
            let middle_y = TOP + LEGEND_LINE * (index as f64 + 0.5);
            svg.element(
                "rect",
                "legend-band",
                &[
                    ("x", number(left)),
                    ("y", number(middle_y - 5.0)),
                    ("width", "24".to_owned()),
                    ("height", "10".to_owned()),
                    ("fill", colour(index)),
                    ("fill-opacity", "0.2".to_owned()),
                ],
            );
            svg.element(
                "line",
                "legend-line",
                &[
                    ("x1", number(left)),
                    ("y1", number(middle_y)),
                    ("x2", number(left + 24.0)),
                    ("y2", number(middle_y)),
                    ("stroke", colour(index)),
                    ("stroke-width", "2".to_owned()),
                ],
            );
            svg.text(
                "legend-entry",
                &[
                    ("x", number(left + LEGEND_SAMPLE)),
                    ("y", number(middle_y + 4.0)),
                ],
                curve.label,
            );
        }
        svg.close_group();
    }
    svg.close_group();
    svg.finish()
}

/// Reads result directories written by `rl run` and draws their learning curves on shared
/// axes: one curve per directory (its `summary.csv`: the mean evaluation return per check,
/// with a band of ± the standard deviation over runs), in the order given, each named in the
/// legend by the directory as given and, when it has an `experiment.json`, its agent, domain
/// and number of runs (`results-q: q-learning on GridWorld-4x5, 8 runs`). `title` defaults to
/// the domain when all directories share one.
///
/// Nothing is drawn unless every directory reads: no directory, more than
/// [`PLOT_DIRECTORIES_LIMIT`], a path that is not a directory, a directory without
/// `summary.csv`, or a `summary.csv` or `experiment.json` that does not parse (the error names
/// the file and, for the CSV, the line) is an error.
pub fn overlay_directories(
    directories: &[PathBuf],
    title: Option<&str>,
) -> Result<String, ExperimentError> {
    if directories.is_empty() {
        return Err(ExperimentError::invalid(
            "directories",
            "give at least one directory written by `rl run`",
        ));
    }
    if directories.len() > PLOT_DIRECTORIES_LIMIT {
        return Err(ExperimentError::invalid(
            "directories",
            format!(
                "{} given, but one plot overlays at most {PLOT_DIRECTORIES_LIMIT}",
                directories.len()
            ),
        ));
    }
    let mut labels = Vec::with_capacity(directories.len());
    let mut series = Vec::with_capacity(directories.len());
    let mut domains = Vec::with_capacity(directories.len());
    for directory in directories {
        let rows = read_summary(directory)?;
        let config = read_experiment(directory)?;
        let runs = rows.first().map_or(0, |row| row.runs);
        labels.push(match &config {
            Some(config) => format!(
                "{}: {} on {}, {runs} run{}",
                directory.display(),
                config.agent,
                config.domain,
                if runs == 1 { "" } else { "s" }
            ),
            None => directory.display().to_string(),
        });
        domains.push(config.map(|config| config.domain));
        series.push(
            rows.iter()
                .map(|row| CurvePoint {
                    steps: row.learning_steps as f64,
                    mean: row.return_mean,
                    std: row.return_std,
                })
                .collect::<Vec<_>>(),
        );
    }
    let curves: Vec<Curve<'_>> = labels
        .iter()
        .zip(&series)
        .map(|(label, points)| Curve { label, points })
        .collect();
    let title = match (title, &domains[0]) {
        (Some(title), _) => title.to_owned(),
        (None, Some(domain)) if domains.iter().all(|d| d.as_ref() == Some(domain)) => {
            format!("evaluation return on {domain}")
        }
        (None, _) => "evaluation return".to_owned(),
    };
    Ok(learning_curves_svg(&curves, &title))
}

/// The arguments of `rl plot` (its help text is in the command line's `Plot` variant).
#[derive(Debug, clap::Args)]
pub(crate) struct PlotArgs {
    /// Result directories written by `rl run` (1 to 16), drawn in this order.
    #[arg(required = true, value_name = "DIR")]
    directories: Vec<PathBuf>,
    /// The SVG file to write: a name ending in .svg; an existing file there is replaced, but a
    /// link, named pipe, device or directory is refused.
    #[arg(long)]
    out: PathBuf,
    /// The plot's title (default: "evaluation return on DOMAIN" when every directory ran the
    /// same domain).
    #[arg(long)]
    title: Option<String>,
}

impl PlotArgs {
    /// Reads the directories, draws them and writes the picture to `--out` (creating its
    /// directory), returning the path written. Nothing is written when a directory does not
    /// read, when `--out` does not end in `.svg`, or when it names something other than a regular
    /// file ([`check_replaceable`](crate::results::check_replaceable)).
    pub(crate) fn write(&self) -> Result<&Path, ExperimentError> {
        crate::cli::check_out_file(&self.out, crate::cli::OutputFormat::Svg, "`rl plot`", "")?;
        let svg = overlay_directories(&self.directories, self.title.as_deref())?;
        if let Some(parent) = self.out.parent().filter(|p| !p.as_os_str().is_empty()) {
            crate::results::create_dir_all_durably(parent)
                .map_err(|e| ExperimentError::io(parent, &e))?;
        }
        write_atomically(&self.out, svg.as_bytes())?;
        Ok(&self.out)
    }
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

    #[test]
    fn several_curves_share_the_axes_and_each_has_its_colour_and_legend_entry() {
        let rising: Vec<CurvePoint> = (0..4)
            .map(|i| CurvePoint {
                steps: i as f64 * 100.0,
                mean: i as f64,
                std: 0.5,
            })
            .collect();
        let flat: Vec<CurvePoint> = (0..7)
            .map(|i| CurvePoint {
                steps: i as f64 * 1000.0,
                mean: -2.0,
                std: 0.0,
            })
            .collect();
        let svg = learning_curves_svg(
            &[
                Curve {
                    label: "first <a>",
                    points: &rising,
                },
                Curve {
                    label: "second",
                    points: &flat,
                },
            ],
            "two",
        );
        let series: Vec<&str> = svg.split(r#"<g class="series">"#).skip(1).collect();
        assert_eq!(series.len(), 2);
        assert_eq!(series[0].matches(r#"class="check""#).count(), 4);
        assert_eq!(series[1].matches(r#"class="check""#).count(), 7);
        assert!(series[0].contains(&format!(r#"stroke="{}""#, CURVE_COLOURS[0])));
        assert!(series[1].contains(&format!(r#"stroke="{}""#, CURVE_COLOURS[1])));
        assert_eq!(svg.matches(r#"class="band""#).count(), 2);
        assert!(svg.contains(r#"class="legend-entry""#));
        assert!(svg.contains(">first &lt;a&gt;</text>") && svg.contains(">second</text>"));
        // The horizontal axis reaches the longer curve's last check; the vertical one covers
        // both curves' bands.
        assert!(svg.contains(">6000</text>"), "{svg}");
        assert!(
            svg.contains(">-2</text>") && svg.contains(">2</text>"),
            "{svg}"
        );
        // The legend widens the picture beyond the plot's own width.
        assert!(!svg.contains(r#"width="720""#), "{svg}");
    }

    #[test]
    fn one_unlabelled_curve_has_no_legend_and_the_usual_size() {
        let points = [CurvePoint {
            steps: 10.0,
            mean: 1.0,
            std: 0.1,
        }];
        let svg = learning_curve_svg(&points, "alone");
        assert!(!svg.contains("legend"));
        assert!(svg.contains(r#"width="720" height="440""#), "{svg}");
        assert!(svg.contains(&format!(r#"fill="{}""#, CURVE_COLOURS[0])));
    }

    #[test]
    fn the_colours_are_distinct_and_a_long_legend_fits_in_the_picture() {
        let mut colours = CURVE_COLOURS.to_vec();
        colours.sort_unstable();
        colours.dedup();
        assert_eq!(colours.len(), CURVE_COLOURS.len());
        let points = [CurvePoint {
            steps: 0.0,
            mean: 0.0,
            std: 0.0,
        }];
        let names: Vec<String> = (0..30).map(|i| format!("curve {i}")).collect();
        let curves: Vec<Curve<'_>> = names
            .iter()
            .map(|label| Curve {
                label,
                points: &points,
            })
            .collect();
        let svg = learning_curves_svg(&curves, "many");
        let height = TOP + LEGEND_LINE * 30.0 + BOTTOM;
        assert!(
            svg.contains(&format!(r#"height="{}""#, number(height))),
            "{svg}"
        );
        assert_eq!(svg.matches(r#"class="legend-entry""#).count(), 30);
    }
}
