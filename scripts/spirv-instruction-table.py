#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prints the table of core SPIR-V instructions for docs/compatibility.md.

In scope: every instruction of the SPIR-V grammar (SPIRV-Headers) up to
SPIR-V 1.6 that a Kernel module may contain: not an extension's, not reserved,
and needing no capability or one the OpenCL SPIR-V environment allows. For
each, what Lanewise does:

- executed: spirv/ names it (lowering, module tables, normalisation), and
  the modules that the kernel tests run (tests/kernels, tests/check) contain
  it; the table names those modules;
- rejected: its capability fails the build by name (spirv/support.cpp).

An instruction spirv/ names that no executed test module contains is listed
as "executed, NOT TESTED", so that the table shows the gap.

Usage: scripts/spirv-instruction-table.py [BUILD_DIR]   (default: build)
It needs a build with the tests (the test kernels) and spirv-dis.
"""

import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRAMMAR = "/usr/include/spirv/unified1/spirv.core.grammar.json"

# Capabilities the OpenCL SPIR-V environment allows a module to declare
# (OpenCL 3.0 SPIR-V environment, 5.2); Lanewise supports some of them.
OPENCL_CAPABILITIES = {
    "Addresses", "Linkage", "Kernel", "Vector16", "Float16Buffer", "Float16", "Float64",
    "Int64", "Int64Atomics", "ImageBasic", "ImageReadWrite", "ImageMipmap", "Pipes",
    "Groups", "DeviceEnqueue", "LiteralSampler", "Int8", "Int16", "GenericPointer",
    "SubgroupDispatch", "NamedBarrier", "PipeStorage", "GroupNonUniform",
    "GroupNonUniformVote", "GroupNonUniformArithmetic", "GroupNonUniformBallot",
    "GroupNonUniformShuffle", "GroupNonUniformShuffleRelative",
    "GroupNonUniformClustered", "ImageQuery", "Sampled1D", "Image1D", "SampledBuffer",
    "ImageBuffer",
    # SPIR-V 1.6 (OpenCL SPIR-V environment, with cl_khr_integer_dot_product
    # for the dot products).
    "UniformDecoration", "DotProductInputAll", "DotProductInput4x8Bit",
    "DotProductInput4x8BitPacked", "DotProduct"}


# Image instructions outside what OpenCL C and the OpenCL SPIR-V environment
# use without mipmaps, multi-sampling or image atomics, which Lanewise does not
# offer: a module with one fails the build, naming it.
IMAGE_OUTSIDE_OPENCL = {
    "OpImageTexelPointer": "image atomics are",
    "OpImageFetch": "Vulkan-style fetches are",
    "OpImage": "images taken out of sampled images are",
    "OpImageQueryLevels": "mipmaps (cl_khr_mipmap_image) are",
    "OpImageQuerySamples": "multi-sampled images (cl_khr_gl_msaa_sharing) are",
}

# Image types: a module needs ImageBasic (or LiteralSampler) to use them.
IMAGE_TYPES = {"OpTypeImage", "OpTypeSampler", "OpTypeSampledImage", "OpImageTexelPointer",
               "OpConstantSampler"}


def version(text):
    major, minor = text.split(".")
    return int(major), int(minor)


def supported_capabilities():
    text = open(os.path.join(ROOT, "spirv", "support.cpp")).read()
    table = text[text.index("kSupportedCapabilities"):text.index("kSupportedExtensions")]
    return set(re.findall(r"spv::Capability(\w+)", table))


def in_scope(grammar):
    rows = []
    for instruction in grammar["instructions"]:
        if instruction.get("class") in ("Reserved", "@exclude") or instruction.get("extensions"):
            continue
        if instruction.get("version") == "None":
            continue
        if version(instruction.get("version", "1.0")) > (1, 6):
            continue
        capabilities = instruction.get("capabilities", [])
        if capabilities and not set(capabilities) & OPENCL_CAPABILITIES:
            continue
        rows.append(instruction)
    return rows


def tested_in(build):
    """Instruction name -> names of the executed test modules containing it."""
    found = {}
    for folder in ("tests/kernels/kernels", "tests/check/kernels"):
        for path in sorted(glob.glob(os.path.join(build, folder, "*.spv"))):
            name = os.path.basename(path)[:-4]
            # Modules with OpenCL.DebugInfo.100 that spirv-dis cannot read
            # are still disassembled as far as it gets.
            text = subprocess.run(["spirv-dis", "--raw-id", path], capture_output=True,
                                  text=True).stdout
            for opcode in set(re.findall(r"\b(Op[A-Z]\w*)\b", text)):
                found.setdefault(opcode, set()).add(re.sub(r"-O0$", "", name))
    return found


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    grammar = json.load(open(GRAMMAR))
    source = "".join(open(path).read() for path in glob.glob(os.path.join(ROOT, "spirv", "*.cpp")))
    supported = supported_capabilities()
    tests = tested_in(build)
    print("| instruction | class | what Lanewise does | tested by (tests/kernels/cl, tests/check/cl) |")
    print("|---|---|---|---|")
    for instruction in in_scope(grammar):
        name = instruction["opname"]
        capabilities = instruction.get("capabilities", [])
        allowed = [c for c in capabilities if c in OPENCL_CAPABILITIES]
        if (instruction.get("class") == "Image" or name in IMAGE_TYPES) \
                and "ImageBasic" not in supported:
            what = "rejected: images and samplers need ImageBasic, which is not supported"
            tested = ""
        elif name in IMAGE_OUTSIDE_OPENCL:
            what = ("rejected: " + IMAGE_OUTSIDE_OPENCL[name] + " not supported (the "
                    "build fails, naming the instruction)")
            tested = ""
        elif instruction.get("class") in ("Device-Side_Enqueue", "Pipe"):
            what = ("rejected: device-side enqueue and pipes are not supported (the capability, "
                    "or else the instruction, fails the build by name)")
            tested = ""
        elif allowed and not set(allowed) & supported:
            what = "rejected: capability " + " or ".join(allowed) + " is not supported"
            tested = ""
        elif re.search(r"spv::" + name + r"\b", source):
            modules = sorted(tests.get(name, ()))
            what = "executed" if modules else "executed, NOT TESTED"
            tested = ", ".join(modules[:4]) + (" ..." if len(modules) > 4 else "")
        else:
            what = "NOT IMPLEMENTED"
            tested = ""
        print(f"| {name} | {instruction.get('class', '')} | {what} | {tested} |")


if __name__ == "__main__":
    main()
