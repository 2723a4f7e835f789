//===- SiteCheck.cpp - Every derivative site was modelled -------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Default deny after the fact: the activity analysis lists the places a
/// derivative flows through (analysis/Sites.h); the builder notes each
/// place it modelled (`modelled`: backprop, assignment, declarations,
/// returns, heap objects). A site that no builder case reached was
/// replayed or rebuilt as a constant, which would be a silently wrong
/// derivative: it is an error at the site instead.
///
//===----------------------------------------------------------------------===//

#include "analysis/Sites.h"
#include "ast/Diagnostics.h"
#include "reverse/PullbackBuilder.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

bool PullbackBuilder::checkSites() {
  SmallVector<DerivativeSite, 16> Sites;
  derivativeSites(Primal->getBody(), Act, Sites);
  if (D.options().PrintActivity)
    report(S.Diags, Diag::RemarkSites, Primal->getLocation())
        << nameOf(Primal) << printSites(Ctx, Sites);
  SmallVector<DerivativeSite, 4> Missed;
  unmodelledSites(Sites, [&](const void *P) { return Modelled.count(P) != 0; },
                  Missed);
  for (const DerivativeSite &Site : Missed)
    report(S.Diags, Diag::UnsupportedConstruct, siteLoc(Site))
        << siteName(Ctx, Site) + " (internal error: the pullback builder did "
                                 "not model its derivative; please report it)"
        << nameOf(Primal);
  bool Clean = Missed.empty();
  if (!Clean) {
    D.noteRequest(Entry);
    Failed = true;
  }
  return Clean;
}

} // namespace grad
