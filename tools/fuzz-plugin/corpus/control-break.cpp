1
[[grad]] double for_break(double x, double y) {
  double s = y;
  for (int i = 0; i < 100; ++i) {
    s = s * x + 0.5;
    if (s > 3)
      break;
    s = s + y;
  }
  return s;
}

[[grad]] double while_break(double x) {
  double s = x;
  int i = 0;
  while (true) {
    s = s * 1.3 + x * x;
    if (++i >= 7)
      break;
  }
  return s;
}

[[grad]] double do_break(double x, double y) {
  double s = x;
  do {
    s = s * y;
    if (s > 2)
      break;
    s = s + 1;
  } while (s < 50);
  return s;
}

[[grad]] double nested_break(double x, double y) {
  double s = 0;
  for (int i = 0; i < 5; ++i) {
    double t = x * (i + 1);
    for (int j = 0; j < 10; ++j) {
      t = t * y + x;
      if (t > 4)
        break;
    }
    s += t;
  }
  return s;
}
