// Always on (verify or not), in forward mode: the tangent a caller passes
// for a container parameter the function cannot resize has the container's
// shape, checked at the entry of the pushforward; else a message naming the
// parameter, and abort (instead of reading past the end of the tangent).
// Callees' pushforwards, whose tangents the plugin makes, are not checked.
// RUN: %gradxx %s -o %t
// RUN: not --crash %t 1 2>&1 | FileCheck %s
// RUN: not --crash %t 2 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: %t 3 | FileCheck %s --check-prefix=OK
#include <cstdio>
#include <cstdlib>
#include <vector>

static double sumsq(const std::vector<double> &v) {
  double s = 0;
  for (double e : v)
    s += e * e;
  return s;
}

[[grad::forward]] double energy(const std::vector<double> &v, double k) {
  return k * sumsq(v);
}

[[grad::forward]] double total(std::vector<std::vector<double>> m) {
  double s = 0;
  for (const auto &r : m)
    for (double e : r)
      s += e * e;
  return s;
}

int main(int argc, char **argv) {
  int Mode = std::atoi(argv[1]);
  std::vector<double> v{1, 2, 3}, tv{1};
  if (Mode == 1)
    energy_pushforward(v, 2.0, tv, 0.0);
  std::vector<std::vector<double>> m{{1, 2}, {3}}, tm{{1, 0}, {0, 1}};
  if (Mode == 2)
    total_pushforward(m, tm);
  tv = {0, 0, 1};
  tm[1].resize(1);
  std::printf("%g %g\n", energy_pushforward(v, 2.0, tv, 0.0).der[0],
              total_pushforward(m, tm).der[0]);
}
// CHECK: grad: {{.*}}tangent-shapes.cpp:21:60: in 'energy': the tangent of 'v' has not the shape of the parameter (pass a tangent of the same sizes: one direction entry per element)
// ROWS: grad: {{.*}}tangent-shapes.cpp:25:65: in 'total': the tangent of 'm' has not the shape
// OK: 12 2
