"""Gymnasium's MuJoCo v5 ids (``rlrs/Hopper-v5``, ...) with Gymnasium's render modes:
``"rgb_array"``, ``"depth_array"``, ``"rgbd_tuple"`` and ``"human"``.

The frames are Gymnasium's by construction: each environment keeps a ``mujoco.MjModel``
compiled from the same model file by the same MuJoCo library, a ``mujoco.MjData`` into which
the Rust state is copied whole before each frame (``mj_copyData``: the body positions MuJoCo
computed during the last ``mj_step``, the contacts, everything a renderer reads; recomputing
them from the positions with ``mj_forward`` would draw other pixels), and Gymnasium's own
``MujocoRenderer`` with the keyword arguments Gymnasium's v5 classes take (``width``,
``height``, ``camera_id``, ``camera_name``, ``default_camera_config``, ``max_geom``,
``visual_options``). The Rust core draws no MuJoCo frames itself.

Drawing needs OpenGL, as Gymnasium's environments do: ``MUJOCO_GL=egl`` (libEGL, Debian's
``libegl1``; headless), ``MUJOCO_GL=osmesa`` (``libosmesa6``; software), or a display for
``glfw`` (the only backend of ``"human"``). Without one, the first frame raises a
``RuntimeError`` saying so.
"""

from __future__ import annotations

import importlib
import os
from typing import Any, Callable

import numpy as np

from .env import RustEnv, _is_mujoco, core

__all__ = [
    "DEFAULT_CAMERA_CONFIGS",
    "DEFAULT_SIZE",
    "Frames",
    "MujocoEnv",
    "RENDER_KEYWORDS",
    "RENDER_MODES",
    "is_mujoco",
    "opengl_problem",
    "split_render_params",
]

# Gymnasium's MujocoEnv's render modes, in its order.
RENDER_MODES = ["human", "rgb_array", "depth_array", "rgbd_tuple"]
# The modes drawn off screen.
OFFSCREEN_MODES = ("rgb_array", "depth_array", "rgbd_tuple")
# Gymnasium's MujocoEnv's DEFAULT_SIZE, the frames' width and height.
DEFAULT_SIZE = 480
# The rendering keyword arguments of Gymnasium's v5 classes (MujocoEnv's), which the Rust
# core does not take: they never change the dynamics.
RENDER_KEYWORDS = (
    "width",
    "height",
    "camera_id",
    "camera_name",
    "default_camera_config",
    "max_geom",
    "visual_options",
)
# Each v5 class's default `default_camera_config` (Gymnasium 1.4.0's; tests/test_mujoco.py
# checks each against the class's own default).
DEFAULT_CAMERA_CONFIGS: dict[str, dict[str, Any] | None] = {
    "Ant-v5": {"distance": 4.0},
    "HalfCheetah-v5": {"distance": 4.0},
    "Hopper-v5": {
        "trackbodyid": 2,
        "distance": 3.0,
        "lookat": np.array((0.0, 0.0, 1.15)),
        "elevation": -20.0,
    },
    "Humanoid-v5": {
        "trackbodyid": 1,
        "distance": 4.0,
        "lookat": np.array((0.0, 0.0, 2.0)),
        "elevation": -20.0,
    },
    "HumanoidStandup-v5": {
        "trackbodyid": 1,
        "distance": 4.0,
        "lookat": np.array((0.0, 0.0, 0.8925)),
        "elevation": -20.0,
    },
    # Its module defines a camera configuration, but the class's default is None.
    "InvertedDoublePendulum-v5": None,
    "InvertedPendulum-v5": {"trackbodyid": 0, "distance": 2.04},
    "Pusher-v5": {"trackbodyid": -1, "distance": 4.0},
    "Reacher-v5": {"trackbodyid": 0},
    "Swimmer-v5": None,
    "Walker2d-v5": {
        "trackbodyid": 2,
        "distance": 4.0,
        "lookat": np.array((0.0, 0.0, 1.15)),
        "elevation": -20.0,
    },
}

# What to do where no OpenGL context can be made.
OPENGL_HELP = (
    "drawing MuJoCo frames needs OpenGL, as Gymnasium's MuJoCo environments do: set "
    "MUJOCO_GL=egl with libEGL installed (Debian/Ubuntu: apt install libegl1), or "
    "MUJOCO_GL=osmesa with OSMesa (apt install libosmesa6), or MUJOCO_GL=glfw with a display"
)

