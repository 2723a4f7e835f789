//===- Declarations.cpp - Local declarations and their shadows --*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Local variables in the derivative: scalars, aliases (pointers and
/// references), storage (arrays, containers, structs, complex numbers) with
/// its adjoint storage, structured bindings, and `a = b` on objects. Each
/// declaration is emitted in the forward sweep; what its initializer
/// receives comes back when the reverse sweep reaches it.
///
//===----------------------------------------------------------------------===//

#include "analysis/Positions.h"
#include "ast/Diagnostics.h"
#include "lift/Lift.h"
#include "reverse/PullbackBuilder.h"
#include "ast/Records.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

static const Expr *strip(const Expr *E) { return stripExpr(E); }


StringRef PullbackBuilder::localName(const VarDecl *VD) {
  if (VD->getIdentifier() || !isa<DecompositionDecl>(VD))
    return VD->getName();
  // The hidden object of a structured binding.
  std::string &N = LocalNames[VD];
  if (N.empty())
    N = fresh("_b");
  return N;
}

VarDecl *PullbackBuilder::adjointOf(const VarDecl *VD) {
  auto It = Adjoints.find(VD);
  if (It != Adjoints.end())
    return It->second;
  // (Unqualified down to the elements: `const double w[2]` has the adjoint
  // `double _d_w[2]`.)
  Qualifiers Q;
  QualType T = Ctx.getUnqualifiedArrayType(VD->getType().getNonReferenceType(), Q);
  // Zero, also for std::array and structs of floating members: `{}` (or,
  // for a class whose default constructor may not zero, its zero bytes).
  Expr *Init = isPlainRecord(T) ? recordZero(B, T)
               : (T->isArrayType() || T->isRecordType()) ? B.emptyInitList()
                                                         : B.zero(T);
  if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
    unsigned I = P->getFunctionScopeIndex();
    if (I < Sig.AdjointIndex.size() && Sig.AdjointIndex[I] >= 0 &&
        classifyParam(Ctx, P->getType()).Kind == ParamKind::ScalarRef)
      Init = B.deref(B.ref(param(Sig.AdjointIndex[I])));
  }
  VarDecl *A = B.var(PB, fresh("_d_" + localName(VD).str() + "_"), T, Init);
  Prologue.push_back(B.declStmt(A));
  Adjoints[VD] = A;
  return A;
}

void PullbackBuilder::declStmt(const DeclStmt *DS, Stmts &Fwd, Stmts &Rev) {
  Stmts Blocks;
  for (const Decl *Dc : DS->decls()) {
    const auto *VD = dyn_cast<VarDecl>(Dc);
    if (!(VD ? localDecl(DS, VD, Fwd, Blocks) : localTypeDecl(DS, Dc)))
      return;
  }
  Rev.insert(Rev.end(), Blocks.begin(), Blocks.end());
}

bool PullbackBuilder::localTypeDecl(const DeclStmt *DS, const Decl *Dc) {
  if (isa<TypedefNameDecl>(Dc) || isa<StaticAssertDecl>(Dc) ||
      isa<UsingDecl>(Dc) || isa<UsingDirectiveDecl>(Dc))
    return true; // Compile-time only; visible to the pullback already?
  // A local struct or enum: declared again, as written, at the top of
  // the derivative (its shadows and temporaries are declared there).
  std::string Why;
  if (!replayableLocalType(Dc, Why)) {
    unsupported(DS, Why);
    return false;
  }
  if (LocalTypeSet.insert(Dc).second)
    LocalTypes.push_back(new (Ctx)
                             DeclStmt(DeclGroupRef(const_cast<Decl *>(Dc)),
                                      DS->getBeginLoc(), DS->getEndLoc()));
  return true;
}

bool PullbackBuilder::localRefused(const DeclStmt *DS, const VarDecl *VD) {
  QualType T = VD->getType();
  if (VD->isStaticLocal()) {
    unsupported(DS, "static local variable '" + VD->getNameAsString() + "'");
    return true;
  }
  if (T.isVolatileQualified()) {
    unsupported(DS, "volatile variable '" + VD->getNameAsString() + "'");
    return true;
  }
  if (isFloatingIterator(T) && !positionOnly(VD) &&
      (Act.isActive(VD) ||
       (VD->hasInit() && pointsIntoActive(VD->getInit())))) {
    unsupported(VD, iteratorLocalWhy(VD));
    return true;
  }
  return false;
}

