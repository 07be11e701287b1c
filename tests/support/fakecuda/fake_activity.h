// What the fake CUDA runtime tells of itself beyond the CUDA API. A fake CUPTI (tests/support/fakecupti) learns
// what it put on its fake GPU: the fake
// CUPTI finds fakecuda_set_activity_hook in the process (the runtime is linked, so its symbols are global)
// and hands it a function the runtime calls for every kernel launch, copy and memset while it is set.
#pragma once

#include <cstddef>

extern "C" {

/// One piece of work: a kernel launch, a copy or a memset.
struct fakecuda_activity {
  int kind;            ///< 0 kernel, 1 copy, 2 memset
  const char* name;    ///< a kernel's mangled name as nvcc registered it ("" when unknown)
  void* stream;        ///< the cudaStream_t it went to (nullptr: the legacy default stream)
  unsigned grid[3];    ///< a kernel's grid
  unsigned block[3];   ///< a kernel's block
  std::size_t shared;  ///< a kernel's dynamic shared memory, bytes
  std::size_t bytes;   ///< a copy's or memset's bytes
  int copy_kind;       ///< a copy's cudaMemcpyKind
};

typedef void (*fakecuda_activity_hook)(const fakecuda_activity* activity);

/// Sets (or, with nullptr, removes) the function told of every piece of work from now on.
void fakecuda_set_activity_hook(fakecuda_activity_hook hook);

/* How many streams of this process have waited on an interprocess event (cudaStreamWaitEvent): the
   two-process harness keeps it to one, as each such stream holds the real GPU's scheduler. */
int fakecuda_streams_waiting_across(void);
/* Whether `stream` has waited on an interprocess event (1) or not (0). */
int fakecuda_stream_waited_across(void* stream);
/* How many waits so far were on an event recorded behind another process's work (on a stream that had waited on
   an interprocess event) by a stream whose last work was not a device-to-host copy. On the H100 such a wait holds
   the compute engine for its time slice each time the other process's work turns to it (about 1.8 ms): the
   two-process harness makes none. */
int fakecuda_waits_holding_gpu(void);
}
