//===- Paths.h - Access paths and pointer expressions -----------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The grammar of memory the plugin models. An *access path* reaches memory
/// from a variable or `this` by steps: `a[i]`, `p[i]`, `v[i]`, `t(i, j)`,
/// `std::get<I>(t)`, `s.m`, `p->m`, `*p`. A step's base is an lvalue or a
/// *pointer expression*: a pointer variable, `p + k`, `k + p`, `p - k`,
/// `&L`, `v.data()` or an array (decayed). Every analysis and builder walks
/// the same grammar, so what one accepts the others understand.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_PATHS_H
#define CLANG_GRAD_PATHS_H

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>

namespace clang {
class CXXNewExpr;
} // namespace clang

namespace grad {

class SemaBuilder;

/// `std::get<I>(t)` on an lvalue tuple, pair or array, or null.
const clang::CallExpr *stdGet(const clang::Expr *E);

/// What a structured binding names: the member or element of the hidden
/// object (`e.first`, `e[1]`), or for a tuple-like object the initializer
/// of its holding variable (`std::get<0>(e)`); null if unknown.
const clang::Expr *bindingPart(const clang::BindingDecl *BD);


/// True if a value of type \p T (by value) holds a pointer through which
/// floating data can be written: an iterator (`std::vector<double>::
/// iterator`), a `std::span<double>`, a struct with a `double*` member.
bool holdsWritablePointer(clang::QualType T, unsigned Depth = 0);

/// True if the pointer value \p E is loaded from memory (`*pa` of a `double
/// **pa`, `pp[i]`, `s.p`, `p->q`): it points wherever that pointer does, not
/// into the storage the load reads.
bool loadsPointer(const clang::Expr *E);

/// The pointer lvalue \p E loads (`*pp` of `*pp + 2` or `&(*pp)[2]`), or
/// null when loadsPointer(E) is false.
const clang::Expr *loadedPointer(const clang::Expr *E);

/// The value (or the pointer to the memory) whose bytes the call \p CE
/// copies into storage of a type without floating data, \p To
/// (`std::bit_cast<std::uint64_t>(x)`, `std::memcpy(&u, &x, 8)`): the
/// derivative cannot follow the bits; null for other calls.
const clang::Expr *bitCopySource(const clang::CallExpr *CE,
                                 clang::QualType &To);
/// The refusal of such a call, naming the value and the call as written.
std::string bitCopyMessage(const clang::ASTContext &Ctx,
                           const clang::CallExpr *CE);

/// True if the member function \p MD may write its object: a non-const
/// one, or a const one of a class with `mutable` members (a cache `double
/// eval(double x) const { last = a * x; ... }`) unless its body only reads
/// them (`double prev() const { return last; }`). Static functions do not.
bool writesObject(const clang::CXXMethodDecl *MD);

/// True if a callee given an argument through a parameter of type \p T may
/// write memory of its caller with it: a non-const reference or pointer, or
/// (however it is passed, const reference included) an object holding a
/// writable pointer (an iterator, a span, `struct View { double *p; }`).
/// The one rule every analysis of call writes uses.
bool writableParam(clang::QualType T);

/// True if a class \p T without floating data of its own holds a pointer
/// or reference to floating data, const or not (`struct View { const double
/// *p; int n; }`).
bool holdsFloatingPointer(clang::QualType T);

/// True if a local of type \p T keeps pointers to floating data where the
/// plugin does not track them: an array or standard container of such
/// pointers (`double *rows[2]`, `std::vector<double *>`), or a class as in
/// holdsFloatingPointer.
bool storesFloatingPointers(clang::QualType T);

/// True if \p T is an iterator class over floating data (a std::vector's
/// iterator, a reverse_iterator over one), and the error text for a local
/// \p VD of such a type.
bool isFloatingIterator(clang::QualType T);
std::string iteratorLocalWhy(const clang::VarDecl *VD);

/// For a call to a helper whose whole body returns a pointer or reference
/// into one of its pointer or reference parameters (`double* row(double* A,
/// int n, int i) { return A + i * n; }`, `double& at(std::vector<double>& v,
/// int i) { return v[i]; }`): the argument for that parameter, or null.
const clang::Expr *accessorArg(const clang::Expr *E);

/// For a call to a helper that computes the pointer or reference it
/// returns, and every return of which points into the storage of the same
/// pointer or reference parameter (`double* argmax(double* a, int n)`
/// walking a local pointer over `a`, `std::max_element(a, a + n)`,
/// `std::copy`'s result): the argument for that parameter, or null.
/// Accessors are not included (accessorArg).
const clang::Expr *pointedArg(const clang::Expr *E);
/// Strips the nodes Sema re-creates when an expression is rebuilt
/// (implicit casts, parentheses, default arguments, substituted template
/// arguments): the key of recorded values.
const clang::Expr *stripExpr(const clang::Expr *E);
/// The form stripExpr gives the expression \p E in place of itself
/// (`*std::max_element(v.begin(), v.end())` -> the same call over
/// pointers, dereferenced), or null.
const clang::Expr *derefFormOf(const clang::Expr *E);
/// Makes \p Forms (Facts::DerefForms of the translation unit being
/// differentiated) the forms derefFormOf finds; clearDerefForms forgets
/// them again if they are the current ones.
void setDerefForms(
    const llvm::DenseMap<const clang::Expr *, const clang::Expr *> *Forms);
void clearDerefForms(
    const llvm::DenseMap<const clang::Expr *, const clang::Expr *> *Forms);

/// For such a call returning a pointer, when the argument is a pointer to
/// the same element type (`argmax(a, n)`, `std::max_element(x, x + n)`):
/// that argument, whose storage the call's result is an offset into.
const clang::Expr *resultArg(const clang::Expr *E);
/// For a call returning a reference into a pointer argument of the same
/// element type (an accessor `double &elem(double *A, int n, int i, int
/// j)`, `double &largest(double *a, int n)`): that argument. Such a call is
/// an element access, the dereference of its result's address.
const clang::Expr *refResultArg(const clang::Expr *E);
/// The index of that parameter of \p FD, or -1.
int pointedParam(const clang::FunctionDecl *FD);
/// For `m(i, j)`, `m[i]`, `m.at(i, j)` or `m.row(i)` through a member
/// function of a user class of floating members whose every return is a
/// reference to one of them found from the object's other members (`return
/// data[i * cols + j];`), or a pointer into them (`return data + i *
/// cols;`): the object. Such a call is an element access (or a pointer) at
/// the offset the forward sweep finds in the object: its shadow's other
/// members are zero, so the call itself cannot be made on the shadow. Null
/// for anything else (a reference found from the arguments alone, `a[k]`,
/// is the same call on the shadow).
const clang::Expr *objectArg(const clang::Expr *E);
/// True if the argument \p A a call's result points into (refResultArg,
/// resultArg) is an object of a user class of floating members (objectArg,
/// or a helper `double &at(Mat &m, int i, int j)`), not a pointer or a
/// container: its elements are elementsOf(A).
bool intoObject(const clang::Expr *A);
/// True if every return of the member function \p MD (with a body) is a
/// reference or pointer into its own object.
bool returnsIntoObject(const clang::CXXMethodDecl *MD);

/// True if a call of \p FD writes nothing through its pointer or reference
/// parameters (nor its object): its whole body is `return e;` with `e` free
/// of side effects (`bool operator()(It a, It b) const { return *a < *b;
/// }`), or it only writes its own local variables and calls functions that
/// write nothing of what they are given (a search loop `double *argmax(double
/// *a, int n)`, `std::max_element` over `double *`) (Writes.cpp).
bool writesNothing(const clang::FunctionDecl *FD);
/// True if the destructor of \p RD is trivial, or non-virtual with a body
/// that writes nothing but its own local variables (`~Box() {}`, `~Log() {
/// std::puts("done"); }`): destroying a copy the derivative makes changes
/// nothing it differentiates (Writes.cpp).
bool destroysNothing(const clang::CXXRecordDecl *RD);
/// The virtual method \p CE calls when the override that runs is not known
/// at compile time (not qualified, not final), or null (Writes.cpp).
const clang::CXXMethodDecl *virtualDispatch(const clang::CallExpr *CE);
/// The error text for a call of the virtual method \p MD.
std::string virtualCallName(const clang::CXXMethodDecl *MD);

/// True if the pointer \p E is computed from the pointer variable \p VD
/// itself (`p + 1`, `next(p)`, `row(p, n, i)`): assigned to \p VD, it keeps
/// pointing into the storage it pointed into.
bool basedOn(const clang::Expr *E, const clang::VarDecl *VD);
/// The pointer parameter to floating data that \p BO (`b = a;`) makes point
/// into other memory, or null: not `b = b + 1` (basedOn), not `b = nullptr`,
/// not an assignment to anything else.
const clang::ParmVarDecl *reseatedParam(const clang::BinaryOperator *BO);
/// True if the function owning \p P, a parameter taking a pointer by
/// non-const reference (`double *&p`), can only move the pointer within the
/// memory it points into (`++p`, `p += n`, `p = p + 1`, or passing it on to
/// a function that does the same): then a caller's pointer passed to it
/// keeps pointing into its storage. False for `p = q`, std::swap, and a
/// body not visible.
bool keepsWithin(const clang::ParmVarDecl *P, unsigned Depth = 0);
/// The same for the pointer variable \p V written in \p Body (a lambda's
/// body writing a pointer it captures by reference).
bool keepsWithin(const clang::Stmt *Body, const clang::VarDecl *V);
/// True if the function owning \p P (a pointer taken by non-const
/// reference) may write the pointer at all (`++p`, `p = q`), or its body is
/// not visible.
bool writesPointerParam(const clang::ParmVarDecl *P, unsigned Depth = 0);

/// The argument of std::move(x) or std::forward<T>(x), or null.
const clang::Expr *movedArg(const clang::Expr *E);

/// The object a copy or move construction copies (`v` of a by-value
/// argument `f(v)`, of `return v;`, of `f(std::move(v))`), stripped, if it
/// has the type constructed; else \p E stripped. (stripExpr strips copies
/// of plain structs only.)
const clang::Expr *copiedObject(const clang::Expr *E);

/// v.back(), v.front(), v.at(i) on a standard container of floating
/// elements (an lvalue element), or a user accessor `m.at(i, j)` of a class
/// keeping its elements in a container member (isElementOwner) returning a
/// reference into its object; else null.
const clang::CXXMemberCallExpr *elementMember(const clang::Expr *E);

/// The base of one access step (the `a` of `a[i]`, the `p` of `*p` or
/// `p->m`, the `t` of `std::get<I>(t)`, the `v` of `v.back()`), or null if
/// \p E is no step.
const clang::Expr *pathBase(const clang::Expr *E);

/// The index of a subscript step (`i` of `a[i]`), or null.
const clang::Expr *pathIndex(const clang::Expr *E);

/// For a pointer expression computed from another one or from an lvalue:
/// `p` of `p + k`, `k + p`, `p - k`, `++p`, `p++`; `L` of `&L`; `v` of
/// `v.data()`. Null otherwise (a variable, a call, ...).
const clang::Expr *pointerBase(const clang::Expr *P);
/// The integer offset of `p + k` / `k + p` / `p - k` (then \p Negate for
/// `-`), or null.
const clang::Expr *pointerOffset(const clang::Expr *P, bool &Negate);

/// The variable a path or pointer expression starts from (x in x, x[i],
/// x.m[j], *(x + k), &x.m), or null with \p IsThis set when it starts at
/// `this`; null otherwise. With \p Strict, \p E itself must be a step
/// (a plain variable reference is not a path then).
const clang::VarDecl *pathRoot(const clang::Expr *E, bool &IsThis,
                               bool Strict = false);

/// The variable \p E names (under parentheses and implicit casts), or null
/// (also for a null \p E).
const clang::VarDecl *refVar(const clang::Expr *E);
/// The variable whose elements or members \p E accesses (pathRoot, Strict).
inline const clang::VarDecl *elementVar(const clang::Expr *E) {
  bool IsThis;
  return pathRoot(E, IsThis, /*Strict=*/true);
}
/// \p E accesses a member (or its elements) of `this`.
inline bool isThisPath(const clang::Expr *E) {
  bool IsThis;
  pathRoot(E, IsThis, /*Strict=*/true);
  return IsThis;
}

/// A heap allocation a pointer is initialised with: `new T[n]`, `new T`,
/// `malloc(bytes)`, `calloc(n, size)` (under any cast).
struct Allocation {
  enum Kind { None, NewArray, NewObject, Malloc, Calloc } K = None;
  const clang::Expr *Size = nullptr;  ///< elements (new[]) or bytes (malloc)
  const clang::Expr *Size2 = nullptr; ///< calloc's element size
  const clang::Expr *Init = nullptr;  ///< new T(init)
};
/// The initializer of `new T(...)` (one object) whose value the new object
/// starts with (`x` of `new double(x)` and of `new double{x}`, the braces
/// of `new T{a, b}`), or null.
const clang::Expr *newObjectInit(const clang::CXXNewExpr *NE);

Allocation allocation(const clang::Expr *E);

/// The byte count of allocation \p A of \p Elem values (the size of its
/// shadow or tangent memory), with \p Val rebuilding its size operands.
clang::Expr *allocationBytes(
    SemaBuilder &B, const Allocation &A, clang::QualType Elem,
    llvm::function_ref<clang::Expr *(const clang::Expr *)> Val);

/// True if \p VD is a pointer or reference to floating data (it may alias
/// differentiated storage).
bool mayAlias(const clang::VarDecl *VD);

/// True if \p E may read memory that a write through \p Via (a pointer or
/// reference variable) changes (Sequencing.cpp).
bool readsAliasable(const clang::Expr *E, const clang::VarDecl *Via);

/// A non-const member function of a standard container that only gives
/// access to elements (data, begin, end, front, back, at, operator[]): it
/// writes nothing itself.
bool isStdAccessor(const clang::CXXMethodDecl *MD);

/// `free` / `std::free`: releasing memory writes nothing the reverse sweep
/// reads (values are recorded when they are read).
bool isDeallocation(const clang::FunctionDecl *FD);

/// The first statement of \p Body that changes the sizes of a local whose
/// shadow is a copy (shadowIsCopy): a write to a member without floating
/// data (`m.cols = 4`), a size-changing call on a copied vector
/// (`a.push_back(row)`), or `a[i] = row`. The shadow, copied at the
/// declaration, would index with the old sizes. Null if there is none.
const clang::Expr *firstShapeWrite(const clang::Stmt *Body);

} // namespace grad

#endif
