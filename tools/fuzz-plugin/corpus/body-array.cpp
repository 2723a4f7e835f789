2
double a[3] = {};
a[n % 3] = x * y;
double t = x;
t *= a[1] + std::exp(y);
return n > 0 ? t : std::pow(x, y);
