// switch with groups that fall through into the next one (with and without
// [[fallthrough]]): a run of groups is entered at one of them and runs on
// to the next `break` or `return`; its groups are reversed in reverse
// order, each under "entered at this group or an earlier one". The default
// in the middle of a run, a run ending in `return`, a switch in a loop (the
// value on the tape), an out-parameter written in a run; values against
// finite differences, the reverse order in the generated code.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=chain %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>

// Entered at 0: all three groups; at 1 (or 2): the last two; at 3: the last.
[[grad]] double chain(double x, int k) {
  double r = x;
  switch (k) {
  case 0:
    r *= x;
    [[fallthrough]];
  case 1:
  case 2:
    r += std::sin(r);
    [[fallthrough]];
  case 3:
    r = std::exp(0.5 * r);
    break;
  case 4:
    r = r * r * r;
  }
  return r * x;
}
// DUMP-LABEL: void chain_pullback(
// DUMP:      if (_s0 == 0 || _s0 == 1 || _s0 == 2 || _s0 == 3) {
// DUMP-NEXT:   if (_s0 == 0) {
// DUMP:        if (_s0 == 0 || _s0 == 1 || _s0 == 2) {
// DUMP:      } else if (_s0 == 4) {
// The reverse: the last group first, unguarded, then the others.
// DUMP:      if (_s0 == 0 || _s0 == 1 || _s0 == 2 || _s0 == 3) {
// DUMP-NEXT:   {
// DUMP-NEXT:     double _r{{[0-9]+}} = _d_r;
// DUMP:        if (_s0 == 0 || _s0 == 1 || _s0 == 2) {
// DUMP:        if (_s0 == 0) {

// The default in the middle of a run; the run ends in a return.
[[grad]] double mid(double x, int k) {
  double y = 2 * x;
  switch (k) {
  case 7:
    y = y * std::cos(x);
  default:
    y += x * x;
  case 9:
    y = std::sqrt(y * y + 1);
    return y * x;
  case 10:
    y = std::log(y);
  }
  return y;
}

// A return from inside a loop of the first group of a run: the groups after
// it did not run, so their reverse must not either (found by the random
// program generator's fallthrough mode: NaN gradients).
[[grad]] double early(double x, double y, int k) {
  switch (k) {
  case 0:
    for (int i = 0; i < 3; ++i) {
      x = x * y + 0.25;
      if (x > 2)
        return x * x;
    }
    x = std::sqrt(x * x + 1);
  case 1:
    y = std::log(y * y + x);
    break;
  }
  return x * y;
}

// Likewise a `continue` in the first group: in the iterations that take
// it, the second group did not run (y carries adjoints from later
// iterations through it otherwise).
[[grad]] double skip(double x, double y, int k) {
  for (int i = 0; i < 4; ++i) {
    switch ((i + k) % 3) {
    case 0:
      if (i % 2)
        continue;
      x = x * y;
      [[fallthrough]];
    case 1:
      y = std::sin(y) + x;
      break;
    default:
      x = std::cos(x) * y;
    }
  }
  return x * y;
}

// Inside a loop, the run's decisions recorded per iteration; the groups
// write through an out-parameter.
[[grad]] void loop(const double *p, int n, double *out) {
  double acc = 0;
  for (int i = 0; i < n; ++i) {
    switch (i % 4) {
    case 0:
      acc += p[i] * p[i];
    case 1:
      acc = std::tanh(acc) + p[i];
      break;
    case 2:
      acc *= p[i];
    default:
      out[0] += acc * p[i];
    }
  }
  out[0] += acc;
}

int main() {
  for (int k = 0; k < 6; ++k)
    gradcheck::check_grad("chain" + std::to_string(k),
                          [k](double x) { return chain(x, k); },
                          [k](double x, double s, double *d) {
                            chain_pullback(x, k, s, d);
                          },
                          0.7);
  // CHECK: ok chain0.d0
  // CHECK: ok chain1.d0
  // CHECK: ok chain2.d0
  // CHECK: ok chain3.d0
  // CHECK: ok chain4.d0
  // CHECK: ok chain5.d0
  for (int k : {7, 8, 9, 10})
    gradcheck::check_grad("mid" + std::to_string(k),
                          [k](double x) { return mid(x, k); },
                          [k](double x, double s, double *d) {
                            mid_pullback(x, k, s, d);
                          },
                          0.6);
  // CHECK: ok mid7.d0
  // CHECK: ok mid8.d0
  // CHECK: ok mid9.d0
  // CHECK: ok mid10.d0
  for (int k : {0, 1, 2})
    for (double x : {0.5, 1.7})
      gradcheck::check_grad("early" + std::to_string(k),
                            [k](double x, double y) { return early(x, y, k); },
                            [k](double x, double y, double s, double *dx,
                                double *dy) {
                              early_pullback(x, y, k, s, dx, dy);
                            },
                            x, 1.2);
  // CHECK-COUNT-2: ok early0.d0
  // CHECK-NEXT: ok early0.d1
  // CHECK-COUNT-2: ok early1.d0
  // CHECK-NEXT: ok early1.d1
  // CHECK-COUNT-2: ok early2.d0
  // CHECK-NEXT: ok early2.d1
  for (int k : {0, 1, 2})
    gradcheck::check_grad("skip" + std::to_string(k),
                          [k](double x, double y) { return skip(x, y, k); },
                          [k](double x, double y, double s, double *dx,
                              double *dy) { skip_pullback(x, y, k, s, dx, dy); },
                          0.8, 1.1);
  // CHECK: ok skip0.d0
  // CHECK-NEXT: ok skip0.d1
  // CHECK-NEXT: ok skip1.d0
  // CHECK-NEXT: ok skip1.d1
  // CHECK-NEXT: ok skip2.d0
  // CHECK-NEXT: ok skip2.d1
  const int N = 9;
  double p[N];
  for (int i = 0; i < N; ++i)
    p[i] = 0.3 + 0.11 * i - 0.02 * i * i;
  auto F = [&](int j, double h) {
    double q[N], out = 0.25;
    for (int i = 0; i < N; ++i)
      q[i] = p[i] + (i == j ? h : 0);
    loop(q, N, &out);
    return out;
  };
  double out = 0.25, dp[N] = {}, dout = 1;
  loop_pullback(p, N, &out, dp, &dout);
  gradcheck::expect("loop.value", out, F(-1, 0), 1e-14);
  for (int j = 0; j < N; ++j) {
    double H = 1e-4;
    double Fd = (8 * (F(j, H) - F(j, -H)) - (F(j, 2 * H) - F(j, -2 * H))) /
                (12 * H);
    gradcheck::expect("loop.d" + std::to_string(j), dp[j], Fd, 1e-7);
  }
  // CHECK: ok loop.value
  // CHECK-COUNT-9: ok loop.d{{[0-9]}}
  // The seed of the out-parameter: d out / d out on entry is 1.
  gradcheck::expect("loop.dout", dout, 1.0, 1e-14);
  // CHECK: ok loop.dout
  return gradcheck::failures();
}
