1
double sq(double x) { return x * x; }
void sq_pullback(double x, double d_ret, double *d_x) {
  *d_x += 2 * (2 * x) * d_ret; // 2x the true derivative, on purpose
}

[[grad]] double f(double x) { return sq(x); }
[[grad]] double g(double x, double y) { return sq(x) * y; }
