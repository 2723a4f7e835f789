1
double sq(double x) { return x * x; }

[[grad]] double caller(double x) { return sq(x) + sq(2 * x) + sq(x * x); }