bool PullbackBuilder::localDecl(const DeclStmt *DS, const VarDecl *VD,
                                Stmts &Fwd, Stmts &Blocks) {
  DeclDepth[VD] = Loops.size();
  modelled(VD);
  QualType T = VD->getType();
  const auto *DD = dyn_cast<DecompositionDecl>(VD);
  if (DD && T->isArrayType() && !T->isReferenceType()) {
    // (A copy of an array: its elements are copied one by one.)
    unsupported(DS, "structured binding of a copy of an array (bind a "
                    "reference, 'auto &[a, b] = arr;', or name the "
                    "elements)");
    return false;
  }
  // A constant table: read as written; anything else static is shared
  // state.
  if (VD->isStaticLocal() && T.isConstQualified() && !Act.isActive(VD)) {
    VarMap[VD] = const_cast<VarDecl *>(VD);
    return true;
  }
  if (localRefused(DS, VD))
    return false;
  if (const LambdaExpr *L = initLambda(VD)) {
    // A callable: lifted where it is called. Its copies of what the
    // function assigns later are made here.
    Stmts R;
    declareCaptureCopies(VD, L, Fwd, R);
    if (Failed)
      return false;
    Blocks.insert(Blocks.begin(), R.begin(), R.end());
    if (captureFreeObject(VD)) {
      VarDecl *NV = Replayer::lambdaVariable(S, PB, localName(VD),
                                             const_cast<LambdaExpr *>(L));
      if (!NV) {
        unsupported(DS, "declaration of '" + VD->getNameAsString() + "'");
        return false;
      }
      Fwd.push_back(B.declStmt(NV));
      VarMap[VD] = NV;
    }
    return true;
  }
  // Locals without derivatives are declared as written (strings, streams,
  // integer tables, ...); pointers and references are tracked.
  QualType NR = T.getNonReferenceType();
  bool Alias =
      (T->isReferenceType() || NR->isPointerType()) && !plainPointer(VD);
  // (`int &r = i;`: a name for i, through which i changes, not a copy;
  // `const int &r = i;` sees what later writes to i do.)
  bool IntRef = T->isLValueReferenceType() && NR->isIntegralOrEnumerationType();
  if (!Act.isActive(VD) && !Alias &&
      (!(NR->isArithmeticType() && VD->hasInit()) || IntRef) &&
      (!containsLambda(VD->getInit()) || positionOnly(VD)))
    return inactiveLocalDecl(VD, Fwd);
  if (T->isArrayType() || T->isRecordType()) {
    storageDecl(VD, Fwd, Blocks);
    return !Failed;
  }
  if (Alias && Act.isAlias(VD))
    return aliasDecl(VD, Fwd, Blocks);
  return scalarDecl(DS, VD, Fwd, Blocks);
}

bool PullbackBuilder::inactiveLocalDecl(const VarDecl *VD, Stmts &Fwd) {
  // `View v{a, n}` (a struct holding `const double *p`) pointing into
  // differentiated memory: reads through it would carry derivatives
  // nobody tracks.
  // Likewise an array or container of pointers (`double *rows[2] =
  // {r0, r1}`), however the pointer gets in.
  QualType NR = VD->getType().getNonReferenceType();
  if (const Expr *At =
          storesFloatingPointers(NR) ? activePointerStore(VD) : nullptr) {
    std::string What = "local variable of type '" +
                       NR.getAsString(Ctx.getPrintingPolicy()) + "'";
    if (At == VD->getInit())
      unsupported(VD, What + " holding a pointer into differentiated "
                             "memory (pass the pointer itself)");
    else
      unsupported(At, "pointer into differentiated memory stored in '" +
                          VD->getNameAsString() + "', a " + What +
                          " (pass the pointer itself)");
    return false;
  }
  VarDecl *NV = replayDecl(VD);
  if (!NV)
    return false;
  Fwd.push_back(B.declStmt(NV));
  declareBindings(VD, Fwd);
  return true;
}

