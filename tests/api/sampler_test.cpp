// SPDX-License-Identifier: Apache-2.0
// Sampler objects (OpenCL 3.0 API spec, 5.4): creation with properties and
// with the deprecated form, the queries, reference counting and the errors.
#include "common.h"

#include <string>
#include <vector>

namespace lanewise::test {
namespace {

class Samplers : public ContextTest {
protected:
  void SetUp() override {
    ContextTest::SetUp();
    if (deviceInfo<cl_bool>(device, CL_DEVICE_IMAGE_SUPPORT) != CL_TRUE)
      GTEST_SKIP() << "the device has no image support";
  }

  template <typename T> T info(cl_sampler sampler, cl_sampler_info param) {
    T value{};
    EXPECT_EQ(clGetSamplerInfo(sampler, param, sizeof(T), &value, nullptr), CL_SUCCESS)
        << "param 0x" << std::hex << param;
    return value;
  }

  void expectModes(cl_sampler sampler, cl_bool normalized, cl_addressing_mode addressing,
                   cl_filter_mode filter) {
    EXPECT_EQ(info<cl_bool>(sampler, CL_SAMPLER_NORMALIZED_COORDS), normalized);
    EXPECT_EQ(info<cl_addressing_mode>(sampler, CL_SAMPLER_ADDRESSING_MODE), addressing);
    EXPECT_EQ(info<cl_filter_mode>(sampler, CL_SAMPLER_FILTER_MODE), filter);
  }

