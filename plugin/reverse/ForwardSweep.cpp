//===- ForwardSweep.cpp - The forward sweep of a pullback -------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Rebuilds primal expressions for the pullback's forward sweep, through
/// Sema, remapping the primal's variables to the pullback's. Values that the
/// reverse sweep reads are bound to hoisted temporaries (A-normal form);
/// subexpressions that carry no derivative are rebuilt as they are.
///
//===----------------------------------------------------------------------===//

#include "analysis/Positions.h"
#include "ast/Diagnostics.h"
#include "analysis/CallShapes.h"
#include "reverse/PullbackBuilder.h"
#include "ast/Records.h"
#include "analysis/Selectors.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

static const Expr *strip(const Expr *E) { return stripExpr(E); }

/// \p A and \p B are the same expression without side effects (`x[i]`
/// twice), so they have the same value.
static bool sameValue(const ASTContext &Ctx, const Expr *A, const Expr *B) {
  A = A->IgnoreParenImpCasts();
  B = B->IgnoreParenImpCasts();
  if (A->HasSideEffects(Ctx) || B->HasSideEffects(Ctx))
    return false;
  llvm::FoldingSetNodeID IA, IB;
  A->Profile(IA, Ctx, /*Canonical=*/true);
  B->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

static bool isLiteral(const Expr *E) {
  return isa<FloatingLiteral>(E) || isa<IntegerLiteral>(E) ||
         isa<CXXBoolLiteralExpr>(E) || isa<CharacterLiteral>(E) ||
         isa<StringLiteral>(E) || isa<CXXNullPtrLiteralExpr>(E);
}

/// True if \p E names no local variable, parameter, `this` or lambda: a
/// constant the pullback can evaluate as written
/// (`std::make_index_sequence<4>{}`).
static bool isClosed(const Stmt *E) {
  if (!E)
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && VD->isLocalVarDeclOrParm())
      return false;
  }
  if (isa<CXXThisExpr>(E) || isa<LambdaExpr>(E) || isa<StmtExpr>(E) ||
      isa<CallExpr>(E))
    return false;
  for (const Stmt *Child : E->children())
    if (!isClosed(Child))
      return false;
  return true;
}

/// A tag object without floating data built from constants
/// (`std::make_index_sequence<4>{}`): replayed as written.
static bool isConstantTag(const Expr *E) {
  QualType T = E->getType();
  return T->isRecordType() && !hasFloatingData(T) && isClosed(E);
}

std::nullptr_t PullbackBuilder::unsupported(const Stmt *St, StringRef What) {
  return unsupportedAt(St->getBeginLoc(), What);
}

std::nullptr_t PullbackBuilder::unsupported(const Decl *Dc, StringRef What) {
  return unsupportedAt(Dc->getLocation(), What);
}

std::nullptr_t PullbackBuilder::unsupportedAt(SourceLocation Loc,
                                              StringRef What) {
  // (Keyed by the entry: its pullback and halves may be built from
  // different presentations of the definition, driver/EntryCopies.h.)
  if (!Failed && D.firstErrorAt(Loc, Entry.Primal)) {
    report(S.Diags, Diag::UnsupportedConstruct, Loc)
        << What << nameOf(Primal);
    D.noteRequest(Entry);
  }
  Failed = true;
  return nullptr;
}

std::string PullbackBuilder::fresh(StringRef Base) {
  // "_d_x_" names the adjoint "_d_x" unless that is taken.
  if (Base.ends_with("_") && Names.insert(Base.drop_back()).second)
    return Base.drop_back().str();
  for (unsigned I = 0;; ++I) {
    std::string N = (Base + Twine(I)).str();
    if (Names.insert(N).second)
      return N;
  }
}

VarDecl *PullbackBuilder::hoist(StringRef Base, QualType T) {
  // A split derivative's frame copies every temporary, also those a
  // branch not taken leaves alone: they start as zero there.
  // (A class without a default constructor starts as zero bytes too.)
  const auto *RD = T->getAsCXXRecordDecl();
  bool NoDefault = RD && isPlainRecord(T) && !RD->hasTrivialDefaultConstructor();
  // A branch condition recorded inside a branch not taken is still pushed
  // (`c1` of `a ? (b ? x : y) : z`): it starts as false, never as an
  // indeterminate bool (undefined behaviour that UBSan reports).
  VarDecl *VD = B.var(PB, fresh(Base), T,
                      (Half == SplitHalf::Forward && T->isArithmeticType()) ||
                              NoDefault || T->isBooleanType()
                          ? B.zero(T)
                          : nullptr);
  Prologue.push_back(B.declStmt(VD));
  Hoisted.push_back(VD);
  return VD;
}

