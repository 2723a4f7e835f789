//===- Records.h - Class-type values and their shadows ----------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A local object of class type (`Vec3 v{x, y, z}`, `std::pair`, a struct
/// of parameters) has a shadow object of the same type whose floating
/// members hold the adjoints of the object's members. The shadow is zeroed
/// member by member (never by a default constructor, which may not exist or
/// may not zero), and adjoints of whole objects are accumulated member by
/// member.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_RECORDS_H
#define CLANG_GRAD_RECORDS_H

#include "SemaBuilder.h"

#include "clang/AST/Type.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <string>
#include <vector>

namespace grad {

/// `std::complex<T>` with a floating T: a value whose shadow is a complex
/// adjoint (d/dre + i d/dim), accumulated with `+=`.
bool isComplex(clang::QualType T);
/// T of `std::complex<T>`, or null.
clang::QualType complexValueType(clang::QualType T);

/// True if \p T is a class whose shadow is an object of the same type:
/// trivially copyable (so it is zeroed bytewise and can be taped), without
/// virtual bases, unions or members of pointer or reference type. Otherwise
/// \p Why (if given) names what stands in the way.
bool isPlainRecord(clang::QualType T, std::string *Why = nullptr);

/// True if \p T is a plain record that is not a container (std::array is
/// plain, but its elements are reached by index).
bool isPlainStruct(clang::QualType T);

/// The zero of plain record \p T: `{}` when value-initialisation zeroes
/// it (a trivial default constructor), else `::grad::detail::zeroed<T>()`.
clang::Expr *recordZero(SemaBuilder &B, clang::QualType T);

/// `Dst.m += Src.m` for every floating member of plain struct \p T, nested
/// members and arrays included. \p Dst and \p Src are built anew for each
/// member.
void accumulateRecord(SemaBuilder &B, clang::QualType T,
                      llvm::function_ref<clang::Expr *()> Dst,
                      llvm::function_ref<clang::Expr *()> Src,
                      std::vector<clang::Stmt *> &Out);

/// The two members of a std::pair built from them
/// (`std::pair<double, double>{x, y}`, `p(x, y)`, `std::make_pair(x, y)`),
/// or empty.
llvm::SmallVector<const clang::Expr *, 2> pairElements(const clang::Expr *E);

/// A construction through a user-written constructor that only copies its
/// parameters into members (`Vec3(double x, double y, double z) : x(x),
/// y(y), z(z) {}`, an empty body): the members it sets and the arguments
/// they come from. Members initialised by constants are left out. False for
/// anything else (a body, a member computed from parameters, a base).
bool memberwiseInit(
    const clang::Expr *E,
    llvm::SmallVectorImpl<std::pair<const clang::FieldDecl *,
                                    const clang::Expr *>> &Out);

} // namespace grad

#endif
