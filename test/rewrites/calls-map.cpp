// Rewrites suggested by the refusals of grad::map and grad::broadcast: a
// map in a pushforward (write the loop; the same message for a
// Hessian-vector product is checked too, but there the loop over the
// std::vector is refused as well, so its rewrite also takes a pointer), a
// callable held in a function pointer parameter (a lambda or a function
// with a visible body), a pointer operation in the callable (read the value
// into a local before the call), a callable that changes an integer it
// captures (write this loop in the function), and a generic lambda passed
// to map (call it with arguments). The first RUN line checks each message,
// its location and its notes; the second compiles the rewrites under the
// same names and checks their derivatives against central finite
// differences.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>
#include <vector>

using V = std::vector<double>;

static double softplus(double z) { return std::log1p(std::exp(z)); }

#ifdef ERRORS
// A Hessian-vector product: the loop the message suggests is refused too
// (any std::vector parameter is, see the report), so no ADVICE line here;
// the rewrite below also takes a pointer.
[[grad::hessian]] double energy(const V &x, double s) {
  return s * grad::sum(grad::map([](double z) { return std::tanh(z) * z; }, x));
  // ERR: calls-map.cpp:[[@LINE-1]]:24: error: grad: cannot build the Hessian-vector product of 'energy': call to 'grad::map' (map and broadcast are lowered in reverse mode only: write the loop) (in its pullback) has no forward-mode derivative
  // ERR: calls-map.cpp:[[@LINE-3]]:3: note: while differentiating 'energy' requested here
}

// ADVICE: (map and broadcast are lowered in reverse mode only: write the loop)
[[grad::forward]] double pushed(const V &x, double s) {
  return s * grad::sum(grad::map([](double z) { return std::tanh(z) * z; }, x));
  // ERR: calls-map.cpp:[[@LINE-1]]:24: error: grad: cannot differentiate call to 'grad::map' (map and broadcast are lowered in reverse mode only: write the loop) in 'pushed' in forward mode
  // ERR: calls-map.cpp:[[@LINE-3]]:3: note: while differentiating 'pushed' requested here
}

// ADVICE: (a lambda or a function with a visible body is needed)
[[grad]] double loss(double (*act)(double), const V &x) {
  return grad::sum(grad::map(act, x));
  // ERR: calls-map.cpp:[[@LINE-1]]:30: error: grad: cannot differentiate callable passed to map/broadcast (a lambda or a function with a visible body is needed) in 'loss'
  // ERR: calls-map.cpp:[[@LINE-3]]:3: note: while differentiating 'loss' requested here
}

// ADVICE: (read the value into a local before the call)
[[grad]] double weighted(const V &x, const double *w) {
  return grad::sum(grad::map([&](double z) { return *w * z * z; }, x));
  // ERR: calls-map.cpp:[[@LINE-1]]:53: error: grad: cannot differentiate pointer operation '*w' in the callable passed to 'grad::map' (read the value into a local before the call) in 'weighted'
  // ERR: calls-map.cpp:[[@LINE-3]]:3: note: while differentiating 'weighted' requested here
}

// ADVICE: (the reverse sweep restores only the floating-point numbers a callable changes, element by element: write this loop in the function)
[[grad]] double decay(const V &x, double r) {
  int k = 0;
  return grad::sum(grad::map([&](double z) { double g = std::pow(r, k); k = k + 1; return g * z * z; }, x));
  // ERR: calls-map.cpp:[[@LINE-1]]:30: error: grad: cannot differentiate callable passed to 'grad::map' that changes 'k', of type 'int' (the reverse sweep restores only the floating-point numbers a callable changes, element by element: write this loop in the function) in 'decay'
  // ERR: calls-map.cpp:[[@LINE-4]]:3: note: while differentiating 'decay' requested here
}

// ADVICE: (give its parameters types, such as 'double z', or call it with arguments)
[[grad]] double generic(const V &x) {
  return grad::sum(grad::map([](auto z) { return z * std::sin(z); }, x));
  // ERR: calls-map.cpp:[[@LINE-1]]:30: error: grad: cannot differentiate generic lambda used where the types of its arguments are not known (give its parameters types, such as 'double z', or call it with arguments) in 'generic'
  // ERR: calls-map.cpp:[[@LINE-3]]:3: note: while differentiating 'generic' requested here
}
#else
// The loop over a pointer and a count.
[[grad::hessian]] double energy(const double *x, int n, double s) {
  double t = 0;
  for (int i = 0; i < n; ++i)
    t += std::tanh(x[i]) * x[i];
  return s * t;
}

[[grad::forward]] double pushed(const V &x, double s) {
  double t = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    t += std::tanh(x[i]) * x[i];
  return s * t;
}

// The callable named: a function whose body is visible.
[[grad]] double loss(double (*act)(double), const V &x) {
  return grad::sum(grad::map(softplus, x));
}

[[grad]] double weighted(const V &x, const double *w) {
  double w0 = *w;
  return grad::sum(grad::map([&](double z) { return w0 * z * z; }, x));
}

[[grad]] double decay(const V &x, double r) {
  double s = 0;
  for (std::size_t k = 0; k < x.size(); ++k)
    s += std::pow(r, k) * x[k] * x[k];
  return s;
}