bool PullbackBuilder::recomputable(const Expr *E) const {
  const Expr *K = strip(E);
  if (!K)
    return false;
  if (isLiteral(K))
    return !isa<StringLiteral>(K);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(K)) {
    if (isa<EnumConstantDecl>(DRE->getDecl()))
      return true;
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && VD->getType()->isArithmeticType() && stable(VD) &&
           (VD->isLocalVarDeclOrParm() || VD->getType().isConstQualified());
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(K))
    return (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus ||
            UO->getOpcode() == UO_Not || UO->getOpcode() == UO_LNot) &&
           recomputable(UO->getSubExpr());
  if (const auto *BO = dyn_cast<BinaryOperator>(K))
    return !BO->isAssignmentOp() && BO->getOpcode() != BO_Comma &&
           K->getType()->isArithmeticType() && recomputable(BO->getLHS()) &&
           recomputable(BO->getRHS());
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(K))
    return EC->getTypeAsWritten()->isArithmeticType() &&
           recomputable(EC->getSubExpr());
  return false;
}

int PullbackBuilder::invariantLevel(const Expr *E) const {
  const Expr *K = strip(E);
  if (!K)
    return -1;
  if (isLiteral(K))
    return isa<StringLiteral>(K) ? -1 : 0;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(K)) {
    if (isa<EnumConstantDecl>(DRE->getDecl()))
      return 0;
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->getType()->isArithmeticType() || Act.isWritten(VD) ||
        RevIndex.count(VD))
      return -1;
    if (isa<ParmVarDecl>(VD))
      return ownParam(cast<ParmVarDecl>(VD)) ? 0 : -1;
    if (!VD->isLocalVarDecl())
      return VD->getType().isConstQualified() ? 0 : -1;
    auto It = DeclDepth.find(VD);
    return It == DeclDepth.end() ? -1 : static_cast<int>(It->second);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(K))
    return UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus
               ? invariantLevel(UO->getSubExpr())
               : -1;
  if (const auto *BO = dyn_cast<BinaryOperator>(K)) {
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma ||
        !K->getType()->isArithmeticType())
      return -1;
    int L = invariantLevel(BO->getLHS()), R = invariantLevel(BO->getRHS());
    return L < 0 || R < 0 ? -1 : std::max(L, R);
  }
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(K))
    return EC->getTypeAsWritten()->isArithmeticType()
               ? invariantLevel(EC->getSubExpr())
               : -1;
  return -1;
}

Expr *PullbackBuilder::recompute(const Expr *E) {
  const Expr *K = strip(E);
  if (const auto *UO = dyn_cast<UnaryOperator>(K))
    return B.unop(UO->getOpcode(), val(UO->getSubExpr()));
  if (const auto *BO = dyn_cast<BinaryOperator>(K))
    return B.binop(BO->getOpcode(), val(BO->getLHS()), val(BO->getRHS()));
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(K))
    return B.staticCast(EC->getTypeAsWritten(), val(EC->getSubExpr()));
  return plain(K);
}

const Expr *PullbackBuilder::sinCosKey(const CallExpr *CE, const Rule &Ru) {
  if (!isSinCosCall(CE, Ru))
    return nullptr;
  // Without the runtime (-fplugin-arg-grad-no-runtime-include and no
  // include): the rule's partial, as for every other function.
  if (!HasSinCos)
    HasSinCos = D.options().SinCos && B.hasRuntime("sin_cos") ? 1 : 2;
  // The pair is recorded under the call's callee, which nothing else
  // records.
  return HasSinCos == 1 ? strip(CE->getCallee()) : nullptr;
}

Expr *PullbackBuilder::sinCosPartial(const CallExpr *CE, const Rule &Ru) {
  Expr *Pair = val(sinCosKey(CE, Ru));
  if (!Pair)
    return nullptr;
  if (StringRef(Ru.Name) == "sin")
    return B.member(Pair, "__cos");
  return B.unop(UO_Minus, B.member(Pair, "__sin"));
}

