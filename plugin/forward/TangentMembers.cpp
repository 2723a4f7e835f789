//===- TangentMembers.cpp - Member calls in forward mode --------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Member calls in a pushforward: the runtime's tape (values saved with
/// their tangents), container mutations mirrored on the tangent container
/// (push_back, resize, erase, ...), iterators computed as written, and
/// const queries (v.size()) run as written.
///
//===----------------------------------------------------------------------===//

#include "forward/TangentBuilder.h"
#include "ast/Records.h"

namespace grad {
namespace tangent {

/// The methods of standard containers that change their size: mirrored on
/// the tangent container with tangent arguments.
static bool isResizing(StringRef N) {
  return N == "push_back" || N == "emplace_back" || N == "resize" ||
         N == "assign" || N == "clear" || N == "pop_back" || N == "reserve";
}

/// A pullback's tape (grad::detail::stack): each floating value saved
/// with its tangent after it, popped back in the opposite order.
VT TangentBuilder::tapeMember(const CXXMemberCallExpr *MC, const Expr *Obj,
                              StringRef Name, bool Arrow) {
  bool Pop = Name.starts_with("pop");
  VT O = expr(Obj, false);
  SmallVector<Expr *, 8> Args;
  for (const Expr *A : MC->arguments()) {
    bool F = isFloating(A->getType()) || hasFloatingData(A->getType());
    VT X = expr(A, F);
    if (!X.V || !O.V)
      return {};
    Args.push_back(X.V);
    if (Linear && X.T)
      return {fail(A, "adjoint saved on the tape"), nullptr};
    if (!F || Linear) // (linear mode: the tape holds values only)
      continue;
    if (Pop && !X.T)
      return {fail(A, "value restored into memory without a tangent"),
              nullptr};
    Args.push_back(orZero(X.T, A->getType()));
  }
  return {B.memberCall(O.V, Pop ? "pop_all" : "push_all", Args, Arrow),
          nullptr};
}

/// A member that resizes a std container (push_back, resize, ...): the same
/// on the tangent container, with the arguments' tangents.
VT TangentBuilder::resizingMember(const CXXMemberCallExpr *MC, const Expr *Obj,
                                  StringRef Name, bool Arrow) {
  VT O = expr(Obj, true);
  SmallVector<Expr *, 2> Vs, Ts;
  bool Active = false;
  for (const Expr *A : MC->arguments()) {
    if (isa<CXXDefaultArgExpr>(A))
      break;
    // (Pointers and iterators would give the tangent the values.)
    if (A->getType()->isPointerType() || holdsWritablePointer(A->getType()))
      return {fail(A, "call to '" + Name.str() + "' with the argument '" +
                          spelled(A) + "'"),
              nullptr};
    bool F = isFloating(A->getType()) || hasFloatingData(A->getType());
    VT X = expr(A, F);
    if (!X.V)
      return {};
    Active |= F && X.T;
    Ts.push_back(F ? orZero(X.T, A->getType()) : dup(X, A));
    Vs.push_back(X.V);
  }
  if (O.T)
    emit(B.memberCall(O.T, Name, Ts, Arrow));
  if (O.T && Linear)
    return {}; // (an adjoint container: its lanes only)
  if (!O.T && Active)
    // A container without a tangent (constant data) may take constants
    // only.
    return {fail(MC, "'" + Name.str() + "' of a differentiated value into '" +
                         spelled(Obj) + "', which has no tangent"),
            nullptr};
  return {B.memberCall(O.V, Name, Vs, Arrow), nullptr};
}

/// v.erase(it), v.erase(first, last): the tangent container loses the
/// elements at the same indices.
VT TangentBuilder::eraseMember(const CXXMemberCallExpr *MC, const Expr *Obj,
                               StringRef Name, bool Arrow) {
  VT O = expr(Obj, true);
  if (!O.V)
    return {};
  SmallVector<Expr *, 2> Vs, Ts;
  for (const Expr *A : MC->arguments()) {
    // (The iterator itself, not its conversion to a const_iterator.)
    A = A->IgnoreImplicit();
    if (const auto *CC = dyn_cast<CXXConstructExpr>(A);
        CC && CC->getNumArgs() == 1)
      A = CC->getArg(0)->IgnoreImplicit();
    VT X = expr(A, false);
    if (!X.V)
      return {};
    if (O.T) {
      Expr *It = dup(X, A);
      Expr *Obj2 = dup(O, Obj);
      if (!It || !Obj2)
        return {};
      Ts.push_back(B.binop(
          BO_Add, B.memberCall(O.T, "begin", {}, Arrow),
          B.paren(B.binop(BO_Sub, It,
                          B.memberCall(Obj2, "begin", {}, Arrow)))));
    }
    Vs.push_back(X.V);
  }
  if (O.T)
    emit(B.memberCall(O.T, Name, Ts, Arrow));
  if (O.T && Linear)
    return {};
  return {B.memberCall(O.V, Name, Vs, Arrow), nullptr};
}

VT TangentBuilder::memberCall(const CXXMemberCallExpr *MC, bool NeedT) {
  const CXXMethodDecl *MD = MC->getMethodDecl();
  const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
  if (!MD || !ME || !MD->getIdentifier())
    return {fail(MC, constructName(MC)), nullptr};
  StringRef Name = MD->getName();
  const Expr *Obj = ME->getBase();
  bool Std = MD->getParent()->isInStdNamespace();
  bool Arrow = ME->isArrow();
  // A pullback's tape (grad::detail::stack): a floating value (or an object
  // with floating data, such as sin_cos's pair) is saved with its tangent
  // after it, and popped back in the opposite order.
  if (MD->getParent()->getQualifiedNameAsString() == "grad::detail::stack" &&
      (Name == "push" || Name == "pop" || Name == "push_all" ||
       Name == "pop_all"))
    return tapeMember(MC, Obj, Name, Arrow);
  // Linear mode: an adjoint std::vector (lanes) takes the element access,
  // size and resizing members the pullback uses on adjoints; others
  // (iterators, insert, erase, swap) are not supported yet.
  if (Linear && Std && LinAct->isActive(Obj) &&
      !llvm::is_contained({"operator[]", "at", "back", "front", "size",
                           "empty", "assign", "resize", "pop_back",
                           "push_back", "emplace_back", "clear",
                           "reserve"},
                          Name) &&
      !(Name == "assign" && MC->getNumArgs() == 2 &&
        !MC->getArg(1)->getType()->isPointerType()))
    return {fail(MC, "call to '" + Name.str() + "' on " + adjointOf(Obj) +
                         " (the vector pullback of a container supports "
                         "element access, size and resizing)"),
            nullptr};
  if (Linear && Std && Name == "assign" && LinAct->isActive(Obj) &&
      (MC->getNumArgs() != 2 || MC->getArg(1)->getType()->isPointerType() ||
       bracedElements(MC->getArg(1))))
    return {fail(MC, "call to 'assign' with a range on " + adjointOf(Obj)),
            nullptr};
  // (std::array's iterators are pointers: begin() and end() like data().)
  bool PointerIter = MC->getType()->isPointerType() &&
                     llvm::is_contained({"begin", "end", "cbegin", "cend"}, Name);
  if (Std && (elementMember(MC) || Name == "data" || PointerIter)) {
    VT O = expr(Obj, true);
    SmallVector<Expr *, 1> Vs, Ts;
    for (const Expr *A : MC->arguments()) {
      VT X = expr(A, false);
      Vs.push_back(X.V);
      if (O.T)
        Ts.push_back(dup(X, A));
    }
    return {B.memberCall(O.V, Name, Vs, Arrow),
            O.T ? B.memberCall(O.T, Name, Ts, Arrow) : nullptr};
  }
  // v.assign(p, q), v.insert(pos, p, q), v.insert(pos, [n,] x),
  // v.swap(w): the same on the tangent containers, with the tangent range
  // (zeros for memory without tangents).
  unsigned NA = MC->getNumArgs();
  bool Range = NA >= 2 && MC->getArg(NA - 1)->getType()->isPointerType() &&
               MC->getArg(NA - 2)->getType()->isPointerType();
  const auto *ORD = MD->getParent();
  bool Vector = Std && ORD->getIdentifier() && ORD->getName() == "vector";
  bool Braces = NA && bracedElements(MC->getArg(NA - 1));
  if (Vector && ((Name == "assign" && (Range || Braces)) ||
                 Name == "insert" || Name == "swap"))
    return rangeMutation(MC, Range);
  if (Std && isResizing(Name))
    return resizingMember(MC, Obj, Name, Arrow);
  // v.erase(it), v.erase(first, last): the tangent container loses the
  // elements at the same indices (taken before either call).
  if (Std && Name == "erase" && (MC->getNumArgs() == 1 || MC->getNumArgs() == 2))
    return eraseMember(MC, Obj, Name, Arrow);
  // Other member functions: only const ones whose result carries no
  // derivative (v.size(), s.empty()) run as written.
  // (v.begin(), v.end(): an iterator, computed as written.)
  bool Iterator = isStdAccessor(MD) && MC->getType()->isRecordType();
  if (!MD->isConst() && !MD->isStatic() && !Iterator &&
      (floatingOrPointer(Obj->getType()) ||
       (Obj->getType()->isPointerType() &&
        floatingOrPointer(Obj->getType()->getPointeeType()))))
    return {fail(MC, "call to member function '" + Name.str() +
                         "' of a differentiated object"),
            nullptr};
  if (NeedT && floatingOrPointer(MC->getType()) &&
      (isFloating(MC->getType()) || MC->getType()->isPointerType()))
    return {fail(MC, "call to member function '" + Name.str() + "'"),
            nullptr};
  // A result holding floating data (`std::vector<double> forward(const
  // std::vector<double> &) const`) is constant only when nothing
  // differentiated flows in, through the object or an argument.
  // (An iterator is judged where it is used.)
  bool Carries =
      NeedT && !Linear && !Iterator && floatingOrPointer(MC->getType());
  auto NoMember = [&](const Expr *At, const std::string &What) -> VT {
    return {fail(At, "call to member function '" + Name.str() + "'" + What +
                         " (forward mode does not differentiate member "
                         "functions yet: make it a free function taking "
                         "the object)"),
            nullptr};
  };
  std::string Returning =
      " returning '" + MC->getType().getUnqualifiedType().getAsString() + "'";
  if (Carries && holdsFloatingPointer(Obj->getType()->isPointerType()
                                          ? Obj->getType()->getPointeeType()
                                          : Obj->getType()))
    return NoMember(MC, Returning);
  VT O = expr(Obj, Carries || (Linear && Std && MD->isConst()));
  if (!O.V)
    return {};
  if (Carries && O.T)
    return NoMember(MC, Returning);
  // (Linear mode: `_d_v.size()` of an adjoint container asks its lanes,
  // which have the same size.)
  if (Linear && O.T)
    O.V = O.T;
  SmallVector<Expr *, 2> Vs;
  for (unsigned I = 0; I < MC->getNumArgs(); ++I) {
    const Expr *A = MC->getArg(I);
    if (isa<CXXDefaultArgExpr>(A))
      break;
    // Differentiated memory handed to a parameter that may write it
    // (`p.eval(n, x, obj)` with `double &obj`): run as written, its tangent
    // would be left as it was.
    bool Writable = I < MD->getNumParams() &&
                    writableParam(MD->getParamDecl(I)->getType()) &&
                    hasFloatingData(A->getType()->isPointerType()
                                        ? A->getType()->getPointeeType()
                                        : A->getType());
    VT X = expr(A, Writable || Carries);
    if (!X.V)
      return {};
    if (Writable && X.T)
      return NoMember(A, ", which may write the differentiated memory '" +
                             spelled(A) + "'");
    if (Carries && X.T)
      return NoMember(MC, Returning);
    Vs.push_back(X.V);
  }
  return {B.memberCall(O.V, Name, Vs, Arrow), nullptr};
}

VT TangentBuilder::rangeMutation(const CXXMemberCallExpr *MC, bool Range) {
  const auto *ME = cast<MemberExpr>(MC->getCallee()->IgnoreParens());
  StringRef Name = MC->getMethodDecl()->getName();
  const Expr *Obj = ME->getBase();
  bool Arrow = ME->isArrow();
  unsigned NA = MC->getNumArgs();
  VT O = expr(Obj, true);
  if (!O.V)
    return {};
  auto Bad = [&]() -> VT {
    return {fail(MC, "call to '" + Name.str() + "' with these arguments"),
            nullptr};
  };
  if (Name == "swap") {
    const Expr *W = NA == 1 ? MC->getArg(0) : nullptr;
    VT X = W ? expr(W, true) : VT{};
    if (!X.V)
      return W ? VT{} : Bad();
    if (!O.T != !X.T)
      return {fail(MC, "call to 'swap' on " + spelled(Obj) + " with " +
                           spelled(W) + ", only one of which has a tangent"),
              nullptr};
    if (O.T)
      emit(B.memberCall(O.T, "swap", {X.T}, Arrow));
    return {B.memberCall(O.V, "swap", {X.V}, Arrow), nullptr};
  }
  // insert(pos, ...): the position as an index, taken before either call.
  SmallVector<Expr *, 3> Vs, Ts;
  unsigned First = 0;
  if (Name == "insert") {
    if (NA < 2 || NA > 3)
      return Bad();
    // (The iterator itself, not its conversion to a const_iterator.)
    const Expr *P = MC->getArg(0)->IgnoreImplicit();
    if (const auto *CC = dyn_cast<CXXConstructExpr>(P);
        CC && CC->getNumArgs() == 1)
      P = CC->getArg(0)->IgnoreImplicit();
    VT X = expr(P, false);
    if (!X.V)
      return {};
    if (O.T) {
      Expr *It = dup(X, P);
      Expr *Obj2 = dup(O, Obj);
      if (!It || !Obj2)
        return {};
      Ts.push_back(B.binop(
          BO_Add, B.memberCall(O.T, "begin", {}, Arrow),
          B.paren(B.binop(BO_Sub, It,
                          B.memberCall(Obj2, "begin", {}, Arrow)))));
    }
    Vs.push_back(X.V);
    First = 1;
  }
  if (Range) {
    const Expr *PA = MC->getArg(NA - 2), *QA = MC->getArg(NA - 1);
    VT P = expr(PA, true);
    VT Q = P.V ? expr(QA, false) : VT{};
    if (!Q.V)
      return {};
    if (O.T) {
      Expr *P2 = dup(P, PA), *Q2 = dup(Q, QA);
      if (!P2 || !Q2)
        return {};
      Expr *N = B.paren(B.binop(BO_Sub, Q2, P2));
      if (P.T) {
        // The tangent pointer, read twice.
        VT TP{P.T, nullptr};
        Expr *T1 = dup(TP, nullptr);
        Expr *T2 = T1 ? dup(TP, nullptr) : nullptr;
        if (!T2)
          return {};
        Ts.push_back(T1);
        Ts.push_back(B.binop(BO_Add, T2, N));
      } else {
        // Memory without tangents: as many zeros.
        QualType ET =
            elementTypeOf(Ctx, Obj->getType().getNonReferenceType());
        Ts.push_back(B.staticCast(Ctx.getSizeType(), N));
        Ts.push_back(B.zero(ET));
      }
    } else if (P.T) {
      return {fail(MC, "call to '" + Name.str() + "' of differentiated "
                           "values into '" + spelled(Obj) +
                           "', which has no tangent"),
              nullptr};
    }
    Vs.push_back(P.V);
    Vs.push_back(Q.V);
  } else if (const InitListExpr *IL =
                 NA == First + 1 ? bracedElements(MC->getArg(First))
                                 : nullptr) {
    // v.assign({x, y}), v.insert(pos, {x, y}): the braces of values and
    // those of tangents.
    if (O.T) {
      Expr *V, *Tn;
      if (!initPair(MC->getArg(First), MC->getArg(First)->getType(), V, Tn))
        return {};
      Vs.push_back(V);
      Ts.push_back(Tn);
    } else {
      SmallVector<Expr *, 4> Elems;
      for (const Expr *A : IL->inits()) {
        VT X = expr(A, isFloating(A->getType()));
        if (!X.V)
          return {};
        if (X.T)
          return {fail(MC, "call to '" + Name.str() + "' of a differentiated "
                               "value into '" + spelled(Obj) +
                               "', which has no tangent"),
                  nullptr};
        Elems.push_back(X.V);
      }
      ExprResult R = S.ActOnInitList(B.Loc, Elems, B.Loc);
      if (R.isInvalid())
        return Bad();
      Vs.push_back(R.get());
    }
  } else {
    for (unsigned I = First; I < NA; ++I) {
      const Expr *A = MC->getArg(I);
      bool F = isFloating(A->getType());
      if (!F && !A->getType()->isIntegralOrEnumerationType())
        return Bad();
      VT X = expr(A, F);
      if (!X.V)
        return {};
      if (O.T)
        Ts.push_back(F ? orZero(X.T, A->getType()) : dup(X, A));
      else if (F && X.T)
        return {fail(MC, "call to '" + Name.str() + "' of a differentiated "
                             "value into '" + spelled(Obj) +
                             "', which has no tangent"),
                nullptr};
      Vs.push_back(X.V);
    }
  }
  if (O.T)
    emit(B.memberCall(O.T, Name, Ts, Arrow));
  return {B.memberCall(O.V, Name, Vs, Arrow), nullptr};
}

} // namespace tangent
} // namespace grad
