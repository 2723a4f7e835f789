1
[[grad]] double f(double x) {
  goto done;
done:
  return x * x;
}
