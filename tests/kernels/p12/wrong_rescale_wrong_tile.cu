// expect: failed
// expect-diagnosis: o_not_rescaled
// expect-sim-cases: 1x64x300x128
// mutant-of: solutions/12_flash_forward_hopper/1_clear.cu
// replace:     wgmma_wait_all();  // O += P V has read the stage's V: it may go back to the producer
// with:     wgmma_wait_all(); for (int j = 0; j < D / 2; ++j) o_acc[j] *= correction[j % 4 / 2];
// Wrong: the tile's rescale factor is applied once more after O += P V, so it also scales this tile's own
// P V, which was already relative to the new max, and scales the earlier tiles' sums twice: whenever a tile
// raises a row's max, o loses weight; lse is right.
