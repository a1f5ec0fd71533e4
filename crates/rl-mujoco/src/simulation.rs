//! [`Model`] and [`Data`]: owned `mjModel` and `mjData` of the loaded library, with the few
//! fields rl-mujoco reads exposed as slices through the version's [`Layout`], and MuJoCo's
//! functions (`mj_resetData`, `mj_forward`, `mj_step`, `mj_rnePostConstraint`, ...) as
//! methods.
//!
//! This file and `library.rs` are the crate's only `unsafe` code (ARCHITECTURE.md, "Unsafe
//! code"). The invariants every `unsafe` block below relies on: a `Model` owns a valid
//! `mjModel` of [`Library`] (made by MuJoCo, deleted once, in `drop`); a `Data` owns a valid
//! `mjData` made for its `Model`, which it keeps alive through an [`Arc`]; the sizes read from
//! the model are the lengths MuJoCo allocated the arrays with; a shared borrow of a `Data`
//! only reads, a mutable borrow is the only way to write or step.

use std::ffi::{CString, c_void};
use std::fmt;
use std::path::Path;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::error::MujocoError;
use crate::layout::{Field, Layout};
use crate::library::{Library, buffer_text, c_text};

/// The sizes of a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sizes {
    /// Generalised coordinates (`nq`, the length of `qpos`).
    pub nq: usize,
    /// Degrees of freedom (`nv`, the length of `qvel`).
    pub nv: usize,
    /// Controls (`nu`, the length of `ctrl`).
    pub nu: usize,
    /// Activations (`na`).
    pub na: usize,
    /// Bodies, the world body included (`nbody`).
    pub nbody: usize,
    /// Sites (`nsite`).
    pub nsite: usize,
    /// Tendons (`ntendon`).
    pub ntendon: usize,
    /// Plugins (`nplugin`).
    pub nplugin: usize,
    /// At least the bytes `mj_makeData` allocates for one state: its arena (`narena`, the stack
    /// included), the `mjData` struct itself, and the model's own buffer size
    /// (`mjModel.nbuffer`) standing in for the state's buffer, which `mj_makeData` sizes from
    /// the model and which is smaller (Hopper-v5: 9 KB against 519 KB): an over-estimate by
    /// well under a megabyte, on the safe side of the memory checks that read it.
    pub data_bytes: usize,
}

/// A compiled MuJoCo model (`mjModel`), read-only once built.
pub struct Model {
    pointer: NonNull<c_void>,
    library: &'static Library,
    sizes: Sizes,
    name: String,
    /// The `mjData` of dropped states, kept (up to [`SPARE_DATA`]) for the next clones, so that
    /// a clone of a state reuses one rather than allocating a new `mjData` (its arena, about
    /// 14 MB for Gymnasium's models): what stepping a state by `Domain::step`, which clones it,
    /// would otherwise cost on every step.
    spare: Mutex<Vec<SpareData>>,
    /// How many `mjData` were made for it (`mj_makeData`).
    made: AtomicUsize,
}

/// How many dropped `mjData` a model keeps for reuse: enough for a few threads that each
/// clone a state and drop the one before.
const SPARE_DATA: usize = 8;

/// An `mjData` of a model that no `Data` owns, kept for reuse.
struct SpareData(NonNull<c_void>);

// SAFETY: an mjData that nothing reads or writes until a `Data` takes it back, moved between
// threads whole (as `Data` is `Send`).
#[allow(unsafe_code)]
unsafe impl Send for SpareData {}

// SAFETY: an mjModel is never written after compilation (every function this crate calls
// takes it `const`), so it may be shared and sent between threads; MuJoCo's own thread pools
// share one model between many mjData.
#[allow(unsafe_code)]
unsafe impl Send for Model {}
// SAFETY: as for `Send`: only read after compilation.
#[allow(unsafe_code)]
unsafe impl Sync for Model {}

impl fmt::Debug for Model {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("Model")
            .field("name", &self.name)
            .field("sizes", &self.sizes)
            .finish_non_exhaustive()
    }
}

/// Reads an integer size field (4 or 8 bytes, as the layout says) of a struct at `base`.
///
/// # Safety
/// `base` points to a live struct of the layout's version and `field` is one of its fields.
#[allow(unsafe_code)]
unsafe fn read_size(base: *const u8, field: Field) -> usize {
    // SAFETY: the caller's promise; the offsets come from the version's headers.
    let value = unsafe {
        if field.size == 4 {
            i64::from(base.add(field.offset).cast::<i32>().read_unaligned())
        } else {
            base.add(field.offset).cast::<i64>().read_unaligned()
        }
    };
    usize::try_from(value).unwrap_or(0)
}

