// Helpers that compute the reference they return (a search over a pointer
// or container argument, `return a[k];`) return a reference into that
// argument's storage: a local reference bound to the result is an alias of
// it, written through, re-bound in a loop, also when the helper writes the
// element itself. The split forward half returns the element's address;
// in forward mode the helper's pushforward returns the reference, and its
// tangent is at the same offset in the argument's tangent memory. A helper
// that may return either of two references stays an error.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED
#include "fwdcheck.h"
#include "gradcheck.h"
#include <vector>

using namespace gradcheck;
using fwdcheck::both;

static double &largest(double *a, int n) {
  int k = 0;
  for (int i = 1; i < n; ++i)
    if (a[i] > a[k])
      k = i;
  return a[k];
}

// Writes the element it finds, then returns it.
static double &bump(double *a, int n, double s) {
  double *k = a;
  for (int i = 1; i < n; ++i)
    if (a[i] > *k)
      k = a + i;
  *k *= s;
  return *k;
}

static double &vbig(std::vector<double> &v) {
  std::size_t k = 0;
  for (std::size_t i = 1; i < v.size(); ++i)
    if (v[i] > v[k])
      k = i;
  return v[k];
}

[[grad, grad::forward]] double one(double x, double y) {
  double a[3] = {x, y, x * y};
  double &m = largest(a, 3);
  m *= x;
  return a[0] + a[1] * a[2];
}

// Re-bound in a loop, and into the middle of an array.
[[grad, grad::forward]] double loop(double x, double y) {
  double a[4] = {x, y, x * y, y - x};
  for (int r = 0; r < 3; ++r) {
    double &m = bump(a, 4, x);
    m = m * y + a[0];
  }
  double &t = largest(a + 1, 3);
  t += x * a[0];
  return a[0] * a[1] + a[2] * a[3];
}

// Into a container parameter.
[[grad, grad::forward]] double vec(double x, double y) {
  std::vector<double> v{x, y, x * y};
  double &m = vbig(v);
  m *= x;
  return v[0] + v[1] * v[2];
}

// A pointer into a container parameter, likewise.
static double *vptr(std::vector<double> &v) {
  double *k = v.data();
  for (std::size_t i = 1; i < v.size(); ++i)
    if (v[i] > *k)
      k = &v[i];
  return k;
}
[[grad, grad::forward]] double vecp(double x, double y) {
  std::vector<double> v{x, y, x * y};
  double *m = vptr(v);
  *m *= x;
  return v[0] + v[1] * v[2];
}

// A const reference, read after the element it refers to has changed.
static const double &clargest(const double *a, int n) {
  int k = 0;
  for (int i = 1; i < n; ++i)
    if (a[i] > a[k])
      k = i;
  return a[k];
}
[[grad, grad::forward]] double cref(double x, double y) {
  double a[3] = {x, y, x * y};
  const double &m = clargest(a, 3);
  double s = m * x;
  for (double &e : a)
    e *= y;
  return s + m * y;
}

// Second derivatives: the forward half of the split pullback returns the
// element's address, the HVP differentiates it once more.
[[grad::hessian]] double curv(double x, double y) {
  double a[3] = {x, y, x * y};
  double &m = largest(a, 3);
  m *= x * m;
  return a[0] * a[1] + a[2] * y;
}

#ifdef REFUSED
static double &pick(double &p, double &q) { return p > q ? p : q; }
[[grad]] double two(double x, double y) {
  double a = x * y, b = y;
  double &m = pick(a, b);
// REFUSED: reference-results.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate reference 'm' whose target the plugin cannot track (it is bound to what 'pick' returns: take the value, 'double m = ...') in 'two'
  m *= x;
  return a + b;
}
[[grad::forward]] double ftwo(double x, double y) {
  double a = x * y, b = y;
  double &m = pick(a, b);
// REFUSED: reference-results.cpp:[[@LINE-1]]:15: error: grad: cannot differentiate reference returned by 'pick', whose target the plugin cannot track (it must point into one pointer or container argument) in 'ftwo' in forward mode
  return m * x;
}
#endif

int main() {
  both("one", one, one_pullback, one_pushforward, 1.5, 0.7);
  both("one2", one, one_pullback, one_pushforward, 0.5, 2.7);
  both("loop", loop, loop_pullback, loop_pushforward, 1.5, 0.7);
  both("loop2", loop, loop_pullback, loop_pushforward, 0.5, 1.3);
  both("vec", vec, vec_pullback, vec_pushforward, 1.5, 0.7);
  both("vec2", vec, vec_pullback, vec_pushforward, 0.5, 2.7);
  both("vecp", vecp, vecp_pullback, vecp_pushforward, 1.5, 0.7);
  both("vecp2", vecp, vecp_pullback, vecp_pushforward, 0.5, 2.7);
  both("cref", cref, cref_pullback, cref_pushforward, 1.5, 0.7);
  both("cref2", cref, cref_pullback, cref_pushforward, 0.5, 2.7);
  for (double x : {1.5, 0.4}) {
    double y = 0.7, H[2] = {0, 0};
    curv_hvp(x, y, 0.3, -1.1, &H[0], &H[1]);
    // Along (0.3, -1.1): differences of the pullback.
    auto g = [](int K) {
      return [K](double u, double v) {
        double D[2] = {0, 0};
        curv_pullback(u, v, 1.0, &D[0], &D[1]);
        return D[K];
      };
    };
    for (int K = 0; K < 2; ++K)
      expect("curv.hvp" + std::to_string(K),
             H[K], 0.3 * fd(g(K), 0, x, y) - 1.1 * fd(g(K), 1, x, y));
  }
  return failures();
}
// CHECK: ok one.d0
// CHECK: ok one.d1
// CHECK: ok one.fwd.x
// CHECK: ok one.fwd.y
// CHECK: ok one.fwd.val
// CHECK: ok one2.fwd.val
// CHECK: ok loop.d0
// CHECK: ok loop.fwd.y
// CHECK: ok loop2.fwd.val
// CHECK: ok vec.d0
// CHECK: ok vec.fwd.x
// CHECK: ok vec2.fwd.val
// CHECK: ok vecp.d1
// CHECK: ok vecp.fwd.y
// CHECK: ok vecp2.fwd.val
// CHECK: ok cref.d0
// CHECK: ok cref.fwd.x
// CHECK: ok cref2.fwd.val
// CHECK: ok curv.hvp0
// CHECK: ok curv.hvp1
// CHECK: ok curv.hvp0
// CHECK: ok curv.hvp1
