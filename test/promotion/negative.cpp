// No warning for code that stays in one precision, explicit casts, integer
// literals, or double code.
// RUN: %gradxx -fsyntax-only %s 2>&1 | count 0
#include <cmath>

[[grad]] float same(float x) { return 0.01f * x + 2 * x - x / 3; }
[[grad]] float cast(float x) { return (float)(0.5 * (double)x); }
[[grad]] float casts2(float x) {
  return static_cast<float>(static_cast<double>(x) * 0.25);
}
[[grad]] double dbl(double x) { return 0.01 * x; }
[[grad]] float mathf(float x) { return std::tanh(x) * std::exp(x); }
// Outside [[grad]] functions the plugin says nothing.
float plain(float x) { return 0.01 * x; }
