// Messages a newcomer met on the first day (issue 54), each with what is
// now accepted: a `std::vector<double> y(out, 0.0)` sized by an int member
// in a const member function (was "constructed from 'out'"), a
// default-constructed local `E e;` (was "construction of 'E'" with no
// reason), and a non-const call operator whose result is used: refused with
// the rewrite that is accepted (declare it const), which the second part
// checks against finite differences; and an iterator passed to an
// algorithm beside a callable, where the advice is the loop alone.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <algorithm>
#include <grad/grad.h>
#include <vector>

struct Layer {
  int in, out;
  std::vector<double> W;
  std::vector<double> forward(const std::vector<double> &x) const {
    std::vector<double> y(out, 0.0);
    for (int o = 0; o < out; ++o)
      for (int i = 0; i < in; ++i)
        y[o] += W[o * in + i] * x[i];
    return y;
  }
};

[[grad]] double mlp(const Layer &l, double a, double b) {
  std::vector<double> y = l.forward({a, b});
  double s = 0;
  for (double v : y)
    s += std::tanh(v) * v;
  return s;
}

#ifdef ERRORS
struct Square {
  double operator()(double v) { return v * v; } // not const
};
// ADVICE: (if it does not change its object, declare it 'const')
// ERR: first-day-messages.cpp:[[@LINE+2]]:53: error: grad: cannot differentiate call to non-const member function 'operator()' whose result is used (if it does not change its object, declare it 'const') in 'square'
// ERR: first-day-messages.cpp:[[@LINE+1]]:3: note: while differentiating 'square' requested here
[[grad]] double square(double x) { Square s; return s(x) + x; }

// An algorithm given a callable that reorders the values by it: the
// advice is the loop.
// (std::transform and the algorithms that only call their callable are
// differentiated: test/calls/algorithms-callables.cpp.)
[[grad]] double mapped(const std::vector<double> &x) {
  std::vector<double> y(x);
  // ADVICE: (write the loop)
  // ERR: first-day-messages.cpp:[[@LINE+3]]:20: error: grad: cannot differentiate lambda passed to 'nth_element' (write the loop) in 'mapped'
  // ERR: first-day-messages.cpp:[[@LINE-4]]:3: note: while differentiating 'mapped' requested here
  std::nth_element(y.begin(), y.begin(), y.end(),
                   [](double a, double b) { return a > b; });
  return y[0];
}

// Forward mode: an error in a callee has notes back to the user's call
// (they stopped at the first callee: inside libstdc++ for nth_element).
struct Sq { double operator()(double v) const { return v * v; } };
// ERR: first-day-messages.cpp:[[@LINE+1]]:46: error: grad: cannot differentiate call operator of 'Sq' (forward mode does not differentiate member functions yet) in 'inner' in forward mode
static double inner(double v) { Sq s; return s(v); }
// ERR: first-day-messages.cpp:[[@LINE+1]]:40: note: while differentiating 'inner', called here
static double outer(double v) { return inner(v) + v; }
// ERR: first-day-messages.cpp:[[@LINE+2]]:51: note: while differentiating 'outer', called here
// ERR: first-day-messages.cpp:[[@LINE+1]]:3: note: while differentiating 'chain' requested here
[[grad::forward]] double chain(double x) { return outer(x); }
#else
struct Square {
  double operator()(double v) const { return v * v; }
};
[[grad]] double square(double x) { Square s; return s(x) + x; }
// The loop instead of std::nth_element: the largest element.
[[grad]] double mapped(const std::vector<double> &x) {
  double m = x[0];
  for (std::size_t i = 1; i < x.size(); ++i)
    if (x[i] > m)
      m = x[i];
  return m;
}
#endif

struct Scaled {
  double k = 1.5;
  double operator()(double v) const { return k * v * v; }
};
struct Counter {
  int n = 0;
  Counter() { n = 1; }
};
// Default-constructed locals, inactive or active.
[[grad]] double locals(double x) {
  Scaled s;
  Counter c;
  double r = s(x) * c.n;
  s.k = x;
  return r + s(x);
}

int main() {
  Layer L{2, 3, {0.5, -0.25, 1.0, 0.75, -0.5, 0.25}};
  auto f = [&](double a, double b) { return mlp(L, a, b); };
  Layer dL{2, 3, std::vector<double>(6, 0.0)};
  double da = 0, db = 0;
  mlp_pullback(L, 0.3, -0.7, 1.0, &dL, &da, &db);
  gradcheck::expect("mlp.da", da, gradcheck::fd(f, 0, 0.3, -0.7));
  gradcheck::expect("mlp.db", db, gradcheck::fd(f, 1, 0.3, -0.7));
  // CHECK: ok mlp.da
  // CHECK: ok mlp.db
  gradcheck::check_grad("square", square, square_pullback, 1.3);
  // CHECK: ok square.d0
  gradcheck::check_grad("locals", locals, locals_pullback, 0.8);
  // CHECK: ok locals.d0
#ifndef ERRORS
  std::vector<double> x{1.5, -2.0}, dx(2, 0.0);
  mapped_pullback(x, 1.0, &dx);
  gradcheck::expect("mapped.d0", dx[0], 1.0);
  gradcheck::expect("mapped.d1", dx[1], 0.0);
  // CHECK: ok mapped.d0
  // CHECK: ok mapped.d1
#endif
  return gradcheck::failures();
}
