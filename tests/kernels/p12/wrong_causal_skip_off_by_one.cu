// expect: failed
// expect-diagnosis: causal_tile_skipped
// expect-sim-cases: 1x64x300x128_causal
// mutant-of: solutions/12_flash_forward_hopper/1_clear.cu
// replace:   return last_key < 0 ? 0 : min(tiles, last_key / kBN<D> + 1);
// with:   return last_key < 0 ? 0 : min(tiles, last_key / kBN<D>);
// Wrong: the causal block skip stops one key tile early: the tile that holds the block's last visible keys
// (the diagonal tile) is never loaded, so the rows miss their last keys, and a block whose rows see only
// the first tile sees none at all.
