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

#include "ast/SemaBuilder.h"

#include "clang/AST/Type.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <string>
#include <vector>

namespace grad {

/// Whether destroying an object of \p RD writes nothing the derivative
/// would see (isPlainRecord asks): analysis/Writes.cpp installs its
/// destroysNothing when the plugin loads; unset, trivial destructors only.
extern bool (*DestroysNothingHook)(const clang::CXXRecordDecl *RD);

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
/// True if \p T is trivially copyable, or a plain record copied by trivial
/// copy operations whose destructor writes nothing (`struct Box { double v;
/// ~Box() {} };`): kept by value and taped as bytes.
bool isByteCopyable(const clang::ASTContext &Ctx, clang::QualType T);

/// True if \p T is a class that owns its elements (`struct Mat { int rows,
/// cols; std::vector<double> data; }`): every member with floating data is
/// a number, an array, a std::vector or std::array of numbers or plain
/// structs, a plain record or such a class; other members (sizes, names) are
/// copied as they are. Its shadow is a copy of the object whose floating
/// data is zeroed (zeroFloatingData), so that sizes and member functions
/// that index with them work on it. Otherwise \p Why names what stands in
/// the way.
bool isElementOwner(clang::QualType T, std::string *Why = nullptr);

/// True if \p T is the class template specialization std::Name<...>
/// (`isStdClass(T, "vector")`).
bool isStdClass(clang::QualType T, llvm::StringRef Name);

/// True if \p T is the runtime's `grad::tensor<...>` (not a user's class
/// of that name).
bool isGradTensor(clang::QualType T);

/// The name of the library container \p T is: "vector", "array", "span"
/// for the standard ones, "tensor" for grad::tensor; empty for any other
/// class (a user's class named `vector` is a class like any other).
llvm::StringRef containerName(clang::QualType T);

/// True if \p T is a std::vector or std::array of std::vectors (of numbers,
/// plain structs or such vectors again): `std::vector<std::vector<double>>`.
/// Its shadow is a copy too (the inner sizes are the object's).
bool isNestedContainer(clang::QualType T);

/// isElementOwner or isNestedContainer: a local whose shadow is a copy of
/// it made where it is declared, whose sizes must not change after that.
bool shadowIsCopy(clang::QualType T);


/// `zero(Obj.m)` for every member of element owner \p T with floating
/// data (nested owners member by member): the sizes stay.
void zeroFloatingData(SemaBuilder &B, clang::QualType T,
                      llvm::function_ref<clang::Expr *()> Obj,
                      std::vector<clang::Stmt *> &Out);

/// The first const member of floating type of class \p T (`const double
/// c;`), or null: the adjoint of such a class cannot be written member by
/// member.
const clang::FieldDecl *constFloatingMember(clang::QualType T);

/// True if \p T is a plain record that is not a container (std::array is
/// plain, but its elements are reached by index).
bool isPlainStruct(clang::QualType T);
/// A local type declaration a derivative can declare again as written (an
/// enum, or a class without user-declared member functions or
/// constructors); otherwise null, with \p Why naming what is refused.
bool replayableLocalType(const clang::Decl *D, std::string &Why);

/// The zero of plain record \p T: `{}` when value-initialisation zeroes
/// it (a trivial default constructor), else `::grad::detail::zeroed<T>()`.
clang::Expr *recordZero(SemaBuilder &B, clang::QualType T);

/// The element type of an array, std::array or std::vector, or null.
clang::QualType elementTypeOf(const clang::ASTContext &Ctx, clang::QualType T);

/// `Vec.assign(Size, zero)`: the adjoint of a std::vector sized and zeroed
/// (elements of class type zeroed member by member).
clang::Expr *zeroFill(SemaBuilder &B, clang::Expr *Vec, clang::Expr *Size,
                      clang::QualType VecT);

/// `Dst.m += Src.m` for every floating member of plain struct \p T, nested
/// members and arrays included. \p Dst and \p Src are built anew for each
/// member.
void accumulateRecord(SemaBuilder &B, clang::QualType T,
                      llvm::function_ref<clang::Expr *()> Dst,
                      llvm::function_ref<clang::Expr *()> Src,
                      std::vector<clang::Stmt *> &Out);

/// `Dst.m += Src.m` for every member with floating data of element owner
/// \p T (isElementOwner): numbers, arrays, containers, plain records, and
/// nested owners member by member.
void accumulateOwner(SemaBuilder &B, clang::QualType T,
                     llvm::function_ref<clang::Expr *()> Dst,
                     llvm::function_ref<clang::Expr *()> Src,
                     std::vector<clang::Stmt *> &Out);

/// The elements of a std::pair or std::tuple built from them
/// (`std::pair<double, double>{x, y}`, `p(x, y)`, `std::make_pair(x, y)`,
/// `std::tuple<double, int>{x, 2}`, `std::make_tuple(x, y, z)`), or empty.
llvm::SmallVector<const clang::Expr *, 4> tupleElements(const clang::Expr *E);

/// The braces of a std::initializer_list argument (`v.assign({x, y})`,
/// `v.insert(pos, {x, y})`), or null.
const clang::InitListExpr *bracedElements(const clang::Expr *E);
/// The braces of `std::vector<double>{a, b}` (also `return {a, b};` from a
/// function returning a vector), or null.
const clang::InitListExpr *bracedVector(const clang::Expr *E);

/// True for std::tuple (whose elements are reached with std::get).
bool isTuple(clang::QualType T);

/// A construction through a user-written constructor that only copies its
/// parameters into members (`Vec3(double x, double y, double z) : x(x),
/// y(y), z(z) {}`, an empty body): the members it sets and the arguments
/// they come from. Members initialised by constants are left out. False for
/// anything else (a body, a member computed from parameters, a base).
bool memberwiseInit(
    const clang::Expr *E,
    llvm::SmallVectorImpl<std::pair<const clang::FieldDecl *,
                                    const clang::Expr *>> &Out);

/// The value a member initializer gives (`x(a)`, `x{a}`, `x(std::move(a))`:
/// `a`), without implicit nodes.
const clang::Expr *memberInitValue(const clang::CXXCtorInitializer *I);
/// True if \p E names a parameter or `this` (a member initializer that is
/// not a constant).
bool readsParamOrThis(const clang::Expr *E);

/// A memberwiseInit construction whose floating members all come from
/// parameters and whose other members come from constants or parameters
/// without floating data: applied to the arguments' tangents (sizes and
/// flags as they are), it builds the tangent object (forward mode).
bool linearConstruction(const clang::CXXConstructExpr *CE);

/// A construction through a user-written constructor that does more than
/// copy its parameters into members (a body, members computed from the
/// parameters) of a plain struct with floating data, or null. Its
/// derivative is the constructor's pullback (Constructors.cpp).
const clang::CXXConstructExpr *userConstruction(const clang::Expr *E);

/// `Gauss{b, a}.inv`, `make(x).v`, `Poly(a, b).c[2]`: members and
/// elements (at constant indices) of a temporary plain struct: the
/// temporary, or null.
const clang::Expr *temporaryRoot(const clang::ASTContext &Ctx,
                                const clang::Expr *E);

/// \p E, a path of members and constant subscripts from temporaryRoot(E),
/// rebuilt on \p Root.
clang::Expr *onTemporaryPath(SemaBuilder &B, const clang::Expr *E,
                             clang::Expr *Root);

} // namespace grad

#endif
