#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
lava-device.py - a device's configuration for lava-run, rendered the way
a LAVA server renders it for a job.

usage: scripts/lava-device.py --templates DIR --dict FILE.jinja2 --job JOB.yaml
           --out DEVICE.yaml

The device dictionary (FILE.jinja2, which extends a device type's
template) is rendered with LAVA's device-type templates in DIR (the
lava-server package's, e.g. /usr/share/lava-server/device-types) and
the job's context as the template's variables, in a sandboxed Jinja2
environment with trim_blocks, as lava-server does before it hands a job
to a worker.  The result must be YAML.  Documentation/lava.rst.
Exit 0; 1 when a file cannot be read or the result is not YAML; 2 on a
usage error.
"""
import argparse
import os
import sys

import yaml
from jinja2 import FileSystemLoader, TemplateError
from jinja2.sandbox import SandboxedEnvironment


def fail(msg):
    print("lava-device.py: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser(description="render a LAVA device dictionary for lava-run")
    ap.add_argument("--templates", required=True, help="LAVA's device-types directory")
    ap.add_argument("--dict", required=True, help="the device dictionary (.jinja2)")
    ap.add_argument("--job", required=True, help="the job definition, for its context")
    ap.add_argument("--out", required=True)
    try:
        opts = ap.parse_args()
    except SystemExit as e:
        sys.exit(2 if e.code else 0)
    if not os.path.isfile(os.path.join(opts.templates, "base.jinja2")):
        fail(f"{opts.templates}: no base.jinja2: not LAVA's device-types directory")
    try:
        with open(opts.job, encoding="utf-8") as f:
            job = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        fail(f"cannot read the job {opts.job}: {e}")
    ctx = (job or {}).get("context") or {}
    env = SandboxedEnvironment(
        loader=FileSystemLoader([os.path.dirname(os.path.abspath(opts.dict)), opts.templates]),
        autoescape=False, trim_blocks=True)
    try:
        text = env.get_template(os.path.basename(opts.dict)).render(**ctx)
        data = yaml.safe_load(text)
    except (OSError, TemplateError, yaml.YAMLError) as e:
        fail(f"rendering {opts.dict}: {e}")
    if not isinstance(data, dict) or "actions" not in data:
        fail(f"rendering {opts.dict} gave no device configuration (no actions)")
    with open(opts.out, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
