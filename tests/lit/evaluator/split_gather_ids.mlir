// An embedding lookup from a table split along its rows fails on an id
// outside the table, as on one rank, instead of giving a row of zeros: such
// an id is looked up at its local index, which no block holds. In range,
// the split lookup is the one-rank lookup.
// RUN: tessel-opt %s --tessel-apply-layout="mesh=model:2 rules=k:model" --tessel-partition -o %t.mlir
// RUN: tessel-eval %s --input table=%S/Inputs/gather_table.npy --input ids=%S/Inputs/gather_ids.npy --output-dir %t.ref | FileCheck %s --check-prefix=OK
// RUN: tessel-eval %t.mlir --input table=%S/Inputs/gather_table.npy --input ids=%S/Inputs/gather_ids.npy --check-against %t.ref | FileCheck %s --check-prefix=OK
// RUN: not tessel-eval %t.mlir --input table=%S/Inputs/gather_table.npy --input ids=%S/Inputs/gather_ids_past_table.npy 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: not tessel-eval %t.mlir --input table=%S/Inputs/gather_table.npy --input ids=%S/Inputs/gather_ids_negative.npy 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// OK: result0: [batch:4, n:3] f32 = 0 1 2 9 10 11 21 22 ... (12 elements)
// PAST: error: id 8 at (batch=2) is outside the vocabulary range [0, 4) (on rank 0)
// NEGATIVE: error: id -1 at (batch=1) is outside the vocabulary range [0, 4) (on rank 0)
func.func @lookup(%table: !tessel.tensor<[k:8, n:3], f32> {tessel.name = "table"},
                  %ids: !tessel.tensor<[batch:4], i32> {tessel.name = "ids"}) -> !tessel.tensor<[batch:4, n:3], f32> {
  %e = tessel.gather %table[%ids] over "k"
      : !tessel.tensor<[k:8, n:3], f32>, !tessel.tensor<[batch:4], i32> -> !tessel.tensor<[batch:4, n:3], f32>
  return %e : !tessel.tensor<[batch:4, n:3], f32>
}
