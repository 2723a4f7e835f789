// A `mutable` member written by a const member function (a cache, a running
// state): such a function writes its object like a non-const one, for the
// write analysis, the replay and the derivative (the object is kept before
// the call and the method's pullback runs on the copy). Before (issue 49),
// `double eval(double x) const { last = a * x * x; return last; }` called
// twice with `c.last` read in between gave 6.17 for 3.09 (the reverse sweep
// read the overwritten cache).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>

struct Cache {
  double a;
  mutable double last = 0;
  double eval(double x) const {
    last = a * x * x;
    return last;
  }
};

[[grad]] double twice(double a, double x) {
  const Cache c{a};
  double u = c.eval(x);
  double r = u * c.last;
  double v = c.eval(2 * x);
  return r + v * c.last;
}

struct Running {
  double w;
  mutable double sum = 0;
  mutable int n = 0;
  double add(double v) const {
    sum += w * v;
    ++n;
    return sum / n;
  }
};

[[grad]] double running(double w, double x) {
  Running r{w};
  double m1 = r.add(x);
  double m2 = r.add(x * x);
  return m1 * m2 + r.sum;
}

// A const member that only reads the cache (`prev`) is a read: the body
// decides, not the class (before, "call to non-const member function
// 'prev'").
struct Memo {
  double a;
  mutable double last = 0;
  double eval(double x) const {
    last = a * x;
    return last * x;
  }
  double sq(double x) const {
    last = a * x * x;
    return last;
  }
  double prev() const { return last; }
};

[[grad]] double memo(double a, double x) {
  const Memo c{a};
  double u = c.eval(x);
  double p = c.prev();
  double v = c.sq(x);
  double w = c.eval(x * u);
  return std::sin(u + 0.25 * c.prev() + v * p) + w * c.prev();
}

int main() {
  gradcheck::check_grad("twice", twice, twice_pullback, 0.7, 1.3);
  // CHECK: ok twice.d0
  // CHECK: ok twice.d1
  gradcheck::check_grad("running", running, running_pullback, 0.7, 1.3);
  // CHECK: ok running.d0
  // CHECK: ok running.d1
  gradcheck::check_grad("memo", memo, memo_pullback, 0.7, 1.3);
  // CHECK: ok memo.d0
  // CHECK: ok memo.d1
  return gradcheck::failures();
}
