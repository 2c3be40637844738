# Tests of the executor (tessel_rt_execute) and the driver (main() of
# compiled programs); included from CMakeLists.txt, whose MPI test
# environment and test name prefix they share.

# Every op family on hand-written descriptors, every rank running every
# test; the mesh-level ops over a 1-D mesh of all ranks.
add_executable(tessel-runtime-executor-tests
  CommTestMain.cpp
  ExecutorTest.cpp
)
target_link_libraries(tessel-runtime-executor-tests PRIVATE
  TesselRuntimeExecutor GTest::gtest)
foreach(ranks 1 2)
  set(name ${TESSEL_RUNTIME_TEST_PREFIX}executor-np${ranks})
  add_test(NAME ${name}
    COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks}
            --oversubscribe --allow-run-as-root --bind-to none
            ${MPIEXEC_PREFLAGS} $<TARGET_FILE:tessel-runtime-executor-tests>)
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "${TESSEL_MPI_TEST_ENVIRONMENT}"
    PROCESSORS ${ranks}
    TIMEOUT 120)
endforeach()

# tessel.fused against its body run op by op on the reference kernels; no
# MPI (a context without a communicator).
add_executable(tessel-runtime-fused-tests FusedElementwiseTest.cpp)
target_link_libraries(tessel-runtime-fused-tests PRIVATE
  TesselRuntimeExecutor GTest::gtest GTest::gtest_main)
set(name ${TESSEL_RUNTIME_TEST_PREFIX}fused-vs-reference)
add_test(NAME ${name} COMMAND tessel-runtime-fused-tests)
set_tests_properties(${name} PROPERTIES TIMEOUT 120)

# f16 ops, and bf16 ops oneDNN has no kernel for, on their f32 kernels
# against the ops' definitions; no MPI.
add_executable(tessel-runtime-widened-tests WidenedOpsTest.cpp)
target_link_libraries(tessel-runtime-widened-tests PRIVATE
  TesselRuntimeExecutor GTest::gtest GTest::gtest_main)
set(name ${TESSEL_RUNTIME_TEST_PREFIX}widened-vs-reference)
add_test(NAME ${name} COMMAND tessel-runtime-widened-tests)
set_tests_properties(${name} PROPERTIES TIMEOUT 120)
# The bf16 products both ways on any CPU: on the f32 kernels (bit for bit)
# and on oneDNN's bf16 ones (to an ulp of bf16), whichever this CPU picks.
foreach(products widened native)
  set(name ${TESSEL_RUNTIME_TEST_PREFIX}widened-vs-reference-${products}-bf16-products)
  add_test(NAME ${name} COMMAND tessel-runtime-widened-tests
    --gtest_filter=WidenedOps.Bf16ProductsOnTheKernelsChosen)
  if(products STREQUAL "native")
    set(native 1)
  else()
    set(native 0)
  endif()
  set_tests_properties(${name} PROPERTIES TIMEOUT 120
    ENVIRONMENT TESSEL_NATIVE_BF16_PRODUCTS=${native})
endforeach()

# An op failing on one rank while the other waits in a collective ends the
# job with the op's message instead of hanging.
add_executable(tessel-runtime-executor-abort ExecutorAbortMain.cpp)
target_link_libraries(tessel-runtime-executor-abort PRIVATE
  TesselRuntimeExecutor)
set(name ${TESSEL_RUNTIME_TEST_PREFIX}executor-abort-np2)
add_test(NAME ${name}
  COMMAND ${CMAKE_COMMAND}
    "-DCOMMAND=${MPIEXEC_EXECUTABLE};${MPIEXEC_NUMPROC_FLAG};2;--oversubscribe;--allow-run-as-root;--bind-to;none;$<TARGET_FILE:tessel-runtime-executor-abort>"
    "-DEXPECTED=tessel: rank 1: error at model.mlir:7:3 in tessel.gather: .*3"
    -P ${CMAKE_CURRENT_SOURCE_DIR}/ExpectJobFailure.cmake)
