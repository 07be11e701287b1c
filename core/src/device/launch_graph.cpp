// A batch of launches as one CUDA graph (launch_graph.hpp).
#include "device/launch_graph.hpp"

#include <exception>

#include "cudalab/cuda_error.hpp"

namespace cudalab::host {

std::unique_ptr<launch_graph> launch_graph::capture(const launch_fn& launch, cudaStream_t stream, std::uint64_t count,
                                                    std::string& why) {
  why.clear();
  if (const cudaError_t e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal); e != cudaSuccess) {
    why = std::string("the stream cannot be captured: ") + cudaGetErrorName(e);
    (void)cudaGetLastError();
    return nullptr;
  }
  try {
    for (std::uint64_t i = 0; i < count; ++i) launch(stream);
  } catch (const std::exception& e) {
    why = e.what();
  }
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
  if (why.empty() && ended != cudaSuccess) why = std::string("the capture ended with ") + cudaGetErrorName(ended);
  cudaGraphExec_t exec = nullptr;
  if (why.empty()) {
    if (const cudaError_t e = cudaGraphInstantiate(&exec, graph, 0); e != cudaSuccess)
      why = std::string("instantiating the graph failed: ") + cudaGetErrorName(e);
  }
  if (why.empty()) {
    if (const cudaError_t e = cudaGraphUpload(exec, stream); e != cudaSuccess)
      why = std::string("uploading the graph failed: ") + cudaGetErrorName(e);
  }
  if (!why.empty()) {
    if (exec != nullptr) cudaGraphExecDestroy(exec);
    if (graph != nullptr) cudaGraphDestroy(graph);
    (void)cudaGetLastError();  // what the refused capture left is not the next call's error
    return nullptr;
  }
  return std::unique_ptr<launch_graph>(new launch_graph(graph, exec, count));
}

launch_graph::~launch_graph() {
  cudaGraphExecDestroy(exec_);
  cudaGraphDestroy(graph_);
}

void launch_graph::launch(cudaStream_t stream) const { CUDALAB_CUDA_CHECK(cudaGraphLaunch(exec_, stream)); }

}  // namespace cudalab::host
