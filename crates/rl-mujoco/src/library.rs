//! Finding and opening libmujoco at run time: the file named by `RL_MUJOCO_LIBRARY`, else the
//! one the Python `mujoco` package ships (found through a Python interpreter), checked
//! against the supported versions' struct layouts. Building and testing the workspace needs no
//! MuJoCo; making a MuJoCo id without one is an error that says how to get it.
//!
//! This file and `simulation.rs` are the crate's only `unsafe` code (ARCHITECTURE.md,
//! "Unsafe code"): calls into the C library through the function pointers read here.

use std::ffi::{CStr, c_char, c_int, c_void};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::error::MujocoError;
use crate::layout::{Layout, supported_versions, version_text};

/// The environment variable naming the libmujoco file to open (`libmujoco.so.4.0.0`,
/// `libmujoco.4.0.0.dylib`, `mujoco.dll`), which wins over every other place.
pub const LIBRARY_VARIABLE: &str = "RL_MUJOCO_LIBRARY";

/// The environment variable naming the Python interpreter whose `mujoco` package ships the
/// library; without it, `python3` then `python` on `PATH` are asked.
pub const PYTHON_VARIABLE: &str = "RL_MUJOCO_PYTHON";

/// How to get the library, for error messages.
pub(crate) const HOW_TO_GET: &str = "install MuJoCo's Python package (`pip install mujoco`, or \
`pip install mujoco-core` for the library alone) in the Python on PATH or the one named by \
RL_MUJOCO_PYTHON, or set RL_MUJOCO_LIBRARY to the path of a libmujoco file";

/// Where to look for the library.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LibrarySource {
    /// `RL_MUJOCO_LIBRARY`, else the Python of `RL_MUJOCO_PYTHON`, else `python3` and
    /// `python` on `PATH`.
    Default,
    /// This libmujoco file.
    File(PathBuf),
    /// The `mujoco` package of this Python interpreter.
    Python(PathBuf),
}

/// The C functions rl-mujoco calls (`mujoco.h`), read once when the library opens.
#[derive(Clone, Copy)]
pub(crate) struct Functions {
    pub(crate) load_xml:
        unsafe extern "C" fn(*const c_char, *const c_void, *mut c_char, c_int) -> *mut c_void,
    pub(crate) parse_xml_string:
        unsafe extern "C" fn(*const c_char, *const c_void, *mut c_char, c_int) -> *mut c_void,
    pub(crate) compile: unsafe extern "C" fn(*mut c_void, *const c_void) -> *mut c_void,
    pub(crate) spec_error: unsafe extern "C" fn(*mut c_void) -> *const c_char,
    pub(crate) delete_spec: unsafe extern "C" fn(*mut c_void),
    pub(crate) delete_model: unsafe extern "C" fn(*mut c_void),
    pub(crate) make_data: unsafe extern "C" fn(*const c_void) -> *mut c_void,
    pub(crate) copy_data:
        unsafe extern "C" fn(*mut c_void, *const c_void, *const c_void) -> *mut c_void,
    pub(crate) delete_data: unsafe extern "C" fn(*mut c_void),
    pub(crate) reset_data: unsafe extern "C" fn(*const c_void, *mut c_void),
    pub(crate) forward: unsafe extern "C" fn(*const c_void, *mut c_void),
    pub(crate) step: unsafe extern "C" fn(*const c_void, *mut c_void),
    pub(crate) rne_post_constraint: unsafe extern "C" fn(*const c_void, *mut c_void),
    pub(crate) name_to_id: unsafe extern "C" fn(*const c_void, c_int, *const c_char) -> c_int,
    pub(crate) size_model: unsafe extern "C" fn(*const c_void) -> i64,
    pub(crate) save_model: unsafe extern "C" fn(*const c_void, *const c_char, *mut c_void, i64),
}

/// The opened MuJoCo library: its file, its version and the layout of its structs. Opened
/// once per process ([`library`]) and never closed.
pub struct Library {
    path: PathBuf,
    version: i32,
    pub(crate) layout: &'static Layout,
    pub(crate) functions: Functions,
    /// Keeps the library mapped (the function pointers point into it).
    _library: libloading::Library,
}

impl std::fmt::Debug for Library {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Library")
            .field("path", &self.path)
            .field("version", &self.version_text())
            .finish_non_exhaustive()
    }
}

impl Library {
    /// The file it was opened from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `mj_version()`: `major * 1_000_000 + minor * 1000 + patch` (4000000 for 4.0.0).
    pub fn version(&self) -> i32 {
        self.version
    }

    /// The version as `major.minor.patch`.
    pub fn version_text(&self) -> String {
        version_text(self.version)
    }