set_tests_properties(${name} PROPERTIES
  ENVIRONMENT "${TESSEL_MPI_TEST_ENVIRONMENT}"
  PROCESSORS 2
  FAIL_REGULAR_EXPRESSION "not stopped"
  TIMEOUT 120)

# A hand-compiled linear classifier linked with the driver, built for a
# one-rank and a two-rank data-parallel mesh, and the jobs that train it.
foreach(ranks 1 2)
  add_executable(tessel-runtime-linear-np${ranks} LinearClassifier.cpp)
  math(EXPR local_batch "64 / ${ranks}")
  target_compile_definitions(tessel-runtime-linear-np${ranks} PRIVATE
    TESSEL_TEST_RANKS=${ranks} TESSEL_TEST_LOCAL_BATCH=${local_batch})
  target_link_libraries(tessel-runtime-linear-np${ranks} PRIVATE
    tessel_driver)
endforeach()

# The classifier above, hand-compiled as a two-stage pipeline
# (LinearPipeline.cpp) for a mesh data:D x stage:2, M micro-batches of the
# same global batch of 64 and a schedule; the driver tests train each
# against the unpipelined program's losses.
foreach(config "1;4;1f1b" "1;4;gpipe" "2;2;1f1b")
  list(GET config 0 data)
  list(GET config 1 microbatches)
  list(GET config 2 schedule)
  set(target tessel-runtime-linear-pipeline-d${data}-m${microbatches}-${schedule})
  math(EXPR micro "64 / ${microbatches}")
  math(EXPR local_micro "${micro} / ${data}")
  # 1/micro and 1/microbatches, exact in binary for these powers of two.
  math(EXPR inverse_micro "1000000 / ${micro}")
  math(EXPR inverse_microbatches "1000000 / ${microbatches}")
  add_executable(${target} LinearPipeline.cpp)
  target_compile_definitions(${target} PRIVATE
    TESSEL_TEST_DATA=${data} TESSEL_TEST_MICROBATCHES=${microbatches}
    TESSEL_TEST_MICRO=${micro} TESSEL_TEST_LOCAL_MICRO=${local_micro}
    TESSEL_TEST_SCHEDULE="${schedule}"
    TESSEL_TEST_INVERSE_MICRO=${inverse_micro}e-6
    TESSEL_TEST_INVERSE_MICROBATCHES=${inverse_microbatches}e-6)
  target_link_libraries(${target} PRIVATE tessel_driver)
  list(APPEND TESSEL_LINEAR_PIPELINES ${target})
endforeach()

find_package(nlohmann_json 3 REQUIRED)

# A gtest program tessel-runtime-SHORT-tests of TEST, linked with the whole
# driver library, run without MPI as the test SHORT under the runtime's
# prefix.
function(tessel_driver_library_test short test)
  set(target tessel-runtime-${short}-tests)
  add_executable(${target} ${test})
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/..)
  # gtest_main before the driver, whose archive has a main() of its own.
  target_link_libraries(${target} PRIVATE
    GTest::gtest_main tessel_driver GTest::gtest)
  set(name ${TESSEL_RUNTIME_TEST_PREFIX}${short})
  add_test(NAME ${name} COMMAND ${target})
  set_tests_properties(${name} PROPERTIES TIMEOUT 60)
endfunction()

# The driver's check of a --data array against the argument it feeds.
tessel_driver_library_test(array-fits ArrayFitsTest.cpp)

# Each rank's block of a step's images, on every path of the driver's
# filling.
tessel_driver_library_test(batch-blocks BatchBlocksTest.cpp)

# Checkpoints damaged or read as another program: each an error naming the
# file and the tensor; a failed write keeps the checkpoint before it.
add_executable(tessel-runtime-checkpoint-tests
  CommTestMain.cpp
  CheckpointTest.cpp
)
target_include_directories(tessel-runtime-checkpoint-tests PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/..)
target_link_libraries(tessel-runtime-checkpoint-tests PRIVATE
  tessel_driver GTest::gtest nlohmann_json::nlohmann_json)
