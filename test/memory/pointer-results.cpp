// Helpers that compute the pointer they return (a search loop walking a
// local pointer over an argument, std::max_element over pointers) return a
// pointer into that argument's storage: a local pointer bound to the result
// is an alias of it, the offset taken from the pointer itself. The result
// of such a helper may also be discarded, or re-seat the pointer it was
// computed from (`p = next(p)`, `p = p + 1`). In forward mode the helper's
// pushforward returns the pointer, and its tangent is at the same offset in
// the argument's tangent memory.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED
#include "fwdcheck.h"
#include "gradcheck.h"
#include <algorithm>

using namespace gradcheck;
using fwdcheck::both;

static double *argmax(double *a, int n) {
  double *best = a;
  for (int i = 1; i < n; ++i)
    if (a[i] > *best)
      best = a + i;
  return best;
}

static double *scale_head(double *a, double s) {
  a[0] *= s;
  return a + 1;
}

static double *next(double *a) {
  double *r = a;
  r = r + 1;
  return r;
}

// Each row's largest element is scaled by x (also as a Hessian-vector
// product and in vector mode).
[[grad::hessian, grad::forward("lanes=2")]] double rows(double x, double y) {
  double A[6] = {x, y, x * y, y * y, 1.5, x - y};
  double s = 0;
  for (int i = 0; i < 2; ++i) {
    double *m = argmax(A + 3 * i, 3);
    *m *= x;
    s += *m;
  }
  return s + A[0] * A[4];
}

// A helper that writes through its argument and returns a pointer into it;
// the result re-seats the pointer it came from, or is discarded.
[[grad, grad::forward]] double chain(double x, double y) {
  double a[3] = {x, y, x * y};
  double *p = scale_head(a, y);
  p = scale_head(p, x);
  *p += a[0];
  scale_head(a + 2, 3.0);
  return a[0] * a[1] + a[2];
}

// Re-seated from itself, also when it points into one of two arrays.
[[grad, grad::forward]] double reseat(double x, double y) {
  double a[3] = {x, y, x * y}, b[3] = {y, x, 2.0};
  double *p = x > y ? a : b;
  p = p + 1;
  *p *= x;
  p = next(p);
  *p *= y;
  p = argmax(p - 2, 3);
  *p += x * y;
  return a[0] * a[1] + a[2] + b[1] * b[2] + b[0];
}

// std::max_element over pointers: its comparator only reads.
[[grad, grad::forward]] double maxel(double x, double y) {
  double a[4] = {x, y, x * y, 1};
  double *r = argmax(a, 4);
  *r = *r * y;
  const double *e = std::max_element(a, a + 4);
  return a[0] + a[1] + 3 * a[2] + *e * x;
}

// Results used without binding them to a pointer first: read, written,
// indexed, moved, inside a loop (their offsets go on the tape), over a row
// of a parameter and over a local pointer.
[[grad, grad::forward]] double direct(double x, double y) {
  double a[3] = {x, y, x * y};
  *argmax(a, 3) *= 2;
  double s = a[0] + a[1] + *argmax(a, 3) * x;
  double b[4] = {y, x, 1.0, x - y};
  double *q = b + 1;
  for (int i = 0; i < 3; ++i) {
    *std::min_element(q, b + 4) += x * i;
    s += *std::max_element(b, b + 4) * y + argmax(b, 2)[1];
    b[i] *= y;
  }
  return s + *(argmax(a, 2) + 1) * b[3] + *argmax(q, 3);
}

static double rowmax(const double *A, int rows, int cols) {
  double s = 0;
  for (int r = 0; r < rows; ++r)
    s += *std::max_element(&A[r * cols], &A[r * cols] + cols);
  return s;
}

