#!/usr/bin/env bash
# The differential sweep: every example under every layout, partitioned,
# its communication optimised, and run for every rank of its mesh by the
# reference evaluator, must compute what the one-rank program computes
# (relative error under 1e-5). The forward pass (the loss), the training
# step that tessel-autodiff makes of it (loss, gradients and the optimizer's
# update of every parameter and its state) and, where an example has one,
# its evaluation (loss and number of correct predictions), its decoding
# step (logits and key/value caches) and its predictions (logits and
# classes) are checked.
# Einsums of three or more inputs are split into pairwise ones first
# (tessel-decompose-einsum, as `tessel compile` does), so the references
# of the forward passes are the n-ary einsums the models wrote; einsum3/
# is a model of such einsums.
# Each also runs under the layouts `tessel search` picks for it on 4 and 8
# ranks.
# Besides the examples, small test models (tests/differential/models) cover
# ops and constructs the examples do not use (layers/: layer functions
# called with scopes, which tessel-inline-layers inlines first; scans/:
# sin, cos, cumsum and argmax; regularized/: dropout, grouped and depthwise
# convolutions; topk/: a top-2 gate and a top-k along the batch).
#
# usage: sweep.sh BUILD_BIN_DIR MODELS_DIR...   (each <name>/<name>.mlir)
set -euo pipefail
bin=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Extra layouts beyond each example's files, up to 8 ranks, in
# Mesh-TensorFlow string syntax: "example|mesh|rules".
extra=(
  "mlp|data:8|batch:data"
  "mlp|data:2;model:4|batch:data;hidden:model"
  "mlp|data:2;model:4|batch:model,data"
  "mlp|model:2|pixels:model"
  "mlp|model:2;data:2|classes:model;batch:data"
  "transformer|data:2;model:4|batch:data;heads:model;d_ff:model"
  "transformer|model:4|vocab:model"
  "transformer|model:4|key:model"
  "transformer|data:2;model:2|batch:data;key:model;vocab:model"
  "mlp|model:2|classes:model"
  "transformer|seq:2;model:2|seq:seq;d_model:model"
  "transformer|data:4;model:2|batch:data;head_dim:model;d_ff:model"
  "cnn|data:2;model:4|batch:data;f2:model"
  "cnn|rows:2;cols:2;data:2|h:rows;w:cols;batch:data"
  "cnn|model:2;rows:2|classes:model;f2:rows"
  # Splits that do not divide (pad_uneven): padded last blocks.
  "mlp|model:3|hidden:model pad-uneven=true"
  "mlp|data:3;model:3|batch:data;hidden:model pad-uneven=true"
  "mlp|model:3|classes:model pad-uneven=true"
  "cnn|data:3|batch:data pad-uneven=true"
  "cnn|model:3|f2:model pad-uneven=true"
  "cnn|rows:3|h:rows pad-uneven=true"
  "transformer|model:3|vocab:model pad-uneven=true"
  "transformer|data:3;model:3|batch:data;d_ff:model;heads:model pad-uneven=true"
  "transformer|model:3|d_model:model pad-uneven=true"
  # Reshapes, slices, pads and concatenations with split dimensions: splits
  # that stay local (the batch; heads and tokens as the major parts of
  # hidden and of [seq, heads]) and ones gathered first (hidden2 and seq,
  # which they slice, pad and concatenate; head_dim, the minor part).
  # Without a rule, heads and tokens take the splits of hidden and seq.
  "shapes|model:2|hidden:model;heads:model;hidden2:model"
  "shapes|model:4|hidden:model"
  "shapes|data:2;model:2|batch:data;seq:model;tokens:model"
  "shapes|data:4;model:2|batch:data;hidden2:model"
  "shapes|model:3|head_dim:model"
  "shapes|model:2;data:2|heads:model;tokens:data;hidden2:data"
  "shapes|seq:2;model:2|seq:seq;hidden:model;heads:model;hidden2:model"
  "shapes|model:3|hidden:model;heads:model;hidden2:model pad-uneven=true"
  "shapes|data:3;model:3|batch:data;seq:model pad-uneven=true"
  "shapes|data:3;model:2|batch:data;hidden2:model pad-uneven=true"
  # Layer functions: the scoped weights and the shared projection split.
  "layers|model:2;data:2|feat:model;batch:data"
  "layers|model:3|feat:model pad-uneven=true"
  # The front end's language model: its tied table split by vocabulary.
  "gpt|data:2;model:2|batch:data;vocab:model"
  # Its positions split (key): the decoding step's caches split along the
  # positions, the new key and value written on the rank that holds
  # `position`, the softmax over the split positions.
  "gpt|model:2|key:model"
  # Its rotary and dropout variant (examples/gpt/gpt.py --rotary --dropout
  # 0.1): the masks under a split batch and split heads, and head_dim, whose
  # halves the rotation slices and concatenates, split too.
  "gpt_rotary|data:2;model:2|batch:data;heads:model;d_ff:model"
  "gpt_rotary|model:2|head_dim:model"
  "gpt_rotary|seq:2|seq:seq"
  # Einsums of three and four inputs, decomposed: the pairwise
  # intermediates split by name, a contracted feat split (partial sums),
  # and `head`, summed by a reduce before any product, split.
  "einsum3|data:2;model:2|batch:data;cls:model"
  "einsum3|model:2|feat:model"
  "einsum3|model:3|rank:model"
  "einsum3|model:2;data:2|head:model;batch:data"
  # The ViT's patches, 7 x 7 (padded): the rows' grid split (its reshape keeps the split
  # local), and its tokens split over `seq` (gathered before attention).
  "vit|rows:2|grid_h:rows pad-uneven=true"
  "vit|seq:2;model:2|seq:seq;d_ff:model pad-uneven=true"
  # sin, cos, cumsum and argmax: the dims the scans and the argmax work
  # along split (gathered first), and the others kept split beside them.
  # The ResNet's batch norms: statistics over a batch split 8 ways, over
  # rows split 3 ways (padded), and channels split beside the batch; the
  # running statistics the step returns and evaluate uses match one rank.
  "resnet|data:8|batch:data"
  "resnet|rows:3|h:rows pad-uneven=true"
  "resnet|model:2;data:2|ch2:model;batch:data"
  "scans|model:2|seq:model"
  "scans|model:2|hidden:model"
  "scans|data:2;model:2|batch:data;seq:model"
  "scans|data:2;model:4|batch:data;hidden:model"
  "scans|seq:2;model:2|seq:seq;hidden:model"
  "scans|model:4|seq:model pad-uneven=true"
  "scans|data:3;model:3|batch:data;hidden:model pad-uneven=true"
  # Dropout (the mask a function of the global index, so a split draws the
  # same one) on split batch, rows, channels and hidden units, beside a
  # grouped and a depthwise convolution, whose split channels are gathered.
  "regularized|model:2|hidden:model"
  "regularized|data:2;model:2|batch:data;hidden:model"
  "regularized|rows:2;model:2|h:rows;g:model"
  "regularized|data:3;model:2|batch:data;c:model;g:model"
  "regularized|model:3|f:model;hidden:model pad-uneven=true"
  "regularized|model:4|g:model pad-uneven=true"
  "regularized|data:4;model:2|batch:data;h:model pad-uneven=true"
  # top_k: the top-2 gate along split experts (each block's top 2 and their
  # global indices gathered, the top 2 of those), with one expert per rank
  # (fewer than k) and over two axes; the top-3 along a split batch; both
  # beside the other dim split; the new dims split after the top_k; padded
  # splits gathered first.
  "topk|data:2|batch:data"
  "topk|model:4|experts:model"
  "topk|model:8|experts:model"
  "topk|data:2;model:4|batch:data;experts:model"
  "topk|model:2;data:2|experts:model,data"
  "topk|data:2;model:2|batch:data,model"
  "topk|model:2|choice:model"
  "topk|model:3|hard:model pad-uneven=true"
  "topk|data:3|batch:data pad-uneven=true"
  "topk|data:2;model:3|batch:data;experts:model pad-uneven=true"
  # The mixture of experts: two experts per rank (each rank's tokens sent
  # to two ranks), expert parallelism beside data parallelism on 8 ranks,
  # experts split beside their FFNs' width, the groups' tokens split over
  # `seq` (the routing cumsum gathers them), and 4 experts over 3 ranks
  # (padded: gathered and sliced, not all_to_all).
  "moe|expert:2|batch:expert;experts:expert"
  "moe|data:2;expert:4|batch:data,expert;group:data;experts:expert"
  "moe|expert:2;model:2|batch:expert;experts:expert;d_ff:model"
  "moe|data:2;seq:2|batch:data;group:data;seq:seq"
  "moe|expert:3|batch:expert;experts:expert pad-uneven=true"
  "moe|data:3;expert:2|batch:data;group:data;experts:expert pad-uneven=true"
)