    /// Opens `path`, reads its functions and checks its version against the supported
    /// layouts.
    #[allow(unsafe_code)]
    fn open(path: &Path) -> Result<Library, MujocoError> {
        let failed = |reason: String| MujocoError::Library {
            path: path.to_owned(),
            reason,
        };
        // SAFETY: opening a shared library runs its initialisers; libmujoco's are MuJoCo's
        // own (the Python package opens the same file the same way).
        let library = unsafe { libloading::Library::new(path) }
            .map_err(|error| failed(format!("cannot open it: {error}")))?;
        macro_rules! function {
            ($name:literal) => {
                // SAFETY: the symbol is MuJoCo's C function of this name, whose signature
                // (mujoco.h, unchanged from 3.x to 4.0) is the field's type.
                *unsafe { library.get(concat!($name, "\0").as_bytes()) }
                    .map_err(|error| failed(format!("it has no {}: {error}", $name)))?
            };
        }
        let version_function: unsafe extern "C" fn() -> c_int = function!("mj_version");
        let functions = Functions {
            load_xml: function!("mj_loadXML"),
            parse_xml_string: function!("mj_parseXMLString"),
            compile: function!("mj_compile"),
            spec_error: function!("mjs_getError"),
            delete_spec: function!("mj_deleteSpec"),
            delete_model: function!("mj_deleteModel"),
            make_data: function!("mj_makeData"),
            copy_data: function!("mj_copyData"),
            delete_data: function!("mj_deleteData"),
            reset_data: function!("mj_resetData"),
            forward: function!("mj_forward"),
            step: function!("mj_step"),
            rne_post_constraint: function!("mj_rnePostConstraint"),
            name_to_id: function!("mj_name2id"),
            size_model: function!("mj_sizeModel"),
            save_model: function!("mj_saveModel"),
        };
        // SAFETY: `mj_version` takes nothing and returns an int.
        let version = unsafe { version_function() };
        // MuJoCo's warnings go to stdout and to a file MUJOCO_LOG.TXT in the working directory
        // unless a handler is set: send them to stderr instead, unless someone (the Python
        // bindings, in a Python process) set one already.
        // SAFETY: the symbol is MuJoCo's global `void (*mju_user_warning)(const char*)`, read
        // and written here once, while the library is opened under the process's `OnceLock`.
        unsafe {
            let slot: libloading::Symbol<'_, *mut Option<unsafe extern "C" fn(*const c_char)>> =
                library
                    .get(b"mju_user_warning\0")
                    .map_err(|error| failed(format!("it has no mju_user_warning: {error}")))?;
            let slot: *mut Option<unsafe extern "C" fn(*const c_char)> = *slot;
            if (*slot).is_none() {
                *slot = Some(print_warning);
            }
        }
        let layout = Layout::of_version(version)
            .filter(|layout| layout.is_consistent())
            .ok_or_else(|| {
                failed(format!(
                    "MuJoCo {} is not supported (rl-mujoco knows the struct layouts of {}); \
                     install one of those (`pip install mujoco==4.0.0`)",
                    version_text(version),
                    supported_versions()
                ))
            })?;
        Ok(Library {
            path: path.to_owned(),
            version,
            layout,
            functions,
            _library: library,
        })
    }
}

/// The process's library, opened on the first call from `source` (later calls return it
/// whatever their source). Fails, on every call, when the first could not open one.
///
/// ```
/// match rl_mujoco::library::library() {
///     Ok(library) => assert!(library.version() >= 3_000_000),
///     Err(error) => assert!(error.to_string().contains("pip install mujoco")),
/// }
/// ```
pub fn library() -> Result<&'static Library, MujocoError> {
    load(LibrarySource::Default)
}

/// Where the workspace's own tests and tools look for the library: the `mujoco` package of
/// the developers' virtualenv under `workspace` (`target/rl-python-venv`, which
/// `crates/rl-python/venv.sh`, CI's step `venv`, makes), unless `RL_MUJOCO_LIBRARY` or
/// `RL_MUJOCO_PYTHON` name another or there is no such virtualenv ([`LibrarySource::Default`]
/// then).
///
/// ```
/// use std::path::Path;
/// use rl_mujoco::library::{LibrarySource, workspace_source};
///
/// // A directory without the virtualenv: the default search.
/// assert_eq!(workspace_source(Path::new("/nonexistent")), LibrarySource::Default);
/// ```
pub fn workspace_source(workspace: &std::path::Path) -> LibrarySource {
    let venv = workspace.join("target/rl-python-venv/bin/python");
    let configured =
        std::env::var_os(LIBRARY_VARIABLE).is_some() || std::env::var_os(PYTHON_VARIABLE).is_some();
    if !configured && venv.exists() {
        LibrarySource::Python(venv)
    } else {
        LibrarySource::Default
    }
}