Expr *PullbackBuilder::record(const Expr *Key, Expr *Value) {
  if (!Value)
    return nullptr;
  // Cheap values over unchanging inputs are recomputed, not stored.
  if (recomputable(Key))
    return Value;
  QualType T = Value->getType().getNonReferenceType().getUnqualifiedType();
  if (T->isRecordType())
    T = T.getCanonicalType().getUnqualifiedType();
  // An array cannot be kept by assignment; a static array of constants
  // (`std::span<const int, 3>(IDX)`'s argument) is read again as it is.
  if (const ArrayType *AT = Ctx.getAsArrayType(T)) {
    const auto *DRE = dyn_cast<DeclRefExpr>(Value->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (AT->getElementType().isConstQualified() && VD &&
        VD->hasGlobalStorage())
      return Value;
    return unsupported(Key, "value of " + spelled(Key) + ", an array of "
                                "type '" +
                                T.getAsString(Ctx.getPrintingPolicy()) +
                                "' kept for the reverse sweep (declare the "
                                "array const at namespace scope)");
  }
  if (const auto *RD = T->getAsCXXRecordDecl();
      RD && RD->hasDefinition() && !RD->hasDefaultConstructor() &&
      !isPlainRecord(T)) // (those start as zero bytes: see hoist)
    return unsupported(Key, "value of " + spelled(Key) + ", of type '" +
                                T.getAsString(Ctx.getPrintingPolicy()) +
                                "' without a default constructor, kept for "
                                "the reverse sweep (pass it by const "
                                "reference, or give the class a default "
                                "constructor)");
  VarDecl *Tmp = hoist("_t", T);
  Cur->push_back(B.assign(B.ref(Tmp), Value));
  Values[strip(Key)] = Tmp;
  if (Loops.empty() || Frames.empty())
    return B.ref(Tmp);
  // A value that every iteration of the inner loops computes alike (over
  // variables declared outside them and never written) is recorded once
  // per run of the outermost such loop: its statement's frame, pushed when
  // the loop ends; none outside all loops (then it stays in its temporary).
  // (Not in an iteration's recomputation, which runs in the reverse sweep.)
  int Level = D.options().LoopInvariants && !RecomputeRoot
                  ? invariantLevel(Key)
                  : -1;
  if (Level >= 0 && static_cast<size_t>(Level) < Loops.size()) {
    if (Level == 0)
      return B.ref(Tmp);
    size_t F = Loops[Level]->BodyFrame;
    if (F > 0 && F <= Frames.size() && !Frames[F - 1].JumpedOut) {
      Frames[F - 1].Recorded.push_back(Tmp);
      return B.ref(Tmp);
    }
  }
  Frames.back().Recorded.push_back(Tmp);
  return B.ref(Tmp);
}

bool PullbackBuilder::ownParam(const ParmVarDecl *P) const {
  // (Not P's DeclContext: a rewritten definition shares the parameters it
  // does not replace, driver/EntryCopies.h.)
  return llvm::is_contained(Primal->parameters(), P);
}

VarDecl *PullbackBuilder::mapVar(const VarDecl *VD) const {
  auto It = VarMap.find(VD);
  return It == VarMap.end() ? nullptr : It->second;
}

bool PullbackBuilder::stable(const VarDecl *VD) const {
  if (RevIndex.count(VD))
    return true; // recomputed by the reverse loop
  // (What a reference to an integer refers to may change under it.)
  if (plainPointer(VD) && VD->getType()->isReferenceType())
    return false;
  if (Act.isWritten(VD))
    return false;
  // A struct or complex number read whole (`z * z`, `g(s)`) after parts
  // or all of it were overwritten.
  if (Act.isDataWritten(VD) && isPlainRecord(VD->getType()))
    return false;
  // A reverse half does not take pointers, references and objects.
  if (const auto *P = dyn_cast<ParmVarDecl>(VD))
    if (Half != SplitHalf::None &&
        !Entry.reverseHalfTakes(P->getFunctionScopeIndex()))
      return false;
  if (isa<ParmVarDecl>(VD))
    return true;
  if (TopLevelLocals.count(VD))
    return true;
  // Globals that cannot change.
  return !VD->isLocalVarDeclOrParm() && VD->getType().isConstQualified();
}

Expr *PullbackBuilder::val(const Expr *E) {
  const Expr *K = strip(E);
  auto It = Values.find(K);
  if (It != Values.end())
    return B.ref(It->second);
  if (const auto *BO = dyn_cast<BinaryOperator>(K))
    if (BO->getOpcode() == BO_Comma)
      return val(BO->getRHS());
  if (isLiteral(K))
    return plain(K);
  if (isConstantTag(K))
    return plain(K);
  if (isElementAccess(K) && readOnly(K, true))
    return verifyReread(K, valPath(K));
  if (recomputable(K) && !isa<DeclRefExpr>(K))
    return recompute(K);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(K)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      auto RI = RevIndex.find(VD);
      if (RI != RevIndex.end())
        return B.ref(RI->second);
    }
    if (isa<EnumConstantDecl>(DRE->getDecl()))
      return plain(K);
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (stable(VD))
        return plain(K);
  }
  return unsupported(K, "expression whose value was not recorded "
                        "(internal error)");
}

Expr *PullbackBuilder::fwd(const Expr *E, bool Need) {
  return rebuild(E, Need, !Act.isActive(strip(E)));
}

Expr *PullbackBuilder::plain(const Expr *E) { return rebuild(E, false, true); }

Expr *PullbackBuilder::rebuildDeclRef(const DeclRefExpr *DRE, bool Need,
                                      bool Plain) {
  const ValueDecl *VD = DRE->getDecl();
  if (isa<EnumConstantDecl>(VD))
    return B.ref(const_cast<ValueDecl *>(VD));
  // A function named as a value (a comparator `std::sort(a, a + n, byAbs)`):
  // calls through the pointer are refused where they happen.
  if (const auto *FD = dyn_cast<FunctionDecl>(VD); FD && !isa<CXXMethodDecl>(FD))
    return B.funcRef(const_cast<FunctionDecl *>(FD));
  const auto *V = dyn_cast<VarDecl>(VD);
  if (!V)
    return unsupported(DRE, "reference to '" + VD->getNameAsString() + "'");
  Expr *R;
  if (V->isLocalVarDeclOrParm()) {
    VarDecl *M = mapVar(V);
    if (!M)
      return unsupported(DRE, "reference to '" + V->getNameAsString() + "'");
    R = B.ref(M);
  } else {
    // A global: its value is a constant for differentiation.
    R = B.ref(const_cast<VarDecl *>(V));
  }
  if (Need && (!stable(V) || changesAfter(V, DRE)))
    return record(DRE, R);
  return R;
}

