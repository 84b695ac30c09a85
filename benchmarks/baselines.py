"""The README's Results table and the learning-curve pictures, from the recipe runs' folders.

    treasure-envs train nakbe --recipe --out runs/nakbe_recipe                  # and the others
    treasure-envs train nakbe --recipe --engine rllib --out runs/nakbe_recipe_rllib
    python benchmarks/baselines.py --runs runs --img docs/img

For each game with a recipe it reads `runs/<game>_recipe` (sb3), `runs/<game>_recipe_rllib`
(RLlib) and, for a game with a solo mode, `runs/<game>_solo_recipe`: final_eval.csv (the final
table), run.json, teacher.json, progress.csv / summary.json (steps and time), eval.csv (the
curve). It prints a markdown table and draws docs/img/<game>_learning_curve.png: both engines'
win rates against random play and the bot over wall-time minutes (sb3's curve shifted by its
teacher's time, which comes first).

`--keep DIR` copies, for every run found, the few small files the table and the picture are
made of into DIR/<its folder's name> (sb3's progress.csv cut to its last row), so a run's
record outlives the machine it ran on: the repository keeps them in benchmarks/recipe_runs,
and `python benchmarks/baselines.py --runs benchmarks/recipe_runs` redraws the pictures.
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
from pathlib import Path
from typing import Any

from treasure_apps.recipes import RECIPES
from treasure_core.registry import get_game

ENGINES = {"sb3": ("", "MaskablePPO"), "rllib": ("_rllib", "RLlib PPO")}
COLOURS = {"sb3": "tab:blue", "rllib": "tab:red", "solo": "tab:green"}


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open() as file:
        return list(csv.DictReader(file))


def read_run(folder: Path) -> dict[str, Any] | None:
    """A finished run's numbers, or None when the folder has no final table."""
    if not (folder / "final_eval.csv").is_file():
        return None
    run: dict[str, Any] = {"final": {row["opponent"]: row for row in _rows(folder / "final_eval.csv")}}
    settings = json.loads((folder / "run.json").read_text())
    run["players"] = settings["options"]["num_players"]
    teacher = folder / "teacher.json"
    run["teacher"] = json.loads(teacher.read_text()) if teacher.is_file() else None
    offset = 0.0
    if run["teacher"]:
        offset = (run["teacher"]["collect_seconds"] + run["teacher"]["clone_seconds"]) / 60
    run["offset"] = offset
    if (folder / "summary.json").is_file():  # RLlib
        summary = json.loads((folder / "summary.json").read_text())
        run["steps"], run["minutes"] = int(summary["agent_steps"]), summary["seconds"] / 60
    else:
        progress = [row for row in _rows(folder / "progress.csv") if row.get("time/total_timesteps")]
        last = progress[-1]
        run["steps"] = int(float(last["time/total_timesteps"]))
        run["minutes"] = offset + float(last["time/time_elapsed"]) / 60
    run["curve"] = _rows(folder / "eval.csv") if (folder / "eval.csv").is_file() else []
    return run


RECORD_FILES = ("final_eval.csv", "eval.csv", "run.json", "teacher.json", "summary.json")


def recipe_folders(runs_dir: Path) -> list[tuple[str, str, Path]]:
    """(game, engine, folder) of every recipe run the table reads, found or not."""
    found = []
    for name in RECIPES:
        for engine, (suffix, _) in ENGINES.items():
            found.append((name, engine, runs_dir / f"{name}_recipe{suffix}"))
        if get_game(name).min_players == 1:
            found.append((name, "sb3 solo", runs_dir / f"{name}_solo_recipe"))
    return found


def keep(runs_dir: Path, record_dir: Path) -> list[Path]:
    """Copy every recipe run's record (read_run's files; progress.csv's header and last row
    with a step count) from runs_dir into record_dir, one folder a run; returns the folders
    written."""
    written = []
    for _, _, folder in recipe_folders(runs_dir):
        if read_run(folder) is None:
            continue
        target = record_dir / folder.name
        target.mkdir(parents=True, exist_ok=True)
        for name in RECORD_FILES:
            if (folder / name).is_file():
                shutil.copyfile(folder / name, target / name)
        if (folder / "progress.csv").is_file() and not (folder / "summary.json").is_file():
            rows = [row for row in _rows(folder / "progress.csv") if row.get("time/total_timesteps")]
            with (target / "progress.csv").open("w", newline="") as file:
                writer = csv.DictWriter(file, fieldnames=list(rows[-1]))
                writer.writeheader()
                writer.writerow(rows[-1])
        written.append(target)
    return written