/// Reads a pointer (or `mjtNum`) field of a struct at `base`.
///
/// # Safety
/// As for [`read_size`].
#[allow(unsafe_code)]
unsafe fn read_word<T: Copy>(base: *const u8, field: Field) -> T {
    // SAFETY: the caller's promise.
    unsafe { base.add(field.offset).cast::<T>().read_unaligned() }
}

impl Model {
    /// Compiles a model from MJCF text (`mj_parseXMLString`, `mj_compile`); `name` names it in
    /// errors. The text must not reference other files (meshes, includes).
    #[allow(unsafe_code)]
    pub fn from_xml_text(
        library: &'static Library,
        name: &str,
        xml: &str,
    ) -> Result<Model, MujocoError> {
        let failed = |reason: String| MujocoError::Model {
            model: name.to_owned(),
            reason,
        };
        let text = CString::new(xml).map_err(|_| failed("the text holds a NUL byte".into()))?;
        let mut error = vec![0u8; 1000];
        let functions = &library.functions;
        // SAFETY: a NUL-terminated string, no VFS, and an error buffer of the length given.
        let spec = unsafe {
            (functions.parse_xml_string)(
                text.as_ptr(),
                std::ptr::null(),
                error.as_mut_ptr().cast(),
                error.len() as i32,
            )
        };
        if spec.is_null() {
            return Err(failed(buffer_text(&error)));
        }
        // SAFETY: `spec` is the live spec just parsed, with no VFS.
        let model = unsafe { (functions.compile)(spec, std::ptr::null()) };
        let result = if model.is_null() {
            // SAFETY: the spec is live; its error text is read before it is deleted.
            Err(failed(c_text(unsafe { (functions.spec_error)(spec) })))
        } else {
            Ok(model)
        };
        // SAFETY: the spec is deleted once; the compiled model does not refer to it.
        unsafe { (functions.delete_spec)(spec) };
        Model::wrap(library, name, result?)
    }

    /// Loads a model from an MJCF or MJB file (`mj_loadXML`), with the files it references.
    #[allow(unsafe_code)]
    pub fn from_xml_path(library: &'static Library, path: &Path) -> Result<Model, MujocoError> {
        let name = path.display().to_string();
        let failed = |reason: String| MujocoError::Model {
            model: name.clone(),
            reason,
        };
        let text = path
            .to_str()
            .and_then(|text| CString::new(text).ok())
            .ok_or_else(|| failed("the path is not UTF-8 text without NUL bytes".into()))?;
        let mut error = vec![0u8; 1000];
        // SAFETY: a NUL-terminated path, no VFS, and an error buffer of the length given.
        let model = unsafe {
            (library.functions.load_xml)(
                text.as_ptr(),
                std::ptr::null(),
                error.as_mut_ptr().cast(),
                error.len() as i32,
            )
        };
        if model.is_null() {
            return Err(failed(buffer_text(&error)));
        }
        Model::wrap(library, &name, model)
    }

    /// Takes ownership of a compiled model.
    #[allow(unsafe_code)]
    fn wrap(
        library: &'static Library,
        name: &str,
        model: *mut c_void,
    ) -> Result<Model, MujocoError> {
        let pointer = NonNull::new(model).ok_or_else(|| MujocoError::Model {
            model: name.to_owned(),
            reason: "MuJoCo returned no model".into(),
        })?;
        let layout = library.layout;
        let base = pointer.as_ptr().cast::<u8>().cast_const();
        // SAFETY: a live mjModel of this library's version.
        let sizes = unsafe {
            Sizes {
                nq: read_size(base, layout.model_nq),
                nv: read_size(base, layout.model_nv),
                nu: read_size(base, layout.model_nu),
                na: read_size(base, layout.model_na),
                nbody: read_size(base, layout.model_nbody),
                nsite: read_size(base, layout.model_nsite),
                ntendon: read_size(base, layout.model_ntendon),
                nplugin: read_size(base, layout.model_nplugin),
                data_bytes: read_size(base, layout.model_narena)
                    .saturating_add(read_size(base, layout.model_nbuffer))
                    .saturating_add(layout.data_size),
            }
        };
        Ok(Model {
            pointer,
            library,
            sizes,
            name: name.to_owned(),
            spare: Mutex::new(Vec::with_capacity(SPARE_DATA)),
            made: AtomicUsize::new(0),
        })
    }

