// `break` nested in a case's statements (`if (c) break;`, a break after an
// inner loop, in both arms of an if, in a group that falls through, next to
// a `return`): the switch runs as a loop that runs once, each nested break a
// jump out of it. Values against finite differences, at points that take
// each break and each path around it; inside a loop (the decisions go on the
// tape), at top level, in a helper called from another [[grad]] function
// (split halves), with several seeds at once (vector pullback) and in
// forward mode. A `continue` in such a switch belongs to the loop around it:
// an error.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DCONTINUE %s 2>&1 | FileCheck %s --check-prefix=ERR
#include "gradcheck.h"
#include <cmath>

// In a loop over a row, C style.
[[grad]] double rowsum(const double *x, int n, int mode) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    switch (mode) {
    case 0:
      if (x[i] > 1)
        break; // skips the rest of this element
      s += x[i] * x[i];
      break;
    case 1: {
      double t = std::sin(x[i]);
      if (t < 0)
        break;
      s += t * s + x[i];
      break;
    }
    default:
      s += std::exp(-x[i]);
    }
  }
  return s;
}

// At top level: a break in both arms of an if ending a group that would
// otherwise fall through, a break after an inner loop, a return.
[[grad]] double top(double x, double y, int k) {
  double r = x * y;
  switch (k) {
  case 0:
    if (x > 0) {
      r = r * x;
      break;
    } else {
      r = r + std::cos(y);
      break;
    }
  case 1:
    r = std::sqrt(r * r + 1);
    [[fallthrough]];
  case 2:
    for (int j = 0; j < 3; ++j)
      r = r * 0.5 + x * y;
    if (r > 2)
      break;
    r = r * r;
    [[fallthrough]];
  case 3:
    if (y < 0)
      return r * y;
    r += y;
    break;
  default:
    r = -r;
  }
  return r * x;
}

// A helper with out-parameter, called from another [[grad]] function (its
// derivative comes in forward and reverse halves).
static void clamp_scale(double *v, double lim, int how) {
  for (int i = 0; i < 2; ++i)
    switch (how) {
    case 0:
      if (v[i] > lim) {
        v[i] = lim + 0.1 * (v[i] - lim);
        break;
      }
      v[i] = v[i] * v[i];
      break;
    default:
      v[i] = 2 * v[i];
    }
}
[[grad("lanes=2")]] void use(const double *p, double lim, int how,
                             double *out) {
  double v[2] = {p[0] * p[1], p[0] + p[1]};
  clamp_scale(v, lim, how);
  out[0] = v[0] * v[1];
  out[1] = v[0] - std::sin(v[1]);
}

[[grad::forward]] double top_fwd(double x, double y, int k) {
  return top(x, y, k);
}

#ifdef CONTINUE
// ERR: switch-break.cpp:[[@LINE+7]]:9: error: grad: cannot differentiate 'continue' in a 'switch' that has a 'break' nested in a case's statements in 'withcontinue'
[[grad]] double withcontinue(const double *x, int n, int k) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    switch (k) {
    case 0:
      if (x[i] < 0)
        continue;
      if (x[i] > 1)
        break;
      s += x[i];
      break;
    }
    s *= 1.5;
  }
  return s;
}
#endif

int main() {
  const double x[5] = {0.3, 1.7, -0.4, 0.9, 2.2};
  for (int mode = 0; mode < 3; ++mode) {
    double d[5] = {};
    rowsum_pullback(x, 5, mode, 1.0, d);
    for (int i = 0; i < 5; ++i) {
      auto f = [&](double t) {
        double y[5];
        for (int j = 0; j < 5; ++j)
          y[j] = j == i ? t : x[j];
        return rowsum(y, 5, mode);
      };
      gradcheck::expect("rowsum" + std::to_string(mode) + ".d" +
                            std::to_string(i),
                        d[i], gradcheck::fd(f, 0, x[i]), 1e-8);
    }
  }
  // CHECK-COUNT-15: ok rowsum{{[0-2]}}.d{{[0-4]}}
  const double pts[4][2] = {{0.8, 1.1}, {-0.7, 0.6}, {0.2, -0.9}, {1.4, 1.3}};
  for (int k = 0; k < 5; ++k)
    for (auto &p : pts)
      gradcheck::check_grad("top" + std::to_string(k),
                            [k](double a, double b) { return top(a, b, k); },
                            [k](double a, double b, double s, double *da,
                                double *db) {
                              top_pullback(a, b, k, s, da, db);
                            },
                            p[0], p[1]);
  // CHECK-COUNT-40: ok top{{[0-4]}}.d{{[01]}}
  for (int k = 0; k < 5; ++k)
    for (auto &p : pts) {
      double dx = gradcheck::fd([k](double a, double b) { return top(a, b, k); },
                                0, p[0], p[1]);
      gradcheck::expect("top_fwd" + std::to_string(k),
                        top_fwd_pushforward(p[0], p[1], k, 1.0, 0.0).der[0],
                        dx, 1e-8);
    }
  // CHECK-COUNT-20: ok top_fwd{{[0-4]}}
  // Both rows of the 2 x 3 Jacobian of `use` from one vector pullback,
  // against central differences (lim 1.5: some elements clamped).
  for (int how = 0; how < 2; ++how)
    for (double a : {0.5, 1.2}) {
      const double p[2] = {a, 0.8};
      grad::lanes<double, 2> dp[3] = {}, seed[2] = {};
      seed[0][0] = 1; // lane 0: out[0]
      seed[1][1] = 1; // lane 1: out[1]
      double out[2];
      use_pullback(p, 1.5, how, out, dp, &dp[2], seed);
      for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 3; ++c) {
          const double at[3] = {p[0], p[1], 1.5};
          auto f = [&](double t) {
            double q[3] = {at[0], at[1], at[2]}, o[2];
            q[c] = t;
            use(q, q[2], how, o);
            return o[r];
          };
          gradcheck::expect("use" + std::to_string(how) + ".J" +
                                std::to_string(r) + std::to_string(c),
                            dp[c][r], gradcheck::fd(f, 0, at[c]), 1e-8);
        }
    }
  // CHECK-COUNT-24: ok use{{[01]}}.J{{[01][0-2]}}
  return gradcheck::failures();
}
