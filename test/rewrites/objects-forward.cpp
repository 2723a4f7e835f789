// Rewrites the forward-mode refusals about member functions and vector
// mode suggest, checked: each refused form (-DERRORS) gets its message,
// with its exact text and location, and the rewrite the message suggests
// compiles and has the directional derivatives of central finite
// differences. A member function that may write a differentiated argument
// (make it a free function taking the object). Two refusals whose
// suggested rewrite is refused too, kept with the refused rewrite and the
// form that is accepted: a member function returning a std::vector (a free
// function returning it has no pushforward either; one writing an output
// parameter is accepted). A user's scalar pushforward of a callee taking
// a pointer, called in vector mode: the overload taking grad::lanes the
// message suggests, declared beside it, is used (it was not before).
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>
#include <vector>

// --- A const member function writing a differentiated argument through
// a reference parameter.
#ifdef ERRORS
struct Problem {
  double k;
  void eval(int n, const double *x, double &obj) const {
    obj = 0;
    for (int i = 0; i < n; ++i)
      obj += k * x[i] * x[i];
  }
};
[[grad::forward]] double energy(const double *x) {
  Problem p{1.5};
  double obj = 0;
  // ADVICE: (forward mode does not differentiate member functions yet: make it a free function taking the object)
  // ERR: objects-forward.cpp:[[@LINE+2]]:16: error: grad: cannot differentiate call to member function 'eval', which may write the differentiated memory 'obj' (forward mode does not differentiate member functions yet: make it a free function taking the object) in 'energy' in forward mode
  // ERR: objects-forward.cpp:[[@LINE-5]]:3: note: while differentiating 'energy' requested here
  p.eval(2, x, obj);
  return obj * std::sin(x[0]);
}
#else
struct Problem {
  double k;
};
static void eval(const Problem &p, int n, const double *x, double &obj) {
  obj = 0;
  for (int i = 0; i < n; ++i)
    obj += p.k * x[i] * x[i];
}
[[grad::forward]] double energy(const double *x) {
  Problem p{1.5};
  double obj = 0;
  eval(p, 2, x, obj);
  return obj * std::sin(x[0]);
}
#endif

// --- A member function returning a vector computed from a differentiated
// argument. The free function the message suggests is refused for its
// return type; a free function writing an output parameter is accepted.
struct Layer {
  double w, b;
#ifdef ERRORS
  std::vector<double> forward(const std::vector<double> &h) const {
    std::vector<double> r(h.size());
    for (std::size_t i = 0; i < h.size(); ++i)
      r[i] = std::tanh(w * h[i] + b);
    return r;
  }
#endif
};
#ifdef ERRORS
[[grad::forward]] double net(double x, double y) {
  const Layer la{0.5, -0.25};
  std::vector<double> h{x, y};
  // ERR: objects-forward.cpp:[[@LINE+2]]:7: error: grad: cannot differentiate call to member function 'forward' returning 'std::vector<double>' (forward mode does not differentiate member functions yet: make it a free function taking the object) in 'net' in forward mode
  // ERR: objects-forward.cpp:[[@LINE-4]]:3: note: while differentiating 'net' requested here
  h = la.forward(h);
  return h[0] * h[1] + x;
}
static std::vector<double> forward(const Layer &l,
                                   const std::vector<double> &h) {
  std::vector<double> r(h.size());
  for (std::size_t i = 0; i < h.size(); ++i)
    r[i] = std::tanh(l.w * h[i] + l.b);
  return r;
}
[[grad::forward]] double net_free(double x, double y) {
  const Layer la{0.5, -0.25};
  std::vector<double> h{x, y};
  // ERR: objects-forward.cpp:[[@LINE+2]]:7: error: grad: cannot differentiate call to 'forward' (the return type 'std::vector<double>' has no pushforward (a floating scalar or void is needed)) in 'net_free' in forward mode
  // ERR: objects-forward.cpp:[[@LINE-4]]:3: note: while differentiating 'net_free' requested here
  h = forward(la, h);
  return h[0] * h[1] + x;
}
#else
static void forward(const Layer &l, const std::vector<double> &h,
                    std::vector<double> &r) {
  for (std::size_t i = 0; i < h.size(); ++i)
    r[i] = std::tanh(l.w * h[i] + l.b);
}
[[grad::forward]] double net(double x, double y) {
  const Layer la{0.5, -0.25};
  std::vector<double> h{x, y}, r(2);
  forward(la, h, r);
  return r[0] * r[1] + x;
}
#endif

