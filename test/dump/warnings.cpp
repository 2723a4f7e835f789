// What grad-dump prints compiles without warnings under -Wall -Wextra
// -Werror with clang and with g++ (-O2, where g++ also checks for values
// that may be used uninitialised): loops with break and continue, early
// returns, pointer walks, helpers with out-parameters (split halves),
// local vectors, scratch buffers, logging around the math.
// RUN: rm -rf %t && split-file %s %t
// RUN: %dump %t/prims.cpp %dflags > %t/gen.inc
// RUN: %cxx -Wall -Wextra -Werror -Wno-unknown-attributes -fsyntax-only -I%t %t/tu.cpp
// RUN: %if gxx %{ %gxx -O2 -Wall -Wextra -Werror -Wno-attributes -c -I%t %t/tu.cpp -o %t/tu.o %}
// RUN: FileCheck %s --input-file=%t/gen.inc
// CHECK: void loops_pullback(
// CHECK: void walk_pullback(
// CHECK: void uses_helpers_pullback(
// CHECK: void scratch_pullback(

//--- prims.h
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

[[grad]] double loops(const double *x, int n, double a) {
  double s = 0, t = 1;
  for (int i = 0; i < n; ++i) {
    if (x[i] > 2)
      break;
    if (x[i] < -2)
      continue;
    t = t * a + x[i];
    s += std::sin(t) * x[i];
  }
  int k = n;
  while (k > 0) {
    --k;
    s = s * 0.5 + x[k];
  }
  return s + t;
}

[[grad]] double walk(const double *x, int n, double *out) {
  const double *p = x;
  double acc = 0;
  for (int i = 0; i < n; ++i) {
    acc += *p * *p;
    ++p;
  }
  *out = acc;
  if (acc > 100)
    return acc;
  return std::sqrt(acc + 1);
}

static void axpy(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

static double norm2(std::vector<double> &v, double scale) {
  double s = 0;
  for (double &e : v) {
    e *= scale;
    s += e * e;
  }
  std::vector<double> w(v.size());
  for (std::size_t i = 0; i < w.size(); ++i)
    w[i] = v[i] * s;
  w.push_back(s);
  return w.back() + w[0];
}

[[grad]] double uses_helpers(const double *x, double a) {
  double y[3] = {x[0], x[1], x[2]};
  axpy(3, a, x, y);
  std::vector<double> v(y, y + 3);
  double r = norm2(v, a);
  return r + v[2] * y[1];
}

[[grad]] double scratch(const double *x, int n, double c) {
  if (n <= 0)
    return 0;
  double *buf = static_cast<double *>(std::malloc(sizeof(double) * n));
  for (int i = 0; i < n; ++i)
    buf[i] = x[i] * c;
  std::fprintf(stderr, "scratch %d\n", n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += buf[i] * buf[(i + 1) % n];
  std::free(buf);
  return s;
}

//--- prims.cpp
#include "prims.h"

//--- tu.cpp
#include <grad/grad.h>
#include "prims.h"
#include "gen.inc"