bool PullbackBuilder::changesAfter(const VarDecl *V, const Expr *Read) const {
  // An object holding floating data (a std::vector, a struct of vectors)
  // whose data is written somewhere: read again in the reverse sweep only
  // if no write can run after this read (`h = l1.forward(h)` writes h
  // after the call reads it).
  QualType T = V->getType().getNonReferenceType();
  if (!T->isRecordType() || !hasFloatingData(T) || !Act.isDataWritten(V) ||
      RevIndex.count(V))
    return false;
  return !Act.unchangedAfter(V, Read);
}

Expr *PullbackBuilder::rebuildCast(const ExplicitCastExpr *CE, bool Need,
                                   bool Plain) {
  QualType T = CE->getTypeAsWritten();
  if (isConstantTag(CE))
    return const_cast<ExplicitCastExpr *>(CE);
  if (!T->isArithmeticType() && !T->isVoidType()) {
    // Casts of pointers without derivatives (the result of malloc) are
    // replayed; casting differentiated memory to another type is not
    // modelled.
    if (Plain && !(T->isPointerType() && storageActive(CE->getSubExpr()) &&
                   !allocation(CE).K))
      return Need ? record(CE, replay(CE)) : replay(CE);
    return unsupported(CE, "cast to '" + T.getAsString() + "'");
  }
  const Expr *SubE = CE->getSubExpr();
  // `double{}`, `value_type{e}`: braces around no value or one.
  if (const auto *IL = dyn_cast<InitListExpr>(SubE->IgnoreImplicit());
      IL && IL->getNumInits() <= 1 && !T->isVoidType()) {
    if (IL->getNumInits() == 0) {
      Expr *Z = B.zero(T.getUnqualifiedType());
      return Need ? record(CE, Z) : Z;
    }
    SubE = IL->getInit(0);
  }
  Expr *Sub = rebuild(SubE, false, Plain);
  Expr *R = B.staticCast(T, Sub);
  return Need ? record(CE, R) : R;
}

Expr *PullbackBuilder::rebuildConditional(const ConditionalOperator *CO,
                                          bool Need) {
  VarDecl *C = hoist("_c", Ctx.BoolTy);
  Cur->push_back(B.assign(B.ref(C), plain(CO->getCond())));
  Values[strip(CO->getCond())] = C;
  if (!Loops.empty() && !Frames.empty())
    Frames.back().Recorded.push_back(C);
  QualType T = CO->getType().getNonReferenceType().getUnqualifiedType();
  VarDecl *Res = hoist("_t", T);
  Stmts Then, Else;
  Stmts *Saved = Cur;
  NoHoistScope NH(*this, "in a branch of '?:'");
  Cur = &Then;
  Expr *TV = rebuild(CO->getTrueExpr(), false, false);
  Then.push_back(B.assign(B.ref(Res), TV));
  Cur = &Else;
  Expr *FV = rebuild(CO->getFalseExpr(), false, false);
  Else.push_back(B.assign(B.ref(Res), FV));
  Cur = Saved;
  Cur->push_back(B.ifStmt(B.ref(C), B.block(Then), B.block(Else)));
  Values[CO] = Res;
  if (!Loops.empty() && !Frames.empty())
    Frames.back().Recorded.push_back(Res);
  return B.ref(Res);
}

bool PullbackBuilder::shapeAllowed(const CallExpr *CE, bool Plain) {
  switch (CallShape Shape = callShape(CE)) {
  case CallShape::Function:
  case CallShape::StaticMember:
  case CallShape::Member:
  case CallShape::Destructor:
  case CallShape::FreeOperator:
  case CallShape::MemberOperator:
  case CallShape::Lambda:
  case CallShape::Functor:
  case CallShape::Builtin:
  case CallShape::Literal:
  case CallShape::PseudoDestructor:
    return true; // dispatched by rebuildCall
  case CallShape::Virtual:
  case CallShape::Variadic:
  case CallShape::FunctionPointer:
  case CallShape::MemberPointer:
    // As written where no derivative flows through it (rebuildCall refuses
    // some of these shapes even then).
    if (!Plain && (Act.isActive(CE) || writtenStorage(CE)))
      return unsupported(CE, callShapeRefusal(Ctx, CE, Shape)), false;
    return true;
  case CallShape::Kernel:
  case CallShape::Unknown:
    return unsupported(CE, callShapeRefusal(Ctx, CE, Shape)), false;
  }
  return unsupported(CE, constructName(CE)), false;
}

bool PullbackBuilder::rebuildArgs(const CallExpr *CE,
                                  llvm::function_ref<bool(unsigned)> NeedArg,
                                  bool Plain, SmallVectorImpl<Expr *> &Args) {
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    if (isa<CXXDefaultArgExpr>(CE->getArg(I)))
      break; // Sema adds default arguments again.
    Args.push_back(rebuild(CE->getArg(I), NeedArg(I), Plain));
  }
  return !Failed && !llvm::is_contained(Args, nullptr);
}

static bool noArg(unsigned) { return false; }

