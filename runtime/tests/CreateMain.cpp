//===- CreateMain.cpp - Create a communicator from the command line -------===//
//
// tessel-runtime-comm-create AXIS=SIZE...
//
// Creates this rank's communicator over the given mesh, leaving MPI's
// initialisation and finalisation to the runtime, prints the rank's
// coordinates and exits 0; or prints the runtime's error and exits 1. The
// tests use it to check what a job started on the wrong number of ranks
// says.
//
//===----------------------------------------------------------------------===//

#include "tessel/runtime/comm.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  std::vector<std::string> names;
  std::vector<int64_t> sizes;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    size_t equals = arg.find('=');
    if (equals == std::string::npos) {
      std::fprintf(stderr, "usage: %s AXIS=SIZE...\n", argv[0]);
      return 2;
    }
    names.push_back(arg.substr(0, equals));
    sizes.push_back(std::strtoll(arg.c_str() + equals + 1, nullptr, 10));
  }
  std::vector<const char *> namePointers;
  for (const std::string &name : names)
    namePointers.push_back(name.c_str());

  tessel_comm_t *comm = nullptr;
  tessel_status_t status =
      tessel_comm_create(static_cast<int32_t>(names.size()),
                         namePointers.data(), sizes.data(), &comm);
  if (status != TESSEL_STATUS_OK) {
    std::fprintf(stderr, "error: %s: %s\n", tessel_status_name(status),
                 tessel_last_error_message());
    return 1;
  }
  int64_t rank = 0;
  tessel_comm_rank(comm, &rank);
  std::string line = "rank " + std::to_string(rank) + ":";
  for (const std::string &name : names) {
    int64_t coordinate = 0;
    tessel_comm_coordinate(comm, name.c_str(), &coordinate);
    line += " " + name + "=" + std::to_string(coordinate);
  }
  std::printf("%s\n", line.c_str());
  status = tessel_comm_destroy(comm);
  if (status != TESSEL_STATUS_OK) {
    std::fprintf(stderr, "error: %s: %s\n", tessel_status_name(status),
                 tessel_last_error_message());
    return 1;
  }
  return 0;
}
