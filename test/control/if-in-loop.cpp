// if / else inside loop bodies whose condition changes from one iteration to
// the next: the reverse sweep must replay each iteration's branch.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>

// x = 0.5: t = 1.5, 0.75, 2.25, 1.125 (branches then, else, then, else).
[[grad]] double alternate(double x) {
  double t = x;
  for (int i = 0; i < 4; ++i) {
    if (t < 1)
      t = t * 3;
    else
      t = t * x;
  }
  return t;
}

// A branch on the index (not data-dependent) in a while loop.
[[grad]] double by_index(double x, double y) {
  double s = x;
  int i = 0;
  while (i < 6) {
    if (i % 2 == 0)
      s = s * y;
    else
      s = std::sin(s) + x;
    ++i;
  }
  return s;
}

// else-if chain inside nested loops.
[[grad]] double chain(double x, double y) {
  double s = x;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      if (s > 1)
        s = s * 0.5 + y;
      else if (s > 0)
        s = s * y + 0.3;
      else
        s = -s * x;
    }
  return s;
}

int main() {
  using gradcheck::check_grad;
  // CHECK: ok alternate.d0
  check_grad("alternate", alternate, alternate_pullback, 0.5);
  // CHECK: ok by_index.d0
  // CHECK: ok by_index.d1
  check_grad("by_index", by_index, by_index_pullback, 0.5, 1.2);
  // CHECK: ok chain.d0
  // CHECK: ok chain.d1
  check_grad("chain", chain, chain_pullback, 0.7, 1.3);
  return gradcheck::failures();
}