    /// The library the model belongs to.
    pub fn library(&self) -> &'static Library {
        self.library
    }

    /// The model's sizes.
    pub fn sizes(&self) -> Sizes {
        self.sizes
    }

    /// The file or name it was loaded from.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How many `mjData` have been made for this model (`mj_makeData`, by [`Data::new`] and
    /// by clones that found no dropped one to reuse): what shows that stepping by clones
    /// allocates no new state.
    pub fn data_made(&self) -> usize {
        self.made.load(Ordering::Relaxed)
    }

    fn layout(&self) -> &'static Layout {
        self.library.layout
    }

    fn base(&self) -> *const u8 {
        self.pointer.as_ptr().cast::<u8>().cast_const()
    }

    /// A `mjtNum` array field of `len` entries.
    #[allow(unsafe_code)]
    fn array(&self, field: Field, len: usize) -> &[f64] {
        // SAFETY: a live model; the array pointer MuJoCo allocated holds `len` numbers (the
        // lengths the callers pass are the model's own sizes times the field's width).
        unsafe {
            let pointer: *const f64 = read_word(self.base(), field);
            if pointer.is_null() || len == 0 {
                &[]
            } else {
                std::slice::from_raw_parts(pointer, len)
            }
        }
    }

    /// The simulation time step (`opt.timestep`).
    #[allow(unsafe_code)]
    pub fn timestep(&self) -> f64 {
        // SAFETY: a live model; `opt.timestep` is an mjtNum.
        unsafe { read_word(self.base(), self.layout().model_timestep) }
    }

    /// The reference configuration (`qpos0`, `nq` entries).
    pub fn qpos0(&self) -> &[f64] {
        self.array(self.layout().model_qpos0, self.sizes.nq)
    }

    /// The bodies' masses (`body_mass`, `nbody` entries).
    pub fn body_mass(&self) -> &[f64] {
        self.array(self.layout().model_body_mass, self.sizes.nbody)
    }

    /// The actuators' control ranges (`actuator_ctrlrange`, `nu` pairs `[low, high]`).
    pub fn actuator_ctrlrange(&self) -> &[f64] {
        self.array(self.layout().model_actuator_ctrlrange, 2 * self.sizes.nu)
    }

    /// The index of the body `name` (`mj_name2id`), or `None` without such a body.
    pub fn body_id(&self, name: &str) -> Option<usize> {
        self.name_to_id(self.layout().object_body, name)
    }

    /// The index of the site `name`, or `None` without such a site.
    pub fn site_id(&self, name: &str) -> Option<usize> {
        self.name_to_id(self.layout().object_site, name)
    }

    #[allow(unsafe_code)]
    fn name_to_id(&self, kind: i32, name: &str) -> Option<usize> {
        let text = CString::new(name).ok()?;
        // SAFETY: a live model, an object type of this version and a NUL-terminated name.
        let id = unsafe {
            (self.library.functions.name_to_id)(self.pointer.as_ptr(), kind, text.as_ptr())
        };
        usize::try_from(id).ok()
    }

    /// The model saved in MuJoCo's binary format (`mj_saveModel` into a buffer): two models
    /// with the same bytes are the same model.
    #[allow(unsafe_code)]
    pub fn to_binary(&self) -> Vec<u8> {
        let functions = &self.library.functions;
        // SAFETY: a live model.
        let size = unsafe { (functions.size_model)(self.pointer.as_ptr()) };
        let mut buffer = vec![0u8; usize::try_from(size).unwrap_or(0)];
        // SAFETY: a live model, no file name, and a buffer of the size MuJoCo asked for.
        unsafe {
            (functions.save_model)(
                self.pointer.as_ptr(),
                std::ptr::null(),
                buffer.as_mut_ptr().cast(),
                size,
            );
        }
        buffer
    }
}

impl Drop for Model {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        let spare = self.spare.get_mut().unwrap_or_else(PoisonError::into_inner);
        for SpareData(data) in spare.drain(..) {
            // SAFETY: a spare mjData of this model, owned by nothing else, deleted once.
            unsafe { (self.library.functions.delete_data)(data.as_ptr()) };
        }
        // SAFETY: the model is owned, live, and deleted once; every `Data` made for it holds
        // an `Arc` of it, so none outlives it, and its spare data were deleted above.
        unsafe { (self.library.functions.delete_model)(self.pointer.as_ptr()) };
    }
}

