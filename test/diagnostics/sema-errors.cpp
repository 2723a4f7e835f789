// A [[grad]] function with an ordinary C++ error gets clang's error only:
// the plugin adds nothing about the broken expression, and a correct
// function in the same file is still differentiated (its pullback exists:
// the wrong call to it gets clang's overload error, nothing else).
// RUN: not %gradxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=grad:
#include <cmath>

[[grad]] double f(double x) {
  // CHECK: sema-errors.cpp:[[@LINE+1]]:14: error: use of undeclared identifier 'undefined_fn'
  double y = undefined_fn(x) + x;
  return y * std::sin(x);
}

[[grad]] double g(double x) { return x * x; }

int main() {
  // CHECK: sema-errors.cpp:[[@LINE+1]]:3: error: no matching function for call to 'g_pullback'
  g_pullback(1.0, 2.0);
}
// CHECK: 2 errors generated
