// [[grad]] functions whose bodies clang rejects (the inputs libFuzzer
// produces most): clang's errors only, no grad diagnostic about the broken
// code, and no crash, in the plugin and in grad-dump.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=grad: --implicit-check-not=error:
// RUN: not %dump %s %dflags 2>&1 | FileCheck %s --implicit-check-not=grad: --implicit-check-not=error:

// CHECK: invalid-code.cpp:[[@LINE+1]]:42: error: use of undeclared identifier 'undeclared'
[[grad]] double f(double x) { return x * undeclared; }
// CHECK: invalid-code.cpp:[[@LINE+1]]:46: error: expected expression
[[grad]] double g(double x) { double y = x * ; return y; }
// CHECK: invalid-code.cpp:[[@LINE+1]]:58: error: expected expression
[[grad]] double h(double x, double) { return h(x, 1.0) + ; }
// Calls to the broken functions: nothing more to report.
[[grad]] double k(double x) { return g(x) + f(x); }
// CHECK: invalid-code.cpp:[[@LINE+1]]:28: error: expected function body after function declarator
[[grad]] double m(double x)