/// A simulation state of a [`Model`] (`mjData`): cloned by `mj_copyData`, stepped in place.
pub struct Data {
    pointer: NonNull<c_void>,
    model: Arc<Model>,
}

// SAFETY: an mjData is owned by one `Data`; it is only written through `&mut Data`, and reads
// through `&Data` touch no shared mutable state (MuJoCo's functions keep none outside mjData).
#[allow(unsafe_code)]
unsafe impl Send for Data {}
// SAFETY: as for `Send`: shared borrows only read.
#[allow(unsafe_code)]
unsafe impl Sync for Data {}

impl fmt::Debug for Data {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("Data")
            .field("time", &self.time())
            .field("qpos", &self.qpos())
            .field("qvel", &self.qvel())
            .finish_non_exhaustive()
    }
}

impl Data {
    /// A fresh state of `model` (`mj_makeData`: the reference configuration, at rest).
    #[allow(unsafe_code)]
    ///
    /// # Errors
    /// [`MujocoError::OutOfMemory`] when the memory the state needs cannot be had: MuJoCo's own
    /// allocation failure ends the process (its error handler exits), so the bytes are first
    /// reserved and released here, and a state that would not fit is refused before MuJoCo
    /// allocates it.
    pub fn new(model: Arc<Model>) -> Result<Data, MujocoError> {
        let bytes = model.sizes.data_bytes;
        let mut probe: Vec<u8> = Vec::new();
        if probe.try_reserve_exact(bytes).is_err() {
            return Err(MujocoError::OutOfMemory {
                model: model.name.clone(),
                bytes,
            });
        }
        drop(probe);
        // SAFETY: a live model.
        let data = unsafe { (model.library.functions.make_data)(model.pointer.as_ptr()) };
        let pointer = NonNull::new(data).ok_or_else(|| MujocoError::Model {
            model: model.name.clone(),
            reason: "MuJoCo could not allocate its data (mj_makeData)".into(),
        })?;
        model.made.fetch_add(1, Ordering::Relaxed);
        Ok(Data { pointer, model })
    }

    /// The model.
    pub fn model(&self) -> &Arc<Model> {
        &self.model
    }

    fn base(&self) -> *const u8 {
        self.pointer.as_ptr().cast::<u8>().cast_const()
    }

    fn functions(&self) -> &crate::library::Functions {
        &self.model.library.functions
    }

    /// A `mjtNum` array field of `len` numbers.
    #[allow(unsafe_code)]
    fn array(&self, field: Field, len: usize) -> &[f64] {
        // SAFETY: a live mjData of this model; MuJoCo allocated `len` numbers (the model's
        // size times the field's width) at the pointer.
        unsafe {
            let pointer: *const f64 = read_word(self.base(), field);
            if pointer.is_null() || len == 0 {
                &[]
            } else {
                std::slice::from_raw_parts(pointer, len)
            }
        }
    }

    /// A `mjtNum` array field of `len` numbers, writable.
    #[allow(unsafe_code)]
    fn array_mut(&mut self, field: Field, len: usize) -> &mut [f64] {
        // SAFETY: as for `array`, and `&mut self` makes this the only borrow of the data.
        unsafe {
            let pointer: *mut f64 = read_word(self.base(), field);
            if pointer.is_null() || len == 0 {
                &mut []
            } else {
                std::slice::from_raw_parts_mut(pointer, len)
            }
        }
    }

