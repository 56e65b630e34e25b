# burn_onnx_generate(TARGET MODEL.onnx [NAME StructName] [NAMESPACE ns] [NO_DEFINITION])
#
# Runs `burn-onnx generate` at build time (docs/onnx.md, "Code generation"): MODEL.onnx becomes
# <binary dir>/burn_onnx_generated/<Name>/<Name>.hpp (a BURN_MODULE struct) and <Name>.bpk (its
# weights). TARGET gets that folder as an include directory, builds after the files (regenerated when
# the model or burn-onnx changes), and the compile definition BURN_ONNX_BPK_<Name>="<path of the .bpk>"
# (NO_DEFINITION leaves it out: an absolute path on every compile line defeats compiler caches).
# NAME defaults to the model file's stem in CamelCase (resnet18.onnx -> Resnet18). The variable
# <Name>_BURNPACK is set in the caller's scope to the .bpk path.
#
# In burn's own build the burn-onnx target is used; after find_package(burn) the installed burn-onnx
# (beside this file's package, or on PATH); -DBURN_ONNX_EXECUTABLE=... overrides both.
set(_BURN_ONNX_GENERATE_LIST_DIR "${CMAKE_CURRENT_LIST_DIR}")

function(burn_onnx_generate target model)
  cmake_parse_arguments(ARG "NO_DEFINITION" "NAME;NAMESPACE" "" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "burn_onnx_generate: unknown arguments ${ARG_UNPARSED_ARGUMENTS} (takes NAME and NAMESPACE)")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "burn_onnx_generate: '${target}' is not a target (add_executable/add_library it first)")
  endif()
  get_filename_component(_model "${model}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT ARG_NAME)
    get_filename_component(_stem "${_model}" NAME_WE)
    string(REGEX MATCHALL "[A-Za-z0-9]+" _words "${_stem}")
    set(ARG_NAME "")
    foreach(_w IN LISTS _words)
      string(SUBSTRING "${_w}" 0 1 _first)
      string(SUBSTRING "${_w}" 1 -1 _rest)
      string(TOUPPER "${_first}" _first)
      string(APPEND ARG_NAME "${_first}${_rest}")
    endforeach()
    if(ARG_NAME STREQUAL "" OR ARG_NAME MATCHES "^[0-9]")
      set(ARG_NAME "Model${ARG_NAME}")
    endif()
  endif()
  if(NOT ARG_NAME MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "burn_onnx_generate: NAME '${ARG_NAME}' is not a C++ identifier")
  endif()

  set(_exe_depends "")
  if(BURN_ONNX_EXECUTABLE)
    set(_exe "${BURN_ONNX_EXECUTABLE}")
  elseif(TARGET burn-onnx)
    set(_exe "$<TARGET_FILE:burn-onnx>")
    set(_exe_depends burn-onnx)
  else()
    find_program(BURN_ONNX_EXECUTABLE burn-onnx
      HINTS "${_BURN_ONNX_GENERATE_LIST_DIR}/../../../bin" "${_BURN_ONNX_GENERATE_LIST_DIR}/../../bin")
    if(NOT BURN_ONNX_EXECUTABLE)
      message(FATAL_ERROR "burn_onnx_generate: burn-onnx was not found (burn built without ONNX import? "
        "apt-get install libonnx-dev libprotobuf-dev and rebuild burn, or pass -DBURN_ONNX_EXECUTABLE=...)")
    endif()
    set(_exe "${BURN_ONNX_EXECUTABLE}")
  endif()

  set(_dir "${CMAKE_CURRENT_BINARY_DIR}/burn_onnx_generated/${ARG_NAME}")
  set(_hpp "${_dir}/${ARG_NAME}.hpp")
  set(_bpk "${_dir}/${ARG_NAME}.bpk")
  set(_ns "")
  if(ARG_NAMESPACE)
    set(_ns --namespace "${ARG_NAMESPACE}")
  endif()
  add_custom_command(OUTPUT "${_hpp}" "${_bpk}"
    COMMAND "${_exe}" generate "${_model}" --out "${_dir}" --name "${ARG_NAME}" ${_ns}
    DEPENDS "${_model}" ${_exe_depends}
    COMMENT "burn-onnx generate ${model} -> ${ARG_NAME}.hpp, ${ARG_NAME}.bpk"
    VERBATIM)
  set(_gen_target "burn_onnx_generate_${target}_${ARG_NAME}")
  add_custom_target(${_gen_target} DEPENDS "${_hpp}" "${_bpk}")
  add_dependencies(${target} ${_gen_target})
  target_include_directories(${target} PRIVATE "${_dir}")
  if(NOT ARG_NO_DEFINITION)
    target_compile_definitions(${target} PRIVATE "BURN_ONNX_BPK_${ARG_NAME}=\"${_bpk}\"")
  endif()
  set(${ARG_NAME}_BURNPACK "${_bpk}" PARENT_SCOPE)
endfunction()
