//! The models: Gymnasium 1.4.0's MJCF files (`gymnasium/envs/mujoco/assets`, MIT licence,
//! `assets/LICENSE-gymnasium`), carried byte for byte in this crate's `assets/` directory so
//! that no Python package is needed for them, and the rule that turns an `xml_file` parameter
//! into a model ([`ModelSource`]), Gymnasium's `expand_model_path`.

use std::path::PathBuf;

/// The asset files, by the names Gymnasium's `xml_file` uses.
const ASSETS: [(&str, &str); 13] = [
    ("ant.xml", include_str!("../assets/ant.xml")),
    (
        "half_cheetah.xml",
        include_str!("../assets/half_cheetah.xml"),
    ),
    ("hopper.xml", include_str!("../assets/hopper.xml")),
    ("humanoid.xml", include_str!("../assets/humanoid.xml")),
    (
        "humanoidstandup.xml",
        include_str!("../assets/humanoidstandup.xml"),
    ),
    (
        "inverted_double_pendulum.xml",
        include_str!("../assets/inverted_double_pendulum.xml"),
    ),
    (
        "inverted_pendulum.xml",
        include_str!("../assets/inverted_pendulum.xml"),
    ),
    ("pusher.xml", include_str!("../assets/pusher.xml")),
    ("pusher_v5.xml", include_str!("../assets/pusher_v5.xml")),
    ("reacher.xml", include_str!("../assets/reacher.xml")),
    ("swimmer.xml", include_str!("../assets/swimmer.xml")),
    ("walker2d.xml", include_str!("../assets/walker2d.xml")),
    ("walker2d_v5.xml", include_str!("../assets/walker2d_v5.xml")),
];

/// The names of the carried model files.
pub fn asset_names() -> impl Iterator<Item = &'static str> {
    ASSETS.iter().map(|(name, _)| *name)
}

/// The text of the carried model file `name`, or `None`.
pub fn asset(name: &str) -> Option<&'static str> {
    ASSETS
        .iter()
        .find(|(asset, _)| *asset == name)
        .map(|(_, text)| *text)
}

/// Where a model comes from, read from an `xml_file` parameter as Gymnasium reads it: a
/// value starting with `.` or `/` is a path, one starting with `~` a path in the home
/// directory, anything else the name of one of Gymnasium's model files (carried here).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelSource {
    /// A carried model file, by name, with its text.
    Asset(&'static str, &'static str),
    /// A file of the user's.
    Path(PathBuf),
}

impl ModelSource {
    /// The source of `xml_file`; an unknown asset name is an error listing the known ones.
    pub fn from_xml_file(xml_file: &str) -> Result<ModelSource, String> {
        if xml_file.starts_with('.') || xml_file.starts_with('/') {
            return Ok(ModelSource::Path(PathBuf::from(xml_file)));
        }
        if let Some(rest) = xml_file.strip_prefix('~') {
            let home = std::env::var_os("HOME")
                .or_else(|| std::env::var_os("USERPROFILE"))
                .ok_or_else(|| format!("{xml_file}: no home directory to expand `~` in"))?;
            let rest = rest.trim_start_matches(['/', '\\']);
            return Ok(ModelSource::Path(PathBuf::from(home).join(rest)));
        }
        ASSETS
            .iter()
            .find(|(name, _)| *name == xml_file)
            .map(|(name, text)| ModelSource::Asset(name, text))
            .ok_or_else(|| {
                format!(
                    "{xml_file} is not one of Gymnasium's model files ({}); give a path \
                     starting with `.`, `/` or `~` for a file of your own",
                    asset_names().collect::<Vec<_>>().join(", ")
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_paths_and_unknown_names() {
        assert!(matches!(
            ModelSource::from_xml_file("hopper.xml"),
            Ok(ModelSource::Asset("hopper.xml", text)) if text.contains("<mujoco")
        ));
        assert_eq!(
            ModelSource::from_xml_file("./my.xml"),
            Ok(ModelSource::Path(PathBuf::from("./my.xml")))
        );
        assert_eq!(
            ModelSource::from_xml_file("/tmp/my.xml"),
            Ok(ModelSource::Path(PathBuf::from("/tmp/my.xml")))
        );
        let error = ModelSource::from_xml_file("hoper.xml").unwrap_err();
        assert!(error.contains("hopper.xml"), "{error}");
        assert_eq!(asset_names().count(), 13);
    }
}
