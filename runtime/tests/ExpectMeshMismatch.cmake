# Runs a 2 x 2 mesh on 2 ranks and checks that the job fails and says why
# with both numbers. Every rank fails alike (the in-process test
# Comm.MeshThatDoesNotMatchTheJobIsAClearError checks that on every rank),
# but mpirun kills the other ranks as soon as the first exits non-zero, so
# the message may come from one rank only. Run with cmake -P; MPIEXEC,
# NUMPROC_FLAG and PROGRAM are passed with -D.
execute_process(
  COMMAND ${MPIEXEC} ${NUMPROC_FLAG} 2 --oversubscribe --allow-run-as-root
          --bind-to none ${PROGRAM} data=2 model=2
  RESULT_VARIABLE status
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output
  TIMEOUT 100)
message("${output}")
if(status EQUAL 0)
  message(FATAL_ERROR "the mismatched job exited 0")
endif()
set(expected "mesh data:2 x model:2 needs 4 ranks, but mpirun started 2")
string(REGEX MATCHALL "${expected}" found "${output}")
list(LENGTH found count)
if(count EQUAL 0)
  message(FATAL_ERROR "expected '${expected}' in the job's output")
endif()
message("ok: exit status ${status}, the message from ${count} rank(s)")
