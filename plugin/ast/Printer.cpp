//===- Printer.cpp - Printing generated code as C++ -------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "ast/Printer.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/PrettyPrinter.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace grad {

/// The classes enclosing \p FD, outermost first, as a nested-name-specifier
/// (`Outer::In::`), or null when FD is not a class member.
static NestedNameSpecifier *classQualifier(const Decl *FD) {
  const auto *RD = dyn_cast<CXXRecordDecl>(FD->getDeclContext());
  if (!RD)
    return nullptr;
  ASTContext &Ctx = FD->getASTContext();
  SmallVector<const CXXRecordDecl *, 2> Records;
  for (; RD; RD = dyn_cast<CXXRecordDecl>(RD->getDeclContext()))
    Records.push_back(RD);
  NestedNameSpecifier *NNS = nullptr;
  for (auto It = Records.rbegin(); It != Records.rend(); ++It)
    NNS = NestedNameSpecifier::Create(
        Ctx, NNS, false, Ctx.getRecordType(*It).getTypePtr());
  return NNS;
}

/// Prints a member function's definition out of its class
/// (`void Class::f(...) const {...}`): the class declares it (the plugin
/// adds it there; GRAD_IDE_MEMBERS in an editor, docs/ide.md), so there is
/// no prototype to print, and `static` belongs to that declaration only.
static void printMember(const FunctionDecl *FD, NestedNameSpecifier *NNS,
                        const PrintingPolicy &Policy, llvm::raw_ostream &OS) {
  auto *Mutable = const_cast<FunctionDecl *>(FD);
  NestedNameSpecifierLocBuilder B;
  B.MakeTrivial(FD->getASTContext(), NNS, FD->getLocation());
  NestedNameSpecifierLoc Old = FD->getQualifierLoc();
  StorageClass SC = FD->getStorageClass();
  Mutable->setQualifierInfo(B.getWithLocInContext(FD->getASTContext()));
  Mutable->setStorageClass(SC_None);
  FD->print(OS, Policy);
  Mutable->setStorageClass(SC);
  Mutable->setQualifierInfo(Old);
}

/// Statement attributes only Clang knows print as the runtime's macros,
/// which expand to them under Clang and to nothing elsewhere (g++ warns on
/// unknown statement attributes).
static void printPortable(llvm::StringRef Text, llvm::raw_ostream &OS) {
  // Clang prints the attribute before the statement's indentation.
  static constexpr llvm::StringLiteral From = "[[clang::noinline]]";
  for (size_t At; (At = Text.find(From)) != llvm::StringRef::npos;) {
    OS << Text.take_front(At);
    Text = Text.drop_front(At + From.size());
    llvm::StringRef Indent = Text.take_while([](char C) { return C == ' '; });
    OS << Indent << "GRAD_NOINLINE_CALL ";
    Text = Text.drop_front(Indent.size());
  }
  OS << Text;
}

static void print(const Decl *FD, llvm::raw_ostream &OS, bool Prototype) {
  NestedNameSpecifier *Member = isa<FunctionDecl>(FD) ? classQualifier(FD)
                                                       : nullptr;
  if (Member && Prototype)
    return;
  SmallVector<const Decl *, 4> Chain;
  for (const DeclContext *DC = FD->getDeclContext(); DC && !DC->isTranslationUnit();
       DC = DC->getParent())
    Chain.push_back(cast<Decl>(DC));
  std::string Close;
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(*It)) {
      if (NS->isInline())
        OS << "inline ";
      OS << "namespace " << NS->getName() << " {\n";
      Close += "}\n";
    } else if (const auto *LS = dyn_cast<LinkageSpecDecl>(*It)) {
      OS << (LS->getLanguage() == LinkageSpecLanguageIDs::C ? "extern \"C\" {\n"
                                                            : "extern \"C++\" {\n");
      Close += "}\n";
    }
  }
  PrintingPolicy Policy(FD->getASTContext().getLangOpts());
  Policy.SuppressTagKeyword = true;
  Policy.FullyQualifiedName = false;
  Policy.TerseOutput = Prototype;
  std::string Text;
  llvm::raw_string_ostream TS(Text);
  if (Member)
    printMember(cast<FunctionDecl>(FD), Member, Policy, TS);
  else
    FD->print(TS, Policy);
  printPortable(Text, OS);
  OS << (Prototype ? ";\n" : "\n");
  OS << Close;
}