/// The process's library, opened from `source` if no library was opened yet; otherwise the
/// library already open (or the first attempt's error), whatever `source` says.
pub fn load(source: LibrarySource) -> Result<&'static Library, MujocoError> {
    static LIBRARY: OnceLock<Result<Library, MujocoError>> = OnceLock::new();
    LIBRARY
        .get_or_init(|| open_from(&source))
        .as_ref()
        .map_err(Clone::clone)
}

/// Opens the library `source` names.
fn open_from(source: &LibrarySource) -> Result<Library, MujocoError> {
    match source {
        LibrarySource::File(path) => Library::open(path),
        LibrarySource::Python(python) => {
            let path =
                library_of_python(python).map_err(|tried| MujocoError::NotFound { tried })?;
            Library::open(&path)
        }
        LibrarySource::Default => {
            if let Some(path) = std::env::var_os(LIBRARY_VARIABLE) {
                return Library::open(Path::new(&path));
            }
            let mut tried = Vec::new();
            let pythons: Vec<PathBuf> = match std::env::var_os(PYTHON_VARIABLE) {
                Some(python) => vec![PathBuf::from(python)],
                None => vec![PathBuf::from("python3"), PathBuf::from("python")],
            };
            for python in &pythons {
                match library_of_python(python) {
                    Ok(path) => return Library::open(&path),
                    Err(reason) => tried.push(reason),
                }
            }
            Err(MujocoError::NotFound {
                tried: tried.join("; "),
            })
        }
    }
}

/// The libmujoco file of `python`'s `mujoco` package, found without importing it, or why
/// not (naming the interpreter).
fn library_of_python(python: &Path) -> Result<PathBuf, String> {
    const FIND: &str = "import importlib.util as u\n\
s = u.find_spec('mujoco')\n\
print(s.submodule_search_locations[0] if s and s.submodule_search_locations else '')";
    let missing = |reason: String| format!("{}: {reason}", python.display());
    let output = Command::new(python)
        .args(["-c", FIND])
        .output()
        .map_err(|error| missing(format!("cannot run it ({error})")))?;
    let directory = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    if !output.status.success() || directory.is_empty() {
        return Err(missing("no `mujoco` package".to_owned()));
    }
    library_in(Path::new(&directory))
        .ok_or_else(|| missing(format!("no libmujoco file in {directory}")))
}

/// The libmujoco file in a `mujoco` package directory (Linux `libmujoco.so.X.Y.Z`, macOS
/// `libmujoco.X.Y.Z.dylib`, Windows `mujoco.dll`), the last in name order if several.
pub fn library_in(directory: &Path) -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(directory)
        .ok()?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| {
                    name.starts_with("libmujoco.so")
                        || (name.starts_with("libmujoco") && name.ends_with(".dylib"))
                        || name == "mujoco.dll"
                })
        })
        .collect();
    found.sort();
    found.pop()
}

/// MuJoCo's warning handler: the message on stderr, the first time it comes (a model compiled
/// once per environment of a vector would repeat its compiler's warning for each), never
/// panicking, since it is called from C.
extern "C" fn print_warning(message: *const c_char) {
    use std::collections::HashSet;
    use std::io::Write;
    use std::sync::Mutex;
    static SEEN: Mutex<Option<HashSet<String>>> = Mutex::new(None);
    let text = c_text(message);
    let first = match SEEN.lock() {
        Ok(mut seen) => seen.get_or_insert_with(HashSet::new).insert(text.clone()),
        Err(_) => true,
    };
    if first {
        let _ = writeln!(std::io::stderr(), "MuJoCo warning: {text}");
    }
}

/// A C string MuJoCo returned, as text (empty for a null pointer).
#[allow(unsafe_code)]
pub(crate) fn c_text(text: *const c_char) -> String {
    if text.is_null() {
        return String::new();
    }
    // SAFETY: MuJoCo returns null or a NUL-terminated string that lives as long as its owner,
    // which outlives this call.
    unsafe { CStr::from_ptr(text) }
        .to_string_lossy()
        .into_owned()
}

/// Text from a buffer MuJoCo wrote a NUL-terminated message into.
pub(crate) fn buffer_text(buffer: &[u8]) -> String {
    let end = buffer
        .iter()
        .position(|&byte| byte == 0)
        .unwrap_or(buffer.len());
    String::from_utf8_lossy(&buffer[..end]).trim().to_owned()
}
