// SPDX-License-Identifier: Apache-2.0
// The cl_khr_icd dispatch table and the few symbols the ICD loader looks up
// by name. Everything else is reached only through the table.
#include "icd/api.h"
#include "icd/object.h"

#include <tuple>

namespace lanewise::icd {
namespace {

// An entry point of a feature Lanewise does not provide (pipes, native
// kernels, graphics interop, device-side queues). It answers
// with `Error`, and sets errcode_ret to it for the functions that create an
// object.
template <typename Function, cl_int Error = CL_INVALID_OPERATION> struct Unsupported;
// Slots whose API headers are not part of this platform (Direct3D, DX9 media,
// EGL) are typed void* in cl_icd.h; no Linux application can reach them.
template <cl_int Error> struct Unsupported<void *, Error> {
  static constexpr void *call = nullptr;
};
template <typename Result, typename... Args, cl_int Error>
struct Unsupported<Result(CL_API_CALL *)(Args...), Error> {
  static Result CL_API_CALL call(Args... args) {
    if constexpr (std::is_same_v<Result, cl_int>) {
      return Error;
    } else {
      if constexpr (sizeof...(Args) > 0) {
        auto last = std::get<sizeof...(Args) - 1>(std::tie(args...));
        if constexpr (std::is_same_v<decltype(last), cl_int *>)
          setError(last, Error);
      }
      return Result{};
    }
  }
};

#define LANEWISE_UNSUPPORTED(name, error) table.name = Unsupported<cl_api_##name, error>::call;

cl_icd_dispatch makeDispatchTable() {
  cl_icd_dispatch table{};
#define LANEWISE_FILL(name) table.name = api::name;
  LANEWISE_API_FUNCTIONS(LANEWISE_FILL)
#undef LANEWISE_FILL

  // Pipes are optional (CL_DEVICE_PIPE_SUPPORT is CL_FALSE).
  LANEWISE_UNSUPPORTED(clCreatePipe, CL_INVALID_OPERATION)
  LANEWISE_UNSUPPORTED(clGetPipeInfo, CL_INVALID_MEM_OBJECT)
  // CL_DEVICE_EXECUTION_CAPABILITIES has no CL_EXEC_NATIVE_KERNEL.
  LANEWISE_UNSUPPORTED(clEnqueueNativeKernel, CL_INVALID_OPERATION)

  // Graphics interop and the pre-1.2 device fission extension: Lanewise
  // reports none of these extensions.
  LANEWISE_UNSUPPORTED(clCreateFromGLBuffer, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clCreateFromGLTexture, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clCreateFromGLTexture2D, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clCreateFromGLTexture3D, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clCreateFromGLRenderbuffer, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clGetGLObjectInfo, CL_INVALID_MEM_OBJECT)
  LANEWISE_UNSUPPORTED(clGetGLTextureInfo, CL_INVALID_MEM_OBJECT)
  LANEWISE_UNSUPPORTED(clEnqueueAcquireGLObjects, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clEnqueueReleaseGLObjects, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clGetGLContextInfoKHR, CL_INVALID_OPERATION)
  LANEWISE_UNSUPPORTED(clCreateEventFromGLsyncKHR, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clGetDeviceIDsFromD3D10KHR, CL_INVALID_OPERATION)
  LANEWISE_UNSUPPORTED(clCreateFromD3D10BufferKHR, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clCreateFromD3D10Texture2DKHR, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clCreateFromD3D10Texture3DKHR, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clEnqueueAcquireD3D10ObjectsKHR, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clEnqueueReleaseD3D10ObjectsKHR, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clGetDeviceIDsFromD3D11KHR, CL_INVALID_OPERATION)
  LANEWISE_UNSUPPORTED(clCreateFromD3D11BufferKHR, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clCreateFromD3D11Texture2DKHR, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clCreateFromD3D11Texture3DKHR, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clEnqueueAcquireD3D11ObjectsKHR, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clEnqueueReleaseD3D11ObjectsKHR, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clCreateFromDX9MediaSurfaceKHR, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clGetDeviceIDsFromDX9MediaAdapterKHR, CL_INVALID_OPERATION)
  LANEWISE_UNSUPPORTED(clEnqueueAcquireDX9MediaSurfacesKHR, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clEnqueueReleaseDX9MediaSurfacesKHR, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clCreateFromEGLImageKHR, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clEnqueueAcquireEGLObjectsKHR, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clEnqueueReleaseEGLObjectsKHR, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clCreateEventFromEGLSyncKHR, CL_INVALID_CONTEXT)
  LANEWISE_UNSUPPORTED(clCreateSubDevicesEXT, CL_INVALID_OPERATION)
  LANEWISE_UNSUPPORTED(clRetainDeviceEXT, CL_INVALID_OPERATION)
  LANEWISE_UNSUPPORTED(clReleaseDeviceEXT, CL_INVALID_OPERATION)

  // cl_khr_subgroups' entry point is the core one under another name.
  table.clGetKernelSubGroupInfoKHR = api::clGetKernelSubGroupInfo;
  return table;
}
#undef LANEWISE_UNSUPPORTED

} // namespace

const cl_icd_dispatch dispatchTable = makeDispatchTable();

} // namespace lanewise::icd

// The symbols the ICD loader resolves with dlsym; nothing else is exported.
#define LANEWISE_EXPORT extern "C" __attribute__((visibility("default")))

LANEWISE_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *name) {
  return lanewise::icd::api::clGetExtensionFunctionAddress(name);
}

LANEWISE_EXPORT void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                          const char *name) {
  return lanewise::icd::api::clGetExtensionFunctionAddressForPlatform(platform, name);
}

LANEWISE_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint numEntries,
                                                          cl_platform_id *platforms,
                                                          cl_uint *numPlatforms) {
  return lanewise::icd::api::clIcdGetPlatformIDsKHR(numEntries, platforms, numPlatforms);
}

// ocl-icd checks the cl_khr_icd extension through a clGetPlatformInfo found
// by name in the vendor library.
LANEWISE_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform,
                                                     cl_platform_info param, size_t size,
                                                     void *value, size_t *sizeReturn) {
  return lanewise::icd::api::clGetPlatformInfo(platform, param, size, value, sizeReturn);
}