Expr *PullbackBuilder::rebuildCall(const CallExpr *CE, bool Need, bool Plain) {
  // std::fill(v.begin(), v.end(), x), a.fill(x): the call over pointers.
  if (const CallExpr *PF = pointerForm(Facts::get(Ctx), CE))
    return rebuildCall(PF, Need, Plain);
  if (!shapeAllowed(CE, Plain))
    return nullptr;
  // `it -= 1`, `it == v.end()` of an iterator that only marks a
  // position: as written.
  bool Step = onPosition(CE);
  Plain |= Step;
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return unsupported(CE, constructName(CE));
  // (An active one is refused with the method calls.)
  if (const CXXMethodDecl *MD = virtualDispatch(CE);
      MD && !Act.isActive(CE) && writtenStorage(CE))
    return unsupported(CE, virtualCallName(MD));
  // An accessor (`row(A, n, i)`, `at(v, i)`) computes an address: as
  // written where its result is bound to a pointer or reference, whose
  // shadow is found from what it points into.
  if (accessorArg(CE) && (Plain || CE->getType()->isPointerType())) {
    SmallVector<Expr *, 4> Args;
    rebuildArgs(CE, noArg, true, Args);
    Expr *R = B.call(B.funcRef(const_cast<FunctionDecl *>(FD)), Args);
    return Need ? record(CE, R) : R;
  }
  if (accessorArg(CE))
    return unsupported(CE, "value of '" + spelled(CE) +
                               "', a reference into '" +
                               spelled(accessorArg(CE)) +
                               "' (bind it to a local reference first)");
  if (ComplexCall CC; complexCall(CE, CC))
    return rebuildComplexCall(CE, CC, Need, Plain);
  if (!Step && writtenStorage(CE))
    return rebuildWritingCall(CE, FD, Need);
  StringRef RName = runtimeName(CE);
  if (!RName.empty())
    return rebuildRuntime(CE, RName, Need, Plain);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    return rebuildMemberCallExpr(MC, FD, Need, Plain);
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
    if (OC->getNumArgs() > 0)
      if (const LambdaExpr *L = findLambda(OC->getArg(0)))
        return unsupported(L, "call of a lambda expression (pass it to "
                              "grad::map or grad::broadcast)");
    // `a * b` with a member operator: a member call on `a`; with a free
    // one, a call of operator*(a, b) like any other.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && !MD->isStatic())
      return rebuildMemberOperator(OC, FD, Need, Plain);
  }
  return rebuildFreeCall(CE, FD, Need, Plain);
}

Expr *PullbackBuilder::rebuildWritingCall(const CallExpr *CE,
                                          const FunctionDecl *FD, bool Need) {
  // Never a silently dropped derivative: a call that writes differentiated
  // memory is differentiated (its derivative reverses the writes) or an
  // error (no body, no rule).
  if (isObjectAssignment(CE))
    return objectAssignment(CE);
  if (isContainerMutation(CE))
    return containerMutation(CE);
  bool Method = isa<CXXMethodDecl>(FD) && !cast<CXXMethodDecl>(FD)->isStatic();
  if (!Method && !runtimeName(CE).size()) {
    if (findRule(FD))
      return unsupported(CE, "call to '" + nameOf(FD) +
                                 "' that writes differentiated memory");
    return rebuildUserCall(CE, FD, Need);
  }
  if (Method && !cast<CXXMethodDecl>(FD)->getParent()->isInStdNamespace())
    return rebuildMutatingCall(CE, Need);
  return unsupported(CE, "call to '" + nameOf(FD) +
                             "' that writes differentiated memory through '" +
                             spelled(writtenStorage(CE)) + "'");
}

Expr *PullbackBuilder::rebuildMemberCallExpr(const CXXMemberCallExpr *MC,
                                             const FunctionDecl *FD, bool Need,
                                             bool Plain) {
  // Queries such as v.size() carry no derivative: replay them.
  const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
  if (ME && (Plain || !Act.isActive(MC)) && isa<CXXMethodDecl>(FD) &&
      (cast<CXXMethodDecl>(FD)->isConst() || Plain)) {
    Expr *Base = rebuild(ME->getBase(), false, true);
    SmallVector<Expr *, 4> MArgs;
    rebuildArgs(MC, noArg, true, MArgs);
    Expr *R = B.memberCall(Base, FD->getDeclName(), MArgs, ME->isArrow());
    return Need ? record(MC, R) : R;
  }
  return rebuildMethodCall(MC, Need);
}

Expr *PullbackBuilder::rebuildMemberOperator(const CXXOperatorCallExpr *OC,
                                             const FunctionDecl *FD, bool Need,
                                             bool Plain) {
  if (!Plain && Act.isActive(OC))
    return rebuildMethodCall(OC, Need);
  // No derivative (`mask[i]` of a std::vector<bool>): as written.
  Expr *Obj = rebuild(OC->getArg(0), false, true);
  SmallVector<Expr *, 2> Rest;
  for (unsigned I = 1; I < OC->getNumArgs(); ++I)
    Rest.push_back(rebuild(OC->getArg(I), false, true));
  if (Failed)
    return nullptr;
  Expr *R = B.memberCall(Obj, FD->getDeclName(), Rest);
  return Need ? record(OC, R) : R;
}