// log-sum-exp shifted by the largest element, over pointers.
[[grad]] double lse(const double *x, int n, double w) {
  double mx = *std::max_element(x, x + n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::exp(x[i] - mx);
  return mx * w + std::log(s) + rowmax(x, 2, 2);
}

int main() {
  both("direct", direct, direct_pullback, direct_pushforward, 0.7, 1.3);
  both("direct2", direct, direct_pullback, direct_pushforward, 2.1, -0.4);
  {
    double x[4] = {0.3, 1.2, -0.5, 0.9}, dx[4] = {0, 0, 0, 0}, dw = 0;
    lse_pullback(x, 4, 0.6, 1.0, dx, &dw);
    for (int i = 0; i < 4; ++i) {
      auto f = [&](double v) {
        double xs[4] = {x[0], x[1], x[2], x[3]};
        xs[i] = v;
        return lse(xs, 4, 0.6);
      };
      expect("lse.d" + std::to_string(i), dx[i], fd(f, 0, x[i]));
    }
    expect("lse.w", dw, 1.2);
  }
  // (rows_pushforward is overloaded: the scalar one.)
  auto rowsF = [](double x, double y, double tx, double ty) {
    return rows_pushforward(x, y, tx, ty);
  };
  both("rows", rows, rows_pullback, rowsF, 0.7, 1.3);
  both("rows2", rows, rows_pullback, rowsF, 2.1, -0.4);
  {
    double x = 0.7, y = 1.3, H[2] = {0, 0};
    rows_hvp(x, y, 1.0, 0.0, &H[0], &H[1]);
    auto g = [](int K) {
      return [K](double u, double v) {
        double D[2] = {0, 0};
        rows_pullback(u, v, 1.0, &D[0], &D[1]);
        return D[K];
      };
    };
    expect("rows.hvp0", H[0], fd(g(0), 0, x, y));
    expect("rows.hvp1", H[1], fd(g(1), 0, x, y));
    grad::lanes<double, 2> tx{}, ty{};
    tx[0] = 1;
    ty[1] = 1;
    auto L = rows_pushforward(x, y, tx, ty);
    expect("rows.lane0", L.der[0], fd(rows, 0, x, y));
    expect("rows.lane1", L.der[1], fd(rows, 1, x, y));
  }
  both("chain", chain, chain_pullback, chain_pushforward, 0.7, 1.3);
  both("chain2", chain, chain_pullback, chain_pushforward, -1.2, 0.4);
  both("reseat", reseat, reseat_pullback, reseat_pushforward, 0.7, 1.3);
  both("reseat2", reseat, reseat_pullback, reseat_pushforward, 2.1, -0.4);
  both("maxel", maxel, maxel_pullback, maxel_pushforward, 0.7, 1.3);
  both("maxel2", maxel, maxel_pullback, maxel_pushforward, 1.7, 0.3);
  return failures();
}
// CHECK: ok direct.d0
// CHECK: ok direct.d1
// CHECK: ok direct.fwd.x
// CHECK: ok direct2.fwd.y
// CHECK: ok lse.d0
// CHECK: ok lse.d3
// CHECK: ok lse.w
// CHECK: ok rows.d0
// CHECK: ok rows.d1
// CHECK: ok rows.fwd.x
// CHECK: ok rows.fwd.y
// CHECK: ok rows.fwd.val
// CHECK: ok rows2.fwd.val
// CHECK: ok rows.hvp0
// CHECK: ok rows.hvp1
// CHECK: ok rows.lane0
// CHECK: ok rows.lane1
// CHECK: ok chain.d0
// CHECK: ok chain.d1
// CHECK: ok chain2.d1
// CHECK: ok chain2.fwd.x
// CHECK: ok chain2.fwd.y
// CHECK: ok reseat.d0
// CHECK: ok reseat.fwd.y
// CHECK: ok reseat2.fwd.val
// CHECK: ok maxel.d0
// CHECK: ok maxel.d1
// CHECK: ok maxel.fwd.x
// CHECK: ok maxel.fwd.y
// CHECK: ok maxel2.fwd.val

#ifdef REFUSED
// The pointer may point into either argument: its target is not tracked.
static double *pickp(double *a, double *b) {
  double *r = *a > *b ? a : b;
  return r;
}
[[grad]] double two(double x, double y) {
  double a = x, b = y;
  double *r = pickp(&a, &b);
  *r *= 2;
// REFUSED: pointer-results.cpp:[[@LINE-1]]:4: error: grad: cannot differentiate pointer 'r' whose target the plugin cannot track in 'two'
  return a + b;
}
// The helper re-seats its parameter, lets a callee re-seat its local
// pointer, or takes its address: what it returns is not followed.
static double *other(double *a, double *b) {
  a = b;
  return a;
}
static void move_to(double *&p, double *q) { p = q; }
static double *moved(double *a, double *b) {
  double *p = a;
  move_to(p, b);
  return p;
}
static double *viaaddr(double *a, double *b) {
  double *p = a;
  double **pp = &p;
  *pp = b;
  return p;
}
// All three are reported in one compile.
[[grad]] double escapes(double x, double y) {
  double a[2] = {x, y}, b[2] = {y, x};
  double *p = other(a, b);
// REFUSED: pointer-results.cpp:[[@LINE+1]]:4: error: grad: cannot differentiate pointer 'p' whose target the plugin cannot track in 'escapes'
  *p *= x;
  double *q = moved(a, b);
// REFUSED: pointer-results.cpp:[[@LINE+1]]:4: error: grad: cannot differentiate pointer 'q' whose target the plugin cannot track in 'escapes'
  *q *= y;
  double *r = viaaddr(a, b);
// REFUSED: pointer-results.cpp:[[@LINE+1]]:4: error: grad: cannot differentiate pointer 'r' whose target the plugin cannot track in 'escapes'
  *r *= y;
  return a[0] * b[1];
}
// The argument of a dereferenced result is evaluated again for its
// offset: it may have no side effects.
[[grad]] double effects(double *a, int n) {
  double *p = a;
// REFUSED: pointer-results.cpp:[[@LINE+1]]:28: error: grad: cannot differentiate argument 'p++' of a pointer result that is dereferenced: it cannot be evaluated again (it has side effects or calls a function; bind the result to a local pointer first) in 'effects'
  return *std::max_element(p++, a + n) * a[0];
}
// In forward mode too.
[[grad::forward]] double ftwo(double x, double y) {
  double a = x, b = y;
  double *r = pickp(&a, &b);
// REFUSED: pointer-results.cpp:[[@LINE-1]]:15: error: grad: cannot differentiate pointer returned by 'pickp', whose target the plugin cannot track (it must point into one pointer or container argument) in 'ftwo' in forward mode
  return *r * x;
}
#endif
