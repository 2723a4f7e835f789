// Structs and enums declared inside the differentiated function (`struct P
// { double a, b; };`, `enum Mode { Scale, Shift };`, `struct { double u, v;
// } w{...};` declared with a variable): the derivative declares them again,
// as written, before its shadows (reverse mode: at its top; forward mode:
// where they were). A local class with member functions is an error that
// names it. Reverse and forward mode against finite differences.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | FileCheck %s --check-prefix=ERR --implicit-check-not=error:
// RUN: %dump %s --function=pair %dflags | FileCheck %s --check-prefix=DUMP
// RUN: %dump %s --function=pair %dflags > %t.dump.cpp && %gradxx -fsyntax-only -include cmath %t.dump.cpp
#include "fwdcheck.h"
#include "gradcheck.h"
#include <cmath>

using fwdcheck::both;

[[grad, grad::forward]] double pair(double x, double y) {
  struct P {
    double a, b;
  };
  P p{x, y};
  P q = p;
  q.a *= y;
  double s = 0;
  P ps[2] = {{x, 1.0}, {y, x * y}};
  for (int i = 0; i < 2; ++i)
    s += ps[i].a * ps[i].b;
  return q.a * p.b + std::sin(q.b) + s;
}
// DUMP: void pair_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP-NEXT: struct P {
// DUMP-NEXT: double a;
// DUMP-NEXT: double b;
// DUMP-NEXT: };

[[grad, grad::forward]] double modes(double x, double y, int k) {
  enum Mode { Scale, Shift };
  enum class Kind { Sin, Cos };
  Mode m = k > 0 ? Shift : Scale;
  Kind c = k > 1 ? Kind::Cos : Kind::Sin;
  double v = m == Scale ? x * y : x + y;
  switch (c) {
  case Kind::Sin:
    v = std::sin(v);
    break;
  case Kind::Cos:
    v = std::cos(v) * x;
    break;
  }
  return v;
}

[[grad, grad::forward]] double anonymous(double x, double y) {
  struct {
    double u, v;
  } w{x * y, y};
  w.v += w.u * x;
  return w.u + w.v * w.v;
}

#ifdef ERRORS
[[grad]] double withMethod(double x) {
  // ERR: local-types.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate local class 'Q' with member functions (define the class outside the function) in 'withMethod'
  struct Q {
    double a;
    double twice() const { return 2 * a; }
  };
  Q q{x};
  return q.twice();
}
#endif

int main() {
  both("pair", pair, pair_pullback, pair_pushforward, 0.7, 1.3);
  // CHECK: ok pair.d0
  // CHECK: ok pair.d1
  for (int k = 0; k < 3; ++k) {
    auto F = [k](double x, double y) { return modes(x, y, k); };
    auto Pb = [k](double x, double y, double d, double *dx, double *dy) {
      modes_pullback(x, y, k, d, dx, dy);
    };
    auto Pf = [k](double x, double y, double tx, double ty) {
      return modes_pushforward(x, y, k, tx, ty);
    };
    both("modes", F, Pb, Pf, 0.7, 1.3);
  }
  // CHECK-COUNT-15: ok modes
  both("anonymous", anonymous, anonymous_pullback, anonymous_pushforward, 0.7,
       1.3);
  // CHECK: ok anonymous.d0
  // CHECK: ok anonymous.d1
  return gradcheck::failures();
}
