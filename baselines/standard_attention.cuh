// What the standard-attention baselines (05_flash_forward.cu, 06_flash_backward.cu, and in bf16
// 09_flash_forward_bf16.cu, 10_flash_backward_bf16.cu) share: the cuBLAS handle, the row-major batched GEMM,
// the N x N buffers they keep between calls and the causal rule. docs/baselines.md says what the baselines
// are for.
#pragma once
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace standard_attention {

constexpr int kWarp = 32;

// cuBLAS reports its failures as a cublasStatus_t, not as a CUDA error the harness could read with
// cudaGetLastError, so a failure is printed (the harness shows the launcher's stderr) and the caller
// returns with its outputs unwritten, which the check and the bench both report.
inline bool cublas_ok(cublasStatus_t status, const char* what) {
  if (status == CUBLAS_STATUS_SUCCESS) return true;
  std::fprintf(stderr, "[standard attention] %s: %s\n", what, cublasGetStatusString(status));
  return false;
}

// The one handle, created on first use (a handle per call would time cuBLAS's setup, not attention);
// nullptr when it could not be made. Its math mode, CUBLAS_DEFAULT_MATH, serves both kinds of baseline:
// fp32 SGEMM stays fp32, and bf16 operands with CUBLAS_COMPUTE_32F go to cuBLAS's tensor-core (on an
// H100, wgmma) kernels, which multiply the bf16 inputs exactly and sum in fp32, as mma.sync does.
inline cublasHandle_t cublas_handle() {
  static const cublasHandle_t handle = [] {
    cublasHandle_t created = nullptr;
    if (!cublas_ok(cublasCreate(&created), "cublasCreate")) return cublasHandle_t{nullptr};
    // The comparison is fp32 against fp32: the solutions use no tensor cores. TF32 (which PyTorch enables
    // with allow_tf32, and CUBLAS_TF32_TENSOR_OP_MATH selects) would round the inputs to a 10-bit mantissa
    // and run SGEMM on tensor cores, a different and less precise computation. CUBLAS_DEFAULT_MATH keeps
    // fp32 precision; it is set here so that no library default or caller changes what is measured.
    if (!cublas_ok(cublasSetMathMode(created, CUBLAS_DEFAULT_MATH), "cublasSetMathMode")) {
      cublasDestroy(created);
      return cublasHandle_t{nullptr};
    }
    return created;
  }();
  return handle;
}

// C = alpha * op(A) * op(B) for `batch` independent problems, every matrix row-major and the problems
// stored back to back: op(A) is m x k, op(B) is k x n, C is m x n. A is stored m x k, or k x m when ta is
// CUBLAS_OP_T (op(A) = A^T); likewise B is stored k x n, or n x k when tb is CUBLAS_OP_T.
//
// The mapping to column-major cuBLAS: a buffer holding a row-major r x c matrix X holds, read
// column-major, X^T (c x r, leading dimension c). So the row-major C = op(A) op(B) is computed as the
// column-major C^T = op(B)^T op(A)^T: the operands swap places and m swaps with n, each operand keeps
// its op flag (the buffer read column-major is the transpose of what it holds row-major, so "use the
// stored matrix transposed" is the same request in both views), and each leading dimension is the
// row length of the matrix as stored: k or m for A, n or k for B, n for C.
inline bool batched_gemm(cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                         int k, float alpha, const float* a, const float* b, float* c, int batch) {
  const float beta = 0.0f;
  const int lda = ta == CUBLAS_OP_N ? k : m;
  const int ldb = tb == CUBLAS_OP_N ? n : k;
  return cublas_ok(cublasSgemmStridedBatched(
                       handle, tb, ta, n, m, k, &alpha, b, ldb, static_cast<long long>(k) * n, a, lda,
                       static_cast<long long>(m) * k, &beta, c, n, static_cast<long long>(m) * n, batch),
                   "cublasSgemmStridedBatched");
}

// batched_gemm with bf16 A and B, fp32 sums (CUBLAS_COMPUTE_32F, alpha applied in fp32), and C stored as
// c_type: CUDA_R_32F (c points to floats) or CUDA_R_16BF (c points to __nv_bfloat16, rounded once at the
// end). Same row-major convention and mapping to column-major cuBLAS as batched_gemm.
inline bool batched_gemm_bf16(cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                              int k, float alpha, const __nv_bfloat16* a, const __nv_bfloat16* b, void* c,
                              cudaDataType c_type, int batch) {
  const float beta = 0.0f;
  const int lda = ta == CUBLAS_OP_N ? k : m;
  const int ldb = tb == CUBLAS_OP_N ? n : k;
  return cublas_ok(cublasGemmStridedBatchedEx(
                       handle, tb, ta, n, m, k, &alpha, b, CUDA_R_16BF, ldb, static_cast<long long>(k) * n, a,
                       CUDA_R_16BF, lda, static_cast<long long>(m) * k, &beta, c, c_type, n,
                       static_cast<long long>(m) * n, batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                   "cublasGemmStridedBatchedEx");
}

// The arguments of a call that its N x N buffers belong to.
struct Shape {
  int bh, n_q, n_k, d;
  bool causal;
  bool operator==(const Shape&) const = default;
};

// An N x N device buffer of T kept from one call to the next, so that the timed calls measure attention
// and not cudaMalloc. PyTorch's caching allocator gives standard attention the same: after the first step
// its N x N tensors come from a pool. The first call of each shape allocates anew. The harness counts the
// memory a launcher holds, buffers kept from earlier calls included: a launcher with several buffers frees
// them all (start_shape) before it allocates a new shape's, so that a shape's figure is its own and not
// the previous shape's too. Never freed at the end: the process's exit releases it.
template <class T>
class KeptBuffer {
 public:
  // Frees the buffer unless it is the shape's.
  void drop_unless(const Shape& shape) {
    if (data_ && shape == shape_) return;
    cudaFree(data_);  // waits for the kernels of earlier calls that may still use it
    data_ = nullptr;
  }
  // Room for the shape's bh * n_q * n_k elements, or nullptr when cudaMalloc failed; its error is then what
  // cudaGetLastError returns after the launcher, which bench reports as "out of memory".
  T* for_shape(const Shape& shape) {
    drop_unless(shape);
    if (data_) return data_;
    const size_t elements = static_cast<size_t>(shape.bh) * shape.n_q * shape.n_k;
    if (cudaMalloc(&data_, elements * sizeof(T)) != cudaSuccess) {
      data_ = nullptr;
      return nullptr;
    }
    shape_ = shape;
    return data_;
  }

 private:
  T* data_ = nullptr;
  Shape shape_{};
};

// Before a launcher's buffers are taken for a shape: every one of them not already the shape's is freed.
template <class... Buffers>
void start_shape(const Shape& shape, Buffers&... buffers) {
  (buffers.drop_unless(shape), ...);
}

// The keys query i (its row within its head) sees: all n_k, or under the bottom-right-aligned causal
// mask keys 0 .. i + (n_k - n_q), which is none for the first n_q - n_k queries when n_q > n_k.
__host__ __device__ inline int visible_keys(int i, int n_q, int n_k, bool causal) {
  if (!causal) return n_k;
  const int last = i + (n_k - n_q);
  return last < 0 ? 0 : last + 1;  // i < n_q, so last + 1 <= n_k
}

}  // namespace standard_attention