// --- A user's pushforward of a callee that takes a pointer, in vector
// mode: normalises a 2-vector in place. The overload taking lanes that the
// message suggests, declared beside the scalar one, is the one called.
static void normalize(double *v) {
  double n = std::hypot(v[0], v[1]);
  v[0] /= n;
  v[1] /= n;
}
void normalize_pushforward(double *v, double *t_v) {
  double n = std::hypot(v[0], v[1]);
  double u0 = v[0] / n, u1 = v[1] / n;
  double d = u0 * t_v[0] + u1 * t_v[1];
  t_v[0] = (t_v[0] - u0 * d) / n;
  t_v[1] = (t_v[1] - u1 * d) / n;
  v[0] = u0;
  v[1] = u1;
}
#ifdef ERRORS
// ADVICE: (lanes are passed one at a time for floating scalar parameters only: declare an overload taking grad::lanes)
[[grad::forward("lanes=2")]] double heading(double x, double y) {
  double v[2] = {x, y};
  // ERR: objects-forward.cpp:[[@LINE+2]]:13: error: grad: cannot differentiate call to 'normalize', whose user pushforward 'normalize_pushforward' has scalar tangents, in vector mode (lanes are passed one at a time for floating scalar parameters only: declare an overload taking grad::lanes) in 'heading' in forward mode
  // ERR: objects-forward.cpp:[[@LINE-3]]:3: note: while differentiating 'heading' requested here
  normalize(v);
  return v[0] * x + v[1] * v[1];
}
#else
void normalize_pushforward(double *v, grad::lanes<double, 2> *t_v) {
  double n = std::hypot(v[0], v[1]);
  double u0 = v[0] / n, u1 = v[1] / n;
  grad::lanes<double, 2> d = t_v[0] * u0 + t_v[1] * u1;
  t_v[0] = (t_v[0] - d * u0) / n;
  t_v[1] = (t_v[1] - d * u1) / n;
  v[0] = u0;
  v[1] = u1;
}
[[grad::forward("lanes=2")]] double heading(double x, double y) {
  double v[2] = {x, y};
  normalize(v);
  return v[0] * x + v[1] * v[1];
}
#endif

int main() {
#ifndef ERRORS
  {
    double x[2] = {0.7, -0.4};
    auto f = [&](double a, double b) {
      double y[2] = {a, b};
      return energy(y);
    };
    double e0[2] = {1, 0}, e1[2] = {0, 1};
    gradcheck::expect("energy.dx0", energy_pushforward(x, e0).der[0],
                      gradcheck::fd(f, 0, 0.7, -0.4));
    gradcheck::expect("energy.dx1", energy_pushforward(x, e1).der[0],
                      gradcheck::fd(f, 1, 0.7, -0.4));
  }
  // CHECK: ok energy.dx0
  // CHECK: ok energy.dx1
  auto fnet = [](double x, double y) { return net(x, y); };
  gradcheck::expect("net.dx", net_pushforward(0.7, -0.4, 1, 0).der[0],
                    gradcheck::fd(fnet, 0, 0.7, -0.4));
  gradcheck::expect("net.dy", net_pushforward(0.7, -0.4, 0, 1).der[0],
                    gradcheck::fd(fnet, 1, 0.7, -0.4));
  // CHECK: ok net.dx
  // CHECK: ok net.dy
  auto fh = [](double x, double y) { return heading(x, y); };
  auto R = heading_pushforward(0.7, -0.4, grad::lanes<double, 2>{{1, 0}},
                               grad::lanes<double, 2>{{0, 1}});
  gradcheck::expect("heading.dx", R.der[0], gradcheck::fd(fh, 0, 0.7, -0.4));
  gradcheck::expect("heading.dy", R.der[1], gradcheck::fd(fh, 1, 0.7, -0.4));
  gradcheck::expect("heading.scalar",
                    heading_pushforward(0.7, -0.4, 0.5, 2).der[0],
                    0.5 * gradcheck::fd(fh, 0, 0.7, -0.4) +
                        2 * gradcheck::fd(fh, 1, 0.7, -0.4));
  // CHECK: ok heading.dx
  // CHECK: ok heading.dy
  // CHECK: ok heading.scalar
#endif
  return gradcheck::failures();
}
