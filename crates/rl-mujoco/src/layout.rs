//! The version-checked description of the MuJoCo structs: where each field rl-mujoco reads
//! lies in `mjModel` and `mjData` for one MuJoCo version ([`Layout`]), one entry per supported
//! version in the generated table (`layout_table.rs`, written by `scripts/mujoco_layout.py`
//! from each version's headers), picked by the loaded library's `mj_version()`.

use crate::layout_table::LAYOUTS;

/// One struct field: its byte offset in the struct and its size in bytes (4 or 8 for the
/// integer sizes, 8 for a `mjtNum` or a pointer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Field {
    /// `offsetof(struct, field)`.
    pub(crate) offset: usize,
    /// `sizeof(field)`.
    pub(crate) size: usize,
}

/// The fields rl-mujoco reads, for one MuJoCo version (`mjVERSION_HEADER`, `mj_version()`).
/// `model_*` are `mjModel` fields (sizes, `opt.timestep`, array pointers), `data_*` are
/// `mjData` fields (its arena's and buffer's sizes, `time`, array pointers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    pub(crate) version: i32,
    pub(crate) model_nq: Field,
    pub(crate) model_nv: Field,
    pub(crate) model_nu: Field,
    pub(crate) model_na: Field,
    pub(crate) model_nbody: Field,
    pub(crate) model_nsite: Field,
    pub(crate) model_ntendon: Field,
    pub(crate) model_narena: Field,
    pub(crate) model_nbuffer: Field,
    pub(crate) model_nplugin: Field,
    pub(crate) model_timestep: Field,
    pub(crate) model_qpos0: Field,
    pub(crate) model_body_mass: Field,
    pub(crate) model_actuator_ctrlrange: Field,
    pub(crate) data_narena: Field,
    pub(crate) data_nbuffer: Field,
    pub(crate) data_buffer: Field,
    pub(crate) data_time: Field,
    pub(crate) data_qpos: Field,
    pub(crate) data_qvel: Field,
    pub(crate) data_act: Field,
    pub(crate) data_ctrl: Field,
    pub(crate) data_xpos: Field,
    pub(crate) data_xipos: Field,
    pub(crate) data_site_xpos: Field,
    pub(crate) data_subtree_com: Field,
    pub(crate) data_cinert: Field,
    pub(crate) data_cvel: Field,
    pub(crate) data_qfrc_actuator: Field,
    pub(crate) data_cfrc_ext: Field,
    pub(crate) data_qfrc_constraint: Field,
    pub(crate) data_ten_length: Field,
    pub(crate) data_ten_velocity: Field,
    /// `mjOBJ_BODY`.
    pub(crate) object_body: i32,
    /// `mjOBJ_SITE`.
    pub(crate) object_site: i32,
    /// `sizeof(mjModel)`.
    pub(crate) model_size: usize,
    /// `sizeof(mjData)`.
    pub(crate) data_size: usize,
}

impl Layout {
    /// The layout of `version` (`mj_version()`), or `None` for a version without an entry.
    pub(crate) fn of_version(version: i32) -> Option<&'static Layout> {
        LAYOUTS.iter().find(|layout| layout.version == version)
    }

    /// Checks what the reading code assumes of every field: integer sizes of 4 or 8 bytes,
    /// 8-byte numbers and pointers, all inside their struct.
    pub(crate) fn is_consistent(&self) -> bool {
        let sizes = [
            self.model_nq,
            self.model_nv,
            self.model_nu,
            self.model_na,
            self.model_nbody,
            self.model_nsite,
            self.model_ntendon,
            self.model_narena,
            self.model_nbuffer,
            self.model_nplugin,
        ];
        let data_sizes = [self.data_narena, self.data_nbuffer];
        let words = [
            self.model_timestep,
            self.model_qpos0,
            self.model_body_mass,
            self.model_actuator_ctrlrange,
        ];
        let data = [
            self.data_buffer,
            self.data_time,
            self.data_qpos,
            self.data_qvel,
            self.data_act,
            self.data_ctrl,
            self.data_xpos,
            self.data_xipos,
            self.data_site_xpos,
            self.data_subtree_com,
            self.data_cinert,
            self.data_cvel,
            self.data_qfrc_actuator,
            self.data_cfrc_ext,
            self.data_qfrc_constraint,
            self.data_ten_length,
            self.data_ten_velocity,
        ];
        let fits = |field: &Field, size: usize| field.offset + field.size <= size;
        sizes
            .iter()
            .all(|field| matches!(field.size, 4 | 8) && fits(field, self.model_size))
            && data_sizes
                .iter()
                .all(|field| matches!(field.size, 4 | 8) && fits(field, self.data_size))
            && words
                .iter()
                .all(|field| field.size == 8 && fits(field, self.model_size))
            && data
                .iter()
                .all(|field| field.size == 8 && fits(field, self.data_size))
    }
}

/// The supported versions as MuJoCo writes them (`3.17.0, 4.0.0, ...`), oldest first.
pub(crate) fn supported_versions() -> String {
    LAYOUTS
        .iter()
        .map(|layout| version_text(layout.version))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `mj_version()`'s integer (`major * 1_000_000 + minor * 1000 + patch`) as `major.minor.patch`.
pub(crate) fn version_text(version: i32) -> String {
    format!(
        "{}.{}.{}",
        version / 1_000_000,
        version / 1000 % 1000,
        version % 1000
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layout_is_consistent_and_versions_read_back() {
        assert!(LAYOUTS.len() >= 2);
        for layout in LAYOUTS {
            assert!(layout.is_consistent(), "{layout:?}");
            assert_eq!(Layout::of_version(layout.version), Some(layout));
        }
        assert_eq!(version_text(4_000_000), "4.0.0");
        assert_eq!(version_text(3_017_000), "3.17.0");
        assert!(supported_versions().contains("4.0.0"));
        assert_eq!(Layout::of_version(2_002_002), None);
    }
}
