#!/usr/bin/env python3
# A picture of one frame's map: the distorted frame beside the same frame with its
# map over it, in the library's colours, as a PNG (docs/maps.md's picture).
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
#   PYTHONPATH=build/python /usr/bin/python3 scripts/python/map_picture.py \
#       -r REF -d DIS [--width W --height H --pix-fmt F] [--frame N] [--max-width PX] -o OUT.png
#
# Without --frame, the frame with the lowest adm2.

import argparse
import sys

import numpy as np

import floatadm
from floatadm import map_image
from floatadm.files import open_pair


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-r", "--reference", required=True)
    parser.add_argument("-d", "--distorted", required=True)
    parser.add_argument("--width", type=int)
    parser.add_argument("--height", type=int)
    parser.add_argument("--pix-fmt")
    parser.add_argument("--frame", type=int, help="the frame (default: lowest adm2)")
    parser.add_argument("--max-width", type=int, default=960,
                        help="the picture's width at most (both halves)")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()

    results = floatadm.score_files(reference=args.reference, distorted=args.distorted,
                                   width=args.width, height=args.height, pix_fmt=args.pix_fmt,
                                   map=True)
    index = (min(range(len(results.frames)), key=lambda i: results.frames[i]["adm2"])
             if args.frame is None else args.frame)
    ref, dis, geometry = open_pair(args.reference, args.distorted, args.width, args.height,
                                   args.pix_fmt)
    with ref, dis:
        luma = map_image.luma_8bit(dis.read_luma(results.frames[index]["frame"]),
                                   geometry.bit_depth)
    frame = np.repeat(luma[:, :, None], 3, axis=2)
    gap = np.full((luma.shape[0], 8, 3), 255, np.uint8)
    both = np.concatenate([frame, gap, map_image.overlay(results.maps[index], luma)], axis=1)
    with open(args.output, "wb") as out:
        out.write(map_image.png(map_image.shrink(both, args.max_width)))
    f = results.frames[index]
    loss = results.maps[index]
    print("frame %d: adm2 %.6f, block loss mean %.4f max %.4f over the %d measured blocks"
          % (f["frame"], f["adm2"], np.nanmean(loss), np.nanmax(loss),
             np.count_nonzero(~np.isnan(loss))), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
