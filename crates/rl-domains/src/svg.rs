//! A small writer of self-contained SVG pictures: the workspace's one SVG writer, used by every
//! domain's rendering and by rl-experiment's learning curves.
//!
//! Pictures are written directly as text: no dependency, no allocation beyond the string.
//! Every shape carries a `class` naming what it shows (`cell goal`, `agent`, `cart`, ...),
//! so that a reader, a test or a style sheet can find it.
//!
//! ```
//! use rl_domains::svg::{Svg, number};
//!
//! let mut svg = Svg::new(100.0, 50.0, "one dot");
//! svg.element("circle", "dot", &[("cx", number(50.0)), ("cy", number(25.0)), ("r", "3".to_owned())]);
//! let text = svg.finish();
//! assert!(text.contains(r#"<circle class="dot" cx="50" cy="25" r="3"/>"#));
//! ```

use std::fmt::Write;

/// An SVG document being written.
#[derive(Debug, Clone)]
pub struct Svg {
    /// The text written so far.
    out: String,
}

impl Svg {
    /// Opens a document of `width` by `height` pixels with a `<title>` and a white background.
    pub fn new(width: f64, height: f64, title: &str) -> Svg {
        let mut out = String::with_capacity(4096);
        let (width, height) = (number(width), number(height));
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"#
        );
        let _ = write!(out, "<title>{}</title>", escape(title));
        let mut svg = Svg { out };
        svg.element(
            "rect",
            "background",
            &[
                ("x", "0".to_owned()),
                ("y", "0".to_owned()),
                ("width", width),
                ("height", height),
                ("fill", "#ffffff".to_owned()),
            ],
        );
        svg
    }

    /// Writes an empty element `<name class="..." attributes.../>`.
    pub fn element(&mut self, name: &str, class: &str, attributes: &[(&str, String)]) {
        self.start_tag(name, class, attributes);
        self.out.push_str("/>");
    }

    /// Writes `<text class="..." attributes...>content</text>`.
    pub fn text(&mut self, class: &str, attributes: &[(&str, String)], content: &str) {
        self.start_tag("text", class, attributes);
        self.out.push('>');
        self.out.push_str(&escape(content));
        self.out.push_str("</text>");
    }

    /// Opens a group `<g class="...">`; [`Svg::close_group`] closes it.
    pub fn open_group(&mut self, class: &str) {
        self.start_tag("g", class, &[]);
        self.out.push('>');
    }

    /// Opens a group `<g class="..." attributes...>` whose attributes (such as `font-size`)
    /// its elements inherit; [`Svg::close_group`] closes it.
    pub fn open_group_with(&mut self, class: &str, attributes: &[(&str, String)]) {
        self.start_tag("g", class, attributes);
        self.out.push('>');
    }

    /// Closes the group opened last.
    pub fn close_group(&mut self) {
        self.out.push_str("</g>");
    }

    /// Closes the document and returns its text.
    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }

    /// Writes `<name class="..." attributes...` without closing the tag; an empty class is left out.
    fn start_tag(&mut self, name: &str, class: &str, attributes: &[(&str, String)]) {
        let _ = write!(self.out, "<{name}");
        if !class.is_empty() {
            let _ = write!(self.out, r#" class="{}""#, escape(class));
        }
        for (key, value) in attributes {
            let _ = write!(self.out, r#" {key}="{}""#, escape(value));
        }
    }
}

/// A coordinate or length for an attribute: at most two decimals, and 0 for a non-finite
/// value (SVG has no NaN), so that a picture of a diverged state still parses.
pub fn number(value: f64) -> String {
    if !value.is_finite() {
        return "0".to_owned();
    }
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    match text {
        "" | "-" | "-0" => "0".to_owned(),
        other => other.to_owned(),
    }
}

/// Escapes the characters that XML reserves in text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_finite() {
        assert_eq!(number(12.0), "12");
        assert_eq!(number(0.125), "0.12");
        assert_eq!(number(-0.001), "0");
        assert_eq!(number(-3.5), "-3.5");
        assert_eq!(number(f64::NAN), "0");
        assert_eq!(number(f64::INFINITY), "0");
    }

    #[test]
    fn documents_are_closed_and_escaped() {
        let mut svg = Svg::new(10.0, 20.0, "a < b & c");
        svg.open_group("cells");
        svg.element("rect", "cell", &[("x", number(1.0))]);
        svg.close_group();
        svg.text("label", &[], "\"quoted\"");
        let text = svg.finish();
        assert!(text.starts_with("<svg "));
        assert!(text.ends_with("</svg>\n"));
        assert!(text.contains("<title>a &lt; b &amp; c</title>"));
        assert!(text.contains(r#"<g class="cells"><rect class="cell" x="1"/></g>"#));
        assert!(text.contains("&quot;quoted&quot;"));
    }
}
