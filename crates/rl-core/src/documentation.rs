//! [`Documentation`]: a family of ids' text in the domain documentation template, carried by
//! the family's registrations so that whatever documents ids (the environment catalogue)
//! reads it from the registry, and its [`DocumentationSection`]s.

/// The documentation of a family of registered ids (CartPole's ids, or the ids of one
/// MiniGrid environment): the family's name and its text in the domain documentation
/// template, whose sections are Gymnasium's classic-control docstrings' (`# Description`,
/// `# Action space`, `# Observation space`, `# Rewards`, `# Starting state`, `# Episode end`,
/// `# Parameters`, `# Reference`, then any others, such as `# Differences from the
/// reference`).
///
/// The text is Markdown as rustdoc reads it, intra-doc links included: the file a domain's
/// rustdoc includes (`#[doc = include_str!("cartpole.md")]` on the domain type) is the text its
/// registrations carry ([`Registration::with_documentation`]), so that it is written once.
///
/// It may come in parts, merged section by section ([`sections`](Self::sections)): a family's
/// own text first, then text it shares with other families (each MiniGrid environment's own
/// text, then what every MiniGrid environment shares: the actions, the observations, the
/// common parameters).
///
/// ```
/// use rl_core::registry::Documentation;
///
/// const OWN: &str = "## Description\n\nCross the corridor.\n\n## Rewards\n\n1 at the end.\n";
/// const SHARED: &str =
///     "# Description\n\nA corridor of cells.\n\n# Observation space\n\n`Discrete(length)`.\n";
/// let documentation = Documentation::new("Corridor", &[OWN, SHARED]);
/// let sections = documentation.sections();
/// let headings: Vec<&str> = sections.iter().map(|s| s.heading.as_str()).collect();
/// assert_eq!(headings, ["Description", "Observation space", "Rewards"]);
/// assert_eq!(sections[0].body, "Cross the corridor.\n\nA corridor of cells.");
/// ```
///
/// [`Registration::with_documentation`]: crate::registry::Registration::with_documentation
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Documentation {
    family: &'static str,
    parts: &'static [&'static str],
}

/// One section of a family's [`Documentation`]: its heading and its Markdown body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentationSection {
    /// The heading's text, without its `#` marks (`Action space`); empty for the text before a
    /// part's first heading.
    pub heading: String,
    /// The section's Markdown, without leading and trailing blank lines. A heading inside it (a
    /// sub-section) is written one `#` deeper than the section's own heading would be at level
    /// 1: `## Sub-section`.
    pub body: String,
}

impl Documentation {
    /// The documentation of the ids of `family` (a name fit for a file name: `CartPole`,
    /// `MiniGrid-DoorKey`), from its text's `parts`, the family's own text first.
    pub const fn new(family: &'static str, parts: &'static [&'static str]) -> Documentation {
        Documentation { family, parts }
    }

    /// The family's name.
    pub fn family(&self) -> &'static str {
        self.family
    }

    /// The text's parts as given to [`new`](Self::new).
    pub fn parts(&self) -> &'static [&'static str] {
        self.parts
    }

    /// The template's sections, in order: every family's documentation has them (the
    /// environment catalogue checks it), Gymnasium's classic-control docstrings' sections.
    pub const TEMPLATE: [&'static str; 8] = [
        "Description",
        "Action space",
        "Observation space",
        "Rewards",
        "Starting state",
        "Episode end",
        "Parameters",
        "Reference",
    ];

    /// The sections of the text, its parts merged. In each part, a section opens at each
    /// heading of the part's highest level (`#`, or `##` for a text included below another
    /// heading) outside code blocks. A section whose heading an earlier part has is appended
    /// to that section's body (after a blank line). The sections are in the order of
    /// [`TEMPLATE`](Self::TEMPLATE); any other section (`Mission`, `Differences from the
    /// reference`) follows the template section it follows in its part, and the text before a
    /// part's first heading (a section without heading) comes first.
    pub fn sections(&self) -> Vec<DocumentationSection> {
        // Each section with its place: the rank of its template heading (or of the template
        // heading before it in its part, plus one half), then the order it was read in.
        let mut placed: Vec<((usize, usize), DocumentationSection)> = Vec::new();
        for part in self.parts {
            let mut rank = 0;
            for section in part_sections(part) {
                if let Some(template) = Self::TEMPLATE
                    .iter()
                    .position(|heading| *heading == section.heading)
                {
                    rank = 2 * template + 2;
                } else if !section.heading.is_empty() {
                    rank |= 1;
                }
                match placed
                    .iter_mut()
                    .find(|(_, existing)| existing.heading == section.heading)
                {
                    Some((_, existing)) => {
                        if !section.body.is_empty() {
                            if !existing.body.is_empty() {
                                existing.body.push_str("\n\n");
                            }
                            existing.body.push_str(&section.body);
                        }
                    }
                    None => {
                        let order = placed.len();
                        placed.push(((rank, order), section));
                    }
                }
            }
        }
        placed.sort_by_key(|(place, _)| *place);
        placed.into_iter().map(|(_, section)| section).collect()
    }
}

