//===- Printer.cpp - Printing generated code as C++ -------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "ast/Printer.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/PrettyPrinter.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace grad {

static void print(const Decl *FD, llvm::raw_ostream &OS, bool Prototype) {
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
  FD->print(OS, Policy);
  OS << (Prototype ? ";\n" : "\n");
  OS << Close;
}

void printDefinition(const FunctionDecl *FD, llvm::raw_ostream &OS) {
  // Parameters the body never names print [[maybe_unused]] (only here, so
  // that prototypes and diagnostics show the plain signature).
  struct Named : RecursiveASTVisitor<Named> {
    llvm::DenseSet<const ParmVarDecl *> Params;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (const auto *P = dyn_cast<ParmVarDecl>(E->getDecl()))
        Params.insert(P);
      return true;
    }
  } N;
  N.TraverseStmt(FD->getBody());
  SmallVector<ParmVarDecl *, 4> Marked;
  for (const ParmVarDecl *P : FD->parameters())
    if (P->getIdentifier() && !N.Params.count(P) && !P->hasAttr<UnusedAttr>())
      Marked.push_back(const_cast<ParmVarDecl *>(P));
  ASTContext &Ctx = FD->getASTContext();
  for (ParmVarDecl *P : Marked)
    P->addAttr(UnusedAttr::Create(Ctx, SourceRange(),
                                  UnusedAttr::CXX11_maybe_unused));
  print(FD, OS, false);
  for (ParmVarDecl *P : Marked)
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
