1
[[grad]] double power(double x, int n) {
  double p = 1;
  for (int i = 0; i < n; ++i)
    p = p * x;
  return p;
}

[[grad]] double indexed(double x, double y) {
  double s = 0;
  for (int i = 5; i > 0; --i)
    s = s * y + i * x;
  for (int k = 0; k < 10; k += 3)
    s += std::sin(k * x + s);
  return s;
}

[[grad]] double coupled(double x, double y) {
  double a = x, b = y;
  for (int i = 0; i < 6; ++i) {
    double t = a;
    a = 0.5 * a + 0.3 * b * b;
    b = std::cos(t) - 0.2 * b;
  }
  return a * b;
}

[[grad]] double double_counter(double x) {
  double s = x;
  for (double c = 0; c < 1; c += 0.25)
    s = s * (1 + c) + x;
  return s;
}

double power_n(double x) { return power(x, 7); }
void power_n_pb(double x, double s, double *d) { power_pullback(x, 7, s, d); }
double power_0(double x) { return power(x, 0); }
void power_0_pb(double x, double s, double *d) { power_pullback(x, 0, s, d); }
