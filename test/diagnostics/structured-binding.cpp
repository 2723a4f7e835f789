// A structured binding of differentiated values is an error that names the
// bindings and says what to write (it was a silently zero gradient); the
// statements that use the bindings get no follow-on errors. Bindings of an
// array or struct of values without derivatives are replayed
// (test/classes/control.cpp).
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

// CHECK: structured-binding.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate structured binding '[u, v]' (name the members: 'double u = ...;') in 'ref_binding'
// CHECK: structured-binding.cpp:[[@LINE+1]]:3: note: while differentiating 'ref_binding' requested here
[[grad]] double ref_binding(double x, double y) {
  V2 s{x, y * x};
  auto &[u, v] = s;
  u *= v;
  return s.x + v;
}

// Bindings of a tuple-like type (std::pair, std::tuple) are refused too.
// CHECK: structured-binding.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate structured binding '[n, m]' (name the members: 'int n = ...;') in 'int_binding'
// CHECK: structured-binding.cpp:[[@LINE+1]]:3: note: while differentiating 'int_binding' requested here
[[grad]] double int_binding(double x) {
  std::pair<int, int> d{2, 3};
  auto [n, m] = d;
  return x * n + m;
}
// CHECK: 3 errors generated
