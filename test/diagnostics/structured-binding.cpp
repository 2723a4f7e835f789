// A structured binding of a tuple-like type (std::pair, std::tuple) is an
// error that names the bindings and says what to write (it was a silently
// zero gradient); the statements that use the bindings get no follow-on
// errors. Bindings of structs and of references to arrays are supported
// (test/classes/bindings.cpp); a copy of an array is refused.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <utility>

struct V2 { double x, y; };

// CHECK: structured-binding.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate structured binding '[a, b]' (name the members: 'double a = ...;') in 'pair_binding'
// CHECK: structured-binding.cpp:[[@LINE+1]]:3: note: while differentiating 'pair_binding' requested here
[[grad]] double pair_binding(double x, double y) {
  std::pair<double, double> p{x * y, y};
  auto [a, b] = p;
  return a * b;
}

// Also without derivatives.
// CHECK: structured-binding.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate structured binding '[n, m]' (name the members: 'int n = ...;') in 'int_binding'
// CHECK: structured-binding.cpp:[[@LINE+1]]:3: note: while differentiating 'int_binding' requested here
[[grad]] double int_binding(double x) {
  std::pair<int, int> d{2, 3};
  auto [n, m] = d;
  return x * n + m;
}
// CHECK: structured-binding.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate structured binding of a copy of an array (bind a reference, 'auto &[a, b] = arr;', or name the elements) in 'array_copy'
// CHECK: structured-binding.cpp:[[@LINE+1]]:3: note: while differentiating 'array_copy' requested here
[[grad]] double array_copy(double x) {
  double a[2] = {x, 2 * x};
  auto [p, q] = a;
  return p * q;
}
// CHECK: 3 errors generated
