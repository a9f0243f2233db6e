// Tensor maps, bulk tensor copies (TMA) and mbarriers as inline PTX: where a box lands (swizzle, fill),
// what a store writes, the driver's checks of cuTensorMapEncodeTiled, and barriers that never complete.
#include <cuda.h>
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "memory_test_support.hpp"

using namespace memory_test;

namespace {

constexpr int kRows = 40, kCols = 48;  // a uint16 tensor, row-major

CUresult encode(CUtensorMap& map, void* tensor, uint32_t box_cols, uint32_t box_rows,
                CUtensorMapSwizzle swizzle) {
  const cuuint64_t size[2] = {kCols, kRows}, stride[1] = {kCols * 2};
  const cuuint32_t box[2] = {box_cols, box_rows}, element_stride[2] = {1, 1};
  return cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, tensor, size, stride, box,
                                element_stride, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

uint16_t* tensor_of_indices() {
  std::vector<uint16_t> values(kRows * kCols);
  for (int i = 0; i < kRows * kCols; ++i) values[i] = static_cast<uint16_t>(i + 1);
  uint16_t* tensor = nullptr;
  cudaMalloc(&tensor, values.size() * 2);
  cudaMemcpy(tensor, values.data(), values.size() * 2, cudaMemcpyHostToDevice);
  return tensor;
}

// mbarrier_wait as puzzle 11 writes it: try_wait.parity until the phase of `parity` has completed.
void wait_for_phase(uint32_t barrier, uint32_t parity) {
  uint32_t done = 0;
  while (!done)
    ::sim::ptx::execute(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}",
        {::sim::ptx::output<'r'>(done), ::sim::ptx::input<'r'>(barrier), ::sim::ptx::input<'r'>(parity)});
}

// Thread 0 loads the box at (col, row) into shared memory with an mbarrier armed for `armed` bytes; every
// thread waits for it, and the block's shared bytes are copied to `out`.
void load_box(const CUtensorMap& map, int col, int row, uint32_t armed, uint16_t* out, int out_elements,
              bool arrive_plain = false) {
  ::sim::launch(
      ::sim::LaunchConfig(dim3(1), dim3(32), 4096), "tma",
      [&map, col, row, armed, out, out_elements, arrive_plain] {
        auto* s = ::sim::dynamic_shared<uint16_t>();
        auto* bar = reinterpret_cast<uint64_t*>(s + 1536);  // at byte 3072
        const auto bar_address = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
        const auto dst = static_cast<uint32_t>(__cvta_generic_to_shared(s));
        if (threadIdx.x == 0) {
          ::sim::ptx::execute("mbarrier.init.shared::cta.b64 [%0], %1;",
                              {::sim::ptx::input<'r'>(bar_address), ::sim::ptx::input<'r'>(1)});
          ::sim::ptx::execute("fence.mbarrier_init.release.cluster;", {});
        }
        __syncthreads();
        if (threadIdx.x == 0) {
          if (arrive_plain)
            ::sim::ptx::execute("mbarrier.arrive.shared::cta.b64 _, [%0];",
                                {::sim::ptx::input<'r'>(bar_address)});
          else
            ::sim::ptx::execute("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;",
                                {::sim::ptx::input<'r'>(bar_address), ::sim::ptx::input<'r'>(armed)});
          ::sim::ptx::execute(
              "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, "
              "{%2, %3}], "
              "[%4];",
              {::sim::ptx::input<'r'>(dst), ::sim::ptx::input<'l'>(&map), ::sim::ptx::input<'r'>(col),
               ::sim::ptx::input<'r'>(row), ::sim::ptx::input<'r'>(bar_address)});
        }
        wait_for_phase(bar_address, 0);
        if (threadIdx.x == 0)
          for (int i = 0; i < out_elements; ++i) out[i] = s[i];
      });
}

std::vector<uint16_t> download(const uint16_t* p, int n) {
  std::vector<uint16_t> v(n);
  cudaMemcpy(v.data(), p, n * 2, cudaMemcpyDeviceToHost);
  return v;
}

}  // namespace

TEST_CASE("a TMA box lands swizzled, with zeros outside the tensor, and completes its mbarrier") {
  uint16_t* tensor = tensor_of_indices();
  uint16_t* out = nullptr;
  cudaMalloc(&out, 16 * 32 * 2);
  CUtensorMap map;
  REQUIRE(encode(map, tensor, 32, 16, CU_TENSOR_MAP_SWIZZLE_64B) == CUDA_SUCCESS);
  const Report report = checked([&] { load_box(map, 32, 32, 16 * 32 * 2, out, 16 * 32); });
  CHECK_MESSAGE(report.findings.empty(), kinds(report));
  const std::vector<uint16_t> got = download(out, 16 * 32);
  int wrong = 0;
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 32; ++c) {
      const int row = 32 + r, col = 32 + c;
      const uint16_t expected = row < kRows && col < kCols ? static_cast<uint16_t>(row * kCols + col + 1) : 0;
      const uint32_t logical = r * 64 + c * 2;  // rows of 64 bytes; 64-byte swizzle: chunk ^= bits 7-8
      const uint32_t physical = logical ^ ((logical >> 7) & 3) << 4;
      wrong += got[physical / 2] != expected;
    }
  CHECK(wrong == 0);
  cudaFree(out);
  cudaFree(tensor);
}