bool PullbackBuilder::aliasDecl(const VarDecl *VD, Stmts &Fwd, Stmts &Blocks) {
  // A local pointer or reference: declared as written; its shadow is
  // the shadow of what it points into, at the same offset.
  if (Act.isActive(VD) &&
      !aliasIntoObjectBytes(VD, VD->hasInit() ? VD->getInit() : nullptr))
    return false;
  // (`double *p = new double(x)`: the value it starts with is rebuilt
  // for its derivative.)
  const auto *NE = VD->hasInit() && Act.isOwner(VD) && Act.isActive(VD)
                       ? dyn_cast<CXXNewExpr>(VD->getInit()->IgnoreParenCasts())
                       : nullptr;
  Expr *Init = NE && newObjectInit(NE) ? rebuildNewObject(NE)
               : VD->hasInit()         ? plain(VD->getInit())
                                       : nullptr;
  if (Failed)
    return false;
  VarDecl *NV = B.var(PB, localName(VD), VD->getType(), Init);
  VarMap[VD] = NV;
  Fwd.push_back(B.declStmt(NV));
  declareBindings(VD, Fwd);
  if (!Act.isActive(VD))
    return true;
  Stmts *SavedCur = Cur;
  Cur = &Fwd;
  if (Act.isOwner(VD))
    ownerDecl(VD, Blocks);
  else if (Act.isLoadedAlias(VD))
    declareLoadedAlias(VD);
  else if (!Act.rootsOf(VD).empty())
    noteAliasDef(VD, VD->getInit(), Fwd);
  else
    declareAlias(VD);
  Cur = SavedCur;
  return true;
}

bool PullbackBuilder::scalarDecl(const DeclStmt *DS, const VarDecl *VD,
                                 Stmts &Fwd, Stmts &Blocks) {
  // A const reference that is a value (bound to a temporary, or to what
  // std::max of constants returns): a copy of it.
  QualType T = VD->getType();
  if (T->isReferenceType() && T.getNonReferenceType()->isArithmeticType())
    T = T.getNonReferenceType();
  if (!T->isArithmeticType() && !T->isEnumeralType()) {
    const Expr *I = VD->hasInit() ? strip(VD->getInit()) : nullptr;
    if (I && isa<CXXNewExpr>(I))
      unsupported(I, constructName(I));
    else
      unsupported(DS, "local variable of type '" + T.getAsString() + "'");
    return false;
  }
  Expr *Init = VD->hasInit() ? fwd(VD->getInit(), false) : nullptr;
  if (Failed)
    return false;
  VarDecl *NV = B.var(PB, localName(VD), T, Init);
  VarMap[VD] = NV;
  Fwd.push_back(B.declStmt(NV));
  if (!Act.isActive(VD))
    return true;
  VarDecl *A = adjointOf(VD);
  Stmts R;
  if (VD->hasInit() && Act.isActive(strip(VD->getInit())))
    backprop(VD->getInit(), B.ref(A), R);
  R.push_back(B.assign(B.ref(A), B.zero(A->getType())));
  Blocks.insert(Blocks.begin(), R.begin(), R.end());
  return true;
}

void PullbackBuilder::declareCaptureCopies(const VarDecl *F,
                                           const LambdaExpr *L, Stmts &Fwd,
                                           Stmts &Rev) {
  for (auto [V, Init] : copiedCaptures(L)) {
    VarDecl *&C = CaptureCopies[{L, V}];
    if (!C) {
      C = captureCopy(Ctx, V, Init, L,
                      fresh((V->getName() + "_at_" + F->getName()).str()));
      Act.addCopy(C, V, L);
    }
    auto *DS = new (Ctx) DeclStmt(DeclGroupRef(C), L->getBeginLoc(),
                                  L->getBeginLoc());
    Stmts R;
    declStmt(DS, Fwd, R);
    Rev.insert(Rev.begin(), R.begin(), R.end());
  }
}

bool plainPointer(const VarDecl *VD) {
  QualType T = VD->getType();
  QualType P = T->isReferenceType() ? T.getNonReferenceType()
               : T->isPointerType() ? T->getPointeeType()
                                    : QualType();
  // (void * and pointers to pointers may reach floating data; a function
  // pointer would be called.)
  return !P.isNull() && !P->isDependentType() && !P->isVoidType() &&
         !P->isFunctionType() &&
         !P->isPointerType() && !P->isReferenceType() &&
         !P->isArrayType() && !hasFloatingData(P) &&
         !storesFloatingPointers(P) && !holdsWritablePointer(P) &&
         !isFloatingIterator(P);
}

/// True if the lvalue or pointer \p E may reach an element of a container
/// (`&m.data[k]`, `m.data.data() + k`, `&d[k]`, `&m(i, j)`): through a call.
static bool throughContainer(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      E = UO->getSubExpr();
    } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      E = AS->getBase();
    } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      E = ME->getBase();
    } else if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                   : BO->getRHS();
    } else if (isa<CallExpr>(E)) {
      // `v[k]`, `v.data()`, and accessors of the class (`m(i, j)`): they
      // may return into the container's memory.
      return true;
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      return throughContainer(CO->getTrueExpr()) ||
             throughContainer(CO->getFalseExpr());
    } else {
      return false;
    }
  }
  return false;
}

