// What the harness asks of the stream bookkeeping (streams_events.cpp).
#pragma once
#include "driver_types.h"

namespace sim {

// A kernel launched on `stream`: until something waits for it, the stream has unfinished work.
void note_stream_launch(cudaStream_t stream);
// cudaDeviceSynchronize: every stream's work is finished.
void finish_all_streams();
// A finding for each stream of the learner's with work nobody waited for; then forgets them.
void report_unfinished_streams();

}  // namespace sim
