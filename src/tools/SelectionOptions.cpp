// SPDX-License-Identifier: Apache-2.0
#include "SelectionOptions.h"

namespace rubick::cli {

void addSelectionOptions(CLI::App& cmd, SearchOptions& search, dse::Selection& selection,
                         SelectionOptions& o) {
  o.point = cmd.add_option("--point",
                           "The design ID from `rubick explore` (found without costing the other "
                           "designs), an attention pipeline's ID (found by the pipeline search) "
                           "or a chain's (its 'built as' line; the flags must build it)")
                ->type_name("ID");
  o.dataflow = addDataflowOption(
      cmd, search.df,
      "Exactly this design, with no search: a dataflow as explore's last column lists it (or\n"
      "@FILE), on --array (default 8x8), checked against the constraints");
  o.pipeline = cmd.add_option("--pipeline", o.pipelineText,
                              "Attention: exactly this pipeline, without the pipeline search "
                              "(only its two GEMM designs are costed): "
                              "block=N,lanes=W,gemm1=ID,gemm2=ID as explore prints it")
                   ->type_name("SPEC");
  cmd.add_option("--layout", selection.layouts,
                 "Also require layout transforms, e.g. A=skew,B=transpose (plain, transpose, "
                 "skew, transpose+skew, stride, general)")
      ->type_name("T=TRANSFORM,...");
}

void finishSelection(const SelectionOptions& o, const SearchOptions& search,
                     dse::Selection& selection) {
  if (o.point->count()) selection.point = o.point->as<std::string>();
  if (o.pipeline->count()) selection.pipeline = o.pipelineText;
  if (o.dataflow->count())
    selection.dataflow = dataflowText(search.df.dataflow, selection.dataflowOrigin);
}

} // namespace rubick::cli