set(name ${TESSEL_RUNTIME_TEST_PREFIX}checkpoint-np1)
add_test(NAME ${name}
  COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 1
          --oversubscribe --allow-run-as-root --bind-to none
          ${MPIEXEC_PREFLAGS} $<TARGET_FILE:tessel-runtime-checkpoint-tests>)
set_tests_properties(${name} PROPERTIES
  ENVIRONMENT "${TESSEL_MPI_TEST_ENVIRONMENT}"
  TIMEOUT 120)

# zlib writes the gzipped data files of the tests of the idx reader.
find_package(ZLIB REQUIRED)
add_executable(tessel-runtime-driver-tests DriverTest.cpp)
target_link_libraries(tessel-runtime-driver-tests PRIVATE
  GTest::gtest GTest::gtest_main nlohmann_json::nlohmann_json ZLIB::ZLIB)
target_compile_definitions(tessel-runtime-driver-tests PRIVATE
  TESSEL_MPIEXEC="${MPIEXEC_EXECUTABLE}"
  TESSEL_LINEAR_NP1="$<TARGET_FILE:tessel-runtime-linear-np1>"
  TESSEL_LINEAR_NP2="$<TARGET_FILE:tessel-runtime-linear-np2>"
  TESSEL_LINEAR_PIPELINE_1F1B="$<TARGET_FILE:tessel-runtime-linear-pipeline-d1-m4-1f1b>"
  TESSEL_LINEAR_PIPELINE_GPIPE="$<TARGET_FILE:tessel-runtime-linear-pipeline-d1-m4-gpipe>"
  TESSEL_LINEAR_PIPELINE_DATA="$<TARGET_FILE:tessel-runtime-linear-pipeline-d2-m2-1f1b>"
  TESSEL_TEST_SCRATCH="${CMAKE_CURRENT_BINARY_DIR}/driver-scratch")
add_dependencies(tessel-runtime-driver-tests
  tessel-runtime-linear-np1 tessel-runtime-linear-np2
  ${TESSEL_LINEAR_PIPELINES})
foreach(test Help:HelpListsTheOptions Mismatch:MeshThatDoesNotMatchTheJobIsAClearError
             Loss:TrainingLowersTheLoss Profile:ProfilePrintsTheTimeOfEachKindOfOp
             ProfileSites:ProfileListsAsManyCallSitesAsAsked
             ProfileWaits:ProfileShowsEveryRanksWait
             Ranks:OneAndTwoRanksPrintTheSameLosses
             Resume:CheckpointFromTwoRanksResumesOnOne
             BadCheckpoint:CheckpointThatDisagreesIsAClearError
             NoData:MissingDataIsAClearError
             TruncatedData:TruncatedDataIsAClearError
             DataShape:DataOfAnotherShapeIsAClearError
             NonFinite:NonFiniteLossStopsTrainingNamingTheStep
             Overflow:AnUpdateThatOverflowsIsNeverKept
             NonFiniteOptions:NonFiniteOptionsAreRefused
             EmptyPaths:EmptyPathsAndSeedsOutOfRangeAreRefused
             IgnoredOptions:OptionsThatWouldBeIgnoredAreRefused
             Metrics:MetricsNeverOverwriteOtherFilesAndFailOnAFullDisk
             EmptyData:EmptyOrOverflowingDataIsAClearError
             InflatedData:DataBeyondWhatItsHeaderPromisesIsNotRead
             WideIntegers:IntegersTheModelCannotHoldAreAnError
             NanData:NonFiniteDataAreAnError
             Pipeline:PipelinedTrainingHasTheUnpipelinedLosses
             PipelineOptions:PipelinedTrainingRefusesWhatItCannotDo
             PipelineOverflow:PipelinedUpdateThatOverflowsIsNeverKept)
  string(REPLACE ":" ";" parts ${test})
  list(GET parts 0 short)
  list(GET parts 1 gtest)
  string(TOLOWER ${short} short)
  set(name ${TESSEL_RUNTIME_TEST_PREFIX}driver-${short})
  add_test(NAME ${name}
    COMMAND tessel-runtime-driver-tests --gtest_filter=Driver.${gtest})
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "${TESSEL_MPI_TEST_ENVIRONMENT}"
    PROCESSORS 2
    # Each scratch directory is its own, but two jobs at once would only
    # compete for the two cores.
    RESOURCE_LOCK tessel-driver
    SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]"
    TIMEOUT 300)