# The OpenGL backends Gymnasium's renderer tries without MUJOCO_GL, in its order, by the
# module of the Python mujoco package that makes their contexts.
_BACKENDS = {"glfw": "mujoco.glfw", "egl": "mujoco.egl", "osmesa": "mujoco.osmesa"}


def is_mujoco(env_id: str, core_module: str = "rlrs._core") -> bool:
    """Whether ``env_id`` is one of Gymnasium's MuJoCo v5 ids in the core ``core_module``."""
    return _is_mujoco(env_id, core_module)


def split_render_params(params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``params`` split into the Rust core's parameters and the rendering keyword arguments
    (:data:`RENDER_KEYWORDS`)."""
    physics = {key: value for key, value in params.items() if key not in RENDER_KEYWORDS}
    render = {key: value for key, value in params.items() if key in RENDER_KEYWORDS}
    return physics, render


def opengl_problem(backend: str | None = None) -> str | None:
    """``None`` where an OpenGL context can be made in this process the way Gymnasium's
    renderer makes one (the backend ``backend``, else ``MUJOCO_GL``'s, else glfw, egl and
    osmesa in turn), else why not (each backend tried and its error)."""
    backend = backend or os.environ.get("MUJOCO_GL")
    names = [backend] if backend else list(_BACKENDS)
    problems = []
    for name in names:
        if name not in _BACKENDS:
            problems.append(f"MUJOCO_GL={name!r} is none of {sorted(_BACKENDS)}")
            continue
        try:
            context = importlib.import_module(_BACKENDS[name]).GLContext(1, 1)
            context.make_current()
            context.free()
            return None
        except Exception as error:  # every way a backend fails: missing library, no display
            problems.append(f"{name}: {type(error).__name__}: {error}")
    return "; ".join(problems)


def _mujoco():
    """The Python ``mujoco`` package, or an ``ImportError`` saying how to get it."""
    try:
        import mujoco
    except ImportError as error:
        raise ImportError(
            "the frames of the MuJoCo ids are drawn by the Python mujoco package's renderer, as "
            "Gymnasium draws them: pip install mujoco"
        ) from error
    return mujoco


def _initialize_egl_display() -> None:
    """Initializes again the EGL display of the Python mujoco package's EGL backend, if it
    made one: another library of the process may have terminated it (SDL's, when pygame
    quits: seen in this package's tests after minigrid's windows), and new contexts on a
    terminated display fail (``EGL_NOT_INITIALIZED``). Initializing an initialized display
    does nothing (EGL 1.4, ``eglInitialize``)."""
    import sys

    egl = sys.modules.get("mujoco.egl")
    display = getattr(egl, "EGL_DISPLAY", None)
    if display is None:
        return
    try:
        egl.EGL.eglInitialize(display, None, None)
    except Exception:  # the context's own error, next, says what is wrong
        pass


def _check_display() -> None:
    """A ``RuntimeError`` where glfw finds no monitor to open ``"human"``'s window on (glfw
    itself would end the process: Gymnasium's window asks for the primary monitor's size)."""
    import warnings

    import glfw

    with warnings.catch_warnings():
        # glfw warns of its own failure too; the error below says it.
        warnings.simplefilter("ignore")
        ready = glfw.init() and glfw.get_primary_monitor() is not None
    if not ready:
        raise RuntimeError(
            'render_mode="human" opens a glfw window, which needs a display (glfw finds no '
            'monitor here); without one, draw frames with render_mode="rgb_array" and '
            "MUJOCO_GL=egl or MUJOCO_GL=osmesa"
        )


class Frames:
    """Draws the states of one MuJoCo environment through Gymnasium's ``MujocoRenderer``:
    ``env_id`` built with the JSON parameters ``physics_json`` (its model file), the
    rendering keyword arguments ``render`` (:data:`RENDER_KEYWORDS`, Gymnasium's defaults for
    the missing ones). The model, data and renderer are made on construction; the OpenGL
    context on the first frame, as Gymnasium makes it."""

    def __init__(
        self, env_id: str, physics_json: str | None, render: dict[str, Any], core_module: str
    ) -> None:
        mujoco = _mujoco()
        from gymnasium.envs.mujoco.mujoco_rendering import MujocoRenderer

        module = core(core_module)
        library, version = module.mujoco_library()
        if version != mujoco.mj_versionString():
            raise RuntimeError(
                f"the Rust core runs MuJoCo {version} ({library}) but the Python mujoco package "
                f"is {mujoco.mj_versionString()}: frames copy states between the two, so they "
                "must be the same library (unset RL_MUJOCO_LIBRARY, or install the mujoco "
                f"package of version {version})"
            )
        _xml_file, _frame_skip, _dt, kind, source = module.mujoco_model(env_id, physics_json)
        width = render.get("width", DEFAULT_SIZE)
        height = render.get("height", DEFAULT_SIZE)
        if kind == "text":
            model = mujoco.MjModel.from_xml_string(source)
        else:
            model = mujoco.MjModel.from_xml_path(source)
        # As Gymnasium's MujocoEnv: the off-screen buffer grows to the frame, never shrinks.
        model.vis.global_.offwidth = max(model.vis.global_.offwidth, width)
        model.vis.global_.offheight = max(model.vis.global_.offheight, height)
        self.model = model
        self.data = mujoco.MjData(model)
        self.renderer = MujocoRenderer(
            model,
            self.data,
            render.get("default_camera_config", DEFAULT_CAMERA_CONFIGS.get(env_id)),
            width,
            height,
            render.get("max_geom", 1000),
            render.get("camera_id"),
            render.get("camera_name"),
            render.get("visual_options"),
        )
        self._drawn = False

    def render(self, render_mode: str, copy_state: Callable[[Any], bool]) -> Any:
        """The frame of ``render_mode`` of the state that ``copy_state(data)`` copies into
        the renderer's ``MjData`` (``None`` when it copies none: before the first reset)."""
        if not copy_state(self.data):
            return None
        if self._drawn:
            return self.renderer.render(render_mode)
        if render_mode == "human":
            _check_display()
        else:
            _initialize_egl_display()
        try:
            frame = self.renderer.render(render_mode)
        except Exception as error:
            # The first frame makes the OpenGL context: its failure means no usable backend.
            problem = opengl_problem()
            if problem is None:
                raise
            raise RuntimeError(f"{OPENGL_HELP} ({problem})") from error
        self._drawn = True
        return frame

    def close(self) -> None:
        """Frees the OpenGL contexts (Gymnasium's ``MujocoRenderer.close``), if any was made."""
        if self.renderer._viewers:
            self.renderer.close()
            self.renderer._viewers.clear()


