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

Expr *TangentBuilder::tangentPosition(VT &O, const Expr *Obj, VT &X,
                                      const Expr *At, bool Arrow) {
  Expr *It = dup(X, At);
  Expr *Obj2 = dup(O, Obj);
  if (!It || !Obj2)
    return nullptr;
  return B.binop(
      BO_Add, B.memberCall(O.T, "begin", {}, Arrow),
      B.paren(B.binop(BO_Sub, It, B.memberCall(Obj2, "begin", {}, Arrow))));
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
      Expr *Pos = tangentPosition(O, Obj, X, A, Arrow);
      if (!Pos)
        return {};
      Ts.push_back(Pos);
    }
    Vs.push_back(X.V);
  }
  if (O.T)
    emit(B.memberCall(O.T, Name, Ts, Arrow));
  if (O.T && Linear)
    return {};
  return {B.memberCall(O.V, Name, Vs, Arrow), nullptr};
}

bool TangentBuilder::refuseAdjointMember(const CXXMemberCallExpr *MC,
                                         const Expr *Obj, bool Std) {
  StringRef Name = MC->getMethodDecl()->getName();
  // Linear mode: an adjoint std::vector (lanes) takes the element access,
  // size and resizing members the pullback uses on adjoints; others
  // (iterators, insert, erase, swap) are not supported yet.
  if (Linear && Std && LinAct->isActive(Obj) &&
      !llvm::is_contained({"operator[]", "at", "back", "front", "size", "empty",
                           "assign", "resize", "pop_back", "push_back",
                           "emplace_back", "clear", "reserve"},
                          Name) &&
      !(Name == "assign" && MC->getNumArgs() == 2 &&
        !MC->getArg(1)->getType()->isPointerType())) {
    fail(MC, "call to '" + Name.str() + "' on " + adjointOf(Obj) +
                 " (the vector pullback of a container supports "
                 "element access, size and resizing)");
    return true;
  }
  if (Linear && Std && Name == "assign" && LinAct->isActive(Obj) &&
      (MC->getNumArgs() != 2 || MC->getArg(1)->getType()->isPointerType() ||
       bracedElements(MC->getArg(1)))) {
    fail(MC, "call to 'assign' with a range on " + adjointOf(Obj));
    return true;
  }
  return false;
}

VT TangentBuilder::elementMemberCall(const CXXMemberCallExpr *MC,
                                     const Expr *Obj, StringRef Name,
                                     bool Arrow) {
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
  if (refuseAdjointMember(MC, Obj, Std))
    return {};
  // (std::array's iterators are pointers: begin() and end() like data().)
  bool PointerIter = MC->getType()->isPointerType() &&
                     llvm::is_contained({"begin", "end", "cbegin", "cend"}, Name);
  if (Std && (elementMember(MC) || Name == "data" || PointerIter))
    return elementMemberCall(MC, Obj, Name, Arrow);
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
  return constMember(MC, NeedT);
}

const FunctionDecl *TangentBuilder::primalOfGenerated(const FunctionDecl *MD) {
  for (const auto &E : D.entries())
    if (E->Pullback == MD || E->Fwd == MD || E->Rev == MD)
      return E->Primal;
  return nullptr;
}

std::string TangentBuilder::memberAsWritten(const FunctionDecl *MD) {
  // (A member's generated pullback: named by the member the user wrote.)
  if (const FunctionDecl *P = primalOfGenerated(MD))
    return std::string(isa<CXXConstructorDecl>(P) ? "constructor '"
                                                  : "member function '") +
           P->getNameAsString() + "'";
  return "member function '" + MD->getNameAsString() + "'";
}

VT TangentBuilder::undifferentiatedMember(const CXXMemberCallExpr *MC,
                                          const Expr *At,
                                          const std::string &What) {
  // (In a pullback differentiated for a Hessian-vector product, the call
  // of a member's generated pullback: named by the member the user wrote.)
  // (What it writes are adjoints, not said.)
  std::string Why = primalOfGenerated(MC->getMethodDecl()) ? "" : What;
  return {fail(At, "call to " + memberAsWritten(MC->getMethodDecl()) + Why +
                       " (forward mode does not differentiate member "
                       "functions yet: make it a free function taking "
                       "the object)"),
          nullptr};
}

