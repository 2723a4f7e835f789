// A class with a [[grad]] member function, declared in a header.
#ifndef GRAD_IDE_CONSUMER_SPRING_H
#define GRAD_IDE_CONSUMER_SPRING_H

#include <grad/ide.h>

namespace phys {

struct Particle {
  double x, v;
};

struct Spring {
  double k, rest;
  [[grad]] double energy(const Particle &p) const;
  // Declares energy_pullback for editors; nothing when compiling.
  GRAD_IDE_MEMBERS(Spring)
};

[[grad]] double kinetic(const Particle &p, double m);

} // namespace phys

#endif
