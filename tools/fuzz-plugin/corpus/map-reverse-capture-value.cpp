0

#include <cmath>
#include <grad/grad.h>
#include <vector>

using V = std::vector<double>;

[[grad]] double scale(const V &x, double w) {
  return grad::sum(grad::map([w](double z) { return std::exp(w * z); }, x));
}

[[grad]] double scale_default(const V &x, double a) {
  double b = a * 3.0;
  return grad::sum(grad::map([=](double z) { return b * z * z + b; }, x));
}