bool TangentBuilder::constMemberArgs(const CXXMemberCallExpr *MC, bool Carries,
                                     const std::string &Returning,
                                     SmallVectorImpl<Expr *> &Vs) {
  const CXXMethodDecl *MD = MC->getMethodDecl();
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
      return false;
    if (Writable && X.T) {
      undifferentiatedMember(MC, A,
                             ", which may write the differentiated memory '" +
                                 spelled(A) + "'");
      return false;
    }
    if (Carries && X.T) {
      undifferentiatedMember(MC, MC, Returning);
      return false;
    }
    Vs.push_back(X.V);
  }
  return true;
}

VT TangentBuilder::constMember(const CXXMemberCallExpr *MC, bool NeedT) {
  const CXXMethodDecl *MD = MC->getMethodDecl();
  const auto *ME = cast<MemberExpr>(MC->getCallee()->IgnoreParens());
  StringRef Name = MD->getName();
  const Expr *Obj = ME->getBase();
  bool Std = MD->getParent()->isInStdNamespace();
  // Other member functions: only const ones whose result carries no
  // derivative (v.size(), s.empty()) run as written.
  // (v.begin(), v.end(): an iterator, computed as written.)
  bool Iterator = isStdAccessor(MD) && MC->getType()->isRecordType();
  if (!MD->isConst() && !MD->isStatic() && !Iterator &&
      (floatingOrPointer(Obj->getType()) ||
       (Obj->getType()->isPointerType() &&
        floatingOrPointer(Obj->getType()->getPointeeType()))))
    return {fail(MC, "call to " + memberAsWritten(MD) +
                         " of a differentiated object"),
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
  std::string Returning =
      " returning '" + MC->getType().getUnqualifiedType().getAsString() + "'";
  if (Carries && holdsFloatingPointer(Obj->getType()->isPointerType()
                                          ? Obj->getType()->getPointeeType()
                                          : Obj->getType()))
    return undifferentiatedMember(MC, MC, Returning);
  VT O = expr(Obj, Carries || (Linear && Std && MD->isConst()));
  if (!O.V)
    return {};
  if (Carries && O.T)
    return undifferentiatedMember(MC, MC, Returning);
  // (Linear mode: `_d_v.size()` of an adjoint container asks its lanes,
  // which have the same size.)
  if (Linear && O.T)
    O.V = O.T;
  SmallVector<Expr *, 2> Vs;
  if (!constMemberArgs(MC, Carries, Returning, Vs))
    return {};
  return {B.memberCall(O.V, Name, Vs, ME->isArrow()), nullptr};
}

VT TangentBuilder::badMutation(const Mutation &M) {
  return {fail(M.MC, "call to '" + M.Name.str() + "' with these arguments"),
          nullptr};
}

VT TangentBuilder::swapMutation(Mutation &M) {
  const CXXMemberCallExpr *MC = M.MC;
  const Expr *W = MC->getNumArgs() == 1 ? MC->getArg(0) : nullptr;
  VT X = W ? expr(W, true) : VT{};
  if (!X.V)
    return W ? VT{} : badMutation(M);
  if (!M.O.T != !X.T)
    return {fail(MC, "call to 'swap' on " + spelled(M.Obj) + " with " +
                         spelled(W) + ", only one of which has a tangent"),
            nullptr};
  if (M.O.T)
    emit(B.memberCall(M.O.T, "swap", {X.T}, M.Arrow));
  return {B.memberCall(M.O.V, "swap", {X.V}, M.Arrow), nullptr};
}

bool TangentBuilder::insertPosition(Mutation &M) {
  // (The iterator itself, not its conversion to a const_iterator.)
  const Expr *P = M.MC->getArg(0)->IgnoreImplicit();
  if (const auto *CC = dyn_cast<CXXConstructExpr>(P);
      CC && CC->getNumArgs() == 1)
    P = CC->getArg(0)->IgnoreImplicit();
  VT X = expr(P, false);
  if (!X.V)
    return false;
  if (M.O.T) {
    Expr *Pos = tangentPosition(M.O, M.Obj, X, P, M.Arrow);
    if (!Pos)
      return false;
    M.Ts.push_back(Pos);
  }
  M.Vs.push_back(X.V);
  return true;
}

bool TangentBuilder::rangeArgs(Mutation &M) {
  unsigned NA = M.MC->getNumArgs();
  const Expr *PA = M.MC->getArg(NA - 2), *QA = M.MC->getArg(NA - 1);
  VT P = expr(PA, true);
  VT Q = P.V ? expr(QA, false) : VT{};
  if (!Q.V)
    return false;
  if (M.O.T) {
    Expr *P2 = dup(P, PA), *Q2 = dup(Q, QA);
    if (!P2 || !Q2)
      return false;
    Expr *N = B.paren(B.binop(BO_Sub, Q2, P2));
    if (P.T) {
      // The tangent pointer, read twice.
      VT TP{P.T, nullptr};
      Expr *T1 = dup(TP, nullptr);
      Expr *T2 = T1 ? dup(TP, nullptr) : nullptr;
      if (!T2)
        return false;
      M.Ts.push_back(T1);
      M.Ts.push_back(B.binop(BO_Add, T2, N));
    } else {
      // Memory without tangents: as many zeros.
      QualType ET = elementTypeOf(Ctx, M.Obj->getType().getNonReferenceType());
      M.Ts.push_back(B.staticCast(Ctx.getSizeType(), N));
      M.Ts.push_back(B.zero(ET));
    }
  } else if (P.T) {
    return failed(M.MC, "call to '" + M.Name.str() +
                            "' of differentiated "
                            "values into '" +
                            spelled(M.Obj) + "', which has no tangent");
  }
  M.Vs.push_back(P.V);
  M.Vs.push_back(Q.V);
  return true;
}

bool TangentBuilder::bracedArgs(Mutation &M, unsigned First,
                                const InitListExpr *IL) {
  // v.assign({x, y}), v.insert(pos, {x, y}): the braces of values and
  // those of tangents.
  const Expr *Arg = M.MC->getArg(First);
  if (M.O.T) {
    Expr *V, *Tn;
    if (!initPair(Arg, Arg->getType(), V, Tn))
      return false;
    M.Vs.push_back(V);
    M.Ts.push_back(Tn);
    return true;
  }
  SmallVector<Expr *, 4> Elems;
  for (const Expr *A : IL->inits()) {
    VT X = expr(A, isFloating(A->getType()));
    if (!X.V)
      return false;
    if (X.T)
      return failed(M.MC, "call to '" + M.Name.str() +
                              "' of a "
                              "differentiated value into '" +
                              spelled(M.Obj) + "', which has no tangent");
    Elems.push_back(X.V);
  }
  ExprResult R = S.ActOnInitList(B.Loc, Elems, B.Loc);
  if (R.isInvalid()) {
    badMutation(M);
    return false;
  }
  M.Vs.push_back(R.get());
  return true;
}

bool TangentBuilder::valueArgs(Mutation &M, unsigned First) {
  for (unsigned I = First; I < M.MC->getNumArgs(); ++I) {
    const Expr *A = M.MC->getArg(I);
    bool F = isFloating(A->getType());
    if (!F && !A->getType()->isIntegralOrEnumerationType()) {
      badMutation(M);
      return false;
    }
    VT X = expr(A, F);
    if (!X.V)
      return false;
    if (M.O.T)
      M.Ts.push_back(F ? orZero(X.T, A->getType()) : dup(X, A));
    else if (F && X.T)
      return failed(M.MC, "call to '" + M.Name.str() +
                              "' of a "
                              "differentiated value into '" +
                              spelled(M.Obj) + "', which has no tangent");
    M.Vs.push_back(X.V);
  }
  return true;
}

VT TangentBuilder::rangeMutation(const CXXMemberCallExpr *MC, bool Range) {
  const auto *ME = cast<MemberExpr>(MC->getCallee()->IgnoreParens());
  Mutation M{MC, ME->getBase(), MC->getMethodDecl()->getName(), ME->isArrow()};
  unsigned NA = MC->getNumArgs();
  M.O = expr(M.Obj, true);
  if (!M.O.V)
    return {};
  if (M.Name == "swap")
    return swapMutation(M);
  // insert(pos, ...): the position as an index, taken before either call.
  unsigned First = 0;
  if (M.Name == "insert") {
    if (NA < 2 || NA > 3)
      return badMutation(M);
    if (!insertPosition(M))
      return {};
    First = 1;
  }
  bool Done;
  if (Range)
    Done = rangeArgs(M);
  else if (const InitListExpr *IL =
               NA == First + 1 ? bracedElements(MC->getArg(First)) : nullptr)
    Done = bracedArgs(M, First, IL);
  else
    Done = valueArgs(M, First);
  if (!Done)
    return {};
  if (M.O.T)
    emit(B.memberCall(M.O.T, M.Name, M.Ts, M.Arrow));
  return {B.memberCall(M.O.V, M.Name, M.Vs, M.Arrow), nullptr};
}

} // namespace tangent
} // namespace grad
