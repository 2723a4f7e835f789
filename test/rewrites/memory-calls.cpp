// Rewrites suggested by the refusals about helpers that write through their
// arguments: a std::tuple returned by such a helper (return a struct or a
// std::pair), a std::vector returned by one inside a loop (return it
// through a reference parameter), a reference argument that is the same
// memory as another argument (pass a copy). The first part checks each
// message and its location; the second compiles the rewrites under the
// same names and checks their gradients against central finite
// differences; also a reference to part of the object a member function is
// called on (pass a copy). The message for a grad::tensor taken by value and
// written in a helper differentiated in two halves is checked without its
// rewrite (see below).
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>
#include <tuple>
#include <utility>
#include <vector>

// One damped step of a state, the energy and the number of steps taken.
#ifdef ERRORS
std::tuple<double, int, double> step(double &u, double h) {
  u *= std::exp(-h);
  return {u * u, 1, h * u};
}
// ADVICE: (return a struct or a std::pair, or return it through a reference parameter)
// ERR: memory-calls.cpp:[[@LINE+4]]:12: error: grad: cannot differentiate value of step(u, h), of type 'std::tuple<double, int, double>', returned by a call that also writes through its arguments (return a struct or a std::pair, or return it through a reference parameter) in 'energy'
// ERR: memory-calls.cpp:[[@LINE+1]]:3: note: while differentiating 'energy' requested here
[[grad]] double energy(double u0, double h) {
  double u = u0;
  auto r = step(u, h);
  return std::get<0>(r) + std::get<2>(r) * u;
}

// A helper filling a new vector while it updates its input, in a loop.
std::vector<double> advance(std::vector<double> &x, double h) {
  x[0] += h * x[1];
  std::vector<double> f(2);
  f[0] = x[0] * x[0];
  f[1] = h * x[1];
  return f;
}
// ADVICE: (return it through a reference parameter)
// ERR: memory-calls.cpp:[[@LINE+6]]:29: error: grad: cannot differentiate value of advance(x, h), of type 'std::vector<double>', returned by a call that also writes through its arguments, inside a loop (return it through a reference parameter) in 'flow'
// ERR: memory-calls.cpp:[[@LINE+1]]:3: note: while differentiating 'flow' requested here
[[grad]] double flow(double a, double h) {
  std::vector<double> x{a, 1.0};
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    std::vector<double> f = advance(x, h);
    s += f[0] + f[1];
  }
  return s;
}
#else
struct Step {
  double e;
  int n;
  double w;
};
Step step(double &u, double h) {
  u *= std::exp(-h);
  return {u * u, 1, h * u};
}
[[grad]] double energy(double u0, double h) {
  double u = u0;
  Step r = step(u, h);
  return r.e + r.w * u;
}

void advance(std::vector<double> &x, double h, std::vector<double> &f) {
  x[0] += h * x[1];
  f[0] = x[0] * x[0];
  f[1] = h * x[1];
}
[[grad]] double flow(double a, double h) {
  std::vector<double> x{a, 1.0};
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    std::vector<double> f(2);
    advance(x, h, f);
    s += f[0] + f[1];
  }
  return s;
}
#endif

// A relaxation step of one point towards the mean of its neighbours.
void relax(double &u, const double *nb, int n) {
  double m = 0;
  for (int i = 0; i < n; ++i)
    m += nb[i];
  u += 0.5 * std::tanh(m / n - u);
}

// A spring whose stiffness follows the extension it is given.
struct Spring {
  double k;
  void stretch(double &x) {
    k += 0.1 * x * k;
    x *= std::cos(k);
  }
};

#ifdef ERRORS
// ADVICE: (the derivative would take them for different memory: pass a copy)
// ERR: memory-calls.cpp:[[@LINE+4]]:9: error: grad: cannot differentiate call to 'relax' passing 'u[1]' by reference and memory that may be the same through its parameter 'nb' (the derivative would take them for different memory: pass a copy) in 'smooth'
// ERR: memory-calls.cpp:[[@LINE+1]]:3: note: while differentiating 'smooth' requested here
[[grad]] double smooth(double a, double b, double c) {
  double u[3] = {a, b, c};
  relax(u[1], u, 3);
  return u[0] * u[1] + u[2] * u[1];
}

