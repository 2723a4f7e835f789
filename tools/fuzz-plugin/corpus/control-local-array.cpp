1
[[grad]] double prefix(const double *x, int n) {
  double t[16];
  for (int i = 0; i < n; ++i)
    t[i] = x[i] * x[i];
  for (int i = 1; i < n; ++i)
    t[i] = t[i] + t[i - 1];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::sin(t[i]) * x[n - 1 - i];
  return s;
}

[[grad]] double smooth(double a, double b) {
  double t[8];
  for (int i = 0; i < 8; ++i)
    t[i] = a * i + b;
  for (int k = 0; k < 3; ++k)
    for (int i = 1; i < 7; ++i)
      t[i] = 0.25 * t[i - 1] + 0.5 * t[i] * t[i] + 0.25 * t[i + 1];
  return t[3] * t[4];
}

[[grad]] double straight(double a, double b) {
  double t[4];
  t[0] = a;
  t[1] = a * b;
  t[2] = t[1] * t[0];
  t[3] = t[2] - t[1];
  t[1] = t[3] * t[3];
  return t[1] + t[2];
}
