// Bindings of structs, of references to arrays (test/classes/bindings.cpp)
// and of tuple-like types (test/classes/tuples.cpp) are supported; a copy
// of an array is refused, and the statements that use its bindings get no
// follow-on errors.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <utility>

struct V2 { double x, y; };

// CHECK: structured-binding.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate structured binding of a copy of an array (bind a reference, 'auto &[a, b] = arr;', or name the elements) in 'array_copy'
// CHECK: structured-binding.cpp:[[@LINE+1]]:3: note: while differentiating 'array_copy' requested here
[[grad]] double array_copy(double x) {
  double a[2] = {x, 2 * x};
  auto [p, q] = a;
  return p * q;
}
// CHECK: 1 error generated
