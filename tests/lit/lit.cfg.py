# The lit configuration of tessel's FileCheck tests.

import os
import subprocess
import tempfile

import lit.formats
from lit.llvm import llvm_config

config.name = "tessel"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tessel_obj_root, "tests", "lit")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]
config.substitutions.append(("%examples", os.path.join(config.tessel_src_root, "examples")))
config.substitutions.append(("%inputs", os.path.join(os.path.dirname(__file__), "Inputs")))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.tessel_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["tessel-opt", "tessel-eval", "tessel"], [config.tessel_tools_dir])


# Full-disk tests mount a small tmpfs, which needs root (as in CI's
# container); elsewhere they are reported as unsupported, not passed.
def can_mount_tmpfs():
    if os.geteuid() != 0:
        return False
    directory = tempfile.mkdtemp()
    try:
        mounted = subprocess.call(
            ["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", directory],
            stderr=subprocess.DEVNULL) == 0
        if mounted:
            subprocess.call(["umount", directory])
        return mounted
    finally:
        os.rmdir(directory)


if can_mount_tmpfs():
    config.available_features.add("tmpfs-mount")
