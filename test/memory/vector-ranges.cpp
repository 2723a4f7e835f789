// std::vector mutations that take ranges and counts: assign(first, last),
// insert(pos, first, last), insert(pos, n, x), and swap(w), over pointers
// and over iterators of other vectors, in reverse and forward mode; and
// vectors constructed from such ranges. The
// shadow (or tangent) follows every change of size; the adjoints of
// copied elements go back to the memory they came from.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED
#include "fwdcheck.h"
#include "gradcheck.h"
#include <vector>

using namespace gradcheck;
using fwdcheck::both;

[[grad, grad::forward]] double asg(double x, double y) {
  double a[3] = {x, y, x * y};
  std::vector<double> v{1.0};
  v.assign(a, a + 3);
  double s = v[0] * v[1] + v[2];
  a[0] = 7; // (the copy keeps the old value)
  std::vector<double> w{y, x};
  v.assign(w.begin(), w.end());
  return s * v[0] + v[1] * v.size() + a[0] * a[1];
}

[[grad, grad::forward]] double ins(double x, double y) {
  std::vector<double> v{x, y};
  double a[2] = {x * y, y - x};
  v.insert(v.begin() + 1, a, a + 2);
  v.insert(v.end(), 2, x * x);
  std::vector<double> w{y * y, 3.0};
  v.insert(v.begin(), w.begin(), w.end());
  double r = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    r += v[i] * double(i + 1);
  return r * v[3];
}

[[grad, grad::forward]] double swp(double x, double y) {
  std::vector<double> v{x, y}, w{x * y};
  v.swap(w);
  v.push_back(x);
  w[1] *= v[0];
  return v[0] * v[1] + w[0] * w[1];
}

// From constant memory, in a loop, into a by-value parameter.
static const double table[3] = {1.0, 2.0, 3.0};
[[grad]] double grow(std::vector<double> v, double x) {
  for (int r = 0; r < 3; ++r) {
    v.insert(v.begin() + r, table + r, table + 3);
    v.insert(v.end(), r + 1, x * v[0]);
    v[r] *= x;
  }
  double s = 0;
  for (double e : v)
    s += e * e;
  return s;
}
[[grad::forward]] double growf(double x, double y) {
  std::vector<double> v{x, y};
  for (int r = 0; r < 2; ++r) {
    v.insert(v.begin() + r, table + r, table + 3);
    v.insert(v.end(), r + 1, x * v[0]);
    v[r] *= y;
  }
  double s = 0;
  for (double e : v)
    s += e * e;
  return s;
}

// Constructed from a range of pointers or iterators.
[[grad, grad::forward]] double built(double x, double y) {
  double a[3] = {x, y, x * y};
  std::vector<double> v(a, a + 3);
  std::vector<double> w(v.begin() + 1, v.end());
  std::vector<double> c(table, table + 2);
  return v[0] * w[1] + w[0] * c[1] + c[0] * v[2];
}

#ifdef REFUSED
// A swap with a row of a container of containers: an error at the swap
// (before, the swap made it differentiated, and the generated code failed
// to compile; then the container of containers was an error itself).
[[grad]] double swapNested(double x) {
  std::vector<double> v{x};
  std::vector<std::vector<double>> m(1, std::vector<double>(1, 2.0));
// REFUSED: vector-ranges.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate call to 'swap' on v with m[0] (swap two std::vector variables that both carry derivatives, or neither) in 'swapNested'
  v.swap(m[0]);
  return v[0] * m[0][0];
}
#endif

// A vector declared before the loop, cleared in the body.
[[grad]] double cleared(double x, double y) {
  double z = 0;
  std::vector<double> v;
  for (int i = 0; i < 3; ++i) {
    v.clear();
    v.push_back(x);
    v.insert(v.end(), 2, y * i);
    z += v[2] * v[0];
  }
  return z;
}

int main() {
  both("asg", asg, asg_pullback, asg_pushforward, 1.5, 0.7);
  both("asg2", asg, asg_pullback, asg_pushforward, -0.5, 2.7);
  both("ins", ins, ins_pullback, ins_pushforward, 1.5, 0.7);
  both("ins2", ins, ins_pullback, ins_pushforward, -0.5, 2.7);
  both("swp", swp, swp_pullback, swp_pushforward, 1.5, 0.7);
  both("swp2", swp, swp_pullback, swp_pushforward, -0.5, 2.7);
  check_grad("cleared", cleared, cleared_pullback, 1.5, 0.7);
  both("built", built, built_pullback, built_pushforward, 1.5, 0.7);
  both("built2", built, built_pullback, built_pushforward, -0.5, 2.7);
  {
    std::vector<double> v{0.5, -1.25, 2.0};
    std::vector<double> dv(3, 0.0);
    double dx = 0;
    grow_pullback(v, 0.8, 1.0, &dv, &dx);
    for (int k = 0; k < 3; ++k) {
      auto fk = [&](double t) {
        std::vector<double> w = v;
        w[k] = t;
        return grow(w, 0.8);
      };
      expect("grow.dv" + std::to_string(k), dv[k], fd(fk, 0, v[k]));
    }
    expect("grow.dx",
           dx, fd([&](double t) { return grow(v, t); }, 0, 0.8));
  }
  fwdcheck::each(
      "growf", [](const std::vector<double> &X) { return growf(X[0], X[1]); },
      [](const std::vector<double> &X, const std::vector<double> &V) {
        return growf_pushforward(X[0], X[1], V[0], V[1]).der[0];
      },
      {1.3, -0.6});
  return failures();
}
// CHECK: ok asg.d0
// CHECK: ok asg.d1
// CHECK: ok asg.fwd.x
// CHECK: ok asg.fwd.y
// CHECK: ok asg.fwd.val
// CHECK: ok asg2.fwd.val
// CHECK: ok ins.d0
// CHECK: ok ins.fwd.y
// CHECK: ok ins2.fwd.val
// CHECK: ok swp.d0
// CHECK: ok swp.fwd.y
// CHECK: ok swp2.fwd.val
// CHECK: ok cleared.d0
// CHECK: ok cleared.d1
// CHECK: ok built.d0
// CHECK: ok built.d1
// CHECK: ok built.fwd.x
// CHECK: ok built.fwd.y
// CHECK: ok built.fwd.val
// CHECK: ok built2.fwd.val
// CHECK: ok grow.dv0
// CHECK: ok grow.dv1
// CHECK: ok grow.dv2
// CHECK: ok grow.dx
// CHECK: ok growf.v0
// CHECK: ok growf.v1
// CHECK: ok growf.v2
