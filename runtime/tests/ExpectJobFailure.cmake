# Runs an mpirun job that must fail: a non-zero status and EXPECTED (a
# regular expression) in its output, within the timeout. Run with cmake -P;
# COMMAND (a ;-list) and EXPECTED are passed with -D.
execute_process(
  COMMAND ${COMMAND}
  RESULT_VARIABLE status
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output
  TIMEOUT 100)
message("${output}")
if(status EQUAL 0)
  message(FATAL_ERROR "the job exited 0")
endif()
if(NOT output MATCHES "${EXPECTED}")
  message(FATAL_ERROR "expected '${EXPECTED}' in the job's output")
endif()
message("ok: exit status ${status}")
