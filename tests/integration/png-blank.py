#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""png-blank.py FILE WIDTH: exit 0 when FILE is a PNG WIDTH pixels wide,
over 1000 high, and not blank: a one-colour page filters to rows of
nearly one byte value; a page with text and charts has hundreds."""
import struct
import sys
import zlib

data = open(sys.argv[1], 'rb').read()
if data[:8] != b'\x89PNG\r\n\x1a\n':
    sys.exit('not a PNG')
w, h = struct.unpack('>II', data[16:24])
idat, i = b'', 8
while i < len(data):
    n, kind = struct.unpack('>I4s', data[i:i + 8])
    if kind == b'IDAT':
        idat += data[i + 8:i + 8 + n]
    i += 12 + n
distinct = len(set(zlib.decompress(idat)))
print(f'# screenshot {w}x{h}, {distinct} distinct byte values')
sys.exit(0 if w == int(sys.argv[2]) and h > 1000 and distinct > 32 else 1)
