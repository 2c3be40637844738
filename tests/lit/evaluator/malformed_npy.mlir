// A damaged or unsupported .npy file is an error that names the file and
// what is wrong, never a crash.
// RUN: not tessel-eval %s --input x=%S/Inputs/truncated.npy 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: not tessel-eval %s --input x=%S/Inputs/bad_magic.npy 2>&1 | FileCheck %s --check-prefix=MAGIC
// RUN: not tessel-eval %s --input x=%S/Inputs/complex.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not tessel-eval %s --input x=%S/Inputs/fortran.npy 2>&1 | FileCheck %s --check-prefix=FORTRAN
// RUN: not tessel-eval %s --input x=%S/Inputs/bad_shape.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not tessel-eval %s --input x=%S/Inputs/empty.npy 2>&1 | FileCheck %s --check-prefix=EMPTY
// TRUNCATED: error: input 'x': {{.*}}truncated.npy: truncated: the header promises 16 bytes of data, the file holds 8
// MAGIC: error: input 'x': {{.*}}bad_magic.npy: not a .npy file (no \x93NUMPY magic)
// DTYPE: error: input 'x': {{.*}}complex.npy: element type '<c8' is not supported (bool, uint8/16/32/64, int8/16/32/64, float16/32/64 are)
// FORTRAN: error: input 'x': {{.*}}fortran.npy: the array is in Fortran order; save it in C order (numpy.ascontiguousarray)
// SHAPE: error: input 'x': {{.*}}bad_shape.npy: the header has no readable 'shape'
// EMPTY: error: input 'x': {{.*}}empty.npy: cannot map the file (empty or unreadable)
func.func @main(%x: !tessel.tensor<[k:4], f32> {tessel.name = "x"}) -> !tessel.tensor<[k:4], f32> {
  return %x : !tessel.tensor<[k:4], f32>
}
