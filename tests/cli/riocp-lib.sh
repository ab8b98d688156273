# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# riocp-lib.sh - what the karmactl tests that check a library against
# libkarma's riocp (karma-tools) share, sourced after tap.sh:
#   riocp_view MUSIC HOME, agree OURS THEIRS.

# riocp_view MUSIC HOME: riocp's list of the objects (fileinfo), as JSON.
riocp_view() {
	HOME=$2 riocp -a "$1" -w -s fid= >/dev/null 2>&1 &&
	python3 - "$2/.openrio/pearl-0/fileinfo" <<'EOF'
import json, sys
objs = []
# binary values (a playlist's list) are no UTF-8: replaced, and agree() skips them
for rec in open(sys.argv[1], encoding='utf-8', errors='replace').read().split('\n\n'):
    kv = dict(l.split('=', 1) for l in rec.splitlines() if '=' in l)
    if kv:
        objs.append(kv)
print(json.dumps(sorted(objs, key=lambda o: int(o['fid']))))
EOF
}

# agree OURS THEIRS: every key we list has riocp's value (binary ones aside).
agree() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
ours, theirs = (json.load(open(p)) for p in sys.argv[1:3])
assert len(ours) == len(theirs), (len(ours), len(theirs))
for o, t in zip(ours, theirs):
    for k, v in o.items():
        if k in ('profile', 'playlist'):
            continue
        assert str(v) == t.get(k), (o['fid'], k, v, t.get(k))
print(len(ours))
EOF
}


# riocp_reads DESCRIPTION: the music partition of $IMG (km: karmactl at its
# offset) copied out, riocp lists the same objects with the same properties
# as `tracks --json` (json: tests' helper). Skipped without riocp.
riocp_reads() {
	if ! command -v riocp >/dev/null; then
		echo "# riocp (karma-tools) is not installed: interop skipped"
		return
	fi
	rm -rf "${W:?}/ours" "${W:?}/home"
	mkdir -p "$W/ours/music" "$W/home"
	check "copy fids0/ out" km get -r /fids0 "$W/ours/music/fids0"
	check "copy var/ out" km get -r /var "$W/ours/music/var"
	kv tracks --json >ours.json
	riocp_view "$W/ours/music" "$W/home" >theirs.json 2>"$ERR"
	report "$1" $?
	same "...the same objects with the same properties" "$(json 'len(d)' <ours.json)" \
		"$(agree ours.json theirs.json 2>&1)"
}