    fn layout(&self) -> &'static Layout {
        self.model.library.layout
    }

    /// The simulation time (`time`).
    #[allow(unsafe_code)]
    pub fn time(&self) -> f64 {
        // SAFETY: a live mjData; `time` is an mjtNum.
        unsafe { read_word(self.base(), self.layout().data_time) }
    }

    /// The positions (`qpos`, `nq`).
    pub fn qpos(&self) -> &[f64] {
        self.array(self.layout().data_qpos, self.model.sizes.nq)
    }

    /// The positions, writable.
    pub fn qpos_mut(&mut self) -> &mut [f64] {
        let len = self.model.sizes.nq;
        self.array_mut(self.layout().data_qpos, len)
    }

    /// The velocities (`qvel`, `nv`).
    pub fn qvel(&self) -> &[f64] {
        self.array(self.layout().data_qvel, self.model.sizes.nv)
    }

    /// The velocities, writable.
    pub fn qvel_mut(&mut self) -> &mut [f64] {
        let len = self.model.sizes.nv;
        self.array_mut(self.layout().data_qvel, len)
    }

    /// The controls (`ctrl`, `nu`).
    pub fn ctrl(&self) -> &[f64] {
        self.array(self.layout().data_ctrl, self.model.sizes.nu)
    }

    /// The controls, writable.
    pub fn ctrl_mut(&mut self) -> &mut [f64] {
        let len = self.model.sizes.nu;
        self.array_mut(self.layout().data_ctrl, len)
    }

    /// The actuator activations (`act`, `na`).
    pub fn act(&self) -> &[f64] {
        self.array(self.layout().data_act, self.model.sizes.na)
    }

    /// The bodies' frame positions (`xpos`, `nbody x 3`).
    pub fn xpos(&self) -> &[f64] {
        self.array(self.layout().data_xpos, 3 * self.model.sizes.nbody)
    }

    /// The bodies' centres of mass (`xipos`, `nbody x 3`).
    pub fn xipos(&self) -> &[f64] {
        self.array(self.layout().data_xipos, 3 * self.model.sizes.nbody)
    }

    /// The sites' positions (`site_xpos`, `nsite x 3`).
    pub fn site_xpos(&self) -> &[f64] {
        self.array(self.layout().data_site_xpos, 3 * self.model.sizes.nsite)
    }

    /// The subtrees' centres of mass (`subtree_com`, `nbody x 3`).
    pub fn subtree_com(&self) -> &[f64] {
        self.array(self.layout().data_subtree_com, 3 * self.model.sizes.nbody)
    }

    /// The bodies' com-based inertias (`cinert`, `nbody x 10`).
    pub fn cinert(&self) -> &[f64] {
        self.array(self.layout().data_cinert, 10 * self.model.sizes.nbody)
    }

    /// The bodies' com-based velocities (`cvel`, `nbody x 6`).
    pub fn cvel(&self) -> &[f64] {
        self.array(self.layout().data_cvel, 6 * self.model.sizes.nbody)
    }

    /// The actuator forces in joint space (`qfrc_actuator`, `nv`).
    pub fn qfrc_actuator(&self) -> &[f64] {
        self.array(self.layout().data_qfrc_actuator, self.model.sizes.nv)
    }

    /// The com-based external forces on the bodies (`cfrc_ext`, `nbody x 6`).
    pub fn cfrc_ext(&self) -> &[f64] {
        self.array(self.layout().data_cfrc_ext, 6 * self.model.sizes.nbody)
    }

    /// The constraint forces in joint space (`qfrc_constraint`, `nv`).
    pub fn qfrc_constraint(&self) -> &[f64] {
        self.array(self.layout().data_qfrc_constraint, self.model.sizes.nv)
    }

    /// The tendons' lengths (`ten_length`, `ntendon`).
    pub fn ten_length(&self) -> &[f64] {
        self.array(self.layout().data_ten_length, self.model.sizes.ntendon)
    }

    /// The tendons' velocities (`ten_velocity`, `ntendon`).
    pub fn ten_velocity(&self) -> &[f64] {
        self.array(self.layout().data_ten_velocity, self.model.sizes.ntendon)
    }

    /// `mj_resetData`: back to the reference configuration, at rest, time 0.
    #[allow(unsafe_code)]
    pub fn reset(&mut self) {
        // SAFETY: a live model and its live data, borrowed mutably.
        unsafe { (self.functions().reset_data)(self.model.pointer.as_ptr(), self.pointer.as_ptr()) }
    }

    /// `mj_forward`: the derived quantities of the current state.
    #[allow(unsafe_code)]
    pub fn forward(&mut self) {
        // SAFETY: as for `reset`.
        unsafe { (self.functions().forward)(self.model.pointer.as_ptr(), self.pointer.as_ptr()) }
    }

    /// `mj_step`, `count` times (what the Python bindings' `mj_step(m, d, nstep=count)` does).
    #[allow(unsafe_code)]
    pub fn step(&mut self, count: u32) {
        let step = self.functions().step;
        for _ in 0..count {
            // SAFETY: as for `reset`.
            unsafe { step(self.model.pointer.as_ptr(), self.pointer.as_ptr()) }
        }
    }

    /// `mj_rnePostConstraint`: the bodies' forces after the constraints (`cfrc_ext`, ...).
    #[allow(unsafe_code)]
    pub fn rne_post_constraint(&mut self) {
        // SAFETY: as for `reset`.
        unsafe {
            (self.functions().rne_post_constraint)(
                self.model.pointer.as_ptr(),
                self.pointer.as_ptr(),
            )
        }
    }

    /// Copies `source`, a state of the same model, over this one (`mj_copyData`, no
    /// allocation); returns false, copying nothing, when the models differ.
    #[allow(unsafe_code)]
    pub fn copy_from(&mut self, source: &Data) -> bool {
        if !Arc::ptr_eq(&self.model, &source.model) {
            return false;
        }
        // SAFETY: two live mjData of the same live model; `self` is borrowed mutably and is
        // not `source` (a shared and a mutable borrow cannot alias).
        unsafe {
            (self.functions().copy_data)(
                self.pointer.as_ptr(),
                self.model.pointer.as_ptr(),
                source.pointer.as_ptr(),
            );
        }
        true
    }
}

