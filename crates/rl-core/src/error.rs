//! The one error type of this crate, [`CoreError`].

use std::fmt;

use rl_spaces::SpaceError;

/// Why an environment needs a reset before it can step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResetReason {
    /// `step` was called before the first `reset`.
    NotStarted,
    /// The episode ended (terminated or truncated) on an earlier step.
    EpisodeEnded,
}

/// Everything that can go wrong when stepping or configuring an environment.
///
/// Stepping never panics on bad input: an action outside the action space, a step before the
/// first reset or after the end of an episode each give one of these.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CoreError {
    /// `step` was called when no episode is running; call `reset` first.
    #[error("{}", needs_reset_message(*.0))]
    NeedsReset(ResetReason),
    /// The action is not an element of the action space.
    #[error("invalid action {action}: not an element of the action space {space}")]
    InvalidAction {
        /// The action: a typed action printed with `Debug`, a dynamic
        /// [`AnyElement`](rl_spaces::AnyElement) with its `Display` (`[NaN]`, as a user writes it).
        action: String,
        /// The action space, printed with `Display`.
        space: String,
    },
    /// A parameter of an environment, a wrapper or a checker is invalid.
    #[error("invalid parameter `{name}`: {reason}")]
    InvalidParameter {
        /// The parameter's name.
        name: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// The environment does not support this operation (for example saving the random state
    /// of a black-box simulator).
    #[error("this environment does not support `{operation}`")]
    Unsupported {
        /// The operation, such as `"random_state"`.
        operation: &'static str,
    },
    /// An error from a space (for example while converting an element).
    #[error("{0}")]
    Space(#[from] SpaceError),
    /// No domain is registered under the id.
    #[error("{}", unknown_id_message(.id, .known))]
    UnknownId {
        /// The id asked for.
        id: String,
        /// Every registered id.
        known: Vec<String>,
    },
    /// A domain is already registered under the id.
    #[error("id `{id}` is already registered")]
    DuplicateId {
        /// The id registered twice.
        id: String,
    },
    /// The JSON parameters given for an id do not read as its parameter type.
    #[error("{}", invalid_parameters_message(.id, .path, .reason))]
    InvalidParameters {
        /// The id.
        id: String,
        /// The JSON path of the bad value (`noise`, `links[1].mass`), empty for the whole
        /// object.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Writing an output (a video, a picture) failed.
    #[error("could not write {target}: {reason}")]
    Output {
        /// What was being written, such as a file's path.
        target: String,
        /// The reason, such as the operating system's message.
        reason: String,
    },
    /// The registered constructor rejected the parameters.
    #[error("invalid parameters for `{id}`: {reason}")]
    InvalidDomain {
        /// The id.
        id: String,
        /// The constructor's error.
        reason: String,
    },
}

impl CoreError {
    /// Builds [`CoreError::InvalidAction`] from an action and a space.
    pub fn invalid_action(action: &impl fmt::Debug, space: &impl fmt::Display) -> Self {
        CoreError::InvalidAction {
            action: format!("{action:?}"),
            space: space.to_string(),
        }
    }

    /// Builds [`CoreError::InvalidParameter`].
    pub fn invalid_parameter(name: &'static str, reason: impl Into<String>) -> Self {
        CoreError::InvalidParameter {
            name,
            reason: reason.into(),
        }
    }
}

/// The message of [`CoreError::NeedsReset`], which depends on why a reset is needed.
fn needs_reset_message(reason: ResetReason) -> &'static str {
    match reason {
        ResetReason::NotStarted => "step called before the first reset: call reset first",
        ResetReason::EpisodeEnded => {
            "step called after the episode ended (terminated or truncated): call reset first"
        }
    }
}

/// The most lines of registered ids the message of [`CoreError::UnknownId`] lists; beyond
/// that it lists a few of each prefix and says how many more there are.
const LISTED_ID_LINES: usize = 28;

/// The message of [`CoreError::UnknownId`]: the id, the closest registered id when one is close
/// enough ([`closest_id`]), and the registered ids one per line, grouped by
/// [prefix](crate::registry::id_prefix), at most [`LISTED_ID_LINES`] lines of them.
fn unknown_id_message(id: &str, known: &[String]) -> String {
    let mut message = format!("unknown id `{id}`");
    if known.is_empty() {
        message.push_str(": no id is registered");
        return message;
    }
    if let Some(closest) = closest_id(id, known) {
        message.push_str(&format!("; did you mean `{closest}`?"));
    }
    message.push_str("\nregistered ids, by prefix:");
    // The prefixes in order of their first id, each with its ids in registration order.
    let mut prefixes: Vec<(&str, Vec<&str>)> = Vec::new();
    for known_id in known {
        let prefix = crate::registry::id_prefix(known_id);
        match prefixes.iter_mut().find(|(name, _)| *name == prefix) {
            Some((_, ids)) => ids.push(known_id),
            None => prefixes.push((prefix, vec![known_id])),
        }
    }
    // When the ids do not all fit, the lines are shared out prefix by prefix (one id of each
    // prefix, then a second of each, ...), so that every prefix shows (as far as the lines go)
    // and the last line says how many are left out.
    let mut shown = vec![0; prefixes.len()];
    if known.len() <= LISTED_ID_LINES {
        for (count, (_, ids)) in shown.iter_mut().zip(&prefixes) {
            *count = ids.len();
        }
    } else {
        let mut lines = LISTED_ID_LINES - 1;
        while lines > 0 {
            let before = lines;
            for (count, (_, ids)) in shown.iter_mut().zip(&prefixes) {
                if lines > 0 && *count < ids.len() {
                    *count += 1;
                    lines -= 1;
                }
            }
            if lines == before {
                break;
            }
        }
    }
    let width = prefixes
        .iter()
        .zip(&shown)
        .filter(|(_, count)| **count > 0)
        .map(|((prefix, _), _)| prefix.chars().count() + 1)
        .max()
        .unwrap_or(0);
    for ((prefix, ids), count) in prefixes.iter().zip(&shown) {
        for (index, known_id) in ids.iter().take(*count).enumerate() {
            let label = if index == 0 {
                format!("{prefix}:")
            } else {
                String::new()
            };
            message.push_str(&format!("\n  {label:<width$} {known_id}"));
        }
    }
    let left_out = known.len() - shown.iter().sum::<usize>();
    if left_out > 0 {
        message.push_str(&format!(
            "\n  and {left_out} more: `rl list` shows them all"
        ));
    }
    message
}

/// The registered id closest to `id` by edit distance, ignoring case, when it is close enough
/// to be what was meant: at most `max(2, len / 3)` edits for an id of `len` characters (the
/// earliest registered wins a tie). An id typed without its version (`cartpole`) is compared
/// with each id's name without the version too, so it finds `CartPole-v1`.
fn closest_id<'a>(id: &str, known: &'a [String]) -> Option<&'a str> {
    let wanted: Vec<char> = id.to_lowercase().chars().collect();
    let limit = (wanted.len() / 3).max(2);
    let has_version = split_version(id).is_some();
    known
        .iter()
        .map(|known_id| {
            // At least as many edits as the lengths differ: an id far longer or shorter than
            // a known one (a hostile 100 000-character id) is not compared character by
            // character.
            let distance_within_limit = |other: &str| {
                let other = other.to_lowercase();
                if wanted.len().abs_diff(other.chars().count()) > limit {
                    usize::MAX
                } else {
                    edit_distance(&wanted, &other)
                }
            };
            let mut distance = distance_within_limit(known_id);
            if let Some((name, _)) = split_version(known_id).filter(|_| !has_version) {
                distance = distance.min(distance_within_limit(name));
            }
            (distance, known_id)
        })
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, known_id)| known_id.as_str())
}

