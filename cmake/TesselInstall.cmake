# What `cmake --install` puts under the prefix (docs/integration.md):
#
#   bin/      tessel, tessel-opt, tessel-eval, tessel-calibrate-probe (and,
#             where the build found CUDA, tessel-calibrate-probe-cuda and
#             tessel-cuda-probe)
#   include/  tessel/{dialect,passes,codegen,layouts,analysis,evaluator,
#             reference}/
#             headers, their generated .h.inc and the ODS .td files, as the
#             sources include them ("dialect/TesselDialect.h" with
#             include/tessel on the path); tessel/frontend/ (the C++ front
#             end), tessel/runtime/ (the runtime's C ABI), tessel/Version.h
#   lib/      the libraries, libtessel_runtime.so with its link line
#             tessel-link.rsp (which `tessel compile` finds beside bin/),
#             and cmake/Tessel/: TesselConfig.cmake and the Tessel::
#             imported targets.
#
# Included last from the top-level CMakeLists.txt, when every target exists.

include(CMakePackageConfigHelpers)

set(TESSEL_INSTALL_CMAKE_DIR lib/cmake/Tessel)

# The libraries a project builds against, each Tessel::<name>.
set(TESSEL_EXPORTED_LIBRARIES
  TesselLayouts      # layout files, meshes, shardings (plain C++)
  TesselRefKernels   # the reference kernels and their tensor (reference/)
  TesselNpy          # .npy files (reference/npy)
  TesselDialect      # the tessel dialect
  TesselPasses       # layout, autodiff, partitioning, ... passes
  TesselCodegen      # lowering to runtime calls, LLVM IR, objects, linking
  TesselAnalysis     # the cost report behind tessel explain
  TesselEvaluator    # the reference interpreter
  TesselFrontend     # the C++ front end (shared)
  tessel_runtime     # the runtime compiled programs link with (shared)
)
if(TARGET tessel_runtime_cuda)
  list(APPEND TESSEL_EXPORTED_LIBRARIES tessel_runtime_cuda)
endif()
foreach(library ${TESSEL_EXPORTED_LIBRARIES})
  target_include_directories(${library} INTERFACE
    $<INSTALL_INTERFACE:include/tessel> $<INSTALL_INTERFACE:include>)
endforeach()
# The runtime's C ABI headers live in runtime/include in the source tree.
target_include_directories(tessel_runtime INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/runtime/include>)

install(TARGETS ${TESSEL_EXPORTED_LIBRARIES}
  EXPORT TesselTargets
  LIBRARY DESTINATION lib
  ARCHIVE DESTINATION lib
  RUNTIME DESTINATION bin)

# The tools. They find the runtime's link line and the calibration probe
# relative to themselves (bin/../lib, bin/); they and the shared libraries
# find tessel's libraries beside them and their other dependencies (MLIR,
# Open MPI) where the build found them.
set(TESSEL_TOOLS tessel tessel-opt tessel-eval tessel-calibrate-probe)
# `tessel calibrate --target cuda` runs these (the build found CUDA).
if(TARGET tessel-calibrate-probe-cuda)
  list(APPEND TESSEL_TOOLS tessel-calibrate-probe-cuda tessel-cuda-probe)
endif()
set_target_properties(${TESSEL_TOOLS} PROPERTIES
  INSTALL_RPATH "\$ORIGIN/../lib" INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS ${TESSEL_TOOLS} EXPORT TesselTargets RUNTIME DESTINATION bin)
set_target_properties(TesselFrontend tessel_runtime PROPERTIES
  INSTALL_RPATH "\$ORIGIN" INSTALL_RPATH_USE_LINK_PATH ON)
install(FILES ${PROJECT_BINARY_DIR}/lib/tessel-link.rsp DESTINATION lib)
if(TARGET tessel_runtime_cuda)
  install(FILES ${PROJECT_BINARY_DIR}/lib/tessel-link-cuda.rsp DESTINATION lib)
endif()

# Headers and ODS files, and what TableGen generated from them.
foreach(dir dialect passes codegen layouts analysis evaluator reference)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/
    DESTINATION include/tessel/${dir}
    FILES_MATCHING PATTERN "*.h" PATTERN "*.td"
    PATTERN "tests" EXCLUDE PATTERN "profiles" EXCLUDE)
  install(DIRECTORY ${PROJECT_BINARY_DIR}/${dir}/
    DESTINATION include/tessel/${dir}
    FILES_MATCHING PATTERN "*.h.inc"
    PATTERN "CMakeFiles" EXCLUDE)
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/tessel/frontend
  DESTINATION include/tessel)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/tessel/runtime
  DESTINATION include/tessel)
install(FILES ${PROJECT_BINARY_DIR}/include/tessel/Version.h
  DESTINATION include/tessel)

# The package: TesselConfig.cmake finds MLIR (the one tessel was built
# with) and the other dependencies of the static libraries, then loads the
# targets.
install(EXPORT TesselTargets NAMESPACE Tessel::
  DESTINATION ${TESSEL_INSTALL_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/TesselConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/TesselConfig.cmake
  INSTALL_DESTINATION ${TESSEL_INSTALL_CMAKE_DIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/TesselConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/TesselConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/TesselConfigVersion.cmake
  DESTINATION ${TESSEL_INSTALL_CMAKE_DIR})
