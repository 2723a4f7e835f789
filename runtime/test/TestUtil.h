//===- TestUtil.h - Helpers shared by the runtime unit tests ----*- C++ -*-===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef GRAD_RUNTIME_TEST_TESTUTIL_H
#define GRAD_RUNTIME_TEST_TESTUTIL_H

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace grad::test {

/// Expects F() to throw std::invalid_argument whose message contains every
/// one of Needles.
template <class Fn>
void expectInvalid(Fn F, const std::vector<std::string> &Needles) {
  try {
    F();
    ADD_FAILURE() << "no std::invalid_argument thrown";
  } catch (const std::invalid_argument &E) {
    for (const std::string &N : Needles)
      EXPECT_NE(std::string(E.what()).find(N), std::string::npos)
          << "message '" << E.what() << "' lacks '" << N << "'";
  }
}

} // namespace grad::test

#endif // GRAD_RUNTIME_TEST_TESTUTIL_H