bool PullbackBuilder::aliasIntoObjectBytes(const VarDecl *VD,
                                           const Expr *Def) {
  if (!Def || !throughContainer(Def))
    return true;
  SmallVector<const VarDecl *, 2> Rs(Act.rootsOf(VD));
  if (const VarDecl *R = Act.storageOf(VD); R && R != VD)
    Rs.push_back(R);
  QualType Pointee = VD->getType()->isReferenceType()
                         ? VD->getType().getNonReferenceType()
                         : VD->getType()->getPointeeType();
  for (const VarDecl *R : Rs) {
    QualType RT = R->getType().getNonReferenceType();
    const auto *RD = RT->getAsCXXRecordDecl();
    if (!RD || isPlainRecord(RT))
      continue;
    // Into a container member, the same one at every definition
    // (`double *r = &m.data[i * n]`): at an offset from its data().
    if (!Act.memberPathOf(VD).empty())
      continue;
    bool Container = !containerName(RT).empty();
    QualType ET = Container ? elementTypeOf(Ctx, RT) : QualType();
    // A container's own elements (or one of them as a whole, `const
    // std::vector<double> &row = m[i]`) are at an offset from its data().
    if (Container && (ET.isNull() || isFloating(ET) || isPlainRecord(ET) ||
                      Ctx.hasSameUnqualifiedType(ET, Pointee)))
      continue;
    // `double *r = &m.data[i * m.cols]`, `m[i].data()` of a vector of
    // vectors: memory of a member or an element is not at an offset from
    // the object.
    unsupported(Def, "pointer or reference '" + VD->getNameAsString() +
                         "' into the elements of " +
                         (Container ? "an element" : "a container member") +
                         " of '" + R->getNameAsString() + "' (of type '" +
                         RT.getUnqualifiedType().getAsString(
                             Ctx.getPrintingPolicy()) +
                         "'): index " + (Container ? "it" : "the member") +
                         " instead");
    return false;
  }
  return true;
}

/// What a local array, container or struct is, for its shadow, and its
/// rebuilt initializer.
struct PullbackBuilder::LocalStorage {
  bool IsArray = false, IsVector = false, IsStdArray = false, IsTensor = false,
       IsStruct = false;
  /// Why it is none of the kinds above, if known.
  std::string Why;
  bool any() const {
    return IsArray || IsVector || IsStdArray || IsTensor || IsStruct;
  }
  /// The initializer: a copy's constructor, the rebuilt initializer, and
  /// how its derivative flows back (computed by an expression, or element
  /// by element through SI).
  const CXXConstructExpr *Ctor = nullptr;
  bool Copy = false;
  Expr *NewInit = nullptr;
  bool Direct = false, Computed = false;
  StorageInit SI;
};

PullbackBuilder::LocalStorage
PullbackBuilder::classifyStorage(QualType T) const {
  LocalStorage L;
  // Arrays of numbers, and of structs whose `{}` zeroes them (`Pt pts[3]`).
  QualType Elem = QualType(T->getPointeeOrArrayElementType(), 0);
  const auto *ElemRD = Elem->getAsCXXRecordDecl();
  L.IsArray = T->isConstantArrayType() &&
              (Elem->isArithmeticType() ||
               (isPlainStruct(Elem) && !isComplex(Elem) && ElemRD &&
                ElemRD->hasTrivialDefaultConstructor()));
  StringRef RecName = containerName(T);
  bool Container = !L.IsArray && hasFloatingData(T);
  L.IsVector = Container && RecName == "vector";
  L.IsStdArray = Container && RecName == "array";
  L.IsTensor = Container && RecName == "tensor";
  // A struct of floating members (Vec3, std::pair<double, double>): its
  // members are its elements.
  L.IsStruct = Container && !L.IsVector && !L.IsStdArray && !L.IsTensor &&
               isPlainRecord(T, &L.Why);
  // A container of structs that are not plain.
  QualType VE = L.IsVector || L.IsStdArray ? elementTypeOf(Ctx, T) : QualType();
  if (!VE.isNull() && VE->isRecordType() && !isComplex(VE) &&
      !VE.isTriviallyCopyableType(Ctx)) {
    L.IsVector = L.IsStdArray = false;
    L.Why = "a container of '" + VE.getAsString(Ctx.getPrintingPolicy()) +
            "': keep the elements in one std::vector, indexed i * n + j";
  }
  return L;
}

