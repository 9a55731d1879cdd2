#include "spirv/linker.h"

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/linker.hpp>

namespace lanewise::spirv {

LinkResult linkModules(const std::vector<std::vector<uint32_t>> &modules, bool library) {
  LinkResult result;
  spvtools::Context context(SPV_ENV_UNIVERSAL_1_4);
  context.SetMessageConsumer([&](spv_message_level_t, const char *, const spv_position_t &position,
                                 const char *message) {
    result.log += std::string("link: ") + message + " (word " + std::to_string(position.index) +
                  ")\n";
  });
  spvtools::LinkerOptions options;
  options.SetCreateLibrary(library);
  // A library may keep imports that a later link resolves.
  options.SetAllowPartialLinkage(library);
  result.ok = spvtools::Link(context, modules, &result.words, options) == SPV_SUCCESS;
  return result;
}

} // namespace lanewise::spirv
