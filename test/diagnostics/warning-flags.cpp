// -Werror and -w are accepted with the plugin; a clean [[grad]] file stays
// clean (the plugin has no warnings here) and the pullback still works.
// RUN: %gradxx -Werror %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -w %s -o %t.w && %t.w | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsyntax-only -Werror -Wall -Wextra %s 2>&1 | count 0
// RUN: %gradxx -fsyntax-only -w %s 2>&1 | count 0
#include "gradcheck.h"

[[grad]] double f(double x, double y) { return x * x * y; }

int main() {
  // CHECK: ok f.d0
  // CHECK: ok f.d1
  gradcheck::check_grad("f", f, f_pullback, 0.7, -1.3);
  return gradcheck::failures();
}