// Its rewrite, a local copy (which the method writes, not the object):
// checked below; it gave a wrong derivative in k before methods wrote
// their reference arguments in place (test/members/writes-reference-args.cpp).
// ADVICE: (pass a copy)
// ERR: memory-calls.cpp:[[@LINE+4]]:13: error: grad: cannot differentiate call to 'stretch' passing 's.k' by reference, which is part of the object it is called on (pass a copy) in 'spring'
// ERR: memory-calls.cpp:[[@LINE+1]]:3: note: while differentiating 'spring' requested here
[[grad]] double spring(double k, double x) {
  Spring s{k};
  s.stretch(s.k);
  return s.k * x;
}
#else
[[grad]] double smooth(double a, double b, double c) {
  double u[3] = {a, b, c};
  double nb[3] = {u[0], u[1], u[2]};
  relax(u[1], nb, 3);
  return u[0] * u[1] + u[2] * u[1];
}
[[grad]] double spring(double k, double x) {
  Spring s{k};
  double e = s.k;
  s.stretch(e);
  return s.k * x + e;
}
#endif

// A helper that adds a penalty of a tensor to an accumulator, working on
// its own copy of the tensor: rewritten with a local std::vector. (A local
// grad::tensor there is refused: its adjoint's shape is set at run time,
// and the reverse half indexed an unsized shadow before, an assertion in
// tensor::operator[].)
// ADVICE: (take it by const reference and copy its elements into a local std::vector)
#ifdef ERRORS
// ERR: memory-calls.cpp:[[@LINE+1]]:42: error: grad: cannot differentiate parameter 't' of type 'grad::tensor<double>' passed by value and written in a helper whose arguments change before the reverse sweep (take it by const reference and copy its elements into a local std::vector) in 'penalty'
static void penalty(grad::tensor<double> t, double &acc) {
  t[0] *= t[1];
  acc += t[0] * t[0] + std::sin(t[1]);
}
// ERR: memory-calls.cpp:[[@LINE+4]]:3: note: while differentiating 'penalty', called here
// ERR: memory-calls.cpp:[[@LINE+1]]:3: note: while differentiating 'loss' requested here
[[grad]] double loss(const grad::tensor<double> &x, double w) {
  double acc = w * w;
  penalty(x, acc);
  return acc * w;
}
static void penalty_tensor(const grad::tensor<double> &t0, double &acc) {
  // ERR: memory-calls.cpp:[[@LINE+1]]:24: error: grad: cannot differentiate local 't' of type 'grad::tensor<double>' (its adjoint's shape is set at run time; a std::vector's is carried over) in a function differentiated in two halves (a helper that writes through a parameter, called from another differentiated function) in 'penalty_tensor'
  grad::tensor<double> t = t0;
  t[0] *= t[1];
  acc += t[0] * t[0] + std::sin(t[1]);
}
// ERR: memory-calls.cpp:[[@LINE+4]]:3: note: while differentiating 'penalty_tensor', called here
// ERR: memory-calls.cpp:[[@LINE+1]]:3: note: while differentiating 'loss_tensor' requested here
[[grad]] double loss_tensor(const grad::tensor<double> &x, double w) {
  double acc = w * w;
  penalty_tensor(x, acc);
  return acc * w;
}
#else
static void penalty(const grad::tensor<double> &t0, double &acc) {
  std::vector<double> t(t0.size());
  for (std::size_t i = 0; i < t.size(); ++i)
    t[i] = t0[i];
  t[0] *= t[1];
  acc += t[0] * t[0] + std::sin(t[1]);
}
[[grad]] double loss(const grad::tensor<double> &x, double w) {
  double acc = w * w;
  penalty(x, acc);
  return acc * w;
}
#endif

int main() {
  gradcheck::check_grad("energy", energy, energy_pullback, 0.8, 0.3);
  // CHECK: ok energy.d0
  // CHECK: ok energy.d1
  gradcheck::check_grad("flow", flow, flow_pullback, 0.7, 0.2);
  // CHECK: ok flow.d0
  // CHECK: ok flow.d1
  gradcheck::check_grad("smooth", smooth, smooth_pullback, 0.4, 1.3, -0.6);
  // CHECK: ok smooth.d0
  // CHECK: ok smooth.d1
  // CHECK: ok smooth.d2
#ifndef ERRORS
  gradcheck::check_grad("spring", spring, spring_pullback, 0.7, 1.2);
  grad::tensor<double> x({2}), dx({2});
  x[0] = 0.7;
  x[1] = -0.4;
  double dw = 0;
  loss_pullback(x, 1.3, 1.0, &dx, &dw);
  for (int i = 0; i < 2; ++i)
    gradcheck::expect("loss.x" + std::to_string(i), dx[i],
                      gradcheck::fd(
                          [&](double a) {
                            grad::tensor<double> y = x;
                            y[i] = a;
                            return loss(y, 1.3);
                          },
                          0, x[i]));
  gradcheck::expect("loss.w", dw, gradcheck::fd(
                                      [&](double w) { return loss(x, w); }, 0,
                                      1.3));
#endif
  // CHECK: ok spring.d0
  // CHECK: ok spring.d1
  // CHECK: ok loss.x0
  // CHECK: ok loss.x1
  // CHECK: ok loss.w
  return gradcheck::failures();
}