# The optimizer of each example's training step; between them the sweep
# covers every optimizer's state under every layout.
declare -A optimizers=(
  [mlp]="optimizer=adam"
  [transformer]="optimizer=adamw weight-decay=0.01 clip-norm=1.0"
  [cnn]="optimizer=momentum"
  [layers]="optimizer=adam"
  [gpt]="optimizer=adamw weight-decay=0.01"
  [gpt_rotary]="optimizer=adamw"
  [vit]="optimizer=adamw"
  [resnet]="optimizer=momentum"
  [regularized]="optimizer=adam"
  [moe]="optimizer=adamw"
  [topk]="optimizer=adam"
)

# The optimizer's name alone (tessel search's --optimizer), sgd by default.
optimizer_of() {
  local options=${optimizers[$1]:-}
  local name=${options#optimizer=}
  [ "$name" != "$options" ] && echo "${name%% *}" || echo sgd
}

passed=0
failed=0
check() { # name, model, function, reference dir, apply-layout option
  local name=$1 model=$2 function=$3 reference=$4 option=$5
  local file
  file=$(echo "$name" | tr -c "A-Za-z0-9_.\n" "_")
  local partitioned="$work/$file.mlir"
  if "$bin/tessel-opt" "$model" --tessel-inline-layers --tessel-decompose-einsum \
       "--tessel-apply-layout=$option" \
       --tessel-partition --tessel-optimize-comm --cse --tessel-bucket-all-reduces \
       -o "$partitioned" 2> "$work/$file.err" &&
     "$bin/tessel-eval" "$partitioned" --function "$function" --random-inputs --seed 11 \
       --check-against "$reference" > "$work/$file.out" 2>> "$work/$file.err"; then
    echo "PASS: $name"
    passed=$((passed + 1))
  else
    echo "FAIL: $name"
    cat "$work/$file.err" "$work/$file.out" 2>/dev/null | head -20 || true
    failed=$((failed + 1))
  fi
}

for dir in $(for models in "$@"; do ls -d "$models"/*/; done); do
  example=$(basename "$dir")
  forward="$dir/$example.mlir"
  [ -f "$forward" ] || continue
  step="$work/$example.train_step.mlir"
  "$bin/tessel-opt" "$forward" --tessel-inline-layers --tessel-decompose-einsum \
    "--tessel-autodiff=${optimizers[$example]:-}" -o "$step"
  functions="forward train_step"
  grep -q "func.func @evaluate" "$forward" && functions="$functions evaluate"
  # A language model's decoding step (examples/gpt: one position, with
  # key/value caches split like the heads and the batch).
  grep -q "func.func @decode" "$forward" && functions="$functions decode"
  # A model's predictions (examples/mlp: logits and argmax classes), which
  # a forward-only program writes.
  grep -q "func.func @predict" "$forward" && functions="$functions predict"
  for function in $functions; do
    model=$forward
    [ "$function" = train_step ] && model=$step
    reference="$work/$example.$function.reference"
    "$bin/tessel-eval" "$model" --function "$function" --random-inputs --seed 11 \
      --output-dir "$reference" > /dev/null
    for layout in "$dir"/*.yaml; do
      [ -f "$layout" ] || continue
      check "$example/$function/$(basename "$layout" .yaml)" "$model" "$function" \
        "$reference" "layout-file=$layout"
    done
    # The layouts tessel search picks on 4 and 8 ranks (docs/search.md):
    # whatever it writes (ZeRO overrides, a second model axis, padding)
    # computes what one rank computes.
    for ranks in 4 8; do
      searched="$work/$example.search$ranks.yaml"
      if [ -f "$searched" ] ||
         "$bin/tessel" search "$forward" -n "$ranks" -o "$searched" \
           --optimizer "$(optimizer_of "$example")" > /dev/null; then
        check "$example/$function/search-n$ranks" "$model" "$function" \
          "$reference" "layout-file=$searched"
      else
        echo "FAIL: $example/$function/search-n$ranks: tessel search found no layout"
        failed=$((failed + 1))
      fi
    done
    for entry in "${extra[@]}"; do
      IFS='|' read -r name mesh rules <<< "$entry"
      [ "$name" = "$example" ] || continue
      check "$example/$function/mesh=$mesh/rules=$rules" "$model" "$function" \
        "$reference" "mesh=$mesh rules=$rules"
    done
  done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