Expr *PullbackBuilder::rebuildFreeCall(const CallExpr *CE,
                                       const FunctionDecl *FD, bool Need,
                                       bool Plain) {
  if (FD->isVariadic() && !Plain)
    return unsupported(CE, "call to variadic function '" +
                               nameOf(FD) + "'");
  Expr *Callee = B.funcRef(const_cast<FunctionDecl *>(FD));
  if (Plain || !Act.isActive(CE)) {
    SmallVector<Expr *, 4> Args;
    // (False after an argument's error: nothing may use the null.)
    if (!rebuildArgs(CE, noArg, true, Args))
      return nullptr;
    Expr *R = B.call(Callee, Args);
    return Need ? record(CE, R) : R;
  }
  if (const Rule *Ru = findRule(FD))
    return rebuildRuleCall(CE, Callee, *Ru, Need);
  return rebuildUserCall(CE, FD, Need);
}

Expr *PullbackBuilder::rebuildRuleCall(const CallExpr *CE, Expr *Callee,
                                       const Rule &Ru, bool Need) {
  unsigned Uses = 0;
  for (unsigned I = 0; I < CE->getNumArgs() && I < Ru.Arity; ++I)
    if (Act.isActive(strip(CE->getArg(I))))
      Uses |= Ru.Uses[I];
  SmallVector<Expr *, 4> Args;
  if (Uses && sinCosKey(CE, Ru)) {
    // sin(x) and cos(x) from one sincos: the reverse sweep reads the
    // other value (sinCosPartial) instead of calling libm again.
    if (!rebuildArgs(CE, noArg, false, Args))
      return nullptr;
    Expr *X = Args[0];
    QualType T = CE->getType().getUnqualifiedType();
    if (!Ctx.hasSameUnqualifiedType(X->getType(), T))
      X = B.staticCast(T, X);
    Expr *Pair = record(sinCosKey(CE, Ru), B.callRuntime("sin_cos", {}, {X}));
    Expr *R = B.member(Pair, Ru.Name[0] == 's' ? "__sin" : "__cos");
    return Need ? record(CE, R) : R;
  }
  if (!rebuildArgs(
          CE, [&](unsigned I) { return ((Uses >> I) & 1) != 0; }, false, Args))
    return nullptr;
  Expr *R = B.call(Callee, Args);
  if (Need || (Uses & UsesResult))
    return record(CE, R);
  return R;
}

/// A literal, at the current location.
Expr *PullbackBuilder::rebuildLiteral(const Expr *K) {
  if (const auto *FL = dyn_cast<FloatingLiteral>(K))
    return FloatingLiteral::Create(Ctx, FL->getValue(), FL->isExact(),
                                   FL->getType(), B.Loc);
  if (const auto *IL = dyn_cast<IntegerLiteral>(K))
    return IntegerLiteral::Create(Ctx, IL->getValue(), IL->getType(),
                                  B.Loc);
  if (const auto *BL = dyn_cast<CXXBoolLiteralExpr>(K))
    return B.boolLit(BL->getValue());
  if (const auto *SL = dyn_cast<StringLiteral>(K))
    return StringLiteral::Create(Ctx, SL->getBytes(), SL->getKind(),
                                 SL->isPascal(), SL->getType(), B.Loc);
  if (isa<CXXNullPtrLiteralExpr>(K))
    return new (Ctx) CXXNullPtrLiteralExpr(Ctx.NullPtrTy, B.Loc);
  const auto *CL = cast<CharacterLiteral>(K);
  return new (Ctx) CharacterLiteral(CL->getValue(), CL->getKind(),
                                    CL->getType(), B.Loc);
}

/// A unary operator: increments hoisted when they carry a derivative.
Expr *PullbackBuilder::rebuildUnary(const UnaryOperator *UO, bool Need,
                                    bool Plain) {
  if (UO->isIncrementDecrementOp()) {
    // On memory or a value that carries no derivative (k++ in a[k++]):
    // as written.
    // A pointer moved (not the memory it points into), or a value
    // without derivatives: as written.
    if (!isFloating(UO->getSubExpr()->getType()) ||
        !Act.isActive(strip(UO->getSubExpr()))) {
      Expr *R = B.unop(UO->getOpcode(),
                       rebuild(UO->getSubExpr(), false, true));
      return Need ? record(UO, R) : R;
    }
    return hoistIncrement(UO, Need);
  }
  switch (UO->getOpcode()) {
  case UO_Minus:
  case UO_Plus:
  case UO_LNot:
  case UO_Not: {
    Expr *Sub = rebuild(UO->getSubExpr(), false, Plain);
    Expr *Out = B.unop(UO->getOpcode(), Sub);
    return Need ? record(UO, Out) : Out;
  }
  default:
    if (Plain)
      return Need ? record(UO, replay(UO)) : replay(UO);
    return unsupported(UO, constructName(UO));
  }
}

