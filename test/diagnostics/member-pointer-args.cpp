// A member function's pullback runs its body again in the reverse sweep,
// reading its pointer arguments' memory then: memory that changed after the
// call gave a silently wrong derivative (`f.apply(y, out); y[0] = 5;` gave
// d/dk = 5 for 2; an Euler step `f(t, y, k1); y[i] += h * k1[i];` with a
// functor likewise). Such a call is now an error at the argument; a member
// function reading memory that no write changes is still differentiated
// (values against closed forms). A function whose halves for callers in
// other translation units cannot be built this way (they would re-read a
// pointer parameter's memory those callers may change) gets a warning, and
// its pullback.
// RUN: %gradxx -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
using namespace gradcheck;

struct Lin {
  double k;
  void apply(const double *y, double *dy) const { dy[0] = k * y[0]; }
  double eval(const double *y, int n) const {
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += k * y[i] * y[i];
    return s;
  }
};
struct Decay {
  double k;
  void operator()(double t, const double *y, double *dy) const {
    dy[0] = -k * y[0] + std::sin(t);
    dy[1] = y[0] - 0.5 * y[1];
  }
};

#ifdef ERRORS
// ERR: member-pointer-args.cpp:[[@LINE+3]]:11: error: grad: cannot differentiate argument 'y' of member function 'apply': memory that may change before the reverse sweep, where the method's pullback reads it again (make 'apply' a free function taking the object, whose derivative records what it reads) in 'overwritten'
[[grad]] double overwritten(double k, double *y, double *out) {
  Lin f{k};
  f.apply(y, out);
  y[0] = 5;
  return out[0];
}
template <class F> static void euler(const F &f, double *y, double t, double h) {
  double k1[2];
  // ERR: member-pointer-args.cpp:[[@LINE+1]]:8: error: grad: cannot differentiate argument 'y' of member function 'operator()'
  f(t, y, k1);
  for (int i = 0; i < 2; ++i)
    y[i] += h * k1[i];
}
[[grad]] double ode(double k, double y0) {
  double y[2] = {y0, 0};
  Decay f{k};
  euler(f, y, 0.0, 0.1);
  return y[0] + y[1];
}
#endif

[[grad]] double reads(double k, const double *y) {
  Lin f{k};
  return f.eval(y, 3) * k;
}

// WARN: member-pointer-args.cpp:[[@LINE+1]]:17: warning: grad: the two halves of 'outParam' that callers in other translation units would call are not defined (they would get an undefined reference; call 'outParam' from a {{\[\[grad\]\]}} function in this file to see why)
[[grad]] double outParam(double k, const double *y, double *out) {
  Lin f{k};
  out[0] = f.eval(y, 2);
  return out[0] * 2;
}

int main() {
  const double y[3] = {0.5, -1.0, 2.0};
  double dk = 0, dy[3] = {};
  reads_pullback(1.5, y, 1.0, &dk, dy);
  // f = k^2 * sum y^2: d/dk = 2 k S, d/dy_i = 2 k^2 y_i.
  expect("reads.k", dk, 2 * 1.5 * 5.25);
  expect("reads.y1", dy[1], 2 * 1.5 * 1.5 * -1.0);
  // CHECK: ok reads.k
  // CHECK: ok reads.y1
  double out[1], dout[1] = {};
  dk = 0;
  dy[0] = dy[1] = 0;
  outParam_pullback(1.5, y, out, 1.0, &dk, dy, dout);
  // 2 k (y0^2 + y1^2): d/dk = 2 (0.25 + 1), d/dy0 = 4 k y0.
  expect("outParam.k", dk, 2 * 1.25);
  expect("outParam.y0", dy[0], 4 * 1.5 * 0.5);
  // CHECK: ok outParam.k
  // CHECK: ok outParam.y0
  return failures();
}
