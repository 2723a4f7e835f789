// break / continue at the end of a block that first overwrites a value the
// reverse sweep needs: `if (c) { s = s * 0.5; continue; }`.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <grad/tape.h>

// x = 0.9: s = 0.81 -> 1.81 -> 1.629 (continue) -> ...
[[grad]] double cont(double x) {
  double s = x;
  for (int i = 0; i < 4; ++i) {
    s = s * x;
    if (s > 1) {
      s = s * 0.5;
      continue;
    }
    s = s + 1;
  }
  return s;
}

[[grad]] double leave(double x) {
  double s = x;
  for (int i = 0; i < 4; ++i) {
    s = s * x;
    if (s > 1) {
      s = s * 0.5;
      break;
    }
    s = s + 1;
  }
  return s;
}

int main() {
  // CHECK: ok cont.d0
  gradcheck::check_grad("cont", cont, cont_pullback, 0.9);
  // CHECK: ok leave.d0
  gradcheck::check_grad("leave", leave, leave_pullback, 0.9);
  return gradcheck::failures();
}
