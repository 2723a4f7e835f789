// The refusals quoted in docs/supported.md, section "Callables": lambdas
// capturing arrays by value, immediately invoked lambdas and std::function
// locals in a vector pullback, lambdas in forward mode, member calls of
// lambdas capturing `this`, std::function parameters.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <grad/grad.h>
#include <algorithm>
#include <functional>

// Capturing an array by value.
namespace ca {
[[grad]] double f(double x) {
  double a[2] = {x, 2 * x};
  auto g = [a](double t) { return a[0] * t; };
  // CHECK: callables.cpp:[[@LINE+1]]:10: error: grad: cannot differentiate call of lambda 'g', which captures the array 'a' by value (capture it by reference) in 'f'
  return g(x);
}
} // namespace ca

// Immediately invoked lambdas, vector pullback: accepted (the page quotes
// "use of the adjoint 'd_ret' as a value"); a named lambda without
// parameters is refused with that message.
namespace ii {
[[grad("lanes=2")]] double f(double x, double y) {
  double r = [&] { return x * y + x; }();
  return r;
}
} // namespace ii
namespace in {
[[grad("lanes=2")]] double f(double x, double y) {
  auto g = [&] { return x * y + x; };
  // CHECK: callables.cpp:[[@LINE+1]]:3: error: grad: cannot build the vector pullback of 'f': use of the adjoint 'd_ret' as a value
  return g() * x;
}
} // namespace in

// Capturing `this`, reading members: the member function's call in
// forward mode.
struct Model {
  double w;
  double run(double x) const {
    auto g = [this](double t) { return w * t; };
    return g(x);
  }
};
namespace ct {
[[grad::forward]] double f(double x, double w) {
  Model m{w};
  // CHECK: callables.cpp:[[@LINE+1]]:10: error: grad: cannot differentiate call to member function 'run' in 'f' in forward mode
  return m.run(x);
}
} // namespace ct

// Lambdas passed to other functions, forward mode.
namespace lp {
// (std::transform and the algorithms that only call their callable are
// differentiated: test/calls/algorithms-callables.cpp.)
[[grad::forward]] void f(const double *a, double *b) {
  for (int i = 0; i < 3; ++i)
    b[i] = a[i];
  // CHECK: callables.cpp:[[@LINE+1]]:37: error: grad: cannot differentiate lambda passed to 'nth_element' (write the loop) in 'f' in forward mode
  std::nth_element(b, b + 1, b + 3, [](double u, double v) { return u > v; });
}
} // namespace lp

// A local std::function, then only called: vector pullback; assigned
// again: forward mode.
namespace sf {
[[grad("lanes=2")]] double f(double x, double y) {
  std::function<double(double)> g = [&](double t) { return t * y; };
  // CHECK: callables.cpp:[[@LINE+1]]:3: error: grad: cannot build the vector pullback of 'f': use of the adjoint 'd_ret' as a value
  return g(x) * g(y);
}
} // namespace sf
namespace sa {
[[grad::forward]] double f(double x) {
  std::function<double(double)> g = [](double t) { return t * t; };
  g = [](double t) { return t; };
  // CHECK: callables.cpp:[[@LINE+1]]:10: error: grad: cannot differentiate call of the std::function 'g', whose target the plugin cannot follow (it follows one initialised with a lambda or function and then only called) in 'f' in forward mode
  return g(x);
}
} // namespace sa

// A predicate capturing a variable, in code without derivatives.
namespace cp {
[[grad]] double f(const double *v, double s, double t) {
  // CHECK: callables.cpp:[[@LINE+1]]:36: error: grad: cannot differentiate lambda expression in 'f'
  long n = std::count_if(v, v + 3, [&](double e) { return e > t; });
  return s * v[0] * static_cast<double>(n);
}
} // namespace cp

// std::function parameters, reverse and forward.
namespace pr {
[[grad]] double f(double x, const std::function<double(double)> &g) {
  // CHECK: callables.cpp:[[@LINE+1]]:10: error: grad: cannot differentiate call of the std::function 'g', a parameter whose target the plugin cannot see here (differentiate the caller that binds it to a lambda or function) in 'f'
  return g(x) * x;
}
} // namespace pr
namespace pf {
[[grad::forward]] double f(double x, const std::function<double(double)> &g) {
  // CHECK: callables.cpp:[[@LINE+1]]:10: error: grad: cannot differentiate call of the std::function 'g', a parameter whose target the plugin cannot see here (differentiate the caller that binds it to a lambda or function) in 'f' in forward mode
  return g(x) * x;
}
} // namespace pf
