1
[[grad]] double chain(double x, double y) {
  double r;
  if (x < -1)
    r = x * y;
  else if (x < 0)
    r = x * x - y;
  else if (x < 1) {
    r = std::sin(x) * y;
    r = r * r + x;
  } else
    r = y / x;
  return r;
}

[[grad]] double nested(double x, double y) {
  double r = x;
  if (x > 0) {
    if (y > 0)
      r = r * y;
    else
      r = r - y * y;
    r *= x;
  } else {
    if (y > x)
      r += std::exp(y);
  }
  return r * y;
}

[[grad]] double overwrite_in_branch(double x, double y) {
  double a = x + y;
  if (a > 1) {
    a = a * a;
    a = a * x;
  } else {
    a = y * a;
  }
  return a + x;
}

[[grad]] double cond_then_overwrite(double x, double y) {
  double t = x * y;
  double r = 0;
  if (t > 0.5)
    r = t * x;
  t = y * y;
  if (t < 1)
    r += t * x;
  else
    r -= t;
  return r;
}
