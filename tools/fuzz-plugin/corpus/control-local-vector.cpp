0
#include <cmath>
#include <grad/grad.h>
#include <vector>

[[grad]] double circular(const double *x, int n) {
  std::vector<double> t(n);
  for (int i = 0; i < n; ++i)
    t[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += t[i] * t[(i + 1) % n];
  return s;
}

[[grad]] double diffuse(const double *x, int n, double k) {
  std::vector<double> a(n), b(n);
  for (int i = 0; i < n; ++i)
    a[i] = x[i];
  for (int s = 0; s < 4; ++s) {
    for (int i = 0; i < n; ++i) {
      double l = a[(i + n - 1) % n], r = a[(i + 1) % n];
      b[i] = a[i] + k * (l - 2 * a[i] + r);
    }
    for (int i = 0; i < n; ++i)
      a[i] = std::tanh(b[i]);
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * (i + 1);
  return s;
}
