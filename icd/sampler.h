// SPDX-License-Identifier: Apache-2.0
// Sampler objects (OpenCL 3.0 API, 5.4).
#pragma once

#include "icd/context.h"

#include <cstdint>
#include <vector>

struct _cl_sampler : lanewise::icd::Object<_cl_sampler, lanewise::icd::ObjectKind::Sampler> {
  lanewise::icd::OwnerRef<_cl_context> context;
  cl_bool normalizedCoords = CL_TRUE;
  cl_addressing_mode addressingMode = CL_ADDRESS_CLAMP;
  cl_filter_mode filterMode = CL_FILTER_NEAREST;
  std::vector<cl_sampler_properties> properties; // as given, for CL_SAMPLER_PROPERTIES

  // The OpenCL C sampler bit field a kernel's sampler_t argument holds
  // (runtime/image.h).
  std::uint32_t bits() const;
};
