1
[[grad]] double two_deep(double x, double y) {
  double s = x;
  for (int i = 0; i < 4; ++i) {
    double t = s * y;
    for (int j = 0; j < 3; ++j)
      t = std::sin(t) + x * j;
    s = s * 0.5 + t;
  }
  return s;
}

[[grad]] double triangular(double x, double y) {
  double s = 0;
  for (int i = 0; i < 6; ++i) {
    double p = 1;
    for (int j = 0; j < i; ++j)
      p = p * x;
    s = s * y + p;
  }
  return s;
}

[[grad]] double three_deep(double x, double y, double z) {
  double a = x;
  for (int i = 0; i < 3; ++i) {
    double b = a * y;
    for (int j = 0; j < 3; ++j) {
      double c = b + z;
      for (int k = 0; k < 2; ++k)
        c = c * std::cos(c) + y;
      b = b * 0.5 + c * z;
    }
    a = std::tanh(a + b);
  }
  return a;
}

[[grad]] double mixed(double x, double y) {
  double s = x;
  int n = 0;
  do {
    for (int i = 0; i < 3; ++i) {
      int k = 0;
      while (k < i + 1) {
        s = s * y + std::sin(s);
        ++k;
      }
      s = s / (1 + s * s);
    }
    ++n;
  } while (n < 2);
  return s;
}
