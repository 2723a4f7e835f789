// A reverse loop that adds into one element of a local adjoint array at every
// iteration (GMM's triangle: `_d_xc[i] += l[k] * _r` over j with i fixed)
// keeps the sum in a local and stores it once after the loop, so iterations
// do not wait for each other's store. Only where the array's storage never
// escapes, nothing else in the loop names the array and the index does not
// change in the loop. The same additions in the same order: the same bits
// as with -fplugin-arg-grad-no-hoist-sums (the printed %a values are
// compared). Values against central differences.
// RUN: %gradxx %s -o %t && %t > %t.out && %FileCheck-strict %s --implicit-check-not=FAIL < %t.out
// RUN: %gradxx -fplugin-arg-grad-no-hoist-sums %s -o %t2 && %t2 > %t2.out && diff %t.out %t2.out
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=tri %dflags | FileCheck %s --check-prefix=TRI
// RUN: %dump %s --function=vtri %dflags | FileCheck %s --check-prefix=VTRI
// RUN: %dump %s --function=both %dflags | FileCheck %s --check-prefix=BOTH
// RUN: %dump %s --function=help %dflags | FileCheck %s --check-prefix=HELP
// RUN: %dump %s --function=esc %dflags | FileCheck %s --check-prefix=ESC
// RUN: %dump %s --function=viaptr %dflags | FileCheck %s --check-prefix=PTR
// RUN: %dump %s --function=viaref %dflags | FileCheck %s --check-prefix=REF
#include "gradcheck.h"
#include <cmath>
#include <cstdio>
#include <vector>
using namespace gradcheck;

constexpr int N = 6;

// GMM's triangle over a local array: xc[i] is read for every j > i.
// TRI-LABEL: void tri_pullback(
// TRI: double [[A:_acc[0-9]+]] = _d_xc[i];
// TRI: [[A]] += l[{{.*}}] * _r{{[0-9]+}};
// TRI: _d_xc[i] = [[A]];
[[grad]] double tri(const double *x, const double *l, double y) {
  double xc[N], q[N];
  for (int i = 0; i < N; ++i)
    xc[i] = x[i] * y;
  for (int i = 0; i < N; ++i)
    q[i] = xc[i] * xc[i];
  int k = 0;
  for (int i = 0; i < N; ++i)
    for (int j = i + 1; j < N; ++j) {
      q[j] = q[j] + l[k] * xc[i];
      ++k;
    }
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += q[i] * std::sin(q[i]);
  return s;
}

// The same with std::vector scratch, as ADBench writes it.
// VTRI-LABEL: void vtri_pullback(
// VTRI: double [[A:_acc[0-9]+]] = _d_xc[i];
// VTRI: [[A]] += l[{{.*}}] * _r{{[0-9]+}};
// VTRI: _d_xc[i] = [[A]];
[[grad]] double vtri(const double *x, const double *l, double y) {
  std::vector<double> xc(N), q(N);
  for (int i = 0; i < N; ++i)
    xc[i] = x[i] * y;
  for (int i = 0; i < N; ++i)
    q[i] = xc[i] * xc[i];
  int k = 0;
  for (int i = 0; i < N; ++i)
    for (int j = i + 1; j < N; ++j) {
      q[j] = q[j] + l[k] * xc[i];
      ++k;
    }
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += q[i] * std::sin(q[i]);
  return s;
}

// xc[i] and xc[j] in one loop: both add into _d_xc, which stays in memory.
// BOTH-LABEL: void both_pullback(
// BOTH-NOT: _acc
// BOTH: {{^}}}
[[grad]] double both(const double *x, const double *l, double y) {
  double xc[N], q[N] = {};
  for (int i = 0; i < N; ++i)
    xc[i] = x[i] * y;
  int k = 0;
  for (int i = 0; i < N; ++i)
    for (int j = i + 1; j < N; ++j) {
      q[j] = q[j] + l[k] * xc[i] * xc[j];
      ++k;
    }
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += q[i] * q[i] + xc[i];
  return s;
}

