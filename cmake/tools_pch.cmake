# A precompiled <burn/burn.hpp> shared by the programs (the examples, burn-bench, the burn-onnx command
# line): each of their twenty-odd translation units otherwise parses burn's headers itself (about 3.5 of
# a file's 4-12 CPU-seconds at -O3), which is a minute of every Release build and of CI's. The programs
# keep their own #include lines (include guards make them free) and build unchanged without it:
# -DBURN_TOOLS_PCH=OFF. Not for emscripten or other compilers than GCC and Clang.
option(BURN_TOOLS_PCH "Precompile burn/burn.hpp once for the examples, benchmarks and tools" ON)

# Makes `target` compile with the shared precompiled header (created on first use).
function(burn_use_tools_pch target)
  # Only where burn is the top-level project: a project that adds burn as a subdirectory builds just
  # the burn-onnx tool, for which a header of its own costs more than it saves.
  if(NOT BURN_TOOLS_PCH OR NOT BURN_TOP_LEVEL OR EMSCRIPTEN OR NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    return()
  endif()
  if(NOT TARGET burn_tools_pch)
    set(_stub ${PROJECT_BINARY_DIR}/burn_tools_pch.cpp)
    if(NOT EXISTS ${_stub})
      file(WRITE ${_stub} "// The object of the programs' shared precompiled header (cmake/tools_pch.cmake).\n")
    endif()
    add_library(burn_tools_pch OBJECT ${_stub})
    target_link_libraries(burn_tools_pch PRIVATE burn::burn)
    target_compile_options(burn_tools_pch PRIVATE -Wall -Wextra)
    target_precompile_headers(burn_tools_pch PRIVATE <burn/burn.hpp>)
  endif()
  target_precompile_headers(${target} REUSE_FROM burn_tools_pch)
endfunction()
