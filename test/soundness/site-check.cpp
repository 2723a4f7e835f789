// Default deny after the build (plugin/reverse/SiteCheck.cpp): the activity
// analysis lists every place a derivative flows through (assignments to or
// from differentiated values, initialisers and returns of them, single heap
// objects built from them; plugin/analysis/Sites.cpp), and the pullback
// builder must have modelled each one. A site it did not reach would be a
// silently wrong derivative; it is an error at the site. The builder is made
// to forget assignments with a test-only argument (it replays them as
// written, as a builder missing a case would): every active assignment is
// then refused, all in one compile, and inactive ones are not; the forward
// builder's pushforwards are checked alike.
// RUN: not %gradxx -fsyntax-only -fplugin-arg-grad-test-replay-assignments %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %gradxx -fsyntax-only -DFORWARD_ONLY -fplugin-arg-grad-test-replay-assignments %s 2>&1 | FileCheck %s --check-prefix=FWD --implicit-check-not=error:
// Without it, the same functions build and their gradients are right.
// RUN: %gradxx %s -o %t && %t | FileCheck %s --check-prefix=OK --implicit-check-not=FAIL
// RUN: %gradxx -DFORWARD %s -o %t2 && %t2 | FileCheck %s --check-prefixes=OK,FOK --implicit-check-not=FAIL
// The sites, printed with the activity.
// RUN: %gradxx -fsyntax-only -fplugin-arg-grad-print-activity %s 2>&1 | FileCheck %s --check-prefix=SITES
#include "gradcheck.h"
using gradcheck::expect;

#if defined(FORWARD_ONLY)
#define MODES [[grad::forward]]
#elif defined(FORWARD)
#define MODES [[grad, grad::forward]]
#else
#define MODES [[grad]]
#endif

// SITES: remark: grad: derivative sites of 'scale': [[@LINE+5]]:10 's = x * y', [[@LINE+6]]:3 's *= y', [[@LINE+10]]:3 'return s + t'{{$}}
MODES double scale(double x, double y) {
  int n = 2;
  n = n + 1;    // no derivative: replayed either way
  double t = 3; // a constant initialiser: no site
  double s = x * y;
  s *= y;
  // CHECK: site-check.cpp:[[@LINE-1]]:3: error: grad: cannot differentiate 's *= y' (internal error: the pullback builder did not model its derivative; please report it) in 'scale'
  // FWD: site-check.cpp:[[@LINE-2]]:3: error: grad: cannot differentiate 's *= y' (internal error: the forward builder did not model its derivative; please report it) in 'scale' in forward mode
  t = n;
  return s + t;
}

MODES double loop(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s = s + x[i] * x[i];
  // CHECK: site-check.cpp:[[@LINE-1]]:5: error: grad: cannot differentiate 's = s + x[i] * x[i]' (internal error: the pullback builder did not model its derivative; please report it) in 'loop'
  // FWD: site-check.cpp:[[@LINE-2]]:5: error: grad: cannot differentiate 's = s + x[i] * x[i]' (internal error: the forward builder did not model its derivative; please report it) in 'loop' in forward mode
  return s;
}

#ifndef FORWARD_ONLY
int main() {
  double x = 1.5, y = -0.5;
  double dx = 0, dy = 0;
  scale_pullback(x, y, 1.0, &dx, &dy);
  expect("scale.x", dx, y * y);        // OK: ok scale.x
  expect("scale.y", dy, 2 * x * y);    // OK: ok scale.y
  double v[3] = {1, 2, -3}, dv[3] = {0, 0, 0};
  loop_pullback(v, 3, 1.0, dv);
  expect("loop.x2", dv[2], -6.0);      // OK: ok loop.x2
#ifdef FORWARD
  expect("scale.fwd", scale_pushforward(x, y, 1.0, 0.0).der[0], y * y); // FOK: ok scale.fwd
  double t[3] = {0, 0, 1};
  expect("loop.fwd", loop_pushforward(v, 3, t).der[0], -6.0); // FOK: ok loop.fwd
#endif
}
#endif