// xc's storage goes to a helper (its reverse half writes _d_xc through a
// pointer, outside the loop: the sum is kept in a local), and a pointer
// into it is kept (`row`: _d_xc stays in memory in every loop).
static void scale(double *v, int n, double a) {
  for (int i = 0; i < n; ++i)
    v[i] = v[i] * a;
}
// HELP-LABEL: void help_pullback(
// HELP: double [[A:_acc[0-9]+]] = _d_xc[i];
// HELP: _d_xc[i] = [[A]];
// HELP: ::_grad_scale_rev(N, y, _d_xc, &{{.*}}, _stack);
[[grad]] double help(const double *x, const double *l, double y) {
  double xc[N], q[N];
  for (int i = 0; i < N; ++i)
    xc[i] = x[i];
  scale(xc, N, y);
  for (int i = 0; i < N; ++i)
    q[i] = xc[i] * xc[i];
  int k = 0;
  for (int i = 0; i < N; ++i)
    for (int j = i + 1; j < N; ++j) {
      q[j] = q[j] + l[k] * xc[i];
      ++k;
    }
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += q[i] * q[i];
  return s;
}
// ESC-LABEL: void esc_pullback(
// ESC-NOT: _acc
// ESC: {{^}}}
[[grad]] double esc(const double *x, const double *l, double y) {
  double xc[N], q[N];
  for (int i = 0; i < N; ++i)
    xc[i] = x[i] * y;
  const double *row = xc;
  for (int i = 0; i < N; ++i)
    q[i] = row[i] * xc[i];
  int k = 0;
  for (int i = 0; i < N; ++i)
    for (int j = i + 1; j < N; ++j) {
      q[j] = q[j] + l[k] * row[i];
      ++k;
    }
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += q[i] * q[i];
  return s;
}

// The index changes through a pointer or a reference inside the loop (an
// inactive array the forward sweep replays): the sum must follow it, so no
// local (a first version kept a[0] in a local: d/dx 0 instead of 9.14).
// PTR-LABEL: void viaptr_pullback(
// PTR-NOT: _acc
// PTR: {{^}}}
// REF-LABEL: void viaref_pullback(
// REF-NOT: _acc
// REF: {{^}}}
[[grad]] double viaptr(double x) {
  double a[4] = {0, 0, 0, 0};
  int i = 0;
  int *pi = &i;
  for (int k = 0; k < 3; ++k) {
    a[i] += 1.5 * (k + 1);
    ++*pi;
  }
  return x * a[0] + x * x * a[1] + a[2] * std::sin(x);
}
[[grad]] double viaref(double x) {
  double a[4] = {0, 0, 0, 0};
  int i = 0;
  int &r = i;
  for (int k = 0; k < 3; ++k) {
    a[i] += x * (k + 1);
    r += 1;
  }
  return x * a[0] + a[1] * a[1] + a[2] * std::sin(x);
}

int main() {
  // CHECK: ok viaptr.d0
  check_grad("viaptr", viaptr, viaptr_pullback, 0.7);
  // CHECK: ok viaref.d0
  check_grad("viaref", viaref, viaref_pullback, 0.7);
  const double x0[N] = {0.3, 0.7, -0.4, 1.1, 0.2, -0.6};
  double l0[N * (N - 1) / 2];
  for (int i = 0; i < N * (N - 1) / 2; ++i)
    l0[i] = 0.1 * (i % 5) - 0.2;
  const double y = 0.9;
  constexpr int L = N * (N - 1) / 2;
#define CHECK(F)                                                               \
  {                                                                            \
    double dx[N] = {0}, dl[L] = {0}, dy = 0;                                   \
    F##_pullback(x0, l0, y, 1.0, dx, dl, &dy);                                 \
    expect(#F " dy", dy, fd([&](double yy) { return F(x0, l0, yy); }, 0, y));  \
    for (int i = 0; i < N; ++i) {                                              \
      auto h = [&](double v) {                                                 \
        double xx[N];                                                          \
        for (int k = 0; k < N; ++k)                                            \
          xx[k] = x0[k];                                                       \
        xx[i] = v;                                                             \
        return F(xx, l0, y);                                                   \
      };                                                                       \
      expect(#F " dx", dx[i], fd(h, 0, x0[i]));                                \
    }                                                                          \
    for (int i = 0; i < L; ++i) {                                              \
      auto h = [&](double v) {                                                 \
        double ll[L];                                                          \
        for (int k = 0; k < L; ++k)                                            \
          ll[k] = l0[k];                                                       \
        ll[i] = v;                                                             \
        return F(x0, ll, y);                                                   \
      };                                                                       \
      expect(#F " dl", dl[i], fd(h, 0, l0[i]));                                \
    }                                                                          \
    std::printf("bits " #F " %a", dy);                                         \
    for (double v : dx)                                                        \
      std::printf(" %a", v);                                                   \
    for (double v : dl)                                                        \
      std::printf(" %a", v);                                                   \
    std::printf("\n");                                                         \
  }
  CHECK(tri) CHECK(vtri) CHECK(both) CHECK(help) CHECK(esc)
  return failures();
}
// CHECK-COUNT-22: ok tri
// CHECK: bits tri
// CHECK-COUNT-22: ok vtri
// CHECK: bits vtri
// CHECK-COUNT-22: ok both
// CHECK: bits both
// CHECK-COUNT-22: ok help
// CHECK: bits help
// CHECK-COUNT-22: ok esc
// CHECK: bits esc
