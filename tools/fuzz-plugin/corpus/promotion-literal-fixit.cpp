1
[[grad]] float leaky(float x) {
  return x > 0 ? x : 0.01 * x;
}

[[grad]] float scaled(float x) {
  float y = x;
  y *= 0.5;
  return y;
}