[[grad]] double generic(const V &x) {
  auto f = [](auto z) { return z * std::sin(z); };
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    s += f(x[i]);
  return s;
}
// The other rewrite: the parameter given a type.
[[grad]] double typed(const V &x) {
  return grad::sum(grad::map([](double z) { return z * std::sin(z); }, x));
}
#endif

// d f / d x[i] by central differences, f a function of the vector.
template <class F> static double fdAt(F f, V x, std::size_t i) {
  double x0 = x[i];
  return gradcheck::fd(
      [&](double t) {
        x[i] = t;
        return f(x);
      },
      0, x0);
}

int main() {
  const V x{0.3, -1.2, 0.8};
#ifndef ERRORS
  // energy: its Hessian-vector product along v = (e_0, 1), the derivative
  // of its gradient along v.
  {
    auto grad = [&](double t, int i) {
      double y[3] = {x[0] + t, x[1], x[2]}, d[3] = {0, 0, 0}, ds = 0;
      energy_pullback(y, 3, 0.7 + t, 1.0, d, &ds);
      return i < 3 ? d[i] : ds;
    };
    double vx[3] = {1, 0, 0}, hx[3] = {0, 0, 0}, hs = 0;
    energy_hvp(x.data(), 3, 0.7, vx, 1.0, hx, &hs);
    for (int i = 0; i < 3; ++i)
      gradcheck::expect("energy.hvp.x" + std::to_string(i), hx[i],
                        gradcheck::fd([&](double t) { return grad(t, i); }, 0,
                                      0.0));
    gradcheck::expect("energy.hvp.s", hs,
                      gradcheck::fd([&](double t) { return grad(t, 3); }, 0,
                                    0.0));
  }
  // pushed: the pushforward along each input.
  for (std::size_t i = 0; i < 3; ++i) {
    V t(3, 0.0);
    t[i] = 1;
    gradcheck::expect("pushed.x" + std::to_string(i),
                      pushed_pushforward(x, 0.7, t, 0.0).der[0],
                      fdAt([](const V &v) { return pushed(v, 0.7); }, x, i));
  }
  gradcheck::expect("pushed.s", pushed_pushforward(x, 0.7, V(3, 0.0), 1.0).der[0],
                    gradcheck::fd([&](double s) { return pushed(x, s); }, 0,
                                  0.7));
#endif
  // CHECK: ok energy.hvp.x0
  // CHECK: ok energy.hvp.x1
  // CHECK: ok energy.hvp.x2
  // CHECK: ok energy.hvp.s
  // CHECK: ok pushed.x0
  // CHECK: ok pushed.x1
  // CHECK: ok pushed.x2
  // CHECK: ok pushed.s
  {
    V dx(3, 0.0);
    loss_pullback(softplus, x, 1.0, &dx);
    for (std::size_t i = 0; i < 3; ++i)
      gradcheck::expect("loss.x" + std::to_string(i), dx[i],
                        fdAt([](const V &v) { return loss(softplus, v); }, x,
                             i));
  }
  // CHECK: ok loss.x0
  // CHECK: ok loss.x1
  // CHECK: ok loss.x2
  {
    double w = 1.7, dw = 0;
    V dx(3, 0.0);
    weighted_pullback(x, &w, 1.0, &dx, &dw);
    for (std::size_t i = 0; i < 3; ++i)
      gradcheck::expect("weighted.x" + std::to_string(i), dx[i],
                        fdAt([&](const V &v) { return weighted(v, &w); }, x,
                             i));
    gradcheck::expect("weighted.w", dw,
                      gradcheck::fd(
                          [&](double t) { return weighted(x, &t); }, 0, w));
  }
  // CHECK: ok weighted.x0
  // CHECK: ok weighted.x1
  // CHECK: ok weighted.x2
  // CHECK: ok weighted.w
  {
    V dx(3, 0.0);
    double dr = 0;
    decay_pullback(x, 0.6, 1.0, &dx, &dr);
    for (std::size_t i = 0; i < 3; ++i)
      gradcheck::expect("decay.x" + std::to_string(i), dx[i],
                        fdAt([](const V &v) { return decay(v, 0.6); }, x, i));
    gradcheck::expect("decay.r", dr,
                      gradcheck::fd([&](double r) { return decay(x, r); }, 0,
                                    0.6));
  }
  // CHECK: ok decay.x0
  // CHECK: ok decay.x1
  // CHECK: ok decay.x2
  // CHECK: ok decay.r
  {
    V dx(3, 0.0);
    generic_pullback(x, 1.0, &dx);
    for (std::size_t i = 0; i < 3; ++i)
      gradcheck::expect("generic.x" + std::to_string(i), dx[i],
                        fdAt([](const V &v) { return generic(v); }, x, i));
  }
  // CHECK: ok generic.x0
  // CHECK: ok generic.x1
  // CHECK: ok generic.x2
#ifndef ERRORS
  {
    V dt(x.size(), 0.0);
    typed_pullback(x, 1.0, &dt);
    for (std::size_t i = 0; i < x.size(); ++i)
      gradcheck::expect("typed.x" + std::to_string(i), dt[i],
                        fdAt([](const V &v) { return typed(v); }, x, i));
  }
#endif
  // CHECK: ok typed.x0
  return gradcheck::failures();
}