bool PullbackBuilder::ownsElements(QualType T, std::string &Why) const {
  std::string OwnerWhy;
  if (isElementOwner(T, &OwnerWhy))
    return true;
  // (What stands in the way of a copy as the shadow, if the type is not
  // plain for owning memory.)
  const auto *RD = T->getAsCXXRecordDecl();
  if (!T.isTriviallyCopyableType(Ctx) && !OwnerWhy.empty() &&
      !(RD && RD->hasUserDeclaredDestructor() && !destroysNothing(RD)))
    Why = OwnerWhy;
  return false;
}

void PullbackBuilder::storageDecl(const VarDecl *VD, Stmts &Fwd,
                                  Stmts &Blocks) {
  QualType T = VD->getType();
  LocalStorage L = classifyStorage(T);
  if (!L.IsArray && T->isRecordType() && !hasFloatingData(T) && VD->hasInit() &&
      !Act.isActive(strip(VD->getInit()))) {
    // A value without derivatives (a mask from a comparison map, ...).
    VarDecl *NV = B.var(PB, localName(VD), T, fwd(VD->getInit(), false));
    VarMap[VD] = NV;
    Fwd.push_back(B.declStmt(NV));
    return;
  }
  // A container of containers (`std::vector<std::vector<double>> m(n,
  // std::vector<double>(k))`), or an object owning its elements: its
  // shadow is a copy, which has the inner sizes too.
  if (isNestedContainer(T) || (!L.any() && hasFloatingData(T) &&
                               T->isRecordType() && ownsElements(T, L.Why))) {
    elementOwnerDecl(VD, Fwd, Blocks);
    return;
  }
  if (!L.any()) {
    if (!Failed) {
      report(S.Diags, Diag::UnsupportedConstruct, VD->getLocation())
          << ("local variable of type '" +
              (T->getContainedAutoType() ? T.getCanonicalType() : T)
                  .getAsString(Ctx.getPrintingPolicy()) +
              "'" + (L.Why.empty() ? std::string() : " (" + L.Why + ")"))
          << nameOf(Primal);
      D.noteRequest(Entry);
    }
    Failed = true;
    return;
  }
  if (!storageInitializer(VD, L) || Failed)
    return;
  QualType CT = T.getCanonicalType();
  VarDecl *NV =
      VarDecl::Create(Ctx, PB, B.Loc, B.Loc, &Ctx.Idents.get(localName(VD)), CT,
                      Ctx.getTrivialTypeSourceInfo(CT, B.Loc), SC_None);
  if (L.NewInit)
    S.AddInitializerToDecl(NV, L.NewInit, L.Direct);
  else
    S.ActOnUninitializedDecl(NV);
  VarMap[VD] = NV;
  Fwd.push_back(B.declStmt(NV));
  declareBindings(VD, Fwd);
  if (!Act.isActive(VD))
    return;
  if (L.Computed || L.IsTensor)
    computedStorageShadow(VD, NV, L, Fwd, Blocks);
  else
    elementStorageShadow(VD, NV, L, Fwd, Blocks);
}

bool PullbackBuilder::storageInitializer(const VarDecl *VD, LocalStorage &L) {
  QualType T = VD->getType();
  const Expr *Init = VD->hasInit() ? strip(VD->getInit()) : nullptr;
  L.Ctor = dyn_cast_or_null<CXXConstructExpr>(Init);
  // `Pt tmp[2];`: the elements' trivial default construction.
  if (L.IsArray && L.Ctor && L.Ctor->getNumArgs() == 0) {
    Init = nullptr;
    L.Ctor = nullptr;
  }
  L.Copy = L.Ctor && L.Ctor->getConstructor()->isCopyOrMoveConstructor();
  // A complex number is a value: any initializer is an expression.
  if (Init && L.IsStruct &&
      (userConstruction(Init) ||
       (isTuple(T) && !tupleElements(Init).empty()))) {
    // Polar p(r, t) through a constructor that computes members: its
    // pullback sends the local's adjoint to the arguments.
    L.NewInit = fwd(VD->getInit(), false);
    L.Computed = true;
  } else if (Init && !L.Copy && !isComplex(T) &&
             (isa<InitListExpr>(Init) || isa<CXXConstructExpr>(Init) ||
              !tupleElements(Init).empty())) {
    // Braces or a constructor: elements, or (count, value), may carry
    // derivatives; their adjoints come back from the shadow's elements.
    if (!storageInit(VD, Init, L.SI))
      return false;
    L.NewInit = L.SI.FwdInit;
    L.Direct = L.SI.Direct;
  } else if (L.Copy && L.Ctor->getNumArgs() >= 1) {
    // A copy of another container: the copy's adjoint flows back into it
    // (`k ? a : b` records its condition).
    L.NewInit = rebuild(L.Ctor->getArg(0), false,
                        !Act.isActive(strip(L.Ctor->getArg(0))));
    L.Computed = true;
  } else if (Init && !L.IsArray) {
    // A container computed by an expression (a map, ...).
    L.NewInit = fwd(VD->getInit(), false);
    L.Computed = true;
  } else if (Init) {
    unsupported(Init, "initializer of a local array");
    return false;
  }
  return true;
}

