# Throwaway clusters for the sweep tests, every file in a temporary folder
# and every daemon stopped by cluster_stop (call it from the test's EXIT
# trap): an sshd on 127.0.0.1 (cluster_sshd) and a single-node Slurm with
# its munge (cluster_slurm).  Sourced by tests/scenarios/sweep_ssh.sh and
# sweep_slurm.sh; each function prints why and returns 77 (automake's SKIP)
# when a package is missing.
#   . "$MMSIM_SRCDIR/tests/cluster.sh"
#   trap 'cluster_stop; rm -rf "$dir"' EXIT
#   cluster_sshd "$dir/ssh" || exit $?     # then $cluster_ssh is an ssh command
#   cluster_slurm "$dir/slurm" || exit $?  # then SLURM_CONF is exported
cluster_pids=""

# A TCP port nobody listens on, from the kernel: bind to port 0.
cluster_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Wait up to 20 s for "$@" to succeed.
cluster_wait() {
	i=0
	while ! "$@" > /dev/null 2>&1; do
		i=$((i + 1))
		[ "$i" -lt 100 ] || return 1
		sleep 0.2
	done
}

cluster_stop() {
	for p in $cluster_pids; do
		kill "$p" 2> /dev/null || true
	done
	for p in $cluster_pids; do
		i=0
		while kill -0 "$p" 2> /dev/null && [ "$i" -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -9 "$p" 2> /dev/null || true
	done
	cluster_pids=""
}

# sshd on 127.0.0.1, a free port, host and user keys made here, only the
# current user allowed in with that key.  Sets cluster_ssh (the ssh command
# for parallel's --ssh) and cluster_host (user@127.0.0.1).
cluster_sshd() {
	d=$1
	for t in /usr/sbin/sshd ssh ssh-keygen; do
		command -v "$t" > /dev/null ||
			{ echo "SKIP: $t not found (Debian packages openssh-server, openssh-client)"; return 77; }
	done
	mkdir -p "$d"
	chmod 700 "$d"
	ssh-keygen -q -t ed25519 -N '' -f "$d/host_key" &&
		ssh-keygen -q -t ed25519 -N '' -f "$d/user_key" || return 1
	cp "$d/user_key.pub" "$d/authorized_keys"
	port=$(cluster_port)
	user=$(id -un)
	cat > "$d/sshd_config" <<CONF
ListenAddress 127.0.0.1
Port $port
HostKey $d/host_key
AuthorizedKeysFile $d/authorized_keys
PidFile $d/sshd.pid
AllowUsers $user
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
LogLevel ERROR
CONF
	# sshd wants its privilege separation folder.
	mkdir -p /run/sshd 2> /dev/null || true
	/usr/sbin/sshd -D -e -f "$d/sshd_config" 2> "$d/sshd.log" &
	cluster_pids="$cluster_pids $!"
	cluster_ssh="ssh -p $port -i $d/user_key -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
	cluster_host=$user@127.0.0.1
	# shellcheck disable=SC2086
	cluster_wait $cluster_ssh "$cluster_host" true ||
		{ cat "$d/sshd.log"; echo "sshd did not answer on port $port"; return 1; }
}

# munged and a Slurm of one node (this machine, 2 CPUs) on free ports,
# state, logs and the key in $1; exports SLURM_CONF for sbatch and the rest.
cluster_slurm() {
	d=$1
	for t in munged /usr/sbin/slurmctld /usr/sbin/slurmd sbatch squeue scontrol; do
		command -v "$t" > /dev/null ||
			{ echo "SKIP: $t not found (Debian packages munge, slurmctld, slurmd, slurm-client)"; return 77; }
	done
	mkdir -p "$d/state" "$d/spool"
	chmod 700 "$d"
	dd if=/dev/urandom of="$d/munge.key" bs=1024 count=1 2> /dev/null
	chmod 400 "$d/munge.key"
	munged -F -f --key-file="$d/munge.key" --socket="$d/munge.sock" \
		--pid-file="$d/munged.pid" --log-file="$d/munged.log" --seed-file="$d/munged.seed" > "$d/munged.out" 2>&1 &
	cluster_pids="$cluster_pids $!"
	cluster_wait test -S "$d/munge.sock" || { cat "$d/munged.log"; echo "munged did not start"; return 1; }
	node=$(hostname -s)
	cat > "$d/slurm.conf" <<CONF
ClusterName=mmsimtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$(cluster_port)
SlurmdPort=$(cluster_port)
SlurmUser=$(id -un)
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge.sock
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
NodeName=$node NodeAddr=127.0.0.1 CPUs=2 RealMemory=2048 State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
	export SLURM_CONF="$d/slurm.conf"
	/usr/sbin/slurmctld -D -i -f "$d/slurm.conf" > "$d/slurmctld.out" 2>&1 &
	cluster_pids="$cluster_pids $!"
	/usr/sbin/slurmd -D -f "$d/slurm.conf" -N "$node" > "$d/slurmd.out" 2>&1 &
	cluster_pids="$cluster_pids $!"
	cluster_wait sh -c 'sinfo -h -o %t | grep -qx idle' ||
		{ tail -n 20 "$d/slurmctld.log" "$d/slurmd.log" "$d/slurmctld.out" "$d/slurmd.out"; echo "Slurm did not come up"; return 1; }
}

# cluster_same_sweep HERE THERE WHAT: the sweep.csv run here and the one run
# through the cluster are the same, wall-clock columns aside (needs
# sim/csv.sh's $csv_awk); prints the difference and returns 1 if not.
cluster_same_sweep() {
	# Both beside HERE: nothing is added to the cluster's folder.
	n=0
	for f in "$1" "$2"; do
		n=$((n + 1))
		awk "$csv_awk"'{ n = csv_split($0, f) }
		NR == 1 { for (i = 1; i <= n; i++) drop[i] = f[i] ~ /^wall_time_s/ }
		{ s = ""; for (i = 1; i <= n; i++) if (!drop[i]) s = s csv_field(f[i]) ","; print s }' \
			"$f" > "$1.clockless$n"
	done
	diff "$1.clockless1" "$1.clockless2" > /dev/null && return 0
	diff "$1.clockless1" "$1.clockless2" | head
	echo "FAIL: sweep.csv $3 differs"
	return 1
}