# The core modules whose MuJoCo arithmetic match_numpys_arithmetic has set.
_MATCHED: set[str] = set()


def match_numpys_arithmetic(core_module: str = "rlrs._core") -> None:
    """Makes the MuJoCo ids' sums of products accumulate as NumPy's own operations do in this
    process: ``x.dot(x)`` (behind ``np.linalg.norm``: Ant, Humanoid, Pusher, Reacher, Swimmer),
    where OpenBLAS's kernel for the processor adds each product with one rounding or with two,
    and ``np.einsum("b,bj->j", ...)`` (Humanoid's centre of mass), which NumPy's own build for
    the processor family fuses or not. NumPy's results on a few cases where the two ways differ,
    against both ways computed exactly, decide (``_core.set_mujoco_accumulation``). Where NumPy
    agrees with neither way (another BLAS summing in another order), the core keeps its default
    and a ``RuntimeWarning`` says that those ids may differ from Gymnasium's in the last digit.

    Run once per core module, when its first MuJoCo environment or vector is made (about 10 ms,
    which ``import rlrs`` need not pay)."""
    if core_module in _MATCHED:
        return
    _MATCHED.add(core_module)
    _core = core(core_module)
    if not hasattr(_core, "set_mujoco_accumulation"):
        return  # a domain author's module without the MuJoCo ids
    import math
    import warnings
    from fractions import Fraction

    def accumulate(pairs, fused):
        total = 0.0
        for x, y in pairs:
            if fused:
                # fma(x, y, total): the exact product and sum, rounded once.
                total = float(Fraction(x) * Fraction(y) + Fraction(total))
            else:
                total = total + x * y
        return total

    def cases(operation, k):
        """NumPy's results and the pairs each sums, for the k-th case of ``operation``."""
        if operation == "dot":
            xs = np.asarray([math.sqrt(k + j * 0.37) * (1.0 + j) for j in range(2 + k % 2)])
            return [float(xs.dot(xs))], [list(zip(xs.tolist(), xs.tolist()))]
        # Humanoid's shapes: 14 bodies' masses and their 14 x 3 positions.
        masses = np.asarray([math.sqrt(k + b) for b in range(14)])
        positions = np.asarray([[math.sin(k * 1.3 + 3 * b + j) for j in range(3)] for b in range(14)])
        results = np.einsum("b,bj->j", masses, positions)
        return results.tolist(), [
            list(zip(masses.tolist(), positions[:, j].tolist())) for j in range(3)
        ]

    def probe(operation):
        agree = {"fused": 0, "separate": 0}
        probes = 0
        for k in range(1, 2000):
            results, sums = cases(operation, k)
            for numpys, pairs in zip(results, sums):
                fused, separate = accumulate(pairs, True), accumulate(pairs, False)
                if fused == separate:
                    continue
                probes += 1
                agree["fused"] += numpys == fused
                agree["separate"] += numpys == separate
            if probes >= 16:
                break
        for way, count in agree.items():
            if probes and count == probes:
                _core.set_mujoco_accumulation(operation, way)
                return
        warnings.warn(
            f"NumPy's {operation} accumulates its products neither fused nor separately "
            f"({agree} of {probes} probes); the MuJoCo ids may differ from Gymnasium's in the "
            "last digit there",
            RuntimeWarning,
            stacklevel=3,
        )

    probe("dot")
    probe("einsum")


