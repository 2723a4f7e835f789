1
[[grad]] double power(double x, int n) {
  return n == 0 ? x : x * power(x, n - 1);
}

[[grad]] double fact(double x, int n) {
  double r = 1.0;
  if (n > 0)
    r = x * fact(x, n - 1);
  return r;
}

[[grad("x")]] double wr(double x, double y, int n) {
  return n == 0 ? x * y : wr(x * y, y, n - 1);
}

double odd(double x, int n);
double even(double x, int n) { return n <= 0 ? x : std::sin(odd(x, n - 1)); }
double odd(double x, int n) { return x * even(x, n - 1); }
[[grad]] double mutual(double x, int n) { return even(x, n); }
