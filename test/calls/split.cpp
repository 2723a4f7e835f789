// Split derivatives: a callee that calls functions which call functions is
// differentiated in two halves, _grad_NAME_fwd (its value; it pushes a frame
// of what its reverse sweep reads) and _grad_NAME_rev (pops that frame), so
// a chain of nested calls runs each forward sweep once instead of once per
// level above it. Values against finite differences in every position a
// split call can take: a value the reverse sweep does not read, a branch,
// a conditional expression, a loop, recursion, and a 60-deep chain.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
// A leaf (calls only math functions) is never split; mid calls only leaves.
// DUMP-NOT: _grad_leaf_fwd
// DUMP-NOT: _grad_mid_fwd
// DUMP: double _grad_wf_fwd(double x, double y, ::grad::detail::stack &_stack);
// DUMP: double _grad_wf_fwd_{{[0-9]+}}(double x, double y, ::grad::detail::stack &_stack);
// A split function's own pullback runs its two halves.
// DUMP-LABEL: void unused_pullback(double x, double d_ret, double *d_x) {
// DUMP-NEXT: grad::detail::stack &_stack = ::grad::detail::thread_stack();
// DUMP-NEXT: grad::detail::stack_mark _mark(_stack);
// DUMP-NEXT: GRAD_NOINLINE_CALL static_cast<void>(::_grad_unused_fwd(x, _stack));
// DUMP-NEXT: GRAD_NOINLINE_CALL ::_grad_unused_rev(x, d_ret, d_x, _stack);
// DUMP-NEXT: }
// The forward half pushes a frame on the thread's stack for what the
// reverse half reads (memory/split-frames.cpp); here it reads nothing of
// the forward sweep (top's value is unread), so nothing is pushed (the
// callee's reverse half pops the callee's frame).
// DUMP-LABEL: double _grad_unused_fwd(double x, ::grad::detail::stack &_stack) {
// DUMP-NOT: _stack
// DUMP: _t0 = ::_grad_top_fwd(x, _stack);
// DUMP-NEXT: _value0 = _t0 * 2;
// DUMP-NEXT: return _value0;
// DUMP-LABEL: void _grad_unused_rev(double x, double d_ret, double *d_x, ::grad::detail::stack &_stack) {
// DUMP-NOT: pop_all
// DUMP: ::_grad_top_rev(x, d_ret * 2, &_g0, _stack);
// DUMP-LABEL: void branch_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP-NEXT: grad::detail::stack &_stack = ::grad::detail::thread_stack();
// DUMP-NEXT: grad::detail::stack_mark _mark(_stack);
// DUMP: _t0 = ::_grad_top_fwd(x, _stack);
// DUMP: ::_grad_top_rev(y, {{.*}}, _stack);
// DUMP: ::_grad_top_rev(x, {{.*}}, _stack);
// DUMP: }
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>

using gradcheck::check_grad;

double leaf(double x) { return std::sin(x) * x; }
double mid(double x, double y) {
  double a = leaf(x) * y;
  if (a > 0)
    return a + leaf(y);
  else
    return a * a;
}
double top(double x) {
  double h = mid(x, 2.0 * x);
  return h * std::tanh(h);
}

// The reverse sweep does not read top's value: its forward half still runs.
[[grad]] double unused(double x) { return top(x) * 2; }
[[grad]] double branch(double x, double y) {
  if (x > y)
    return top(x) * y;
  double u = top(y) + x;
  return u * u;
}
[[grad]] double ternary(double x) { return x > 0.5 ? top(x) : top(-x) * x; }
[[grad]] double loop(double x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += top(x + 0.1 * i) * s + x;
  return s;
}

// A wrt-restricted split function and its all-parameter variant: two
// pairs of halves, distinct names.
[[grad("x")]] double wf(double x, double y) { return top(x * y) + y * top(x); }
[[grad]] double usewf(double x, double y) { return wf(x, y) * wf(y, x); }

// Recursion: power(x, n) = x^(n+1) through n nested calls.
double power(double x, int n) { return n == 0 ? x : x * power(x, n - 1); }
[[grad]] double rec(double x) { return power(x, 7) + power(std::sin(x), 3); }

// 60 levels: c_k(x) = c_{k-1}(x) + 0.1 * tanh(c_{k-1}(x)).
template <int N> double c(double x) {
  if constexpr (N == 0)
    return x;
  else {
    double h = c<N - 1>(x);
    return h + 0.1 * std::tanh(h);
  }
}
[[grad]] double deep(double x) { return c<60>(x); }

int main() {
  // CHECK: ok unused.d0
  check_grad("unused", unused, unused_pullback, 0.7);
  // CHECK: ok branch>.d0
  // CHECK: ok branch>.d1
  check_grad("branch>", branch, branch_pullback, 0.9, 0.2);
  // CHECK: ok branch<.d0
  // CHECK: ok branch<.d1
  check_grad("branch<", branch, branch_pullback, -0.4, 0.3);
  // CHECK: ok ternary+.d0
  check_grad("ternary+", ternary, ternary_pullback, 0.8);
  // CHECK: ok ternary-.d0
  check_grad("ternary-", ternary, ternary_pullback, 0.1);
  // CHECK: ok loop.d0
  check_grad("loop", [](double x) { return loop(x, 5); },
             [](double x, double d, double *dx) { loop_pullback(x, 5, d, dx); },
             0.35);
  // CHECK: ok wf.d0
  check_grad("wf", [](double x) { return wf(x, 0.7); },
             [](double x, double d, double *dx) { wf_pullback(x, 0.7, d, dx); },
             0.4);
  // CHECK: ok usewf.d0
  // CHECK: ok usewf.d1
  check_grad("usewf", usewf, usewf_pullback, 0.4, 0.9);
  // CHECK: ok rec.d0
  check_grad("rec", rec, rec_pullback, 0.6);
  // CHECK: ok deep.d0
  check_grad("deep", deep, deep_pullback, -0.3);
  return gradcheck::failures();
}
