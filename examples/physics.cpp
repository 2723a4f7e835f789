// A small physics system written with a Vec3 class (operators, a dot
// product, a norm): the potential energy of particles joined by springs,
// with gravity. The forces are minus the gradient of the energy, from one
// pullback call; they are checked against central finite differences, then
// used for a few steps of a velocity Verlet integrator whose energy drift
// stays small.
//
//   clang++-19 -std=c++20 -O2 -fplugin=build/lib/ClangGrad.so \
//       -Iruntime/include examples/physics.cpp -o physics && ./physics
#include <cmath>
#include <cstdio>
#include <vector>

struct Vec3 {
  double x, y, z;
  Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec3 operator-(const Vec3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
  Vec3 operator*(double s) const { return {x * s, y * s, z * s}; }
  double dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  double norm() const { return std::sqrt(dot(*this)); }
};

struct Spring {
  int a, b;
  double k, rest;
};

// Potential energy: springs k/2 (|p_a - p_b| - rest)^2, and gravity m g z.
// The plugin declares
//   void energy_pullback(const std::vector<Vec3> &pos,
//                        const std::vector<Spring> &springs, double g,
//                        double d_ret, std::vector<Vec3> *d_pos);
[[grad("pos")]] double energy(const std::vector<Vec3> &pos,
                              const std::vector<Spring> &springs, double g) {
  double e = 0;
  for (const Spring &s : springs) {
    double stretch = (pos[s.a] - pos[s.b]).norm() - s.rest;
    e += 0.5 * s.k * stretch * stretch;
  }
  for (const Vec3 &p : pos)
    e += g * p.z;
  return e;
}

static std::vector<Vec3> forces(const std::vector<Vec3> &pos,
                                const std::vector<Spring> &springs,
                                double g) {
  std::vector<Vec3> d(pos.size(), Vec3{0, 0, 0});
  energy_pullback(pos, springs, g, 1.0, &d);
  for (Vec3 &f : d)
    f = f * -1.0;
  return d;
}

int main() {
  std::vector<Vec3> pos = {{0, 0, 1}, {1.1, 0, 1}, {0, 0.9, 1.2}, {1, 1, 0.8}};
  std::vector<Spring> springs = {{0, 1, 10, 1},   {1, 2, 10, 1.4},
                                 {2, 0, 10, 1},   {1, 3, 8, 1},
                                 {2, 3, 8, 1},    {0, 3, 5, 1.4}};
  const double g = 9.81;
  int failures = 0;

  std::vector<Vec3> f = forces(pos, springs, g);
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 3; ++c) {
      double *q = c == 0 ? &pos[i].x : c == 1 ? &pos[i].y : &pos[i].z;
      double h = 1e-6, keep = *q;
      *q = keep + h;
      double up = energy(pos, springs, g);
      *q = keep - h;
      double down = energy(pos, springs, g);
      *q = keep;
      double fd = -(up - down) / (2 * h);
      double got = c == 0 ? f[i].x : c == 1 ? f[i].y : f[i].z;
      bool ok = std::fabs(got - fd) <= 1e-6 * (1 + std::fabs(fd));
      failures += !ok;
      std::printf("force[%d].%c = %12.8f (finite differences: %12.8f)%s\n", i,
                  "xyz"[c], got, fd, ok ? "" : "  MISMATCH");
    }

  // Velocity Verlet with unit masses: total energy is nearly conserved.
  std::vector<Vec3> vel(pos.size(), Vec3{0, 0, 0});
  auto total = [&] {
    double kin = 0;
    for (const Vec3 &v : vel)
      kin += 0.5 * v.dot(v);
    return kin + energy(pos, springs, g);
  };
  double e0 = total(), dt = 1e-3;
  for (int step = 0; step < 2000; ++step) {
    for (std::size_t i = 0; i < pos.size(); ++i) {
      vel[i] = vel[i] + f[i] * (0.5 * dt);
      pos[i] = pos[i] + vel[i] * dt;
    }
    f = forces(pos, springs, g);
    for (std::size_t i = 0; i < pos.size(); ++i)
      vel[i] = vel[i] + f[i] * (0.5 * dt);
  }
  double e1 = total();
  std::printf("total energy: %.8f at t = 0, %.8f at t = 2 (drift %.2e)\n", e0,
              e1, std::fabs(e1 - e0));
  if (std::fabs(e1 - e0) > 1e-3 * std::fabs(e0)) {
    std::printf("MISMATCH: the energy drifted\n");
    ++failures;
  }
  return failures != 0;
}
