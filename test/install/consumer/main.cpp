// Uses an installed clang-grad through find_package(ClangGrad).
#include <grad/grad.h>

#include <cmath>
#include <cstdio>

[[grad]] double f(double x, double y) { return x * x * y + 3.0 * y; }

static bool close(double got, double want) {
  return std::fabs(got - want) <= 1e-12 * std::fabs(want);
}

int main() {
  const double points[][2] = {{1.5, -2.25}, {-0.7, 3.1}, {2.0, 0.5}};
  int failures = 0;
  for (const auto &p : points) {
    const double x = p[0], y = p[1];
    double dx = 0.0, dy = 0.0;
    f_pullback(x, y, 1.0, &dx, &dy);
    const double want_dx = 2.0 * x * y, want_dy = x * x + 3.0;
    if (!close(dx, want_dx) || !close(dy, want_dy)) {
      std::printf("FAIL f(%g, %g): dx = %.17g (want %.17g), dy = %.17g "
                  "(want %.17g)\n",
                  x, y, dx, want_dx, dy, want_dy);
      ++failures;
    }
  }
  if (failures != 0)
    return 1;
  std::printf("ok\n");
  return 0;
}
