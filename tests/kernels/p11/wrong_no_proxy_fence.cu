// expect: failed
// expect-sim-diagnosis: sim_async_proxy_unfenced
// expect-sim-cases: 128x128x64
// backends: sim
// mutant-of: tests/kernels/p11/correct_tma_store.cu
// replace:   fence_proxy_async();
// with:   // no fence.proxy.async
// Wrong: the threads' stores of C to shared memory are not ordered before the TMA unit reads them (the
// async proxy): the barrier alone orders the threads, not the proxies. A GPU mostly sees the data anyway;
// the PTX memory model does not promise it, and the simulator reports the read.
