1
[[grad]] double add_mul(double x, double y) { return x * y + x - y / 2.0; }

[[grad]] double overwrite(double x, double y) {
  double z = x * y;
  z = z * z + x; // the old z is read by the reverse sweep
  z = -z / y;
  return z;
}

[[grad]] double compound(double x, double y) {
  double a = x;
  a += y * x;
  a -= 3 * y;
  a *= x;
  a /= y;
  return a;
}

[[grad]] double nested_blocks(double x, double y) {
  double s = 0;
  {
    double t = x * x;
    s += t;
  }
  {
    double t = y * x;
    s += t * t;
  }
  return s;
}

[[grad]] double unary(double x, double y) { return -x * +y - -(x / y); }

[[grad]] double constants(double x, double y) { return 4 * x + 2.5 + 0 * y; }
