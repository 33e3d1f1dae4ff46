#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
lava-jobs.py - LAVA job definitions for perfprobe: kernels x devices x rounds.

usage: scripts/lava-jobs.py --images LABEL,ARCH,URL [--images ...]
           [--device TYPE[,ARCH]]... [--rounds N] [--set "BENCH..."]
           [--full] [--timeout MIN] [--priority P] [--visibility V]
           --out DIR

--images names a kernel: LABEL (the run's label, e.g. 6.1 or 6.12), the
architecture of its images (x86_64, arm64) and where its images are: URL
is a directory (file://, http://, https://) holding vmlinuz and
initramfs.cpio.gz, as scripts/vmtest.sh --images writes them.  Two
--images of one architecture make an A/B: in each round on each device
the two kernels run back to back, the order flipped every round (A B,
B A, ...), so that a drift of the device over the hours (heat, firmware,
other jobs) falls on both alike.

--device is a LAVA device type: "qemu" (the default) runs each kernel's
images in QEMU under the device type's own template, the architecture
taken from the images; another type (a board: bcm2711-rpi-4-b,arm64, say)
boots the kernel and ramdisk over TFTP from U-Boot and runs the images of
its architecture alone.

One job per file, DIR/NNN-LABEL-DEVICE-rR.yaml, NNN the order to submit
them in (lavacli jobs submit DIR/*.yaml keeps it); DIR/jobs.txt lists
them.  Each job carries the test definition
Documentation/ci/lava-perfprobe-image.yaml inline, with the kernel,
device and round as its parameters and the job's metadata.
Documentation/lava.rst.  Exit 0; 2 on a usage error, one line saying what.
"""
import argparse
import os
import re
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDEF = os.path.join(HERE, "..", "Documentation", "ci", "lava-perfprobe-image.yaml")
ARCHES = {"x86_64": "x86_64", "amd64": "x86_64", "arm64": "arm64", "aarch64": "arm64"}
# The QEMU console and the job context's name of the architecture.
QEMU = {
    "x86_64": {"arch": "amd64", "console": "ttyS0,115200"},
    "arm64": {"arch": "arm64", "console": "ttyAMA0,115200"},
}
PROMPT = "pp-lava# "


def die(msg):
    print("lava-jobs.py: " + msg, file=sys.stderr)
    sys.exit(2)


def parse_images(spec):
    parts = spec.split(",", 2)
    if len(parts) != 3 or not all(parts):
        die(f"--images '{spec}': say LABEL,ARCH,URL")
    label, arch, url = parts
    if not re.fullmatch(r"[A-Za-z0-9._+-]{1,40}", label):
        die(f"--images '{spec}': the label is 1-40 of A-Za-z0-9._+-")
    if arch not in ARCHES:
        die(f"--images '{spec}': architecture '{arch}' is not one of x86_64, arm64")
    if not re.match(r"(file|https?)://", url):
        die(f"--images '{spec}': the URL is file://, http:// or https://")
    return {"label": label, "arch": ARCHES[arch], "url": url.rstrip("/")}


def parse_device(spec):
    parts = spec.split(",")
    if len(parts) > 2 or not re.fullmatch(r"[A-Za-z0-9._-]+", parts[0]):
        die(f"--device '{spec}': say TYPE or TYPE,ARCH")
    arch = None
    if len(parts) == 2:
        if parts[1] not in ARCHES:
            die(f"--device '{spec}': architecture '{parts[1]}' is not one of x86_64, arm64")
        arch = ARCHES[parts[1]]
    if parts[0] != "qemu" and arch is None:
        die(f"--device '{spec}': a board's type needs its architecture (TYPE,ARCH)")
    return {"type": parts[0], "arch": arch}


def device_name(dev, img):
    return f"qemu-{img['arch']}" if dev["type"] == "qemu" else dev["type"]


def deploy_boot(dev, img, timeout):
    """The deploy and boot actions: QEMU's tmpfs images, or TFTP + U-Boot."""
    kernel = img["url"] + "/vmlinuz"
    initrd = img["url"] + "/initramfs.cpio.gz"
    if dev["type"] == "qemu":
        q = QEMU[img["arch"]]
        append = (f"console={q['console']} rdinit=/init pp_lava panic=-1 "
                  "perfprobe_accel=tcg perfprobe_clock=wall")
        deploy = {
            "timeout": {"minutes": 5},
            "to": "tmpfs",
            "images": {
                "kernel": {"image_arg": f"-kernel {{kernel}} -append \"{append}\"",
                           "url": kernel},
                # LAVA appends its test overlay to the ramdisk itself
                # (cpio, no disk): as for TFTP's ramdisk, no libguestfs
                # appliance to boot (TCG: 18-36 s a job here)
                "initrd": {"image_arg": "-initrd {initrd}", "url": initrd,
                           "compression": "gz", "format": "cpio.newc",
                           "overlays": {"lava": True}},
            },
        }
        boot = {"timeout": {"minutes": timeout}, "method": "qemu", "media": "tmpfs",
                "prompts": [PROMPT]}
        return deploy, boot
    deploy = {
        "timeout": {"minutes": 5},
        "to": "tftp",
        "kernel": {"url": kernel, "type": "image" if img["arch"] == "arm64" else "bzimage"},
        "ramdisk": {"url": initrd, "compression": "gz"},
    }
    boot = {"timeout": {"minutes": timeout}, "method": "u-boot", "commands": "ramdisk",
            "prompts": [PROMPT]}
    return deploy, boot


def job(dev, img, rnd, rounds, opts, testdef):
    name = device_name(dev, img)
    deploy, boot = deploy_boot(dev, img, opts.timeout)
    ctx = {"arch": QEMU[img["arch"]]["arch"]}
    if dev["type"] != "qemu":
        ctx["extra_kernel_args"] = "rdinit=/init pp_lava"
    params = {
        "PP_SET": opts.set,
        "PP_QUICK": "0" if opts.full else "1",
        "PP_KERNEL": img["label"],
        "PP_DEVICE": name,
        "PP_ROUND": str(rnd),
    }
    return {
        "device_type": dev["type"],
        "job_name": f"perfprobe {img['label']} on {name}, round {rnd} of {rounds}",
        "priority": opts.priority,
        "visibility": opts.visibility,
        "timeouts": {
            "job": {"minutes": opts.timeout + 10},
            "action": {"minutes": opts.timeout},
            "connection": {"minutes": 2},
        },
        "context": ctx,
        "metadata": {
            "perfprobe.kernel": img["label"],
            "perfprobe.device": name,
            "perfprobe.round": rnd,
            "perfprobe.set": opts.set,
        },
        "actions": [
            {"deploy": deploy},
            {"boot": boot},
            {"test": {
                "timeout": {"minutes": opts.timeout},
                "definitions": [{
                    "from": "inline",
                    "name": "perfprobe",
                    "path": "inline/perfprobe.yaml",
                    "repository": testdef,
                    "parameters": params,
                }],
            }},
        ],
    }


def matrix(devices, images, rounds):
    """(device, images, round) in the order to submit: A B, then B A, ..."""
    out = []
    for rnd in range(1, rounds + 1):
        for dev in devices:
            mine = [i for i in images if dev["arch"] in (None, i["arch"])]
            if rnd % 2 == 0:
                mine = list(reversed(mine))
            out.extend((dev, i, rnd) for i in mine)
    return out


def main():
    ap = argparse.ArgumentParser(description="LAVA jobs for perfprobe (Documentation/lava.rst)")
    ap.add_argument("--images", action="append", required=True, metavar="LABEL,ARCH,URL")
    ap.add_argument("--device", action="append", metavar="TYPE[,ARCH]")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--set", default="lat_syscall", help="benchmarks or groups (default lat_syscall)")
    ap.add_argument("--full", action="store_true", help="perfprobe's default samples, not --quick")
    ap.add_argument("--timeout", type=int, default=20, help="minutes for boot and for test")
    ap.add_argument("--priority", default="medium")
    ap.add_argument("--visibility", default="public")
    ap.add_argument("--out", required=True)
    try:
        opts = ap.parse_args()
    except SystemExit as e:
        sys.exit(2 if e.code else 0)
    if opts.rounds < 1 or opts.rounds > 100:
        die(f"--rounds {opts.rounds}: say 1 to 100")
    if opts.timeout < 1:
        die(f"--timeout {opts.timeout}: say a number of minutes")
    if not re.fullmatch(r"[A-Za-z0-9_ -]+", opts.set):
        die(f"--set '{opts.set}': benchmark or group names, separated by spaces")
    images = [parse_images(s) for s in opts.images]
    labels = [(i["label"], i["arch"]) for i in images]
    if len(set(labels)) != len(labels):
        die("--images: a label is given twice for one architecture")
    devices = [parse_device(s) for s in (opts.device or ["qemu"])]
    try:
        with open(TESTDEF, encoding="utf-8") as f:
            testdef = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        die(f"cannot read the test definition {TESTDEF}: {e}")
    steps = ((testdef or {}).get("run") or {}).get("steps") or []
    if not steps or not all(isinstance(s, str) for s in steps):
        die(f"{TESTDEF}: each run step must be one string (quote a step with ': ' in it)")
    jobs = matrix(devices, images, opts.rounds)
    if not jobs:
        die("no device runs any of the images' architectures")
    os.makedirs(opts.out, exist_ok=True)
    names = []
    for n, (dev, img, rnd) in enumerate(jobs, 1):
        fname = f"{n:03d}-{img['label']}-{device_name(dev, img)}-r{rnd}.yaml"
        with open(os.path.join(opts.out, fname), "w", encoding="utf-8") as f:
            yaml.safe_dump(job(dev, img, rnd, opts.rounds, opts, testdef), f,
                           sort_keys=False, default_flow_style=False, width=1000)
        names.append(fname)
    with open(os.path.join(opts.out, "jobs.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(names) + "\n")
    print(f"lava-jobs.py: {len(names)} jobs in {opts.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
