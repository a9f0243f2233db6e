# Where the puzzles and their solutions live: the CMake twin of harness/core/registry.hpp's
# puzzle_folder(), solutions_folder() and solution_ladder(). Keep the two in step.

# puzzle_stubs(OUT): every puzzle's stub, puzzles/NN_slug/NN_slug.cu.
function(puzzle_stubs out)
  file(GLOB stubs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/puzzles/[0-9][0-9]_*/[0-9][0-9]_*.cu)
  set(${out} ${stubs} PARENT_SCOPE)
endfunction()

# puzzle_solution_ladder(PUZZLE OUT): the versions of puzzle PUZZLE's ladder ("01_row_softmax"), the files
# solutions/PUZZLE/<V>_<what_changes>.cu in the order of V (1_clear.cu first); the .cuh headers beside
# them are not versions.
function(puzzle_solution_ladder puzzle out)
  file(GLOB files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/solutions/${puzzle}/[0-9]*_*.cu)
  set(keyed "")
  foreach(file IN LISTS files)
    get_filename_component(name ${file} NAME)
    if(name MATCHES "^([0-9]+)_")
      math(EXPR key "${CMAKE_MATCH_1} + 1000")  # zero-padded, so that 10 sorts after 9
      list(APPEND keyed "${key}|${file}")
    endif()
  endforeach()
  list(SORT keyed)
  set(ladder "")
  foreach(entry IN LISTS keyed)
    string(REGEX REPLACE "^[0-9]+\\|" "" file "${entry}")
    list(APPEND ladder ${file})
  endforeach()
  set(${out} ${ladder} PARENT_SCOPE)
endfunction()
