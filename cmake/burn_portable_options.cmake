# The options of a portable burn_core (docs/building.md, "Targets and options"): threads, exceptions,
# RTTI and files off, none of the optional host libraries, a unity build. Included, before
# add_subdirectory(<burn>), by the projects that build burn so: tests/portable (scripts/portable_check.sh)
# and examples/baremetal (scripts/build_baremetal.sh), which add their own settings after it.
set(BURN_THREADS OFF CACHE BOOL "" FORCE)
set(BURN_EXCEPTIONS OFF CACHE BOOL "" FORCE)
set(BURN_FILESYSTEM OFF CACHE BOOL "" FORCE)
set(BURN_CUDA OFF CACHE STRING "" FORCE)
set(BURN_OPENBLAS OFF CACHE STRING "" FORCE)
set(BURN_HIGHWAY OFF CACHE STRING "" FORCE)
set(BURN_DNNL OFF CACHE STRING "" FORCE)
set(BURN_UNITY_BUILD ON CACHE BOOL "" FORCE)  # batches of sources: the core builds in about half the time
