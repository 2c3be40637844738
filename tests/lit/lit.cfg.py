# The lit configuration of tessel's FileCheck tests.

import os

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
