// A non-const reference to an integer local (`int &r = i;`) is a name for i:
// writes through it change i. It was taken for a const reference bound to a
// value and replaced by a copy, so `r += 1` never reached i: d/dx 0 instead
// of the right value, without a diagnostic; likewise `const int &r = i;`
// did not see a later `++i`. Values against closed forms and
// central differences; the dump keeps the reference.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=shifted %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>

// DUMP-LABEL: void shifted_pullback(
// DUMP: int &r = i;
// DUMP-NEXT: r += 1;
[[grad]] double shifted(double x) {
  double a[4] = {0, 0, 0, 0};
  int i = 0;
  int &r = i;
  r += 1;
  a[i] += x;
  return a[1] * x;
}

// The count as a factor: d/dx (x * 2) = 2.
[[grad]] double counted(double x) {
  int n = 0;
  int &c = n;
  c += 2;
  return x * n;
}

// In a loop, with the index of an array sum changed through the reference.
[[grad]] double walked(double x) {
  double a[4] = {0, 0, 0, 0};
  int i = 0;
  int &r = i;
  for (int k = 0; k < 3; ++k) {
    a[i] += x * (k + 1);
    r += 1;
  }
  return x * a[0] + a[1] * a[1] + a[2] * std::sin(x);
}

// A const reference sees a later write to its variable; one bound to a
// temporary keeps the temporary's value.
[[grad]] double seen(double x) {
  int i = 0;
  const int &r = i;
  ++i;
  return x * x * r;
}
[[grad]] double kept(double x) {
  int n = 2;
  const int &r = n + 1;
  n = 7;
  return r * x * x + n;
}

int main() {
  using gradcheck::check_grad;
  double d = 0;
  shifted_pullback(0.7, 1.0, &d);
  // CHECK: ok shifted
  gradcheck::expect("shifted", d, 2 * 0.7, 1e-15);
  d = 0;
  counted_pullback(0.7, 1.0, &d);
  // CHECK: ok counted
  gradcheck::expect("counted", d, 2.0, 1e-15);
  d = 0;
  seen_pullback(0.7, 1.0, &d);
  // CHECK: ok seen
  gradcheck::expect("seen", d, 2 * 0.7, 1e-15);
  d = 0;
  kept_pullback(0.7, 1.0, &d);
  // CHECK: ok kept
  gradcheck::expect("kept", d, 3 * 2 * 0.7, 1e-15);
  // CHECK: ok walked.d0
  check_grad("walked", walked, walked_pullback, 0.7);
  return gradcheck::failures();
}