class MujocoEnv(RustEnv):
    """A MuJoCo v5 id's environment (``RustEnv`` with Gymnasium's MuJoCo rendering): the
    render modes of Gymnasium's ``MujocoEnv`` (``"human"``, ``"rgb_array"``,
    ``"depth_array"``, ``"rgbd_tuple"``; ``"ansi"`` too, as every id), its rendering keyword
    arguments, and its attributes ``width``, ``height``, ``camera_id``, ``camera_name``,
    ``frame_skip``, ``dt`` and ``metadata["render_fps"]`` (``round(1 / dt)``).

    Frames equal Gymnasium's pixel for pixel (see the module's documentation). Before the first
    reset, ``render()`` gives ``None`` (Gymnasium's ``gym.make`` refuses to render then).
    With ``"human"``, a window (glfw) shows the state after every reset and step, as
    Gymnasium's environments show theirs.

    ``copy.deepcopy`` and ``pickle`` give copies that step on exactly as the original (the
    state, step count and generator; a pickle reads back with the same MuJoCo version). The
    renderer and its OpenGL context are not copied: a copy makes its own, the context on its
    first frame.
    """

    def __init__(
        self,
        env_id: str,
        render_mode: str | None = None,
        *,
        info_action_mask: bool | None = None,
        core_module: str = "rlrs._core",
        **params: Any,
    ) -> None:
        physics, render = split_render_params(params)
        match_numpys_arithmetic(core_module)
        super().__init__(
            env_id, None, info_action_mask=info_action_mask, core_module=core_module, **physics
        )
        self.params = dict(params)
        if render.get("camera_id") is not None and render.get("camera_name") is not None:
            raise ValueError(
                "Both `camera_id` and `camera_name` cannot be specified at the same time."
            )
        for name in ("width", "height", "max_geom"):
            value = render.get(name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1
            ):
                raise ValueError(f"{name} must be a positive integer, not {value!r}")
        _xml, self.frame_skip, self.dt, _kind, _source = self._core_module.mujoco_model(
            env_id, self._params_json
        )
        self.metadata = {
            "render_modes": [*RENDER_MODES, "ansi"],
            "render_fps": int(np.round(1.0 / self.dt)),
        }
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not one of {env_id}'s "
                f"{self.metadata['render_modes']}"
            )
        self.render_mode = render_mode
        self.width = int(render.get("width", DEFAULT_SIZE))
        self.height = int(render.get("height", DEFAULT_SIZE))
        self.camera_id = render.get("camera_id")
        self.camera_name = render.get("camera_name")
        self._render_params = render
        self._frames: Frames | None = None
        if render_mode in RENDER_MODES:
            self._frames = Frames(env_id, self._params_json, render, core_module)

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["_frames"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        if self.render_mode in RENDER_MODES:
            self._frames = Frames(
                self.env_id, self._params_json, self._render_params, self._core_module_name
            )

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        result = super().reset(seed=seed, options=options)
        if self.render_mode == "human":
            self.render()
        return result

    def step(self, action: Any):
        result = super().step(action)
        if self.render_mode == "human":
            self.render()
        return result

    def render(self) -> Any:
        if self.render_mode in RENDER_MODES:
            env = self._core
            return self._frames.render(
                self.render_mode,
                lambda data: self._core_module.mujoco_copy_state(env, data),
            )
        return super().render()

    def close(self) -> None:
        frames = self.__dict__.get("_frames")
        if frames is not None:
            frames.close()
        super().close()