void PullbackBuilder::computedStorageShadow(const VarDecl *VD, VarDecl *NV,
                                            const LocalStorage &L, Stmts &Fwd,
                                            Stmts &Blocks) {
  // Shaped like the value; the initializer's adjoint flows back when the
  // reverse sweep reaches the declaration.
  VarDecl *A = adjointOf(VD);
  QualType CT = VD->getType().getCanonicalType();
  if (L.IsVector)
    Fwd.push_back(
        zeroFill(B, B.ref(A), B.memberCall(B.ref(NV), "size", {}), CT));
  else if (!L.IsStdArray && !L.IsStruct)
    Fwd.push_back(B.assign(B.ref(A), B.callGrad("zeros_like", {B.ref(NV)})));
  Stmts R;
  const Expr *Source = L.Copy ? L.Ctor->getArg(0) : VD->getInit();
  if (L.Computed && Act.isActive(strip(Source)))
    backprop(Source, B.ref(A), R);
  else if (!L.Computed)
    reverseStorageInit(L.SI, A, R); // tensor(shape, x): x gets the sum
  R.push_back(B.callRuntime("zero", {}, {B.ref(A)}));
  Blocks.insert(Blocks.begin(), R.begin(), R.end());
}

void PullbackBuilder::elementStorageShadow(const VarDecl *VD, VarDecl *NV,
                                           const LocalStorage &L, Stmts &Fwd,
                                           Stmts &Blocks) {
  // The initializer's elements receive the adjoints of the elements they
  // initialised, when the reverse sweep reaches the declaration.
  VarDecl *A = adjointOf(VD);
  QualType CT = VD->getType().getCanonicalType();
  Stmts InitRev;
  reverseStorageInit(L.SI, A, InitRev);
  Stmt *Zero;
  if (L.IsVector) {
    // Same size as the primal, zero: sized here, zeroed again when the
    // reverse sweep reaches the declaration.
    Fwd.push_back(
        zeroFill(B, B.ref(A), B.memberCall(B.ref(NV), "size", {}), CT));
    Zero = zeroFill(B, B.ref(A), B.memberCall(B.ref(A), "size", {}), CT);
  } else {
    // Arrays of any rank and std::array: zeroed in place.
    Zero = B.callRuntime("zero", {}, {B.ref(A)});
  }
  Blocks.insert(Blocks.begin(), Zero);
  Blocks.insert(Blocks.begin(), InitRev.begin(), InitRev.end());
}

std::pair<VarDecl *, VarDecl *>
PullbackBuilder::shadowSlot(StringRef Name, QualType T) {
  QualType SlotT = B.runtimeType("slot", {B.typeArg(T)}, /*Detail=*/true);
  if (SlotT.isNull()) {
    D.needRuntime(B.Loc, Entry);
    Failed = true;
    return {nullptr, nullptr};
  }
  VarDecl *Slot = B.var(PB, fresh((Name + "_s").str()), SlotT, nullptr);
  VarDecl *A = B.var(PB, fresh((Name + "_").str()), Ctx.getLValueReferenceType(T),
                     B.memberCall(B.ref(Slot), "get", {}));
  Prologue.push_back(B.declStmt(Slot));
  Prologue.push_back(B.declStmt(A));
  return {Slot, A};
}

void PullbackBuilder::copyShadow(VarDecl *Slot, Expr *Value, QualType T,
                                 llvm::function_ref<Expr *()> Shadow,
                                 Stmts &Out) {
  Out.push_back(B.memberCall(B.ref(Slot), "emplace", {Value}));
  zeroFloatingData(B, T, Shadow, Out);
}

Stmt *PullbackBuilder::zeroShapedLike(Expr *Shadow, Expr *Value, QualType T) {
  if (isStdClass(T, "vector"))
    return zeroFill(B, Shadow, B.memberCall(Value, "size", {}), T);
  return B.assign(Shadow, B.callGrad("zeros_like", {Value}));
}

