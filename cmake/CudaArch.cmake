# The GPU architecture for our own CUDA code and for learners' files: the local GPU's when there is
# one (nvidia-smi answers), else sm_90 (Hopper, what the series is tuned for).
if(NOT DEFINED PUZZLE_CUDA_ARCH)
  set(PUZZLE_CUDA_ARCH 90)
  find_program(NVIDIA_SMI nvidia-smi)
  if(NVIDIA_SMI)
    execute_process(COMMAND ${NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE _cap RESULT_VARIABLE _rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(_rc EQUAL 0 AND _cap MATCHES "^([0-9]+)\\.([0-9]+)")
      set(PUZZLE_CUDA_ARCH "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
    endif()
  endif()
  set(PUZZLE_CUDA_ARCH ${PUZZLE_CUDA_ARCH} CACHE STRING "GPU architecture (e.g. 90) for puzzle builds")
endif()
set(CMAKE_CUDA_ARCHITECTURES ${PUZZLE_CUDA_ARCH})
# nvcc's target for puzzle files, as `puzzle check` compiles them (harness/cli/src/compile/build_commands.cpp):
# on Hopper the arch-specific sm_90a, which wgmma and setmaxnreg need, as -gencode (the -arch=sm_90a
# shorthand, with several inputs, also ran a plain compute_90 pass that rejected them).
if(PUZZLE_CUDA_ARCH STREQUAL "90")
  set(PUZZLE_CUDA_TARGET_FLAGS -gencode arch=compute_90a,code=sm_90a)
else()
  set(PUZZLE_CUDA_TARGET_FLAGS -arch=sm_${PUZZLE_CUDA_ARCH})
endif()
message(STATUS "GPU architecture: sm_${PUZZLE_CUDA_ARCH}")
