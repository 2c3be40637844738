// A damaged or unsupported .npy file is an error that names the file and
// what is wrong, never a crash.
// RUN: not tessel-eval %s --input x=%S/Inputs/truncated.npy 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: not tessel-eval %s --input x=%S/Inputs/bad_magic.npy 2>&1 | FileCheck %s --check-prefix=MAGIC
// RUN: not tessel-eval %s --input x=%S/Inputs/complex.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not tessel-eval %s --input x=%S/Inputs/fortran.npy 2>&1 | FileCheck %s --check-prefix=FORTRAN
// RUN: not tessel-eval %s --input x=%S/Inputs/bad_shape.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not tessel-eval %s --input x=%S/Inputs/empty.npy 2>&1 | FileCheck %s --check-prefix=EMPTY
// TRUNCATED: error: input 'x': {{.*}}truncated.npy: file holds fewer elements than its shape (4,) needs
// MAGIC: error: input 'x': {{.*}}bad_magic.npy: not an .npy file (bad magic string)
// DTYPE: error: input 'x': {{.*}}complex.npy: unsupported element type '<c8' (expected little-endian float or integer)
// FORTRAN: error: input 'x': {{.*}}fortran.npy: Fortran-ordered arrays are not supported
// SHAPE: error: input 'x': {{.*}}bad_shape.npy: malformed shape in .npy header
// EMPTY: error: input 'x': {{.*}}empty.npy: not an .npy file (bad magic string)
func.func @main(%x: !tessel.tensor<[k:4], f32> {tessel.name = "x"}) -> !tessel.tensor<[k:4], f32> {
  return %x : !tessel.tensor<[k:4], f32>
}
