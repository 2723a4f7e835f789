1
[[grad]] double f(double x) {
  if (x < 0) throw 1;
  return x * x;
}
