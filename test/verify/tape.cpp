// Verify mode: a pullback that uses the tape leaves it as it found it when
// it returns. Here a user's custom pullback for g leaves a value on the
// thread's tape (a bug the plugin cannot see): the pullback of h aborts,
// naming h. An exception leaving the pullback is not a failure (the tape
// is reset then).
// RUN: %gradxx -fplugin-arg-grad-verify %s -o %t
// RUN: not --crash %t 2>&1 | FileCheck %s
// RUN: %t throw | FileCheck %s --check-prefix=THROW
#include <cstdio>
#include <stdexcept>

bool Throw = false;
double g(double x) { return x * x; }
void g_pullback(double x, double d, double *dx) {
  grad::detail::thread_stack().push(1.0); // never popped
  if (Throw)
    throw std::runtime_error("from g_pullback");
  *dx += 2 * x * d;
}

[[grad]] double h(const double *p, int n) {
  double s = 1;
  for (int i = 0; i < n; ++i)
    s = g(p[i]) * s;
  return s;
}

int main(int argc, char **) {
  Throw = argc > 1;
  double p[1] = {3}, dp[1] = {};
  try {
    h_pullback(p, 1, 1.0, dp);
  } catch (const std::exception &E) {
    std::printf("caught %s, tape size %zu\n", E.what(),
                grad::detail::thread_stack().size());
    return 0;
  }
  std::printf("%g\n", dp[0]);
}
// CHECK: grad: verify: {{.*}}tape.cpp:21:17: in 'h': the tape is not balanced when the pullback returns (0 bytes at entry, 8 at exit)
// THROW: caught from g_pullback, tape size 0