namespace {
/// The parameters and locals of a body that it may never read (never
/// named, or only the target of assignments, `++` and `--`: marking one
/// that is read after all costs nothing).
struct Unread : RecursiveASTVisitor<Unread> {
  llvm::DenseMap<const ValueDecl *, unsigned> Uses, Stores;
  llvm::SmallVector<VarDecl *, 8> Locals;
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    ++Uses[E->getDecl()];
    return true;
  }
  void store(const Expr *E) {
    E = E->IgnoreParens();
    // `s.n = ...` sets s too (g++ says so).
    while (const auto *M = dyn_cast<MemberExpr>(E)) {
      if (M->isArrow())
        return;
      E = M->getBase()->IgnoreParenImpCasts();
    }
    if (const auto *R = dyn_cast<DeclRefExpr>(E))
      ++Stores[R->getDecl()];
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      store(B->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      store(U->getSubExpr());
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (!isa<ParmVarDecl>(V) && V->isLocalVarDecl())
      Locals.push_back(V);
    return true;
  }
  /// The declarators after the first of a declaration of several (`long i
  /// = 0, j = 1, k = 2;`): an attribute cannot be written on them alone.
  llvm::SmallPtrSet<const VarDecl *, 4> Trailing;
  bool VisitDeclStmt(DeclStmt *DS) {
    if (!DS->isSingleDecl())
      for (Decl *D : llvm::drop_begin(DS->decls()))
        if (const auto *V = dyn_cast<VarDecl>(D))
          Trailing.insert(V);
    return true;
  }
  bool unread(const ValueDecl *D) const {
    auto U = Uses.find(D);
    if (U == Uses.end())
      return true;
    // A write through a reference is what the reference is for.
    auto S = Stores.find(D);
    return !D->getType()->isReferenceType() && S != Stores.end() &&
           S->second == U->second;
  }
  bool unread(const VarDecl *V) const {
    if (const auto *DD = dyn_cast<DecompositionDecl>(V))
      return llvm::any_of(DD->bindings(), [&](const BindingDecl *B) {
        return unread(static_cast<const ValueDecl *>(B));
      });
    return unread(static_cast<const ValueDecl *>(V));
  }
};
} // namespace

void printDefinition(const FunctionDecl *FD, llvm::raw_ostream &OS) {
  // Parameters and locals the body never reads print [[maybe_unused]]
  // (only here, so that prototypes and diagnostics show the plain
  // signature): the generated code keeps some on purpose (a replayed
  // local, a parameter every derivative has), and -Wall -Wextra is quiet
  // on the printed code.
  Unread N;
  N.TraverseStmt(FD->getBody());
  SmallVector<VarDecl *, 4> Marked;
  for (const ParmVarDecl *P : FD->parameters())
    if (P->getIdentifier() && N.unread(P) && !P->hasAttr<UnusedAttr>())
      Marked.push_back(const_cast<ParmVarDecl *>(P));
  // (Not guards: compilers do not warn about locals whose destructor runs
  // code, such as the stack mark.)
  for (VarDecl *V : N.Locals)
    if (N.unread(V) && !V->hasAttr<UnusedAttr>() && !N.Trailing.count(V) &&
        V->getType().isDestructedType() == QualType::DK_none)
      Marked.push_back(V);
  ASTContext &Ctx = FD->getASTContext();
  for (VarDecl *P : Marked)
    P->addAttr(UnusedAttr::Create(Ctx, SourceRange(),
                                  UnusedAttr::CXX11_maybe_unused));
  print(FD, OS, false);
  for (VarDecl *P : Marked)
    P->dropAttr<UnusedAttr>();
}

void printPrototype(const FunctionDecl *FD, llvm::raw_ostream &OS) {
  print(FD, OS, true);
}

void printTemplatePrototype(const FunctionDecl *Spec, llvm::raw_ostream &OS) {
  if (const FunctionTemplateDecl *FTD = Spec->getPrimaryTemplate())
    print(FTD, OS, true);
}

} // namespace grad
