// SPDX-License-Identifier: Apache-2.0
// Sampler objects (OpenCL 3.0 API, 5.4).
#include "icd/sampler.h"

#include "icd/api.h"
#include "runtime/image.h"

using namespace lanewise;
using namespace lanewise::icd;

std::uint32_t _cl_sampler::bits() const {
  // CL_ADDRESS_NONE ... CL_ADDRESS_MIRRORED_REPEAT are 0x1130 ... 0x1134 and
  // SPIR-V's Sampler Addressing Modes None ... RepeatMirrored 0 ... 4.
  return runtime::sampler::bits(addressingMode - CL_ADDRESS_NONE, normalizedCoords == CL_TRUE,
                                filterMode == CL_FILTER_LINEAR);
}

namespace {

bool validAddressingMode(cl_ulong mode) {
  return mode >= CL_ADDRESS_NONE && mode <= CL_ADDRESS_MIRRORED_REPEAT;
}
bool validFilterMode(cl_ulong mode) {
  return mode == CL_FILTER_NEAREST || mode == CL_FILTER_LINEAR;
}
bool validBool(cl_ulong value) { return value == CL_TRUE || value == CL_FALSE; }

// clCreateSampler and clCreateSamplerWithProperties, once the properties
// are read and valid. OpenCL C 3.0 (6.15.15.1) makes
// CL_ADDRESS_REPEAT and CL_ADDRESS_MIRRORED_REPEAT with unnormalized
// coordinates undefined in kernels, not an invalid sampler.
cl_sampler createSampler(cl_context context, cl_bool normalized,
                         cl_addressing_mode addressing, cl_filter_mode filter,
                         std::vector<cl_sampler_properties> properties, cl_int *errcodeReturn) {
  auto *sampler = new _cl_sampler;
  sampler->context = OwnerRef(context);
  sampler->normalizedCoords = normalized;
  sampler->addressingMode = addressing;
  sampler->filterMode = filter;
  sampler->properties = std::move(properties);
  setError(errcodeReturn, CL_SUCCESS);
  return sampler;
}

cl_int checkContext(const char *entryPoint, cl_context context) {
  if (!isValid(context))
    return CL_INVALID_CONTEXT;
  if (!context->device->capabilities.images)
    return fail(*context, CL_INVALID_OPERATION,
                std::string(entryPoint) + ": the device does not support images");
  return CL_SUCCESS;
}

} // namespace

namespace lanewise::icd::api {

cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context,
                                                     const cl_sampler_properties *properties,
                                                     cl_int *errcodeReturn) {
  constexpr const char *name = "clCreateSamplerWithProperties";
  if (cl_int error = checkContext(name, context); error != CL_SUCCESS) {
    setError(errcodeReturn, error);
    return nullptr;
  }
  auto invalid = [&](const std::string &problem) -> cl_sampler {
    setError(errcodeReturn, fail(*context, CL_INVALID_VALUE, std::string(name) + ": " + problem));
    return nullptr;
  };
  // OpenCL 3.0, clCreateSamplerWithProperties: the defaults are normalized
  // coordinates, CL_ADDRESS_CLAMP and CL_FILTER_NEAREST.
  cl_bool normalized = CL_TRUE;
  cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
  cl_filter_mode filter = CL_FILTER_NEAREST;
  bool seenNormalized = false, seenAddressing = false, seenFilter = false;
  std::vector<cl_sampler_properties> list;
  if (properties) {
    for (const cl_sampler_properties *p = properties; *p; p += 2) {
      const cl_ulong value = static_cast<cl_ulong>(p[1]);
      switch (p[0]) {
      case CL_SAMPLER_NORMALIZED_COORDS:
        if (seenNormalized)
          return invalid("CL_SAMPLER_NORMALIZED_COORDS is given twice");
        if (!validBool(value))
          return invalid("CL_SAMPLER_NORMALIZED_COORDS is neither CL_TRUE nor CL_FALSE");
        seenNormalized = true;
        normalized = static_cast<cl_bool>(value);
        break;
      case CL_SAMPLER_ADDRESSING_MODE:
        if (seenAddressing)
          return invalid("CL_SAMPLER_ADDRESSING_MODE is given twice");
        if (!validAddressingMode(value))
          return invalid("CL_SAMPLER_ADDRESSING_MODE is not a CL_ADDRESS_* value");
        seenAddressing = true;
        addressing = static_cast<cl_addressing_mode>(value);
        break;
      case CL_SAMPLER_FILTER_MODE:
        if (seenFilter)
          return invalid("CL_SAMPLER_FILTER_MODE is given twice");
        if (!validFilterMode(value))
          return invalid("CL_SAMPLER_FILTER_MODE is not a CL_FILTER_* value");
        seenFilter = true;
        filter = static_cast<cl_filter_mode>(value);
        break;
      default:
        return invalid("properties names an unknown property");
      }
      list.insert(list.end(), p, p + 2);
    }
    list.push_back(0);
  }
  return createSampler(context, normalized, addressing, filter, std::move(list),
                       errcodeReturn);
}

cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized,
                                       cl_addressing_mode addressing, cl_filter_mode filter,
                                       cl_int *errcodeReturn) {
  constexpr const char *name = "clCreateSampler";
  if (cl_int error = checkContext(name, context); error != CL_SUCCESS) {
    setError(errcodeReturn, error);
    return nullptr;
  }
  std::string problem;
  if (!validBool(normalized))
    problem = "normalized_coords is neither CL_TRUE nor CL_FALSE";
  else if (!validAddressingMode(addressing))
    problem = "addressing_mode is not a CL_ADDRESS_* value";
  else if (!validFilterMode(filter))
    problem = "filter_mode is not a CL_FILTER_* value";
  if (!problem.empty()) {
    setError(errcodeReturn,
             fail(*context, CL_INVALID_VALUE, std::string(name) + ": " + problem));
    return nullptr;
  }
  return createSampler(context, normalized, addressing, filter, {}, errcodeReturn);
}

cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
  if (!isValid(sampler))
    return CL_INVALID_SAMPLER;
  return sampler->retain() ? CL_SUCCESS : CL_INVALID_SAMPLER;
}

// A kernel argument holds the sampler's bit field, not the sampler: commands
// in flight do not need it.
cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
  if (!isValid(sampler))
    return CL_INVALID_SAMPLER;
  return sampler->release() ? CL_SUCCESS : CL_INVALID_SAMPLER;
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param, size_t size,
                                    void *value, size_t *sizeReturn) {
  if (!isValid(sampler))
    return CL_INVALID_SAMPLER;
  InfoResult result(size, value, sizeReturn);
  switch (param) {
  case CL_SAMPLER_REFERENCE_COUNT:
    return result(sampler->referenceCount());
  case CL_SAMPLER_CONTEXT:
    return result(static_cast<cl_context>(sampler->context.get()));
  case CL_SAMPLER_NORMALIZED_COORDS:
    return result(sampler->normalizedCoords);
  case CL_SAMPLER_ADDRESSING_MODE:
    return result(sampler->addressingMode);
  case CL_SAMPLER_FILTER_MODE:
    return result(sampler->filterMode);
  case CL_SAMPLER_PROPERTIES:
    return result.array<cl_sampler_properties>(sampler->properties);
  default:
    return CL_INVALID_VALUE;
  }
}

} // namespace lanewise::icd::api
