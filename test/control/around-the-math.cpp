// Ordinary code around the math is replayed as written, never refused:
// printf and iostream logging, assert, std::string, integer bookkeeping, a
// loop that only counts, a constant static table and an early throw on bad
// input (the pullback throws too, and leaves the thread's stack as it was).
// RUN: %gradxx %s -o %t && %t 2>%t.err | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: FileCheck %s --check-prefix=LOG --input-file=%t.err
#include "gradcheck.h"
#include <cassert>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>

[[grad]] double energy(double x, double y, int n) {
  if (n < 0)
    throw std::invalid_argument("n must be >= 0");
  assert(n < 100 && "n too large");
  static const double Weights[3] = {0.5, 1.5, 2.5};
  std::fprintf(stderr, "energy(%g, %g, %d)\n", x, y, n);
  std::string label = "run " + std::to_string(n);
  int even = 0;
  for (int i = 0; i < n; ++i)
    if (i % 2 == 0)
      ++even;
  double s = x * y;
  for (int i = 0; i < n; ++i) {
    s = std::sin(s) * Weights[i % 3] + x;
    if (i == 0)
      std::cerr << label << ": s = " << s << "\n";
  }
  return s * even;
}

int main() {
  // LOG: energy(0.5, 1.5, 4)
  // LOG: run 4: s =
  // CHECK: ok energy.d0
  // CHECK: ok energy.d1
  gradcheck::check_grad("energy", [](double x, double y) { return energy(x, y, 4); },
                        [](double x, double y, double s, double *dx, double *dy) {
                          energy_pullback(x, y, 4, s, dx, dy);
                        },
                        0.5, 1.5);
  double DX = 0, DY = 0;
  bool Threw = false;
  try {
    energy_pullback(0.5, 1.5, -1, 1.0, &DX, &DY);
  } catch (const std::invalid_argument &E) {
    Threw = std::string(E.what()) == "n must be >= 0";
  }
  // CHECK: ok throws
  gradcheck::expect("throws", Threw, 1);
  // CHECK: ok stack
  gradcheck::expect("stack", double(grad::detail::thread_stack().size()), 0);
  return gradcheck::failures();
}