impl Data {
    /// The length of [`to_bytes`](Self::to_bytes)' bytes: 8 and the main buffer's
    /// (`nbuffer` of the `mjData`, the same for every state of a model).
    #[allow(unsafe_code)]
    pub fn bytes_len(&self) -> usize {
        // SAFETY: a live mjData; `nbuffer` is one of its size fields.
        8 + unsafe { read_size(self.base(), self.layout().data_nbuffer) }
    }

    /// This state as bytes, or `None` for a model with plugins (their data are pointers): the
    /// simulation time (`time`, 8 bytes, little-endian) then the main buffer's `nbuffer`
    /// bytes as they lie in memory (native byte order), which hold every array of numbers of
    /// the state: the integration state (`qpos`, `qvel`, `act`, `qacc_warmstart`, `ctrl`,
    /// the applied forces, ...) and everything MuJoCo derived during the last step (`xpos`,
    /// `xipos`, `cinert`, `cvel`, `cfrc_ext`, ...), so that a state read back by
    /// [`set_bytes`](Self::set_bytes) observes, steps and draws as this one, bit for bit.
    /// Left out: the arena (the last step's contacts and constraint rows, which the next step
    /// computes afresh before reading them) and the struct's counters and statistics.
    #[allow(unsafe_code)]
    pub fn to_bytes(&self) -> Option<Vec<u8>> {
        if self.model.sizes.nplugin > 0 {
            return None;
        }
        let len = self.bytes_len() - 8;
        let mut bytes = Vec::with_capacity(len + 8);
        bytes.extend_from_slice(&self.time().to_le_bytes());
        // SAFETY: a live mjData, whose `buffer` holds its `nbuffer` bytes (mj_makeData
        // allocated it so), only read.
        unsafe {
            let buffer: *const u8 = read_word(self.base(), self.layout().data_buffer);
            if !buffer.is_null() && len > 0 {
                bytes.extend_from_slice(std::slice::from_raw_parts(buffer, len));
            }
        }
        Some(bytes)
    }

    /// Sets this state from the bytes of [`to_bytes`](Self::to_bytes) of a state of the same
    /// model (compiled from the same file by the same MuJoCo version). Refuses, changing
    /// nothing, bytes of another length and a model with plugins.
    #[allow(unsafe_code)]
    pub fn set_bytes(&mut self, bytes: &[u8]) -> Result<(), MujocoError> {
        let refuse = |reason: String| MujocoError::Copy {
            model: self.model.name.clone(),
            reason,
        };
        if self.model.sizes.nplugin > 0 {
            return Err(refuse(
                "the model has plugins, whose data cannot be read back".into(),
            ));
        }
        let expected = self.bytes_len();
        if bytes.len() != expected {
            return Err(refuse(format!(
                "{} bytes given; a state of this model is {expected} bytes (8 for the time, \
                 {} for the buffer)",
                bytes.len(),
                expected - 8
            )));
        }
        let (time, buffer_bytes) = bytes.split_at(8);
        let mut word = [0u8; 8];
        word.copy_from_slice(time);
        let time = f64::from_le_bytes(word);
        let layout = self.layout();
        let base = self.pointer.as_ptr().cast::<u8>();
        // SAFETY: a live mjData borrowed mutably: `time` is an mjtNum of the struct, and
        // `buffer` holds its `nbuffer` bytes, the length of `buffer_bytes` (checked above);
        // neither overlaps a Rust borrow.
        unsafe {
            base.add(layout.data_time.offset)
                .cast::<f64>()
                .write_unaligned(time);
            let buffer: *mut u8 = read_word(base.cast_const(), layout.data_buffer);
            if !buffer.is_null() && !buffer_bytes.is_empty() {
                std::ptr::copy_nonoverlapping(buffer_bytes.as_ptr(), buffer, buffer_bytes.len());
            }
        }
        Ok(())
    }

