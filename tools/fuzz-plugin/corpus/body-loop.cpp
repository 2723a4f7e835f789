2
double s = 0;
for (int i = 0; i < n; ++i) {
  if (s > y) break;
  s = s * x + std::sin(y);
}
return s;