/// A binary operator: assignments, commas, and arithmetic whose operands
/// are recorded for the reverse sweep only where it reads them.
Expr *PullbackBuilder::rebuildBinary(const BinaryOperator *BO, bool Need,
                                     bool Plain) {
  BinaryOperatorKind Op = BO->getOpcode();
  if (BO->isAssignmentOp() || BO->isCompoundAssignmentOp()) {
    // Plain assignments to variables that carry no derivative (loop
    // increments such as `i += 2`) are replayed as they are.
    const auto *LV = dyn_cast<DeclRefExpr>(strip(BO->getLHS()));
    if (LV && isa<VarDecl>(LV->getDecl()) &&
        (LV->getType()->isPointerType() ||
         (!Act.isActive(cast<VarDecl>(LV->getDecl())) &&
          !storageActive(LV) && !Act.isActive(strip(BO->getRHS()))))) {
      Expr *R = B.binop(Op, rebuild(LV, false, true),
                        rebuild(BO->getRHS(), false, true));
      if (Op == BO_Assign && !Act.rootsOf(cast<VarDecl>(LV->getDecl())).empty()) {
        if (NoHoist)
          return unsupported(BO, std::string("assignment ") + NoHoistWhy);
        Cur->push_back(R);
        noteAliasDef(cast<VarDecl>(LV->getDecl()), BO->getRHS(), *Cur);
        return rebuild(LV, Need, true);
      }
      return Need ? record(BO, R) : R;
    }
    return hoistAssignment(BO, Need);
  }
  if (Op == BO_Comma) {
    if (NoHoist) {
      // Where nothing can run ahead (a loop increment `++i, --j`, a
      // branch of ?:), the comma stays; an effect with a derivative in
      // its left operand is refused by the hoist it would need.
      Expr *L = plain(BO->getLHS());
      Expr *Out = B.binop(BO_Comma, L, rebuild(BO->getRHS(), false, Plain));
      return Need ? record(BO, Out) : Out;
    }
    Cur->push_back(plain(BO->getLHS()));
    return rebuild(BO->getRHS(), Need, Plain);
  }
  // The reverse sweep reads an operand of a product only for the other
  // one's derivative, and a divisor for both (see backprop).
  bool Arith = !Plain && (Op == BO_Mul || Op == BO_Div);
  bool LA = Arith && Act.isActive(strip(BO->getLHS()));
  bool RA = Arith && Act.isActive(strip(BO->getRHS()));
  bool NeedL = RA, NeedR = LA || (Op == BO_Div && RA);
  // `x[i] * x[i]`: the value is recorded once.
  bool Square = Op == BO_Mul && NeedL && NeedR &&
                sameValue(Ctx, BO->getLHS(), BO->getRHS());
  bool Short = Op == BO_LAnd || Op == BO_LOr;
  Expr *L = rebuild(BO->getLHS(), NeedL, Plain || Short);
  if (Square)
    if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(L)) {
      auto It = Values.find(strip(BO->getLHS()));
      if (It != Values.end() && It->second == DR->getDecl()) {
        // The right operand is rebuilt for what its adjoint needs (its
        // indices), and its value is the left one's.
        VarDecl *V = It->second;
        Expr *Rr = rebuild(BO->getRHS(), false, Plain);
        Values[strip(BO->getRHS())] = V;
        Expr *Out = B.binop(Op, L, Rr);
        return Need ? record(BO, Out) : Out;
      }
    }
  // The right operand of && and || runs only sometimes: no side
  // effect can be hoisted out of it.
  NoHoistScope NH(*this, Short ? (Op == BO_LAnd ? "on the right of '&&'"
                                                : "on the right of '||'")
                               : nullptr);
  Expr *Rr = rebuild(BO->getRHS(), NeedR, Plain || Short);
  Expr *Out = B.binop(Op, L, Rr);
  return Need ? record(BO, Out) : Out;
}

/// A call: as the expression the plugin differentiates it as (a
/// selector's ?:, the call over pointers, the lifted lambda), or itself.
Expr *PullbackBuilder::rebuildCallForm(const CallExpr *CE, bool Need,
                                       bool Plain) {
  const Expr *K = CE;
  // A call the plugin differentiates as another expression: rebuilt as
  // that one, whose recorded value is the call's too.
  auto As = [&](const Expr *Sub) {
    Expr *R = rebuild(Sub, Need, Plain);
    auto It = Values.find(strip(Sub));
    if (It != Values.end())
      Values[K] = It->second;
    return R;
  };
  // std::min(a, b, comp): the '?:' it evaluates.
  if (hasComparator(Facts::get(Ctx), CE))
    return As(selectorForm(Facts::get(Ctx), CE));
  // std::accumulate(v.begin(), v.end(), 0.0): the call over pointers.
  if (const CallExpr *PF = pointerForm(Facts::get(Ctx), CE))
    return As(PF);
  const CallExpr *LC = lambdaCall(CE);
  if (!LC)
    return nullptr;
  if (LC != CE)
    return As(LC); // the lifted lambda
  return rebuildCall(CE, Need, Plain);
}