    /// The `mjData` itself, for MuJoCo calls made elsewhere (valid while this `Data` lives;
    /// writing through it is the caller's `unsafe` business).
    pub fn as_ptr(&self) -> NonNull<c_void> {
        self.pointer
    }

    /// Copies this state over the `mjData` at `destination`, made elsewhere in the process
    /// (the Python bindings' `mujoco.MjData(model)._address`) for a model compiled from the
    /// same file by the same library: `mj_copyData`, everything included (the kinematics
    /// MuJoCo computed during the last `mj_step`, the contacts), which is what a renderer reads.
    /// Refuses, copying nothing, a destination whose arena or buffer is not this state's size
    /// (a model compiled from something else), with an error naming both sizes.
    ///
    /// # Safety
    /// `destination` points to a live `mjData` made by `mj_makeData` of this very library (the
    /// same loaded file, as the Python `mujoco` package of the process whose
    /// `RL_MUJOCO_LIBRARY` it set), that nothing else reads or writes during the call.
    #[allow(unsafe_code)]
    pub unsafe fn copy_into_raw(&self, destination: NonNull<c_void>) -> Result<(), MujocoError> {
        let layout = self.layout();
        let mine = self.base();
        let theirs = destination.as_ptr().cast::<u8>().cast_const();
        // SAFETY: `mine` is this live mjData; `theirs` is a live mjData of this library by the
        // caller's promise; both fields are the version's `narena` and `nbuffer`.
        let (sizes, their_sizes) = unsafe {
            (
                (
                    read_size(mine, layout.data_narena),
                    read_size(mine, layout.data_nbuffer),
                ),
                (
                    read_size(theirs, layout.data_narena),
                    read_size(theirs, layout.data_nbuffer),
                ),
            )
        };
        if sizes != their_sizes {
            return Err(MujocoError::Copy {
                model: self.model.name.clone(),
                reason: format!(
                    "the destination mjData has an arena of {} bytes and a buffer of {} bytes, \
                     this state {} and {}: it was made for another model",
                    their_sizes.0, their_sizes.1, sizes.0, sizes.1
                ),
            });
        }
        // SAFETY: two live mjData of this library of the same sizes (checked above), `self`
        // only read, the destination written by nobody else (the caller's promise).
        unsafe {
            (self.functions().copy_data)(
                destination.as_ptr(),
                self.model.pointer.as_ptr(),
                self.pointer.as_ptr(),
            );
        }
        Ok(())
    }
}

impl Clone for Data {
    /// An `mjData` holding a copy of this one (`mj_copyData`): one the model kept from a
    /// dropped state where it has one (no allocation), else a new one (`mj_makeData`).
    ///
    /// # Panics
    /// When MuJoCo cannot allocate a new copy (out of memory).
    fn clone(&self) -> Data {
        let spare = self
            .model
            .spare
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let mut copy = match spare {
            Some(SpareData(pointer)) => Data {
                pointer,
                model: Arc::clone(&self.model),
            },
            None => Data::new(Arc::clone(&self.model))
                .unwrap_or_else(|error| panic!("cloning MuJoCo data: {error}")),
        };
        copy.copy_from(self);
        copy
    }

    fn clone_from(&mut self, source: &Data) {
        if !self.copy_from(source) {
            *self = source.clone();
        }
    }
}

impl Drop for Data {
    /// Hands the `mjData` to the model for the next clone (up to 8 of them),
    /// else deletes it.
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        let mut spare = self
            .model
            .spare
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if spare.len() < SPARE_DATA {
            spare.push(SpareData(self.pointer));
            return;
        }
        drop(spare);
        // SAFETY: the data is owned, live, and deleted once.
        unsafe { (self.functions().delete_data)(self.pointer.as_ptr()) };
    }
}
