// A value that every iteration of a loop computes alike (arithmetic over
// variables declared outside the loop and never written: `a * b`, `y - b`)
// is recorded once per run of the outermost such loop instead of at every
// iteration: in the frame of that loop's statement (pushed when the loop
// ends, popped where its reverse starts), or, outside all loops, in its
// temporary. Loops nested two deep with the value declared between them,
// break, continue and return inside them, a loop that runs zero times. The
// same values recorded: the same bits as with
// -fplugin-arg-grad-no-loop-invariants (the printed %a values are
// compared). Values against central differences.
// RUN: %gradxx %s -o %t && %t > %t.out && %FileCheck-strict %s --implicit-check-not=FAIL < %t.out
// RUN: %gradxx -fplugin-arg-grad-no-loop-invariants %s -o %t2 && %t2 > %t2.out && diff %t.out %t2.out
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=nest %dflags | FileCheck %s --check-prefix=NEST
#include "gradcheck.h"
#include <cmath>
#include <cstdio>
using namespace gradcheck;

constexpr int N = 5;

// b and y - b are the same in every iteration of the inner loop: recorded
// by the outer loop's iterations (b is declared in it), not by the inner.
// NEST-LABEL: void nest_pullback(
// NEST: for (int i = _t{{[0-9]+}}; i < n; ++i) {
// NEST: _t[[B:[0-9]+]] = b;
// NEST-NOT: _stack.push{{(_all)?}}({{(.*, )?}}_t[[B]]{{[,)]}}
// NEST: _stack.push(0UL);
// NEST: _stack.push_all({{(.*, )?}}_t[[B]]{{[,)]}}
[[grad]] double nest(const double *x, int n, double y) {
  double s = 0;
  for (int j = 0; j < n; ++j) {
    double a = std::sin(x[j] * y);
    double b = 0.5 * a;
    if (j == 2)
      continue;
    for (int i = 0; i < n; ++i) {
      if (x[i] > 1.5)
        break;
      s += std::tanh(b * x[i]) * b + y * x[i];
      s += (y - b) * (y - b) * x[i];
    }
  }
  return s;
}

// Invariant in both loops (t, y): no record at all; a return inside them.
[[grad]] double early(double x, double y, int n) {
  double t = std::exp(x);
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) {
      s += t * y * std::sin(s + y);
      if (s > 4)
        return s * t;
    }
  return s + t;
}

int main() {
  double x0[N] = {0.3, 0.7, -0.4, 1.1, 0.2}, x1[N] = {0.3, 1.7, -0.4, 1.1, 0.2};
  for (const double *x : {x0, x1})
    for (int n : {0, 3, N}) {
      double dx[N] = {0}, dy = 0, y = 0.9;
      nest_pullback(x, n, y, 1.0, dx, &dy);
      expect("nest dy", dy, fd([&](double yy) { return nest(x, n, yy); }, 0, y));
      for (int i = 0; i < N; ++i) {
        auto h = [&](double v) {
          double xx[N];
          for (int k = 0; k < N; ++k)
            xx[k] = x[k];
          xx[i] = v;
          return nest(xx, n, y);
        };
        expect("nest dx", dx[i], fd(h, 0, x[i]));
      }
      std::printf("bits nest %a", dy);
      for (double v : dx)
        std::printf(" %a", v);
      std::printf("\n");
    }
  for (int n : {0, 1, 4})
    for (double x : {0.1, 0.9}) {
      double dx = 0, dy = 0;
      early_pullback(x, 1.3, n, 1.0, &dx, &dy);
      expect("early dx", dx, fd([&](double v) { return early(v, 1.3, n); }, 0, x));
      expect("early dy", dy, fd([&](double v) { return early(x, v, n); }, 0, 1.3));
      std::printf("bits early %a %a\n", dx, dy);
    }
  return failures();
}
// CHECK-COUNT-36: ok nest
// CHECK-COUNT-12: ok early
