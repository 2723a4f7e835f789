# -*- Python -*-
import os
import lit.formats

config.name = "clang-grad"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".test"]
config.excludes = ["Inputs", "snapshots", "getting-started-dump.test.py", "install", "fuzz-inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.grad_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.grad_llvm_tools_dir, config.environment.get("PATH", "")])

plugin = os.path.join(config.grad_obj_root, "lib", "ClangGrad.so")
include = os.path.join(config.grad_src_root, "runtime", "include")
inputs = os.path.join(config.grad_src_root, "test", "Inputs")
clangxx = config.grad_clangxx
sanitize = ""
if config.grad_sanitize.upper() in ("ON", "1", "TRUE", "YES"):
    sanitize = " -fsanitize=address,undefined -fno-sanitize-recover=undefined"

# Verify mode for every test program (`lit --param verify=1`, or
# GRAD_LIT_VERIFY=1): %gradxx adds -fplugin-arg-grad-verify; tests whose
# output is the generated code itself say UNSUPPORTED: verify.
verify = lit_config.params.get("verify", os.environ.get("GRAD_LIT_VERIFY", ""))
plugin_args = ""
if verify.upper() in ("ON", "1", "TRUE", "YES"):
    plugin_args = " -fplugin-arg-grad-verify"
    config.available_features.add("verify")

# %cxx: plain compile (no plugin); %gradxx: compile with the plugin.
config.substitutions.append(
    ("%cxx", f"{clangxx} -std=c++20 -O1 -I{include} -I{inputs}{sanitize}"))
config.substitutions.append(
    ("%gradxx", f"{clangxx} -std=c++20 -O1 -fplugin={plugin}{plugin_args} -I{include} -I{inputs}{sanitize}"))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%include", include))
config.substitutions.append(("%inputs", inputs))
# grad-dump with the same include paths as %gradxx.
config.substitutions.append(
    ("%dump", os.path.join(config.grad_obj_root, "bin", "grad-dump")))
config.substitutions.append(
    ("%dflags", f"-- -std=c++20 -I{include} -I{inputs}"))
config.substitutions.append(("%clangxx", clangxx))
config.substitutions.append(
    ("%grad-dump", os.path.join(config.grad_obj_root, "bin", "grad-dump")))
config.substitutions.append(("%python", config.grad_python))
config.substitutions.append(("%srcroot", config.grad_src_root))
config.substitutions.append(("%objroot", config.grad_obj_root))
config.substitutions.append(("%blas", config.grad_blas_libs.replace(";", " ")))
# FileCheck that fails on any stray diagnostic.
config.substitutions.append(
    ("%FileCheck-strict",
     "FileCheck --implicit-check-not=error: --implicit-check-not=warning:"))

# g++ for checking that grad-dump output compiles warning-free with GCC too
# (quickstart installs it; tests that need it say REQUIRES: gxx).
import shutil
gxx = shutil.which("g++")
if gxx:
    config.available_features.add("gxx")
    config.substitutions.append(
        ("%gxx", f"{gxx} -std=c++20 -I{include} -I{inputs}"))

# Universal Ctags measures the plugin's function sizes (test/docs).
if shutil.which("ctags"):
    config.available_features.add("ctags")