  std::vector<cl_sampler_properties> properties(cl_sampler sampler) {
    size_t size = 0;
    EXPECT_EQ(clGetSamplerInfo(sampler, CL_SAMPLER_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
    std::vector<cl_sampler_properties> list(size / sizeof(cl_sampler_properties));
    if (size) {
      EXPECT_EQ(clGetSamplerInfo(sampler, CL_SAMPLER_PROPERTIES, size, list.data(), nullptr),
                CL_SUCCESS);
    }
    return list;
  }

  cl_int createError(const cl_sampler_properties *list) {
    cl_int err = CL_SUCCESS;
    cl_sampler sampler = clCreateSamplerWithProperties(context, list, &err);
    EXPECT_EQ(sampler, nullptr);
    if (sampler)
      clReleaseSampler(sampler);
    return err;
  }
};

// OpenCL 3.0, clCreateSamplerWithProperties: the defaults are normalized
// coordinates, CL_ADDRESS_CLAMP and CL_FILTER_NEAREST.
TEST_F(Samplers, DefaultsWithoutProperties) {
  if (!testingLanewise())
    GTEST_SKIP() << "PoCL 3.1 answers CL_INVALID_VALUE for NULL properties";
  cl_int err = CL_SUCCESS;
  cl_sampler sampler = clCreateSamplerWithProperties(context, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  expectModes(sampler, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
  EXPECT_EQ(info<cl_context>(sampler, CL_SAMPLER_CONTEXT), context);
  EXPECT_EQ(info<cl_uint>(sampler, CL_SAMPLER_REFERENCE_COUNT), 1u);
  if (testingLanewise()) { // PoCL 3.1 reports a property list
    EXPECT_TRUE(properties(sampler).empty()) << "created with NULL properties";
  }
  EXPECT_EQ(clReleaseSampler(sampler), CL_SUCCESS);
}

TEST_F(Samplers, EveryModeThroughPropertiesAndTheDeprecatedForm) {
  for (cl_bool normalized : {CL_TRUE, CL_FALSE})
    for (cl_addressing_mode addressing :
         {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
          CL_ADDRESS_MIRRORED_REPEAT})
      for (cl_filter_mode filter : {CL_FILTER_NEAREST, CL_FILTER_LINEAR}) {
        const bool repeats =
            addressing == CL_ADDRESS_REPEAT || addressing == CL_ADDRESS_MIRRORED_REPEAT;
        // OpenCL C 3.0 (6.15.15.1): the repeat modes with unnormalized
        // coordinates are undefined in kernels, not an invalid sampler.
        // PoCL 3.1 answers CL_INVALID_VALUE.
        if (repeats && !normalized && !testingLanewise())
          continue;
        SCOPED_TRACE(std::to_string(normalized) + " " + std::to_string(addressing) + " " +
                     std::to_string(filter));
        const cl_sampler_properties list[] = {CL_SAMPLER_FILTER_MODE,
                                              filter,
                                              CL_SAMPLER_NORMALIZED_COORDS,
                                              normalized,
                                              CL_SAMPLER_ADDRESSING_MODE,
                                              addressing,
                                              0};
        cl_int err = CL_SUCCESS;
        cl_sampler sampler = clCreateSamplerWithProperties(context, list, &err);
        ASSERT_EQ(err, CL_SUCCESS);
        expectModes(sampler, normalized, addressing, filter);
        // Returned as given, in the same order (OpenCL 3.0, clGetSamplerInfo).
        EXPECT_EQ(properties(sampler),
                  std::vector<cl_sampler_properties>(std::begin(list), std::end(list)));
        clReleaseSampler(sampler);

        sampler = clCreateSampler(context, normalized, addressing, filter, &err);
        ASSERT_EQ(err, CL_SUCCESS);
        expectModes(sampler, normalized, addressing, filter);
        clReleaseSampler(sampler);
      }
}

TEST_F(Samplers, BadPropertiesAreInvalidValue) {
  if (!testingLanewise())
    GTEST_SKIP() << "PoCL 3.1 creates samplers with unknown properties and values";
  const cl_sampler_properties unknown[] = {0x7777, 1, 0};
  EXPECT_EQ(createError(unknown), CL_INVALID_VALUE);
  const cl_sampler_properties twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR,
                                         CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, 0};
  EXPECT_EQ(createError(twice), CL_INVALID_VALUE);
  const cl_sampler_properties badAddressing[] = {CL_SAMPLER_ADDRESSING_MODE, 0x1135, 0};
  EXPECT_EQ(createError(badAddressing), CL_INVALID_VALUE);
  const cl_sampler_properties badFilter[] = {CL_SAMPLER_FILTER_MODE, 0x1142, 0};
  EXPECT_EQ(createError(badFilter), CL_INVALID_VALUE);
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateSampler(context, CL_TRUE, 0x1135, CL_FILTER_NEAREST, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateSampler(context, CL_TRUE, CL_ADDRESS_CLAMP, 0x1142, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateSampler(nullptr, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  EXPECT_EQ(clCreateSamplerWithProperties(nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
}

TEST_F(Samplers, NormalizedCoordsIsABoolean) {
  if (!testingLanewise())
    GTEST_SKIP() << "PoCL 3.1 takes any nonzero value as CL_TRUE";
  const cl_sampler_properties notBool[] = {CL_SAMPLER_NORMALIZED_COORDS, 2, 0};
  EXPECT_EQ(createError(notBool), CL_INVALID_VALUE);
}

TEST_F(Samplers, RetainAndReleaseCount) {
  cl_int err = CL_SUCCESS;
  cl_sampler sampler = clCreateSampler(context, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(clRetainSampler(sampler), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(sampler, CL_SAMPLER_REFERENCE_COUNT), 2u);
  ASSERT_EQ(clReleaseSampler(sampler), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(sampler, CL_SAMPLER_REFERENCE_COUNT), 1u);
  ASSERT_EQ(clReleaseSampler(sampler), CL_SUCCESS);
  EXPECT_EQ(clRetainSampler(nullptr), CL_INVALID_SAMPLER);
  EXPECT_EQ(clReleaseSampler(nullptr), CL_INVALID_SAMPLER);
}

TEST_F(Samplers, QueriesCheckTheirArguments) {
  cl_int err = CL_SUCCESS;
  cl_sampler sampler = clCreateSampler(context, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_uint tooSmall = 0;
  EXPECT_EQ(clGetSamplerInfo(sampler, CL_SAMPLER_CONTEXT, sizeof tooSmall, &tooSmall, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetSamplerInfo(sampler, 0x7777, sizeof tooSmall, &tooSmall, nullptr),
            CL_INVALID_VALUE);
  size_t size = 0;
  EXPECT_EQ(clGetSamplerInfo(sampler, CL_SAMPLER_ADDRESSING_MODE, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof(cl_addressing_mode));
  EXPECT_EQ(clGetSamplerInfo(nullptr, CL_SAMPLER_CONTEXT, 0, nullptr, &size), CL_INVALID_SAMPLER);
  clReleaseSampler(sampler);
}

} // namespace
} // namespace lanewise::test
