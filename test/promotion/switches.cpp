// The switch, -w and -Werror.
// RUN: %gradxx -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %gradxx -fsyntax-only -fplugin-arg-grad-no-promotion-warnings %s 2>&1 | count 0
// RUN: %gradxx -fsyntax-only -w %s 2>&1 | count 0
// RUN: not %gradxx -fsyntax-only -Werror %s 2>&1 | FileCheck %s --check-prefix=ERR
// The promotion does not change the derivative.
// RUN: %gradxx -w %s -o %t && %t | FileCheck %s --check-prefix=VAL

#include "gradcheck.h"

[[grad]] float leaky(float x) { return x > 0 ? x : 0.01 * x; }

// WARN: switches.cpp:[[@LINE-2]]:57: warning: grad: implicit promotion from 'float' to 'double' in 'leaky'
// ERR: switches.cpp:[[@LINE-3]]:57: error: grad: implicit promotion from 'float' to 'double' in 'leaky'

int main() {
  float d = 0;
  leaky_pullback(-2.0f, 1.0f, &d);
  // VAL: ok leaky.neg
  gradcheck::expect("leaky.neg", d, 0.01, 1e-6);
  d = 0;
  leaky_pullback(3.0f, 1.0f, &d);
  // VAL: ok leaky.pos
  gradcheck::expect("leaky.pos", d, 1.0);
  return gradcheck::failures();
}
