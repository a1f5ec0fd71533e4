"""The measured speeds the environment catalogue shows (docs/measured-speeds.json), from a
results file of `benches/compare/run.sh` (JSON lines): for every id measured with 1024
environments, the best of one and two threads from Python (`rlrs.RustVectorEnv`) and from Rust
(the typed vector of the `throughput` binary, or the same vector as Python's driven from Rust
by `rlrs._core.RustDriver`), in environment steps per second. run.sh runs it at its end:

    benches/compare/.venv/bin/python benches/compare/speeds.py RESULTS > docs/measured-speeds.json
"""

from __future__ import annotations

import json
import statistics
import sys


def main(path: str) -> None:
    run = ""
    # Every run of each configuration (run.sh writes one line per round): the median over all
    # of them, as report.py's table takes it.
    runs: dict[tuple[str, str, str], list[float]] = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("# 20") and not run:
                run = line[2:].split()[0]
            if not line.startswith("{"):
                continue
            row = json.loads(line)
            if row.get("envs") != 1024 or "/vector/1024/" not in row["name"]:
                continue
            where = {"rlrs-python": "python", "rl": "rust", "rl-in-python": "rust"}.get(row["side"])
            if where is not None:
                runs.setdefault((row["env"], where, row["name"]), []).extend(row["runs"])
    speeds: dict[str, dict[str, int]] = {}
    for (env, where, _), values in runs.items():
        entry = speeds.setdefault(env, {})
        entry[where] = max(entry.get(where, 0), round(statistics.median(values)))
    json.dump({"run": run, "speeds": dict(sorted(speeds.items()))}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
