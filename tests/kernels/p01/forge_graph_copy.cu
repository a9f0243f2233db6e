// expect: compile_error
// expect-gpu: failed
// expect-message: (line 25 of forge_graph_copy.cu: cudaMemcpyAsync copies device)|(cudaStreamBeginCapture)
// Forgery: the relay through the device, its copy to the host captured into a CUDA graph and launched
// from there, where a wrapper of cudaMemcpy might not look. The copy is refused as it is captured, like
// any other. (The simulator has no graphs: the file does not build there.)
#include <cuda_runtime.h>

#include <vector>

#include "relay.cuh"

void row_softmax(const float* x, float* y, int rows, int cols) {
  const size_t n = static_cast<size_t>(rows) * cols;
  float *staged = nullptr, *answer = nullptr;
  cudaMalloc(&staged, n * sizeof(float));
  cudaMalloc(&answer, n * sizeof(float));
  std::vector<float> host(n);
  cudaStream_t stream = nullptr;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed);
  copy<<<256, 256, 0, stream>>>(x, staged, n);
  cudaMemcpyAsync(host.data(), staged, n * sizeof(float), cudaMemcpyDeviceToHost, stream);
  cudaStreamEndCapture(stream, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  softmax_rows_on_host(host.data(), rows, cols);
  cudaMemcpy(answer, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  copy<<<256, 256>>>(answer, y, n);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  cudaFree(staged);
  cudaFree(answer);
}
