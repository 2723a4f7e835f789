1
[[grad]] double search(const double *x, int n, double t) {
  for (int i = 0; i < n; ++i) {
    if (x[i] > t)
      return x[i] * t;
  }
  return t;
}

[[grad]] double first_big(double x, double y) {
  double s = x;
  for (int i = 0; i < 20; ++i) {
    s = s * y + 0.25;
    if (s > 2) {
      s = s * x;
      return s + i;
    }
    s = std::sin(s) + s;
  }
  return -s;
}

[[grad]] double nested_search(const double *a, int n, double x) {
  double s = x;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      s = s * 0.9 + a[i * n + j] * x;
      if (s > 1.5)
        return s * a[j];
    }
  return s;
}

[[grad]] double while_return(double x, double y) {
  double s = x;
  int i = 0;
  while (i < 10) {
    s = s * y;
    if (s < 0.1)
      return s + x;
    ++i;
  }
  return s * s;
}
