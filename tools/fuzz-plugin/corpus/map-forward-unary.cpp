0

#include <cmath>
#include <grad/grad.h>
#include <vector>

using V = std::vector<double>;

[[grad]] double map_fabs(const V &x) {
  return grad::sum(grad::map([](double z) { return std::fabs(z); }, x));
}

[[grad]] double map_cbrt(const V &x) {
  return grad::sum(grad::map([](double z) { return std::cbrt(z); }, x));
}

[[grad]] double map_tanh(const V &x) {
  return grad::sum(grad::map([](double z) { return std::tanh(z); }, x));
}

[[grad]] double map_composite(const V &x) {
  return grad::sum(grad::map(
      [](double z) {
        double t = std::tanh(z);
        return 1.0 * t;
      },
      x));
}

[[grad]] double map_exp(const V &x) {
  return grad::sum(grad::map([](double z) { return std::exp(z); }, x));
}