def _rate(row: dict[str, str]) -> str:
    return f"{float(row['win_rate']):.3f} [{float(row['low']):.3f}, {float(row['high']):.3f}]"


def table(runs_dir: Path) -> tuple[str, dict[str, dict[str, Any]]]:
    lines = [
        "| game | players | engine | training | vs random | vs the scripted bot |",
        "|---|---|---|---|---|---|",
    ]
    found: dict[str, dict[str, Any]] = {}
    for name, engine, folder in recipe_folders(runs_dir):
        game = get_game(name)
        run = read_run(folder)
        if run is None:
            continue
        found[f"{name} {engine}"] = run
        label = ENGINES.get(engine.split()[0], ("", engine))[1]
        training = f"{run['steps']:,} steps, {run['minutes']:.1f} min"
        if run["teacher"]:
            training += f" (teacher {run['teacher']['samples']:,.0f} decisions)"
        final = run["final"]
        if run["players"] == 1:
            only = next(iter(final.values()))
            lines.append(
                f"| {game.title} | 1 | {label} | {training} | – | {_rate(only)} (its solo opponent) |"
            )
            continue
        bot = next(row for key, row in final.items() if key != "random")
        rates = f"{_rate(final['random'])} | {_rate(bot)}"
        lines.append(f"| {game.title} | {run['players']} | {label} | {training} | {rates} |")
    return "\n".join(lines), found


def draw(name: str, runs: dict[str, dict[str, Any]], out: Path) -> Path | None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    mine = {key: run for key, run in runs.items() if key.split()[0] == name and run["curve"]}
    if not mine:
        return None
    figure, axes = plt.subplots(figsize=(7, 4.2), dpi=110)
    for key, run in mine.items():
        engine = key.split(" ", 1)[1]
        solo = engine.endswith("solo")  # its curve's two rows are the one in-kernel opponent
        for opponent in dict.fromkeys(row["opponent"] for row in run["curve"]):
            if opponent not in ("random", "bot") or (solo and opponent != "bot"):
                continue
            rows = [row for row in run["curve"] if row["opponent"] == opponent]
            minutes = [run["offset"] * (engine.startswith("sb3")) + float(row["minutes"]) for row in rows]
            style = "-" if opponent == "bot" else ":"  # one colour per engine, a line per opponent
            label = f"{ENGINES.get(engine.split()[0], ('', engine))[1]} vs {opponent}"
            if solo:
                label = f"{ENGINES['sb3'][1]}, solo, vs its in-kernel opponent"
            colour = COLOURS["solo" if solo else engine.split()[0]]
            wins = [float(row["win_rate"]) for row in rows]
            axes.plot(minutes, wins, style, marker="o", ms=3, color=colour, label=label)
    players = next(iter(mine.values()))["players"]
    axes.axhline(1 / players, color="grey", ls="--", lw=1, label=f"1/{players} (an equal player)")
    axes.set_xlabel("wall-time minutes (sb3: after its teacher's games and cloning)")
    axes.set_ylabel("win rate (argmax moves)")
    axes.set_ylim(0, 1)
    axes.grid(alpha=0.3)
    axes.legend(loc="best", fontsize=8)
    solo_too = " and solo" if any(key.endswith("solo") for key in mine) else ""
    axes.set_title(f"{get_game(name).title}, {players} players{solo_too}: its recipe")
    figure.tight_layout()
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}_learning_curve.png"
    figure.savefig(path)
    plt.close(figure)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", default="runs", help="the folder of the recipe runs (default: runs)")
    parser.add_argument("--img", default="docs/img", help="where the pictures go (default: docs/img)")
    parser.add_argument(
        "--keep",
        metavar="DIR",
        help="also copy each run's record into DIR/<run folder> (default: none; the repository's "
        "are in benchmarks/recipe_runs)",
    )
    args = parser.parse_args()
    if args.keep:
        for folder in keep(Path(args.runs), Path(args.keep)):
            print(f"record: {folder}")
    text, runs = table(Path(args.runs))
    print(text)
    for name in RECIPES:
        path = draw(name, runs, Path(args.img))
        if path is not None:
            print(f"learning curve: {path}")


if __name__ == "__main__":
    main()
