// Local pointers and references declared inside loops and never re-seated
// (`const double *Ai = A + i * n;` walking the rows of a matrix, `double &c
// = acc[i % 2]`): the forward sweep records the offset once per run of the
// block that declares them, not at every use, and the reverse sweep reads
// unchanged storage through the storage's base plus that offset (`(A +
// _o0)[j]`) instead of recording every element read. Storage written after
// the read is still recorded; jumps out of the block before and after the
// declaration (`continue`, `break`, `return`) keep the tape in step; a
// re-seated pointer still records per use. Reverse mode against finite
// differences.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=rows %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>
#include <string>
#include <vector>

// x^T A x with a row pointer (A 3 x 3 in a local array built from x).
[[grad]] double rows(double x, double y) {
  double A[9] = {x, y, 0.5, x * y, 1.0, y, 0.25, x, y * y};
  double v[3] = {x, y, x - y};
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    const double *Ai = A + i * 3;
    double r = 0;
    for (int j = 0; j < 3; ++j)
      r += Ai[j] * v[j];
    s += v[i] * r;
  }
  return s;
}
// DUMP: void rows_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP: const double *Ai = A + i * 3;
// DUMP-NEXT: [[O:_o[0-9]+]] = Ai - A;
// DUMP: r += Ai[j] * v[j];
// DUMP-NEXT: }
// DUMP: _stack.push([[O]]);
// DUMP: _stack.pop([[O]]);
// DUMP: _d_v[j] += (A + [[O]])[j] * {{_r[0-9]+}};
// DUMP-NEXT: (_d_A + [[O]])[j] += {{_r[0-9]+}} * v[j];

// Written through the alias after it is read: recorded.
[[grad]] double written(double x, double y) {
  double a[4] = {x, y, x * y, 1.0};
  double s = 0;
  for (int i = 0; i < 2; ++i) {
    double *p = &a[2 * i];
    s += p[0] * p[1];
    p[1] = std::sin(p[0] * s);
    s += p[1];
  }
  return s + a[1] * a[3];
}

// Jumps out of the block before and after the declaration.
[[grad]] double jumps(double x, double y, int k) {
  double a[6] = {x, y, x * y, y - x, 0.5, x + 1};
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    if (i == k)
      continue;
    double &c = a[2 * i];
    const double *q = &a[2 * i + 1];
    s += c * *q;
    c *= y;
    if (s > 50)
      break;
    if (i == k + 1)
      return s * c;
    s += c * x;
  }
  return s;
}

// Re-seated inside the loop: per use.
[[grad]] double reseated(double x, double y) {
  double a[4] = {x, y, x * y, y * y};
  double s = 0;
  for (int i = 0; i < 2; ++i) {
    const double *p = a + i;
    s += *p * x;
    p = p + 2;
    s += *p * y;
  }
  return s;
}

// A reference into a vector member of a struct parameter, in a loop.
struct Acc {
  std::vector<double> w;
};
[[grad]] double member(const Acc &a, double x) {
  double s = 0;
  for (int i = 0; i < 4; ++i) {
    const double &wi = a.w[i % 2];
    s += wi * std::sin(x * i + wi);
  }
  return s;
}

template <class F> static double fd(F f, double &v) {
  double h = 1e-6, o = v;
  v = o + h;
  double a = f();
  v = o - h;
  double b = f();
  v = o;
  return (a - b) / (2 * h);
}

int main() {
  using gradcheck::expect;
  double x = 0.7, y = 1.3;
  auto XY = [&](const char *Name, auto F, auto Pb) {
    double dx = 0, dy = 0;
    Pb(x, y, 1.0, &dx, &dy);
    expect(std::string(Name) + ".dx", dx, fd([&] { return F(x, y); }, x));
    expect(std::string(Name) + ".dy", dy, fd([&] { return F(x, y); }, y));
  };
  XY("rows", rows, rows_pullback);
  XY("written", written, written_pullback);
  XY("reseated", reseated, reseated_pullback);
  // CHECK: ok rows.dx
  // CHECK-NEXT: ok rows.dy
  // CHECK-NEXT: ok written.dx
  // CHECK-NEXT: ok written.dy
  // CHECK-NEXT: ok reseated.dx
  // CHECK-NEXT: ok reseated.dy
  for (int k = -1; k < 3; ++k) {
    std::string N = "jumps" + std::to_string(k);
    XY(N.c_str(), [k](double a, double b) { return jumps(a, b, k); },
       [k](double a, double b, double d, double *da, double *db) {
         jumps_pullback(a, b, k, d, da, db);
       });
  }
  // CHECK-COUNT-8: ok jumps
  Acc a{{0.4, -1.1}}, da{{0, 0}};
  double dx = 0;
  member_pullback(a, x, 1.0, &da, &dx);
  expect("member.dx", dx, fd([&] { return member(a, x); }, x));
  expect("member.dw0", da.w[0], fd([&] { return member(a, x); }, a.w[0]));
  expect("member.dw1", da.w[1], fd([&] { return member(a, x); }, a.w[1]));
  // CHECK: ok member.dx
  // CHECK-NEXT: ok member.dw0
  // CHECK-NEXT: ok member.dw1
  return gradcheck::failures();
}
