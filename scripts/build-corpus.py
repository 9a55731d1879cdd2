#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Builds every OpenCL C file of a folder through the OpenCL API, under each of
several option sets, on Lanewise and (optionally) other platforms beside it,
and reports what built, what failed and what crashed or hung.

    scripts/build-corpus.py FOLDER [--options "OPTS"]... [--vendor NAME=PATH]...
                            [--jobs N] [--timeout SECONDS] [--json FILE]

Each file is built with clBuildProgram (with -I its own folder, from which
relative paths in its options are taken) and all its
kernels are created (clCreateKernelsInProgram), in a process of its own per
platform, so that a crash or a hang is one result and not the end of the
run. A file that needs definitions has a sidecar FILE.options with one line
per variant (the options its host program passes, such as
"-D T=float -D cn=4"); each line is built under each option set. A file
EXCLUDE in FOLDER lists paths (relative to FOLDER, one a line) that are not
built on their own, such as headers named .cl.

Option sets default to the four a user meets most: none,
-cl-fast-relaxed-math, -cl-opt-disable and -g. Platforms are ICD libraries
or .icd files loaded through OCL_ICD_VENDORS; the first is the one judged
(default: this checkout's build/icd/liblanewise.so). With a second one
(--vendor pocl=/etc/OpenCL/vendors/pocl.icd), the report lists each build
that fails on the first platform and succeeds on the other.

Exit status: 0 when the first platform built everything that any other
platform built and nothing crashed or hung on it; 1 otherwise; 2 on bad
arguments.
"""

import argparse
import json
import os
import select
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

DEFAULT_OPTION_SETS = ["", "-cl-fast-relaxed-math", "-cl-opt-disable", "-g"]


def worker():
    """Reads jobs (JSON lines: source path, options) from standard input and
    writes one result line each; OCL_ICD_VENDORS selects the platform."""
    import warnings
    warnings.simplefilter("ignore")
    import pyopencl as cl
    platform = cl.get_platforms()[0]
    device = platform.get_devices()[0]
    context = cl.Context([device])
    print(json.dumps({"platform": platform.name}), flush=True)
    for line in sys.stdin:
        job = json.loads(line)
        source = Path(job["file"]).read_text(errors="replace")
        options = job["options"] + " -I " + str(Path(job["file"]).parent)
        result = {"status": "ok", "kernels": 0, "log": ""}
        start = time.monotonic()
        try:
            program = cl.Program(context, source).build(options=options)
            result["kernels"] = len(program.all_kernels())
        except cl.Error as error:
            result["status"] = "failed"
            result["log"] = str(error)
        result["seconds"] = round(time.monotonic() - start, 3)
        print(json.dumps(result), flush=True)


def first_error(log):
    """The first line of a build log that says what went wrong."""
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    for line in lines:
        if "error" in line.lower() and not line.startswith("==="):
            return line[:300]
    return lines[0][:300] if lines else ""


class Platform:
    def __init__(self, name, path):
        self.name, self.path = name, path


def build_file(platform, file, jobs, timeout):
    """Builds `jobs` (variant options, option set) of one file on one
    platform; returns one result per job, restarting the worker after a
    crash or a hang."""
    results = []
    pending = list(jobs)
    while pending:
        environment = dict(os.environ, OCL_ICD_VENDORS=platform.path, PYOPENCL_NO_CACHE="1",
                           PYOPENCL_COMPILER_OUTPUT="0")
        # In the file's folder, as a host program runs beside its kernels:
        # relative -I options of the .options file resolve from there.
        process = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker"],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, env=environment,
                                   cwd=file.parent)

        def read_line(deadline):
            ready, _, _ = select.select([process.stdout], [], [], max(0, deadline - time.monotonic()))
            return process.stdout.readline() if ready else None

        header = read_line(time.monotonic() + 60)
        if not header:
            process.kill()
            error = process.stderr.read()[-300:] if header == "" else "no platform within 60 s"
            results += [{"status": "no-platform", "log": error}] * len(pending)
            return results
        while pending:
            variant, options = pending[0]
            process.stdin.write(json.dumps({"file": str(file), "options": f"{variant} {options}".strip()}) + "\n")
            process.stdin.flush()
            line = read_line(time.monotonic() + timeout)
            if line:
                results.append(json.loads(line))
                pending.pop(0)
                continue
            if line is None:  # no answer in time
                process.kill()
                results.append({"status": "hang", "log": f"no answer within {timeout} s"})
            else:  # the worker died
                code = process.wait()
                stderr = process.stderr.read()
                results.append({"status": "crash",
                                "log": f"exit {code}: " + first_error(stderr[-2000:])})
            pending.pop(0)
            break
        else:
            process.stdin.close()
            process.wait()
    return results


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker()
        return 0
    root = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--options", action="append",
                        help="an option set (repeat; default: none, -cl-fast-relaxed-math, "
                             "-cl-opt-disable, -g)")
    parser.add_argument("--vendor", action="append", default=[],
                        help="NAME=PATH of an ICD library or .icd file (repeat; the first is judged)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--timeout", type=float, default=120, help="seconds a build may take")
    parser.add_argument("--json", type=Path, help="write every result as JSON lines here")
    arguments = parser.parse_args()

    option_sets = arguments.options if arguments.options is not None else DEFAULT_OPTION_SETS
    platforms = []
    for text in arguments.vendor or [f"lanewise={root / 'build/icd/liblanewise.so'}"]:
        name, _, path = text.partition("=")
        if not path or not Path(path).exists():
            parser.error(f"--vendor {text}: expected NAME=PATH of an existing file")
        platforms.append(Platform(name, str(Path(path).resolve())))
    folder = arguments.folder.resolve()
    if not folder.is_dir():
        parser.error(f"{folder} is not a folder")
    excluded = set()
    if (folder / "EXCLUDE").exists():
        excluded = {line.strip() for line in (folder / "EXCLUDE").read_text().splitlines()
                    if line.strip() and not line.startswith("#")}
    files = sorted(p for p in folder.rglob("*.cl") if str(p.relative_to(folder)) not in excluded)
    if not files:
        parser.error(f"no .cl files in {folder}")

    def variants(file):
        sidecar = file.with_name(file.name + ".options")
        if not sidecar.exists():
            return [""]
        lines = [line.strip() for line in sidecar.read_text().splitlines()]
        return [line for line in lines if line and not line.startswith("#")] or [""]

    tasks = []
    for file in files:
        jobs = [(variant, options) for variant in variants(file) for options in option_sets]
        for platform in platforms:
            tasks.append((platform, file, jobs))
    with ThreadPoolExecutor(max_workers=max(1, arguments.jobs)) as pool:
        outcomes = list(pool.map(lambda task: (task, build_file(task[0], task[1], task[2],
                                                                arguments.timeout)), tasks))

    # results[(file, variant, options)][platform name] = result
    results = {}
    for (platform, file, jobs), answers in outcomes:
        for (variant, options), answer in zip(jobs, answers):
            key = (str(file.relative_to(folder)), variant, options)
            results.setdefault(key, {})[platform.name] = answer
    if arguments.json:
        with arguments.json.open("w") as out:
            for (file, variant, options), by_platform in sorted(results.items()):
                for name, answer in by_platform.items():
                    out.write(json.dumps({"file": file, "variant": variant, "options": options,
                                          "platform": name, **answer}) + "\n")

    judged = platforms[0].name
    print(f"{folder}: {len(files)} files, {len(results)} builds per platform "
          f"({len(option_sets)} option sets, variants from .options files)\n")
    header = f"{'options':32}" + "".join(f"{p.name + ' ok/failed/crash/hang':>40}" for p in platforms)
    print(header)
    for options in option_sets:
        row = f"{(options or '(none)'):32}"
        for platform in platforms:
            counts = {"ok": 0, "failed": 0, "crash": 0, "hang": 0}
            for (_, _, o), by_platform in results.items():
                if o == options:
                    status = by_platform[platform.name]["status"]
                    counts[status if status in counts else "crash"] += 1
            cell = f"{counts['ok']}/{counts['failed']}/{counts['crash']}/{counts['hang']}"
            row += f"{cell:>40}"
        print(row)

    problems = []
    for (file, variant, options), by_platform in sorted(results.items()):
        mine = by_platform[judged]
        others_ok = [name for name, answer in by_platform.items()
                     if name != judged and answer["status"] == "ok"]
        if mine["status"] in ("crash", "hang", "no-platform") or (mine["status"] != "ok" and others_ok):
            problems.append((file, variant, options, mine, others_ok))
    failing_everywhere = sum(1 for by_platform in results.values()
                             if all(a["status"] != "ok" for a in by_platform.values()))
    print(f"\n{failing_everywhere} builds fail on every platform (the corpus's own problems)")
    if problems:
        print(f"{len(problems)} builds fail on {judged} alone, or crash or hang there:")
        for file, variant, options, mine, others_ok in problems:
            beside = f" (ok on {', '.join(others_ok)})" if others_ok else ""
            print(f"  {file} [{variant or '-'}] [{options or '-'}]: {mine['status']}{beside}: "
                  f"{first_error(mine.get('log', ''))}")
        return 1
    print(f"no build fails on {judged} alone")
    return 0


if __name__ == "__main__":
    sys.exit(main())
