// Always on (verify or not): the adjoint a caller passes for a container
// parameter the function cannot resize has the container's shape, checked
// at the entry of the pullback; else a message naming the parameter, and
// abort (instead of writing past the end of the adjoint).
// RUN: %gradxx %s -o %t
// RUN: not --crash %t 1 2>&1 | FileCheck %s
// RUN: not --crash %t 2 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: %t 3 | FileCheck %s --check-prefix=OK
#include <cstdio>
#include <cstdlib>
#include <vector>

[[grad]] double energy(const std::vector<double> &v, double k) {
  double s = 0;
  for (double e : v)
    s += k * e * e;
  return s;
}

[[grad]] double total(std::vector<std::vector<double>> m) {
  double s = 0;
  for (const auto &r : m)
    for (double e : r)
      s += e * e;
  return s;
}

int main(int argc, char **argv) {
  int Mode = std::atoi(argv[1]);
  std::vector<double> v{1, 2, 3}, dv;
  double dk = 0;
  if (Mode == 1)
    energy_pullback(v, 2.0, 1.0, &dv, &dk);
  std::vector<std::vector<double>> m{{1, 2}, {3}}, dm{{0, 0}, {0, 0}};
  if (Mode == 2)
    total_pullback(m, 1.0, &dm);
  dv.assign(3, 0.0);
  energy_pullback(v, 2.0, 1.0, &dv, &dk);
  dm[1].resize(1);
  total_pullback(m, 1.0, &dm);
  std::printf("%g %g %g %g %g %g %g\n", dv[0], dv[1], dv[2], dk, dm[0][0],
              dm[0][1], dm[1][0]);
}
// CHECK: grad: {{.*}}shapes.cpp:13:51: in 'energy': the adjoint of 'v' has not the shape of the parameter (pass an adjoint of the same sizes, e.g. a zeroed copy of the argument)
// ROWS: grad: {{.*}}shapes.cpp:20:56: in 'total': the adjoint of 'm' has not the shape
// OK: 4 8 12 14 2 4 6
