// The refusals quoted in docs/supported.md, section "Functions you mark":
// the kinds of functions that cannot carry an attribute in some mode (a
// template or a member function in forward and vector modes, variadic and
// special member functions, literal operators, results without a tangent),
// each an error at the attribute with the page's text.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <grad/grad.h>

// Function templates, forward mode and vector pullback.
namespace tf {
// CHECK: functions.cpp:[[@LINE+1]]:22: error: grad: cannot declare the pushforward of 'f': forward mode does not support a function template yet
template <class T> [[grad::forward]] T f(T x, T y) { return x * y; }
double use(double x) { return f(x, 2.0); }
} // namespace tf
namespace tp {
// CHECK: functions.cpp:[[@LINE+1]]:22: error: grad: cannot declare the vector pullback of 'f': vector pullbacks of templates are not supported yet
template <class T> [[grad("lanes=2")]] T f(T x, T y) { return x * y; }
double use(double x) { return f(x, 2.0); }
} // namespace tp

// A member function in forward mode.
struct S {
  double k;
  // CHECK: functions.cpp:[[@LINE+1]]:5: error: grad: cannot declare the pushforward of 'e': forward mode does not support a member function yet
  [[grad::forward]] double e(double x) const { return k * x; }
};

// A C variadic function.
namespace va {
// CHECK: functions.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate variadic function 'f' yet
[[grad]] double f(double x, ...) { return x * x; }
} // namespace va

// Constructors, destructors, conversion functions, literal operators.
namespace sp {
struct S {
  double v;
  // CHECK: functions.cpp:[[@LINE+1]]:5: error: grad: cannot differentiate special member function 'S' yet
  [[grad]] S(double x) : v(x) {}
  // CHECK: functions.cpp:[[@LINE+1]]:5: error: grad: cannot differentiate special member function '~S' yet
  [[grad]] ~S() {}
  // CHECK: functions.cpp:[[@LINE+1]]:5: error: grad: cannot differentiate special member function 'operator double' yet
  [[grad]] operator double() const { return v; }
};
} // namespace sp
// CHECK: functions.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate literal operator 'operator""_m' yet
[[grad]] double operator""_m(long double x) { return double(x) * 2; }
// In forward mode a literal operator is accepted.
[[grad::forward]] double operator""_km(long double x) { return double(x) * 1000; }
// In an HVP, as in reverse mode.
// CHECK: functions.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate literal operator 'operator""_cm' yet
[[grad::hessian]] double operator""_cm(long double x) { return double(x) / 100; }

// Non-floating results, reference results in forward mode.
namespace ri {
// CHECK: functions.cpp:[[@LINE+1]]:3: error: grad: cannot declare the pushforward of 'f': the return type 'int' has no pushforward (a floating scalar or void is needed)
[[grad::forward]] int f(double x) { return x; }
} // namespace ri
namespace rr {
// CHECK: functions.cpp:[[@LINE+1]]:3: error: grad: cannot declare the pushforward of 'f': the return type 'double &' has no pushforward (a floating scalar or void is needed)
[[grad::forward]] double &f(double &x) { return x; }
} // namespace rr
