// Hopper's asynchronous path on the simulator, one module per job:
//   mbarrier.cpp     mbarrier.init / arrive / expect_tx / try_wait: phases, arrivals and transaction bytes
//   bulk_tensor.cpp  cp.async.bulk.tensor loads (completing on an mbarrier) and stores (bulk groups)
//   wgmma.cpp        wgmma.mma_async as a warp-group collective; wgmma_results.cpp its groups and waits
//   hopper.cpp       the dispatch, fences, setmaxnreg, a cluster of one block, setp / selp / mov / mapa
#pragma once
#include <cstdint>

#include "diagnostics/report.hpp"
#include "ptx/operands.hpp"

namespace sim::ptx {

void run_hopper(const Bound& bound);

void run_mbarrier(const Bound& bound);
// A bulk copy's bytes arriving at the mbarrier at `shared_address` (its complete_tx). False, after
// reporting, if no barrier of this block is there.
bool complete_transaction(const Bound& bound, uint64_t shared_address, uint32_t bytes);

void run_bulk_tensor_load(const Bound& bound);
void run_bulk_tensor_store(const Bound& bound);
void run_bulk_commit();
void run_bulk_wait(const Bound& bound);

void run_wgmma(const Bound& bound);
void run_wgmma_commit();
void run_wgmma_wait(const Bound& bound);

}  // namespace sim::ptx
