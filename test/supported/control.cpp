// The refusals quoted in docs/supported.md, section "Control flow":
// condition variables in forward mode, `if consteval`, assignments on the
// right of `&&`, right operands that read what the left operand changes,
// loop headers that change differentiated values with a `break`, case
// ranges, and a range-based `for` over a std::span in forward mode.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <grad/grad.h>
#include <span>

// Condition variables of `if`, forward mode.
namespace ic {
[[grad::forward]] double f(double x, double y) {
  double r = y;
  // CHECK: control.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate 'if' with a condition variable in 'f' in forward mode
  if (double u = x - y)
    r = u * x;
  return r;
}
} // namespace ic

// `if consteval` (a C++23 extension in C++20).
#pragma clang diagnostic ignored "-Wc++23-extensions"
namespace ce {
[[grad]] double f(double x) {
  // CHECK: control.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate 'if consteval' in 'f'
  if consteval {
    return x;
  } else {
    return x * x;
  }
}
} // namespace ce

// An assignment on the right of `&&`, reverse and forward.
namespace ar {
[[grad]] double f(double x, double y) {
  double t = x;
  // CHECK: control.cpp:[[@LINE+1]]:22: error: grad: cannot differentiate assignment on the right of '&&' in 'f'
  bool b = y > 0 && (t *= y) > 1;
  return b ? t : x;
}
} // namespace ar
namespace af {
[[grad::forward]] double f(double x, double y) {
  double t = x;
  // CHECK: control.cpp:[[@LINE+1]]:21: error: grad: cannot differentiate a write or call of differentiated code on the right of '&&' in 'f' in forward mode
  bool b = y > 0 && (t *= y) > 1;
  return b ? t : x;
}
} // namespace af

// A right operand that reads what its left operand changes.
namespace rs {
[[grad]] double f(double x, double y) {
  double t = x;
  // CHECK: control.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate assignment whose right operand reads 't', which its left operand changes (C++ evaluates the right operand first: use two statements) in 'f'
  (t *= y) *= t;
  return t;
}
} // namespace rs

// A loop header that changes a differentiated value, with `break`.
namespace lb {
[[grad]] double f(double x, double dt) {
  double s = 0;
  // CHECK: control.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate 'for' loop whose condition or increment changes a differentiated value, with 'break' or 'return' in its body in 'f'
  for (double t = 0; t < 1; t += dt * x) {
    s += t * x;
    if (s > 10)
      break;
  }
  return s;
}
} // namespace lb

// Condition variables of loops, forward mode.
namespace lc {
[[grad::forward]] double f(double x, int n) {
  double s = 0;
  // CHECK: control.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate 'for' with a condition variable in 'f' in forward mode
  for (int i = 0; int left = n - i; ++i)
    s += x * left;
  return s;
}
} // namespace lc
namespace wc {
[[grad::forward]] double f(double x, double y) {
  double s = x;
  // CHECK: control.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate 'while' with a condition variable in 'f' in forward mode
  while (double d = s - y) {
    s = d > 0 ? y : s;
  }
  return s * x;
}
} // namespace wc

// Case ranges.
namespace cr {
[[grad]] double f(double x, int k) {
  double r = x;
  switch (k) {
  // CHECK: control.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate 'case' range in 'f'
  case 0 ... 3:
    r *= x;
    break;
  default:
    r = -x;
  }
  return r;
}
} // namespace cr

// Range-based `for` over a std::span, forward mode: refused (the page says
// yes; indexing the span is accepted).
namespace rf {
[[grad::forward]] double f(std::span<const double> s) {
  double r = 0;
  // CHECK: control.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate range-based 'for' over 'std::span<const double>' (arrays, std::vector, std::array and std::initializer_list only) in 'f' in forward mode
  for (double e : s)
    r += e * e;
  return r;
}
} // namespace rf
