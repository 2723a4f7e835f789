// Temporary containers passed to helpers (`total({x, y * x})`,
// `total(std::vector<double>{...})`, `wsum(std::vector<double>{...}, x)` by
// value, `asum(std::array<double, 3>{y, y, x})`, a vector of structs
// `{P{x, y}, P{y * y, x}}`, a const member function `a.dot({x, x * y})`, a
// helper that writes through another argument, called in a loop). The
// forward sweep keeps the temporary (recorded in loops); the reverse sweep
// passes it to the helper's pullback with a local adjoint of as many zeros,
// whose elements then go back to the expressions in the braces. (It was an
// error: "expression std::vector<double>{x, y * x}, whose memory the plugin
// cannot track".) A temporary is kept also when it carries no derivative:
// the helper's pullback reads it. A vector returned by a helper and passed
// to a member function gets a zeroed copy as its adjoint. Temporaries built
// otherwise (`std::vector<double>(3, x)`) stay errors that name them.
// Reverse and forward mode.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | FileCheck %s --check-prefix=ERR --implicit-check-not=error:
// RUN: %dump %s --function=braced %dflags | FileCheck %s --check-prefix=DUMP
#include "fwdcheck.h"
#include "gradcheck.h"
#include <array>
#include <cmath>
#include <vector>

using fwdcheck::both;
using gradcheck::check_grad;

struct P {
  double a, b;
};
static double total(const std::vector<double> &v) {
  double s = 0;
  for (double e : v)
    s += e * e;
  return s;
}
static double wsum(std::vector<double> v, double w) {
  double s = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += w * v[i] * double(i + 1);
  return s;
}
static double pnorm(const std::vector<P> &ps) {
  double s = 0;
  for (const P &p : ps)
    s += p.a * p.b;
  return s;
}
static double asum(const std::array<double, 3> &a) {
  return a[0] * a[1] + a[2];
}
static void addAll(const std::vector<double> &v, double &acc) {
  for (double e : v)
    acc += std::sin(e) * acc;
}
struct Acc {
  double w;
  double dot(const std::vector<double> &v) const {
    double s = 0;
    for (double e : v)
      s += w * e * e;
    return s;
  }
};

[[grad, grad::forward]] double braced(double x, double y) {
  return total({x, y * x, std::sin(y)});
}
// DUMP: void braced_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP: [[T:_t[0-9]+]] = std::vector<double>{x, y * x, _t{{[0-9]+}}.__sin};
// DUMP-NEXT: std::vector<double> [[G:_g[0-9]+]] = std::vector<double>(3UL);
// DUMP-NEXT: ::total_pullback([[T]], d_ret, &[[G]]);
// DUMP-NEXT: _d_x += [[G]][0UL];

[[grad]] double inLoop(double x, double y) {
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += wsum(std::vector<double>{x * i, y}, x) + total({s, y});
  return s;
}

[[grad]] double structs(double x, double y) {
  return pnorm({P{x, y}, P{y * y, x}});
}

[[grad]] double arrays(double x, double y) {
  return asum({x, y, x * y}) + asum(std::array<double, 3>{y, y, x});
}

[[grad]] double writer(double x, double y) {
  double s = y;
  for (int i = 0; i < 2; ++i)
    addAll({x, s * y}, s);
  return s;
}

[[grad]] double method(double x, double y) {
  Acc a{y};
  return a.dot({x, x * y});
}

// Temporaries without derivatives whose variables change after the call:
// the reverse sweep passes the values they had (it re-evaluated them: a
// wrong derivative, also for a struct temporary, before 2026-12-03).
static double wdot(const std::vector<double> &v, double x) {
  return v[0] * x + v[1] * x * x;
}
static double pdot(const P &p, double x) { return p.a * x + p.b * x * x; }
[[grad]] double changed(double x, double y) {
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    double c = 1.5 * i;
    s += wdot({c, c + 1}, x) + pdot(P{c, 2 * c}, y);
    Acc a{x};
    s += a.dot({c, 1.0});
    c = 5;
    s += c * x;
  }
  return s;
}

// A vector returned by a helper, passed to a member function: its adjoint
// is a zeroed copy (`::grad::detail::zero_like`; it was an error, "argument
// make(x) of type 'std::vector<double>', whose adjoint cannot be made
// here"). Closed form: x (x^2 + 4 y^2) -> d/dx 3 x^2 + 4 y^2, d/dy 8 x y.
static std::vector<double> make(double x, double y) { return {x, 2 * y}; }
[[grad]] double made(double x, double y) {
  Acc a{x};
  return a.dot(make(x, y));
}

#ifdef ERRORS
// ERR: temporary-containers.cpp:[[@LINE+1]]:49: error: grad: cannot differentiate expression std::vector<double>(3, x), whose memory the plugin cannot track in 'filled'
[[grad]] double filled(double x) { return total(std::vector<double>(3, x)); }
#endif

int main() {
  both("braced", braced, braced_pullback, braced_pushforward, 0.7, 1.3);
  // CHECK: ok braced.d0
  // CHECK: ok braced.d1
  check_grad("inLoop", inLoop, inLoop_pullback, 0.7, 1.3);
  check_grad("structs", structs, structs_pullback, 0.7, 1.3);
  check_grad("arrays", arrays, arrays_pullback, 0.7, 1.3);
  check_grad("writer", writer, writer_pullback, 0.7, 1.3);
  check_grad("method", method, method_pullback, 0.7, 1.3);
  check_grad("changed", changed, changed_pullback, 0.7, 1.3);
  check_grad("made", made, made_pullback, 0.7, 1.3);
  {
    double dx = 0, dy = 0, x = 0.7, y = 1.3;
    made_pullback(x, y, 1.0, &dx, &dy);
    gradcheck::expect("made.closed.x", dx, 3 * x * x + 4 * y * y);
    gradcheck::expect("made.closed.y", dy, 8 * x * y);
  }
  // Closed form: sum over c = 0, 1.5, 3 of (c + 2 (c + 1) x + c^2 + 1 + 5)
  // for x, and 2 c y + 2 (2 c) y for y (pdot: c y + 2 c y^2).
  {
    double dx = 0, dy = 0, x = 0.7, y = 1.3, ex = 0, ey = 0;
    changed_pullback(x, y, 1.0, &dx, &dy);
    for (double c : {0.0, 1.5, 3.0}) {
      ex += c + 2 * (c + 1) * x + c * c + 1.0 + 5;
      ey += c + 2 * (2 * c) * y;
    }
    gradcheck::expect("changed.closed.x", dx, ex);
    gradcheck::expect("changed.closed.y", dy, ey);
  }
  // CHECK: ok inLoop.d0
  // CHECK: ok inLoop.d1
  // CHECK: ok structs.d0
  // CHECK: ok structs.d1
  // CHECK: ok arrays.d0
  // CHECK: ok arrays.d1
  // CHECK: ok writer.d0
  // CHECK: ok writer.d1
  // CHECK: ok method.d0
  // CHECK: ok method.d1
  // CHECK: ok changed.d0
  // CHECK: ok changed.d1
  // CHECK: ok made.d0
  // CHECK: ok made.d1
  // CHECK: ok made.closed.x
  // CHECK: ok made.closed.y
  // CHECK: ok changed.closed.x
  // CHECK: ok changed.closed.y
  return gradcheck::failures();
}
