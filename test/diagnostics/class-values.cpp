// Class-type values the plugin refuses, each named as written: a
// constructor that computes a member from its parameters, a class that owns
// memory.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <cmath>
#include <vector>

struct Vec3 {
  double x, y, z;
  Vec3(double x, double y, double z) : x(x), y(y), z(z) {}
  double norm() const { return std::sqrt(x * x + y * y + z * z); }
};
struct Both {
  double a, b;
  Both(double a, double b) : a(a), b(a * b) {}
};
struct Grid {
  std::vector<double> v;
  double h;
};

// CHECK: class-values.cpp:[[@LINE+3]]:10: error: grad: cannot differentiate argument 'x' of a constructor of 'Both' that does more than copy its parameters into members (write the members from braces or assignments) in 'computed'
// CHECK: class-values.cpp:[[@LINE+1]]:3: note: while differentiating 'computed' requested here
[[grad]] double computed(double x, double y) {
  Both q(x, y);
  return q.a + q.b;
}

// CHECK: class-values.cpp:[[@LINE+3]]:8: error: grad: cannot differentiate local variable of type 'Grid' (it is not trivially copyable (it owns memory, has virtual functions or user-written copy operations)) in 'owner'
// CHECK: class-values.cpp:[[@LINE+1]]:3: note: while differentiating 'owner' requested here
[[grad]] double owner(double x) {
  Grid g{{x, 2 * x}, 0.5};
  return g.v[0] * g.h + g.v[1];
}
// A function returning a non-const reference: its result must be discarded,
// and it may return only a reference parameter or '*this'.
struct V2 {
  double a, b;
  V2 &operator-=(const V2 &o) { a -= o.a; b -= o.b; return *this; }
};
static V2 &operator+=(V2 &p, const V2 &q) { p.a += q.a; p.b += q.b; return p; }
static V2 &operator*=(V2 &p, double s) { V2 &t = p; t.a *= s; t.b *= s; return t; }
// CHECK: class-values.cpp:[[@LINE+5]]:14: error: grad: cannot differentiate use of the reference returned by 'operator+=' (write the call as a statement of its own) in 'refs'
// CHECK: class-values.cpp:[[@LINE+2]]:3: note: while differentiating 'refs' requested here
// CHECK: class-values.cpp:[[@LINE+5]]:14: error: grad: cannot differentiate use of the reference returned by 'operator-=' (write the call as a statement of its own) in 'refs'
[[grad]] double refs(double x, double y) {
  V2 acc{x, y};
  double r = (acc += V2{y, x}).a;
  acc *= x;
  double q = (acc -= V2{x, x}).b;
  return r + q;
}
// CHECK: class-values.cpp:[[@LINE-11]]:80: error: grad: cannot differentiate returned reference (a function returning a non-const reference may return only a reference parameter or '*this') in 'operator*='
// CHECK: class-values.cpp:[[@LINE-5]]:7: note: while differentiating 'operator*=', called here
// CHECK: 5 errors generated
