# Runs TOOL --emit OUTPUT and fails unless OUTPUT equals EXPECTED: an
# example's committed .mlir is what its front-end program writes.
execute_process(COMMAND ${TOOL} --emit ${OUTPUT} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${TOOL} --emit failed (${status})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUTPUT} ${EXPECTED}
                RESULT_VARIABLE different)
if(different)
  message(FATAL_ERROR "${EXPECTED} is not what ${TOOL} writes (${OUTPUT}); "
                      "regenerate it with ${TOOL} --emit ${EXPECTED}")
endif()