void PullbackBuilder::elementOwnerDecl(const VarDecl *VD, Stmts &Fwd,
                                       Stmts &Blocks) {
  Qualifiers Q;
  QualType T = Ctx.getUnqualifiedArrayType(VD->getType().getCanonicalType(), Q);
  const Expr *Init = VD->hasInit() ? strip(VD->getInit()) : nullptr;
  // `Mat c = a;`, `auto c = std::move(a);`: a copy of a variable, whose
  // shadow receives the copy's adjoints where the reverse sweep reaches the
  // declaration.
  // A copy of another expression (`Mat c = k ? a : b;`) is computed from it.
  const Expr *From = nullptr, *CopyOf = nullptr;
  if (const auto *CC = dyn_cast_or_null<CXXConstructExpr>(Init);
      CC && CC->getNumArgs() >= 1 &&
      CC->getConstructor()->isCopyOrMoveConstructor()) {
    const Expr *A = strip(CC->getArg(0));
    if (const Expr *M = movedArg(A))
      A = strip(M);
    const auto *DRE = dyn_cast<DeclRefExpr>(A);
    if (DRE && isa<VarDecl>(DRE->getDecl()) &&
        Ctx.hasSameUnqualifiedType(A->getType().getNonReferenceType(), T))
      From = A;
    else
      CopyOf = A;
  }
  // `Mat m = make(x);`, `Grid g{{x, 2 * x}, 0.5};`, `Mat m(n, n, x);`: a
  // value computed from differentiated values, whose adjoint is the shadow
  // where the reverse sweep reaches the declaration (a call's pullback
  // takes it as its seed).
  const Expr *Computed = nullptr;
  if (Init && Act.isActive(Init) && !From)
    Computed = CopyOf ? CopyOf : VD->getInit();
  // Declared as written (a computed one from its rebuilt initializer).
  VarDecl *NV = nullptr;
  if (Computed) {
    if (isa<CallExpr>(strip(Computed)))
      DeclaredCall = strip(Computed);
    Expr *NewInit = fwd(Computed, false);
    DeclaredCall = nullptr;
    if (Failed)
      return;
    NV = VarDecl::Create(Ctx, PB, VD->getBeginLoc(), VD->getLocation(),
                         &Ctx.Idents.get(localName(VD)), VD->getType(),
                         VD->getTypeSourceInfo(), SC_None);
    S.AddInitializerToDecl(NV, NewInit, /*DirectInit=*/false);
    VarMap[VD] = NV;
  } else {
    NV = replayDecl(VD);
  }
  if (!NV)
    return;
  Fwd.push_back(B.declStmt(NV));
  if (!Act.isActive(VD))
    return;
  VarDecl *Slot, *A;
  std::tie(Slot, A) = shadowSlot("_d_" + localName(VD).str(), T);
  if (!Slot)
    return;
  Adjoints[VD] = A;
  OwnerSlots[VD] = Slot;
  // A copy of the object (its sizes), floating data zero.
  copyShadow(Slot, B.ref(NV), T, [&]() -> Expr * { return B.ref(A); }, Fwd);
  if (const Expr *Src = From ? From : Computed; Src && Act.isActive(strip(Src))) {
    Stmts R;
    backprop(Src, B.ref(A), R);
    Blocks.insert(Blocks.begin(), R.begin(), R.end());
  }
  keepOwnerShadow(VD, Slot, Fwd);
}

void PullbackBuilder::keepOwnerShadow(const VarDecl *VD, VarDecl *Slot,
                                      Stmts &Fwd) {
  if (!Loops.empty()) {
    // Saved where the block that declares it exits (restoreExitSizes),
    // else here.
    bool AtExit = false;
    for (const Frame &F : Frames)
      for (auto [Z, V] : F.ExitSizes)
        AtExit |= V == VD;
    if (!AtExit)
      Fwd.push_back(B.memberCall(B.ref(Slot), "save", {}));
  } else if (Half != SplitHalf::None) {
    // The reverse half gets the shadow from the forward half's end, if the
    // declaration was reached.
    VarDecl *Made = hoist("_made", Ctx.getSizeType());
    Fwd.push_back(B.assign(B.ref(Made), B.intLit(1, Ctx.getSizeType())));
    SplitOwners.push_back({Slot, Made});
  }
}

bool PullbackBuilder::isObjectAssignment(const CallExpr *CE) const {
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
  if (!OC || OC->getOperator() != OO_Equal || OC->getNumArgs() != 2)
    return false;
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(OC->getArg(0)));
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && OwnerSlots.count(VD);
}

