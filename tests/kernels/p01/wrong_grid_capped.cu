// expect: failed
// expect-diagnosis: rows_not_written
// expect-sim-cases: 1025x3
// Wrong: the grid is capped at 1024 blocks, one per row, with no loop over further rows: rows 1024 and
// up are never written. Only a case of more than 1024 rows shows it (1025x3 on the simulator).
// mutant-of: solutions/01_row_softmax/1_clear.cu
// replace: row_softmax_kernel<<<rows, kThreads>>>(x, y, cols);  // one block per row
// with: row_softmax_kernel<<<rows < 1024 ? rows : 1024, kThreads>>>(x, y, cols);
