# A unity build of the libraries (BURN_UNITY_BUILD): each target's .cpp files compiled in batches of
# BURN_UNITY_BATCH, so that the headers are parsed once per batch instead of once per file. With g++ 12
# the Release libraries then take 351 CPU-seconds instead of 825.
#
# CMake's own UNITY_BUILD writes its batch files inside each build tree, so two builds of the same
# sources with the same flags never share a compiler cache entry (the batch's path is part of ccache's
# hash). The add_subdirectory consumer test builds the library a second time inside the Release build;
# it points BURN_UNITY_DIR at the Release build's folder, its batches are then the same files and
# ccache hands back the objects. The batches are named after their contents (a hash), so builds with
# different source lists can share the folder without overwriting each other's files.
#
# A file is compiled on its own, as CMake does it, when it has its own compile options, definitions,
# flags or include directories, is generated, or is marked SKIP_UNITY_BUILD_INCLUSION.
set(BURN_UNITY_BATCH 16 CACHE STRING "Source files per batch of BURN_UNITY_BUILD")
set(BURN_UNITY_DIR "${PROJECT_BINARY_DIR}/unity" CACHE PATH
    "Folder of the unity batch files; builds that share it share compiler-cache hits")

function(_burn_unity_batch target files)
  set(content "/* burn unity batch of ${target} (cmake/unity.cmake) */\n")
  foreach(f IN LISTS files)
    string(APPEND content "#include \"${f}\"\n")
  endforeach()
  string(MD5 hash "${content}")
  string(SUBSTRING "${hash}" 0 16 hash)
  set(out "${BURN_UNITY_DIR}/${target}_${hash}.cpp")
  if(NOT EXISTS "${out}")  # written once: an existing batch keeps its time stamp, so nothing recompiles
    file(WRITE "${out}.tmp" "${content}")
    file(RENAME "${out}.tmp" "${out}")
  endif()
  set_source_files_properties(${files} TARGET_DIRECTORY ${target} PROPERTIES HEADER_FILE_ONLY ON)
  target_sources(${target} PRIVATE "${out}")
endfunction()

function(_burn_unity_target target)
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(batch)
  foreach(src IN LISTS sources)
    if(NOT src MATCHES "\\.cpp$")
      continue()
    endif()
    if(NOT IS_ABSOLUTE "${src}")
      set(src "${source_dir}/${src}")
    endif()
    set(alone OFF)
    foreach(prop COMPILE_OPTIONS COMPILE_DEFINITIONS COMPILE_FLAGS INCLUDE_DIRECTORIES
                 SKIP_UNITY_BUILD_INCLUSION GENERATED HEADER_FILE_ONLY)
      get_source_file_property(value "${src}" TARGET_DIRECTORY ${target} ${prop})
      if(value)
        set(alone ON)
      endif()
    endforeach()
    if(NOT alone)
      list(APPEND batch "${src}")
      list(LENGTH batch n)
      if(n EQUAL BURN_UNITY_BATCH)
        _burn_unity_batch(${target} "${batch}")
        set(batch)
      endif()
    endif()
  endforeach()
  if(batch)
    _burn_unity_batch(${target} "${batch}")
  endif()
endfunction()

# Called at the end of the top-level directory (cmake_language(DEFER)), once every source and every
# per-file property of the libraries is set.
function(burn_unity_build)
  file(MAKE_DIRECTORY "${BURN_UNITY_DIR}")
  foreach(target IN LISTS ARGN)
    _burn_unity_target(${target})
  endforeach()
endfunction()
