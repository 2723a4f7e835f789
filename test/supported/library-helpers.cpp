// The refusals quoted in docs/supported.md, section "Library": std::fill
// in a Hessian-vector product and std::accumulate in a vector pullback.
// Separate from library.cpp: the generated helpers are numbered in the
// file (_grad_fill_fwd_0 is the first), and a callee is refused once per
// file.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <grad/grad.h>
#include <algorithm>
#include <numeric>

// std::fill in an HVP.
namespace fh {
[[grad::hessian]] double f(double x) {
  double a[3];
  // CHECK: library-helpers.cpp:[[@LINE+2]]:3: error: grad: cannot build the Hessian-vector product of 'f': call to '_grad_fill_fwd_0', which writes differentiated memory and has no visible body or user pushforward (in its pullback) has no forward-mode derivative
  // CHECK: library-helpers.cpp:[[@LINE+1]]:3: error: grad: cannot build the Hessian-vector product of 'f': call to '_grad_fill_rev_0', which writes differentiated memory and has no visible body or user pushforward (in its pullback) has no forward-mode derivative
  std::fill(a, a + 3, x);
  return a[0] * a[2];
}
} // namespace fh

// <numeric> over pointers in a vector pullback: the page quotes "call to
// 'accumulate' with adjoint arguments and a result"; the plugin refuses
// the callees' pullbacks as in an HVP.
namespace av {
[[grad("lanes=2")]] double f(const double *a, const double *b) {
  // CHECK: library-helpers.cpp:[[@LINE+2]]:3: error: grad: cannot build the vector pullback of 'f': call to 'inner_product_pullback', which writes differentiated memory and has no visible body or user pushforward
  // CHECK: library-helpers.cpp:[[@LINE+1]]:3: error: grad: cannot build the vector pullback of 'f': call to 'accumulate_pullback', which writes differentiated memory and has no visible body or user pushforward
  return std::accumulate(a, a + 4, 0.0) * std::inner_product(a, a + 3, b, 1.0);
}
} // namespace av