Expr *PullbackBuilder::rebuild(const Expr *E, bool Need, bool Plain) {
  if (!E || Failed)
    return nullptr;
  const Expr *K = strip(E);
  if (!Plain && !Act.isActive(K))
    Plain = true;
  SourceLocation Saved = B.Loc;
  B.Loc = K->getExprLoc();
  struct Restore {
    SourceLocation &L, V;
    ~Restore() { L = V; }
  } R{B.Loc, Saved};

  if (isLiteral(K))
    return rebuildLiteral(K);
  if (isElementAccess(K))
    return rebuildElement(K, Need, Plain);
  if (const Expr *Temp = temporaryRoot(Ctx, K)) {
    // Gauss{b, a}.inv, Poly(a, b).c[2]: on the rebuilt temporary.
    Expr *R = onTemporaryPath(B, K, rebuild(Temp, false, Plain));
    if (!R)
      return Failed ? nullptr : unsupported(K, constructName(K));
    return Need ? record(K, R) : R;
  }
  if (const auto *TE = dyn_cast<CXXThisExpr>(K))
    return S.BuildCXXThisExpr(B.Loc, TE->getType(), /*IsImplicit=*/false);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(K))
    return rebuildDeclRef(DRE, Need, Plain);
  if (const auto *UO = dyn_cast<UnaryOperator>(K))
    return rebuildUnary(UO, Need, Plain);
  if (const auto *BO = dyn_cast<BinaryOperator>(K))
    return rebuildBinary(BO, Need, Plain);
  if (const auto *CO = dyn_cast<ConditionalOperator>(K))
    return Plain ? rebuildPlainConditional(CO, Need)
                 : rebuildConditional(CO, Need);
  // std::pair<double, double>{a, b}, std::make_pair(a, b),
  // std::make_tuple(a, b, c).
  if (auto Els = tupleElements(K); !Els.empty())
    return rebuildBracedElements(K, Els, Plain);
  // std::vector<double>{a, b}: the elements rebuilt.
  if (const InitListExpr *IL = bracedVector(K))
    return rebuildBracedElements(K, {IL->getInits(), IL->getNumInits()}, Plain);
  if (const CXXConstructExpr *CC = complexConstruction(K)) {
    // std::complex<double>(re, im): as written.
    Expr *R = rebuildConstruction(CC, Plain);
    return Need && R ? record(K, R) : R;
  }
  SmallVector<std::pair<const FieldDecl *, const Expr *>, 4> MW;
  if (const auto *CC = dyn_cast<CXXConstructExpr>(K);
      CC && memberwiseInit(CC, MW))
    // Vec3(x, y, z) through a member-wise constructor: as written, with the
    // arguments rebuilt.
    return rebuildConstruction(CC, Plain);
  if (const CXXConstructExpr *UC = userConstruction(K))
    return rebuildUserConstruction(UC, Need, Plain);
  if (const auto *CE = dyn_cast<CallExpr>(K))
    return rebuildCallForm(CE, Need, Plain);
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(K))
    return rebuildCast(EC, Need, Plain);
  if (const auto *IL = dyn_cast<InitListExpr>(K);
      IL && (IL->getType()->isRecordType() || IL->getType()->isArrayType()))
    return rebuildAggregateBraces(IL, Plain);
  // Anything else without derivatives is replayed as written.
  if (Plain)
    return Need ? record(K, replay(K)) : replay(K);
  // `Poly p({a, b});` of a class that is not a struct of numbers.
  if (const auto *CC = dyn_cast<CXXConstructExpr>(K);
      CC && CC->getConstructor()->isUserProvided() &&
      !CC->getConstructor()->isCopyOrMoveConstructor() &&
      CC->getType()->getAsCXXRecordDecl() &&
      !CC->getType()->getAsCXXRecordDecl()->isInStdNamespace())
    return unsupported(K, constructName(K) +
                              " by its constructor from differentiated "
                              "values (construct it from values without "
                              "derivatives, then assign its members)");
  return unsupported(K, constructName(K));
}

Expr *PullbackBuilder::rebuildPlainConditional(const ConditionalOperator *CO,
                                               bool Need) {
  Expr *C = plain(CO->getCond());
  NoHoistScope NH(*this, "in a branch of '?:'");
  Expr *Out = B.cond(C, plain(CO->getTrueExpr()), plain(CO->getFalseExpr()));
  return Need ? record(CO, Out) : Out;
}

Expr *PullbackBuilder::rebuildBracedElements(const Expr *K,
                                             ArrayRef<const Expr *> Els,
                                             bool Plain) {
  SmallVector<Expr *, 4> Args;
  for (const Expr *El : Els)
    Args.push_back(rebuild(El, false, Plain));
  if (Failed)
    return nullptr;
  Expr *R = B.construct(K->getType(), Args, /*List=*/true);
  return R ? R : unsupported(K, constructName(K));
}

Expr *PullbackBuilder::rebuildAggregateBraces(const InitListExpr *IL,
                                              bool Plain) {
  // Braces of a class type: each member's initializer as an operand.
  Expr *L = rebuildBraces(IL, Plain);
  if (L && IL->getType()->isRecordType()) {
    L = B.construct(IL->getType(), {L}, /*List=*/true);
    if (!L)
      unsupported(IL, constructName(IL));
  }
  return L;
}

} // namespace grad
