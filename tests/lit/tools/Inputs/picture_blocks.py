#!/usr/bin/env python3
"""Prints the structure of a `tessel explain --picture` page, one line per
rank of the mesh and per block of each tensor, for FileCheck. Parsing it as
XML checks that the page is well formed.

usage: picture_blocks.py PAGE.html
"""
import sys
import xml.etree.ElementTree as ElementTree

SVG = "{http://www.w3.org/2000/svg}"
page = ElementTree.parse(sys.argv[1]).getroot()
for svg in page.iter(SVG + "svg"):
    if svg.get("class") == "mesh":
        print("mesh")
        for rank in svg.findall(SVG + "g"):
            print(f"  rank {rank.get('data-rank')} at {rank.get('data-coords')}")
        continue
    print(f"tensor {svg.get('data-name')} down {svg.get('data-row-dim') or '-'}"
          f" across {svg.get('data-column-dim') or '-'}")
    for block in svg.findall(SVG + "g"):
        rect = block.find(SVG + "rect")
        print(f"  rows {block.get('data-rows')} columns {block.get('data-columns')}"
              f" ranks {block.get('data-ranks')} fill {rect.get('fill')}")
