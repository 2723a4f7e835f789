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
// CHECK: 2 errors generated
