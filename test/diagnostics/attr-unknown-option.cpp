// Unknown string arguments to [[grad]] are errors at the argument.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: attr-unknown-option.cpp:[[@LINE+1]]:13: error: grad: unknown attribute argument 'mode=fast'
[[grad("x", "mode=fast")]] double f(double x) { return x * x; }

// CHECK: attr-unknown-option.cpp:[[@LINE+1]]:8: error: grad: unknown attribute argument 'mode=fast'
[[grad("mode=fast")]] double g(double x) { return x * x; }