/// `id` split into its name and version number, as `CartPole` and `1` for `CartPole-v1`;
/// `None` when it does not end in `-v` and digits.
fn split_version(id: &str) -> Option<(&str, &str)> {
    id.rsplit_once("-v")
        .filter(|(_, version)| !version.is_empty() && version.bytes().all(|b| b.is_ascii_digit()))
}

/// The Levenshtein distance between `a` and `b` (insertions, deletions and substitutions of
/// characters).
fn edit_distance(a: &[char], b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, a_char) in a.iter().enumerate() {
        current[0] = i + 1;
        for (j, b_char) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(a_char != b_char);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// The message of [`CoreError::InvalidParameters`], which names the JSON path only when there
/// is one.
fn invalid_parameters_message(id: &str, path: &str, reason: &str) -> String {
    if path.is_empty() {
        format!("invalid parameters for `{id}`: {reason}")
    } else {
        format!("invalid parameters for `{id}` at `{path}`: {reason}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A registry like `rl-domains`' (a sample of its ids, not a copy of its table): one or two
    /// ids per family, with the near neighbours that make each suggestion below a choice
    /// (`FastCartPole-v1` beside `CartPole-v1`, `MountainCar-v0` beside
    /// `MountainCarContinuous-v0`, `GridWorld-3x3` beside `GridWorld-4x5`).
    fn builtin_ids() -> Vec<String> {
        [
            "CartPole-v1",
            "MountainCar-v0",
            "MountainCarContinuous-v0",
            "FastCartPole-v1",
            "Taxi-v4",
            "GridWorld-10x10-12ftml",
            "GridWorld-11x11-Rooms",
            "GridWorld-3x3",
            "GridWorld-4x5",
        ]
        .map(str::to_owned)
        .to_vec()
    }

    fn message(id: &str, known: &[String]) -> String {
        CoreError::UnknownId {
            id: id.to_owned(),
            known: known.to_vec(),
        }
        .to_string()
    }

    #[test]
    fn unknown_ids_suggest_the_closest_registered_id_when_it_is_close() {
        let known = builtin_ids();
        for (asked, meant) in [
            ("cartpole-v1", "CartPole-v1"),
            ("CartPole-v0", "CartPole-v1"),
            ("CartPol-v1", "CartPole-v1"),
            ("cartpole", "CartPole-v1"),
            ("taxi", "Taxi-v4"),
            ("Taxi-v3", "Taxi-v4"),
            ("MountainCarContinous-v0", "MountainCarContinuous-v0"),
            ("gridworld-4x4", "GridWorld-4x5"),
            ("GRIDWORLD-11X11-ROOMS", "GridWorld-11x11-Rooms"),
        ] {
            let text = message(asked, &known);
            let first = text.lines().next().unwrap_or_default();
            assert_eq!(
                first,
                format!("unknown id `{asked}`; did you mean `{meant}`?"),
                "{text}"
            );
        }
        // An id far longer than any known one gets no guess, and is not compared character
        // by character (the Python fuzz target's 100 000-character id).
        let long = "A".repeat(100_000);
        assert_eq!(closest_id(&long, &known), None);
        assert_eq!(closest_id("CartPole-v1-and-more", &known), None);
        for far in ["", "Humanoid-v5", "Breakout", "x", "GridWorld-9x9-Maze"] {
            let text = message(far, &known);
            assert!(!text.contains("did you mean"), "{far:?}: {text}");
            assert_eq!(
                text.lines().next(),
                Some(format!("unknown id `{far}`").as_str())
            );
        }
        // A tie goes to the id registered first.
        let tied = ["Chain-v1".to_owned(), "Chain-v2".to_owned()];
        assert!(message("Chain-v3", &tied).contains("did you mean `Chain-v1`?"));
    }

    #[test]
    fn unknown_ids_list_the_registered_ids_one_per_line_by_prefix() {
        let known = builtin_ids();
        let text = message("Nope-v0", &known);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "registered ids, by prefix:");
        assert_eq!(lines.len(), 2 + known.len(), "{text}");
        assert_eq!(lines[2], "  CartPole:              CartPole-v1");
        assert_eq!(lines[3], "  MountainCar:           MountainCar-v0");
        assert_eq!(lines[7], "  GridWorld:             GridWorld-10x10-12ftml");
        assert_eq!(lines[8], "                         GridWorld-11x11-Rooms");
        for (line, id) in lines[2..].iter().zip(&known) {
            assert!(line.ends_with(&format!(" {id}")), "{line:?} is not {id}");
        }
        assert!(
            !text.contains("register_builtins") && !text.contains("rl_"),
            "{text}"
        );
        assert_eq!(
            message("Nope-v0", &[]),
            "unknown id `Nope-v0`: no id is registered"
        );
    }

    #[test]
    fn a_long_list_of_ids_is_cut_short_with_every_prefix_shown() {
        let mut known: Vec<String> = (0..120).map(|i| format!("MiniGrid-Room{i}-v0")).collect();
        known.push("CartPole-v1".to_owned());
        known.extend((0..14).map(|i| format!("GridWorld-map{i}")));
        let text = message("Nope-v0", &known);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2 + LISTED_ID_LINES, "{text}");
        assert!(
            lines.iter().any(|line| line.contains("CartPole: ")),
            "{text}"
        );
        assert!(
            lines.iter().any(|line| line.contains("GridWorld: ")),
            "{text}"
        );
        assert!(
            lines.iter().any(|line| line.contains("MiniGrid: ")),
            "{text}"
        );
        let listed = LISTED_ID_LINES - 1;
        assert_eq!(
            lines.last().copied(),
            Some(
                format!(
                    "  and {} more: `rl list` shows them all",
                    known.len() - listed
                )
                .as_str()
            )
        );
        // Each listed line is a registered id.
        for line in &lines[2..lines.len() - 1] {
            let id = line.rsplit(' ').next().unwrap_or_default();
            assert!(known.iter().any(|known_id| known_id == id), "{line:?}");
        }
    }

    #[test]
    fn edit_distance_counts_insertions_deletions_and_substitutions() {
        let chars = |text: &str| text.chars().collect::<Vec<_>>();
        assert_eq!(edit_distance(&chars("kitten"), "sitting"), 3);
        assert_eq!(edit_distance(&chars(""), "abc"), 3);
        assert_eq!(edit_distance(&chars("abc"), ""), 3);
        assert_eq!(edit_distance(&chars("flaw"), "lawn"), 2);
        assert_eq!(edit_distance(&chars("same"), "same"), 0);
    }
}
