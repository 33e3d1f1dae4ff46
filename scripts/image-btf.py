#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""image-btf.py IMAGE OUT: the kernel's own BTF, cut out of its boot image.

A kernel built with CONFIG_DEBUG_INFO_BTF carries its type information
(the blob /sys/kernel/btf/vmlinux shows when it runs) in the image itself,
between __start_BTF and __stop_BTF.  A BPF program compiled for a kernel
that is not the running one (an arm64 guest, built on an x86 host) needs
that blob for its vmlinux.h; the headers package does not have it, the
image does.  The blob is found by its header: magic 0xeB9F, version 1, a
24-byte header, types first and the strings right after them, and sizes
that fit in the image; exactly one such header must be there.  A gzip'd
image (arm64's Image.gz) is unpacked first; an x86 bzImage carries its
kernel compressed after a setup stub, so where the image itself has no
blob the zstd, xz or gzip stream the boot decompressor would unpack
(the first of its kind) is unpacked with the zstd, xz or gzip program and
searched instead.  Exit 1, saying why, when there is none.
"""
import gzip
import os
import struct
import subprocess
import sys

# magic of a stream in a bzImage's payload, and the program that unpacks it
PAYLOADS = ((b'\x28\xb5\x2f\xfd', 'zstd', ['zstd', '-dcq']),
            (b'\xfd7zXZ\x00', 'xz', ['xz', '-dcq']),
            (b'\x1f\x8b\x08', 'gzip', ['gzip', '-dcq']))

MAGIC = b'\x9f\xeb\x01\x00'	# little-endian magic, version 1, flags 0
MIN_TYPES = 1 << 16		# a vmlinux has megabytes of types and strings
MIN_STRINGS = 1 << 16


def candidates(data):
    i = data.find(MAGIC)
    while i >= 0:
        if i + 24 <= len(data):
            hdr_len, type_off, type_len, str_off, str_len = struct.unpack_from('<5I', data, i + 4)
            end = i + hdr_len + str_off + str_len
            if (hdr_len == 24 and type_off == 0 and str_off == type_len and
                    type_len >= MIN_TYPES and str_len >= MIN_STRINGS and end <= len(data) and
                    data[i + hdr_len + str_off] == 0):	# the string section starts with ""
                yield i, end
        i = data.find(MAGIC, i + 1)


def payload(data, image):
    """The kernel a bzImage's decompressor would unpack, and how it was packed."""
    for magic, name, argv in PAYLOADS:
        i = data.find(magic)
        if i < 0:
            continue
        # The stream is followed by the rest of the image: the programs
        # unpack it, then complain of trailing data, so their exit does not
        # say whether the kernel came out; the BTF search does.
        try:
            r = subprocess.run(argv, input=data[i:], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, check=False)
        except OSError as e:
            sys.exit(f'image-btf: {image}: a {name} payload, and no {argv[0]} to unpack it: '
                     f'{e.strerror}')
        return r.stdout, name
    return b'', None


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: image-btf.py IMAGE OUT')
    image, out = sys.argv[1], sys.argv[2]
    try:
        with open(image, 'rb') as f:
            data = f.read()
    except OSError as e:
        sys.exit(f'image-btf: {image}: {e.strerror}')
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    found = list(candidates(data))
    how = ''
    if not found:
        inner, name = payload(data, image)
        if name:
            data, how = inner, f' in its {name} payload'
            found = list(candidates(data))
    if len(found) != 1:
        sys.exit(f'image-btf: {image}: {len(found)} BTF blobs found{how}, not 1 '
                 '(a kernel built without CONFIG_DEBUG_INFO_BTF, or compressed another way?)')
    start, end = found[0]
    with open(out + '.tmp', 'wb') as f:
        f.write(data[start:end])
    os.replace(out + '.tmp', out)


if __name__ == '__main__':
    main()
