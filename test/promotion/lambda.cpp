// A map callable that returns a wider type than its float parameters.
// RUN: %gradxx -fsyntax-only %s 2>&1 | FileCheck %s
#include <grad/grad.h>
#include <vector>

[[grad]] float net(const std::vector<float> &x) {
  // CHECK: lambda.cpp:[[@LINE+3]]:30: warning: grad: implicit promotion from 'float' to 'double' in 'net': the lambda returns a wider type than its float parameters
  // CHECK: lambda.cpp:[[@LINE+2]]:55: warning: grad: implicit promotion from 'float' to 'double' in 'net'
  // CHECK-NOT: warning:
  return grad::sum(grad::map([](float z) { return 0.5 * z; }, x));
}
