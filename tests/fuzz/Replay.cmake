# Every fuzz target, built without libFuzzer around ReplayMain.cpp, and a
# test per target that runs it over its corpus in tests/fuzz/corpus: the
# seeds and the inputs of crashes found and fixed, which stay there as
# regression tests. Part of the normal suite, so it needs no clang; under
# TESSEL_SANITIZE it replays them with ASan and UBSan.
set(TESSEL_FUZZ_DIR ${PROJECT_SOURCE_DIR}/tests/fuzz)

foreach(fuzzer LayoutFileFuzzer MeshStringFuzzer)
  add_executable(${fuzzer}Replay
    ${TESSEL_FUZZ_DIR}/${fuzzer}.cpp ${TESSEL_FUZZ_DIR}/ReplayMain.cpp)
  target_link_libraries(${fuzzer}Replay PRIVATE TesselLayouts)
endforeach()

add_executable(CheckpointFuzzerReplay
  ${TESSEL_FUZZ_DIR}/CheckpointFuzzer.cpp ${TESSEL_FUZZ_DIR}/ReplayMain.cpp)
target_include_directories(CheckpointFuzzerReplay PRIVATE
  ${PROJECT_SOURCE_DIR}/runtime)
target_link_libraries(CheckpointFuzzerReplay PRIVATE tessel_driver)

add_llvm_executable(ModelFuzzerReplay
  ${TESSEL_FUZZ_DIR}/ModelFuzzer.cpp ${TESSEL_FUZZ_DIR}/ReplayMain.cpp
  PARTIAL_SOURCES_INTENDED)
llvm_update_compile_flags(ModelFuzzerReplay)
add_dependencies(ModelFuzzerReplay TesselDialectIncGen TesselPassesIncGen)
target_link_libraries(ModelFuzzerReplay PRIVATE TesselAnalysis
  TesselToolSupport TesselPasses TesselDialect MLIR)

add_executable(MetadataFuzzerReplay
  ${TESSEL_FUZZ_DIR}/MetadataFuzzer.cpp ${TESSEL_FUZZ_DIR}/ReplayMain.cpp)
target_include_directories(MetadataFuzzerReplay PRIVATE
  ${PROJECT_SOURCE_DIR}/runtime)
target_link_libraries(MetadataFuzzerReplay PRIVATE tessel_driver)

find_package(fmt REQUIRED)
add_executable(MachineProfileFuzzerReplay
  ${TESSEL_FUZZ_DIR}/MachineProfileFuzzer.cpp ${TESSEL_FUZZ_DIR}/ReplayMain.cpp
  ${PROJECT_SOURCE_DIR}/analysis/MachineProfile.cpp)
target_include_directories(MachineProfileFuzzerReplay PRIVATE
  ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/analysis)
target_link_libraries(MachineProfileFuzzerReplay PRIVATE TesselLayouts fmt::fmt)

add_executable(WeightMapFuzzerReplay
  ${TESSEL_FUZZ_DIR}/WeightMapFuzzer.cpp ${TESSEL_FUZZ_DIR}/ReplayMain.cpp)
target_link_libraries(WeightMapFuzzerReplay PRIVATE TesselWeights)

add_executable(ShardIndexFuzzerReplay
  ${TESSEL_FUZZ_DIR}/ShardIndexFuzzer.cpp ${TESSEL_FUZZ_DIR}/ReplayMain.cpp)
target_include_directories(ShardIndexFuzzerReplay PRIVATE
  ${PROJECT_SOURCE_DIR}/runtime)
target_link_libraries(ShardIndexFuzzerReplay PRIVATE TesselSafetensors)

find_package(ZLIB REQUIRED)
add_executable(NpyFuzzerReplay
  ${TESSEL_FUZZ_DIR}/NpyFuzzer.cpp ${TESSEL_FUZZ_DIR}/ReplayMain.cpp
  ${PROJECT_SOURCE_DIR}/reference/npy/NpyArray.cpp)
target_include_directories(NpyFuzzerReplay PRIVATE ${PROJECT_SOURCE_DIR})
add_executable(IdxFuzzerReplay
  ${TESSEL_FUZZ_DIR}/IdxFuzzer.cpp ${TESSEL_FUZZ_DIR}/ReplayMain.cpp
  ${PROJECT_SOURCE_DIR}/runtime/driver/FashionMnist.cpp)
add_executable(TextCorpusFuzzerReplay
  ${TESSEL_FUZZ_DIR}/TextCorpusFuzzer.cpp ${TESSEL_FUZZ_DIR}/ReplayMain.cpp
  ${PROJECT_SOURCE_DIR}/runtime/driver/TextCorpus.cpp)
foreach(fuzzer IdxFuzzer TextCorpusFuzzer)
  target_include_directories(${fuzzer}Replay PRIVATE
    ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/runtime)
  target_link_libraries(${fuzzer}Replay PRIVATE fmt::fmt ZLIB::ZLIB)
endforeach()

foreach(fuzzer LayoutFileFuzzer MeshStringFuzzer ModelFuzzer CheckpointFuzzer
               MetadataFuzzer MachineProfileFuzzer WeightMapFuzzer
               ShardIndexFuzzer NpyFuzzer IdxFuzzer TextCorpusFuzzer)
  file(GLOB inputs CONFIGURE_DEPENDS ${TESSEL_FUZZ_DIR}/corpus/${fuzzer}/*)
  add_test(NAME fuzz-corpus-${fuzzer} COMMAND ${fuzzer}Replay ${inputs})
  set_tests_properties(fuzz-corpus-${fuzzer} PROPERTIES TIMEOUT 300)
endforeach()
