1
[[grad]] double counted(double x, double y) {
  int i = 0;
  double s = y;
  while (i < 8) {
    s = s * x + y;
    ++i;
  }
  return s;
}

[[grad]] double halve(double x, double y) {
  double v = x * x + 1;
  double r = y;
  while (v > 0.1) {
    v = v * 0.5;
    r = r * std::cos(v) + v;
  }
  return r + v;
}

[[grad]] double zero_trip(double x) {
  double s = x;
  while (s > 100)
    s = s - x * x;
  return s * s;
}