/// The level of a Markdown heading line (`## Rewards` is 2) and its text, or `None` for any
/// other line.
fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.bytes().take_while(|byte| *byte == b'#').count();
    let rest = &line[level..];
    if !(1..=6).contains(&level) || !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    Some((level, rest.trim().trim_end_matches('#').trim_end()))
}

/// Whether `line` opens or closes a fenced code block.
fn is_fence(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("```") || line.starts_with("~~~")
}

/// The lines of `text` with whether each is a heading outside code blocks.
fn classified(text: &str) -> Vec<(&str, Option<(usize, &str)>)> {
    let mut in_code = false;
    text.lines()
        .map(|line| {
            if is_fence(line) {
                in_code = !in_code;
                return (line, None);
            }
            (line, if in_code { None } else { heading(line) })
        })
        .collect()
}

/// The sections of one part (see [`Documentation::sections`]), sub-headings written relative
/// to a section at level 1.
fn part_sections(text: &str) -> Vec<DocumentationSection> {
    let lines = classified(text);
    let Some(top) = lines
        .iter()
        .filter_map(|(_, heading)| heading.map(|(level, _)| level))
        .min()
    else {
        let body: Vec<String> = text.lines().map(str::to_owned).collect();
        let section = section(String::new(), &body);
        return if section.body.is_empty() {
            Vec::new()
        } else {
            vec![section]
        };
    };
    let mut sections = Vec::new();
    let mut current = String::new();
    let mut body: Vec<String> = Vec::new();
    for (line, heading) in lines {
        match heading {
            Some((level, text)) if level == top => {
                if !current.is_empty() || body.iter().any(|line| !line.trim().is_empty()) {
                    sections.push(section(std::mem::take(&mut current), &body));
                }
                current = text.to_owned();
                body.clear();
            }
            Some((level, text)) => body.push(format!("{} {text}", "#".repeat(level - top + 1))),
            None => body.push(line.to_owned()),
        }
    }
    if !current.is_empty() || body.iter().any(|line| !line.trim().is_empty()) {
        sections.push(section(current, &body));
    }
    sections
}

/// A section of `heading` whose body is `lines` without leading and trailing blank lines.
fn section(heading: String, lines: &[String]) -> DocumentationSection {
    let first = lines.iter().position(|line| !line.trim().is_empty());
    let last = lines.iter().rposition(|line| !line.trim().is_empty());
    let body = match (first, last) {
        (Some(first), Some(last)) => lines[first..=last].join("\n"),
        _ => String::new(),
    };
    DocumentationSection { heading, body }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_blocks_are_not_split_and_sub_headings_are_relative() {
        const TEXT: &str = "Before.\n\n## Description\n\nText.\n\n### Detail\n\nMore.\n\n\
                            ```\n## not a heading\n```\n\n## Rewards\n\n1.\n";
        let sections = Documentation::new("Doc", &[TEXT]).sections();
        let headings: Vec<&str> = sections.iter().map(|s| s.heading.as_str()).collect();
        assert_eq!(headings, ["", "Description", "Rewards"]);
        assert_eq!(sections[0].body, "Before.");
        assert_eq!(
            sections[1].body,
            "Text.\n\n## Detail\n\nMore.\n\n```\n## not a heading\n```"
        );
        assert_eq!(sections[2].body, "1.");
    }

    #[test]
    fn parts_merge_keeping_each_order() {
        const OWN: &str =
            "# Description\n\nOwn.\n\n# Rewards\n\nOwn rewards.\n\n# Mission\n\nGo.\n";
        const SHARED: &str = "# Description\n\nShared.\n\n# Action space\n\nSeven.\n\n\
                              # Rewards\n\nFormula.\n\n# Reference\n\nminigrid.\n";
        let sections = Documentation::new("Doc", &[OWN, SHARED]).sections();
        let headings: Vec<&str> = sections.iter().map(|s| s.heading.as_str()).collect();
        assert_eq!(
            headings,
            [
                "Description",
                "Action space",
                "Rewards",
                "Mission",
                "Reference"
            ]
        );
        assert_eq!(sections[0].body, "Own.\n\nShared.");
        assert_eq!(sections[2].body, "Own rewards.\n\nFormula.");
    }

    #[test]
    fn a_text_without_headings_is_one_section_without_a_heading() {
        let sections = Documentation::new("Doc", &["\nJust text.\n", ""]).sections();
        assert_eq!(
            sections,
            [DocumentationSection {
                heading: String::new(),
                body: "Just text.".to_owned()
            }]
        );
    }
}
