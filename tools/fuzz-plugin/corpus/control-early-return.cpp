1
[[grad]] double clamp_like(double x, double y) {
  if (x > 2)
    return 2 * y;
  if (x < -2)
    return -2 * y + x;
  double t = x * y;
  if (t > 1) {
    t = t * t;
    return t + x;
  }
  t = std::sin(t);
  return t * x;
}

[[grad]] double nested_return(double x, double y) {
  double a = x * y;
  a = a + x;
  if (a > 0) {
    double b = a * a;
    if (y > 0) {
      b = b * y;
      return b - a;
    }
    a = b;
  }
  a = a * y;
  return a;
}

[[grad]] double both_branches(double x, double y) {
  if (x * y > 0.5)
    return std::exp(x) * y;
  else
    return std::log(1 + y * y) * x;
}