TEST_CASE("cuTensorMapEncodeTiled refuses what the driver refuses, naming the argument") {
  uint16_t* tensor = tensor_of_indices();
  CUtensorMap map;
  const Report report = checked([&] {
    CHECK(encode(map, tensor, 64, 16, CU_TENSOR_MAP_SWIZZLE_32B) ==
          CUDA_ERROR_INVALID_VALUE);  // 128 > 32 bytes
    CHECK(encode(map, tensor, 4, 16, CU_TENSOR_MAP_SWIZZLE_NONE) ==
          CUDA_ERROR_INVALID_VALUE);  // 8 bytes a row
    CHECK(encode(map, tensor, 32, 300, CU_TENSOR_MAP_SWIZZLE_NONE) == CUDA_ERROR_INVALID_VALUE);
  });
  const auto found = of_kind(report, "tensor_map_invalid");
  REQUIRE_MESSAGE(found.size() == 1, kinds(report));  // one call site
  CHECK(found[0].message.find("swizzle") != std::string::npos);
  cudaFree(tensor);
}

TEST_CASE("a box wholly outside the tensor is a warning; the wait still completes") {
  uint16_t* tensor = tensor_of_indices();
  uint16_t* out = nullptr;
  cudaMalloc(&out, 16 * 32 * 2);
  CUtensorMap map;
  REQUIRE(encode(map, tensor, 32, 16, CU_TENSOR_MAP_SWIZZLE_NONE) == CUDA_SUCCESS);
  const Report report = checked([&] { load_box(map, 64, 0, 16 * 32 * 2, out, 16); });
  CHECK_MESSAGE(of_kind(report, "bulk_copy_box_outside").size() == 1, kinds(report));
  CHECK(download(out, 16) == std::vector<uint16_t>(16, 0));
  cudaFree(out);
  cudaFree(tensor);
}

TEST_CASE("an mbarrier armed with more bytes than come, or never armed, is named") {
  uint16_t* tensor = tensor_of_indices();
  uint16_t* out = nullptr;
  cudaMalloc(&out, 64);
  CUtensorMap map;
  REQUIRE(encode(map, tensor, 32, 16, CU_TENSOR_MAP_SWIZZLE_NONE) == CUDA_SUCCESS);
  const Report too_many = checked([&] { load_box(map, 0, 0, 2048, out, 1); });
  const auto hang = of_kind(too_many, "mbarrier_tx_mismatch");
  REQUIRE_MESSAGE(hang.size() == 1, kinds(too_many));
  CHECK(hang[0].message.find("1024 transaction bytes") != std::string::npos);
  const Report never_armed = checked([&] { load_box(map, 0, 0, 0, out, 1, true); });
  const auto early = of_kind(never_armed, "mbarrier_tx_mismatch");
  REQUIRE_MESSAGE(early.size() == 1, kinds(never_armed));
  CHECK(early[0].message.find("never armed") != std::string::npos);
  cudaFree(out);
  cudaFree(tensor);
}

TEST_CASE("threads waiting for a phase whose arrivals never come are a deadlock, with the barrier's state") {
  const Report report = checked([] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(64), 64), "stuck", [] {
      auto* bar = ::sim::dynamic_shared<uint64_t>();
      const auto address = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
      if (threadIdx.x == 0)
        ::sim::ptx::execute("mbarrier.init.shared::cta.b64 [%0], %1;",
                            {::sim::ptx::input<'r'>(address), ::sim::ptx::input<'r'>(2)});
      __syncthreads();
      if (threadIdx.x == 0)
        ::sim::ptx::execute("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];",
                            {::sim::ptx::input<'r'>(address)});
      wait_for_phase(address, 0);
    });
  });
  const auto found = of_kind(report, "mbarrier_deadlock");
  REQUIRE_MESSAGE(found.size() == 1, kinds(report));
  CHECK(found[0].message.find("waiting for 1 of 2 arrivals") != std::string::npos);
}

TEST_CASE("a TMA store writes the box's elements inside the tensor and reads its source until waited for") {
  uint16_t* tensor = nullptr;
  cudaMalloc(&tensor, kRows * kCols * 2);
  cudaMemset(tensor, 0, kRows * kCols * 2);
  CUtensorMap map;
  REQUIRE(encode(map, tensor, 32, 16, CU_TENSOR_MAP_SWIZZLE_NONE) == CUDA_SUCCESS);
  const Report report = checked([&map] {
    ::sim::launch(::sim::LaunchConfig(dim3(1), dim3(32), 1024), "store", [&map] {
      auto* s = ::sim::dynamic_shared<uint16_t>();
      for (int i = threadIdx.x; i < 512; i += 32) s[i] = static_cast<uint16_t>(i + 1);
      ::sim::ptx::execute("fence.proxy.async.shared::cta;", {});
      __syncthreads();
      if (threadIdx.x != 0) return;
      const auto src = static_cast<uint32_t>(__cvta_generic_to_shared(s));
      ::sim::ptx::execute("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];",
                          {::sim::ptx::input<'l'>(&map), ::sim::ptx::input<'r'>(32),
                           ::sim::ptx::input<'r'>(32), ::sim::ptx::input<'r'>(src)});
      ::sim::ptx::execute("cp.async.bulk.commit_group;", {});
      s[0] = 7;  // still being read
      ::sim::ptx::execute("cp.async.bulk.wait_group.read %0;", {::sim::ptx::input<'n'>(0)});
    });
  });
  CHECK_MESSAGE(of_kind(report, "wgmma_operand_overwritten").size() == 1, kinds(report));
  const std::vector<uint16_t> got = download(tensor, kRows * kCols);
  int wrong = 0;
  for (int row = 0; row < kRows; ++row)
    for (int col = 0; col < kCols; ++col) {
      const bool inside = row >= 32 && col >= 32;
      wrong += got[row * kCols + col] != (inside ? (row - 32) * 32 + (col - 32) + 1 : 0);
    }
  CHECK(wrong == 0);
  cudaFree(tensor);
}