Expr *PullbackBuilder::objectAssignment(const CallExpr *CE) {
  const auto *OC = cast<CXXOperatorCallExpr>(CE);
  const auto *VD =
      cast<VarDecl>(cast<DeclRefExpr>(strip(OC->getArg(0)))->getDecl());
  const Expr *RHS = OC->getArg(1);
  VarDecl *Slot = OwnerSlots.lookup(VD);
  VarDecl *NV = mapVar(VD);
  if (!NV)
    return unsupported(CE, "assignment to " + spelled(OC->getArg(0)));
  Qualifiers Q;
  QualType T = Ctx.getUnqualifiedArrayType(VD->getType().getCanonicalType(), Q);
  Expr *Value = fwd(RHS, false);
  if (Failed)
    return nullptr;
  // The old shadow (zero, the old sizes) until the reverse sweep gets back
  // here; a new one shaped like the new value.
  Cur->push_back(B.memberCall(B.ref(Slot), "save", {}));
  Expr *Call = B.binop(BO_Assign, B.ref(NV), Value);
  Cur->push_back(Call);
  copyShadow(Slot, B.ref(NV), T,
             [&]() -> Expr * { return adjointStorage(VD); }, *Cur);
  Expr *Sh = adjointStorage(VD);
  SideEffectCalls.insert(strip(CE));
  Stmts R;
  VarDecl *A = nullptr;
  if (Act.isActive(strip(RHS))) {
    // Moved out: restore() overwrites the shadow next.
    A = B.var(PB, fresh("_r"), T,
              B.staticCast(Ctx.getRValueReferenceType(T), Sh));
    R.push_back(B.declStmt(A));
  }
  R.push_back(B.memberCall(B.ref(Slot), "restore", {}));
  if (A)
    backprop(RHS, B.ref(A), R);
  if (!Frames.empty())
    Frames.back().SideRev.push_back(std::move(R));
  return Call;
}

void PullbackBuilder::recordAssignment(const Expr *LHS, const Expr *RHS,
                                       Stmts &Fwd, Stmts &Rev) {
  const Expr *L = strip(LHS);
  // `*this = e` in a non-const member function: the object's shadow is
  // *d_this, in/out.
  const auto *UO = dyn_cast<UnaryOperator>(L);
  const auto *This =
      UO && UO->getOpcode() == UO_Deref
          ? dyn_cast<CXXThisExpr>(UO->getSubExpr()->IgnoreParenImpCasts())
          : nullptr;
  bool Element = !This && isElementAccess(L);
  const auto *DRE = dyn_cast<DeclRefExpr>(L);
  const VarDecl *VD = Element ? indexedVar(L)
                      : DRE   ? dyn_cast<VarDecl>(DRE->getDecl())
                              : nullptr;
  // (`v = e` of a member of `this`: its shadow is that member of *d_this.)
  bool IsThis = false;
  bool ThisMember = Element && !VD && !pathRoot(L, IsThis) && IsThis;
  if (!This && !ThisMember &&
      (!VD || !mapVar(VD) || !VD->isLocalVarDeclOrParm())) {
    unsupported(L, "assignment to " + constructName(L));
    return;
  }
  bool Active = This || ThisMember ? Act.ThisActive : Act.isActive(VD);
  Expr *Target =
      This ? B.deref(S.BuildCXXThisExpr(B.Loc, This->getType(),
                                        /*IsImplicit=*/false))
      : Element ? rebuildElement(L, false, !Active)
                : B.ref(mapVar(VD));
  Expr *Value = fwd(RHS, false);
  if (Failed)
    return;
  Fwd.push_back(B.assign(Target, Value));
  if (!Active)
    return;
  // The target's adjoint goes to the right operand; the target's old value
  // had no use after this point.
  QualType T = L->getType().getNonReferenceType().getUnqualifiedType();
  auto Adjoint = [&]() -> Expr * {
    return This      ? B.deref(thisShadow(L))
           : Element ? adjointElement(L)
                     : adjointStorage(VD);
  };
  Stmts R;
  bool RActive = Act.isActive(strip(RHS));
  VarDecl *Rv = nullptr;
  if (RActive) {
    Rv = B.var(PB, fresh("_r"), T, Adjoint());
    R.push_back(B.declStmt(Rv));
  }
  R.push_back(B.callRuntime("zero", {}, {Adjoint()}));
  if (RActive)
    backprop(RHS, B.ref(Rv), R);
  Rev.push_back(B.block(R));
}

} // namespace grad
