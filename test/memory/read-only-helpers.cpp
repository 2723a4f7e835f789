// Helpers whose pointer parameters are not const but which only read
// through them (a search loop, a dot product, std::max_element over
// `double *`) write nothing of their caller's memory: they are called as
// written, without a split derivative or tape. Any write that is not to
// one of the helper's own local variables makes a helper a writer: through
// a local pointer copy, a reference, a member, a nested helper, a callee
// without a visible body, std::swap, an int out-parameter, recursion; their gradients
// are checked here too. A virtual call whose override is not known is an
// error (the base's body may write nothing while the override writes).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=reads %dflags | FileCheck %s --check-prefix=DUMP
// RUN: not %gradxx -fsyntax-only -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED
#include "fwdcheck.h"
#include "gradcheck.h"
#include <algorithm>
#include <utility>

using namespace gradcheck;
using fwdcheck::both;

static double *argmax(double *a, int n) {
  double *best = a;
  for (int i = 1; i < n; ++i)
    if (a[i] > *best)
      best = a + i;
  return best;
}

static double dot(double *a, double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

// Read-only helpers: called as written.
[[grad, grad::forward]] double reads(double x, double y) {
  double a[3] = {x, y, x * y}, b[3] = {y, 2.0, x};
  double *m = argmax(a, 3);
  *m *= y;
  double s = dot(a, b, 3) + *std::max_element(b, b + 3) * x;
  a[0] = s * a[1];
  return a[0] + dot(a, a, 3);
}
// DUMP: void reads_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP-NOT: _grad_argmax_fwd
// DUMP-NOT: _grad_max_element
// DUMP: _p0 = ::std::max_element<double *>(b, b + 3);

// Writers, each in its own way.
static double viaCopy(double *a) {
  double *q = a;
  *q = 2 * q[0] * a[1];
  return a[0];
}
static void inner(double *p) { p[0] *= p[1]; }
static double nested(double *a) {
  inner(a);
  return a[0] + a[1];
}
static double viaRef(double *a) {
  double &r = a[1];
  r = r * a[0];
  return r;
}
static double swapper(double *a) {
  std::swap(a[0], a[1]);
  return a[0];
}
static double indexOut(double *a, int *k) {
  *k = a[0] > a[1] ? 0 : 1;
  return a[*k];
}
struct Scaler {
  virtual ~Scaler() = default;
  virtual void apply(double *) const {}
};
struct Doubler final : Scaler {
  void apply(double *a) const override { a[0] *= 2 * a[1]; }
};
static const Doubler kDoubler;
static double recursive(double *a, int n) {
  if (n == 0)
    return 0;
  a[n - 1] *= 1.5;
  return a[n - 1] + recursive(a, n - 1);
}

[[grad, grad::forward]] double writers(double x, double y) {
  double a[2] = {x, y};
  double s = viaCopy(a);
  s += nested(a) * a[0];
  s += viaRef(a) + a[1];
  s += swapper(a) * a[1];
  int k = 0;
  s += indexOut(a, &k) * (k + 1);
  double c[3] = {x, y, x * y};
  s += recursive(c, 3) * c[0];
  return s + a[0] * a[1];
}

int main() {
  both("reads", reads, reads_pullback, reads_pushforward, 0.7, 1.3);
  both("reads2", reads, reads_pullback, reads_pushforward, 2.1, -0.4);
  both("writers", writers, writers_pullback, writers_pushforward, 0.7, 1.3);
  both("writers2", writers, writers_pullback, writers_pushforward, 2.1, 0.4);
  return failures();
}
// CHECK: ok reads.d0
// CHECK: ok reads.d1
// CHECK: ok reads.fwd.x
// CHECK: ok reads2.fwd.y
// CHECK: ok writers.d0
// CHECK: ok writers.d1
// CHECK: ok writers.fwd.x
// CHECK: ok writers.fwd.y
// CHECK: ok writers2.d0
// CHECK: ok writers2.fwd.y

#ifdef REFUSED
static double virtualCall(const Scaler *s, double *a) {
  s->apply(a);
// REFUSED: read-only-helpers.cpp:[[@LINE-1]]:3: error: grad: cannot differentiate virtual call to 'apply' (which override runs is not known: make it non-virtual, or declare the class of the object 'final') in 'virtualCall' in forward mode
// REFUSED: read-only-helpers.cpp:[[@LINE-2]]:3: error: grad: cannot differentiate virtual call to 'apply' (which override runs is not known: make it non-virtual, or declare the class of the object 'final') in 'virtualCall'
  return a[0];
}
[[grad, grad::forward]] double dispatch(double x, double y) {
  double a[2] = {x, y};
  return virtualCall(&kDoubler, a);
}
#endif