endforeach()

# A gtest program NAME of parts of the driver: TEST with the
# DRIVER_SOURCES of runtime/driver compiled in (their headers found as
# "driver/..."), linked with LIBRARIES, its tests discovered under the
# runtime's prefix.
function(tessel_driver_unit_test name test)
  cmake_parse_arguments(PARSE_ARGV 2 unit "" "" "DRIVER_SOURCES;LIBRARIES")
  list(TRANSFORM unit_DRIVER_SOURCES
    PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/../driver/)
  add_executable(${name} ${test} ${unit_DRIVER_SOURCES})
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/..)
  target_link_libraries(${name} PRIVATE
    ${unit_LIBRARIES} GTest::gtest GTest::gtest_main)
  gtest_discover_tests(${name} TEST_PREFIX ${TESSEL_RUNTIME_TEST_PREFIX})
endfunction()

# The .npy writer of forward-only programs' predictions, read back by the
# reader of reference/npy (whose own tests are tests/unit/NpyTest.cpp).
tessel_driver_unit_test(tessel-runtime-npy-writer-tests NpyWriterTest.cpp
  DRIVER_SOURCES NpyWriter.cpp
  LIBRARIES TesselRuntimeExecutor ${TESSEL_RUNTIME_NPY} fmt::fmt)

# Subnormal floats flushed to zero in the compiled programs, or kept when
# TESSEL_KEEP_DENORMALS asks (runtime/driver/Denormals).
tessel_driver_unit_test(tessel-runtime-denormals-tests DenormalsTest.cpp
  DRIVER_SOURCES Denormals.cpp)

# The token sampling of text generation (greedy, temperature, top-k, seed).
tessel_driver_unit_test(tessel-runtime-sampling-tests SamplingTest.cpp
  DRIVER_SOURCES Sampling.cpp)

# The state text generation carries between decode calls: the same global
# tensor under the same layout (runtime/driver/CarriedState).
tessel_driver_unit_test(tessel-runtime-carried-state-tests CarriedStateTest.cpp
  DRIVER_SOURCES CarriedState.cpp
  LIBRARIES TesselRuntimeExecutor)

# Dynamic loss scaling in the training loop: the state found by name, kept
# from a skipped step, and the scale's floor (runtime/driver/LossScaling).
tessel_driver_unit_test(tessel-runtime-loss-scaling-tests LossScalingTest.cpp
  DRIVER_SOURCES LossScaling.cpp
  LIBRARIES TesselRuntimeExecutor)

# The safetensors format below tessel's checkpoints: PyTorch's files, every
# dtype's conversions, headers that lie (runtime/safetensors).
add_executable(tessel-runtime-safetensors-tests SafetensorsTest.cpp)
target_link_libraries(tessel-runtime-safetensors-tests PRIVATE
  TesselSafetensors GTest::gtest GTest::gtest_main)
gtest_discover_tests(tessel-runtime-safetensors-tests
  TEST_PREFIX ${TESSEL_RUNTIME_TEST_PREFIX})

# Pipelined training's schedules (GPipe, 1F1B: order, micro-batches held,
# a simulated step's bubble) and the metadata's "pipeline" object.
tessel_driver_unit_test(tessel-runtime-pipeline-tests PipelineScheduleTest.cpp
  DRIVER_SOURCES PipelineSchedule.cpp Metadata.cpp
  LIBRARIES TesselRuntimeExecutor nlohmann_json::nlohmann_json)
