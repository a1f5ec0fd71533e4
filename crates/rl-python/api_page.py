"""Writes docs/python-api.md, the Python API page of the package ``rlrs``, from the package's
own source: every public module, class, method, function and constant with its signature
(every keyword) and its docstring, read with ``ast`` (so ``rlrs.sb3`` is documented without
Stable-Baselines3 installed, and nothing is imported).

    python3 crates/rl-python/api_page.py            # rewrite docs/python-api.md
    python3 crates/rl-python/api_page.py --check    # exit 1 if it differs (tests/test_package.py)

Public means: listed in the module's ``__all__`` when it has one, else not starting with ``_``;
methods of a public class are public unless they start with ``_`` (``__init__`` is shown as the
class's signature).
"""

from __future__ import annotations

import argparse
import ast
import pathlib
import sys
import textwrap

CRATE = pathlib.Path(__file__).resolve().parent
PACKAGE = CRATE / "python" / "rlrs"
PAGE = CRATE.parents[1] / "docs" / "python-api.md"

# The modules in the order the page shows them, with what each is for.
MODULES = [
    ("rlrs", "__init__.py", "The package: registration of every id in Gymnasium, ids, version."),
    ("rlrs.env", "env.py", "One environment: `RustEnv`, a `gymnasium.Env`."),
    ("rlrs.vector", "vector.py", "The vector: `RustVectorEnv`, a `gymnasium.vector.VectorEnv`."),
    ("rlrs.pool", "pool.py", "EnvPool's asynchronous API (`send`/`recv`): `make_pool`, `EnvPool`."),
    ("rlrs.entry", "entry.py", "Gymnasium entry points by id (`rlrs.entry:<id>`)."),
    ("rlrs.human", "human.py", "The `render_mode=\"human\"` window (pygame)."),
    ("rlrs.toy_text", "toy_text.py", "Gymnasium's toy-text internals (`P`, `desc`, `s`, ...)."),
    ("rlrs.minigrid", "minigrid.py", "A MiniGrid id's environment with minigrid's attributes: `MiniGridEnv`."),
    ("rlrs.mujoco", "mujoco.py", "Gymnasium's MuJoCo v5 ids with Gymnasium's renderer: `MujocoEnv`, `Frames`."),
    ("rlrs.babyai", "babyai.py", "minigrid's BabyAI bot for a `BabyAI-*` id's environment: `BabyAIBot`."),
    ("rlrs.make_vec", "make_vec.py", "`gym.make_vec(id, n, wrappers=[...])` on rlrs's ids."),
    ("rlrs.spaces", "spaces.py", "Space definitions from Rust as `gymnasium.spaces`."),
    ("rlrs.sb3", "sb3.py", "Stable-Baselines3 over the Rust vector (needs `stable_baselines3`)."),
]


def signature(node: ast.FunctionDef, drop_self: bool) -> str:
    """The function's parameters as written, annotations and defaults included."""
    text = ast.unparse(node.args)
    if drop_self:
        for first in ("self, ", "self", "cls, ", "cls"):
            if text.startswith(first):
                text = text[len(first):]
                break
    returns = f" -> {ast.unparse(node.returns)}" if node.returns is not None else ""
    return f"({text}){returns}"


def docstring(node: ast.AST) -> str:
    text = ast.get_docstring(node, clean=True)
    return text.strip() if text else "(no docstring)"


def public_names(tree: ast.Module) -> list[str] | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return [ast.literal_eval(element) for element in node.value.elts]
    return None


def quote(text: str) -> str:
    return textwrap.indent(text, "")


def module_section(name: str, file: str, about: str) -> list[str]:
    source = (PACKAGE / file).read_text()
    tree = ast.parse(source)
    listed = public_names(tree)

    def is_public(symbol: str) -> bool:
        return symbol in listed if listed is not None else not symbol.startswith("_")

    lines = [f"## `{name}`", "", about, "", docstring(tree), ""]
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and is_public(node.name):
            init = next(
                (n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"),
                None,
            )
            bases = ", ".join(ast.unparse(base) for base in node.bases)
            head = f"class {name}.{node.name}" + (signature(init, True) if init else "()")
            lines += [f"### `{node.name}`", "", "```python", head, "```", ""]
            if bases:
                lines += [f"Bases: `{bases}`.", ""]
            lines += [docstring(node), ""]
            for member in node.body:
                if isinstance(member, ast.FunctionDef) and not member.name.startswith("_"):
                    decorators = {ast.unparse(d) for d in member.decorator_list}
                    kind = "property " if "property" in decorators else ""
                    lines += [
                        f"#### `{node.name}.{member.name}`",
                        "",
                        "```python",
                        f"{kind}{member.name}{signature(member, True)}",
                        "```",
                        "",
                    ]
                    doc = ast.get_docstring(member, clean=True)
                    lines += [doc.strip() if doc else f"As `gymnasium`'s `{member.name}`.", ""]
        elif isinstance(node, ast.FunctionDef) and is_public(node.name):
            lines += [
                f"### `{name}.{node.name}`",
                "",
                "```python",
                f"{node.name}{signature(node, False)}",
                "```",
                "",
                docstring(node),
                "",
            ]
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and is_public(target.id) and target.id != "__all__":
                    value = ast.unparse(node.value) if node.value is not None else ""
                    lines += [f"### `{name}.{target.id}`", "", f"`{target.id} = {value}`", ""]
    return lines


def page() -> str:
    lines = [
        "# The Python API of `rlrs`",
        "",
        "Generated from the package's source by `python3 crates/rl-python/api_page.py` (a test",
        "fails when this page differs from what it generates). Every public class, method,",
        "function and constant of the package, with every keyword. Domain parameters are keyword",
        "arguments of `gym.make`/`RustEnv`/`RustVectorEnv`; each id's are in",
        "[the catalogue](catalogue.md).",
        "",
    ]
    for name, file, about in MODULES:
        lines += module_section(name, file, about)
    return "\n".join(lines).rstrip() + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is not current")
    args = parser.parse_args()
    text = page()
    if args.check:
        if not PAGE.is_file() or PAGE.read_text() != text:
            print(f"{PAGE} is not current: run python3 crates/rl-python/api_page.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(text)
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
