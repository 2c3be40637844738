#!/usr/bin/env bash
# End to end on more than one host: two hosts made on this machine as Linux
# network namespaces joined by a veth pair (each with its own address and
# hostname), Open MPI between them over TCP only (btl self,tcp on the
# pair's subnet; no shared memory), mpirun's remote daemons started in the
# other namespace by a stand-in for ssh. `tessel run --hostfile` starts 2
# ranks on each host; the MLP (data and hybrid layouts) and the Transformer
# (hybrid) train there with the 1-rank loss curve.
#
# Needs root (or CAP_NET_ADMIN and CAP_SYS_ADMIN) for `ip netns` and
# `unshare --uts`; exits 77 (a skip, with the reason) where namespaces
# cannot be made.
#
# usage: multihost.sh BUILD_BIN_DIR EXAMPLES_DIR
set -euo pipefail
bin=$1
examples=$2
source "$(dirname "$0")/common.sh"
for tool in ip unshare mpirun; do
  command -v "$tool" > /dev/null || skip "$tool is not installed"
done
have_fashion_mnist || skip "$no_fashion_mnist"

# Names of this run's own: namespaces and links are machine-wide.
hosts=(tessel-host$$-a tessel-host$$-b)
addresses=(10.23.0.1 10.23.0.2)
subnet=10.23.0.0/24
cleanup() {
  for ns in "${hosts[@]}"; do ip netns delete "$ns" 2> /dev/null || true; done
  ip link delete "tsl$$a" 2> /dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The two hosts and the cable between them.
if ! error=$( { ip netns add "${hosts[0]}" && ip netns add "${hosts[1]}" &&
                ip link add "tsl$$a" type veth peer name "tsl$$b"; } 2>&1); then
  skip "cannot make network namespaces here: $error"
fi
for i in 0 1; do
  end=$([ $i -eq 0 ] && echo "tsl$$a" || echo "tsl$$b")
  ip link set "$end" netns "${hosts[$i]}"
  ip -n "${hosts[$i]}" addr add "${addresses[$i]}/24" dev "$end"
  ip -n "${hosts[$i]}" link set lo up
  ip -n "${hosts[$i]}" link set "$end" up
done

# mpirun starts its daemon on another host with `ssh HOST COMMAND`; here
# the command runs in that host's namespace under its own hostname.
cat > "$work/netns-ssh" << AGENT
#!/bin/sh
host=\$1
shift
case \$host in
  ${addresses[0]}) ns=${hosts[0]} ;;
  ${addresses[1]}) ns=${hosts[1]} ;;
  *) echo "netns-ssh: no host \$host" >&2; exit 255 ;;
esac
exec ip netns exec "\$ns" unshare --uts sh -c "hostname \$ns; \$*"
AGENT
chmod +x "$work/netns-ssh"
printf '%s slots=2\n%s slots=2\n' "${addresses[0]}" "${addresses[1]}" > "$work/hostfile"

# TCP on the pair's subnet only, for the ranks and for mpirun's daemons
# (the daemons and ranks inherit the environment through netns-ssh).
tcp_only=(OMPI_MCA_btl=self,tcp OMPI_MCA_btl_tcp_if_include=$subnet
          OMPI_MCA_oob_tcp_if_include=$subnet)
launch=(--hostfile "$work/hostfile"
        --mpirun-args "--display-map --mca plm_rsh_agent $work/netns-ssh")
# Runs `tessel ARGS` on the first host, as a user on a login node would.
on_first_host() {
  env "${tcp_only[@]}" ip netns exec "${hosts[0]}" unshare --uts \
    sh -c 'hostname "$0"; exec "$@"' "${hosts[0]}" "$bin/tessel" "$@"
}

# Two ranks on each host, as mpirun's map shows.
two_per_host() { # mpirun's output
  python3 - "$1" "${hosts[0]}" "${addresses[1]}" << 'PY'
import re, sys
text = open(sys.argv[1]).read()
procs = dict(re.findall(r"Data for node: (\S+)\s+Num slots: \d+\s+Max slots: \d+\s+Num procs: (\d+)", text))
print("ranks per host:", procs)
sys.exit(0 if procs == {sys.argv[2]: "2", sys.argv[3]: "2"} else 1)
PY
}

# name, the 1-rank run's metrics, then tessel run's arguments: the model,
# its options, -- and the program's options.
train_on_two_hosts() {
  local name=$1 reference=$2 model=$3
  shift 3
  local status=0
  on_first_host run "$model" "${launch[@]}" -o "$work/$name.spmd" "$@" \
      --metrics "$work/$name.jsonl" > "$work/$name.out" 2>&1 &&
    two_per_host "$work/$name.out" &&
    python3 "$here/compare_losses.py" "$reference" "$work/$name.jsonl" 1e-4 ||
    { status=1; tail -20 "$work/$name.out"; }
  result "$name: 2 hosts x 2 ranks over TCP give the 1-rank loss curve" $status
}

# The MLP on Fashion-MNIST: data parallel across all four ranks, and 2 x 2
# (the hidden layer split within a host, the batch across the two).
mlp=$examples/mlp/mlp.mlir
mlp_opts=(--steps 30 --data "$data" --lr 0.02 --seed 3 --log-every 1000 --no-evaluate)
"$bin/tessel" compile "$mlp" -o "$work/mlp1.spmd"
"$work/mlp1.spmd" "${mlp_opts[@]}" --metrics "$work/mlp1.jsonl" > "$work/mlp1.out"
train_on_two_hosts mlp-data "$work/mlp1.jsonl" "$mlp" --layout "$examples/mlp/data.yaml" \
  -- "${mlp_opts[@]}"
train_on_two_hosts mlp-hybrid "$work/mlp1.jsonl" "$mlp" --layout "$examples/mlp/hybrid.yaml" \
  -- "${mlp_opts[@]}"

# The Transformer language model (on its built-in corpus), Megatron-style
# within a host and data parallel across the two.
transformer=$examples/transformer/transformer.mlir
tx_train=(--optimizer adamw --weight-decay 0.01 --clip-norm 1.0)
tx_opts=(--steps 20 --lr 0.003 --seed 5 --log-every 1000 --no-evaluate)
"$bin/tessel" compile "$transformer" "${tx_train[@]}" -o "$work/tx1.spmd"
"$work/tx1.spmd" "${tx_opts[@]}" --metrics "$work/tx1.jsonl" > "$work/tx1.out"
train_on_two_hosts transformer-hybrid "$work/tx1.jsonl" "$transformer" \
  --layout "$examples/transformer/hybrid.yaml" "${tx_train[@]}" -- "${tx_opts[@]}"

finish
